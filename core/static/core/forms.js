// A form sent back with errors: bring its summary of errors (core/_error_summary.html)
// into view and focus it, so a phone shows what went wrong instead of what looks like
// the same form again, and a screen reader reads it out. A link in the summary moves
// the focus to the field it names.
(function () {
  "use strict";
  function start() {
    var summary = document.querySelector("[data-error-summary]");
    if (!summary) {
      return;
    }
    var details = summary.closest("details");
    if (details) {
      details.open = true;
    }
    summary.focus();
    summary.scrollIntoView({ block: "start" });
    summary.addEventListener("click", function (event) {
      var link = event.target.closest("a[href^='#']");
      if (!link) {
        return;
      }
      var field = document.getElementById(link.getAttribute("href").slice(1));
      if (field) {
        event.preventDefault();
        field.scrollIntoView({ block: "center" });
        field.focus();
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
