//! `go`: the player plans on a worker thread, so the session answers `stop`, `isready` and
//! `quit` meanwhile. Each `go` gets exactly one `bestturn`, from whoever comes first: the
//! player's plan, `stop`, or the `movetime` watch (the player being late); the last two answer
//! the best turn the player reported so far. Every answer is checked move by move against the
//! world before it is printed: a move the rules refuse is dropped, never sent. Two threads live
//! as long as the dialect (the planner's and the watch), so a `go` costs no thread start.

use crate::plan::{MegachessPlayer, PlanProgress, TurnBudget};
use crate::protocol::print::{error_line, info_string};
use crate::protocol::Output;
use crate::rules::megachess::{Move, PlayerId, World};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// The player, shared by the planning thread and the dialect (options, new game).
pub type SharedPlayer = Arc<Mutex<Box<dyn MegachessPlayer>>>;

/// Locks the player; a panic in an earlier plan does not make it unusable.
pub fn lock_player(player: &SharedPlayer) -> MutexGuard<'_, Box<dyn MegachessPlayer>> {
    player
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The least time between two progress `info` lines (the last one before `bestturn` is always
/// printed).
const INFO_INTERVAL: Duration = Duration::from_millis(100);
/// How long `stop` waits for the player to return its plan before answering its best so far.
const STOP_GRACE: Duration = Duration::from_millis(30);

/// What the planner gets of `movetime`: a quarter is kept back, at most 25 ms, for checking the
/// turn and writing it out.
pub fn planning_budget(movetime: Duration) -> Duration {
    movetime.saturating_sub((movetime / 4).min(Duration::from_millis(25)))
}

/// When the watch answers for a late player: a fifth before `movetime`, at most 10 ms before.
pub fn watch_time(movetime: Duration) -> Duration {
    movetime.saturating_sub((movetime / 5).min(Duration::from_millis(10)))
}

/// `bestturn` and its moves.
pub fn bestturn_line(moves: &[Move]) -> String {
    let mut line = String::from("bestturn");
    for mv in moves {
        line.push(' ');
        line.push_str(&mv.to_string());
    }
    line
}

/// A progress line: `info time <ms> iteration <n> evaluated <n> score <n> moves <n> pv ...`.
pub fn info_line(progress: &PlanProgress, elapsed: Duration, moves: &[Move]) -> String {
    let mut line = format!(
        "info time {} iteration {} evaluated {} score {} moves {}",
        elapsed.as_millis(),
        progress.iteration,
        progress.evaluated,
        progress.score,
        moves.len()
    );
    if !moves.is_empty() {
        line.push_str(" pv");
        for mv in moves {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
    }
    line
}

/// The moves of `moves` the rules let `me` make in order on `world`, and a text naming the ones
/// they refuse (each checked after the moves kept before it).
pub fn checked_turn(world: &World, me: PlayerId, moves: &[Move]) -> (Vec<Move>, Option<String>) {
    let mut board = world.clone();
    let mut kept = Vec::with_capacity(moves.len());
    let mut refused = Vec::new();
    for (index, &mv) in moves.iter().enumerate() {
        match board.apply(me, mv) {
            Ok(_) => kept.push(mv),
            Err(rejection) => refused.push(format!("move {} {mv}: {rejection}", index + 1)),
        }
    }
    let refused = (!refused.is_empty()).then(|| refused.join("; "));
    (kept, refused)
}

/// Where a `go`'s answer stands.
#[derive(Default)]
struct Answer {
    /// The answer is out.
    given: bool,
    /// The player's plan, held for `stop` under `go infinite`.
    held: Option<Vec<Move>>,
}

/// One `go`: its world, its stop flag, the player's last report and its answer, given once.
struct Go {
    world: Arc<World>,
    me: PlayerId,
    name: String,
    started: Instant,
    /// `go infinite`: the plan is answered at `stop`, not when the player returns it.
    infinite: bool,
    stop: AtomicBool,
    /// The player's last progress report, and when the last `info` line went out.
    progress: Mutex<(Option<PlanProgress>, Option<Instant>)>,
    answer: Mutex<Answer>,
    changed: Condvar,
    out: Output,
}

impl Go {
    fn lock_answer(&self) -> MutexGuard<'_, Answer> {
        self.answer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lock_progress(&self) -> MutexGuard<'_, (Option<PlanProgress>, Option<Instant>)> {
        self.progress
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn is_given(&self) -> bool {
        self.lock_answer().given
    }

    /// The player returned its plan: the answer, or under `go infinite` held for `stop`.
    fn planned(&self, moves: Vec<Move>) {
        if self.infinite && !self.stop.load(Ordering::Relaxed) {
            let mut answer = self.lock_answer();
            answer.held = Some(moves);
            self.changed.notify_all();
        } else {
            self.answer(&moves, None, None);
        }
    }

    /// The plan held for `stop`, or else the best turn the player reported so far.
    fn held_or_best(&self) -> Vec<Move> {
        let held = self.lock_answer().held.clone();
        held.unwrap_or_else(|| self.best_so_far())
    }

    /// The player reported: kept for a late answer, printed now and then.
    fn report(&self, progress: &PlanProgress) {
        let now = Instant::now();
        let due = {
            let mut last = self.lock_progress();
            last.0 = Some(progress.clone());
            let due = last
                .1
                .is_none_or(|at| now.duration_since(at) >= INFO_INTERVAL);
            if due {
                last.1 = Some(now);
            }
            due
        };
        if due {
            let answer = self.lock_answer();
            if !answer.given {
                // A failed write means the server is gone; the read loop notices on its own.
                let _ = self.out.line(&info_line(
                    progress,
                    self.started.elapsed(),
                    &progress.moves,
                ));
            }
        }
    }

    /// The best turn the player reported so far.
    fn best_so_far(&self) -> Vec<Move> {
        self.lock_progress()
            .0
            .as_ref()
            .map(|progress| progress.moves.clone())
            .unwrap_or_default()
    }

    /// Prints the answer unless it is out already: `note` (an `info string`), an error naming
    /// the moves the rules refuse, the last progress line, then `bestturn` with the rest.
    fn answer(&self, moves: &[Move], note: Option<String>, error: Option<String>) {
        let mut answer = self.lock_answer();
        if answer.given {
            return;
        }
        let (kept, refused) = checked_turn(&self.world, self.me, moves);
        let mut lines = Vec::new();
        lines.extend(note.map(|note| info_string(&note)));
        lines.extend(error.map(|error| error_line(&error)));
        if let Some(refused) = refused {
            lines.push(error_line(&format!(
                "{} planned moves the rules refuse, dropped: {refused}",
                self.name
            )));
        }
        let last = self.lock_progress().0.clone().unwrap_or_default();
        lines.push(info_line(&last, self.started.elapsed(), &kept));
        lines.push(bestturn_line(&kept));
        let _ = self.out.lines(lines);
        answer.given = true;
        self.changed.notify_all();
    }

    /// Waits until the answer is out (or a plan is held for `stop`) or `deadline` passes
    /// (`None`: no deadline).
    fn wait_until(&self, deadline: Option<Instant>) {
        let mut answer = self.lock_answer();
        while !answer.given && answer.held.is_none() {
            answer = match deadline {
                None => self
                    .changed
                    .wait(answer)
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return;
                    }
                    self.changed
                        .wait_timeout(answer, left)
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .0
                }
            };
        }
    }
}

