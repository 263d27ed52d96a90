// The Megachess world page: a spectator connection draws the whole world on a canvas, and a
// second connection plays one player in it. Both talk to the world server's own WebSocket API
// (docs/world-server.md); the legal squares come from the server (`targets`), never from here.

import { connect, el, formatClock } from "/common.js";

const canvas = document.getElementById("board");
const ctx = canvas.getContext("2d", { alpha: false });
const $ = (id) => document.getElementById(id);

const COLOURS = {
  alabaster: "#faf6ea", alabasterEdge: "#5b5240", metal: "#2e4257", metalEdge: "#0d1620",
  neutral: "#e0a91b", neutralEdge: "#7a5a00",
  light: "#cbbb9a", dark: "#bcaa86", outside: "#4d4539",
  kingdom: { alabaster: "rgba(255, 250, 225, 0.28)", metal: "rgba(46, 66, 87, 0.22)" },
  kingdomEdge: { alabaster: "rgba(120, 100, 50, 0.55)", metal: "rgba(20, 35, 55, 0.55)" },
  target: "rgba(30, 140, 40, 0.75)", selected: "#e8c020", mine: "#d0322b", movedMark: "#1f7a1f",
};
const RANK_PARAM = { K: "rank_king", Q: "rank_queen", R: "rank_rook", B: "rank_bishop", N: "rank_knight", P: "rank_pawn" };
const LETTERS = { K: "K", Q: "Q", R: "R", B: "B", N: "N", P: "P" };
const MIN_SCALE = 0.05;
const MAX_SCALE = 80;

// ---- state ------------------------------------------------------------------------------------

const state = {
  server: null,
  params: null,
  width: 0,
  height: 0,
  turn: 0,
  team: null,           // the team to move
  deadlineAt: 0,        // performance.now() when the turn ends
  pieces: new Map(),    // id -> {id, owner, kind, x, y, moved, life}
  squares: new Map(),   // y * width + x -> piece
  teams: new Map(),     // player id -> "alabaster" | "metal"
  truncated: false,
  scoreboard: [],
  // The player this page plays, once joined.
  me: null,             // {player, team, name}
  myTurn: false,
  movedThisTurn: new Set(), // piece ids
  acks: [],             // the server's answers to our moves: {turn, move, ok, reason?}
  targets: null,        // {x, y, squares: [[x, y], ...]} from the server
  targetsAsked: null,   // "x,y" last asked
  selected: null,       // {x, y}
  hover: null,          // {x, y}
  view: { cx: 0, cy: 0, scale: 8 },
  centreOnMine: false,
};

let spectator = null;
let player = null;
let dirty = true;
let regionPending = false;
let regionAgain = false;

// ---- the server's address and the spectator connection -----------------------------------------

async function serverAddress() {
  const given = new URLSearchParams(location.search).get("server");
  if (given) return given;
  try {
    const config = await (await fetch("/config.json")).json();
    return config.world || null;
  } catch (error) {
    return null;
  }
}

function status(text, error = false) {
  const line = $("connection");
  line.textContent = text;
  line.className = error ? "error" : "muted";
}

async function start() {
  state.server = await serverAddress();
  if (!state.server) {
    status("No world server: open this page as world.html?server=ws://HOST:PORT/ws", true);
    return;
  }
  try {
    spectator = connect(null, onSpectator, state.server);
  } catch (error) {
    status(`'${state.server}' is not a WebSocket address (ws://HOST:PORT/ws)`, true);
    state.server = null;
    return;
  }
  spectator.raw.addEventListener("close", () => status("the world server closed the connection", true));
  spectator.ready
    .then(() => {
      status(`watching ${state.server}`);
      spectator.send({ type: "spectate" });
    })
    .catch(() => status(`cannot reach ${state.server}`, true));
  const token = localStorage.getItem(tokenKey());
  if (token) comeBack(token);
}

function tokenKey() {
  return `roger-world-token ${state.server}`;
}

function readRegion() {
  if (!state.width) return;
  // One read at a time; a turn end during a read asks for one more.
  if (regionPending) {
    regionAgain = true;
    return;
  }
  regionPending = true;
  spectator.send({ type: "region", x0: 0, y0: 0, x1: state.width - 1, y1: state.height - 1 });
}

