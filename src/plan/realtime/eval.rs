//! The planner's judgement of a realtime position in time: material, the captures already under
//! way that nothing can stop, the pieces each side can win before the victim can get away (who
//! arrives first, with the recapture), the kings' safety, and a little development.

use super::view::{
    dodge_deadline, file, promoted, rank, struck_on_the_way, ticks, value, Placed, View,
};
use crate::rules::realtime::{Color, Kind, Ms, RealtimeState};

/// What a won king is worth: the game.
pub const WIN: i32 = 1_000_000;

/// What a king that may not move costs its side.
const KING_ON_DELAY: i32 = 120;

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

/// Who strikes each square, in how many ticks.
struct Judge<'a> {
    view: &'a View,
    reaction: Ms,
    /// For each square, the pieces that strike it: (index, ticks, the ms from which the path is
    /// clear: 0, or when an own piece in the way may move off it).
    strikers: Vec<Vec<(u8, u32, Ms)>>,
    /// Pieces a move under way takes for certain.
    doomed: Vec<bool>,
}

impl<'a> Judge<'a> {
    fn new(view: &'a View, reaction: Ms) -> Judge<'a> {
        let mut strikers = vec![Vec::new(); 64];
        for index in 0..view.pieces.len() {
            view.strikes(index, |target, n| {
                strikers[target as usize].push((index as u8, n, 0))
            });
            x_rays(view, index, |target, n, clear| {
                strikers[target as usize].push((index as u8, n, clear))
            });
        }
        let mut judge = Judge {
            view,
            reaction,
            strikers,
            doomed: vec![false; view.pieces.len()],
        };
        judge.doomed = judge.certain_victims();
        judge
    }

    /// The pieces a moving enemy piece strikes before they can leave: on its destination, or on
    /// a square of its path while it passes (a piece standing there, or one landing there before
    /// it has passed: it sits out its delay).
    fn certain_victims(&self) -> Vec<bool> {
        let view = self.view;
        let tick = view.tick;
        let mut doomed = vec![false; view.pieces.len()];
        for mover in &view.pieces {
            let Some(struck) = struck_on_the_way(mover, tick) else {
                continue;
            };
            let Some((from, start, _)) = mover.moving else {
                continue;
            };
            let kind = mover.piece.kind;
            let n = ticks(kind, from, mover.square);
            for (k, square) in struck {
                let passed = start + (2 * k as Ms + 1) * tick / 2;
                for (index, other) in view.pieces.iter().enumerate() {
                    if other.piece.color == mover.piece.color || other.square != square {
                        continue;
                    }
                    let struck = match other.moving {
                        None => !self.escapes(other, dodge_deadline(kind, start, k, tick)),
                        Some((_, _, landing)) => k < n && landing <= passed,
                    };
                    doomed[index] |= struck;
                }
            }
        }
        doomed
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
        for &(a, n, clear) in &self.strikers[square] {
            let attacker = &view.pieces[a as usize];
            if attacker.piece.color == victim.piece.color || self.doomed[a as usize] {
                continue;
            }
            let start = view.now.max(attacker.ready).max(free_from).max(clear);
            let deadline = dodge_deadline(attacker.piece.kind, start, n, view.tick);
            if self.escapes(victim, deadline) {
                continue;
            }
            let landed = start + n as Ms * view.tick;
            let landed_piece = promoted(attacker.piece, victim.square);
            let retaken = self.strikers[square].iter().any(|&(b, m, clear)| {
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
            total += sign * (material(placed.piece.kind) + placement(placed));
            if placed.piece.kind == Kind::King && placed.ready > view.now + self.reaction {
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
        total + self.king_pressure(me) - self.king_pressure(me.flip())
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
            for &(a, _, clear) in &self.strikers[square as usize] {
                if clear == 0 && view.pieces[a as usize].piece.color == color {
                    pressure += weight;
                }
            }
        }
        pressure
    }
}

/// Calls `f(target, ticks, clear)` for the squares a slider strikes through one piece of its own
/// colour that may move out of its way (a pawn on a file does not), from `clear`, that piece's
/// first ms to start.
fn x_rays(view: &View, index: usize, mut f: impl FnMut(u8, u32, Ms)) {
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
            let mut screen: Option<Ms> = None;
            loop {
                f0 += df;
                r0 += dr;
                n += 1;
                if !(0..8).contains(&f0) || !(0..8).contains(&r0) {
                    break;
                }
                let square = (r0 * 8 + f0) as u8;
                let Some(blocker) = view.at(square) else {
                    if let Some(clear) = screen {
                        f(square, n, clear);
                    }
                    continue;
                };
                match screen {
                    Some(clear) => {
                        f(square, n, clear);
                        break;
                    }
                    None => {
                        let own = blocker.piece.color == slider.piece.color;
                        let pawn_on_file = blocker.piece.kind == Kind::Pawn && df == 0;
                        if !own || pawn_on_file {
                            break;
                        }
                        screen = Some(blocker.ready.max(1));
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
/// king at home.
fn placement(placed: &Placed) -> i32 {
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
        Kind::Pawn => 4 * forward,
        Kind::Knight | Kind::Bishop => 3 * centre + if forward > 0 { 10 } else { 0 },
        Kind::Rook | Kind::Queen => centre,
        Kind::King => {
            if forward == 0 {
                30
            } else {
                -10 * forward
            }
        }
    }
}
