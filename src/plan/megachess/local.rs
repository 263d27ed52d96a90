//! The planner's own picture of the world: only the pieces in a window around its army, on a
//! grid over that window (dense when it is small, a hash map otherwise), so that planning costs
//! depend on the pieces near the army, never on the board's size. Moves are made and unmade in
//! place (with captures, king capture and army hand-over, bonus collection) so a search can try
//! a move, judge the result and take it back.

use super::grid::{Grid, Walk};
use crate::rules::megachess::{
    Coord, Kind, MegachessParams, Move, PieceId, PlayerId, Rect, Team, World, NEUTRAL,
};

/// Whose a piece is, from the planner's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Mine,
    /// Another player of my team: blocks, is never captured.
    Ally,
    /// A player of the other team who is still playing: it moves in the next turn.
    Enemy,
    /// A player of the other team who left: capturable, but it never moves.
    Idle,
    Neutral,
}

impl Side {
    /// Pieces of mine may capture it.
    pub fn capturable(self) -> bool {
        matches!(self, Side::Enemy | Side::Idle)
    }
}

/// One piece of the window.
#[derive(Clone, Copy, Debug)]
pub struct LocalPiece {
    pub id: PieceId,
    pub owner: PlayerId,
    pub side: Side,
    pub kind: Kind,
    pub at: Coord,
    pub moved: bool,
    pub used_orthogonal_step: bool,
    pub life: Option<u32>,
    /// Moved in the turn being planned (so it may not move again).
    pub moved_now: bool,
    pub alive: bool,
}

/// The eight king steps (the first four orthogonal, the last four diagonal) and the knight's
/// jumps: the rules' own tables.
pub use crate::rules::megachess::{KING_STEPS as DIRECTIONS, KNIGHT_STEPS};

/// How far a kind slides along a direction (index into [`DIRECTIONS`]) when it captures or
/// moves; 0 when it cannot. Pawns: the capture steps only.
pub fn reach(kind: Kind, direction: usize) -> u32 {
    let diagonal = direction >= 4;
    match kind {
        Kind::King => 1,
        Kind::Queen => 7,
        Kind::Rook if !diagonal => 6,
        Kind::Bishop if diagonal => 6,
        Kind::Pawn if diagonal => 1,
        _ => 0,
    }
}

/// The square `(dx, dy)` from `at`, which the caller knows is inside the window.
#[inline(always)]
fn shift(at: Coord, dx: i32, dy: i32) -> Coord {
    Coord::new(at.x.wrapping_add_signed(dx), at.y.wrapping_add_signed(dy))
}

/// What [`Local::make`] changed, for [`Local::unmake`].
#[derive(Debug)]
pub struct Undo {
    mover: usize,
    before: LocalPiece,
    captured: Option<usize>,
    /// The pieces whose owner changed (hand-over, collection), as they were.
    changed: Vec<(usize, LocalPiece)>,
    /// The bonus pieces collected (also in `changed`).
    collected: Vec<usize>,
    /// The player who left when its king was captured.
    king_of: Option<PlayerId>,
    mine_len: usize,
    enemy_material: i32,
}

impl Undo {
    pub fn captured(&self) -> Option<usize> {
        self.captured
    }
    /// A king was captured: its army changed hands.
    pub fn handed_over(&self) -> bool {
        self.king_of.is_some()
    }
    /// The piece that moved.
    pub fn mover(&self) -> usize {
        self.mover
    }
    /// The square it left.
    pub fn from(&self) -> Coord {
        self.before.at
    }
    /// The bonus pieces the move collected (when no army changed hands).
    pub fn collected(&self) -> &[usize] {
        &self.collected
    }
}

/// The worth of capturing an enemy king: its score and, above all, it ends the player.
pub const KING_CAPTURE: i32 = 20_000;

/// The window's pieces on a grid, and the players in it.
#[derive(Clone)]
pub struct Local {
    pub params: MegachessParams,
    pub me: PlayerId,
    pub team: Team,
    /// The squares the planner knows; moves end inside it.
    pub rect: Rect,
    pub pieces: Vec<LocalPiece>,
    grid: Grid,
    /// Each player's team, presence and king (an index into `pieces`), by id.
    players: Vec<(PlayerId, Team, bool, Option<usize>)>,
    /// Players whose king was captured in this plan.
    gone: Vec<PlayerId>,
    /// My king heads for the approach target too (nobody in sight: the army explores).
    pub king_approaches: bool,
    /// My pieces (indices), alive all turn long: mine are never captured in my turn.
    pub mine: Vec<usize>,
    /// The worth of the capturable pieces in the window (kings at [`KING_CAPTURE`]).
    pub enemy_material: i32,
}

