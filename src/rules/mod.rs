//! The rules of each game, one module per game, behind one [`Game`] interface that the search,
//! the engine and the arena use.

pub mod chess;
pub mod fen;
pub mod millennium;
pub mod nichess;
mod record;
pub mod registry;
pub mod zobrist;

pub use record::{GameRecord, Outcome};

use crate::board::Square;
use std::fmt::{self, Debug};

/// The side to move. White moves first in every game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// A rule-level error: a malformed FEN, an unknown or illegal move. The text says what and where.
#[derive(Clone, PartialEq, Eq)]
pub struct RuleError(pub String);

impl RuleError {
    pub fn new(text: impl Into<String>) -> RuleError {
        RuleError(text.into())
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Debug for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RuleError({:?})", self.0)
    }
}

impl std::error::Error for RuleError {}

/// Room for every legal move of any position of any game we play.
pub const MAX_MOVES: usize = 512;
pub type MoveList<M> = arrayvec::ArrayVec<M, MAX_MOVES>;

/// Why a game ended, or what makes it drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// Nichess: the side to move's king was destroyed.
    KingDestroyed,
    /// A game's own limit on its length (Nichess: 333 plies).
    MoveLimit,
}

impl EndReason {
    pub const fn text(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "threefold repetition",
            EndReason::FiftyMoves => "50-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::KingDestroyed => "king destroyed",
            EndReason::MoveLimit => "move limit",
        }
    }
}

/// A turn-based game: positions, legal moves, and the rules that end a game.
///
/// Positions are values: [`Game::play`] returns the position after a move (copy-make), which
/// keeps the search free of unmake bookkeeping and is as fast as make/unmake for small boards.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    type Move: PackedMove;

    /// The `UCI_Variant` name.
    const VARIANT: &'static str;
    const FILES: u8;
    const RANKS: u8;

    fn startpos() -> Self;
    fn from_fen(fen: &str) -> Result<Self, RuleError>;
    fn fen(&self) -> String;
    fn side_to_move(&self) -> Color;
    /// Plies since the last irreversible move (capture or pawn move).
    fn halfmove_clock(&self) -> u32;
    /// Zobrist key of the position (pieces, side to move, and every right that matters).
    fn key(&self) -> u64;
    fn in_check(&self) -> bool;

    /// Every legal move.
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>);
    /// The legal captures and promotions (what quiescence search looks at).
    fn generate_tactical(&self, moves: &mut MoveList<Self::Move>);
    fn is_tactical(&self, mv: Self::Move) -> bool;
    /// The position after a legal move.
    fn play(&self, mv: Self::Move) -> Self;
    /// The position with the turn passed, for null-move pruning; `None` where the game forbids it
    /// (for example in check).
    fn play_null(&self) -> Option<Self>;
    /// True when the side to move has pieces beyond king and pawns (null-move is then sound enough).
    fn has_non_pawn_material(&self) -> bool;

    /// Reads a move in the protocol's notation and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, RuleError>;
    fn move_text(&self, mv: Self::Move) -> String;
    /// A dense index (below [`HISTORY_SIZE`]) for history tables.
    fn move_index(&self, mv: Self::Move) -> usize;

    /// Result when the side to move has no legal move: a loss for it (`Checkmate`,
    /// `KingDestroyed`) or a draw (`Stalemate`).
    fn no_moves_reason(&self) -> EndReason;
    /// A draw that stands on this position alone (50-move rule, insufficient material);
    /// repetition needs the game's history and is in [`GameRecord`].
    fn draw_by_rule(&self) -> Option<EndReason>;
    /// A board diagram for the `d` command.
    fn board_text(&self) -> String;

    /// Counts the leaf nodes of the legal move tree (bulk counting at the last ply).
    fn perft(&self, depth: u32) -> u64 {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.iter().map(|&mv| self.play(mv).perft(depth - 1)).sum()
    }
}

/// A move that packs into 32 bits, so the shared transposition table can hold any game's moves.
pub trait PackedMove: Copy + Eq + Default + Send + Sync + Debug + 'static {
    fn pack(self) -> u32;
    fn unpack(bits: u32) -> Self;
}

/// Splits a move in long algebraic form into its from and to squares and what follows them (a
/// promotion letter, say): `e2e4`, `o2o4`, `h7h8r`, `a10a9` on a tall board. `None` when the
/// text does not start with two squares of a board `files` x `ranks`.
pub fn parse_move_squares(text: &str, files: u8, ranks: u8) -> Option<(Square, Square, &str)> {
    if !text.is_ascii() {
        return None;
    }
    // A square is a file letter and one or two digits; take the longest name that parses.
    fn square_at(text: &str, files: u8, ranks: u8) -> Option<(Square, &str)> {
        (2..=3)
            .rev()
            .filter(|&len| len <= text.len())
            .find_map(|len| Square::parse(&text[..len], files, ranks).map(|sq| (sq, &text[len..])))
    }
    let (from, rest) = square_at(text, files, ranks)?;
    let (to, rest) = square_at(rest, files, ranks)?;
    Some((from, to, rest))
}

/// Size of a history table indexed by [`Game::move_index`] (from and to square, 128 each).
pub const HISTORY_SIZE: usize = 128 * 128;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_squares_split_on_every_board_and_refuse_junk() {
        let name = |sq: Square, files| sq.name(files);
        let (from, to, rest) = parse_move_squares("h7h8r", 15, 8).unwrap();
        assert_eq!(
            (name(from, 15), name(to, 15), rest),
            ("h7".into(), "h8".into(), "r")
        );
        let (from, to, rest) = parse_move_squares("a10a9", 8, 16).unwrap();
        assert_eq!(
            (name(from, 8), name(to, 8), rest),
            ("a10".into(), "a9".into(), "")
        );
        assert_eq!(parse_move_squares("o2o4", 8, 8), None);
        for junk in ["", "e2", "e2e", "é2e4", "aé4", "e2e9", "2e4e", "e0e1"] {
            assert_eq!(parse_move_squares(junk, 8, 8), None, "{junk}");
        }
    }
}
