//! One WebSocket connection: the upgrade, then a single task that forwards the client's JSON
//! messages to the turn loop and the turn loop's messages to the client, and drops the client
//! when it sends garbage too large, floods, stops answering, stops reading, or says nothing.

use super::Shared;
use crate::net::limits::{log_offender, RateLimit, Verdict};
use crate::net::wire::{accept_upgrade, close_websocket as close, Head, Prefixed};
use crate::world::api::{ClientMessage, ErrorCode, ServerMessage};
use crate::world::hub::{
    next_connection_id, ConnectionId, Outbox, OutboxReceiver, Outgoing, Request,
};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

type Socket = WebSocketStream<Prefixed>;

/// The read buffer a connection starts with.
const READ_BUFFER_BYTES: usize = 4096;

/// Upgrades the connection and serves it until it ends; the turn loop hears `Open` and
/// `Closed` exactly once each.
pub(super) async fn serve(
    mut stream: TcpStream,
    rest: Vec<u8>,
    head: &Head,
    peer: SocketAddr,
    shared: Shared,
) {
    let limits = &shared.limits;
    let refusal = r#"{"error":"GET /ws wants a WebSocket upgrade"}"#;
    if !accept_upgrade(&mut stream, head, refusal, limits.write_timeout).await {
        return;
    }
    // tungstenite's default read buffer is 128 KiB, taken at once for every connection (1.3 GB
    // for ten thousand): players' messages are small, so 4 KiB, grown by the rare large one.
    let config = WebSocketConfig::default()
        .max_message_size(Some(limits.max_message_bytes))
        .max_frame_size(Some(limits.max_message_bytes))
        .read_buffer_size(READ_BUFFER_BYTES);
    let stream = Prefixed {
        prefix: rest,
        offset: 0,
        inner: stream,
    };
    let mut socket = WebSocketStream::from_raw_socket(stream, Role::Server, Some(config)).await;
    let peer = peer.to_string();
    let _open = OpenGuard::new(&shared);
    if shared.open.load(Ordering::Relaxed) > limits.max_connections {
        log_offender(&peer, "refused: the server is full");
        let full = ServerMessage::error(ErrorCode::Full, "the server has too many connections");
        send(&mut socket, &full.to_json(), limits.write_timeout).await;
        close(&mut socket, limits.write_timeout).await;
        return;
    }
    let conn = next_connection_id();
    let (outbox, receiver) = Outbox::channel(limits.outbox_capacity);
    let open = Request::Open {
        conn,
        outbox,
        peer: peer.clone(),
        house: false,
    };
    if shared.requests.send(open).is_ok() {
        session(&mut socket, receiver, conn, &peer, &shared).await;
        let _ = shared.requests.send(Request::Closed { conn });
    }
}

