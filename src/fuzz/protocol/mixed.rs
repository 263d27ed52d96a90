//! The driver of the realtime and Megachess runs (`roger fuzz protocol --family realtime` or
//! `megachess`): it keeps a model of each family's state in the engine (the realtime state and
//! parameters, the stream it referees, the last good world and Megachess parameters, the turn
//! game), plans each line from it with its expectation, sends it with `isready` after it, and
//! checks every line that comes back. Now and then it switches game, often while a search, a
//! plan or a stream runs, and visits the turn games before coming home.
//!
//! The line plans are in [`plan`]; what the engine must answer is checked here.

mod answers;
mod plan;

use super::check::error_verdict;
use super::megachess::{self as mega, Told};
use super::model;
use super::peer::{Launcher, Next, Peer};
use super::realtime::Referee;
use super::report::{reproducer, Failure, Report};
use super::step::Expect;
use crate::common::Rng;
use crate::rules::megachess::MegachessParams;
use crate::rules::realtime::{Color, RealtimeParams, RealtimeState};
use crate::rules::registry::TurnGame;
use std::time::{Duration, Instant};

/// The family a run is about; it visits the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    Realtime,
    Megachess,
}

/// How a run is set up.
#[derive(Clone, Copy, Debug)]
pub struct MixedSettings {
    pub lines: u64,
    pub seed: u64,
    pub home: Home,
    /// For `readyok` and anything that should come at once.
    pub ready: Duration,
    /// What a timed answer may take past its `movetime` before it counts as late.
    pub margin: Duration,
    /// Past `movetime` plus this, a missing answer is a hang.
    pub hang: Duration,
    pub progress_every: u64,
}

/// The game the engine's session is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Current {
    Turn,
    Realtime,
    Megachess,
}

/// Work running in the engine.
#[derive(Clone, Debug)]
enum Work {
    /// A turn game's `go`: the answer must be one of these moves.
    Turn { legal: Vec<String> },
    /// A realtime `go side`: the order must be one `side` may start in `state`.
    Realtime {
        state: Box<RealtimeState>,
        side: Color,
    },
    /// `play`: no answer, orders judged by the referee.
    Stream,
    /// A Megachess `go`: the moves are replayed on this world under these parameters.
    Megachess { told: Told, params: MegachessParams },
}

/// A job with its timing.
#[derive(Clone, Debug)]
struct Job {
    work: Work,
    /// `Some(ms)`: the answer comes within `ms` (plus the margin) and the driver waits for it.
    timed: Option<u64>,
    /// `go infinite`: answers only when a line ends it.
    endless: bool,
    started: Instant,
}

/// What `d` must show.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Show {
    Nothing,
    /// Realtime: `State: <text>`.
    State(String),
    /// Megachess: the world (normalised, and its turn), or none told.
    World(Option<(String, u64)>),
    /// A turn game: `Fen: <fen>`.
    Fen(String),
}

/// One planned line with its expectation.
#[derive(Clone, Debug)]
struct Line {
    bytes: Vec<u8>,
    kind: &'static str,
    expect: Expect,
    /// Accepted, it ends the running job: its answer comes before `readyok`.
    ends_job: bool,
    starts: Option<Job>,
    /// `Some(Some(name))`: one `info string variant <name> ...`; `Some(None)`: none.
    announce: Option<Option<&'static str>>,
    show: Show,
    /// Megachess: the last world no longer reads under a new parameter, and is forgotten.
    remark: bool,
    uci: bool,
    /// Streaming: the referee's game changed with this line.
    sets_clock: bool,
    quit: bool,
    /// A variant switch while a job runs.
    switch_during_job: bool,
}

impl Line {
    fn new(bytes: Vec<u8>, kind: &'static str, expect: Expect) -> Line {
        Line {
            bytes,
            kind,
            expect,
            ends_job: false,
            starts: None,
            announce: None,
            show: Show::Nothing,
            remark: false,
            uci: false,
            sets_clock: false,
            quit: false,
            switch_during_job: false,
        }
    }
    fn good(text: impl Into<String>, kind: &'static str) -> Line {
        let mut bytes = text.into().into_bytes();
        bytes.push(b'\n');
        Line::new(bytes, kind, Expect::Accepted)
    }
    fn bad(text: impl Into<String>, kind: &'static str) -> Line {
        let mut bytes = text.into().into_bytes();
        bytes.push(b'\n');
        Line::new(bytes, kind, Expect::Bad)
    }
}

/// What one window (a line and its `readyok`) brought.
#[derive(Default)]
struct Window {
    ready: usize,
    errors: Vec<String>,
    announced: Vec<String>,
    remarks: usize,
    state: Option<String>,
    world: Option<String>,
    fen: Option<String>,
    uciok: bool,
}

