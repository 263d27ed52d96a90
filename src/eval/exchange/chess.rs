//! The exchange measure of chess: the bitboard swap with a royal king.

use super::swap::{chess_like_see_ge, ChessLikeMove, SwapBoard, ROYAL};
use super::Exchange;
use crate::board::Square;
use crate::rules::chess::{Chess, Move, PieceKind};
use crate::rules::Color;

impl SwapBoard for Chess {
    type Bits = u64;
    #[inline(always)]
    fn color_bits(&self, color: Color) -> u64 {
        self.color_bb(color)
    }
    #[inline(always)]
    fn kind_bits(&self, kind: usize) -> u64 {
        self.kind_bb(PieceKind::ALL[kind])
    }
    #[inline(always)]
    fn occupied_bits(&self) -> u64 {
        self.occupied()
    }
    #[inline(always)]
    fn attackers(&self, sq: Square, occupied: u64) -> u64 {
        self.attackers_to(sq, occupied)
    }
    #[inline(always)]
    fn occupant(&self, sq: Square) -> Option<(usize, Color)> {
        self.piece_at(sq).map(|p| (p.kind.index(), p.color))
    }
    #[inline(always)]
    fn king_value(&self, _color: Color) -> i32 {
        ROYAL
    }
}

impl Exchange for Chess {
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
