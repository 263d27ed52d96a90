//! The Megachess dialect through the real binary: the handshake with every parameter as an
//! option, `position megachess` + `go` answered by a legal `bestturn` within `movetime`, every
//! refused line (one error, the last world kept), `d`, `stop`/`isready`/`quit` while planning,
//! the reference players of `roger play`, and the client written from the rules page alone
//! (tests/python/megachess_client.py, which has its own rules and none of Roger's code).

use roger::rules::megachess::{MegachessParams, Move, WorldView, PARAMETERS};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use common::{Roger, PROMPT, SCHEDULING};

/// Roger (or `roger play ...` with `args`) with Megachess selected.
fn megachess(args: &[&str]) -> Roger {
    let mut roger = Roger::start_with(args);
    assert_eq!(
        roger.select_variant("megachess"),
        "info string variant megachess size 256 256"
    );
    roger
}

/// Two armies facing each other with a gap of two rows, alabaster (player 1) to move.
fn facing_world() -> String {
    let mut pieces = Vec::new();
    for (i, kind) in "RNBQKBNR".chars().enumerate() {
        let x = 100 + i;
        pieces.push(format!("1{kind}{x},100"));
        pieces.push(format!("1P{x},101"));
        pieces.push(format!("2P{x},104"));
        pieces.push(format!("2{kind}{x},105"));
    }
    format!(
        "size 256 256 turn 1 me 1 players 1:a 2:m pieces {}",
        pieces.join(" ")
    )
}

/// The moves of a `bestturn` line, each checked legal after the ones before it.
fn checked_bestturn(line: &str, world_text: &str, params: &MegachessParams) -> Vec<Move> {
    let moves = line
        .strip_prefix("bestturn")
        .unwrap_or_else(|| panic!("not a bestturn line: {line:?}"));
    let view = WorldView::parse(world_text, params).expect("the test's world reads");
    let mut world = view.world;
    let moves: Vec<Move> = moves
        .split_whitespace()
        .map(|text| Move::parse(text).unwrap_or_else(|error| panic!("{line:?}: {error}")))
        .collect();
    for &mv in &moves {
        if let Err(rejection) = world.apply(view.me, mv) {
            panic!("{line:?}: {mv} is refused: {rejection}");
        }
    }
    moves
}

/// The `Position:` line of `d`.
fn shown_position(roger: &mut Roger) -> String {
    roger.send("d");
    let lines = roger.sync();
    lines
        .iter()
        .find_map(|line| line.strip_prefix("Position: "))
        .unwrap_or_else(|| panic!("no Position line in {lines:#?}"))
        .to_string()
}

#[test]
fn handshake_announces_every_parameter_as_an_option() {
    let mut roger = megachess(&[]);
    roger.send("uci");
    let lines = roger.until("uciok");
    assert!(PARAMETERS.len() >= 15, "{} parameters", PARAMETERS.len());
    for parameter in PARAMETERS {
        let wanted = format!(
            "option name {} type spin default {} min {} max {}",
            parameter.name, parameter.default, parameter.min, parameter.max
        );
        assert!(lines.contains(&wanted), "{wanted:?} not in {lines:#?}");
    }
    for name in [
        "width",
        "height",
        "turn_ms",
        "kingdom_radius",
        "fade_base",
        "fade_per_rank",
        "bonus_every",
        "rank_king",
        "rank_queen",
        "rank_rook",
        "rank_bishop",
        "rank_knight",
        "rank_pawn",
    ] {
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with(&format!("option name {name} type spin "))),
            "{name} not announced: {lines:#?}"
        );
    }
    let variant = lines
        .iter()
        .find(|line| line.starts_with("option name UCI_Variant"))
        .expect("UCI_Variant");
    assert!(variant.contains(" var megachess"), "{variant}");
    roger.send("setoption name kingdom_radius value 16");
    roger.send("setoption name RANK_QUEEN value 8");
    roger.expect_error(
        "setoption name kingdom_radius value -1",
        &["option 'kingdom_radius' value -1 is out of range"],
    );
    roger.expect_error(
        "setoption name fade_base value many",
        &["option 'fade_base' needs an integer, found 'many'"],
    );
    roger.expect_error(
        "setoption name tick_ms value 100",
        &["unknown option 'tick_ms'"],
    );
    assert!(roger.sync().is_empty());
}

