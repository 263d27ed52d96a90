//! What a page's WebSocket connection plays, as plain synchronous code: a [`Session`] gets the
//! page's JSON messages one at a time and is polled between them, on a thread of its own, so it
//! may block on the engine without holding up any other connection.

use serde::de::DeserializeOwned;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc::{self, error::TrySendError};

/// One page's session as the connection sees it: JSON objects in, polls between them. Every
/// [`PageSession`] is one; the connection holds it as `Box<dyn Session>`.
pub trait Session: Send + 'static {
    /// One message from the page: a JSON object with a string `"type"`.
    fn message(&mut self, message: Value, out: &Outbox);
    /// Called every [`POLL_MS`] milliseconds while the page is connected, and after each
    /// message: clocks, the engine's answer and realtime ticks are handled here.
    fn poll(&mut self, out: &Outbox);
}

/// One page's session with its own typed messages: a game against Roger, a realtime game, a
/// replay. Its `Request` is a serde enum tagged by `"type"`; a message that does not decode into
/// one is answered with an error that names its type, and never reaches the session.
pub trait PageSession: Send + 'static {
    type Request: DeserializeOwned;
    /// One decoded message from the page.
    fn request(&mut self, request: Self::Request, out: &Outbox);
    /// See [`Session::poll`].
    fn poll(&mut self, _out: &Outbox) {}
}

impl<S: PageSession> Session for S {
    fn message(&mut self, message: Value, out: &Outbox) {
        match decode(message) {
            Ok(request) => self.request(request, out),
            Err(error) => out.error(error),
        }
    }

    fn poll(&mut self, out: &Outbox) {
        PageSession::poll(self, out)
    }
}

/// A page's message as a session's request type, or the error the page is told: the message's
/// type first, so that the page knows which of its messages was wrong.
pub fn decode<R: DeserializeOwned>(message: Value) -> Result<R, String> {
    let kind = message
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    serde_json::from_value(message).map_err(|error| {
        let error = error.to_string();
        // serde names an unknown tag as it names an unknown value of any enum field.
        if error.starts_with(&format!("unknown variant `{kind}`")) {
            format!("unknown message type \"{kind}\" ({error})")
        } else {
            format!("{kind}: {error}")
        }
    })
}

/// How often a session is polled, in milliseconds.
pub const POLL_MS: u64 = 20;

/// The way back to the page: a queue of bounded length, which the session never waits on.
#[derive(Clone)]
pub struct Outbox {
    sink: Sink,
}

#[derive(Clone)]
enum Sink {
    /// The page's connection: when the queue is full, the message is dropped and `overflowed`
    /// set, and the connection closes the page as too slow to read.
    Bounded {
        sender: mpsc::Sender<String>,
        overflowed: Arc<AtomicBool>,
    },
    /// A test's reader, which takes every message.
    #[cfg(test)]
    Unbounded(mpsc::UnboundedSender<String>),
}

impl Outbox {
    /// An outbox that holds up to `capacity` unsent messages; the receiver, and the flag that
    /// says a message found it full.
    pub fn bounded(capacity: usize) -> (Outbox, mpsc::Receiver<String>, Arc<AtomicBool>) {
        let (sender, receiver) = mpsc::channel(capacity.max(1));
        let overflowed = Arc::new(AtomicBool::new(false));
        let sink = Sink::Bounded {
            sender,
            overflowed: Arc::clone(&overflowed),
        };
        (Outbox { sink }, receiver, overflowed)
    }

    /// A test's outbox, read by the test itself.
    #[cfg(test)]
    pub fn new(sender: mpsc::UnboundedSender<String>) -> Outbox {
        Outbox {
            sink: Sink::Unbounded(sender),
        }
    }

    /// Sends one JSON message; a page that has gone away is not an error.
    pub fn send(&self, message: Value) {
        match &self.sink {
            Sink::Bounded { sender, overflowed } => {
                if let Err(TrySendError::Full(_)) = sender.try_send(message.to_string()) {
                    overflowed.store(true, Ordering::Relaxed);
                }
            }
            #[cfg(test)]
            Sink::Unbounded(sender) => {
                let _ = sender.send(message.to_string());
            }
        }
    }

    /// Tells the page that what it sent was wrong; the session goes on.
    pub fn error(&self, reason: impl Into<String>) {
        self.send(serde_json::json!({ "type": "error", "error": reason.into() }));
    }
}
