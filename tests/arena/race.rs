//! A toy game without turns, through the arena's own process layer, inbox, schedule, referee
//! trait, statistics and report: both seats are told `go` at once and send `token 1`,
//! `token 2`, ... whenever they like; the first to send every token in order wins, and a token
//! out of order loses.

use roger::arena::pool::{play_games, Lineup, Workers};
use roger::arena::process::local::{LocalTransport, Outbox};
use roger::arena::process::{
    read_until, Client, Connection, EngineFault, GameSetup, Inbox, Limits, Protocol, TimeControl,
    WaitError,
};
use roger::arena::record::{
    ArenaReport, EngineRecord, FinishedGame, SettingsRecord, REPORT_FORMAT, REPORT_VERSION,
};
use roger::arena::referee::{
    win_for, Adjudication, Referee, Session, SessionRecord, SessionResult, Termination,
};
use roger::arena::report::{encounter_stats, Summary};
use roger::arena::schedule::{schedule, shard, Format, ScheduleSettings, ScheduledGame};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

const TOKENS: usize = 5;

/// A racer: `pause` between tokens; `cheat` starts with a token out of order.
fn racer(pause: Duration, cheat: bool) -> impl FnOnce(Receiver<String>, &Outbox) + Send {
    move |lines, out| {
        for line in lines {
            match line.as_str() {
                "new" => {
                    out.say("ready");
                }
                "go" => {
                    let first = if cheat { 3 } else { 1 };
                    for token in first..=TOKENS {
                        std::thread::sleep(pause);
                        out.say(&format!("token {token}"));
                    }
                }
                _ => return,
            }
        }
    }
}

/// A client that speaks no protocol beyond `new`/`ready`: the referee reads its lines.
struct RaceClient(Connection);

impl Client for RaceClient {
    fn connection(&mut self) -> &mut Connection {
        &mut self.0
    }
    fn new_game(&mut self, inbox: &mut Inbox, setup: &GameSetup) -> Result<(), EngineFault> {
        // Tokens of the last race still under way are read and dropped.
        self.send("new")?;
        read_until(self, inbox, setup.timeout, |line| line == "ready").map(drop)
    }
}

struct RaceReferee;

impl Referee for RaceReferee {
    fn game(&self) -> &str {
        "race"
    }

