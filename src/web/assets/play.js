// The play page: a game of chess, Millennium chess or Nichess against Roger. The server keeps
// the game, the legal moves and the clocks; this page draws its last state, counts the running
// clock down between states, and sends the player's choices.

import { connect, el, formatClock, download, FIGURES } from "/common.js";
import { Board, splitMove } from "/board.js";

const $ = (id) => document.getElementById(id);

// For tests and curious users: the last state, every message, and a way to send.
const play = (window.rogerPlay = {
  state: null, eval: null, errors: [], pgn: null, messages: 0, connected: false,
});

let receivedAt = performance.now();

const socket = connect("play", (message) => {
  play.messages += 1;
  if (message.type === "state") showState(message);
  else if (message.type === "thinking") showEval(message.eval);
  else if (message.type === "error") showError(message.error);
  else if (message.type === "pgn") {
    play.pgn = message.pgn;
    download(message.name, message.pgn, "application/x-chess-pgn");
  }
});
play.send = (message) => {
  $("error").textContent = "";
  socket.send(message);
};

const board = new Board($("board"), (text) => play.send({ type: "move", move: text }), choose);

/// Asks which of several moves that differ by their suffix (a promotion) to play.
function choose(options) {
  const dialog = $("promotion");
  return new Promise((resolve) => {
    const human = play.state?.human === "black" ? "black" : "white";
    const buttons = options.map((text) => {
      const suffix = splitMove(text).suffix;
      const letter = human === "white" ? suffix.toUpperCase() : suffix;
      return el("button", {
        type: "button", "data-promotion": suffix, title: text,
        onclick: () => { dialog.hidden = true; resolve(text); },
      }, FIGURES[letter] || suffix);
    });
    const cancel = el("button", { type: "button", onclick: () => { dialog.hidden = true; resolve(null); } }, "\u2715");
    dialog.replaceChildren(...buttons, cancel);
    dialog.hidden = false;
  });
}

function showError(text) {
  play.errors.push(text);
  $("error").textContent = text;
}

