//! The one-shot `go side <side>`: the player decides on a worker thread, so the session answers
//! `stop` and `isready` meanwhile. Each `go` gets exactly one `bestmove`, from whoever comes
//! first: the player's checked order, `stop` (`bestmove none`), or the `movetime` deadline
//! (`bestmove none`, the player being late). Two threads live as long as the dialect: the decider
//! and the deadline's watch, so a `go` costs no thread start (the arena asks every 100 ms of game
//! time).

use crate::plan::RealtimePlayer;
use crate::protocol::Output;
use crate::rules::realtime::{Color, Order, RealtimeState};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// The player, shared by the decider, the streaming thread and the dialect (options).
pub type SharedPlayer = Arc<Mutex<Box<dyn RealtimePlayer>>>;

/// Locks the player; a panic in an earlier decision does not make it unusable.
pub fn lock_player(player: &SharedPlayer) -> MutexGuard<'_, Box<dyn RealtimePlayer>> {
    player
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `bestmove <order>` or `bestmove none`.
pub fn bestmove_line(order: Option<Order>) -> String {
    match order {
        Some(order) => format!("bestmove {order}"),
        None => "bestmove none".to_string(),
    }
}

/// What the player said, checked: the lines that answer a decision. An order the rules refuse
/// now is never printed (`none` and an error instead); nor is anything after a panic.
pub fn checked_decision(
    name: &str,
    state: &RealtimeState,
    side: Color,
    decided: thread::Result<Option<Order>>,
) -> Result<Option<Order>, String> {
    match decided {
        Ok(None) => Ok(None),
        Ok(Some(order)) => match state.check(side, order) {
            Ok(()) => Ok(Some(order)),
            Err(refusal) => Err(format!(
                "{name} chose {order} for {} at {} ms, which the rules refuse: {refusal}",
                side.name(),
                state.now()
            )),
        },
        Err(_) => Err(format!(
            "{name} failed while deciding for {} at {} ms",
            side.name(),
            state.now()
        )),
    }
}

/// Runs the player's decision, catching a panic (the session must keep serving).
pub fn decide(
    player: &SharedPlayer,
    state: &RealtimeState,
    side: Color,
    budget: Duration,
) -> thread::Result<Option<Order>> {
    panic::catch_unwind(AssertUnwindSafe(|| {
        lock_player(player).decide(state, side, budget)
    }))
}

/// One `go`'s answer: printed once, by whoever gives it first.
pub struct Answer {
    given: Mutex<bool>,
    changed: Condvar,
    out: Output,
}

impl Answer {
    fn new(out: Output) -> Answer {
        Answer {
            given: Mutex::new(false),
            changed: Condvar::new(),
            out,
        }
    }

    fn lock(&self) -> MutexGuard<'_, bool> {
        self.given
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Prints `lines` unless the answer was given already; the lines are out when this returns.
    fn give(&self, lines: &[String]) {
        let mut given = self.lock();
        if !*given {
            // A failed write means the GUI is gone, which the read loop notices on its own.
            let _ = self.out.lines(lines);
            *given = true;
            self.changed.notify_all();
        }
    }

    fn is_given(&self) -> bool {
        *self.lock()
    }

    /// Waits until the answer is given or `deadline` passes (`None`: no deadline).
    fn wait_until(&self, deadline: Option<Instant>) {
        let mut given = self.lock();
        while !*given {
            given = match deadline {
                None => self
                    .changed
                    .wait(given)
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return;
                    }
                    self.changed
                        .wait_timeout(given, left)
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .0
                }
            };
        }
    }
}

struct Request {
    state: RealtimeState,
    side: Color,
    budget: Duration,
    answer: Arc<Answer>,
}

struct Watch {
    deadline: Instant,
    movetime: Duration,
    answer: Arc<Answer>,
}

/// The time kept back from `movetime` for the answer to reach the pipe: a quarter, at most 25 ms.
pub fn budget_of(movetime: Duration) -> Duration {
    movetime.saturating_sub((movetime / 4).min(Duration::from_millis(25)))
}

/// Answers one-shot `go`s with a player.
pub struct Thinker {
    player: SharedPlayer,
    name: String,
    /// The worker threads' inboxes, made at the first `go`.
    workers: Option<(Sender<Request>, Sender<Watch>)>,
    /// The last `go`'s answer.
    current: Option<Arc<Answer>>,
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
        self.current
            .as_ref()
            .is_some_and(|answer| !answer.is_given())
    }

    /// Starts deciding for `side` at the state's ms; the answer goes to `out` within `movetime`.
    pub fn go(
        &mut self,
        state: &RealtimeState,
        side: Color,
        movetime: Duration,
        out: &Output,
    ) -> Result<(), String> {
        if self.is_thinking() {
            return Err("a search is already running; send 'stop' first".into());
        }
        let answer = Arc::new(Answer::new(out.clone()));
        self.current = Some(answer.clone());
        if state.outcome().is_some() {
            answer.give(&[bestmove_line(None)]);
            return Ok(());
        }
        let (decider, watch) = self.workers();
        let request = Request {
            state: state.clone(),
            side,
            budget: budget_of(movetime),
            answer: answer.clone(),
        };
        let watched = Watch {
            deadline: Instant::now() + movetime,
            movetime,
            answer: answer.clone(),
        };
        if decider.send(request).is_err() || watch.send(watched).is_err() {
            // A worker is gone (it cannot panic, but be safe): answer rather than hang.
            self.workers = None;
            answer.give(&[bestmove_line(None)]);
        }
        Ok(())
    }

    /// Answers `bestmove none` at once unless the answer is out already.
    pub fn stop(&mut self) {
        if let Some(answer) = self.current.take() {
            answer.give(&[bestmove_line(None)]);
        }
    }

    /// Waits for the answer (the player's, or the deadline's).
    pub fn wait(&mut self) {
        if let Some(answer) = self.current.take() {
            answer.wait_until(None);
        }
    }

    fn workers(&mut self) -> (Sender<Request>, Sender<Watch>) {
        if let Some((decider, watch)) = &self.workers {
            return (decider.clone(), watch.clone());
        }
        let (decider, requests) = mpsc::channel::<Request>();
        let (watch, watches) = mpsc::channel::<Watch>();
        let (player, name) = (self.player.clone(), self.name.clone());
        // Each ends when the dialect (the sender) is gone.
        thread::spawn(move || {
            for request in requests {
                if request.answer.is_given() {
                    continue;
                }
                let decided = decide(&player, &request.state, request.side, request.budget);
                let lines = match checked_decision(&name, &request.state, request.side, decided) {
                    Ok(order) => vec![bestmove_line(order)],
                    Err(error) => vec![
                        crate::protocol::print::error_line(&format!("{error}; answering none")),
                        bestmove_line(None),
                    ],
                };
                request.answer.give(&lines);
            }
        });
        let name = self.name.clone();
        thread::spawn(move || {
            for watched in watches {
                watched.answer.wait_until(Some(watched.deadline));
                watched.answer.give(&[
                    crate::protocol::print::info_string(&format!(
                        "{name} did not decide within {} ms; answering none",
                        watched.movetime.as_millis()
                    )),
                    bestmove_line(None),
                ]);
            }
        });
        self.workers = Some((decider.clone(), watch.clone()));
        (decider, watch)
    }
}
