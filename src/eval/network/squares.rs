//! Accumulators that follow a search path for games whose inputs are one a "square": the board
//! (Nichess: the piece's side, kind and health; Millennium: side and kind) and, where a game has
//! inputs off the board, slots of their own (Millennium's pool, one slot a piece it can hold).
//! Each ply keeps the position as one small code a slot; the slots whose codes differ from the
//! ply above are the inputs to take out and put in. Comparing a hundred-odd bytes is much cheaper
//! than building, sorting and merging the input lists that `super::path` compares.

use super::{Accumulator, Network, NetworkInputs};
use crate::rules::Color;

/// The most slots a game's codes may use (Millennium: 120 squares and 26 pool slots).
pub const MAX_SLOTS: usize = 160;
/// A position seen as one code a slot: 0 empty, else what [`SquareInputs::input`] reads. Slots
/// from the game's [`SquareInputs::SLOTS`] on stay 0.
pub type SquareCodes = [u8; MAX_SLOTS];

/// A game whose network inputs are one an occupied slot.
pub trait SquareInputs: NetworkInputs {
    /// The slots the game uses, at most [`MAX_SLOTS`].
    const SLOTS: usize;
    /// The position as codes (0: empty).
    fn square_codes(&self) -> SquareCodes;
    /// The input of `code` in `slot`, seen from `perspective`'s side.
    fn input(perspective: Color, code: u8, slot: usize) -> usize;
}

/// Beyond this many changed slots a fresh sum is cheaper than the updates. One move changes at
/// most four: castling's four squares, or a Millennium capture that promotes (two squares and a
/// slot of each pool).
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
            codes: [0; MAX_SLOTS],
            accumulators: Default::default(),
            filled: false,
        }
    }
}

/// The slots a game uses, rounded up to whole words of 8: slots past [`SquareInputs::SLOTS`] are
/// 0 in every code array, so comparing them changes nothing.
fn words<G: SquareInputs>() -> usize {
    G::SLOTS.div_ceil(8)
}

/// Word `index` of the codes (8 slots).
#[inline(always)]
fn word(codes: &SquareCodes, index: usize) -> u64 {
    let bytes: [u8; 8] = codes[index * 8..index * 8 + 8]
        .try_into()
        .expect("eight bytes");
    u64::from_le_bytes(bytes)
}

/// How many of the eight bytes of `x` are not zero.
#[inline(always)]
fn nonzero_bytes(x: u64) -> u32 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // A byte's top bit ends up set exactly when the byte is zero.
    let zero = !(((x & LOW7) + LOW7) | x | LOW7);
    8 - zero.count_ones()
}

/// The slots that differ between two code arrays, with their old and new codes.
type Changes = arrayvec::ArrayVec<(usize, u8, u8), REFRESH_ABOVE>;

impl Entry {
    /// Slots whose codes differ from `codes`.
    fn distance<G: SquareInputs>(&self, codes: &SquareCodes) -> usize {
        if !self.filled {
            return usize::MAX;
        }
        (0..words::<G>())
            .map(|i| nonzero_bytes(word(&self.codes, i) ^ word(codes, i)) as usize)
            .sum()
    }

    /// The differing slots, at most [`REFRESH_ABOVE`] (the caller checked the distance).
    fn changes<G: SquareInputs>(&self, codes: &SquareCodes) -> Changes {
        let mut changes = Changes::new();
        for i in 0..words::<G>() {
            if word(&self.codes, i) == word(codes, i) {
                continue;
            }
            let range = i * 8..i * 8 + 8;
            let pairs = self.codes[range.clone()].iter().zip(&codes[range.clone()]);
            for (slot, (&was, &now)) in range.zip(pairs) {
                if was != now {
                    changes.push((slot, was, now));
                }
            }
        }
        changes
    }

    fn refresh<G: SquareInputs>(&mut self, codes: &SquareCodes, network: &Network) {
        for (accumulator, perspective) in self.accumulators.iter_mut().zip(PERSPECTIVES) {
            let active = codes[..G::SLOTS]
                .iter()
                .enumerate()
                .filter(|(_, &code)| code != 0)
                .map(|(square, &code)| G::input(perspective, code, square));
            network.refresh(accumulator, active);
        }
        self.codes = *codes;
        self.filled = true;
    }

    /// Moves the sums to `codes`, at most [`REFRESH_ABOVE`] slots away: the differing slots
    /// are found once, then each perspective's inputs taken out and put in.
    fn update<G: SquareInputs>(&mut self, codes: &SquareCodes, network: &Network) {
        type Inputs = arrayvec::ArrayVec<usize, REFRESH_ABOVE>;
        let changes = self.changes::<G>(codes);
        for (accumulator, perspective) in self.accumulators.iter_mut().zip(PERSPECTIVES) {
            let (mut added, mut removed) = (Inputs::new(), Inputs::new());
            for &(slot, was, now) in &changes {
                if was != 0 {
                    removed.push(G::input(perspective, was, slot));
                }
                if now != 0 {
                    added.push(G::input(perspective, now, slot));
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
        e.distance::<G>(&codes)
    });
    if distance <= REFRESH_ABOVE {
        entry.update::<G>(&codes, network);
    } else {
        entry.refresh::<G>(&codes, network);
    }
    network.output_for(position.side_to_move(), &entry.accumulators)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonzero_bytes_are_counted_in_every_place() {
        assert_eq!(nonzero_bytes(0), 0);
        assert_eq!(nonzero_bytes(u64::MAX), 8);
        for place in 0..8 {
            for byte in [0x01u64, 0x7F, 0x80, 0xFF] {
                assert_eq!(
                    nonzero_bytes(byte << (place * 8)),
                    1,
                    "{byte:#x} at {place}"
                );
            }
        }
        assert_eq!(nonzero_bytes(0x0100_8000_0000_0001), 3);
    }
}
