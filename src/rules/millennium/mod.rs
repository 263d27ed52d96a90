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
pub use position::{Millennium, BOARD, FILES, FILE_A, FILE_O, INITIAL_COUNTS, POOL_KINDS, SQUARES};

/// The start position: two ordinary back ranks sharing the centre rook on `h`.
pub const START_FEN: &str =
    "rnbqkbnrnbkqbnr/ppppppppppppppp/15/15/15/15/PPPPPPPPPPPPPPP/RNBQKBNRNBKQBNR w AEHKOaehko - 0 1";

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
