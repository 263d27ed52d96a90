//! The processes the fuzzer talks to: the engine under test (and the second instance that
//! judges its moves) as child processes, python-chess through one long-lived `python3`, and
//! the [`Peer`] interface that lets a test put a fake engine in their place.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What waiting for the next line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    Line(String),
    /// Nothing within the time allowed.
    Timeout,
    /// The peer closed its output (it exited or crashed).
    Closed,
}

/// An engine as the driver sees it: lines in, lines out.
pub trait Peer {
    /// Writes bytes to the engine's input.
    fn send(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// The next line of its output, waiting at most `timeout`.
    fn next_line(&mut self, timeout: Duration) -> Next;
    /// Closes its input (end of file).
    fn close_input(&mut self);
    /// Its exit status once it has exited (waits up to `timeout`); `None` if it has not.
    fn exit_code(&mut self, timeout: Duration) -> Option<Option<i32>>;
    /// What it wrote to standard error lately (for crash reports).
    fn stderr_tail(&self) -> String {
        String::new()
    }
    /// When the line [`Peer::next_line`] gave last arrived (`None`: not known; the caller
    /// takes the time it read it).
    fn arrived(&self) -> Option<Instant> {
        None
    }
    /// The crash report of an engine that closed its output: its exit and its last words.
    fn closed_report(&mut self) -> String {
        let tail = self.stderr_tail();
        let code = self.exit_code(Duration::from_secs(1));
        format!("the engine closed its output (exit {code:?}); its stderr: {tail}")
    }
    /// The failure of a read that brought no line: the engine's exit and its last words when
    /// it `closed` its output, else a hang while `waiting` for something.
    fn silence_failure(
        &mut self,
        closed: bool,
        timeout: Duration,
        waiting: &str,
    ) -> (&'static str, String) {
        if closed {
            ("crashes", self.closed_report())
        } else {
            let hang = format!("no line within {timeout:?} while waiting for {waiting}");
            ("hangs", hang)
        }
    }
}

/// Starts a fresh engine.
pub type Launcher = Box<dyn FnMut() -> io::Result<Box<dyn Peer>>>;

/// A child process whose output lines arrive through a reader thread.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(String, Instant)>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// When the last line given out arrived (timed by the reader thread, so that a line
    /// read late by a busy caller is still timed right).
    arrived: Option<Instant>,
}

/// How much of a child's standard error is kept.
const STDERR_KEPT: usize = 4096;

impl Process {
    pub fn start(program: &PathBuf, args: &[&str]) -> io::Result<Process> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| {
                io::Error::new(error.kind(), format!("{}: {error}", program.display()))
            })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&bytes);
                        let line = line.strip_suffix('\n').unwrap_or(&line);
                        let line = line.strip_suffix('\r').unwrap_or(line);
                        if sender.send((line.to_string(), Instant::now())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let kept = stderr.clone();
        thread::spawn(move || {
            let mut buffer = [0u8; 1024];
            while let Ok(read) = stderr_pipe.read(&mut buffer) {
                if read == 0 {
                    break;
                }
                let mut kept = kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                kept.extend_from_slice(&buffer[..read]);
                let excess = kept.len().saturating_sub(STDERR_KEPT);
                kept.drain(..excess);
            }
        });
        Ok(Process {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            arrived: None,
        })
    }
}

impl Peer for Process {
    fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::other("input already closed"))?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    fn next_line(&mut self, timeout: Duration) -> Next {
        match self.lines.recv_timeout(timeout) {
            Ok((line, at)) => {
                self.arrived = Some(at);
                Next::Line(line)
            }
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        }
    }

    fn close_input(&mut self) {
        self.stdin = None;
    }

    fn exit_code(&mut self, timeout: Duration) -> Option<Option<i32>> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status.code()),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    fn arrived(&self) -> Option<Instant> {
        self.arrived
    }

    fn stderr_tail(&self) -> String {
        let kept = self
            .stderr
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        String::from_utf8_lossy(&kept).into_owned()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin = None;
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The python-chess helper (`tests/python/legal_check.py`), built into the binary.
pub const LEGAL_CHECK_PY: &str = include_str!("../../../tests/python/legal_check.py");

/// How long python-chess may take for one answer.
const PYTHON_TIMEOUT: Duration = Duration::from_secs(30);

/// python-chess, asked whether moves are legal: one long-lived `python3` process.
pub struct PythonChess {
    process: Process,
}

impl PythonChess {
    /// Starts `python3` with the helper; an error says why (no python3, no python-chess).
    pub fn start() -> Result<PythonChess, String> {
        let mut process = Process::start(&PathBuf::from("python3"), &["-u", "-c", LEGAL_CHECK_PY])
            .map_err(|error| format!("cannot start python3 for the python-chess check: {error}"))?;
        match process.next_line(PYTHON_TIMEOUT) {
            Next::Line(line) if line == "ready" => Ok(PythonChess { process }),
            other => Err(format!(
                "python-chess is not available ({other:?}; python3 said: {}); install it with \
                 `python3 -m pip install chess`, or pass --no-python-chess",
                process.stderr_tail().trim()
            )),
        }
    }

    /// Whether `best` (and `ponder` after it) is legal after `moves` from `fen`: `Ok` or the
    /// reason python-chess gives.
    pub fn check(
        &mut self,
        fen: &str,
        moves: &[String],
        best: &str,
        ponder: Option<&str>,
    ) -> Result<(), String> {
        let request = format!(
            "{fen}\t{}\t{best}\t{}\n",
            moves.join(" "),
            ponder.unwrap_or("")
        );
        self.process
            .send(request.as_bytes())
            .map_err(|error| format!("python-chess helper gone: {error}"))?;
        match self.process.next_line(PYTHON_TIMEOUT) {
            Next::Line(line) if line == "ok" => Ok(()),
            Next::Line(line) => Err(line),
            other => Err(format!(
                "python-chess helper gave {other:?}: {}",
                self.process.stderr_tail().trim()
            )),
        }
    }
}
