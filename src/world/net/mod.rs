//! The network side of the world server: one TCP port that serves plain HTTP reads and the
//! WebSocket API (`GET /ws`). It parses and prints only: every message goes to the turn loop as
//! a [`Request`](super::hub::Request), and garbage, oversized messages, floods, half-open
//! connections and slow readers are dealt with here, so that none of them reaches or stalls the
//! turn loop.

use super::config::NetLimits;
use super::hub::Requests;
use std::net::SocketAddr;

/// The running network side.
pub struct NetServer {
    addr: SocketAddr,
}

impl NetServer {
    /// Listens on `listen` (`host:port`) and serves until [`NetServer::shutdown`].
    pub fn start(
        listen: &str,
        limits: &NetLimits,
        requests: Requests,
    ) -> Result<NetServer, String> {
        let _ = (listen, limits, requests);
        todo!("net")
    }
    /// The address it listens on (the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }
    /// Stops listening and closes every connection.
    pub fn shutdown(self) {
        todo!("net")
    }
}
