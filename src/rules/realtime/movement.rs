//! Starting a move: the movement patterns and rules 1-7 of the rules page, checked in the page's
//! order (own piece, rule 1, the pattern, rules 3, 4, 5, 6, 7), and every order that may start.

use super::state::{castling_bit, home, Motion, RealtimeState, Unit};
use super::{piece_name, square_name, Color, Kind, Ms, Order, Piece, Refusal};
use crate::board::Square;

/// What an order starts, once allowed.
pub(super) struct Start {
    /// Its duration in ticks.
    pub ticks: Ms,
    /// Castling: the rook's from and to squares.
    pub rook: Option<(Square, Square)>,
    /// A pawn's diagonal move onto an empty square that takes an en passant target.
    pub en_passant: bool,
}

/// A movement pattern, from the geometry alone.
#[derive(Clone, Copy)]
enum Shape {
    /// `squares` steps of `step` (a pawn's straight and diagonal moves are lines too).
    Line {
        step: i8,
        squares: u8,
    },
    Knight,
    Castle {
        rook_from: Square,
        rook_to: Square,
    },
}

const fn bit(square: Square) -> u64 {
    1 << square.0
}
const fn file(square: Square) -> i8 {
    (square.0 % 8) as i8
}
const fn rank(square: Square) -> i8 {
    (square.0 / 8) as i8
}

/// Rank `r` (0..8) as seen from `color`'s side.
const fn relative_rank(color: Color, square: Square) -> i8 {
    match color {
        Color::White => rank(square),
        Color::Black => 7 - rank(square),
    }
}

/// The step and length of a straight or diagonal line from `from` to `to`.
pub(super) fn line(from: Square, to: Square) -> Option<(i8, u8)> {
    let (df, dr) = (file(to) - file(from), rank(to) - rank(from));
    if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    Some((df.signum() + 8 * dr.signum(), df.abs().max(dr.abs()) as u8))
}

pub(super) fn is_knight_jump(from: Square, to: Square) -> bool {
    let (df, dr) = ((file(to) - file(from)).abs(), (rank(to) - rank(from)).abs());
    (df, dr) == (1, 2) || (df, dr) == (2, 1)
}

/// The k-th square along a line.
pub(super) const fn step_square(from: Square, step: i8, k: u8) -> Square {
    Square((from.0 as i16 + step as i16 * k as i16) as u8)
}

/// The pattern of `piece` from `from` to `to`, ignoring everything else on the board (castling:
/// from the king's home square; whether it is still allowed is the caller's).
fn shape(piece: Piece, from: Square, to: Square) -> Option<Shape> {
    if piece.kind == Kind::Knight {
        return is_knight_jump(from, to).then_some(Shape::Knight);
    }
    let (step, squares) = line(from, to)?;
    let diagonal = file(from) != file(to) && rank(from) != rank(to);
    let fits = match piece.kind {
        Kind::Rook => !diagonal,
        Kind::Bishop => diagonal,
        Kind::Queen => true,
        Kind::Knight => false,
        Kind::King if squares == 1 => true,
        Kind::King => {
            let king_home = Square(home(piece.color) + 4);
            if from == king_home && rank(to) == rank(from) && squares == 2 {
                let kingside = to.0 > from.0;
                let corner = home(piece.color) + if kingside { 7 } else { 0 };
                let rook_to = home(piece.color) + if kingside { 5 } else { 3 };
                return Some(Shape::Castle {
                    rook_from: Square(corner),
                    rook_to: Square(rook_to),
                });
            }
            false
        }
        Kind::Pawn => {
            let forward = rank(to) - rank(from) == if piece.color == Color::White { 1 } else { -1 };
            let double = (rank(to) - rank(from)).abs() == 2
                && !diagonal
                && relative_rank(piece.color, from) == 1
                && rank(to) - rank(from) == if piece.color == Color::White { 2 } else { -2 };
            (forward && squares == 1) || double
        }
    };
    fits.then_some(Shape::Line { step, squares })
}

/// Why an order is refused, before its text is written (so `orders` never builds strings).
enum Why {
    GameOver,
    NoOwnPiece,
    OwnPieceMoving(usize),
    OnDelay(Ms),
    NotAPattern,
    NoCastlingRight,
    SameDestination(Square),
    MoveBlocking(Square),
    OwnDestination(Square),
    Blocked(Square),
    PawnBlocked,
    NothingToTake,
}