function onSpectator(message) {
  switch (message.type) {
    case "spectating":
      state.params = message.params;
      state.width = message.params.width;
      state.height = message.params.height;
      state.turn = message.turn;
      $("turn").textContent = String(message.turn);
      fitAll();
      readRegion();
      spectator.send({ type: "scoreboard" });
      break;
    case "region":
      regionPending = false;
      loadRegion(message);
      if (regionAgain) {
        regionAgain = false;
        readRegion();
      }
      break;
    case "turn":
      startTurn(message);
      break;
    case "moved":
      if (!alreadyApplied(message.turn, message.move, message.player)) {
        applyMove(message.player, message.move, message.effects);
      }
      break;
    case "turn_end":
      // Fading, bonus pieces and eliminations are the server's: read the world again.
      readRegion();
      spectator.send({ type: "scoreboard" });
      break;
    case "scoreboard":
      state.scoreboard = message.players;
      for (const row of message.players) state.teams.set(row.player, row.team);
      showScoreboard();
      break;
    case "closing":
      status(`the world server is stopping (${message.reason})`, true);
      break;
    case "error":
      if (message.error === "bad-request") regionPending = false;
      console.warn("world server:", message.error, message.reason);
      break;
  }
}

/// Our own moves come twice, as `ack` on the player's connection and as `moved` on the
/// spectator's, in either order: the first applies the move, the second only crosses it off.
const ownMoves = new Set();

function alreadyApplied(turn, move, mover) {
  if (!state.me || mover !== state.me.player) return false;
  const name = `${turn} ${move}`;
  if (ownMoves.delete(name)) return true;
  ownMoves.add(name);
  if (ownMoves.size > 1000) ownMoves.clear();
  return false;
}

function key(x, y) {
  return y * state.width + x;
}

/// `7B121,41.mo/2`: flags after the dot, turns of life left after the slash.
function parseToken(token) {
  const slash = token.indexOf("/");
  const life = slash >= 0 ? Number(token.slice(slash + 1)) : null;
  const body = slash >= 0 ? token.slice(0, slash) : token;
  const dot = body.indexOf(".");
  const flags = dot >= 0 ? body.slice(dot + 1) : "";
  return { moved: flags.includes("m"), life };
}

function loadRegion(report) {
  state.pieces.clear();
  state.squares.clear();
  for (const owner of report.players) state.teams.set(owner.id, owner.team);
  for (const p of report.pieces) {
    const { moved, life } = parseToken(p.token);
    const piece = { id: p.id, owner: p.owner, kind: p.kind, x: p.x, y: p.y, moved, life };
    state.pieces.set(p.id, piece);
    state.squares.set(key(p.x, p.y), piece);
  }
  state.truncated = report.truncated;
  $("pieces").textContent = `${state.pieces.size}${report.truncated ? "+" : ""}`;
  if (state.centreOnMine && centreOnMine()) state.centreOnMine = false;
  dirty = true;
}

function parseMove(text) {
  const match = /^(\d+),(\d+)-(\d+),(\d+)$/.exec(text);
  return match && { from: [Number(match[1]), Number(match[2])], to: [Number(match[3]), Number(match[4])] };
}

/// A move as the server reported it: the piece goes, what it took goes, a taken king's army and
/// collected pieces become the mover's.
function applyMove(mover, text, effects) {
  const mv = parseMove(text);
  if (!mv) return;
  const piece = state.squares.get(key(...mv.from));
  if (!piece) return; // not read yet: the next region read brings it
  const taken = state.squares.get(key(...mv.to));
  if (taken && taken !== piece) state.pieces.delete(taken.id);
  state.squares.delete(key(...mv.from));
  piece.x = mv.to[0];
  piece.y = mv.to[1];
  piece.moved = true;
  piece.life = null;
  state.squares.set(key(piece.x, piece.y), piece);
  if (effects && effects.king_captured) {
    for (const other of state.pieces.values()) if (other.owner === effects.king_captured) other.owner = mover;
  }
  for (const collected of (effects && effects.collected) || []) {
    const found = state.pieces.get(collected.id);
    if (found) found.owner = mover;
  }
  $("pieces").textContent = String(state.pieces.size);
  // The board changed: what was legal may not be any more.
  if (state.targets) askTargets(state.targets.x, state.targets.y, true);
  dirty = true;
}

