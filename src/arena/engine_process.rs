//! An engine as a child process, spoken to over its standard input and output in UCI (our
//! protocol, and any UCI engine's) or in the xboard protocol (Fairy-Max, Sjaak II and others).
//!
//! A reader thread per engine timestamps every line it prints and feeds a channel, so every wait
//! has a deadline (a hung engine costs a timeout, never the tournament) and the time an engine
//! used is measured from the moment its `go` was written to the moment its move was read.

use super::local::TimeControl;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Uci,
    Xboard,
}

/// What bounds an engine's thinking; at least one is set.
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
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!(
                "tc={}+{}",
                tc.base.as_secs_f64(),
                tc.increment.as_secs_f64()
            ));
        }
        if let Some(st) = self.movetime {
            parts.push(format!("st={}", st.as_secs_f64()));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth={depth}"));
        }
        parts.join(" ")
    }
}

/// How to start and set up one engine.
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

/// A position to move in and the clocks to move on.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// `None` for the variant's start position.
    pub start_fen: Option<&'a str>,
    pub moves: &'a [String],
    pub white_to_move: bool,
    /// Remaining time of White and Black, when the engine to move plays on a clock.
    pub clocks: Option<[Duration; 2]>,
    pub increments: [Duration; 2],
    pub limits: Limits,
}

/// Every line to and from every engine, with the time since the tournament started.
#[derive(Clone)]
pub struct TrafficLog {
    file: Arc<Mutex<File>>,
    started: Instant,
}

impl TrafficLog {
    pub fn create(path: &std::path::Path) -> Result<TrafficLog, String> {
        let file = File::create(path)
            .map_err(|error| format!("cannot create log file '{}': {error}", path.display()))?;
        Ok(TrafficLog {
            file: Arc::new(Mutex::new(file)),
            started: Instant::now(),
        })
    }

    fn write(&self, who: &str, arrow: &str, text: &str) {
        let millis = self.started.elapsed().as_millis();
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(file, "[{millis:>9}] {who} {arrow} {text}");
    }
}

/// One line from the engine, `None` at the end of its output.
struct Line {
    at: Instant,
    text: Option<String>,
}

/// The slice of a long wait after which the cancel flag is checked again.
const POLL: Duration = Duration::from_millis(50);

/// A running engine.
pub struct EngineProcess {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    protocol: Protocol,
    /// The name the engine gives itself (`id name`, xboard's `myname`).
    pub id_name: Option<String>,
    /// Option names the engine announced.
    announced_options: Vec<String>,
    /// The `UCI_Variant` values (UCI) or the `variants` feature (xboard) it announced.
    announced_variants: Option<Vec<String>>,
    xboard: XboardState,
    log: Option<TrafficLog>,
    /// Every fault leaves the engine in an unknown state; it is restarted before its next game.
    pub faulted: bool,
}

#[derive(Default)]
struct XboardState {
    features: HashMap<String, String>,
    /// The start and moves the engine has been told of since `new`.
    board: Option<(Option<String>, Vec<String>)>,
    pings: u32,
}

