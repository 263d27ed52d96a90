//! One page's WebSocket: the upgrade, then two halves. A thread of its own runs the
//! [`Session`]: it takes the page's messages from a channel and polls the session between them.
//! A task forwards the page's text to that thread and the session's answers to the page. Both
//! queues are bounded and the page's messages are rate-limited as the world server's are: a
//! page that floods, that sends faster than its session takes, or that reads slower than its
//! session writes, is told so and closed, and memory never grows without bound.

use super::config::{Shared, MAX_MESSAGE_BYTES};
use super::session::{Outbox, Session, POLL_MS};
use crate::net::limits::{RateLimit, Verdict};
use crate::net::wire::{accept_upgrade, answer, close_websocket, Head, Prefixed};
use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError, TrySendError};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// How long one message to the page may take to send before the page counts as gone.
const WRITE_TIME: Duration = Duration::from_secs(10);

type Socket = WebSocketStream<Prefixed>;

pub(super) async fn serve(
    mut stream: TcpStream,
    rest: Vec<u8>,
    head: &Head,
    session: Box<dyn Session>,
    shared: Shared,
) {
    // Held by the session's thread, so a session counts until it has really ended (an engine
    // it waits on included), not only while its page is connected.
    let Ok(permit) = shared.sessions.clone().try_acquire_owned() else {
        return answer(&mut stream, 503, "text/plain", "too many sessions at once").await;
    };
    if !accept_upgrade(&mut stream, head, "this path wants a WebSocket", WRITE_TIME).await {
        return;
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES));
    let stream = Prefixed {
        prefix: rest,
        offset: 0,
        inner: stream,
    };
    let mut socket = WebSocketStream::from_raw_socket(stream, Role::Server, Some(config)).await;
    let limits = &shared.config.limits;
    let (outbox, mut from_session, overflowed) = Outbox::bounded(limits.outbox_capacity);
    let (to_session, inbox) = mpsc::sync_channel::<String>(limits.inbox_capacity.max(1));
    let runner = std::thread::Builder::new()
        .name(format!("session {}", head.path))
        .spawn(move || {
            run(session, inbox, outbox);
            drop(permit);
        });
    if runner.is_err() {
        return;
    }
    let mut rate = RateLimit::new(limits.messages_per_second, limits.burst, Instant::now());
    let mut stopping = shared.stopping.clone();
    loop {
        tokio::select! {
            outgoing = from_session.recv() => match outgoing {
                Some(text) => {
                    if !send(&mut socket, &text).await {
                        // Stalled: nothing more reaches this page.
                        return;
                    }
                    if overflowed.load(Ordering::Relaxed) {
                        let reason = format!(
                            "too slow to read: more than {} messages waited to be sent; closing",
                            limits.outbox_capacity
                        );
                        return refuse(&mut socket, &reason).await;
                    }
                }
                None => break,
            },
            incoming = socket.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => Some(text.to_string()),
                    // Not understood, but counted.
                    Some(Ok(Message::Binary(_))) => None,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                match rate.check(Instant::now()) {
                    Verdict::Take => {}
                    Verdict::Drop { tell: false } => continue,
                    Verdict::Drop { tell: true } => {
                        let reason = format!(
                            "rate-limited: more than {} messages a second: messages dropped",
                            limits.messages_per_second
                        );
                        if !send(&mut socket, &error(&reason)).await {
                            return;
                        }
                        continue;
                    }
                    Verdict::Flood => {
                        return refuse(&mut socket, "rate-limited: flooding: closing").await;
                    }
                }
                let Some(text) = text else { continue };
                match to_session.try_send(text) {
                    Ok(()) => {}
                    Err(TrySendError::Full(_)) => {
                        let reason = format!(
                            "more than {} messages waited for the session: closing",
                            limits.inbox_capacity
                        );
                        return refuse(&mut socket, &reason).await;
                    }
                    Err(TrySendError::Disconnected(_)) => break,
                }
            },
            _ = stopping.changed() => break,
        }
    }
    let _ = timeout(Duration::from_millis(200), socket.close(None)).await;
    // Dropping `to_session` ends the session's thread at its next poll.
}

/// Sends one text message within [`WRITE_TIME`]; `false` when the page did not take it.
async fn send(socket: &mut Socket, text: &str) -> bool {
    matches!(
        timeout(WRITE_TIME, socket.send(Message::text(text))).await,
        Ok(Ok(()))
    )
}

fn error(reason: &str) -> String {
    serde_json::json!({ "type": "error", "error": reason }).to_string()
}

/// Tells the page why, then closes its connection so that it can read the reason.
async fn refuse(socket: &mut Socket, reason: &str) {
    if send(socket, &error(reason)).await {
        close_websocket(socket, WRITE_TIME).await;
    }
}

/// The session's thread: messages as they come, a poll at least every [`POLL_MS`].
fn run(mut session: Box<dyn Session>, inbox: mpsc::Receiver<String>, out: Outbox) {
    let poll = Duration::from_millis(POLL_MS);
    loop {
        match inbox.recv_timeout(poll) {
            Ok(text) => match serde_json::from_str::<serde_json::Value>(&text) {
                Ok(message) if message.get("type").is_some_and(|kind| kind.is_string()) => {
                    session.message(message, &out)
                }
                Ok(_) => out.error("a message is a JSON object with a \"type\""),
                Err(error) => out.error(format!("not JSON: {error}")),
            },
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        session.poll(&out);
    }
}
