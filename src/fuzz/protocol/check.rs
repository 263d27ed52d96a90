//! The driver: sends each generated line to the engine, then `isready`, and checks what comes
//! back against the line's expectation — one error for a bad line and none for a good one,
//! `readyok` within a bound, one legal `bestmove` per accepted `go` (judged by a second engine
//! and, for chess, by python-chess) agreeing with the last PV, the board `d` shows.

use super::generate::Generator;
use super::peer::{Launcher, Next, Peer, PythonChess};
use super::report::{reproducer, Failure, Report};
use super::step::{Expect, Job, JobKind, Reply, SearchMode, Searched, Step};
use std::time::{Duration, Instant};

/// How long the checks wait.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// For `readyok` (and any reply that should come at once).
    pub ready: Duration,
    /// For the answer of a finite search, perft or bench.
    pub job: Duration,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            ready: Duration::from_secs(10),
            job: Duration::from_secs(60),
        }
    }
}

/// The job that runs in the engine, with what it printed so far.
struct Active {
    job: Job,
    /// `go infinite`, or `go ponder` before `ponderhit`: answers only when something ends it.
    waits: bool,
    /// Its `info` lines (searches) or count lines (perft).
    lines: Vec<String>,
    answered: bool,
}

/// The second engine instance, which judges moves with the engine's own rules.
pub struct Judge {
    launcher: Launcher,
    peer: Box<dyn Peer>,
    variant: &'static str,
    bounds: Bounds,
}

impl Judge {
    pub fn new(mut launcher: Launcher, bounds: Bounds) -> Result<Judge, String> {
        let peer = launcher().map_err(|error| format!("cannot start the judge: {error}"))?;
        Ok(Judge {
            launcher,
            peer,
            variant: "chess",
            bounds,
        })
    }

    /// `Ok` when `moves` can be played in `position`, else the engine's error.
    pub fn legal(&mut self, position: &Searched, moves: &[&str]) -> Result<(), String> {
        let mut request = String::new();
        if position.variant != self.variant {
            request += &format!("setoption name UCI_Variant value {}\n", position.variant);
        }
        let joiner = if position.command.contains(" moves ") {
            " "
        } else {
            " moves "
        };
        request += &format!(
            "position {}{joiner}{}\nisready\n",
            position.command,
            moves.join(" ")
        );
        let verdict = self.ask(&request);
        match &verdict {
            Err(error) if error.starts_with("judge:") => {
                // The judge itself failed: start a fresh one (it is chess again).
                if let Ok(peer) = (self.launcher)() {
                    self.peer = peer;
                }
                self.variant = "chess";
            }
            _ => self.variant = position.variant,
        }
        verdict
    }

    fn ask(&mut self, request: &str) -> Result<(), String> {
        self.peer
            .send(request.as_bytes())
            .map_err(|error| format!("judge: cannot write: {error}"))?;
        let mut errors = Vec::new();
        loop {
            match self.peer.next_line(self.bounds.ready) {
                Next::Line(line) if line == "readyok" => break,
                Next::Line(line) if line.starts_with("info string error") => errors.push(line),
                Next::Line(_) => {}
                other => return Err(format!("judge: {other:?} before readyok")),
            }
        }
        match errors.is_empty() {
            true => Ok(()),
            false => Err(errors.join(" | ")),
        }
    }
}

/// How a run is set up.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub lines: u64,
    pub seed: u64,
    pub bounds: Bounds,
    /// Print a progress line to standard error every this many lines (0: never).
    pub progress_every: u64,
}

pub struct Driver {
    settings: Settings,
    launcher: Launcher,
    engine: Box<dyn Peer>,
    judge: Judge,
    python: Option<PythonChess>,
    generator: Generator,
    report: Report,
    active: Option<Active>,
    /// The lines since the last accepted `position` (with the variant's `setoption` first).
    history: Vec<Vec<u8>>,
    variant_line: Option<Vec<u8>>,
    line: u64,
    /// The line being checked may end the running job (so a waiting search may answer).
    ending: bool,
    /// This line's failures, reported once it is done.
    failed: Vec<(&'static str, String)>,
}

/// What one window of reading (up to `readyok`) saw.
#[derive(Default)]
struct Window {
    readyoks: usize,
    /// `info string variant ...` announcements.
    announced: Vec<String>,
    errors: Vec<String>,
    fen: Option<String>,
    uciok: bool,
}

impl Driver {
    pub fn new(
        settings: Settings,
        mut launcher: Launcher,
        judge: Judge,
        python: Option<PythonChess>,
    ) -> Result<Driver, String> {
        let engine = launcher().map_err(|error| format!("cannot start the engine: {error}"))?;
        let report = Report::new(settings.seed, python.is_some());
        Ok(Driver {
            generator: Generator::new(settings.seed),
            settings,
            launcher,
            engine,
            judge,
            python,
            report,
            active: None,
            history: Vec::new(),
            variant_line: None,
            line: 0,
            ending: false,
            failed: Vec::new(),
        })
    }

