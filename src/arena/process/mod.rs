//! The arena's process layer: engines as child processes or as in-process players, every line
//! they print landing in one [`Inbox`] tagged with the seat and the time it was read, and the
//! protocol clients (UCI, xboard) that speak to them on top.
//!
//! [`transport`] starts a process and its reader thread and writes the traffic log; [`local`]
//! runs a built-in [`Player`](crate::players::Player) on a thread behind the same kind of
//! transport; [`inbox`] is where every seat's lines meet, so a referee can wait on one seat or
//! on whoever speaks first; [`uci`] and [`xboard`] turn move requests into protocol lines and
//! back. Every wait has a deadline, and every way an engine can fail is an [`EngineFault`].

pub mod inbox;
pub mod local;
pub mod transport;
pub mod uci;
pub mod xboard;

pub use inbox::{Arrival, Inbox, Source, WaitError};
pub use transport::{ChildTransport, TrafficLog, Transport};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Uci,
    Xboard,
}

/// Base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// Reads `base+increment` in seconds, such as `10+0.1` or `60`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| -> Result<Duration, String> {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("time control '{text}': '{s}' is not a number of seconds"))
        };
        Ok(TimeControl {
            base: seconds(base)?,
            increment: seconds(increment)?,
        })
    }
}

/// What bounds an engine's thinking in the arena (a clock, `st`, nodes, depth); at least one is
/// set. Not the search's own limits: these are what the arena asks of any engine.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Base time and increment: a clock kept by the arena.
    pub tc: Option<TimeControl>,
    /// Fixed time per move (`st=`).
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl Limits {
    pub fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime.is_none() && self.nodes.is_none() && self.depth.is_none()
    }

    /// The limits as the command line gives them, such as `tc=1+0.01 nodes=5000`.
    pub fn text(&self) -> String {
        let tc = self.tc.map(|tc| {
            let (base, increment) = (tc.base.as_secs_f64(), tc.increment.as_secs_f64());
            format!("tc={base}+{increment}")
        });
        let st = self.movetime.map(|st| format!("st={}", st.as_secs_f64()));
        let nodes = self.nodes.map(|nodes| format!("nodes={nodes}"));
        let depth = self.depth.map(|depth| format!("depth={depth}"));
        [tc, st, nodes, depth]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// How to start and set up one engine process.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The name in standings and PGN.
    pub name: String,
    pub command: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// Options in the order given (`option.Hash=64`).
    pub options: Vec<(String, String)>,
    pub limits: Limits,
    /// A built-in player (`cmd=roger args="play greedy" inprocess=true`) served on a thread of
    /// the arena instead of a process: the same protocol session, without the pipes.
    pub in_process: Option<crate::players::settings::PlaySettings>,
}

/// A score as an engine reported it, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineScore {
    Cp(i32),
    /// Mate in this many moves; negative when the engine is being mated.
    Mate(i32),
}

impl EngineScore {
    /// Centipawns, with mates beyond any material score, for adjudication.
    pub fn centipawns(self) -> i32 {
        match self {
            EngineScore::Cp(cp) => cp,
            EngineScore::Mate(n) if n > 0 => 100_000 - n,
            EngineScore::Mate(n) => -100_000 - n,
        }
    }

    /// The score as PGN comments show it: `+0.35`, `-1.20`, `+M3`, `-M2`.
    pub fn pgn_text(self) -> String {
        match self {
            EngineScore::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
            }
            EngineScore::Mate(n) if n > 0 => format!("+M{n}"),
            EngineScore::Mate(n) => format!("-M{}", -n),
        }
    }
}

/// An engine's answer to a move request.
#[derive(Clone, Debug)]
pub struct EngineReply {
    /// The move text as the engine sent it; the referee checks it.
    pub text: String,
    pub elapsed: Duration,
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    /// The engine resigned (xboard's `resign`).
    pub resigned: bool,
}

/// Why an engine could not answer.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineFault {
    /// The process exited or closed its output.
    Crashed(String),
    /// No answer within the time allowed; the engine was waited on this long.
    Timeout(Duration),
    /// The engine said something it should not have (it refused a legal move, say).
    Protocol(String),
    /// The tournament is stopping: the game is abandoned.
    Cancelled,
}

