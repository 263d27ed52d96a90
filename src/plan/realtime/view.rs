//! A player's picture of a realtime position: where every piece stands or will stand once its move
//! lands, the first millisecond it may start again, and which squares it strikes in how many ticks.
//! Shared by the greedy reference player and the planner.

use crate::board::Square;
use crate::rules::realtime::{Color, Kind, Motion, Ms, Order, Piece, RealtimeState, KNIGHT_STEPS};

/// No piece on a square of [`View::board`].
pub const EMPTY: u8 = u8::MAX;

/// A piece's worth in centipawns; the king's stands for the game.
pub fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn => 100,
        Kind::Knight => 300,
        Kind::Bishop => 310,
        Kind::Rook => 500,
        Kind::Queen => 900,
        Kind::King => 20_000,
    }
}

/// A piece as a player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub piece: Piece,
    /// Where it stands, or where its move lands.
    pub square: u8,
    /// The first ms it may start a move (a moving piece: its arrival plus the delay).
    pub ready: Ms,
    /// For a moving piece: its start square, start and arrival.
    pub moving: Option<(u8, Ms, Ms)>,
}

/// The position at `now`, each piece at its square or its destination.
#[derive(Clone, Debug)]
pub struct View {
    pub now: Ms,
    pub tick: Ms,
    pub delay: Ms,
    pub pieces: Vec<Placed>,
    /// The index in `pieces` of the piece that blocks each square: standing pieces, and moving
    /// pieces at their destination when nothing stands there.
    pub board: [u8; 64],
    /// How long nothing has been taken, from 0 to 64 at a quarter of the no-capture draw's time.
    pub stale: i32,
}

impl View {
    pub fn new(state: &RealtimeState) -> View {
        let params = state.params();
        let now = state.now();
        let mut view = View {
            now,
            tick: params.tick(),
            delay: params.delay(),
            pieces: Vec::with_capacity(32),
            board: [EMPTY; 64],
            stale: {
                let quarter = (params.no_capture_draw() / 4).max(1);
                let since = now.saturating_sub(state.last_removal()).min(quarter);
                (since * 64 / quarter) as i32
            },
        };
        for unit in state.units() {
            let placed = match unit.motion {
                Motion::Standing {
                    square, ready_at, ..
                } => Placed {
                    piece: unit.piece,
                    square: square.0,
                    ready: ready_at.max(now),
                    moving: None,
                },
                Motion::Moving {
                    from,
                    to,
                    start,
                    arrive,
                } => Placed {
                    piece: promoted(unit.piece, to.0),
                    square: to.0,
                    ready: arrive + params.delay(),
                    moving: Some((from.0, start, arrive)),
                },
            };
            view.pieces.push(placed);
        }
        for (index, placed) in view.pieces.iter().enumerate() {
            if placed.moving.is_none() {
                view.board[placed.square as usize] = index as u8;
            }
        }
        for (index, placed) in view.pieces.iter().enumerate() {
            if placed.moving.is_some() && view.board[placed.square as usize] == EMPTY {
                view.board[placed.square as usize] = index as u8;
            }
        }
        view
    }

    pub fn at(&self, square: u8) -> Option<&Placed> {
        match self.board[square as usize] {
            EMPTY => None,
            index => Some(&self.pieces[index as usize]),
        }
    }

    /// The standing piece on `square`, if any.
    pub fn standing(&self, square: u8) -> Option<&Placed> {
        self.at(square).filter(|p| p.moving.is_none())
    }

    /// The square a side's king stands on or travels to.
    pub fn king(&self, color: Color) -> Option<u8> {
        self.pieces
            .iter()
            .find(|p| p.piece.color == color && p.piece.kind == Kind::King)
            .map(|p| p.square)
    }

    /// Calls `f(target, ticks)` for each square the piece at `index` strikes (a capture pattern with
    /// a clear path on `board`), with the ticks a move there takes.
    pub fn strikes(&self, index: usize, f: impl FnMut(u8, u32)) {
        let placed = &self.pieces[index];
        strikes_from(
            placed.piece,
            placed.square,
            |sq| self.board[sq as usize] != EMPTY,
            f,
        );
    }

    /// The value of what `color` would take by `order` now: a standing enemy on the destination,
    /// or an en passant pawn.
    pub fn captured_by(&self, color: Color, order: Order) -> i32 {
        match self.standing(order.to.0) {
            Some(p) if p.piece.color != color => value(p.piece.kind),
            Some(_) => 0,
            None => {
                let mover = self.standing(order.from.0);
                let diagonal = file(order.from.0) != file(order.to.0);
                match mover {
                    Some(m) if m.piece.kind == Kind::Pawn && diagonal => value(Kind::Pawn),
                    _ => 0,
                }
            }
        }
    }
}

/// A pawn moving to its last rank lands as a queen.
pub fn promoted(piece: Piece, to: u8) -> Piece {
    let last = match piece.color {
        Color::White => 7,
        Color::Black => 0,
    };
    if piece.kind == Kind::Pawn && rank(to) == last {
        Piece {
            color: piece.color,
            kind: Kind::Queen,
        }
    } else {
        piece
    }
}

pub fn file(square: u8) -> i8 {
    (square % 8) as i8
}

pub fn rank(square: u8) -> i8 {
    (square / 8) as i8
}

/// Ticks a move from `a` to `b` takes: one a square along a line, two for a knight's jump.
pub fn ticks(kind: Kind, a: u8, b: u8) -> u32 {
    if kind == Kind::Knight {
        return 2;
    }
    let df = (file(a) - file(b)).unsigned_abs();
    let dr = (rank(a) - rank(b)).unsigned_abs();
    df.max(dr) as u32
}

