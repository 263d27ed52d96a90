//! The turn loop with its clock, log file, store failures and start-up order, in process (no
//! network unless a test binds one on 127.0.0.1).

use super::{RunningWorld, TurnLoop};
use crate::world::api::{ClientMessage, ServerMessage, TeamChoice};
use crate::world::config::WorldConfig;
use crate::world::core::ServerWorld;
use crate::world::hub::{next_connection_id, ConnectionId, Outbox, OutboxReceiver, Request};
use crate::world::placement::Placement;
use crate::world::scratch::Scratch;
use std::io::Write;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// A simulated 8 x 8 world in process, with nothing printed.
fn config(scratch: &Scratch) -> WorldConfig {
    let mut config = WorldConfig {
        db: scratch.db().into(),
        simulate: true,
        placement: Placement::Edge,
        listen: String::new(),
        standings_every: 0,
        ..WorldConfig::default()
    };
    config.params.width = 8;
    config.params.height = 8;
    config.params.bonus_every = 0;
    config
}

fn quiet() -> super::Output {
    Box::new(|_: &str| {})
}

/// A connection of the test to a running loop.
struct Player {
    conn: ConnectionId,
    inbox: OutboxReceiver,
    /// Messages taken from the outbox (two can come as one item) and not read yet.
    unread: std::collections::VecDeque<Arc<str>>,
}

impl Player {
    fn join(world: &RunningWorld) -> Player {
        let (outbox, inbox) = Outbox::channel(1000);
        let conn = next_connection_id();
        let requests = world.requests();
        let open = Request::Open {
            conn,
            outbox,
            peer: "test".into(),
            house: false,
        };
        requests.send(open).unwrap();
        let join = ClientMessage::Join {
            team: TeamChoice::Auto,
            name: None,
        };
        let message = Request::Message {
            conn,
            message: join,
        };
        requests.send(message).unwrap();
        Player {
            conn,
            inbox,
            unread: Default::default(),
        }
    }

    /// Messages until `pick` takes one, the connection closes or 5 s pass.
    fn until(&mut self, mut pick: impl FnMut(&ServerMessage) -> bool) -> Option<ServerMessage> {
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end {
            if let Some(text) = self.unread.pop_front() {
                let message: ServerMessage = serde_json::from_str(&text).unwrap();
                if pick(&message) {
                    return Some(message);
                }
                continue;
            }
            match self.inbox.try_recv() {
                Ok(outgoing) => self.unread.extend(outgoing.texts().iter().cloned()),
                Err(tokio::sync::mpsc::error::TryRecvError::Empty) => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => return None,
            }
        }
        None
    }
}

