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

/// How far (in squares beyond one's own pieces) the army view looks for the nearest other piece.
const NEAR_SQUARES = 24;
/// The army view's zoom: close enough to tell pieces apart, far enough to see around them.
const ARMY_SCALE = { min: 16, max: 40 };

/// The nearest piece of someone else (an enemy, or a bonus piece) to this player's pieces:
/// `{ piece, distance }` in squares (the king's move count), or null.
export function nearestOther() {
  if (!state.me) return null;
  const mine = [];
  for (const piece of state.pieces.values()) if (piece.owner === state.me.player) mine.push(piece);
  if (mine.length === 0) return null;
  let best = null;
  for (const piece of state.pieces.values()) {
    if (piece.owner === state.me.player) continue;
    for (const own of mine) {
      const distance = Math.max(Math.abs(piece.x - own.x), Math.abs(piece.y - own.y));
      if (!best || distance < best.distance) best = { piece, distance, from: own };
    }
  }
  return best;
}

/// Shows this player's army and what is near it: all its pieces and the nearest other piece
/// within [`NEAR_SQUARES`], zoomed to fit them (between 16 and 40 pixels a square); false when no
/// piece of its is known yet.
export function centreOnMine() {
  if (!state.me) return false;
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const take = (p) => {
    box.minX = Math.min(box.minX, p.x);
    box.minY = Math.min(box.minY, p.y);
    box.maxX = Math.max(box.maxX, p.x);
    box.maxY = Math.max(box.maxY, p.y);
  };
  for (const piece of state.pieces.values()) if (piece.owner === state.me.player) take(piece);
  if (box.minX === Infinity) return false;
  const near = nearestOther();
  if (near && near.distance <= NEAR_SQUARES) take(near.piece);
  const { w, h } = size();
  const margin = 2;
  const fit = Math.min(w / (box.maxX - box.minX + 1 + 2 * margin), h / (box.maxY - box.minY + 1 + 2 * margin));
  state.view.scale = clampScale(Math.min(ARMY_SCALE.max, Math.max(ARMY_SCALE.min, fit)));
  // The box in the middle, unless that would fill more than a quarter of the view with the
  // outside of a board bigger than the view.
  const half = { x: w / 4 / state.view.scale, y: h / 4 / state.view.scale };
  const within = (at, quarter, side) => (side > 4 * quarter ? Math.min(Math.max(at, quarter), side - quarter) : at);
  state.view.cx = within((box.minX + box.maxX + 1) / 2, half.x, state.width);
  state.view.cy = within((box.minY + box.maxY + 1) / 2, half.y, state.height);
  markDirty();
  return true;
}
