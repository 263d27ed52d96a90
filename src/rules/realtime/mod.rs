//! Realtime chess: no turns; pieces travel in time, get a delay on arrival, and collide.
//!
//! Not a [`Game`](super::Game): that trait is for alternating games. The event-driven
//! [`RealtimeState`] is the single source of truth for the referee, the protocol and the planner.
//! Time is whole milliseconds ([`Ms`]) from the game's start. The rules are docs/rules/realtime.md.

mod event;
mod order;
mod params;
mod state;

pub use event::{EndReason, Event, EventKind, Outcome, Removal};
pub use order::{Order, Refusal};
pub use params::RealtimeParams;
pub use state::{Motion, RealtimeState, Unit};

pub use super::Color;

/// Milliseconds since the game's start.
pub type Ms = u64;

/// A piece's kind; pawns promote to a queen on arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

/// A piece: its colour and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}