pub struct Mixed {
    settings: MixedSettings,
    launcher: Launcher,
    engine: Box<dyn Peer>,
    rng: Rng,
    report: Report,
    current: Current,
    turn_game: TurnGame,
    rt_params: RealtimeParams,
    rt_state: RealtimeState,
    referee: Option<Referee>,
    /// The referee of a stream the line being checked ends (its orders are still judged).
    stopping: Option<Referee>,
    mega_params: MegachessParams,
    told: Option<Told>,
    job: Option<Job>,
    /// Lines to send while a job runs before the driver waits for its answer or ends it.
    busy_lines: usize,
    /// Lines left in a visited family before going home.
    away: usize,
    line: u64,
    /// The line being checked ends the running job (an endless one may answer).
    ending: bool,
    /// The line being checked: a `d`, `uci`.
    displaying: bool,
    uci: bool,
    history: Vec<Vec<u8>>,
    failed: Vec<(&'static str, String)>,
    /// The kind of the line being checked (for the failures' tally).
    line_kind: &'static str,
}

impl Mixed {
    pub fn new(settings: MixedSettings, mut launcher: Launcher) -> Result<Mixed, String> {
        let engine = launcher().map_err(|error| format!("cannot start the engine: {error}"))?;
        let rt_params = RealtimeParams::default();
        Ok(Mixed {
            rng: Rng::new(spread(settings.seed ^ home_salt(settings.home))),
            report: Report::new(settings.seed, false),
            settings,
            launcher,
            engine,
            current: Current::Turn,
            turn_game: TurnGame::Chess,
            rt_params,
            rt_state: RealtimeState::start(rt_params),
            referee: None,
            stopping: None,
            mega_params: MegachessParams::default(),
            told: None,
            job: None,
            busy_lines: 0,
            away: 0,
            line: 0,
            ending: false,
            displaying: false,
            uci: false,
            history: Vec::new(),
            failed: Vec::new(),
            line_kind: "start",
        })
    }

