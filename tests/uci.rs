//! Drives the real `roger` binary over its standard input and output, as a GUI would
//! (standard chess; the other games have test files of their own).

use roger::rules::chess::Chess;
use roger::rules::{Game, GameRecord};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::common;
use common::{Roger, PROMPT, SCHEDULING, SEARCH};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
const CHECKMATE: &str = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";

/// The move of a `bestmove` line, and its ponder move if any.
fn bestmove_of(line: &str) -> (String, Option<String>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens.as_slice() {
        ["bestmove", best] => (best.to_string(), None),
        ["bestmove", best, "ponder", ponder] => (best.to_string(), Some(ponder.to_string())),
        _ => panic!("malformed bestmove line {line:?}"),
    }
}

/// Checks that the search's reply is a legal move (and ponder move) in `record`'s position, and
/// that everything before it is an `info` line.
fn assert_legal_answer(record: &GameRecord<Chess>, lines: &[String]) -> String {
    let (last, infos) = lines.split_last().expect("a bestmove line");
    for info in infos {
        assert!(info.starts_with("info "), "unexpected line {info:?}");
    }
    let (best, ponder) = bestmove_of(last);
    let position = record.position();
    let mv = position
        .parse_move(&best)
        .unwrap_or_else(|error| panic!("bestmove {best} is illegal: {error}"));
    if let Some(ponder) = ponder {
        let after = position.play(mv);
        if let Err(error) = after.parse_move(&ponder) {
            panic!("ponder move {ponder} is illegal after {best}: {error}");
        }
    }
    best
}

/// Starts `go <params>` from `position <position>` and checks that after `wait` only `info`
/// lines have come: the search holds its `bestmove`.
fn start_held_search(roger: &mut Roger, position: &str, params: &str, wait: Duration) {
    roger.send(&format!("position {position}"));
    roger.send(&format!("go {params}"));
    thread::sleep(wait);
    let early = roger.sync();
    assert!(
        early.iter().all(|line| line.starts_with("info ")),
        "answered before it was told to: {early:#?}"
    );
}

/// Sends `line` and returns the lines up to `bestmove` and how long that took.
fn timed_answer(roger: &mut Roger, line: &str) -> (Vec<String>, Duration) {
    let sent = Instant::now();
    roger.send(line);
    let lines = roger.await_bestmove(PROMPT);
    (lines, sent.elapsed())
}

/// Sends `line`, which must bring a legal `bestmove` (after `moves`) within `limit`.
fn assert_legal_within(roger: &mut Roger, line: &str, moves: &[&str], limit: Duration) {
    let (lines, elapsed) = timed_answer(roger, line);
    assert!(elapsed < limit, "{line:?} answered after {elapsed:?}");
    assert_legal_answer(&record_after(moves), &lines);
}

/// Sends `go <params>` and checks that the answer is legal after `moves` from the start.
fn assert_legal_search(roger: &mut Roger, params: &str, moves: &[&str]) -> String {
    let lines = roger.go(params);
    assert_legal_answer(&record_after(moves), &lines)
}

fn record_after(moves: &[&str]) -> GameRecord<Chess> {
    let mut record = GameRecord::new(Chess::startpos());
    for mv in moves {
        record.play_text(mv).expect("a legal test move");
    }
    record
}

#[test]
fn handshake_lists_id_and_options() {
    let mut roger = Roger::start();
    roger.send("uci");
    let lines = roger.read_until(PROMPT, |line| line == "uciok");
    assert!(lines[0].starts_with("id name Roger "), "{lines:#?}");
    assert_eq!(lines[1], "id author The Roger developers");
    for option in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 30 min 0 max 5000",
    ] {
        assert!(
            lines.iter().any(|line| line == option),
            "{option:?} in {lines:#?}"
        );
    }
    // The variant list grows as games land; chess is the default and comes first.
    assert!(
        lines
            .iter()
            .any(|line| line
                .starts_with("option name UCI_Variant type combo default chess var chess")),
        "{lines:#?}"
    );
    assert!(roger.sync().is_empty());
}

#[test]
fn full_session_answers_a_legal_move() {
    let mut roger = Roger::start();
    roger.send("uci");
    roger.read_until(PROMPT, |line| line == "uciok");
    roger.send("setoption name Hash value 32");
    roger.send("setoption name Threads value 1");
    roger.send("ucinewgame");
    assert!(roger.sync().is_empty());
    roger.send("position startpos moves e2e4 e7e5");
    assert_legal_search(&mut roger, "depth 5", &["e2e4", "e7e5"]);
    assert_eq!(roger.fen(), AFTER_E4_E5);
    roger.send("quit");
    roger.assert_exits(PROMPT);
}

