//! Search: iterative deepening alpha-beta over any [`Game`] with an [`Evaluate`] implementation.
//! (Interface fixed; the body below is a placeholder being replaced by the real search.)

use crate::eval::Evaluate;
use crate::rules::{Game, GameRecord, MoveList};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub mod tt;
pub use tt::TranspositionTable;

/// The clock of the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. All `None` and `infinite == false` means: search until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    pub infinite: bool,
    /// Time kept back per move for the GUI's and the pipe's delays (`Move Overhead`).
    pub move_overhead: Duration,
    /// While this flag is true the search is pondering: it ignores its time limits. The engine
    /// clears it on `ponderhit`, and the clock counts from then.
    pub pondering: Option<Arc<AtomicBool>>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the side to move is mated.
    Mate(i32),
}

/// One `info` line's worth of progress.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    pub pv: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct SearchOutcome {
    /// `None` only when the position has no legal move.
    pub best_move: Option<String>,
    pub ponder: Option<String>,
    pub nodes: u64,
}

/// Searches the record's current position within `limits`, calling `report` with progress, and
/// returns the best move found. Returns promptly once `stop` is set.
pub fn search<G: Game + Evaluate>(
    record: &GameRecord<G>,
    limits: &Limits,
    options: SearchOptions,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> SearchOutcome {
    let _ = (limits, options, tt, stop, report);
    let position = record.position();
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    SearchOutcome {
        best_move: moves.first().map(|&m| position.move_text(m)),
        ponder: None,
        nodes: 0,
    }
}
