//! The deadline worker that the engines of the games without turns share: a question is
//! thought over on a worker thread while a watch thread keeps its deadline, so the caller stays
//! free to take `stop`; each question gets exactly one answer, from whoever comes first (the
//! thinking, `stop`, the deadline, or a panic caught in the thinking). Both threads live as
//! long as the worker, so a question costs no thread start (the arena asks every 100 ms of game
//! time). Answers and progress go to the caller's `deliver`, under the question's lock, so that
//! nothing is delivered after the answer and the answer is out when `stop` returns.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// How a question ended, first come first served.
#[derive(Debug)]
pub enum Ending<A> {
    /// The thinking finished with this (under [`Limit::UntilStop`], at `stop`).
    Thought(A),
    /// `stop` came first.
    Stopped,
    /// The deadline passed first.
    Late,
    /// The thinking panicked.
    Failed,
    /// A worker thread is gone (it catches panics, so this should not happen).
    Gone,
}

/// What a worker hands its caller.
pub enum Delivery<'a, Q, P, A> {
    /// The thinking reported progress; the answer is not out yet.
    Progress {
        question: &'a Q,
        progress: &'a P,
        elapsed: Duration,
    },
    /// The one answer, with the last progress reported.
    Answer {
        question: &'a Q,
        ending: Ending<A>,
        last: Option<&'a P>,
        elapsed: Duration,
    },
}

/// How long a question may be thought over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Answered [`Ending::Late`] this long after it was asked, unless answered before.
    Deadline(Duration),
    /// The thinking ends by itself; no watch.
    Unwatched,
    /// The thinking's result is held and answered at `stop` (`go infinite`).
    UntilStop,
}

type Think<Q, P, A> = dyn Fn(&Q, &AtomicBool, &mut dyn FnMut(&P)) -> A + Send + Sync;
type Deliver<Q, P, A> = dyn Fn(Delivery<Q, P, A>) + Send + Sync;

/// Where a question's answer stands.
enum Stage<A> {
    Open,
    /// Thought out under [`Limit::UntilStop`], waiting for `stop`.
    Held(A),
    Given,
}

/// One question, its stop flag, its last progress and its answer.
struct Question<Q, P, A> {
    question: Q,
    asked: Instant,
    hold: bool,
    stop: AtomicBool,
    last: Mutex<Option<P>>,
    stage: Mutex<Stage<A>>,
    changed: Condvar,
    deliver: Box<Deliver<Q, P, A>>,
}

/// Locks a mutex; a panic while it was held (caught elsewhere: a player's, say) does not make
/// it unusable.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<Q, P: Clone, A> Question<Q, P, A> {
    fn is_given(&self) -> bool {
        matches!(*lock(&self.stage), Stage::Given)
    }

    /// Delivers `ending` unless an answer is out already; it is out when this returns.
    fn give(&self, ending: Ending<A>) {
        let mut stage = lock(&self.stage);
        if matches!(*stage, Stage::Given) {
            return;
        }
        let last = lock(&self.last).clone();
        (self.deliver)(Delivery::Answer {
            question: &self.question,
            ending,
            last: last.as_ref(),
            elapsed: self.asked.elapsed(),
        });
        *stage = Stage::Given;
        self.changed.notify_all();
    }

    /// The thinking finished: the answer, or under [`Limit::UntilStop`] held for `stop`.
    fn thought(&self, answer: A) {
        if self.hold && !self.stop.load(Ordering::Relaxed) {
            let mut stage = lock(&self.stage);
            if matches!(*stage, Stage::Open) {
                *stage = Stage::Held(answer);
                self.changed.notify_all();
            }
        } else {
            self.give(Ending::Thought(answer));
        }
    }

    fn report(&self, progress: &P) {
        *lock(&self.last) = Some(progress.clone());
        let stage = lock(&self.stage);
        if !matches!(*stage, Stage::Given) {
            (self.deliver)(Delivery::Progress {
                question: &self.question,
                progress,
                elapsed: self.asked.elapsed(),
            });
        }
    }

    /// Waits until the answer is out or held, or `deadline` passes (`None`: no deadline).
    fn wait_until(&self, deadline: Option<Instant>) {
        let mut stage = lock(&self.stage);
        while matches!(*stage, Stage::Open) {
            stage = match deadline {
                None => self
                    .changed
                    .wait(stage)
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return;
                    }
                    self.changed
                        .wait_timeout(stage, left)
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .0
                }
            };
        }
    }

    /// `stop`: the held answer if there is one, else [`Ending::Stopped`].
    fn stopped(&self) {
        let held = {
            let mut stage = lock(&self.stage);
            match std::mem::replace(&mut *stage, Stage::Open) {
                Stage::Held(answer) => Some(answer),
                other => {
                    *stage = other;
                    None
                }
            }
        };
        self.give(held.map_or(Ending::Stopped, Ending::Thought));
    }
}

