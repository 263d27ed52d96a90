// The board of the play page (and of the replay page's turn games): the shared grid of
// board-grid.js with selection, targets, splashes and moves by click or drag on top, premoves
// made while the other side thinks, and arrows and circles drawn with the right button. It
// knows nothing of the rules: the legal moves come with every state from the server, and a move
// is only ever one of them. Squares carry data-square="e2", pieces data-piece="K" and
// data-on="e2".

import { BoardGrid, svg } from "/board-grid.js";

const SIZE = 60; // one square, in SVG units
const MARGIN = 18; // room for the coordinates
const GLIDE_MS = 250; // how long a move's piece takes to slide to its square

/// Splits a move text into its squares and what follows them: `h7h8q` → {from, to, suffix}.
export function splitMove(text) {
  const found = /^([a-z][0-9]+)([a-z][0-9]+)(.*)$/.exec(text);
  return found ? { from: found[1], to: found[2], suffix: found[3] } : null;
}

export class Board {
  /// `onMove(text)` is called with a legal move's text; `choose(options)` resolves to one of
  /// several moves that differ only by their suffix (a promotion).
  constructor(container, onMove, choose) {
    this.container = container;
    this.onMove = onMove;
    this.choose = choose;
    this.state = null;
    this.selected = null;
    this.drag = null;
    /// Turned by the player: the board seen from the other side.
    this.turned = false;
    /// A move chosen while the other side thinks, `{from, to}`, played on the player's turn.
    this.premove = null;
    /// Arrows and circles drawn with the right button: `{from, to}` (a circle when equal).
    this.marks = [];
    this.marking = null;
    /// An analysis's first moves, best first: drawn as arrows of their own.
    this.hints = [];
  }

  /// Shows an analysis's first moves (`{from, to}`, best first) as arrows.
  setHints(hints) {
    this.hints = hints;
    if (this.state) this.draw();
  }

  /// The side at the bottom: the player's, or the other when turned.
  get flipped() {
    return (this.state?.human === "black") !== this.turned;
  }

  /// Turns the board around.
  turn() {
    this.turned = !this.turned;
    if (this.state) this.draw();
  }

  /// Whether the player may choose a premove now: a game goes on, it is the other side's turn,
  /// and the board shows the game as it stands.
  premoveOpen() {
    const state = this.state;
    return Boolean(state && state.premoves && !state.your_turn && !state.result);
  }

  /// Whether `square` holds one of the player's pieces.
  ownPiece(square) {
    const piece = this.pieceOn(square);
    if (!piece) return false;
    const white = piece.letter === piece.letter.toUpperCase();
    return white === (this.state.human !== "black");
  }

