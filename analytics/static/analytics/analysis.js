// The replay page's analysis panel: the win-share graph under the table, the marks on
// the move list, the better move at a marked one, and "Analyse this game" with its
// progress. Everything comes from GET /api/records/<id>/analysis/ (never from the
// page's cached parts). The viewer (replays/viewer.js) owns the step: this script moves
// it through the URL fragment (#step=K&seat=S), as a shared link does, and follows it by
// watching the step number the viewer writes.
(function () {
  "use strict";
  const panel = document.getElementById("analysis");
  if (!panel) return;
  const $ = (id) => document.getElementById(id);
  const url = panel.dataset.url;
  const list = $("timeline");
  const stepNo = $("step-no");
  const graphBox = $("analysis-graph"), note = $("analysis-note"), statusBox = $("analysis-status");
  const askButton = $("analysis-request"), playersBox = $("analysis-players");
  const puzzleBox = $("analysis-puzzle"), answerBox = $("analysis-answer");
  // ?puzzle=1 (a player page's "find the better move" link): the analysis of the move
  // at the opening step stays hidden until asked for.
  const puzzle = new URLSearchParams(location.search).get("puzzle") === "1";
  // The viewer has already put the step it opened at in the fragment (it runs first).
  const opened = parseInt(new URLSearchParams(location.hash.slice(1)).get("step") || "0", 10);
  const puzzleStep = Number.isFinite(opened) ? opened : 0;
  let revealed = false;
  let analysis = null, names = [], byStep = new Map(), poller = null;

  const SVG = "http://www.w3.org/2000/svg";
  const COLOURS = ["#8b1e2d", "#1f5fa8", "#2e7d32", "#b8860b", "#6a1b9a", "#00838f", "#d84315", "#455a64"];
  const DASHES = ["", "7 4", "2 3", "9 3 2 3", "4 4", "12 4", "2 6", "6 2 2 2"];
  const MARKS = {inaccuracy: "?!", mistake: "?", blunder: "??"};
  // The graph is drawn in the pixels it is shown at (redrawn when the width changes), so
  // its lines, dots and labels keep their shape on a phone and on a wide screen.
  const PAD = 28;
  let W = 1000, H = 200;

  const percent = (x) => Math.round(100 * x) + "%";
  const name = (seat) => names[seat] || "Seat " + (seat + 1);
  const currentStep = () => parseInt((stepNo && stepNo.textContent) || "0", 10) || 0;
  const csrfToken = () => (document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/) || [])[1] || "";

  function say(text) {
    statusBox.textContent = text;
    statusBox.hidden = !text;
  }

  function el(tag, attrs, text) {
    const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Go to step k, keeping the seat the viewer shows: the viewer follows the fragment.
  function jump(k) {
    const params = new URLSearchParams(location.hash.slice(1));
    params.set("step", String(k));
    location.hash = params.toString();
  }

  function drawGraph() {
    W = Math.max(280, Math.round(graphBox.clientWidth || 1000));
    H = W < 600 ? 170 : 210;
    const curve = analysis.result.curve;
    const last = Math.max(1, curve.length - 1);
    const x = (k) => PAD + (k / last) * (W - 2 * PAD);
    const y = (v) => H - PAD - v * (H - 2 * PAD);
    const svg = el("svg:svg", {
      viewBox: "0 0 " + W + " " + H, width: W, height: H, class: "analysis-svg", role: "img",
      "aria-label": "Each player's chance to win over the game; click to go to a step.",
    });
    for (const level of [0, 0.5, 1]) {
      svg.appendChild(el("svg:line", {x1: PAD, x2: W - PAD, y1: y(level), y2: y(level), class: "grid"}));
      svg.appendChild(el("svg:text", {x: 0, y: y(level) + 4, class: "axis"}, percent(level)));
    }
    const seats = analysis.result.num_players;
    for (let seat = 0; seat < seats; seat++) {
      const points = curve.map((row, k) => x(k).toFixed(1) + "," + y(row[seat]).toFixed(1)).join(" ");
      const line = el("svg:polyline", {
        points: points, class: "seat-line", stroke: COLOURS[seat % COLOURS.length],
        "stroke-dasharray": DASHES[seat % DASHES.length], "data-seat": seat,
      });
      line.appendChild(el("svg:title", {}, name(seat)));
      svg.appendChild(line);
    }
    for (const decision of analysis.result.decisions) {
      if (!decision.mark) continue;
      const after = Math.min(decision.step + 1, last);
      const dot = el("svg:circle", {
        cx: x(after), cy: y(curve[after][decision.seat]), r: 6, class: "mark-dot " + decision.mark,
        "data-step": after,
      });
      dot.appendChild(el("svg:title", {}, name(decision.seat) + ": " + decision.mark + " at step " + after));
      svg.appendChild(dot);
    }
    const cursor = el("svg:line", {x1: 0, x2: 0, y1: PAD / 2, y2: H - PAD / 2, class: "cursor", id: "analysis-cursor"});
    svg.appendChild(cursor);
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      const at = ((event.clientX - box.left) / box.width) * W;
      jump(Math.max(0, Math.min(last, Math.round(((at - PAD) / (W - 2 * PAD)) * last))));
    });
    const legend = el("ul", {class: "analysis-legend"});
    for (let seat = 0; seat < seats; seat++) {
      const item = el("li");
      const sample = el("svg:svg", {viewBox: "0 0 30 10", width: 30, height: 10, "aria-hidden": "true"});
      sample.appendChild(el("svg:line", {
        x1: 0, x2: 30, y1: 5, y2: 5, stroke: COLOURS[seat % COLOURS.length], "stroke-width": 3,
        "stroke-dasharray": DASHES[seat % DASHES.length],
      }));
      item.appendChild(sample);
      item.appendChild(document.createTextNode(" " + name(seat)));
      legend.appendChild(item);
    }
    for (const old of graphBox.querySelectorAll("svg.analysis-svg, ul.analysis-legend")) old.remove();
    graphBox.insertBefore(legend, graphBox.firstChild);
    graphBox.insertBefore(svg, legend);
    moveCursor();
  }

  let drawnWidth = 0;
  window.addEventListener("resize", () => {
    if (!analysis || Math.abs(graphBox.clientWidth - drawnWidth) < 8) return;
    drawnWidth = graphBox.clientWidth;
    drawGraph();
  });

  function moveCursor() {
    const cursor = $("analysis-cursor");
    if (!cursor || !analysis) return;
    const last = Math.max(1, analysis.result.curve.length - 1);
    const at = PAD + (Math.min(currentStep(), last) / last) * (W - 2 * PAD);
    cursor.setAttribute("x1", at);
    cursor.setAttribute("x2", at);
  }

  function markMoves() {
    if (!list) return;
    for (const old of list.querySelectorAll(".mark")) old.remove();
    for (const decision of analysis.result.decisions) {
      if (!decision.mark) continue;
      const link = list.querySelector('li[data-step="' + (decision.step + 1) + '"] a');
      if (!link) continue;
      const mark = el("span", {class: "mark " + decision.mark, title: decision.mark});
      mark.appendChild(el("span", {"aria-hidden": "true"}, " " + MARKS[decision.mark]));
      mark.appendChild(el("span", {class: "sr-only"}, " (" + decision.mark + ")"));
      link.appendChild(mark);
    }
  }

  // A label is a sentence ("Take Ana's 6th card."); inside ours it loses its full stop.
  const words = (move) => move.label.replace(/\.$/, "");
  const aMark = (mark) => (mark === "inaccuracy" ? "an " : "a ") + mark;

  function better(decision) {
    return "Better: " + words(decision.best) + ": " + percent(decision.best.win) + " to win against " +
      percent(decision.chosen.win) + ".";
  }

  // At step k: the move that led there (step k - 1 of the analysis), told with its mark.
  function follow() {
    moveCursor();
    if (!analysis) return;
    const k = currentStep();
    // A puzzle's position shows the puzzle alone, and the step after it keeps the answer
    // until it is asked for.
    const hideNote = puzzle && (k === puzzleStep || (!revealed && k === puzzleStep + 1));
    const decision = byStep.get(k - 1);
    if (decision && !hideNote) {
      const plain = name(decision.seat) + "'s move: " + percent(decision.chosen.win) + " to win";
      note.textContent = decision.mark
        ? name(decision.seat) + "'s move was " + aMark(decision.mark) + " (" + MARKS[decision.mark] + "). " +
          better(decision)
        : plain + (decision.best.win > decision.chosen.win + 0.005 ? " (the best found: " + percent(decision.best.win) + ")." : ", as good as any.");
      note.className = "analysis-note" + (decision.mark ? " " + decision.mark : "");
      note.hidden = false;
    } else {
      note.hidden = true;
    }
    puzzleShow(k);
  }

  function puzzleShow(k) {
    const decision = puzzle ? byStep.get(puzzleStep) : null;
    if (!decision || k !== puzzleStep) { puzzleBox.hidden = true; return; }
    $("analysis-puzzle-text").textContent = name(decision.seat) + " is to move here, seeing only what " +
      name(decision.seat) + " could see. What would you play?";
    answerBox.textContent = better(decision) + " " + name(decision.seat) + " played: " + words(decision.chosen) +
      (decision.mark ? ", " + aMark(decision.mark) + "." : ".");
    answerBox.hidden = !revealed;
    puzzleBox.hidden = false;
  }

  function drawPlayers() {
    playersBox.textContent = "";
    const table = el("table", {class: "standings analysis-table"});
    const head = el("tr");
    for (const title of ["Player", "Moves", "Lost a move", "Luck", "Marks"]) head.appendChild(el("th", {scope: "col"}, title));
    table.appendChild(el("thead")).appendChild(head);
    const body = table.appendChild(el("tbody"));
    analysis.result.players.forEach((row, seat) => {
      const tr = el("tr");
      tr.appendChild(el("td", {}, name(seat)));
      tr.appendChild(el("td", {class: "num"}, String(row.decisions)));
      tr.appendChild(el("td", {class: "num"}, row.decision_quality === null ? "–" : (100 * row.decision_quality).toFixed(1) + " pts"));
      tr.appendChild(el("td", {class: "num"}, (row.luck >= 0 ? "+" : "") + (100 * row.luck).toFixed(1) + " pts"));
      const marks = Object.entries(row.marks || {}).filter(([, n]) => n > 0).map(([m, n]) => n + " " + m + (n > 1 ? "s" : ""));
      tr.appendChild(el("td", {}, marks.join(", ") || "none"));
      body.appendChild(tr);
    });
    // Its own sideways scroll if a phone is narrower than the names (the page never scrolls).
    playersBox.appendChild(el("div", {class: "scroll-x"})).appendChild(table);
    playersBox.appendChild(el("p", {class: "muted"},
      "Moves: the decisions valued (a forced move is none). " +
      "Lost a move: points of win share given away on average against the best move found. " +
      "Luck: points of win share that deals and draws gave (+) or took (−)."));
  }

  function show(data) {
    names = data.players || [];
    if (askButton) askButton.hidden = !(data.status === "failed" || (!data.current && data.status === "done"));
    if (data.status === "queued" || data.status === "running") {
      const p = data.progress;
      say(data.status === "queued" ? "Waiting for a worker to analyse this game…"
        : "Analysing: " + p.done + " of " + (p.total || "?") + " moves valued…");
      clearTimeout(poller);
      poller = setTimeout(load, 2000);
      return;
    }
    if (data.status === "unavailable" || data.status === "failed") {
      say((data.error && data.error.message) || "This game cannot be analysed.");
      return;
    }
    analysis = data;
    byStep = new Map(data.result.decisions.map((d) => [d.step, d]));
    const r = data.result;
    say("Analysed with " + r.playouts.toLocaleString() + " playouts" +
      (data.current ? "" : " (by an earlier version of the analysis)") + ".");
    graphBox.hidden = false;  // first, so the graph knows its width
    drawnWidth = graphBox.clientWidth;
    drawGraph();
    markMoves();
    drawPlayers();
    follow();
  }

  async function load() {
    try {
      const response = await fetch(url, {headers: {Accept: "application/json"}});
      const data = await response.json();
      if (!response.ok) { say(data.message || "The analysis could not be read."); if (askButton) askButton.hidden = false; return; }
      show(data);
    } catch (error) {
      say("The analysis could not be read: " + error.message);
    }
  }

  async function ask() {
    askButton.disabled = true;
    say("Asking for an analysis…");
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken()},
        body: "{}",
      });
      const data = await response.json();
      if (!response.ok) { say(data.message || "The analysis could not be asked for."); return; }
      askButton.hidden = true;
      show(data);
    } catch (error) {
      say("The analysis could not be asked for: " + error.message);
    } finally {
      askButton.disabled = false;
    }
  }

  if (askButton) askButton.addEventListener("click", ask);
  // A long game's move list may be drawn after the analysis came (replays' viewer.js).
  if (list) list.addEventListener("giftbox:listed", () => { if (analysis) markMoves(); });
  $("analysis-reveal").addEventListener("click", () => { revealed = true; follow(); });
  if (stepNo) new MutationObserver(follow).observe(stepNo, {childList: true, characterData: true, subtree: true});
  if (panel.dataset.status) load();
})();
