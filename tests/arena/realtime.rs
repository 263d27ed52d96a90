//! Realtime chess in the arena: the in-process lockstep loop, the engine referee in lockstep
//! and on the wall clock (in-process test engines that speak the realtime wire, and `roger play`
//! processes), faults, and the JSON record.

use roger::arena::pool::{play_games, Lineup, Workers};
use roger::arena::process::local::{LocalTransport, Outbox};
use roger::arena::process::uci::UciClient;
use roger::arena::process::{greet, Client, GameSetup, Inbox, Limits, Protocol};
use roger::arena::record::{
    ArenaReport, EngineRecord, FinishedGame, SettingsRecord, REPORT_FORMAT, REPORT_VERSION,
};
use roger::arena::referee::realtime::{
    play_lockstep, ClockMode, LockstepSettings, RealtimeRecord, RealtimeReferee, RealtimeSettings,
};
use roger::arena::referee::{Adjudication, RefereeSettings, SessionRecord, Termination};
use roger::arena::report::Summary;
use roger::arena::schedule::{schedule, shard, Format, ScheduleSettings};
use roger::plan::RealtimePlayer;
use roger::rules::realtime::{Color, EventKind, Ms, Order, RealtimeParams, RealtimeState};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// A fast game: a tick of 100 ms (the delay 1 s, the no-capture draw 30 s).
const FAST: RealtimeParams = RealtimeParams {
    tick_ms: 100,
    delay_ticks: 10,
    no_capture_draw_ticks: 300,
};

/// A test player: one of the orders the rules allow, drawn from a seeded generator, at most
/// one every `every` ms; deterministic for a seed.
struct Drawn {
    seed: u64,
    rng: u64,
    every: Ms,
    last: Option<Ms>,
}

impl Drawn {
    fn new(seed: u64, every: Ms) -> Drawn {
        Drawn {
            seed,
            rng: seed,
            every,
            last: None,
        }
    }

