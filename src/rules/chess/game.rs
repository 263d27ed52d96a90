//! Standard chess behind the [`Game`] interface.

use super::moves::Move;
use super::position::{Chess, PieceKind};
use super::START_FEN;
use crate::board::Bitboard;
use crate::rules::{parse_move_squares, Color, EndReason, Game, MoveList, RuleError};

impl Game for Chess {
    type Move = Move;
    const VARIANT: &'static str = "chess";
    const FILES: u8 = 8;
    const RANKS: u8 = 8;

    fn startpos() -> Chess {
        Chess::parse_fen(START_FEN).expect("the start FEN is valid")
    }
    fn from_fen(fen: &str) -> Result<Chess, RuleError> {
        Chess::parse_fen(fen)
    }
    fn fen(&self) -> String {
        self.to_fen()
    }
    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checkers.any()
    }
    #[inline]
    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        self.generate::<false>(moves);
    }
    #[inline]
    fn generate_tactical(&self, moves: &mut MoveList<Move>) {
        self.generate::<true>(moves);
    }
    #[inline(always)]
    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture() || mv.is_promotion()
    }
    #[inline(always)]
    fn play(&self, mv: Move) -> Chess {
        let mut next = self.clone();
        next.apply(mv);
        next
    }
    fn play_null(&self) -> Option<Chess> {
        if self.in_check() {
            return None;
        }
        let mut next = self.clone();
        next.apply_null();
        Some(next)
    }
    #[inline]
    fn has_non_pawn_material(&self) -> bool {
        let us = self.color_bb(self.side);
        (us & !(self.kind_bb(PieceKind::Pawn) | self.kind_bb(PieceKind::King))).any()
    }

    fn parse_move(&self, text: &str) -> Result<Move, RuleError> {
        let syntax_ok = parse_move_squares(text, 8, 8)
            .is_some_and(|(_, _, rest)| matches!(rest, "" | "n" | "b" | "r" | "q"));
        if !syntax_ok {
            return Err(RuleError::new(format!(
                "'{text}' is not a move: expected long algebraic notation such as e2e4 or e7e8q"
            )));
        }
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|m| m.text() == text)
            .ok_or_else(|| {
                RuleError::new(format!("'{text}' is not a legal move in {}", self.fen()))
            })
    }
    fn move_text(&self, mv: Move) -> String {
        mv.text()
    }
    #[inline(always)]
    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() * 128 + mv.to().index()
    }
    fn no_moves_reason(&self) -> EndReason {
        if self.in_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        }
    }
    fn draw_by_rule(&self) -> Option<EndReason> {
        if self.halfmove >= 100 {
            Some(EndReason::FiftyMoves)
        } else if self.insufficient_material() {
            Some(EndReason::InsufficientMaterial)
        } else {
            None
        }
    }
    fn board_text(&self) -> String {
        self.diagram()
    }
}

impl std::fmt::Debug for Chess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Chess({})", self.to_fen())
    }
}
