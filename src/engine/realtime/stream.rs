//! Streaming: the referee tells the game as it happens (its clock, the events, the orders it
//! refused), the engine keeps its own copy of the state and hands on each order its player
//! decides to start.
//!
//! The referee is the authority on time: the engine's "now" is the last ms it was given plus the
//! wall time since that line arrived. Its copy replays the `start` events into the simulator,
//! which is deterministic, so starts alone rebuild the game; the other events are checked against
//! what the simulator did (a disagreement is an error, and the copy stays as it was).

use super::{decide, Decision, SharedPlayer};
use crate::rules::realtime::{Color, EndReason, Event, EventKind, Ms, Order, RealtimeState};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long an order we printed waits for its `start` event or its refusal before the player is
/// asked again (a referee that never answers should not silence us).
const PENDING_PATIENCE: Duration = Duration::from_millis(500);

/// What the protocol thread and the deciding thread share.
struct Book {
    running: bool,
    side: Color,
    budget: Duration,
    /// The game at `clock` (or at its last ms, when it ended before).
    state: RealtimeState,
    /// The last ms the referee gave, and when that line arrived.
    clock: Ms,
    given_at: Instant,
    /// Events the simulator produced at `clock` that the referee has not told yet.
    untold: Vec<Event>,
    /// The order we printed last, not yet started or refused by the referee, and when.
    pending: Option<(Order, Instant)>,
    /// The order the referee refused last, and when we heard it: not printed again at once.
    refused: Option<(Order, Instant)>,
    /// Counts the changes, so that a decision made on an older state is judged again.
    changes: u64,
}

impl Book {
    /// The engine's estimate of the referee's now.
    fn now(&self) -> Ms {
        self.clock
            .saturating_add(self.given_at.elapsed().as_millis() as Ms)
    }

    /// The state at the estimated now.
    fn state_now(&self) -> RealtimeState {
        let mut state = self.state.clone();
        let now = self.now();
        if now > state.now() {
            state.advance_to(now, &mut Vec::new());
        }
        state
    }

    /// The state at `ms` and the events there not told yet, or why `ms` may not come now.
    fn at(&self, ms: Ms, command: &str) -> Result<(RealtimeState, Vec<Event>), String> {
        if ms < self.clock {
            return Err(format!(
                "{command}: {ms} ms is before {} ms, the last time given; the referee's lines \
                 come in time order",
                self.clock
            ));
        }
        Ok(self.state.seen_at(self.clock, &self.untold, ms))
    }

    fn commit(&mut self, state: RealtimeState, clock: Ms, untold: Vec<Event>) {
        self.state = state;
        self.clock = clock;
        self.given_at = Instant::now();
        self.untold = untold;
        self.changes += 1;
    }

    fn time(&mut self, ms: Ms) -> Result<(), String> {
        let (state, untold) = self.at(ms, "time")?;
        self.commit(state, ms, untold);
        Ok(())
    }

    fn refused(&mut self, ms: Ms, order: Order) -> Result<(), String> {
        let (state, untold) = self.at(ms, "refused")?;
        if self.pending.is_some_and(|(pending, _)| pending == order) {
            self.pending = None;
        }
        self.refused = Some((order, Instant::now()));
        self.commit(state, ms, untold);
        Ok(())
    }

    fn event(&mut self, event: Event) -> Result<(), String> {
        let (mut state, mut untold) = self.at(event.ms, "event")?;
        let unchanged = "; the state is unchanged";
        match event.kind {
            EventKind::Started { color, order } => {
                state
                    .apply(color, order, &mut Vec::new())
                    .map_err(|refusal| {
                        format!(
                        "event: '{event}': this engine's copy of the game refuses {} {order} at \
                         {} ms: {refusal}{unchanged}",
                        color.name(),
                        event.ms
                    )
                    })?;
                let ours =
                    color == self.side && self.pending.is_some_and(|(pending, _)| pending == order);
                if ours {
                    self.pending = None;
                }
            }
            EventKind::Ended(outcome)
                if matches!(
                    outcome.reason,
                    EndReason::Resignation | EndReason::AgreedDraw
                ) && state.outcome().is_none() =>
            {
                let mut ended = Vec::new();
                match (outcome.reason, outcome.winner) {
                    (EndReason::Resignation, Some(winner)) => {
                        state.resign(winner.flip(), &mut ended)
                    }
                    (EndReason::AgreedDraw, None) => state.agree_draw(&mut ended),
                    _ => {
                        return Err(format!(
                            "event: '{event}': a resignation has a winner and an agreed draw has \
                             none{unchanged}"
                        ))
                    }
                }
            }
            _ => {
                let Some(at) = untold.iter().position(|told| *told == event) else {
                    let happened: Vec<String> =
                        untold.iter().map(|event| event.to_string()).collect();
                    let happened = match happened.is_empty() {
                        true => "nothing else".to_string(),
                        false => happened.join(", "),
                    };
                    return Err(format!(
                        "event: '{event}' does not happen in this engine's copy of the game; at \
                         {} ms it has {happened}{unchanged}",
                        event.ms
                    ));
                };
                untold.remove(at);
            }
        }
        self.commit(state, event.ms, untold);
        Ok(())
    }
}

