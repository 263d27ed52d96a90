//! Players of the games without turns: they plan in time (realtime chess) or over a whole turn of
//! many moves (Megachess), on the rules' own types.

pub mod megachess;
pub mod realtime;

use crate::options::{OptionSpec, OptionValue};
use crate::rules::megachess::{Move, PlayerId, World};
use crate::rules::realtime::{Color, Order, RealtimeState};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A realtime chess player: Roger's planner, or a reference player (random, greedy).
pub trait RealtimePlayer: Send {
    fn name(&self) -> String;
    /// The options it takes (the greedy player's rate and width, say).
    fn options(&self) -> Vec<OptionSpec> {
        Vec::new()
    }
    /// Sets one of [`Self::options`] to a value of its kind (the caller reads any text).
    fn set_option(&mut self, name: &str, _value: &OptionValue) -> Result<(), String> {
        Err(format!("unknown option '{name}'"))
    }
    /// Called before each game.
    fn new_game(&mut self) {}
    /// The order `side` starts at `state.now()`, or `None` to wait; answered within `budget`. A
    /// returned order passes `state.check(side, order)`.
    fn decide(&mut self, state: &RealtimeState, side: Color, budget: Duration) -> Option<Order>;
}

/// How far a Megachess turn plan has got, for `info` lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlanProgress {
    /// Time since planning began.
    pub elapsed: Duration,
    /// The planner's own count of rounds (iterations, generations, beam layers).
    pub iteration: u32,
    /// Candidate moves or turns evaluated so far.
    pub evaluated: u64,
    /// The evaluation of the best turn so far, in pawn ranks x 100, from the player's side.
    pub score: i64,
    /// The best turn so far.
    pub moves: Vec<Move>,
}

/// What one Megachess turn may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnBudget {
    /// Answer within this wall time (`go movetime`).
    Time(Duration),
    /// Judge about this many moves however long it takes (`go nodes`): the same turn on any
    /// machine and under any load. Players that do not count their work answer at once.
    Work(u64),
}

impl TurnBudget {
    /// The wall time it allows, if it is one.
    pub fn time(&self) -> Option<Duration> {
        match *self {
            TurnBudget::Time(time) => Some(time),
            TurnBudget::Work(_) => None,
        }
    }
}

impl From<Duration> for TurnBudget {
    fn from(time: Duration) -> TurnBudget {
        TurnBudget::Time(time)
    }
}

/// A Megachess player: Roger's turn planner, or a reference player (random, greedy).
pub trait MegachessPlayer: Send {
    fn name(&self) -> String;
    /// The options it takes beyond the world's parameters.
    fn options(&self) -> Vec<OptionSpec> {
        Vec::new()
    }
    /// Sets one of [`Self::options`] to a value of its kind (the caller reads any text).
    fn set_option(&mut self, name: &str, _value: &OptionValue) -> Result<(), String> {
        Err(format!("unknown option '{name}'"))
    }
    /// Called before each world.
    fn new_game(&mut self) {}
    /// The moves `me` makes in this turn of its team, in the order to apply them: each passes
    /// `World::check` after the ones before it. Returns within `budget`, or soon after `stop`
    /// is set; `progress` is called now and then with the best turn so far.
    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        budget: TurnBudget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move>;
}
