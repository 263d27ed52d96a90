//! The engine bridge that `roger bot` and the house bots share, over a scripted link: it sends
//! the engine's legal moves, answers `done` in time when the engine crashes or hangs, starts a
//! new engine for the next turn, and stops when its king falls. And a house bot against a fake
//! turn loop: it joins, plays, and joins anew when its king falls.

use roger::rules::megachess::{Coord, Facing, MegachessParams, Move, Team, World, PARAMETERS};
use roger::world::api::{ClientMessage, ServerMessage, TeamChoice};
use roger::world::bridge::{Bridge, BridgeSettings, Ending, Link};
use roger::world::config::HouseConfig;
use roger::world::house::HouseBots;
use roger::world::hub::Request;
use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const ROGER: &str = env!("CARGO_BIN_EXE_roger");

/// A link that delivers a script and keeps what the bridge sends, with when it sent it.
struct ScriptedLink {
    script: VecDeque<ServerMessage>,
    sent: Vec<(Instant, ClientMessage)>,
    /// When each `turn` message was handed to the bridge, and its deadline.
    turns_given: Vec<(Instant, u64)>,
}

impl ScriptedLink {
    fn new(script: impl IntoIterator<Item = ServerMessage>) -> ScriptedLink {
        ScriptedLink {
            script: script.into_iter().collect(),
            sent: Vec::new(),
            turns_given: Vec::new(),
        }
    }
}

impl Link for ScriptedLink {
    fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        self.sent.push((Instant::now(), message.clone()));
        Ok(())
    }
    fn recv(&mut self, _wait: Duration) -> Result<Option<ServerMessage>, String> {
        let message = self
            .script
            .pop_front()
            .ok_or_else(|| "the script is over".to_string())?;
        if let ServerMessage::Turn { deadline_ms, .. } = &message {
            self.turns_given.push((Instant::now(), *deadline_ms));
        }
        Ok(Some(message))
    }
}

fn world() -> World {
    let params = MegachessParams {
        width: 24,
        height: 24,
        ..MegachessParams::default()
    };
    let mut world = World::new(params, 1);
    world.add_player(1, Team::Alabaster).unwrap();
    world.add_player(2, Team::Metal).unwrap();
    world
        .spawn_army(1, Coord::new(8, 2), Facing::North)
        .unwrap();
    world
        .spawn_army(2, Coord::new(8, 20), Facing::South)
        .unwrap();
    world
}

fn welcome(world: &World) -> ServerMessage {
    let params: BTreeMap<String, i64> = PARAMETERS
        .iter()
        .map(|p| (p.name.to_string(), world.params().get(p.name).unwrap()))
        .collect();
    ServerMessage::Welcome {
        player: 1,
        team: "alabaster".into(),
        name: "test".into(),
        params,
        window: 16,
        turn: world.turn(),
        simulate: true,
        alive: true,
    }
}

fn turn(world: &World, deadline_ms: u64) -> ServerMessage {
    ServerMessage::Turn {
        turn: world.turn(),
        team: "alabaster".into(),
        you_move: true,
        deadline_ms,
        position: Some(world.position_line(1, None)),
    }
}

fn settings(engine: &[&str]) -> BridgeSettings {
    BridgeSettings {
        label: "test".into(),
        engine: engine.iter().map(|word| word.to_string()).collect(),
        options: Vec::new(),
        movetime: Duration::from_millis(100),
        margin: Duration::from_millis(100),
        turns: None,
        quiet: true,
        announce: false,
        token_file: None,
    }
}

fn answers(link: &ScriptedLink) -> Vec<&ClientMessage> {
    link.sent.iter().map(|(_, message)| message).collect()
}

#[test]
fn the_engine_s_moves_go_to_the_server_and_are_legal() {
    let world = world();
    let mut link = ScriptedLink::new([welcome(&world), turn(&world, 2000)]);
    let mut bridge = Bridge::new(settings(&[ROGER]));
    assert!(matches!(bridge.play(&mut link), Ending::LinkLost(_)));
    let [ClientMessage::Turn { moves }] = &answers(&link)[..] else {
        panic!("{:?}", link.sent)
    };
    assert!(!moves.is_empty(), "Roger moves its army");
    let mut copy = world.clone();
    for text in moves {
        copy.apply(1, Move::parse(text).unwrap())
            .unwrap_or_else(|rejection| panic!("{text}: {rejection}"));
    }
}

#[test]
fn a_crashed_engine_costs_one_turn_and_a_new_one_plays_the_next() {
    let world = world();
    let mut link = ScriptedLink::new([
        welcome(&world),
        turn(&world, 2000),
        turn(&world, 2000),
        turn(&world, 2000),
    ]);
    let engine = [
        ROGER,
        "play",
        "random",
        "--variant",
        "megachess",
        "--fault",
        "crash",
        "--fault-after",
        "1",
    ];
    let mut bridge = Bridge::new(settings(&engine));
    bridge.play(&mut link);
    let sent = answers(&link);
    assert!(matches!(sent[0], ClientMessage::Turn { .. }), "{sent:?}");
    assert_eq!(sent[1], &ClientMessage::Done, "the crash: {sent:?}");
    assert!(matches!(sent[2], ClientMessage::Turn { .. }), "{sent:?}");
    assert_eq!(bridge.counters.engine_restarts, 1);
}

