//! Millennium chess behind the [`Game`] interface.

use super::moves::Move;
use super::position::{Millennium, FILES};
use super::START_FEN;
use crate::board::{Bitboard, Board15x8, Geometry};
use crate::rules::chess::PieceKind;
use crate::rules::{parse_move_squares, Color, EndReason, Game, MoveList, RuleError};

impl Game for Millennium {
    type Move = Move;
    const VARIANT: &'static str = "millennium";
    const FILES: u8 = FILES;
    const RANKS: u8 = 8;

    fn startpos() -> Millennium {
        Millennium::parse_fen(START_FEN).expect("the start FEN is valid")
    }
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
        self.halfmove as u32
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
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
    fn play(&self, mv: Move) -> Millennium {
        let mut next = self.clone();
        next.apply(mv);
        next
    }
    fn play_null(&self) -> Option<Millennium> {
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
        let syntax_ok = parse_move_squares(text, 15, 8)
            .is_some_and(|(_, _, rest)| matches!(rest, "" | "n" | "b" | "r" | "q"));
        if !syntax_ok {
            return Err(RuleError::new(format!(
                "'{text}' is not a move: expected long algebraic notation with files a to o, such as o2o4, e1c1 or h7h8r"
            )));
        }
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        if let Some(&mv) = moves.iter().find(|m| m.text() == text) {
            return Ok(mv);
        }
        // A pawn move onto the last rank that the pool cannot pay for deserves its own reason.
        if let Some(why) = self.promotion_refusal(text, &moves) {
            return Err(RuleError::new(format!(
                "'{text}' is not a legal move in {}: {why}",
                self.fen()
            )));
        }
        Err(RuleError::new(format!(
            "'{text}' is not a legal move in {}",
            self.fen()
        )))
    }
    /// Bulk counting at the last ply, without listing the moves.
    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => {
                let mut moves = MoveList::new();
                self.generate_moves(&mut moves);
                moves.iter().map(|&mv| self.play(mv).perft(depth - 1)).sum()
            }
        }
    }
    fn move_text(&self, mv: Move) -> String {
        mv.text()
    }
    #[inline(always)]
    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() * 128 + mv.to().index()
    }
    /// Checkmate needs a last king in check; a side with two kings and no move is stalemated.
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
