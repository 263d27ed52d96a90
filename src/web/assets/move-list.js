// The numbered move list of the play and replay pages, and the keys that step through a game.
// Moves are numbered as on a score sheet, from the start FEN's move number and side to move:
// `1. e4 e5 2. Nf3`, and `1… e5` when Black moves first. A click on a move asks to see the
// position after it.

import { el } from "/common.js";

/// The list's items for `moves` (each `{ply, label, title, classes}`, ply 1 the first move)
/// after `startFen`; `current` is the ply shown (marked), `onSelect(ply)` is called on a click.
/// Each item is a number cell (`.number`) when White moves, then the move (`li[data-ply]`).
export function moveItems(startFen, moves, current, onSelect) {
  const fields = (startFen || "").split(" ");
  const blackFirst = fields[1] === "b";
  const firstNumber = Number(fields[5]) || 1;
  const items = [];
  for (const move of moves) {
    const whiteMoves = (move.ply % 2 === 1) !== blackFirst;
    const number = firstNumber + Math.floor((move.ply - 1 + (blackFirst ? 1 : 0)) / 2);
    if (whiteMoves) {
      items.push(el("li", { class: "number", "aria-hidden": "true" }, `${number}.`));
    } else if (move.ply === 1) {
      items.push(el("li", { class: "number", "aria-hidden": "true" }, `${number}.`));
      items.push(el("li", { class: "empty", "aria-hidden": "true" }, "\u2026"));
    }
    const classes = [move.classes, move.ply === current ? "current" : null].filter(Boolean);
    items.push(el("li", {
      "data-ply": move.ply, "data-move": move.title, title: move.title, class: classes.join(" "),
      onclick: () => onSelect(move.ply),
    }, move.label));
  }
  return items;
}

/// Marks the item of ply `current` in a list made by `moveItems` and scrolls it into view.
export function markCurrent(list, current) {
  for (const item of list.querySelectorAll("li[data-ply]")) {
    const here = Number(item.dataset.ply) === current;
    item.classList.toggle("current", here);
    if (here) item.scrollIntoView({ block: "nearest" });
  }
}

/// Arrow keys step through a game: ← back one ply, → forward one, ↑ or Home to the start, ↓ or
/// End to the last. `step(where)` gets "back", "forward", "first" or "last". Keys meant for a
/// field that uses them (text, a number, a list, a slider) are left alone; a checkbox or a
/// button that has the focus does not keep the arrows from stepping.
export function stepByKeys(step) {
  const keys = {
    ArrowLeft: "back", ArrowRight: "forward", ArrowUp: "first", Home: "first",
    ArrowDown: "last", End: "last",
  };
  document.addEventListener("keydown", (event) => {
    const where = keys[event.key];
    const target = event.target;
    const clickable = target && target.tagName === "INPUT" && /^(checkbox|radio|button|submit|reset)$/.test(target.type);
    const typing = target && !clickable &&
      (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
    if (!where || typing || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    step(where);
  });
}
