//! The network side against a fake turn loop: what misbehaving clients get, and that nobody
//! else notices them.

use super::NetServer;
use crate::rules::megachess::{Coord, Facing, Kind, MegachessParams, Team, World};
use crate::world::api::{ClientMessage, ServerMessage};
use crate::world::config::NetLimits;
use crate::world::hub::{ConnectionId, Outbox, ReadAnswer, ReadQuery, Request};
use crate::world::view::{Published, TurnView};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the fake turn loop saw.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Open(ConnectionId),
    Message(ConnectionId, ClientMessage),
    Closed(ConnectionId),
}

/// A fake turn loop: answers `join` with `joined`, reads with a fixed body, and keeps each
/// connection's outbox where a test can reach it.
struct FakeLoop {
    seen: Receiver<Seen>,
    outboxes: Arc<Mutex<HashMap<ConnectionId, Outbox>>>,
    /// Where the reads off the loop find the world.
    published: Published,
}

fn start(limits: NetLimits) -> (NetServer, FakeLoop) {
    let (requests, inbox) = mpsc::channel::<Request>();
    let (report, seen) = mpsc::channel();
    let outboxes = Arc::new(Mutex::new(HashMap::new()));
    let kept = Arc::clone(&outboxes);
    std::thread::spawn(move || {
        for request in inbox {
            match request {
                Request::Open { conn, outbox, .. } => {
                    kept.lock().unwrap().insert(conn, outbox);
                    let _ = report.send(Seen::Open(conn));
                }
                Request::Message { conn, message } => {
                    if let ClientMessage::Join { .. } = message {
                        let joined = ServerMessage::Joined {
                            player: 1,
                            token: "t".into(),
                            team: "alabaster".into(),
                            name: "n".into(),
                        };
                        if let Some(outbox) = kept.lock().unwrap().get(&conn) {
                            outbox.send(joined.to_json().into());
                        }
                    }
                    let _ = report.send(Seen::Message(conn, message));
                }
                Request::Closed { conn } => {
                    kept.lock().unwrap().remove(&conn);
                    let _ = report.send(Seen::Closed(conn));
                }
                Request::Read { query, reply } => {
                    let answer = match query {
                        ReadQuery::Status => ReadAnswer::Json("{\"turn\":1}".into()),
                        ReadQuery::Scoreboard => ReadAnswer::Json("{\"turn\":1}".into()),
                    };
                    let _ = reply.send(answer);
                }
                Request::Shutdown => break,
            }
        }
    });
    let published = Published::default();
    published.publish(turn_view(0));
    let server = NetServer::start("127.0.0.1:0", &limits, requests, published.clone()).unwrap();
    (
        server,
        FakeLoop {
            seen,
            outboxes,
            published,
        },
    )
}

/// An 8 x 8 world with one army along the south edge, whose king has walked `steps` squares
/// north, as the loop would publish it.
fn turn_view(steps: u32) -> TurnView {
    let params = MegachessParams {
        width: 8,
        height: 8,
        ..MegachessParams::default()
    };
    let mut world = World::new(params, 1);
    world.add_player(1, Team::Alabaster).unwrap();
    world
        .spawn_army(1, Coord::new(0, 0), Facing::North)
        .unwrap();
    let mut snapshot = world.snapshot();
    for piece in &mut snapshot.pieces {
        if piece.kind == Kind::Pawn && piece.at == Coord::new(4, 1) {
            piece.at = Coord::new(4, 1 + steps.min(6));
        }
    }
    let labels = [(1, "ada".to_string())].into_iter().collect();
    TurnView::new(std::sync::Arc::new(snapshot), labels, 100)
}

fn limits() -> NetLimits {
    NetLimits {
        handshake_timeout: Duration::from_millis(400),
        idle_timeout: Duration::from_millis(600),
        write_timeout: Duration::from_millis(500),
        outbox_capacity: 8,
        ..NetLimits::default()
    }
}

