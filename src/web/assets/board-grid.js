// One board for every page: a grid of any number of files and ranks, seen from either side, its
// coordinates and a piece layer. The pages put their own layers on top of it: the play page its
// targets and splashes, the realtime page its delay rings, the replay page its gliding pieces.
// It knows nothing of any game's rules. Squares carry data-square="e2".

import { squareName } from "/common.js";
import { figureNode } from "/pieces.js";

const SVG = "http://www.w3.org/2000/svg";

/// An SVG element: attributes left undefined, null or false are not set; children may be nodes
/// or text.
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export class BoardGrid {
  /// `size` is one square in SVG units; `margin` is the room for the coordinates at the left and
  /// below (with 0 they are written inside the edge squares). `flipped` puts rank 1 at the top
  /// and the last file at the left. `layers` names the groups in drawing order; `squares` and
  /// `pieces` are the grid's own, the others the page's. `root` is an <svg> to draw in (its
  /// content is replaced), or a new one is made.
  constructor({
    files = 8, ranks = 8, flipped = false, size = 60, margin = 18, root = null,
    layers = ["squares", "pieces"], classes = "board",
  } = {}) {
    Object.assign(this, { files, ranks, flipped, size, margin });
    this.root = root || svg("svg", {});
    this.root.setAttribute("viewBox", `0 0 ${margin + files * size} ${ranks * size + margin}`);
    this.root.setAttribute("class", classes);
    this.root.dataset.files = files;
    this.root.dataset.ranks = ranks;
    this.layers = {};
    for (const name of layers) this.layers[name] = svg("g", { "data-layer": name });
    this.root.replaceChildren(...Object.values(this.layers));
  }

  /// The top-left corner of a square, in SVG units.
  corner(file, rank) {
    const column = this.flipped ? this.files - 1 - file : file;
    const row = this.flipped ? rank : this.ranks - 1 - rank;
    return { x: this.margin + column * this.size, y: row * this.size };
  }

  /// The top-left corner of the square named `e2`.
  cornerOf(name) {
    return this.corner(name.charCodeAt(0) - 97, Number(name.slice(1)) - 1);
  }

  /// The centre of the square named `e2`.
  centreOf(name) {
    const { x, y } = this.cornerOf(name);
    return { x: x + this.size / 2, y: y + this.size / 2 };
  }

  /// A corner in SVG units back to file and rank (fractional between squares).
  fileRank(x, y) {
    const column = (x - this.margin) / this.size;
    const row = y / this.size;
    return this.flipped
      ? { file: this.files - 1 - column, rank: row }
      : { file: column, rank: this.ranks - 1 - row };
  }

  /// The squares afresh, each `square light|dark` plus what `extraClasses(name)` adds, and the
  /// coordinates. Returns the squares by name.
  drawSquares(extraClasses = () => []) {
    const layer = this.layers.squares;
    layer.replaceChildren();
    const squares = new Map();
    for (let file = 0; file < this.files; file++) {
      for (let rank = 0; rank < this.ranks; rank++) {
        const name = squareName(file, rank);
        const { x, y } = this.corner(file, rank);
        const classes = ["square", (file + rank) % 2 === 0 ? "dark" : "light", ...extraClasses(name)];
        const rect = svg("rect", {
          x, y, width: this.size, height: this.size, class: classes.join(" "), "data-square": name,
        });
        layer.append(rect);
        squares.set(name, rect);
      }
    }
    this.drawCoordinates(layer);
    return squares;
  }

  /// File letters along the bottom and rank numbers along the left, outside the grid when there
  /// is a margin, inside the edge squares when there is none.
  drawCoordinates(layer) {
    const inside = this.margin === 0;
    const size = this.size;
    for (let file = 0; file < this.files; file++) {
      const { x, y } = this.corner(file, this.flipped ? this.ranks - 1 : 0);
      const at = inside
        ? { x: x + size * 0.82, y: y + size * 0.95 }
        : { x: x + size / 2, y: this.ranks * size + this.margin * 0.72 };
      layer.append(svg("text", { ...at, class: "coord" }, String.fromCharCode(97 + file)));
    }
    for (let rank = 0; rank < this.ranks; rank++) {
      const { x, y } = this.corner(this.flipped ? this.files - 1 : 0, rank);
      const at = inside
        ? { x: x + size * 0.04, y: y + size * 0.2 }
        : { x: this.margin / 2, y: y + size / 2 + this.margin * 0.22 };
      layer.append(svg("text", { ...at, class: "coord" }, rank + 1));
    }
  }

  /// One piece: a group of class `piece white|black` holding its figure of `game`'s piece set
  /// (pieces.js), drawn at the square's corner. Its own marks (health, a royal label) go in the
  /// group, in square units.
  pieceNode(letter, game, attributes = {}) {
    const white = letter === letter.toUpperCase();
    const group = svg("g", {
      class: `piece ${white ? "white" : "black"}`, "data-piece": letter, ...attributes,
    });
    group.append(figureNode(game, letter, this.size));
    return group;
  }

  /// Moves a piece's group to the corner `{x, y}`.
  static moveTo(group, { x, y }) {
    group.setAttribute("transform", `translate(${x} ${y})`);
  }
}
