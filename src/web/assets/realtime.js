// Realtime chess against Roger. The server's simulator is the authority: this page draws what the
// `state` messages say, moving pieces where their start and arrival times put them on the
// server's clock, and asks the server which squares a piece may go to. No rule is worked out here.

import { connect, el, formatClock, parseSquare } from "/common.js";
import { BoardGrid, svg } from "/board-grid.js";

const board = document.getElementById("board");
const byId = (id) => document.getElementById(id);

const game = {
  settings: null, // the `started` message
  state: null, // the last `state` message
  offset: null, // server ms minus performance.now(), the largest seen (the least delayed)
  endMs: null, // the game's last ms once it is over
  selected: null, // { square, targets } of the piece picked by a click
  pending: null, // the square a `select` was sent for
  drawn: new Map(), // piece id -> what the last frame drew
  log: [], // every event text, in order
  errors: [], // every error and refusal shown
  received: [], // { now, at }: each state message's server ms and its receipt (performance.now())
};

/// The server's game ms now, by the estimated offset (frozen at the end).
function serverNow() {
  if (game.offset === null) return 0;
  const now = performance.now() + game.offset;
  return game.endMs === null ? now : Math.min(now, game.endMs);
}

// ---- the board -------------------------------------------------------------------------------

/// The shared grid in square units, with the page's layers: target marks, delay rings, the
/// pieces and the removal flashes. Made afresh at each start (the side may change).
let grid = null;
let layers = {};

function makeGrid() {
  const flipped = game.settings !== null && game.settings.side === "black";
  grid = new BoardGrid({
    root: board, size: 1, margin: 0, flipped,
    layers: ["squares", "marks", "rings", "pieces", "effects"],
  });
  layers = grid.layers;
  for (const [name, rect] of grid.drawSquares()) {
    rect.addEventListener("click", () => clicked(name));
  }
}

/// One piece's element: a figure and, while it sits out its delay, a shrinking ring.
function pieceElement(id, letter) {
  return grid.pieceNode(letter, "realtime", { "data-id": id });
}

function ringElement(id) {
  const group = svg("g", { class: "delay", "data-ring": id });
  group.append(svg("circle", { class: "ring-track", cx: 0.5, cy: 0.5, r: 0.44 }));
  // pathLength 1: the dash's length is the fraction of the delay left.
  group.append(svg("circle", {
    class: "ring", cx: 0.5, cy: 0.5, r: 0.44, pathLength: 1,
    transform: "rotate(-90 0.5 0.5)",
  }));
  return group;
}

const elements = new Map(); // piece id -> { piece, ring, letter }

/// Where piece `p` is drawn at server ms `t`: board units, the fraction of its way, the ring.
function placement(p, t, delayMs) {
  if (p.square !== undefined) {
    const s = parseSquare(p.square);
    const until = p.until;
    const ring = until !== undefined && until > t && delayMs > 0 ? (until - t) / delayMs : null;
    return { ...grid.corner(s.file, s.rank), fraction: null, ring, moving: false };
  }
  const from = parseSquare(p.from);
  const to = parseSquare(p.to);
  const span = Math.max(1, p.arrive - p.start);
  const fraction = Math.min(1, Math.max(0, (t - p.start) / span));
  const a = grid.corner(from.file, from.rank);
  const b = grid.corner(to.file, to.rank);
  // Arrived by the clock before the server's word: it stands there, its delay begun.
  const until = p.arrive + delayMs;
  const ring = fraction >= 1 && until > t && delayMs > 0 ? (until - t) / delayMs : null;
  return {
    x: a.x + (b.x - a.x) * fraction,
    y: a.y + (b.y - a.y) * fraction,
    fraction,
    ring,
    moving: fraction < 1,
  };
}

