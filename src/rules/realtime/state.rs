//! The state of a realtime game at one millisecond, and how it moves on in time.

use super::{Color, Event, Ms, Order, Outcome, Piece, RealtimeParams, Refusal};
use crate::board::Square;
use crate::rules::RuleError;

/// A piece on the board, standing or moving; `id` is stable for the piece's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub id: u8,
    pub piece: Piece,
    pub motion: Motion,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// On `square`; may start at `ready_at` or later. `en_passant_until` is set for a pawn that
    /// arrived by a two-square move: an en passant target while now is before it.
    Standing {
        square: Square,
        ready_at: Ms,
        en_passant_until: Option<Ms>,
    },
    /// Started from `from` towards `to` at `start`; arrives at `arrive`. Castling moves two units.
    Moving {
        from: Square,
        to: Square,
        start: Ms,
        arrive: Ms,
    },
}

/// A realtime game at `now`: small and cheap to clone, so planners simulate forward on copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RealtimeState {
    params: RealtimeParams,
    now: Ms,
}

#[allow(unused_variables)]
impl RealtimeState {
    /// The standard setup at 0 ms.
    pub fn start(params: RealtimeParams) -> RealtimeState {
        todo!()
    }
    /// Reads a state text (docs/rules/realtime.md); refuses malformed or impossible states.
    pub fn from_text(text: &str, params: RealtimeParams) -> Result<RealtimeState, RuleError> {
        todo!()
    }
    /// The state text; reads back with [`RealtimeState::from_text`].
    pub fn text(&self) -> String {
        todo!()
    }
    pub fn params(&self) -> RealtimeParams {
        self.params
    }
    pub fn now(&self) -> Ms {
        self.now
    }
    pub fn units(&self) -> &[Unit] {
        todo!()
    }
    /// The standing unit on `square`.
    pub fn unit_on(&self, square: Square) -> Option<&Unit> {
        todo!()
    }
    pub fn outcome(&self) -> Option<Outcome> {
        todo!()
    }
    /// The ms of the last removal (0 when none).
    pub fn last_removal(&self) -> Ms {
        todo!()
    }
    /// Whether `color` may start `order` now: the rules in the page's check order.
    pub fn check(&self, color: Color, order: Order) -> Result<(), Refusal> {
        todo!()
    }
    /// Starts `order` now, appending its `Started` event.
    pub fn apply(
        &mut self,
        color: Color,
        order: Order,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        todo!()
    }
    /// Every order `color` may start now.
    pub fn orders(&self, color: Color) -> Vec<Order> {
        todo!()
    }
    /// The next ms after now at which anything happens by itself; `None` once the game is over.
    pub fn next_change(&self) -> Option<Ms> {
        todo!()
    }
    /// Plays every ms in (now, t] (arrivals, delays, collisions, endings) and sets now to `t`,
    /// or to the game's last ms if it ends first. Orders at `t` come after this.
    pub fn advance_to(&mut self, t: Ms, events: &mut Vec<Event>) {
        todo!()
    }
    pub fn resign(&mut self, color: Color, events: &mut Vec<Event>) {
        todo!()
    }
    pub fn agree_draw(&mut self, events: &mut Vec<Event>) {
        todo!()
    }
    /// Where `unit` is at `t` by the occupancy intervals (`None` for a knight in the air).
    pub fn occupied_square(&self, unit: &Unit, t: Ms) -> Option<Square> {
        todo!()
    }
}