/// The last `info time` before the answer: when the engine answered, by its own clock.
fn reported_time(lines: &[String]) -> u64 {
    let time = lines.iter().rev().find_map(|line| {
        let rest = line.strip_prefix("info time ")?;
        rest.split(' ').next()?.parse().ok()
    });
    time.unwrap_or_else(|| panic!("no 'info time' line: {lines:#?}"))
}

#[test]
fn a_legal_turn_comes_within_movetime_with_progress_before_it() {
    let mut roger = megachess(&[]);
    let world = facing_world();
    roger.send(&format!("position megachess {world}"));
    assert!(roger.sync().is_empty());
    let mut latencies = Vec::new();
    for movetime in [100, 100, 100, 300] {
        let asked = Instant::now();
        roger.send(&format!("go movetime {movetime}"));
        let lines = roger.until("bestturn");
        let took = asked.elapsed();
        latencies.push(took.as_millis());
        assert!(
            reported_time(&lines) < movetime,
            "answered late by its own clock: {lines:#?}"
        );
        assert!(
            took < Duration::from_millis(movetime) + SCHEDULING,
            "{took:?} for movetime {movetime}: {lines:#?}"
        );
        assert!(
            lines[..lines.len() - 1]
                .iter()
                .any(|line| line.starts_with("info time ")),
            "{lines:#?}"
        );
        assert!(
            !lines.iter().any(|line| line.contains("error")),
            "{lines:#?}"
        );
        let moves = checked_bestturn(lines.last().unwrap(), &world, &MegachessParams::default());
        assert!(!moves.is_empty(), "{lines:#?}");
    }
    eprintln!("answer latencies (ms) for movetime 100, 100, 100, 300: {latencies:?}");
}

#[test]
fn go_nodes_answers_the_same_turn_every_time_with_a_fixed_seed() {
    let mut roger = megachess(&[]);
    roger.send("setoption name Skill Seed value 4");
    let world = facing_world();
    roger.send(&format!("position megachess {world}"));
    assert!(roger.sync().is_empty());
    let mut turns = Vec::new();
    for _ in 0..2 {
        roger.send("go nodes 3000");
        let lines = roger.until("bestturn");
        assert!(
            !lines.iter().any(|line| line.contains("error")),
            "{lines:#?}"
        );
        let moves = checked_bestturn(lines.last().unwrap(), &world, &MegachessParams::default());
        assert!(!moves.is_empty(), "{lines:#?}");
        turns.push(lines.last().unwrap().clone());
    }
    assert_eq!(turns[0], turns[1]);
}

