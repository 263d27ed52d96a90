//! Issue 9, points 1 and 3: depths beyond what perft and the search can take are refused with
//! an error naming the range, in every game, instead of overflowing the stack or wrapping to
//! depth 1.

use std::process::Command;
use std::time::Instant;

use crate::common;
use common::{Roger, PROMPT, SEARCH};

const GAMES: [&str; 3] = ["chess", "millennium", "nichess"];

/// Selects `game` (chess announces nothing, the variants a line).
fn select(roger: &mut Roger, game: &str) {
    roger.send(&format!("setoption name UCI_Variant value {game}"));
    let lines = roger.sync();
    assert!(
        lines.iter().all(|line| !line.contains("error")),
        "{lines:#?}"
    );
}

/// Runs `check` at the start position of every game, with one search thread and with two.
fn in_every_game_and_thread_count(roger: &mut Roger, mut check: impl FnMut(&mut Roger, &str)) {
    for threads in [1, 2] {
        roger.send(&format!("setoption name Threads value {threads}"));
        for game in GAMES {
            select(roger, game);
            roger.send("position startpos");
            check(roger, game);
        }
    }
}

#[test]
fn deep_perft_is_refused_in_every_game_and_with_threads() {
    let mut roger = Roger::start();
    in_every_game_and_thread_count(&mut roger, |roger, _game| {
        for depth in ["10000", "6000", "1450", "65"] {
            roger.expect_error(
                &format!("go perft {depth}"),
                &[&format!(
                    "go: 'perft' value {depth} at token 3 is out of range 1..=64"
                )],
            );
        }
        roger.expect_error("go perft 0", &["out of range 1..=64"]);
    });
    // Still alive and counting.
    select(&mut roger, "chess");
    assert_eq!(roger.perft("startpos", 2), "Nodes searched: 400");
}

#[test]
fn deep_perft_on_the_command_line_is_refused_with_the_range() {
    for variant in GAMES {
        let args = ["perft", "--depth", "10000", "--variant", variant];
        assert_command_line_refused(&args, "10000 is not in 1..=64");
    }
}

/// Runs `roger` with `args`, which clap must refuse (exit 2) with `expected` in its message.
fn assert_command_line_refused(args: &[&str], expected: &str) {
    let output = Command::new(env!("CARGO_BIN_EXE_roger"))
        .args(args)
        .output()
        .expect("run roger");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(expected), "{stderr}");
}

#[test]
fn depths_beyond_the_search_are_refused_not_run_at_depth_one() {
    let mut roger = Roger::start();
    for game in GAMES {
        select(&mut roger, game);
        roger.send("position startpos");
        for (line, range) in [
            ("go depth 4294967295", "0..=124"),
            ("go depth 2147483648", "0..=124"),
            ("go depth 125", "0..=124"),
            ("go mate 2147483648", "0..=62"),
            ("go mate 63", "0..=62"),
        ] {
            let value = line.rsplit(' ').next().unwrap();
            roger.expect_error(
                line,
                &[&format!("value {value} at token 3 is out of range {range}")],
            );
        }
        for line in [
            "bench depth 2147483648",
            "bench depth 4294967296",
            "bench depth 125",
        ] {
            let value = line.rsplit(' ').next().unwrap();
            roger.expect_error(
                line,
                &[&format!(
                    "bench: 'depth' value {value} at token 3 is out of range 1..=124"
                )],
            );
        }
        // The deepest values are taken (and a node limit ends the search at once).
        for line in ["go depth 124 nodes 2000", "go mate 62 nodes 2000"] {
            roger.send(line);
            let lines = roger.await_bestmove(SEARCH);
            assert!(
                lines.iter().all(|line| !line.contains("error")),
                "{line}: {lines:#?}"
            );
        }
        assert!(roger.sync().is_empty());
    }
}

#[test]
fn bench_depth_beyond_the_search_is_refused_on_the_command_line() {
    assert_command_line_refused(&["bench", "--depth", "2147483648"], "not in 1..=124");
}

/// Issue 9, point 2: a long perft runs like a search, answering `isready`, `stop` and `quit`.
#[test]
fn a_long_perft_answers_isready_stop_and_quit() {
    let mut roger = Roger::start();
    in_every_game_and_thread_count(&mut roger, |roger, game| {
        // Minutes of counting in every game.
        roger.send("go perft 8");
        let started = Instant::now();
        assert!(roger.sync().is_empty());
        roger.expect_error("go depth 1", &["a search is already running"]);
        roger.expect_error("go perft 1", &["a search is running"]);
        roger.expect_error("bench", &["a search is running"]);
        roger.send("stop");
        assert_eq!(roger.sync(), ["info string perft 8 stopped"]);
        assert!(
            started.elapsed() < PROMPT,
            "{game}: {:?}",
            started.elapsed()
        );
    });
    select(&mut roger, "chess");
    assert_eq!(roger.perft("startpos", 3), "Nodes searched: 8902");
    roger.send("go perft 9");
    let started = Instant::now();
    roger.send("quit");
    roger.assert_exits(PROMPT);
    assert!(started.elapsed() < PROMPT);
}

/// Issue 9, point 2: `bench` too runs like a search.
#[test]
fn a_bench_answers_isready_stop_and_quit() {
    let mut roger = Roger::start();
    roger.send("bench depth 40");
    let started = Instant::now();
    // Progress lines may come before `readyok`, and nothing else.
    let lines = roger.sync();
    assert!(
        lines.iter().all(|line| line.starts_with("position ")),
        "{lines:#?}"
    );
    roger.send("go depth 1");
    roger.send("go perft 1");
    roger.send("bench");
    roger.send("stop");
    let lines = roger.sync();
    let errors: Vec<&String> = lines.iter().filter(|line| line.contains("error")).collect();
    assert_eq!(
        errors,
        [
            "info string error: go: a search is already running; send 'stop' first",
            "info string error: go perft: a search is running; send 'stop' first",
            "info string error: bench: a search is running; send 'stop' first",
        ],
        "{lines:#?}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("info string bench stopped")
    );
    assert!(started.elapsed() < PROMPT);
    // A short one still runs to its summary.
    roger.send("bench depth 1");
    let lines = roger.read_until(SEARCH, |line| line.ends_with(" nps"));
    assert!(
        lines.iter().any(|line| line.starts_with("millennium: ")),
        "{lines:#?}"
    );
    roger.send("bench depth 40");
    let started = Instant::now();
    roger.send("quit");
    roger.assert_exits(PROMPT);
    assert!(started.elapsed() < PROMPT);
}
