// The replay viewer: steps through a record by swapping in the table the server drew.
// The timeline (every step told in words) is fetched once per perspective; the table
// of each step is fetched as HTML and cached. Step and seat live in the URL fragment
// (#step=12&seat=1), so a position can be shared.
(function () {
  "use strict";
  const root = document.getElementById("viewer");
  if (!root) return;
  const last = parseInt(root.dataset.last, 10);
  const $ = (id) => document.getElementById(id);
  const tableBox = $("table"), list = $("timeline"), slider = $("slider"), seatSelect = $("seat");
  const playButton = $("play"), speedSelect = $("speed"), textBox = $("step-text");
  const tables = new Map(), timelines = new Map();
  let step = 0, seat = "", timer = null, shown = 0;
  // Whether the viewer opened the table's list of moves ("What Ben may do"): each step's
  // table comes folded, and one studying the choices step by step keeps it open. A step
  // without a list (the end, a deal) leaves the choice as it was. A folded list comes
  // empty (data-later): the table with its moves in words is asked for once it is
  // opened, and for every step while it stays open.
  let movesOpen = false;
  // The table request show() is waiting for: one at a time, so a slider dragged across
  // a thousand steps asks for the step it is on when the last answer came, not for each
  // step it passed (every one of them a step the server draws, never to be shown). An
  // answer that has not come after a second is waited for no longer: a stalled request
  // never holds the viewer.
  let loading = Promise.resolve();
  const WAIT_AT_MOST = 1000;  // ms
  const settled = (promise) =>
    Promise.race([promise, new Promise((done) => setTimeout(done, WAIT_AT_MOST))]);

  function tableUrl(k, s, listed) {
    const params = new URLSearchParams();
    if (s !== "") params.set("seat", s);
    if (listed) params.set("moves", "listed");
    const query = params.toString();
    return root.dataset.tableUrl.replace(/\/0\/table\/$/, "/" + k + "/table/") + (query ? "?" + query : "");
  }

  function fetchTable(k, s, listed) {
    const key = s + ":" + k + (listed ? ":listed" : "");
    if (!tables.has(key)) {
      const request = fetch(tableUrl(k, s, listed), {headers: {"Accept": "text/html"}}).then((r) =>
        r.ok ? r.text() : r.text().then((t) => Promise.reject(new Error(t))));
      request.catch(() => tables.delete(key));
      tables.set(key, request);
    }
    return tables.get(key);
  }

  function fetchTimeline(s) {
    if (!timelines.has(s)) {
      const url = root.dataset.timelineUrl + (s === "" ? "" : "?seat=" + s);
      const request = fetch(url, {headers: {"Accept": "application/json"}}).then((r) => r.json());
      request.catch(() => timelines.delete(s));
      timelines.set(s, request);
    }
    return timelines.get(s);
  }

  function remember() {
    const params = new URLSearchParams({step: String(step)});
    if (seat !== "") params.set("seat", seat);
    history.replaceState(null, "", "#" + params.toString());
    const link = $("permalink");
    if (link) link.href = "#" + params.toString();
    for (const span of document.querySelectorAll(".fork-step")) span.textContent = step;
  }

  function markCurrent() {
    const previous = list.querySelector("li.current");
    if (previous) previous.classList.remove("current");
    const item = list.querySelector('li[data-step="' + step + '"]');
    if (item) {
      item.classList.add("current");
      const box = list.parentElement;
      const top = item.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - item.offsetHeight) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 3);
      }
    }
  }

  // A long game visited before its preparation told it comes without its move list
  // (data-pending): the list is drawn here from the timeline, which the viewer fetches
  // anyway, as the server draws it (replays.selectors.timeline_items_html).
  function fillList(timeline) {
    if (!list.dataset.pending) return;
    if (!timeline || !timeline.steps) {
      const note = list.querySelector("li.pending");
      if (note) note.textContent = "The moves could not be loaded: reload the page to try again.";
      return;
    }
    const items = document.createDocumentFragment();
    for (const entry of timeline.steps) {
      const item = document.createElement("li"), link = document.createElement("a");
      const number = document.createElement("span"), text = document.createElement("span");
      item.dataset.step = String(entry.step);
      link.href = "#step=" + entry.step;
      number.className = "n";
      number.textContent = entry.step + ".";
      text.className = "t";
      text.textContent = entry.text;
      link.append(number, " ", text);
      item.append(link);
      items.append(item);
    }
    list.replaceChildren(items);
    delete list.dataset.pending;
    list.removeAttribute("aria-busy");
    markCurrent();
    list.dispatchEvent(new CustomEvent("giftbox:listed"));  // the analysis marks its moves
  }

  async function show(k) {
    step = Math.max(0, Math.min(last, Number.isFinite(k) ? k : 0));
    const mine = ++shown;
    slider.value = step;
    $("step-no").textContent = step;
    $("prev").disabled = $("first").disabled = step === 0;
    $("next").disabled = $("last").disabled = step === last;
    remember();
    markCurrent();
    const timeline = await fetchTimeline(seat).catch(() => null);
    fillList(timeline);
    if (mine !== shown) return;
    if (timeline && timeline.steps && timeline.steps[step]) textBox.textContent = timeline.steps[step].text;
    await settled(loading);
    if (mine !== shown) return;
    listOpenRead();
    try {
      const request = fetchTable(step, seat, movesOpen);
      loading = request.catch(() => {});
      const html = await request;
      if (mine !== shown) return;
      swapTable(html);
      root.dataset.shownStep = String(step);
      root.dataset.shownSeat = seat;
    } catch (error) {
      if (mine === shown) textBox.textContent = "Could not load this step: " + error.message;
    }
    if (step < last) fetchTable(step + 1, seat, movesOpen).catch(() => {});
  }

  // The shown list's state, read as the click lands (its toggle event comes later).
  function listOpenRead() {
    const shownList = tableBox.querySelector("details.moves-list");
    if (shownList) movesOpen = shownList.open;
  }

  function swapTable(html) {
    listOpenRead();
    tableBox.innerHTML = html;
    const moves = tableBox.querySelector("details.moves-list");
    if (moves && movesOpen) moves.open = true;  // a folded, empty list asks for its moves
  }

  // A folded list opened (by the visitor, or by swapTable for one who keeps it open):
  // the same step's table with its moves in words takes its place, still open.
  tableBox.addEventListener("toggle", async (event) => {
    const opened = event.target;
    if (!opened.matches("details.moves-list[data-later]") || !opened.open) return;
    movesOpen = true;
    const k = parseInt(root.dataset.shownStep, 10), s = root.dataset.shownSeat || "";
    try {
      const html = await fetchTable(k, s, true);
      if (tableBox.contains(opened) && opened.open) swapTable(html);
    } catch (error) {
      const note = opened.querySelector("p");
      if (note) note.textContent = "The moves could not be loaded: " + error.message;
    }
  }, true);  // toggle does not bubble

  // "Play on from here" offers the seat being watched: a viewer following Ben's view
  // means to play on as Ben. Everyone's view leaves the choice as it is.
  function forkSeatFollow() {
    const pick = document.querySelector("#fork-form select[name=seat]");
    if (pick && seat !== "") pick.value = seat;
  }

  async function setSeat(value) {
    seat = value;
    seatSelect.value = value;
    forkSeatFollow();
    const timeline = await fetchTimeline(seat).catch(() => null);
    if (timeline && timeline.steps) {
      for (const entry of timeline.steps) {
        const text = list.querySelector('li[data-step="' + entry.step + '"] .t');
        if (text) text.textContent = entry.text;
      }
    }
    show(step);
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.textContent = "Play";
    playButton.setAttribute("aria-label", "Play");
  }
  function play() {
    if (step >= last) show(0);
    stop();
    timer = setInterval(() => (step >= last ? stop() : show(step + 1)), parseInt(speedSelect.value, 10));
    playButton.textContent = "Pause";
    playButton.setAttribute("aria-label", "Pause");
  }

  $("first").onclick = () => { stop(); show(0); };
  $("prev").onclick = () => { stop(); show(step - 1); };
  $("next").onclick = () => { stop(); show(step + 1); };
  $("last").onclick = () => { stop(); show(last); };
  playButton.onclick = () => (timer === null ? play() : stop());
  speedSelect.onchange = () => { if (timer !== null) play(); };
  slider.oninput = () => { stop(); show(parseInt(slider.value, 10)); };
  seatSelect.onchange = () => setSeat(seatSelect.value);
  list.addEventListener("click", (event) => {
    const item = event.target.closest("li[data-step]");
    if (!item) return;
    event.preventDefault();
    stop();
    show(parseInt(item.dataset.step, 10));
  });
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: last};
    if (event.key in moves) { event.preventDefault(); stop(); show(moves[event.key]); }
    else if (event.key === " ") { event.preventDefault(); timer === null ? play() : stop(); }
  });
  window.addEventListener("hashchange", () => {
    const params = new URLSearchParams(location.hash.slice(1));
    const wanted = params.get("seat") || "";
    if (wanted !== seat) setSeat(wanted);
    else if (params.has("step") && parseInt(params.get("step"), 10) !== step) show(parseInt(params.get("step"), 10));
  });

  const csrfToken = () => (document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/) || [])[1] || "";
  const fork = $("fork-form");
  if (fork) {
    fork.onsubmit = async (submit) => {
      submit.preventDefault();
      const form = new FormData(fork);
      const me = parseInt(form.get("seat"), 10);
      const seats = Array.from(seatSelect.options).slice(1).map((_, s) => (s === me ? "person" : form.get("bot")));
      $("fork-button").disabled = true;
      const response = await fetch(root.dataset.forkUrl, {
        method: "POST",
        // A logged-in visitor's session makes the API check CSRF on writes.
        headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrfToken()},
        body: JSON.stringify({step: step, seats: seats}),
      });
      const data = await response.json();
      $("fork-button").disabled = false;
      if (!response.ok) { $("fork-error").textContent = data.message; return; }
      location.href = data.page + "#token=" + data.seat_tokens[me];
    };
  }

  const initial = new URLSearchParams(location.hash.slice(1));
  seat = initial.get("seat") || "";
  if (seat !== "" && !Array.from(seatSelect.options).some((o) => o.value === seat)) seat = "";
  const first = parseInt(initial.get("step") || "0", 10);
  step = Number.isFinite(first) ? first : 0;
  if (seat !== "") setSeat(seat); else show(step);
})();
