"use strict";
// The board under the pieces: the server draws each game's board once (/api/board/GAME.svg), with a group
// per location (data-loc); this puts the pieces in those groups. A piece is a disc in its owner's colour
// showing its count (or, for one piece, its owner's initials); a place whose sensor disagrees with the game
// gets a red ring, whether a piece is missing there or one stands where none should.

const BoardView = {
  PALETTE: ["#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#b9770e", "#117a65", "#5d6d7e", "#a04000",
            "#1b2631", "#c2185b", "#6e2c00", "#2e4053"],

  // Show `game`'s board in `holder` (once: a later call for the same game returns at once).
  load(holder, game) {
    if (holder.boardGame === game) return holder.boardLoading;
    holder.boardGame = game;
    holder.boardLoading = fetch(`/api/board/${encodeURIComponent(game)}.svg`)
      .then((answer) => answer.text())
      .then((svg) => {
        holder.innerHTML = svg;
        holder.places = new Map();
        for (const group of holder.querySelectorAll("g.place")) holder.places.set(group.dataset.loc, group);
      });
    return holder.boardLoading;
  },

  // `pieces`: location -> [owner, count] (count null where the game withholds it); `wrong`: locations whose
  // sensor disagrees. Only the places that changed are drawn again.
  draw(holder, pieces, wrong) {
    const svg = holder.querySelector("svg");
    if (!svg || !holder.places) return;
    const radius = parseFloat(svg.dataset.radius);
    const bad = new Set(wrong || []);
    for (const [loc, group] of holder.places) {
      const piece = pieces[loc] || null;
      const key = JSON.stringify([piece, bad.has(loc)]);
      if (group.dataset.key === key) continue;
      group.dataset.key = key;
      group.replaceChildren();
      group.classList.toggle("wrong", bad.has(loc));
      group.classList.toggle("held", piece !== null);
      const about = [loc];
      if (piece !== null) {
        const [owner, count] = piece;
        const fill = BoardView.colour(owner);
        group.append(BoardView.svg("circle", { r: radius, fill: fill, class: "piece" }));
        const label = count !== null && count > 1 ? String(count) : BoardView.initials(owner);
        group.append(BoardView.svg("text", { class: "count", fill: BoardView.ink(fill), "font-size": radius * (label.length > 2 ? 0.8 : 1.1) }, label));
        about.push(count !== null ? `${owner} x${count}` : owner);
      }
      if (bad.has(loc)) {
        group.append(BoardView.svg("circle", { r: radius * 1.2, class: "ring" }));
        about.push("the sensor disagrees");
      }
      group.append(BoardView.svg("title", {}, about.join(": ")));
    }
  },

  svg(tag, attrs, text) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  },

  // An owner's colour: its own name where that is a colour (blue, yellow, gray), else one of the palette
  // (this hash gives the six horses, the four holders and seven seats each a colour of their own).
  colour(owner) {
    if (CSS.supports("color", owner)) return owner;
    let hash = 1;
    for (const c of owner) hash = (hash * 41 + c.charCodeAt(0)) % 1000003;
    return BoardView.PALETTE[hash % BoardView.PALETTE.length];
  },

  // Dark text on a light piece, white on a dark one.
  ink(fill) {
    const probe = document.createElement("canvas").getContext("2d");
    probe.fillStyle = fill;
    const hex = probe.fillStyle;  // the browser's #rrggbb for any colour
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111" : "#fff";
  },

  initials(owner) {
    return owner.split(/[-_ ]/).map((word) => word.charAt(0).toUpperCase()).join("").slice(0, 3);
  },
};
