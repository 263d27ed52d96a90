//! The seam between the turn loop and whoever talks to it: the network's connections, the house
//! bots, and HTTP reads. Everything goes into one channel of [`Request`]s, read by the turn loop
//! alone, in arrival order; the loop answers a connection through its [`Outbox`] without ever
//! blocking on it (a full outbox means a reader too slow to keep up, and the loop drops it).

use super::api::ClientMessage;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// A connection's number for the life of the process (network connections and house bots alike).
pub type ConnectionId = u64;

/// A new, never used connection id.
pub fn next_connection_id() -> ConnectionId {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Where the turn loop puts a connection's messages (JSON text, serialised once even when
/// broadcast). Dropping every clone of it closes the connection once its queue is sent.
#[derive(Clone, Debug)]
pub struct Outbox {
    sender: mpsc::Sender<Arc<str>>,
}

/// The receiving end of an [`Outbox`]: the connection's writer, or a house bot.
pub type OutboxReceiver = mpsc::Receiver<Arc<str>>;

impl Outbox {
    /// An outbox that holds up to `capacity` unsent messages.
    pub fn channel(capacity: usize) -> (Outbox, OutboxReceiver) {
        let (sender, receiver) = mpsc::channel(capacity.max(1));
        (Outbox { sender }, receiver)
    }
    /// Queues a message without waiting. `false`: the queue is full (a slow reader) or the
    /// connection is gone; the caller drops the connection.
    pub fn send(&self, text: Arc<str>) -> bool {
        self.sender.try_send(text).is_ok()
    }
}

/// A read that does not change the world and needs the loop (HTTP `GET`s of the loop's own
/// state; the pieces and pictures are read off the loop, from [`super::view`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadQuery {
    /// [`super::api::StatusReport`] as JSON.
    Status,
    /// The scoreboard as JSON: `{turn, players}`, as the `scoreboard` message.
    Scoreboard,
}

/// The answer to a [`ReadQuery`] or a [`super::view::ViewQuery`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadAnswer {
    Json(String),
    Svg(String),
    /// An HTTP status (400 for a bad rectangle, say) and the reason.
    Refused {
        status: u16,
        reason: String,
    },
}

/// What reaches the turn loop.
#[derive(Debug)]
pub enum Request {
    /// A connection opened (it has no role until `join`, `hello` or `spectate`). `house`: a
    /// house bot of the server, shown as such on the scoreboard.
    Open {
        conn: ConnectionId,
        outbox: Outbox,
        peer: String,
        house: bool,
    },
    /// A message the connection sent (already parsed; the network answers garbage itself).
    Message {
        conn: ConnectionId,
        message: ClientMessage,
    },
    /// The connection closed (or was dropped by the network side).
    Closed { conn: ConnectionId },
    /// A read; the answer goes to `reply`.
    Read {
        query: ReadQuery,
        reply: oneshot::Sender<ReadAnswer>,
    },
    /// Stop the loop after persisting what is complete (Ctrl-C, a test's end).
    Shutdown,
}

/// The sending end of the turn loop's channel.
pub type Requests = std::sync::mpsc::Sender<Request>;
