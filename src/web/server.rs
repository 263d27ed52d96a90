//! The listening side of `roger serve`: every connection gets a task; a GET of a page or script
//! is answered from [`assets`](super::assets), `GET /ws/<kind>` becomes a session.

use super::config::{Shared, WebConfig, MAX_MESSAGE_BYTES};
use super::{assets, sessions, socket};
use crate::net::wire::{answer, read_head, Head, HeadError, ServerThread};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio::time::timeout;

/// How long a client may take to send its request head.
const HEAD_TIME: Duration = Duration::from_secs(10);

/// The running server.
pub struct WebServer {
    server: ServerThread,
}

impl WebServer {
    /// Listens on `config.listen` and serves on two threads of its own until
    /// [`WebServer::shutdown`].
    pub fn start(config: WebConfig) -> Result<WebServer, String> {
        let listen = config.listen.clone();
        let server = ServerThread::start(&listen, "web", 0, |stopping| {
            let shared = Shared {
                sessions: Arc::new(Semaphore::new(config.max_sessions)),
                config: Arc::new(config),
                stopping,
            };
            move |stream, peer| serve(stream, peer, shared.clone())
        })?;
        Ok(WebServer { server })
    }

    /// The address it listens on (the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// Blocks until the server stops (it stops only when shut down).
    pub fn wait(self) {
        self.server.wait();
    }

    /// Stops listening and closes every connection.
    pub fn shutdown(self) {
        self.server.shutdown();
    }
}

/// One connection: a file, or a session.
async fn serve(mut stream: TcpStream, _peer: SocketAddr, shared: Shared) {
    let (head, rest) = match timeout(HEAD_TIME, read_head(&mut stream, MAX_MESSAGE_BYTES)).await {
        Err(_) | Ok(Err(HeadError::Closed)) => return,
        Ok(Err(HeadError::TooLarge)) => {
            return answer(&mut stream, 431, "text/plain", "request head too large").await
        }
        Ok(Ok(read)) => read,
    };
    let Some(head) = Head::parse(&head) else {
        return answer(&mut stream, 400, "text/plain", "not an HTTP/1.x request").await;
    };
    if head.method != "GET" {
        return answer(&mut stream, 405, "text/plain", "only GET is served").await;
    }
    if let Some(kind) = head.path.strip_prefix("/ws/") {
        let Some(session) = sessions::open(kind, &shared.config) else {
            let body = format!("no session kind '{kind}'");
            return answer(&mut stream, 404, "text/plain", &body).await;
        };
        return socket::serve(stream, rest, &head, session, shared).await;
    }
    if head.path == "/config.json" {
        let body = serde_json::json!({ "world": shared.config.world }).to_string();
        return answer(&mut stream, 200, "application/json", &body).await;
    }
    match assets::find(&head.path) {
        Some((kind, text)) => answer(&mut stream, 200, kind, &text).await,
        None => {
            let body = format!("no page {} (see /)", head.path);
            answer(&mut stream, 404, "text/plain", &body).await
        }
    }
}