impl EngineProcess {
    /// Starts the engine and completes the handshake: protocol, options, variant, ready.
    pub fn start(
        config: &EngineConfig,
        variant: &str,
        timeout: Duration,
        log: Option<TrafficLog>,
    ) -> Result<EngineProcess, String> {
        let mut command = Command::new(&config.command);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        // Its own process group: a Ctrl-C at the terminal stops the arena, which then ends its
        // games in order, rather than killing every engine mid-move.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|error| format!("cannot start '{}': {error}", config.command.display()))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                let text = match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => None,
                    Ok(_) => Some(
                        String::from_utf8_lossy(&bytes)
                            .trim_end_matches(['\n', '\r'])
                            .to_string(),
                    ),
                };
                let end = text.is_none();
                if sender
                    .send(Line {
                        at: Instant::now(),
                        text,
                    })
                    .is_err()
                    || end
                {
                    break;
                }
            }
        });
        let mut engine = EngineProcess {
            label: config.name.clone(),
            stdin: child.stdin.take(),
            child,
            lines,
            protocol: config.protocol,
            id_name: None,
            announced_options: Vec::new(),
            announced_variants: None,
            xboard: XboardState::default(),
            log,
            faulted: false,
        };
        let setup = match config.protocol {
            Protocol::Uci => engine.uci_handshake(config, variant, timeout),
            Protocol::Xboard => engine.xboard_handshake(config, variant, timeout),
        };
        setup.map_err(|fault| match fault {
            EngineFault::Timeout(_) => format!("no answer to the handshake within {timeout:?}"),
            EngineFault::Crashed(how) | EngineFault::Protocol(how) => how,
            EngineFault::Cancelled => "interrupted".to_string(),
        })?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<Instant, EngineFault> {
        if let Some(log) = &self.log {
            log.write(&self.label, "<", line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineFault::Crashed("its input is closed".into()));
        };
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        match written {
            Ok(()) => Ok(Instant::now()),
            Err(_) => Err(EngineFault::Crashed(self.exit_text())),
        }
    }

    /// How the process ended, once its output closed.
    fn exit_text(&mut self) -> String {
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return match status.code() {
                    Some(code) => format!("the engine exited with status {code}"),
                    None => format!("the engine was killed ({status})"),
                };
            }
            thread::sleep(Duration::from_millis(10));
        }
        "the engine closed its output".to_string()
    }

    /// The next line before `deadline`, with the time it was read.
    fn next_line(
        &mut self,
        deadline: Instant,
        started: Instant,
        cancel: Option<&AtomicBool>,
    ) -> Result<(Instant, String), EngineFault> {
        loop {
            if cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                return Err(EngineFault::Cancelled);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineFault::Timeout(now - started));
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(Line {
                    at,
                    text: Some(text),
                }) => {
                    if let Some(log) = &self.log {
                        log.write(&self.label, ">", &text);
                    }
                    return Ok((at, text));
                }
                Ok(Line { text: None, .. }) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineFault::Crashed(self.exit_text()))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Reads lines until one satisfies `done`; returns the lines before it.
    fn read_until(
        &mut self,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, EngineFault> {
        let started = Instant::now();
        let mut seen = Vec::new();
        loop {
            let (_, line) = self.next_line(started + timeout, started, None)?;
            if done(&line) {
                return Ok(seen);
            }
            seen.push(line);
        }
    }

    /// Drops lines left over from before (late `info` lines, say).
    fn drain(&mut self) -> Result<(), EngineFault> {
        while let Ok(line) = self.lines.try_recv() {
            match line.text {
                Some(text) => {
                    if let Some(log) = &self.log {
                        log.write(&self.label, ">", &text);
                    }
                }
                None => return Err(EngineFault::Crashed(self.exit_text())),
            }
        }
        Ok(())
    }

    // ---- UCI ----

    fn uci_handshake(
        &mut self,
        config: &EngineConfig,
        variant: &str,
        timeout: Duration,
    ) -> Result<(), EngineFault> {
        self.send("uci")?;
        let lines = self.read_until(timeout, |line| line.trim() == "uciok")?;
        for line in &lines {
            let line = line.trim();
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                if name.eq_ignore_ascii_case("UCI_Variant") {
                    let values = rest.split_whitespace().collect::<Vec<_>>();
                    let vars = values
                        .windows(2)
                        .filter(|pair| pair[0] == "var")
                        .map(|pair| pair[1].to_ascii_lowercase())
                        .collect();
                    self.announced_variants = Some(vars);
                }
                self.announced_options.push(name.to_string());
            }
        }
        match &self.announced_variants {
            Some(vars) if vars.iter().any(|v| v == variant) => {
                let line = format!("setoption name UCI_Variant value {variant}");
                self.send(&line)?;
            }
            _ if variant == "chess" => {}
            Some(vars) => {
                return Err(EngineFault::Protocol(format!(
                    "the engine does not play '{variant}' (its UCI_Variant values: {})",
                    vars.join(", ")
                )))
            }
            None => {
                return Err(EngineFault::Protocol(format!(
                    "the engine does not play '{variant}' (it has no UCI_Variant option)"
                )))
            }
        }
        for (name, value) in &config.options {
            if !self
                .announced_options
                .iter()
                .any(|known| known.eq_ignore_ascii_case(name))
            {
                return Err(EngineFault::Protocol(format!(
                    "the engine has no option '{name}' (its options: {})",
                    self.announced_options.join(", ")
                )));
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send("isready")?;
        let replies = self.read_until(timeout, |line| line.trim() == "readyok")?;
        // Roger (and some others) say so when they refuse an option's value.
        if let Some(error) = replies
            .iter()
            .find(|line| line.starts_with("info string error"))
        {
            return Err(EngineFault::Protocol(format!(
                "the engine refused its setup: {error}"
            )));
        }
        Ok(())
    }

    /// Prepares the engine for a new game.
    pub fn new_game(
        &mut self,
        variant: &str,
        limits: &Limits,
        timeout: Duration,
    ) -> Result<(), EngineFault> {
        self.drain()?;
        match self.protocol {
            Protocol::Uci => {
                self.send("ucinewgame")?;
                self.send("isready")?;
                self.read_until(timeout, |line| line.trim() == "readyok")?;
            }
            Protocol::Xboard => {
                self.send("new")?;
                if variant != "chess" {
                    self.send(&format!("variant {variant}"))?;
                }
                self.send("force")?;
                self.send("post")?;
                self.send("easy")?;
                if let Some(tc) = limits.tc {
                    // Some engines (Fairy-Max) read only a whole increment; `time` and `otim`
                    // before each move tell them their real clocks anyway.
                    let seconds = tc.base.as_secs();
                    let increment = tc.increment.as_secs();
                    self.send(&format!(
                        "level 0 {}:{:02} {increment}",
                        seconds / 60,
                        seconds % 60
                    ))?;
                } else if let Some(st) = limits.movetime {
                    self.send(&format!("st {}", st.as_secs().max(1)))?;
                }
                if let Some(depth) = limits.depth {
                    self.send(&format!("sd {depth}"))?;
                }
                self.xboard.board = None;
                self.xboard_sync(timeout)?;
            }
        }
        Ok(())
    }

    /// Asks for a move and waits at most `wait` for it.
    pub fn request_move(
        &mut self,
        request: &MoveRequest,
        wait: Duration,
        cancel: &AtomicBool,
    ) -> Result<EngineReply, EngineFault> {
        self.drain()?;
        match self.protocol {
            Protocol::Uci => self.uci_move(request, wait, cancel),
            Protocol::Xboard => self.xboard_move(request, wait, cancel),
        }
    }

    fn uci_move(
        &mut self,
        request: &MoveRequest,
        wait: Duration,
        cancel: &AtomicBool,
    ) -> Result<EngineReply, EngineFault> {
        let mut position = match request.start_fen {
            None => "position startpos".to_string(),
            Some(fen) => format!("position fen {fen}"),
        };
        if !request.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&request.moves.join(" "));
        }
        self.send(&position)?;
        let mut go = String::from("go");
        let millis = |d: Duration| d.as_millis();
        if let Some([white, black]) = request.clocks {
            let [white_inc, black_inc] = request.increments;
            go.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                millis(white),
                millis(black),
                millis(white_inc),
                millis(black_inc)
            ));
        }
        if let Some(st) = request.limits.movetime {
            go.push_str(&format!(" movetime {}", millis(st)));
        }
        if let Some(nodes) = request.limits.nodes {
            go.push_str(&format!(" nodes {nodes}"));
        }
        if let Some(depth) = request.limits.depth {
            go.push_str(&format!(" depth {depth}"));
        }
        let sent = self.send(&go)?;
        let (mut score, mut depth) = (None, None);
        loop {
            let (at, line) = self.next_line(sent + wait, sent, Some(cancel))?;
            let tokens: Vec<&str> = line.split_whitespace().collect();
            match tokens.first() {
                Some(&"info") => {
                    let (line_score, line_depth) = parse_uci_info(&tokens);
                    if line_score.is_some() {
                        score = line_score;
                        depth = line_depth.or(depth);
                    }
                }
                Some(&"bestmove") => {
                    return Ok(EngineReply {
                        text: tokens.get(1).unwrap_or(&"").to_string(),
                        elapsed: at - sent,
                        score,
                        depth,
                        resigned: false,
                    });
                }
                // Anything else is not part of the protocol; UCI says to ignore it.
                _ => {}
            }
        }
    }

    // ---- xboard ----

    fn xboard_handshake(
        &mut self,
        config: &EngineConfig,
        variant: &str,
        timeout: Duration,
    ) -> Result<(), EngineFault> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let started = Instant::now();
        let mut option_names = Vec::new();
        loop {
            let (_, line) = self.next_line(started + timeout, started, None)?;
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            let mut done = false;
            for (name, value) in parse_features(rest) {
                // We keep both clocks and send coordinates; we never signal the engine.
                let accept = !matches!(name.as_str(), "san" | "sigint" | "sigterm") || value == "0";
                let verdict = if accept { "accepted" } else { "rejected" };
                self.send(&format!("{verdict} {name}"))?;
                match name.as_str() {
                    "done" => done = value == "1",
                    "myname" => self.id_name = Some(value.clone()),
                    "variants" => {
                        self.announced_variants =
                            Some(value.split(',').map(|v| v.trim().to_string()).collect())
                    }
                    "option" => {
                        let name = value.split(" -").next().unwrap_or("").trim().to_string();
                        option_names.push(name);
                    }
                    _ => {}
                }
                self.xboard.features.insert(name, value);
            }
            if done {
                break;
            }
        }
        self.announced_options = option_names;
        if variant != "chess" {
            let plays = self
                .announced_variants
                .as_ref()
                .is_some_and(|vars| vars.iter().any(|v| v == variant));
            if !plays {
                return Err(EngineFault::Protocol(format!(
                    "the engine does not play '{variant}' (its variants: {})",
                    self.announced_variants
                        .as_ref()
                        .map(|vars| vars.join(", "))
                        .unwrap_or_default()
                )));
            }
        }
        for (name, value) in &config.options {
            let feature = |key: &str| self.xboard.features.get(key).is_some_and(|v| v == "1");
            let line = if name.eq_ignore_ascii_case("Hash") && feature("memory") {
                format!("memory {value}")
            } else if name.eq_ignore_ascii_case("Threads") && feature("smp") {
                format!("cores {value}")
            } else if self.announced_options.iter().any(|known| known == name) {
                format!("option {name}={value}")
            } else {
                return Err(EngineFault::Protocol(format!(
                    "the engine has no option '{name}' (its options: {})",
                    self.announced_options.join(", ")
                )));
            };
            self.send(&line)?;
        }
        self.xboard_sync(timeout)
    }

    fn xboard_feature(&self, name: &str) -> bool {
        self.xboard.features.get(name).is_some_and(|v| v == "1")
    }

    /// Waits until the engine has read everything sent so far (`ping`/`pong`), and fails if
    /// it refused any of it.
    fn xboard_sync(&mut self, timeout: Duration) -> Result<(), EngineFault> {
        if !self.xboard_feature("ping") {
            return Ok(());
        }
        self.xboard.pings += 1;
        let pong = format!("pong {}", self.xboard.pings);
        self.send(&format!("ping {}", self.xboard.pings))?;
        let seen = self.read_until(timeout, |line| line.trim() == pong)?;
        // Only a refused move matters; engines also complain about commands they don't know.
        match seen.iter().find(|line| line.starts_with("Illegal move")) {
            Some(refusal) => Err(EngineFault::Protocol(format!(
                "the engine refused a legal command: {refusal}"
            ))),
            None => Ok(()),
        }
    }

    fn xboard_move(
        &mut self,
        request: &MoveRequest,
        wait: Duration,
        cancel: &AtomicBool,
    ) -> Result<EngineReply, EngineFault> {
        let start = request.start_fen.map(String::from);
        let known = match &self.xboard.board {
            Some((known_start, moves))
                if *known_start == start && request.moves.starts_with(moves) =>
            {
                moves.len()
            }
            Some(_) => {
                return Err(EngineFault::Protocol(
                    "internal: the xboard engine's board went out of step".into(),
                ))
            }
            None => {
                if let Some(fen) = &start {
                    if !self.xboard_feature("setboard") {
                        return Err(EngineFault::Protocol(
                            "the engine cannot be given a FEN (no 'setboard' feature); use \
                             openings given as moves"
                                .into(),
                        ));
                    }
                    self.send(&format!("setboard {fen}"))?;
                }
                0
            }
        };
        let prefix = if self.xboard_feature("usermove") {
            "usermove "
        } else {
            ""
        };
        for mv in &request.moves[known..] {
            self.send(&format!("{prefix}{mv}"))?;
        }
        self.xboard.board = Some((start, request.moves.to_vec()));
        if request.moves.len() > known {
            self.xboard_sync(Duration::from_secs(10))?;
        }
        if let Some(clocks) = request.clocks {
            let (own, other) = if request.white_to_move {
                (clocks[0], clocks[1])
            } else {
                (clocks[1], clocks[0])
            };
            self.send(&format!("time {}", own.as_millis() / 10))?;
            self.send(&format!("otim {}", other.as_millis() / 10))?;
        }
        let sent = self.send("go")?;
        let (mut score, mut depth) = (None, None);
        loop {
            let (at, line) = self.next_line(sent + wait, sent, Some(cancel))?;
            let tokens: Vec<&str> = line.split_whitespace().collect();
            let reply = |text: &str, resigned| EngineReply {
                text: text.to_string(),
                elapsed: at - sent,
                score,
                depth,
                resigned,
            };
            match tokens.as_slice() {
                ["move", mv, ..] => {
                    let reply = reply(mv, false);
                    self.send("force")?;
                    if let Some((_, moves)) = &mut self.xboard.board {
                        moves.push(mv.to_string());
                    }
                    return Ok(reply);
                }
                ["resign", ..] => {
                    let reply = reply("", true);
                    self.send("force")?;
                    return Ok(reply);
                }
                [first, ..] if first.starts_with("Illegal") => {
                    return Err(EngineFault::Protocol(format!(
                        "the engine refused a legal command: {line}"
                    )))
                }
                // Thinking output: ply score time nodes pv.
                [ply, value, _, _, ..] => {
                    if let (Ok(ply), Ok(value)) = (ply.parse::<u32>(), value.parse::<i32>()) {
                        depth = Some(ply);
                        score = Some(EngineScore::Cp(value));
                    }
                }
                _ => {}
            }
        }
    }

    /// Takes an xboard engine out of play mode after a game (UCI needs nothing). `result` is
    /// not sent: Fairy-Max, for one, does not know it, and `new` starts the next game anyway.
    pub fn game_over(&mut self) {
        if self.protocol == Protocol::Xboard && !self.faulted {
            let _ = self.send("force");
        }
    }

    /// Asks the engine to quit, and kills it if it does not within a moment.
    pub fn quit(mut self) {
        if !self.faulted {
            let _ = self.send("quit");
            self.stdin = None;
            for _ in 0..50 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The score and depth of a UCI `info` line (the first PV line only).
fn parse_uci_info(tokens: &[&str]) -> (Option<EngineScore>, Option<u32>) {
    let (mut score, mut depth) = (None, None);
    let mut index = 1;
    while index < tokens.len() {
        let next = tokens.get(index + 1);
        match tokens[index] {
            "string" => break,
            "multipv" if next.is_some_and(|k| *k != "1") => return (None, None),
            "depth" => depth = next.and_then(|d| d.parse().ok()),
            "score" => {
                let value = tokens.get(index + 2).and_then(|v| v.parse().ok());
                score = match (next, value) {
                    (Some(&"cp"), Some(cp)) => Some(EngineScore::Cp(cp)),
                    (Some(&"mate"), Some(n)) => Some(EngineScore::Mate(n)),
                    _ => None,
                };
                index += 1;
            }
            _ => {}
        }
        index += 1;
    }
    (score, depth)
}

/// `name=value` pairs of an xboard `feature` line; values may be quoted.
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut features = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        features.push((name, value.to_string()));
        rest = tail.trim_start();
    }
    features
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let line = "info depth 12 seldepth 20 multipv 1 score cp -35 nodes 100 pv e2e4";
        let tokens: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            parse_uci_info(&tokens),
            (Some(EngineScore::Cp(-35)), Some(12))
        );
        let tokens: Vec<&str> = "info depth 3 score mate -2 lowerbound"
            .split_whitespace()
            .collect();
        assert_eq!(
            parse_uci_info(&tokens),
            (Some(EngineScore::Mate(-2)), Some(3))
        );
        let tokens: Vec<&str> = "info multipv 2 depth 3 score cp 9"
            .split_whitespace()
            .collect();
        assert_eq!(parse_uci_info(&tokens), (None, None));
        let tokens: Vec<&str> = "info string score cp 5".split_whitespace().collect();
        assert_eq!(parse_uci_info(&tokens), (None, None));
    }

    #[test]
    fn features() {
        let features =
            parse_features(r#"myname="Fairy-Max 5.0b" setboard=0 option="Resign -check 0" ping=1"#);
        assert_eq!(
            features,
            vec![
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("setboard".to_string(), "0".to_string()),
                ("option".to_string(), "Resign -check 0".to_string()),
                ("ping".to_string(), "1".to_string()),
            ]
        );
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
}