/// Draws every piece of the last state at the server's ms now; called every animation frame.
function frame() {
  requestAnimationFrame(frame);
  byId("clock").textContent = formatClock(serverNow());
  const state = game.state;
  if (!state || !game.settings) return;
  const t = serverNow();
  const delayMs = game.settings.delay_ticks * game.settings.tick_ms;
  const until = new Map(state.delays.map((d) => [d.id, d.until]));
  const pieces = [
    ...state.pieces.map((p) => ({ ...p, until: until.get(p.id) })),
    ...state.moving,
  ];
  const seen = new Set();
  for (const p of pieces) {
    seen.add(p.id);
    let entry = elements.get(p.id);
    if (!entry || entry.letter !== p.letter) {
      if (entry) entry.piece.remove(), entry.ring.remove();
      entry = { piece: pieceElement(p.id, p.letter), ring: ringElement(p.id), letter: p.letter };
      elements.set(p.id, entry);
      layers.pieces.append(entry.piece);
      layers.rings.append(entry.ring);
    }
    const at = placement(p, t, delayMs);
    const move = `translate(${at.x} ${at.y})`;
    entry.piece.setAttribute("transform", move);
    entry.piece.classList.toggle("moving", at.moving);
    entry.piece.setAttribute("data-on", at.moving ? "" : p.square || p.to);
    // A knight in the air is drawn a little larger.
    const airborne = at.moving && p.letter.toLowerCase() === "n" && at.fraction > 0.25 && at.fraction < 0.75;
    entry.piece.firstChild.setAttribute("font-size", airborne ? "0.98px" : "0.82px");
    entry.ring.setAttribute("transform", move);
    entry.ring.style.display = at.ring === null ? "none" : "";
    if (at.ring !== null) entry.ring.lastChild.setAttribute("stroke-dasharray", `${at.ring} 1`);
    game.drawn.set(p.id, { at: t, fraction: at.fraction, ring: at.ring, moving: at.moving, p });
  }
  for (const [id, entry] of elements) {
    if (!seen.has(id)) {
      entry.piece.remove();
      entry.ring.remove();
      elements.delete(id);
      game.drawn.delete(id);
    }
  }
}

/// A red circle that fades out where a piece was removed.
function flash(square) {
  const s = parseSquare(square);
  const { x, y } = grid.corner(s.file, s.rank);
  const mark = svg("circle", { class: "removal", cx: x + 0.5, cy: y + 0.5, r: 0.42, "data-removed": square });
  layers.effects.append(mark);
  mark.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 900, easing: "ease-in" }).onfinish = () =>
    mark.remove();
}

function showSelection() {
  layers.marks.replaceChildren();
  for (const rect of layers.squares.querySelectorAll("rect.selected")) rect.classList.remove("selected");
  if (!game.selected) return;
  board.querySelector(`rect[data-square="${game.selected.square}"]`)?.classList.add("selected");
  for (const target of game.selected.targets) {
    const s = parseSquare(target);
    const { x, y } = grid.corner(s.file, s.rank);
    layers.marks.append(svg("circle", { class: "target", cx: x + 0.5, cy: y + 0.5, r: 0.16, "data-target": target }));
  }
}

// ---- messages --------------------------------------------------------------------------------

const socket = connect("realtime", received);
socket.ready.then(
  () => status("connected: choose the settings and start"),
  () => status("cannot connect to Roger"),
);
socket.raw.addEventListener("close", () => status("the connection to Roger closed"));

function status(text) {
  byId("status").textContent = text;
}

/// A refusal in a player's words: "on delay until 14156" (the rules' game milliseconds)
/// becomes the seconds of delay still to wait.
function humane(text) {
  return text.replace(/is on delay until (\d+)/, (_, until) => {
    const left = Math.max(0, Number(until) - serverNow()) / 1000;
    return `is still waiting out its delay: ${left.toFixed(1)} s to go`;
  });
}

function showError(text) {
  game.errors.push(text);
  byId("error").textContent = humane(text);
}

function received(message) {
  switch (message.type) {
    case "started":
      game.settings = message;
      game.state = null;
      game.offset = null;
      game.endMs = null;
      game.selected = null;
      game.log = [];
      game.received = [];
      byId("log").replaceChildren();
      byId("result").textContent = "";
      byId("error").textContent = "";
      for (const entry of elements.values()) entry.piece.remove(), entry.ring.remove();
      elements.clear();
      game.drawn.clear();
      makeGrid();
      showSelection();
      byId("resign").disabled = false;
      status(`you play ${message.side} against ${message.opponent}` +
        (message.opponent === "roger" ? ` (skill ${message.skill}, every ${message.reaction_ms} ms)` : "") +
        `; tick ${message.tick_ms} ms, delay ${message.delay_ticks} ticks`);
      break;
    case "state":
      onState(message);
      break;
    case "targets":
      if (message.square !== game.pending) break;
      game.pending = null;
      if (message.targets.length === 0) {
        game.selected = null;
        showError(message.refusal || `nothing may start from ${message.square}`);
      } else {
        game.selected = { square: message.square, targets: message.targets };
        byId("error").textContent = "";
      }
      showSelection();
      break;
    case "refused":
      showError(`${message.order} refused at ${message.ms} ms: ${message.refusal}`);
      break;
    case "error":
      showError(message.error);
      break;
  }
}

