//! Static exchange evaluation: what a tactical move wins or loses once both sides have traded
//! on its square, without searching. The search orders losing captures last and prunes them in
//! quiescence and near the leaves.
//!
//! Chess and Millennium share the bitboard swap algorithm ([`swap`]); Nichess, where an
//! attack may only damage its target, plays the exchange out ([`nichess`]).

mod chess;
mod millennium;
mod nichess;
mod swap;

use crate::rules::Game;

/// The exchange measure of a game.
pub trait Exchange: Game {
    /// True when `mv`, followed by the best sequence of replies and recaptures on the square it
    /// fights for (either side may stop when going on would lose), wins at least `threshold`
    /// centipawns for the side to move. A quiet move wins nothing, so `see_ge(quiet, t)` asks
    /// whether the piece survives on its square with loss at most `-t`.
    fn see_ge(&self, mv: Self::Move, threshold: i32) -> bool;
}

#[cfg(test)]
mod tests;
