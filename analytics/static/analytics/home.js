// The home page's "Play against the service" form: opens a live game with bots in
// the other seats and goes to its page, the seat token in the URL fragment (never
// sent to the server in a request line).
(function () {
  "use strict";
  const form = document.getElementById("play");
  if (!form) return;
  const csrfToken = () => (document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/) || [])[1] || "";
  form.addEventListener("submit", async (submit) => {
    submit.preventDefault();
    const data = new FormData(form);
    const option = form.game.selectedOptions[0];
    const n = Math.max(+option.dataset.min, Math.min(+option.dataset.max, +data.get("players")));
    const players = [data.get("name")];
    const bots = {};
    for (let seat = 1; seat < n; seat++) { players.push("bot-" + seat); bots[seat] = data.get("bot"); }
    const error = document.getElementById("play-error");
    let response;
    let answer;
    try {
      response = await fetch(form.dataset.create, {
        // A logged-in visitor's session makes the API check CSRF on writes.
        method: "POST", headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken()},
        body: JSON.stringify({game: data.get("game"), players: players, bots: bots}),
      });
      answer = await response.json();
    } catch (failure) {
      error.textContent = "The server could not be reached (" + failure.message + ").";
      return;
    }
    if (!response.ok) { error.textContent = answer.message; return; }
    location.href = "/live/" + answer.id + "/#token=" + answer.seat_tokens[0];
  });
})();
