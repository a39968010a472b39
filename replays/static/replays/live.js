// Live play: the table as your seat sees it, your moves on the cards they act on
// (or as buttons in words), and every move, the bots' too, in the timeline as it
// happens. The seat token travels in the URL fragment, which browsers never send
// to a server; the page sends it in the Authorization header only.
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  const headers = {"Accept": "application/json"};
  if (token) headers["Authorization"] = "Seat " + token;
  let view = null, busy = false, menu = null;

  function closeMenu() { if (menu) { menu.remove(); menu = null; } }

  function moveButton(move) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.label;
    button.onclick = () => { closeMenu(); play(move.event); };
    return button;
  }

  function offerMenu(element, moves) {
    closeMenu();
    menu = document.createElement("div");
    menu.className = "move-menu";
    menu.setAttribute("role", "menu");
    for (const move of moves) menu.appendChild(moveButton(move));
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.onclick = closeMenu;
    menu.appendChild(cancel);
    const box = element.getBoundingClientRect();
    menu.style.left = Math.max(4, Math.min(box.left + window.scrollX, window.innerWidth - 260)) + "px";
    menu.style.top = (box.bottom + window.scrollY + 4) + "px";
    document.body.appendChild(menu);
  }

  function status() {
    if (view.status === "finished") {
      return "Game over. " + (view.result ? winners(view.result) : "");
    }
    const mine = view.seat !== null && view.waiting_for.includes(view.seat);
    if (mine) {
      const onCards = view.moves.some((m) => m.target);
      return "Your move, " + view.players[view.seat] + (onCards ? ": pick a highlighted card." : ".");
    }
    const names = view.waiting_for.filter((a) => a !== "chance").map((s) => view.players[s]);
    return names.length ? "Waiting for " + names.join(" and ") + "." : "Dealing\u2026";
  }

  function winners(result) {
    const names = result.winners.map((s) => view.players[s]);
    return names.join(" and ") + (names.length === 1 ? " wins" : " share the win") +
      " with " + Math.max(...result.scores) + " points.";
  }

  function renderTimeline() {
    const list = $("timeline");
    const known = list.children.length;
    for (const entry of view.timeline.slice(known)) {
      const item = document.createElement("li");
      item.dataset.step = entry.step;
      if (known > 0) item.classList.add("new");
      const link = document.createElement("a");
      const n = document.createElement("span");
      n.className = "n";
      n.textContent = entry.step + ". ";
      link.append(n, document.createTextNode(entry.text));
      item.appendChild(link);
      list.appendChild(item);
    }
    const box = list.parentElement;
    box.scrollTop = box.scrollHeight;
  }

  function renderMoves() {
    const loose = $("moves");
    loose.replaceChildren();
    const byTarget = new Map();
    for (const move of view.moves) {
      const element = move.target ? $("table").querySelector('[data-key="' + CSS.escape(move.target) + '"]') : null;
      if (!element) { loose.appendChild(moveButton(move)); continue; }
      if (!byTarget.has(element)) byTarget.set(element, []);
      byTarget.get(element).push(move);
    }
    for (const [element, moves] of byTarget) {
      element.classList.add("playable");
      element.tabIndex = 0;
      element.setAttribute("role", "button");
      element.setAttribute("aria-label", moves.map((m) => m.label).join(" / "));
      const act = () => (moves.length === 1 ? play(moves[0].event) : offerMenu(element, moves));
      element.onclick = act;
      element.onkeydown = (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); act(); } };
    }
  }

  async function load() {
    const response = await fetch(root.dataset.api, {headers});
    const data = await response.json();
    if (!response.ok) {
      $("status").textContent = "";
      $("error").textContent = data.message;
      return;
    }
    await render(data);
  }

  async function render(data) {
    view = data;
    closeMenu();
    const table = await fetch(root.dataset.tableUrl, {headers: Object.assign({}, headers, {"Accept": "text/html"})});
    $("table").innerHTML = await table.text();
    root.dataset.step = String(view.step);
    renderTimeline();
    renderMoves();
    $("status").textContent = status();
    if (view.status === "finished" && view.record) {
      const link = document.createElement("a");
      link.href = "/records/" + view.record + "/";
      link.id = "record-link";
      link.textContent = "See the stored record and replay it";
      $("status").append(" ", link);
    }
  }

  const csrfToken = () => (document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/) || [])[1] || "";

  async function play(event) {
    if (busy) return;
    busy = true;
    root.classList.add("busy");
    for (const button of document.querySelectorAll("#moves button")) button.disabled = true;
    try {
      const response = await fetch(root.dataset.api + "events/", {
        method: "POST",
        // A logged-in visitor's session makes the API check CSRF on writes.
        headers: Object.assign({"Content-Type": "application/json", "X-CSRFToken": csrfToken()}, headers),
        body: JSON.stringify({step: view.step, event: event}),
      });
      const data = await response.json();
      $("error").textContent = response.ok ? "" : data.message;
      if (response.ok) await render(data); else await load();
    } finally {
      busy = false;
      root.classList.remove("busy");
    }
  }

  document.addEventListener("click", (event) => {
    if (menu && !menu.contains(event.target) && !event.target.closest(".playable")) closeMenu();
  });
  load();
  // Poll only while others are to move, so nothing changes under the player's hand.
  setInterval(() => {
    if (view && !busy && view.status === "live" && !view.waiting_for.includes(view.seat)) load();
  }, 2500);
})();