#[test]
fn every_bad_line_gets_one_error_and_the_last_world_stays() {
    let mut roger = megachess(&[]);
    roger.expect_error(
        "go movetime 100",
        &["go: no world yet; send 'position megachess"],
    );
    let world = facing_world();
    roger.send(&format!("position megachess {world}"));
    let before = shown_position(&mut roger);
    let cases: &[(&str, &[&str])] = &[
        (
            "position megachess size 64 64 turn 1 me 1 players 1:a pieces 1K3,3 1P3,3",
            &["3,3"],
        ),
        (
            "position megachess size 64 64 turn 1 me 1 players 1:a pieces 1K3,3 9P4,4",
            &["9"],
        ),
        (
            "position megachess size 0 64 turn 1 me 1 players 1:a pieces 1K3,3",
            &["size"],
        ),
        (
            "position megachess size 64 64 turn 0 me 1 players 1:a 2:m pieces 1K3,3",
            &["turn '0' is out of range 1..=9223372036854775807"],
        ),
        (
            "position megachess size 64 64 turn 9223372036854775808 me 1 players 1:a pieces 1K3,3",
            &["turn '9223372036854775808' is out of range 1..=9223372036854775807"],
        ),
        (
            "position megachess size 64 64 turn 1 me 1 players 1:a pieces 1K3,3 1P007,3",
            &["1P007,3", "x '007' has a leading zero: write it as '7'"],
        ),
        (
            "position megachess size 64 64 turn 01 me 1 players 1:a pieces 1K3,3",
            &["turn '01' has a leading zero: write it as '1'"],
        ),
        (
            "position megachess size 64 64 turn 1 me 1 players 1:a pieces 1K99,3",
            &["99,3"],
        ),
        (
            "position megachess size 64 64 turn 1 me 1 players 1:x pieces 1K3,3",
            &["1:x"],
        ),
        ("position megachess garbage", &["garbage"]),
        ("position megachess", &["missing the world"]),
        ("position startpos", &["expected 'megachess' at token 2"]),
        ("go depth 3", &["unknown parameter 'depth'"]),
        ("go movetime soon", &["'movetime' needs a number of ms"]),
        (
            "go movetime 0100",
            &["'movetime' value '0100' at token 3 has a leading zero: write it as '100'"],
        ),
        ("ponderhit", &["unknown command 'ponderhit'"]),
        (
            "setoption name UCI_Variant value megachess2",
            &["has no value 'megachess2'"],
        ),
    ];
    for (line, fragments) in cases {
        let error = roger.expect_error(line, fragments);
        if line.starts_with("position megachess size") {
            assert!(error.ends_with("; the world is unchanged"), "{error}");
        }
        assert_eq!(shown_position(&mut roger), before, "after {line:?}");
    }
    // The world kept is the one planned in.
    roger.send("go movetime 100");
    let lines = roger.until("bestturn");
    checked_bestturn(lines.last().unwrap(), &world, &MegachessParams::default());
}

/// A server that numbers its turns otherwise than the rules page (here alabaster's turn is
/// even, as a server counting from 0 or per team might send) gets its turn planned: `me` says
/// whose turn it is, and `turn` is information.
#[test]
fn me_says_whose_turn_it_is_whatever_the_turn_number() {
    let mut roger = megachess(&[]);
    let world = facing_world().replace(" turn 1 ", " turn 2 ");
    roger.send(&format!("position megachess {world}"));
    roger.send("d");
    let lines = roger.sync();
    assert!(
        lines[0].starts_with("World: size 256 256 turn 2 (alabaster to move), me 1 (alabaster)"),
        "{lines:#?}"
    );
    roger.send("go movetime 100");
    let lines = roger.until("bestturn");
    let moves = checked_bestturn(lines.last().unwrap(), &world, &MegachessParams::default());
    assert!(!moves.is_empty(), "{lines:#?}");
}

#[test]
fn d_shows_the_window_and_a_position_line_that_reads_back() {
    let mut roger = megachess(&[]);
    roger.send("d");
    let lines = roger.sync();
    assert!(lines[0].starts_with("World: none yet"), "{lines:#?}");
    let world = facing_world();
    roger.send(&format!("position megachess {world}"));
    roger.send("d");
    let lines = roger.sync();
    assert!(
        lines[0].starts_with("World: size 256 256 turn 1 (alabaster to move), me 1 (alabaster)"),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&"Window: x 98..109, y 98..103 (12 x 6), 2 squares around the army".into()),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&". . P*P*P*P*P*P*P*P*. . 101".into()),
        "{lines:#?}"
    );
    let position = lines.last().unwrap().strip_prefix("Position: ").unwrap();
    roger.send(position);
    assert!(roger.sync().is_empty());
    assert_eq!(shown_position(&mut roger), position);
    // A window too large to draw is summed up.
    roger.send(
        "position megachess size 1000000 1000000 turn 2 me 7 players 7:m 8:a \
         pieces 7K10,10 7Q900000,900000 8K11,12 0N12,10",
    );
    roger.send("d");
    let lines = roger.sync();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("Map: too large to draw")),
        "{lines:#?}"
    );
    assert!(lines.contains(&"  mine: 2 (1K 1Q)".into()), "{lines:#?}");
    assert!(lines.contains(&"  enemies: 1 (1K)".into()), "{lines:#?}");
    assert!(lines.contains(&"  neutral: 1 (1N)".into()), "{lines:#?}");
}

