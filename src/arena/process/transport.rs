//! How lines reach an engine and come back: a child process spoken to over its standard input
//! and output ([`ChildTransport`]), or a built-in player on a thread
//! ([`LocalTransport`](super::local::LocalTransport)). Either way a reader posts every line to
//! the worker's [`Inbox`] with the time it was read, so the time an engine used runs from the
//! moment its `go` was written to the moment its move was read.

use super::inbox::{Inbox, Mailbox, Source};
use super::{EngineConfig, EngineFault};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Lines out to an engine; its lines back go to the inbox under [`Transport::source`].
pub trait Transport: Send {
    fn source(&self) -> Source;
    /// Writes one line; the time it was written.
    fn send(&mut self, line: &str) -> Result<Instant, EngineFault>;
    /// How the engine ended, once its output closed.
    fn exit_text(&mut self) -> String;
    /// Closes the engine's input and waits a moment for it to end; it is killed when dropped.
    fn close(&mut self);
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

    /// `arrow` is `<` for a line to the engine and `>` for one from it.
    pub fn write(&self, who: &str, arrow: &str, text: &str) {
        let millis = self.started.elapsed().as_millis();
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(file, "[{millis:>9}] {who} {arrow} {text}");
    }
}

/// One engine's lines in the traffic log, when there is one.
#[derive(Clone)]
pub struct EngineLog {
    label: String,
    log: Option<TrafficLog>,
}

impl EngineLog {
    pub fn new(label: &str, log: Option<TrafficLog>) -> EngineLog {
        EngineLog {
            label: label.to_string(),
            log,
        }
    }

    pub fn to_engine(&self, line: &str) {
        if let Some(log) = &self.log {
            log.write(&self.label, "<", line);
        }
    }

    pub fn from_engine(&self, line: &str) {
        if let Some(log) = &self.log {
            log.write(&self.label, ">", line);
        }
    }
}

/// Reads `output` line by line into `mailbox` (and the log) until it closes.
pub fn spawn_reader(output: impl BufRead + Send + 'static, mailbox: Mailbox, log: EngineLog) {
    thread::spawn(move || {
        let mut reader = output;
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
            if let Some(text) = &text {
                log.from_engine(text);
            }
            let end = text.is_none();
            if !mailbox.post(text) || end {
                break;
            }
        }
    });
}

/// An engine as a child process.
pub struct ChildTransport {
    source: Source,
    child: Child,
    stdin: Option<ChildStdin>,
    log: EngineLog,
}

impl ChildTransport {
    /// Starts the engine's process and its reader thread.
    pub fn spawn(
        config: &EngineConfig,
        inbox: &mut Inbox,
        log: Option<TrafficLog>,
    ) -> Result<ChildTransport, String> {
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
        let mailbox = inbox.connect();
        let source = mailbox.source;
        let log = EngineLog::new(&config.name, log);
        spawn_reader(BufReader::new(stdout), mailbox, log.clone());
        Ok(ChildTransport {
            source,
            stdin: child.stdin.take(),
            child,
            log,
        })
    }
}

impl Transport for ChildTransport {
    fn source(&self) -> Source {
        self.source
    }

    fn send(&mut self, line: &str) -> Result<Instant, EngineFault> {
        self.log.to_engine(line);
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

    fn close(&mut self) {
        self.stdin = None;
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for ChildTransport {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