struct Request {
    go: Arc<Go>,
    budget: TurnBudget,
}

/// How long one `go` thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkLimit {
    /// Answer within this (`go movetime`, or `go` alone: most of a turn).
    Movetime(Duration),
    /// Answer when the player has judged about this many moves (`go nodes`).
    Work(u64),
    /// Answer at `stop` (`go infinite`).
    UntilStop,
}

struct Watch {
    go: Arc<Go>,
    deadline: Instant,
    movetime: Duration,
}

/// Answers `go`s with a player.
pub struct Thinker {
    player: SharedPlayer,
    name: String,
    /// The worker threads' inboxes, made at the first `go`.
    workers: Option<(Sender<Request>, Sender<Watch>)>,
    /// The last `go`.
    current: Option<Arc<Go>>,
}

impl Thinker {
    pub fn new(player: SharedPlayer, name: String) -> Thinker {
        Thinker {
            player,
            name,
            workers: None,
            current: None,
        }
    }

    /// Whether a `go` waits for its answer.
    pub fn is_thinking(&self) -> bool {
        self.current.as_ref().is_some_and(|go| !go.is_given())
    }

    /// Starts planning `me`'s turn; the answer goes to `out` as `limit` says.
    pub fn go(
        &mut self,
        world: Arc<World>,
        me: PlayerId,
        limit: ThinkLimit,
        out: &Output,
    ) -> Result<(), String> {
        if self.is_thinking() {
            return Err("a plan is already running; send 'stop' first".into());
        }
        let go = Arc::new(Go {
            world,
            me,
            name: self.name.clone(),
            started: Instant::now(),
            infinite: limit == ThinkLimit::UntilStop,
            stop: AtomicBool::new(false),
            progress: Mutex::new((None, None)),
            answer: Mutex::new(Answer::default()),
            changed: Condvar::new(),
            out: out.clone(),
        });
        self.current = Some(go.clone());
        let (planner, watch) = self.workers();
        let budget = match limit {
            ThinkLimit::Movetime(movetime) => TurnBudget::Time(planning_budget(movetime)),
            ThinkLimit::Work(moves) => TurnBudget::Work(moves),
            ThinkLimit::UntilStop => {
                TurnBudget::Time(Duration::from_millis(super::command::MAX_MOVETIME_MS))
            }
        };
        let mut sent = planner
            .send(Request {
                go: go.clone(),
                budget,
            })
            .is_ok();
        if let ThinkLimit::Movetime(movetime) = limit {
            sent &= watch
                .send(Watch {
                    go: go.clone(),
                    deadline: go.started + watch_time(movetime),
                    movetime,
                })
                .is_ok();
        }
        if !sent {
            // A worker is gone (they catch the player's panics, but be safe): answer, not hang.
            self.workers = None;
            go.answer(&[], None, Some("the planning thread is gone".into()));
        }
        Ok(())
    }

