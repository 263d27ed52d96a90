//! Plays a world server's player with an engine process that speaks the Megachess protocol: the
//! server's messages become `position megachess ...` and `go movetime`, the engine's `bestturn`
//! becomes a `turn` message. The link to the server is a trait, so `roger bot` (WebSocket) and
//! the house bots (in process) share this code.

use super::api::{ClientMessage, ServerMessage};
use super::engine_seat::EngineSeat;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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
    /// The server would not take a new player (`no-room`, `full`).
    Refused(String),
}

/// The counts a bridge keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Turns of the player's team answered (with moves or `done`).
    pub turns: u64,
    pub moves_sent: u64,
    pub rejected: u64,
    pub engine_restarts: u64,
    /// Connections made again after a loss (kept by the link's owner).
    pub reconnects: u64,
}

impl Counters {
    pub fn summary(&self) -> String {
        format!(
            "{} turns, {} moves sent, {} rejected, {} engine restarts, {} reconnects",
            self.turns, self.moves_sent, self.rejected, self.engine_restarts, self.reconnects
        )
    }
}

/// An engine playing one player.
pub struct Bridge {
    settings: BridgeSettings,
    seat: EngineSeat,
    stop: Option<Arc<AtomicBool>>,
    pub counters: Counters,
    /// The player's id and token, once known.
    pub player: Option<u32>,
    pub token: Option<String>,
    /// `welcome`s received: a link that got one was a working connection.
    pub welcomes: u64,
    /// The player of the last `welcome`: the engine's game.
    playing: Option<u32>,
}

/// The longest wait for the server in one go (the loop looks at the engine and the stop flag
/// in between).
const IDLE_WAIT: Duration = Duration::from_millis(200);
/// After its last turn (`turns`), how long a bot waits for that turn's result.
const FINISH_WAIT: Duration = Duration::from_secs(2);

impl Bridge {
    pub fn new(settings: BridgeSettings) -> Bridge {
        let seat = EngineSeat::new(
            &settings.label,
            settings.engine.clone(),
            settings.options.clone(),
            settings.movetime,
        );
        Bridge {
            settings,
            seat,
            stop: None,
            counters: Counters::default(),
            player: None,
            token: None,
            welcomes: 0,
            playing: None,
        }
    }

    /// Makes `play` and every engine wait end soon after `flag` is set.
    pub fn stop_on(mut self, flag: Arc<AtomicBool>) -> Bridge {
        self.seat.stop_on(Arc::clone(&flag));
        self.stop = Some(flag);
        self
    }

    fn stopping(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    pub fn log(&self, text: &str) {
        if !self.settings.quiet {
            eprintln!("{}: {text}", self.settings.label);
        }
    }

    /// Plays over `link` until the player's game ends or the link goes. The engine lives on
    /// between calls (a reconnecting bot keeps it).
    pub fn play(&mut self, link: &mut dyn Link) -> Ending {
        // Set once the bot has played its `turns`: the last turn's result is awaited a moment.
        let mut finishing: Option<Instant> = None;
        loop {
            if self.stopping() {
                return Ending::LinkLost("stopping".into());
            }
            if finishing.is_some_and(|since| since.elapsed() >= FINISH_WAIT) {
                return Ending::WorldOver;
            }
            self.seat.maintain();
            self.counters.engine_restarts = self.seat.restarts();
            let message = match link.recv(self.seat.idle_wait(IDLE_WAIT)) {
                Ok(Some(message)) => message,
                Ok(None) => continue,
                Err(error) => return Ending::LinkLost(error),
            };
            let received = Instant::now();
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
                    team,
                    params,
                    turn,
                    alive,
                    ..
                } => {
                    self.welcomes += 1;
                    self.log(&format!(
                        "welcome: player {player} of {team}, turn {turn}{}",
                        if alive { "" } else { ", king fallen" }
                    ));
                    if !alive {
                        return Ending::Eliminated;
                    }
                    // A new player (the old king fell) is a new game for a running engine.
                    let new_player = self.playing.is_some_and(|known| known != player);
                    self.playing = Some(player);
                    self.player = Some(player);
                    self.seat.set_params(params);
                    if new_player {
                        self.seat.new_game();
                    }
                }
                ServerMessage::Turn {
                    turn,
                    you_move: true,
                    position: Some(position),
                    deadline_ms,
                    ..
                } if finishing.is_none() => {
                    let turn_end = received + Duration::from_millis(deadline_ms);
                    let planned = self.seat.play(&position, turn_end, self.settings.margin);
                    self.counters.engine_restarts = self.seat.restarts();
                    let reply = match &planned {
                        Ok(moves) => ClientMessage::Turn {
                            moves: moves.clone(),
                        },
                        Err(_) => ClientMessage::Done,
                    };
                    if let Err(error) = link.send(&reply) {
                        return Ending::LinkLost(error);
                    }
                    self.counters.turns += 1;
                    match planned {
                        Ok(moves) => self.counters.moves_sent += moves.len() as u64,
                        Err(why) => self.log(&format!("turn {turn}: done ({why})")),
                    }
                    if self
                        .settings
                        .turns
                        .is_some_and(|turns| self.counters.turns >= turns)
                    {
                        if matches!(reply, ClientMessage::Done) {
                            return Ending::WorldOver;
                        }
                        finishing = Some(Instant::now());
                    }
                }
                ServerMessage::TurnResult { turn, results } => {
                    self.log_result(turn, &results);
                    if finishing.is_some() {
                        return Ending::WorldOver;
                    }
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
                ServerMessage::Error { error, reason } => match error.as_str() {
                    "bad-token" => return Ending::BadToken,
                    "eliminated" => return Ending::Eliminated,
                    "no-room" | "full" if self.player.is_none() => {
                        return Ending::Refused(format!("{error}: {reason}"))
                    }
                    _ => self.log(&format!("the server says {error}: {reason}")),
                },
                _ => {}
            }
        }
    }

    /// One line for a turn's result: how many moves went through, and why the others did not.
    fn log_result(&mut self, turn: u64, results: &[super::api::MoveResult]) {
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
        self.log(&format!(
            "turn {turn}: {} moves, {} ok, {} rejected{}",
            results.len(),
            results.len() - refused.len(),
            refused.len(),
            if refused.is_empty() {
                String::new()
            } else {
                format!(" ({})", refused.join(", "))
            }
        ));
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
