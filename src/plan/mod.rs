//! Players of the games without turns: they plan in time (realtime chess) or over a whole turn of
//! many moves (Megachess), on the rules' own types.

pub mod realtime;

use crate::engine::OptionSpec;
use crate::rules::realtime::{Color, Order, RealtimeState};
use std::time::Duration;

/// A realtime chess player: Roger's planner, or a reference player (random, greedy).
pub trait RealtimePlayer: Send {
    fn name(&self) -> String;
    /// The options it takes (the greedy player's rate and width, say).
    fn options(&self) -> Vec<OptionSpec> {
        Vec::new()
    }
    fn set_option(&mut self, name: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown option '{name}'"))
    }
    /// Called before each game.
    fn new_game(&mut self) {}
    /// The order `side` starts at `state.now()`, or `None` to wait; answered within `budget`. A
    /// returned order passes `state.check(side, order)`.
    fn decide(&mut self, state: &RealtimeState, side: Color, budget: Duration) -> Option<Order>;
}
