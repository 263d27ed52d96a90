//! `roger bot`: connects an engine that speaks the Megachess protocol to a world server as a
//! player, over WebSocket, reconnecting with backoff when the connection drops.

use super::api::{ClientMessage, ServerMessage, TeamChoice};
use super::bridge::{Bridge, BridgeSettings, Ending, Link};
use super::cli::BotArgs;
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
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
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl WsLink {
    /// Connects to `url` (`ws://host:port`, `/ws` added when there is no path).
    pub fn connect(url: &str) -> Result<WsLink, String> {
        let url = match url.strip_prefix("ws://") {
            Some(rest) if !rest.contains('/') => format!("{url}/ws"),
            Some(_) => url.to_string(),
            None => return Err(format!("'{url}' is not a ws:// address")),
        };
        let (socket, _) = tungstenite::connect(&url).map_err(|error| error.to_string())?;
        Ok(WsLink { socket })
    }

    fn stream(&self) -> Option<&TcpStream> {
        match self.socket.get_ref() {
            MaybeTlsStream::Plain(stream) => Some(stream),
            _ => None,
        }
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
        if let Some(stream) = self.stream() {
            let _ = stream.set_read_timeout(Some(wait.max(Duration::from_millis(1))));
        }
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

/// `roger bot`.
pub fn command(args: &BotArgs) -> ExitCode {
    match args.config() {
        Ok(config) => run(config),
        Err(error) => {
            eprintln!("roger bot: {error}");
            ExitCode::from(2)
        }
    }
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
    let mut failing_since: Option<Instant> = None;
    let mut attempt: u64 = 0;
    loop {
        attempt += 1;
        let link = WsLink::connect(&config.server);
        let mut link = match link {
            Ok(link) => link,
            Err(error) => {
                let since = *failing_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= config.give_up {
                    eprintln!(
                        "bot: giving up: {} unreachable for {} s ({error})",
                        config.server,
                        config.give_up.as_secs()
                    );
                    return ExitCode::FAILURE;
                }
                // Jitter, so that many bots of a restarted server do not all come back at once.
                let jitter = Duration::from_millis(attempt.wrapping_mul(7919) % 100);
                eprintln!(
                    "bot: cannot connect ({error}); reconnect in {} ms",
                    (backoff + jitter).as_millis()
                );
                std::thread::sleep(backoff + jitter);
                backoff = (backoff * 2).min(BACKOFF_MAX);
                continue;
            }
        };
        if failing_since.take().is_some() || attempt > 1 {
            eprintln!("bot: reconnected to {}", config.server);
        } else {
            eprintln!("bot: connected to {}", config.server);
        }
        backoff = BACKOFF_FIRST;
        let hello = match &token {
            Some(token) => ClientMessage::Hello {
                token: token.clone(),
            },
            None => ClientMessage::Join {
                team: config.team,
                name: config.name.clone(),
            },
        };
        if link.send(&hello).is_err() {
            continue;
        }
        let ending = bridge.play(&mut link);
        if token.is_none() {
            token = bridge.token.clone();
        }
        let counters = &bridge.counters;
        let summary = format!(
            "{} turns, {} moves sent, {} refused, {} engine restarts",
            counters.turns, counters.moves_sent, counters.rejected, counters.engine_restarts
        );
        match ending {
            Ending::WorldOver => {
                eprintln!("bot: the world is over: {summary}");
                return ExitCode::SUCCESS;
            }
            Ending::Eliminated => {
                eprintln!("bot: our king was captured: {summary}");
                return ExitCode::SUCCESS;
            }
            Ending::BadToken => {
                eprintln!("bot: the server does not know our token; join anew without --token");
                return ExitCode::from(2);
            }
            Ending::LinkLost(why) => {
                eprintln!("bot: {why}; reconnect in {} ms", backoff.as_millis());
                failing_since.get_or_insert_with(Instant::now);
                std::thread::sleep(backoff);
            }
        }
    }
}
