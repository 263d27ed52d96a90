//! Evaluation, one module per game.

pub mod chess;
pub mod exchange;
pub mod millennium;
pub mod network;
pub mod nichess;
pub mod weights;

use crate::rules::Game;

/// How one engine asked for positions to be judged (`Use NNUE`, `EvalFile`). Each search
/// carries its own, so that engines sharing a process (`roger serve`, the arena's players,
/// tests) never change one another's evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalOptions {
    /// The hand-set evaluation with the network (true) or alone.
    pub use_network: bool,
    /// A network read from a file (`EvalFile`), used by the game whose inputs it has in place
    /// of the built-in one. Loaded networks live as long as the process: few are ever loaded,
    /// and a search may still be using the last one when the next arrives.
    pub loaded_network: Option<&'static network::Network>,
}

impl Default for EvalOptions {
    fn default() -> EvalOptions {
        EvalOptions {
            use_network: true,
            loaded_network: None,
        }
    }
}

impl EvalOptions {
    /// The network `G` evaluates with: the loaded one when it fits `G`, else `built_in`.
    pub fn network_for<G: network::NetworkInputs>(
        &self,
        built_in: Option<&'static network::Network>,
    ) -> Option<&'static network::Network> {
        if !self.use_network {
            return None;
        }
        match self.loaded_network {
            Some(network) if network.inputs() == G::INPUTS => Some(network),
            _ => built_in,
        }
    }
}

/// What the search needs to know of a game beyond its rules.
pub trait Evaluate: Game + exchange::Exchange {
    /// Whether a node in check is searched a ply deeper. Measured per game (docs/strength.md):
    /// chess plays better without it; in Nichess, where a check also carries damage, dropping
    /// it looked worse; in Millennium dropping it measured even (+2.5 ± 23.2), so it stays.
    const EXTEND_CHECKS: bool = true;
    /// Static evaluation in centipawns from the side to move's point of view, under the default
    /// [`EvalOptions`].
    fn evaluate(&self) -> i32;
    /// What a search thread keeps to evaluate the positions of its path faster (chess: the
    /// network's accumulators a ply); `()` where there is nothing to keep.
    type PathState: Default + Send;
    /// A search path's state under `options`, which it keeps for the whole search.
    fn path_state(options: EvalOptions) -> Self::PathState {
        let _ = options;
        Self::PathState::default()
    }
    /// The position's static evaluation under the options `state` was made with, summed afresh
    /// (for positions off the search path).
    fn evaluate_off_path(&self, state: &Self::PathState) -> i32 {
        let _ = state;
        self.evaluate()
    }
    /// [`Evaluate::evaluate`] of the position at `ply` of a search path, which may use what
    /// `state` kept of the plies above, under the options it was made with.
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