impl Local {
    /// The pieces within `margin` of `me`'s army. `None` when `me` has no pieces or is unknown.
    pub fn from_world(world: &World, me: PlayerId, margin: u32) -> Option<Local> {
        let team = world.player(me)?.team;
        let rect = world.army_rect(me, margin)?;
        let mut local = Local {
            params: *world.params(),
            me,
            team,
            rect,
            pieces: Vec::new(),
            grid: Grid::new(rect),
            players: Vec::new(),
            gone: Vec::new(),
            king_approaches: false,
            mine: Vec::new(),
            enemy_material: 0,
        };
        for player in world.players() {
            local
                .players
                .push((player.id, player.team, player.present, None));
        }
        let inside = |at: Coord| {
            at.x >= rect.min.x && at.x <= rect.max.x && at.y >= rect.min.y && at.y <= rect.max.y
        };
        for piece in world.pieces().filter(|p| inside(p.at)) {
            let side = local.side_of(piece.owner);
            let index = local.pieces.len();
            local.pieces.push(LocalPiece {
                id: piece.id,
                owner: piece.owner,
                side,
                kind: piece.kind,
                at: piece.at,
                moved: piece.moved,
                used_orthogonal_step: piece.used_orthogonal_step,
                life: piece.life,
                moved_now: world.moved_this_turn(piece.id),
                alive: true,
            });
            local.grid.set(piece.at, Some(index as u32));
            if side == Side::Mine {
                local.mine.push(index);
            } else if side.capturable() {
                local.enemy_material += local.worth(piece.kind);
            }
            if piece.kind == Kind::King {
                if let Some(entry) = local.players.iter_mut().find(|e| e.0 == piece.owner) {
                    entry.3 = Some(index);
                }
            }
        }
        Some(local)
    }

    fn side_of(&self, owner: PlayerId) -> Side {
        if owner == NEUTRAL {
            return Side::Neutral;
        }
        if owner == self.me {
            return Side::Mine;
        }
        match self.players.iter().find(|e| e.0 == owner) {
            Some(&(_, team, _, _)) if team == self.team => Side::Ally,
            Some(&(_, _, true, _)) => Side::Enemy,
            _ => Side::Idle,
        }
    }

    pub fn width(&self) -> u32 {
        self.params.width
    }

    /// The piece on a square of the window, if any.
    pub fn at(&self, square: Coord) -> Option<usize> {
        self.grid.get(square).map(|i| i as usize)
    }

    /// The square `(dx, dy)` from `from` (at most two away on each axis): `None` outside the
    /// window, else its piece if any. Cheaper than [`Local::step`] then [`Local::at`].
    #[inline(always)]
    pub fn neighbour(&self, from: Coord, dx: i32, dy: i32) -> Option<Option<usize>> {
        self.grid
            .neighbour(from, dx, dy)
            .map(|piece| piece.map(|i| i as usize))
    }

    /// Shows `visit` the pieces (distance, index) along the king step `step` from `from`, out
    /// to `steps` squares or the window's edge, until it says [`Walk::Stop`].
    #[inline(always)]
    pub fn walk(
        &self,
        from: Coord,
        step: (i32, i32),
        steps: u32,
        mut visit: impl FnMut(u32, usize) -> Walk,
    ) {
        self.grid.walk(from, step, steps, |distance, piece| {
            visit(distance, piece as usize)
        });
    }

    /// The square `(dx, dy)` from `from` if it is inside the window (and so on the board).
    pub fn step(&self, from: Coord, dx: i32, dy: i32) -> Option<Coord> {
        let x = from.x as i64 + dx as i64;
        let y = from.y as i64 + dy as i64;
        let r = self.rect;
        (x >= r.min.x as i64 && y >= r.min.y as i64 && x <= r.max.x as i64 && y <= r.max.y as i64)
            .then(|| Coord::new(x as u32, y as u32))
    }

    /// The value of a piece in hundredths of a pawn rank.
    pub fn value(&self, kind: Kind) -> i32 {
        (self.params.rank(kind) * 100) as i32
    }

    /// What capturing a piece of this kind is worth (a king: [`KING_CAPTURE`]).
    pub fn worth(&self, kind: Kind) -> i32 {
        match kind {
            Kind::King => KING_CAPTURE,
            kind => self.value(kind),
        }
    }

