//! The engine a bridge plays with: started and told the world's parameters, asked for a turn
//! within the turn's deadline, stopped and killed when it is late, and started again (more and
//! more slowly if it keeps failing) when it crashed or hung. Every wait here is bounded, and
//! cut short when the bridge is asked to stop.

use super::engine::{EngineGone, EngineProcess};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an engine may take to say `uciok` and `readyok` outside a turn.
const SETUP_TIME: Duration = Duration::from_secs(10);
/// How long an engine has to say `readyok` for a new game.
const NEW_GAME_TIME: Duration = Duration::from_secs(2);
/// The first wait before starting an engine again after a failure, and the longest.
const BACKOFF_FIRST: Duration = Duration::from_millis(100);
const BACKOFF_MAX: Duration = Duration::from_secs(5);
/// How often a wait looks whether the bridge is asked to stop.
const STOP_POLL: Duration = Duration::from_millis(50);

/// What became of a wait for an engine's line.
enum Wait {
    Line(Vec<String>),
    Late,
    Gone(String),
    Stopping,
}

/// One engine seat: the command, and the engine running it now (if any).
pub struct EngineSeat {
    label: String,
    command: Vec<String>,
    options: Vec<(String, String)>,
    movetime: Duration,
    /// The world's parameters from `welcome`; no engine starts before them.
    params: Option<BTreeMap<String, i64>>,
    engine: Option<EngineProcess>,
    /// Failures (crash, hang, failed start) since the engine last answered a turn.
    failures: u32,
    /// No engine starts before this.
    next_start: Instant,
    /// Engines started, all told.
    started: u64,
    stop: Option<Arc<AtomicBool>>,
}

impl EngineSeat {
    pub fn new(
        label: &str,
        command: Vec<String>,
        options: Vec<(String, String)>,
        movetime: Duration,
    ) -> EngineSeat {
        EngineSeat {
            label: label.to_string(),
            command,
            options,
            movetime,
            params: None,
            engine: None,
            failures: 0,
            next_start: Instant::now(),
            started: 0,
            stop: None,
        }
    }

