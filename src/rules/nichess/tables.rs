//! Attack tables of the 8x8 board built at compile time, so the hot paths index plain arrays.

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 8 && rank >= 0 && rank < 8
}

const fn leaper(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (f, r) = (file + steps[i].0, rank + steps[i].1);
            if on_board(f, r) {
                table[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// The ray directions, in the order of [`crate::board::RAY_STEPS`]: north, east, north-east,
/// north-west (raising the index), then south, west, south-west, south-east (lowering it).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];
pub const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];
pub const DIAGONAL: [usize; 4] = [2, 3, 6, 7];

const fn build_rays() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if !on_board(f, r) {
                    break;
                }
                rays[d][sq] |= 1u64 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    rays
}

const fn build_between() -> [[u64; 64]; 64] {
    let rays = build_rays();
    let mut between = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let mut ray = rays[d][a];
            while ray != 0 {
                let b = ray.trailing_zeros() as usize;
                ray &= ray - 1;
                between[a][b] = rays[d][a] & rays[(d + 4) % 8][b];
            }
            d += 1;
        }
        a += 1;
    }
    between
}

pub static KNIGHT: [u64; 64] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
pub static KING: [u64; 64] = leaper(&[
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
]);
/// The maenad's single orthogonal step.
pub static ORTHOGONAL_STEP: [u64; 64] = leaper(&[(0, 1), (1, 0), (0, -1), (-1, 0)]);
/// Squares a pawn of each colour (0 = White, 1 = Black) attacks.
pub static PAWN_ATTACKS: [[u64; 64]; 2] =
    [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];
/// `RAYS[direction][square]`: the squares from `square` to the edge, exclusive.
pub static RAYS: [[u64; 64]; 8] = build_rays();
/// `BETWEEN[a][b]`: the squares strictly between two squares on one line, else empty.
pub static BETWEEN: [[u64; 64]; 64] = build_between();

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
