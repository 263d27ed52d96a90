//! A turn's start: who is told when, with which view, in which write, and when a `turn`
//! message counts as delivered.

use super::{config, two_players, Client};
use crate::world::api::{ClientMessage, ServerMessage, TeamChoice};
use crate::world::core::ServerWorld;
use crate::world::placement::Placement;
use crate::world::scratch::Scratch;
use std::time::{Duration, Instant};

/// Players are told of a turn a batch at a time, but anyone about to see a move is told first,
/// with the view as the turn began: the `turn` always comes before news of the turn.
#[test]
fn a_player_hears_of_the_turn_before_any_move_of_it_and_sees_the_turn_as_it_began() {
    let scratch = Scratch::new("told-first");
    let mut config = config(&scratch, true);
    config.params.width = 16;
    let mut world = ServerWorld::create(config).unwrap();
    let mut first = Client::open(&mut world, 1, 100);
    let mut other_team = Client::open(&mut world, 2, 100);
    let mut teammate = Client::open(&mut world, 3, 100);
    assert_eq!(first.join(&mut world, TeamChoice::Alabaster), 1);
    assert_eq!(other_team.join(&mut world, TeamChoice::Metal), 2);
    assert_eq!(teammate.join(&mut world, TeamChoice::Alabaster), 3);
    for client in [&mut first, &mut other_team, &mut teammate] {
        client.read();
    }
    world.begin_turn(Instant::now());
    assert!(world.telling());
    assert!(other_team.read().is_empty() && teammate.read().is_empty());
    world.tell_movers(1);
    assert!(matches!(
        first.read()[..],
        [ServerMessage::Turn { you_move: true, .. }]
    ));
    assert!(teammate.read().is_empty(), "one at a time");
    let results = first.turn(&mut world, &["4,1-4,3"]);
    assert!(results[0].ok, "{results:?}");
    assert!(!world.telling(), "everyone who saw the move was told first");
    match &teammate.read()[..] {
        [ServerMessage::Turn {
            you_move: true,
            position: Some(position),
            ..
        }, ServerMessage::Moved { mv, .. }] => {
            assert!(
                position.contains(" 1P4,1 ") && !position.contains("1P4,3"),
                "{position}"
            );
            assert_eq!(mv, "4,1-4,3");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        other_team.read()[..],
        [
            ServerMessage::Turn {
                you_move: false,
                ..
            },
            ServerMessage::Moved { .. }
        ]
    ));
}

/// The windows, views and `turn_end` texts made while a turn is stored are those of the next
/// turn's start: the same texts (but the time left) as views written when the turn begins, the
/// same ends, and the same windows.
#[test]
fn views_made_while_a_turn_is_stored_are_those_of_the_next_turn_start() {
    let scratch = Scratch::new("prepared");
    let mut config = config(&scratch, true);
    config.params.width = 48;
    config.params.height = 48;
    config.params.bonus_every = 1;
    config.placement = Placement::Random;
    let margin = config.window_margin;
    let mut world = ServerWorld::create(config).unwrap();
    let params = *world.world().params();
    let mut clients: Vec<Client> = (1..=10)
        .map(|conn| {
            let mut client = Client::open(&mut world, conn, 1000);
            client.join(&mut world, TeamChoice::Auto);
            client
        })
        .collect();
    let mut rng = crate::common::Rng::new(11);
    world.start_turn(Instant::now());
    // The team to move plays a few moves, so that the next turn's views differ from this one's.
    for client in &mut clients {
        for message in client.read() {
            if let ServerMessage::Turn {
                position: Some(position),
                ..
            } = message
            {
                let moves =
                    crate::world::load::planner::choose_moves(&position, &params, 2, &mut rng)
                        .unwrap();
                world.message(client.conn, ClientMessage::Turn { moves });
            }
        }
    }
    world.begin_end_turn().unwrap();
    assert!(!world.prepared());
    while !world.prepared() {
        world.prepare_some(3);
    }
    let ended = loop {
        if let Some(stored) = world.turn_stored(Duration::from_secs(60)) {
            break stored.unwrap();
        }
    };
    // The turn's end was written while it was stored: the texts sent are those written now.
    assert!(world.ends_made());
    let ends = world.end_texts_now(&ended);
    assert_eq!(ends.len(), clients.len());
    world.tell_turn_end(&ended);
    for client in &mut clients {
        let told: Vec<ServerMessage> = client
            .read()
            .into_iter()
            .filter(|message| matches!(message, ServerMessage::TurnEnd { .. }))
            .collect();
        let want: ServerMessage = serde_json::from_str(&ends[&client.conn]).unwrap();
        assert_eq!(told, [want], "connection {}", client.conn);
    }
    // What the views must be: written now from the world as it stands.
    let left = Duration::from_millis(params.turn_ms);
    let players: Vec<u32> = world.bound.keys().copied().collect();
    let expected: Vec<(u32, ServerMessage)> = players
        .iter()
        .map(|&player| {
            (
                player,
                crate::world::core::turn::turn_message_in(world.world(), player, left, margin),
            )
        })
        .collect();
    let windows: Vec<_> = players
        .iter()
        .map(|&player| (player, world.world().army_rect(player, margin)))
        .collect();
    // Made ahead: each mover's view is the one written now, the time left put in.
    let prepared = world.prepared.as_ref().unwrap();
    for (player, want) in &expected {
        let made = prepared.view(*player, left);
        match want {
            ServerMessage::Turn { you_move: true, .. } => {
                let made: ServerMessage = serde_json::from_str(&made.unwrap()).unwrap();
                assert_eq!(&made, want, "player {player}");
            }
            _ => assert!(made.is_none(), "player {player} does not move"),
        }
    }
    world.begin_turn(Instant::now());
    for (player, window) in windows {
        assert_eq!(world.interest.window(player), window, "player {player}");
    }
    while world.telling() {
        world.tell_movers(4);
    }
    assert!(world.prepared.is_none(), "spent once everyone is told");
    let mut movers = 0;
    for client in &mut clients {
        let player = *world
            .bound
            .iter()
            .find(|(_, &conn)| conn == client.conn)
            .unwrap()
            .0;
        let told = client
            .read()
            .into_iter()
            .rfind(|message| matches!(message, ServerMessage::Turn { .. }))
            .unwrap();
        let want = &expected.iter().find(|(p, _)| *p == player).unwrap().1;
        match (&told, want) {
            (
                ServerMessage::Turn {
                    turn,
                    team,
                    you_move,
                    deadline_ms,
                    position,
                },
                ServerMessage::Turn {
                    turn: want_turn,
                    team: want_team,
                    you_move: want_move,
                    position: want_position,
                    ..
                },
            ) => {
                assert_eq!(
                    (turn, team, you_move, position),
                    (want_turn, want_team, want_move, want_position),
                    "player {player}"
                );
                assert!(*deadline_ms <= params.turn_ms);
                movers += usize::from(*you_move);
            }
            _ => unreachable!(),
        }
    }
    assert!(movers > 0);
}

