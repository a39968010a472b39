// House rules pickers (core/_house_rules.html): show only the fieldset of the game chosen
// in the form's game select, and disable the others so that they are not sent (the server
// reads only the chosen game's rules). Without this script every fieldset is shown.
(function () {
  "use strict";

  function sync(select, sets) {
    sets.forEach(function (set) {
      var chosen = set.dataset.game === select.value;
      set.hidden = !chosen;
      set.disabled = !chosen;
    });
  }

  function start() {
    document.querySelectorAll("[data-house-rules-for]").forEach(function (box) {
      var select = document.getElementById(box.dataset.houseRulesFor);
      if (!select) return;
      var sets = Array.prototype.slice.call(box.querySelectorAll("fieldset.house-rules[data-game]"));
      sync(select, sets);
      select.addEventListener("change", function () { sync(select, sets); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
