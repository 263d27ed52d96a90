//! The browser tests' driver: a `roger serve` child, and a real headless Chromium driven over
//! WebDriver (Debian's `chromium` and `chromium-driver`, which `.ci/run` installs). The WebDriver
//! client is a few plain HTTP/1.1 requests to `chromedriver` on loopback.
//!
//! Every wait is bounded, the children are killed when a test ends, and the screenshots go to
//! `target/tmp/screenshots/` (the test prints the path).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One browser at a time: two cores do not run two Chromiums and engines well, and waits are
/// timed.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// A child process killed on drop.
pub struct ChildGuard(pub Child);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `roger <args>` started and its first line (`listening http://HOST:PORT/`) read; further
/// stdout lines are kept in `lines`.
pub struct Served {
    pub child: ChildGuard,
    /// `http://HOST:PORT` without the last slash.
    pub base: String,
    pub lines: std::sync::mpsc::Receiver<String>,
}

impl Served {
    /// `roger serve --listen 127.0.0.1:0 --no-world` plus `extra`.
    pub fn start(extra: &[&str]) -> Served {
        let mut args = vec!["serve", "--listen", "127.0.0.1:0"];
        if !extra.contains(&"--world") {
            args.push("--no-world");
        }
        args.extend_from_slice(extra);
        Served::command(&args, "listening http://")
    }

    /// Any `roger` command whose first stdout line starts with `prefix` followed by the address.
    pub fn command(args: &[&str], prefix: &str) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_roger"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start roger");
        let stdout = child.stdout.take().expect("piped");
        let child = ChildGuard(child);
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("roger {args:?} printed nothing"));
        let address = first
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("roger {args:?} said '{first}', not '{prefix}...'"))
            .trim_end_matches('/')
            .to_string();
        let base = if address.starts_with("http") {
            address
        } else {
            format!("http://{address}")
        };
        Served { child, base, lines }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

/// A free loopback port (free when asked; good enough for a child that binds it at once).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// A plain HTTP/1.1 request; the status and the body as JSON (`Value::Null` when not JSON).
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
    http_within(port, method, path, body, Duration::from_secs(120))
}

/// [`http`] with its own bound on each read.
fn http_within(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
    read_timeout: Duration,
) -> Result<(u16, Value), String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(read_timeout))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| e.to_string())?;
    // Read the head, then exactly Content-Length bytes: the driver may keep the connection open.
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            break;
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or("no status")?;
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())?
    });
    let mut bytes = Vec::new();
    match length {
        Some(length) => {
            bytes.resize(length, 0);
            reader.read_exact(&mut bytes).map_err(|e| e.to_string())?;
        }
        None => {
            reader.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
        }
    }
    let body = String::from_utf8_lossy(&bytes);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        unchunk(&body)
    } else {
        body.into_owned()
    };
    Ok((status, serde_json::from_str(&body).unwrap_or(Value::Null)))
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

fn driver_path() -> &'static str {
    ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .find(|path| std::path::Path::new(path).exists())
        .expect("chromedriver is not installed: .ci/run installs Debian's chromium-driver")
}

