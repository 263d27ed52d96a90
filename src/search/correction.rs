//! Correction history: how far the static evaluation has been off, per side to move and pawn
//! structure (and, in games that give [`Game::piece_keys`], per placement of each side's other
//! pieces), learnt from the searches' results and added to later evaluations.

use crate::rules::{Color, Game};

/// Entries per side to move in each table (a power of two; a key's low bits pick one).
const ENTRIES: usize = 16_384;
/// Corrections are kept in 1/GRAIN centipawns, for a smooth running average.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 96;

/// The keys a position's corrections are found by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    pub pawns: u64,
    /// White's pieces other than pawns, then Black's.
    pub pieces: Option<[u64; 2]>,
}

impl CorrectionKeys {
    #[inline(always)]
    pub fn of<G: Game>(pos: &G) -> CorrectionKeys {
        CorrectionKeys {
            pawns: pos.pawn_key(),
            pieces: pos.piece_keys(),
        }
    }
}

pub struct Correction {
    /// By side to move and pawn key.
    pawns: Vec<i32>,
    /// By side to move, the colour whose pieces the key hashes, and that key.
    pieces: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            pawns: vec![0; 2 * ENTRIES],
            pieces: vec![0; 4 * ENTRIES],
        }
    }
}

#[inline(always)]
fn index(side: Color, key: u64) -> usize {
    side.index() * ENTRIES + (key as usize & (ENTRIES - 1))
}

#[inline(always)]
fn piece_index(side: Color, owner: usize, key: u64) -> usize {
    (side.index() * 2 + owner) * ENTRIES + (key as usize & (ENTRIES - 1))
}

/// Moves `entry` towards `target` (in 1/GRAIN centipawns) by `weight`/256.
#[inline(always)]
fn blend(entry: &mut i32, target: i32, weight: i32) {
    *entry = (*entry * (256 - weight) + target * weight) / 256;
}

impl Correction {
    /// Forgets everything learnt, in place: the tables keep their memory.
    pub fn clear(&mut self) {
        self.pawns.fill(0);
        self.pieces.fill(0);
    }

    /// The correction of a raw evaluation for `side` to move in a position with these keys:
    /// the pawn table's alone, or with piece keys half the pawn table's and a quarter each
    /// side's pieces' (each table learns the same error, so a position all three know well
    /// gets that error back).
    #[inline(always)]
    pub fn get(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let pawns = self.pawns[index(side, keys.pawns)];
        match keys.pieces {
            None => pawns / GRAIN,
            Some([white, black]) => {
                let pieces = self.pieces[piece_index(side, 0, white)]
                    + self.pieces[piece_index(side, 1, black)];
                (2 * pawns + pieces) / (4 * GRAIN)
            }
        }
    }

    /// Moves the entries of these keys towards `error` (the searched score less the raw
    /// evaluation), the more the deeper the search that found it.
    pub fn learn(&mut self, side: Color, keys: CorrectionKeys, error: i32, depth: i32) {
        let weight = (depth + 1).min(16);
        let target = error.clamp(-LIMIT, LIMIT) * GRAIN;
        blend(&mut self.pawns[index(side, keys.pawns)], target, weight);
        if let Some([white, black]) = keys.pieces {
            blend(
                &mut self.pieces[piece_index(side, 0, white)],
                target,
                weight,
            );
            blend(
                &mut self.pieces[piece_index(side, 1, black)],
                target,
                weight,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAWNS_ONLY: CorrectionKeys = CorrectionKeys {
        pawns: 7,
        pieces: None,
    };

    #[test]
    fn a_repeated_error_is_learnt_and_bounded() {
        let mut correction = Correction::default();
        for _ in 0..200 {
            correction.learn(Color::White, PAWNS_ONLY, 40, 15);
        }
        assert!((38..=40).contains(&correction.get(Color::White, PAWNS_ONLY)));
        assert_eq!(correction.get(Color::Black, PAWNS_ONLY), 0);
        for _ in 0..200 {
            correction.learn(Color::White, PAWNS_ONLY, -1000, 15);
        }
        assert!((-LIMIT..=-LIMIT + 2).contains(&correction.get(Color::White, PAWNS_ONLY)));
    }

    #[test]
    fn piece_tables_share_what_one_placement_taught() {
        let mut correction = Correction::default();
        let taught = CorrectionKeys {
            pawns: 1,
            pieces: Some([2, 3]),
        };
        for _ in 0..200 {
            correction.learn(Color::Black, taught, 60, 15);
        }
        // All three tables know the position: the whole error comes back.
        assert!((57..=60).contains(&correction.get(Color::Black, taught)));
        // Another pawn structure with White's pieces where they were: a quarter of it.
        let same_white = CorrectionKeys {
            pawns: 9,
            pieces: Some([2, 11]),
        };
        assert!((14..=15).contains(&correction.get(Color::Black, same_white)));
        // Nothing learnt for White to move.
        assert_eq!(correction.get(Color::White, taught), 0);
    }
}
