// The play page: a game of chess, Millennium chess or Nichess against Roger. The server keeps
// the game, the legal moves and the clocks; this page draws its last state, counts the running
// clock down between states, and sends the player's choices. Any earlier position of the game
// can be looked at (the server sends it on request) while the game goes on.

import { connect, el, formatClock, download } from "/common.js";
import { figureIcon } from "/pieces.js";
import { matchTypedMove } from "/move-entry.js";
import { Board, splitMove } from "/board.js";
import { moveItems, markCurrent, stepByKeys } from "/move-list.js";
import { Sounds } from "/sounds.js";

const $ = (id) => document.getElementById(id);

// For tests and curious users: the last state, every message, and a way to send.
const play = (window.rogerPlay = {
  state: null, eval: null, analysis: null, errors: [], pgn: null, messages: 0, connected: false,
  /// The ply on the board when it is not the game as it stands (null: as it stands).
  viewing: null, position: null,
});

let receivedAt = performance.now();
/// The last `new` request, for a rematch; and whether its answer is still awaited.
let lastNew = null;
let awaitingNew = false;
const sounds = new Sounds();

const socket = connect("play", (message) => {
  play.messages += 1;
  if (message.type === "state") showState(message);
  else if (message.type === "position") showPosition(message);
  else if (message.type === "thinking") play.eval = message.eval;
  else if (message.type === "analysis") showAnalysis(message);
  else if (message.type === "draw_offer") {
    play.drawOffer = message;
    $("draw-answer").textContent = message.accepted
      ? "Roger accepts the draw."
      : `Roger declines the draw: ${message.why.replace(/^Roger /, "it ")}.`;
  }
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

/// Asks which of several moves that differ by their suffix (a promotion) to play: a column of
/// buttons over the square the piece goes to.
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
      }, figureIcon(play.state?.game, letter));
    });
    const cancel = el("button", { type: "button", onclick: () => { dialog.hidden = true; resolve(null); } }, "\u2715");
    dialog.replaceChildren(el("div", { class: "choices" }, ...buttons, cancel));
    const square = document.querySelector(`#board rect[data-square="${splitMove(options[0]).to}"]`);
    const column = dialog.firstChild;
    if (square) {
      const r = square.getBoundingClientRect();
      column.style.left = `${Math.max(0, Math.min(r.left, innerWidth - 72))}px`;
      column.style.top = `${Math.max(0, Math.min(r.top, innerHeight - 72 * (buttons.length + 1)))}px`;
    }
    dialog.hidden = false;
  });
}

function showError(text) {
  play.errors.push(text);
  if (awaitingNew) {
    // The new game was refused: the dialog stays open with the reason.
    awaitingNew = false;
    $("setup-error").textContent = setupErrorText(text);
    return;
  }
  $("error").textContent = text;
}

