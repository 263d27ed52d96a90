//! Chess960 (Fischer Random) rules against published counts: perft of the 960 start positions
//! to depth 4 (tests/data/chess960/start_positions.epd, counted by Stockfish and python-chess)
//! and of the Chess960 perft suite, whose positions hold castling rights on every kind of file
//! (tests/data/chess960/perft_suite.epd, from chessprogramming.org), to depth 4 here; its
//! depths 5 and 6 are run by `roger perft --suite` and the movegen benchmark.

use rayon::prelude::*;
use roger::rules::chess::start_positions::start_fen;
use roger::rules::chess::Chess;
use roger::rules::perft_suite::{check_case, parse_suite, PerftCase};
use roger::rules::registry::TurnGame;
use roger::rules::Game;

fn suite(file: &str) -> Vec<PerftCase> {
    let path = format!("{}/tests/data/chess960/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every case to `depth`, on the test's threads; the failures listed together.
fn check_all(cases: &[PerftCase], depth: u32) {
    let failures: Vec<String> = cases
        .par_iter()
        .filter_map(|case| {
            check_case(TurnGame::Chess, case, depth)
                .err()
                .map(|why| format!("{} ({}): {why:?}", case.name, case.fen))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_960_start_positions_count_as_published_to_depth_4() {
    let cases = suite("start_positions.epd");
    assert_eq!(cases.len(), 960);
    check_all(&cases, 4);
}

#[test]
fn our_numbering_gives_the_start_positions_of_the_data() {
    for (number, case) in suite("start_positions.epd").iter().enumerate() {
        assert_eq!(case.name, format!("id {number}"));
        let ours = Chess::from_fen(&start_fen(number as u16, number as u16).unwrap()).unwrap();
        let theirs = Chess::from_fen(&case.fen).unwrap();
        assert_eq!(ours.fen(), theirs.fen(), "start position {number}");
    }
}

#[test]
fn the_chess960_perft_suite_counts_as_published_to_depth_4() {
    let cases = suite("perft_suite.epd");
    assert_eq!(cases.len(), 960);
    check_all(&cases, 4);
}

/// python-chess, as a UCI client with `chess960=True` boards, plays complete Chess960 and DFRC
/// games against Roger: it sets `UCI_Chess960`, sends Shredder-FEN and king-takes-rook castling,
/// and checks every move Roger answers against its own rules (tests/python/chess960_games.py).
#[test]
fn python_chess_plays_whole_chess960_games_against_roger() {
    let script = format!(
        "{}/tests/python/chess960_games.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = std::process::Command::new("python3")
        .args([&script, env!("CARGO_BIN_EXE_roger"), "--games", "3"])
        .output()
        .expect("python3 runs (.ci/run installs python-chess)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{text}");
    let summary = text
        .lines()
        .find(|line| line.starts_with("ok: "))
        .unwrap_or_default();
    assert!(summary.starts_with("ok: 3 games"), "{text}");
    // The games must have castled, or the notation went untested.
    let castlings: u32 = summary
        .split(", ")
        .find_map(|part| part.strip_suffix(" castlings")?.parse().ok())
        .unwrap_or(0);
    assert!(castlings > 0, "{text}");
    eprintln!("{}", text.trim());
}