function onState(message) {
  // A message left the server at its `now` and took some time to come: the largest
  // now - receipt is the least delayed estimate of the server's clock.
  const offset = message.now - performance.now();
  if (message.result === null) game.offset = game.offset === null ? offset : Math.max(game.offset, offset);
  else if (game.offset === null) game.offset = offset;
  game.state = message;
  game.received.push({ now: message.now, at: performance.now() });
  if (game.received.length > 400) game.received.splice(0, 200);
  const log = byId("log");
  for (const text of message.events) {
    game.log.push(text);
    const words = text.split(" ");
    const [ms, kind] = words;
    log.prepend(el("li", { class: kind, "data-ms": ms }, `${(Number(ms) / 1000).toFixed(3)} s  ${words.slice(1).join(" ")}`));
    if (kind === "remove") flash(words[4]);
  }
  // A long fast game makes thousands of events: the page keeps the latest few hundred.
  while (log.childElementCount > 500) log.lastElementChild.remove();
  // A selected piece that started or was taken is no longer selected.
  if (game.selected && !message.pieces.some((p) => p.square === game.selected.square)) {
    game.selected = null;
    showSelection();
  }
  if (message.result) {
    game.endMs = message.now;
    // A refusal from the game is no concern once it is over.
    byId("error").textContent = "";
    game.selected = null;
    showSelection();
    byId("resign").disabled = true;
    byId("result").textContent = `${message.result.result}: ${message.result.text}`;
    status(`game over (${message.result.reason})`);
  }
}

// ---- the human's clicks ----------------------------------------------------------------------

function own(letter) {
  const white = letter === letter.toUpperCase();
  return white === (game.settings.side === "white");
}

function clicked(square) {
  if (!game.settings || !game.state || game.state.result) return;
  if (game.selected && game.selected.targets.includes(square)) {
    socket.send({ type: "order", order: game.selected.square + square });
    game.selected = null;
    showSelection();
    return;
  }
  const piece = game.state.pieces.find((p) => p.square === square);
  const again = game.selected && game.selected.square === square;
  game.selected = null;
  showSelection();
  // A second click on the selected piece only lets it go.
  if (piece && own(piece.letter) && !again && game.pending !== square) {
    game.pending = square;
    socket.send({ type: "select", square });
  }
}

byId("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  socket.send({
    type: "start",
    side: byId("side").value,
    tick_ms: Number(byId("tick").value),
    delay_ticks: Number(byId("delay").value),
    opponent: byId("opponent").value,
    reaction_ms: Number(byId("reaction").value),
    skill: Number(byId("skill").value),
  });
});

byId("resign").addEventListener("click", () => socket.send({ type: "resign" }));

// ---- what the tests read ---------------------------------------------------------------------

/// The piece with this id, or the piece on (or travelling from) this square.
function pieceKey(key) {
  if (typeof key === "number") return key;
  for (const [id, drawn] of game.drawn) {
    if (drawn.p.square === key || drawn.p.from === key) return id;
  }
  return null;
}

window.rogerRealtime = {
  get state() {
    return game.state;
  },
  get settings() {
    return game.settings;
  },
  get log() {
    return game.log.slice();
  },
  get errors() {
    return game.errors.slice();
  },
  /// How late each state message came by the page's clock: its receipt on the estimated server
  /// clock minus the ms the server sent it at (0 for the least delayed).
  lateness() {
    const offset = game.offset === null ? 0 : game.offset;
    return game.received.map((r) => r.at + offset - r.now);
  },
  serverNow,
  /// What the last frame drew for a piece (id, or its square or from-square): file and rank as
  /// drawn (fractional while it travels, read back from the element), the server ms the frame was
  /// for, the fraction of its way, and its delay ring's fraction left (null when none).
  drawn(key) {
    const id = pieceKey(key);
    const drawn = id === null ? undefined : game.drawn.get(id);
    const entry = elements.get(id);
    if (!drawn || !entry) return null;
    const matrix = entry.piece.transform.baseVal.consolidate().matrix;
    const { file, rank } = grid.fileRank(matrix.e, matrix.f);
    const ringShown = entry.ring.style.display !== "none";
    return {
      id, file, rank, at: drawn.at, fraction: drawn.fraction, moving: drawn.moving,
      ring: ringShown ? drawn.ring : null,
    };
  },
  /// The ring fraction left for the piece (id or square), null when it has none.
  ring(key) {
    const drawn = this.drawn(key);
    return drawn ? drawn.ring : null;
  },
  order(text) {
    socket.send({ type: "order", order: text });
  },
};

makeGrid();
requestAnimationFrame(frame);
