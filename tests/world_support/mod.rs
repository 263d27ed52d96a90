//! What the world server's tests share: a real `roger world` process on a loopback port, a
//! WebSocket client speaking the JSON API, HTTP reads. Every wait is bounded; every process is
//! killed when its handle drops.

use roger::world::api::{ClientMessage, ServerMessage, TeamChoice};
use roger::world::store::{ScratchDatabase, StorePlace};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub const ROGER: &str = env!("CARGO_BIN_EXE_roger");

/// A fresh folder for one test's files, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        // A counter, not a clock: the sqlite and PostgreSQL runs of one scenario run at once in
        // this process, and a folder they shared would be removed under one by the other.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "roger-world-{name}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Where a test's world is stored: a file in a fresh folder, or a PostgreSQL database of its
/// own on the server `ROGER_TEST_POSTGRES` names. The same scenario runs on both.
pub enum TestDb {
    /// The folder lives as long as the test's file.
    File(#[allow(dead_code)] TempDir, PathBuf),
    Postgres(ScratchDatabase),
}

impl TestDb {
    pub fn sqlite(name: &str) -> TestDb {
        let dir = TempDir::new(name);
        let path = dir.join("world.sqlite");
        TestDb::File(dir, path)
    }

    /// `None` when `ROGER_TEST_POSTGRES=skip`.
    pub fn postgres(name: &str) -> Option<TestDb> {
        ScratchDatabase::for_test(name).map(TestDb::Postgres)
    }

    /// The value of `--db`.
    pub fn arg(&self) -> String {
        match self {
            TestDb::File(_, path) => path.to_str().unwrap().to_string(),
            TestDb::Postgres(database) => database.url().secret().to_string(),
        }
    }

    pub fn place(&self) -> StorePlace {
        StorePlace::parse(&self.arg())
    }

    /// How the server's messages name it (a URL without its password).
    pub fn shown(&self) -> String {
        self.place().to_string()
    }
}

/// Runs each scenario named once on an SQLite file and once on a PostgreSQL database, as
/// `NAME::sqlite` and `NAME::postgres`: `fn NAME(db: &TestDb)`.
#[macro_export]
macro_rules! on_both_stores {
    ($($test:ident),* $(,)?) => {$(
        mod $test {
            #[test]
            fn sqlite() {
                super::$test(&$crate::world_support::TestDb::sqlite(stringify!($test)));
            }

            #[test]
            fn postgres() {
                if let Some(db) = $crate::world_support::TestDb::postgres(stringify!($test)) {
                    super::$test(&db);
                }
            }
        }
    )*};
}

/// A running `roger world`: its address, and its standard output line by line.
pub struct Server {
    pub child: Child,
    pub addr: String,
    pub lines: mpsc::Receiver<String>,
}

impl Server {
    /// Starts `roger world --listen 127.0.0.1:0 --db DB ARGS...` and waits for `listening`.
    pub fn start(db: impl AsRef<OsStr>, args: &[&str]) -> Server {
        Server::start_on(db, "127.0.0.1:0", args)
    }

    pub fn start_on(db: impl AsRef<OsStr>, listen: &str, args: &[&str]) -> Server {
        let mut child = Command::new(ROGER)
            .arg("world")
            .arg("--listen")
            .arg(listen)
            .arg("--db")
            .arg(db)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("roger starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(20))
            .expect("roger world says where it listens");
        let addr = first
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("first line: {first}"))
            .trim()
            .to_string();
        Server { child, addr, lines }
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Waits for a line of output that contains `text`; the lines read on the way.
    pub fn wait_line(&self, text: &str, timeout: Duration) -> Vec<String> {
        let end = Instant::now() + timeout;
        let mut seen = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(text);
                    seen.push(line);
                    if found {
                        return seen;
                    }
                }
                Err(_) => break,
            }
        }
        panic!("no line with '{text}' within {timeout:?}; saw {seen:?}");
    }

    /// Waits for the process to end by itself; its exit code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("roger world did not end within {timeout:?}");
    }

    /// SIGKILL.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A WebSocket client of the world server.
