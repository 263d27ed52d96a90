//! What each game's network sees: its sparse inputs, from either side. Every game has one input
//! for each own-or-enemy piece kind on each square, the board turned over for Black so that one
//! set of weights serves both sides; the games add what else a position holds (Millennium's
//! pools, Nichess's health points).

use super::squares::{self, SquareCodes, SquareInputs};
use crate::board::Bitboard;
use crate::rules::chess::{Chess, PieceKind};
use crate::rules::millennium::{self, Millennium, POOL_KINDS};
use crate::rules::nichess::{self, Nichess};
use crate::rules::{Color, Game};

const COLORS: [Color; 2] = [Color::White, Color::Black];

/// A game a network can score.
pub trait NetworkInputs: Game {
    /// How many inputs there are.
    const INPUTS: usize;
    /// The most inputs active at once, which bounds the first layer's weights so that an
    /// accumulator's `i16` sums cannot overflow.
    const MAX_ACTIVE: usize;

    /// Pushes the inputs active in the position, seen from `perspective`'s side.
    fn active_inputs(&self, perspective: Color, out: &mut Vec<u16>);

    /// The input of the same thing on the board mirrored left to right (files `a`..`h` swapped),
    /// for training on mirrored positions: the rules are the same mirrored, castling aside,
    /// which the inputs do not see.
    fn mirrored_input(input: usize) -> usize;

    /// The largest first-layer weight (in float, 1.0 being an activation's top) that keeps
    /// [`NetworkInputs::MAX_ACTIVE`] inputs and a bias inside an `i16`.
    fn weight_limit() -> f32 {
        let limit = i16::MAX as f32 / ((Self::MAX_ACTIVE + 1) as f32 * super::QA as f32);
        limit.min(super::WEIGHT_LIMIT)
    }
}

/// Whether the piece is the perspective's own (0) or the other side's (1).
#[inline(always)]
fn theirs(perspective: Color, color: Color) -> usize {
    usize::from(color != perspective)
}

impl NetworkInputs for Chess {
    const INPUTS: usize = 768;
    const MAX_ACTIVE: usize = 32;

    fn active_inputs(&self, perspective: Color, out: &mut Vec<u16>) {
        for color in COLORS {
            for kind in PieceKind::ALL {
                for sq in self.pieces(color, kind).squares() {
                    out.push(
                        super::chess::input(perspective, color, kind.index(), sq.index()) as u16,
                    );
                }
            }
        }
    }

    fn mirrored_input(input: usize) -> usize {
        input ^ 7
    }
}

/// Millennium: 2 × 6 × 120 piece inputs, then for each side (own first) and pool kind (knight,
/// bishop, rook, queen) one input for each piece the pool holds: "at least 1", "at least 2", ...
const MILLENNIUM_SQUARES: usize = 120;
const MILLENNIUM_PIECES: usize = 2 * 6 * MILLENNIUM_SQUARES;
/// Where each pool kind's inputs start within a side's 13 (4 knights, 4 bishops, 3 rooks, 2
/// queens at most).
const POOL_OFFSETS: [usize; 4] = [0, 4, 8, 11];
const POOL_INPUTS: usize = 13;

impl NetworkInputs for Millennium {
    const INPUTS: usize = MILLENNIUM_PIECES + 2 * POOL_INPUTS;
    // 60 pieces; a piece in a pool is one off the board.
    const MAX_ACTIVE: usize = 60 + 2 * POOL_INPUTS;

    fn active_inputs(&self, perspective: Color, out: &mut Vec<u16>) {
        for color in COLORS {
            for kind in PieceKind::ALL {
                for sq in self.pieces(color, kind).squares() {
                    out.push(
                        millennium_piece_input(perspective, color, kind.index(), sq.index()) as u16,
                    );
                }
            }
            for (slot, &kind) in POOL_KINDS.iter().enumerate() {
                for count in 0..self.pool_count(color, kind) as usize {
                    out.push(
                        millennium_pool_input(perspective, color, POOL_OFFSETS[slot] + count)
                            as u16,
                    );
                }
            }
        }
    }

    fn mirrored_input(input: usize) -> usize {
        if input >= MILLENNIUM_PIECES {
            return input;
        }
        let files = millennium::FILES as usize;
        let square = input % MILLENNIUM_SQUARES;
        let (file, rank) = (square % files, square / files);
        input - square + rank * files + (files - 1 - file)
    }
}