    /// Ends a running `go`: the player is told to stop and given a moment to return its plan
    /// (or its plan held under `go infinite`), else its best turn so far is the answer. The
    /// answer is out when this returns.
    pub fn stop(&mut self) {
        if let Some(go) = self.current.take() {
            go.stop.store(true, Ordering::Relaxed);
            go.wait_until(Some(Instant::now() + STOP_GRACE));
            go.answer(&go.held_or_best(), None, None);
        }
    }

    /// Waits for a `go` that ends by itself; stops one that runs until `stop`.
    pub fn wait(&mut self) {
        match self.current.take() {
            Some(go) if go.infinite => {
                self.current = Some(go);
                self.stop();
            }
            Some(go) => go.wait_until(None),
            None => {}
        }
    }

    fn workers(&mut self) -> (Sender<Request>, Sender<Watch>) {
        if let Some((planner, watch)) = &self.workers {
            return (planner.clone(), watch.clone());
        }
        let (planner, requests) = mpsc::channel::<Request>();
        let (watch, watches) = mpsc::channel::<Watch>();
        let player = self.player.clone();
        // Each ends when the dialect (the sender) is gone.
        thread::spawn(move || {
            for Request { go, budget } in requests {
                if go.is_given() {
                    continue;
                }
                let planned = panic::catch_unwind(AssertUnwindSafe(|| {
                    let mut report = |progress: &PlanProgress| go.report(progress);
                    lock_player(&player).plan_turn(&go.world, go.me, budget, &go.stop, &mut report)
                }));
                match planned {
                    Ok(moves) => go.planned(moves),
                    Err(_) => go.answer(
                        &go.best_so_far(),
                        None,
                        Some(format!(
                            "{} failed while planning for player {}; answering its best turn so \
                             far",
                            go.name, go.me
                        )),
                    ),
                }
            }
        });
        thread::spawn(move || {
            for Watch {
                go,
                deadline,
                movetime,
            } in watches
            {
                go.wait_until(Some(deadline));
                if !go.is_given() {
                    go.stop.store(true, Ordering::Relaxed);
                    let note = format!(
                        "{} did not finish within {} ms; answering its best turn so far",
                        go.name,
                        movetime.as_millis()
                    );
                    go.answer(&go.best_so_far(), Some(note), None);
                }
            }
        });
        self.workers = Some((planner.clone(), watch.clone()));
        (planner, watch)
    }
}