function scoreText(score) {
  if (!score) return "-";
  if (score.mate !== undefined) return `#${score.mate}`;
  return (score.cp >= 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}

/// Roger's lines in an analysis (never in a game, where they would hand over its plan): each
/// line's score from White's side, depth and moves, and the first moves as arrows.
function showAnalysis(message) {
  const state = play.state;
  if (!state || !state.analysis || message.fen !== state.fen) return;
  play.analysis = message;
  const lines = message.lines;
  $("analysis-depth").textContent = lines.length ? `depth ${lines[0].depth}` : "";
  $("analysis-lines").replaceChildren(...lines.map((line) => el("li", { "data-line": line.multipv },
    el("span", { class: "score" }, scoreText(line.score)), line.pv.join(" "))));
  if (play.viewing === null) {
    board.setHints(lines.map((line) => splitMove(line.pv[0] || "")).filter(Boolean));
  }
}

function poolText(letters, color) {
  const shown = [...letters].map((l) => figureIcon("millennium", l));
  return el("span", { "data-pool": color, "data-letters": letters },
    `${color === "white" ? "White" : "Black"}'s pool: `, ...(shown.length ? shown : ["empty"]));
}

function kingsText(millennium) {
  const kings = millennium.kings;
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

/// The pools and kings of a Millennium position (the game's, or an earlier one).
function showMillennium(millennium, human) {
  const roger = human === "white" ? "black" : "white";
  if (millennium) {
    $("pool-top").replaceChildren(poolText(millennium.pools[roger], roger));
    $("pool-bottom").replaceChildren(poolText(millennium.pools[human], human));
    $("kings").replaceChildren(...kingsText(millennium));
  } else {
    $("pool-top").replaceChildren();
    $("pool-bottom").replaceChildren();
    $("kings").replaceChildren();
  }
}

function showState(state) {
  const previous = play.state;
  const moved = !previous || previous.fen !== state.fen || previous.moves.length !== state.moves.length;
  play.state = state;
  receivedAt = performance.now();
  if (awaitingNew) {
    awaitingNew = false;
    $("setup-dialog").close();
  }
  // A move brings the board back to the game as it stands.
  if (moved) {
    play.viewing = null;
    $("draw-answer").textContent = "";
  }
  if (moved && previous && state.moves.length > 0) sounds.move(previous, state);
  if (play.viewing === null) drawLive();
  const moves = state.moves.map((move) => ({
    ply: move.ply, label: move.san || move.text, title: move.text, classes: move.by,
  }));
  const shown = play.viewing ?? state.moves.length;
  $("moves").replaceChildren(...moveItems(state.start_fen, moves, shown, view));
  markCurrent($("moves"), shown);
  $("fen").value = state.fen;
  const result = state.result;
  $("result").textContent = result ? `${result.result} (${result.reason})` : "";
  $("result-box").hidden = !result || Boolean(state.analysis);
  $("status").textContent = state.analysis
    ? (result ? "Analysis: the game is over here" : `Analysis: ${state.side_to_move} to move; you move both sides`)
    : result ? "Game over" :
      state.your_turn ? "Your move" : state.thinking ? "Roger is thinking\u2026" : "Roger to move";
  $("takeback").disabled = !state.moves.some((move) => move.by === "you");
  $("clock-top").hidden = $("clock-bottom").hidden = Boolean(state.analysis);
  $("download-pgn").disabled = false;
  setResign(false);
  play.eval = state.eval;
  $("analysis").hidden = !state.analysis;
  if (moved || !state.analysis) {
    play.analysis = null;
    $("analysis-lines").replaceChildren();
    $("analysis-depth").textContent = state.analysis ? "thinking\u2026" : "";
  }
  $("legend").textContent = state.game === "nichess"
    ? "On each piece: its attack power (AP, red, left), its health (HP, green, right) and a health bar. " +
      "Squares flashing red were hit by the splash of the last throw."
    : state.chess960 != null
      ? `Chess960, start position ${state.chess960}. To castle, move the king onto its own rook.`
      : "";
  showViewing();
  tick();
}

/// The game as it stands, on the board: moves by click and drag, and premoves.
function drawLive() {
  const state = play.state;
  board.render({ ...state, premoves: true });
  showMillennium(state.millennium, state.human);
}

/// Looks at the position after `ply` moves (the game as it stands at its last ply).
function view(ply) {
  const state = play.state;
  if (!state) return;
  ply = Math.max(0, Math.min(ply, state.moves.length));
  if (ply === state.moves.length) {
    play.viewing = null;
    drawLive();
    if (play.analysis) showAnalysis(play.analysis);
  } else {
    play.viewing = ply;
    play.send({ type: "position", ply });
  }
  markCurrent($("moves"), ply);
  showViewing();
}

/// An earlier position from the server: drawn if it is still the one asked for.
function showPosition(position) {
  const state = play.state;
  if (!state || position.ply !== play.viewing) return;
  play.position = position;
  board.render({
    ...state, ...position, legal: [], your_turn: false, premoves: false, result: null,
    moves: state.moves.slice(0, position.ply),
  });
  showMillennium(position.millennium, state.human);
}

function showViewing() {
  const state = play.state;
  const text = play.viewing === null ? "" :
    `move ${play.viewing} of ${state.moves.length}: \u2192 or \u25B6| to return`;
  $("viewing").textContent = text;
  document.body.classList.toggle("viewing-history", play.viewing !== null);
}

function step(where) {
  const state = play.state;
  if (!state) return;
  const now = play.viewing ?? state.moves.length;
  const to = { first: 0, back: now - 1, forward: now + 1, last: state.moves.length }[where];
  view(to);
}
stepByKeys(step);
// A move typed on the keyboard, matched against the legal moves of the game as it stands.
$("move-entry").addEventListener("submit", (event) => {
  event.preventDefault();
  const state = play.state;
  const found = state && play.viewing === null
    ? matchTypedMove($("move-input").value, state.legal || [], state.legal_san || [])
    : { error: state ? "go back to the game as it stands (\u25B6|) to move" : "start a game first" };
  $("move-entry-error").textContent = found.error || "";
  if (found.move) {
    $("move-input").value = "";
    play.send({ type: "move", move: found.move });
  }
});
$("step-first").addEventListener("click", () => step("first"));
$("step-back").addEventListener("click", () => step("back"));
$("step-forward").addEventListener("click", () => step("forward"));
$("step-last").addEventListener("click", () => step("last"));

/// The clocks as the server gave them, less the time since for the running one.
function tick() {
  const state = play.state;
  if (!state) return;
  const human = state.human;
  const roger = human === "white" ? "black" : "white";
  // The player's clock sits at the bottom unless the board is turned.
  const [top, bottom] = board.turned ? [human, roger] : [roger, human];
  $("clock-top").dataset.side = top;
  $("clock-bottom").dataset.side = bottom;
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

/// Resigning takes two clicks: the first asks, the second resigns.
function setResign(asking) {
  const button = $("resign");
  const over = !play.state || Boolean(play.state.result) || Boolean(play.state.analysis);
  button.disabled = over;
  $("offer-draw").disabled = over;
  button.dataset.asking = asking && !over ? "true" : "false";
  button.textContent = asking && !over ? "Really resign?" : "Resign";
}

/// The form's fields the page remembers between visits.
const REMEMBERED = ["game", "side", "minutes", "increment", "skill", "movetime"];
const SETTINGS_KEY = "roger-play-settings";

function saveSettings() {
  const values = Object.fromEntries(REMEMBERED.map((id) => [id, $(id).value]));
  values.sound = $("sound").checked ? "on" : "off";
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
  if (values.sound) $("sound").checked = values.sound === "on";
  sounds.enabled = $("sound").checked;
  $("skill-value").textContent = $("skill").value;
}

/// A refused new game in a player's words: the server's `new: invalid FEN '...': bad FEN: why`
/// becomes `This FEN cannot be played: why.`
function setupErrorText(text) {
  const fen = /^new: invalid FEN '.*?': (?:bad FEN: )?(.*)$/s.exec(text);
  if (!fen) return text.replace(/^new: /, "");
  const why = fen[1].replace(/; the position is unchanged$/, "");
  return `This FEN cannot be played: ${why}.`;
}

function sendNew(request) {
  lastNew = request;
  awaitingNew = true;
  $("setup-error").textContent = "";
  play.send(request);
}

function newGame(event) {
  event?.preventDefault();
  saveSettings();
  const movetime = $("movetime").value.trim();
  sendNew({
    type: "new",
    game: $("game").value,
    side: $("side").value,
    minutes: Number($("minutes").value),
    increment: Number($("increment").value),
    skill: Number($("skill").value),
    fen: $("start-fen").value.trim() || null,
    position: chess960Number(),
    movetime: movetime ? Number(movetime) : null,
  });
}

/// An analysis of the position on the board: the game's start and its moves up to the ply
/// shown; with no game yet, the start of the game chosen in the dialog.
function analyseBoard() {
  const state = play.state;
  if (!state) return analyseSetup();
  const plies = play.viewing ?? state.moves.length;
  sendNew({
    type: "analyse", game: state.game, fen: state.start_fen,
    moves: state.moves.slice(0, plies).map((move) => move.text),
  });
}

/// An analysis of the dialog's game from its FEN (or the start).
function analyseSetup() {
  saveSettings();
  sendNew({
    type: "analyse", game: $("game").value, fen: $("start-fen").value.trim() || null,
    position: chess960Number(),
  });
}

/// The Chess960 start position asked for in the dialog: its number, or null (at random, or
/// not a Chess960 game).
function chess960Number() {
  const typed = $("position").value.trim();
  return $("game").value === "chess960" && typed !== "" ? Number(typed) : null;
}

/// The start position's field shows only for Chess960.
function showPositionField() {
  $("position-field").hidden = $("game").value !== "chess960";
}

/// The same game again with the colours swapped.
function rematch() {
  if (!lastNew || !play.state || lastNew.type !== "new") return;
  // A Chess960 game drawn at random is played again from the same start.
  const position = play.state.chess960 ?? lastNew.position;
  sendNew({ ...lastNew, position, side: play.state.human === "white" ? "black" : "white" });
}

function openSetup() {
  $("setup-error").textContent = "";
  showPositionField();
  if (!$("setup-dialog").open) $("setup-dialog").showModal();
}

$("setup").addEventListener("submit", newGame);
$("game").addEventListener("change", showPositionField);
$("setup-cancel").addEventListener("click", () => $("setup-dialog").close());
$("open-setup").addEventListener("click", openSetup);
$("result-new").addEventListener("click", openSetup);
$("rematch").addEventListener("click", rematch);
$("analyse").addEventListener("click", analyseBoard);
$("analyse-setup").addEventListener("click", analyseSetup);
$("flip").addEventListener("click", () => { board.turn(); tick(); });
$("sound").addEventListener("change", () => { sounds.enabled = $("sound").checked; saveSettings(); });
$("skill").addEventListener("input", () => { $("skill-value").textContent = $("skill").value; });
$("takeback").addEventListener("click", () => play.send({ type: "takeback" }));
$("resign").addEventListener("click", () => {
  if ($("resign").dataset.asking === "true") {
    setResign(false);
    play.send({ type: "resign" });
  } else {
    setResign(true);
  }
});
$("resign").addEventListener("blur", () => setResign(false));
$("download-pgn").addEventListener("click", () => play.send({ type: "pgn" }));
$("offer-draw").addEventListener("click", () => {
  $("draw-answer").textContent = "";
  play.send({ type: "offer_draw" });
});
$("copy-fen").addEventListener("click", async () => {
  $("fen").select();
  try {
    await navigator.clipboard.writeText($("fen").value);
  } catch (error) {
    document.execCommand?.("copy");
  }
});
// Nothing starts by itself: the page opens on the new-game dialog with the last choices.
restoreSettings();
socket.ready.then(() => { play.connected = true; });
openSetup();
