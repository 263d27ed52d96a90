//! The counts of a fuzzing run, the failures with their reproducers, and their printing.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Every kind of failure the checks know, in the order the report lists them.
pub const FAILURE_KINDS: &[&str] = &[
    "crashes",
    "hangs",
    "internal errors",
    "illegal moves",
    "illegal moves (python-chess)",
    "illegal ponder moves",
    "late answers",
    "PV mismatches",
    "silent bad inputs",
    "unexpected errors",
    "double errors",
    "double answers",
    "early answers",
    "missing answers",
    "unexpected lines",
    "variant announcements",
    "display mismatches",
    "perft mismatches",
    "bad exits",
];

/// One failure: where, what, and the lines that lead to it.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    pub kind: &'static str,
    /// The line number of the run (from 1).
    pub line: u64,
    pub what: String,
    /// `printf '...' | roger`: the lines since the last `position`, and the failing one.
    pub reproducer: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub seed: u64,
    pub lines: u64,
    pub elapsed_ms: u64,
    pub python_chess: bool,
    /// Lines by the game selected when they were sent.
    pub by_game: BTreeMap<String, u64>,
    /// Lines by what the generator made of them.
    pub by_kind: BTreeMap<String, u64>,
    pub accepted_lines: u64,
    pub bad_lines: u64,
    /// Lines sent while a search, perft or bench ran.
    pub interleaved_lines: u64,
    pub errors_expected: u64,
    pub errors_seen: u64,
    /// Accepted `go` commands.
    pub searches: u64,
    pub bestmoves: u64,
    /// Best moves judged legal by the second engine instance.
    pub bestmoves_checked_own: u64,
    /// Chess best moves judged by python-chess.
    pub bestmoves_checked_python: u64,
    pub ponder_moves_checked: u64,
    /// `bestmove 0000`, each checked against the rules' empty move list.
    pub null_moves: u64,
    /// Best moves compared with the last info line's PV.
    pub pv_checked: u64,
    pub perfts: u64,
    pub benches: u64,
    pub displays_checked: u64,
    pub quits: u64,
    /// Engines started again after a failure or a `quit`.
    pub restarts: u64,
    /// Realtime: one-shot `bestmove` orders and streamed `order`s judged by the simulator.
    pub orders_checked: u64,
    /// Realtime: orders the fuzzer, as referee, started (the rest it refused).
    pub orders_started: u64,
    /// Megachess: `bestturn` answers, and their moves replayed by the rules.
    pub bestturns: u64,
    pub bestturn_moves_replayed: u64,
    /// Timed answers (realtime `go side`, Megachess `go movetime`) and the most any of them
    /// took beyond its `movetime`, in ms.
    pub timed_answers: u64,
    pub slowest_overrun_ms: u64,
    /// Variant switches sent while a search, plan or stream ran.
    pub switches_during_jobs: u64,
    /// `d` replies whose state (realtime) or world (Megachess) was compared with the model.
    pub states_checked: u64,
    /// Failures by kind (every kind listed, zeros included).
    pub failures: BTreeMap<&'static str, u64>,
    /// Realtime and Megachess runs: failures by kind and by the kind of line that showed them.
    pub failures_by_line: BTreeMap<String, u64>,
    /// The first failures in full.
    pub failure_details: Vec<Failure>,
}

/// How many failures are kept in full.
pub const DETAILS_KEPT: usize = 50;

impl Report {
    pub fn new(seed: u64, python_chess: bool) -> Report {
        Report {
            seed,
            python_chess,
            failures: FAILURE_KINDS.iter().map(|&kind| (kind, 0)).collect(),
            ..Report::default()
        }
    }

    /// Adds another run's counts (of another family) to these.
    pub fn absorb(&mut self, other: Report) {
        self.lines += other.lines;
        self.elapsed_ms += other.elapsed_ms;
        for (game, count) in other.by_game {
            *self.by_game.entry(game).or_default() += count;
        }
        for (kind, count) in other.by_kind {
            *self.by_kind.entry(kind).or_default() += count;
        }
        let sums = [
            (&mut self.accepted_lines, other.accepted_lines),
            (&mut self.bad_lines, other.bad_lines),
            (&mut self.interleaved_lines, other.interleaved_lines),
            (&mut self.errors_expected, other.errors_expected),
            (&mut self.errors_seen, other.errors_seen),
            (&mut self.searches, other.searches),
            (&mut self.bestmoves, other.bestmoves),
            (&mut self.bestmoves_checked_own, other.bestmoves_checked_own),
            (
                &mut self.bestmoves_checked_python,
                other.bestmoves_checked_python,
            ),
            (&mut self.ponder_moves_checked, other.ponder_moves_checked),
            (&mut self.null_moves, other.null_moves),
            (&mut self.pv_checked, other.pv_checked),
            (&mut self.perfts, other.perfts),
            (&mut self.benches, other.benches),
            (&mut self.displays_checked, other.displays_checked),
            (&mut self.quits, other.quits),
            (&mut self.restarts, other.restarts),
            (&mut self.orders_checked, other.orders_checked),
            (&mut self.orders_started, other.orders_started),
            (&mut self.bestturns, other.bestturns),
            (
                &mut self.bestturn_moves_replayed,
                other.bestturn_moves_replayed,
            ),
            (&mut self.timed_answers, other.timed_answers),
            (&mut self.switches_during_jobs, other.switches_during_jobs),
            (&mut self.states_checked, other.states_checked),
        ];
        for (mine, theirs) in sums {
            *mine += theirs;
        }
        self.slowest_overrun_ms = self.slowest_overrun_ms.max(other.slowest_overrun_ms);
        for (key, count) in other.failures_by_line {
            *self.failures_by_line.entry(key).or_default() += count;
        }
        for (kind, count) in other.failures {
            *self.failures.entry(kind).or_default() += count;
        }
        let room = DETAILS_KEPT.saturating_sub(self.failure_details.len());
        self.failure_details
            .extend(other.failure_details.into_iter().take(room));
    }

