//! Realtime chess through `roger arena`'s command line: its flags, built-in players in-process,
//! and `roger play` processes refereed in lockstep and on the wall clock.

use super::realtime::assert_replays;
use roger::arena::cli::{parse_arena_args, ArenaCommand, ArenaSettings};
use roger::arena::process::Limits;
use roger::arena::referee::realtime::{ClockMode, RealtimeRecord, RealtimeSettings};
use roger::arena::referee::{SessionRecord, Termination};
use std::time::Duration;

/// The realtime records of a report's games.
fn records(report: &serde_json::Value) -> Vec<RealtimeRecord> {
    super::games(report)
        .iter()
        .map(
            |game| match serde_json::from_value(game["record"].clone()) {
                Ok(SessionRecord::Realtime(record)) => record,
                other => panic!("not a realtime record: {other:?} in {game}"),
            },
        )
        .collect()
}

#[test]
fn roger_play_processes_in_lockstep_and_on_the_wall_clock() {
    let engines = [
        "--engine",
        "cmd=roger",
        "name=greedy1",
        "args=play greedy --seed 1",
        "--engine",
        "cmd=roger",
        "name=greedy2",
        "args=play random --seed 2",
        "--games",
        "2",
        "--seed",
        "1",
        "--variant",
        "realtime",
    ];
    // Lockstep at a tick of 100 ms.
    let mut args = engines.to_vec();
    args.extend(["--tick-ms", "100", "--max-game-ms", "60000"]);
    let report = super::tournament("realtime-lockstep", &args);
    assert_eq!(report["settings"]["realtime"]["mode"], "lockstep");
    for (game, record) in super::games(&report).iter().zip(records(&report)) {
        assert_eq!(record.mode, ClockMode::Lockstep);
        assert!(!Termination::is_fault(
            serde_json::from_value(game["termination"].clone()).unwrap()
        ));
        assert!(record.orders.iter().all(|o| o.ms % 100 == 0));
        assert_replays(&record);
    }
    // The wall clock at a tick of 20 ms: orders count at the ms the referee read them.
    let mut args = engines.to_vec();
    args.extend(["--wall-clock", "--tick-ms", "20", "--max-game-ms", "5000"]);
    let report = super::tournament("realtime-wall", &args);
    for (game, record) in super::games(&report).iter().zip(records(&report)) {
        assert_eq!(record.mode, ClockMode::WallClock, "{game}");
        let termination = game["termination"].as_str().unwrap();
        assert!(
            ["game_rule", "max_game_time"].contains(&termination),
            "{game}"
        );
        let trips = record.round_trip_us.expect("the pipes' round trips");
        assert!(
            trips.iter().all(|&us| us > 0 && us < 1_000_000),
            "{trips:?}"
        );
        assert!(!record.orders.is_empty());
        let mut last = 0;
        for order in &record.orders {
            assert!(order.ms >= last, "in time order: {order:?}");
            assert!(order.read_ms.is_none_or(|read| read < order.ms));
            last = order.ms;
        }
        // Applied later than read only when the referee had played on past the read ms: rare.
        let late = record.orders.iter().filter(|o| o.read_ms.is_some()).count();
        assert!(
            late * 10 <= record.orders.len(),
            "{late} of {}",
            record.orders.len()
        );
        assert_replays(&record);
    }
}

#[test]
fn random_plies_open_realtime_games_with_orders_at_zero() {
    let args = [
        "--engine",
        "cmd=roger",
        "args=play greedy --seed 1",
        "--engine",
        "cmd=roger",
        "args=play greedy --seed 2",
        "--games",
        "4",
        "--seed",
        "5",
        "--random-plies",
        "6",
        "--variant",
        "realtime",
        "--tick-ms",
        "100",
        "--max-game-ms",
        "3000",
    ];
    let report = super::tournament("realtime-random-plies", &args);
    let games = super::games(&report);
    let openings: Vec<Vec<String>> = games
        .iter()
        .map(|game| serde_json::from_value(game["opening"]["moves"].clone()).unwrap())
        .collect();
    // A pair shares its opening with colours swapped; the next pair has another.
    assert_eq!(openings[0].len(), 6, "{openings:?}");
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[0], openings[2]);
    for (record, opening) in records(&report).iter().zip(&openings) {
        // White's and Black's in turn, all started at 0 ms and none refused.
        for (ply, (order, text)) in record.orders.iter().zip(opening).enumerate() {
            assert_eq!((order.ms, &order.order), (0, text));
            assert_eq!(order.side, if ply % 2 == 0 { "white" } else { "black" });
            assert!(
                order.refused.is_none() && order.time_ms.is_none(),
                "{order:?}"
            );
        }
        assert_replays(record);
    }
}

