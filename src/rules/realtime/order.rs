//! Orders (start this piece towards that square) and why one may be refused.

use crate::board::Square;
use crate::rules::parse_move_squares;
use std::fmt;

/// An order: start the piece standing on `from` towards `to`. Text `e2e4`; `e7e8q` is accepted
/// (a pawn always becomes a queen); castling is the king's move, `e1g1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    pub from: Square,
    pub to: Square,
}

impl Order {
    /// Reads `e2e4` or `e7e8q`; a promotion letter other than `q` is refused (pawns promote to a
    /// queen only).
    pub fn parse(text: &str) -> Result<Order, String> {
        let Some((from, to, rest)) = parse_move_squares(text, 8, 8) else {
            return Err(format!(
                "'{text}' is not an order: expected two squares such as e2e4 (e7e8q for a promotion)"
            ));
        };
        match rest {
            "" | "q" => Ok(Order { from, to }),
            "n" | "b" | "r" | "k" | "p" => Err(format!(
                "'{text}' is not an order: pawns promote to a queen only (write {}{} or {}{}q)",
                from.name(8),
                to.name(8),
                from.name(8),
                to.name(8)
            )),
            _ => Err(format!(
                "'{text}' is not an order: '{rest}' after the squares (only q may follow)"
            )),
        }
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
        match self {
            Refusal::NotAMove(_) | Refusal::GameOver => None,
            Refusal::NotReady(_) => Some(1),
            Refusal::SameDestination(_) => Some(3),
            Refusal::MoveBlocking(_) => Some(4),
            Refusal::OwnDestination(_) => Some(5),
            Refusal::PathBlocked(_) => Some(6),
            Refusal::PawnRule(_) => Some(7),
        }
    }
    /// A short name: `not-a-move`, `game-over`, `not-ready`, `same-destination`, ...
    pub fn name(&self) -> &'static str {
        match self {
            Refusal::NotAMove(_) => "not-a-move",
            Refusal::GameOver => "game-over",
            Refusal::NotReady(_) => "not-ready",
            Refusal::SameDestination(_) => "same-destination",
            Refusal::MoveBlocking(_) => "move-blocking",
            Refusal::OwnDestination(_) => "own-destination",
            Refusal::PathBlocked(_) => "path-blocked",
            Refusal::PawnRule(_) => "pawn-rule",
        }
    }
    /// The text that says what and where (empty for a finished game).
    pub fn detail(&self) -> &str {
        match self {
            Refusal::GameOver => "",
            Refusal::NotAMove(text)
            | Refusal::NotReady(text)
            | Refusal::SameDestination(text)
            | Refusal::MoveBlocking(text)
            | Refusal::OwnDestination(text)
            | Refusal::PathBlocked(text)
            | Refusal::PawnRule(text) => text,
        }
    }
}

/// `rule 3 (same destination): e4 is the destination of the moving white knight from g3`,
/// `not a move: no white piece on e3`, `game over: the game has ended`.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let words = self.name().replace('-', " ");
        match (self, self.rule()) {
            (Refusal::GameOver, _) => write!(f, "game over: the game has ended"),
            (_, Some(rule)) => write!(f, "rule {rule} ({words}): {}", self.detail()),
            (_, None) => write!(f, "{words}: {}", self.detail()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_read_and_print() {
        let order = Order::parse("e2e4").unwrap();
        assert_eq!((order.from, order.to), (Square(12), Square(28)));
        assert_eq!(order.to_string(), "e2e4");
        assert_eq!(Order::parse("e7e8q").unwrap().to_string(), "e7e8");
        assert!(Order::parse("e7e8n").unwrap_err().contains("queen only"));
        assert!(Order::parse("e7e8x").unwrap_err().contains("'x'"));
        for junk in ["", "e2", "e2e9", "i2i4", "e2-e4", "é2e4"] {
            assert!(Order::parse(junk).is_err(), "{junk}");
        }
    }

    #[test]
    fn refusals_name_their_rule() {
        let refusal = Refusal::SameDestination("e4 is the destination of ...".into());
        assert_eq!(refusal.rule(), Some(3));
        assert_eq!(refusal.name(), "same-destination");
        assert_eq!(
            refusal.to_string(),
            "rule 3 (same destination): e4 is the destination of ..."
        );
        let refusal = Refusal::NotAMove("no white piece on e3".into());
        assert_eq!((refusal.rule(), refusal.name()), (None, "not-a-move"));
        assert_eq!(refusal.to_string(), "not a move: no white piece on e3");
        assert_eq!(
            Refusal::GameOver.to_string(),
            "game over: the game has ended"
        );
    }
}
