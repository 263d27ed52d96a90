//! Magic-bitboard slider attacks for the 8x8 `u64` board.
//!
//! The magic numbers are searched for at start-up with a fixed seed (a few milliseconds), so
//! every run builds the same tables; they are checked against the generic ray code in tests.

use super::{Bitboard, Board8x8, Geometry, Square, DIAGONAL_RAYS, ORTHOGONAL_RAYS};
use std::sync::OnceLock;

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occupied: u64) -> usize {
        self.offset as usize
            + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Rook and bishop attack lookups for every square of an 8x8 board.
pub struct Magics {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
}

impl Magics {
    #[inline(always)]
    pub fn rook(&self, sq: Square, occupied: u64) -> u64 {
        let index = self.rook[sq.index()].index(occupied);
        // SAFETY: `build` sized `table` so that every index a mask subset can produce,
        // `offset + (subset * magic >> shift)` with `shift = 64 - mask bits`, is inside it.
        unsafe { *self.table.get_unchecked(index) }
    }

    #[inline(always)]
    pub fn bishop(&self, sq: Square, occupied: u64) -> u64 {
        let index = self.bishop[sq.index()].index(occupied);
        // SAFETY: as in `rook`.
        unsafe { *self.table.get_unchecked(index) }
    }

    #[inline(always)]
    pub fn queen(&self, sq: Square, occupied: u64) -> u64 {
        self.rook(sq, occupied) | self.bishop(sq, occupied)
    }
}

/// The process-wide magic tables, built on first use.
#[inline(always)]
pub fn magics() -> &'static Magics {
    static MAGICS: OnceLock<Magics> = OnceLock::new();
    MAGICS.get_or_init(build)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: small, fast and fixed, so the tables are the same on every run.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn build() -> Magics {
    let tables = Board8x8::tables();
    let mut table = Vec::with_capacity(110_000);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut rook = [Magic::default(); 64];
    let mut bishop = [Magic::default(); 64];
    for (magics, rays) in [(&mut rook, ORTHOGONAL_RAYS), (&mut bishop, DIAGONAL_RAYS)] {
        for sq in 0..64u8 {
            let sq = Square(sq);
            // Relevant blockers: each ray without its last square (nothing lies beyond the edge).
            let mask = rays.iter().fold(0u64, |acc, &d| {
                let ray = tables.rays[d][sq.index()];
                let edge = if ray == 0 {
                    0
                } else if d < 4 {
                    1u64 << ray.msb().0
                } else {
                    1u64 << ray.lsb().0
                };
                acc | (ray & !edge)
            });
            let attacks = |occupied: u64| {
                rays.iter()
                    .fold(0u64, |acc, &d| acc | tables.ray_attacks(sq, occupied, d))
            };
            // Every subset of the mask, by the carry-rippler trick.
            let mut subsets = Vec::new();
            let mut subset = 0u64;
            loop {
                subsets.push((subset, attacks(subset)));
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            let bits = mask.count_ones();
            let size = 1usize << bits;
            let shift = 64 - bits;
            let mut slots = vec![0u64; size];
            let mut used = vec![u32::MAX; size];
            let mut attempt = 0u32;
            let magic = loop {
                attempt += 1;
                let candidate = rng.sparse();
                if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                    continue;
                }
                let fits = subsets.iter().all(|&(occupied, att)| {
                    let i = (occupied.wrapping_mul(candidate) >> shift) as usize;
                    if used[i] != attempt {
                        used[i] = attempt;
                        slots[i] = att;
                        true
                    } else {
                        slots[i] == att
                    }
                });
                if fits {
                    break candidate;
                }
            };
            magics[sq.index()] = Magic {
                mask,
                magic,
                shift,
                offset: table.len() as u32,
            };
            let start = table.len();
            table.resize(start + size, 0);
            for &(occupied, att) in &subsets {
                table[start + (occupied.wrapping_mul(magic) >> shift) as usize] = att;
            }
        }
    }
    Magics {
        rook,
        bishop,
        table,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_agree_with_ray_walks() {
        let tables = Board8x8::tables();
        let magics = magics();
        let mut rng = Rng(12345);
        for _ in 0..2000 {
            let occupied = rng.next() & rng.next();
            for sq in 0..64u8 {
                let sq = Square(sq);
                assert_eq!(magics.rook(sq, occupied), tables.rook_attacks(sq, occupied));
                assert_eq!(
                    magics.bishop(sq, occupied),
                    tables.bishop_attacks(sq, occupied)
                );
            }
        }
    }
}