function scoreText(score) {
  if (!score) return "-";
  if (score.mate !== undefined) return `mate ${score.mate}`;
  return (score.cp >= 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}

function showEval(evaluation) {
  play.eval = evaluation;
  $("eval-depth").textContent = evaluation ? evaluation.depth : "-";
  $("eval-score").textContent = evaluation ? scoreText(evaluation.score) : "-";
  $("eval-pv").textContent = evaluation ? evaluation.pv.join(" ") : "";
}

function poolText(letters, color) {
  const shown = [...letters].map((l) => FIGURES[l] || l).join(" ");
  return el("span", { "data-pool": color, "data-letters": letters },
    `${color === "white" ? "White" : "Black"}'s pool: ${shown || "empty"}`);
}

function kingsText(state) {
  const kings = state.millennium.kings;
  return ["white", "black"].map((color) => {
    const side = kings[color];
    const name = color === "white" ? "White" : "Black";
    if (side.squares.length === 2) {
      return el("span", { "data-kings": color, "data-royal": "false" },
        `${name}: two kings (${side.squares.join(", ")}), neither royal. `);
    }
    const fell = side.keystone_fell_on ? ` fell on ${side.keystone_fell_on}` : " is gone";
    return el("span", { "data-kings": color, "data-royal": "true", "data-keystone": side.keystone_fell_on || "" },
      `${name}: the keystone king${fell}; the king on ${side.squares.join(", ") || "-"} is royal. `);
  });
}

function showState(state) {
  play.state = state;
  receivedAt = performance.now();
  board.render(state);
  const human = state.human;
  const roger = human === "white" ? "black" : "white";
  $("clock-top").dataset.side = roger;
  $("clock-bottom").dataset.side = human;
  if (state.millennium) {
    $("pool-top").replaceChildren(poolText(state.millennium.pools[roger], roger));
    $("pool-bottom").replaceChildren(poolText(state.millennium.pools[human], human));
    $("kings").replaceChildren(...kingsText(state));
  } else {
    $("pool-top").replaceChildren();
    $("pool-bottom").replaceChildren();
    $("kings").replaceChildren();
  }
  // Numbered as in a score sheet, from the start FEN's move number and side to move.
  const fields = state.start_fen.split(" ");
  const blackFirst = fields[1] === "b";
  const firstNumber = Number(fields[5]) || 1;
  const moves = state.moves.map((move) => {
    const white = (move.ply % 2 === 1) !== blackFirst;
    const number = firstNumber + Math.floor((move.ply - 1 + (blackFirst ? 1 : 0)) / 2);
    const label = white ? `${number}. ` : move.ply === 1 ? `${number}\u2026 ` : "";
    const classes = move.by + (blackFirst && move.ply === 1 ? " black-first" : "");
    return el("li", { "data-ply": move.ply, "data-move": move.text, class: classes, title: move.text },
      label, move.san || move.text);
  });
  $("moves").replaceChildren(...moves);
  $("moves").scrollTop = $("moves").scrollHeight;
  $("fen").value = state.fen;
  const result = state.result;
  $("result").textContent = result ? `${result.result} (${result.reason})` : "";
  $("status").textContent = result ? "Game over" :
    state.your_turn ? "Your move" : state.thinking ? "Roger is thinking\u2026" : "Roger to move";
  showEval(state.eval);
  $("legend").textContent = state.game === "nichess"
    ? "On each piece: its attack power (AP, red, left), its health (HP, green, right) and a health bar. " +
      "Squares flashing red were hit by the splash of the last throw."
    : "";
  tick();
}

/// The clocks as the server gave them, less the time since for the running one.
function tick() {
  const state = play.state;
  if (!state) return;
  for (const id of ["clock-top", "clock-bottom"]) {
    const node = $(id);
    const side = node.dataset.side;
    let ms = state.clocks[side];
    const running = state.clocks.running === side;
    if (running) ms -= performance.now() - receivedAt;
    node.textContent = `${side === state.human ? "You" : "Roger"} ${formatClock(ms)}`;
    node.classList.toggle("running", running);
    node.classList.toggle("low", running && ms < 10000);
  }
}
setInterval(tick, 100);

/// The form's fields the page remembers between visits.
const REMEMBERED = ["game", "side", "minutes", "increment", "skill", "movetime"];
const SETTINGS_KEY = "roger-play-settings";

function saveSettings() {
  const values = Object.fromEntries(REMEMBERED.map((id) => [id, $(id).value]));
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(values));
  } catch (error) {
    // No storage (a private window): the choices are simply not remembered.
  }
}

function restoreSettings() {
  let values = {};
  try {
    values = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
  } catch (error) {
    values = {};
  }
  for (const id of REMEMBERED) {
    if (typeof values[id] === "string") $(id).value = values[id];
  }
  $("skill-value").textContent = $("skill").value;
}

function newGame(event) {
  event?.preventDefault();
  saveSettings();
  const movetime = $("movetime").value.trim();
  play.send({
    type: "new",
    game: $("game").value,
    side: $("side").value,
    minutes: Number($("minutes").value),
    increment: Number($("increment").value),
    skill: Number($("skill").value),
    fen: $("start-fen").value.trim() || null,
    movetime: movetime ? Number(movetime) : null,
  });
}

$("setup").addEventListener("submit", newGame);
$("skill").addEventListener("input", () => { $("skill-value").textContent = $("skill").value; });
$("takeback").addEventListener("click", () => play.send({ type: "takeback" }));
$("resign").addEventListener("click", () => play.send({ type: "resign" }));
$("download-pgn").addEventListener("click", () => play.send({ type: "pgn" }));
$("copy-fen").addEventListener("click", async () => {
  $("fen").select();
  try {
    await navigator.clipboard.writeText($("fen").value);
  } catch (error) {
    document.execCommand?.("copy");
  }
});
// Nothing starts by itself: the player chooses, and the last choices come back next time.
restoreSettings();
socket.ready.then(() => { play.connected = true; });
$("show-thinking").addEventListener("change", () => {
  $("eval").hidden = !$("show-thinking").checked;
});
