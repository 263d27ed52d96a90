// The replay page: a file is read by the server with our rules (session `replay`); the page
// steps through the frames it gets back. Turn games and realtime games draw on an SVG board,
// worlds on a canvas.

import { connect, el } from "/common.js";
import { Board, splitMove } from "/board.js";
import { BoardGrid, svg } from "/board-grid.js";
import { moveItems, markCurrent, stepByKeys } from "/move-list.js";

const $ = (id) => document.getElementById(id);
const state = { games: [], game: null, index: 0, playing: null };
window.rogerReplay = state;

const socket = connect("replay", (message) => {
  if (message.type === "replay") {
    state.games = message.games;
    $("status").textContent = `${message.name}: ${message.games.length} game(s)`;
    $("status").className = "muted";
    $("games").replaceChildren(...message.games.map((game, index) =>
      el("option", { value: index }, game.title + (game.error ? " (does not replay)" : ""))));
    choose(0);
  } else if (message.type === "error") {
    $("status").textContent = message.error;
    $("status").className = "error";
  }
});

function open(name, text) {
  $("status").textContent = `reading ${name}…`;
  socket.send({ type: "open", name, text });
}

$("file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) open(file.name, await file.text());
});
$("open-paste").addEventListener("click", () => open("pasted text", $("paste").value));
$("games").addEventListener("change", (event) => choose(Number(event.target.value)));

/// The number of positions a game steps through.
function length(game) {
  if (!game || game.error) return 0;
  if (game.kind === "turn") return game.frames.length;
  if (game.kind === "realtime") return game.end_ms + 1;
  if (game.kind === "world") return game.steps.length + 1;
  return 0;
}

function choose(index) {
  stop();
  const game = state.games[index];
  state.game = game;
  state.index = 0;
  $("title").textContent = game ? game.title : "";
  $("result").textContent = game && game.result ? `result ${game.result}` + (game.outcome ? ` (${game.outcome})` : "") : "";
  $("warnings").replaceChildren(...(game && game.error ? [game.error] : (game && game.warnings) || []).map((w) => el("li", {}, w)));
  $("slider").max = Math.max(0, length(game) - 1);
  $("slider").step = game && game.kind === "realtime" ? Math.max(1, Math.round(game.tick_ms / 10)) : 1;
  drawer = game && !game.error ? makeDrawer(game) : null;
  $("view").replaceChildren(drawer ? drawer.root : el("p", { class: "muted" }, "nothing to show"));
  listMoves(game);
  show(0);
}

let drawer = null;

function show(index) {
  const game = state.game;
  const last = length(game) - 1;
  state.index = Math.max(0, Math.min(index, last));
  $("slider").value = state.index;
  if (!drawer) return;
  drawer.draw(state.index);
  const where = game.kind === "realtime" ? `${state.index} ms of ${game.end_ms}` :
    game.kind === "world" ? `turn ${state.index === 0 ? "start" : game.steps[state.index - 1].turn}` :
    `ply ${state.index} of ${last}`;
  $("where").textContent = where;
  if (game.kind === "turn") markCurrent($("moves"), state.index);
  else for (const item of $("moves").children) item.classList.toggle("current", Number(item.dataset.index) === state.index);
}

function listMoves(game) {
  const items = [];
  // A turn game's moves are numbered as on a score sheet, in a grid like the play page's.
  $("moves").className = game && !game.error && game.kind === "turn" ? "moves" : "";
  if (game && !game.error && game.kind === "turn") {
    const moves = game.frames.slice(1).map((frame, index) => ({
      ply: index + 1, label: frame.written, title: frame.move || frame.written,
    }));
    items.push(...moveItems(game.frames[0].fen, moves, 0, show));
  } else if (game && !game.error && game.kind === "realtime") {
    for (const frame of game.frames) for (const event of frame.events) items.push(el("li", { "data-index": frame.ms, onclick: () => show(frame.ms) }, event));
  } else if (game && !game.error && game.kind === "world") {
    game.steps.forEach((step, index) => items.push(el("li", { "data-index": index + 1, onclick: () => show(index + 1) }, `turn ${step.turn}: ${step.moves.length} moves`)));
  }
  $("moves").replaceChildren(...items);
}

/// The step a button moves by: a ply, a turn, or a tick of a realtime game.
function stride() {
  return state.game && state.game.kind === "realtime" ? state.game.tick_ms : 1;
}
$("first").addEventListener("click", () => show(0));
$("last").addEventListener("click", () => show(length(state.game) - 1));
$("prev").addEventListener("click", () => show(state.index - stride()));
$("next").addEventListener("click", () => show(state.index + stride()));
$("slider").addEventListener("input", (event) => show(Number(event.target.value)));
$("play").addEventListener("click", () => (state.playing ? stop() : play()));
stepByKeys((where) => {
  stop();
  const to = { first: 0, back: state.index - stride(), forward: state.index + stride(), last: length(state.game) - 1 };
  show(to[where]);
});

function play() {
  const realtime = state.game && state.game.kind === "realtime";
  let previous = performance.now();
  const tick = (now) => {
    if (!state.playing) return;
    const step = realtime ? now - previous : 1;
    previous = now;
    if (state.index >= length(state.game) - 1) return stop();
    show(state.index + Math.max(1, Math.round(step)));
    state.playing = realtime ? requestAnimationFrame(tick) : setTimeout(() => tick(performance.now()), 600);
  };
  state.playing = realtime ? requestAnimationFrame(tick) : setTimeout(() => tick(performance.now()), 0);
}

function stop() {
  if (state.playing) {
    cancelAnimationFrame(state.playing);
    clearTimeout(state.playing);
  }
  state.playing = null;
}

