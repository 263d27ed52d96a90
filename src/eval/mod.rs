//! Evaluation, one module per game.

pub mod chess;
pub mod exchange;
pub mod millennium;
pub mod network;
pub mod nichess;
pub mod weights;

use crate::rules::Game;

/// What the search needs to know of a game beyond its rules.
pub trait Evaluate: Game + exchange::Exchange {
    /// Static evaluation in centipawns from the side to move's point of view.
    fn evaluate(&self) -> i32;
    /// What a search thread keeps to evaluate the positions of its path faster (chess: the
    /// network's accumulators a ply); `()` where there is nothing to keep.
    type PathState: Default + Send;
    /// [`Evaluate::evaluate`] of the position at `ply` of a search path, which may use what
    /// `state` kept of the plies above.
    #[inline(always)]
    fn evaluate_at(&self, state: &mut Self::PathState, ply: usize) -> i32 {
        let _ = (state, ply);
        self.evaluate()
    }
    /// Ordering value of a tactical move (captures: most valuable victim, least valuable
    /// attacker); higher is tried first.
    fn tactical_order(&self, mv: Self::Move) -> i32;
    /// Material balance in centipawns from the side to move's point of view (in Nichess
    /// weighted by health): what the one-ply greedy reference player maximises.
    fn material_balance(&self) -> i32;
    /// The material a tactical move wins at most, for delta pruning in quiescence search.
    fn tactical_gain(&self, mv: Self::Move) -> i32;
}

/// The same position with the colours swapped and the board turned over: the side to move
/// changes, castling and en passant become `-`, the clocks stay, and a seventh field (a pool)
/// swaps colours too. A colour-blind evaluation scores both alike.
#[cfg(test)]
pub(crate) fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = fields[0].split('/').rev().map(swap).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let clock = |index: usize, default| fields.get(index).copied().unwrap_or(default);
    let mut out = format!(
        "{} {side} - - {} {}",
        placement.join("/"),
        clock(4, "0"),
        clock(5, "1")
    );
    if let Some(pool) = fields.get(6) {
        out.push(' ');
        out.push_str(&swap(pool));
    }
    out
}