#[test]
fn a_simulated_world_with_nobody_connected_does_not_race_through_turns() {
    let scratch = Scratch::new("idle");
    let running = RunningWorld::start(config(&scratch), quiet()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let summary = running.shutdown().unwrap();
    assert_eq!(summary.turns, 0, "the turn lasts its turn_ms: {summary:?}");
}

/// A log file that notes, at every write, whether `turn_end` was already sent.
struct Probe {
    inbox: Arc<Mutex<OutboxReceiver>>,
    told_before_written: Arc<Mutex<Option<bool>>>,
}

impl Write for Probe {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut told = false;
        while let Ok(message) = self.inbox.lock().unwrap().try_recv() {
            told |= message
                .texts()
                .iter()
                .any(|text| text.contains(r#""type":"turn_end""#));
        }
        let mut noted = self.told_before_written.lock().unwrap();
        *noted = Some(noted.unwrap_or(false) || told);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_turn_log_is_written_before_turn_end_is_sent() {
    let scratch = Scratch::new("log-first");
    let mut world = ServerWorld::create(config(&scratch)).unwrap();
    let (outbox, inbox) = Outbox::channel(1000);
    world.open(1, outbox, false);
    let join = ClientMessage::Join {
        team: TeamChoice::Auto,
        name: None,
    };
    world.message(1, join);
    world.start_turn(Instant::now());
    let inbox = Arc::new(Mutex::new(inbox));
    let told_before_written = Arc::new(Mutex::new(None));
    let (_requests, receiver) = mpsc::channel();
    let mut turn_loop = TurnLoop::new(world, receiver, quiet());
    turn_loop.log_file = Some(Box::new(Probe {
        inbox: Arc::clone(&inbox),
        told_before_written: Arc::clone(&told_before_written),
    }));
    let ended = turn_loop.world.end_turn().unwrap();
    turn_loop.close_stored_turn(ended);
    turn_loop.world.announce_some(usize::MAX);
    assert_eq!(*told_before_written.lock().unwrap(), Some(false));
    let told = std::iter::from_fn(|| inbox.lock().unwrap().try_recv().ok())
        .flat_map(|message| message.texts().to_vec())
        .any(|text| text.contains(r#""type":"turn_end""#));
    assert!(told, "turn_end is sent after the log is written");
}

#[test]
fn a_failed_commit_closes_every_connection_with_shutdown_and_stops() {
    let scratch = Scratch::new("commit-fails");
    let mut config = config(&scratch);
    config.wait_players = 1;
    // A new world, closed, given a trigger that fails every commit at its last row, as on a
    // full disk, and resumed (a running server holds its file: nobody can add it then).
    drop(ServerWorld::create(config.clone()).unwrap());
    let db = rusqlite::Connection::open(scratch.db()).unwrap();
    db.execute_batch(
        "CREATE TRIGGER disk_full BEFORE INSERT ON turns BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    )
    .unwrap();
    drop(db);
    config.resume = true;
    let running = RunningWorld::start(config, quiet()).unwrap();
    let mut player = Player::join(&running);
    let turn =
        player.until(|message| matches!(message, ServerMessage::Turn { you_move: true, .. }));
    assert!(turn.is_some(), "the player's turn comes");
    let done = Request::Message {
        conn: player.conn,
        message: ClientMessage::Done,
    };
    running.requests().send(done).unwrap();
    let closing = player.until(|message| matches!(message, ServerMessage::Closing { .. }));
    assert!(
        matches!(&closing, Some(ServerMessage::Closing { reason, .. }) if reason == "shutdown"),
        "{closing:?}"
    );
    let error = running.wait().unwrap_err();
    assert!(error.contains("disk full"), "{error}");
}

#[test]
fn a_port_in_use_stops_the_server_before_it_creates_its_database() {
    let scratch = Scratch::new("port-taken");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut config = config(&scratch);
    config.listen = taken.local_addr().unwrap().to_string();
    let Err(error) = RunningWorld::start(config, quiet()) else {
        panic!("the port is taken")
    };
    assert!(!scratch.db().exists(), "no stray database: {error}");
}

/// A turn's moves wait until every `turn` message is written, but a connection that never
/// reads holds them back only for the delivery wait: the others' turns are still answered.
#[test]
fn a_connection_that_never_reads_holds_the_turns_moves_back_only_for_a_while() {
    let scratch = Scratch::new("unread");
    let mut config = config(&scratch);
    config.params.turn_ms = 1000;
    config.wait_players = 2;
    let running = RunningWorld::start(config, quiet()).unwrap();
    let mut reader = Player::join(&running);
    let never_reads = Player::join(&running);
    let told =
        reader.until(|message| matches!(message, ServerMessage::Turn { you_move: true, .. }));
    assert!(told.is_some(), "the reader's team gets a turn");
    let answer = Request::Message {
        conn: reader.conn,
        message: ClientMessage::Turn { moves: Vec::new() },
    };
    running.requests().send(answer).unwrap();
    let result = reader.until(|message| matches!(message, ServerMessage::TurnResult { .. }));
    assert!(result.is_some(), "the answer was handled");
    let summary = running.shutdown().unwrap();
    assert!(
        summary.work.unwritten_turns >= 1,
        "the turn went on without the unread message: {summary:?}"
    );
    drop(never_reads);
}