function makeDrawer(game) {
  if (game.kind === "turn") {
    // The play page's board, read only: no legal moves, never the viewer's turn.
    const root = el("div", { class: "board-holder" });
    const board = new Board(root, () => {}, async () => null);
    return {
      root,
      draw(index) {
        const frame = game.frames[index];
        const squares = frame.move ? splitMove(frame.move) : null;
        board.render({
          game: game.variant, files: game.files, ranks: game.ranks, fen: frame.fen,
          human: "white", your_turn: false, legal: [], pieces: frame.pieces,
          last_move: squares, moves: frame.splash ? [{ splash: frame.splash, by: "replay", ply: index }] : [],
        });
      },
    };
  }
  if (game.kind === "realtime") return realtimeDrawer(game);
  return worldDrawer(game);
}

/// A realtime game at any ms: the last frame at or before it, its moving pieces carried on
/// between their squares, and a ring for each piece still waiting out its delay.
function realtimeDrawer(game) {
  const grid = new BoardGrid({ layers: ["squares", "pieces", "rings"] });
  grid.drawSquares();
  const { pieces, rings } = grid.layers;
  return {
    root: grid.root,
    draw(ms) {
      let frame = game.frames[0];
      for (const candidate of game.frames) {
        if (candidate.ms > ms) break;
        frame = candidate;
      }
      pieces.replaceChildren();
      rings.replaceChildren();
      for (const unit of frame.units) {
        const piece = grid.pieceNode(unit.letter, "realtime", { "data-at": unit.square || "" });
        if (unit.square) {
          BoardGrid.moveTo(piece, grid.cornerOf(unit.square));
          if (unit.ready_at && unit.ready_at > ms) {
            const delay = game.delay_ticks * game.tick_ms;
            const left = Math.min(1, (unit.ready_at - ms) / Math.max(1, delay));
            rings.append(ring(grid.centreOf(unit.square), grid.size * 0.45, left));
          }
        } else {
          const from = grid.cornerOf(unit.from);
          const to = grid.cornerOf(unit.to);
          const f = Math.max(0, Math.min(1, (ms - unit.start) / Math.max(1, unit.arrive - unit.start)));
          BoardGrid.moveTo(piece, { x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f });
        }
        pieces.append(piece);
      }
    },
  };
}

/// The part of a circle left of a delay: a full ring shrinking to nothing.
function ring(c, radius, left) {
  const angle = 2 * Math.PI * left;
  const end = { x: c.x + radius * Math.sin(angle), y: c.y - radius * Math.cos(angle) };
  const large = left > 0.5 ? 1 : 0;
  const path = left >= 0.999
    ? `M ${c.x} ${c.y - radius} A ${radius} ${radius} 0 1 1 ${c.x - 0.01} ${c.y - radius}`
    : `M ${c.x} ${c.y - radius} A ${radius} ${radius} 0 ${large} 1 ${end.x} ${end.y}`;
  return svg("path", { d: path, fill: "none", stroke: "#c0392b", "stroke-width": 4, class: "delay-ring", "data-left": left.toFixed(3) });
}

/// A world at a turn: the start with the steps up to it applied, on a canvas fitted to the
/// pieces.
function worldDrawer(game) {
  const canvas = el("canvas", { width: 720, height: 720, id: "world-canvas" });
  const context = canvas.getContext("2d");
  const colour = (owner) => {
    if (owner === 0) return "#999";
    const team = game.teams[owner] || game.teams[String(owner)];
    return team === "metal" ? "#2c3e50" : "#e8c39e";
  };
  return {
    root: canvas,
    draw(index) {
      const pieces = new Map(game.start.map((p) => [p.id, p]));
      for (const step of game.steps.slice(0, index)) {
        for (const id of step.removed) pieces.delete(id);
        for (const piece of step.changed) pieces.set(piece.id, piece);
      }
      state.worldPieces = pieces.size;
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (const p of pieces.values()) {
        minX = Math.min(minX, p.x); minY = Math.min(minY, p.y);
        maxX = Math.max(maxX, p.x); maxY = Math.max(maxY, p.y);
      }
      if (!pieces.size) { minX = minY = 0; maxX = maxY = 8; }
      const span = Math.max(maxX - minX, maxY - minY) + 3;
      const cell = canvas.width / span;
      context.fillStyle = "#f7f3e8";
      context.fillRect(0, 0, canvas.width, canvas.height);
      const toScreen = (x, y) => [(x - minX + 1) * cell, canvas.height - (y - minY + 2) * cell];
      context.strokeStyle = "rgba(180,120,40,0.5)";
      for (const p of pieces.values()) {
        if (p.kind !== "K") continue;
        const [x, y] = toScreen(p.x + 0.5, p.y + 0.5);
        context.beginPath();
        context.arc(x, y + cell, game.kingdom_radius * cell, 0, 2 * Math.PI);
        context.stroke();
      }
      context.font = `${Math.max(6, cell * 0.8)}px sans-serif`;
      context.textAlign = "center";
      context.textBaseline = "middle";
      for (const p of pieces.values()) {
        const [x, y] = toScreen(p.x, p.y);
        context.globalAlpha = p.life ? 0.45 : 1;
        context.fillStyle = colour(p.owner);
        context.fillRect(x, y, cell, cell);
        if (cell >= 8) {
          context.fillStyle = p.owner && (game.teams[p.owner] || game.teams[String(p.owner)]) === "metal" ? "#fff" : "#000";
          context.fillText(p.kind, x + cell / 2, y + cell / 2);
        }
      }
      context.globalAlpha = 1;
    },
  };
}
