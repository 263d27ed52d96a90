//! Plays a world server's player with an engine process that speaks the Megachess protocol: the
//! server's messages become `position megachess ...` and `go movetime`, the engine's `bestturn`
//! becomes a `turn` message. The link to the server is a trait, so `roger bot` (WebSocket) and
//! the house bots (in process) share this code.

use super::api::{ClientMessage, ServerMessage};
use super::engine::{EngineGone, EngineProcess};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A player's connection to the server.
pub trait Link {
    fn send(&mut self, message: &ClientMessage) -> Result<(), String>;
    /// The next message, `None` when none came within `wait`; an error when the link is gone.
    fn recv(&mut self, wait: Duration) -> Result<Option<ServerMessage>, String>;
}

/// How a bridge plays.
#[derive(Clone, Debug)]
pub struct BridgeSettings {
    /// Who speaks in the log (`bot`, `house-3`).
    pub label: String,
    /// The engine command and arguments; empty: this roger binary.
    pub engine: Vec<String>,
    pub options: Vec<(String, String)>,
    /// Thinking time per turn at most.
    pub movetime: Duration,
    /// Kept back from each deadline.
    pub margin: Duration,
    /// Stop after this many turns of the player's team.
    pub turns: Option<u64>,
    pub quiet: bool,
    /// Say a new player's token on standard output (`token T`, `player N`) and write it here.
    pub announce: bool,
    pub token_file: Option<std::path::PathBuf>,
}

/// Why a bridge stopped playing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The player's king was captured.
    Eliminated,
    /// The world is over (`closing max-turns`) or the bot played its `turns`.
    WorldOver,
    /// The server is going away for now (`closing shutdown`) or the link broke.
    LinkLost(String),
    /// The server does not know the token.
    BadToken,
}

/// The counts a bridge keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub turns: u64,
    pub moves_sent: u64,
    pub rejected: u64,
    pub engine_restarts: u64,
}

/// An engine playing one player.
pub struct Bridge {
    settings: BridgeSettings,
    engine: Option<EngineProcess>,
    params: BTreeMap<String, i64>,
    /// Consecutive failed engine starts, for the backoff.
    failures: u32,
    pub counters: Counters,
    /// The player's id and token, once known.
    pub player: Option<u32>,
    pub token: Option<String>,
}

/// How long an engine may take to say `uciok` and `readyok`.
const SETUP_TIME: Duration = Duration::from_secs(10);
/// How long an engine has to answer after `stop`.
const STOP_GRACE: Duration = Duration::from_millis(300);

impl Bridge {
    pub fn new(settings: BridgeSettings) -> Bridge {
        Bridge {
            settings,
            engine: None,
            params: BTreeMap::new(),
            failures: 0,
            counters: Counters::default(),
            player: None,
            token: None,
        }
    }

    pub fn log(&self, text: &str) {
        if !self.settings.quiet {
            eprintln!("{}: {text}", self.settings.label);
        }
    }

    /// A fresh engine told the world's parameters; `None` (said in the log) when it fails.
    fn start_engine(&mut self) -> Option<EngineProcess> {
        if self.failures > 0 {
            // An engine that keeps failing is started again more and more slowly.
            let backoff =
                Duration::from_millis(100 << self.failures.min(6)).min(Duration::from_secs(5));
            std::thread::sleep(backoff);
        }
        let result = EngineProcess::spawn(&self.settings.engine).and_then(|mut engine| {
            self.set_up(&mut engine).map_err(|gone| gone.0)?;
            Ok(engine)
        });
        match result {
            Ok(engine) => {
                self.failures = 0;
                Some(engine)
            }
            Err(error) => {
                self.failures += 1;
                eprintln!(
                    "{}: the engine failed to start: {error}",
                    self.settings.label
                );
                None
            }
        }
    }

