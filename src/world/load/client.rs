//! One bot connection of a load run: it joins, and on each turn of its team sends a whole turn
//! of a few random legal moves of its own pieces (chosen in its window, each made on its copy
//! of the window before the next is chosen); every `turn` message's arrival is timed.

use super::planner::Planners;
use super::timing::TurnTimes;
use crate::common::Rng;
use crate::rules::megachess::MegachessParams;
use crate::world::api::{ClientMessage, ServerMessage, TeamChoice};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Instant;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// How the messages a bot does not read begin (serde writes the tag first).
const IGNORED: [&str; 3] = [
    r#"{"type":"moved""#,
    r#"{"type":"turn_end""#,
    r#"{"type":"ack""#,
];

/// How a `turn` message begins (not `turn_end`, not `turn_result`).
const TURN: &str = r#"{"type":"turn","#;

/// What one client did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientReport {
    pub joined: bool,
    /// Turns of its team it answered.
    pub turns_answered: u64,
    pub moves_sent: u64,
    pub moves_accepted: u64,
    /// Messages received, and their bytes.
    pub messages: u64,
    pub bytes: u64,
    /// The first thing that went wrong, if anything did (a refused connection, an `error`).
    pub trouble: Option<String>,
    /// Whether the world closed the connection with `closing` (the end of the run).
    pub closed_by_world: bool,
}

/// What every client of a run shares.
pub struct ClientSetup {
    pub url: String,
    /// Moves in each turn it sends.
    pub moves: usize,
    pub seed: u64,
    /// Where `turn` messages are read and answered.
    pub planners: Planners,
    /// Where arrivals and eliminations are noted.
    pub times: Arc<TurnTimes>,
    /// Connections being opened at once are limited by this (a burst of thousands of
    /// handshakes would overflow the server's queue of pending connections).
    pub connecting: Arc<tokio::sync::Semaphore>,
}

/// Runs one client until the world closes it or the connection fails.
pub async fn run(index: u64, setup: Arc<ClientSetup>) -> ClientReport {
    let mut report = ClientReport::default();
    if let Err(trouble) = play(index, &setup, &mut report).await {
        report.trouble.get_or_insert(trouble);
    }
    report
}

async fn play(index: u64, setup: &ClientSetup, report: &mut ClientReport) -> Result<(), String> {
    let address = setup
        .url
        .strip_prefix("ws://")
        .and_then(|rest| rest.split('/').next())
        .ok_or_else(|| format!("{} is not a ws:// address", setup.url))?;
    let permit = setup
        .connecting
        .acquire()
        .await
        .map_err(|error| error.to_string())?;
    let stream = TcpStream::connect(address)
        .await
        .map_err(|error| format!("connect: {error}"))?;
    let _ = stream.set_nodelay(true);
    // A small read buffer (the default takes 128 KiB a connection, 1.3 GB for ten thousand).
    let config = WebSocketConfig::default().read_buffer_size(4096);
    let (mut socket, _) =
        tokio_tungstenite::client_async_with_config(setup.url.as_str(), stream, Some(config))
            .await
            .map_err(|error| format!("handshake: {error}"))?;
    drop(permit);
    let team = if index.is_multiple_of(2) {
        TeamChoice::Alabaster
    } else {
        TeamChoice::Metal
    };
    let join = ClientMessage::Join {
        team,
        name: Some(format!("load-{index}")),
    };
    send(&mut socket, &join).await?;
    let mut params = MegachessParams::default();
    let mut rng = Rng::new(setup.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    while let Some(incoming) = socket.next().await {
        let arrival = Instant::now();
        let text = match incoming.map_err(|error| format!("receive: {error}"))? {
            Message::Text(text) => text,
            Message::Close(_) => break,
            _ => continue,
        };
        report.messages += 1;
        report.bytes += text.len() as u64;
        // Most messages are other players' moves and turn ends, which a random bot ignores:
        // they are counted, not read (reading them all would make the clients, not the
        // server, the measure).
        if IGNORED.iter().any(|start| text.starts_with(start)) {
            continue;
        }
        if text.starts_with(TURN) {
            let planned = setup
                .planners
                .plan(text.to_string(), arrival, params, setup.moves, rng.clone())
                .await
                .map_err(|_| "the planners stopped".to_string())?;
            rng = planned.rng;
            if let Some(error) = planned.error {
                return Err(error);
            }
            if let Some(moves) = planned.moves {
                report.turns_answered += 1;
                report.moves_sent += moves.len() as u64;
                send(&mut socket, &ClientMessage::Turn { moves }).await?;
            }
            continue;
        }
        let message: ServerMessage = serde_json::from_str(text.as_str())
            .map_err(|error| format!("not a server message ({error}): {text}"))?;
        match message {
            ServerMessage::Joined { .. } => report.joined = true,
            ServerMessage::Welcome {
                params: numbers, ..
            } => {
                for (name, value) in numbers {
                    let _ = params.set(&name, value);
                }
            }
            ServerMessage::TurnResult { results, .. } => {
                report.moves_accepted += results.iter().filter(|result| result.ok).count() as u64;
            }
            ServerMessage::Closing { .. } => {
                report.closed_by_world = true;
                break;
            }
            ServerMessage::Eliminated { turn, .. } => setup.times.eliminated(turn),
            ServerMessage::Error { error, reason } => {
                report
                    .trouble
                    .get_or_insert(format!("error {error}: {reason}"));
            }
            _ => {}
        }
    }
    Ok(())
}

async fn send<S>(socket: &mut S, message: &ClientMessage) -> Result<(), String>
where
    S: SinkExt<Message> + Unpin,
    S::Error: std::fmt::Display,
{
    let text = serde_json::to_string(message).map_err(|error| error.to_string())?;
    socket
        .send(Message::text(text))
        .await
        .map_err(|error| format!("send: {error}"))
}
