// The world page's two connections to the world server (docs/world-server.md): the spectator's,
// which keeps the whole world read, and the player's, which joins and plays. The legal squares
// come from the server (`targets`), never from here.

import { connect } from "/common.js";
import { logLine, moveText, showNearest, showScoreboard, status } from "/world-panels.js";
import { $, applyMove, key, loadRegion, markDirty, mine, parseMove, startTurn, state } from "/world-state.js";
import { centreOnMine, fitAll } from "/world-view.js";

let spectator = null;
let player = null;
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

/// Watches the world, and plays again as the player this browser last was there.
export async function start() {
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
      status("connected: watching the world");
      $("connection").title = state.server;
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
      if (state.centreOnMine && centreOnMine()) state.centreOnMine = false;
      if (state.me) showNearest();
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
        applyReported(message.player, message.move, message.effects);
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

function applyReported(mover, move, effects) {
  // The board changed: what was legal may not be any more.
  if (applyMove(mover, move, effects) && state.targets) askTargets(state.targets.x, state.targets.y, true);
}

// ---- playing ------------------------------------------------------------------------------------

export function join(team, name) {
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
          applyReported(state.me.player, message.move, message.effects);
        }
      }
      state.acks.push({ turn: message.turn, move: message.move, ok: true });
      const points = message.effects && message.effects.points;
      const moved = mv && state.squares.get(key(...mv.to));
      logLine(`${moveText(message.move, moved && moved.kind)} ✓${points ? ` +${points}` : ""}`);
      markDirty();
      break;
    }
    case "rejected":
      state.acks.push({ turn: message.turn, move: message.move, ok: false, reason: message.reason });
      {
        const mv = parseMove(message.move);
        const piece = mv && state.squares.get(key(...mv.from));
        logLine(`${moveText(message.move, piece && piece.kind, message.reason)} ✗`, true);
      }
      break;
    case "targets":
      if (state.targetsAsked === `${message.x},${message.y}`) {
        state.targets = { x: message.x, y: message.y, squares: message.squares, turn: message.turn };
        markDirty();
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

export function askTargets(x, y, again = false) {
  const asked = `${x},${y}`;
  if (!again && state.targetsAsked === asked) return;
  state.targetsAsked = asked;
  if (!again) state.targets = null;
  if (player) player.send({ type: "targets", x, y });
}

export function sendMove(from, to) {
  if (!player) return;
  player.send({ type: "move", move: `${from.x},${from.y}-${to.x},${to.y}` });
}

/// The Done button: this player's moves for the turn are over.
export function done() {
  if (!player) return;
  player.send({ type: "done" });
  state.myTurn = false;
  state.selected = null;
  state.targets = null;
  $("done").disabled = true;
  $("your-turn").textContent = "done: waiting for the turn to end";
  $("your-turn").className = "muted";
  markDirty();
}

/// Forgets this browser's player (its token) and shows the join form again.
export function forget() {
  localStorage.removeItem(tokenKey());
  if (player) player.close();
  player = null;
  state.me = null;
  state.myTurn = false;
  $("join-panel").hidden = false;
  $("play-panel").hidden = true;
  markDirty();
}
