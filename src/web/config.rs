//! What the page server is set up with ([`WebConfig`], [`PageLimits`]) and what its connection
//! tasks share: plain data that the server and the sessions' sockets both read.

use std::sync::Arc;
use tokio::sync::{watch, Semaphore};

/// The largest request head, and the largest message a page may send.
pub(super) const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// What `roger serve` serves.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// `host:port`; port 0 picks one.
    pub listen: String,
    /// The WebSocket address of the Megachess world the world page opens by default.
    pub world: Option<String>,
    /// Sessions open at once at most (each may run an engine); a session counts until its
    /// thread has ended, not only while its page is connected.
    pub max_sessions: usize,
    pub limits: PageLimits,
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig {
            listen: "127.0.0.1:8600".into(),
            world: None,
            max_sessions: 16,
            limits: PageLimits::default(),
        }
    }
}

/// What one page's session socket allows.
#[derive(Clone, Debug)]
pub struct PageLimits {
    /// Messages a page may send per second on average, and in one burst (the world server's
    /// token bucket).
    pub messages_per_second: u32,
    pub burst: u32,
    /// The page's messages waiting for its session (one busy with the engine, say); one more
    /// closes the connection.
    pub inbox_capacity: usize,
    /// The session's messages waiting to be sent to the page; one more closes the connection.
    pub outbox_capacity: usize,
}

impl Default for PageLimits {
    fn default() -> PageLimits {
        PageLimits {
            messages_per_second: 100,
            burst: 200,
            inbox_capacity: 256,
            outbox_capacity: 1024,
        }
    }
}

/// What every connection task shares.
#[derive(Clone)]
pub(super) struct Shared {
    pub config: Arc<WebConfig>,
    pub sessions: Arc<Semaphore>,
    pub stopping: watch::Receiver<bool>,
}