/// The `k`-th square from `from` towards `to` along their line.
pub fn step(from: u8, to: u8, k: u32) -> u8 {
    let df = (file(to) - file(from)).signum();
    let dr = (rank(to) - rank(from)).signum();
    let k = k as i8;
    ((rank(from) + k * dr) * 8 + file(from) + k * df) as u8
}

/// The squares a moving piece strikes on its way, each with its step `k` of the move's `n`: every
/// square of a walking move, only the destination of a knight (it flies over its path) or of a
/// castling's queenside rook (it keeps no pace). `None` for a standing piece.
pub fn struck_on_the_way(mover: &Placed, tick: Ms) -> Option<impl Iterator<Item = (u32, u8)>> {
    let (from, start, arrive) = mover.moving?;
    let kind = mover.piece.kind;
    let to = mover.square;
    let n = ticks(kind, from, to);
    let walks = kind != Kind::Knight && arrive - start == n as Ms * tick;
    let first = if walks { 1 } else { n };
    Some((first..=n).map(move |k| (k, if k == n { to } else { step(from, to, k) })))
}

/// The ms at which a walking move started at `start` has passed its `k`-th square (the middle of
/// its `k`-th tick): a piece landing there before then is struck.
pub fn passed_ms(start: Ms, k: u32, tick: Ms) -> Ms {
    start + (2 * k as Ms + 1) * tick / 2
}

/// The first ms at which a move of `n` ticks started at `start` occupies its destination (when
/// it takes what stands there).
pub fn capture_ms(kind: Kind, start: Ms, n: u32, tick: Ms) -> Ms {
    let n = if kind == Kind::Knight {
        2
    } else {
        n.max(1) as Ms
    };
    start + (2 * n - 1) * tick / 2 + 1
}

/// The last ms at which a piece may start leaving a square and be gone when a move of `n` ticks
/// started at `start` takes it.
pub fn dodge_deadline(kind: Kind, start: Ms, n: u32, tick: Ms) -> Ms {
    let capture = capture_ms(kind, start, n, tick);
    // It stays on its square during [t, t + T/2]; it must be gone at `capture`.
    (capture - 1).saturating_sub(tick / 2)
}

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn offset(square: u8, df: i8, dr: i8) -> Option<u8> {
    let f = file(square) + df;
    let r = rank(square) + dr;
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as u8)
}

/// Calls `f(target, ticks)` for each square `piece` on `square` strikes when `blocked` says which
/// squares hold a piece (a slider stops on the first, which it strikes).
pub fn strikes_from(
    piece: Piece,
    square: u8,
    blocked: impl Fn(u8) -> bool,
    mut f: impl FnMut(u8, u32),
) {
    let rays = |dirs: &[(i8, i8)], f: &mut dyn FnMut(u8, u32)| {
        for &(df, dr) in dirs {
            let mut at = square;
            let mut n = 0;
            while let Some(next) = offset(at, df, dr) {
                n += 1;
                f(next, n);
                if blocked(next) {
                    break;
                }
                at = next;
            }
        }
    };
    match piece.kind {
        Kind::Pawn => {
            let dr = if piece.color == Color::White { 1 } else { -1 };
            for df in [-1, 1] {
                if let Some(t) = offset(square, df, dr) {
                    f(t, 1);
                }
            }
        }
        Kind::Knight => {
            for (df, dr) in KNIGHT_STEPS {
                if let Some(t) = offset(square, df, dr) {
                    f(t, 2);
                }
            }
        }
        Kind::King => {
            for (df, dr) in ORTHOGONAL.iter().chain(&DIAGONAL) {
                if let Some(t) = offset(square, *df, *dr) {
                    f(t, 1);
                }
            }
        }
        Kind::Bishop => rays(&DIAGONAL, &mut f),
        Kind::Rook => rays(&ORTHOGONAL, &mut f),
        Kind::Queen => {
            rays(&ORTHOGONAL, &mut f);
            rays(&DIAGONAL, &mut f);
        }
    }
}

/// The square's name, for messages.
pub fn name(square: u8) -> String {
    Square(square).name(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_and_dodge_times_follow_the_occupancy_rule() {
        // A one-square move started at 0 with T = 1000 takes what stands there at 501; the
        // victim must have started leaving by 0 (it stays until 500).
        assert_eq!(capture_ms(Kind::Rook, 0, 1, 1000), 501);
        assert_eq!(dodge_deadline(Kind::Rook, 0, 1, 1000), 0);
        assert_eq!(capture_ms(Kind::Rook, 0, 3, 1000), 2501);
        assert_eq!(dodge_deadline(Kind::Rook, 0, 3, 1000), 2000);
        assert_eq!(capture_ms(Kind::Knight, 100, 2, 100), 251);
        assert_eq!(dodge_deadline(Kind::Knight, 100, 2, 100), 200);
        assert_eq!(capture_ms(Kind::Bishop, 0, 2, 15), 23);
    }

    #[test]
    fn a_rook_strikes_along_its_lines_up_to_the_first_piece() {
        let rook = Piece {
            color: Color::White,
            kind: Kind::Rook,
        };
        let mut seen = Vec::new();
        // a1 rook, a piece on a3.
        strikes_from(rook, 0, |sq| sq == 16, |t, n| seen.push((t, n)));
        assert!(seen.contains(&(16, 2)));
        assert!(!seen.contains(&(24, 3)));
        assert!(seen.contains(&(7, 7)));
        assert_eq!(seen.len(), 2 + 7);
    }
}
