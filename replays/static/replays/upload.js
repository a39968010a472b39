// The upload page: reads a file or pasted text, sends it to the bulk API in batches
// and lists each game's outcome.
(function () {
  "use strict";
  // At most this many games per request (the API takes 1000, and bodies have a size limit).
  const BATCH = 200;
  const csrfToken = () => (document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/) || [])[1] || "";
  const root = document.getElementById("uploader");
  const bulkUrl = root.dataset.bulk;
  const replayUrl = (id) => root.dataset.replay.replace(/0\/$/, id + "/");
  const gameNames = JSON.parse(document.getElementById("game-names").textContent);
  const dropzone = document.getElementById("dropzone");
  const fileInput = document.getElementById("file");
  const text = document.getElementById("text");
  const sendButton = document.getElementById("send");
  const statusLine = document.getElementById("status");
  const outcomes = document.getElementById("outcomes");

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function namesList(names) {
    if (names.length < 2) return names.join("");
    return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  // Split the text into requests; each knows how to name its documents ("Line 3").
  function plan(body) {
    const trimmed = body.trim();
    if (!trimmed) throw new Error("There is nothing to upload: choose a file or paste a game.");
    let whole;
    let wholeError = null;
    try { whole = JSON.parse(trimmed); } catch (error) { wholeError = error; }
    if (wholeError === null) {
      if (!Array.isArray(whole)) {
        return [{type: "application/json", body: trimmed, label: () => "The game"}];
      }
      if (whole.length === 0) throw new Error("The list holds no games.");
      if (whole.length <= BATCH) {
        return [{type: "application/json", body: trimmed, label: (n) => "Game " + n}];
      }
      const batches = [];
      for (let start = 0; start < whole.length; start += BATCH) {
        batches.push({
          type: "application/json",
          body: JSON.stringify(whole.slice(start, start + BATCH)),
          label: (n) => "Game " + (start + n),
        });
      }
      return batches;
    }
    const lines = body.split(/\r?\n/);
    const entries = [];
    lines.forEach((line, index) => { if (line.trim()) entries.push({number: index + 1, line: line}); });
    const first = entries[0].line.trim();
    if (first === "{" || first === "[") {
      throw new Error("This looks like one JSON document, but it is not valid JSON: " + wholeError.message);
    }
    const batches = [];
    for (let start = 0; start < entries.length; start += BATCH) {
      const chunk = entries.slice(start, start + BATCH);
      batches.push({
        type: "application/x-ndjson",
        body: chunk.map((entry) => entry.line).join("\n"),
        label: (n) => "Line " + (chunk[n - 1] ? chunk[n - 1].number : n),
      });
    }
    return batches;
  }

  function replayLink(id) {
    const link = document.createElement("a");
    link.href = replayUrl(id);
    link.textContent = "Replay";
    return link;
  }

  function outcomeItem(label, item) {
    const li = document.createElement("li");
    li.className = item.status;
    if (item.status === "refused") {
      li.id = "refused-" + (outcomes.children.length + 1);
      // The server numbers lines within one request; say it without its number.
      const message = item.error.code === "malformed_json"
        ? item.error.message.replace(/^Line \d+ is not JSON/, "it is not JSON")
        : item.error.message;
      li.textContent = label + ": refused: " + message;
      return li;
    }
    const game = gameNames[item.game] || item.game;
    const winners = (item.result.winners || []).map((seat) => item.players[seat]);
    const told = winners.length ? namesList(winners) + " won" : "no winner";
    const what = item.status === "stored" ? "stored as record #" : "already stored as #";
    li.append(label + ": " + what + item.id + " (" + game + ", " + told + ") — ", replayLink(item.id));
    return li;
  }

  const problems = [];

  function problem(message) {
    const li = document.createElement("li");
    li.className = "refused";
    li.textContent = message;
    outcomes.append(li);
    problems.push(message);
  }

  // Refusals said at the top, as every form's error summary (core/_error_summary.html):
  // a file of many games shows which were refused, each linked to its line below, and
  // the box takes the focus so that on a phone the answer is not below the fold.
  function summaryShow(refused, problems, total) {
    const old = document.getElementById("upload-summary");
    if (old) old.remove();
    if (!refused.length && !problems.length) return;
    const box = document.createElement("div");
    box.id = "upload-summary";
    box.className = "error-summary";
    box.setAttribute("role", "alert");
    box.tabIndex = -1;
    const title = document.createElement("p");
    title.className = "error-summary-title";
    title.textContent = problems.length
      ? "The upload stopped: games before the problem are stored, the rest are not."
      : refused.length + " of " + plural(total, "game") + " refused. A refused game is not stored: correct it and upload it again.";
    const list = document.createElement("ul");
    for (const message of problems) {
      const li = document.createElement("li");
      li.textContent = message;
      list.append(li);
    }
    for (const li of refused) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#" + li.id;
      link.textContent = li.textContent;
      item.append(link);
      list.append(item);
    }
    box.append(title, list);
    outcomes.before(box);
    box.focus();
    box.scrollIntoView({block: "start"});
  }

  async function upload(body, source) {
    outcomes.replaceChildren();
    summaryShow([], [], 0);
    let batches;
    try { batches = plan(body); } catch (error) { statusLine.textContent = error.message; return; }
    sendButton.disabled = true;
    fileInput.disabled = true;
    const tally = {stored: 0, present: 0, refused: 0};
    const refused = [];
    problems.length = 0;
    try {
      for (let i = 0; i < batches.length; i += 1) {
        const batch = batches[i];
        statusLine.textContent = "Checking " + source + (batches.length > 1 ? " (part " + (i + 1) + " of " + batches.length + ")" : "") + "…";
        let response;
        let data = null;
        try {
          response = await fetch(bulkUrl, {
            method: "POST",
            // A logged-in visitor's session makes the API check CSRF on writes.
            headers: {"Content-Type": batch.type, "Accept": "application/json", "X-CSRFToken": csrfToken()},
            body: batch.body,
          });
          data = await response.json();
        } catch (error) {
          problem("The upload did not reach the server or its answer was not understood (" + error.message + ").");
          break;
        }
        if (!response.ok) {
          problem("Refused: " + (data && data.message ? data.message : "the server answered " + response.status + "."));
          break;
        }
        for (const item of data.items) {
          tally[item.status] += 1;
          const li = outcomeItem(batch.label(item.line), item);
          outcomes.append(li);
          if (item.status === "refused") refused.push(li);
        }
      }
      statusLine.textContent = source + ": " + plural(tally.stored, "game") + " stored, " +
        tally.present + " already stored, " + tally.refused + " refused.";
      summaryShow(refused, problems, tally.stored + tally.present + tally.refused);
    } finally {
      sendButton.disabled = false;
      fileInput.disabled = false;
    }
  }

  async function uploadFile(file) {
    if (!file) return;
    let body;
    try { body = await file.text(); } catch (error) { statusLine.textContent = "Could not read " + file.name + "."; return; }
    await upload(body, file.name);
  }

  fileInput.addEventListener("change", () => { uploadFile(fileInput.files[0]); fileInput.value = ""; });
  document.getElementById("paste").addEventListener("submit", (event) => {
    event.preventDefault();
    upload(text.value, "Pasted text");
  });
  dropzone.addEventListener("dragover", (event) => { event.preventDefault(); dropzone.classList.add("over"); });
  dropzone.addEventListener("dragleave", () => dropzone.classList.remove("over"));
  dropzone.addEventListener("drop", (event) => {
    event.preventDefault();
    dropzone.classList.remove("over");
    if (event.dataTransfer && event.dataTransfer.files.length) uploadFile(event.dataTransfer.files[0]);
  });
  // A file dropped next to the zone must not replace the page.
  window.addEventListener("dragover", (event) => event.preventDefault());
  window.addEventListener("drop", (event) => event.preventDefault());
})();
