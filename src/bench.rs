//! The `bench` command: a fixed set of fixed-depth searches. Its node count is the build's
//! signature (the same build always prints the same number: one thread, a fresh table, no
//! clock), and its speed compares builds.
//!
//! Each game has its own section with its own positions and its own node count, so that a
//! change to one game's rules or evaluation leaves the other games' counts as they were.

use crate::eval::Evaluate;
use crate::rules::chess::Chess;
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use crate::rules::{Game, GameRecord};
use crate::search::{search, Limits, SearchOptions, TranspositionTable};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub const DEFAULT_DEPTH: u32 = 11;
/// Nichess trees are bushier than chess ones (long-range attacks and throws never get legal-move
/// pruning): a shallower default keeps the section as quick as the chess one.
pub const NICHESS_DEFAULT_DEPTH: u32 = 9;
/// Millennium: twice the army on a wider board, so more moves a node; depth 9 keeps the
/// section to a few seconds.
pub const MILLENNIUM_DEFAULT_DEPTH: u32 = 9;

/// Openings, middlegames and endgames, quiet and tactical.
const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "r2q1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1P1BPN2/PBPN1PPP/R2Q1RK1 w - - 4 10",
];

/// Nichess: the start, openings with throws loaded, damaged pieces, and endings with a king hunt.
const NICHESS_POSITIONS: &[&str] = &[
    "rnmqkmnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w - - 0 1",
    "rnmqkmnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNM1KMNR b - - 1 2",
    "r3k2r/pp1m1ppp/2n1q3/2PpN3/3Q4/2M2n(30)2/RP3PPP/R3K2R(30) w - - 4 12",
    "k5N1/1P4R1/6R1/3m4/2q1n(20)3/8/p1M5/3QK3 b - - 0 40",
    "r2qk2r/ppp2ppp/2nm1n2/3pp3/3PP3/2NM1N2/PPP2PPP/R2QK2R w - - 0 7",
    "4k3/2p2p2/3n(40)4/1r6/6R(30)1/2N5/2P2P2/4K3 w - - 0 45",
];

/// Millennium: the start, castling with two kings and with one, a keystone capture, pawns on
/// the seventh with pools, a middlegame after a lost king, and a one-king pawn ending.
const MILLENNIUM_POSITIONS: &[&str] = &[
    "rnbqkbnrnbkqbnr/ppppppppppppppp/15/15/15/15/PPPPPPPPPPPPPPP/RNBQKBNRNBKQBNR w AEHKOaehko - 0 1",
    "r1bqkb1r1bk1bnr/ppp1pp1p1ppp1pp/2n1B4q1n3/3p2p1p6/3P3P7/2N3N8/PPP1PP1P1PPPPPP/R1BQK2R1B4R b AEHaehko - 3 9 Qn",
    "r3k2r2k3r/ppp1ppp1ppp1ppp/15/3b7B3/3B7b3/15/PPP1PPP1PPP1PPP/R3K2R2K3R w AEHKOaehko - 0 1",
    "1n2k1k3r4/1P3P1P4p1p/15/15/15/15/p5p1p6/RN2K5K4 w - - 0 1 QNrbq",
    "4k5k4/pp13/15/15/15/15/PP13/4R5K4 w - - 0 1",
    "r6r2k3r/ppppppp1ppp1ppp/15/15/b10Q3/15/PP1PPPPP3PPPP/R3K2R6R w AEHOhko - 0 1",
    "8k6/3p3pp6/2p9p2/1pP2P9/1P3p2P6/3K5P5/15/15 w - - 0 40 Rb",
];

/// Runs the bench to `depth` (each game's default when `None`), sending each line of progress
/// to `out`: every game's positions, then that game's node count. Returns the total nodes
/// searched and the nodes per second.
pub fn run(depth: Option<u32>, out: &mut dyn FnMut(&str)) -> (u64, u64) {
    run_until(depth, &AtomicBool::new(false), out).expect("nothing stops it")
}

/// [`run`] that gives up (`None`) soon after `stop` is set, in the middle of a search.
pub fn run_until(
    depth: Option<u32>,
    stop: &AtomicBool,
    out: &mut dyn FnMut(&str),
) -> Option<(u64, u64)> {
    let start = Instant::now();
    let chess = section::<Chess>(
        POSITIONS,
        depth.unwrap_or(DEFAULT_DEPTH),
        "position",
        stop,
        out,
    )?;
    let nichess = section::<Nichess>(
        NICHESS_POSITIONS,
        depth.unwrap_or(NICHESS_DEFAULT_DEPTH),
        "nichess position",
        stop,
        out,
    )?;
    let millennium = section::<Millennium>(
        MILLENNIUM_POSITIONS,
        depth.unwrap_or(MILLENNIUM_DEFAULT_DEPTH),
        "millennium position",
        stop,
        out,
    )?;
    let total = chess + nichess + millennium;
    let elapsed = start.elapsed();
    let nps = (total as u128 * 1000 / elapsed.as_millis().max(1)) as u64;
    out(&format!("total time {} ms", elapsed.as_millis()));
    Some((total, nps))
}

/// Searches one game's positions to `depth` with a fresh table; prints a line per position
/// (`<label> i/n: ...`) and the game's count (`<variant>: <nodes> nodes`), and returns it.
fn section<G: Game + Evaluate>(
    positions: &[&str],
    depth: u32,
    label: &str,
    stop: &AtomicBool,
    out: &mut dyn FnMut(&str),
) -> Option<u64> {
    let tt = TranspositionTable::new(16);
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let options = SearchOptions {
        threads: 1,
        multipv: 1,
        ..SearchOptions::default()
    };
    let mut total = 0;
    let start = Instant::now();
    for (index, fen) in positions.iter().enumerate() {
        let record = GameRecord::new(G::from_fen(fen).expect("bench FENs are valid"));
        // Each position learns afresh, so that the count does not depend on the order.
        let memory = crate::search::SearchMemory::default();
        let outcome = search(&record, &limits, options, &tt, &memory, stop, &mut |_| {});
        if stop.load(Ordering::Acquire) {
            return None;
        }
        let best = outcome.best_move.map(|mv| record.position().move_text(mv));
        total += outcome.nodes;
        out(&format!(
            "{label} {}/{}: {} nodes, bestmove {} ({fen})",
            index + 1,
            positions.len(),
            outcome.nodes,
            best.as_deref().unwrap_or("0000"),
        ));
    }
    // Each game's own speed: the total's nps mixes games whose trees differ in shape. In
    // brackets, so that the run's last line stays the only one that ends in " nps".
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    out(&format!(
        "{}: {total} nodes ({} nps)",
        G::VARIANT,
        (total as f64 / seconds) as u64
    ));
    Some(total)
}
