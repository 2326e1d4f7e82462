"use strict";
// The table page: every state pushed by the table redrawn as it comes (the board, whose turn, the dice, the
// screen, what to put right, scores, the last moves, the seats). body[data-seq] holds the journal length
// shown, for whoever wants to know how far the page has got.

const $ = (id) => document.getElementById(id);

function render(state) {
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.game = state.game;
  $("title").textContent = state.title;
  document.title = `${state.title} - boardkeeper`;
  $("turn").textContent = state.over ? `Game over: ${state.outcome}`
    : state.turn ? `${state.turn} to move` : state.screen ? state.screen.title : "waiting for the game";
  $("turn").classList.toggle("over", state.over);
  const dice = $("dice");
  dice.replaceChildren(...state.dice.map((d) => Live.el("span", d ? "die" : "die blank", d ? String(d) : "")));
  const holder = $("board");
  BoardView.load(holder, state.game).then(() => BoardView.draw(holder, state.pieces, state.disagreeing));
  Live.screen($("oled"), state.screen);
  $("notice").hidden = !state.notice;
  $("notice").textContent = state.notice;
  $("fixbox").hidden = state.fixups.length === 0;
  $("fixups").replaceChildren(...state.fixups.map((fix) => Live.el("li", "", fix)));
  const names = new Map(state.seats.map((s) => [s.seat, s.name]));
  const scores = Object.entries(state.scores);
  $("scorebox").hidden = scores.length === 0;
  $("scores").replaceChildren(...scores.map(([seat, score]) => {
    const row = Live.el("tr");
    row.append(Live.el("th", "", names.get(seat) || seat), Live.el("td", "", String(score)));
    return row;
  }));
  $("recent").replaceChildren(...state.recent.slice().reverse().map((line) => {
    const item = Live.el("li");
    item.value = line.seq;
    item.append(Live.el("span", "who", names.get(line.player) || line.player), " ", Live.el("span", "move", line.move));
    return item;
  }));
  $("withheld").hidden = !state.withheld;
  $("seats").replaceChildren(...state.seats.map((s) => {
    const item = Live.el("li", s.seat === state.to_move ? "to-move" : "");
    item.append(Live.el("span", "who", s.name), ` ${s.name !== s.seat ? `(${s.seat}) ` : ""}`,
                Live.el("span", "by", s.played_by));
    return item;
  }));
}

Live.connect("/api/events", render);

// A seat's code typed here opens its own page (the form posts nowhere: the page allows no form actions)
document.getElementById("join").addEventListener("submit", (event) => {
  event.preventDefault();
  const code = document.getElementById("code").value.trim();
  if (code) location.assign(`/s/${encodeURIComponent(code)}`);
});