#[test]
fn a_hung_engine_is_answered_for_before_the_deadline_and_replaced() {
    let world = world();
    let mut link = ScriptedLink::new([
        welcome(&world),
        turn(&world, 2000),
        turn(&world, 700),
        turn(&world, 3000),
    ]);
    // Answers its first go with a legal move, and hangs at the second, deaf to stop (`exec`,
    // so that killing the engine kills the sleep).
    let legal = world.legal_moves(1)[0].to_string();
    let script = format!(
        "n=0; while read -r line; do case $line in uci) echo uciok;; isready) echo readyok;; \
         go*) n=$((n+1)); [ $n -ge 2 ] && exec sleep 1000; echo \"bestturn {legal}\";; esac; done"
    );
    let engine = ["sh", "-c", &script];
    let mut bridge = Bridge::new(settings(&engine));
    bridge.play(&mut link);
    let [(_, ClientMessage::Turn { .. }), (done_at, ClientMessage::Done), (_, ClientMessage::Turn { moves })] =
        &link.sent[..]
    else {
        panic!("{:?}", link.sent)
    };
    let (given, deadline_ms) = link.turns_given[1];
    let took = done_at.duration_since(given);
    assert!(
        took < Duration::from_millis(deadline_ms),
        "done after {took:?}, the deadline was {deadline_ms} ms"
    );
    assert!(
        took >= Duration::from_millis(deadline_ms / 2),
        "done after {took:?}: it did not wait for the engine"
    );
    assert!(!moves.is_empty(), "the new engine plays");
    assert_eq!(bridge.counters.engine_restarts, 1);
}

#[test]
fn an_engine_that_never_answers_gets_done_in_time_every_turn() {
    let world = world();
    // Says uciok and readyok, and never a bestturn.
    let script =
        "while read line; do case $line in uci) echo uciok;; isready) echo readyok;; esac; done";
    let mut link = ScriptedLink::new([welcome(&world), turn(&world, 600), turn(&world, 600)]);
    let mut bridge = Bridge::new(settings(&["sh", "-c", script]));
    bridge.play(&mut link);
    let [(first, ClientMessage::Done), (second, ClientMessage::Done)] = &link.sent[..] else {
        panic!("{:?}", link.sent)
    };
    for (sent, (given, deadline_ms)) in [first, second].into_iter().zip(&link.turns_given) {
        let took = sent.duration_since(*given);
        assert!(
            took < Duration::from_millis(*deadline_ms),
            "done after {took:?}"
        );
    }
    assert_eq!(bridge.counters.engine_restarts, 1);
}

#[test]
fn a_fallen_king_ends_the_play() {
    let world = world();
    let mut link = ScriptedLink::new([
        welcome(&world),
        ServerMessage::Eliminated { turn: 3, by: 2 },
        turn(&world, 2000),
    ]);
    let mut bridge = Bridge::new(settings(&[ROGER]));
    assert_eq!(bridge.play(&mut link), Ending::Eliminated);
    assert!(link.sent.is_empty());
}

/// The next request from the house bots, within `timeout`.
fn next_request(hub: &mpsc::Receiver<Request>, timeout: Duration) -> Request {
    hub.recv_timeout(timeout)
        .unwrap_or_else(|error| panic!("no request from the house bot: {error}"))
}

#[test]
fn a_house_bot_whose_king_falls_joins_as_a_new_player() {
    let world = world();
    let (requests, hub) = mpsc::channel();
    let config = HouseConfig {
        bots: 1,
        engine: vec![ROGER.to_string()],
        options: Vec::new(),
        movetime: Duration::from_millis(100),
    };
    let house = HouseBots::start(&config, requests, Vec::new()).expect("house bots start");
    let wait = Duration::from_secs(10);
    let Request::Open {
        conn,
        outbox,
        house: true,
        ..
    } = next_request(&hub, wait)
    else {
        panic!("a house bot opens a house connection first")
    };
    let send = |message: ServerMessage| assert!(outbox.send(message.to_json().into()));
    let Request::Message {
        conn: from,
        message:
            ClientMessage::Join {
                team: TeamChoice::Auto,
                name,
            },
    } = next_request(&hub, wait)
    else {
        panic!("a house bot joins team auto")
    };
    assert_eq!((from, name.as_deref()), (conn, Some("house-1")));
    send(ServerMessage::Joined {
        player: 1,
        token: "t1".into(),
        team: "alabaster".into(),
        name: "house-1".into(),
    });
    send(welcome(&world));
    send(turn(&world, 3000));
    let Request::Message {
        message: ClientMessage::Turn { moves },
        ..
    } = next_request(&hub, wait)
    else {
        panic!("the house bot answers its turn with moves")
    };
    let mut copy = world.clone();
    for text in &moves {
        copy.apply(1, Move::parse(text).unwrap())
            .unwrap_or_else(|rejection| panic!("{text}: {rejection}"));
    }
    send(ServerMessage::Eliminated { turn: 1, by: 2 });
    let Request::Message {
        message: ClientMessage::Join {
            team: TeamChoice::Auto,
            ..
        },
        ..
    } = next_request(&hub, wait)
    else {
        panic!("the house bot joins again as a new player")
    };
    let began = Instant::now();
    house.stop();
    assert!(
        began.elapsed() < Duration::from_secs(3),
        "stop took {:?}",
        began.elapsed()
    );
    let closed = std::iter::from_fn(|| hub.recv_timeout(Duration::from_secs(1)).ok())
        .any(|request| matches!(request, Request::Closed { conn: closed } if closed == conn));
    assert!(closed, "stop closes the house bot's connection");
}
