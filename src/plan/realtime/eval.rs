//! The planner's judgement of a realtime position in time: material, the captures already under
//! way that nothing can stop, the pieces each side can win before the victim can get away (who
//! arrives first, with the recapture), the kings' safety, and a little development. A king
//! gets away only to a square next to it that no other enemy piece can strike before its delay
//! is out: with none left it is caged, and the side well ahead in material hunts it into that
//! cage (pawns racing and the king walking up as the pieces come off) rather than drift into the
//! no-capture draw.

use super::view::{
    dodge_deadline, file, passed_ms, promoted, rank, strikes_from, struck_on_the_way, ticks, value,
    Placed, View, EMPTY,
};
use crate::rules::realtime::{Color, Kind, Ms, RealtimeState};
use arrayvec::ArrayVec;

/// What a won king is worth: the game.
pub const WIN: i32 = 1_000_000;

/// What a king that may not move costs its side.
const KING_ON_DELAY: i32 = 120;

/// The pieces' material (knights to queens, both sides) at the start: the endgame weight grows
/// as it is traded off.
const OPENING_PIECES: i32 = 2 * (2 * 300 + 2 * 310 + 2 * 500 + 900);

/// Material ahead from which the side ahead hunts the king down rather than drift into the
/// no-capture draw.
const HUNT_LEAD: i32 = 250;
/// The hunter's bonus for each square next to the hunted king it cannot safely step to...
const HUNT_CAGE: i32 = 10;
/// ... and for each on a line of a hunter's piece, struck in time or not (yet).
const HUNT_LINES: i32 = 8;
/// The hunter's bonus for each piece (pawns and king aside) a square closer to the hunted king,
/// once nothing has been taken for a quarter of the no-capture draw's time (less before).
const HUNT_APPROACH: i32 = 8;
/// The hunter's bonus for a guarded piece one tick from a square next to the king that would
/// leave it nowhere to go.
const HUNT_NET: i32 = 150;

/// A piece's worth in the material count (the king's loss is the game, judged apart).
fn material(kind: Kind) -> i32 {
    if kind == Kind::King {
        0
    } else {
        value(kind)
    }
}

/// The judgement of `state` for `me`, in centipawns; `reaction` is how long a side takes to see
/// a threat and answer it (a poll).
pub fn evaluate(state: &RealtimeState, me: Color, reaction: Ms) -> i32 {
    if let Some(outcome) = state.outcome() {
        return match outcome.winner {
            Some(w) if w == me => WIN,
            Some(_) => -WIN,
            None => 0,
        };
    }
    let view = View::new(state);
    let judge = Judge::new(&view, reaction);
    judge.score(me)
}

/// The squares next to a king it may step to (see [`Judge::room`]).
#[derive(Clone, Debug, Default)]
struct Room {
    exits: ArrayVec<Exit, 8>,
}

/// One square a king may step to.
#[derive(Clone, Debug, Default)]
struct Exit {
    /// The enemy pieces that could take the king there in time (the first three).
    strikers: ArrayVec<u8, 3>,
    /// Whether any enemy has the square on a line, in time or not (yet).
    lined: bool,
    /// The square itself.
    square: u8,
}

impl Exit {
    fn strike(&mut self, index: u8, timely: bool) {
        self.lined = true;
        if timely && !self.strikers.contains(&index) && !self.strikers.is_full() {
            self.strikers.push(index);
        }
    }

    /// Whether a piece other than those `leaving` strikes the square in time.
    fn struck_without(&self, leaving: &[u8]) -> bool {
        self.strikers.iter().any(|s| !leaving.contains(s))
    }
}

impl Room {
    /// The squares no enemy strikes in time.
    fn safe(&self) -> i32 {
        self.exits.iter().filter(|e| e.strikers.is_empty()).count() as i32
    }

    /// The squares no enemy has on a line.
    fn unlined(&self) -> i32 {
        self.exits.iter().filter(|e| !e.lined).count() as i32
    }

    /// Whether every square is struck in time by some enemy piece other than `attacker` (which
    /// leaves its lines when it sets off for the king) and the `screen` it strikes through
    /// (which must leave first): then the king, attacked, has nowhere to go.
    fn closed_against(&self, attacker: usize, screen: u8) -> bool {
        let leaving = [attacker as u8, screen];
        self.exits.iter().all(|e| e.struck_without(&leaving))
    }
}

