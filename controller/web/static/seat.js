"use strict";
// A seat's own page: its private screen (its hand, its bet, its organisation), whose turn it is, and the
// decisions it may make here (a bet, a tip from its hand), each a button that sends it to the table with the
// seat's code; the table answers taken, or why not. The code in the address opens it; when it no longer does
// (the game ended and a new one dealt new codes), the page says so instead of retrying.

(() => {
  const seat = decodeURIComponent(location.pathname.split("/").pop());
  const code = new URLSearchParams(location.search).get("code") || "";
  const query = `?code=${encodeURIComponent(code)}`;
  const base = `/api/seat/${encodeURIComponent(seat)}`;
  const $ = (id) => document.getElementById(id);

  let offered = "";

  // "bet p1 noiro" -> "bet noiro", "tip p1 roujo 2" -> "tip roujo 2": the seat is this page's own
  function label(move, seat) {
    const words = move.split(" ");
    return (words[1] === seat ? [words[0], ...words.slice(2)] : words).join(" ");
  }

  async function send(move) {
    $("answer").textContent = "sending...";
    for (const button of $("choices").querySelectorAll("button")) button.disabled = true;
    try {
      const answer = await fetch(`${base}/decide${query}`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ move }),
        cache: "no-store",
      });
      const text = await answer.text();
      let said = text.trim();
      try { const json = JSON.parse(text); said = json.taken ? `Taken: ${label(move, seat)}` : json.why; } catch (e) {}
      $("answer").textContent = said;
      $("answer").dataset.taken = answer.ok ? "yes" : "no";
    } catch (e) {
      $("answer").textContent = "the table did not answer: try again";
      $("answer").dataset.taken = "no";
    }
    for (const button of $("choices").querySelectorAll("button")) button.disabled = false;
  }

  function choices(list, seat) {
    const key = list.join("|");
    $("decide").hidden = list.length === 0;
    if (key === offered) return;  // the same choices: keep the buttons (and the answer) as they are
    offered = key;
    $("choices").replaceChildren(...list.map((move) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.move = move;
      button.textContent = label(move, seat);
      button.addEventListener("click", () => send(move));
      return button;
    }));
    if (list.length) $("answer").textContent = "";
  }

  function render(state) {
    document.body.dataset.seat = state.seat;
    choices(state.choices || [], state.seat);
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