impl EngineFault {
    /// The fault as a start-up error's text.
    pub fn setup_error(&self, timeout: Duration) -> String {
        match self {
            EngineFault::Timeout(_) => format!("no answer to the handshake within {timeout:?}"),
            EngineFault::Crashed(how) | EngineFault::Protocol(how) => how.clone(),
            EngineFault::Cancelled => "interrupted".to_string(),
        }
    }
}

/// An engine's move, or why there is none.
pub type EngineAnswer = Result<EngineReply, EngineFault>;

/// What a new session needs of an engine.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    /// The game's protocol name.
    pub game: &'a str,
    /// Options to set in the handshake, in order (`Hash`, `64`).
    pub options: &'a [(String, String)],
    pub limits: Limits,
    /// How long to wait for the engine to be ready.
    pub timeout: Duration,
}

/// A position to move in and the clocks to move on, by seat. Seat 0 moves first in a turn game;
/// the clients map seats to a protocol's sides (UCI's `wtime`/`btime`).
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// `None` for the game's start position.
    pub start_fen: Option<&'a str>,
    pub moves: &'a [String],
    /// The seat asked to move.
    pub seat: usize,
    /// Every seat's remaining time, when the seat to move plays on a clock.
    pub clocks: Option<Vec<Duration>>,
    pub increments: Vec<Duration>,
    pub limits: Limits,
    /// How long to wait for the move.
    pub wait: Duration,
    /// Set when the tournament is stopping.
    pub cancel: &'a AtomicBool,
}

/// What every client keeps: its transport, the name the engine gave itself, and whether it
/// has faulted.
pub struct Connection {
    pub transport: Box<dyn Transport>,
    pub id_name: Option<String>,
    /// Set after any fault: the engine is in an unknown state and is restarted before its
    /// next session.
    pub faulted: bool,
}

impl Connection {
    pub fn new(transport: impl Transport + 'static) -> Connection {
        Connection {
            transport: Box::new(transport),
            id_name: None,
            faulted: false,
        }
    }
}

/// An engine seated at the arena's sessions, whatever it speaks and wherever it runs. Lines go
/// out through [`Client::send`]; lines come back through the [`Inbox`], tagged with the
/// client's [`Source`].
pub trait Client: Send {
    fn connection(&mut self) -> &mut Connection;
    /// The protocol's greeting once the engine has started: announcements, options, the game.
    /// Nothing by default, for engines that speak no protocol beyond their games.
    fn handshake(&mut self, inbox: &mut Inbox, setup: &GameSetup) -> Result<(), EngineFault> {
        let _ = (inbox, setup);
        Ok(())
    }
    /// Prepares the engine for a new session.
    fn new_game(&mut self, inbox: &mut Inbox, setup: &GameSetup) -> Result<(), EngineFault>;
    /// Asks for a move of a turn game and waits at most `request.wait` for it.
    fn request_move(&mut self, inbox: &mut Inbox, request: &MoveRequest) -> EngineAnswer {
        let _ = (inbox, request);
        Err(EngineFault::Protocol(
            "this engine plays no turn games".into(),
        ))
    }
    /// The session is over (xboard engines leave play mode).
    fn game_over(&mut self) {}

    /// Where its lines come from in the inbox.
    fn source(&mut self) -> Source {
        self.connection().transport.source()
    }
    /// The name the engine gives itself (`id name`, xboard's `myname`).
    fn id_name(&mut self) -> Option<String> {
        self.connection().id_name.clone()
    }
    /// Writes one line; the time it was written.
    fn send(&mut self, line: &str) -> Result<Instant, EngineFault> {
        self.connection().transport.send(line)
    }
    /// How the engine ended, once its output closed.
    fn exit_text(&mut self) -> String {
        self.connection().transport.exit_text()
    }
    fn faulted(&mut self) -> bool {
        self.connection().faulted
    }
    fn set_faulted(&mut self) {
        self.connection().faulted = true;
    }
    /// Asks the engine to quit, and kills it if it does not within a moment.
    fn quit(mut self: Box<Self>) {
        if !self.faulted() {
            let _ = self.send("quit");
            self.connection().transport.close();
        }
        // Dropping the transport kills what is left.
    }
}