/// chromedriver listening on a free port; the port and the child. A port found free can be
/// taken again before chromedriver binds it (a test with hundreds of client sockets draws from
/// the same ephemeral range): chromedriver then exits, and it is started again on another port.
fn start_driver(driver_path: &str, mut next_port: impl FnMut() -> u16) -> (u16, ChildGuard) {
    let mut exits = Vec::new();
    for _ in 0..5 {
        let port = next_port();
        let mut driver = ChildGuard(
            Command::new(driver_path)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start chromedriver"),
        );
        // Bounded only against a chromedriver that neither listens nor exits.
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            // A short read bound: something else listening on the port may never answer, and
            // a slow answer is only asked again.
            let probe = http_within(port, "GET", "/status", None, Duration::from_secs(2));
            if let Ok((200, status)) = probe {
                if status["value"]["ready"] == true {
                    return (port, driver);
                }
            }
            if let Ok(Some(exit)) = driver.0.try_wait() {
                exits.push(format!("port {port}: {exit}"));
                break;
            }
            assert!(
                Instant::now() < deadline,
                "chromedriver on port {port} neither answered nor exited in 120 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    panic!(
        "chromedriver exited {} times: {}",
        exits.len(),
        exits.join("; ")
    );
}

/// A headless Chromium session.
pub struct Browser {
    port: u16,
    session: String,
    _driver: ChildGuard,
    _profile: TempDir,
    _one: MutexGuard<'static, ()>,
    /// Where this test's screenshots go.
    pub shots: PathBuf,
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Browser {
    /// Starts chromedriver and a headless Chromium of 1280 x 900.
    pub fn start() -> Browser {
        let one = ONE_BROWSER
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let (port, driver) = start_driver(driver_path(), free_port);
        let profile =
            std::env::temp_dir().join(format!("roger-chromium-{}-{port}", std::process::id()));
        let _ = std::fs::create_dir_all(&profile);
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,900",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let capabilities = json!({
            "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": { "binary": "/usr/bin/chromium", "args": args },
                "goog:loggingPrefs": { "browser": "ALL" },
            }}
        });
        let (status, answer) =
            http(port, "POST", "/session", Some(&capabilities)).expect("new session");
        assert_eq!(status, 200, "new session: {answer}");
        let session = answer["value"]["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&shots).expect("the screenshot folder");
        Browser {
            port,
            session,
            _driver: driver,
            _profile: TempDir(profile),
            _one: one,
            shots,
        }
    }

    /// A WebDriver command of this session; its `value`. Panics with the driver's message.
    pub fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        match self.try_command(method, path, body.as_ref()) {
            Ok(value) => value,
            Err(answer) => panic!("{method} {path}: {answer}"),
        }
    }

    /// A WebDriver command; its `value`, or the driver's whole answer when it refused.
    fn try_command(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Value> {
        let path = format!("/session/{}{path}", self.session);
        let (status, answer) = http(self.port, method, &path, body)
            .unwrap_or_else(|error| panic!("{method} {path}: {error}"));
        if status == 200 {
            Ok(answer["value"].clone())
        } else {
            Err(answer)
        }
    }

    /// A command on the first match of `css` (`/element/<id><action>`). A page that redraws
    /// between finding the element and using it leaves a stale element: it is found again.
    fn on_element(&self, css: &str, method: &str, action: &str, body: Option<Value>) -> Value {
        for _ in 0..20 {
            let id = self.find(css);
            match self.try_command(method, &format!("/element/{id}{action}"), body.as_ref()) {
                Ok(value) => return value,
                Err(answer) if answer["value"]["error"] == "stale element reference" => {
                    std::thread::sleep(Duration::from_millis(25));
                }
                Err(answer) => panic!("{method} {css} {action}: {answer}"),
            }
        }
        panic!("{css} went stale 20 times in a row");
    }

    /// Sets the window's outer size (a phone's 390 x 844, say).
    pub fn resize(&self, width: u32, height: u32) {
        let rect = json!({ "width": width, "height": height });
        self.command("POST", "/window/rect", Some(rect));
    }

    /// Presses and lets go of one key, by its WebDriver code (`"\u{E012}"` is the left arrow).
    pub fn press(&self, key: &str) {
        let actions = json!({ "actions": [{
            "type": "key", "id": "keyboard",
            "actions": [{ "type": "keyDown", "value": key }, { "type": "keyUp", "value": key }]
        }]});
        self.command("POST", "/actions", Some(actions));
        self.command("DELETE", "/actions", None);
    }

    /// A finger's tap at a page point (a touch pointer, as a phone's screen sends).
    pub fn tap(&self, at: (i64, i64)) {
        let actions = json!({ "actions": [{
            "type": "pointer", "id": "finger", "parameters": { "pointerType": "touch" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": "viewport", "x": at.0, "y": at.1 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pointerUp", "button": 0 },
            ]
        }]});
        self.command("POST", "/actions", Some(actions));
        self.command("DELETE", "/actions", None);
    }

    /// Moves the real pointer from one page point to another with `button` held (0 the left,
    /// 2 the right).
    pub fn drag_between(&self, button: u8, from: (i64, i64), to: (i64, i64)) {
        let actions = json!({ "actions": [{
            "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": "viewport", "x": from.0, "y": from.1 },
                { "type": "pointerDown", "button": button },
                { "type": "pointerMove", "duration": 150, "origin": "viewport", "x": to.0, "y": to.1 },
                { "type": "pointerUp", "button": button },
            ]
        }]});
        self.command("POST", "/actions", Some(actions));
        self.command("DELETE", "/actions", None);
    }

    /// The page as a phone shows it: at 390 x 844, scrolled to the top, a screenshot named
    /// `<name>-phone`; then back to 1280 x 900. Returns whether the page scrolled sideways.
    pub fn phone_screenshot(&self, name: &str) -> bool {
        self.resize(390, 844);
        let sideways = self.run(
            "window.scrollTo(0, 0); \
             return document.documentElement.scrollWidth > document.documentElement.clientWidth;",
            json!([]),
        );
        self.screenshot(&format!("{name}-phone"));
        self.resize(1280, 900);
        sideways == json!(true)
    }

    pub fn goto(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` (a function body; `arguments` are `args`) and returns its value.
    pub fn run(&self, script: &str, args: Value) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Waits until `script` returns something truthy; returns it. Panics after `limit`,
    /// naming `what`.
    pub fn wait_for(&self, what: &str, script: &str, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let value = self.run(script, json!([]));
            let truthy = !matches!(&value, Value::Null | Value::Bool(false))
                && value != json!(0)
                && value != json!("");
            if truthy {
                return value;
            }
            if Instant::now() > deadline {
                let shot = self.screenshot(&format!("timeout-{}", what.replace(' ', "-")));
                panic!(
                    "waited {limit:?} for {what}; the page is in {}",
                    shot.display()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The element id of the first match of a CSS selector.
    pub fn find(&self, css: &str) -> String {
        let value = self.command(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        value
            .as_object()
            .and_then(|object| object.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// A real click (the driver moves the pointer there and presses) on the first match.
    pub fn click(&self, css: &str) {
        self.on_element(css, "POST", "/click", Some(json!({})));
    }

    /// Types `text` into the first match (after clearing it).
    pub fn type_into(&self, css: &str, text: &str) {
        self.on_element(css, "POST", "/clear", Some(json!({})));
        self.on_element(css, "POST", "/value", Some(json!({ "text": text })));
    }

    /// The visible text of the first match.
    pub fn text(&self, css: &str) -> String {
        self.on_element(css, "GET", "/text", None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Saves a PNG of the page as `<name>.png` in [`Browser::shots`] and prints where.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let data = self.command("GET", "/screenshot", None);
        let png = decode_base64(data.as_str().unwrap_or_default());
        let path = self.shots.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("write the screenshot");
        println!("screenshot: {}", path.display());
        path
    }

    /// The browser console's messages so far (errors included).
    pub fn console(&self) -> Vec<String> {
        let (_, answer) = http(
            self.port,
            "POST",
            &format!("/session/{}/se/log", self.session),
            Some(&json!({ "type": "browser" })),
        )
        .unwrap_or((0, Value::Null));
        answer["value"]
            .as_array()
            .map(|entries| {
                entries
                    .iter()
                    .map(|entry| format!("{} {}", entry["level"], entry["message"]))
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
    }
}

/// Standard base64 (the screenshot's encoding).
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut bits = 0u32;
        for (index, digit) in chunk.iter().enumerate() {
            bits |= digit << (18 - 6 * index);
        }
        let bytes = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

/// A port taken between the draw and chromedriver's bind (as in the world test that failed in
/// CI, its 625 players' sockets drawing from the same range) makes chromedriver exit; it is
/// started again on the next port.
#[test]
fn chromedriver_started_on_a_taken_port_starts_again_on_another() {
    let taken = TcpListener::bind("127.0.0.1:0").expect("a port to hold");
    let taken_port = taken.local_addr().unwrap().port();
    let mut drawn = 0;
    let (port, _driver) = start_driver(driver_path(), || {
        drawn += 1;
        if drawn == 1 {
            taken_port
        } else {
            free_port()
        }
    });
    assert_ne!(port, taken_port);
    assert_eq!(drawn, 2, "one exit, one start");
}