    fn set_up(&self, engine: &mut EngineProcess) -> Result<(), EngineGone> {
        let deadline = Instant::now() + SETUP_TIME;
        engine.send("uci")?;
        engine
            .wait_for("uciok", deadline)?
            .ok_or_else(|| EngineGone("no uciok".into()))?;
        engine.send("setoption name UCI_Variant value megachess")?;
        for (name, value) in &self.params {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        for (name, value) in &self.settings.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.send("ucinewgame")?;
        engine.send("isready")?;
        engine
            .wait_for("readyok", deadline)?
            .ok_or_else(|| EngineGone("no readyok".into()))?;
        Ok(())
    }

    /// The engine's moves for `position` within `deadline_ms`, or `None` when it could not
    /// answer in time (then it is replaced before the next turn).
    fn plan(&mut self, position: &str, deadline_ms: u64) -> Option<Vec<String>> {
        let began = Instant::now();
        if self.engine.is_none() {
            self.engine = self.start_engine();
            if self.engine.is_some() && self.counters.turns > 0 {
                self.counters.engine_restarts += 1;
                self.log("engine restarted");
            }
        }
        let engine = self.engine.as_mut()?;
        let total = Duration::from_millis(deadline_ms);
        let margin = self.settings.margin;
        let think = self
            .settings
            .movetime
            .min(total.saturating_sub(margin + began.elapsed()))
            .max(Duration::from_millis(1));
        let deadline = began + total.saturating_sub(margin / 2).max(think);
        let asked = engine
            .send(position)
            .and_then(|()| engine.send(&format!("go movetime {}", think.as_millis())));
        let answer = asked.and_then(|()| engine.wait_for("bestturn", deadline));
        let answer = match answer {
            Ok(Some(moves)) => Ok(Some(moves)),
            // Late: ask it to stop, and give it a moment.
            Ok(None) => engine
                .send("stop")
                .and_then(|()| engine.wait_for("bestturn", Instant::now() + STOP_GRACE)),
            Err(gone) => Err(gone),
        };
        match answer {
            Ok(Some(moves)) => Some(moves),
            Ok(None) => {
                self.log("the engine did not answer in time: restarting it");
                self.engine = None;
                None
            }
            Err(EngineGone(why)) => {
                self.log(&format!("{why}: restarting it"));
                self.engine = None;
                None
            }
        }
    }

    /// Plays over `link` until the player's game ends or the link goes.
    pub fn play(&mut self, link: &mut dyn Link) -> Ending {
        loop {
            let message = match link.recv(Duration::from_millis(500)) {
                Ok(Some(message)) => message,
                Ok(None) => continue,
                Err(error) => return Ending::LinkLost(error),
            };
            match message {
                ServerMessage::Joined { player, token, .. } => {
                    self.log(&format!("joined as player {player}"));
                    if self.settings.announce {
                        announce(player, &token, self.settings.token_file.as_deref());
                    }
                    self.player = Some(player);
                    self.token = Some(token);
                }
                ServerMessage::Welcome {
                    player,
                    params,
                    alive,
                    ..
                } => {
                    self.player = Some(player);
                    if !alive {
                        return Ending::Eliminated;
                    }
                    if self.engine.is_none() || params != self.params {
                        self.params = params;
                        self.engine = self.start_engine();
                    }
                }
                ServerMessage::Turn {
                    turn,
                    you_move: true,
                    position: Some(position),
                    deadline_ms,
                    ..
                } => {
                    let reply = match self.plan(&position, deadline_ms) {
                        Some(moves) => {
                            self.counters.moves_sent += moves.len() as u64;
                            ClientMessage::Turn { moves }
                        }
                        None => ClientMessage::Done,
                    };
                    if let Err(error) = link.send(&reply) {
                        return Ending::LinkLost(error);
                    }
                    self.counters.turns += 1;
                    if matches!(reply, ClientMessage::Done) {
                        self.log(&format!("turn {turn}: no answer from the engine, done"));
                    }
                    if self
                        .settings
                        .turns
                        .is_some_and(|turns| self.counters.turns >= turns)
                    {
                        return Ending::WorldOver;
                    }
                }
                ServerMessage::TurnResult { turn, results } => {
                    let refused: Vec<String> = results
                        .iter()
                        .filter(|result| !result.ok)
                        .map(|result| {
                            format!(
                                "{} {}",
                                result.mv,
                                result.rejection.as_deref().unwrap_or("?")
                            )
                        })
                        .collect();
                    self.counters.rejected += refused.len() as u64;
                    let line = format!(
                        "turn {turn}: {} moves, {} accepted{}",
                        results.len(),
                        results.len() - refused.len(),
                        if refused.is_empty() {
                            String::new()
                        } else {
                            format!(", refused: {}", refused.join(", "))
                        }
                    );
                    self.log(&line);
                }
                ServerMessage::Eliminated { turn, by } => {
                    self.log(&format!(
                        "turn {turn}: our king was captured by player {by}"
                    ));
                    return Ending::Eliminated;
                }
                ServerMessage::Closing { reason, .. } if reason == "max-turns" => {
                    return Ending::WorldOver
                }
                ServerMessage::Closing { reason, .. } => {
                    return Ending::LinkLost(format!("the server is closing ({reason})"))
                }
                ServerMessage::Error { error, reason } => {
                    if error == "bad-token" {
                        return Ending::BadToken;
                    }
                    self.log(&format!("the server says {error}: {reason}"));
                }
                _ => {}
            }
        }
    }
}

/// Says a new player's token and id on standard output and keeps the token in `file`.
fn announce(player: u32, token: &str, file: Option<&std::path::Path>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "token {token}");
    let _ = writeln!(stdout, "player {player}");
    let _ = stdout.flush();
    if let Some(path) = file {
        if let Err(error) = std::fs::write(path, format!("{token}\n")) {
            eprintln!("cannot write {}: {error}", path.display());
        }
    }
}
