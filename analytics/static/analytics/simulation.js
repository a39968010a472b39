// The balance lab's progress: polls GET /api/simulations/{id}/ for every job on the page
// that is still queued or running, and updates its bar and words. No inline scripts.
(function () {
  "use strict";
  var STATES = { queued: "waiting for a worker", running: "running", done: "finished", failed: "stopped" };
  var POLL_MS = 1000;

  function show(item, job) {
    var bar = item.querySelector("progress");
    var status = item.querySelector(".job-status");
    var errors = item.querySelector(".job-errors");
    if (bar) { bar.max = job.total; bar.value = job.done; bar.textContent = job.done + " of " + job.total; }
    if (status) status.textContent = job.done + " of " + job.total + " played \u00b7 " + (STATES[job.state] || job.state);
    if (errors) {
      errors.textContent = job.errors && job.errors.length
        ? job.errors.length + (job.errors.length === 1 ? " problem: " : " problems: ") + job.errors[0].message
        : "";
    }
    item.dataset.state = job.state;
  }

  function poll(item) {
    fetch(item.dataset.jobUrl, { headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (job) {
        if (!job) return;
        show(item, job);
        if (job.state === "queued" || job.state === "running") {
          window.setTimeout(function () { poll(item); }, POLL_MS);
        } else if (job.state === "done") {
          var note = document.querySelector(".job-done-note");
          if (note) { note.hidden = false; note.querySelector("a").href = window.location.pathname + "#balance-lab"; }
        }
      })
      .catch(function () { window.setTimeout(function () { poll(item); }, 5 * POLL_MS); });
  }

  function start() {
    document.querySelectorAll("li.job[data-job-url]").forEach(function (item) {
      if (item.dataset.state === "queued" || item.dataset.state === "running") poll(item);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
