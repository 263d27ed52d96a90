//! `roger bot`: connects an engine that speaks the Megachess protocol to a world server as a
//! player, over WebSocket, reconnecting with backoff when the connection drops.

use super::api::{ClientMessage, ServerMessage, TeamChoice};
use super::bridge::{Bridge, BridgeSettings, Ending, Link};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// What `roger bot` is asked to do.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// `ws://host:port`.
    pub server: String,
    pub token: Option<String>,
    pub team: TeamChoice,
    pub name: Option<String>,
    pub token_file: Option<PathBuf>,
    /// The engine command and arguments; empty: this roger binary.
    pub engine: Vec<String>,
    pub options: Vec<(String, String)>,
    pub movetime: Duration,
    pub margin: Duration,
    pub give_up: Duration,
    pub turns: Option<u64>,
    pub quiet: bool,
}

/// A WebSocket connection to a world server.
pub struct WsLink {
    socket: WebSocket<TcpStream>,
}

/// How long connecting (TCP and the WebSocket handshake) and one write may take.
const CONNECT_TIME: Duration = Duration::from_secs(5);
const WRITE_TIME: Duration = Duration::from_secs(5);

/// `ws://host:port` with `/ws` added when there is no path, and the `host:port`.
pub fn ws_address(server: &str) -> Result<(String, String), String> {
    let Some(rest) = server.strip_prefix("ws://") else {
        return Err(format!("'{server}' is not a ws://host:port address"));
    };
    let (authority, url) = match rest.find('/') {
        Some(slash) => (&rest[..slash], server.to_string()),
        None => (rest, format!("{server}/ws")),
    };
    if authority.is_empty() {
        return Err(format!("'{server}' names no host"));
    }
    let authority = if authority.contains(':') && !authority.ends_with(']') {
        authority.to_string()
    } else {
        format!("{authority}:80")
    };
    Ok((url, authority))
}

impl WsLink {
    /// Connects to `server` (`ws://host:port`, `/ws` added when there is no path), within
    /// bounded time.
    pub fn connect(server: &str) -> Result<WsLink, String> {
        let (url, authority) = ws_address(server)?;
        let addresses = authority
            .to_socket_addrs()
            .map_err(|error| format!("cannot resolve {authority}: {error}"))?;
        let mut last = format!("{authority} has no address");
        for address in addresses {
            match TcpStream::connect_timeout(&address, CONNECT_TIME) {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    stream
                        .set_read_timeout(Some(CONNECT_TIME))
                        .and_then(|()| stream.set_write_timeout(Some(WRITE_TIME)))
                        .map_err(|error| error.to_string())?;
                    let (socket, _) = tungstenite::client(url.as_str(), stream)
                        .map_err(|error| format!("handshake with {url}: {error}"))?;
                    return Ok(WsLink { socket });
                }
                Err(error) => last = format!("{address}: {error}"),
            }
        }
        Err(last)
    }
}

impl Link for WsLink {
    fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        let text = serde_json::to_string(message).map_err(|error| error.to_string())?;
        self.socket
            .send(Message::text(text))
            .map_err(|error| format!("connection lost: {error}"))
    }

    fn recv(&mut self, wait: Duration) -> Result<Option<ServerMessage>, String> {
        let _ = self
            .socket
            .get_ref()
            .set_read_timeout(Some(wait.max(Duration::from_millis(1))));
        match self.socket.read() {
            Ok(Message::Text(text)) => match serde_json::from_str(text.as_str()) {
                Ok(message) => Ok(Some(message)),
                // A message of a newer server: not ours to understand.
                Err(_) => Ok(None),
            },
            Ok(Message::Close(_)) => Err("the server closed the connection".into()),
            Ok(_) => Ok(None),
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Ok(None)
            }
            Err(error) => Err(format!("connection lost: {error}")),
        }
    }
}

