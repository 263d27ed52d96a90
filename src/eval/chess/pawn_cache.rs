//! A search thread's cache of what pawns and kings alone decide of the evaluation (their
//! material and placement, pawn structure, passed pawns' king distances, shelter and storm):
//! the pawns rarely move, so most positions of a search find their structure here and skip
//! much of the evaluation's work.
//! An entry holds the pawn sets, king squares and castling rights it was computed for and is
//! used only when all of them match, so the cache never changes a score.

use crate::rules::chess::{Chess, PieceKind};
use crate::rules::{Color, Game};

/// Entries (a power of two): 2,048 of 56 bytes, well inside a core's second-level cache, and
/// little to clear for each short search (datagen starts one a move).
const ENTRIES: usize = 1 << 11;

/// One side's share of what pawns and kings decide, before tapering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnKingTerms {
    pub mg: i32,
    pub eg: i32,
    /// The square in front of each passed pawn below the last rank but one.
    pub passer_fronts: u64,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    /// White's and Black's pawns.
    pawns: [u64; 2],
    /// White's and Black's king squares.
    kings: [u8; 2],
    castling: u8,
    filled: bool,
    /// White's and Black's terms.
    terms: [PawnKingTerms; 2],
}

/// The cache; empty until first used, so that a thread that never evaluates chess pays
/// nothing.
#[derive(Default)]
pub struct PawnCache {
    entries: Vec<Entry>,
}

impl PawnCache {
    /// `pos`'s terms (White's, Black's), from the cache or from `compute`, which is then kept.
    #[inline]
    pub fn terms(
        &mut self,
        pos: &Chess,
        compute: impl FnOnce() -> [PawnKingTerms; 2],
    ) -> [PawnKingTerms; 2] {
        if self.entries.is_empty() {
            self.entries = vec![Entry::default(); ENTRIES];
        }
        let pawns = [
            pos.pieces(Color::White, PieceKind::Pawn),
            pos.pieces(Color::Black, PieceKind::Pawn),
        ];
        let kings = [
            pos.king_square(Color::White).0,
            pos.king_square(Color::Black).0,
        ];
        let castling = pos.castling_rights();
        // The pawn key is already well mixed; the kings move the index by odd multiples.
        let key = pos.pawn_key()
            ^ u64::from(kings[0]).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(kings[1]).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let entry = &mut self.entries[(key >> 53) as usize & (ENTRIES - 1)];
        if entry.filled
            && entry.pawns == pawns
            && entry.kings == kings
            && entry.castling == castling
        {
            return entry.terms;
        }
        let terms = compute();
        *entry = Entry {
            pawns,
            kings,
            castling,
            filled: true,
            terms,
        };
        terms
    }
}
