//! `roger bot` against a fake world server in the test (a `TcpListener` and
//! `tungstenite::accept`): it joins and says its token, plays a turn, reconnects with `hello`
//! and the same token when the connection drops, ends with exit 0 on `closing max-turns`, and
//! with exit 2 on `bad-token`.

use crate::world_support;

use roger::rules::megachess::{Coord, Facing, MegachessParams, Move, Team, World, PARAMETERS};
use roger::world::api::{ClientMessage, MoveResult, ServerMessage};
use std::collections::BTreeMap;
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};
use world_support::{TempDir, ROGER};

fn world() -> World {
    let params = MegachessParams {
        width: 24,
        height: 24,
        ..MegachessParams::default()
    };
    let mut world = World::new(params, 1);
    world.add_player(7, Team::Alabaster).unwrap();
    world.add_player(8, Team::Metal).unwrap();
    world
        .spawn_army(7, Coord::new(8, 2), Facing::North)
        .unwrap();
    world
        .spawn_army(8, Coord::new(8, 20), Facing::South)
        .unwrap();
    world
}

fn welcome(world: &World) -> ServerMessage {
    let params: BTreeMap<String, i64> = PARAMETERS
        .iter()
        .map(|p| (p.name.to_string(), world.params().get(p.name).unwrap()))
        .collect();
    ServerMessage::Welcome {
        player: 7,
        team: "alabaster".into(),
        name: "bot".into(),
        params,
        window: 16,
        turn: world.turn(),
        simulate: true,
        alive: true,
    }
}

/// A `roger bot` process, killed when dropped.
struct Bot(Child);

impl Bot {
    fn start(args: &[&str]) -> Bot {
        let child = Command::new(ROGER)
            .arg("bot")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("roger bot starts");
        Bot(child)
    }