    fn next(&mut self) -> u64 {
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl RealtimePlayer for Drawn {
    fn name(&self) -> String {
        format!("drawn {}", self.seed)
    }

    fn new_game(&mut self) {
        self.rng = self.seed.max(1);
        self.last = None;
    }

    fn decide(&mut self, state: &RealtimeState, side: Color, _budget: Duration) -> Option<Order> {
        if self
            .last
            .is_some_and(|last| state.now() < last + self.every)
        {
            return None;
        }
        let mut orders = state.orders(side);
        // In a fixed order, so that a state read back from its text gives the same choice.
        orders.sort_by_key(|o| (o.from.0, o.to.0));
        if orders.is_empty() {
            return None;
        }
        self.last = Some(state.now());
        Some(orders[(self.next() % orders.len() as u64) as usize])
    }
}

/// A test player that gives the orders of a script at their ms, and waits otherwise.
struct Scripted(Vec<(Ms, &'static str)>);

impl RealtimePlayer for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }

    fn decide(&mut self, state: &RealtimeState, _side: Color, _budget: Duration) -> Option<Order> {
        let (_, text) = self.0.iter().find(|(ms, _)| *ms == state.now())?;
        Some(Order::parse(text).expect("the script's orders parse"))
    }
}

fn lockstep(params: RealtimeParams, max_game_ms: Option<Ms>) -> LockstepSettings {
    LockstepSettings {
        params,
        max_game_ms,
        ..LockstepSettings::default()
    }
}

#[test]
fn lockstep_games_end_by_the_rules_and_their_timelines_replay() {
    for seed in 1..=4 {
        let (mut white, mut black) = (Drawn::new(seed, 300), Drawn::new(seed + 100, 300));
        let settings = lockstep(FAST, None);
        let game = play_lockstep([&mut white, &mut black], &settings);
        let outcome = game.outcome.expect("the rules end every game");
        let last = game.events.last().expect("events");
        assert_eq!(last.kind, EventKind::Ended(outcome), "seed {seed}");
        assert_eq!(last.ms, game.end_ms);
        // Orders at polls only, each side at most once a poll; accepted ones started then.
        let mut started = game.events.iter().filter_map(|e| match e.kind {
            EventKind::Started { color, order } => Some((e.ms, color, order.to_string())),
            _ => None,
        });
        for order in &game.orders {
            assert_eq!(order.ms % settings.poll_ms, 0, "{order:?}");
            assert!(
                order.refusal.is_none(),
                "the drawn player gives legal orders"
            );
            assert_eq!(
                started.find(|s| s.0 == order.ms && s.1 == order.side),
                Some((order.ms, order.side, order.text.clone()))
            );
        }
        assert!(game.decisions.iter().all(|d| d.count > 0));
        // The record replays through the simulator to the very same events.
        let record = game.record(&settings);
        let replayed = record.replay().expect("the record replays");
        assert_eq!(replayed, game.events, "seed {seed}");
        // And the same players play the same game again.
        let (mut white, mut black) = (Drawn::new(seed, 300), Drawn::new(seed + 100, 300));
        let again = play_lockstep([&mut white, &mut black], &settings);
        assert_eq!(again.events, game.events);
    }
}

#[test]
fn the_side_asked_first_alternates_from_poll_to_poll() {
    // Both sides order at every poll they can; at the first poll White goes first, at the
    // second Black, and so on.
    let (mut white, mut black) = (Drawn::new(7, 0), Drawn::new(8, 0));
    let settings = lockstep(FAST, Some(1_000));
    let game = play_lockstep([&mut white, &mut black], &settings);
    assert_eq!(game.outcome, None, "cut off at 1000 ms");
    assert_eq!(game.end_ms, 1_000);
    for poll in 0..10u64 {
        let sides: Vec<Color> = game
            .orders
            .iter()
            .filter(|o| o.ms == poll * settings.poll_ms)
            .map(|o| o.side)
            .collect();
        let first = if poll % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if sides.len() == 2 {
            assert_eq!(sides, vec![first, first.flip()], "poll {poll}");
        }
    }
    assert!(
        game.orders.iter().all(|o| o.ms < 1_000),
        "nobody is asked at the limit"
    );
}

#[test]
fn refused_orders_are_recorded_with_their_rule_and_the_game_goes_on() {
    let mut white = Scripted(vec![
        (0, "g1f3"),
        (100, "f1c4"),   // the bishop's path holds the e2 pawn: rule 6
        (200, "a2b3"),   // a pawn's diagonal with nothing to take: rule 7
        (300, "e2e5"),   // not a pawn's move
        (2_000, "f3g5"), // the knight arrived at 2 ticks: on delay until 12 ticks
        (2_100, "e2e4"),
    ]);
    let mut black = Scripted(vec![(0, "b8c6")]);
    let settings = lockstep(RealtimeParams::default(), Some(5_000));
    let game = play_lockstep([&mut white, &mut black], &settings);
    let fate: Vec<(Ms, &str, Option<u8>, Option<&str>)> = game
        .orders
        .iter()
        .map(|o| {
            let refusal = o.refusal.as_ref();
            (
                o.ms,
                o.text.as_str(),
                refusal.and_then(|r| r.rule()),
                refusal.map(|r| r.name()),
            )
        })
        .collect();
    assert_eq!(
        fate,
        vec![
            (0, "g1f3", None, None),
            (0, "b8c6", None, None),
            (100, "f1c4", Some(6), Some("path-blocked")),
            (200, "a2b3", Some(7), Some("pawn-rule")),
            (300, "e2e5", None, Some("not-a-move")),
            (2_000, "f3g5", Some(1), Some("not-ready")),
            (2_100, "e2e4", None, None),
        ]
    );
    let record = game.record(&settings);
    assert_eq!(record.orders[2].rule, Some(6));
    assert!(record.orders[2]
        .reason
        .as_deref()
        .unwrap()
        .contains("rule 6"));
    assert_eq!(record.replay().unwrap(), game.events);
    // A record whose refusal does not replay is caught.
    let mut forged = record.clone();
    forged.orders[2].refused = None;
    assert!(forged.replay().is_err());
}

/// How a test engine misbehaves from its `after`-th `go` of a game on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Misstep {
    None,
    Crash,
    Silent,
    Slow(Duration),
    Garbage,
}

/// A test engine over the realtime wire (lockstep: `position state` and `go side`; streaming:
/// `play <side>`, answered at once by the `order` lines of that side's script) around a
/// [`RealtimePlayer`].
fn wire_engine(
    mut player: Box<dyn RealtimePlayer>,
    misstep: Misstep,
    after: u32,
    script: [&'static [&'static str]; 2],
) -> impl FnOnce(Receiver<String>, &Outbox) + Send {
    move |lines, out| {
        let mut params = RealtimeParams::default();
        let mut state = String::new();
        let mut asked = 0;
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied().unwrap_or("") {
                "uci" => {
                    out.say("id name wire-test");
                    out.say(
                        "option name UCI_Variant type combo default chess var chess var realtime",
                    );
                    out.say("uciok");
                }
                "isready" => {
                    out.say("readyok");
                }
                "setoption" => {
                    let value: u32 = words.last().and_then(|v| v.parse().ok()).unwrap_or(0);
                    match words.get(2).copied() {
                        Some("tick_ms") => params.tick_ms = value,
                        Some("delay_ticks") => params.delay_ticks = value,
                        Some("no_capture_draw_ticks") => params.no_capture_draw_ticks = value,
                        _ => {}
                    }
                }
                "ucinewgame" => {
                    asked = 0;
                    player.new_game();
                }
                "position" => state = line.trim_start_matches("position state ").to_string(),
                "go" => {
                    asked += 1;
                    if asked >= after {
                        match misstep {
                            Misstep::None => {}
                            Misstep::Crash => return,
                            Misstep::Silent => continue,
                            Misstep::Slow(pause) => std::thread::sleep(pause),
                            Misstep::Garbage => {
                                out.say("bestmove zz99");
                                continue;
                            }
                        }
                    }
                    let side = if words.get(2) == Some(&"black") {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let position = RealtimeState::from_text(&state, params).expect("state text");
                    let budget = Duration::from_millis(50);
                    match player.decide(&position, side, budget) {
                        Some(order) => out.say(&format!("bestmove {order}")),
                        None => out.say("bestmove none"),
                    };
                }
                "play" => {
                    let side = usize::from(words.get(1) == Some(&"black"));
                    for order in script[side] {
                        out.say(&format!("order {order}"));
                    }
                }
                "quit" => return,
                _ => {}
            }
        }
    }
}

