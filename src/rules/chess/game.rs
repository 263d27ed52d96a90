//! Standard chess behind the [`Game`] interface.

use super::moves::Move;
use super::position::Chess;
use super::START_FEN;
use crate::board::{Bitboard, Square};
use crate::rules::{Color, Game, MoveList, RuleError};

impl Game for Chess {
    type Move = Move;
    const VARIANT: &'static str = "chess";
    const FILES: u8 = 8;
    const RANKS: u8 = 8;
    const START_FEN: &'static str = START_FEN;
    const MOVE_SUFFIXES: &'static [&'static str] = &["", "n", "b", "r", "q"];
    const MOVE_FORM: &'static str = "long algebraic notation such as e2e4 or e7e8q";
    const QUIET_PLY_LIMIT: Option<u32> = Some(100);
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
        self.halfmove
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }
    fn key_from_scratch(&self) -> u64 {
        Chess::key_from_scratch(self)
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
    fn likely_key_after(&self, mv: Move) -> Option<u64> {
        Some(self.likely_key_after(mv))
    }
    #[inline]
    fn gives_check(&self, mv: Move) -> bool {
        self.move_gives_check(mv)
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
            self.pieces(Color::White, crate::rules::chess::PieceKind::Pawn),
            self.pieces(Color::Black, crate::rules::chess::PieceKind::Pawn),
        )
    }
    #[inline(always)]
    fn piece_keys(&self) -> Option<[u64; 2]> {
        use crate::rules::chess::PieceKind;
        let key = |color| {
            crate::rules::structure_key(
                [
                    PieceKind::Knight,
                    PieceKind::Bishop,
                    PieceKind::Rook,
                    PieceKind::Queen,
                    PieceKind::King,
                ]
                .map(|kind| self.pieces(color, kind)),
            )
        };
        Some([key(Color::White), key(Color::Black)])
    }
    fn make_null(&mut self) {
        self.apply_null();
    }
    #[inline]
    fn has_non_pawn_material(&self) -> bool {
        self.has_pieces_beyond_pawns(self.side)
    }

    fn no_mating_material(&self) -> bool {
        self.insufficient_material()
    }
    fn board_text(&self) -> String {
        self.diagram()
    }
    /// A position whose castling pieces stand off the standard squares keeps king-takes-rook,
    /// the only unambiguous form there.
    fn set_chess960(&mut self, on: bool) {
        self.chess960 = on || !self.has_standard_castling();
    }
    fn move_text(&self, mv: Move) -> String {
        if mv.is_castle() && self.chess960 {
            self.king_takes_rook_text(mv)
        } else {
            mv.text()
        }
    }
    fn other_move_text(&self, mv: Move) -> Option<String> {
        mv.is_castle().then(|| {
            if self.chess960 {
                mv.text()
            } else {
                self.king_takes_rook_text(mv)
            }
        })
    }
}

impl Chess {
    /// Castling written as the king taking its own rook: `e1h1`, `b8a8`.
    fn king_takes_rook_text(&self, mv: Move) -> String {
        let (from, rook) = self.king_takes_rook_squares(mv);
        format!("{}{}", from.name(8), rook.name(8))
    }
    /// The king's square and its rook's, for a castling move: the squares of its
    /// king-takes-rook text.
    pub fn king_takes_rook_squares(&self, mv: Move) -> (Square, Square) {
        (mv.from(), self.castling_rook_move(self.side, mv.to()).0)
    }
}

impl std::fmt::Debug for Chess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Chess({})", self.to_fen())
    }
}