/// The Millennium input of a `color` piece of kind `kind` on `square`, seen from `perspective`.
#[inline(always)]
fn millennium_piece_input(perspective: Color, color: Color, kind: usize, square: usize) -> usize {
    let files = millennium::FILES as usize;
    let (file, rank) = (square % files, square / files);
    let rank = match perspective {
        Color::White => rank,
        Color::Black => 7 - rank,
    };
    (theirs(perspective, color) * 6 + kind) * MILLENNIUM_SQUARES + rank * files + file
}

/// The Millennium input "`color`'s pool holds its piece `place`" (`place` counting within the
/// side's 13), seen from `perspective`.
#[inline(always)]
fn millennium_pool_input(perspective: Color, color: Color, place: usize) -> usize {
    MILLENNIUM_PIECES + theirs(perspective, color) * POOL_INPUTS + place
}

/// Millennium's slots: its 120 squares (code `1 + colour × 6 + kind`), then each side's 13 pool
/// places (White's first; code 1 while the pool holds that piece).
impl SquareInputs for Millennium {
    const SLOTS: usize = MILLENNIUM_SQUARES + 2 * POOL_INPUTS;

    fn square_codes(&self) -> SquareCodes {
        let mut codes = [0; squares::MAX_SLOTS];
        for (c, color) in COLORS.into_iter().enumerate() {
            for kind in PieceKind::ALL {
                for sq in self.pieces(color, kind).squares() {
                    codes[sq.index()] = (1 + c * 6 + kind.index()) as u8;
                }
            }
            let pool = MILLENNIUM_SQUARES + c * POOL_INPUTS;
            for (slot, &kind) in POOL_KINDS.iter().enumerate() {
                let start = pool + POOL_OFFSETS[slot];
                codes[start..start + self.pool_count(color, kind) as usize].fill(1);
            }
        }
        codes
    }

    #[inline(always)]
    fn input(perspective: Color, code: u8, slot: usize) -> usize {
        if slot < MILLENNIUM_SQUARES {
            let code = code as usize - 1;
            millennium_piece_input(perspective, COLORS[code / 6], code % 6, slot)
        } else {
            let place = slot - MILLENNIUM_SQUARES;
            millennium_pool_input(
                perspective,
                COLORS[place / POOL_INPUTS],
                place % POOL_INPUTS,
            )
        }
    }
}

/// Nichess: one input for each own-or-enemy kind, health (10 to 60 points, in six steps) and
/// square: 2 × 6 × 6 × 64.
impl NetworkInputs for Nichess {
    const INPUTS: usize = 2 * 6 * 6 * 64;
    const MAX_ACTIVE: usize = 32;

    fn active_inputs(&self, perspective: Color, out: &mut Vec<u16>) {
        for color in COLORS {
            let side = theirs(perspective, color);
            for kind in nichess::PieceKind::ALL {
                for sq in self.pieces(color, kind).squares() {
                    let health = nichess_health(self, sq.index());
                    out.push(
                        nichess_input(perspective, side, kind as usize, health, sq.index()) as u16,
                    );
                }
            }
        }
    }

    fn mirrored_input(input: usize) -> usize {
        input ^ 7
    }
}

/// A Nichess piece's health step: 0 for 10 points or less, ... 5 for 60.
#[inline(always)]
fn nichess_health(position: &Nichess, square: usize) -> usize {
    (position.hp_tens(square).clamp(1, 6) - 1) as usize
}

/// The Nichess input of a piece of `side` (0 own, 1 the other's) seen from `perspective`.
#[inline(always)]
fn nichess_input(
    perspective: Color,
    side: usize,
    kind: usize,
    health: usize,
    square: usize,
) -> usize {
    let square = match perspective {
        Color::White => square,
        Color::Black => square ^ 56,
    };
    ((side * 6 + kind) * 6 + health) * 64 + square
}

/// A Nichess square's code: `1 + (colour × 6 + kind) × 6 + health`.
impl SquareInputs for Nichess {
    const SLOTS: usize = 64;

