//! The xboard (CECP version 2) client, for Fairy-Max, Sjaak II and others. The engine is kept
//! in force mode and told each move; before its own moves it gets its clocks and `go`.

use super::inbox::Inbox;
use super::transport::Transport;
use super::{
    drain, next_line, read_until, Client, Connection, EngineAnswer, EngineFault, EngineReply,
    EngineScore, GameSetup, MoveRequest,
};
use std::collections::HashMap;
use std::time::{Duration, Instant};

pub struct XboardClient {
    connection: Connection,
    features: HashMap<String, String>,
    /// Option names of its `feature option=` lines.
    announced_options: Vec<String>,
    /// Its `variants` feature.
    announced_variants: Option<Vec<String>>,
    /// The start and moves the engine has been told of since `new`.
    board: Option<(Option<String>, Vec<String>)>,
    pings: u32,
}

impl XboardClient {
    pub fn new(transport: impl Transport + 'static) -> XboardClient {
        XboardClient {
            connection: Connection::new(transport),
            features: HashMap::new(),
            announced_options: Vec::new(),
            announced_variants: None,
            board: None,
            pings: 0,
        }
    }

    /// Reads `feature` lines, accepting or rejecting each, until `done=1`.
    fn read_features(&mut self, inbox: &mut Inbox, timeout: Duration) -> Result<(), EngineFault> {
        let started = Instant::now();
        loop {
            let (_, line) = next_line(self, inbox, started + timeout, started, None)?;
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
                    "myname" => self.connection.id_name = Some(value.clone()),
                    "variants" => {
                        self.announced_variants =
                            Some(value.split(',').map(|v| v.trim().to_string()).collect())
                    }
                    "option" => {
                        let name = value.split(" -").next().unwrap_or("").trim().to_string();
                        self.announced_options.push(name);
                    }
                    _ => {}
                }
                self.features.insert(name, value);
            }
            if done {
                return Ok(());
            }
        }
    }

    fn feature(&self, name: &str) -> bool {
        self.features.get(name).is_some_and(|v| v == "1")
    }

    /// Waits until the engine has read everything sent so far (`ping`/`pong`), and fails if
    /// it refused any of it.
    fn sync(&mut self, inbox: &mut Inbox, timeout: Duration) -> Result<(), EngineFault> {
        if !self.feature("ping") {
            return Ok(());
        }
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings))?;
        let seen = read_until(self, inbox, timeout, |line| line.trim() == pong)?;
        // Only a refused move matters; engines also complain about commands they don't know.
        match seen.iter().find(|line| line.starts_with("Illegal move")) {
            Some(refusal) => Err(EngineFault::Protocol(format!(
                "the engine refused a legal command: {refusal}"
            ))),
            None => Ok(()),
        }
    }

    /// Tells the engine the moves it has not seen yet (in force mode).
    fn catch_up(&mut self, inbox: &mut Inbox, request: &MoveRequest) -> Result<(), EngineFault> {
        let start = request.start_fen.map(String::from);
        let known = match &self.board {
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
                    if !self.feature("setboard") {
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
        let prefix = if self.feature("usermove") {
            "usermove "
        } else {
            ""
        };
        for mv in &request.moves[known..] {
            self.send(&format!("{prefix}{mv}"))?;
        }
        self.board = Some((start, request.moves.to_vec()));
        if request.moves.len() > known {
            self.sync(inbox, Duration::from_secs(10))?;
        }
        Ok(())
    }
}

impl Client for XboardClient {
    fn connection(&mut self) -> &mut Connection {
        &mut self.connection
    }

    /// `protover 2`, the features, the variant, the options.
    fn handshake(&mut self, inbox: &mut Inbox, setup: &GameSetup) -> Result<(), EngineFault> {
        let game = setup.game;
        self.send("xboard")?;
        self.send("protover 2")?;
        self.read_features(inbox, setup.timeout)?;
        if game != "chess" {
            let plays = self
                .announced_variants
                .as_ref()
                .is_some_and(|vars| vars.iter().any(|v| v == game));
            if !plays {
                return Err(EngineFault::Protocol(format!(
                    "the engine does not play '{game}' (its variants: {})",
                    self.announced_variants
                        .as_ref()
                        .map(|vars| vars.join(", "))
                        .unwrap_or_default()
                )));
            }
        }
        for (name, value) in setup.options {
            let line = if name.eq_ignore_ascii_case("Hash") && self.feature("memory") {
                format!("memory {value}")
            } else if name.eq_ignore_ascii_case("Threads") && self.feature("smp") {
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
        self.sync(inbox, setup.timeout)
    }

    fn new_game(&mut self, inbox: &mut Inbox, setup: &GameSetup) -> Result<(), EngineFault> {
        drain(self, inbox)?;
        self.send("new")?;
        if setup.game != "chess" {
            self.send(&format!("variant {}", setup.game))?;
        }
        self.send("force")?;
        self.send("post")?;
        self.send("easy")?;
        if let Some(tc) = setup.limits.tc {
            // Some engines (Fairy-Max) read only a whole increment; `time` and `otim` before
            // each move tell them their real clocks anyway.
            let seconds = tc.base.as_secs();
            let increment = tc.increment.as_secs();
            self.send(&format!(
                "level 0 {}:{:02} {increment}",
                seconds / 60,
                seconds % 60
            ))?;
        } else if let Some(st) = setup.limits.movetime {
            self.send(&format!("st {}", st.as_secs().max(1)))?;
        }
        if let Some(depth) = setup.limits.depth {
            self.send(&format!("sd {depth}"))?;
        }
        self.board = None;
        self.sync(inbox, setup.timeout)
    }

    fn request_move(&mut self, inbox: &mut Inbox, request: &MoveRequest) -> EngineAnswer {
        drain(self, inbox)?;
        self.catch_up(inbox, request)?;
        if let Some(clocks) = &request.clocks {
            let own = clocks[request.seat];
            // xboard knows one opponent: the one with the most time left stands for all.
            let other = (0..clocks.len())
                .filter(|&seat| seat != request.seat)
                .map(|seat| clocks[seat])
                .max()
                .unwrap_or(own);
            self.send(&format!("time {}", own.as_millis() / 10))?;
            self.send(&format!("otim {}", other.as_millis() / 10))?;
        }
        let sent = self.send("go")?;
        let (mut score, mut depth) = (None, None);
        loop {
            let (at, line) =
                next_line(self, inbox, sent + request.wait, sent, Some(request.cancel))?;
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
                    if let Some((_, moves)) = &mut self.board {
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

    /// `result` is not sent: Fairy-Max, for one, does not know it, and `new` starts the next
    /// game anyway.
    fn game_over(&mut self) {
        if !self.connection.faulted {
            let _ = self.send("force");
        }
    }
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
}
