//! Searches under limits too tight for their first iteration (issue 9, points 8 and 9), through
//! the real `roger` binary: the answer is a considered move, never the first one generated, and
//! the last `info` line's pv always starts with the move played.

use roger::rules::chess::Chess;
use roger::rules::Game;

use crate::common;
use common::Roger;

/// White's queen on a5 is attacked by Black's on b5; the first move generated is `f2e1`, which
/// leaves it to be taken. Depth 1 alone takes about 19,000 nodes here (a long quiescence).
const QUEEN_ATTACKED: &str = "5kn1/1pp3bB/1rP5/Qq1bp1R1/p2p1P2/1P2P3/P2P1K1P/R1B5 w - - 3 34";

/// The first move of the last `info` line's pv (`None` when no info line has a pv) and the
/// `bestmove`, from the lines up to `bestmove`.
fn last_pv_and_best(lines: &[String]) -> (Option<String>, String) {
    let best = lines
        .last()
        .and_then(|line| line.strip_prefix("bestmove "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no bestmove in {lines:#?}"))
        .to_string();
    let pv = lines
        .iter()
        .rev()
        .find(|line| line.starts_with("info depth"))
        .and_then(|line| line.split(" pv ").nth(1))
        .and_then(|pv| pv.split_whitespace().next())
        .map(str::to_string);
    (pv, best)
}

/// Searches `position` with `go <params>` and checks that the last info line reports the move
/// played; returns that move.
fn reported_answer(roger: &mut Roger, position: &str, params: &str) -> String {
    roger.send(&format!("position {position}"));
    let lines = roger.go(params);
    let (pv, best) = last_pv_and_best(&lines);
    assert_eq!(
        pv.as_deref(),
        Some(best.as_str()),
        "position {position}, go {params}: the last info line does not show the move played: {lines:#?}"
    );
    best
}

#[test]
fn a_search_stopped_before_depth_1_completes_answers_a_considered_move_and_reports_it() {
    let mut roger = Roger::start();
    let position = format!("fen {QUEEN_ATTACKED}");
    let record = Chess::from_fen(QUEEN_ATTACKED).unwrap();
    // The queen moves or takes, or the bishop checks first (the full depth 1's choice).
    let saves_the_queen = |mv: &str| mv.starts_with("a5") || mv == "c1a3";
    for params in [
        "nodes 0",
        "nodes 1",
        "nodes 100",
        "nodes 3000",
        "movetime 2",
        "wtime 20 btime 20",
    ] {
        let best = reported_answer(&mut roger, &position, params);
        assert!(record.parse_move(&best).is_ok(), "{params}: illegal {best}");
        assert!(saves_the_queen(&best), "go {params} answered {best}");
    }
}

#[test]
fn the_last_info_line_shows_the_move_played_when_an_iteration_is_cut_short() {
    let mut roger = Roger::start();
    // The reproducer: depth 3 says e7e5, the unfinished depth 4 has found h6f5.
    let position = "startpos moves c2c4 g8h6 d2d3 d7d5 c1e3";
    reported_answer(&mut roger, position, "nodes 3000");
    for nodes in [1, 20, 150, 700, 2000, 5000, 12_000, 40_000] {
        reported_answer(&mut roger, position, &format!("nodes {nodes}"));
        reported_answer(
            &mut roger,
            &format!("fen {QUEEN_ATTACKED}"),
            &format!("nodes {nodes}"),
        );
    }
}

#[test]
fn every_game_reports_the_move_played_under_tight_node_limits() {
    for (variant, moves) in [
        ("chess", "e2e4 e7e5 g1f3"),
        ("millennium", ""),
        ("nichess", "e2e4 e7e5 d1h5"),
    ] {
        let mut roger = Roger::start();
        if variant != "chess" {
            roger.select_variant(variant);
        }
        let position = if moves.is_empty() {
            "startpos".to_string()
        } else {
            format!("startpos moves {moves}")
        };
        for nodes in [1, 10, 100, 1000, 3000, 10_000] {
            reported_answer(&mut roger, &position, &format!("nodes {nodes}"));
        }
        reported_answer(&mut roger, &position, "movetime 2");
    }
}

/// A crowded Millennium position found by the protocol fuzzer (seed 2026, line 455,988): with an
/// unbounded quiescence search, `go depth 1` took 7.7 million nodes and 22 s. The capture chains
/// are now cut after a few plies, so depth 1 is a few thousand nodes.
#[test]
fn depth_1_stays_small_in_a_crowded_millennium_position() {
    let mut roger = Roger::start();
    roger.select_variant("millennium");
    roger.send(
        "position fen rnbq1rk3k1bnr/pppp2n1np2p2/1P1bp1p5qpp/3P1p1pp1p2PP/2P2P1P1P1p3/\
         P5P2QP4/4P5NPP2/RNBQKBN1RBb1BNR w AEOako - 0 1 moves j3h5 n8l7 h5g5 g8h7 m2m4",
    );
    let lines = roger.go("depth 1");
    let nodes: u64 = lines
        .iter()
        .rev()
        .find_map(|line| line.split(" nodes ").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {lines:#?}"));
    assert!(nodes < 100_000, "depth 1 took {nodes} nodes: {lines:#?}");
}