/// The board as sets of squares, read once per check.
struct Sets {
    /// Standing pieces, by colour.
    standing: [u64; 2],
    /// Destinations of moving pieces, by colour.
    destinations: [u64; 2],
}

impl RealtimeState {
    fn sets(&self) -> Sets {
        let mut sets = Sets {
            standing: [0; 2],
            destinations: [0; 2],
        };
        for unit in &self.units {
            let color = unit.piece.color.index();
            match unit.motion {
                Motion::Standing { square, .. } => sets.standing[color] |= bit(square),
                Motion::Moving { to, .. } => sets.destinations[color] |= bit(to),
            }
        }
        sets
    }

    /// Whether `color` may start `order` now: the rules in the page's check order.
    pub fn check(&self, color: Color, order: Order) -> Result<(), Refusal> {
        self.check_start(color, order).map(|_| ())
    }

    /// [`RealtimeState::check`], with what the order starts.
    pub(super) fn check_start(&self, color: Color, order: Order) -> Result<Start, Refusal> {
        self.judge(color, order, &self.sets())
            .map_err(|why| self.refusal(color, order, why))
    }

    fn judge(&self, color: Color, order: Order, sets: &Sets) -> Result<Start, Why> {
        if self.outcome.is_some() {
            return Err(Why::GameOver);
        }
        let Order { from, to } = order;
        let own = color.index();
        let unit = match self.unit_on(from) {
            Some(unit) if unit.piece.color == color => unit,
            _ => {
                let moving = self.units.iter().position(|unit| {
                    unit.piece.color == color && self.occupied_square(unit, self.now) == Some(from)
                });
                return Err(moving.map_or(Why::NoOwnPiece, Why::OwnPieceMoving));
            }
        };
        if let Motion::Standing { ready_at, .. } = unit.motion {
            if ready_at > self.now {
                return Err(Why::OnDelay(ready_at));
            }
        }
        let shape = shape(unit.piece, from, to).ok_or(Why::NotAPattern)?;
        let all_destinations = sets.destinations[0] | sets.destinations[1];
        let all_standing = sets.standing[0] | sets.standing[1];
        // Rules 3-5 on one line move (a knight's path is its destination alone).
        let lines_free = |moves: &[(Square, i8, u8)]| -> Result<(), Why> {
            for &(start, step, squares) in moves {
                let dest = step_square(start, step, squares);
                if all_destinations & bit(dest) != 0 {
                    return Err(Why::SameDestination(dest));
                }
            }
            for is_own in [false, true] {
                let destinations = sets.destinations[if is_own { own } else { 1 - own }];
                for &(start, step, squares) in moves {
                    for k in 1..=squares {
                        let square = step_square(start, step, k);
                        if destinations & bit(square) != 0 {
                            return Err(if is_own {
                                Why::OwnDestination(square)
                            } else {
                                Why::MoveBlocking(square)
                            });
                        }
                    }
                }
            }
            Ok(())
        };
        match shape {
            Shape::Knight => {
                if all_destinations & bit(to) != 0 {
                    return Err(Why::SameDestination(to));
                }
                if sets.standing[own] & bit(to) != 0 {
                    return Err(Why::Blocked(to));
                }
                Ok(Start {
                    ticks: 2,
                    rook: None,
                    en_passant: false,
                })
            }
            Shape::Castle { rook_from, rook_to } => {
                let kingside = rook_from.0 > from.0;
                if self.castling & castling_bit(color, kingside) == 0 {
                    return Err(Why::NoCastlingRight);
                }
                match self.unit_on(rook_from) {
                    Some(rook) if rook.piece.color == color && rook.piece.kind == Kind::Rook => {
                        if let Motion::Standing { ready_at, .. } = rook.motion {
                            if ready_at > self.now {
                                return Err(Why::OnDelay(ready_at));
                            }
                        }
                    }
                    _ => return Err(Why::NoCastlingRight),
                }
                let (king_step, _) = line(from, to).ok_or(Why::NotAPattern)?;
                let (rook_step, rook_squares) = line(rook_from, rook_to).ok_or(Why::NotAPattern)?;
                lines_free(&[(from, king_step, 2), (rook_from, rook_step, rook_squares)])?;
                let (low, high) = (from.0.min(rook_from.0), from.0.max(rook_from.0));
                for between in low + 1..high {
                    if all_standing & bit(Square(between)) != 0 {
                        return Err(Why::Blocked(Square(between)));
                    }
                }
                Ok(Start {
                    ticks: 2,
                    rook: Some((rook_from, rook_to)),
                    en_passant: false,
                })
            }
            Shape::Line { step, squares } => {
                lines_free(&[(from, step, squares)])?;
                for k in 1..squares {
                    let square = step_square(from, step, k);
                    if all_standing & bit(square) != 0 {
                        return Err(Why::Blocked(square));
                    }
                }
                if sets.standing[own] & bit(to) != 0 {
                    return Err(Why::Blocked(to));
                }
                let mut en_passant = false;
                if unit.piece.kind == Kind::Pawn {
                    if file(from) == file(to) {
                        if all_standing & bit(to) != 0 {
                            return Err(Why::PawnBlocked);
                        }
                    } else if sets.standing[1 - own] & bit(to) == 0 {
                        if !self.en_passant_target(color, from, to) {
                            return Err(Why::NothingToTake);
                        }
                        en_passant = true;
                    }
                }
                Ok(Start {
                    ticks: squares as Ms,
                    rook: None,
                    en_passant,
                })
            }
        }
    }

