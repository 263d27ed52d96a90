//! The test driver of the real `roger` binary, shared by the protocol tests of every game.
//!
//! Every read has a timeout (a reader thread feeds a channel), so a hung engine fails a test
//! instead of hanging the suite, and the child is killed when a test ends.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Generous bound for replies that should be immediate (a loaded CI machine can be slow).
pub const PROMPT: Duration = Duration::from_secs(5);
/// What a busy machine may add, out of the engine's control, between a test writing a line and
/// the engine reading it, and back. A deadline the engine keeps by its own clock is checked
/// exactly by the time it reports (`info time`); a wall-clock bound allows this much more.
pub const SCHEDULING: Duration = Duration::from_millis(500);
/// Bound for searches of a few plies.
pub const SEARCH: Duration = Duration::from_secs(60);

pub struct Roger {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Roger {
    pub fn start() -> Roger {
        Roger::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Roger {
        let mut child = Command::new(env!("CARGO_BIN_EXE_roger"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start roger");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Roger {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("write to roger");
        stdin.flush().expect("flush to roger");
    }

    /// The engine's process id (to read its `/proc` entry).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends raw bytes, as they are (no line end added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to roger");
        stdin.flush().expect("flush to roger");
    }

    /// Closes the engine's standard input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` once the engine has closed its output; panics after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => panic!("no line within {timeout:?}"),
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that `done` accepts; panics after `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no awaited line within {timeout:?}; got {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("roger closed its output; got {seen:#?}")
                }
            }
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(SEARCH, |line| line.starts_with(prefix))
    }

    /// The first line that starts with `prefix` (the lines before it are dropped).
    pub fn last(&mut self, prefix: &str) -> String {
        self.until(prefix)
            .pop()
            .expect("at least the matching line")
    }

    /// Selects a variant and returns the announcement line.
    pub fn select_variant(&mut self, variant: &str) -> String {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        self.last("info string variant")
    }

    /// Starts the engine, selects `variant` and checks that it announces the board and `start`.
    pub fn start_variant(variant: &str, files: u32, ranks: u32, start: &str) -> Roger {
        let mut roger = Roger::start();
        assert_eq!(
            roger.select_variant(variant),
            format!("info string variant {variant} files {files} ranks {ranks} startpos {start}")
        );
        roger
    }

    /// `go perft <depth>` from `position <position>`: the total node count line.
    pub fn perft(&mut self, position: &str, depth: u32) -> String {
        self.send(&format!("position {position}"));
        self.send(&format!("go perft {depth}"));
        self.last("Nodes searched")
    }

    /// Sends `go <params>` and returns the lines up to and including `bestmove`.
    pub fn go(&mut self, params: &str) -> Vec<String> {
        self.send(&format!("go {params}"));
        self.await_bestmove(SEARCH)
    }

    /// Searches `position` with `go <params>` and checks the `bestmove` line and that some
    /// `info` line reports `score` (such as `score mate 1 `).
    pub fn assert_search(&mut self, position: &str, params: &str, bestmove: &str, score: &str) {
        self.send(&format!("position {position}"));
        let lines = self.go(params);
        assert_eq!(
            lines.last().map(String::as_str),
            Some(bestmove),
            "{lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with("info ") && line.contains(score)),
            "no {score:?} in {lines:#?}"
        );
    }

    /// Sends `isready` and returns what came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(PROMPT, |line| line == "readyok");
        lines.pop();
        lines
    }

    /// Sends a line that must be refused: exactly one error line comes back, containing each of
    /// `fragments`, and the engine still answers `isready`.
    pub fn expect_error(&mut self, line: &str, fragments: &[&str]) -> String {
        self.send(line);
        let replies = self.sync();
        assert_eq!(replies.len(), 1, "{line:?} gave {replies:#?}");
        let error = &replies[0];
        assert!(
            error.starts_with("info string error: "),
            "{line:?} gave {error:?}"
        );
        for fragment in fragments {
            assert!(
                error.contains(fragment),
                "{line:?} gave {error:?}, which lacks {fragment:?}"
            );
        }
        error.clone()
    }

    /// Lines up to and including `bestmove`.
    pub fn await_bestmove(&mut self, timeout: Duration) -> Vec<String> {
        self.read_until(timeout, |line| line.starts_with("bestmove"))
    }

    /// The FEN that `d` shows.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.sync();
        let fen = lines
            .iter()
            .find_map(|line| line.strip_prefix("Fen: "))
            .unwrap_or_else(|| panic!("no Fen line in {lines:#?}"));
        fen.to_string()
    }

    /// No line arrives within `wait`.
    pub fn assert_silent(&mut self, wait: Duration) {
        if let Ok(line) = self.lines.recv_timeout(wait) {
            panic!("unexpected line {line:?}");
        }
    }

    /// Waits for the process to end by itself.
    pub fn assert_exits(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "roger exited with {status}");
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        panic!("roger did not exit within {timeout:?}");
    }
}

impl Drop for Roger {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
