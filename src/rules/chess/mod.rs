//! Standard chess: positions, FEN, legal move generation and copy-make, on the 8x8 `u64` board.

mod check;
mod fen;
mod game;
mod movegen;
mod moves;
mod position;
pub mod san;
pub mod start_positions;
mod zobrist;

pub use moves::{Move, MoveFlag};
pub use position::{
    Chess, Piece, PieceKind, CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN, CASTLE_WHITE_KING,
    CASTLE_WHITE_QUEEN,
};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[cfg(test)]
mod tests;