function startTurn(message) {
  if (message.turn !== state.turn) {
    state.movedThisTurn.clear();
    state.selected = null;
    state.targets = null;
  }
  state.turn = message.turn;
  state.team = message.team;
  state.deadlineAt = performance.now() + message.deadline_ms;
  $("turn").textContent = String(message.turn);
  $("to-move").textContent = message.team;
  dirty = true;
}

// ---- playing ------------------------------------------------------------------------------------

function join(team, name) {
  openPlayer();
  player.send({ type: "join", team, name });
}

function comeBack(token) {
  openPlayer();
  player.send({ type: "hello", token });
}

function openPlayer() {
  if (player) player.close();
  player = connect(null, onPlayer, state.server);
  player.raw.addEventListener("close", () => {
    if (state.me) logLine("the connection closed: reload the page to come back", true);
    $("done").disabled = true;
  });
}

function onPlayer(message) {
  switch (message.type) {
    case "joined":
      localStorage.setItem(tokenKey(), message.token);
      break;
    case "welcome":
      state.me = { player: message.player, team: message.team, name: message.name };
      state.teams.set(message.player, message.team);
      if (!state.params) {
        state.params = message.params;
        state.width = message.params.width;
        state.height = message.params.height;
      }
      $("join-panel").hidden = true;
      $("play-panel").hidden = false;
      $("zoom-mine").disabled = false;
      $("me").textContent = `${message.name} (#${message.player}, ${message.team})`;
      if (!message.alive) logLine("your king was captured: join again as a new player", true);
      // The army was just placed: read the world, then look at it.
      state.centreOnMine = true;
      readRegion();
      if (spectator) spectator.send({ type: "scoreboard" });
      break;
    case "turn":
      startTurn(message);
      state.myTurn = message.you_move;
      $("done").disabled = !message.you_move;
      $("your-turn").textContent = message.you_move ? "your turn: move your pieces, then Done" : "the other team moves";
      $("your-turn").className = message.you_move ? "go" : "muted";
      break;
    case "ack": {
      const mv = parseMove(message.move);
      if (mv) {
        if (alreadyApplied(message.turn, message.move, state.me.player)) {
          const piece = mine(state.squares.get(key(...mv.to)));
          if (piece) state.movedThisTurn.add(piece.id);
        } else {
          const piece = mine(state.squares.get(key(...mv.from)));
          if (piece) state.movedThisTurn.add(piece.id);
          applyMove(state.me.player, message.move, message.effects);
        }
      }
      state.acks.push({ turn: message.turn, move: message.move, ok: true });
      const points = message.effects && message.effects.points;
      logLine(`${message.move} ✓${points ? ` +${points}` : ""}`);
      dirty = true;
      break;
    }
    case "rejected":
      state.acks.push({ turn: message.turn, move: message.move, ok: false, reason: message.reason });
      logLine(`${message.move} ✗ ${message.reason}`, true);
      break;
    case "targets":
      if (state.targetsAsked === `${message.x},${message.y}`) {
        state.targets = { x: message.x, y: message.y, squares: message.squares, turn: message.turn };
        dirty = true;
      }
      break;
    case "turn_end":
      if (message.score !== undefined) $("score").textContent = String(message.score);
      state.myTurn = false;
      $("done").disabled = true;
      break;
    case "eliminated":
      logLine(`your king was captured by player ${message.by}`, true);
      state.myTurn = false;
      break;
    case "error":
      if (message.error === "bad-token") {
        localStorage.removeItem(tokenKey());
        state.me = null;
        $("join-panel").hidden = false;
        $("play-panel").hidden = true;
      }
      logLine(`${message.error}: ${message.reason}`, true);
      if (!state.me) status(`${message.error}: ${message.reason}`, true);
      break;
    case "closing":
      logLine(`the world server is stopping (${message.reason})`, true);
      break;
  }
}

function mine(piece) {
  return piece && state.me && piece.owner === state.me.player ? piece : null;
}

/// Whether the piece on a square is one this page may move now.
function movable(x, y) {
  const piece = mine(state.squares.get(key(x, y)));
  return !!piece && state.myTurn && !state.movedThisTurn.has(piece.id);
}

function askTargets(x, y, again = false) {
  const asked = `${x},${y}`;
  if (!again && state.targetsAsked === asked) return;
  state.targetsAsked = asked;
  if (!again) state.targets = null;
  if (player) player.send({ type: "targets", x, y });
}

