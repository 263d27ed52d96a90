//! The UCI client: our protocol, and any UCI engine's. It works over any [`Transport`], so the
//! built-in players (served in-process by [`local`](super::local)) are driven exactly as an
//! engine process is.

use super::inbox::Inbox;
use super::transport::Transport;
use super::{
    drain, next_line, read_until, Client, Connection, EngineAnswer, EngineFault, EngineReply,
    EngineScore, GameSetup, MoveRequest,
};
use std::time::Duration;

pub struct UciClient {
    connection: Connection,
    /// Option names the engine announced.
    announced_options: Vec<String>,
    /// The `UCI_Variant` values it announced.
    announced_variants: Option<Vec<String>>,
}

impl UciClient {
    pub fn new(transport: impl Transport + 'static) -> UciClient {
        UciClient {
            connection: Connection::new(transport),
            announced_options: Vec::new(),
            announced_variants: None,
        }
    }

    fn read_announcements(&mut self, lines: &[String]) {
        for line in lines {
            let line = line.trim();
            if let Some(name) = line.strip_prefix("id name ") {
                self.connection.id_name = Some(name.trim().to_string());
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
    }
}

/// The `go` command of a move request: seat 0's clock is UCI's `wtime`, seat 1's `btime`.
fn go_command(request: &MoveRequest) -> String {
    let mut go = String::from("go");
    let millis = |d: Duration| d.as_millis();
    if let (Some(clocks), [first_inc, second_inc, ..]) = (&request.clocks, &request.increments[..])
    {
        if let [first, second, ..] = clocks[..] {
            go.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                millis(first),
                millis(second),
                millis(*first_inc),
                millis(*second_inc)
            ));
        }
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
    go
}

impl Client for UciClient {
    fn connection(&mut self) -> &mut Connection {
        &mut self.connection
    }

    /// `uci`, the variant, the options, `isready`.
    fn handshake(&mut self, inbox: &mut Inbox, setup: &GameSetup) -> Result<(), EngineFault> {
        let game = setup.game;
        self.send("uci")?;
        let lines = read_until(self, inbox, setup.timeout, |line| line.trim() == "uciok")?;
        self.read_announcements(&lines);
        match &self.announced_variants {
            Some(vars) if vars.iter().any(|v| v == game) => {
                let line = format!("setoption name UCI_Variant value {game}");
                self.send(&line)?;
            }
            _ if game == "chess" => {}
            Some(vars) => {
                return Err(EngineFault::Protocol(format!(
                    "the engine does not play '{game}' (its UCI_Variant values: {})",
                    vars.join(", ")
                )))
            }
            None => {
                return Err(EngineFault::Protocol(format!(
                    "the engine does not play '{game}' (it has no UCI_Variant option)"
                )))
            }
        }
        for (name, value) in setup.options {
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
        let replies = read_until(self, inbox, setup.timeout, |line| line.trim() == "readyok")?;
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

    fn new_game(&mut self, inbox: &mut Inbox, setup: &GameSetup) -> Result<(), EngineFault> {
        drain(self, inbox)?;
        self.send("ucinewgame")?;
        self.send("isready")?;
        read_until(self, inbox, setup.timeout, |l| l.trim() == "readyok").map(drop)
    }

    fn request_move(&mut self, inbox: &mut Inbox, request: &MoveRequest) -> EngineAnswer {
        drain(self, inbox)?;
        let mut position = match request.start_fen {
            None => "position startpos".to_string(),
            Some(fen) => format!("position fen {fen}"),
        };
        if !request.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&request.moves.join(" "));
        }
        self.send(&position)?;
        let sent = self.send(&go_command(request))?;
        let (mut score, mut depth) = (None, None);
        loop {
            let (at, line) =
                next_line(self, inbox, sent + request.wait, sent, Some(request.cancel))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::process::{Limits, TimeControl};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn info_lines() {
        let info = |line: &str| parse_uci_info(&line.split_whitespace().collect::<Vec<_>>());
        let line = "info depth 12 seldepth 20 multipv 1 score cp -35 nodes 100 pv e2e4";
        assert_eq!(info(line), (Some(EngineScore::Cp(-35)), Some(12)));
        let line = "info depth 3 score mate -2 lowerbound";
        assert_eq!(info(line), (Some(EngineScore::Mate(-2)), Some(3)));
        assert_eq!(info("info multipv 2 depth 3 score cp 9"), (None, None));
        assert_eq!(info("info string score cp 5"), (None, None));
    }

    #[test]
    fn go_names_seat_clocks_as_white_and_black() {
        let request = MoveRequest {
            start_fen: None,
            moves: &[],
            seat: 1,
            clocks: Some(vec![Duration::from_millis(900), Duration::from_millis(800)]),
            increments: vec![Duration::from_millis(10), Duration::ZERO],
            limits: Limits {
                tc: Some(TimeControl::parse("1+0.01").unwrap()),
                depth: Some(4),
                ..Limits::default()
            },
            wait: Duration::ZERO,
            cancel: &AtomicBool::new(false),
        };
        assert_eq!(
            go_command(&request),
            "go wtime 900 btime 800 winc 10 binc 0 depth 4"
        );
    }
}
