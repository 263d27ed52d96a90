//! HTTP/1.1 on a raw TCP stream, as little as a small server needs: the listening thread, the
//! request head read within a size bound, one answer written and the connection closed, the
//! WebSocket upgrade, and the stream handed on to a WebSocket with the bytes read past the head
//! put back, and a WebSocket's close that lets the client read what it was last told. The world
//! server and `roger serve` both use it.

use futures_util::StreamExt;
use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// How long writing one answer may take.
const ANSWER_TIME: Duration = Duration::from_secs(10);

/// A request head: method, path, query and the headers (names in lower case).
pub struct Head {
    pub method: String,
    pub path: String,
    pub query: HashMap<String, String>,
    pub headers: HashMap<String, String>,
}

impl Head {
    pub fn parse(text: &str) -> Option<Head> {
        let mut lines = text.split("\r\n");
        let mut first = lines.next()?.split(' ');
        let method = first.next()?.to_string();
        let target = first.next()?;
        first.next()?.starts_with("HTTP/1.").then_some(())?;
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let query = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                (name.to_string(), value.to_string())
            })
            .collect();
        let headers = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
            .collect();
        Some(Head {
            method,
            path: path.to_string(),
            query,
            headers,
        })
    }
}

pub enum HeadError {
    Closed,
    TooLarge,
}

/// Reads up to the blank line that ends the head; the head, and whatever came after it (the
/// start of a WebSocket stream from a client that did not wait).
pub async fn read_head(
    stream: &mut TcpStream,
    limit: usize,
) -> Result<(String, Vec<u8>), HeadError> {
    let mut buffer = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = buffer.split_off(end + 4);
            let head = String::from_utf8_lossy(&buffer[..end]).into_owned();
            return Ok((head, rest));
        }
        if buffer.len() > limit {
            return Err(HeadError::TooLarge);
        }
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return Err(HeadError::Closed),
            Ok(read) => buffer.extend_from_slice(&chunk[..read]),
        }
    }
}

/// Writes one answer and closes.
pub async fn answer(stream: &mut TcpStream, status: u16, kind: &str, body: &str) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let write = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = timeout(ANSWER_TIME, write).await;
}

/// The TCP stream with the bytes read past the request head put back in front.
pub struct Prefixed {
    pub prefix: Vec<u8>,
    pub offset: usize,
    pub inner: TcpStream,
}

impl AsyncRead for Prefixed {
    fn poll_read(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buffer: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.offset < self.prefix.len() {
            let left = &self.prefix[self.offset..];
            let count = left.len().min(buffer.remaining());
            buffer.put_slice(&left[..count]);
            self.offset += count;
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(context, buffer)
    }
}

impl AsyncWrite for Prefixed {
    fn poll_write(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(context, data)
    }
    fn poll_flush(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(context)
    }
    fn poll_shutdown(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(context)
    }
}

/// A TCP server on two threads of its own (a tokio runtime): every connection it accepts runs
/// as a task of `handler`, until [`ServerThread::shutdown`].
pub struct ServerThread {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
}

impl ServerThread {
    /// Listens on `listen` (`host:port`; port 0 picks one). `make_handler` gets the signal that
    /// turns true when the server stops, for the connections to watch, and returns the handler
    /// of one connection.
    /// `lower_priority`: how far below the caller's the network threads run (a world server's
    /// turn loop must come first; 0: as the caller).
    pub fn start<H, F>(
        listen: &str,
        name: &str,
        lower_priority: i32,
        make_handler: impl FnOnce(watch::Receiver<bool>) -> H,
    ) -> Result<ServerThread, String>
    where
        H: Fn(TcpStream, SocketAddr) -> F + Send + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name(name)
            .on_thread_start(move || crate::common::priority::lower_this_thread(lower_priority))
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
        let handler = make_handler(stopping.clone());
        let thread = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                runtime.block_on(accept(listener, stopping, handler));
                // Connection tasks still running are cancelled here, within a bound.
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(|error| format!("cannot start the network thread: {error}"))?;
        Ok(ServerThread {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    /// The address it listens on (the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks until the server stops.
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

impl Drop for ServerThread {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// Accepts connections until the server stops; each gets a task of its own.
async fn accept<H, F>(listener: TcpListener, mut stopping: watch::Receiver<bool>, handler: H)
where
    H: Fn(TcpStream, SocketAddr) -> F,
    F: Future<Output = ()> + Send + 'static,
{
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    tokio::spawn(handler(stream, peer));
                }
                // Out of file descriptors and the like: wait a little rather than spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            },
            _ = stopping.changed() => break,
        }
    }
}

/// Answers a WebSocket upgrade request with `101 Switching Protocols`. A request without the
/// upgrade is answered `400` with `refusal` and closed. `false` when there is no WebSocket to
/// go on with.
pub async fn accept_upgrade(
    stream: &mut TcpStream,
    head: &Head,
    refusal: &str,
    write_time: Duration,
) -> bool {
    let upgrade = head
        .headers
        .get("upgrade")
        .is_some_and(|value| value.eq_ignore_ascii_case("websocket"));
    let Some(key) = head.headers.get("sec-websocket-key").filter(|_| upgrade) else {
        let kind = if refusal.starts_with('{') {
            "application/json"
        } else {
            "text/plain"
        };
        answer(stream, 400, kind, refusal).await;
        return false;
    };
    let response = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {}\r\n\r\n",
        derive_accept_key(key.as_bytes())
    );
    matches!(
        timeout(write_time, stream.write_all(response.as_bytes())).await,
        Ok(Ok(()))
    )
}

/// How long a WebSocket the server closes is still read after its close frame, what arrives
/// thrown away, until the client answers the close. Dropped at once with input unread, a TCP
/// connection is reset, and a reset throws away what was not yet delivered: the last error
/// (`rate-limited` before a flood's close, say) would be lost.
const LINGER: Duration = Duration::from_secs(2);

/// Closes a WebSocket as a server should: the close frame (sent within `write_limit`), then the
/// client's input read and dropped until it answers the close or [`LINGER`] has passed, so that
/// everything sent before reaches a client that reads.
pub async fn close_websocket(socket: &mut WebSocketStream<Prefixed>, write_limit: Duration) {
    if !matches!(timeout(write_limit, socket.close(None)).await, Ok(Ok(()))) {
        return;
    }
    let _ = timeout(LINGER, async {
        while let Some(Ok(message)) = socket.next().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}