/// The loop's way from one turn to the next: the turn begins as soon as the last one is
/// stored, and each connection gets the last turn's end and the new turn in one item (one
/// write), the end first; spectators too.
#[test]
fn each_connection_hears_of_a_turns_end_and_the_next_turn_in_one_write() {
    let scratch = Scratch::new("end-and-turn");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, mut black) = two_players(&mut world);
    let mut watcher = Client::open(&mut world, 3, 100);
    world.message(watcher.conn, ClientMessage::Spectate);
    world.start_turn(Instant::now());
    for client in [&mut white, &mut black, &mut watcher] {
        client.read();
    }
    world.begin_end_turn().unwrap();
    let ended = world.turn_stored(Duration::from_secs(60)).unwrap().unwrap();
    world.announce(&ended);
    world.begin_turn(Instant::now());
    assert!(
        watcher.inbox.try_recv().is_err(),
        "a spectator hears of the turn only after its end"
    );
    world.announce_some(usize::MAX);
    assert!(!world.telling(), "everyone was told with the news");
    for client in [&mut white, &mut black, &mut watcher] {
        let item = client.inbox.try_recv().expect("one item");
        let kinds: Vec<&str> = item
            .texts()
            .iter()
            .map(|text| match serde_json::from_str(text).unwrap() {
                ServerMessage::TurnEnd { turn: 1, .. } => "turn_end 1",
                ServerMessage::Turn { turn: 2, .. } => "turn 2",
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            ["turn_end 1", "turn 2"],
            "connection {}",
            client.conn
        );
        assert!(client.inbox.try_recv().is_err(), "nothing else");
    }
}

/// A turn's `turn` messages count as undelivered until their writer lets go of them: once
/// written, or unwritten with a connection that is gone.
#[test]
fn turn_messages_are_delivered_once_written_or_their_connection_is_gone() {
    let scratch = Scratch::new("delivered");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, mut black) = two_players(&mut world);
    white.read();
    black.read();
    world.begin_turn(Instant::now());
    assert!(world.turn_delivered(), "nothing sent yet");
    world.tell_movers(usize::MAX);
    assert!(!world.turn_delivered());
    let written = white.inbox.try_recv().expect("white's turn");
    assert!(!world.turn_delivered(), "taken, not yet written");
    drop(written);
    assert!(!world.turn_delivered(), "black's is still queued");
    drop(black);
    assert!(
        world.turn_delivered(),
        "black's connection is gone with its message"
    );
}
