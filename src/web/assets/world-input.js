// The world page's input: drag to pan, wheel and keys to zoom, hover and click to play, and the
// page's buttons.

import { askTargets, done, forget, join, sendMove } from "/world-net.js";
import { $, key, markDirty, movable, state } from "/world-state.js";
import { canvas, centreOnMine, fitAll, panBy, squareAt, zoomAt, zoomCentre } from "/world-view.js";

let drag = null;

function pointerSquare(event) {
  const rect = canvas.getBoundingClientRect();
  return squareAt(event.clientX - rect.left, event.clientY - rect.top);
}

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
      markDirty();
    }
  }
}

function pieceName(piece) {
  const owner = piece.owner === 0 ? "bonus (neutral)" : `of player ${piece.owner} (${state.teams.get(piece.owner) || "?"})`;
  const life = piece.life !== null ? `, fading: ${piece.life} turns left` : "";
  return `${piece.kind} ${owner}${life}`;
}

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
  markDirty();
}

/// Listens to the canvas, the window (a drag may leave the canvas) and the buttons.
export function listen() {
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

  window.addEventListener("mouseup", (event) => {
    const was = drag;
    drag = null;
    canvas.classList.remove("dragging");
    if (!was || was.moved || event.target !== canvas) return;
    clickSquare(pointerSquare(event));
  });

  canvas.addEventListener("wheel", (event) => {
    event.preventDefault();
    const rect = canvas.getBoundingClientRect();
    zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - rect.left, event.clientY - rect.top);
  }, { passive: false });

  canvas.addEventListener("mouseleave", () => hoverSquare(null));

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
  $("done").addEventListener("click", done);
  $("forget").addEventListener("click", forget);
}
