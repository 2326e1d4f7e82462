"use strict";
// A seat's own page: its private screen (its hand, its bet, its organisation), whose turn it is, and the
// decisions it may make here (a bet, a tip from its hand), each a button, or a form for a larger one (an
// organisation, three cards), that sends it to the table with the seat's code; the table answers taken, or why not. The code in the address opens it; when it no longer does
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
    for (const button of document.querySelectorAll("#decide button")) button.disabled = true;
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
    for (const button of document.querySelectorAll("#decide button")) button.disabled = false;
  }

  // A decision too large for a button each (an organisation, three cards): a select per field, the values
  // filled into the form's notation ("place rome Y{0} P{1} G{2}") and sent as any decision is.
  let formKey = "";
  function form(spec) {
    const key = spec ? JSON.stringify(spec) : "";
    $("form").hidden = !spec;
    if (key === formKey) return;  // the same form: keep what the player chose so far
    formKey = key;
    if (!spec) return;
    $("formtitle").textContent = spec.title;
    $("formhint").textContent = spec.hint;
    $("formfields").replaceChildren(...spec.fields.map((field, i) => {
      const label = Live.el("label", "field");
      const select = document.createElement("select");
      select.name = `f${i}`;
      for (const choice of field.choices) {
        const option = Live.el("option", "", choice);
        option.value = choice;
        option.selected = choice === field.value;
        select.append(option);
      }
      label.append(Live.el("span", "", field.label), select);
      return label;
    }));
    $("answer").textContent = "";
  }

  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    const values = [...$("formfields").querySelectorAll("select")].map((select) => select.value);
    send(JSON.parse(formKey).move.replace(/\{(\d+)\}/g, (_, i) => values[Number(i)]));
  });

  function choices(list, seat, spec) {
    const key = list.join("|");
    $("decide").hidden = list.length === 0 && !spec;
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
    choices(state.choices || [], state.seat, state.form);
    form(state.form);
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
