//! Load measurements of the world server (ignored by `cargo test`; run them with
//! `cargo test --release --test suite world_load:: -- --ignored --nocapture --test-threads 1`):
//!
//! - 200 bot connections over loopback, each a client thread that plans its turns with the
//!   random reference player (it moves pieces every turn, where the greedy one waits until an
//!   enemy king is in view), for 100 simulated turns;
//! - 64 house bots (Roger's own engine) for 200 simulated turns.
//!
//! Each prints the server's own summary: turns per second, the longest turn-loop stall, and
//! the server's peak memory; the house run adds the engines' memory.
//!
//! Not ignored: `roger world-load` (the load generator, whose large runs are in
//! docs/world-server.md) on a small world, end to end.

use crate::world_support;

use roger::plan::MegachessPlayer;
use roger::players::megachess::RandomMegachessPlayer;
use roger::rules::megachess::WorldView;
use roger::world::api::{ClientMessage, ServerMessage, TeamChoice};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use world_support::{Client, Server, TempDir, TestDb, ROGER};

/// The server's closing summary line.
fn summary(server: &Server, timeout: Duration) -> String {
    server
        .wait_line("done:", timeout)
        .into_iter()
        .last()
        .unwrap()
}

/// One bot connection: joins, then answers every turn of its team with the random player's
/// moves, until the world closes or `end`.
fn load_bot(url: String, index: u64, end: Instant) -> (u64, u64) {
    let mut client = Client::connect(&url);
    let team = if index.is_multiple_of(2) {
        TeamChoice::Alabaster
    } else {
        TeamChoice::Metal
    };
    client.join(team, &format!("load-{index}"));
    let mut player = RandomMegachessPlayer::new(index);
    let stop = AtomicBool::new(false);
    let (mut turns, mut moves) = (0, 0);
    while Instant::now() < end {
        let Some(message) = client.recv(Duration::from_secs(5)) else {
            continue;
        };
        match message {
            ServerMessage::Turn {
                position: Some(position),
                ..
            } => {
                let line = position
                    .strip_prefix("position megachess ")
                    .unwrap_or_else(|| panic!("not a position line: {position}"));
                let params = roger::rules::megachess::MegachessParams::default();
                let view = WorldView::parse(line, &params)
                    .unwrap_or_else(|error| panic!("{error}: {position}"));
                let plan = player.plan_turn(
                    &view.world,
                    view.me,
                    Duration::from_millis(50).into(),
                    &stop,
                    &mut |_| {},
                );
                moves += plan.len() as u64;
                turns += 1;
                client.send(&ClientMessage::Turn {
                    moves: plan.iter().map(ToString::to_string).collect(),
                });
            }
            ServerMessage::Closing { .. } | ServerMessage::Eliminated { .. } => break,
            _ => {}
        }
    }
    (turns, moves)
}

#[test]
#[ignore = "a load measurement: run with --ignored --nocapture"]
fn two_hundred_bot_connections_for_a_hundred_simulated_turns() {
    let dir = TempDir::new("load");
    let bots = 200;
    let server = Server::start(
        dir.join("world.sqlite"),
        &[
            "--simulate",
            "--size",
            "1024",
            "1024",
            "--turns",
            "100",
            "--wait-players",
            &bots.to_string(),
            "--standings-every",
            "10",
            "--turn-ms",
            "10000",
        ],
    );
    let url = server.url();
    let began = Instant::now();
    let end = began + Duration::from_secs(600);
    let threads: Vec<_> = (0..bots)
        .map(|index| {
            let url = url.clone();
            std::thread::spawn(move || load_bot(url, index, end))
        })
        .collect();
    let line = summary(&server, Duration::from_secs(600));
    let results: Vec<(u64, u64)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let turns: u64 = results.iter().map(|r| r.0).sum();
    let moves: u64 = results.iter().map(|r| r.1).sum();
    println!("200 bot connections, 100 simulated turns on a 1024 x 1024 board:");
    println!("  server: {line}");
    println!(
        "  clients: {turns} turns answered, {moves} moves sent, {:.1} s in all",
        began.elapsed().as_secs_f64()
    );
    assert!(line.contains("done: 100 turns"), "{line}");
    assert!(
        turns >= 100 * bots / 2 * 9 / 10,
        "most turns answered: {turns}"
    );
}