    fn play(&self, session: &mut Session) -> Option<SessionResult> {
        let (clients, inbox) = (&mut *session.clients, &mut *session.inbox);
        let seats = clients.len();
        let result = |points, termination, detail: String, counts: &[usize]| SessionResult {
            points,
            termination,
            detail,
            record: SessionRecord::Other(
                serde_json::json!({ "tokens": counts })
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        };
        let mut counts = vec![0; seats];
        for (seat, client) in clients.iter_mut().enumerate() {
            let setup = GameSetup {
                game: "race",
                options: &[],
                limits: session.limits[seat],
                timeout: Duration::from_secs(5),
            };
            if let Err(fault) = client.new_game(inbox, &setup) {
                let (termination, detail) = Termination::of_fault("racer", &fault, false)?;
                return Some(result(
                    win_for(1 - seat, seats),
                    termination,
                    detail,
                    &counts,
                ));
            }
        }
        for client in clients.iter_mut() {
            client.send("go").ok()?;
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let arrival = match inbox.next_any(deadline, Some(session.cancel)) {
                Ok(arrival) => arrival,
                Err(WaitError::Cancelled) => return None,
                Err(error) => panic!("the race stalled: {error:?}"),
            };
            let seat = arrival.seat;
            let expected = format!("token {}", counts[seat] + 1);
            if arrival.line.as_deref() != Some(expected.as_str()) {
                clients[seat].set_faulted();
                let detail = format!("seat {} sent {:?}", seat + 1, arrival.line);
                let points = win_for(1 - seat, seats);
                return Some(result(points, Termination::IllegalMove, detail, &counts));
            }
            counts[seat] += 1;
            if counts[seat] == TOKENS {
                let detail = format!("seat {} sent every token first", seat + 1);
                let points = win_for(seat, seats);
                return Some(result(points, Termination::GameRule, detail, &counts));
            }
        }
    }

    fn forfeit(&self, _game: &ScheduledGame, seat: usize, detail: String) -> SessionResult {
        SessionResult {
            points: win_for(1 - seat, 2),
            termination: Termination::StartFailure,
            detail,
            record: SessionRecord::Other(Default::default()),
        }
    }
}

fn settings_record(names: &[&str], rounds: usize, games: usize, seed: u64) -> SettingsRecord {
    SettingsRecord {
        variant: "race".into(),
        start_positions: None,
        engines: names
            .iter()
            .map(|name| EngineRecord {
                name: name.to_string(),
                cmd: "in-process".into(),
                args: Vec::new(),
                proto: Protocol::Uci,
                options: Vec::new(),
                limits: "tc=1+0".into(),
            })
            .collect(),
        format: Format::RoundRobin,
        rounds,
        games,
        book: None,
        random_plies: 0,
        seed,
        adjudication: Adjudication::default(),
        timemargin_ms: 50,
        sprt: None,
        realtime: None,
        world: None,
    }
}

#[test]
fn a_race_without_turns_runs_through_the_arena() {
    let names = ["fast", "slow", "cheat"];
    let start = |index: usize, inbox: &mut Inbox| -> Result<Box<dyn Client>, String> {
        let pause = Duration::from_millis([10, 60, 0][index]);
        let server = racer(pause, index == 2);
        let transport = LocalTransport::spawn(names[index], inbox, None, server);
        Ok(Box::new(RaceClient(Connection::new(transport))))
    };
    let lineup = Lineup {
        names: names.iter().map(|n| n.to_string()).collect(),
        limits: vec![
            Limits {
                tc: Some(TimeControl::parse("1").unwrap()),
                ..Limits::default()
            };
            3
        ],
        start: &start,
    };
    let games = schedule(&ScheduleSettings {
        variant: "race",
        engines: 3,
        rounds: 2,
        seed: 5,
        ..ScheduleSettings::default()
    })
    .unwrap();
    assert_eq!(games.len(), 12);
    let mut finished: Vec<FinishedGame> = Vec::new();
    let stop = AtomicBool::new(false);
    let workers = Workers::new(2, &stop);
    play_games(&games, &RaceReferee, &lineup, &workers, &mut |game| {
        finished.push(game)
    });
    finished.sort_by_key(|game| game.scheduled.index);
    assert_eq!(finished.len(), 12);
    for game in &finished {
        let winner = game.played.points.iter().position(|&p| p == 1.0).unwrap();
        let winner = game.names[winner].as_str();
        match (game.names.contains(&"cheat".into()), winner) {
            (true, "cheat") => panic!("a cheat won: {game:?}"),
            (true, _) => assert_eq!(game.played.termination, Termination::IllegalMove),
            (false, winner) => {
                assert_eq!(winner, "fast", "{game:?}");
                assert_eq!(game.played.termination, Termination::GameRule);
            }
        }
    }
    // Statistics and standings by seat.
    let fast_vs_slow = encounter_stats(&finished, 0, 1);
    assert_eq!(
        (fast_vs_slow.trinomial.wins, fast_vs_slow.trinomial.losses),
        (4, 0)
    );
    assert_eq!(fast_vs_slow.pentanomial.counts, [0, 0, 0, 0, 2]);
    let report = |games: Vec<FinishedGame>, shard, planned| ArenaReport {
        format: REPORT_FORMAT.into(),
        version: REPORT_VERSION,
        settings: settings_record(&names, 2, 2, 5),
        total_games: 12,
        shard,
        planned_games: planned,
        interrupted: false,
        sprt_decision: None,
        games,
        summary: serde_json::Value::Null,
    };
    let whole = report(finished.clone(), None, 12);
    let summary = Summary::new(&whole, None);
    let standing: Vec<(&str, f64)> = summary
        .standings
        .iter()
        .map(|s| (s.name.as_str(), s.points))
        .collect();
    assert_eq!(standing, vec![("fast", 8.0), ("slow", 4.0), ("cheat", 0.0)]);
    assert_eq!(summary.faults, 4 + 4);
    assert!(summary.text().contains("fast vs slow: 4 games"));
    // Version 2 JSON holds the race's own record, and shares merge back into the whole.
    let mut parts = Vec::new();
    for index in 1..=2 {
        let share = shard(&games, index, 2);
        let own: Vec<FinishedGame> = finished
            .iter()
            .filter(|g| share.iter().any(|s| s.index == g.scheduled.index))
            .cloned()
            .collect();
        let mut part = report(own, Some((index, 2)), share.len());
        let file = super::scratch(&format!("race-{index}.json"));
        part.write_json(&file, None).unwrap();
        let read = ArenaReport::read_json(&file).unwrap();
        assert_eq!(read.games, part.games);
        std::fs::remove_file(file).unwrap();
        parts.push((format!("race-{index}"), read));
    }
    let merged = ArenaReport::merge(parts).unwrap();
    assert_eq!(merged.games, whole.games);
    let SessionRecord::Other(record) = &merged.games[0].played.record else {
        panic!("the race's record");
    };
    assert!(record["tokens"].as_array().is_some());
}
