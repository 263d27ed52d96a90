//! Search: iterative deepening alpha-beta over any [`Game`] with an [`Evaluate`] implementation.
//!
//! Principal variation search with aspiration windows, quiescence search, a shared
//! transposition table, null-move pruning, late move reductions, a check extension where the
//! game asks for one, and move ordering by hash move, MVV-LVA, killers and history. More
//! threads search the same tree (Lazy SMP), sharing only the table.

mod correction;
mod history;
mod memory;
mod searcher;
pub mod skill;
pub mod time;
pub mod tt;

pub use memory::SearchMemory;
pub use tt::TranspositionTable;

use crate::eval::{EvalOptions, Evaluate};
use crate::rules::{EndReason, Game, GameRecord, MoveList};
use searcher::{Searcher, Shared};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Score of a mate on the board; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub const MAX_PLY: usize = 128;

/// The stack of every thread that runs a [`Searcher`] (the main one and the Lazy SMP
/// helpers), whichever thread calls [`search`]: 16 MiB, reserved, not committed, so an unused
/// stack costs address space only. The deepest path is [`MAX_PLY`] plies of `negamax`, each
/// frame holding move lists sized by the game (the moves, the scored moves, the quiets tried:
/// [`BoundedList`](crate::rules::BoundedList)s of 256 entries in chess, 512 in Millennium and
/// Nichess), and a singular-extension search or a ProbCut search adds a frame at the same ply;
/// then up to eight plies of quiescence. Measured in an unoptimised
/// (test) build, a path uses 7 to 10 KB a ply (Millennium the most), so even three frames a ply
/// for all 128 plies (about 4 MB) leave a margin of four; the 2 MiB of a default thread do not.
/// Stockfish gives its search threads 8 MiB for the same reason.
pub const SEARCH_STACK_BYTES: usize = 16 << 20;

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
    /// Only these root moves (in the protocol's notation) are searched; empty means all.
    pub searchmoves: Vec<String>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    /// How this search judges positions: its engine's own choice, not the process's.
    pub eval: EvalOptions,
    /// With one thread, search on the caller's thread instead of one started for the search:
    /// no thread to start and no wake-up for each report, which counts when a search lasts a
    /// few milliseconds (datagen). The caller's stack must hold [`SEARCH_STACK_BYTES`].
    pub on_this_thread: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
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

/// What a search found, in the game's moves (the caller writes them in its notation).
#[derive(Clone, Debug, Default)]
pub struct SearchOutcome<M> {
    /// `None` only when the position has no legal move.
    pub best_move: Option<M>,
    /// The reply expected to `best_move`, playable in the position after it.
    pub ponder: Option<M>,
    pub nodes: u64,
}

