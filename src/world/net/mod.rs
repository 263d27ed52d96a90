//! The network side of the world server: one TCP port that serves plain HTTP reads and the
//! WebSocket API (`GET /ws`). It parses and prints only: every message goes to the turn loop as
//! a [`Request`](super::hub::Request), and garbage, oversized messages, floods, half-open
//! connections and slow readers are dealt with here, so that none of them reaches or stalls the
//! turn loop.
//!
//! `http.rs` reads request heads and answers the reads; `ws.rs` runs a WebSocket connection;
//! the bare HTTP/1.1 and the rate limits that `roger serve` shares are in [`crate::net`].

mod http;
mod ws;

#[cfg(test)]
mod tests;

use super::config::NetLimits;
use super::hub::Requests;
use super::view::Published;
use crate::net::limits::RateLimit;
use crate::net::wire::ServerThread;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{watch, Semaphore};

/// HTTP reads waiting on the turn loop or drawing the published world at once, from all
/// clients together; more get 503.
const READS_IN_FLIGHT: usize = 16;

/// What every connection task shares.
#[derive(Clone)]
struct Shared {
    limits: NetLimits,
    requests: Requests,
    /// Open WebSocket connections.
    open: Arc<AtomicUsize>,
    /// Turns true when the server stops.
    stopping: watch::Receiver<bool>,
    /// HTTP reads: a rate limit per client address, and how many may wait on the turn loop.
    read_limits: Arc<Mutex<HashMap<IpAddr, RateLimit>>>,
    reads_in_flight: Arc<Semaphore>,
    /// The world after the last completed turn, for the reads that need no loop.
    published: Published,
}

/// How far below the turn loop's priority the network threads run: on a busy machine the
/// loop, which every player waits on, gets the cores first, and the writers catch up after.
const NET_PRIORITY_BELOW_LOOP: i32 = 5;

/// The running network side.
pub struct NetServer {
    server: ServerThread,
    /// Open WebSocket connections (the count every connection task keeps).
    open: Arc<AtomicUsize>,
}

impl NetServer {
    /// Listens on `listen` (`host:port`; port 0 picks one) and serves on two threads of its own
    /// until [`NetServer::shutdown`].
    pub fn start(
        listen: &str,
        limits: &NetLimits,
        requests: Requests,
        published: Published,
    ) -> Result<NetServer, String> {
        let open = Arc::new(AtomicUsize::new(0));
        let server =
            ServerThread::start(listen, "world-net", NET_PRIORITY_BELOW_LOOP, |stopping| {
                let shared = Shared {
                    limits: limits.clone(),
                    requests,
                    open: Arc::clone(&open),
                    stopping,
                    read_limits: Arc::new(Mutex::new(HashMap::new())),
                    reads_in_flight: Arc::new(Semaphore::new(READS_IN_FLIGHT)),
                    published,
                };
                move |stream, peer| http::serve(stream, peer, shared.clone())
            })?;
        Ok(NetServer { server, open })
    }

    /// Waits, at most `limit`, until every WebSocket connection has closed: each sends what
    /// the turn loop queued for it (`closing` last) and closes once the loop lets go of it.
    pub fn drain(&self, limit: Duration) {
        let end = Instant::now() + limit;
        while self.open.load(Ordering::Relaxed) > 0 && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The address it listens on (the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// Stops listening and closes every connection.
    pub fn shutdown(self) {
        self.server.shutdown();
    }
}
