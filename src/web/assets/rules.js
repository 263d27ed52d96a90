// The rules page: each `figure.diagram` is a position drawn with the play page's board, read
// only, from its `data-fen` (the placement field, as the protocol writes it: empty runs of any
// length, and a Nichess piece's health in brackets after its letter), with the arrows of its
// `data-arrows` ("e1e8 d2d4") and its `data-caption`.

import { el } from "/common.js";
import { Board } from "/board.js";

/// Nichess: each kind's health at the start and attack power.
const NICHESS = { k: [10, 60], q: [10, 30], p: [30, 60], m: [10, 30], r: [60, 30], n: [60, 60] };

/// The pieces of a FEN's placement: `{square, letter, color}`, with `hp`, `max_hp` and `ap` in
/// Nichess.
export function placement(fen, game) {
  const ranks = fen.split(" ")[0].split("/");
  const pieces = [];
  let files = 0;
  ranks.forEach((row, index) => {
    const rank = ranks.length - index;
    let file = 0;
    for (const token of row.match(/\d+|[A-Za-z](\(\d+\))?/g) || []) {
      if (/^\d/.test(token)) {
        file += Number(token);
        continue;
      }
      const letter = token[0];
      const piece = {
        square: String.fromCharCode(97 + file) + rank, letter,
        color: letter === letter.toUpperCase() ? "white" : "black",
      };
      if (game === "nichess") {
        const [start, ap] = NICHESS[letter.toLowerCase()] || [10, 10];
        const written = /\((\d+)\)/.exec(token);
        Object.assign(piece, { hp: written ? Number(written[1]) : start, max_hp: 60, ap });
      }
      pieces.push(piece);
      file += 1;
    }
    files = Math.max(files, file);
  });
  return { pieces, files, ranks: ranks.length };
}

for (const figure of document.querySelectorAll("figure.diagram")) {
  const game = figure.dataset.game || "chess";
  const { pieces, files, ranks } = placement(figure.dataset.fen, game);
  const holder = el("div", { class: "board-holder" });
  figure.replaceChildren(holder, el("figcaption", {}, figure.dataset.caption || ""));
  const board = new Board(holder, () => {}, async () => null);
  board.render({
    game, files, ranks, fen: figure.dataset.fen, human: "white", your_turn: false, legal: [],
    pieces, moves: [],
  });
  const arrows = (figure.dataset.arrows || "").split(/\s+/).filter(Boolean);
  board.marks = arrows.map((text) => ({ from: text.slice(0, 2), to: text.slice(2, 4) }));
  board.draw();
}