#[test]
fn go_without_position_searches_the_start_position() {
    let mut roger = Roger::start();
    assert_legal_search(&mut roger, "depth 3", &[]);
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let mut roger = Roger::start();
    // An infinite search must not answer by itself, even once it has nothing left to do.
    let wait = Duration::from_millis(300);
    start_held_search(&mut roger, "startpos moves d2d4", "infinite", wait);
    assert_legal_within(&mut roger, "stop", &["d2d4"], Duration::from_millis(500));
    // Exactly one bestmove, and the engine is idle again.
    roger.send("stop");
    assert!(roger.sync().is_empty());
}

#[test]
fn movetime_is_respected() {
    let mut roger = Roger::start();
    roger.send("position startpos");
    assert!(roger.sync().is_empty());
    // 300 ms asked, Move Overhead (30 ms) kept back, and slack for a loaded machine.
    let limit = Duration::from_millis(300 + 30 + 700);
    assert_legal_within(&mut roger, "go movetime 300", &[], limit);
}

#[test]
fn clock_search_answers_in_time_and_legally() {
    let mut roger = Roger::start();
    roger.send("position startpos moves e2e4");
    assert!(roger.sync().is_empty());
    // Less than the whole clock.
    let clock = "go wtime 1000 btime 1000 winc 0 binc 0";
    assert_legal_within(&mut roger, clock, &["e2e4"], Duration::from_millis(1000));
    // A flagged (negative) clock still gets a legal answer, quickly.
    roger.send("go wtime -50 btime -50");
    let lines = roger.await_bestmove(PROMPT);
    assert_legal_answer(&record_after(&["e2e4"]), &lines);
}

