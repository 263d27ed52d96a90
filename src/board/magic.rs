//! Magic-bitboard slider attacks for the 8x8 `u64` board.
//!
//! The magic numbers are stored (found once by `find_magic`), and the lookup tables are built
//! from them at compile time into a static: a magic that did not fit would stop the build. The
//! lookups are checked against the generic ray code in tests.

use super::build::ray_until;
use super::{Square, DIAGONAL_RAYS, ORTHOGONAL_RAYS, RAY_STEPS};

#[derive(Clone, Copy)]
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
    table: [u64; TABLE_SIZE],
}

impl Magics {
    #[inline(always)]
    pub fn rook(&self, sq: Square, occupied: u64) -> u64 {
        let index = self.rook[sq.index()].index(occupied);
        // SAFETY: `build` gave each square `1 << mask bits` slots from its offset, and
        // `TABLE_SIZE` is their sum, so every index a mask subset can produce,
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

/// The magic tables, built at compile time (about 100,000 slots, a few seconds of the build:
/// longer than the compiler's patience by default).
#[allow(long_running_const_eval)]
static MAGICS: Magics = build();

#[inline(always)]
pub fn magics() -> &'static Magics {
    &MAGICS
}

/// The relevant blockers of a slider on `sq` along `rays` (each ray without its last square:
/// nothing lies beyond the edge).
const fn slider_mask(sq: usize, rays: [usize; 4]) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < 4 {
        let d = rays[i];
        let ray = ray_until(8, 8, sq, RAY_STEPS[d], 0) as u64;
        let edge = if ray == 0 {
            0
        } else if d < 4 {
            1u64 << (63 - ray.leading_zeros())
        } else {
            1u64 << ray.trailing_zeros()
        };
        mask |= ray & !edge;
        i += 1;
    }
    mask
}

/// What a slider on `sq` attacks along `rays` over `occupied`.
const fn slider_attacks(sq: usize, rays: [usize; 4], occupied: u64) -> u64 {
    let mut attacks = 0u64;
    let mut i = 0;
    while i < 4 {
        attacks |= ray_until(8, 8, sq, RAY_STEPS[rays[i]], occupied as u128) as u64;
        i += 1;
    }
    attacks
}

/// The slots of every square's rook and bishop lookups together.
const fn table_size() -> usize {
    let mut size = 0;
    let mut sq = 0;
    while sq < 64 {
        size += 1 << slider_mask(sq, ORTHOGONAL_RAYS).count_ones();
        size += 1 << slider_mask(sq, DIAGONAL_RAYS).count_ones();
        sq += 1;
    }
    size
}

const TABLE_SIZE: usize = table_size();

/// Fills the table from the stored magic numbers, every subset of every mask by the
/// carry-rippler trick; a collision of two different attack sets stops the build.
const fn build() -> Magics {
    let empty = Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    };
    let mut magics = Magics {
        rook: [empty; 64],
        bishop: [empty; 64],
        table: [0; TABLE_SIZE],
    };
    let mut offset = 0usize;
    let mut kind = 0;
    while kind < 2 {
        let (rays, known) = if kind == 0 {
            (ORTHOGONAL_RAYS, &ROOK_MAGICS)
        } else {
            (DIAGONAL_RAYS, &BISHOP_MAGICS)
        };
        let mut sq = 0;
        while sq < 64 {
            let mask = slider_mask(sq, rays);
            let shift = 64 - mask.count_ones();
            let magic = Magic {
                mask,
                magic: known[sq],
                shift,
                offset: offset as u32,
            };
            let mut subset = 0u64;
            loop {
                let slot = offset + (subset.wrapping_mul(known[sq]) >> shift) as usize;
                let attacks = slider_attacks(sq, rays, subset);
                // Every slider attacks at least one square, so 0 marks a free slot.
                assert!(
                    magics.table[slot] == 0 || magics.table[slot] == attacks,
                    "a stored magic number does not fit"
                );
                magics.table[slot] = attacks;
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            if kind == 0 {
                magics.rook[sq] = magic;
            } else {
                magics.bishop[sq] = magic;
            }
            offset += 1 << (64 - shift);
            sq += 1;
        }
        kind += 1;
    }
    magics
}

