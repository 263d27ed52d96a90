//! The in-process transport: a server function on its own thread, reading the lines the arena
//! sends and posting its answers to the same [`Inbox`] an engine process's reader posts to. The
//! built-in players are served this way by Roger's own protocol session ([`serve_session`]), so
//! `roger selfplay` plays through the same client, referee and clocks as `roger arena`, and its
//! players through the same session as `roger` and `roger play`.

use super::inbox::{Inbox, Mailbox, Source};
use super::transport::{EngineLog, TrafficLog, Transport};
use super::EngineFault;
use crate::protocol::{serve, Agent, Output};
use std::io::{self, BufRead, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Where an in-process server writes its lines: the inbox, and the traffic log.
#[derive(Clone)]
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

/// A server that is Roger's own protocol session with `make`'s agent (the engine, or a
/// reference player), built on the server's own thread: `roger selfplay`'s players speak to the
/// arena exactly as `roger` and `roger play` do over a pipe.
pub fn serve_session(
    make: impl FnOnce() -> Box<dyn Agent> + Send + 'static,
) -> impl FnOnce(Receiver<String>, &Outbox) + Send + 'static {
    move |lines, out| {
        let input = LineReader {
            lines,
            pending: Vec::new(),
            read: 0,
        };
        let output = LineWriter {
            out: out.clone(),
            partial: Vec::new(),
        };
        // The session ends on `quit` or when the arena closes the input; an output nobody
        // reads any more ends it too, which is how a process would go.
        let _ = serve(make(), input, Output::new(output));
    }
}

/// The arena's lines as a byte stream, for the session's reader.
struct LineReader {
    lines: Receiver<String>,
    pending: Vec<u8>,
    read: usize,
}

impl Read for LineReader {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let count = available.len().min(buffer.len());
        buffer[..count].copy_from_slice(&available[..count]);
        self.consume(count);
        Ok(count)
    }
}

impl BufRead for LineReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.read == self.pending.len() {
            // A closed channel is the end of the input.
            self.pending = match self.lines.recv() {
                Ok(line) => format!("{line}\n").into_bytes(),
                Err(_) => Vec::new(),
            };
            self.read = 0;
        }
        Ok(&self.pending[self.read..])
    }

    fn consume(&mut self, count: usize) {
        self.read = (self.read + count).min(self.pending.len());
    }
}

/// The session's output cut into lines for the inbox.
struct LineWriter {
    out: Outbox,
    partial: Vec<u8>,
}

impl Write for LineWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]);
            if !self.out.say(text.trim_end_matches('\r')) {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::reference::PlayerAgent;
    use crate::players::settings::{PlaySettings, ReferencePlayer};
    use crate::rules::chess::Chess;
    use crate::rules::registry::record_from;

    #[test]
    fn a_player_answers_through_the_session_and_the_inbox() {
        let mut inbox = Inbox::new();
        let settings = PlaySettings {
            player: ReferencePlayer::Random,
            seed: 1,
            fault: None,
            fault_after: 0,
        };
        let serve = serve_session(move || {
            Box::new(PlayerAgent {
                settings,
                xboard: false,
            })
        });
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
}