pub struct Client {
    pub socket: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub fn connect(url: &str) -> Client {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            match tungstenite::connect(url) {
                Ok((socket, _)) => {
                    if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_ref() {
                        stream
                            .set_read_timeout(Some(Duration::from_millis(100)))
                            .unwrap();
                    }
                    return Client { socket };
                }
                Err(error) if Instant::now() > end => panic!("cannot connect to {url}: {error}"),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    pub fn send(&mut self, message: &ClientMessage) {
        let text = serde_json::to_string(message).unwrap();
        self.send_text(&text);
    }

    pub fn send_text(&mut self, text: &str) {
        self.socket.send(Message::text(text)).expect("send");
    }

    /// The next server message, or `None` when nothing comes within `timeout` or the
    /// connection closed.
    pub fn recv(&mut self, timeout: Duration) -> Option<ServerMessage> {
        let end = Instant::now() + timeout;
        loop {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    return Some(
                        serde_json::from_str(text.as_str())
                            .unwrap_or_else(|error| panic!("server sent '{text}': {error}")),
                    )
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(error))
                    if matches!(
                        error.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    if Instant::now() > end {
                        return None;
                    }
                }
                Err(_) => return None,
            }
        }
    }

    /// Reads until a message `pick` accepts; panics after `timeout`. The messages skipped
    /// on the way are returned too.
    pub fn until<T>(
        &mut self,
        timeout: Duration,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> (T, Vec<ServerMessage>) {
        let end = Instant::now() + timeout;
        let mut skipped = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.recv(left) {
                Some(message) => match pick(&message) {
                    Some(found) => return (found, skipped),
                    None => skipped.push(message),
                },
                None => break,
            }
        }
        panic!("not found within {timeout:?}; skipped {skipped:?}");
    }

    /// Whether the server closed the connection within `timeout` (reading what comes first).
    pub fn closed_within(&mut self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            match self.socket.read() {
                Ok(Message::Close(_)) => return true,
                Ok(_) => {}
                Err(tungstenite::Error::Io(error))
                    if matches!(
                        error.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(_) => return true,
            }
        }
        false
    }

    /// Joins `team`; the player's id and token.
    pub fn join(&mut self, team: TeamChoice, name: &str) -> (u32, String) {
        self.send(&ClientMessage::Join {
            team,
            name: Some(name.to_string()),
        });
        let (joined, _) = self.until(Duration::from_secs(10), |message| match message {
            ServerMessage::Joined { player, token, .. } => Some((*player, token.clone())),
            _ => None,
        });
        joined
    }

    /// Waits for this player's next turn to move; its turn number and position line.
    pub fn my_turn(&mut self, timeout: Duration) -> (u64, String) {
        self.my_turn_seeing(timeout).0
    }

    /// The same, with the messages that came before it.
    pub fn my_turn_seeing(&mut self, timeout: Duration) -> ((u64, String), Vec<ServerMessage>) {
        self.until(timeout, |message| match message {
            ServerMessage::Turn {
                turn,
                you_move: true,
                position: Some(position),
                ..
            } => Some((*turn, position.clone())),
            _ => None,
        })
    }

    /// Sends a whole turn and waits for its result.
    pub fn play_turn(&mut self, moves: &[&str]) -> Vec<roger::world::api::MoveResult> {
        self.send(&ClientMessage::Turn {
            moves: moves.iter().map(|m| m.to_string()).collect(),
        });
        self.until(Duration::from_secs(10), |message| match message {
            ServerMessage::TurnResult { results, .. } => Some(results.clone()),
            _ => None,
        })
        .0
    }
}

/// `GET path` over plain HTTP: the status code and the body.
pub fn http_get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read answer");
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("answer: {response}"));
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default();
    (status, body)
}

/// The JSON value of `GET path`, which must answer 200.
pub fn http_json(addr: &str, path: &str) -> serde_json::Value {
    let (status, body) = http_get(addr, path);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|error| panic!("{path}: {error}: {body}"))
}
