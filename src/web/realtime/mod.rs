//! Realtime chess against Roger, in real time: the session behind `/ws/realtime`.
//!
//! The session owns the authoritative game (the arena's [`RefereeGame`]) and its clock, a wall
//! clock whose 0 ms is the `start` message. At every poll it plays the game on to the clock's ms,
//! lets Roger's player decide every `reaction_ms` of game time (in process, on the state at that
//! ms, as the lockstep referee asks a player), and tells the page the state whenever something
//! happened and at least every [`HEARTBEAT_MS`]. The human's orders count at the ms the session
//! reads them, like the wall-clock referee's. The messages are in docs/web-realtime.md.

mod request;
mod settings;
#[cfg(test)]
mod tests;
mod view;

use super::session::{Outbox, PageSession, Session};
use crate::arena::clock::{GameClock, WallClock};
use crate::arena::referee::realtime::RefereeGame;
use crate::plan::RealtimePlayer;
use crate::rules::realtime::{Ms, Order, Refusal};
use request::{RealtimeRequest, StartGame};
use settings::Settings;
use std::time::Duration;

/// The longest game time between two `state` messages: the page corrects its clock by them.
pub const HEARTBEAT_MS: Ms = 250;

/// Each of Roger's decisions may think this long (the planner spends a quarter of it), so that
/// the session's thread is never held up for long.
const THINK_BUDGET: Duration = Duration::from_millis(40);

/// Makes a game's clock at its start (tests use a clock they move by hand).
type ClockMaker = Box<dyn FnMut() -> Box<dyn GameClock> + Send>;
/// Makes Roger's player for a game's settings (tests use a scripted one).
type PlayerMaker = Box<dyn FnMut(&Settings) -> Box<dyn RealtimePlayer> + Send>;

/// One page's realtime games, one at a time.
pub struct RealtimeSession {
    live: Option<Live>,
    new_clock: ClockMaker,
    new_player: PlayerMaker,
}

/// The game under way (or just finished).
struct Live {
    settings: Settings,
    game: RefereeGame,
    clock: Box<dyn GameClock>,
    player: Box<dyn RealtimePlayer>,
    /// The game ms of Roger's next decision.
    next_decision: Ms,
    /// Events already told to the page.
    told: usize,
    /// The game ms of the last `state` message, `None` before the first.
    last_sent: Option<Ms>,
    /// The final state has been told: nothing more to send.
    closed: bool,
}

impl Default for RealtimeSession {
    fn default() -> Self {
        RealtimeSession::new()
    }
}

impl RealtimeSession {
    /// Games on the wall clock against the player the page names.
    pub fn new() -> RealtimeSession {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |elapsed| elapsed.as_nanos() as u64);
        RealtimeSession::with(
            Box::new(|| Box::new(WallClock::start())),
            Box::new(move |settings: &Settings| settings.opponent.player(seed, settings.skill)),
        )
    }

    fn with(new_clock: ClockMaker, new_player: PlayerMaker) -> RealtimeSession {
        RealtimeSession {
            live: None,
            new_clock,
            new_player,
        }
    }

    fn start(&mut self, request: &StartGame, out: &Outbox) {
        let settings = match Settings::parse(request) {
            Ok(settings) => settings,
            Err(error) => return out.error(format!("start: {error}")),
        };
        let mut player = (self.new_player)(&settings);
        player.new_game();
        out.send(settings.started());
        self.live = Some(Live {
            settings,
            game: RefereeGame::new(settings.params),
            clock: (self.new_clock)(),
            player,
            next_decision: 0,
            told: 0,
            last_sent: None,
            closed: false,
        });
    }
}

impl Live {
    /// Plays the game on to the clock's ms (no further than its end).
    fn catch_up(&mut self) {
        let now = self.clock.now();
        self.game.advance_to(now);
    }

    /// Roger's decision when one is due, started at the ms it looked at.
    fn roger_decides(&mut self) {
        let now = self.game.now();
        if self.game.outcome().is_some() || now < self.next_decision {
            return;
        }
        let side = self.settings.roger();
        let decided = self.player.decide(&self.game.state, side, THINK_BUDGET);
        if let Some(order) = decided {
            // A player's order passes `check`; one that does not is recorded as refused.
            let _ = self.game.order(side, order, order.to_string(), None);
        }
        // On a slow machine decisions are skipped rather than piled up.
        self.next_decision = (self.next_decision + self.settings.reaction_ms).max(now + 1);
    }

    /// Sends the state when there are new events or the heartbeat is due.
    fn tell(&mut self, out: &Outbox) {
        if self.closed {
            return;
        }
        let now = self.game.now();
        let fresh = self.game.events.len() > self.told;
        let due = self.last_sent.is_none_or(|last| now >= last + HEARTBEAT_MS);
        if !(fresh || due) {
            return;
        }
        out.send(view::state_message(
            &self.game.state,
            &self.game.events[self.told..],
        ));
        self.told = self.game.events.len();
        self.last_sent = Some(now);
        self.closed = self.game.outcome().is_some();
    }

    /// The human's order, at the ms it is read.
    fn order(&mut self, text: &str, out: &Outbox) {
        let order = match Order::parse(text) {
            Ok(order) => order,
            Err(error) => return out.error(format!("order: {error}")),
        };
        self.catch_up();
        // What happened before the order is told first, so messages stay in time order.
        self.tell(out);
        let side = self.settings.human;
        if let Err(refusal) = self.game.order(side, order, text.to_string(), None) {
            out.send(view::refused_message(text, self.game.now(), &refusal));
        }
    }

    /// The human resigns, unless the game is over already.
    fn resign(&mut self, out: &Outbox) {
        self.catch_up();
        if self.game.outcome().is_some() {
            let refusal = Refusal::GameOver;
            return out.send(view::refused_message("resign", self.game.now(), &refusal));
        }
        let side = self.settings.human;
        self.game.state.resign(side, &mut self.game.events);
    }

    fn select(&mut self, square: &str, out: &Outbox) {
        let Some(square) = crate::board::Square::parse(square, 8, 8) else {
            return out.error(format!("select: '{square}' is not a square a1..h8"));
        };
        self.catch_up();
        self.tell(out);
        out.send(view::targets_message(
            &self.game.state,
            self.settings.human,
            square,
        ));
    }
}

impl RealtimeSession {
    /// Does `act` on the game under way, or tells the page there is none.
    fn with_game(&mut self, kind: &str, out: &Outbox, act: impl FnOnce(&mut Live)) {
        match self.live.as_mut() {
            Some(live) => act(live),
            None => out.error(format!("{kind}: no game yet; send start first")),
        }
    }
}

impl PageSession for RealtimeSession {
    type Request = RealtimeRequest;

    fn request(&mut self, request: RealtimeRequest, out: &Outbox) {
        match request {
            RealtimeRequest::Start(start) => self.start(&start, out),
            RealtimeRequest::Order { order } => {
                self.with_game("order", out, |live| live.order(&order, out))
            }
            RealtimeRequest::Select { square } => {
                self.with_game("select", out, |live| live.select(&square, out))
            }
            RealtimeRequest::Resign => self.with_game("resign", out, |live| live.resign(out)),
        }
    }

    fn poll(&mut self, out: &Outbox) {
        let Some(live) = self.live.as_mut() else {
            return;
        };
        if live.closed {
            return;
        }
        live.catch_up();
        live.roger_decides();
        live.tell(out);
    }
}

/// The session a page's `/ws/realtime` opens.
pub fn open() -> Box<dyn Session> {
    Box::new(RealtimeSession::new())
}
