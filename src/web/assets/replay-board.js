// The replay page's realtime board: an 8x8 grid of squares with pieces drawn anywhere on it, so
// that a piece between two squares glides (turn games use the play page's board).

import { FIGURES } from "/common.js";

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/// A board of `files` x `ranks` squares of `size` pixels; `flipped` puts rank 1 at the top.
/// Returns { root, size, centre(name), place(pieces) }.
export function createBoard(files, ranks, { size = 56, flipped = false } = {}) {
  const root = svg("svg", {
    width: files * size + 20, height: ranks * size + 20,
    viewBox: `-20 0 ${files * size + 20} ${ranks * size + 20}`, class: "board",
  });
  const squares = svg("g");
  const layer = svg("g");
  root.append(squares, layer);
  const at = (file, rank) => ({
    x: (flipped ? files - 1 - file : file) * size,
    y: (flipped ? rank : ranks - 1 - rank) * size,
  });
  const nameOf = (file, rank) => String.fromCharCode(97 + file) + (rank + 1);
  for (let rank = 0; rank < ranks; rank++) {
    for (let file = 0; file < files; file++) {
      const { x, y } = at(file, rank);
      squares.append(svg("rect", {
        x, y, width: size, height: size, "data-square": nameOf(file, rank),
        fill: (file + rank) % 2 === 0 ? "var(--dark)" : "var(--light)",
      }));
    }
    const label = svg("text", { x: -14, y: at(0, rank).y + size / 2 + 5, "font-size": 12 });
    label.textContent = String(rank + 1);
    root.append(label);
  }
  for (let file = 0; file < files; file++) {
    const label = svg("text", { x: at(file, 0).x + size / 2 - 4, y: ranks * size + 14, "font-size": 12 });
    label.textContent = String.fromCharCode(97 + file);
    root.append(label);
  }
  const centre = (name) => {
    const file = name.charCodeAt(0) - 97;
    const rank = Number(name.slice(1)) - 1;
    const { x, y } = at(file, rank);
    return { x: x + size / 2, y: y + size / 2 };
  };
  return {
    root, size, centre,
    /// Draws `pieces` ([{square, letter, hp?}] or with {x, y} centres already) afresh.
    place(pieces) {
      layer.replaceChildren();
      for (const piece of pieces) layer.append(pieceNode(piece, piece.x === undefined ? centre(piece.square) : piece, size));
    },
  };
}

/// One piece as a group: its figure.
export function pieceNode(piece, { x, y }, size) {
  const group = svg("g", { "data-piece": piece.letter, "data-at": piece.square || "" });
  const figure = svg("text", {
    x, y: y + size * 0.32, "text-anchor": "middle", "font-size": size * 0.82,
    fill: piece.letter === piece.letter.toUpperCase() ? "#fff" : "#000",
    stroke: "#000", "stroke-width": piece.letter === piece.letter.toUpperCase() ? 1 : 0,
  });
  figure.textContent = FIGURES[piece.letter] || piece.letter;
  group.append(figure);
  return group;
}