const ROOK_MAGICS: [u64; 64] = [
    0x1080_0040_0880_1020,
    0x0840_0920_02C0_3000,
    0x1900_2000_1040_0900,
    0x0880_1000_0800_0480,
    0x4200_1004_2008_0200,
    0x8100_0201_0008_0400,
    0x0200_0401_1088_6200,
    0x0200_0080_4022_0411,
    0x0404_8000_8440_0220,
    0x0000_4010_0040_2000,
    0x0086_0010_8122_0440,
    0x0408_8008_0010_0280,
    0x000A_0012_0104_0820,
    0x8848_8002_0084_0080,
    0x4001_0001_0004_0200,
    0x0442_0001_0210_5084,
    0x9080_0100_2080_4100,
    0x0040_4040_0020_1009,
    0x0000_8080_1000_2009,
    0x2200_0900_21D0_0100,
    0x0008_0080_0804_0080,
    0x0004_0040_0201_0040,
    0x0011_0400_0801_5042,
    0x0000_0A00_0176_8104,
    0x0000_8000_8020_4009,
    0x2010_0041_4000_2001,
    0x9800_2002_8010_0080,
    0x1000_1000_8008_0080,
    0x0442_000A_0004_9020,
    0x2100_0400_8002_0080,
    0x0800_1204_0090_0148,
    0x0010_040A_0012_8541,
    0x2800_8040_0080_0030,
    0x1010_0020_0040_0041,
    0x4000_2000_1100_4100,
    0x0610_0084_1080_0800,
    0x0400_8024_0280_0800,
    0xC100_0200_8080_0400,
    0x0002_0008_0200_0401,
    0x0182_0858_8200_0401,
    0x0220_2040_0080_8000,
    0x2860_1000_4002_4022,
    0x0001_0020_0411_0040,
    0x9910_1042_000A_0020,
    0x0004_0800_0400_8080,
    0x0010_0400_0200_8080,
    0x2012_0048_8102_0004,
    0x8300_8424_4482_0011,
    0x0088_4038_8201_0200,
    0x0820_4000_8021_0100,
    0x0110_9100_40A0_0300,
    0x0801_1002_8008_0480,
    0x0242_0090_0820_0600,
    0x1002_0004_8950_0200,
    0x0040_8002_0001_0080,
    0x0091_8000_4100_0080,
    0x0000_2093_0048_8001,
    0x04C1_0024_1482_4001,
    0x0200_2000_0B00_1041,
    0x7000_1000_0420_0901,
    0x8002_0020_0410_0802,
    0x3001_0002_084C_0007,
    0x0888_2218_0081_3004,
    0x4000_0028_4084_0112,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xA010_0411_0800_3100,
    0x0060_8202_0A00_2900,
    0x6810_0106_1920_0000,
    0x0828_1A05_2000_0408,
    0x0001_1040_0100_0400,
    0x0018_9010_0804_8400,
    0x0004_0A02_1024_5280,
    0x0002_0021_0808_A402,
    0x9140_0484_1082_1200,
    0x0800_0910_1082_0041,
    0x2050_4804_8322_02C0,
    0x0100_0914_0108_1000,
    0x8021_0111_4000_0012,
    0x0810_0208_0445_0400,
    0x208B_0542_1090_08A2,
    0x0080_084A_0804_0204,
    0x0040_E2A8_0811_244C,
    0x2505_0220_0800_8108,
    0x0430_2201_0042_0040,
    0x010A_0404_2022_0040,
    0x1105_0002_9040_0000,
    0x0093_0012_0082_2120,
    0x4000_A620_4804_3004,
    0x2801_2004_8A01_5004,
    0x0060_9000_2A02_0814,
    0x4404_2000_2408_00D0,
    0x0110_2800_040A_4400,
    0x1004_0800_8022_0040,
    0x0001_0010_1100_4024,
    0x0010_0440_0080_5040,
    0x0914_0412_0082_0100,
    0x0004_8210_1282_1480,
    0x0024_0405_00C0_5021,
    0x0088_6110_0208_0200,
    0x0116_080A_0004_0020,
    0x4000_0200_8008_0080,
    0x2450_4501_4084_0040,
    0x0000_8802_0148_4100,
    0x0222_0204_0402_0092,
    0x8081_1106_0000_2E00,
    0x2842_1011_0500_0801,
    0x1100_8090_0800_1025,
    0x0002_0202_221C_0400,
    0x0422_0140_2200_9020,
    0x0210_0461_0210_0C00,
    0xC004_0080_8202_9102,
    0x00AA_4618_0110_1200,
    0x0404_0800_8020_1108,
    0x0205_4210_8C20_5002,
    0x0410_5448_0410_0100,
    0x0040_9108_4110_0000,
    0x0400_2000_4202_1100,
    0x0000_4204_8504_00C0,
    0x0200_1004_10A4_2102,
    0x1040_0208_0121_0102,
    0x0805_0404_1042_0000,
    0x2884_8041_3010_0200,
    0x800C_2622_0124_2000,
    0x1058_0001_9410_8800,
    0x0014_2210_5442_0204,
    0x0104_0000_12A0_2200,
    0x0200_8810_0330_0100,
    0x0140_4002_0284_0100,
    0x0402_0208_0101_0201,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board8x8, Geometry};
    use crate::common::Rng;

    /// Relevant blockers of a slider on `sq` (each ray without its last square: nothing lies beyond
    /// the edge), and every subset of them with the attacks it leaves.
    pub(super) fn blockers_and_attacks(sq: Square, rays: [usize; 4]) -> (u64, Vec<(u64, u64)>) {
        let tables = Board8x8::tables();
        let mask = slider_mask(sq.index(), rays);
        // The attacks by the run-time table walk, not the const one the table is built with.
        let attacks = |occupied: u64| {
            rays.iter()
                .fold(0u64, |acc, &d| acc | tables.ray_attacks(sq, occupied, d))
        };
        // Every subset of the mask, by the carry-rippler trick.
        let mut subsets = Vec::with_capacity(1 << mask.count_ones());
        let mut subset = 0u64;
        loop {
            subsets.push((subset, attacks(subset)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        (mask, subsets)
    }

    /// True when `magic` maps every blocker subset to a slot without a harmful collision.
    pub(super) fn magic_fits(
        magic: u64,
        mask: u64,
        subsets: &[(u64, u64)],
        slots: &mut [Option<u64>],
    ) -> bool {
        let shift = 64 - mask.count_ones();
        slots.fill(None);
        subsets.iter().all(|&(occupied, attacks)| {
            let slot = &mut slots[(occupied.wrapping_mul(magic) >> shift) as usize];
            match *slot {
                None => {
                    *slot = Some(attacks);
                    true
                }
                Some(existing) => existing == attacks,
            }
        })
    }

    /// Searches random sparse numbers for a magic of this square.
    pub(super) fn find_magic(mask: u64, subsets: &[(u64, u64)], rng: &mut Rng) -> u64 {
        let mut slots = vec![None; 1 << mask.count_ones()];
        loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            if magic_fits(candidate, mask, subsets, &mut slots) {
                return candidate;
            }
        }
    }

    #[test]
    fn the_stored_magic_numbers_fit() {
        for (rays, known) in [
            (ORTHOGONAL_RAYS, &ROOK_MAGICS),
            (DIAGONAL_RAYS, &BISHOP_MAGICS),
        ] {
            for sq in 0..64u8 {
                let (mask, subsets) = blockers_and_attacks(Square(sq), rays);
                let mut slots = vec![None; 1 << mask.count_ones()];
                assert!(
                    magic_fits(known[sq as usize], mask, &subsets, &mut slots),
                    "{sq}"
                );
            }
        }
    }

    /// Prints freshly searched magic numbers (run with --ignored --nocapture to renew them).
    #[test]
    #[ignore]
    fn print_magic_numbers() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for rays in [ORTHOGONAL_RAYS, DIAGONAL_RAYS] {
            let numbers: Vec<String> = (0..64u8)
                .map(|sq| {
                    let (mask, subsets) = blockers_and_attacks(Square(sq), rays);
                    format!("0x{:016X}", find_magic(mask, &subsets, &mut rng))
                })
                .collect();
            println!("[{}]", numbers.join(", "));
        }
    }

    #[test]
    fn magic_lookups_agree_with_ray_walks() {
        let tables = Board8x8::tables();
        let magics = magics();
        let mut rng = Rng::new(12345);
        for _ in 0..2000 {
            let occupied = rng.next_u64() & rng.next_u64();
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