    /// Makes every wait end early once `flag` is set.
    pub fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    fn stopping(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Engines started after the first.
    pub fn restarts(&self) -> u64 {
        self.started.saturating_sub(1)
    }

    pub fn running(&self) -> bool {
        self.engine.is_some()
    }

    /// The world's parameters; an engine told other ones is replaced.
    pub fn set_params(&mut self, params: BTreeMap<String, i64>) {
        if self.params.as_ref() != Some(&params) {
            self.params = Some(params);
            self.engine = None;
        }
    }

    /// A new player for the same engine: a new game.
    pub fn new_game(&mut self) {
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        let deadline = Instant::now() + NEW_GAME_TIME;
        let result = engine
            .send("ucinewgame")
            .and_then(|()| engine.send("isready"));
        let answer = match result {
            Ok(()) => self.wait("readyok", deadline),
            Err(EngineGone(why)) => Wait::Gone(why),
        };
        match answer {
            Wait::Line(_) | Wait::Stopping => {}
            Wait::Late => self.failed("no readyok for a new game"),
            Wait::Gone(why) => self.failed(&why),
        }
    }

    /// How long the bridge may wait for the server before the seat wants attention (an engine
    /// to start again), at most `most`.
    pub fn idle_wait(&self, most: Duration) -> Duration {
        if self.engine.is_some() || self.params.is_none() {
            return most;
        }
        self.next_start
            .saturating_duration_since(Instant::now())
            .clamp(Duration::from_millis(1), most)
    }

    /// Starts an engine between turns when there is none and its backoff is over.
    pub fn maintain(&mut self) {
        if self.engine.is_none()
            && self.params.is_some()
            && Instant::now() >= self.next_start
            && !self.stopping()
        {
            self.start(Instant::now() + SETUP_TIME);
        }
    }

    /// Says `text` on standard error (engine trouble is said even by a quiet bridge).
    fn say(&self, text: &str) {
        eprintln!("{}: {text}", self.label);
    }

    /// The engine is no good: kill it, and start the next one after a backoff.
    fn failed(&mut self, why: &str) {
        self.engine = None;
        self.failures += 1;
        let backoff = BACKOFF_FIRST
            .saturating_mul(1 << (self.failures - 1).min(16))
            .min(BACKOFF_MAX);
        self.next_start = Instant::now() + backoff;
        self.say(&format!(
            "engine failed ({why}); engine restart in {} ms",
            backoff.as_millis()
        ));
    }

    /// Starts an engine and sets it up, all before `deadline`.
    fn start(&mut self, deadline: Instant) -> bool {
        let mut engine = match EngineProcess::spawn(&self.command) {
            Ok(engine) => engine,
            Err(why) => {
                self.failed(&why);
                return false;
            }
        };
        match self.set_up(&mut engine, deadline) {
            Wait::Line(_) => {
                self.started += 1;
                if self.started > 1 {
                    self.say(&format!("engine restarted ({} restarts)", self.restarts()));
                }
                self.engine = Some(engine);
                true
            }
            Wait::Late => {
                self.failed("no uciok or readyok in time");
                false
            }
            Wait::Gone(why) => {
                self.failed(&why);
                false
            }
            Wait::Stopping => false,
        }
    }

    fn set_up(&self, engine: &mut EngineProcess, deadline: Instant) -> Wait {
        if let Err(EngineGone(why)) = engine.send("uci") {
            return Wait::Gone(why);
        }
        match wait_on(engine, "uciok", deadline, self.stop.as_deref()) {
            Wait::Line(_) => {}
            other => return other,
        }
        let mut lines = vec!["setoption name UCI_Variant value megachess".to_string()];
        for (name, value) in self.params.iter().flatten() {
            lines.push(format!("setoption name {name} value {value}"));
        }
        for (name, value) in &self.options {
            lines.push(format!("setoption name {name} value {value}"));
        }
        lines.push("ucinewgame".into());
        lines.push("isready".into());
        for line in &lines {
            if let Err(EngineGone(why)) = engine.send(line) {
                return Wait::Gone(why);
            }
        }
        wait_on(engine, "readyok", deadline, self.stop.as_deref())
    }

    fn wait(&mut self, word: &str, deadline: Instant) -> Wait {
        match self.engine.as_mut() {
            Some(engine) => wait_on(engine, word, deadline, self.stop.as_deref()),
            None => Wait::Gone("no engine".into()),
        }
    }

    /// The engine's moves for `position` (a `position megachess` line), answered before
    /// `turn_end` minus half the `margin`; an error says why there are none (then the engine
    /// is replaced before the next turn).
    pub fn play(
        &mut self,
        position: &str,
        turn_end: Instant,
        margin: Duration,
    ) -> Result<Vec<String>, String> {
        let now = Instant::now();
        let answer_by = turn_end.checked_sub(margin / 2).unwrap_or(now).max(now);
        if self.engine.is_none() {
            if self.params.is_none() {
                return Err("no welcome from the server yet".into());
            }
            if self.next_start >= answer_by {
                return Err("the engine is being restarted".into());
            }
            while Instant::now() < self.next_start {
                if self.stopping() {
                    return Err("stopping".into());
                }
                std::thread::sleep(
                    STOP_POLL.min(self.next_start.saturating_duration_since(Instant::now())),
                );
            }
            if !self.start(answer_by) {
                return Err("the engine could not be started in time".into());
            }
        }
        let engine = self.engine.as_mut().expect("an engine was just started");
        engine.drain();
        let think = self
            .movetime
            .min(
                turn_end
                    .checked_sub(margin)
                    .unwrap_or(now)
                    .saturating_duration_since(Instant::now()),
            )
            .max(Duration::from_millis(1));
        let asked = engine
            .send(position)
            .and_then(|()| engine.send(&format!("go movetime {}", think.as_millis())));
        let answer = match asked {
            Ok(()) => self.wait("bestturn", answer_by),
            Err(EngineGone(why)) => Wait::Gone(why),
        };
        let answer = match answer {
            Wait::Late => {
                // Late: ask it to stop, and take an answer that comes within the grace.
                let grace_end = turn_end
                    .checked_sub(margin / 4)
                    .unwrap_or(answer_by)
                    .max(answer_by);
                match self.engine.as_mut().map(|engine| engine.send("stop")) {
                    Some(Ok(())) => self.wait("bestturn", grace_end),
                    Some(Err(EngineGone(why))) => Wait::Gone(why),
                    None => Wait::Gone("no engine".into()),
                }
            }
            other => other,
        };
        match answer {
            Wait::Line(moves) => {
                self.failures = 0;
                Ok(moves)
            }
            Wait::Late => {
                self.failed("hung: no bestturn before the deadline");
                Err("the engine did not answer in time".into())
            }
            Wait::Gone(why) => {
                self.failed(&why);
                Err(format!("the engine is gone ({why})"))
            }
            Wait::Stopping => Err("stopping".into()),
        }
    }
}

/// Waits for a line starting with `word` before `deadline`, looking now and then whether
/// `stop` is set.
fn wait_on(
    engine: &mut EngineProcess,
    word: &str,
    deadline: Instant,
    stop: Option<&AtomicBool>,
) -> Wait {
    loop {
        if stop.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Wait::Stopping;
        }
        let now = Instant::now();
        if now >= deadline {
            return Wait::Late;
        }
        let slice_end = deadline.min(now + STOP_POLL);
        match engine.wait_for(word, slice_end) {
            Ok(Some(words)) => return Wait::Line(words),
            Ok(None) => {}
            Err(EngineGone(why)) => return Wait::Gone(why),
        }
    }
}
