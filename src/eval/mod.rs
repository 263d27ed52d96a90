//! Evaluation, one module per game.

pub mod chess;
pub mod millennium;
pub mod nichess;

use crate::rules::Game;

/// What the search needs to know of a game beyond its rules.
pub trait Evaluate: Game {
    /// Static evaluation in centipawns from the side to move's point of view.
    fn evaluate(&self) -> i32;
    /// Ordering value of a tactical move (captures: most valuable victim, least valuable
    /// attacker); higher is tried first.
    fn tactical_order(&self, mv: Self::Move) -> i32;
    /// Material balance in centipawns from the side to move's point of view (in Nichess
    /// weighted by health): what the one-ply greedy reference player maximises.
    fn material_balance(&self) -> i32;
    /// The material a tactical move wins at most, for delta pruning in quiescence search.
    fn tactical_gain(&self, mv: Self::Move) -> i32;
}
