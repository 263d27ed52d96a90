//! The listening side of `roger serve`: every connection gets a task; a GET of a page or script
//! is answered from [`assets`](super::assets), `GET /ws/<kind>` becomes a session.

use super::{assets, sessions, socket};
use crate::world::net::wire::{answer, read_head, Head, HeadError, ServerThread};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::{watch, Semaphore};
use tokio::time::timeout;

/// The largest request head, and the largest message a page may send.
pub(super) const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// How long a client may take to send its request head.
const HEAD_TIME: Duration = Duration::from_secs(10);

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

/// The running server.
pub struct WebServer {
    server: ServerThread,
}

impl WebServer {
    /// Listens on `config.listen` and serves on two threads of its own until
    /// [`WebServer::shutdown`].
    pub fn start(config: WebConfig) -> Result<WebServer, String> {
        let listen = config.listen.clone();
        let server = ServerThread::start(&listen, "web", |stopping| {
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