  /// The square under a page point, or null.
  squareAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const square = hit && hit.closest && hit.closest("[data-square]");
    return square && this.svg && this.svg.contains(square) ? square.dataset.square : null;
  }

  /// Where a square is drawn, by its name: its top-left corner.
  place(name) {
    return this.grid.cornerOf(name);
  }

  movesFrom(square) {
    return (this.state.legal || []).filter((text) => splitMove(text)?.from === square);
  }

  pieceOn(square) {
    return (this.state.pieces || []).find((piece) => piece.square === square);
  }

  render(state) {
    const previous = this.state;
    const changed = !previous || previous.fen !== state.fen || previous.human !== state.human;
    this.state = state;
    // A new position's last move glides into place, unless it is the move just made on this
    // board (already where the hand put it).
    const last = state.last_move;
    if (previous && previous.fen !== state.fen && last) {
      const own = this.ownMove;
      this.ownMove = null;
      if (!own || own.from !== last.from || own.to !== last.to) {
        this.glide = { from: last.from, to: last.to, fen: state.fen };
      }
    }
    // A selection lasts while the position does, and while a premove may still be chosen.
    if (changed || (!state.your_turn && !state.premoves)) this.selected = null;
    if (changed) {
      this.marks = [];
      this.hints = [];
    }
    if (state.result || !state.premoves) this.premove = null;
    this.draw();
    if (state.your_turn && this.premove) this.playPremove();
  }

  /// The premove, if it is legal now (a promotion becomes a queen where one is offered), is
  /// played; otherwise it is dropped.
  playPremove() {
    const { from, to } = this.premove;
    this.premove = null;
    const options = this.movesFrom(from).filter((text) => splitMove(text).to === to);
    const text = options.find((t) => splitMove(t).suffix === "q") || options[0];
    if (text) this.sendMove(text);
    else this.draw();
  }

  /// Sends a move made on this board (by hand, or a premove coming due).
  sendMove(text) {
    const { from, to } = splitMove(text) || {};
    this.ownMove = { from, to };
    this.onMove(text);
  }

  setPremove(from, to) {
    this.premove = { from, to };
    this.selected = null;
    this.draw();
  }

  select(square) {
    this.selected = square;
    this.draw();
  }

  async tryMove(from, to) {
    const options = this.movesFrom(from).filter((text) => splitMove(text).to === to);
    if (options.length === 0) return false;
    this.selected = null;
    this.draw();
    const text = options.length === 1 ? options[0] : await this.choose(options);
    if (text) this.sendMove(text);
    return true;
  }

  draw() {
    const state = this.state;
    this.grid = new BoardGrid({
      files: state.files, ranks: state.ranks, flipped: this.flipped, size: SIZE,
      margin: MARGIN, layers: ["squares", "splash", "pieces", "targets", "marks"],
      classes: `board game-${state.game}`,
    });
    const { layers } = this.grid;
    const last = state.last_move || {};
    const targets = this.selected && state.your_turn
      ? this.movesFrom(this.selected).map((t) => splitMove(t).to) : [];
    const premove = this.premove || {};
    const lost = this.lostKings();
    this.grid.drawSquares((name) => [
      name === last.from || name === last.to ? "last" : null,
      name === this.selected ? "selected" : null,
      targets.includes(name) ? "target" : null,
      name === premove.from || name === premove.to ? "premove" : null,
      lost.includes(name) ? "lost-king" : null,
    ].filter(Boolean));
    // The splash of the last two actions (yours and Roger's answer): Roger may answer before
    // yours has been seen.
    for (const move of (state.moves || []).slice(-2)) {
      for (const name of move.splash || []) {
        const { x, y } = this.place(name);
        layers.splash.append(svg("rect", {
          x: x + 3, y: y + 3, width: SIZE - 6, height: SIZE - 6, class: `splash by-${move.by}`,
          "data-splash": name, "data-ply": move.ply,
        }));
      }
    }
    const kings = state.millennium?.kings;
    for (const piece of state.pieces || []) {
      layers.pieces.append(this.drawPiece(piece, kings));
    }
    this.markGlide(layers.pieces);
    for (const name of targets) {
      const { x, y } = this.place(name);
      const occupied = this.pieceOn(name);
      layers.targets.append(svg("circle", {
        cx: x + SIZE / 2, cy: y + SIZE / 2, r: occupied ? SIZE / 2 - 3 : SIZE / 7,
        class: occupied ? "target-ring" : "target-dot", "data-target": name,
      }));
    }
    this.drawMarks();
    const root = this.grid.root;
    this.svg = root;
    root.addEventListener("contextmenu", (event) => event.preventDefault());
    root.addEventListener("pointerdown", (event) => this.pointerDown(event));
    root.addEventListener("pointermove", (event) => this.pointerMove(event));
    root.addEventListener("pointerup", (event) => this.pointerUp(event));
    this.container.replaceChildren(root);
  }

  /// The piece of the position's gliding move is marked (`data-glided-from`) for as long as the
  /// position is shown; the first drawing after the move slides it there.
  markGlide(layer) {
    const glide = this.glide;
    if (!glide || glide.fen !== this.state.fen) return;
    const group = layer.querySelector(`[data-on="${glide.to}"]`);
    if (!group) return;
    group.dataset.glidedFrom = glide.from;
    if (!glide.done) this.animateGlide(group, glide);
    glide.done = true;
  }

  /// Slides `group` from `from` to `to` (a quarter of a second, easing out); nothing when the
  /// reader asked for less motion.
  animateGlide(group, { from, to }) {
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    const start = this.place(from);
    const end = this.place(to);
    const began = performance.now();
    const frame = (now) => {
      const t = Math.min(1, (now - began) / GLIDE_MS);
      const eased = 1 - (1 - t) * (1 - t);
      BoardGrid.moveTo(group, {
        x: start.x + (end.x - start.x) * eased, y: start.y + (end.y - start.y) * eased,
      });
      if (t < 1 && group.isConnected) requestAnimationFrame(frame);
    };
    BoardGrid.moveTo(group, start);
    requestAnimationFrame(frame);
  }

  /// The squares of the mated side's kings, marked at the end of a game lost by checkmate.
  lostKings() {
    const result = this.state.result;
    if (!result || !result.winner || result.reason !== "checkmate") return [];
    const king = result.winner === "white" ? "k" : "K";
    return (this.state.pieces || []).filter((p) => p.letter === king).map((p) => p.square);
  }

  /// The right button's arrows (from one square's centre to another's) and circles, and an
  /// analysis's hints (the best one drawn boldest).
  drawMarks() {
    const layer = this.grid.layers.marks;
    this.hints.forEach(({ from, to }, index) => {
      if (from === to) return;
      const arrow = this.arrow(from, to, `hint-arrow hint-${Math.min(index, 2)}`);
      arrow.setAttribute("data-hint", `${from}${to}`);
      layer.append(arrow);
    });
    for (const { from, to } of this.marks) {
      const a = this.grid.centreOf(from);
      if (from === to) {
        layer.append(svg("circle", {
          cx: a.x, cy: a.y, r: SIZE / 2 - 3, class: "mark-circle", "data-mark": from,
        }));
        continue;
      }
      const arrow = this.arrow(from, to, "mark-arrow");
      arrow.setAttribute("data-arrow", `${from}${to}`);
      layer.append(arrow);
    }
  }

  /// An arrow from one square's centre towards another's, its head short of the centre.
  arrow(from, to, classes) {
    const a = this.grid.centreOf(from);
    const b = this.grid.centreOf(to);
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    const ux = (b.x - a.x) / length;
    const uy = (b.y - a.y) / length;
    // The shaft stops where the head begins; the head's tip is short of the centre.
    const head = SIZE * 0.4;
    const tip = { x: b.x - ux * SIZE * 0.15, y: b.y - uy * SIZE * 0.15 };
    const base = { x: tip.x - ux * head, y: tip.y - uy * head };
    const side = { x: -uy * head * 0.6, y: ux * head * 0.6 };
    const group = svg("g", { class: classes });
    group.append(svg("line", { x1: a.x, y1: a.y, x2: base.x, y2: base.y }));
    group.append(svg("polygon", {
      points: [tip, { x: base.x + side.x, y: base.y + side.y }, { x: base.x - side.x, y: base.y - side.y }]
        .map((p) => `${p.x},${p.y}`).join(" "),
    }));
    return group;
  }

  /// Adds an arrow or circle, or takes it away if it was there.
  toggleMark(from, to) {
    const at = this.marks.findIndex((m) => m.from === from && m.to === to);
    if (at >= 0) this.marks.splice(at, 1);
    else this.marks.push({ from, to });
    this.draw();
  }

  drawPiece(piece, kings) {
    const group = this.grid.pieceNode(piece.letter, this.state.game, { "data-on": piece.square });
    BoardGrid.moveTo(group, this.place(piece.square));
    if (piece.hp !== undefined) {
      // Nichess: a health bar, the HP and the piece's attack power (AP), the figure made
      // smaller to leave them room.
      group.querySelector(".figure").setAttribute("transform", `translate(${SIZE * 0.15} ${SIZE * 0.12}) scale(${SIZE * 0.007})`);
      const share = piece.max_hp ? piece.hp / piece.max_hp : 1;
      group.append(svg("rect", { x: 4, y: SIZE - 9, width: SIZE - 8, height: 5, class: "hp-back" }));
      group.append(svg("rect", {
        x: 4, y: SIZE - 9, width: (SIZE - 8) * share, height: 5, class: "hp-bar",
      }));
      // Badges: attack power at the top left, health at the top right.
      group.append(svg("rect", { x: 1, y: 1, width: 17, height: 12, rx: 3, class: "ap-badge" }));
      group.append(svg("text", { x: 9.5, y: 10.5, class: "ap", "data-ap": piece.ap }, piece.ap));
      group.append(svg("rect", { x: SIZE - 18, y: 1, width: 17, height: 12, rx: 3, class: "hp-badge" }));
      group.append(svg("text", { x: SIZE - 9.5, y: 10.5, class: "hp", "data-hp": piece.hp }, piece.hp));
    }
    if (kings && (piece.letter === "K" || piece.letter === "k")) {
      const royal = kings[piece.color].royal;
      group.setAttribute("data-royal", royal ? "true" : "false");
      group.append(svg("text", { x: SIZE / 2, y: SIZE - 3, class: royal ? "royal" : "non-royal" },
        royal ? "royal" : "non-royal"));
    }
    return group;
  }

  pointerDown(event) {
    const square = this.squareAt(event.clientX, event.clientY);
    if (event.button === 2) {
      // The right button draws: an arrow to where it is let go, a circle on the same square.
      if (square) this.marking = square;
      event.preventDefault();
      return;
    }
    if (this.marks.length > 0) {
      this.marks = [];
      this.draw();
    }
    if (!square) return;
    const premoving = this.premoveOpen();
    if (!this.state.your_turn && !premoving) return;
    if (premoving && this.premove) {
      // A click while a premove waits takes it back.
      this.premove = null;
      this.select(null);
      if (!this.ownPiece(square)) return;
    }
    const canMoveTo = premoving
      ? (from, to) => from !== to && this.ownPiece(from) && !this.ownPiece(to)
      : (from, to) => this.movesFrom(from).some((text) => splitMove(text).to === to);
    if (this.selected && this.selected !== square && canMoveTo(this.selected, square)) {
      if (premoving) this.setPremove(this.selected, square);
      else this.tryMove(this.selected, square);
      return;
    }
    const movable = premoving ? this.ownPiece(square) : this.movesFrom(square).length > 0;
    if (movable) {
      this.select(square);
      const piece = this.svg.querySelector(`[data-on="${square}"]`);
      if (piece) {
        const ghost = piece.cloneNode(true);
        ghost.classList.add("ghost");
        ghost.removeAttribute("data-piece");
        ghost.removeAttribute("data-on");
        this.svg.append(ghost);
        this.drag = { from: square, ghost, x: event.clientX, y: event.clientY, moved: false, premoving };
        try {
          this.svg.setPointerCapture(event.pointerId);
        } catch (error) {
          // No capture (a synthetic event): the board still gets the pointer's moves.
        }
      }
    } else {
      this.select(null);
    }
    event.preventDefault();
  }

  pointerMove(event) {
    if (!this.drag) return;
    const distance = Math.hypot(event.clientX - this.drag.x, event.clientY - this.drag.y);
    if (distance > 4) this.drag.moved = true;
    const point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const local = point.matrixTransform(this.svg.getScreenCTM().inverse());
    this.drag.ghost.setAttribute("transform",
      `translate(${local.x - SIZE / 2} ${local.y - SIZE / 2})`);
  }

  pointerUp(event) {
    if (event.button === 2) {
      const from = this.marking;
      this.marking = null;
      const square = this.squareAt(event.clientX, event.clientY);
      if (from && square) this.toggleMark(from, square);
      return;
    }
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    drag.ghost.remove();
    if (!drag.moved) return; // a click: the piece stays selected
    const square = this.squareAt(event.clientX, event.clientY);
    if (!square || square === drag.from) return;
    if (drag.premoving) {
      if (this.premoveOpen() && !this.ownPiece(square)) this.setPremove(drag.from, square);
    } else {
      this.tryMove(drag.from, square);
    }
  }
}