    /// Runs the generated lines through the engine and returns the counts.
    pub fn run(mut self) -> Result<Report, String> {
        let started = Instant::now();
        for _ in 0..self.settings.lines {
            let game = self.generator.model().game.variant();
            *self.report.by_game.entry(game.to_string()).or_default() += 1;
            let step = self.generator.next_step();
            self.play(step)?;
            let every = self.settings.progress_every;
            if every > 0 && self.line.is_multiple_of(every) {
                eprintln!(
                    "roger fuzz protocol: {} lines, {} failures, {:.0} s",
                    self.line,
                    self.report.failure_count(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        if let Some(step) = self.generator.closing_step() {
            self.play(step)?;
        }
        self.end_of_input();
        self.report.lines = self.line;
        self.report.elapsed_ms = started.elapsed().as_millis() as u64;
        Ok(self.report)
    }

    /// Checks a transcript step by step: one line, fed to the engine, checked.
    pub fn play(&mut self, step: Step) -> Result<(), String> {
        self.line += 1;
        self.count(&step);
        self.remember(&step);
        self.ending = step.ends_job || step.reply == Reply::Quit;
        if step.ponderhit {
            if let Some(active) = &mut self.active {
                active.waits = false;
            }
        }
        if step.reply == Reply::Quit {
            self.quit(&step);
        } else {
            self.exchange(&step);
        }
        self.settle()
    }

    fn count(&mut self, step: &Step) {
        let report = &mut self.report;
        report.count_kind(step.kind);
        match step.expect {
            Expect::Accepted => report.accepted_lines += 1,
            Expect::Bad => {
                report.bad_lines += 1;
                report.errors_expected += 1;
            }
        }
        if step.interleaved {
            report.interleaved_lines += 1;
        }
    }

    /// Keeps the lines a reproducer needs: from the last accepted `position` on.
    fn remember(&mut self, step: &Step) {
        let accepted = step.expect == Expect::Accepted;
        if accepted && step.kind.starts_with("setoption UCI_Variant") {
            self.variant_line = Some(step.bytes.clone());
        }
        if accepted && step.kind.starts_with("position") && self.active.is_none() {
            self.history = self.variant_line.iter().cloned().collect();
        }
        if self.history.len() > 200 {
            self.history.drain(1..100);
        }
        self.history.push(step.bytes.clone());
    }

    fn fail(&mut self, kind: &'static str, what: String) {
        self.failed.push((kind, what));
    }

    /// Reports this line's failures; after one, a fresh engine and a fresh model.
    fn settle(&mut self) -> Result<(), String> {
        if self.failed.is_empty() {
            return Ok(());
        }
        let reproducer = reproducer(self.settings.seed, self.line, &self.history);
        for (kind, what) in std::mem::take(&mut self.failed) {
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
        self.restart()
    }

    fn restart(&mut self) -> Result<(), String> {
        self.engine =
            (self.launcher)().map_err(|error| format!("cannot restart the engine: {error}"))?;
        self.generator.reset();
        self.active = None;
        self.history.clear();
        self.variant_line = None;
        self.report.restarts += 1;
        Ok(())
    }

    fn exchange(&mut self, step: &Step) {
        let mut bytes = step.bytes.clone();
        bytes.extend_from_slice(b"isready\n");
        let had_job = self.active.is_some();
        if step.expect == Expect::Accepted {
            if let Some(job) = &step.starts {
                if matches!(job.kind, JobKind::Search(_)) {
                    self.report.searches += 1;
                }
                let waits = matches!(
                    job.kind,
                    JobKind::Search(SearchMode::Endless | SearchMode::Ponder)
                );
                self.active = Some(Active {
                    job: job.clone(),
                    waits,
                    lines: Vec::new(),
                    answered: false,
                });
            }
        }
        if let Err(error) = self.engine.send(&bytes) {
            let tail = self.engine.stderr_tail();
            self.fail(
                "crashes",
                format!("cannot write to the engine ({error}); its stderr: {tail}"),
            );
            return;
        }
        let wanted =
            1 + usize::from(step.reply == Reply::ReadyOk && step.expect == Expect::Accepted);
        let mut window = Window::default();
        while window.readyoks < wanted {
            if !self.read_one(&mut window, step, self.settings.bounds.ready) {
                return;
            }
        }
        self.check_errors(step, &window);
        if step.expect == Expect::Accepted && !window.errors.is_empty() && step.starts.is_some() {
            // Refused after all: nothing runs.
            self.active = None;
        }
        if step.ends_job && had_job && self.active.as_ref().is_some_and(|a| !a.answered) {
            self.fail(
                "missing answers",
                format!(
                    "{} did not get the running job's answer before readyok",
                    step.kind
                ),
            );
        }
        if self.active.as_ref().is_some_and(|active| active.answered) {
            self.active = None;
        }
        let now_finite = step.ponderhit
            || (step.expect == Expect::Accepted
                && step.starts.as_ref().is_some_and(|job| job.kind.finite()));
        if now_finite && self.active.is_some() {
            let deadline = Instant::now() + self.settings.bounds.job;
            while self.active.as_ref().is_some_and(|active| !active.answered) {
                let left = deadline.saturating_duration_since(Instant::now());
                if !self.read_one(&mut window, step, left) {
                    return;
                }
            }
            self.active = None;
            if window.readyoks > wanted {
                self.fail("unexpected lines", "a readyok too many".into());
            }
        }
        self.check_reply(step, &window);
    }

    /// Reads and classifies one line; false (after recording the failure) when the engine hung
    /// or died.
    fn read_one(&mut self, window: &mut Window, step: &Step, timeout: Duration) -> bool {
        match self.engine.next_line(timeout) {
            Next::Line(line) => {
                self.classify(window, step, line);
                true
            }
            silent => {
                let waiting = match &self.active {
                    Some(active) if !active.answered => {
                        format!("the answer of {:?}", active.job.kind)
                    }
                    _ => "readyok".to_string(),
                };
                let closed = matches!(silent, Next::Closed);
                let (kind, what) = self.engine.silence_failure(closed, timeout, &waiting);
                self.fail(kind, what);
                false
            }
        }
    }

    fn classify(&mut self, window: &mut Window, step: &Step, line: String) {
        let job_kind = self
            .active
            .as_ref()
            .filter(|a| !a.answered)
            .map(|a| a.job.kind);
        let accepted = step.expect == Expect::Accepted;
        let display = accepted && matches!(step.reply, Reply::Display(_));
        let uci = accepted && step.reply == Reply::Uci;
        if display && line.starts_with("Fen: ") {
            window.fen = Some(line["Fen: ".len()..].to_string());
        } else if uci && line == "uciok" {
            window.uciok = true;
        } else if line.starts_with("info string error") {
            // A panic caught by the session, or a search that failed: never meant to happen.
            if line.contains("internal error") || line.contains("the search") {
                self.fail("internal errors", format!("{line:?}"));
            }
            window.errors.push(line);
        } else if line.starts_with("bestmove") {
            self.on_bestmove(&line);
        } else if line == "readyok" {
            window.readyoks += 1;
        } else if let Some(text) = line.strip_prefix("info string ") {
            if text.starts_with("variant ") {
                window.announced.push(text.to_string());
            }
            let stopped = match job_kind {
                Some(JobKind::Perft { depth, .. }) => text == format!("perft {depth} stopped"),
                Some(JobKind::Bench { .. }) => text == "bench stopped",
                _ => false,
            };
            if stopped {
                self.finish_job();
            }
        } else if line.starts_with("info ") {
            match (&mut self.active, job_kind) {
                (Some(active), Some(JobKind::Search(_))) => active.lines.push(line),
                _ => self.fail(
                    "unexpected lines",
                    format!("search output with no search running: {line:?}"),
                ),
            }
        } else if let Some(total) = line.strip_prefix("Nodes searched: ") {
            match job_kind {
                Some(JobKind::Perft { depth, .. }) => self.on_perft(depth, total),
                _ => self.fail(
                    "unexpected lines",
                    format!("perft output with no perft running: {line:?}"),
                ),
            }
        } else if matches!(job_kind, Some(JobKind::Bench { .. })) {
            if line.ends_with(" nps") && line.contains(" nodes ") {
                self.finish_job();
            }
        } else if matches!(job_kind, Some(JobKind::Perft { .. })) {
            if let Some(active) = &mut self.active {
                active.lines.push(line);
            }
        } else if display || uci {
            // The diagram, the id and option lines.
        } else {
            self.fail("unexpected lines", format!("{line:?}"));
        }
    }

    fn finish_job(&mut self) {
        if let Some(active) = &mut self.active {
            active.answered = true;
            match active.job.kind {
                JobKind::Perft { .. } => self.report.perfts += 1,
                JobKind::Bench { .. } => self.report.benches += 1,
                JobKind::Search(_) => {}
            }
        }
    }

    fn on_perft(&mut self, depth: u32, total: &str) {
        let Some(active) = &self.active else { return };
        let mut sum = 0u64;
        let mut count = 0;
        for line in &active.lines {
            if let Some((_, n)) = line.split_once(": ") {
                sum += n.parse::<u64>().unwrap_or(u64::MAX / 4);
                count += 1;
            }
        }
        let legal = active.job.position.legal.len();
        let total: Option<u64> = total.parse().ok();
        let consistent = total == Some(sum) && count == legal && (depth > 1 || sum == legal as u64);
        let fen = active.job.position.fen.clone();
        self.finish_job();
        if !consistent {
            self.fail(
                "perft mismatches",
                format!("perft {depth} of {fen}: total {total:?}, {count} root moves summing to {sum}, {legal} legal moves"),
            );
        }
    }

    fn on_bestmove(&mut self, line: &str) {
        let Some(active) = self
            .active
            .as_mut()
            .filter(|active| !active.answered && matches!(active.job.kind, JobKind::Search(_)))
        else {
            self.fail(
                "double answers",
                format!("{line:?} with no search waiting for it"),
            );
            return;
        };
        active.answered = true;
        let early = active.waits && !self.ending;
        let position = active.job.position.clone();
        let pv_first = active
            .lines
            .iter()
            .rev()
            .find(|info| {
                info.contains(" pv ")
                    && (!info.contains(" multipv ") || info.contains(" multipv 1 "))
            })
            .and_then(|info| info.split(" pv ").nth(1))
            .and_then(|pv| pv.split(' ').next())
            .map(str::to_string);
        self.report.bestmoves += 1;
        if early {
            self.fail(
                "early answers",
                format!("{line:?} before stop or ponderhit"),
            );
        }
        let fields: Vec<&str> = line.split(' ').collect();
        let (best, ponder) = match fields[..] {
            ["bestmove", best] => (best, None),
            ["bestmove", best, "ponder", ponder] => (best, Some(ponder)),
            _ => {
                self.fail("illegal moves", format!("malformed {line:?}"));
                return;
            }
        };
        let at = format!("in {} (position {})", position.fen, position.command);
        if best == "0000" {
            self.report.null_moves += 1;
            if !position.legal.is_empty() {
                self.fail(
                    "illegal moves",
                    format!(
                        "bestmove 0000 {at}, which has {} legal moves",
                        position.legal.len()
                    ),
                );
            }
        } else {
            if let Err(error) = self.judge.legal(&position, &[best]) {
                self.fail(
                    "illegal moves",
                    format!("bestmove {best} {at}: the second engine says {error}"),
                );
            }
            self.report.bestmoves_checked_own += 1;
            if !position.legal.iter().any(|legal| legal == best) {
                self.fail(
                    "illegal moves",
                    format!("bestmove {best} {at} is not among the rules' legal moves"),
                );
            }
            if !position.searchmoves.is_empty() && !position.searchmoves.iter().any(|m| m == best) {
                self.fail(
                    "illegal moves",
                    format!(
                        "bestmove {best} {at} is not one of searchmoves {:?}",
                        position.searchmoves
                    ),
                );
            }
            if let Some(ponder) = ponder {
                if let Err(error) = self.judge.legal(&position, &[best, ponder]) {
                    self.fail(
                        "illegal ponder moves",
                        format!("{line:?} {at}: the second engine says {error}"),
                    );
                }
                self.report.ponder_moves_checked += 1;
            }
            self.report.pv_checked += 1;
            match pv_first {
                Some(first) if first == best => {}
                Some(first) => self.fail(
                    "PV mismatches",
                    format!("bestmove {best} {at} but the last PV starts {first}"),
                ),
                None => self.fail(
                    "PV mismatches",
                    format!("bestmove {best} {at} with no info line reporting it"),
                ),
            }
        }
        if let (Some(python), Some((fen, moves))) = (&mut self.python, &position.python) {
            if let Err(error) = python.check(fen, moves, best, ponder) {
                self.fail(
                    "illegal moves (python-chess)",
                    format!("{line:?} {at}: python-chess says {error}"),
                );
            }
            self.report.bestmoves_checked_python += 1;
        }
    }

    fn check_errors(&mut self, step: &Step, window: &Window) {
        self.report.errors_seen += window.errors.len() as u64;
        if let Some((kind, what)) = error_verdict(step.expect, step.kind, &window.errors) {
            self.fail(kind, what);
        }
    }

    fn check_reply(&mut self, step: &Step, window: &Window) {
        if step.expect != Expect::Accepted {
            return;
        }
        match &step.reply {
            Reply::Display(fen) => {
                self.report.displays_checked += 1;
                if window.fen.as_deref() != Some(fen.as_str()) {
                    self.fail(
                        "display mismatches",
                        format!("d shows {:?}, expected {fen:?}", window.fen),
                    );
                }
            }
            Reply::Uci if !window.uciok => self.fail("missing answers", "uci without uciok".into()),
            Reply::Variant(changed) => {
                let prefix = changed.map(|name| format!("variant {name} files "));
                let right = match &prefix {
                    Some(prefix) => {
                        window.announced.len() == 1 && window.announced[0].starts_with(prefix)
                    }
                    None => window.announced.is_empty(),
                };
                if !right {
                    self.fail(
                        "unexpected lines",
                        format!("announcements {:?} for {changed:?}", window.announced),
                    );
                }
            }
            _ => {}
        }
    }

    /// `quit`: a running job answers, then the engine exits with status 0.
    fn quit(&mut self, step: &Step) {
        self.report.quits += 1;
        let _ = self.engine.send(&step.bytes);
        let mut window = Window::default();
        loop {
            match self.engine.next_line(self.settings.bounds.ready) {
                Next::Line(line) => self.classify(&mut window, step, line),
                Next::Closed => break,
                Next::Timeout => {
                    self.fail("hangs", "the engine did not exit after quit".into());
                    return;
                }
            }
        }
        self.check_errors(step, &window);
        self.check_exit("quit");
        if !self.failed.is_empty() {
            return;
        }
        match (self.launcher)() {
            Ok(engine) => {
                self.engine = engine;
                self.active = None;
                self.history.clear();
                self.variant_line = None;
                self.report.restarts += 1;
            }
            Err(error) => self.fail("crashes", format!("cannot restart the engine: {error}")),
        }
    }

    fn check_exit(&mut self, after: &str) {
        if let Some(active) = &self.active {
            if !active.answered {
                let kind = active.job.kind;
                self.fail(
                    "missing answers",
                    format!("the engine exited after {after} without answering {kind:?}"),
                );
            }
        }
        match self.engine.exit_code(self.settings.bounds.ready) {
            Some(Some(0)) => {}
            other => self.fail("bad exits", format!("exit status {other:?} after {after}")),
        }
    }

    /// The end of the input: an endless search is stopped and answered, then the engine exits
    /// with status 0.
    fn end_of_input(&mut self) {
        self.line += 1;
        self.ending = true;
        self.engine.close_input();
        let step = Step {
            bytes: Vec::new(),
            kind: "end of input",
            expect: Expect::Accepted,
            starts: None,
            ends_job: true,
            ponderhit: false,
            reply: Reply::Quit,
            interleaved: false,
        };
        let mut window = Window::default();
        loop {
            match self.engine.next_line(self.settings.bounds.job) {
                Next::Line(line) => self.classify(&mut window, &step, line),
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
        self.check_errors(&step, &window);
        self.check_exit("the end of its input");
        let failed = std::mem::take(&mut self.failed);
        let reproducer = reproducer(self.settings.seed, self.line, &self.history);
        for (kind, what) in failed {
            self.report.add_failure(Failure {
                kind,
                line: self.line,
                what,
                reproducer: reproducer.clone(),
            });
        }
        let _ = SearchMode::Finite;
    }
}

/// The failure, if any, of a line's errors: an accepted line gets none, a bad one exactly one.
pub(super) fn error_verdict(
    expect: Expect,
    line_kind: &str,
    errors: &[String],
) -> Option<(&'static str, String)> {
    match (expect, errors.len()) {
        (Expect::Accepted, 0) | (Expect::Bad, 1) => None,
        (Expect::Accepted, _) => Some((
            "unexpected errors",
            format!("{line_kind} line answered {errors:?}"),
        )),
        (Expect::Bad, 0) => Some((
            "silent bad inputs",
            format!("{line_kind} line got no error"),
        )),
        (Expect::Bad, _) => Some((
            "double errors",
            format!("{line_kind} line answered {errors:?}"),
        )),
    }
}