#[test]
fn perft_matches_known_counts() {
    let mut roger = Roger::start();
    roger.send("go perft 3");
    let lines = roger.read_until(SEARCH, |line| line.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    assert_eq!(lines[lines.len() - 2], "", "blank line before the total");
    let per_move = &lines[..lines.len() - 2];
    assert_eq!(per_move.len(), 20, "{lines:#?}");
    assert!(
        per_move.iter().any(|line| line == "e2e4: 600"),
        "{lines:#?}"
    );
    let sum: u64 = per_move
        .iter()
        .map(|line| {
            let (_, count) = line.split_once(": ").expect("move: count");
            count.parse::<u64>().expect("a count")
        })
        .sum();
    assert_eq!(sum, 8902);

    roger.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    roger.send("go perft 2");
    let lines = roger.read_until(SEARCH, |line| line.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 2039")
    );
    assert!(
        lines.iter().any(|line| line == "e1g1: 43"),
        "castling as e1g1"
    );
}

#[test]
fn unknown_commands_and_malformed_go_are_reported() {
    let mut roger = Roger::start();
    roger.expect_error("xyz", &["unknown command 'xyz'"]);
    roger.expect_error("go depth abc", &["'depth'", "token 3", "'abc'"]);
    roger.expect_error("go depth", &["'depth'", "token 3", "end of line"]);
    roger.expect_error("go foo", &["unknown parameter 'foo'", "token 2"]);
    roger.expect_error(
        "go depth 3 nodes -5",
        &["'nodes'", "token 5", "out of range"],
    );
    roger.expect_error("go searchmoves e2e5", &["searchmoves", "e2e5"]);
    roger.expect_error("position", &["expected 'startpos' or 'fen'"]);
    roger.expect_error("position startpos e2e4", &["'e2e4'", "token 3"]);
    roger.expect_error("setoption value 3", &["expected 'name'"]);
    roger.expect_error("bench depth x", &["bench", "'x'"]);
    // Blank lines are ignored, Windows line ends accepted.
    roger.send("");
    roger.send("   ");
    roger.send("isready\r");
    roger.read_until(PROMPT, |line| line == "readyok");
    assert!(roger.sync().is_empty());
}

#[test]
fn bad_options_are_refused_and_keep_their_value() {
    let mut roger = Roger::start();
    roger.expect_error(
        "setoption name Hash value abc",
        &["option 'Hash'", "integer", "'abc'"],
    );
    roger.expect_error(
        "setoption name Hash value 999999999",
        &["option 'Hash'", "999999999", "out of range 1..=65536"],
    );
    roger.expect_error("setoption name Hash value 0", &["out of range"]);
    roger.expect_error("setoption name Hash", &["needs a value"]);
    roger.expect_error(
        "setoption name Threads value 257",
        &["out of range 1..=256"],
    );
    roger.expect_error("setoption name MultiPV value -1", &["out of range 1..=256"]);
    roger.expect_error(
        "setoption name Move Overhead value 5001",
        &["out of range 0..=5000"],
    );
    roger.expect_error(
        "setoption name Contempt value 10",
        &["unknown option 'Contempt'"],
    );
    roger.expect_error(
        "setoption name UCI_Variant value shogi",
        &["no value 'shogi'"],
    );
    // Good values, names in any case, are taken silently.
    roger.send("setoption name hash value 8");
    roger.send("setoption name Move Overhead value 0");
    roger.send("setoption name MultiPV value 2");
    roger.send("setoption name UCI_Variant value chess");
    assert!(roger.sync().is_empty());
    assert_legal_search(&mut roger, "depth 2", &[]);
}

#[test]
fn malformed_fens_keep_the_previous_position() {
    let mut roger = Roger::start();
    roger.send("position startpos moves e2e4 e7e5");
    assert_eq!(roger.fen(), AFTER_E4_E5);
    for fen in [
        "8/8/8",                                                          // too few fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",       // bad side to move
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",       // unknown piece
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",       // rank too long
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",         // seven ranks
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",         // no black king
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",      // bad en passant
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",       // bad halfmove clock
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", // too many fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kéq - 0 1",        // not ASCII
    ] {
        let error = roger.expect_error(&format!("position fen {fen}"), &["position", "FEN"]);
        assert!(error.contains("unchanged"), "{error}");
        assert_eq!(roger.fen(), AFTER_E4_E5, "after {fen:?}");
    }
    roger.send("go perft 1");
    let lines = roger.read_until(SEARCH, |line| line.starts_with("Nodes searched"));
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 29"));
}

#[test]
fn bad_moves_keep_the_previous_position() {
    let mut roger = Roger::start();
    roger.send("position startpos moves e2e4 e7e5");
    roger.expect_error(
        "position startpos moves e2e4 e7e5 e2e4",
        &["move 3 'e2e4'", "not a legal move", "unchanged"],
    );
    assert_eq!(roger.fen(), AFTER_E4_E5);
    roger.expect_error(
        "position startpos moves e2e4 zz",
        &["move 2 'zz'", "not a move"],
    );
    roger.expect_error("position startpos moves e2e9", &["move 1 'e2e9'"]);
    roger.expect_error("position startpos moves e7e5", &["move 1 'e7e5'"]);
    roger.expect_error("position startpos moves e2e4 e7e5 g1g3", &["move 3 'g1g3'"]);
    roger.expect_error("position startpos moves e2e4 e7e5 ñ2e4", &["move 3"]);
    roger.expect_error(
        &format!("position fen {CHECKMATE} moves h8g8"),
        &["move 1 'h8g8'"],
    );
    assert_eq!(roger.fen(), AFTER_E4_E5);
    // Castling is the king's two-square move, promotion a suffix letter.
    roger.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8");
    assert_eq!(roger.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    roger.send("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8n");
    assert_eq!(roger.fen(), "N7/7k/8/8/8/8/8/K7 b - - 0 1");
}

#[test]
fn positions_without_moves_answer_the_null_move() {
    let mut roger = Roger::start();
    let stalemate = format!("fen {STALEMATE}");
    roger.assert_search(&stalemate, "depth 5", "bestmove 0000", "score cp 0");
    let checkmate = format!("fen {CHECKMATE}");
    roger.assert_search(
        &checkmate,
        "wtime 1000 btime 1000",
        "bestmove 0000",
        "score mate 0",
    );

    // Reached through moves too (fool's mate), and `go infinite` still waits for `stop`.
    let fools_mate = "startpos moves f2f3 e7e5 g2g4 d8h4";
    start_held_search(
        &mut roger,
        fools_mate,
        "infinite",
        Duration::from_millis(200),
    );
    roger.send("stop");
    let lines = roger.await_bestmove(PROMPT);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 0000"));
    roger.send("go perft 1");
    let lines = roger.read_until(PROMPT, |line| line.starts_with("Nodes searched"));
    assert_eq!(lines, ["", "Nodes searched: 0"]);
}

#[test]
fn checkmating_move_is_found() {
    let mut roger = Roger::start();
    // White mates in one with Qg7 (or Qf8/Qh7...) – any legal answer, ideally a mate.
    roger.send("position fen 7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    roger.send("go depth 4");
    let lines = roger.await_bestmove(SEARCH);
    let record =
        GameRecord::new(Chess::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").expect("a valid FEN"));
    assert_legal_answer(&record, &lines);
}

#[test]
fn searchmoves_restricts_the_answer() {
    let mut roger = Roger::start();
    roger.send("position startpos");
    assert_eq!(
        assert_legal_search(&mut roger, "depth 3 searchmoves a2a3", &[]),
        "a2a3"
    );
}

#[test]
fn go_during_a_search_is_refused_and_commands_stop_it() {
    let mut roger = Roger::start();
    roger.send("go infinite");
    roger.send("go depth 1");
    let replies = roger.read_until(PROMPT, |line| line.starts_with("info string error"));
    assert!(replies
        .last()
        .is_some_and(|line| line.contains("already running")));
    // `isready` answers at once during a search.
    roger.sync();
    // A new position stops the search first: its bestmove comes, then the position applies.
    roger.send("position startpos moves e2e4");
    let lines = roger.await_bestmove(PROMPT);
    assert_legal_answer(&record_after(&[]), &lines);
    assert_eq!(
        roger.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    // So does setoption.
    roger.send("go infinite");
    roger.send("setoption name Hash value 4");
    let lines = roger.await_bestmove(PROMPT);
    assert_legal_answer(&record_after(&["e2e4"]), &lines);
    // And ucinewgame, which also goes back to the start position.
    roger.send("go infinite");
    roger.send("ucinewgame");
    roger.await_bestmove(PROMPT);
    assert_eq!(roger.fen(), START_FEN);
    roger.send("d");
    let board = roger.sync();
    assert!(
        board.iter().any(|line| line.starts_with("Key: ")),
        "{board:#?}"
    );
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut roger = Roger::start();
    let ponder = "ponder wtime 2000 btime 2000";
    let wait = Duration::from_millis(300);
    start_held_search(&mut roger, "startpos moves e2e4 e7e5", ponder, wait);
    roger.send("ponderhit");
    let lines = roger.await_bestmove(Duration::from_secs(10));
    assert_legal_answer(&record_after(&["e2e4", "e7e5"]), &lines);

    // A ponder miss: the GUI stops the ponder search, and an answer comes at once.
    roger.send("go ponder wtime 2000 btime 2000");
    thread::sleep(Duration::from_millis(100));
    let (_, elapsed) = timed_answer(&mut roger, "stop");
    assert!(elapsed < SCHEDULING, "{elapsed:?}");
}

#[test]
fn quit_stops_the_search_and_exits() {
    let mut roger = Roger::start();
    roger.send("go infinite");
    roger.sync();
    roger.send("quit");
    roger.await_bestmove(PROMPT);
    roger.assert_exits(PROMPT);
}

#[test]
fn end_of_input_stops_an_infinite_search_and_exits() {
    let mut roger = Roger::start();
    roger.send("go infinite");
    roger.sync();
    roger.close_input();
    let lines = roger.await_bestmove(PROMPT);
    assert_legal_answer(&record_after(&[]), &lines);
    roger.assert_exits(PROMPT);
}

#[test]
fn end_of_input_lets_a_bounded_search_finish() {
    let mut roger = Roger::start();
    roger.send("position startpos moves g1f3");
    roger.send("go depth 4");
    roger.close_input();
    let lines = roger.await_bestmove(SEARCH);
    assert_legal_answer(&record_after(&["g1f3"]), &lines);
    roger.assert_exits(PROMPT);
    roger.assert_silent(Duration::from_millis(50));
}

#[test]
fn uci_subcommand_serves_the_protocol() {
    let mut roger = Roger::start_with(&["uci"]);
    roger.send("uci");
    roger.read_until(PROMPT, |line| line == "uciok");
    roger.send("quit");
    roger.assert_exits(PROMPT);
}

fn run_cli(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_roger"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run roger");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn perft_subcommand_prints_the_go_perft_format() {
    let (ok, text) = run_cli(&["perft", "--depth", "3"]);
    assert!(ok);
    assert!(text.ends_with("\nNodes searched: 8902\n"), "{text}");
    assert_eq!(text.lines().count(), 22);

    let (ok, text) = run_cli(&[
        "perft",
        "--fen",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "--depth",
        "3",
        "--variant",
        "chess",
    ]);
    assert!(ok);
    assert!(text.ends_with("\nNodes searched: 2812\n"), "{text}");

    assert!(!run_cli(&["perft", "--fen", "8/8/8", "--depth", "2"]).0);
    assert!(!run_cli(&["perft", "--depth", "0"]).0);
    assert!(!run_cli(&["perft", "--depth", "2", "--variant", "shogi"]).0);
    assert!(!run_cli(&["frobnicate"]).0);
}

#[test]
fn next_go_right_after_bestmove_is_accepted() {
    // GUIs send the next `go` the moment they read `bestmove`.
    let mut roger = Roger::start();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..12 {
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        roger.send(&format!("position startpos moves {}", texts.join(" ")));
        let best = assert_legal_search(&mut roger, "depth 1", &texts);
        moves.push(best);
    }
}

/// The `bestmove` of `lines` and the `pv` of the last `multipv 1` line.
fn best_and_last_first_pv(lines: &[String]) -> (String, String) {
    let (best, _) = bestmove_of(lines.last().expect("a bestmove line"));
    let last_first = lines
        .iter()
        .rev()
        .find(|line| line.contains(" multipv 1 "))
        .unwrap_or_else(|| panic!("no multipv 1 line in {lines:#?}"));
    let pv = last_first
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split_whitespace().next())
        .unwrap_or_else(|| panic!("no pv in {last_first:?}"));
    (best, pv.to_string())
}

#[test]
fn skill_levels_play_legal_moves_in_every_turn_game_and_refuse_bad_values() {
    for variant in ["chess", "millennium", "nichess"] {
        let mut roger = Roger::start();
        if variant != "chess" {
            roger.select_variant(variant);
        }
        let game = roger::rules::registry::AnyGame::new(variant).unwrap();
        let mut played = Vec::new();
        for (level, seed) in [(0, 1), (0, 2), (7, 3), (15, 4)] {
            roger.send(&format!("setoption name Skill Level value {level}"));
            roger.send(&format!("setoption name Skill Seed value {seed}"));
            roger.send("position startpos");
            // A plain `go` ends by itself below level 20: depth and nodes are capped.
            let lines = roger.go("");
            let (_, infos) = lines.split_last().unwrap();
            for info in infos {
                let tokens: Vec<&str> = info.split_whitespace().collect();
                assert_eq!(tokens[0], "info", "{info}");
                let at = tokens.iter().position(|&t| t == "multipv").unwrap();
                let line: u32 = tokens[at + 1].parse().unwrap();
                assert!((1..=4).contains(&line), "{info}");
                assert!(tokens.contains(&"pv"), "{info}");
                if level == 0 {
                    assert!(info.starts_with("info depth 1 "), "{info}");
                }
            }
            let (best, pv) = best_and_last_first_pv(&lines);
            assert_eq!(best, pv, "{variant} level {level}: {lines:#?}");
            game.with_position(None, std::slice::from_ref(&best))
                .unwrap_or_else(|error| panic!("{variant}: bestmove {best}: {error}"));
            played.push(best);
        }
        // The same seed and level play the same move again.
        roger.send("setoption name Skill Level value 0");
        roger.send("setoption name Skill Seed value 1");
        roger.send("ucinewgame");
        roger.send("position startpos");
        let (again, _) = best_and_last_first_pv(&roger.go(""));
        assert_eq!(again, played[0], "{variant}");
        roger.expect_error(
            "setoption name Skill Level value 21",
            &["option 'Skill Level' value 21 is out of range 0..=20"],
        );
        roger.expect_error(
            "setoption name UCI_Elo value 999",
            &["option 'UCI_Elo' value 999 is out of range 1000..=2400"],
        );
        roger.expect_error(
            "setoption name UCI_LimitStrength value 1",
            &["option 'UCI_LimitStrength' needs 'true' or 'false'"],
        );
        roger.expect_error(
            "setoption name Skill Seed value 2147483648",
            &["out of range 0..=2147483647"],
        );
    }
}

/// `Use NNUE` switches chess between the hand-set evaluation plus the network's correction and
/// the hand-set evaluation alone; switching clears the table and histories, so switching back
/// gives the first search again, line for line.
#[test]
fn use_nnue_switches_the_chess_evaluation_and_back() {
    let mut roger = Roger::start();
    let search = |roger: &mut Roger| -> String {
        roger.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6");
        let lines = roger.go("depth 7");
        let last_info = lines
            .iter()
            .rev()
            .find(|line| line.starts_with("info depth 7 "))
            .expect("a depth 7 line")
            .clone();
        // Time and speed vary from run to run; the rest of the line does not.
        last_info.split(" nps ").next().unwrap().to_string()
            + last_info
                .split(" hashfull ")
                .nth(1)
                .map_or("", |rest| rest.split_once(" pv ").map_or("", |(_, pv)| pv))
    };
    let with_network = search(&mut roger);
    roger.send("setoption name Use NNUE value false");
    let alone = search(&mut roger);
    roger.send("setoption name Use NNUE value true");
    let again = search(&mut roger);
    assert_eq!(with_network, again);
    assert_ne!(with_network, alone);
}
