// Moves typed on the keyboard: the protocol's own text (`e2e4`, `e7e8q`, with or without a dash),
// standard notation where the game has it (chess: `Nf3`, `exd5`, `O-O`, `e8=Q`; checks and
// annotations may be left off or added), or only the square a move goes to when just one legal
// move goes there. Everything is matched against the legal moves the server sent, so no rule is
// known here.

import { splitMove } from "/board.js";

/// Standard notation without what may be left off: check and annotation marks, the `=` of a
/// promotion, castling with zeros.
function bareSan(text) {
  return text.replace(/[+#!?]+$/, "").replace("=", "").replace(/^0-0-0$/, "O-O-O")
    .replace(/^0-0$/, "O-O").replace(/^o-o-o$/i, "O-O-O").replace(/^o-o$/i, "O-O");
}

/// The legal move `typed` names: `{ move }`, or `{ error }` saying why none.
/// `legal` are the moves in the protocol's notation, `legalSan` the same in standard notation
/// (empty for games without one).
export function matchTypedMove(typed, legal, legalSan = []) {
  const text = typed.trim();
  if (!text) return { error: "type a move, such as e2e4" };
  if (legal.length === 0) return { error: "it is not your move" };
  const coordinates = text.toLowerCase().replace(/[\s=-]/g, "").replace(/x/g, "");
  if (legal.includes(coordinates)) return { move: coordinates };
  const wanted = bareSan(text);
  const bySan = legal.filter((_, i) => legalSan[i] !== undefined && bareSan(legalSan[i]) === wanted);
  if (bySan.length === 1) return { move: bySan[0] };
  if (/^[a-z][0-9]+$/.test(coordinates)) {
    const going = legal.filter((m) => splitMove(m)?.to === coordinates);
    if (going.length === 1) return { move: going[0] };
    if (going.length > 1) return { error: `${text}: more than one move goes there (${going.join(", ")})` };
  }
  return { error: `${text} is not a legal move here` };
}
