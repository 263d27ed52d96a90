//! Millennium chess behind the [`Game`] interface.

use super::moves::Move;
use super::position::{Millennium, FILES};
use super::START_FEN;
use crate::board::{Bitboard, Board15x8, Geometry, Square};
use crate::rules::chess::PieceKind;
use crate::rules::{Color, Game, MoveList, RuleError};

impl Game for Millennium {
    type Move = Move;
    const VARIANT: &'static str = "millennium";
    const FILES: u8 = FILES;
    const RANKS: u8 = 8;
    const START_FEN: &'static str = START_FEN;
    const MOVE_SUFFIXES: &'static [&'static str] = &["", "n", "b", "r", "q"];
    const MOVE_FORM: &'static str =
        "long algebraic notation with files a to o, such as o2o4, e1c1 or h7h8r";
    const QUIET_PLY_LIMIT: Option<u32> = Some(100);
    fn from_fen(fen: &str) -> Result<Millennium, RuleError> {
        Millennium::parse_fen(fen)
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
        self.halfmove
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }
    fn key_from_scratch(&self) -> u64 {
        Millennium::key_from_scratch(self)
    }
    /// Only a side down to its last king can be in check.
    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checkers.any()
    }
    #[inline]
    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        self.generate::<false, _>(moves);
    }
    #[inline]
    fn generate_tactical(&self, moves: &mut MoveList<Move>) {
        self.generate::<true, _>(moves);
    }
    #[inline(always)]
    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture() || mv.is_promotion()
    }
    #[inline(always)]
    fn make(&mut self, mv: Move) {
        self.apply(mv);
    }
    #[inline(always)]
    fn piece_code(&self, sq: Square) -> u8 {
        self.code_at(sq)
    }
    #[inline(always)]
    fn pawn_key(&self) -> u64 {
        let fold = |pawns: u128| (pawns as u64) ^ ((pawns >> 64) as u64).rotate_left(17);
        crate::rules::pawn_structure_key(
            fold(self.pieces(Color::White, PieceKind::Pawn)),
            fold(self.pieces(Color::Black, PieceKind::Pawn)),
        )
    }
    fn make_null(&mut self) {
        self.apply_null();
    }
    #[inline]
    fn has_non_pawn_material(&self) -> bool {
        self.has_pieces_beyond_pawns(self.side)
    }

    /// A pawn move onto the last rank that the pool cannot pay for deserves its own reason.
    fn why_illegal(&self, text: &str, legal: &MoveList<Move>) -> Option<String> {
        self.promotion_refusal(text, legal)
    }
    /// Bulk counting at the last ply, without listing the moves.
    fn count_moves(&self) -> u64 {
        self.count_legal()
    }
    fn no_mating_material(&self) -> bool {
        self.insufficient_material()
    }
    fn board_text(&self) -> String {
        self.diagram()
    }
}

impl Millennium {
    /// Why a pawn move onto the last rank written as `text` is refused, when the pool is why.
    fn promotion_refusal(&self, text: &str, legal: &MoveList<Move>) -> Option<String> {
        let from = Board15x8::parse_square(&text[..2])?;
        let to = Board15x8::parse_square(&text[2..4])?;
        let own_pawn = self
            .piece_at(from)
            .is_some_and(|p| p.kind == PieceKind::Pawn && p.color == self.side);
        let last_rank = match self.side {
            Color::White => 7,
            Color::Black => 0,
        };
        if !own_pawn || Board15x8::rank_of(to) != last_rank {
            return None;
        }
        if self.pool_is_empty(self.side) {
            return Some(format!(
                "{} has no captured piece to reinstate, so its pawns may not move onto the last rank",
                self.side.name()
            ));
        }
        let choices: Vec<String> = legal
            .iter()
            .filter(|m| m.from() == from && m.to() == to && m.is_promotion())
            .map(|m| m.promotion_kind().letter().to_string())
            .collect();
        if choices.is_empty() {
            return None;
        }
        Some(format!(
            "a pawn is exchanged only for a captured piece of its side; here one of: {}",
            choices.join(" ")
        ))
    }
}

impl std::fmt::Debug for Millennium {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Millennium({})", self.to_fen())
    }
}
