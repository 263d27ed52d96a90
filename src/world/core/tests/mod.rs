//! The server's world without a network: connections are outboxes read by the test.
//! `turn_start.rs`: how a turn's start reaches every connection.

use super::ServerWorld;
use crate::world::api::{ClientMessage, MoveResult, ServerMessage, TeamChoice};
use crate::world::config::WorldConfig;
use crate::world::events::Event;
use crate::world::hub::{ConnectionId, Outbox, OutboxReceiver};
use crate::world::placement::Placement;
use crate::world::scratch::Scratch;
use std::time::{Duration, Instant};

mod turn_start;

fn config(scratch: &Scratch, simulate: bool) -> WorldConfig {
    let mut config = WorldConfig {
        db: scratch.db().into(),
        simulate,
        placement: Placement::Edge,
        listen: String::new(),
        ..WorldConfig::default()
    };
    config.params.width = 8;
    config.params.height = 8;
    config.params.bonus_every = 0;
    config
}

struct Client {
    conn: ConnectionId,
    inbox: OutboxReceiver,
}

impl Client {
    fn open(world: &mut ServerWorld, conn: ConnectionId, capacity: usize) -> Client {
        let (outbox, inbox) = Outbox::channel(capacity);
        world.open(conn, outbox, false);
        Client { conn, inbox }
    }
    /// Every message waiting.
    fn read(&mut self) -> Vec<ServerMessage> {
        std::iter::from_fn(|| self.inbox.try_recv().ok())
            .flat_map(|message| message.texts().to_vec())
            .map(|text| serde_json::from_str(&text).unwrap())
            .collect()
    }
    fn join(&mut self, world: &mut ServerWorld, team: TeamChoice) -> u32 {
        world.message(self.conn, ClientMessage::Join { team, name: None });
        // Only `joined` is read; `welcome` and the rest stay for the test.
        let first = self.inbox.try_recv().ok();
        match first.map(|message| serde_json::from_str(&message.texts()[0]).unwrap()) {
            Some(ServerMessage::Joined { player, .. }) => player,
            other => panic!("{other:?}"),
        }
    }
    fn turn(&mut self, world: &mut ServerWorld, moves: &[&str]) -> Vec<MoveResult> {
        let moves = moves.iter().map(|m| m.to_string()).collect();
        world.message(self.conn, ClientMessage::Turn { moves });
        self.read()
            .into_iter()
            .find_map(|message| match message {
                ServerMessage::TurnResult { results, .. } => Some(results),
                _ => None,
            })
            .expect("a turn result")
    }
}

fn two_players(world: &mut ServerWorld) -> (Client, Client) {
    let mut white = Client::open(world, 1, 1000);
    let mut black = Client::open(world, 2, 1000);
    assert_eq!(white.join(world, TeamChoice::Auto), 1);
    assert_eq!(black.join(world, TeamChoice::Auto), 2);
    (white, black)
}

#[test]
fn a_joined_player_is_welcomed_and_told_its_turn_with_its_view() {
    let scratch = Scratch::new("join");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, mut black) = two_players(&mut world);
    assert!(matches!(
        white.read()[..],
        [ServerMessage::Welcome { alive: true, .. }]
    ));
    assert_eq!(
        world.world().player(2).unwrap().team.name(),
        "metal",
        "auto balances"
    );
    black.read();
    world.start_turn(Instant::now());
    match &white.read()[..] {
        [ServerMessage::Turn {
            turn: 1,
            you_move: true,
            position: Some(position),
            ..
        }] => assert!(position.contains("me 1 ") && position.contains("1K4,0")),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        black.read()[..],
        [ServerMessage::Turn {
            you_move: false,
            position: None,
            ..
        }]
    ));
}

