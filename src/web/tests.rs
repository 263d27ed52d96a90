//! A page's session socket under pressure, against a real `WebServer` on loopback: a flooding
//! page, a page that sends faster than its session takes, one that reads slower than its session
//! writes, and a session that outlives its page. Two sessions of the tests' own (`test-hold`,
//! `test-spew`) wait on and report to the test through gates, so that nothing waits for a time.

use super::session::{Outbox, PageSession, Session};
use super::{PageLimits, WebConfig, WebServer};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// What a `test-hold` session waits on, by gate name: it holds until the sender goes.
static HOLDS: Mutex<BTreeMap<String, mpsc::Receiver<()>>> = Mutex::new(BTreeMap::new());
/// Where a `test-spew` session says that it has written everything, by gate name.
static SPEWED: Mutex<BTreeMap<String, mpsc::Sender<()>>> = Mutex::new(BTreeMap::new());

/// A gate name no other test uses.
fn gate(name: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{name}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The tests' session kinds.
pub(super) fn session(kind: &str) -> Option<Box<dyn Session>> {
    match kind {
        "test-hold" => Some(Box::new(Hold)),
        "test-spew" => Some(Box::new(Spew)),
        _ => None,
    }
}

/// `{"type":"hold","gate":G}`: says `holding`, then blocks its thread until G is released.
struct Hold;

impl PageSession for Hold {
    type Request = Value;

    fn request(&mut self, message: Value, out: &Outbox) {
        if message["type"] != "hold" {
            return out.send(json!({ "type": "seen" }));
        }
        let name = message["gate"].as_str().unwrap_or_default();
        let held = HOLDS.lock().unwrap().remove(name);
        out.send(json!({ "type": "holding" }));
        if let Some(held) = held {
            let _ = held.recv();
        }
    }
}

/// `{"type":"spew","count":N,"bytes":B,"gate":G}`: writes N messages of B bytes at once, then
/// tells G.
struct Spew;

impl PageSession for Spew {
    type Request = Value;

    fn request(&mut self, message: Value, out: &Outbox) {
        let count = message["count"].as_u64().unwrap_or(0);
        let pad = "x".repeat(message["bytes"].as_u64().unwrap_or(0) as usize);
        for index in 0..count {
            out.send(json!({ "type": "spew", "index": index, "pad": pad }));
        }
        let name = message["gate"].as_str().unwrap_or_default();
        if let Some(done) = SPEWED.lock().unwrap().remove(name) {
            let _ = done.send(());
        }
    }
}

fn start(limits: PageLimits, max_sessions: usize) -> WebServer {
    WebServer::start(WebConfig {
        listen: "127.0.0.1:0".into(),
        world: None,
        max_sessions,
        limits,
    })
    .unwrap()
}

type Page = WebSocket<MaybeTlsStream<TcpStream>>;

fn connect(server: &WebServer, kind: &str) -> Result<Page, tungstenite::Error> {
    let url = format!("ws://{}/ws/{kind}", server.local_addr());
    let (page, _) = tungstenite::connect(url)?;
    if let MaybeTlsStream::Plain(stream) = page.get_ref() {
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
    }
    Ok(page)
}

fn send(page: &mut Page, message: Value) {
    page.send(Message::text(message.to_string())).unwrap();
}

/// Everything the server sends until it closes: the JSON messages, and whether its close frame
/// came (rather than a reset or a timeout).
fn until_closed(page: &mut Page) -> (Vec<Value>, bool) {
    let mut messages = Vec::new();
    loop {
        match page.read() {
            Ok(Message::Text(text)) => messages.push(serde_json::from_str(&text).unwrap()),
            Ok(Message::Close(_)) => {
                // Answered by the client; the server then ends the connection.
                while page.read().is_ok() {}
                return (messages, true);
            }
            Ok(_) => {}
            Err(_) => return (messages, false),
        }
    }
}

fn errors(messages: &[Value]) -> Vec<String> {
    messages
        .iter()
        .filter(|message| message["type"] == "error")
        .map(|message| message["error"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_page_that_floods_is_told_rate_limited_then_closed() {
    let limits = PageLimits {
        messages_per_second: 2,
        burst: 2,
        ..PageLimits::default()
    };
    let server = start(limits, 4);
    let mut page = connect(&server, "echo").unwrap();
    // Far more than a burst and any refill while they arrive.
    for index in 0..50 {
        page.write(Message::text(
            json!({ "type": "n", "index": index }).to_string(),
        ))
        .unwrap();
    }
    page.flush().unwrap();
    let (messages, closed) = until_closed(&mut page);
    let errors = errors(&messages);
    assert_eq!(errors.len(), 2, "{messages:?}");
    assert!(
        errors[0].starts_with("rate-limited: more than 2 messages a second"),
        "{errors:?}"
    );
    assert_eq!(errors[1], "rate-limited: flooding: closing");
    let echoed = messages.iter().filter(|m| m["type"] == "echo").count();
    assert!(echoed < 10, "{messages:?}");
    assert!(closed, "the page hears the close after the reason");
    server.shutdown();
}

#[test]
fn a_page_that_sends_faster_than_its_session_takes_is_told_and_closed() {
    let limits = PageLimits {
        inbox_capacity: 4,
        ..PageLimits::default()
    };
    let server = start(limits, 4);
    let name = gate("inbox");
    let (release, held) = mpsc::channel::<()>();
    HOLDS.lock().unwrap().insert(name.clone(), held);
    let mut page = connect(&server, "test-hold").unwrap();
    send(&mut page, json!({ "type": "hold", "gate": name }));
    let holding: Value = serde_json::from_str(&page.read().unwrap().into_text().unwrap()).unwrap();
    assert_eq!(holding["type"], "holding");
    // The session is busy: four messages wait for it, the fifth is one too many.
    for _ in 0..5 {
        send(&mut page, json!({ "type": "more" }));
    }
    let (messages, closed) = until_closed(&mut page);
    assert_eq!(
        errors(&messages),
        ["more than 4 messages waited for the session: closing"],
        "{messages:?}"
    );
    assert!(closed);
    drop(release);
    server.shutdown();
}

#[test]
fn a_page_that_reads_slower_than_its_session_writes_is_told_and_closed() {
    let limits = PageLimits {
        outbox_capacity: 8,
        ..PageLimits::default()
    };
    let server = start(limits, 4);
    let name = gate("outbox");
    let (done, spewed) = mpsc::channel();
    SPEWED.lock().unwrap().insert(name.clone(), done);
    let mut page = connect(&server, "test-spew").unwrap();
    // 40 MB while the page reads nothing: more than the system's buffers and the queue hold.
    let spew = json!({ "type": "spew", "count": 40, "bytes": 1 << 20, "gate": name });
    send(&mut page, spew);
    spewed.recv_timeout(Duration::from_secs(60)).unwrap();
    let (messages, closed) = until_closed(&mut page);
    let delivered = messages.iter().filter(|m| m["type"] == "spew").count();
    assert!(delivered < 40, "{delivered} of 40 delivered");
    assert_eq!(
        errors(&messages),
        ["too slow to read: more than 8 messages waited to be sent; closing"]
    );
    assert_eq!(messages.last().unwrap()["type"], "error");
    assert!(closed);
    server.shutdown();
}

#[test]
fn a_session_counts_until_its_thread_ends_not_only_while_its_page_is_connected() {
    let server = start(PageLimits::default(), 1);
    let name = gate("permit");
    let (release, held) = mpsc::channel::<()>();
    HOLDS.lock().unwrap().insert(name.clone(), held);
    let mut page = connect(&server, "test-hold").unwrap();
    send(&mut page, json!({ "type": "hold", "gate": name }));
    let holding: Value = serde_json::from_str(&page.read().unwrap().into_text().unwrap()).unwrap();
    assert_eq!(holding["type"], "holding");
    page.close(None).unwrap();
    let (messages, _) = until_closed(&mut page);
    assert!(messages.is_empty(), "{messages:?}");
    // The page is gone but its session's thread is not: no room for another session.
    let refused = |result: Result<Page, tungstenite::Error>| match result {
        Err(tungstenite::Error::Http(response)) => response.status() == 503,
        Err(error) => panic!("{error}"),
        Ok(_) => false,
    };
    for _ in 0..3 {
        assert!(
            refused(connect(&server, "echo")),
            "a second session while one lives"
        );
    }
    // Its thread ends: there is room again (as soon as the thread has let go).
    drop(release);
    let end = Instant::now() + Duration::from_secs(10);
    while refused(connect(&server, "echo")) {
        assert!(Instant::now() < end, "the session's thread never let go");
        std::thread::sleep(Duration::from_millis(10));
    }
    server.shutdown();
}