/// The settings of an `roger arena` command line that must parse.
fn arena_settings(line: &str) -> ArenaSettings {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    match parse_arena_args(&args) {
        Ok(ArenaCommand::Run(settings)) => *settings,
        Ok(_) => panic!("{line}: not a tournament"),
        Err(error) => panic!("{line}: {error}"),
    }
}

/// The error of an `roger arena` command line that must not parse.
fn arena_error(line: &str) -> String {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    parse_arena_args(&args).expect_err(line)
}

#[test]
fn the_realtime_flags_of_roger_arena() {
    let s = arena_settings(
        "--variant realtime --engine cmd=roger --engine cmd=roger st=0.1 --poll-ms 50 \
         --tick-ms 100 --delay-ticks 5 --no-capture-draw-ticks 200 --wall-clock \
         --max-game-ms 9000",
    );
    let realtime = s.referee.realtime;
    assert_eq!((realtime.poll_ms, realtime.wall_clock), (50, true));
    assert_eq!(realtime.max_game_ms, Some(9000));
    let params = realtime.params;
    assert_eq!(
        (
            params.tick_ms,
            params.delay_ticks,
            params.no_capture_draw_ticks
        ),
        (100, 5, 200)
    );
    assert_eq!(s.engines[0].limits, Limits::default());
    assert_eq!(
        s.engines[1].limits.movetime,
        Some(Duration::from_millis(100))
    );
    let lockstep = arena_settings("--variant realtime --engine cmd=roger --engine cmd=roger");
    assert_eq!(lockstep.referee.realtime, RealtimeSettings::default());
    let two = "--engine cmd=roger --engine cmd=roger";
    let cases = [
        (
            format!("{two} tc=1 --poll-ms 50"),
            "--poll-ms is for --variant realtime",
        ),
        (
            format!("{two} tc=1 --wall-clock"),
            "--wall-clock is for --variant realtime",
        ),
        (
            format!("--variant realtime {two} tc=1"),
            "realtime engines take st=",
        ),
        (
            format!("--variant realtime {two} --maxplies 20"),
            "--maxplies: not for",
        ),
        (
            format!("--variant realtime {two} --poll-ms 0"),
            "at least 1",
        ),
        (format!("--variant realtime {two} --tick-ms 5"), "tick_ms"),
        (
            format!("--variant realtime {two} --wall-clock yes"),
            "unexpected value",
        ),
        (
            format!("--variant realtime {two} --tick-ms 99999999999"),
            "too large",
        ),
    ];
    for (line, message) in cases {
        let error = arena_error(&line);
        assert!(error.contains(message), "{line}: {error}");
    }
}

#[test]
fn built_in_players_in_process_by_the_command_line() {
    let s = arena_settings(
        "--engine cmd=roger args=play inprocess=true arg=greedy tc=1 \
         --engine cmd=roger arg=play arg=random arg=--seed arg=5 inprocess=true tc=1",
    );
    let players: Vec<_> = s.engines.iter().map(|e| e.in_process).collect();
    assert!(players.iter().all(Option::is_some));
    assert_eq!(players[1].unwrap().seed, 5);
    for bad in [
        "--engine cmd=roger inprocess=true tc=1 --engine cmd=roger tc=1",
        "--engine cmd=roger args=play_greedy inprocess=true tc=1 --engine cmd=roger tc=1",
        "--engine cmd=roger args=play arg=greedy arg=--fault arg=crash inprocess=true tc=1 \
         --engine cmd=roger tc=1",
    ] {
        assert!(arena_error(bad).contains("inprocess=true needs"), "{bad}");
    }
    assert!(
        arena_error("--engine cmd=roger inprocess=maybe tc=1 --engine cmd=roger tc=1")
            .contains("not true or false")
    );
}