#[test]
fn refused_moves_change_nothing_and_are_logged_with_their_reason() {
    let scratch = Scratch::new("refused");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, mut black) = two_players(&mut world);
    world.start_turn(Instant::now());
    black.read();
    let before = world.world().snapshot();
    let results = white.turn(&mut world, &["4,6-4,5", "e2e4", "4,1-4,3", "4,3-4,4"]);
    let names: Vec<Option<&str>> = results.iter().map(|r| r.rejection.as_deref()).collect();
    assert_eq!(
        names,
        [
            Some("not-your-piece"),
            Some("garbage"),
            None,
            Some("already-moved")
        ]
    );
    let after = world.world().snapshot();
    let moved: Vec<_> = after
        .pieces
        .iter()
        .filter(|piece| !before.pieces.contains(piece))
        .collect();
    assert_eq!(moved.len(), 1, "only the pawn moved: {moved:?}");
    // Black saw the accepted move as a delta, and only that one.
    let deltas: Vec<String> = black
        .read()
        .into_iter()
        .filter_map(|message| match message {
            ServerMessage::Moved { mv, .. } => Some(mv),
            _ => None,
        })
        .collect();
    assert_eq!(deltas, ["4,1-4,3"]);
    let rejected = world
        .log
        .iter()
        .filter(|entry| matches!(entry.event, Event::Rejected { .. }))
        .count();
    assert_eq!(rejected, 3);
}

#[test]
fn a_simulated_turn_ends_when_every_connected_player_of_the_team_answered() {
    let scratch = Scratch::new("simulated");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (white, mut black) = two_players(&mut world);
    let now = Instant::now();
    world.start_turn(now);
    assert!(!world.turn_over(now));
    // Metal answering in alabaster's turn does not count.
    world.message(black.conn, ClientMessage::Done);
    assert!(!world.turn_over(now));
    world.message(white.conn, ClientMessage::Done);
    assert!(world.turn_over(now));
    let ended = world.end_turn().unwrap();
    assert_eq!(ended.turn, 1);
    assert!(matches!(
        ended.log.last().unwrap().event,
        Event::TurnEnd { .. }
    ));
    world.start_turn(now);
    // Metal disconnects: nobody connected is left to wait for.
    world.close(black.conn);
    assert!(world.turn_over(now));
    black.read();
}

#[test]
fn a_wall_clock_turn_waits_for_its_deadline_even_when_everybody_answered() {
    let scratch = Scratch::new("wall");
    let mut world = ServerWorld::create(config(&scratch, false)).unwrap();
    let (white, _black) = two_players(&mut world);
    let now = Instant::now();
    world.start_turn(now);
    world.message(white.conn, ClientMessage::Done);
    assert!(!world.turn_over(now));
    let turn_ms = world.world().params().turn_ms;
    assert!(world.turn_over(now + Duration::from_millis(turn_ms)));
}

#[test]
fn a_full_outbox_drops_its_connection_and_the_world_goes_on() {
    let scratch = Scratch::new("slow");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, _black) = two_players(&mut world);
    let slow = Client::open(&mut world, 3, 1);
    world.message(slow.conn, ClientMessage::Spectate);
    world.start_turn(Instant::now());
    world.drop_pending();
    assert!(
        !world.connections.contains_key(&slow.conn),
        "dropped when full"
    );
    let results = white.turn(&mut world, &["4,1-4,3"]);
    assert!(results[0].ok);
}

#[test]
fn hello_binds_the_token_s_player_and_a_bad_token_is_refused() {
    let scratch = Scratch::new("hello");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let mut first = Client::open(&mut world, 1, 100);
    world.message(
        first.conn,
        ClientMessage::Join {
            team: TeamChoice::Metal,
            name: Some("ada\u{7}".into()),
        },
    );
    let token = match &first.read()[0] {
        ServerMessage::Joined { token, name, .. } => {
            assert_eq!(name, "ada", "control characters are dropped");
            token.clone()
        }
        other => panic!("{other:?}"),
    };
    let mut again = Client::open(&mut world, 2, 100);
    world.message(again.conn, ClientMessage::Hello { token });
    assert!(matches!(
        again.read()[..],
        [ServerMessage::Welcome { player: 1, .. }]
    ));
    assert!(
        !world.connections.contains_key(&first.conn),
        "the old connection is replaced"
    );
    let mut stranger = Client::open(&mut world, 3, 100);
    world.message(
        stranger.conn,
        ClientMessage::Hello {
            token: "0".repeat(32),
        },
    );
    world.drop_pending();
    assert!(
        matches!(&stranger.read()[..], [ServerMessage::Error { error, .. }] if error == "bad-token")
    );
    assert!(!world.connections.contains_key(&stranger.conn));
}