    /// The exit code, standard output and standard error, once it exits within `timeout`.
    fn finish(mut self, timeout: Duration) -> (Option<i32>, String, String) {
        let deadline = Instant::now() + timeout;
        let status = loop {
            match self.0.try_wait().expect("try_wait") {
                Some(status) => break Some(status),
                None if Instant::now() >= deadline => break None,
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        let Some(status) = status else {
            return (None, String::new(), String::new());
        };
        let mut out = String::new();
        let mut err = String::new();
        let _ = self.0.stdout.take().unwrap().read_to_string(&mut out);
        let _ = self.0.stderr.take().unwrap().read_to_string(&mut err);
        (status.code(), out, err)
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The fake server's side of one connection.
struct Peer(WebSocket<TcpStream>);

impl Peer {
    /// Accepts the next connection within `timeout`.
    fn accept(listener: &TcpListener, timeout: Duration) -> Peer {
        listener.set_nonblocking(true).unwrap();
        let deadline = Instant::now() + timeout;
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                    assert!(Instant::now() < deadline, "the bot did not connect");
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(error) => panic!("accept: {error}"),
            }
        };
        stream.set_nonblocking(false).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        Peer(tungstenite::accept(stream).expect("a WebSocket handshake"))
    }

    fn send(&mut self, message: &ServerMessage) {
        self.0.send(Message::text(message.to_json())).unwrap();
    }

    /// The next client message (the read timeout bounds the wait).
    fn recv(&mut self) -> ClientMessage {
        loop {
            match self.0.read().expect("a message from the bot") {
                Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
                Message::Close(_) => panic!("the bot closed the connection"),
                _ => {}
            }
        }
    }
}

fn listener() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    (listener, url)
}

#[test]
fn the_bot_joins_plays_reconnects_with_its_token_and_ends_with_the_world() {
    let (listener, url) = listener();
    let dir = TempDir::new("bot-link");
    let token_file = dir.join("token");
    let engine = format!("{ROGER} play random --variant megachess");
    let bot = Bot::start(&[
        "--server",
        &url,
        "--team",
        "alabaster",
        "--token-file",
        token_file.to_str().unwrap(),
        "--engine",
        &engine,
        "--movetime",
        "100",
        "--margin",
        "200",
        "--give-up",
        "20",
    ]);
    let (seen, heard) = mpsc::channel();
    let world = world();
    let server = std::thread::spawn(move || {
        let wait = Duration::from_secs(10);
        let mut peer = Peer::accept(&listener, wait);
        let _ = seen.send(peer.recv());
        peer.send(&ServerMessage::Joined {
            player: 7,
            token: "tok-7".into(),
            team: "alabaster".into(),
            name: "bot".into(),
        });
        peer.send(&welcome(&world));
        peer.send(&ServerMessage::Turn {
            turn: world.turn(),
            team: "alabaster".into(),
            you_move: true,
            deadline_ms: 3000,
            position: Some(world.position_line(7, None)),
        });
        let _ = seen.send(peer.recv());
        // The connection drops.
        drop(peer);
        let mut peer = Peer::accept(&listener, wait);
        let _ = seen.send(peer.recv());
        peer.send(&welcome(&world));
        peer.send(&ServerMessage::Closing {
            turn: world.turn(),
            reason: "max-turns".into(),
        });
        // Held open until the bot leaves.
        let _ = peer.0.read();
        world
    });
    let wait = Duration::from_secs(15);
    let join = heard.recv_timeout(wait).expect("the bot's first message");
    assert!(
        matches!(
            join,
            ClientMessage::Join {
                team: roger::world::api::TeamChoice::Alabaster,
                ..
            }
        ),
        "{join:?}"
    );
    let turn = heard.recv_timeout(wait).expect("the bot's turn");
    let ClientMessage::Turn { moves } = turn else {
        panic!("the bot answers with a turn: {turn:?}")
    };
    let hello = heard.recv_timeout(wait).expect("the bot's reconnection");
    assert_eq!(
        hello,
        ClientMessage::Hello {
            token: "tok-7".into()
        }
    );
    let (code, out, err) = bot.finish(wait);
    let world = server.join().expect("the fake server");
    assert_eq!(code, Some(0), "closing max-turns ends the bot well: {err}");
    assert!(out.contains("token tok-7"), "the token on stdout: {out}");
    assert!(out.contains("player 7"), "the player on stdout: {out}");
    assert_eq!(
        std::fs::read_to_string(&token_file).unwrap().trim(),
        "tok-7"
    );
    assert!(
        err.contains("reconnect"),
        "the log says it reconnects: {err}"
    );
    assert!(!moves.is_empty(), "the engine moved");
    let mut copy = world.clone();
    for text in &moves {
        copy.apply(7, Move::parse(text).unwrap())
            .unwrap_or_else(|rejection| panic!("{text}: {rejection}"));
    }
}

#[test]
fn a_bad_token_ends_the_bot_with_exit_code_2() {
    let (listener, url) = listener();
    let bot = Bot::start(&["--server", &url, "--token", "nope", "--give-up", "10"]);
    let server = std::thread::spawn(move || {
        let mut peer = Peer::accept(&listener, Duration::from_secs(10));
        let hello = peer.recv();
        peer.send(&ServerMessage::Error {
            error: "bad-token".into(),
            reason: "no player has this token".into(),
        });
        let _ = peer.0.close(None);
        let _ = peer.0.read();
        hello
    });
    let (code, _, err) = bot.finish(Duration::from_secs(15));
    let hello = server.join().expect("the fake server");
    assert_eq!(
        hello,
        ClientMessage::Hello {
            token: "nope".into()
        }
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("bad-token"), "a clear message: {err}");
}

#[test]
fn a_bot_that_cannot_reach_the_server_gives_up_with_exit_code_1() {
    // A port nobody listens on: bound, then let go.
    let url = listener().1;
    let bot = Bot::start(&["--server", &url, "--give-up", "1"]);
    let (code, _, err) = bot.finish(Duration::from_secs(15));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("reconnect in"), "{err}");
    assert!(err.contains("giving up"), "{err}");
}

#[test]
fn a_bot_told_to_play_one_turn_logs_its_result_and_ends() {
    let (listener, url) = listener();
    let engine = format!("{ROGER} play random --variant megachess");
    let bot = Bot::start(&[
        "--server",
        &url,
        "--token",
        "tok-7",
        "--engine",
        &engine,
        "--movetime",
        "100",
        "--turns",
        "1",
    ]);
    let world = world();
    let server = std::thread::spawn(move || {
        let mut peer = Peer::accept(&listener, Duration::from_secs(10));
        let hello = peer.recv();
        peer.send(&welcome(&world));
        peer.send(&ServerMessage::Turn {
            turn: world.turn(),
            team: "alabaster".into(),
            you_move: true,
            deadline_ms: 3000,
            position: Some(world.position_line(7, None)),
        });
        let ClientMessage::Turn { moves } = peer.recv() else {
            panic!("a turn")
        };
        let results = moves
            .iter()
            .enumerate()
            .map(|(index, mv)| MoveResult {
                mv: mv.clone(),
                ok: index > 0,
                rejection: (index == 0).then(|| "blocked".to_string()),
                reason: None,
                effects: None,
            })
            .collect();
        peer.send(&ServerMessage::TurnResult {
            turn: world.turn(),
            results,
        });
        let _ = peer.0.read();
        hello
    });
    let (code, _, err) = bot.finish(Duration::from_secs(15));
    let hello = server.join().expect("the fake server");
    assert_eq!(
        hello,
        ClientMessage::Hello {
            token: "tok-7".into()
        }
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("1 rejected"), "the turn's summary: {err}");
    assert!(err.contains("blocked"), "the rejection's reason: {err}");
    assert!(!err.contains("reconnect in"), "no reconnection: {err}");
}