impl FakeLoop {
    /// The next thing seen that `pick` wants, within 5 s.
    fn until(&self, mut pick: impl FnMut(&Seen) -> bool) -> Seen {
        let end = Instant::now() + Duration::from_secs(5);
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.seen.recv_timeout(left) {
                Ok(seen) if pick(&seen) => return seen,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        panic!("not seen within 5 s");
    }
}

/// A raw TCP client that upgrades by hand and writes `frames` in the same packet.
fn raw_upgrade(server: &NetServer, frames: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(server.local_addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut bytes = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        .to_vec();
    bytes.extend_from_slice(frames);
    stream.write_all(&bytes).unwrap();
    stream
}

/// A client's text frame, masked with a zero key (so the payload is as written).
fn masked_text(text: &str) -> Vec<u8> {
    assert!(text.len() < 126);
    let mut frame = vec![0x81, 0x80 | text.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(text.as_bytes());
    frame
}

#[test]
fn a_first_frame_sent_with_the_upgrade_is_understood() {
    let (server, fake) = start(limits());
    let mut stream = raw_upgrade(&server, &masked_text(r#"{"type":"join","team":"auto"}"#));
    fake.until(|seen| matches!(seen, Seen::Message(_, ClientMessage::Join { .. })));
    let mut answer = vec![0u8; 512];
    let mut read = 0;
    let end = Instant::now() + Duration::from_secs(5);
    while !String::from_utf8_lossy(&answer[..read]).contains("joined") && Instant::now() < end {
        read += stream.read(&mut answer[read..]).unwrap();
    }
    let text = String::from_utf8_lossy(&answer[..read]);
    assert!(text.starts_with("HTTP/1.1 101"), "{text}");
    assert!(text.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "{text}");
    assert!(text.contains(r#""type":"joined""#), "{text}");
    server.shutdown();
}

#[test]
fn a_client_that_says_nothing_is_timed_out_and_a_silent_one_is_dropped() {
    let (server, fake) = start(limits());
    // No role message: the handshake timeout.
    let mut mute = raw_upgrade(&server, &[]);
    let Seen::Open(first) = fake.until(|seen| matches!(seen, Seen::Open(_))) else {
        unreachable!()
    };
    fake.until(|seen| *seen == Seen::Closed(first));
    let mut answer = Vec::new();
    let _ = mute.read_to_end(&mut answer);
    assert!(String::from_utf8_lossy(&answer).contains("timeout"));
    // A spectator that then neither reads nor answers pings: the idle timeout.
    let began = Instant::now();
    let _half_open = raw_upgrade(&server, &masked_text(r#"{"type":"spectate"}"#));
    let Seen::Open(second) = fake.until(|seen| matches!(seen, Seen::Open(_))) else {
        unreachable!()
    };
    fake.until(|seen| *seen == Seen::Closed(second));
    let waited = began.elapsed();
    assert!(waited >= Duration::from_millis(500), "{waited:?}");
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    server.shutdown();
}

#[test]
fn a_reader_too_slow_is_dropped_while_another_client_is_served() {
    let (server, fake) = start(limits());
    let url = format!("ws://{}/ws", server.local_addr());
    let (mut slow, _) = tungstenite::connect(&url).unwrap();
    slow.send(tungstenite::Message::text(r#"{"type":"spectate"}"#))
        .unwrap();
    let Seen::Open(conn) = fake.until(|seen| matches!(seen, Seen::Open(_))) else {
        unreachable!()
    };
    fake.until(|seen| matches!(seen, Seen::Message(..)));
    // The loop floods it with large messages it never reads, until its outbox is full.
    let big: Arc<str> = format!("\"{}\"", "x".repeat(60_000)).into();
    let outbox = fake.outboxes.lock().unwrap().get(&conn).cloned().unwrap();
    let began = Instant::now();
    while outbox.send(Arc::clone(&big)) {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "the outbox never filled"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(outbox);
    fake.outboxes.lock().unwrap().remove(&conn);
    // Meanwhile another client joins and is answered.
    let (mut other, _) = tungstenite::connect(&url).unwrap();
    other
        .send(tungstenite::Message::text(
            r#"{"type":"join","team":"auto"}"#,
        ))
        .unwrap();
    let reply = other.read().unwrap();
    assert!(reply.to_text().unwrap().contains("joined"));
    fake.until(|seen| *seen == Seen::Closed(conn));
    server.shutdown();
}

#[test]
fn http_answers_reads_and_refuses_what_it_does_not_serve() {
    let (server, _fake) = start(limits());
    let get = |request: &str| {
        let mut stream = TcpStream::connect(server.local_addr()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        // The server may close before it has read a huge request: that is its answer.
        let _ = stream.write_all(request.as_bytes());
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    };
    let status = get("GET /status HTTP/1.1\r\n\r\n");
    assert!(
        status.starts_with("HTTP/1.1 200") && status.ends_with("{\"turn\":1}"),
        "{status}"
    );
    assert!(status.contains("application/json"));
    let svg = get("GET /svg HTTP/1.1\r\n\r\n");
    assert!(svg.contains("image/svg+xml"), "{svg}");
    assert!(get("GET /region?x0=1 HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 400"));
    assert!(get("GET /nowhere HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
    assert!(get("POST /status HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405"));
    let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "y".repeat(200_000));
    assert!(get(&huge).starts_with("HTTP/1.1 431"));
    let began = Instant::now();
    server.shutdown();
    assert!(began.elapsed() < Duration::from_secs(3));
}

#[test]
fn a_flood_of_reads_from_one_address_gets_429() {
    let limits = NetLimits {
        messages_per_second: 5,
        burst: 5,
        ..limits()
    };
    let (server, _fake) = start(limits);
    let statuses: Vec<String> = (0..12)
        .map(|_| {
            let mut stream = TcpStream::connect(server.local_addr()).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            let _ = stream.write_all(b"GET /status HTTP/1.1\r\n\r\n");
            let mut answer = String::new();
            let _ = stream.read_to_string(&mut answer);
            answer.split_whitespace().nth(1).unwrap_or("").to_string()
        })
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| *s == "200").count(),
        5,
        "{statuses:?}"
    );
    assert!(statuses[5..].iter().all(|s| s == "429"), "{statuses:?}");
    server.shutdown();
}

/// The server's frames (opcode, payload) on a raw connection after the upgrade's answer, read
/// until the connection ends: answered with a close once the server's close arrives, and
/// `written` joined first (so that the close does not cut into its frames). How it ended:
/// `Ok` for a clean end, the error for a reset.
fn frames_until_the_end(
    stream: &mut TcpStream,
    written: std::thread::JoinHandle<()>,
) -> (Vec<(u8, Vec<u8>)>, std::io::Result<()>) {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    let mut frames = Vec::new();
    let mut head_end: Option<usize> = None;
    let mut written = Some(written);
    let end = loop {
        match stream.read(&mut chunk) {
            Ok(0) => break Ok(()),
            Ok(read) => bytes.extend_from_slice(&chunk[..read]),
            Err(error) => break Err(error),
        }
        if head_end.is_none() {
            head_end = bytes
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .map(|p| p + 4);
        }
        let Some(at) = head_end.as_mut() else {
            continue;
        };
        // Unmasked server frames of up to 65535 bytes.
        while bytes.len() >= *at + 2 {
            let (opcode, short) = (bytes[*at] & 0x0f, usize::from(bytes[*at + 1] & 0x7f));
            let (length, header) = match short {
                126 if bytes.len() >= *at + 4 => (
                    usize::from(u16::from_be_bytes([bytes[*at + 2], bytes[*at + 3]])),
                    4,
                ),
                126 => break,
                length => (length, 2),
            };
            if bytes.len() < *at + header + length {
                break;
            }
            let payload = bytes[*at + header..*at + header + length].to_vec();
            *at += header + length;
            frames.push((opcode, payload));
            if opcode == 8 {
                if let Some(writer) = written.take() {
                    writer.join().unwrap();
                }
                // The client's close: masked, with a zero key.
                let _ = stream.write_all(&[0x88, 0x80, 0, 0, 0, 0]);
            }
        }
    };
    (frames, end)
}

#[test]
fn a_flooder_hears_rate_limited_then_the_close_and_the_connection_ends_cleanly() {
    // One message a second, no burst: the second message is dropped with `rate-limited`, the
    // fifth calls it a flood. The flood is far bigger than the server reads before it closes:
    // closed with input unread, a connection is reset and what was not delivered is lost.
    let limits = NetLimits {
        messages_per_second: 1,
        burst: 1,
        ..limits()
    };
    let (server, fake) = start(limits);
    let mut frames = masked_text(r#"{"type":"join","team":"auto"}"#);
    let flood = masked_text(r#"{"type":"scoreboard"}"#);
    for _ in 0..24_000 {
        frames.extend_from_slice(&flood);
    }
    let mut stream = raw_upgrade(&server, &[]);
    let mut writer = stream.try_clone().unwrap();
    let written = std::thread::spawn(move || {
        // The server stops reading once it calls the flood: a reset ends this write early.
        let _ = writer.write_all(&frames);
    });
    let Seen::Open(conn) = fake.until(|seen| matches!(seen, Seen::Open(_))) else {
        unreachable!()
    };
    let (frames, end) = frames_until_the_end(&mut stream, written);
    let texts: Vec<String> = frames
        .iter()
        .filter(|(opcode, _)| *opcode == 1)
        .map(|(_, payload)| String::from_utf8_lossy(payload).into_owned())
        .collect();
    let errors: Vec<ServerMessage> = texts
        .iter()
        .filter_map(|text| serde_json::from_str(text).ok())
        .filter(|message| matches!(message, ServerMessage::Error { .. }))
        .collect();
    let reasons: Vec<String> = errors
        .iter()
        .map(|message| match message {
            ServerMessage::Error { error, reason } => format!("{error}: {reason}"),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(reasons.len(), 2, "{texts:?}");
    assert!(
        reasons[0].starts_with("rate-limited: more than 1 messages a second"),
        "{reasons:?}"
    );
    assert_eq!(reasons[1], "rate-limited: flooding: disconnected");
    assert_eq!(
        frames.last().map(|frame| frame.0),
        Some(8),
        "the close comes last"
    );
    assert!(end.is_ok(), "the connection was reset: {end:?}");
    fake.until(|seen| *seen == Seen::Closed(conn));
    server.shutdown();
}

#[test]
fn region_and_svg_are_drawn_from_the_published_turn_off_the_loop() {
    let (server, fake) = start(limits());
    let get = |path: &str| {
        let mut stream = TcpStream::connect(server.local_addr()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        stream
            .write_all(format!("GET {path} HTTP/1.1\r\n\r\n").as_bytes())
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        (head.to_string(), body.to_string())
    };
    let pawn_of_e = |body: &str| {
        let region: serde_json::Value = serde_json::from_str(body).unwrap();
        let tokens: Vec<String> = region["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|piece| piece["token"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(tokens.len(), 16, "{tokens:?}");
        tokens
            .into_iter()
            .find(|token| token.starts_with("1P4,"))
            .unwrap()
    };
    let (head, body) = get("/region?x0=0&y0=0&x1=7&y1=7");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(pawn_of_e(&body), "1P4,1");
    let (head, body) = get("/svg");
    assert!(head.contains("image/svg+xml"), "{head}");
    assert!(body.contains("<svg") && body.contains("ada"), "{body}");
    // A rectangle off the board is refused, one past it for a picture is cut to it.
    assert!(get("/region?x0=0&y0=0&x1=8&y1=7")
        .0
        .starts_with("HTTP/1.1 400"));
    assert!(get("/svg?x0=2&y0=2&x1=99&y1=99")
        .0
        .starts_with("HTTP/1.1 200"));
    // The next turn's world, once published, is what the reads see. (The loop is never asked:
    // its `ReadQuery` has no region or picture.)
    fake.published.publish(turn_view(2));
    assert_eq!(pawn_of_e(&get("/region?x0=0&y0=0&x1=7&y1=7").1), "1P4,3");
    server.shutdown();
}