#[test]
fn stop_isready_and_quit_are_answered_while_planning() {
    let mut roger = megachess(&[]);
    roger.send(&format!("position megachess {}", facing_world()));
    roger.send("go infinite");
    let asked = Instant::now();
    let lines = roger.sync();
    assert!(asked.elapsed() < SCHEDULING, "{lines:#?}");
    assert!(!lines.iter().any(|line| line.starts_with("bestturn")));
    // Progress lines may come meanwhile; the second `go` gets one error.
    roger.send("go movetime 10");
    let lines = roger.sync();
    let (errors, others): (Vec<&String>, Vec<&String>) = lines
        .iter()
        .partition(|line| line.starts_with("info string error: "));
    assert_eq!(
        errors,
        ["info string error: go: a plan is already running; send 'stop' first"],
        "{lines:#?}"
    );
    assert!(
        others.iter().all(|line| line.starts_with("info time ")),
        "{lines:#?}"
    );
    let stopped = Instant::now();
    roger.send("stop");
    let lines = roger.until("bestturn");
    assert!(stopped.elapsed() < SCHEDULING, "{lines:#?}");
    checked_bestturn(
        lines.last().unwrap(),
        &facing_world(),
        &MegachessParams::default(),
    );
    // A second stop answers nothing.
    roger.send("stop");
    assert!(roger.sync().is_empty());
    // quit while planning: the answer, then the end.
    roger.send("go movetime 60000");
    roger.send("quit");
    let lines = roger.until("bestturn");
    assert!(lines.last().unwrap().starts_with("bestturn"));
    roger.assert_exits(PROMPT);
}

#[test]
fn a_late_player_is_answered_for_at_the_movetime() {
    let mut roger = megachess(&["play", "random", "--fault", "slow"]);
    roger.send(&format!("position megachess {}", facing_world()));
    let asked = Instant::now();
    roger.send("go movetime 200");
    let lines = roger.until("bestturn");
    assert!(reported_time(&lines) < 200, "{lines:#?}");
    assert!(
        asked.elapsed() < Duration::from_millis(200) + SCHEDULING,
        "{lines:#?}"
    );
    assert_eq!(
        lines[0],
        "info string random did not finish within 200 ms; answering its best turn so far"
    );
    assert_eq!(lines.last().unwrap(), "bestturn");
}

#[test]
fn the_reference_players_serve_megachess() {
    for player in ["random", "greedy"] {
        let mut roger = Roger::start_with(&["play", player, "--variant", "megachess"]);
        roger.send("uci");
        let lines = roger.until("uciok");
        assert_eq!(lines[0], format!("id name Roger {player}"));
        assert!(
            lines.contains(&"option name UCI_Variant type combo default megachess var chess var nichess var millennium var realtime var megachess".into()),
            "{lines:#?}"
        );
        let world = facing_world();
        roger.send(&format!("position megachess {world}"));
        roger.send("go movetime 500");
        let lines = roger.until("bestturn");
        let moves = checked_bestturn(lines.last().unwrap(), &world, &MegachessParams::default());
        assert!(!moves.is_empty(), "{player}: {lines:#?}");
    }
}

/// Runs tests/python/megachess_client.py with `args`; `None` when python3 is missing.
fn python_client(args: &[&str]) -> Option<(bool, String)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/megachess_client.py");
    let output = match Command::new("python3").arg(&script).args(args).output() {
        Ok(output) => output,
        Err(error) => {
            eprintln!("note: python3 is not available ({error}); the rules-page client is skipped");
            return None;
        }
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Some((output.status.success(), text))
}

