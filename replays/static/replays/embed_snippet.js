// The embed snippet (replays/_embed_snippet.html): the <iframe> a club pastes into its
// own page, copied in one tap. Where the clipboard is refused, the code is left
// selected for the keyboard or the menu.
(function () {
  "use strict";
  const button = document.getElementById("embed-copy");
  const code = document.getElementById("embed-code");
  const said = document.getElementById("embed-copied");
  if (!button || !code || !said) return;
  button.addEventListener("click", async () => {
    code.focus();
    code.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(code.value);
      copied = true;
    } catch (error) {
      copied = Boolean(document.execCommand && document.execCommand("copy"));
    }
    said.textContent = copied ? "Copied: paste it into your page." : "Selected: copy it with your keyboard or menu.";
  });
})();
