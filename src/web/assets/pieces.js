// Roger's own piece set: one SVG figure for every piece of every game, drawn in a 100-unit box
// and scaled to the square. Each figure is a body (filled light for White, dark for Black, with
// a dark outline) and details (lines and marks, dark on White, light on Black), so both colours
// of every piece are told apart by shape and by colour alike. The Nichess maenad and pirate have
// figures of their own; Nichess's rook letter is its pirate.

const SVG = "http://www.w3.org/2000/svg";

/// A bare SVG element (board-grid.js's `svg` does more, but board-grid.js imports this file,
/// and the figures need no more than this).
function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const BASE = "M27,80 h46 a3,3 0 0 1 3,3 v4 a3,3 0 0 1 -3,3 h-46 a3,3 0 0 1 -3,-3 v-4 a3,3 0 0 1 3,-3 Z";

/// Per figure: `body` paths (filled) and `detail` paths (stroked), plus `marks` (small filled
/// details in the detail colour).
const SHAPES = {
  pawn: {
    body: [
      "M39,79 C41,65 44,55 45,48 L55,48 C56,55 59,65 61,79 Z",
      "M36,47 a14,4.5 0 1 0 28,0 a14,4.5 0 1 0 -28,0 Z",
      "M38,30 a12,12 0 1 0 24,0 a12,12 0 1 0 -24,0 Z",
      BASE,
    ],
    detail: [],
  },
  knight: {
    body: [
      "M70,80 L31,80 C30,68 36,60 47,53 C41,53 35,56 29,61 C24,64 17,59 20,52 "
        + "C25,43 34,35 40,27 C42,21 44,16 49,13 L52,20 C62,20 73,30 76,45 C79,59 74,70 70,80 Z",
      BASE,
    ],
    detail: ["M58,25 C67,35 70,52 65,72"],
    marks: ["M40,33 a3,3 0 1 0 6,0 a3,3 0 1 0 -6,0 Z"],
  },
  bishop: {
    body: [
      "M37,79 L41,66 L59,66 L63,79 Z",
      "M36,64 a14,4.5 0 1 0 28,0 a14,4.5 0 1 0 -28,0 Z",
      "M50,20 C35,31 33,49 40,60 L60,60 C67,49 65,31 50,20 Z",
      "M45,15 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 Z",
      BASE,
    ],
    detail: ["M55,31 L46,45", "M41,52 L59,52"],
  },
  rook: {
    body: [
      "M31,79 L34,44 L28,44 L28,20 L37,20 L37,27 L45,27 L45,20 L55,20 L55,27 L63,27 "
        + "L63,20 L72,20 L72,44 L66,44 L69,79 Z",
      BASE,
    ],
    detail: ["M34,44 L66,44", "M33,68 L67,68"],
  },
  queen: {
    body: [
      "M29,79 L21,35 L37,58 L50,27 L63,58 L79,35 L71,79 Z",
      "M16,32 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 Z",
      "M32,24 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 Z",
      "M45,19 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 Z",
      "M58,24 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 Z",
      "M74,32 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 Z",
      BASE,
    ],
    detail: ["M31,70 L69,70"],
  },
  king: {
    body: [
      "M46,8 h8 v7 h7 v7 h-7 v9 h-8 v-9 h-7 v-7 h7 Z",
      "M30,79 L33,45 C33,32 67,32 67,45 L70,79 Z",
      BASE,
    ],
    detail: ["M33,52 L67,52", "M32,68 L68,68"],
  },
  // Nichess: a maenad carries Dionysus's cup, an ivy leaf above it.
  maenad: {
    body: [
      "M27,27 L73,27 C73,45 63,54 50,54 C37,54 27,45 27,27 Z",
      "M46,53 L54,53 L55,71 L45,71 Z",
      "M35,73 a15,4.5 0 1 0 30,0 a15,4.5 0 1 0 -30,0 Z",
      "M50,6 C60,10 62,19 50,24 C38,19 40,10 50,6 Z",
      BASE,
    ],
    detail: ["M31,36 L69,36", "M50,8 L50,22"],
  },
  // Nichess: a pirate, a tricorn hat over a face with an eye patch.
  pirate: {
    body: [
      "M33,79 C34,69 41,63 50,63 C59,63 66,69 67,79 Z",
      "M34,49 a16,16 0 1 0 32,0 a16,16 0 1 0 -32,0 Z",
      "M16,38 C27,20 39,29 50,15 C61,29 73,20 84,38 C66,33 34,33 16,38 Z",
      BASE,
    ],
    detail: ["M35,42 L65,55"],
    marks: ["M39,47 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 Z"],
  },
};

const BY_LETTER = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };
const NICHESS_BY_LETTER = { ...BY_LETTER, m: "maenad", r: "pirate" };

/// The figure's name of `letter` in `game` ("pawn", "maenad", ...), or undefined.
export function figureName(game, letter) {
  const table = game === "nichess" ? NICHESS_BY_LETTER : BY_LETTER;
  return table[String(letter).toLowerCase()];
}

/// The figure of `letter` (upper case White) in `game`, as an SVG group filling a square of
/// `size` units; a letter of no figure is written as itself.
export function figureNode(game, letter, size) {
  const name = figureName(game, letter);
  const group = svg("g", {
    class: "figure", "data-figure": name || "letter", transform: `scale(${size / 100})`,
  });
  if (!name) {
    group.append(svg("text", { x: 50, y: 54, class: "figure-letter" }, letter));
    return group;
  }
  const shape = SHAPES[name];
  for (const d of shape.body) group.append(svg("path", { d, class: "figure-body" }));
  for (const d of shape.detail) group.append(svg("path", { d, class: "figure-detail" }));
  for (const d of shape.marks || []) group.append(svg("path", { d, class: "figure-mark" }));
  return group;
}

/// The figure of `letter` as a small picture of its own, for buttons and text (a promotion's
/// choices, a pool of pieces).
export function figureIcon(game, letter) {
  const white = letter === String(letter).toUpperCase();
  const icon = svg("svg", {
    class: `piece-icon piece ${white ? "white" : "black"}`, viewBox: "0 0 100 100",
    "data-piece": letter, role: "img", "aria-label": figureName(game, letter) || letter,
  });
  icon.append(figureNode(game, letter, 100));
  return icon;
}