    /// The index of `owner`'s king if it is in the window and alive.
    pub fn king_of(&self, owner: PlayerId) -> Option<usize> {
        let entry = self.players.iter().find(|e| e.0 == owner)?;
        entry
            .3
            .filter(|&k| self.pieces[k].alive && self.pieces[k].owner == owner)
    }

    /// The alive enemy kings in the window (kings of players of the other team).
    pub fn enemy_kings(&self) -> impl Iterator<Item = usize> + '_ {
        self.players
            .iter()
            .filter(move |e| e.1 != self.team && !self.gone.contains(&e.0))
            .filter_map(move |e| self.king_of(e.0))
    }

    /// Whether `square` is inside my kingdom (true when my king is not in view: the rules
    /// page's decision for pieces whose king the window does not show).
    pub fn in_my_kingdom(&self, square: Coord) -> bool {
        match self.king_of(self.me) {
            Some(king) => {
                let radius = self.params.kingdom_radius as u64;
                self.pieces[king].at.distance_squared(square) <= radius * radius
            }
            None => true,
        }
    }

    /// Appends the squares a piece of mine may move to now: vacant squares and capturable
    /// pieces inside the window, by its movement rules.
    pub fn targets(&self, index: usize, out: &mut Vec<Coord>) {
        let piece = &self.pieces[index];
        let from = piece.at;
        match piece.kind {
            Kind::Knight => {
                for (dx, dy) in KNIGHT_STEPS {
                    match self.neighbour(from, dx, dy) {
                        Some(None) => out.push(shift(from, dx, dy)),
                        Some(Some(other)) if self.pieces[other].side.capturable() => {
                            out.push(shift(from, dx, dy))
                        }
                        _ => {}
                    }
                }
            }
            Kind::Pawn => {
                for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                    match self.neighbour(from, dx, dy) {
                        Some(None) => {
                            let to = shift(from, dx, dy);
                            out.push(to);
                            if direction < 4
                                && !piece.moved
                                && self.neighbour(to, dx, dy) == Some(None)
                            {
                                out.push(shift(to, dx, dy));
                            }
                        }
                        Some(Some(other))
                            if direction >= 4 && self.pieces[other].side.capturable() =>
                        {
                            out.push(shift(from, dx, dy))
                        }
                        _ => {}
                    }
                }
            }
            kind => {
                for (direction, &step) in DIRECTIONS.iter().enumerate() {
                    let range = reach(kind, direction);
                    // Every square up to the first piece (and the piece, if it may be taken)
                    // or the window's edge.
                    let mut last = 0;
                    let mut capture = None;
                    self.grid.walk(from, step, range, |distance, other| {
                        last = distance;
                        capture = self.pieces[other as usize].side.capturable().then_some(());
                        Walk::Stop
                    });
                    let open = if last == 0 {
                        self.open_steps(from, step, range)
                    } else {
                        last - 1
                    };
                    let mut square = from;
                    for _ in 0..open {
                        square = shift(square, step.0, step.1);
                        out.push(square);
                    }
                    if capture.is_some() {
                        out.push(shift(square, step.0, step.1));
                    }
                    if kind == Kind::Bishop && direction < 4 && !piece.used_orthogonal_step {
                        let (dx, dy) = step;
                        if self.neighbour(from, dx, dy) == Some(None) {
                            out.push(shift(from, dx, dy));
                        }
                    }
                }
            }
        }
    }

    /// How many squares from `from` along `step`, up to `range`, lie inside the window (the
    /// line being empty).
    fn open_steps(&self, from: Coord, (dx, dy): (i32, i32), range: u32) -> u32 {
        let r = self.rect;
        let room = |at: u32, d: i32, min: u32, max: u32| match d {
            1 => max - at,
            -1 => at - min,
            _ => u32::MAX,
        };
        range
            .min(room(from.x, dx, r.min.x, r.max.x))
            .min(room(from.y, dy, r.min.y, r.max.y))
    }

    /// Makes a move of my piece `index` to `to` (one of its targets), with its effects.
    pub fn make(&mut self, index: usize, to: Coord) -> Undo {
        let before = self.pieces[index];
        let mut undo = Undo {
            mover: index,
            before,
            captured: None,
            changed: Vec::new(),
            collected: Vec::new(),
            king_of: None,
            mine_len: self.mine.len(),
            enemy_material: self.enemy_material,
        };
        if let Some(victim) = self.at(to) {
            undo.captured = Some(victim);
            self.pieces[victim].alive = false;
            let victim_piece = self.pieces[victim];
            self.enemy_material -= self.worth(victim_piece.kind);
            if victim_piece.kind == Kind::King {
                let owner = victim_piece.owner;
                undo.king_of = Some(owner);
                self.gone.push(owner);
                for i in 0..self.pieces.len() {
                    let p = self.pieces[i];
                    if p.alive && p.owner == owner {
                        undo.changed.push((i, p));
                        self.enemy_material -= self.worth(p.kind);
                        self.mine.push(i);
                        let piece = &mut self.pieces[i];
                        piece.owner = self.me;
                        piece.side = Side::Mine;
                    }
                }
            }
        }
        let from = before.at;
        let orthogonal_bishop_step = before.kind == Kind::Bishop
            && from.chebyshev(to) == 1
            && (from.x == to.x || from.y == to.y);
        {
            let piece = &mut self.pieces[index];
            piece.at = to;
            piece.moved = true;
            piece.moved_now = true;
            piece.life = None;
            if orthogonal_bishop_step {
                piece.used_orthogonal_step = true;
            }
        }
        self.grid.set(from, None);
        self.grid.set(to, Some(index as u32));
        for (dx, dy) in DIRECTIONS {
            let Some(square) = self.step(to, dx, dy) else {
                continue;
            };
            if let Some(n) = self.at(square) {
                if self.pieces[n].side == Side::Neutral {
                    undo.changed.push((n, self.pieces[n]));
                    undo.collected.push(n);
                    self.mine.push(n);
                    let piece = &mut self.pieces[n];
                    piece.owner = self.me;
                    piece.side = Side::Mine;
                    piece.moved = false;
                    piece.life = None;
                    piece.moved_now = false;
                }
            }
        }
        undo
    }

    /// Takes back the move `undo` records (the last one made).
    pub fn unmake(&mut self, undo: Undo) {
        self.mine.truncate(undo.mine_len);
        self.enemy_material = undo.enemy_material;
        for (i, piece) in undo.changed.into_iter().rev() {
            self.pieces[i] = piece;
        }
        if let Some(owner) = undo.king_of {
            self.gone.retain(|&g| g != owner);
        }
        let to = self.pieces[undo.mover].at;
        self.pieces[undo.mover] = undo.before;
        self.grid.set(to, None);
        if let Some(victim) = undo.captured {
            self.pieces[victim].alive = true;
            self.grid.set(to, Some(victim as u32));
        }
        self.grid.set(undo.before.at, Some(undo.mover as u32));
    }

    /// The move of piece `index` to `to` in the world's terms.
    pub fn world_move(&self, index: usize, to: Coord) -> Move {
        Move::new(self.pieces[index].at, to)
    }

    /// My pieces that may still move in this turn.
    pub fn movable(&self) -> impl Iterator<Item = usize> + '_ {
        self.mine
            .iter()
            .copied()
            .filter(|&i| !self.pieces[i].moved_now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::megachess::crowd::{crowd_world, CROWD_ME};
    use std::collections::BTreeSet;

    /// The window's destinations of every piece of mine are the world's own, less those
    /// outside the window: on windows cut by the board's edge and on windows inside it.
    #[test]
    fn targets_are_the_worlds_inside_the_window() {
        for (seed, margin) in [(1, 30), (2, 6), (3, 3), (4, 12)] {
            let world = crowd_world(130, 130, 24, 24, 40, 120, seed);
            let local = Local::from_world(&world, CROWD_ME, margin).unwrap();
            let r = local.rect;
            let inside = |at: &Coord| {
                at.x >= r.min.x && at.x <= r.max.x && at.y >= r.min.y && at.y <= r.max.y
            };
            let mut checked = 0;
            for &i in &local.mine {
                let mut ours = Vec::new();
                local.targets(i, &mut ours);
                let mut theirs = Vec::new();
                world.targets(local.pieces[i].id, &mut theirs);
                let ours: BTreeSet<_> = ours.iter().map(|c| (c.x, c.y)).collect();
                let theirs: BTreeSet<_> = theirs
                    .iter()
                    .filter(|c| inside(c))
                    .map(|c| (c.x, c.y))
                    .collect();
                assert_eq!(ours, theirs, "seed {seed}: piece {:?}", local.pieces[i]);
                checked += ours.len();
            }
            assert!(checked > 40, "seed {seed}: only {checked} destinations");
        }
    }
}
