"use strict";
// The self-test page: the board's matrix as the profile wires it (/api/matrix, once), each cell lit while
// its sensor reads closed, ticked once a self-test has seen it working, and marked at the end when it never
// closed; the report as the self-test gives it. A cell's title names its location and row/column, as the
// report does, so a builder finds the wire.

const $ = (id) => document.getElementById(id);
const cells = new Map();  // location -> its <td>

async function drawMatrix() {
  const wiring = await Live.json("/api/matrix", "smessage");
  if (!wiring) return;
  $("title").textContent = `Self-test: ${wiring.board}`;
  const at = new Map();
  for (const [loc, [r, c, label]] of Object.entries(wiring.cells)) at.set(`${r},${c}`, { loc, label });
  for (const [name, [r, c]] of Object.entries(wiring.buttons)) at.set(`${r},${c}`, { button: name, label: name });
  const table = $("matrix");
  const head = Live.el("tr");
  head.append(Live.el("th", "", ""));
  for (let c = 0; c < wiring.cols; c++) head.append(Live.el("th", "", `c${c}`));
  table.append(head);
  for (let r = 0; r < wiring.rows; r++) {
    const row = Live.el("tr");
    row.append(Live.el("th", "", `r${r}`));
    for (let c = 0; c < wiring.cols; c++) {
      const what = at.get(`${r},${c}`);
      const td = Live.el("td", what ? (what.button ? "cell button" : "cell") : "cell unused", what ? what.label : "");
      td.title = what ? `${what.loc || `button ${what.button}`} (r${r} c${c})` : `r${r} c${c}: not wired`;
      if (what && what.loc) cells.set(what.loc, td);
      row.append(td);
    }
    table.append(row);
  }
}

function render(state) {
  document.body.dataset.seq = String(state.seq);
  Live.screen($("oled"), state.screen);
  const closed = new Set(state.sensed);
  const seen = new Set(state.seen);
  const done = state.over && state.report.length > 0;
  for (const [loc, td] of cells) {
    td.classList.toggle("closed", closed.has(loc));
    td.classList.toggle("seen", seen.has(loc));
    td.classList.toggle("never", done && !seen.has(loc));
  }
  document.body.dataset.seen = String(seen.size);
  document.body.dataset.done = done ? "yes" : "no";
  $("reportbox").hidden = state.report.length === 0;
  $("reporttitle").textContent = done ? "Report" : "Report so far";
  $("report").replaceChildren(...state.report.map((line) => Live.el("li", "", line)));
}

drawMatrix().then(() => Live.connect("/api/events", render));
