//! `roger world-load`: a load generator for the world server. It starts a world server (this
//! binary, or any other build given by `--server`) on loopback with `--simulate`, joins N bot
//! connections that answer every turn of their team with a few random legal moves, lets M turns
//! run, and reports turns and moves per second, the delay from each turn's start to the last
//! client's `turn` message (median, p99, max), and the server's own longest turn-loop stall and
//! peak memory from its closing summary. The same generator measures every build, so figures
//! compare side by side.
//!
//! `client.rs` is one connection; `timing.rs` turns the clients' arrivals into delays.

pub(crate) mod client;
pub(crate) mod planner;
mod timing;

use crate::world::store::{PostgresUrl, ScratchDatabase};
use client::{ClientReport, ClientSetup};
use planner::Planners;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use timing::{TurnDelays, TurnTimes};

/// What a load run does.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// Bot connections.
    pub players: usize,
    /// Turns the server runs before it stops.
    pub turns: u64,
    pub width: u32,
    pub height: u32,
    /// Moves in each turn a client sends.
    pub moves: usize,
    pub seed: u64,
    /// The world server's command (the program and any arguments before `world`).
    pub server: Vec<String>,
    /// The server's `--window`.
    pub window: u32,
    /// The server's `--turn-ms`: how long a simulated turn waits for a slow client.
    pub turn_ms: u64,
    /// Connections opened at once while joining.
    pub connect_at_once: usize,
    /// How much lower the clients' scheduling priority is than the server's (`nice`): the
    /// clients stand for players on other machines, so on a shared machine they should not
    /// take the server's cores. 0: compete as equals.
    pub nice: i32,
    /// Store the world in a database of its own made on this PostgreSQL server (a URL whose
    /// user may create databases) and dropped afterwards; `None`: an SQLite file in a scratch
    /// folder.
    pub postgres: Option<PostgresUrl>,
}

/// What a load run measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadReport {
    pub players: usize,
    /// Pieces on the board when the first turn began (from the server's `/status`; unknown
    /// when a run is over before it could be asked).
    pub pieces: Option<u64>,
    /// From the first connection to the first turn, in seconds.
    pub join_s: f64,
    pub delays: TurnDelays,
    pub turns_per_second: f64,
    pub moves_sent: u64,
    pub moves_accepted: u64,
    pub moves_per_second: f64,
    /// Messages the clients received, and their bytes.
    pub messages: u64,
    pub bytes: u64,
    /// The server's closing summary: its longest turn-loop stall and peak memory.
    pub max_stall_ms: Option<f64>,
    pub peak_memory_kib: Option<u64>,
    pub server_summary: Option<String>,
    /// Clients that did not join or did not end with the world's `closing`, and the first
    /// trouble any client had.
    pub clients_failed: usize,
    pub first_trouble: Option<String>,
}

impl LoadReport {
    /// The report, a few lines for people.
    pub fn lines(&self) -> Vec<String> {
        let pieces = self
            .pieces
            .map_or("? pieces".to_string(), |n| format!("{n} pieces"));
        let stall = self
            .max_stall_ms
            .map_or("?".to_string(), |ms| format!("{ms:.1} ms"));
        let memory = self.peak_memory_kib.map_or("?".to_string(), |kib| {
            format!("{:.0} MiB", kib as f64 / 1024.0)
        });
        let mut lines = vec![
            format!(
                "{} connections, {pieces}, joined in {:.1} s",
                self.players, self.join_s
            ),
            format!(
                "{} turns timed over {:.1} s: {:.2} turns/s, {} of {} moves accepted, {:.0} moves/s",
                self.delays.turns,
                self.delays.span_s,
                self.turns_per_second,
                self.moves_accepted,
                self.moves_sent,
                self.moves_per_second
            ),
            format!(
                "turn start to the last client's turn message: median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
                self.delays.median_ms, self.delays.p99_ms, self.delays.max_ms
            ),
            format!(
                "server: longest turn-loop stall {stall}, peak memory {memory}; clients got {} messages, {:.1} MB",
                self.messages,
                self.bytes as f64 / 1e6
            ),
        ];
        if self.delays.partial > 0 {
            lines.push(format!(
                "{} turns were not heard of by every client still playing (the fewest: {} clients)",
                self.delays.partial, self.delays.fewest_heard
            ));
        }
        if let Some(summary) = &self.server_summary {
            lines.push(format!("the server's summary: {summary}"));
        }
        if self.clients_failed > 0 {
            lines.push(format!(
                "{} clients failed; the first trouble: {}",
                self.clients_failed,
                self.first_trouble.as_deref().unwrap_or("none said")
            ));
        }
        lines
    }
}

