// Copy buttons: <button data-copy="ID" hidden> copies the text of the element with that id.
// The button stays hidden without this script (the text is still there to select by hand).
// Where the clipboard API is missing (a page not served over HTTPS, an older browser) or
// refuses, the text is selected and the visitor is told to copy it themselves.
(function () {
  "use strict";

  function statusFor(button) {
    var section = button.closest("section") || document.body;
    return section.querySelector(".copy-status");
  }

  function say(button, words) {
    var status = statusFor(button);
    if (status) status.textContent = words;
  }

  function select(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function fallback(button, element) {
    select(element);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    if (copied) {
      say(button, "Copied: paste it into a message to whoever you invite.");
    } else {
      say(button, "The link is selected: copy it (Ctrl+C, ⌘C, or long-press on a phone).");
    }
  }

  function copy(button) {
    var element = document.getElementById(button.dataset.copy);
    if (!element) return;
    var text = element.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () {
          select(element);
          button.textContent = "Copied";
          say(button, "Copied: paste it into a message to whoever you invite.");
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