#[test]
fn a_client_written_from_the_rules_page_finds_every_turn_legal() {
    // Its checker can fail: it refuses a list of illegal turns.
    let Some((passed, text)) = python_client(&["--self-test"]) else {
        return;
    };
    assert!(passed && text.starts_with("self-test ok"), "{text}");
    let roger = env!("CARGO_BIN_EXE_roger");
    for engine in [
        vec![roger],
        vec![roger, "play", "greedy", "--variant", "megachess"],
        vec![roger, "play", "random", "--variant", "megachess"],
    ] {
        let mut args = vec!["--movetime", "200", "--turns", "3", "--"];
        args.extend(engine.iter().copied());
        let (passed, text) = python_client(&args).expect("python3 ran before");
        assert!(passed && text.starts_with("ok: "), "{engine:?}: {text}");
        eprintln!("{engine:?}: {}", text.trim());
    }
}

/// A world of 75 armies (1,200 pieces) spread over a 1,000,000-wide board, player 1 to move.
fn crowded_world_text() -> String {
    let mut players = Vec::new();
    let mut pieces = Vec::new();
    for player in 1..=75u32 {
        let team = if player % 2 == 1 { 'a' } else { 'm' };
        players.push(format!("{player}:{team}"));
        let (x0, y0) = (999_000 + (player % 10) * 90, 999_000 + (player / 10) * 40);
        let (back, front) = if team == 'a' {
            (y0, y0 + 1)
        } else {
            (y0 + 1, y0)
        };
        for (i, kind) in "RNBQKBNR".chars().enumerate() {
            let x = x0 + i as u32;
            pieces.push(format!("{player}{kind}{x},{back}.m"));
            pieces.push(format!("{player}P{x},{front}/2"));
        }
    }
    format!(
        "size 1000000 1000000 turn 1 me 1 players {} pieces {}",
        players.join(" "),
        pieces.join(" ")
    )
}

/// The figures behind protocol.md's "Learning the world by deltas": what reading a whole world
/// line of 1,200 pieces costs, in the library and through the binary, against what applying a
/// turn's moves to the last world (a delta) would. Run: `cargo test --release --test suite
/// megachess_uci:: -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_the_cost_of_a_whole_world_line() {
    let text = crowded_world_text();
    let params = MegachessParams::default();
    let rounds = 200;
    let started = Instant::now();
    for _ in 0..rounds {
        let view = WorldView::parse(&text, &params).unwrap();
        assert_eq!(view.world.piece_count(), 1200);
    }
    let parse = started.elapsed() / rounds;
    let view = WorldView::parse(&text, &params).unwrap();
    // A delta: the 16 moves of one army, applied to a copy of the last world.
    let mut board = view.world.clone();
    let mut turn = Vec::new();
    for mv in view.world.legal_moves(view.me) {
        if turn.len() < 16 && board.apply(view.me, mv).is_ok() {
            turn.push(mv);
        }
    }
    let started = Instant::now();
    for _ in 0..rounds {
        let mut board = view.world.clone();
        for &mv in &turn {
            board.apply(view.me, mv).unwrap();
        }
    }
    let delta = started.elapsed() / rounds;
    // Through the binary: `position` then `isready`, against `isready` alone.
    let mut roger = megachess(&[]);
    let line = format!("position megachess {text}");
    let mut with_position = Duration::MAX;
    let mut alone = Duration::MAX;
    for _ in 0..20 {
        let started = Instant::now();
        roger.send(&line);
        assert!(roger.sync().is_empty());
        with_position = with_position.min(started.elapsed());
        let started = Instant::now();
        assert!(roger.sync().is_empty());
        alone = alone.min(started.elapsed());
    }
    eprintln!(
        "world line: {} bytes, 1200 pieces; WorldView::parse {parse:?}; a delta of {} moves \
         applied to a copy {delta:?}; through the binary: position + isready {with_position:?}, \
         isready alone {alone:?}",
        line.len(),
        turn.len()
    );
}