    pub fn failure_count(&self) -> u64 {
        self.failures.values().sum()
    }

    pub fn add_failure(&mut self, failure: Failure) {
        let count = self.failures.entry(failure.kind).or_default();
        *count += 1;
        // The first ones, and the first few of every kind (a rare kind behind a common one).
        let first_of_kind = *count <= 3 && self.failure_details.len() < 4 * DETAILS_KEPT;
        if self.failure_details.len() < DETAILS_KEPT || first_of_kind {
            self.failure_details.push(failure);
        }
    }

    pub fn count_kind(&mut self, kind: &str) {
        *self.by_kind.entry(kind.to_string()).or_default() += 1;
    }

    /// The counts as text, one figure a line.
    pub fn summary(&self) -> String {
        let mut text = String::new();
        let seconds = self.elapsed_ms as f64 / 1000.0;
        let _ = writeln!(
            text,
            "protocol fuzz: seed {}, {} lines in {seconds:.1} s ({:.0} lines/s)",
            self.seed,
            self.lines,
            self.lines as f64 / seconds.max(0.001)
        );
        let games: Vec<String> = self
            .by_game
            .iter()
            .map(|(g, n)| format!("{g} {n}"))
            .collect();
        let _ = writeln!(text, "lines by game: {}", games.join(", "));
        let _ = writeln!(text, "lines by kind:");
        for (kind, count) in &self.by_kind {
            let _ = writeln!(text, "  {count:>9}  {kind}");
        }
        let figures = [
            ("accepted lines", self.accepted_lines),
            ("bad lines", self.bad_lines),
            ("lines sent during a job", self.interleaved_lines),
            ("errors expected", self.errors_expected),
            ("errors seen", self.errors_seen),
            ("searches (accepted go)", self.searches),
            ("bestmoves", self.bestmoves),
            (
                "bestmoves checked by a second roger",
                self.bestmoves_checked_own,
            ),
            (
                "bestmoves checked by python-chess",
                self.bestmoves_checked_python,
            ),
            ("ponder moves checked", self.ponder_moves_checked),
            ("bestmove 0000 checked", self.null_moves),
            ("PVs checked", self.pv_checked),
            ("perfts", self.perfts),
            ("benches", self.benches),
            ("displays checked", self.displays_checked),
            (
                "realtime orders judged by the simulator",
                self.orders_checked,
            ),
            (
                "realtime orders started by the referee",
                self.orders_started,
            ),
            ("megachess bestturns", self.bestturns),
            (
                "megachess moves replayed by the rules",
                self.bestturn_moves_replayed,
            ),
            ("timed answers", self.timed_answers),
            (
                "slowest answer past its movetime (ms)",
                self.slowest_overrun_ms,
            ),
            ("variant switches during a job", self.switches_during_jobs),
            ("states and worlds shown by d checked", self.states_checked),
            ("quits", self.quits),
            ("restarts", self.restarts),
        ];
        for (name, count) in figures {
            let _ = writeln!(text, "{name}: {count}");
        }
        if !self.python_chess {
            let _ = writeln!(
                text,
                "python-chess check: OFF (--no-python-chess, or only realtime and Megachess)"
            );
        }
        let _ = writeln!(text, "failures: {}", self.failure_count());
        for (kind, count) in &self.failures {
            let _ = writeln!(text, "  {count:>9}  {kind}");
        }
        if !self.failures_by_line.is_empty() {
            let _ = writeln!(text, "failures by the line that showed them:");
            for (key, count) in &self.failures_by_line {
                let _ = writeln!(text, "  {count:>9}  {key}");
            }
        }
        text
    }
}

/// A line as `printf` reads it back: printable ASCII as is, the rest escaped.
pub fn printf_escape(bytes: &[u8]) -> String {
    let mut text = String::new();
    for &byte in bytes {
        match byte {
            b'\\' => text.push_str("\\\\"),
            b'%' => text.push_str("%%"),
            b'\'' => text.push_str("\\047"),
            b'\n' => text.push_str("\\n"),
            0x20..=0x7e => text.push(byte as char),
            _ => {
                let _ = write!(text, "\\x{byte:02x}");
            }
        }
    }
    text
}

/// The lines as a shell command that feeds them to the engine; lines too long to show are
/// described instead.
pub fn reproducer(seed: u64, line: u64, lines: &[Vec<u8>]) -> String {
    const SHOWN: usize = 4000;
    let mut shown = String::new();
    let mut long = 0;
    for bytes in lines {
        if bytes.len() > SHOWN {
            long += 1;
            let start = printf_escape(&bytes[..80]);
            let _ = write!(
                shown,
                "<a line of {} bytes starting '{start}'>\\n",
                bytes.len()
            );
        } else {
            shown.push_str(&printf_escape(bytes));
        }
    }
    let mut text = format!(
        "seed {seed}, line {line}; the lines since the last position:\n  printf '{shown}isready\\n' | target/release/roger"
    );
    if long > 0 {
        let _ = write!(
            text,
            "\n  ({long} line(s) too long to show; `roger fuzz protocol --seed {seed} --lines {line}` replays the run)"
        );
    }
    text
}
