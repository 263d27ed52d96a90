//! One page's WebSocket: the upgrade, then two halves. A thread of its own runs the
//! [`Session`]: it takes the page's messages from a channel and polls the session between them.
//! A task forwards the page's text to that thread and the session's answers to the page.

use super::server::{Shared, MAX_MESSAGE_BYTES};
use super::session::{Outbox, Session, POLL_MS};
use crate::world::net::wire::{accept_upgrade, answer, Head, Prefixed};
use futures_util::{SinkExt, StreamExt};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// How long one message to the page may take to send before the page counts as gone.
const WRITE_TIME: Duration = Duration::from_secs(10);

pub(super) async fn serve(
    mut stream: TcpStream,
    rest: Vec<u8>,
    head: &Head,
    session: Box<dyn Session>,
    shared: Shared,
) {
    let Ok(_permit) = shared.sessions.clone().try_acquire_owned() else {
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
    let (to_page, mut from_session) = tokio::sync::mpsc::unbounded_channel();
    let (to_session, inbox) = mpsc::channel::<String>();
    let outbox = Outbox::new(to_page);
    let runner = std::thread::Builder::new()
        .name(format!("session {}", head.path))
        .spawn(move || run(session, inbox, outbox));
    if runner.is_err() {
        return;
    }
    let mut stopping = shared.stopping.clone();
    loop {
        tokio::select! {
            outgoing = from_session.recv() => match outgoing {
                Some(text) => {
                    let sent = timeout(WRITE_TIME, socket.send(Message::text(text))).await;
                    if !matches!(sent, Ok(Ok(()))) {
                        break;
                    }
                }
                None => break,
            },
            incoming = socket.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if to_session.send(text.to_string()).is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            _ = stopping.changed() => break,
        }
    }
    let _ = timeout(Duration::from_millis(200), socket.close(None)).await;
    // Dropping `to_session` ends the session's thread at its next poll.
}

/// The session's thread: messages as they come, a poll at least every [`POLL_MS`].
fn run(mut session: Box<dyn Session>, inbox: mpsc::Receiver<String>, out: Outbox) {
    let poll = Duration::from_millis(POLL_MS);
    loop {
        match inbox.recv_timeout(poll) {
            Ok(text) => match serde_json::from_str::<serde_json::Value>(&text) {
                Ok(message) if message.get("type").is_some_and(|kind| kind.is_string()) => {
                    session.message(&message, &out)
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
