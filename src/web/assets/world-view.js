// The world page's view: board coordinates to canvas pixels and back, panning and zooming.
// `state.view` is the board point in the middle of the canvas and the pixels a square.

import { markDirty, state } from "/world-state.js";

export const canvas = document.getElementById("board");

const MIN_SCALE = 0.05;
const MAX_SCALE = 80;

export function size() {
  return { w: canvas.clientWidth, h: canvas.clientHeight };
}

/// The pixel (in the canvas) of a board point; y grows northwards, the screen's downwards.
export function toScreen(x, y) {
  const { w, h } = size();
  const v = state.view;
  return { px: w / 2 + (x - v.cx) * v.scale, py: h / 2 - (y - v.cy) * v.scale };
}

export function toBoard(px, py) {
  const { w, h } = size();
  const v = state.view;
  return { x: v.cx + (px - w / 2) / v.scale, y: v.cy - (py - h / 2) / v.scale };
}

export function squareAt(px, py) {
  const p = toBoard(px, py);
  const x = Math.floor(p.x);
  const y = Math.floor(p.y);
  if (x < 0 || y < 0 || x >= state.width || y >= state.height) return null;
  return { x, y };
}

export function fitAll() {
  const { w, h } = size();
  state.view.cx = state.width / 2;
  state.view.cy = state.height / 2;
  state.view.scale = clampScale(Math.min(w / state.width, h / state.height) * 0.95);
  markDirty();
}

export function clampScale(scale) {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/// Zooms by `factor` keeping the board point under pixel (px, py) where it is.
export function zoomAt(factor, px, py) {
  const before = toBoard(px, py);
  state.view.scale = clampScale(state.view.scale * factor);
  const after = toBoard(px, py);
  state.view.cx += before.x - after.x;
  state.view.cy += before.y - after.y;
  markDirty();
}

export function zoomCentre(factor) {
  const { w, h } = size();
  zoomAt(factor, w / 2, h / 2);
}

export function panBy(dx, dy) {
  state.view.cx -= dx / state.view.scale;
  state.view.cy += dy / state.view.scale;
  markDirty();
}

/// Centres the view on this player's king (or any of its pieces); false when none is known yet.
export function centreOnMine() {
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
  markDirty();
  return true;
}
