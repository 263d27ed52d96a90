// What the world page knows of the world, and how the server's reports change it. Every other
// module of the page reads and writes this one `state`.

export const $ = (id) => document.getElementById(id);

export const state = {
  server: null,
  params: null,
  width: 0,
  height: 0,
  turn: 0,
  team: null,           // the team to move
  deadlineAt: 0,        // performance.now() when the turn ends
  pieces: new Map(),    // id -> {id, owner, kind, x, y, moved, life}
  squares: new Map(),   // y * width + x -> piece
  teams: new Map(),     // player id -> "alabaster" | "metal"
  truncated: false,
  scoreboard: [],
  // The player this page plays, once joined.
  me: null,             // {player, team, name}
  myTurn: false,
  movedThisTurn: new Set(), // piece ids
  acks: [],             // the server's answers to our moves: {turn, move, ok, reason?}
  targets: null,        // {x, y, squares: [[x, y], ...]} from the server
  targetsAsked: null,   // "x,y" last asked
  selected: null,       // {x, y}
  hover: null,          // {x, y}
  view: { cx: 0, cy: 0, scale: 8 },
  centreOnMine: false,
};

// Whatever changes what the canvas shows says so; the next frame draws once.
let dirty = true;

export function markDirty() {
  dirty = true;
}

/// Whether a frame should draw; it is then clean until the next change.
export function takeDirty() {
  const was = dirty;
  dirty = false;
  return was;
}

export function key(x, y) {
  return y * state.width + x;
}

export function mine(piece) {
  return piece && state.me && piece.owner === state.me.player ? piece : null;
}

/// Whether the piece on a square is one this page may move now.
export function movable(x, y) {
  const piece = mine(state.squares.get(key(x, y)));
  return !!piece && state.myTurn && !state.movedThisTurn.has(piece.id);
}

/// `7B121,41.mo/2`: flags after the dot, turns of life left after the slash.
function parseToken(token) {
  const slash = token.indexOf("/");
  const life = slash >= 0 ? Number(token.slice(slash + 1)) : null;
  const body = slash >= 0 ? token.slice(0, slash) : token;
  const dot = body.indexOf(".");
  const flags = dot >= 0 ? body.slice(dot + 1) : "";
  return { moved: flags.includes("m"), life };
}

/// The world as one region read reports it, in place of what was known.
export function loadRegion(report) {
  state.pieces.clear();
  state.squares.clear();
  for (const owner of report.players) state.teams.set(owner.id, owner.team);
  for (const p of report.pieces) {
    const { moved, life } = parseToken(p.token);
    const piece = { id: p.id, owner: p.owner, kind: p.kind, x: p.x, y: p.y, moved, life };
    state.pieces.set(p.id, piece);
    state.squares.set(key(p.x, p.y), piece);
  }
  state.truncated = report.truncated;
  $("pieces").textContent = `${state.pieces.size}${report.truncated ? "+" : ""}`;
  dirty = true;
}

export function parseMove(text) {
  const match = /^(\d+),(\d+)-(\d+),(\d+)$/.exec(text);
  return match && { from: [Number(match[1]), Number(match[2])], to: [Number(match[3]), Number(match[4])] };
}

/// A move as the server reported it: the piece goes, what it took goes, a taken king's army and
/// collected pieces become the mover's. False when it changed nothing here.
export function applyMove(mover, text, effects) {
  const mv = parseMove(text);
  if (!mv) return false;
  const piece = state.squares.get(key(...mv.from));
  if (!piece) return false; // not read yet: the next region read brings it
  const taken = state.squares.get(key(...mv.to));
  if (taken && taken !== piece) state.pieces.delete(taken.id);
  state.squares.delete(key(...mv.from));
  piece.x = mv.to[0];
  piece.y = mv.to[1];
  piece.moved = true;
  piece.life = null;
  state.squares.set(key(piece.x, piece.y), piece);
  if (effects && effects.king_captured) {
    for (const other of state.pieces.values()) if (other.owner === effects.king_captured) other.owner = mover;
  }
  for (const collected of (effects && effects.collected) || []) {
    const found = state.pieces.get(collected.id);
    if (found) found.owner = mover;
  }
  $("pieces").textContent = String(state.pieces.size);
  dirty = true;
  return true;
}

export function startTurn(message) {
  if (message.turn !== state.turn) {
    state.movedThisTurn.clear();
    state.selected = null;
    state.targets = null;
  }
  state.turn = message.turn;
  state.team = message.team;
  state.deadlineAt = performance.now() + message.deadline_ms;
  $("turn").textContent = String(message.turn);
  $("to-move").textContent = message.team;
  dirty = true;
}
