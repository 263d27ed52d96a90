//! Attack sets on the 15x8 board, from compile-time tables sized to the whole `u128` (128
//! entries, the spare ones empty) so that lookups need no bounds checks, and branch-free slider
//! rays: a sentinel bit past the end of every ray stands in for "no blocker".

use crate::board::build::{leaper_table, ray_tables};
use crate::board::{Square, KING_STEPS, KNIGHT_STEPS};

/// `RAYS[direction][square]`: every square from `square` to the edge, exclusive. Square 127
/// (off the board) has empty rays, and so does `a1` in the four lowering directions: the
/// sentinels below rely on both.
static RAYS: [[u128; 128]; 8] = ray_tables(15, 8);
static KNIGHT: [u128; 128] = leaper_table(15, 8, &KNIGHT_STEPS);
static KING: [u128; 128] = leaper_table(15, 8, &KING_STEPS);

#[inline(always)]
fn index(sq: Square) -> usize {
    sq.index() & 127
}

/// Squares a slider on `sq` reaches along direction `D`, up to and including the first blocker.
#[inline(always)]
fn ray<const D: usize>(sq: Square, occupied: u128) -> u128 {
    let ray = RAYS[D][index(sq)];
    let blockers = ray & occupied;
    let first = if D < 4 {
        // Bit 127 is past every raising ray, and its own rays are empty.
        (blockers | 1 << 127).trailing_zeros()
    } else {
        // Bit 0 (`a1`) is past every lowering ray, and its lowering rays are empty.
        127 - (blockers | 1).leading_zeros()
    };
    ray ^ RAYS[D][(first & 127) as usize]
}

/// Squares four sliders' rays `A`..`D` reach from `sq`.
#[inline(always)]
fn rays<const A: usize, const B: usize, const C: usize, const D: usize>(
    sq: Square,
    occupied: u128,
) -> u128 {
    ray::<A>(sq, occupied)
        | ray::<B>(sq, occupied)
        | ray::<C>(sq, occupied)
        | ray::<D>(sq, occupied)
}

/// The orthogonal rays ([`crate::board::ORTHOGONAL_RAYS`]).
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: u128) -> u128 {
    rays::<0, 1, 4, 5>(sq, occupied)
}

/// The diagonal rays ([`crate::board::DIAGONAL_RAYS`]).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: u128) -> u128 {
    rays::<2, 3, 6, 7>(sq, occupied)
}

#[inline(always)]
pub fn knight_attacks(sq: Square) -> u128 {
    KNIGHT[index(sq)]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> u128 {
    KING[index(sq)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board15x8, Geometry};

    /// The tables and rays agree with the board layer's on every square, for occupancies from
    /// empty to crowded.
    #[test]
    fn attacks_match_the_board_tables() {
        let t = Board15x8::tables();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..200 {
            let wide = (random() as u128) << 64 | random() as u128;
            let occupied = match round % 4 {
                0 => 0,
                1 => wide & random() as u128 & t.board,
                _ => wide & t.board,
            };
            for sq in (0..120).map(Square) {
                assert_eq!(rook_attacks(sq, occupied), t.rook_attacks(sq, occupied));
                assert_eq!(bishop_attacks(sq, occupied), t.bishop_attacks(sq, occupied));
                assert_eq!(knight_attacks(sq), t.knight[sq.index()]);
                assert_eq!(king_attacks(sq), t.king[sq.index()]);
            }
        }
    }
}
