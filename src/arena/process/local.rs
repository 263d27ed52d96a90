//! The in-process transport: a server function on its own thread, reading the lines the arena
//! sends and posting its answers to the same [`Inbox`] an engine process's reader posts to. The
//! built-in players ([`Player`]) are served this way in the UCI subset the arena speaks, so
//! `roger selfplay` plays through the same client, referee and clocks as `roger arena`.

use super::inbox::{Inbox, Mailbox, Source};
use super::transport::{EngineLog, TrafficLog, Transport};
use super::EngineFault;
use crate::players::Player;
use crate::rules::registry::record_from;
use crate::rules::{Color, Game, GameRecord};
use crate::search::Clock;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Where an in-process server writes its lines: the inbox, and the traffic log.
pub struct Outbox {
    mailbox: Mailbox,
    log: EngineLog,
}

impl Outbox {
    /// Posts one line; false once nobody listens.
    pub fn say(&self, line: &str) -> bool {
        self.log.from_engine(line);
        self.mailbox.post(Some(line.to_string()))
    }
}

/// A server on a thread: lines in over a channel, lines out through its [`Outbox`].
pub struct LocalTransport {
    source: Source,
    input: Option<Sender<String>>,
    thread: Option<JoinHandle<bool>>,
    log: EngineLog,
}

impl LocalTransport {
    /// Runs `serve` on a new thread until its input closes or it returns. Its output closes
    /// when it ends, as a process's does, and a panic counts as a crash.
    pub fn spawn(
        label: &str,
        inbox: &mut Inbox,
        log: Option<TrafficLog>,
        serve: impl FnOnce(Receiver<String>, &Outbox) + Send + 'static,
    ) -> LocalTransport {
        let (input, lines) = mpsc::channel();
        let mailbox = inbox.connect();
        let source = mailbox.source;
        let log = EngineLog::new(label, log);
        let outbox = Outbox {
            mailbox,
            log: log.clone(),
        };
        let thread = thread::spawn(move || {
            let clean = catch_unwind(AssertUnwindSafe(|| serve(lines, &outbox))).is_ok();
            outbox.mailbox.post(None);
            clean
        });
        LocalTransport {
            source,
            input: Some(input),
            thread: Some(thread),
            log,
        }
    }
}

impl Transport for LocalTransport {
    fn source(&self) -> Source {
        self.source
    }

    fn send(&mut self, line: &str) -> Result<Instant, EngineFault> {
        self.log.to_engine(line);
        let sent = self
            .input
            .as_ref()
            .is_some_and(|input| input.send(line.to_string()).is_ok());
        if sent {
            Ok(Instant::now())
        } else {
            Err(EngineFault::Crashed(self.exit_text()))
        }
    }

    fn exit_text(&mut self) -> String {
        for _ in 0..20 {
            if self.thread.as_ref().is_some_and(JoinHandle::is_finished) {
                let clean = self
                    .thread
                    .take()
                    .is_some_and(|t| t.join().unwrap_or(false));
                return if clean {
                    "the player stopped".to_string()
                } else {
                    "the player panicked".to_string()
                };
            }
            thread::sleep(Duration::from_millis(10));
        }
        "the player closed its output".to_string()
    }

    fn close(&mut self) {
        self.input = None;
        for _ in 0..50 {
            if self.thread.as_ref().is_none_or(JoinHandle::is_finished) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // A player still thinking finishes its move on its own and then sees its input closed.
    }
}

/// A server for `roger selfplay`'s players: the UCI subset the arena's client sends (`uci`,
/// `setoption`, `isready`, `ucinewgame`, `position`, `go` with clocks, `quit`). `make` builds
/// the player on the server's own thread.
pub fn serve_player<G: Game>(
    make: impl FnOnce() -> Box<dyn Player<G>> + Send + 'static,
) -> impl FnOnce(Receiver<String>, &Outbox) + Send + 'static {
    move |lines, out| {
        let mut player = make();
        let mut record: Option<GameRecord<G>> = None;
        for line in lines {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            let answered = match tokens.first().copied() {
                Some("uci") => {
                    out.say(&format!("id name {}", player.name()))
                        && out.say(&format!(
                            "option name UCI_Variant type combo default {0} var {0}",
                            G::VARIANT
                        ))
                        && out.say("uciok")
                }
                Some("isready") => out.say("readyok"),
                Some("ucinewgame") => {
                    player.new_game();
                    true
                }
                Some("position") => match position::<G>(&tokens[1..]) {
                    Ok(game) => {
                        record = Some(game);
                        true
                    }
                    Err(error) => {
                        record = None;
                        out.say(&format!("info string error: {error}"))
                    }
                },
                Some("go") => {
                    let choice = record.as_ref().and_then(|record| {
                        let clock = go_clock(&tokens[1..], record.position().side_to_move());
                        let mv = player.choose(record, clock)?;
                        Some(record.position().move_text(mv))
                    });
                    out.say(&format!("bestmove {}", choice.as_deref().unwrap_or("0000")))
                }
                Some("quit") => break,
                _ => true,
            };
            if !answered {
                break;
            }
        }
    }
}

