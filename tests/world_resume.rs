//! A world server killed with SIGKILL in the middle of a run resumes from its database with no
//! completed turn lost: the turn log of the completed turns is unchanged, and the first turn
//! after the restart continues from exactly the stored world (its logged moves replay on it).

use crate::world_support;

use roger::rules::megachess::{Move, World};
use roger::world::api::{ClientMessage, ServerMessage, TeamChoice};
use roger::world::events::{Event, LogEntry};
use roger::world::store;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use world_support::{Client, Server, TestDb, ROGER};

/// The turn of a standings line (`turn N ...`), if it is one.
fn standings_turn(line: &str) -> Option<u64> {
    line.strip_prefix("turn ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// A simulated world of four house bots (Roger, 50 ms a turn).
fn house_args() -> Vec<String> {
    [
        "--simulate",
        "--size",
        "64",
        "64",
        "--seed",
        "3",
        "--house-bots",
        "4",
        "--wait-players",
        "4",
        "--house-movetime",
        "50",
        "--param",
        "bonus_every=2",
        "--param",
        "kingdom_radius=6",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

crate::on_both_stores!(
    a_sigkilled_world_resumes_with_no_completed_turn_lost,
    a_second_server_on_a_held_file_is_refused_by_name_and_the_first_keeps_its_players,
);

fn a_sigkilled_world_resumes_with_no_completed_turn_lost(db: &TestDb) {
    let args = house_args();
    let mut with_turns = args.clone();
    with_turns.extend(["--turns".to_string(), "1000".to_string()]);
    let refs: Vec<&str> = with_turns.iter().map(String::as_str).collect();
    let mut server = Server::start(db.arg(), &refs);
    // Let it play some turns, then kill it in the middle of whatever it is doing.
    let seen = server.wait_line("turn 12 ", Duration::from_secs(60));
    let printed = seen.iter().filter_map(|line| standings_turn(line)).max();
    server.kill();
    drop(server);

    let (mut store, saved) = store::resume(&db.place()).expect("the killed world reads");
    let completed = saved.last_turn;
    assert!(
        completed >= printed.unwrap(),
        "turn {printed:?} was printed as done but only {completed} is stored"
    );
    assert_eq!(saved.world.turn, completed + 1);
    let before = store.events(1, completed).unwrap();
    let ends = |events: &[LogEntry]| -> Vec<u64> {
        events
            .iter()
            .filter(|entry| matches!(entry.event, Event::TurnEnd { .. }))
            .map(|entry| entry.turn)
            .collect()
    };
    assert_eq!(ends(&before), (1..=completed).collect::<Vec<_>>());
    // The stored scores are those the log's last turn end gave.
    let Some(Event::TurnEnd { scores }) = before.last().map(|entry| &entry.event) else {
        panic!("the log of a completed turn ends with its turn end")
    };
    for player in &saved.world.players {
        assert_eq!(scores.get(&player.id), Some(&player.score), "{player:?}");
    }
    drop(store);

    // Resume and play six more turns.
    let target = completed + 6;
    let mut resumed_args = args.clone();
    resumed_args.extend([
        "--resume".to_string(),
        "--turns".to_string(),
        target.to_string(),
    ]);
    let refs: Vec<&str> = resumed_args.iter().map(String::as_str).collect();
    let mut server = Server::start(db.arg(), &refs);
    server.wait_line("resumed", Duration::from_secs(30));
    assert_eq!(server.wait_exit(Duration::from_secs(120)), Some(0));

    let (mut store, after) = store::resume(&db.place()).unwrap();
    assert_eq!(after.last_turn, target);
    assert_eq!(
        store.events(1, completed).unwrap(),
        before,
        "the completed turns' log is unchanged"
    );
    let all = store.events(1, target).unwrap();
    assert_eq!(ends(&all), (1..=target).collect::<Vec<_>>());

    // The first turn after the restart played on exactly the stored world: its logged moves
    // and rejections replay on it, and its end fades and places what the log says.
    let mut world = World::from_snapshot(&saved.world).unwrap();
    let next: Vec<LogEntry> = store.events(completed + 1, completed + 1).unwrap();
    let mut moves = 0;
    for entry in &next {
        match &entry.event {
            Event::Move {
                player,
                mv,
                effects,
            } => {
                let result = world.apply(*player, Move::parse(mv).unwrap());
                let applied = result.unwrap_or_else(|r| panic!("{mv} by {player}: {r}"));
                assert_eq!(applied.points, effects.points, "{mv}");
                moves += 1;
            }
            Event::Rejected {
                player,
                mv,
                rejection,
                ..
            } => {
                if let Ok(parsed) = Move::parse(mv) {
                    let refused = world.check(*player, parsed).unwrap_err();
                    assert_eq!(refused.name(), rejection);
                }
            }
            Event::Faded { pieces } => {
                let end = world.end_turn();
                let ids: Vec<u32> = end.faded.iter().map(|f| f.id.0).collect();
                let logged: Vec<u32> = pieces.iter().map(|p| p.id).collect();
                assert_eq!(ids, logged);
            }
            _ => {}
        }
    }
    assert!(
        moves > 0,
        "the house bots played the first turn after the restart"
    );
}

fn a_second_server_on_a_held_file_is_refused_by_name_and_the_first_keeps_its_players(db: &TestDb) {
    let args = ["--simulate", "--size", "16", "16", "--wait-players", "3"];
    let first = Server::start(db.arg(), &args);
    let mut ada = Client::connect(&first.url());
    let (ada_id, ada_token) = ada.join(TeamChoice::Alabaster, "ada");

    // The second server, on the same file: refused before it writes anything.
    let mut second = Command::new(ROGER)
        .args(["world", "--resume", "--listen", "127.0.0.1:0", "--db"])
        .arg(db.arg())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(20);
    let code = loop {
        if let Some(status) = second.try_wait().unwrap() {
            break status.code();
        }
        if Instant::now() > end {
            let _ = second.kill();
            let _ = second.wait();
            panic!("a second server on a held file ran on");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    second
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let holder = format!("pid {} on ", first.child.id());
    assert!(
        stderr.contains(&db.shown())
            && stderr.contains(&holder)
            && stderr.contains(&format!("listening {}", first.addr)),
        "{stderr}"
    );

    // The first server goes on: the next player gets the next id, and ada's token works.
    let mut bob = Client::connect(&first.url());
    let (bob_id, _) = bob.join(TeamChoice::Metal, "bob");
    assert_eq!(bob_id, ada_id + 1);
    drop(ada);
    let mut back = Client::connect(&first.url());
    back.send(&ClientMessage::Hello { token: ada_token });
    let (player, _) = back.until(Duration::from_secs(15), |message| match message {
        ServerMessage::Welcome { player, .. } => Some(*player),
        ServerMessage::Error { error, .. } => panic!("hello refused: {error}"),
        _ => None,
    });
    assert_eq!(player, ada_id);
}
