//! Accumulators that follow a search path for games whose inputs are the board alone, one input
//! an occupied square (Nichess: the piece's side, kind and health). Each ply keeps the board as
//! one small code a square; the squares whose codes differ from the ply above are the inputs to
//! take out and put in. Comparing 64 bytes is much cheaper than building, sorting and merging
//! the input lists that `super::path` compares for games with inputs off the board.

use super::{Accumulator, Network, NetworkInputs};
use crate::rules::Color;

/// The squares of a board whose inputs this path follows.
pub const SQUARES: usize = 64;
/// A board seen as one code a square: 0 empty, else what [`SquareInputs::input`] reads.
pub type SquareCodes = [u8; SQUARES];

/// A game whose network inputs are one a piece on its (64-square) board.
pub trait SquareInputs: NetworkInputs {
    /// The position's board as codes (0: empty).
    fn square_codes(&self) -> SquareCodes;
    /// The input of the piece `code` on `square`, seen from `perspective`'s side.
    fn input(perspective: Color, code: u8, square: usize) -> usize;
}

/// Beyond this many changed squares a fresh sum is cheaper than the updates.
const REFRESH_ABOVE: usize = 6;
const PERSPECTIVES: [Color; 2] = [Color::White, Color::Black];

/// One ply's board and its two accumulators (White's perspective, Black's).
#[derive(Clone)]
struct Entry {
    codes: SquareCodes,
    accumulators: [Accumulator; 2],
    filled: bool,
}

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            codes: [0; SQUARES],
            accumulators: Default::default(),
            filled: false,
        }
    }
}

impl Entry {
    /// Squares whose codes differ from `codes`.
    fn distance(&self, codes: &SquareCodes) -> usize {
        if !self.filled {
            return usize::MAX;
        }
        self.codes.iter().zip(codes).filter(|(a, b)| a != b).count()
    }

    fn refresh<G: SquareInputs>(&mut self, codes: &SquareCodes, network: &Network) {
        for (accumulator, perspective) in self.accumulators.iter_mut().zip(PERSPECTIVES) {
            let active = codes
                .iter()
                .enumerate()
                .filter(|(_, &code)| code != 0)
                .map(|(square, &code)| G::input(perspective, code, square));
            network.refresh(accumulator, active);
        }
        self.codes = *codes;
        self.filled = true;
    }

    /// Moves the sums to `codes`, at most [`REFRESH_ABOVE`] squares away.
    fn update<G: SquareInputs>(&mut self, codes: &SquareCodes, network: &Network) {
        type Changes = arrayvec::ArrayVec<usize, REFRESH_ABOVE>;
        for (accumulator, perspective) in self.accumulators.iter_mut().zip(PERSPECTIVES) {
            let (mut added, mut removed) = (Changes::new(), Changes::new());
            for (square, (&was, &now)) in self.codes.iter().zip(codes).enumerate() {
                if was != now {
                    if was != 0 {
                        removed.push(G::input(perspective, was, square));
                    }
                    if now != 0 {
                        added.push(G::input(perspective, now, square));
                    }
                }
            }
            network.update(accumulator, &added, &removed);
        }
        self.codes = *codes;
    }
}

/// The accumulators of one search thread, a pair a ply.
#[derive(Default)]
pub struct SquarePath {
    entries: Vec<Entry>,
}

/// The network's score of `position` at `ply` of a search, from the sums of the ply above (or
/// of the last position at this ply, whichever differs less).
pub fn evaluate_at<G: SquareInputs>(
    network: &Network,
    position: &G,
    path: &mut SquarePath,
    ply: usize,
) -> i32 {
    let codes = position.square_codes();
    let (entry, distance) = super::path_entry(&mut path.entries, ply, REFRESH_ABOVE, |e| {
        e.distance(&codes)
    });
    if distance <= REFRESH_ABOVE {
        entry.update::<G>(&codes, network);
    } else {
        entry.refresh::<G>(&codes, network);
    }
    network.output_for(position.side_to_move(), &entry.accumulators)
}
