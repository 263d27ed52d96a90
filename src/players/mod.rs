//! The reference players of any game, used for testing and calibration: a uniformly random one
//! and a one-ply greedy one, and for realtime chess the [`arrival`]-time sparring partner. (The
//! engine itself is served as the protocol's `EngineAgent`.)
//!
//! `roger play` serves the reference players through the protocol session, as agents in place
//! of the engine: [`reference`](mod@reference) (settings, faults, the agent), [`uci`] (the
//! turn dialect's answers) and [`xboard`] (the xboard dialect).

pub mod arrival;
pub mod guard;
pub mod megachess;
pub mod realtime;
pub mod reference;
pub mod settings;
pub mod uci;
pub mod xboard;

pub use reference::serve_player;

use crate::common::Rng;
use crate::engine::{OptionKind, OptionSpec};
use crate::eval::Evaluate;
use crate::rules::{EndReason, Game, GameRecord, MoveList};
use crate::search::Clock;

/// Something that picks a move for the side to move.
pub trait Player<G: Game> {
    fn name(&self) -> String;
    /// Called before each game.
    fn new_game(&mut self) {}
    /// A legal move of the record's current position, or `None` when it has none.
    fn choose(&mut self, record: &GameRecord<G>, clock: Option<Clock>) -> Option<G::Move>;
}

/// The spec of a reference player's percent option (0 to 100).
pub fn percent_option(name: &'static str, default: i64) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Spin {
            default,
            min: 0,
            max: 100,
        },
    }
}

/// The moves the game allows now (none once it is over, by repetition too).
fn legal_moves<G: Game>(record: &GameRecord<G>) -> MoveList<G::Move> {
    let mut moves = MoveList::new();
    record.generate_moves(&mut moves);
    moves
}

/// Picks a uniformly random legal move.
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }
    fn choose(&mut self, record: &GameRecord<G>, _clock: Option<Clock>) -> Option<G::Move> {
        let moves = legal_moves(record);
        (!moves.is_empty()).then(|| moves[self.rng.index(moves.len())])
    }
}

/// Looks one ply ahead: wins at once if it can, else takes the best material balance after
/// its move (in Nichess weighted by health); ties are broken at random.
pub struct GreedyPlayer {
    rng: Rng,
}

impl GreedyPlayer {
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: Rng::new(seed),
        }
    }

    /// The value of the position after a move, for the side that made it.
    fn value<G: Game + Evaluate>(after: &G) -> i32 {
        let mut replies = MoveList::new();
        after.generate_moves(&mut replies);
        if replies.is_empty() {
            return match after.no_moves_reason() {
                EndReason::Checkmate | EndReason::KingDestroyed => i32::MAX,
                _ => 0,
            };
        }
        -after.material_balance()
    }
}

impl<G: Game + Evaluate> Player<G> for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }
    fn choose(&mut self, record: &GameRecord<G>, _clock: Option<Clock>) -> Option<G::Move> {
        let position = record.position();
        let moves = legal_moves(record);
        let values: Vec<i32> = moves
            .iter()
            .map(|&mv| Self::value(&position.play(mv)))
            .collect();
        let best = *values.iter().max()?;
        let candidates: Vec<G::Move> = moves
            .iter()
            .zip(&values)
            .filter(|(_, &v)| v == best)
            .map(|(&mv, _)| mv)
            .collect();
        Some(candidates[self.rng.index(candidates.len())])
    }
}
