//! What a page's WebSocket connection plays, as plain synchronous code: a [`Session`] gets the
//! page's JSON messages one at a time and is polled between them, on a thread of its own, so it
//! may block on the engine without holding up any other connection.

use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

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

/// The way back to the page.
#[derive(Clone)]
pub struct Outbox {
    sender: UnboundedSender<String>,
}

impl Outbox {
    pub fn new(sender: UnboundedSender<String>) -> Outbox {
        Outbox { sender }
    }

    /// Sends one JSON message; a page that has gone away is not an error.
    pub fn send(&self, message: Value) {
        let _ = self.sender.send(message.to_string());
    }

    /// Tells the page that what it sent was wrong; the session goes on.
    pub fn error(&self, reason: impl Into<String>) {
        self.send(serde_json::json!({ "type": "error", "error": reason.into() }));
    }
}
