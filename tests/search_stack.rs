//! Issue 26, point 9(a): every thread that runs a search has a stack sized for the deepest path
//! (`SEARCH_STACK_BYTES`), whichever thread asks for the search: the engine's worker, a bench,
//! an arena's or a tuner's pool. `go depth 124` goes as deep as a bounded search can, in every
//! turn game, with one thread and with four.

use roger::eval::Evaluate;
use roger::rules::chess::Chess;
use roger::rules::millennium::Millennium;
use roger::rules::nichess::Nichess;
use roger::rules::{Game, GameRecord, MoveList};
use roger::search::{search, Limits, SearchMemory, SearchOptions, TranspositionTable};
use std::sync::atomic::AtomicBool;

use crate::common;
use common::{Roger, SEARCH};

/// Positions where a search goes deepest for its nodes, per game: few pieces, nothing to
/// capture, no draw by material, so that the principal line runs as deep as the iteration
/// (found by searching candidates with `go depth 124 nodes ...` and reading `seldepth`).
const DEEP: [(&str, &str); 4] = [
    ("chess", "8/8/1k6/p1p1p1p1/P1P1P1P1/8/8/1K6 w - - 0 1"),
    (
        "millennium",
        "k14/15/p1p1p1p1p1p1p1p/P1P1P1P1P1P1P1P/15/15/15/14K w - - 0 1",
    ),
    ("millennium", "k14/15/15/7p7/7P7/15/15/14K w - - 0 1"),
    ("nichess", "7k/8/8/8/8/8/8/K7 w - - 0 1"),
];

/// Searches `fen` to depth 124 within `nodes`, on `threads` threads, from the calling thread;
/// returns the best move and the deepest `seldepth` reported.
fn deep_search<G: Game + Evaluate>(fen: &str, threads: usize, nodes: u64) -> (String, u32) {
    let record = GameRecord::new(G::from_fen(fen).unwrap());
    let limits = Limits {
        depth: Some(124),
        nodes: Some(nodes),
        ..Limits::default()
    };
    let options = SearchOptions {
        threads,
        multipv: 1,
        ..SearchOptions::default()
    };
    let tt = TranspositionTable::new(1);
    let memory = SearchMemory::default();
    let mut seldepth = 0;
    let outcome = search(
        &record,
        &limits,
        options,
        &tt,
        &memory,
        &AtomicBool::new(false),
        &mut |info| seldepth = seldepth.max(info.seldepth),
    );
    let best = outcome.best_move.expect("a move");
    let mut legal = MoveList::new();
    record.position().generate_moves(&mut legal);
    assert!(legal.contains(&best), "{fen}");
    (record.position().move_text(best), seldepth)
}

/// The search does not run on its caller's stack: called from a thread of 64 KiB (an arena's
/// or a tuner's pool, a GUI's thread), it still goes tens of plies deep. Before, the main
/// searcher ran on the caller's stack, and this overflowed it (the process aborted).
#[test]
fn a_search_runs_on_its_own_stack_whatever_thread_calls_it() {
    for threads in [1, 4] {
        for (game, fen) in DEEP {
            let caller = std::thread::Builder::new()
                .stack_size(64 << 10)
                .spawn(move || match game {
                    "chess" => deep_search::<Chess>(fen, threads, 30_000),
                    "millennium" => deep_search::<Millennium>(fen, threads, 30_000),
                    _ => deep_search::<Nichess>(fen, threads, 30_000),
                })
                .unwrap();
            let (best, seldepth) = caller.join().expect("the caller thread survives");
            // Only one thread's search is fixed by its node count; with four, how deep the
            // main thread gets within the nodes depends on how the machine schedules them.
            assert!(
                threads > 1 || seldepth >= 10,
                "{game} {fen}, {threads} threads: seldepth {seldepth}, bestmove {best}"
            );
        }
    }
}

/// `go depth 124` from the deepest positions, in every game, with `Threads` 1 and 4, bounded
/// by nodes: an answer, legal, and no error.
#[test]
fn go_depth_124_in_every_game_with_one_thread_and_four() {
    let mut roger = Roger::start();
    for threads in [1, 4] {
        roger.send(&format!("setoption name Threads value {threads}"));
        for (game, fen) in DEEP {
            roger.send(&format!("setoption name UCI_Variant value {game}"));
            roger.send(&format!("position fen {fen}"));
            assert!(roger.sync().iter().all(|line| !line.contains("error")));
            roger.send("go depth 124 nodes 100000");
            let lines = roger.await_bestmove(SEARCH);
            assert!(
                lines.iter().all(|line| !line.contains("error")),
                "{game}: {lines:#?}"
            );
            let best = lines.last().unwrap();
            let mv = best.split(' ').nth(1).unwrap();
            let legal = match game {
                "chess" => Chess::from_fen(fen).unwrap().parse_move(mv).is_ok(),
                "millennium" => Millennium::from_fen(fen).unwrap().parse_move(mv).is_ok(),
                _ => Nichess::from_fen(fen).unwrap().parse_move(mv).is_ok(),
            };
            assert!(legal, "{game} {fen}: {best}");
            let seldepth = lines
                .iter()
                .filter_map(|line| {
                    let mut words = line.split(' ').skip_while(|word| *word != "seldepth");
                    words.nth(1)?.parse::<u32>().ok()
                })
                .max()
                .unwrap_or(0);
            // As above: the depth reached is the search's own only on one thread.
            assert!(threads > 1 || seldepth >= 15, "{game} {fen}: {lines:#?}");
        }
    }
}