/// A scratch folder for the server's database, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The server process, killed if still running when dropped.
struct ServerProcess {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ServerProcess {
    /// The server on `db` (the value of its `--db`).
    fn start(config: &LoadConfig, scratch: &Scratch, db: &str) -> Result<ServerProcess, String> {
        let (program, before) = config
            .server
            .split_first()
            .ok_or("--server names no program")?;
        let mut command = Command::new(program);
        command
            .args(before)
            .arg("world")
            .arg("--db")
            .arg(db)
            .args(["--listen", "127.0.0.1:0", "--simulate"])
            .args(["--wait-players", &config.players.to_string()])
            .args(["--turns", &config.turns.to_string()])
            .args([
                "--size",
                &config.width.to_string(),
                &config.height.to_string(),
            ])
            .args(["--max-connections", &(config.players + 16).to_string()])
            .args(["--standings-every", "0"])
            .args(["--turn-ms", &config.turn_ms.to_string()])
            .args(["--window", &config.window.to_string()])
            .args(["--seed", &config.seed.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(
                std::fs::File::create(scratch.0.join("server.err"))
                    .map_err(|error| format!("server.err: {error}"))?,
            ));
        let mut child = command
            .spawn()
            .map_err(|error| format!("cannot start {program}: {error}"))?;
        let stdout = child.stdout.take().ok_or("the server has no output")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(ServerProcess { child, lines })
    }

    /// The next line that starts with `prefix`, within `limit`.
    fn line_starting(&self, prefix: &str, limit: Duration) -> Option<String> {
        let end = Instant::now() + limit;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Some(line),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }
}

/// The number after `before` in `text` (`longest stall 11.4 ms`, say).
fn number_after(text: &str, before: &str) -> Option<f64> {
    let rest = &text[text.find(before)? + before.len()..];
    rest.split_whitespace().next()?.parse().ok()
}

/// The pieces on the board, from the server's `/status` (plain HTTP on the same port).
fn status_pieces(address: &str) -> Option<u64> {
    let mut stream = std::net::TcpStream::connect(address).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let request = format!("GET /status HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let body = &answer[answer.find("\r\n\r\n")? + 4..];
    let status: serde_json::Value = serde_json::from_str(body).ok()?;
    status.get("pieces")?.as_u64()
}

/// Runs the load and reports it.
pub fn run(config: &LoadConfig) -> Result<LoadReport, String> {
    let scratch = Scratch(std::env::temp_dir().join(format!(
        "roger-world-load-{}-{}",
        std::process::id(),
        config.seed
    )));
    let _ = std::fs::remove_dir_all(&scratch.0);
    std::fs::create_dir_all(&scratch.0).map_err(|error| format!("scratch folder: {error}"))?;
    let database = match &config.postgres {
        Some(server) => Some(ScratchDatabase::new(server, "world_load")?),
        None => None,
    };
    let db = match &database {
        Some(database) => database.url().secret().to_string(),
        None => scratch.0.join("world.sqlite").display().to_string(),
    };
    let mut server = ServerProcess::start(config, &scratch, &db)?;
    let listening = server
        .line_starting("listening ", Duration::from_secs(30))
        .ok_or_else(|| {
            let errors = std::fs::read_to_string(scratch.0.join("server.err")).unwrap_or_default();
            format!("the server did not say 'listening': {}", errors.trim())
        })?;
    let address = listening["listening ".len()..].trim().to_string();
    let origin = Instant::now();
    let times = Arc::new(TurnTimes::new(origin));
    // The server is running at its own priority; from here on this thread and every thread it
    // starts (the planners, the clients' runtime) run at the lower one.
    crate::common::priority::lower_this_thread(config.nice);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let setup = Arc::new(ClientSetup {
        url: format!("ws://{address}/ws"),
        moves: config.moves,
        seed: config.seed,
        planners: Planners::start(cores, Arc::clone(&times))?,
        times: Arc::clone(&times),
        connecting: Arc::new(tokio::sync::Semaphore::new(config.connect_at_once.max(1))),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the clients' runtime: {error}"))?;
    // The pieces are counted once the first turn has begun (every army placed).
    let clients_done = Arc::new(AtomicBool::new(false));
    let status = {
        let (times, address) = (Arc::clone(&times), address.clone());
        let clients_done = Arc::clone(&clients_done);
        std::thread::spawn(move || {
            while times.first_start().is_none() {
                if clients_done.load(Ordering::Relaxed) {
                    return None;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            status_pieces(&address)
        })
    };
    let limit = Duration::from_millis(config.turn_ms) * (config.turns as u32 + 2)
        + Duration::from_secs(300);
    let reports: Vec<ClientReport> = runtime.block_on(async {
        let tasks: Vec<_> = (0..config.players as u64)
            .map(|index| tokio::spawn(client::run(index, Arc::clone(&setup))))
            .collect();
        let mut reports = Vec::with_capacity(tasks.len());
        let deadline = tokio::time::Instant::now() + limit;
        for task in tasks {
            match tokio::time::timeout_at(deadline, task).await {
                Ok(Ok(report)) => reports.push(report),
                Ok(Err(error)) => reports.push(ClientReport {
                    trouble: Some(format!("client task: {error}")),
                    ..ClientReport::default()
                }),
                Err(_) => reports.push(ClientReport {
                    trouble: Some("still running past the run's time limit".into()),
                    ..ClientReport::default()
                }),
            }
        }
        reports
    });
    runtime.shutdown_timeout(Duration::from_secs(1));
    clients_done.store(true, Ordering::Relaxed);
    let summary = server.line_starting("done:", Duration::from_secs(60));
    let _ = server.child.wait();
    let delays = times.delays(config.players as u64);
    let moves_accepted = reports.iter().map(|r| r.moves_accepted).sum();
    let per_second = |count: f64| {
        if delays.span_s > 0.0 {
            count / delays.span_s
        } else {
            0.0
        }
    };
    let failed: Vec<&ClientReport> = reports
        .iter()
        .filter(|r| !r.joined || !r.closed_by_world || r.trouble.is_some())
        .collect();
    Ok(LoadReport {
        players: config.players,
        pieces: status.join().ok().flatten(),
        join_s: times.first_start().map_or(0.0, |start| start.as_secs_f64()),
        turns_per_second: per_second(delays.turns.saturating_sub(1) as f64),
        moves_sent: reports.iter().map(|r| r.moves_sent).sum(),
        moves_accepted,
        moves_per_second: per_second(moves_accepted as f64),
        messages: reports.iter().map(|r| r.messages).sum(),
        bytes: reports.iter().map(|r| r.bytes).sum(),
        max_stall_ms: summary
            .as_deref()
            .and_then(|line| number_after(line, "longest stall ")),
        peak_memory_kib: summary
            .as_deref()
            .and_then(|line| number_after(line, "peak memory "))
            .map(|kib| kib as u64),
        server_summary: summary,
        clients_failed: failed.len(),
        first_trouble: failed.iter().find_map(|r| r.trouble.clone()),
        delays,
    })
}

/// `roger world-load`.
pub fn command(config: &LoadConfig) -> ExitCode {
    match run(config) {
        Ok(report) => {
            for line in report.lines() {
                println!("{line}");
            }
            if report.clients_failed > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(error) => {
            eprintln!("roger world-load: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_numbers_are_read_from_the_servers_line() {
        let line = "done: 100 turns in 1.5 s (66.7 turns/s), last turn 100, longest stall 11.4 ms, peak memory 39872 KiB (max-turns)";
        assert_eq!(number_after(line, "longest stall "), Some(11.4));
        assert_eq!(number_after(line, "peak memory "), Some(39872.0));
        assert_eq!(number_after(line, "no such words "), None);
    }
}
