//! An engine process that speaks the Megachess protocol: started with piped input and output,
//! read by a thread of its own, waited on with deadlines, and killed when dropped, so that no
//! engine outlives the bot that started it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Instant;

/// The engine is gone: it exited, or its pipes broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineGone(pub String);

/// A running engine.
pub struct EngineProcess {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `command` (program and arguments; empty: this very binary, which speaks the
    /// protocol on standard input).
    pub fn spawn(command: &[String]) -> Result<EngineProcess, String> {
        let (program, args) = match command.split_first() {
            Some((program, args)) => (program.into(), args),
            None => (
                std::env::current_exe().map_err(|error| format!("no roger binary: {error}"))?,
                &[][..],
            ),
        };
        let mut child = Command::new(&program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| format!("cannot start {}: {error}", program.display()))?;
        let input = child.stdin.take().expect("stdin is piped");
        let output = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            input,
            lines,
        })
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineGone> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|error| EngineGone(format!("cannot write to the engine: {error}")))
    }

    /// The next line before `deadline`, `None` when none came in time.
    pub fn line_before(&mut self, deadline: Instant) -> Result<Option<String>, EngineGone> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(EngineGone("the engine exited".into())),
        }
    }

    /// Forgets the lines read but not yet taken (nothing of an earlier question may pass for
    /// the answer to the next).
    pub fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Reads until a line starting with `word` (its remaining words) or the deadline.
    pub fn wait_for(
        &mut self,
        word: &str,
        deadline: Instant,
    ) -> Result<Option<Vec<String>>, EngineGone> {
        while let Some(line) = self.line_before(deadline)? {
            let mut words = line.split_whitespace();
            if words.next() == Some(word) {
                return Ok(Some(words.map(String::from).collect()));
            }
        }
        Ok(None)
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
