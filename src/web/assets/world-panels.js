// The world page's side panels: the connection line, the scoreboard, the turn's clock and the
// log of this player's moves.

import { el, formatClock } from "/common.js";
import { $, state } from "/world-state.js";
import { nearestOther } from "/world-view.js";

export function status(text, error = false) {
  const line = $("connection");
  line.textContent = text;
  line.className = error ? "error" : "muted";
}

const KIND_NAMES = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" };

/// The rules' rejection names in a player's words.
const REASONS = {
  "not-your-turn": "it is the other team's turn",
  "already-moved": "that piece has already moved this turn",
  "path-blocked": "a piece is in the way",
  "destination-taken": "one of your team's pieces (or a neutral one) is there",
  "not-a-move": "that piece does not move so",
  "no-piece": "no piece stands there",
  "not-your-piece": "that piece is not yours",
  "off-board": "that square is off the board",
  "player-left": "you have left the world",
  "unknown-player": "the world does not know you",
};

/// A move of the log as a player reads it: `knight 12,3 → 13,5`, with the piece's name when
/// it is known (`kind`), and a rejection's reason in words.
export function moveText(text, kind, reason) {
  const squares = /^(\d+,\d+)-(\d+,\d+)$/.exec(text);
  const move = squares ? `${KIND_NAMES[kind] ? KIND_NAMES[kind] + " " : ""}${squares[1]} \u2192 ${squares[2]}` : text;
  if (reason === undefined) return move;
  return `${move} refused: ${REASONS[reason] || reason}`;
}

export function logLine(text, bad = false) {
  const log = $("log");
  log.prepend(el("li", { class: bad ? "rejected" : "" }, text));
  while (log.children.length > 50) log.lastChild.remove();
}

export function showScoreboard() {
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

/// The time left in the turn, ten times a second (the server's deadline, counted down here).
export function startClock() {
  setInterval(() => {
    if (!state.deadlineAt) return;
    const left = Math.max(0, state.deadlineAt - performance.now());
    const timer = $("timer");
    timer.textContent = formatClock(left);
    timer.className = left < 5000 ? "short" : "";
  }, 100);
}

/// "What is near" for the army view: the nearest piece of another player or a bonus piece, its
/// kind, how many squares away and which way (north is up the board).
export function showNearest() {
  const near = nearestOther();
  const shown = $("nearest");
  if (!near) {
    shown.textContent = "\u2013";
    return;
  }
  const { piece, distance, from } = near;
  const whose = piece.owner === 0 ? "bonus" : state.teams.get(piece.owner) === state.me.team ? "team-mate's" : "enemy";
  const dy = piece.y - from.y;
  const dx = piece.x - from.x;
  const way = `${dy > 0 ? "north" : dy < 0 ? "south" : ""}${dy !== 0 && dx !== 0 ? "-" : ""}${dx > 0 ? "east" : dx < 0 ? "west" : ""}`;
  shown.textContent = `${whose} ${KIND_NAMES[piece.kind] || piece.kind}, ${distance} square${distance === 1 ? "" : "s"} ${way}`;
  shown.dataset.distance = distance;
}
