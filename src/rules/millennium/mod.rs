//! Millennium chess (rules: `docs/rules/millennium.md`): a 15x8 board (`u128` bitboards), two kings
//! a side with the keystone rule, per-piece castling rights with four castlings a side, and
//! promotion only to pieces captured earlier (the promotion pool).

pub mod attacks;
mod fen;
mod game;
mod movegen;
mod moves;
mod position;
mod zobrist;

pub use crate::rules::chess::MoveFlag;
pub use moves::Move;
pub use position::{Millennium, BOARD, FILES, FILE_A, FILE_O, INITIAL_COUNTS, POOL_KINDS};

/// The board's squares (15 files, 8 ranks).
pub const SQUARES: usize = 120;
/// The largest pool count of one kind (four knights or four bishops).
pub(crate) const MAX_POOL: usize = 4;
/// Castling rights: one bit per unmoved king or rook, five a side.
pub(crate) const CASTLING_RIGHTS: usize = 10;

/// The start position: two ordinary back ranks sharing the centre rook on `h`.
pub const START_FEN: &str =
    "rnbqkbnrnbkqbnr/ppppppppppppppp/15/15/15/15/PPPPPPPPPPPPPPP/RNBQKBNRNBKQBNR w AEHKOaehko - 0 1";

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
