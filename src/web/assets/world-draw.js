// The world page's drawing: one frame of the board, the kingdoms, the pieces in view and the
// marks of play, on the canvas. Only the view's pieces are drawn, so that 10,000 stay smooth.

import { markDirty, state } from "/world-state.js";
import { canvas, size, toBoard, toScreen } from "/world-view.js";

const ctx = canvas.getContext("2d", { alpha: false });

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

/// The canvas keeps as many pixels as the screen shows (its CSS size times the pixel ratio).
export function resize() {
  const ratio = window.devicePixelRatio || 1;
  const { w, h } = size();
  canvas.width = Math.max(1, Math.round(w * ratio));
  canvas.height = Math.max(1, Math.round(h * ratio));
  markDirty();
}

/// One frame: the board, kingdoms, pieces (only those in view), then marks. Returns the pieces
/// drawn.
export function draw() {
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
      // Far out: a dot a piece, at least 3 pixels wide (centred on its square) so that armies
      // read as shapes, not specks; faded pieces paler; kings larger, with an edge.
      const dot = Math.max(3, s);
      const shift = (s - dot) / 2;
      for (const faded of [false, true]) {
        ctx.globalAlpha = faded ? 0.45 : 1;
        for (const p of list) {
          if ((p.life !== null) === faded && p.kind !== "K") ctx.fillRect(px(p.x) + shift, py(p.y) + shift, dot, dot);
        }
      }
      ctx.globalAlpha = 1;
      const king = Math.max(6, s * 1.6);
      const kingShift = (s - king) / 2;
      ctx.lineWidth = 1;
      for (const p of list) {
        if (p.kind !== "K") continue;
        ctx.fillRect(px(p.x) + kingShift, py(p.y) + kingShift, king, king);
        ctx.strokeRect(px(p.x) + kingShift, py(p.y) + kingShift, king, king);
      }
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

  // Far out, my army is found by a ring in my colour around each of my kings.
  if (state.me && s < 6) {
    ctx.strokeStyle = COLOURS.mine;
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (const p of groups[state.me.team] || []) {
      if (p.owner !== state.me.player || p.kind !== "K") continue;
      const r = Math.max(10, s * 4);
      ctx.moveTo(px(p.x) + s / 2 + r, py(p.y) + s / 2);
      ctx.arc(px(p.x) + s / 2, py(p.y) + s / 2, r, 0, Math.PI * 2);
    }
    ctx.stroke();
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