/// The first wait before reconnecting, and the longest.
const BACKOFF_FIRST: Duration = Duration::from_millis(200);
const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// Up to a quarter of `backoff` more, so that the bots of a restarted server do not all come
/// back at once.
fn jitter(backoff: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|since| since.subsec_nanos())
        .unwrap_or(0) as u64
        ^ u64::from(std::process::id()).wrapping_mul(0x9e37_79b9);
    let quarter = (backoff.as_millis() as u64 / 4).max(1);
    Duration::from_millis(nanos % quarter)
}

/// Plays until the world ends, the king falls, the token is refused, or the server stays away.
pub fn run(config: BotConfig) -> ExitCode {
    let mut token = config.token.clone().or_else(|| {
        let path = config.token_file.as_ref()?;
        let text = std::fs::read_to_string(path).ok()?;
        Some(text.trim().to_string()).filter(|token| !token.is_empty())
    });
    let mut bridge = Bridge::new(BridgeSettings {
        label: "bot".into(),
        engine: config.engine.clone(),
        options: config.options.clone(),
        movetime: config.movetime,
        margin: config.margin,
        turns: config.turns,
        quiet: config.quiet,
        announce: true,
        token_file: config.token_file.clone(),
    });
    let mut backoff = BACKOFF_FIRST;
    // When the server became unreachable (no welcome since).
    let mut failing_since: Option<Instant> = None;
    let mut connected_before = false;
    loop {
        if let Some(since) = failing_since {
            if since.elapsed() >= config.give_up {
                eprintln!(
                    "bot: giving up: no working connection to {} for {} s; {}",
                    config.server,
                    since.elapsed().as_secs(),
                    bridge.counters.summary()
                );
                return ExitCode::FAILURE;
            }
        }
        let mut link = match WsLink::connect(&config.server) {
            Ok(link) => link,
            Err(error) => {
                failing_since.get_or_insert_with(Instant::now);
                let wait = backoff + jitter(backoff);
                eprintln!(
                    "bot: cannot connect to {} ({error}); reconnect in {} ms",
                    config.server,
                    wait.as_millis()
                );
                std::thread::sleep(wait);
                backoff = (backoff * 2).min(BACKOFF_MAX);
                continue;
            }
        };
        if connected_before {
            bridge.counters.reconnects += 1;
            eprintln!("bot: reconnected to {}", config.server);
        } else {
            eprintln!("bot: connected to {}", config.server);
        }
        connected_before = true;
        let first = match &token {
            Some(token) => ClientMessage::Hello {
                token: token.clone(),
            },
            None => ClientMessage::Join {
                team: config.team,
                name: config.name.clone(),
            },
        };
        let welcomes = bridge.welcomes;
        let ending = match link.send(&first) {
            Ok(()) => bridge.play(&mut link),
            Err(error) => Ending::LinkLost(error),
        };
        if bridge.welcomes > welcomes {
            // A working connection: the next failure starts a new count.
            failing_since = None;
            backoff = BACKOFF_FIRST;
        }
        if bridge.token.is_some() {
            token = bridge.token.clone();
        }
        let summary = bridge.counters.summary();
        match ending {
            Ending::WorldOver => {
                eprintln!("bot: the end: {summary}");
                return ExitCode::SUCCESS;
            }
            Ending::Eliminated => {
                eprintln!("bot: our king was captured; the end: {summary}");
                return ExitCode::SUCCESS;
            }
            Ending::BadToken => {
                eprintln!(
                    "bot: the server does not know our token (bad-token); join anew without \
                     --token (and without the token file)"
                );
                return ExitCode::from(2);
            }
            Ending::Refused(why) => {
                eprintln!("bot: the server refused a new player ({why}); {summary}");
                return ExitCode::FAILURE;
            }
            Ending::LinkLost(why) => {
                failing_since.get_or_insert_with(Instant::now);
                let wait = backoff + jitter(backoff);
                eprintln!("bot: {why}; reconnect in {} ms", wait.as_millis());
                std::thread::sleep(wait);
                backoff = (backoff * 2).min(BACKOFF_MAX);
            }
        }
    }
}