    /// Whether a pawn of `color` on `from` may take en passant by moving diagonally to `to`: an
    /// enemy pawn beside it (same rank, `to`'s file) that arrived by a two-square move and whose
    /// delay has not passed.
    fn en_passant_target(&self, color: Color, from: Square, to: Square) -> bool {
        let beside = Square((rank(from) * 8 + file(to)) as u8);
        self.unit_on(beside).is_some_and(|target| {
            target.piece
                == Piece {
                    color: color.flip(),
                    kind: Kind::Pawn,
                }
                && matches!(target.motion,
                    Motion::Standing { en_passant_until: Some(until), .. } if self.now < until)
        })
    }

    /// The refusal's text: what and where.
    fn refusal(&self, color: Color, order: Order, why: Why) -> Refusal {
        let Order { from, to } = order;
        let (from_name, to_name) = (square_name(from), square_name(to));
        let moving_to = |square: Square| -> String {
            self.units
                .iter()
                .find_map(|unit| match unit.motion {
                    Motion::Moving { from, to, .. } if to == square => Some(format!(
                        "the moving {} from {}",
                        piece_name(unit.piece),
                        square_name(from)
                    )),
                    _ => None,
                })
                .unwrap_or_default()
        };
        let standing = |square: Square| -> String {
            self.unit_on(square)
                .map(|unit| piece_name(unit.piece))
                .unwrap_or_default()
        };
        let own = || {
            piece_name(self.unit_on(from).map_or(
                Piece {
                    color,
                    kind: Kind::Pawn,
                },
                |unit| unit.piece,
            ))
        };
        match why {
            Why::GameOver => Refusal::GameOver,
            Why::NoOwnPiece => Refusal::NotAMove(match self.unit_on(from) {
                Some(unit) => format!(
                    "no {} piece on {from_name} (a {} stands there)",
                    color.name(),
                    piece_name(unit.piece)
                ),
                None => format!("no {} piece on {from_name}", color.name()),
            }),
            Why::OwnPieceMoving(index) => {
                let unit: &Unit = &self.units[index];
                let (start, arrive) = match unit.motion {
                    Motion::Moving { from, arrive, .. } => (from, arrive),
                    Motion::Standing { square, .. } => (square, self.now),
                };
                Refusal::NotReady(format!(
                    "the {} on {from_name} is moving (from {}, arriving at {arrive})",
                    piece_name(unit.piece),
                    square_name(start)
                ))
            }
            Why::OnDelay(until) => Refusal::NotReady(format!(
                "the {} on {from_name} is on delay until {until}",
                own()
            )),
            Why::NotAPattern => Refusal::NotAMove(format!(
                "{from_name}{to_name} is not a move of the {}",
                own()
            )),
            Why::NoCastlingRight => Refusal::NotAMove(format!(
                "{} may not castle {}: the king or that rook has moved",
                color.name(),
                if to.0 > from.0 {
                    "kingside"
                } else {
                    "queenside"
                }
            )),
            Why::SameDestination(square) => Refusal::SameDestination(format!(
                "{} is the destination of {}",
                square_name(square),
                moving_to(square)
            )),
            Why::MoveBlocking(square) => Refusal::MoveBlocking(format!(
                "the path crosses {}, the destination of {}",
                square_name(square),
                moving_to(square)
            )),
            Why::OwnDestination(square) => Refusal::OwnDestination(format!(
                "the path crosses {}, the destination of {}",
                square_name(square),
                moving_to(square)
            )),
            Why::Blocked(square) if square == to => Refusal::PathBlocked(format!(
                "a {} stands on the destination {to_name}",
                standing(square)
            )),
            Why::Blocked(square) => Refusal::PathBlocked(format!(
                "a standing {} on {} blocks the way",
                standing(square),
                square_name(square)
            )),
            Why::PawnBlocked => Refusal::PawnRule(format!(
                "a pawn moves straight only to an empty square, and a {} stands on {to_name}",
                standing(to)
            )),
            Why::NothingToTake => Refusal::PawnRule(format!(
                "a pawn moves diagonally only to take, and there is nothing to take on {to_name}"
            )),
        }
    }