#[test]
fn a_resumed_world_goes_on_from_its_last_turn_and_houses_a_player_of_the_lost_turn() {
    let scratch = Scratch::new("resume");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, _black) = two_players(&mut world);
    world.start_turn(Instant::now());
    white.turn(&mut world, &["4,1-4,3"]);
    world.end_turn().unwrap();
    world.start_turn(Instant::now());
    // A move and a join in turn 2, which is never completed.
    let mut late = Client::open(&mut world, 9, 100);
    assert_eq!(late.join(&mut world, TeamChoice::Metal), 3);
    drop(world);
    let mut config = config(&scratch, true);
    config.resume = true;
    let resumed = ServerWorld::resume(config).unwrap();
    assert_eq!(resumed.world().turn(), 2);
    assert!(resumed
        .world()
        .piece_at(crate::rules::megachess::Coord::new(4, 3))
        .is_some());
    assert_eq!(
        resumed.world().pieces_of(3).count(),
        16,
        "the late player has an army"
    );
    assert_eq!(resumed.scoreboard().len(), 3);
}

#[test]
fn a_simulated_turn_with_nobody_connected_lasts_its_turn_ms() {
    let scratch = Scratch::new("nobody");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let now = Instant::now();
    world.start_turn(now);
    assert!(
        !world.turn_over(now),
        "nobody to wait for is no reason to hurry"
    );
    let turn_ms = world.world().params().turn_ms;
    assert!(world.turn_over(now + Duration::from_millis(turn_ms)));
}

#[test]
fn a_resumed_world_never_gives_out_the_id_of_a_player_of_the_lost_turn_again() {
    let scratch = Scratch::new("resume-ids");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (_white, _black) = two_players(&mut world);
    world.start_turn(Instant::now());
    world.end_turn().unwrap();
    world.start_turn(Instant::now());
    // Joined in turn 2, which is never completed: its row is stored, the next id is not.
    let mut late = Client::open(&mut world, 9, 100);
    assert_eq!(late.join(&mut world, TeamChoice::Metal), 3);
    drop(world);
    let mut config = config(&scratch, true);
    config.resume = true;
    let mut resumed = ServerWorld::resume(config).unwrap();
    let mut newcomer = Client::open(&mut resumed, 10, 100);
    assert_eq!(newcomer.join(&mut resumed, TeamChoice::Alabaster), 4);
    assert_eq!(resumed.scoreboard().len(), 4);
}

#[test]
fn a_join_refused_for_no_room_leaves_the_placement_generator_as_it_was() {
    // The metal army lands in the same place whether or not a join was refused before it.
    let metal_army = |refused_join: bool| {
        let scratch = Scratch::new(&format!("no-room-{refused_join}"));
        let mut config = config(&scratch, true);
        config.placement = Placement::Random;
        let mut world = ServerWorld::create(config).unwrap();
        let mut first = Client::open(&mut world, 1, 100);
        assert_eq!(first.join(&mut world, TeamChoice::Alabaster), 1);
        if refused_join {
            // An 8 x 8 board's southern half holds one army with room around it.
            let mut second = Client::open(&mut world, 2, 100);
            let before = world.server;
            world.message(
                second.conn,
                ClientMessage::Join {
                    team: TeamChoice::Alabaster,
                    name: None,
                },
            );
            assert!(
                matches!(&second.read()[..], [ServerMessage::Error { error, .. }] if error == "no-room")
            );
            assert_eq!(world.server, before, "a refused join changes nothing");
        }
        let mut metal = Client::open(&mut world, 3, 100);
        assert_eq!(metal.join(&mut world, TeamChoice::Metal), 2);
        let mut squares: Vec<_> = world.world().pieces_of(2).map(|piece| piece.at).collect();
        squares.sort_by_key(|at| (at.y, at.x));
        squares
    };
    assert_eq!(metal_army(true), metal_army(false));
}

