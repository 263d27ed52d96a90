//! `roger serve` without a browser: its files, its refusals, and a session socket's answers to
//! good and bad messages.

use crate::browser_support;

use browser_support::Served;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;
use tungstenite::Message;

/// One request; the status line's code, the head and the body.
fn request(served: &Served, text: &str) -> (u16, String, String) {
    let address = served.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(text.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let code = head
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (code, head.to_string(), body.to_string())
}

fn get(served: &Served, path: &str) -> (u16, String, String) {
    request(served, &format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n"))
}

#[test]
fn files_are_served_and_everything_else_is_refused_with_its_reason() {
    let served = Served::start(&[]);
    let (code, head, body) = get(&served, "/");
    assert_eq!(code, 200);
    assert!(head.contains("text/html"), "{head}");
    assert!(body.contains("/play.html"));
    let (code, head, _) = get(&served, "/replay.js");
    assert_eq!(code, 200);
    assert!(head.contains("text/javascript"), "{head}");
    let (code, _, body) = get(&served, "/config.json");
    assert_eq!((code, body.as_str()), (200, r#"{"world":null}"#));
    let (code, _, body) = get(&served, "/../Cargo.toml");
    assert_eq!(code, 404, "{body}");
    let (code, _, body) = get(&served, "/ws/nothing");
    assert_eq!(code, 404);
    assert!(body.contains("no session kind 'nothing'"), "{body}");
    let (code, _, body) = get(&served, "/ws/echo");
    assert_eq!(code, 400, "a session path without the upgrade: {body}");
    let (code, _, _) = request(&served, "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(code, 405);
    let (code, _, _) = request(&served, "NONSENSE\r\n\r\n");
    assert_eq!(code, 400);
}

#[test]
fn a_session_answers_garbage_with_an_error_and_goes_on() {
    let served = Served::start(&[]);
    let url = format!("{}/ws/echo", served.base.replace("http://", "ws://"));
    let (mut socket, _) = tungstenite::connect(url).expect("open the session");
    let next = |socket: &mut tungstenite::WebSocket<_>, send: &str| {
        socket.send(Message::text(send)).unwrap();
        let reply = socket.read().expect("an answer");
        serde_json::from_str::<serde_json::Value>(reply.to_text().unwrap()).unwrap()
    };
    let error = next(&mut socket, "{not json");
    assert_eq!(error["type"], "error");
    assert!(error["error"].as_str().unwrap().starts_with("not JSON"));
    let error = next(&mut socket, "[1, 2]");
    assert_eq!(error["error"], "a message is a JSON object with a \"type\"");
    let echo = next(&mut socket, r#"{"type":"hello","n":1}"#);
    assert_eq!(echo["type"], "echo");
    assert_eq!(echo["message"]["n"], 1);
}

#[test]
fn its_own_world_is_announced_and_answers_a_spectator() {
    let served = Served::command(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--world-listen",
            "127.0.0.1:0",
            "--world-bots",
            "1",
        ],
        "listening http://",
    );
    let world_line = served
        .lines
        .recv_timeout(Duration::from_secs(30))
        .expect("the world's line");
    let world = world_line
        .strip_prefix("world ")
        .unwrap_or_else(|| panic!("'{world_line}' is not 'world ws://...'"));
    let (code, _, body) = get(&served, "/config.json");
    assert_eq!(code, 200);
    assert_eq!(body, serde_json::json!({ "world": world }).to_string());
    let (mut socket, _) = tungstenite::connect(world).expect("open the world");
    socket
        .send(Message::text(r#"{"type":"spectate"}"#))
        .unwrap();
    let reply = socket.read().expect("an answer");
    let reply: serde_json::Value = serde_json::from_str(reply.to_text().unwrap()).unwrap();
    assert_eq!(reply["type"], "spectating", "{reply}");
    // Killed, the server cannot remove its scratch world: the test does.
    let pid = served.child.0.id();
    drop(served);
    for suffix in ["", "-wal", "-shm", "-holder"] {
        let name = format!("roger-serve-world-{pid}.sqlite{suffix}");
        let _ = std::fs::remove_file(std::env::temp_dir().join(name));
    }
}

#[test]
fn every_page_has_a_viewport_and_links_to_every_other_page() {
    let served = Served::start(&[]);
    let pages = [
        "/play.html",
        "/realtime.html",
        "/world.html",
        "/replay.html",
        "/rules.html",
    ];
    for page in ["/"].iter().chain(pages.iter()) {
        let (code, _, body) = get(&served, page);
        assert_eq!(code, 200, "{page}");
        assert!(
            body.contains(r#"<meta name="viewport""#),
            "{page} has no viewport"
        );
        let header = &body[body.find("<header>").unwrap()..body.find("</header>").unwrap()];
        for other in pages {
            assert!(
                header.contains(&format!(r#"href="{other}""#)),
                "{page}'s header does not link to {other}"
            );
        }
    }
}
