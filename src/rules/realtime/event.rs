//! What happens in a game, with its millisecond, and how games end.

use super::{Color, Ms, Order, Piece};
use crate::board::Square;
use std::fmt;
use std::str::FromStr;

/// How a piece was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    Capture,
    InMoveCapture,
    InMove,
    EnPassant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    KingRemoved,
    BothKingsRemoved,
    Resignation,
    AgreedDraw,
    NoCaptureDraw,
}

/// A finished game: the winner, or `None` for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// `start white e2e4`
    Started { color: Color, order: Order },
    /// `arrive white pawn e4`
    Arrived { piece: Piece, square: Square },
    /// `promote white e8`
    Promoted { color: Color, square: Square },
    /// `remove black knight f6 capture`
    Removed {
        piece: Piece,
        square: Square,
        by: Removal,
    },
    /// `ready white pawn e4`: its delay ended.
    Ready { piece: Piece, square: Square },
    /// `end 1-0 king-removed`
    Ended(Outcome),
}

/// Something that happened at `ms`. Text: `<ms> <kind>`, for example `1501 remove black pawn d5
/// capture`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub ms: Ms,
    pub kind: EventKind,
}

impl fmt::Display for Event {
    fn fmt(&self, _f: &mut fmt::Formatter) -> fmt::Result {
        todo!()
    }
}

impl FromStr for Event {
    type Err = String;
    fn from_str(text: &str) -> Result<Event, String> {
        todo!("{text}")
    }
}