    /// Runs the lines and returns the counts.
    pub fn run(mut self) -> Result<Report, String> {
        let started = Instant::now();
        while self.line < self.settings.lines {
            if self.job.as_ref().is_some_and(|job| job.timed.is_some()) && self.busy_lines == 0 {
                self.wait_answer();
                self.settle()?;
                continue;
            }
            let name = match self.current {
                Current::Turn => self.turn_game.start().variant(),
                Current::Realtime => "realtime",
                Current::Megachess => "megachess",
            };
            *self.report.by_game.entry(name.to_string()).or_default() += 1;
            let line = self.plan();
            self.busy_lines = self.busy_lines.saturating_sub(1);
            self.step(line);
            self.settle()?;
            let every = self.settings.progress_every;
            if every > 0 && self.line.is_multiple_of(every) {
                eprintln!(
                    "roger fuzz protocol ({:?}): {} lines, {} failures, {:.0} s",
                    self.settings.home,
                    self.line,
                    self.report.failure_count(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        // A long timed job would hold the end of the input up: stop it first.
        if self.job.as_ref().is_some_and(|job| {
            !job.endless && job.timed.is_none() && !matches!(job.work, Work::Stream)
        }) {
            let mut line = Line::good("stop", "stop");
            line.ends_job = true;
            self.job_ended_in_model();
            self.step(line);
            self.settle()?;
        }
        self.end_of_input();
        self.report.lines = self.line;
        self.report.elapsed_ms = started.elapsed().as_millis() as u64;
        Ok(self.report)
    }

    fn fail(&mut self, kind: &'static str, what: String) {
        self.failed.push((kind, what));
    }

    /// Reports this line's failures; after one, a fresh engine and fresh models.
    fn settle(&mut self) -> Result<(), String> {
        if self.failed.is_empty() {
            return Ok(());
        }
        let reproducer = reproducer(self.settings.seed, self.line, &self.history);
        for (kind, what) in std::mem::take(&mut self.failed) {
            let key = format!("{kind}: {}", self.line_kind);
            *self.report.failures_by_line.entry(key).or_default() += 1;
            let failure = Failure {
                kind,
                line: self.line,
                what,
                reproducer: reproducer.clone(),
            };
            if self.report.failure_details.len() < 20 {
                eprintln!(
                    "FAILURE ({kind}) at line {}: {}\n{}",
                    self.line, failure.what, reproducer
                );
            }
            self.report.add_failure(failure);
        }
        self.engine =
            (self.launcher)().map_err(|error| format!("cannot restart the engine: {error}"))?;
        self.report.restarts += 1;
        self.fresh();
        Ok(())
    }

    /// A fresh engine's state: chess, realtime's defaults, no world.
    fn fresh(&mut self) {
        self.current = Current::Turn;
        self.turn_game = TurnGame::Chess;
        self.rt_params = RealtimeParams::default();
        self.rt_state = RealtimeState::start(self.rt_params);
        self.referee = None;
        self.stopping = None;
        self.mega_params = MegachessParams::default();
        self.told = None;
        self.job = None;
        self.busy_lines = 0;
        self.away = 0;
        self.history.clear();
    }

    /// The model's side of a job ending (streaming's state is kept).
    fn job_ended_in_model(&mut self) {
        if let Some(referee) = self.referee.take() {
            self.rt_state = referee.truth.clone();
            self.stopping = Some(referee);
        }
    }

    fn remember(&mut self, bytes: &[u8]) {
        if self.history.len() > 200 {
            self.history.drain(..100);
        }
        self.history.push(bytes.to_vec());
    }

    fn step(&mut self, line: Line) {
        self.line += 1;
        self.line_kind = line.kind;
        self.report.count_kind(line.kind);
        match line.expect {
            Expect::Accepted => self.report.accepted_lines += 1,
            Expect::Bad => {
                self.report.bad_lines += 1;
                self.report.errors_expected += 1;
            }
        }
        if self.job.is_some() {
            self.report.interleaved_lines += 1;
        }
        if line.switch_during_job {
            self.report.switches_during_jobs += 1;
        }
        self.remember(&line.bytes);
        if line.quit {
            self.quit(&line);
            return;
        }
        let accepted = line.expect == Expect::Accepted;
        self.ending = accepted && line.ends_job;
        self.displaying = accepted && line.show != Show::Nothing;
        self.uci = accepted && line.uci;
        let had_job = self.job.is_some();
        let mut bytes = line.bytes.clone();
        bytes.extend_from_slice(b"isready\n");
        if let Err(error) = self.engine.send(&bytes) {
            let tail = self.engine.stderr_tail();
            self.fail(
                "crashes",
                format!("cannot write to the engine ({error}); its stderr: {tail}"),
            );
            return;
        }
        let sent = Instant::now();
        if accepted {
            if let Some(mut job) = line.starts.clone() {
                job.started = sent;
                if matches!(job.work, Work::Turn { .. } | Work::Realtime { .. }) {
                    self.report.searches += 1;
                }
                self.job = Some(job);
            }
        }
        if line.sets_clock
            || line
                .starts
                .as_ref()
                .is_some_and(|job| matches!(job.work, Work::Stream))
        {
            if let Some(referee) = &mut self.referee {
                referee.sent(sent);
            }
        }
        // An accepted `isready` answers one `readyok` of its own.
        let wanted = 1 + usize::from(accepted && line.bytes == b"isready\n");
        let mut window = Window::default();
        while window.ready < wanted {
            if !self.read_one(&mut window, self.settings.ready) {
                return;
            }
        }
        self.check_window(&line, &window, had_job);
        self.stopping = None;
        self.ending = false;
        self.displaying = false;
        self.uci = false;
    }

    fn check_window(&mut self, line: &Line, window: &Window, had_job: bool) {
        self.report.errors_seen += window.errors.len() as u64;
        if let Some((kind, what)) = error_verdict(line.expect, line.kind, &window.errors) {
            self.fail(kind, what);
        }
        if line.expect != Expect::Accepted {
            return;
        }
        if line.ends_job && had_job {
            if let Some(job) = &self.job {
                if !matches!(job.work, Work::Stream) {
                    let what = format!(
                        "{} did not get the running job's answer before readyok",
                        line.kind
                    );
                    self.fail("missing answers", what);
                }
                self.job = None;
            }
        }
        if let Some(expected) = line.announce {
            let right = match expected {
                Some(name) => {
                    window.announced.len() == 1
                        && window.announced[0].starts_with(&format!("{name} "))
                }
                None => window.announced.is_empty(),
            };
            if !right {
                self.fail(
                    "variant announcements",
                    format!(
                        "{}: announcements {:?}, expected {}",
                        line.kind,
                        window.announced,
                        match expected {
                            Some(name) => format!("one for {name}"),
                            None => "none (the game did not change)".into(),
                        }
                    ),
                );
            }
        } else if !window.announced.is_empty() {
            self.fail(
                "variant announcements",
                format!("{}: announcements {:?}", line.kind, window.announced),
            );
        }
        if line.remark != (window.remarks > 0) {
            self.fail(
                "unexpected lines",
                format!(
                    "{}: {} remark that the last world no longer reads, expected {}",
                    line.kind,
                    window.remarks,
                    u8::from(line.remark)
                ),
            );
        }
        if line.uci && !window.uciok {
            self.fail("missing answers", "uci without uciok".into());
        }
        match &line.show {
            Show::Nothing => {}
            Show::State(state) => {
                self.report.states_checked += 1;
                if window.state.as_deref() != Some(state.as_str()) {
                    self.fail(
                        "display mismatches",
                        format!("d shows state {:?}, the model has {state:?}", window.state),
                    );
                }
            }
            Show::Fen(fen) => {
                self.report.displays_checked += 1;
                if window.fen.as_deref() != Some(fen.as_str()) {
                    self.fail(
                        "display mismatches",
                        format!("d shows {:?}, expected {fen:?}", window.fen),
                    );
                }
            }
            Show::World(world) => {
                self.report.states_checked += 1;
                let shown = window.world.as_ref().map(|line| {
                    let words = line.strip_prefix("position megachess ").unwrap_or(line);
                    mega::normalised(words, &self.mega_params)
                });
                let right = match (world, &shown) {
                    (None, None) => true,
                    (Some(want), Some(Some(got))) => want == got,
                    _ => false,
                };
                if !right {
                    self.fail(
                        "display mismatches",
                        format!("d shows world {:?}, the model has {world:?}", window.world),
                    );
                }
            }
        }
    }

    /// `quit`: a running job answers, then the engine exits with status 0.
    fn quit(&mut self, line: &Line) {
        self.report.quits += 1;
        self.ending = true;
        let _ = self.engine.send(&line.bytes);
        let mut window = Window::default();
        loop {
            match self.engine.next_line(self.settings.ready) {
                Next::Line(text) => {
                    let at = self.engine.arrived().unwrap_or_else(Instant::now);
                    self.hear(text, at, &mut window);
                }
                Next::Closed => break,
                Next::Timeout => {
                    self.fail("hangs", "the engine did not exit after quit".into());
                    return;
                }
            }
        }
        self.ending = false;
        self.check_exit("quit");
        if !window.errors.is_empty() {
            self.fail("unexpected errors", format!("quit: {:?}", window.errors));
        }
        if !self.failed.is_empty() {
            return;
        }
        match (self.launcher)() {
            Ok(engine) => {
                self.engine = engine;
                self.report.restarts += 1;
                self.fresh();
            }
            Err(error) => self.fail("crashes", format!("cannot restart the engine: {error}")),
        }
    }

    fn check_exit(&mut self, after: &str) {
        if let Some(job) = &self.job {
            if !matches!(job.work, Work::Stream) {
                self.fail(
                    "missing answers",
                    format!("the engine exited after {after} without answering its job"),
                );
            }
        }
        self.job = None;
        match self.engine.exit_code(self.settings.ready) {
            Some(Some(0)) => {}
            other => self.fail("bad exits", format!("exit status {other:?} after {after}")),
        }
    }

    /// The end of the input: a running job answers, then the engine exits with status 0.
    fn end_of_input(&mut self) {
        self.line += 1;
        self.line_kind = "end of input";
        self.ending = true;
        self.job_ended_in_model();
        self.engine.close_input();
        let mut window = Window::default();
        let bound = self.settings.hang + self.settings.ready;
        loop {
            match self.engine.next_line(bound) {
                Next::Line(text) => {
                    let at = self.engine.arrived().unwrap_or_else(Instant::now);
                    self.hear(text, at, &mut window);
                }
                Next::Closed => break,
                Next::Timeout => {
                    self.fail(
                        "hangs",
                        "the engine did not exit at the end of its input".into(),
                    );
                    break;
                }
            }
        }
        self.check_exit("the end of its input");
        let reproducer = reproducer(self.settings.seed, self.line, &self.history);
        for (kind, what) in std::mem::take(&mut self.failed) {
            let key = format!("{kind}: {}", self.line_kind);
            *self.report.failures_by_line.entry(key).or_default() += 1;
            self.report.add_failure(Failure {
                kind,
                line: self.line,
                what,
                reproducer: reproducer.clone(),
            });
        }
    }

    /// The turn game's legal moves at its start (the driver never moves it on).
    fn turn_legal(&self) -> Vec<String> {
        model::legal_moves(&self.turn_game.start())
    }
}

/// splitmix64, as the turn generator spreads its seed.
fn spread(seed: u64) -> u64 {
    crate::common::Rng::new(seed).next_u64()
}

fn home_salt(home: Home) -> u64 {
    match home {
        Home::Realtime => 0x5245_414c,
        Home::Megachess => 0x4d45_4741,
    }
}
