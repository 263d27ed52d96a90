//! Realtime chess: no turns; pieces travel in time, get a delay on arrival, and collide.
//!
//! Not a [`Game`](super::Game): that trait is for alternating games. The event-driven
//! [`RealtimeState`] is the single source of truth for the referee, the protocol and the planner.
//! Time is whole milliseconds ([`Ms`]) from the game's start. The rules are docs/rules/realtime.md.

mod event;
mod movement;
pub use movement::KNIGHT_STEPS;
mod order;
mod params;
mod state;
mod text;
mod time;

pub use event::{EndReason, Event, EventKind, Outcome, Removal};
pub use order::{Order, Refusal};
pub use params::{RealtimeParams, PARAMETERS};
pub use state::{Motion, RealtimeState, Unit};

pub use super::Color;

use crate::board::Square;

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

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];

    /// The usual material value (king 0: its loss ends the game).
    pub const fn value(self) -> u32 {
        match self {
            Kind::Pawn => 1,
            Kind::Knight | Kind::Bishop => 3,
            Kind::Rook => 5,
            Kind::Queen => 9,
            Kind::King => 0,
        }
    }
    /// The name in event texts: `pawn`, `knight`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Knight => "knight",
            Kind::Bishop => "bishop",
            Kind::Rook => "rook",
            Kind::Queen => "queen",
            Kind::King => "king",
        }
    }
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }
    /// The lowercase FEN letter.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'p',
            Kind::Knight => 'n',
            Kind::Bishop => 'b',
            Kind::Rook => 'r',
            Kind::Queen => 'q',
            Kind::King => 'k',
        }
    }
}

/// A piece: its colour and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    /// The FEN letter: uppercase for white.
    pub fn letter(self) -> char {
        match self.color {
            Color::White => self.kind.letter().to_ascii_uppercase(),
            Color::Black => self.kind.letter(),
        }
    }
    pub fn from_letter(letter: char) -> Option<Piece> {
        let kind = Kind::ALL
            .into_iter()
            .find(|kind| kind.letter() == letter.to_ascii_lowercase())?;
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }
}

/// A square's name, `e4`.
pub(crate) fn square_name(square: Square) -> String {
    square.name(8)
}

pub(crate) fn parse_square(text: &str) -> Option<Square> {
    Square::parse(text, 8, 8)
}

/// A piece's description in refusal texts: `white knight`.
pub(crate) fn piece_name(piece: Piece) -> String {
    format!("{} {}", piece.color.name(), piece.kind.name())
}

pub(crate) fn color_named(name: &str) -> Option<Color> {
    match name {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
