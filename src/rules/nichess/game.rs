//! Nichess behind the [`Game`] interface.
//!
//! The game has no check. The search's notion of check is mapped onto the nearest thing:
//! [`Game::in_check`] is true when the side to move's king is destroyed or can be destroyed by
//! the opponent's next action. A destroyed king leaves no actions, so the generic search scores
//! it as mate ("king destroyed in N plies"); a king in danger gets the search's check
//! treatment (extension, every action in quiescence, no null move), which the 10-HP king needs.

use super::moves::Move;
use super::position::{Nichess, MOVE_LIMIT};
use super::START_FEN;
use crate::board::Square;
use crate::rules::{Color, EndReason, Game, MoveList, RuleError};

impl Game for Nichess {
    type Move = Move;
    const VARIANT: &'static str = "nichess";
    const FILES: u8 = 8;
    const RANKS: u8 = 8;
    const START_FEN: &'static str = START_FEN;
    const MOVE_FORM: &'static str = "the from and to squares such as e2e4 (attacks and throws name the target's square; no promotion suffix)";
    /// No quiet-move rule: the game's length is bounded by its 333-ply limit instead.
    const QUIET_PLY_LIMIT: Option<u32> = None;
    /// The rules page: threefold repetition is a draw at once, an ending like the ply limit.
    const REPETITION_ENDS_GAME: bool = true;
    fn from_fen(fen: &str) -> Result<Nichess, RuleError> {
        Nichess::parse_fen(fen)
    }
    fn fen(&self) -> String {
        self.to_fen()
    }
    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.side
    }
    /// Plies since the last attack, throw or pawn move: no earlier position can come back,
    /// since health and pawns never go back.
    #[inline(always)]
    fn halfmove_clock(&self) -> u32 {
        self.reversible as u32
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }
    fn key_from_scratch(&self) -> u64 {
        Nichess::key_from_scratch(self)
    }
    #[inline]
    fn in_check(&self) -> bool {
        if self.ply >= MOVE_LIMIT {
            // The game is over: only a king already destroyed still counts.
            return self.king_destroyed(self.side);
        }
        self.king_in_danger(self.side)
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
        mv.is_hit() || mv.is_promotion()
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
        crate::rules::pawn_structure_key(
            self.pieces(Color::White, super::position::PieceKind::Pawn),
            self.pieces(Color::Black, super::position::PieceKind::Pawn),
        )
    }
    fn make_null(&mut self) {
        self.apply_null();
    }
    #[inline]
    fn has_non_pawn_material(&self) -> bool {
        self.has_pieces_beyond_pawns(self.side)
    }

    fn no_moves_reason(&self) -> EndReason {
        if self.king_destroyed(self.side) {
            EndReason::KingDestroyed
        } else if self.ply >= MOVE_LIMIT {
            EndReason::MoveLimit
        } else {
            EndReason::Stalemate
        }
    }
    /// A finished game refuses every action, and says why.
    fn why_illegal(&self, _text: &str, legal: &MoveList<Move>) -> Option<String> {
        if !legal.is_empty() {
            return None;
        }
        Some(if self.king_destroyed(self.side) {
            format!(
                "the game is over: the {} king was destroyed",
                self.side.name()
            )
        } else if self.ply >= MOVE_LIMIT {
            format!("the game is over: all {MOVE_LIMIT} plies of the move limit have been played (a draw)")
        } else {
            format!("{} has no action (stalemate)", self.side.name())
        })
    }
    fn draw_by_rule(&self) -> Option<EndReason> {
        // A king destroyed on the last ply still decides the game.
        (self.ply >= MOVE_LIMIT && !self.king_destroyed(self.side)).then_some(EndReason::MoveLimit)
    }
    fn board_text(&self) -> String {
        self.diagram()
    }

    /// Counts the last ply's actions without listing them.
    fn count_moves(&self) -> u64 {
        self.count_actions()
    }
}

impl std::fmt::Debug for Nichess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Nichess({})", self.to_fen())
    }
}
