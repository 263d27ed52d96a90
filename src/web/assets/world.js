// The Megachess world page: a spectator connection draws the whole world on a canvas, and a
// second connection plays one player in it. Both talk to the world server's own WebSocket API
// (docs/world-server.md); the legal squares come from the server (`targets`), never from here.
//
// This module is the entry: it runs the frames, keeps the measurement hook and `window.rogerWorld`
// for tests, and starts the others: world-state.js (what the page knows of the world),
// world-view.js (board to pixels, pan, zoom), world-draw.js (the canvas), world-net.js (the two
// connections, and playing), world-panels.js (the side panels) and world-input.js (pointer, keys
// and buttons).

import { draw, resize } from "/world-draw.js";
import { listen } from "/world-input.js";
import { start } from "/world-net.js";
import { showNearest, startClock } from "/world-panels.js";
import { markDirty, state, takeDirty } from "/world-state.js";
import { canvas, centreOnMine, clampScale, fitAll, panBy, size, toScreen, zoomAt } from "/world-view.js";

// ---- frames, and the measurement hook -------------------------------------------------------------

const frames = { drawMs: [], intervals: [], last: 0, lastDrawn: 0 };

function frame(now) {
  if (frames.last) frames.intervals.push(now - frames.last);
  frames.last = now;
  if (measuring) measuring.step(now);
  if (takeDirty()) {
    const begin = performance.now();
    frames.lastDrawn = draw();
    frames.drawMs.push(performance.now() - begin);
    if (frames.drawMs.length > 600) frames.drawMs.splice(0, 300);
  }
  if (frames.intervals.length > 600) frames.intervals.splice(0, 300);
  requestAnimationFrame(frame);
}

let measuring = null;

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] || 0;
  return { count: sorted.length, mean, p95: at(0.95), max: sorted[sorted.length - 1] || 0 };
}

/// Pans and zooms for `count` frames, drawing every one, and records each frame's interval
/// (requestAnimationFrame to requestAnimationFrame) and its drawing time. The result lands in
/// `rogerWorld.frameStats`.
function measureFrames(count = 120) {
  const intervals = [];
  const drawMs = [];
  const drawn = [];
  let last = 0;
  let index = 0;
  rogerWorld.frameStats = null;
  measuring = {
    step(now) {
      if (last) intervals.push(now - last);
      last = now;
      // `count` frames are moved and drawn; the one after them closes the last interval.
      if (index === count) {
        measuring = null;
        rogerWorld.frameStats = {
          frames: summary(intervals), draw: summary(drawMs), drawn: summary(drawn), drawnLast: frames.lastDrawn,
        };
        return;
      }
      // Half the frames pan in a circle, half zoom in and out around the middle.
      const { w, h } = size();
      // (The pan goes round one whole circle: the view ends where it began.)
      const angle = (2 * Math.PI * index) / Math.max(1, Math.floor(count / 2));
      if (index < count / 2) panBy(Math.cos(angle) * 25, Math.sin(angle) * 25);
      else zoomAt(index % 20 < 10 ? 1.08 : 1 / 1.08, w / 2, h / 2);
      const begin = performance.now();
      frames.lastDrawn = draw();
      drawMs.push(performance.now() - begin);
      drawn.push(frames.lastDrawn);
      takeDirty(); // drawn just now
      index++;
    },
  };
}

// ---- what tests and curious people may read ---------------------------------------------------------

const rogerWorld = {
  state,
  get pieces() { return state.pieces.size; },
  get turn() { return state.turn; },
  get team() { return state.team; },
  get me() { return state.me; },
  get myTurn() { return state.myTurn; },
  get acks() { return state.acks; },
  get targets() { return state.targets; },
  get movedThisTurn() { return [...state.movedThisTurn]; },
  get view() { return { ...state.view }; },
  /// The middle of square (x, y) in page (viewport) pixels, for a pointer to go to.
  screenOf(x, y) {
    const rect = canvas.getBoundingClientRect();
    const p = toScreen(x + 0.5, y + 0.5);
    return { x: Math.round(rect.left + p.px), y: Math.round(rect.top + p.py) };
  },
  centreOn(x, y, scale) {
    state.view.cx = x + 0.5;
    state.view.cy = y + 0.5;
    if (scale) state.view.scale = clampScale(scale);
    markDirty();
  },
  fitAll,
  /// The army view and its "nearest" line, as the "mine" button and every region read show them.
  centreOnMine,
  showNearest,
  measureFrames,
  frameStats: null,
  /// Frame intervals and drawing times of the page's own frames so far.
  recentFrames() {
    return { frames: summary(frames.intervals), draw: summary(frames.drawMs), drawnLast: frames.lastDrawn };
  },
};
window.rogerWorld = rogerWorld;

startClock();
listen();
new ResizeObserver(resize).observe(canvas);
resize();
requestAnimationFrame(frame);
start();