#[test]
fn the_player_whose_king_is_taken_sees_the_capturing_move() {
    let scratch = Scratch::new("king");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, mut black) = two_players(&mut world);
    // The queen walks out behind a pawn that steps aside, takes the pawn in front of the
    // king, then the king; metal does nothing.
    let script: [&[&str]; 3] = [&["3,1-2,2", "3,0-3,5"], &["3,5-4,6"], &["4,6-4,7"]];
    for (index, moves) in script.into_iter().enumerate() {
        world.start_turn(Instant::now());
        black.read();
        let results = white.turn(&mut world, moves);
        assert!(results.iter().all(|result| result.ok), "{results:?}");
        if index < 2 {
            world.end_turn().unwrap();
            world.start_turn(Instant::now());
            world.message(black.conn, ClientMessage::Done);
            world.end_turn().unwrap();
        }
    }
    let seen: Vec<String> = black
        .read()
        .into_iter()
        .filter_map(|message| match message {
            ServerMessage::Moved { mv, effects, .. } => {
                Some(format!("{mv} {:?}", effects.king_captured))
            }
            ServerMessage::Eliminated { by, .. } => Some(format!("eliminated by {by}")),
            _ => None,
        })
        .collect();
    assert_eq!(seen, ["4,6-4,7 Some(2)", "eliminated by 1"]);
}

#[test]
fn targets_lists_what_a_move_would_accept_and_nothing_for_others_pieces_or_moved_ones() {
    let scratch = Scratch::new("targets");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, mut black) = two_players(&mut world);
    world.start_turn(Instant::now());
    white.read();
    black.read();
    let ask = |world: &mut ServerWorld, client: &mut Client, x, y| {
        world.message(client.conn, ClientMessage::Targets { x, y });
        match &client.read()[..] {
            [ServerMessage::Targets { squares, .. }] => {
                let mut squares = squares.clone();
                squares.sort();
                squares
            }
            other => panic!("{other:?}"),
        }
    };
    // The pawn in front of the king: one step three ways, two straight ahead.
    assert_eq!(
        ask(&mut world, &mut white, 4, 1),
        [[3, 2], [4, 2], [4, 3], [5, 2]]
    );
    // Every listed square is a move the server accepts.
    for [x, y] in ask(&mut world, &mut white, 1, 0) {
        let text = format!("1,0-{x},{y}");
        let mv = crate::rules::megachess::Move::parse(&text).unwrap();
        assert!(world.world().check(1, mv).is_ok(), "{text}");
    }
    assert!(!ask(&mut world, &mut white, 1, 0).is_empty(), "a knight");
    assert!(ask(&mut world, &mut white, 4, 6).is_empty(), "metal's pawn");
    assert!(
        ask(&mut world, &mut white, 4, 4).is_empty(),
        "an empty square"
    );
    assert!(
        ask(&mut world, &mut white, 9999, 0).is_empty(),
        "off the board"
    );
    assert!(
        ask(&mut world, &mut black, 4, 6).is_empty(),
        "not metal's turn"
    );
    white.turn(&mut world, &["4,1-4,3"]);
    assert!(
        ask(&mut world, &mut white, 4, 3).is_empty(),
        "moved this turn"
    );
    let mut watcher = Client::open(&mut world, 5, 100);
    world.message(watcher.conn, ClientMessage::Spectate);
    watcher.read();
    world.message(watcher.conn, ClientMessage::Targets { x: 4, y: 3 });
    assert!(
        matches!(&watcher.read()[..], [ServerMessage::Error { error, .. }] if error == "spectator")
    );
}

