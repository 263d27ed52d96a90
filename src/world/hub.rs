//! The seam between the turn loop and whoever talks to it: the network's connections, the house
//! bots, and HTTP reads. Everything goes into one channel of [`Request`]s, read by the turn loop
//! alone, in arrival order; the loop answers a connection through its [`Outbox`] without ever
//! blocking on it (a full outbox means a reader too slow to keep up, and the loop drops it).

use super::api::ClientMessage;
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
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
    sender: mpsc::Sender<Outgoing>,
}

/// The receiving end of an [`Outbox`]: the connection's writer, or a house bot.
pub type OutboxReceiver = mpsc::Receiver<Outgoing>;

/// A message on its way to a connection, or two that go out in one write (a turn's end and
/// the next turn).
#[derive(Debug)]
pub struct Outgoing {
    texts: ArrayVec<Arc<str>, 2>,
    /// Counts the message as undelivered until it is dropped: by the writer once written, or
    /// unwritten with a connection that died.
    _delivery: Option<Undelivered>,
}

impl Outgoing {
    /// One message.
    pub fn one(text: Arc<str>) -> Outgoing {
        Outgoing {
            texts: ArrayVec::from_iter([text]),
            _delivery: None,
        }
    }

    /// A `turn` message, after the last turn's `turn_end` if one is given (one write for both),
    /// counted in `deliveries` until it is written.
    pub fn turn(end: Option<Arc<str>>, turn: Arc<str>, deliveries: &Deliveries) -> Outgoing {
        Outgoing {
            texts: end.into_iter().chain([turn]).collect(),
            _delivery: Some(deliveries.mark()),
        }
    }

    /// The messages, in order.
    pub fn texts(&self) -> &[Arc<str>] {
        &self.texts
    }
}

/// Messages not yet written to their connections (a turn's `turn` messages, which the turn
/// loop waits on): counted up as each is queued and down as each is written, or dropped
/// unwritten with its connection.
#[derive(Clone, Debug, Default)]
pub struct Deliveries(Arc<AtomicUsize>);

impl Deliveries {
    /// The messages sent with these deliveries that are not yet written.
    pub fn pending(&self) -> usize {
        self.0.load(Ordering::Acquire)
    }

    fn mark(&self) -> Undelivered {
        self.0.fetch_add(1, Ordering::AcqRel);
        Undelivered(Arc::clone(&self.0))
    }
}

/// One message of [`Deliveries`] not yet written.
#[derive(Debug)]
struct Undelivered(Arc<AtomicUsize>);

impl Drop for Undelivered {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Outbox {
    /// An outbox that holds up to `capacity` unsent messages.
    pub fn channel(capacity: usize) -> (Outbox, OutboxReceiver) {
        let (sender, receiver) = mpsc::channel(capacity.max(1));
        (Outbox { sender }, receiver)
    }

    /// Queues a message without waiting. `false`: the queue is full (a slow reader) or the
    /// connection is gone; the caller drops the connection.
    pub fn send(&self, text: Arc<str>) -> bool {
        self.queue(Outgoing::one(text))
    }

    /// Queues `message` as [`Outbox::send`] does.
    pub fn queue(&self, message: Outgoing) -> bool {
        self.sender.try_send(message).is_ok()
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
