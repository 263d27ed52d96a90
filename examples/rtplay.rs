//! A realtime game played on from a state, polled lockstep every 100 ms game time, 50 ms a
//! decision: Roger's planner against itself, the arrival player, or any engine binary driven over
//! the protocol (`position state`, `go side`), such as an older build of Roger. Won endings that
//! ran into the no-capture draw, replayed from their last capture, test a change to the hunt
//! against the very opponent that drew them.
//!
//! `cargo run --release --example rtplay -- "STATE" w|b OPPONENT MAX_S [v]`: Roger plays White
//! (`w`) or Black (`b`); OPPONENT is `roger`, `arrival` or a path; the game stops after MAX_S
//! seconds of game time; `v` prints every order. It prints the removals, the ending and the
//! last state.
use roger::plan::realtime::RealtimePlanner;
use roger::plan::RealtimePlayer;
use roger::players::arrival::ArrivalRealtimePlayer;
use roger::rules::realtime::{Color, Order, RealtimeParams, RealtimeState};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A decision maker: the order for a side in a state, or none.
type Decide = Box<dyn FnMut(&RealtimeState, Color) -> Option<Order>>;

/// An engine over the protocol.
struct Process {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

impl Process {
    fn new(path: &str) -> Process {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut p = Process {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
        };
        p.send("uci");
        p.until("uciok");
        p.send("setoption name UCI_Variant value realtime");
        p.send("isready");
        p.until("readyok");
        p
    }
    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }
    fn until(&mut self, prefix: &str) -> String {
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).unwrap() == 0 {
                panic!("engine closed");
            }
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }
    fn decide(&mut self, state: &RealtimeState, side: Color) -> Option<Order> {
        self.send(&format!("position state {}", state.text()));
        let c = if side == Color::White {
            "white"
        } else {
            "black"
        };
        self.send(&format!("go side {c} movetime 50"));
        let line = self.until("bestmove");
        let text = line.split_whitespace().nth(1).unwrap_or("none");
        Order::parse(text).ok()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut state = RealtimeState::from_text(&args[1], RealtimeParams::default()).unwrap();
    let roger_side = if args[2] == "w" {
        Color::White
    } else {
        Color::Black
    };
    let max_ms = state.now() + args[4].parse::<u64>().unwrap() * 1000;
    let verbose = args.len() > 5;
    let mut roger = RealtimePlanner::new();
    let mut other: Decide = match args[3].as_str() {
        "roger" => {
            let mut p = RealtimePlanner::new();
            Box::new(move |s, c| p.decide(s, c, Duration::from_millis(50)))
        }
        "arrival" => {
            let mut p = ArrivalRealtimePlayer::new(0);
            Box::new(move |s, c| p.decide(s, c, Duration::from_millis(50)))
        }
        path => {
            let mut p = Process::new(path);
            Box::new(move |s, c| p.decide(s, c))
        }
    };
    let mut events = Vec::new();
    let mut first = Color::White;
    let mut t = state.now();
    while t <= max_ms && state.outcome().is_none() {
        state.advance_to(t, &mut events);
        for side in [first, first.flip()] {
            if state.outcome().is_some() {
                break;
            }
            let order = if side == roger_side {
                roger.decide(&state, side, Duration::from_millis(50))
            } else {
                other(&state, side)
            };
            if let Some(order) = order {
                if state.apply(side, order, &mut events).is_ok() && verbose {
                    println!("{t} {side:?} {order}");
                }
            }
        }
        first = first.flip();
        t += 100;
    }
    for e in &events {
        let text = e.to_string();
        if text.contains("remove") {
            println!("{text}");
        }
    }
    println!("end {} outcome {:?}", state.now(), state.outcome());
    println!("{}", state.text());
}
