// Copy buttons, for any page: <button data-copy="ID" hidden> copies the text of the element
// with that id (the value of a <textarea> or <input>). The button stays hidden without this
// script, and the text is still there to select by hand. What the button says afterwards is
// shown in the element named by data-copy-status (else the nearest .copy-status in its
// section): data-copied when the clipboard took it, data-selected when the clipboard API is
// missing (a page not served over HTTPS, an older browser) or refuses and the text is left
// selected for the keyboard or the menu.
(function () {
  "use strict";

  function statusOf(button) {
    if (button.dataset.copyStatus) return document.getElementById(button.dataset.copyStatus);
    var section = button.closest("section") || document.body;
    return section.querySelector(".copy-status");
  }

  function say(button, words) {
    var status = statusOf(button);
    if (status) status.textContent = words;
  }

  function textOf(element) {
    return "value" in element ? element.value : element.textContent.trim();
  }

  function select(element) {
    if ("select" in element) {
      element.focus();
      element.select();
      return;
    }
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copied(button) {
    say(button, button.dataset.copied || "Copied.");
  }

  function fallback(button, element) {
    select(element);
    var done = false;
    try {
      done = document.execCommand("copy");
    } catch (error) {
      done = false;
    }
    if (done) {
      copied(button);
    } else {
      say(button, button.dataset.selected ||
        "Selected: copy it (Ctrl+C, \u2318C, or long-press on a phone).");
    }
  }

  function copy(button) {
    var element = document.getElementById(button.dataset.copy);
    if (!element) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(textOf(element)).then(
        function () {
          select(element);
          copied(button);
        },
        function () {
          fallback(button, element);
        }
      );
    } else {
      fallback(button, element);
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        copy(button);
      });
    });
  });
})();