/// The next line of `client` before `deadline`, a wait's failure turned into the engine's fault.
pub fn next_line(
    client: &mut dyn Client,
    inbox: &mut Inbox,
    deadline: Instant,
    started: Instant,
    cancel: Option<&AtomicBool>,
) -> Result<(Instant, String), EngineFault> {
    match inbox.next_from(client.source(), deadline, cancel) {
        Ok(arrival) => Ok(arrival),
        Err(WaitError::Cancelled) => Err(EngineFault::Cancelled),
        Err(WaitError::Timeout) => Err(EngineFault::Timeout(Instant::now() - started)),
        Err(WaitError::Closed) => Err(EngineFault::Crashed(client.exit_text())),
    }
}

/// Reads `client`'s lines until one satisfies `done`; returns the lines before it.
pub fn read_until(
    client: &mut dyn Client,
    inbox: &mut Inbox,
    timeout: Duration,
    done: impl Fn(&str) -> bool,
) -> Result<Vec<String>, EngineFault> {
    let started = Instant::now();
    let mut seen = Vec::new();
    loop {
        let (_, line) = next_line(client, inbox, started + timeout, started, None)?;
        if done(&line) {
            return Ok(seen);
        }
        seen.push(line);
    }
}

/// Drops `client`'s lines left over from before (late `info` lines, say).
pub fn drain(client: &mut dyn Client, inbox: &mut Inbox) -> Result<(), EngineFault> {
    match inbox.drain(client.source()) {
        Ok(()) => Ok(()),
        Err(_) => Err(EngineFault::Crashed(client.exit_text())),
    }
}

/// Completes a new client's handshake; a fault becomes the start-up error's text.
pub fn greet(
    mut client: Box<dyn Client>,
    inbox: &mut Inbox,
    setup: &GameSetup,
) -> Result<Box<dyn Client>, String> {
    match client.handshake(inbox, setup) {
        Ok(()) => Ok(client),
        Err(fault) => Err(fault.setup_error(setup.timeout)),
    }
}

/// Starts an engine process (or a built-in player in-process) and completes its handshake for
/// `game`.
pub fn start_engine(
    config: &EngineConfig,
    game: &str,
    timeout: Duration,
    log: Option<TrafficLog>,
    inbox: &mut Inbox,
) -> Result<Box<dyn Client>, String> {
    let client: Box<dyn Client> = match (config.in_process, config.protocol) {
        (Some(settings), _) => {
            let agent = move || -> Box<dyn crate::protocol::Agent> {
                Box::new(crate::players::reference::PlayerAgent {
                    settings,
                    xboard: false,
                })
            };
            let serve = local::serve_session(agent);
            let transport = local::LocalTransport::spawn(&config.name, inbox, log, serve);
            Box::new(uci::UciClient::new(transport))
        }
        (None, Protocol::Uci) => Box::new(uci::UciClient::new(ChildTransport::spawn(
            config, inbox, log,
        )?)),
        (None, Protocol::Xboard) => Box::new(xboard::XboardClient::new(ChildTransport::spawn(
            config, inbox, log,
        )?)),
    };
    let setup = GameSetup {
        game,
        options: &config.options,
        limits: config.limits,
        timeout,
    };
    greet(client, inbox, &setup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(TimeControl::parse("60").unwrap().increment, Duration::ZERO);
        for bad in ["", "x+1", "10+", "-5+1", "1e99"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scores_for_pgn() {
        assert_eq!(EngineScore::Cp(35).pgn_text(), "+0.35");
        assert_eq!(EngineScore::Cp(-120).pgn_text(), "-1.20");
        assert_eq!(EngineScore::Cp(-5).pgn_text(), "-0.05");
        assert_eq!(EngineScore::Mate(3).pgn_text(), "+M3");
        assert_eq!(EngineScore::Mate(-2).pgn_text(), "-M2");
        assert!(EngineScore::Mate(1).centipawns() > EngineScore::Mate(5).centipawns());
    }

    #[test]
    fn limits_text() {
        let limits = Limits {
            tc: Some(TimeControl::parse("1+0.01").unwrap()),
            nodes: Some(5000),
            ..Limits::default()
        };
        assert_eq!(limits.text(), "tc=1+0.01 nodes=5000");
    }
}