type Inboxes<Q, P, A> = (
    Sender<Arc<Question<Q, P, A>>>,
    Sender<(Arc<Question<Q, P, A>>, Instant)>,
);

/// Thinks over questions `Q`, reporting progress `P` and answering `A`.
pub struct DeadlineWorker<Q, P, A> {
    think: Arc<Think<Q, P, A>>,
    /// The threads' inboxes, made at the first question.
    inboxes: Option<Inboxes<Q, P, A>>,
    /// The last question.
    current: Option<Arc<Question<Q, P, A>>>,
}

impl<Q, P, A> DeadlineWorker<Q, P, A>
where
    Q: Send + Sync + 'static,
    P: Clone + Send + 'static,
    A: Send + 'static,
{
    /// A worker that thinks with `think(question, stop, report)`; `think` should return soon
    /// after `stop` is set.
    pub fn new(
        think: impl Fn(&Q, &AtomicBool, &mut dyn FnMut(&P)) -> A + Send + Sync + 'static,
    ) -> DeadlineWorker<Q, P, A> {
        DeadlineWorker {
            think: Arc::new(think),
            inboxes: None,
            current: None,
        }
    }

    /// Whether a question waits for its answer.
    pub fn is_thinking(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|question| !question.is_given())
    }

    /// Asks `question`; its progress and answer go to `deliver`. Refused while a question
    /// waits for its answer.
    pub fn ask(
        &mut self,
        question: Q,
        limit: Limit,
        deliver: impl Fn(Delivery<Q, P, A>) + Send + Sync + 'static,
    ) -> Result<(), Busy> {
        if self.is_thinking() {
            return Err(Busy);
        }
        let question = Arc::new(Question {
            question,
            asked: Instant::now(),
            hold: limit == Limit::UntilStop,
            stop: AtomicBool::new(false),
            last: Mutex::new(None),
            stage: Mutex::new(Stage::Open),
            changed: Condvar::new(),
            deliver: Box::new(deliver),
        });
        self.current = Some(question.clone());
        let (thinker, watch) = self.inboxes();
        let mut sent = thinker.send(question.clone()).is_ok();
        if let Limit::Deadline(after) = limit {
            sent &= watch
                .send((question.clone(), question.asked + after))
                .is_ok();
        }
        if !sent {
            self.inboxes = None;
            question.give(Ending::Gone);
        }
        Ok(())
    }

    /// Ends the question: the thinking is told to stop and given up to `grace` to answer (or
    /// its held answer is taken), else the answer is [`Ending::Stopped`]. The answer is out when
    /// this returns.
    pub fn stop(&mut self, grace: Duration) {
        if let Some(question) = self.current.take() {
            question.stop.store(true, Ordering::Relaxed);
            if !grace.is_zero() {
                question.wait_until(Some(Instant::now() + grace));
            }
            question.stopped();
        }
    }

    /// Waits until the last question's answer is out or, under [`Limit::UntilStop`], held for
    /// `stop`: the event a caller waits on to see what is held, without a fixed wait.
    pub fn settle(&self) {
        if let Some(question) = &self.current {
            question.wait_until(None);
        }
    }

    /// Waits for a question that ends by itself (or by its deadline); stops one held until
    /// `stop`, with `grace` as [`DeadlineWorker::stop`].
    pub fn wait(&mut self, grace: Duration) {
        match self.current.take() {
            Some(question) if question.hold => {
                self.current = Some(question);
                self.stop(grace);
            }
            Some(question) => question.wait_until(None),
            None => {}
        }
    }

    fn inboxes(&mut self) -> Inboxes<Q, P, A> {
        if let Some((thinker, watch)) = &self.inboxes {
            return (thinker.clone(), watch.clone());
        }
        let (thinker, questions) = mpsc::channel::<Arc<Question<Q, P, A>>>();
        let (watch, watched) = mpsc::channel::<(Arc<Question<Q, P, A>>, Instant)>();
        let think = self.think.clone();
        // Each ends when the worker (the sender) is gone.
        thread::spawn(move || {
            for question in questions {
                if question.is_given() {
                    continue;
                }
                let thought = panic::catch_unwind(AssertUnwindSafe(|| {
                    let mut report = |progress: &P| question.report(progress);
                    think(&question.question, &question.stop, &mut report)
                }));
                match thought {
                    Ok(answer) => question.thought(answer),
                    Err(_) => question.give(Ending::Failed),
                }
            }
        });
        thread::spawn(move || {
            for (question, deadline) in watched {
                question.wait_until(Some(deadline));
                if !question.is_given() {
                    question.stop.store(true, Ordering::Relaxed);
                    question.give(Ending::Late);
                }
            }
        });
        self.inboxes = Some((thinker.clone(), watch.clone()));
        (thinker, watch)
    }
}