function logLine(text, bad = false) {
  const log = $("log");
  log.prepend(el("li", { class: bad ? "rejected" : "" }, text));
  while (log.children.length > 50) log.lastChild.remove();
}

function sendMove(from, to) {
  if (!player) return;
  player.send({ type: "move", move: `${from.x},${from.y}-${to.x},${to.y}` });
}

// ---- the view: board coordinates to pixels -------------------------------------------------------

function size() {
  return { w: canvas.clientWidth, h: canvas.clientHeight };
}

/// The pixel (in the canvas) of a board point; y grows northwards, the screen's downwards.
function toScreen(x, y) {
  const { w, h } = size();
  const v = state.view;
  return { px: w / 2 + (x - v.cx) * v.scale, py: h / 2 - (y - v.cy) * v.scale };
}

function toBoard(px, py) {
  const { w, h } = size();
  const v = state.view;
  return { x: v.cx + (px - w / 2) / v.scale, y: v.cy - (py - h / 2) / v.scale };
}

function squareAt(px, py) {
  const p = toBoard(px, py);
  const x = Math.floor(p.x);
  const y = Math.floor(p.y);
  if (x < 0 || y < 0 || x >= state.width || y >= state.height) return null;
  return { x, y };
}

function fitAll() {
  const { w, h } = size();
  state.view.cx = state.width / 2;
  state.view.cy = state.height / 2;
  state.view.scale = clampScale(Math.min(w / state.width, h / state.height) * 0.95);
  dirty = true;
}

