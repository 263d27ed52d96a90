//! The exchange measure of Millennium chess: the bitboard swap, where a side's king is royal
//! only once it has lost its keystone king; before that a king is a piece worth a keystone.

use super::swap::{chess_like_see_ge, ChessLikeMove, SwapBoard, ROYAL};
use super::Exchange;
use crate::board::Square;
use crate::rules::chess::PieceKind;
use crate::rules::millennium::{Millennium, Move};
use crate::rules::Color;

/// A king a side can lose without losing the game, as an exchange value (about the evaluation's
/// keystone term: more than a rook, less than a queen).
const KEYSTONE_VALUE: i32 = 650;

impl SwapBoard for Millennium {
    type Bits = u128;
    #[inline(always)]
    fn color_bits(&self, color: Color) -> u128 {
        self.color_bb(color)
    }
    #[inline(always)]
    fn kind_bits(&self, kind: usize) -> u128 {
        self.kind_bb(PieceKind::ALL[kind])
    }
    #[inline(always)]
    fn occupied_bits(&self) -> u128 {
        self.occupied()
    }
    #[inline(always)]
    fn attackers(&self, sq: Square, occupied: u128) -> u128 {
        self.attackers_to(sq, occupied)
    }
    #[inline(always)]
    fn occupant(&self, sq: Square) -> Option<(usize, Color)> {
        self.piece_at(sq).map(|p| (p.kind.index(), p.color))
    }
    #[inline(always)]
    fn king_value(&self, color: Color) -> i32 {
        if self.has_one_king(color) {
            ROYAL
        } else {
            KEYSTONE_VALUE
        }
    }
}

impl Exchange for Millennium {
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        let facts = ChessLikeMove {
            from: mv.from(),
            to: mv.to(),
            special: mv.is_castle() || mv.is_en_passant(),
            en_passant: mv.is_en_passant(),
            promotion: mv.is_promotion().then(|| mv.promotion_index()),
        };
        chess_like_see_ge(self, self.side(), facts, threshold)
    }
}