#[test]
#[ignore = "a load measurement: run with --ignored --nocapture"]
fn sixty_four_house_bots_for_two_hundred_simulated_turns() {
    let dir = TempDir::new("house");
    let server = Server::start(
        dir.join("world.sqlite"),
        &[
            "--simulate",
            "--size",
            "256",
            "256",
            "--turns",
            "200",
            "--house-bots",
            "64",
            "--house-movetime",
            "40",
            "--wait-players",
            "64",
            "--standings-every",
            "20",
            "--turn-ms",
            "10000",
        ],
    );
    let began = Instant::now();
    // The engines' memory, sampled every second while the world runs; the largest sum.
    let running = Arc::new(AtomicBool::new(true));
    let sampler = {
        let running = Arc::clone(&running);
        std::thread::spawn(move || {
            let mut peak = 0;
            while running.load(Ordering::Relaxed) {
                peak = peak.max(engines_memory_kib(ROGER));
                std::thread::sleep(Duration::from_secs(1));
            }
            peak
        })
    };
    let line = summary(&server, Duration::from_secs(1200));
    running.store(false, Ordering::Relaxed);
    let engines = sampler.join().unwrap();
    println!("64 house bots (roger, 40 ms a turn), 200 simulated turns on a 256 x 256 board:");
    println!("  server: {line}");
    println!("  the 64 engines together: at most {engines} KiB resident");
    println!("  {:.1} s in all", began.elapsed().as_secs_f64());
    assert!(line.contains("done: 200 turns"), "{line}");
}

/// The resident memory of the processes running `binary` with no arguments (the house
/// engines), added up, in KiB; 0 where /proc cannot tell.
fn engines_memory_kib(binary: &str) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut total = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(command) = std::fs::read_to_string(path.join("cmdline")) else {
            continue;
        };
        let words: Vec<&str> = command.split('\0').filter(|w| !w.is_empty()).collect();
        if words.len() == 1 && words[0] == binary {
            if let Ok(status) = std::fs::read_to_string(path.join("status")) {
                total += status
                    .lines()
                    .find_map(|line| line.strip_prefix("VmRSS:"))
                    .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
    }
    total
}

crate::on_both_stores!(the_load_generator_runs_a_small_world_and_reports_it);

/// `roger world-load` end to end on a small world: its own server, its bots, its report; the
/// world in an SQLite file or, with `--postgres`, in a database it makes on that server.
fn the_load_generator_runs_a_small_world_and_reports_it(db: &TestDb) {
    let mut command = std::process::Command::new(ROGER);
    command.args([
        "world-load",
        "--players",
        "12",
        "--turns",
        "6",
        "--size",
        "64",
        "64",
    ]);
    if let TestDb::Postgres(_) = db {
        command.args(["--postgres", &db.arg()]);
    }
    let output = command.output().expect("roger world-load runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("12 connections, "), "{text}");
    // Six turns, three for each team of six bots, each bot moving 3 pieces a turn; every turn
    // seen by every bot. A bot chooses from its view as the turn began, so a teammate's move
    // may take its square first: nearly all its moves are accepted, not always all.
    assert!(text.contains("6 turns timed over"), "{text}");
    let accepted: u64 = text
        .split(" of 108 moves accepted")
        .next()
        .and_then(|before| before.rsplit(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no count of accepted moves: {text}"));
    assert!(accepted >= 90, "{text}");
    assert!(
        text.contains("the server's summary: done: 6 turns"),
        "{text}"
    );
    assert!(!text.contains("clients failed"), "{text}");
}
