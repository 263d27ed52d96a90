//! `roger arena` end to end: real tournaments between roger processes and the built-in
//! players, the referee's endings, engines that misbehave on purpose (`roger play --fault`),
//! errors before any game, Ctrl-C, SPRT, and shards merged back into the whole run.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const ROGER: &str = env!("CARGO_BIN_EXE_roger");

/// A scratch file name unique to this test process and `name`.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("roger-arena-test-{}-{name}", std::process::id()))
}

fn arena(args: &[&str]) -> Output {
    Command::new(ROGER)
        .arg("arena")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run roger arena")
}

/// The words of a command line without quoted arguments.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

fn text(output: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs a tournament that must succeed and returns its JSON report.
fn tournament(name: &str, args: &[&str]) -> Value {
    let json = scratch(&format!("{name}.json"));
    let mut all: Vec<&str> = args.to_vec();
    let json_text = json.display().to_string();
    all.extend(["--json", &json_text]);
    let output = arena(&all);
    assert!(output.status.success(), "{}", text(&output));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(json).unwrap();
    report
}

fn games(report: &Value) -> &Vec<Value> {
    report["games"].as_array().expect("games")
}

/// (termination, result) of every game.
fn endings(report: &Value) -> Vec<(String, String)> {
    games(report)
        .iter()
        .map(|g| {
            (
                g["termination"].as_str().unwrap().to_string(),
                g["record"]["result"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A faulty built-in player against a sound one; every game must be lost by the faulty one.
fn fault_match(name: &str, fault: &str, limits: &[&str]) -> Value {
    let faulty = format!("args=play random --fault {fault} --fault-after 2");
    let mut args = vec![
        "--engine",
        "cmd=roger",
        "name=faulty",
        &faulty,
        "--engine",
        "cmd=roger",
        "name=sound",
        "args=play greedy",
        "--each",
    ];
    args.extend(limits);
    args.extend(["--games", "2", "--seed", "3"]);
    let report = tournament(name, &args);
    assert_eq!(
        games(&report).len(),
        2,
        "the tournament goes on after a fault"
    );
    for game in games(&report) {
        let faulty_white = game["names"][0] == "faulty";
        let expected = if faulty_white { "0-1" } else { "1-0" };
        assert_eq!(game["record"]["result"], expected, "{game}");
        // Two moves each were fine before the fault struck.
        assert!(
            game["record"]["moves"].as_array().unwrap().len() >= 4,
            "{game}"
        );
    }
    report
}

#[test]
fn a_short_real_match_with_pgn_and_json() {
    let pgn = scratch("match.pgn");
    let pgn_text = pgn.display().to_string();
    let report = tournament(
        "match",
        &[
            "--engine",
            "cmd=roger",
            "name=roger",
            "depth=2",
            "option.Hash=4",
            "--engine",
            "cmd=roger",
            "args=play random",
            "tc=10+0.1",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--random-plies",
            "2",
            "--seed",
            "11",
            "--maxplies",
            "400",
            "--pgnout",
            &pgn_text,
        ],
    );
    assert_eq!(games(&report).len(), 4);
    assert_eq!(report["summary"]["faults"], 0);
    let roger = &report["summary"]["standings"][0];
    assert_eq!(roger["name"], "roger");
    assert!(roger["points"].as_f64().unwrap() >= 3.0, "{roger}");
    // The second engine is named by its handshake.
    assert_eq!(report["settings"]["engines"][1]["name"], "Roger random");
    let pgn_file = pgn;
    let pgn = std::fs::read_to_string(&pgn_file).unwrap();
    let _ = std::fs::remove_file(&pgn_file);
    assert_eq!(pgn.matches("[Variant \"chess\"]").count(), 4);
    assert!(pgn.contains("{book}"));
    assert!(pgn.contains("[Termination \""));
}

#[test]
fn nichess_and_millennium_matches() {
    for variant in ["nichess", "millennium"] {
        let listed = Command::new(ROGER)
            .args(["perft", "--depth", "1", "--variant", variant])
            .output()
            .unwrap();
        if !listed.status.success() {
            continue; // not registered yet
        }
        let report = tournament(
            variant,
            &[
                "--variant",
                variant,
                "--engine",
                "cmd=roger",
                "args=play greedy",
                "--engine",
                "cmd=roger",
                "args=play random",
                "--each",
                "tc=5+0.1",
                "--games",
                "2",
                "--seed",
                "2",
                "--maxplies",
                "300",
            ],
        );
        assert_eq!(report["settings"]["variant"], variant);
        for (termination, _) in endings(&report) {
            assert!(
                ![
                    "time_forfeit",
                    "illegal_move",
                    "crash",
                    "unresponsive",
                    "protocol_error"
                ]
                .contains(&termination.as_str()),
                "{variant}: {termination}"
            );
        }
    }
}

#[test]
fn a_gauntlet_prints_standings() {
    let output = arena(&words(
        "--format gauntlet --engine cmd=roger name=roger depth=1 \
         --engine cmd=roger name=greedy arg=play arg=greedy \
         --engine cmd=roger name=random arg=play arg=random \
         --each tc=10+0.1 --games 2 --seed 4 --maxplies 200",
    ));
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("Rank"), "{out}");
    for name in ["roger", "greedy", "random"] {
        assert!(out.contains(name), "{out}");
    }
    assert!(out.contains("roger vs greedy: 2 games"), "{out}");
    assert!(out.contains("roger vs random: 2 games"), "{out}");
    assert!(!out.contains("greedy vs random"), "{out}");
}

#[test]
fn the_referee_ends_games_by_the_rules_and_its_ply_limit() {
    let book = scratch("endings.epd");
    std::fs::write(
        &book,
        "# White mates in one (Qh7#... Qg7#), then a stalemate already on the board\n\
         7k/8/5KQ1/8/8/8/8/8 w - - 0 1\n\
         7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n",
    )
    .unwrap();
    let book_arg = format!("file={}", book.display());
    let report = tournament(
        "endings",
        &[
            "--engine",
            "cmd=roger",
            "name=roger",
            "depth=3",
            "--engine",
            "cmd=roger",
            "name=random",
            "args=play random",
            "st=1",
            "--openings",
            &book_arg,
            "format=epd",
            "--games",
            "2",
            "--rounds",
            "2",
            "--seed",
            "1",
        ],
    );
    let endings = endings(&report);
    // Round 1 opening: roger mates as White; with colours swapped random is White.
    assert_eq!(endings[0], ("checkmate".to_string(), "1-0".to_string()));
    assert_eq!(endings[2].0, "stalemate");
    assert_eq!(endings[3].0, "stalemate");
    assert_eq!(endings[2].1, "1/2-1/2");
    std::fs::remove_file(book).unwrap();

    let report = tournament(
        "maxplies",
        &words(
            "--engine cmd=roger arg=play arg=random --engine cmd=roger arg=play arg=random \
             --each st=1 --games 2 --seed 1 --maxplies 7",
        ),
    );
    for game in games(&report) {
        assert_eq!(game["termination"], "max_plies");
        assert_eq!(game["record"]["result"], "1/2-1/2");
        assert_eq!(game["points"], serde_json::json!([0.5, 0.5]));
        assert_eq!(game["record"]["moves"].as_array().unwrap().len(), 7);
    }
}

#[test]
fn garbage_and_illegal_moves_lose() {
    let report = fault_match("garbage", "garbage", &["tc=5+0.1"]);
    for game in games(&report) {
        assert_eq!(game["termination"], "illegal_move", "{game}");
    }
    let report = fault_match("illegal", "illegal", &["tc=5+0.1"]);
    for game in games(&report) {
        assert_eq!(game["termination"], "illegal_move");
        assert!(game["detail"].as_str().unwrap().contains("a1a1"), "{game}");
    }
}

#[test]
fn crashes_lose_and_the_engine_is_restarted() {
    let report = fault_match("crash", "crash", &["tc=5+0.1"]);
    for game in games(&report) {
        assert_eq!(game["termination"], "crash", "{game}");
        assert!(
            game["detail"].as_str().unwrap().contains("status 3"),
            "{game}"
        );
    }
}

#[test]
fn hangs_and_slow_answers_lose_on_time_or_as_unresponsive() {
    let started = Instant::now();
    let report = fault_match("hang", "hang", &["tc=0.5+0.05"]);
    for game in games(&report) {
        assert_eq!(game["termination"], "time_forfeit", "{game}");
    }
    let report = fault_match("slow", "slow", &["tc=0.3+0"]);
    for game in games(&report) {
        assert_eq!(game["termination"], "time_forfeit", "{game}");
    }
    let faulty = "args=play random --fault hang --fault-after 1";
    let report = tournament(
        "unresponsive",
        &[
            "--engine",
            "cmd=roger",
            "name=faulty",
            faulty,
            "--engine",
            "cmd=roger",
            "args=play greedy",
            "--each",
            "depth=3",
            "--games",
            "1",
            "--seed",
            "3",
            "--hang-timeout",
            "0.5",
        ],
    );
    assert_eq!(
        endings(&report),
        vec![("unresponsive".to_string(), "0-1".to_string())]
    );
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn bad_setups_fail_before_any_game() {
    // The first engine's settings, more flags, and what the error says; the second engine is
    // always `cmd=roger tc=1`.
    let cases: &[(&[&str], &[&str], &str)] = &[
        (&["cmd=/no/such/engine", "tc=1"], &[], "does not exist"),
        (&["cmd=roger", "tc=1", "option.Hash"], &[], "not key=value"),
        (&["cmd=roger"], &[], "no limit"),
        (
            &["cmd=roger", "tc=1"],
            &["--concurrency", "two"],
            "--concurrency",
        ),
        (
            &["cmd=roger", "tc=1", "option.Hahs=4"],
            &[],
            "has no option 'Hahs'",
        ),
        (
            &["cmd=roger", "tc=1", "option.Hash=0"],
            &[],
            "refused its setup",
        ),
        (
            &["cmd=roger", "args=play random --fault no-handshake", "tc=1"],
            &["--ready-timeout", "1"],
            "handshake",
        ),
        (
            &["cmd=/usr/bin/env", "args=true", "tc=1"],
            &["--variant", "nichess", "--ready-timeout", "1"],
            "engine 'env'",
        ),
    ];
    for (first, extra, message) in cases {
        let mut args = vec!["--engine"];
        args.extend(*first);
        args.extend(["--engine", "cmd=roger", "tc=1"]);
        args.extend(*extra);
        let pgn = scratch("never.pgn");
        let pgn_text = pgn.display().to_string();
        let mut all = args.to_vec();
        all.extend(["--pgnout", &pgn_text]);
        let output = arena(&all);
        let out = text(&output);
        assert!(!output.status.success(), "{args:?}: {out}");
        assert!(
            out.contains(message),
            "{args:?} should say {message:?}: {out}"
        );
        assert!(!out.contains("Game 1/"), "{args:?}: {out}");
        let _ = std::fs::remove_file(pgn);
    }
}

#[test]
fn an_sprt_stops_a_lopsided_match_early() {
    let output = arena(&words(
        "--engine cmd=roger name=roger depth=2 \
         --engine cmd=roger name=random arg=play arg=random st=1 \
         --games 60 --seed 8 --concurrency 2 --maxplies 300 \
         --sprt elo0=0 elo1=400 alpha=0.1 beta=0.1",
    ));
    let out = text(&output);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("SPRT: H1 accepted"), "{out}");
    assert!(!out.contains("Game 60/60"), "{out}");
}

#[test]
fn ctrl_c_ends_the_run_with_the_finished_games_written() {
    let json = scratch("interrupted.json");
    let json_text = json.display().to_string();
    let random = "--engine cmd=roger arg=play arg=random";
    let mut child = Command::new(ROGER)
        .arg("arena")
        .args(words(&format!(
            "{random} {random} --each st=0.05 --games 400 --seed 5"
        )))
        .args(["--json", &json_text])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once the first game is reported: however slow the machine, some have finished.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut before = String::new();
    loop {
        let mut line = String::new();
        let read = stdout.read_line(&mut line).unwrap();
        assert!(read > 0, "the arena ended before its first game: {before}");
        before.push_str(&line);
        if line.starts_with("Game ") {
            break;
        }
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.stdout = Some(stdout.into_inner());
    let output = child.wait_with_output().unwrap();
    let out = format!("{before}{}", text(&output));
    assert_eq!(output.status.code(), Some(130), "{out}");
    assert!(out.contains("Interrupted after"), "{out}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["interrupted"], true);
    let played = games(&report).len();
    assert!(played > 0 && played < 400, "{played}");
    std::fs::remove_file(json).unwrap();
}

/// What must be equal between a whole run and its merged shares.
fn game_keys(report: &Value) -> Vec<(u64, Value, Vec<String>, String, String)> {
    games(report)
        .iter()
        .map(|g| {
            (
                g["index"].as_u64().unwrap(),
                g["opening"].clone(),
                g["record"]["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["move"].as_str().unwrap().to_string())
                    .collect(),
                g["record"]["result"].as_str().unwrap().to_string(),
                g["termination"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn shards_merged_equal_the_whole_run_game_for_game() {
    let common = [
        "--engine",
        "cmd=roger",
        "name=roger",
        "depth=2",
        "option.Threads=1",
        "--engine",
        "cmd=roger",
        "name=greedy",
        "args=play greedy --seed 9",
        "--engine",
        "cmd=roger",
        "name=random",
        "args=play random --seed 4",
        "--each",
        "tc=30+1",
        "--games",
        "2",
        "--rounds",
        "2",
        "--random-plies",
        "3",
        "--seed",
        "77",
        "--maxplies",
        "80",
        "--concurrency",
        "2",
    ];
    let whole = tournament("whole", &common);
    let mut files = Vec::new();
    for share in ["1/2", "2/2"] {
        let mut args = common.to_vec();
        args.extend(["--shard", share]);
        let name = format!("share{}", &share[..1]);
        let file = scratch(&format!("{name}.json"));
        let file_text = file.display().to_string();
        args.extend(["--json", &file_text]);
        let output = arena(&args);
        assert!(output.status.success(), "{}", text(&output));
        files.push(file_text);
    }
    let merged_file = scratch("merged.json");
    let merged_text = merged_file.display().to_string();
    let merged_pgn = scratch("merged.pgn").display().to_string();
    let output = Command::new(ROGER)
        .args([
            "arena",
            "merge",
            &files[0],
            &files[1],
            "--json",
            &merged_text,
            "--pgnout",
            &merged_pgn,
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(&merged_file).unwrap()).unwrap();
    assert_eq!(games(&whole).len(), 12);
    assert_eq!(game_keys(&merged), game_keys(&whole));
    assert_eq!(
        merged["summary"]["standings"],
        whole["summary"]["standings"]
    );
    let pgn = std::fs::read_to_string(&merged_pgn).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 12);
    // A share of another tournament does not merge.
    let other = scratch("other.json");
    let mut other_report: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    other_report["settings"]["seed"] = Value::from(78);
    std::fs::write(&other, other_report.to_string()).unwrap();
    let other_text = other.display().to_string();
    let output = Command::new(ROGER)
        .args(["arena", "merge", &files[0], &other_text])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        text(&output).contains("not from the same tournament"),
        "{}",
        text(&output)
    );
    for file in files.iter().chain([&merged_text, &merged_pgn, &other_text]) {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn xboard_engines_play_and_their_faults_lose() {
    let uci = words("--engine cmd=roger name=uci arg=play arg=random --each tc=5+0.1 --games 2");
    for variant in ["chess", "nichess"] {
        let mut args = words("--engine cmd=roger name=xb arg=play arg=greedy arg=--xboard");
        args.extend(words("proto=xboard option.Hash=8"));
        args.extend(&uci);
        args.extend(["--variant", variant]);
        args.extend(words("--seed 6 --random-plies 2 --maxplies 200"));
        let report = tournament(&format!("xboard-{variant}"), &args);
        assert_eq!(report["summary"]["faults"], 0, "{variant}: {report}");
        assert_eq!(report["settings"]["engines"][0]["name"], "xb");
    }
    let mut args = words("--engine cmd=roger name=xb proto=xboard");
    args.push("args=play greedy --xboard --fault crash --fault-after 6");
    args.extend(&uci);
    args.extend(["--seed", "6"]);
    let report = tournament("xboard-crash", &args);
    for game in games(&report) {
        assert_eq!(game["termination"], "crash", "{game}");
    }
}

#[test]
fn a_version_1_share_merges_with_a_version_2_share() {
    // tests/data/arena-v1-share1.json is share 1/2 of this tournament in the form the arena
    // wrote before the JSON file's version 2 (its games played again when the crate's seeded
    // generators became one, which changed the random opening plies, and written in that form).
    let common = words(
        "--engine cmd=roger name=greedy arg=play arg=greedy arg=--seed arg=9 \
         --engine cmd=roger name=random arg=play arg=random arg=--seed arg=4 \
         --each depth=1 --games 4 --seed 21 --random-plies 2 --maxplies 60",
    );
    let whole = tournament("v1-whole", &common);
    assert_eq!(whole["version"], 2);
    let mut args = common.clone();
    args.extend(["--shard", "2/2"]);
    let share2 = tournament("v1-share2-probe", &args);
    assert_eq!(share2["version"], 2);
    let share2_file = scratch("v1-share2.json");
    std::fs::write(&share2_file, share2.to_string()).unwrap();
    let share1_file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/arena-v1-share1.json"
    );
    let merged_file = scratch("v1-merged.json");
    let merged_text = merged_file.display().to_string();
    let output = Command::new(ROGER)
        .args(["arena", "merge", share1_file])
        .arg(&share2_file)
        .args(["--json", &merged_text])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("4 games of 4 merged from 2 files"));
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(&merged_file).unwrap()).unwrap();
    assert_eq!(merged["version"], 2);
    // The built-in players are deterministic: the old share's games are the new run's games.
    assert_eq!(game_keys(&merged), game_keys(&whole));
    assert_eq!(
        merged["summary"]["standings"],
        whole["summary"]["standings"]
    );
    for file in [&share2_file, &merged_file] {
        let _ = std::fs::remove_file(file);
    }
}

mod megachess;
mod race;
mod realtime;
mod realtime_cli;
