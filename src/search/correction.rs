//! Correction history: how far the static evaluation has been off, per side and pawn
//! structure, learnt from the searches' results and added to later evaluations.

use crate::rules::Color;

/// Entries per side (a power of two; the structure key picks one).
const ENTRIES: usize = 16_384;
/// Corrections are kept in 1/GRAIN centipawns, for a smooth running average.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 96;

pub struct Correction {
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: vec![0; 2 * ENTRIES],
        }
    }
}

#[inline(always)]
fn index(side: Color, key: u64) -> usize {
    side.index() * ENTRIES + (key as usize & (ENTRIES - 1))
}

impl Correction {
    /// The correction of a raw evaluation for `side` to move with this structure key.
    #[inline(always)]
    pub fn get(&self, side: Color, key: u64) -> i32 {
        self.table[index(side, key)] / GRAIN
    }

    /// Moves the entry towards `error` (the searched score less the raw evaluation), the
    /// more the deeper the search that found it.
    pub fn learn(&mut self, side: Color, key: u64, error: i32, depth: i32) {
        let entry = &mut self.table[index(side, key)];
        let weight = (depth + 1).min(16);
        let target = error.clamp(-LIMIT, LIMIT) * GRAIN;
        *entry = (*entry * (256 - weight) + target * weight) / 256;
    }
}