function clampScale(scale) {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/// Zooms by `factor` keeping the board point under pixel (px, py) where it is.
function zoomAt(factor, px, py) {
  const before = toBoard(px, py);
  state.view.scale = clampScale(state.view.scale * factor);
  const after = toBoard(px, py);
  state.view.cx += before.x - after.x;
  state.view.cy += before.y - after.y;
  dirty = true;
}

function panBy(dx, dy) {
  state.view.cx -= dx / state.view.scale;
  state.view.cy += dy / state.view.scale;
  dirty = true;
}

/// Centres the view on this player's king (or any of its pieces); false when none is known yet.
function centreOnMine() {
  if (!state.me) return false;
  let found = null;
  for (const piece of state.pieces.values()) {
    if (piece.owner !== state.me.player) continue;
    found = piece;
    if (piece.kind === "K") break;
  }
  if (!found) return false;
  state.view.scale = clampScale(Math.max(state.view.scale, 28));
  // The army in the middle, unless that would fill more than a quarter of the view with the
  // outside of a board bigger than the view.
  const { w, h } = size();
  const half = { x: w / 4 / state.view.scale, y: h / 4 / state.view.scale };
  const within = (at, quarter, side) => (side > 4 * quarter ? Math.min(Math.max(at, quarter), side - quarter) : at);
  state.view.cx = within(found.x + 0.5, half.x, state.width);
  state.view.cy = within(found.y + 0.5, half.y, state.height);
  dirty = true;
  return true;
}

// ---- drawing -------------------------------------------------------------------------------------

let checker = null;

function checkerPattern() {
  if (checker) return checker;
  const tile = document.createElement("canvas");
  tile.width = 2;
  tile.height = 2;
  const t = tile.getContext("2d");
  t.fillStyle = COLOURS.light;
  t.fillRect(0, 0, 2, 2);
  t.fillStyle = COLOURS.dark;
  t.fillRect(0, 1, 1, 1);
  t.fillRect(1, 0, 1, 1);
  checker = ctx.createPattern(tile, "repeat");
  return checker;
}

function fullLife(kind) {
  const p = state.params || {};
  return (p.fade_base || 2) + (p.fade_per_rank || 0) * (p[RANK_PARAM[kind]] || 0);
}

function resize() {
  const ratio = window.devicePixelRatio || 1;
  const { w, h } = size();
  canvas.width = Math.max(1, Math.round(w * ratio));
  canvas.height = Math.max(1, Math.round(h * ratio));
  dirty = true;
}

/// One frame: the board, kingdoms, pieces (only those in view), then marks. Returns the pieces
/// drawn.
function draw() {
  const ratio = window.devicePixelRatio || 1;
  const { w, h } = size();
  const s = state.view.scale;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.fillStyle = COLOURS.outside;
  ctx.fillRect(0, 0, w, h);
  if (!state.width) return 0;

  // The board: one rectangle, checkered when squares are big enough to see.
  const corner = toScreen(0, state.height);
  const boardW = state.width * s;
  const boardH = state.height * s;
  const bx0 = Math.max(0, corner.px);
  const by0 = Math.max(0, corner.py);
  const bx1 = Math.min(w, corner.px + boardW);
  const by1 = Math.min(h, corner.py + boardH);
  if (s >= 6) {
    const pattern = checkerPattern();
    ctx.imageSmoothingEnabled = false;
    // Square (x, y) is dark when x + y is even, as a1 is; the tile's row 0 is the top.
    pattern.setTransform(new DOMMatrix([s, 0, 0, s, corner.px, corner.py + (state.height % 2) * s]));
    ctx.fillStyle = pattern;
  } else {
    ctx.fillStyle = COLOURS.light;
  }
  if (bx1 > bx0 && by1 > by0) ctx.fillRect(bx0, by0, bx1 - bx0, by1 - by0);

  // What is in view, in board squares, with a margin of a kingdom for the circles.
  const topLeft = toBoard(0, 0);
  const bottomRight = toBoard(w, h);
  const minX = Math.floor(topLeft.x) - 1;
  const maxX = Math.ceil(bottomRight.x) + 1;
  const minY = Math.floor(bottomRight.y) - 1;
  const maxY = Math.ceil(topLeft.y) + 1;
  const radius = (state.params && state.params.kingdom_radius) || 0;

  // Kingdoms: one path a team, filled and stroked once, inside the board only.
  if (radius > 0) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(corner.px, corner.py, boardW, boardH);
    ctx.clip();
    for (const team of ["alabaster", "metal"]) {
      ctx.beginPath();
      let any = false;
      for (const piece of state.pieces.values()) {
        if (piece.kind !== "K" || state.teams.get(piece.owner) !== team) continue;
        if (piece.x + radius < minX || piece.x - radius > maxX || piece.y + radius < minY || piece.y - radius > maxY) continue;
        const c = toScreen(piece.x + 0.5, piece.y + 0.5);
        ctx.moveTo(c.px + radius * s, c.py);
        ctx.arc(c.px, c.py, radius * s, 0, Math.PI * 2);
        any = true;
      }
      if (!any) continue;
      ctx.fillStyle = COLOURS.kingdom[team];
      ctx.fill();
      if (s * radius >= 20) {
        ctx.strokeStyle = COLOURS.kingdomEdge[team];
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    }
    ctx.restore();
  }

  // Pieces in view, grouped by how they are drawn so that styles change a few times a frame.
  const groups = { alabaster: [], metal: [], neutral: [] };
  let drawn = 0;
  for (const piece of state.pieces.values()) {
    if (piece.x < minX || piece.x > maxX || piece.y < minY || piece.y > maxY) continue;
    const team = piece.owner === 0 ? "neutral" : state.teams.get(piece.owner) || "neutral";
    groups[team].push(piece);
    drawn++;
  }
  const origin = toScreen(0, 0);
  const px = (x) => origin.px + x * s;
  const py = (y) => origin.py - (y + 1) * s;
  for (const team of ["alabaster", "metal", "neutral"]) {
    const list = groups[team];
    if (list.length === 0) continue;
    ctx.fillStyle = COLOURS[team];
    ctx.strokeStyle = COLOURS[team + "Edge"];
    if (s < 6) {
      // Far out: a dot a piece, faded pieces paler.
      const dot = Math.max(1, s);
      for (const faded of [false, true]) {
        ctx.globalAlpha = faded ? 0.45 : 1;
        for (const p of list) if ((p.life !== null) === faded) ctx.fillRect(px(p.x), py(p.y), dot, dot);
      }
      ctx.globalAlpha = 1;
      continue;
    }
    // Near: a disc with an edge, and the piece's letter once legible.
    const r = s * 0.42;
    const labels = s >= 14;
    ctx.lineWidth = Math.max(1, s / 20);
    for (const p of list) {
      ctx.globalAlpha = p.life !== null ? 0.25 + 0.5 * (p.life / fullLife(p.kind)) : 1;
      const cx = px(p.x) + s / 2;
      const cy = py(p.y) + s / 2;
      ctx.beginPath();
      if (p.kind === "K") ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
      else ctx.arc(cx, cy, p.kind === "P" ? r * 0.8 : r, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
    }
    if (labels) {
      ctx.fillStyle = team === "metal" ? "#f0f0f0" : "#222";
      ctx.font = `bold ${Math.round(s * 0.5)}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      for (const p of list) {
        ctx.globalAlpha = p.life !== null ? 0.5 : 1;
        ctx.fillText(LETTERS[p.kind] || "?", px(p.x) + s / 2, py(p.y) + s / 2 + 1);
      }
      if (team === "neutral") {
        // A bonus piece: a star mark in its corner says "take me".
        ctx.fillStyle = COLOURS.neutralEdge;
        ctx.font = `${Math.round(s * 0.35)}px system-ui, sans-serif`;
        for (const p of list) ctx.fillText("★", px(p.x) + s * 0.82, py(p.y) + s * 0.2);
      }
    }
    ctx.globalAlpha = 1;
  }

  // My pieces: their outline in my colour; moved this turn: a green dot.
  if (state.me && s >= 6) {
    const r = s * 0.42;
    ctx.lineWidth = Math.max(1.5, s / 12);
    ctx.strokeStyle = COLOURS.mine;
    ctx.beginPath();
    for (const p of groups[state.me.team] || []) {
      if (p.owner !== state.me.player) continue;
      const cx = px(p.x) + s / 2;
      const cy = py(p.y) + s / 2;
      if (p.kind === "K") ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
      else {
        const pr = p.kind === "P" ? r * 0.8 : r;
        ctx.moveTo(cx + pr, cy);
        ctx.arc(cx, cy, pr, 0, Math.PI * 2);
      }
    }
    ctx.stroke();
    ctx.fillStyle = COLOURS.movedMark;
    ctx.beginPath();
    for (const id of state.movedThisTurn) {
      const p = state.pieces.get(id);
      if (!p) continue;
      const dot = Math.max(2, s * 0.12);
      ctx.moveTo(px(p.x) + s * 0.85 + dot, py(p.y) + s * 0.85);
      ctx.arc(px(p.x) + s * 0.85, py(p.y) + s * 0.85, dot, 0, Math.PI * 2);
    }
    ctx.fill();
  }
  // The selected piece and the legal squares the server gave for it (or for the hovered one).
  if (state.selected) {
    ctx.strokeStyle = COLOURS.selected;
    ctx.lineWidth = Math.max(2, s / 10);
    ctx.strokeRect(px(state.selected.x) + 1, py(state.selected.y) + 1, s - 2, s - 2);
  }
  if (state.targets) {
    // The piece whose squares these are (hovered or selected).
    ctx.strokeStyle = COLOURS.selected;
    ctx.lineWidth = Math.max(1, s / 16);
    ctx.strokeRect(px(state.targets.x) + 1, py(state.targets.y) + 1, s - 2, s - 2);
    ctx.fillStyle = COLOURS.target;
    ctx.beginPath();
    for (const [x, y] of state.targets.squares) {
      ctx.moveTo(px(x) + s / 2 + s * 0.18, py(y) + s / 2);
      ctx.arc(px(x) + s / 2, py(y) + s / 2, Math.max(2, s * 0.18), 0, Math.PI * 2);
    }
    ctx.fill();
  }
  return drawn;
}

// ---- frames, and the measurement hook -------------------------------------------------------------

const frames = { drawMs: [], intervals: [], last: 0, lastDrawn: 0 };

function frame(now) {
  if (frames.last) frames.intervals.push(now - frames.last);
  frames.last = now;
  if (measuring) measuring.step(now);
  if (dirty) {
    dirty = false;
    const begin = performance.now();
    frames.lastDrawn = draw();
    frames.drawMs.push(performance.now() - begin);
    if (frames.drawMs.length > 600) frames.drawMs.splice(0, 300);
  }
  if (frames.intervals.length > 600) frames.intervals.splice(0, 300);
  requestAnimationFrame(frame);
}

let measuring = null;

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] || 0;
  return { count: sorted.length, mean, p95: at(0.95), max: sorted[sorted.length - 1] || 0 };
}

/// Pans and zooms for `count` frames, drawing every one, and records each frame's interval
/// (requestAnimationFrame to requestAnimationFrame) and its drawing time. The result lands in
/// `rogerWorld.frameStats`.
function measureFrames(count = 120) {
  const intervals = [];
  const drawMs = [];
  const drawn = [];
  let last = 0;
  let index = 0;
  rogerWorld.frameStats = null;
  measuring = {
    step(now) {
      if (last) intervals.push(now - last);
      last = now;
      // `count` frames are moved and drawn; the one after them closes the last interval.
      if (index === count) {
        measuring = null;
        rogerWorld.frameStats = {
          frames: summary(intervals), draw: summary(drawMs), drawn: summary(drawn), drawnLast: frames.lastDrawn,
        };
        return;
      }
      // Half the frames pan in a circle, half zoom in and out around the middle.
      const { w, h } = size();
      // (The pan goes round one whole circle: the view ends where it began.)
      const angle = (2 * Math.PI * index) / Math.max(1, Math.floor(count / 2));
      if (index < count / 2) panBy(Math.cos(angle) * 25, Math.sin(angle) * 25);
      else zoomAt(index % 20 < 10 ? 1.08 : 1 / 1.08, w / 2, h / 2);
      const begin = performance.now();
      frames.lastDrawn = draw();
      drawMs.push(performance.now() - begin);
      drawn.push(frames.lastDrawn);
      dirty = false;
      index++;
    },
  };
}

// ---- the scoreboard and the clock -------------------------------------------------------------------

function showScoreboard() {
  const body = $("scoreboard").tBodies[0];
  body.replaceChildren();
  const totals = { alabaster: [0, 0], metal: [0, 0] };
  for (const row of state.scoreboard) {
    if (!totals[row.team]) continue;
    totals[row.team][0] += row.score;
    totals[row.team][1] += row.alive ? 1 : 0;
  }
  $("teams").replaceChildren(
    ...["alabaster", "metal"].map((team) =>
      el("div", {}, el("span", { class: `swatch ${team}` }), `${team} ${totals[team][0]} (${totals[team][1]} players)`)),
  );
  const rows = state.scoreboard.slice(0, 20);
  const me = state.me && state.scoreboard.find((row) => row.player === state.me.player);
  if (me && !rows.includes(me)) rows.push(me);
  for (const row of rows) {
    const place = state.scoreboard.indexOf(row) + 1;
    body.append(el("tr", { class: state.me && row.player === state.me.player ? "me" : "" },
      el("td", {}, String(place)),
      el("td", {}, el("span", { class: `swatch ${row.team}` }), `${row.name}${row.alive ? "" : " †"}${row.house ? " (house)" : ""}`),
      el("td", {}, String(row.score)),
      el("td", {}, String(row.pieces))));
  }
  if (me) $("score").textContent = String(me.score);
}

setInterval(() => {
  if (!state.deadlineAt) return;
  const left = Math.max(0, state.deadlineAt - performance.now());
  const timer = $("timer");
  timer.textContent = formatClock(left);
  timer.className = left < 5000 ? "short" : "";
}, 100);

// ---- input: drag to pan, wheel to zoom, hover and click to play -------------------------------------

let drag = null;

function pointerSquare(event) {
  const rect = canvas.getBoundingClientRect();
  return squareAt(event.clientX - rect.left, event.clientY - rect.top);
}

canvas.addEventListener("mousedown", (event) => {
  if (event.button !== 0) return;
  drag = { x: event.clientX, y: event.clientY, moved: false };
});

window.addEventListener("mousemove", (event) => {
  if (drag) {
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (drag.moved || Math.abs(dx) + Math.abs(dy) > 4) {
      drag.moved = true;
      canvas.classList.add("dragging");
      panBy(dx, dy);
      drag.x = event.clientX;
      drag.y = event.clientY;
    }
    return;
  }
  if (event.target !== canvas) return;
  hoverSquare(pointerSquare(event));
});

function hoverSquare(square) {
  const same = square && state.hover && square.x === state.hover.x && square.y === state.hover.y;
  if (same) return;
  state.hover = square;
  const info = $("square");
  if (!square) {
    info.textContent = "";
    return;
  }
  const piece = state.squares.get(key(square.x, square.y));
  info.textContent = `${square.x},${square.y}${piece ? ` ${pieceName(piece)}` : ""}`;
  // A selected piece keeps its squares on show; otherwise the hovered own piece's are shown.
  if (!state.selected) {
    if (movable(square.x, square.y)) askTargets(square.x, square.y);
    else if (state.targets) {
      state.targets = null;
      state.targetsAsked = null;
      dirty = true;
    }
  }
}

function pieceName(piece) {
  const owner = piece.owner === 0 ? "bonus (neutral)" : `of player ${piece.owner} (${state.teams.get(piece.owner) || "?"})`;
  const life = piece.life !== null ? `, fading: ${piece.life} turns left` : "";
  return `${piece.kind} ${owner}${life}`;
}

window.addEventListener("mouseup", (event) => {
  const was = drag;
  drag = null;
  canvas.classList.remove("dragging");
  if (!was || was.moved || event.target !== canvas) return;
  clickSquare(pointerSquare(event));
});

function clickSquare(square) {
  if (!square) return;
  const sel = state.selected;
  if (sel && state.targets && state.targets.x === sel.x && state.targets.y === sel.y &&
      state.targets.squares.some(([x, y]) => x === square.x && y === square.y)) {
    sendMove(sel, square);
    state.selected = null;
    state.targets = null;
    state.targetsAsked = null;
  } else if (movable(square.x, square.y)) {
    state.selected = square;
    askTargets(square.x, square.y);
  } else {
    state.selected = null;
    state.targets = null;
    state.targetsAsked = null;
  }
  dirty = true;
}

canvas.addEventListener("wheel", (event) => {
  event.preventDefault();
  const rect = canvas.getBoundingClientRect();
  zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - rect.left, event.clientY - rect.top);
}, { passive: false });

canvas.addEventListener("mouseleave", () => hoverSquare(null));

function zoomCentre(factor) {
  const { w, h } = size();
  zoomAt(factor, w / 2, h / 2);
}

$("zoom-in").addEventListener("click", () => zoomCentre(1.5));
$("zoom-out").addEventListener("click", () => zoomCentre(1 / 1.5));
$("zoom-all").addEventListener("click", fitAll);
$("zoom-mine").addEventListener("click", centreOnMine);
canvas.addEventListener("keydown", (event) => {
  const steps = { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] };
  if (steps[event.key]) panBy(...steps[event.key]);
  else if (event.key === "+" || event.key === "=") zoomCentre(1.25);
  else if (event.key === "-") zoomCentre(0.8);
  else return;
  event.preventDefault();
});

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!state.server) return;
  join($("team").value, $("name").value.trim() || "guest");
});
$("done").addEventListener("click", () => {
  if (!player) return;
  player.send({ type: "done" });
  state.myTurn = false;
  state.selected = null;
  state.targets = null;
  $("done").disabled = true;
  $("your-turn").textContent = "done: waiting for the turn to end";
  $("your-turn").className = "muted";
  dirty = true;
});
$("forget").addEventListener("click", () => {
  localStorage.removeItem(tokenKey());
  if (player) player.close();
  player = null;
  state.me = null;
  state.myTurn = false;
  $("join-panel").hidden = false;
  $("play-panel").hidden = true;
  dirty = true;
});

new ResizeObserver(resize).observe(canvas);

// ---- what tests and curious people may read ---------------------------------------------------------

const rogerWorld = {
  state,
  get pieces() { return state.pieces.size; },
  get turn() { return state.turn; },
  get team() { return state.team; },
  get me() { return state.me; },
  get myTurn() { return state.myTurn; },
  get acks() { return state.acks; },
  get targets() { return state.targets; },
  get movedThisTurn() { return [...state.movedThisTurn]; },
  get view() { return { ...state.view }; },
  /// The middle of square (x, y) in page (viewport) pixels, for a pointer to go to.
  screenOf(x, y) {
    const rect = canvas.getBoundingClientRect();
    const p = toScreen(x + 0.5, y + 0.5);
    return { x: Math.round(rect.left + p.px), y: Math.round(rect.top + p.py) };
  },
  centreOn(x, y, scale) {
    state.view.cx = x + 0.5;
    state.view.cy = y + 0.5;
    if (scale) state.view.scale = clampScale(scale);
    dirty = true;
  },
  fitAll,
  measureFrames,
  frameStats: null,
  /// Frame intervals and drawing times of the page's own frames so far.
  recentFrames() {
    return { frames: summary(frames.intervals), draw: summary(frames.drawMs), drawnLast: frames.lastDrawn };
  },
};
window.rogerWorld = rogerWorld;

resize();
requestAnimationFrame(frame);
start();
