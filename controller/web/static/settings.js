"use strict";
// The settings page: the seats' names and who plays each seat, how long a searching bot thinks, and on a
// table with a game menu the game to play next, as the table has them (/api/settings); saved with the table's PIN, which the OLED shows while PREV is held. The
// table checks everything again and answers saved, or one line why not.

(() => {
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function draw(settings) {
    $("title").textContent = `Settings: ${settings.title}`;
    const rows = settings.seats.map((s) => {
      const row = el("tr", { "data-seat": s.seat });
      const name = el("input", { name: `name-${s.seat}`, maxlength: String(settings.name_chars), placeholder: s.seat,
                                 "aria-label": `${s.seat}'s name` });
      name.value = s.name;
      const who = el("select", { name: `bot-${s.seat}`, "aria-label": `who plays ${s.seat}` });
      for (const kind of settings.kinds) {
        const option = el("option", { value: kind }, kind === "person" ? "a person" : `bot: ${kind}`);
        option.selected = kind === s.bot;
        who.append(option);
      }
      who.disabled = settings.kinds.length < 2;
      const cells = [el("td", {}, s.seat), el("td"), el("td")];
      cells[1].append(name);
      cells[2].append(who);
      row.append(...cells);
      return row;
    });
    $("seatrows").replaceChildren(...rows);
    $("nobots").hidden = settings.kinds.length > 1;
    $("thinkrow").hidden = !settings.kinds.includes("mcts");
    $("think").min = String(settings.think_range[0]);
    $("think").max = String(settings.think_range[1]);
    $("think").value = settings.think_ms === null ? "" : String(settings.think_ms);
    $("nextrow").hidden = settings.boards.length < 2;
    $("next").replaceChildren(...settings.boards.map((board) => {
      const option = el("option", { value: board.file }, board.title);
      option.selected = board.file === settings.next;
      return option;
    }));
    $("applies").textContent = settings.applies;
    $("settings").hidden = false;
  }

  async function load() {
    const settings = await Live.json("/api/settings", "smessage");
    if (settings) draw(settings);
  }

  $("settings").addEventListener("submit", async (event) => {
    event.preventDefault();
    const names = {};
    const bots = {};
    for (const row of $("seatrows").querySelectorAll("tr")) {
      const seat = row.dataset.seat;
      names[seat] = row.querySelector("input").value.trim();
      bots[seat] = row.querySelector("select").value;
    }
    const think = $("think").value.trim();
    const body = { pin: $("pin").value.trim(), names, bots, think_ms: think === "" ? null : Number(think) };
    if (!$("nextrow").hidden) body.next = $("next").value;
    $("answer").textContent = "saving...";
    try {
      const answer = await fetch("/api/settings", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), cache: "no-store",
      });
      $("answer").textContent = answer.ok ? "Saved." : (await answer.text()).trim();
      $("answer").dataset.taken = answer.ok ? "yes" : "no";
    } catch (e) {
      $("answer").textContent = "the table did not answer: try again";
      $("answer").dataset.taken = "no";
    }
  });

  load();
})();