/// The record of `position startpos|fen <FEN> [moves ...]`.
fn position<G: Game>(tokens: &[&str]) -> Result<GameRecord<G>, String> {
    let split = tokens.iter().position(|&t| t == "moves");
    let (setup, moves) = tokens.split_at(split.unwrap_or(tokens.len()));
    let moves: Vec<String> = moves.iter().skip(1).map(|m| m.to_string()).collect();
    match setup {
        ["startpos"] => record_from::<G>(None, &moves),
        ["fen", fen @ ..] => record_from::<G>(Some(&fen.join(" ")), &moves),
        _ => Err(format!(
            "position: expected startpos or fen in '{}'",
            tokens.join(" ")
        )),
    }
}

/// The mover's clock of a `go` command: its own `wtime`/`winc` or `btime`/`binc`, or a
/// `movetime` to spend whole.
fn go_clock(tokens: &[&str], side: Color) -> Option<Clock> {
    let value = |name: &str| {
        let at = tokens.iter().position(|&t| t == name)?;
        let millis: u64 = tokens.get(at + 1)?.parse().ok()?;
        Some(Duration::from_millis(millis))
    };
    let (time, increment) = match side {
        Color::White => ("wtime", "winc"),
        Color::Black => ("btime", "binc"),
    };
    match (value(time), value("movetime")) {
        (Some(time), _) => Some(Clock {
            time,
            increment: value(increment).unwrap_or_default(),
            moves_to_go: None,
        }),
        (None, Some(movetime)) => Some(Clock {
            time: movetime,
            increment: Duration::ZERO,
            moves_to_go: Some(1),
        }),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::RandomPlayer;
    use crate::rules::chess::Chess;

    #[test]
    fn a_player_answers_the_uci_subset_through_the_inbox() {
        let mut inbox = Inbox::new();
        let serve = serve_player::<Chess>(|| Box::new(RandomPlayer::new(1)));
        let mut transport = LocalTransport::spawn("random", &mut inbox, None, serve);
        let source = transport.source();
        let soon = || Instant::now() + Duration::from_secs(5);
        transport.send("isready").unwrap();
        assert_eq!(inbox.next_from(source, soon(), None).unwrap().1, "readyok");
        transport.send("position startpos moves e2e4").unwrap();
        transport.send("go wtime 1000 btime 1000").unwrap();
        let (_, reply) = inbox.next_from(source, soon(), None).unwrap();
        let mv = reply.strip_prefix("bestmove ").unwrap();
        let mut record = record_from::<Chess>(None, &["e2e4".to_string()]).unwrap();
        assert!(record.play_text(mv).is_ok(), "{reply}");
        transport.send("position fen nonsense").unwrap();
        let (_, error) = inbox.next_from(source, soon(), None).unwrap();
        assert!(error.starts_with("info string error"), "{error}");
        transport.send("quit").unwrap();
        assert!(inbox.next_from(source, soon(), None).is_err());
        assert_eq!(transport.exit_text(), "the player stopped");
    }

    #[test]
    fn a_panicking_player_is_a_crash_not_the_arenas() {
        let mut inbox = Inbox::new();
        let serve = |lines: Receiver<String>, _: &Outbox| {
            if let Ok(line) = lines.recv() {
                panic!("the player cannot stand '{line}'");
            }
        };
        let mut transport = LocalTransport::spawn("fragile", &mut inbox, None, serve);
        let source = transport.source();
        transport.send("go").unwrap();
        let soon = Instant::now() + Duration::from_secs(5);
        assert!(inbox.next_from(source, soon, None).is_err());
        assert_eq!(transport.exit_text(), "the player panicked");
        assert!(transport.send("go").is_err());
    }

    #[test]
    fn clocks_of_go() {
        let tokens = ["wtime", "900", "btime", "800", "winc", "10", "binc", "20"];
        let clock = go_clock(&tokens, Color::Black).unwrap();
        assert_eq!(clock.time, Duration::from_millis(800));
        assert_eq!(clock.increment, Duration::from_millis(20));
        assert!(go_clock(&["depth", "3"], Color::White).is_none());
    }
}
