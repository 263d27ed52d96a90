//! What a page's WebSocket connection plays, as plain synchronous code: a [`Session`] gets the
//! page's JSON messages one at a time and is polled between them, on a thread of its own, so it
//! may block on the engine without holding up any other connection.

use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc::{self, error::TrySendError};

/// One page's session: a game against Roger, a realtime game, a replay.
pub trait Session: Send + 'static {
    /// One message from the page: a JSON object with a `"type"`.
    fn message(&mut self, message: &Value, out: &Outbox);
    /// Called every [`POLL_MS`] milliseconds while the page is connected, and after each
    /// message: clocks, the engine's answer and realtime ticks are handled here.
    fn poll(&mut self, _out: &Outbox) {}
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