/// Counts an open connection for as long as it lives.
struct OpenGuard(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl OpenGuard {
    fn new(shared: &Shared) -> OpenGuard {
        shared.open.fetch_add(1, Ordering::Relaxed);
        OpenGuard(std::sync::Arc::clone(&shared.open))
    }
}

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Sends one text message within `limit`; `false` when the client did not take it in time.
async fn send(socket: &mut Socket, text: &str, limit: Duration) -> bool {
    matches!(
        timeout(limit, socket.send(Message::text(text))).await,
        Ok(Ok(()))
    )
}

/// Messages written together before one flush: a turn brings a connection several at once
/// (the turn's end, the next turn, moves), and one write for all is cheaper than one each.
const BATCH: usize = 64;

/// Sends `first` and whatever else is queued already (up to [`BATCH`]) with one flush, all
/// within `limit`; `false` when the client did not take them in time.
async fn send_queued(
    socket: &mut Socket,
    first: Outgoing,
    queue: &mut OutboxReceiver,
    limit: Duration,
) -> bool {
    // Held until flushed: a message counts as delivered once it is written.
    let mut batch = Vec::with_capacity(4);
    let written = async {
        for text in first.texts() {
            socket.feed(Message::text(&**text)).await?;
        }
        batch.push(first);
        while batch.len() < BATCH {
            let Ok(message) = queue.try_recv() else {
                break;
            };
            for text in message.texts() {
                socket.feed(Message::text(&**text)).await?;
            }
            batch.push(message);
        }
        socket.flush().await
    };
    matches!(timeout(limit, written).await, Ok(Ok(())))
}

/// Sends an error message; `false` when the client did not take it in time.
async fn tell(socket: &mut Socket, code: ErrorCode, reason: &str, limit: Duration) -> bool {
    send(socket, &ServerMessage::error(code, reason).to_json(), limit).await
}

/// The connection's life after the upgrade.
async fn session(
    socket: &mut Socket,
    mut receiver: OutboxReceiver,
    conn: ConnectionId,
    peer: &str,
    shared: &Shared,
) {
    let limits = &shared.limits;
    let write_limit = limits.write_timeout;
    let mut rate = RateLimit::new(limits.messages_per_second, limits.burst, Instant::now());
    let mut has_role = false;
    let mut last_heard = Instant::now();
    let mut ping = tokio::time::interval(limits.idle_timeout / 3);
    ping.tick().await;
    let handshake = tokio::time::sleep(limits.handshake_timeout);
    tokio::pin!(handshake);
    let mut stopping = shared.stopping.clone();
    // Made once: a `changed()` made afresh on every pass would join and leave the shared
    // waiter list (a lock every connection takes) each time a message goes out.
    let stop = stopping.changed();
    tokio::pin!(stop);
    loop {
        // In order, not at random, what the turn loop queued first: a wake for a message polls
        // that branch alone (ten thousand of them at a turn's start).
        tokio::select! {
            biased;
            outgoing = receiver.recv() => match outgoing {
                Some(text) => {
                    if !send_queued(socket, text, &mut receiver, write_limit).await {
                        log_offender(peer, "dropped: too slow to read");
                        break;
                    }
                }
                // The turn loop let go of the connection (refused, replaced, too slow,
                // stopping): what it queued has been sent; close.
                None => {
                    close(socket, write_limit).await;
                    break;
                }
            },
            incoming = socket.next() => {
                last_heard = Instant::now();
                let text = match incoming {
                    None | Some(Err(WsError::ConnectionClosed | WsError::AlreadyClosed)) => break,
                    Some(Err(WsError::Capacity(error))) => {
                        log_offender(peer, "dropped: message too large");
                        let reason = format!(
                            "messages are limited to {} bytes ({error})",
                            limits.max_message_bytes
                        );
                        if tell(socket, ErrorCode::TooLarge, &reason, write_limit).await {
                            close(socket, write_limit).await;
                        }
                        break;
                    }
                    Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => Some(text.to_string()),
                    Some(Ok(Message::Binary(_))) => None,
                    // Pings and pongs: tungstenite answers pings itself.
                    Some(Ok(_)) => continue,
                };
                match rate.check(Instant::now()) {
                    Verdict::Take => {}
                    Verdict::Drop { tell: false } => continue,
                    Verdict::Drop { tell: true } => {
                        let reason = format!(
                            "more than {} messages a second: messages dropped",
                            limits.messages_per_second
                        );
                        if !tell(socket, ErrorCode::RateLimited, &reason, write_limit).await {
                            break;
                        }
                        continue;
                    }
                    Verdict::Flood => {
                        log_offender(peer, "dropped: flooding");
                        let reason = "flooding: disconnected";
                        if tell(socket, ErrorCode::RateLimited, reason, write_limit).await {
                            close(socket, write_limit).await;
                        }
                        break;
                    }
                }
                let parsed = match &text {
                    Some(text) => serde_json::from_str::<ClientMessage>(text)
                        .map_err(|error| format!("not a message of the API: {error}")),
                    None => Err("binary messages are not understood: send JSON text".into()),
                };
                match parsed {
                    Ok(message) => {
                        has_role |= matches!(
                            message,
                            ClientMessage::Join { .. } | ClientMessage::Hello { .. } | ClientMessage::Spectate
                        );
                        if shared.requests.send(Request::Message { conn, message }).is_err() {
                            break;
                        }
                    }
                    Err(reason) => {
                        if !tell(socket, ErrorCode::BadJson, &reason, write_limit).await {
                            break;
                        }
                    }
                }
            },
            _ = ping.tick() => {
                if last_heard.elapsed() > limits.idle_timeout {
                    log_offender(peer, "dropped: silent past the idle timeout");
                    break;
                }
                if !matches!(timeout(write_limit, socket.send(Message::Ping(Vec::new().into()))).await, Ok(Ok(()))) {
                    break;
                }
            },
            _ = &mut handshake, if !has_role => {
                log_offender(peer, "dropped: no join, hello or spectate in time");
                let reason = "say join, hello or spectate first";
                if tell(socket, ErrorCode::Timeout, reason, write_limit).await {
                    close(socket, write_limit).await;
                }
                break;
            },
            _ = &mut stop => {
                let _ = timeout(Duration::from_millis(200), socket.close(None)).await;
                break;
            },
        }
    }
}
