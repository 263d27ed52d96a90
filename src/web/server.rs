//! The listening side of `roger serve`: every connection gets a task; a GET of a page or script
//! is answered from [`assets`](super::assets), `GET /ws/<kind>` becomes a session.

use super::{assets, sessions, socket};
use crate::world::net::wire::{answer, read_head, Head, HeadError};
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
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
    /// Sessions open at once at most (each may run an engine).
    pub max_sessions: usize,
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig {
            listen: "127.0.0.1:8600".into(),
            world: None,
            max_sessions: 16,
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
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
}

impl WebServer {
    /// Listens on `config.listen` and serves on two threads of its own until
    /// [`WebServer::shutdown`].
    pub fn start(config: WebConfig) -> Result<WebServer, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("web")
            .enable_all()
            .build()
            .map_err(|error| format!("cannot start the network threads: {error}"))?;
        let listen = config.listen.clone();
        let listener = runtime
            .block_on(TcpListener::bind(&listen))
            .map_err(|error| format!("cannot listen on {listen}: {error}"))?;
        let addr = listener
            .local_addr()
            .map_err(|error| format!("cannot listen on {listen}: {error}"))?;
        let (stop, stopping) = watch::channel(false);
        let shared = Shared {
            sessions: Arc::new(Semaphore::new(config.max_sessions)),
            config: Arc::new(config),
            stopping,
        };
        let thread = std::thread::Builder::new()
            .name("web".into())
            .spawn(move || {
                runtime.block_on(accept(listener, shared));
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(|error| format!("cannot start the network thread: {error}"))?;
        Ok(WebServer {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    /// The address it listens on (the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks until the server stops (it stops only when shut down).
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Stops listening and closes every connection.
    pub fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

async fn accept(listener: TcpListener, shared: Shared) {
    let mut stopping = shared.stopping.clone();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    tokio::spawn(serve(stream, peer, shared.clone()));
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            },
            _ = stopping.changed() => break,
        }
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
