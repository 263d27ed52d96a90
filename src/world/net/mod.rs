//! The network side of the world server: one TCP port that serves plain HTTP reads and the
//! WebSocket API (`GET /ws`). It parses and prints only: every message goes to the turn loop as
//! a [`Request`](super::hub::Request), and garbage, oversized messages, floods, half-open
//! connections and slow readers are dealt with here, so that none of them reaches or stalls the
//! turn loop.
//!
//! `http.rs` reads request heads and answers the reads; `ws.rs` runs a WebSocket connection;
//! `limits.rs` holds the rate limit and the log of offenders; `wire.rs` the bare HTTP/1.1 that
//! `roger serve` shares.

mod http;
mod limits;
pub mod wire;
mod ws;

#[cfg(test)]
mod tests;

use super::config::NetLimits;
use super::hub::Requests;
use limits::RateLimit;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// HTTP reads waiting on the turn loop at once, from all clients together; more get 503.
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
}

/// The running network side.
pub struct NetServer {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
}

impl NetServer {
    /// Listens on `listen` (`host:port`; port 0 picks one) and serves on two threads of its own
    /// until [`NetServer::shutdown`].
    pub fn start(
        listen: &str,
        limits: &NetLimits,
        requests: Requests,
    ) -> Result<NetServer, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("world-net")
            .enable_all()
            .build()
            .map_err(|error| format!("cannot start the network threads: {error}"))?;
        // tokio's bind sets SO_REUSEADDR: a server restarted right after a crash binds again.
        let listener = runtime
            .block_on(TcpListener::bind(listen))
            .map_err(|error| format!("cannot listen on {listen}: {error}"))?;
        let addr = listener
            .local_addr()
            .map_err(|error| format!("cannot listen on {listen}: {error}"))?;
        let (stop, stopping) = watch::channel(false);
        let shared = Shared {
            limits: limits.clone(),
            requests,
            open: Arc::new(AtomicUsize::new(0)),
            stopping,
            read_limits: Arc::new(Mutex::new(HashMap::new())),
            reads_in_flight: Arc::new(Semaphore::new(READS_IN_FLIGHT)),
        };
        let thread = std::thread::Builder::new()
            .name("world-net".into())
            .spawn(move || {
                runtime.block_on(accept(listener, shared));
                // Connection tasks still running are cancelled here, within a bound.
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(|error| format!("cannot start the network thread: {error}"))?;
        Ok(NetServer {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    /// The address it listens on (the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops listening and closes every connection.
    pub fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for NetServer {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// Accepts connections until the server stops; each gets a task of its own.
async fn accept(listener: TcpListener, shared: Shared) {
    let mut stopping = shared.stopping.clone();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    tokio::spawn(http::serve(stream, peer, shared.clone()));
                }
                // Out of file descriptors and the like: wait a little rather than spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            },
            _ = stopping.changed() => break,
        }
    }
}
