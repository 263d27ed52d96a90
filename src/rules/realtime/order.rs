//! Orders (start this piece towards that square) and why one may be refused.

use crate::board::Square;
use std::fmt;

/// An order: start the piece standing on `from` towards `to`. Text `e2e4`; `e7e8q` is accepted
/// (a pawn always becomes a queen); castling is the king's move, `e1g1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    pub from: Square,
    pub to: Square,
}

impl Order {
    pub fn parse(text: &str) -> Result<Order, String> {
        todo!("{text}")
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", self.from.name(8), self.to.name(8))
    }
}

/// Why an order may not start now. Each text says what and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No own piece there, not a pattern of that piece, a promotion other than a queen.
    NotAMove(String),
    /// The game is over.
    GameOver,
    /// Rule 1: the piece is moving or its delay has not passed.
    NotReady(String),
    /// Rule 3: a moving piece already has that destination.
    SameDestination(String),
    /// Rule 4: the path crosses the destination of a moving opponent piece.
    MoveBlocking(String),
    /// Rule 5: the path crosses the destination of a moving own piece.
    OwnDestination(String),
    /// Rule 6: a standing piece on the path, or an own standing piece on the destination.
    PathBlocked(String),
    /// Rule 7: a pawn's straight move to an occupied square, or a diagonal one with nothing to take.
    PawnRule(String),
}

impl Refusal {
    /// The rule's number on the rules page, or `None` for "not a move" and a finished game.
    pub fn rule(&self) -> Option<u8> {
        todo!()
    }
    /// A short name: `not-a-move`, `game-over`, `not-ready`, `same-destination`, ...
    pub fn name(&self) -> &'static str {
        todo!()
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, _f: &mut fmt::Formatter) -> fmt::Result {
        todo!()
    }
}