/// The cores this process may run on (its CPU affinity and quota), read once. A search starts
/// no more threads than this: Lazy SMP threads past the core count add no depth, and they
/// starve the thread that reads `stop` and the clock checks, so that answers come late.
pub fn available_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Searches the record's current position within `limits`, calling `report` with progress, and
/// returns the best move found. Returns promptly once `stop` is set, and as soon as it is done
/// otherwise: holding `bestmove` back in `go infinite` and while pondering is the engine's job.
pub fn search<G: Game + Evaluate>(
    record: &GameRecord<G>,
    limits: &Limits,
    options: SearchOptions,
    tt: &TranspositionTable,
    memory: &SearchMemory,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> SearchOutcome<G::Move> {
    let start = Instant::now();
    tt.new_search();
    let position = record.position();
    let mut moves = MoveList::new();
    // The record's moves: none once the game is over by repetition (Nichess), as at its
    // positional endings. Only the root: inside, the search scores repetitions as draws.
    record.generate_moves(&mut moves);
    if moves.is_empty() {
        let score = match position.no_moves_reason() {
            // Lost: mated, or (Nichess) the king was destroyed.
            EndReason::Checkmate | EndReason::KingDestroyed => Score::Mate(0),
            _ => Score::Cp(0),
        };
        report(&Info {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            nodes: 0,
            nps: 0,
            time: start.elapsed(),
            hashfull: tt.hashfull(),
            pv: Vec::new(),
        });
        return SearchOutcome::default();
    }

    let shared = Shared {
        tt,
        stop,
        halt: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        limits,
        budget: time::budget(limits),
        start,
        clock_origin_ms: AtomicU64::new(0),
        eval: options.eval,
    };
    let threads = options.threads.clamp(1, available_cores());
    let multipv = options.multipv.max(1);
    let shared = &shared;
    let main = move |report: &mut dyn FnMut(&Info)| {
        let mut main = Searcher::new(record, shared, 0, memory.take(0));
        let outcome = main.iterate(multipv, report);
        shared.halt.store(true, Ordering::Relaxed);
        memory.keep(0, main.into_memory());
        outcome
    };
    if threads == 1 && options.on_this_thread {
        return main(report);
    }
    std::thread::scope(|scope| {
        for id in 1..threads {
            // A helper that cannot start (no memory for its stack) is one thread fewer.
            let _ = search_thread(id).spawn_scoped(scope, move || {
                let mut helper = Searcher::new(record, shared, id, memory.take(id));
                helper.iterate(1, &mut |_| {});
                memory.keep(id, helper.into_memory());
            });
        }
        // The main searcher runs on a thread of its own stack too; its reports come back here,
        // in order, to `report`, which need not be `Send`.
        let (sender, reports) = mpsc::channel::<Info>();
        let spawned = search_thread(0).spawn_scoped(scope, move || {
            main(&mut |info: &Info| {
                let _ = sender.send(info.clone());
            })
        });
        match spawned {
            Ok(thread) => {
                for info in reports {
                    report(&info);
                }
                // The main searcher is done (or panicked): the helpers end too.
                shared.halt.store(true, Ordering::Relaxed);
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            }
            // No thread to be had: search on this one, as deep as its stack allows.
            Err(_) => main(report),
        }
    })
}

/// A thread for a searcher, with the stack the deepest path needs ([`SEARCH_STACK_BYTES`]).
fn search_thread(id: usize) -> std::thread::Builder {
    std::thread::Builder::new()
        .name(format!("search {id}"))
        .stack_size(SEARCH_STACK_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chess::Chess;

    /// Searches `fen` within `limits` on one thread and returns the answer and the reports.
    fn search_fen(fen: &str, limits: &Limits) -> (String, Vec<Info>) {
        search_fen_with(fen, limits, false)
    }

    /// [`search_fen`], on the calling thread when `on_this_thread`.
    fn search_fen_with(fen: &str, limits: &Limits, on_this_thread: bool) -> (String, Vec<Info>) {
        let record = GameRecord::new(Chess::from_fen(fen).unwrap());
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let mut infos = Vec::new();
        let options = SearchOptions {
            threads: 1,
            multipv: 1,
            on_this_thread,
            ..SearchOptions::default()
        };
        let memory = SearchMemory::default();
        let outcome = search(&record, limits, options, &tt, &memory, &stop, &mut |info| {
            infos.push(info.clone())
        });
        let best = record.position().move_text(outcome.best_move.unwrap());
        (best, infos)
    }

    #[test]
    fn a_search_stopped_at_once_answers_the_static_best_and_reports_it() {
        // Black's queen attacks White's; f2e1, generated first, leaves it to be taken.
        let fen = "5kn1/1pp3bB/1rP5/Qq1bp1R1/p2p1P2/1P2P3/P2P1K1P/R1B5 w - - 3 34";
        for nodes in [0, 1, 50, 3000] {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let (best, infos) = search_fen(fen, &limits);
            assert!(best.starts_with("a5"), "nodes {nodes}: {best}");
            let last = infos.last().expect("an info line");
            assert_eq!(last.pv.first(), Some(&best), "nodes {nodes}: {infos:#?}");
        }
    }

    /// A one-thread search on the caller's thread is the same search as on a thread of its
    /// own: the same move, and the same reports node for node.
    #[test]
    fn a_search_on_the_callers_thread_is_the_same_search() {
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R w KQ - 0 9";
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        // The caller's stack must hold the search, as datagen's workers' do.
        let (inline, own) = std::thread::Builder::new()
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                (
                    search_fen_with(fen, &limits, true),
                    search_fen_with(fen, &limits, false),
                )
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(inline.0, own.0);
        let summary = |infos: &[Info]| -> Vec<_> {
            infos
                .iter()
                .map(|i| (i.depth, i.seldepth, i.score, i.nodes, i.pv.clone()))
                .collect()
        };
        assert_eq!(summary(&inline.1), summary(&own.1));
        assert!(inline.1.len() > 3, "{:?}", inline.1);
    }

    #[test]
    fn a_cut_iteration_whose_move_is_kept_is_reported() {
        let mut record = GameRecord::new(Chess::startpos());
        for mv in ["c2c4", "g8h6", "d2d3", "d7d5", "c1e3"] {
            record.play_text(mv).unwrap();
        }
        let fen = record.position().fen();
        for nodes in [100, 1000, 3000, 10_000] {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let (best, infos) = search_fen(&fen, &limits);
            let last = infos.last().expect("an info line");
            assert_eq!(last.pv.first(), Some(&best), "nodes {nodes}: {infos:#?}");
        }
    }
}
