//! The engine bridge that `roger bot` and the house bots share, over a scripted link: it sends
//! the engine's legal moves, answers `done` in time when the engine crashes or hangs, starts a
//! new engine for the next turn, and stops when its king falls.

use roger::rules::megachess::{Coord, Facing, MegachessParams, Move, Team, World, PARAMETERS};
use roger::world::api::{ClientMessage, ServerMessage};
use roger::world::bridge::{Bridge, BridgeSettings, Ending, Link};
use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

const ROGER: &str = env!("CARGO_BIN_EXE_roger");

/// A link that delivers a script and keeps what the bridge sends, with when it sent it.
struct ScriptedLink {
    script: VecDeque<ServerMessage>,
    sent: Vec<(Instant, ClientMessage)>,
}

impl Link for ScriptedLink {
    fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        self.sent.push((Instant::now(), message.clone()));
        Ok(())
    }
    fn recv(&mut self, _wait: Duration) -> Result<Option<ServerMessage>, String> {
        self.script
            .pop_front()
            .map(Some)
            .ok_or_else(|| "the script is over".to_string())
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
    let mut link = ScriptedLink {
        script: VecDeque::from([welcome(&world), turn(&world, 2000)]),
        sent: Vec::new(),
    };
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
    let mut link = ScriptedLink {
        script: VecDeque::from([
            welcome(&world),
            turn(&world, 2000),
            turn(&world, 2000),
            turn(&world, 2000),
        ]),
        sent: Vec::new(),
    };
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
    // Says uciok and readyok, and never a bestturn.
    let script =
        "while read line; do case $line in uci) echo uciok;; isready) echo readyok;; esac; done";
    let mut link = ScriptedLink {
        script: VecDeque::from([welcome(&world), turn(&world, 600), turn(&world, 600)]),
        sent: Vec::new(),
    };
    let mut bridge = Bridge::new(settings(&["sh", "-c", script]));
    let began = Instant::now();
    bridge.play(&mut link);
    let [(first, ClientMessage::Done), (_, ClientMessage::Done)] = &link.sent[..] else {
        panic!("{:?}", link.sent)
    };
    let took = first.duration_since(began);
    assert!(took < Duration::from_millis(1000), "done after {took:?}");
    assert_eq!(bridge.counters.engine_restarts, 1);
}

#[test]
fn a_fallen_king_ends_the_play() {
    let world = world();
    let mut link = ScriptedLink {
        script: VecDeque::from([
            welcome(&world),
            ServerMessage::Eliminated { turn: 3, by: 2 },
            turn(&world, 2000),
        ]),
        sent: Vec::new(),
    };
    let mut bridge = Bridge::new(settings(&[ROGER]));
    assert_eq!(bridge.play(&mut link), Ending::Eliminated);
    assert!(link.sent.is_empty());
}