/// A question was asked while another waits for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::Receiver;

    type Told = Arc<Mutex<Sender<String>>>;

    /// A question whose thinking does not hear the stop flag: it waits for the gate alone.
    const DEAF: u32 = 55;

    /// A worker whose thinking waits for its gate (or the stop flag, but not for [`DEAF`]) and
    /// answers the question doubled, reporting the question first (99 panics); what is
    /// delivered comes back as text.
    fn worker() -> (
        DeadlineWorker<u32, u32, u32>,
        Sender<()>,
        Told,
        Receiver<String>,
    ) {
        let (open, gate) = mpsc::channel::<()>();
        let gate = Mutex::new(gate);
        let worker = DeadlineWorker::new(move |question: &u32, stop: &AtomicBool, report| {
            report(question);
            if *question == 99 {
                panic!("a thinking that fails");
            }
            let gate = gate.lock().unwrap();
            while *question == DEAF || !stop.load(Ordering::Relaxed) {
                if gate.recv_timeout(Duration::from_millis(1)).is_ok() {
                    break;
                }
            }
            question * 2
        });
        let (told, heard) = mpsc::channel();
        (worker, open, Arc::new(Mutex::new(told)), heard)
    }

    fn deliver(told: &Told) -> impl Fn(Delivery<u32, u32, u32>) + Send + Sync {
        let told = told.clone();
        move |delivery| {
            let text = match delivery {
                Delivery::Progress { progress, .. } => format!("progress {progress}"),
                Delivery::Answer { ending, last, .. } => format!("{ending:?} after {last:?}"),
            };
            told.lock().unwrap().send(text).unwrap();
        }
    }

    #[test]
    fn the_thinking_answers_once_and_a_second_question_waits_for_it() {
        let (mut worker, open, told, heard) = worker();
        worker.ask(3, Limit::Unwatched, deliver(&told)).unwrap();
        assert_eq!(heard.recv().unwrap(), "progress 3");
        assert_eq!(worker.ask(4, Limit::Unwatched, deliver(&told)), Err(Busy));
        open.send(()).unwrap();
        worker.wait(Duration::ZERO);
        assert_eq!(heard.recv().unwrap(), "Thought(6) after Some(3)");
        assert!(!worker.is_thinking());
        // Stopping after the answer delivers nothing more: the next thing heard is the next
        // question's progress.
        worker.stop(Duration::ZERO);
        worker.ask(DEAF, Limit::Unwatched, deliver(&told)).unwrap();
        assert_eq!(heard.recv().unwrap(), format!("progress {DEAF}"));
        // A stop with no grace answers at once. The thinking cannot answer first: it does not
        // hear the stop, so the test does not race it.
        worker.stop(Duration::ZERO);
        assert_eq!(heard.recv().unwrap(), format!("Stopped after Some({DEAF})"));
        // Its thought, once the gate lets it finish, goes nowhere: the next question is thought
        // only after it, and its progress is the next thing heard.
        open.send(()).unwrap();
        worker.ask(4, Limit::Unwatched, deliver(&told)).unwrap();
        assert_eq!(heard.recv().unwrap(), "progress 4");
        open.send(()).unwrap();
        worker.wait(Duration::ZERO);
        assert_eq!(heard.recv().unwrap(), "Thought(8) after Some(4)");
        assert!(heard.try_recv().is_err());
    }

    #[test]
    fn the_deadline_answers_late_and_a_panic_answers_failed() {
        let (mut worker, _open, told, heard) = worker();
        worker
            .ask(7, Limit::Deadline(Duration::from_millis(1)), deliver(&told))
            .unwrap();
        // The watch may answer before the thinking reports: then no progress is delivered.
        let first = heard.recv().unwrap();
        if first == "progress 7" {
            assert_eq!(heard.recv().unwrap(), "Late after Some(7)");
        } else {
            assert!(first.starts_with("Late after"), "{first}");
        }
        worker.wait(Duration::ZERO);
        worker.ask(99, Limit::Unwatched, deliver(&told)).unwrap();
        assert_eq!(heard.recv().unwrap(), "progress 99");
        assert_eq!(heard.recv().unwrap(), "Failed after Some(99)");
        worker.wait(Duration::ZERO);
        assert!(heard.try_recv().is_err());
    }

    #[test]
    fn until_stop_holds_the_thought_for_stop() {
        let (mut worker, open, told, heard) = worker();
        worker.ask(8, Limit::UntilStop, deliver(&told)).unwrap();
        assert_eq!(heard.recv().unwrap(), "progress 8");
        open.send(()).unwrap();
        // Held, not answered: the worker still counts as thinking until `stop`.
        assert!(worker.is_thinking());
        worker.stop(Duration::from_secs(60));
        assert_eq!(heard.recv().unwrap(), "Thought(16) after Some(8)");
        assert!(heard.try_recv().is_err());
    }
}