/// A test engine's server, for [`LocalTransport`].
type Server = Box<dyn FnOnce(Receiver<String>, &Outbox) + Send>;

fn referee_settings(realtime: RealtimeSettings) -> RefereeSettings {
    RefereeSettings {
        variant: "realtime".into(),
        margin: Duration::from_millis(200),
        hang_timeout: Duration::from_secs(5),
        ready_timeout: Duration::from_secs(5),
        adjudication: Adjudication::default(),
        realtime,
        world: Default::default(),
        chess960: false,
    }
}

/// Plays `games` games between two test engines made by `make(index)` under `realtime`.
fn engine_match(
    games: usize,
    realtime: RealtimeSettings,
    make: &(dyn Fn(usize) -> Server + Sync),
) -> Vec<FinishedGame> {
    let start = |index: usize, inbox: &mut Inbox| -> Result<Box<dyn Client>, String> {
        let transport = LocalTransport::spawn(&format!("e{index}"), inbox, None, make(index));
        let setup = GameSetup {
            game: "realtime",
            options: &[],
            limits: Limits::default(),
            timeout: Duration::from_secs(5),
        };
        greet(Box::new(UciClient::new(transport)), inbox, &setup)
    };
    let budget = Limits {
        movetime: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let lineup = Lineup {
        names: vec!["first".into(), "second".into()],
        limits: vec![budget; 2],
        start: &start,
    };
    let list = schedule(&ScheduleSettings {
        variant: "realtime",
        games,
        ..ScheduleSettings::default()
    })
    .unwrap();
    let referee = RealtimeReferee::new(referee_settings(realtime));
    let stop = AtomicBool::new(false);
    let mut finished = Vec::new();
    play_games(
        &list,
        &referee,
        &lineup,
        &Workers::new(1, &stop),
        &mut |g| finished.push(g),
    );
    finished.sort_by_key(|g: &FinishedGame| g.scheduled.index);
    finished
}

/// The record's orders replay through the simulator to its events.
pub(super) fn assert_replays(record: &RealtimeRecord) {
    let replayed: Vec<String> = record
        .replay()
        .expect("the record replays")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(replayed, record.events);
}

fn record_of(game: &FinishedGame) -> &RealtimeRecord {
    match &game.played.record {
        SessionRecord::Realtime(record) => record,
        other => panic!("not a realtime record: {other:?}"),
    }
}

#[test]
fn the_engine_referee_plays_over_the_wire_the_game_played_in_process() {
    let realtime = RealtimeSettings {
        params: FAST,
        ..RealtimeSettings::default()
    };
    let make = |index: usize| -> Server {
        let player = Box::new(Drawn::new(11 + index as u64, 300));
        Box::new(wire_engine(player, Misstep::None, 0, [&[], &[]]))
    };
    let games = engine_match(2, realtime, &make);
    assert_eq!(games.len(), 2);
    for game in &games {
        let record = record_of(game);
        assert_eq!(record.mode, ClockMode::Lockstep);
        assert_eq!(game.played.termination, Termination::GameRule, "{game:?}");
        assert!(record.outcome.is_some());
        assert_replays(record);
        // The same players in process play the very same game.
        let seed = |seat: usize| 11 + game.scheduled.seats[seat] as u64;
        let (mut white, mut black) = (Drawn::new(seed(0), 300), Drawn::new(seed(1), 300));
        let settings = lockstep(FAST, None);
        let local = play_lockstep([&mut white, &mut black], &settings).record(&settings);
        assert_eq!(local.events, record.events);
        assert_eq!(local.result, record.result);
        let decisions = record.decisions.expect("lockstep counts decisions");
        assert!(decisions.iter().all(|d| d.count > 0));
    }
}

#[test]
fn crashing_silent_slow_and_garbage_engines() {
    let realtime = RealtimeSettings {
        params: FAST,
        ..RealtimeSettings::default()
    };
    let cases = [
        (Misstep::Crash, Termination::Crash),
        (Misstep::Silent, Termination::TimeForfeit),
        (
            Misstep::Slow(Duration::from_millis(400)),
            Termination::TimeForfeit,
        ),
    ];
    for (misstep, termination) in cases {
        let make = move |index: usize| -> Server {
            let player = Box::new(Drawn::new(3, 200));
            let misstep = if index == 0 { misstep } else { Misstep::None };
            Box::new(wire_engine(player, misstep, 5, [&[], &[]]))
        };
        let games = engine_match(2, realtime, &make);
        assert_eq!(games.len(), 2, "the match goes on after a fault");
        for game in &games {
            assert_eq!(
                game.played.termination, termination,
                "{misstep:?}: {game:?}"
            );
            let faulty = game.scheduled.seats.iter().position(|&e| e == 0).unwrap();
            assert_eq!(game.played.points[faulty], 0.0, "{misstep:?}");
            assert_replays(record_of(game));
        }
    }
    // Garbage is a refused order, not a fault: the game goes on.
    let make = |index: usize| -> Server {
        let misstep = if index == 0 {
            Misstep::Garbage
        } else {
            Misstep::None
        };
        Box::new(wire_engine(
            Box::new(Drawn::new(5, 200)),
            misstep,
            1,
            [&[], &[]],
        ))
    };
    let realtime = RealtimeSettings {
        params: FAST,
        max_game_ms: Some(2_000),
        ..RealtimeSettings::default()
    };
    for game in engine_match(2, realtime, &make) {
        let record = record_of(&game);
        assert!(!game.played.termination.is_fault(), "{game:?}");
        let garbage = record
            .orders
            .iter()
            .find(|o| o.order == "zz99")
            .expect("recorded");
        assert_eq!(garbage.refused.as_deref(), Some("not-a-move"));
    }
}

#[test]
fn a_wall_clock_game_applies_orders_at_the_ms_they_are_read() {
    let realtime = RealtimeSettings {
        params: RealtimeParams {
            tick_ms: 10,
            ..RealtimeParams::default()
        },
        wall_clock: true,
        max_game_ms: Some(600),
        ..RealtimeSettings::default()
    };
    let make = |index: usize| -> Server {
        // Each sends its side's orders at once when told to play.
        let script: [&[&str]; 2] = [&["g1f3", "f1c4", "d7d5"], &["b8c6", "c8f5"]];
        let player = Box::new(Drawn::new(1 + index as u64, 0));
        Box::new(wire_engine(player, Misstep::None, 0, script))
    };
    let games = engine_match(2, realtime, &make);
    for game in &games {
        let record = record_of(game);
        assert_eq!(record.mode, ClockMode::WallClock);
        assert_eq!(
            game.played.termination,
            Termination::MaxGameTime,
            "{game:?}"
        );
        assert_eq!(record.end_ms, 600);
        let trips = record.round_trip_us.expect("the pipe latency is measured");
        assert!(
            trips.iter().all(|&us| us > 0 && us < 1_000_000),
            "{trips:?}"
        );
        // Each order at the ms it was read: early in the game, and in order.
        let mut last = 0;
        for order in &record.orders {
            assert!(order.ms >= last && order.ms < 300, "{order:?}");
            last = order.ms;
        }
        let fates: Vec<(&str, Option<&str>)> = record
            .orders
            .iter()
            .map(|o| (o.order.as_str(), o.refused.as_deref()))
            .collect();
        for expected in [
            ("g1f3", None),
            ("f1c4", Some("path-blocked")),
            ("d7d5", Some("not-a-move")),
            ("b8c6", None),
            ("c8f5", Some("path-blocked")),
        ] {
            assert!(fates.contains(&expected), "{expected:?} in {fates:?}");
        }
        assert_replays(record);
    }
}

fn settings_record(realtime: &RealtimeSettings) -> SettingsRecord {
    SettingsRecord {
        variant: "realtime".into(),
        start_positions: None,
        engines: ["first", "second"]
            .iter()
            .map(|name| EngineRecord {
                name: name.to_string(),
                cmd: "in-process".into(),
                args: Vec::new(),
                proto: Protocol::Uci,
                options: Vec::new(),
                limits: "st=0.05".into(),
            })
            .collect(),
        format: Format::RoundRobin,
        rounds: 1,
        games: 4,
        book: None,
        random_plies: 0,
        seed: 1,
        adjudication: Adjudication::default(),
        timemargin_ms: 200,
        sprt: None,
        realtime: Some(realtime.record()),
        world: None,
    }
}

#[test]
fn realtime_games_round_trip_through_json_and_merge() {
    let realtime = RealtimeSettings {
        params: FAST,
        ..RealtimeSettings::default()
    };
    let make = |index: usize| -> Server {
        Box::new(wire_engine(
            Box::new(Drawn::new(21 + index as u64, 200)),
            Misstep::None,
            0,
            [&[], &[]],
        ))
    };
    let finished = engine_match(4, realtime, &make);
    let list = schedule(&ScheduleSettings {
        variant: "realtime",
        games: 4,
        ..ScheduleSettings::default()
    })
    .unwrap();
    let report = |games: Vec<FinishedGame>, shard, planned| ArenaReport {
        format: REPORT_FORMAT.into(),
        version: REPORT_VERSION,
        settings: settings_record(&realtime),
        total_games: 4,
        shard,
        planned_games: planned,
        interrupted: false,
        sprt_decision: None,
        games,
        summary: serde_json::Value::Null,
    };
    let mut parts = Vec::new();
    for index in 1..=2 {
        let share = shard(&list, index, 2);
        let own: Vec<FinishedGame> = finished
            .iter()
            .filter(|g| share.iter().any(|s| s.index == g.scheduled.index))
            .cloned()
            .collect();
        let mut part = report(own, Some((index, 2)), share.len());
        let file = super::scratch(&format!("realtime-{index}.json"));
        part.write_json(&file, None).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("\"family\": \"realtime\""), "{text}");
        let read = ArenaReport::read_json(&file).unwrap();
        assert_eq!(read.games, part.games);
        std::fs::remove_file(file).unwrap();
        parts.push((format!("realtime-{index}"), read));
    }
    let merged = ArenaReport::merge(parts).unwrap();
    assert_eq!(merged.games, finished);
    let summary = Summary::new(&merged, None);
    let points: f64 = summary.standings.iter().map(|s| s.points).sum();
    assert_eq!(points, 4.0, "1, ½ or 0 a game");
    assert_eq!(summary.games, 4);
    // A share of another tournament (other realtime settings) does not merge.
    let mut other = report(Vec::new(), Some((1, 2)), 2);
    other.settings.realtime = Some(
        RealtimeSettings {
            poll_ms: 50,
            ..realtime
        }
        .record(),
    );
    let whole = report(finished.clone(), None, 4);
    assert!(ArenaReport::merge(vec![("a".into(), whole), ("b".into(), other)]).is_err());
}
