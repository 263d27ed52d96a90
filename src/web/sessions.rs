//! The kinds of session a page can open, by the path of its WebSocket: `/ws/<kind>`.

use super::session::{Outbox, PageSession, Session};
use super::WebConfig;

/// A new session of `kind`, or `None` when there is no such kind.
pub fn open(kind: &str, _config: &WebConfig) -> Option<Box<dyn Session>> {
    match kind {
        "echo" => Some(Box::new(Echo)),
        "replay" => Some(Box::new(super::replay::ReplaySession)),
        "realtime" => Some(super::realtime::open()),
        "play" => Some(Box::new(super::play::PlaySession::new())),
        #[cfg(test)]
        kind if kind.starts_with("test-") => super::tests::session(kind),
        _ => None,
    }
}

/// Answers every message with itself: the pages' connection check, and the tests' of the
/// transport.
struct Echo;

impl PageSession for Echo {
    /// Any message at all.
    type Request = serde_json::Value;

    fn request(&mut self, message: serde_json::Value, out: &Outbox) {
        out.send(serde_json::json!({ "type": "echo", "message": message }));
    }
}
