//! Attack tables of the 8x8 board built at compile time (by the board layer's builder), so the
//! hot paths index plain arrays.

use crate::board::build::{between_table, leaper_table, narrow, narrow_rows, ray_tables};
use crate::board::{KING_STEPS, KNIGHT_STEPS, ORTHOGONAL_STEPS, PAWN_ATTACK_STEPS};

pub static KNIGHT: [u64; 64] = narrow(leaper_table(8, 8, &KNIGHT_STEPS));
pub static KING: [u64; 64] = narrow(leaper_table(8, 8, &KING_STEPS));
/// The maenad's single orthogonal step.
pub static ORTHOGONAL_STEP: [u64; 64] = narrow(leaper_table(8, 8, &ORTHOGONAL_STEPS));
/// Squares a pawn of each colour (0 = White, 1 = Black) attacks.
pub static PAWN_ATTACKS: [[u64; 64]; 2] = [
    narrow(leaper_table(8, 8, &PAWN_ATTACK_STEPS[0])),
    narrow(leaper_table(8, 8, &PAWN_ATTACK_STEPS[1])),
];
/// `RAYS[direction][square]`: the squares from `square` to the edge, exclusive, in the order
/// of [`crate::board::RAY_STEPS`].
pub static RAYS: [[u64; 64]; 8] = narrow_rows(ray_tables(8, 8));
/// `BETWEEN[a][b]`: the squares strictly between two squares on one line, else empty.
pub static BETWEEN: [[u64; 64]; 64] = narrow_rows(between_table(8, 8));

/// The first occupied square along ray `dir` from `sq`, if any.
#[inline(always)]
pub fn first_blocker(sq: usize, dir: usize, occupied: u64) -> Option<u8> {
    let blockers = RAYS[dir][sq] & occupied;
    if blockers == 0 {
        None
    } else if dir < 4 {
        Some(blockers.trailing_zeros() as u8)
    } else {
        Some(63 - blockers.leading_zeros() as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board8x8, Geometry, Square};

    #[test]
    fn tables_agree_with_the_shared_board_tables() {
        let t = Board8x8::tables();
        for sq in 0..64usize {
            assert_eq!(KNIGHT[sq], t.knight[sq]);
            assert_eq!(KING[sq], t.king[sq]);
            assert_eq!(PAWN_ATTACKS[0][sq], t.pawn_attacks[0][sq]);
            assert_eq!(PAWN_ATTACKS[1][sq], t.pawn_attacks[1][sq]);
            for (ours, shared) in RAYS.iter().zip(&t.rays) {
                assert_eq!(ours[sq], shared[sq]);
            }
            for (b, &between) in BETWEEN[sq].iter().enumerate() {
                assert_eq!(between, t.between(Square(sq as u8), Square(b as u8)));
            }
        }
    }
}
