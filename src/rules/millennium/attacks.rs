//! Attack sets on the 15x8 board, from compile-time tables sized to the whole `u128` (128
//! entries, the spare ones empty) so that lookups need no bounds checks, and branch-free slider
//! rays: a sentinel bit past the end of every ray stands in for "no blocker".

use crate::board::Square;

const FILES: i32 = 15;
const RANKS: i32 = 8;

/// The eight directions as (files, ranks): the first four raise the square index, the last four
/// lower it.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES && rank >= 0 && rank < RANKS
}

/// `RAYS[direction][square]`: every square from `square` to the edge, exclusive. Square 127
/// (off the board) has empty rays, and so does `a1` in the four lowering directions: the
/// sentinels below rely on both.
const fn build_rays() -> [[u128; 128]; 8] {
    let mut rays = [[0u128; 128]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 120 {
            let (df, dr) = DIRECTIONS[d];
            let mut file = sq % FILES + df;
            let mut rank = sq / FILES + dr;
            while on_board(file, rank) {
                rays[d][sq as usize] |= 1u128 << (rank * FILES + file);
                file += df;
                rank += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    rays
}
static RAYS: [[u128; 128]; 8] = build_rays();

const fn build_leaper(steps: &[(i32, i32)]) -> [u128; 128] {
    let mut table = [0u128; 128];
    let mut sq = 0;
    while sq < 120 {
        let mut i = 0;
        while i < steps.len() {
            let file = sq % FILES + steps[i].0;
            let rank = sq / FILES + steps[i].1;
            if on_board(file, rank) {
                table[sq as usize] |= 1u128 << (rank * FILES + file);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}
static KNIGHT: [u128; 128] = build_leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u128; 128] = build_leaper(&DIRECTIONS);

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

#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: u128) -> u128 {
    ray::<0>(sq, occupied)
        | ray::<1>(sq, occupied)
        | ray::<4>(sq, occupied)
        | ray::<5>(sq, occupied)
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: u128) -> u128 {
    ray::<2>(sq, occupied)
        | ray::<3>(sq, occupied)
        | ray::<6>(sq, occupied)
        | ray::<7>(sq, occupied)
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