/// A piece that strikes a square.
#[derive(Clone, Copy, Debug)]
struct Strike {
    /// The striker's index in the view.
    piece: u8,
    /// How many ticks it takes.
    ticks: u32,
    /// The ms from which its path is clear: 0, or when an own piece in the way (the screen) may
    /// move off it.
    clear: Ms,
    /// That screen's index, `EMPTY` if none.
    screen: u8,
}

/// Who strikes each square, in how many ticks.
struct Judge<'a> {
    view: &'a View,
    reaction: Ms,
    /// For each square, the pieces that strike it.
    strikers: Vec<Vec<Strike>>,
    /// Pieces a move under way takes for certain.
    doomed: Vec<bool>,
    /// For each colour, the squares next to its king it may step to (see [`Judge::room`]);
    /// `None` until the certain victims are known.
    room: Option<[Room; 2]>,
    /// How far into the endgame the position is: 0 with every piece on, 64 with pawns and kings.
    endgame: i32,
    /// Whether each side has a piece besides its king and pawns.
    armed: [bool; 2],
}

impl<'a> Judge<'a> {
    fn new(view: &'a View, reaction: Ms) -> Judge<'a> {
        let mut strikers = vec![Vec::new(); 64];
        for index in 0..view.pieces.len() {
            let piece = index as u8;
            view.strikes(index, |target, ticks| {
                strikers[target as usize].push(Strike {
                    piece,
                    ticks,
                    clear: 0,
                    screen: EMPTY,
                })
            });
            x_rays(view, index, |target, ticks, clear, screen| {
                strikers[target as usize].push(Strike {
                    piece,
                    ticks,
                    clear,
                    screen,
                })
            });
        }
        let pieces: i32 = view
            .pieces
            .iter()
            .filter(|p| !matches!(p.piece.kind, Kind::Pawn | Kind::King))
            .map(|p| value(p.piece.kind))
            .sum();
        let mut judge = Judge {
            view,
            reaction,
            strikers,
            doomed: vec![false; view.pieces.len()],
            room: None,
            endgame: (64 - 64 * pieces / OPENING_PIECES).clamp(0, 64),
            armed: [Color::White, Color::Black].map(|color| {
                view.pieces.iter().any(|p| {
                    p.piece.color == color && !matches!(p.piece.kind, Kind::King | Kind::Pawn)
                })
            }),
        };
        judge.doomed = judge.certain_victims();
        judge.room = Some([judge.room(Color::White), judge.room(Color::Black)]);
        // A caged king a move under way strikes is taken too, dodge as it may.
        judge.doomed = judge.certain_victims();
        judge
    }

    /// The squares next to `color`'s king it could step to (empty or holding an enemy) and who
    /// strikes each: the enemy pieces that could take the king there before its delay is out
    /// (doomed ones aside; a move under way, on the squares it has yet to pass), and whether any
    /// enemy has it on a line at all. Lines through the king's own square count as open (it
    /// leaves it), so stepping back along a line is no escape.
    fn room(&self, color: Color) -> Room {
        let view = self.view;
        let is_king = |p: &&Placed| p.piece.color == color && p.piece.kind == Kind::King;
        let Some(placed_king) = view.pieces.iter().find(is_king) else {
            return Room::default();
        };
        let king = placed_king.square;
        // Stepping next door, it lands a tick after it can start and then sits out its delay.
        let leaves = placed_king.ready.max(view.now + self.reaction);
        let free = leaves + view.tick + view.delay;
        let mut room = Room::default();
        let mut exits = [None; 64];
        let (kf, kr) = (file(king), rank(king));
        for df in -1i8..=1 {
            for dr in -1i8..=1 {
                let (f, r) = (kf + df, kr + dr);
                if (df, dr) == (0, 0) || !(0..8).contains(&f) || !(0..8).contains(&r) {
                    continue;
                }
                let square = (r * 8 + f) as u8;
                if !view.at(square).is_some_and(|p| p.piece.color == color) {
                    exits[square as usize] = Some(room.exits.len());
                    room.exits.push(Exit {
                        square,
                        ..Exit::default()
                    });
                }
            }
        }
        for (index, placed) in view.pieces.iter().enumerate() {
            if placed.piece.color == color || self.doomed[index] {
                continue;
            }
            let mut strike = |target: u8, timely: bool| {
                if let Some(exit) = exits[target as usize] {
                    room.exits[exit].strike(index as u8, timely);
                }
            };
            let blocked = |sq: u8| sq != king && view.board[sq as usize] != EMPTY;
            let start = placed.ready.max(view.now);
            strikes_from(placed.piece, placed.square, blocked, |target, n| {
                strike(
                    target,
                    dodge_deadline(placed.piece.kind, start, n, view.tick) < free,
                )
            });
            if let (Some(struck), Some((_, started, _))) =
                (struck_on_the_way(placed, view.tick), placed.moving)
            {
                for (k, square) in struck {
                    let passes = passed_ms(started, k, view.tick);
                    strike(square, passes >= leaves + view.tick);
                }
            }
        }
        room
    }

    /// The pieces a moving enemy piece strikes before they can leave: on its destination, or on
    /// a square of its path while it passes (a piece standing there, or one landing there before
    /// it has passed: it sits out its delay).
    fn certain_victims(&self) -> Vec<bool> {
        let view = self.view;
        let tick = view.tick;
        let mut doomed = vec![false; view.pieces.len()];
        for (mover_index, mover) in view.pieces.iter().enumerate() {
            let Some(struck) = struck_on_the_way(mover, tick) else {
                continue;
            };
            let Some((from, start, _)) = mover.moving else {
                continue;
            };
            let kind = mover.piece.kind;
            let n = ticks(kind, from, mover.square);
            for (k, square) in struck {
                let passed = passed_ms(start, k, tick);
                for (index, other) in view.pieces.iter().enumerate() {
                    if other.piece.color == mover.piece.color || other.square != square {
                        continue;
                    }
                    let struck = match other.moving {
                        None => {
                            !self.escapes(other, dodge_deadline(kind, start, k, tick))
                                || self.caged(other, mover_index, EMPTY)
                        }
                        Some((_, _, landing)) => k < n && landing <= passed,
                    };
                    doomed[index] |= struck;
                }
            }
        }
        doomed
    }

    /// Whether `piece` is a king with no square to step to when `attacker` comes for it (through
    /// `screen`, or `EMPTY`): caught however soon it sees the threat.
    fn caged(&self, piece: &Placed, attacker: usize, screen: u8) -> bool {
        piece.piece.kind == Kind::King
            && self.room.as_ref().is_some_and(|room| {
                room[piece.piece.color.index()].closed_against(attacker, screen)
            })
    }

    /// Whether `piece` is a bare king (pawns aside: no piece of its own can take an attacker
    /// or clear a square for it) every square of whose room some enemy piece strikes in time,
    /// whichever it is.
    fn pinned(&self, piece: &Placed) -> bool {
        piece.piece.kind == Kind::King
            && !self.armed[piece.piece.color.index()]
            && self.room.as_ref().is_some_and(|room| {
                room[piece.piece.color.index()]
                    .exits
                    .iter()
                    .all(|e| !e.strikers.is_empty())
            })
    }

    /// Whether `victim` can start leaving by `deadline`: it sees the threat now and answers at
    /// the next decision (leaving before the attacker can start is as good).
    fn escapes(&self, victim: &Placed, deadline: Ms) -> bool {
        victim.ready.max(self.view.now + self.reaction) <= deadline
    }

    /// The most `attacker`'s side wins on `victim`'s square: `victim`'s value, less the attacker
    /// if the victim's side takes it back before it can leave; `None` if the victim gets away.
    fn win_on(&self, victim_index: usize) -> Option<i32> {
        let view = self.view;
        let victim = &view.pieces[victim_index];
        let square = victim.square as usize;
        // The square is free to move to once a piece moving there has landed (rule 3).
        let free_from = victim.moving.map_or(view.now, |(_, _, arrive)| arrive);
        let mut best: Option<i32> = None;
        for &Strike {
            piece: a,
            ticks: n,
            clear,
            screen,
        } in &self.strikers[square]
        {
            let attacker = &view.pieces[a as usize];
            if attacker.piece.color == victim.piece.color || self.doomed[a as usize] {
                continue;
            }
            let start = view.now.max(attacker.ready).max(free_from).max(clear);
            let deadline = dodge_deadline(attacker.piece.kind, start, n, view.tick);
            if self.escapes(victim, deadline) && !self.caged(victim, a as usize, screen) {
                // A king that must be gone before the attacker can set off, not seeing it start,
                // leaves it its lines: it needs a square the attacker does not strike either.
                let sees_it_start = victim.ready.max(start + self.reaction) <= deadline;
                if sees_it_start || !self.pinned(victim) {
                    continue;
                }
            }
            let landed = start + n as Ms * view.tick;
            let landed_piece = promoted(attacker.piece, victim.square);
            let retaken = self.strikers[square].iter().any(|strike| {
                let (b, m, clear) = (strike.piece, strike.ticks, strike.clear);
                let guard = &view.pieces[b as usize];
                if b as usize == victim_index
                    || guard.piece.color != victim.piece.color
                    || self.doomed[b as usize]
                {
                    return false;
                }
                let start = landed.max(guard.ready).max(clear);
                let deadline = dodge_deadline(guard.piece.kind, start, m, view.tick);
                landed + view.delay > deadline
            });
            let victim_worth = if victim.piece.kind == Kind::King {
                WIN / 2
            } else {
                value(victim.piece.kind)
            };
            let lost = if retaken { value(landed_piece.kind) } else { 0 };
            let gain = victim_worth - lost;
            if gain > 0 {
                best = Some(best.map_or(gain, |b| b.max(gain)));
            }
        }
        best
    }

    fn score(&self, me: Color) -> i32 {
        let view = self.view;
        let mut total = 0;
        let mut threats = [Vec::new(), Vec::new()];
        for (index, placed) in view.pieces.iter().enumerate() {
            let sign = if placed.piece.color == me { 1 } else { -1 };
            if self.doomed[index] {
                if placed.piece.kind == Kind::King {
                    return -sign * (WIN / 2);
                }
                continue;
            }
            total += sign * (material(placed.piece.kind) + placement(placed, self.endgame));
            if placed.piece.kind == Kind::King
                && placed.ready > view.now + self.reaction
                && self.armed[placed.piece.color.flip().index()]
            {
                // A king sitting out its delay cannot dodge.
                total -= sign * KING_ON_DELAY;
            }
            if let Some(gain) = self.win_on(index) {
                threats[placed.piece.color.index()].push(gain);
            }
        }
        let mine = &mut threats[me.index()].clone();
        let theirs = &mut threats[me.flip().index()].clone();
        total -= at_stake(mine, 10, 5);
        total += at_stake(theirs, 6, 1);
        total + self.king_pressure(me) - self.king_pressure(me.flip()) + self.hunt(me)
    }

    /// For the side well ahead in material, the hunt of the other king: the squares next to it
    /// that it cannot step to, and the hunter's king close by (the last pieces need its help).
    /// It counts for `me` when `me` hunts and against `me` when hunted, so the planner neither
    /// drifts into the no-capture draw with a won game nor lets itself be caged.
    fn hunt(&self, me: Color) -> i32 {
        let view = self.view;
        let mut lead = 0;
        for (index, placed) in view.pieces.iter().enumerate() {
            if !self.doomed[index] {
                let sign = if placed.piece.color == me { 1 } else { -1 };
                lead += sign * material(placed.piece.kind);
            }
        }
        let (hunter, sign) = match lead {
            l if l >= HUNT_LEAD => (me, 1),
            l if l <= -HUNT_LEAD => (me.flip(), -1),
            _ => return 0,
        };
        let hunted = hunter.flip();
        let (Some(prey), Some(own)) = (view.king(hunted), view.king(hunter)) else {
            return 0;
        };
        let Some(room) = self.room.as_ref().map(|room| &room[hunted.index()]) else {
            return 0;
        };
        let cage = (8 - room.safe()) * HUNT_CAGE + (8 - room.unlined()) * HUNT_LINES;
        let edge = {
            let (f, r) = (file(prey) as i32, rank(prey) as i32);
            ((2 * f - 7).abs() + (2 * r - 7).abs()) * 3
        };
        let near = (7 - ticks(Kind::King, own, prey) as i32) * 4;
        // The pieces close in too, the more the longer nothing was taken: with nothing to gain a
        // move ahead they would stand still into the no-capture draw.
        let approach: i32 = view
            .pieces
            .iter()
            .enumerate()
            .filter(|&(index, p)| {
                p.piece.color == hunter
                    && !self.doomed[index]
                    && !matches!(p.piece.kind, Kind::King | Kind::Pawn)
            })
            .map(|(_, p)| 7 - ticks(Kind::King, p.square, prey) as i32)
            .sum::<i32>()
            * HUNT_APPROACH
            * view.stale
            / 64;
        let net = if !self.armed[hunted.index()] && self.net_threat(hunter, prey, room) {
            HUNT_NET
        } else {
            0
        };
        sign * ((cage + edge + near) * self.endgame.max(16) / 64 + approach + net)
    }

    /// Whether a piece of `hunter` can step next to the king on `prey`, one tick away and
    /// guarded, where every square the king could flee to is next to it on its lines or struck
    /// in time by another piece: then the king, free now, cannot wait for it to be free.
    fn net_threat(&self, hunter: Color, prey: u8, room: &Room) -> bool {
        let view = self.view;
        let near = |a: u8, b: u8| a != b && ticks(Kind::King, a, b) == 1;
        let steps = |kind: Kind, a: u8, b: u8| {
            near(a, b)
                && match kind {
                    Kind::Queen => true,
                    Kind::Rook => file(a) == file(b) || rank(a) == rank(b),
                    Kind::Bishop => file(a) != file(b) && rank(a) != rank(b),
                    _ => false,
                }
        };
        for (index, piece) in view.pieces.iter().enumerate() {
            let kind = piece.piece.kind;
            if piece.piece.color != hunter
                || self.doomed[index]
                || !matches!(kind, Kind::Queen | Kind::Rook | Kind::Bishop)
                || near(piece.square, prey)
            {
                continue;
            }
            for exit in &room.exits {
                let target = exit.square;
                if !steps(kind, piece.square, target) || view.board[target as usize] != EMPTY {
                    continue;
                }
                let guarded = self.strikers[target as usize].iter().any(|strike| {
                    let (g, n, clear) = (strike.piece, strike.ticks, strike.clear);
                    let guard = &view.pieces[g as usize];
                    g as usize != index
                        && clear == 0
                        && guard.piece.color == hunter
                        && !self.doomed[g as usize]
                        && (n as Ms) * view.tick < view.delay
                });
                let closed = room.exits.iter().all(|e| {
                    e.square == target
                        || steps(kind, target, e.square)
                        || e.struck_without(&[index as u8])
                });
                if guarded && closed {
                    return true;
                }
            }
        }
        false
    }

    /// How hard `color` presses the enemy king: its pieces that strike the king's square or the
    /// squares around it.
    fn king_pressure(&self, color: Color) -> i32 {
        let view = self.view;
        let Some(king) = view.king(color.flip()) else {
            return 0;
        };
        let mut pressure = 0;
        let (kf, kr) = (king % 8, king / 8);
        for square in 0..64u8 {
            let (f, r) = (square % 8, square / 8);
            if f.abs_diff(kf) > 1 || r.abs_diff(kr) > 1 {
                continue;
            }
            let weight = if square == king { 40 } else { 6 };
            for strike in &self.strikers[square as usize] {
                if strike.clear == 0 && view.pieces[strike.piece as usize].piece.color == color {
                    pressure += weight;
                }
            }
        }
        pressure
    }
}

/// Calls `f(target, ticks, clear, screen)` for the squares a slider strikes through one piece of
/// its own colour that may move out of its way (a pawn on a file does not), from `clear`, that
/// piece's first ms to start; `screen` is that piece's index.
fn x_rays(view: &View, index: usize, mut f: impl FnMut(u8, u32, Ms, u8)) {
    let slider = &view.pieces[index];
    let (orthogonal, diagonal) = match slider.piece.kind {
        Kind::Rook => (true, false),
        Kind::Bishop => (false, true),
        Kind::Queen => (true, true),
        _ => return,
    };
    for df in -1i8..=1 {
        for dr in -1i8..=1 {
            let straight = df == 0 || dr == 0;
            if (df, dr) == (0, 0) || (straight && !orthogonal) || (!straight && !diagonal) {
                continue;
            }
            let (mut f0, mut r0) = (file(slider.square), rank(slider.square));
            let mut n = 0;
            let mut screen: Option<(Ms, u8)> = None;
            loop {
                f0 += df;
                r0 += dr;
                n += 1;
                if !(0..8).contains(&f0) || !(0..8).contains(&r0) {
                    break;
                }
                let square = (r0 * 8 + f0) as u8;
                let Some(blocker) = view.at(square) else {
                    if let Some((clear, screen)) = screen {
                        f(square, n, clear, screen);
                    }
                    continue;
                };
                match screen {
                    Some((clear, screen)) => {
                        f(square, n, clear, screen);
                        break;
                    }
                    None => {
                        let own = blocker.piece.color == slider.piece.color;
                        let pawn_on_file = blocker.piece.kind == Kind::Pawn && df == 0;
                        if !own || pawn_on_file {
                            break;
                        }
                        screen = Some((blocker.ready.max(1), view.board[square as usize]));
                    }
                }
            }
        }
    }
}

/// What threats are worth: `whole`/10 of the largest and `rest`/10 of the others.
fn at_stake(gains: &mut [i32], whole: i32, rest: i32) -> i32 {
    gains.sort_unstable_by(|a, b| b.cmp(a));
    match gains.split_first() {
        Some((first, others)) => (*first as i64 * whole as i64 / 10
            + others.iter().map(|&g| g as i64).sum::<i64>() * rest as i64 / 10)
            .min(WIN as i64) as i32,
        None => 0,
    }
}

/// A little development: pawns forward, pieces off the back rank and towards the centre, the
/// king at home. As the pieces come off (`endgame` 0 to 64) the pawns race for the last rank and
/// the king walks to the centre.
fn placement(placed: &Placed, endgame: i32) -> i32 {
    let square = placed.square;
    let forward = match placed.piece.color {
        Color::White => rank(square),
        Color::Black => 7 - rank(square),
    } as i32;
    let centre = {
        let f = (square % 8) as i32;
        let r = (square / 8) as i32;
        6 - ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2
    };
    match placed.piece.kind {
        Kind::Pawn => 4 * forward + forward * forward * 4 * endgame / 64,
        Kind::Knight | Kind::Bishop => 3 * centre + if forward > 0 { 10 } else { 0 },
        Kind::Rook | Kind::Queen => centre,
        Kind::King => {
            let home = if forward == 0 { 30 } else { -10 * forward };
            (home * (64 - endgame) + 8 * centre * endgame) / 64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::realtime::RealtimeParams;

    fn black(text: &str) -> i32 {
        let state = RealtimeState::from_text(text, RealtimeParams::default()).unwrap();
        evaluate(&state, Color::Black, 100)
    }

    #[test]
    fn a_king_caged_by_the_screen_of_a_slider_is_not_struck_through_it() {
        // The black rook on f5 strikes the white king on f1 through its own bishop on f3, and
        // that bishop holds e2 and g2, two of the king's squares: when it leaves the file it
        // opens them, so the king is not caught. Judged caught, Roger stood still for 300 s with
        // a queen and two minor pieces ahead, a king's threat to gain that never came.
        assert!(black("8/8/1q4k1/3n1r1p/2p4P/2b2b2/8/R4K2 - 180000 54801") < WIN / 4);
    }

    #[test]
    fn a_king_caged_by_other_pieces_is_struck_through_a_screen() {
        // The rook on a8 strikes the king on a1 through the knight on a5; the rook on b8 and the
        // bishop on d5 hold every square the king could go to, whether the knight leaves or not.
        assert!(black("rr5k/8/8/n2b4/8/8/8/K7 - 5000 0") >= WIN / 4);
    }
}