    fn square_codes(&self) -> SquareCodes {
        let mut codes = [0; squares::MAX_SLOTS];
        for (c, color) in COLORS.into_iter().enumerate() {
            for kind in nichess::PieceKind::ALL {
                for sq in self.pieces(color, kind).squares() {
                    let health = nichess_health(self, sq.index());
                    codes[sq.index()] = (1 + (c * 6 + kind as usize) * 6 + health) as u8;
                }
            }
        }
        codes
    }

    #[inline(always)]
    fn input(perspective: Color, code: u8, square: usize) -> usize {
        let code = code as usize - 1;
        let (color, kind, health) = (COLORS[code / 36], code / 6 % 6, code % 6);
        nichess_input(
            perspective,
            theirs(perspective, color),
            kind,
            health,
            square,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Rng;
    use crate::rules::MoveList;

    /// Along random games: inputs are in range and distinct, the two perspectives see the
    /// same number, and a position with the colours swapped and the board turned over looks
    /// to Black as the original looks to White.
    fn inputs_are_sound<G: NetworkInputs>(games: u64, mirror_colours: impl Fn(&G) -> Option<G>) {
        let mut swapped_checked = 0;
        for seed in 0..games {
            let mut rng = Rng::new(seed);
            let mut position = G::startpos();
            for _ in 0..150 {
                let (mut white, mut black) = (Vec::new(), Vec::new());
                position.active_inputs(Color::White, &mut white);
                position.active_inputs(Color::Black, &mut black);
                assert!(white.len() <= G::MAX_ACTIVE, "{}", position.fen());
                assert_eq!(white.len(), black.len());
                for list in [&white, &black] {
                    let mut sorted = list.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(sorted.len(), list.len(), "{}", position.fen());
                    assert!(sorted.iter().all(|&i| (i as usize) < G::INPUTS));
                    for &i in list {
                        let mirrored = G::mirrored_input(i as usize);
                        assert!(mirrored < G::INPUTS);
                        assert_eq!(G::mirrored_input(mirrored), i as usize);
                    }
                }
                if let Some(swapped) = mirror_colours(&position) {
                    let mut seen_by_black = Vec::new();
                    swapped.active_inputs(Color::Black, &mut seen_by_black);
                    seen_by_black.sort_unstable();
                    white.sort_unstable();
                    assert_eq!(white, seen_by_black, "{}", position.fen());
                    swapped_checked += 1;
                }
                let mut moves = MoveList::new();
                position.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position = position.play(moves[rng.index(moves.len())]);
            }
        }
        assert!(swapped_checked > 100);
    }

    fn swap_colours<G: Game>(position: &G) -> Option<G> {
        G::from_fen(&crate::eval::mirror_fen(&position.fen())).ok()
    }

    #[test]
    fn chess_inputs_are_sound() {
        inputs_are_sound::<Chess>(10, swap_colours);
    }

    #[test]
    fn millennium_inputs_are_sound() {
        inputs_are_sound::<Millennium>(6, swap_colours);
    }

    #[test]
    fn nichess_inputs_are_sound() {
        inputs_are_sound::<Nichess>(10, swap_colours);
    }

    #[test]
    fn millennium_pools_and_nichess_health_are_inputs() {
        let mut inputs = Vec::new();
        let with_pool = "4k5k4/15/15/15/15/15/15/4K5K4 w - - 0 1 QRRn";
        Millennium::from_fen(with_pool)
            .unwrap()
            .active_inputs(Color::White, &mut inputs);
        // Four kings, White's queen and two rooks, Black's knight.
        assert_eq!(inputs.len(), 4 + 3 + 1);
        let pool: Vec<usize> = inputs
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| i >= MILLENNIUM_PIECES)
            .map(|i| i - MILLENNIUM_PIECES)
            .collect();
        // Own (White's) pool first: queens from 11, rooks from 8; then Black's knights from 13.
        assert_eq!(pool, [8, 9, 11, 13]);
        let mut hurt = Vec::new();
        let mut whole = Vec::new();
        Nichess::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
            .unwrap()
            .active_inputs(Color::White, &mut whole);
        Nichess::from_fen("4k3/8/8/8/8/8/8/R(20)3K3 w - - 0 1")
            .unwrap()
            .active_inputs(Color::White, &mut hurt);
        assert_eq!(whole.len(), hurt.len());
        assert_ne!(whole, hurt);
        assert!(Millennium::weight_limit() < Chess::weight_limit());
    }
}