    /// Every order `color` may start now.
    pub fn orders(&self, color: Color) -> Vec<Order> {
        let mut orders = Vec::new();
        if self.outcome.is_some() {
            return orders;
        }
        let sets = self.sets();
        let own = color.index();
        let blocked_all = sets.destinations[0] | sets.destinations[1];
        let all_standing = sets.standing[0] | sets.standing[1];
        for unit in &self.units {
            let Motion::Standing {
                square: from,
                ready_at,
                ..
            } = unit.motion
            else {
                continue;
            };
            if unit.piece.color != color || ready_at > self.now {
                continue;
            }
            let mut push = |to: Square| orders.push(Order { from, to });
            // Walks a ray: a destination of any moving piece ends it (rule 3 there, rules 4
            // and 5 beyond), a standing piece ends it after an enemy's square (rule 6).
            let ray = |df: i8, dr: i8, limit: u8, push: &mut dyn FnMut(Square)| {
                let (mut f, mut r) = (file(from), rank(from));
                for _ in 0..limit {
                    f += df;
                    r += dr;
                    if !(0..8).contains(&f) || !(0..8).contains(&r) {
                        return;
                    }
                    let square = Square((r * 8 + f) as u8);
                    if blocked_all & bit(square) != 0 || sets.standing[own] & bit(square) != 0 {
                        return;
                    }
                    push(square);
                    if all_standing & bit(square) != 0 {
                        return;
                    }
                }
            };
            const STRAIGHT: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
            const DIAGONAL: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
            match unit.piece.kind {
                Kind::Rook => STRAIGHT.iter().for_each(|&(f, r)| ray(f, r, 7, &mut push)),
                Kind::Bishop => DIAGONAL.iter().for_each(|&(f, r)| ray(f, r, 7, &mut push)),
                Kind::Queen | Kind::King => {
                    let limit = if unit.piece.kind == Kind::King { 1 } else { 7 };
                    for &(f, r) in STRAIGHT.iter().chain(&DIAGONAL) {
                        ray(f, r, limit, &mut push);
                    }
                    if unit.piece.kind == Kind::King {
                        for to in [from.0.wrapping_add(2), from.0.wrapping_sub(2)] {
                            let order = Order {
                                from,
                                to: Square(to),
                            };
                            if from.0 == home(color) + 4 && self.judge(color, order, &sets).is_ok()
                            {
                                push(Square(to));
                            }
                        }
                    }
                }
                Kind::Knight => {
                    for (df, dr) in KNIGHT_STEPS {
                        let (f, r) = (file(from) + df, rank(from) + dr);
                        if (0..8).contains(&f) && (0..8).contains(&r) {
                            let to = Square((r * 8 + f) as u8);
                            if blocked_all & bit(to) == 0 && sets.standing[own] & bit(to) == 0 {
                                push(to);
                            }
                        }
                    }
                }
                Kind::Pawn => {
                    let dr = if color == Color::White { 1 } else { -1 };
                    let free = |square: Square| (blocked_all | all_standing) & bit(square) == 0;
                    let one = Square((from.0 as i8 + 8 * dr) as u8);
                    if free(one) {
                        push(one);
                        let two = Square((one.0 as i8 + 8 * dr) as u8);
                        if relative_rank(color, from) == 1 && free(two) {
                            push(two);
                        }
                    }
                    for df in [-1, 1] {
                        let f = file(from) + df;
                        if !(0..8).contains(&f) {
                            continue;
                        }
                        let to = Square(((rank(from) + dr) * 8 + f) as u8);
                        if blocked_all & bit(to) != 0 || sets.standing[own] & bit(to) != 0 {
                            continue;
                        }
                        if sets.standing[1 - own] & bit(to) != 0
                            || self.en_passant_target(color, from, to)
                        {
                            push(to);
                        }
                    }
                }
            }
        }
        orders
    }
}

/// A knight's eight jumps as (file, rank) steps.
pub const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
