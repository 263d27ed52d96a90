//! Nichess: pieces with health and ability points, damaging attacks, throws with splash
//! damage, and the king's destruction as the end, on the 8x8 `u64` board. The rules are
//! `docs/rules/nichess.md`.

mod fen;
mod game;
mod movegen;
mod moves;
mod position;
pub mod tables;
mod zobrist;

pub use moves::{Move, MoveKind};
pub use position::{Nichess, Piece, PieceKind, HP_UNIT, MOVE_LIMIT, SPLASH};

/// A living piece has 1 to 6 tens of HP.
pub const HP_LEVELS: usize = 6;

/// The start position: pirate, knight, maenad, queen, king, maenad, knight, pirate.
pub const START_FEN: &str = "rnmqkmnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w - - 0 1";

#[cfg(test)]
mod tests;
