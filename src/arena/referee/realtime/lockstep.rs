//! An in-process lockstep game between two [`RealtimePlayer`]s: game time stands still while a
//! player thinks, so a game is repeatable and runs as fast as the players decide. Every
//! `poll_ms` of game time the simulator is advanced to the poll and each side is asked for the
//! order to start now; the side asked first alternates from poll to poll (White at 0 ms, Black
//! at the next poll, ...), and the second side sees the first one's order, applied at the same
//! ms. The planner measures its strength with this; the process referee plays the same loop
//! over the wire.

use super::timeline::{reason_name, result_text, ClockMode, DecisionRecord, OrderRecord};
use super::timeline::{RealtimeRecord, RefereeGame, TimedOrder};
use crate::arena::clock::{GameClock, VirtualClock};
use crate::plan::RealtimePlayer;
use crate::rules::realtime::{Color, Event, Ms, Outcome, RealtimeParams};
use std::time::{Duration, Instant};

/// How a lockstep game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockstepSettings {
    pub params: RealtimeParams,
    /// Game time between two polls (default 100 ms).
    pub poll_ms: Ms,
    /// Each decision's thinking budget, passed to `decide` (default 50 ms).
    pub budget: Duration,
    /// Stop the game at this ms if the rules have not ended it (default: none; the no-capture
    /// draw ends every game in the end).
    pub max_game_ms: Option<Ms>,
}

impl Default for LockstepSettings {
    fn default() -> LockstepSettings {
        LockstepSettings {
            params: RealtimeParams::default(),
            poll_ms: 100,
            budget: Duration::from_millis(50),
            max_game_ms: None,
        }
    }
}

/// One side's decisions, measured in wall time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecisionStats {
    /// Times the side was asked.
    pub count: u64,
    pub total: Duration,
    pub max: Duration,
    /// Answers that took longer than the budget.
    pub over_budget: u64,
}

impl DecisionStats {
    fn add(&mut self, elapsed: Duration, budget: Duration) {
        self.count += 1;
        self.total += elapsed;
        self.max = self.max.max(elapsed);
        self.over_budget += u64::from(elapsed > budget);
    }
}

/// A finished lockstep game.
#[derive(Clone, Debug)]
pub struct LockstepGame {
    /// The rules' ending; `None` when the game was stopped at `max_game_ms`.
    pub outcome: Option<Outcome>,
    /// The game's last ms.
    pub end_ms: Ms,
    /// Every order given (ms, side, text, accepted or the refusal, thinking time), in the order
    /// applied.
    pub orders: Vec<TimedOrder>,
    /// Every event of the game, in order (starts included).
    pub events: Vec<Event>,
    /// Per side (White, Black): the decisions' wall times against the budget.
    pub decisions: [DecisionStats; 2],
}

impl LockstepGame {
    /// The game as the JSON file keeps it.
    pub fn record(&self, settings: &LockstepSettings) -> RealtimeRecord {
        let decision = |stats: &DecisionStats| DecisionRecord {
            count: stats.count,
            max_ms: stats.max.as_millis() as u64,
            over_budget: stats.over_budget,
        };
        RealtimeRecord {
            params: settings.params.into(),
            mode: ClockMode::Lockstep,
            poll_ms: Some(settings.poll_ms),
            orders: self.orders.iter().map(OrderRecord::from).collect(),
            events: self.events.iter().map(ToString::to_string).collect(),
            end_ms: self.end_ms,
            result: result_text(self.outcome).to_string(),
            outcome: self.outcome.map(|o| reason_name(o.reason).to_string()),
            decisions: Some([decision(&self.decisions[0]), decision(&self.decisions[1])]),
            round_trip_us: None,
        }
    }

    /// Points of White and Black: 1, ½ or 0 (a game cut off is a draw).
    pub fn points(&self) -> [f64; 2] {
        match self.outcome.and_then(|o| o.winner) {
            Some(Color::White) => [1.0, 0.0],
            Some(Color::Black) => [0.0, 1.0],
            None => [0.5, 0.5],
        }
    }
}

/// Plays one lockstep game from the standard setup; `players[0]` is White.
pub fn play_lockstep(
    players: [&mut dyn RealtimePlayer; 2],
    settings: &LockstepSettings,
) -> LockstepGame {
    let [white, black] = players;
    let mut players: [&mut dyn RealtimePlayer; 2] = [white, black];
    for player in players.iter_mut() {
        player.new_game();
    }
    let poll_ms = settings.poll_ms.max(1);
    let mut game = RefereeGame::new(settings.params);
    let mut clock = VirtualClock::default();
    let mut decisions = [DecisionStats::default(); 2];
    let mut first = Color::White;
    loop {
        for side in [first, first.flip()] {
            if game.outcome().is_some() {
                break;
            }
            let started = Instant::now();
            let choice = players[side.index()].decide(&game.state, side, settings.budget);
            let elapsed = started.elapsed();
            decisions[side.index()].add(elapsed, settings.budget);
            if let Some(order) = choice {
                // A refusal is recorded with its rule; the game goes on.
                let _ = game.order(side, order, order.to_string(), Some(elapsed));
            }
        }
        first = first.flip();
        if game.outcome().is_some() {
            break;
        }
        let next = clock.now() + poll_ms;
        let next = settings.max_game_ms.map_or(next, |max| next.min(max));
        clock.advance_to(next);
        game.advance_to(next);
        if settings.max_game_ms.is_some_and(|max| clock.now() >= max) {
            // Cut off: the simulator ran to the limit, and nobody is asked at it.
            break;
        }
    }
    LockstepGame {
        outcome: game.outcome(),
        end_ms: game.now(),
        orders: game.orders,
        events: game.events,
        decisions,
    }
}
