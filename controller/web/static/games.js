"use strict";
// The games page: the journals in the table's journal folder; one opened is replayed position by position
// with its board, the screen the table would show there, and its moves to jump to.

(() => {
  const $ = (id) => document.getElementById(id);
  let steps = [];
  let at = 0;

  async function list() {
    const answer = await fetch("/api/journals", { cache: "no-store" });
    const data = await answer.json();
    const items = data.journals.map((j) => {
      const item = Live.el("li");
      const what = `${j.title}, ${j.moves} moves${j.finished ? ", finished" : ""}`;
      if (j.closed) {
        item.append(Live.el("span", "name", j.name), " ", Live.el("span", "what", what),
                    Live.el("div", "hint", j.closed));
      } else {
        const link = Live.el("a", "name", j.name);
        link.href = `#${encodeURIComponent(j.name)}`;
        item.append(link, " ", Live.el("span", "what", what));
      }
      if (j.started) item.append(Live.el("div", "when", j.started.replace("T", " ").slice(0, 19)));
      return item;
    });
    $("journals").replaceChildren(...(items.length ? items : [Live.el("li", "", "no journals yet")]));
  }

  async function open(name) {
    const answer = await fetch(`/api/journals/${encodeURIComponent(name)}`, { cache: "no-store" });
    $("gmessage").hidden = answer.ok;
    if (!answer.ok) {
      $("viewer").hidden = true;
      $("gmessage").textContent = (await answer.text()).trim();
      return;
    }
    const game = await answer.json();
    steps = game.steps;
    $("viewer").hidden = false;
    $("vtitle").textContent = `${game.title}: ${game.finished ? game.outcome : "not finished"}`;
    const stem = encodeURIComponent(name.replace(/\.jsonl$/, ""));
    $("jsonl").href = `/journals/${stem}.jsonl`;
    $("text").href = `/journals/${stem}.txt`;
    $("slider").max = String(steps.length - 1);
    $("moves").replaceChildren(...steps.slice(1).map((step, i) => {
      const item = Live.el("li");
      item.value = step.seq;
      const link = Live.el("a", "", `${step.player} ${step.move}`);
      link.href = "#";
      link.addEventListener("click", (event) => { event.preventDefault(); show(i + 1); });
      item.append(link);
      return item;
    }));
    await BoardView.load($("vboard"), game.game);
    show(0);
    $("viewer").scrollIntoView();
  }

  function show(index) {
    at = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[at];
    $("slider").value = String(at);
    $("where").textContent = at === 0 ? "the start" : `after move ${step.seq}: ${step.player} ${step.move}`;
    BoardView.draw($("vboard"), step.pieces, []);
    $("vscreen").replaceChildren(...step.screen.split("\n").map((line) => Live.el("div", "line", line)));
    for (const [i, item] of [...$("moves").children].entries()) item.classList.toggle("here", i + 1 === at);
    document.body.dataset.step = String(at);
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  window.addEventListener("hashchange", () => open(decodeURIComponent(location.hash.slice(1))));
  list().then(() => { if (location.hash.length > 1) open(decodeURIComponent(location.hash.slice(1))); });
})();