#[test]
fn a_spectator_arriving_mid_turn_is_told_the_turn_and_its_deadline() {
    let scratch = Scratch::new("spectator-mid-turn");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let mut early = Client::open(&mut world, 1, 100);
    world.message(early.conn, ClientMessage::Spectate);
    assert!(
        matches!(
            early.read()[..],
            [ServerMessage::Spectating { turn: 1, .. }]
        ),
        "before turns run there is no turn to tell"
    );
    world.start_turn(Instant::now());
    let mut late = Client::open(&mut world, 2, 100);
    world.message(late.conn, ClientMessage::Spectate);
    match &late.read()[..] {
        [ServerMessage::Spectating { turn: 1, .. }, ServerMessage::Turn {
            turn: 1,
            you_move: false,
            deadline_ms,
            position: None,
            ..
        }] => assert!(*deadline_ms > 0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_turn_over_the_limit_plays_the_first_moves_and_answers_one_result_more() {
    let scratch = Scratch::new("too-many");
    let mut world = ServerWorld::create(config(&scratch, true)).unwrap();
    let (mut white, _black) = two_players(&mut world);
    world.start_turn(Instant::now());
    white.read();
    // 16 pieces: the limit is 80. The first move is played, the rest are refused or dropped.
    let mut moves = vec!["4,1-4,3"];
    moves.extend(std::iter::repeat_n("4,3-4,4", 99));
    let results = white.turn(&mut world, &moves);
    assert_eq!(results.len(), 81, "80 moves answered, then the limit");
    assert!(results[0].ok);
    assert!(results[1..80]
        .iter()
        .all(|r| r.mv == "4,3-4,4" && r.rejection.as_deref() == Some("already-moved")));
    let last = &results[80];
    assert_eq!(
        (last.mv.as_str(), last.ok, last.rejection.as_deref()),
        ("", false, Some("too-many-moves"))
    );
    assert_eq!(
        last.reason.as_deref(),
        Some("100 moves sent, more than 80: the last 20 dropped")
    );
}

/// Where a turn's time goes on the loop with many players, without a network: run with
/// `cargo test --release --lib turn_costs_at_scale -- --ignored --nocapture`.
#[test]
#[ignore]
fn turn_costs_at_scale() {
    let players: u64 = std::env::var("PLAYERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let scratch = Scratch::new("scale");
    let mut config = config(&scratch, true);
    config.params.width = 4096;
    config.params.height = 4096;
    config.placement = Placement::Random;
    let mut world = ServerWorld::create(config).unwrap();
    let params = *world.world().params();
    let began = Instant::now();
    let mut clients: Vec<Client> = (0..players)
        .map(|conn| {
            let mut client = Client::open(&mut world, conn + 1, 100_000);
            let team = if conn % 2 == 0 {
                TeamChoice::Alabaster
            } else {
                TeamChoice::Metal
            };
            client.join(&mut world, team);
            client
        })
        .collect();
    println!(
        "{players} joins: {:.0} ms, {} pieces",
        began.elapsed().as_secs_f64() * 1e3,
        world.world().piece_count()
    );
    let mut rng = crate::common::Rng::new(5);
    for turn in 0..6 {
        let began = Instant::now();
        world.begin_turn(Instant::now());
        let start = began.elapsed();
        let began = Instant::now();
        let mut batches = Duration::ZERO;
        while world.telling() {
            let batch = Instant::now();
            world.tell_movers(1000);
            batches = batches.max(batch.elapsed());
        }
        let telling = began.elapsed();
        let mut answers = Vec::new();
        for client in &mut clients {
            let texts = std::iter::from_fn(|| client.inbox.try_recv().ok())
                .flat_map(|message| message.texts().to_vec());
            for text in texts {
                if let Ok(ServerMessage::Turn {
                    position: Some(position),
                    ..
                }) = serde_json::from_str(&text)
                {
                    let moves =
                        crate::world::load::planner::choose_moves(&position, &params, 3, &mut rng)
                            .unwrap();
                    answers.push((client.conn, moves));
                }
            }
        }
        let began = Instant::now();
        for (conn, moves) in answers {
            world.message(conn, ClientMessage::Turn { moves });
        }
        let moves = began.elapsed();
        let began = Instant::now();
        world.begin_end_turn().unwrap();
        let rules = began.elapsed();
        let ended = world.turn_stored(Duration::from_secs(60)).unwrap().unwrap();
        let began = Instant::now();
        world.tell_turn_end(&ended);
        let news = began.elapsed();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "turn {turn}: start {:.1} ms, movers told {:.1} ms (batches at most {:.1} ms), answers {:.1} ms, rules end {:.1} ms, store {:.1} ms (its thread), news {:.1} ms",
            ms(start), ms(telling), ms(batches), ms(moves), ms(rules), ms(ended.store_time), ms(news)
        );
    }
}