struct Shared {
    book: Mutex<Book>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Book> {
        self.book
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A decision the streaming thread hands on: an order to start (never `Start(None)`), or one
/// the rules refuse, or a failure; `ms` is the estimated now it was decided at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    pub side: Color,
    pub ms: Ms,
    pub decision: Decision,
}

/// Where the streaming thread hands its decisions.
pub type OnDecided = Box<dyn Fn(&Decided) + Send>;

/// A streaming game: the book and the thread that decides.
pub struct Stream {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Stream {
    /// Starts streaming for `side` from `state` (its ms is the clock, as of now).
    pub fn start(
        player: SharedPlayer,
        state: RealtimeState,
        side: Color,
        budget: Duration,
        on_decided: OnDecided,
    ) -> Stream {
        let book = Book {
            running: true,
            side,
            budget,
            clock: state.now(),
            state,
            given_at: Instant::now(),
            untold: Vec::new(),
            pending: None,
            refused: None,
            changes: 0,
        };
        let shared = Arc::new(Shared {
            book: Mutex::new(book),
            changed: Condvar::new(),
        });
        let thread_shared = shared.clone();
        let thread = thread::spawn(move || run(&thread_shared, &player, &on_decided));
        Stream {
            shared,
            thread: Some(thread),
        }
    }

    pub fn side(&self) -> Color {
        self.shared.lock().side
    }

    /// The engine's copy of the game, at the last ms given.
    pub fn state(&self) -> RealtimeState {
        self.shared.lock().state.clone()
    }

    /// `position` while streaming: the game starts again from `state`; streaming goes on.
    pub fn reset(&self, state: RealtimeState) {
        let mut book = self.shared.lock();
        let clock = state.now();
        book.pending = None;
        book.commit(state, clock, Vec::new());
        self.shared.changed.notify_all();
    }

    pub fn time(&self, ms: Ms) -> Result<(), String> {
        self.update(|book| book.time(ms))
    }

    pub fn event(&self, event: Event) -> Result<(), String> {
        self.update(|book| book.event(event))
    }

    pub fn refused(&self, ms: Ms, order: Order) -> Result<(), String> {
        self.update(|book| book.refused(ms, order))
    }

    fn update(&self, change: impl FnOnce(&mut Book) -> Result<(), String>) -> Result<(), String> {
        let result = change(&mut self.shared.lock());
        if result.is_ok() {
            self.shared.changed.notify_all();
        }
        result
    }

    /// Ends streaming: no order is printed after this returns. Gives the game as last known.
    pub fn stop(mut self) -> RealtimeState {
        self.end();
        self.state()
    }

