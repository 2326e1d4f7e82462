"use strict";
// A seat's own page: its private screen (its hand, its bet, its organisation) and whose turn it is. The code
// in the address opens it; when it no longer does (the game ended and a new one dealt new codes), the page
// says so instead of retrying.

(() => {
  const seat = decodeURIComponent(location.pathname.split("/").pop());
  const code = new URLSearchParams(location.search).get("code") || "";
  const query = `?code=${encodeURIComponent(code)}`;
  const base = `/api/seat/${encodeURIComponent(seat)}`;
  const $ = (id) => document.getElementById(id);

  function render(state) {
    document.body.dataset.seat = state.seat;
    $("title").textContent = `${state.name}: your seat`;
    document.title = `${state.name} - boardkeeper`;
    Live.screen($("private"), state.private);
    $("turn").textContent = state.over ? `Game over: ${state.outcome}`
      : state.to_move === state.seat ? "Your turn" : state.turn ? `${state.turn} to move` : "";
    Live.screen($("oled"), state.screen);
  }

  function refused(message) {
    $("refused").hidden = false;
    $("refused").textContent = message || "this page's code no longer opens the seat";
    $("private").replaceChildren();
  }

  Live.connect(`${base}/events${query}`, render, `${base}/state${query}`, refused);
})();