    fn end(&mut self) {
        self.shared.lock().running = false;
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            // The thread catches the player's panics; nothing else in it panics.
            let _ = thread.join();
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.end();
    }
}

/// How long to wait before asking again when the player waits: a tenth of a tick, 5 to 100 ms,
/// and no later than the next thing the simulator knows will happen.
fn pause(state: &RealtimeState) -> Duration {
    let tick = state.params().tick();
    let poll = Duration::from_millis((tick / 10).clamp(5, 100));
    match state.next_change() {
        Some(next) => poll.min(Duration::from_millis(next.saturating_sub(state.now()))),
        None => poll,
    }
}

/// The deciding thread: asks the player at the estimated now, hands on the orders it may start.
fn run(shared: &Shared, player: &SharedPlayer, on_decided: &OnDecided) {
    let mut book = shared.lock();
    loop {
        if !book.running {
            return;
        }
        if book.state.outcome().is_some() {
            book = shared
                .changed
                .wait(book)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            continue;
        }
        if let Some((_, since)) = book.pending {
            let left = PENDING_PATIENCE.saturating_sub(since.elapsed());
            if !left.is_zero() {
                book = wait(shared, book, left);
                continue;
            }
            book.pending = None;
        }
        let (state, side, budget, seen) = (book.state_now(), book.side, book.budget, book.changes);
        drop(book);
        let decision = decide(player, &state, side, budget);
        book = shared.lock();
        if !book.running {
            return;
        }
        match decision {
            Decision::Start(Some(order)) => {
                // The referee refused it a moment ago (its clock may run behind our estimate):
                // not again before a pause.
                let refused = book
                    .refused
                    .is_some_and(|(refused, at)| refused == order && at.elapsed() < pause(&state));
                if refused {
                    book = wait(shared, book, pause(&state));
                // Time passed while the player thought: the order must still be one to start now.
                } else if book.state_now().check(side, order).is_ok() {
                    on_decided(&Decided {
                        side,
                        ms: state.now(),
                        decision,
                    });
                    book.pending = Some((order, Instant::now()));
                }
            }
            Decision::Start(None) if book.changes == seen => {
                book = wait(shared, book, pause(&state))
            }
            Decision::Start(None) => {}
            Decision::Refused(..) | Decision::Failed => {
                on_decided(&Decided {
                    side,
                    ms: state.now(),
                    decision,
                });
                book = wait(shared, book, pause(&state));
            }
        }
    }
}

fn wait<'a>(
    shared: &'a Shared,
    book: MutexGuard<'a, Book>,
    pause: Duration,
) -> MutexGuard<'a, Book> {
    shared
        .changed
        .wait_timeout(book, pause)
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::realtime::RealtimeParams;

    fn event(text: &str) -> Event {
        text.parse().unwrap()
    }

    fn book(side: Color) -> Book {
        Book {
            running: true,
            side,
            budget: Duration::ZERO,
            state: RealtimeState::start(RealtimeParams::default()),
            clock: 0,
            given_at: Instant::now(),
            untold: Vec::new(),
            pending: None,
            refused: None,
            changes: 0,
        }
    }

    #[test]
    fn starts_replay_and_the_other_events_are_checked_once() {
        let mut book = book(Color::Black);
        book.event(event("0 start white e2e4")).unwrap();
        book.event(event("1000 start black g8f6")).unwrap();
        // The pawn arrives at 2000: told once, and not twice.
        book.event(event("2000 arrive white pawn e4")).unwrap();
        let again = book.event(event("2000 arrive white pawn e4")).unwrap_err();
        assert_eq!(
            again,
            "event: '2000 arrive white pawn e4' does not happen in this engine's copy of the \
             game; at 2000 ms it has nothing else; the state is unchanged"
        );
        let early = book.event(event("1999 start black e7e5")).unwrap_err();
        assert!(
            early.starts_with("event: 1999 ms is before 2000 ms"),
            "{early}"
        );
        // The knight lands at 3000 whether or not it is told.
        book.time(3500).unwrap();
        assert_eq!(
            book.state.text(),
            "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR KQkq 3500 0 d:e4:12000 ep:e4:12000 d:f6:13000"
        );
        assert_eq!(
            book.time(3499).unwrap_err().split(',').next(),
            Some("time: 3499 ms is before 3500 ms")
        );
    }

    #[test]
    fn our_pending_order_settles_on_its_start_or_its_refusal() {
        let mut book = book(Color::White);
        let order = Order::parse("e2e4").unwrap();
        book.pending = Some((order, Instant::now()));
        book.event(event("10 start black e7e5")).unwrap();
        assert!(book.pending.is_some());
        book.event(event("20 start white e2e4")).unwrap();
        assert!(book.pending.is_none());
        book.pending = Some((Order::parse("d2d4").unwrap(), Instant::now()));
        book.refused(30, Order::parse("d2d4").unwrap()).unwrap();
        assert!(book.pending.is_none());
        assert_eq!(
            book.refused.map(|(order, _)| order.to_string()),
            Some("d2d4".into())
        );
    }

    #[test]
    fn a_resignation_ends_the_copy_and_a_start_after_it_is_refused() {
        let mut book = book(Color::White);
        book.event(event("100 end 0-1 resignation")).unwrap();
        assert!(book.state.outcome().is_some());
        let after = book.event(event("200 start black e7e5")).unwrap_err();
        assert!(
            after.contains("this engine's copy of the game refuses black e7e5"),
            "{after}"
        );
        assert!("300 end 1-0 nonsense".parse::<Event>().is_err());
    }
}
