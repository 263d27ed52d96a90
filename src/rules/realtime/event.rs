//! What happens in a game, with its millisecond, and how games end.

use super::{color_named, parse_square, square_name, Color, Kind, Ms, Order, Piece};
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

impl Removal {
    const ALL: [Removal; 4] = [
        Removal::Capture,
        Removal::InMoveCapture,
        Removal::InMove,
        Removal::EnPassant,
    ];
    /// `capture`, `in-move-capture`, `in-move`, `en-passant`.
    pub const fn name(self) -> &'static str {
        match self {
            Removal::Capture => "capture",
            Removal::InMoveCapture => "in-move-capture",
            Removal::InMove => "in-move",
            Removal::EnPassant => "en-passant",
        }
    }
    pub fn named(name: &str) -> Option<Removal> {
        Removal::ALL.into_iter().find(|by| by.name() == name)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    KingRemoved,
    BothKingsRemoved,
    Resignation,
    AgreedDraw,
    NoCaptureDraw,
}

impl EndReason {
    const ALL: [EndReason; 5] = [
        EndReason::KingRemoved,
        EndReason::BothKingsRemoved,
        EndReason::Resignation,
        EndReason::AgreedDraw,
        EndReason::NoCaptureDraw,
    ];
    /// `king-removed`, `both-kings-removed`, `resignation`, `agreed-draw`, `no-capture-draw`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::KingRemoved => "king-removed",
            EndReason::BothKingsRemoved => "both-kings-removed",
            EndReason::Resignation => "resignation",
            EndReason::AgreedDraw => "agreed-draw",
            EndReason::NoCaptureDraw => "no-capture-draw",
        }
    }
    pub fn named(name: &str) -> Option<EndReason> {
        EndReason::ALL
            .into_iter()
            .find(|reason| reason.name() == name)
    }
    /// Whether the reason ends the game drawn (the others have a winner).
    const fn is_draw(self) -> bool {
        matches!(
            self,
            EndReason::BothKingsRemoved | EndReason::AgreedDraw | EndReason::NoCaptureDraw
        )
    }
}

/// A finished game: the winner, or `None` for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
    /// Reads a result and a reason (`1-0`, `king-removed`); refuses a pair that does not fit
    /// (a draw by king removal, a win by agreement).
    pub fn parse(result: &str, reason: &str) -> Result<Outcome, String> {
        let winner = match result {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            _ => return Err(format!("'{result}' is not a result (1-0, 0-1, 1/2-1/2)")),
        };
        let reason = EndReason::named(reason).ok_or_else(|| {
            format!("'{reason}' is not an ending (king-removed, both-kings-removed, resignation, agreed-draw, no-capture-draw)")
        })?;
        if reason.is_draw() != winner.is_none() {
            return Err(format!(
                "{result} does not fit the ending {}",
                reason.name()
            ));
        }
        Ok(Outcome { winner, reason })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} {}", self.result(), self.reason.name())
    }
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

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let piece = |piece: &Piece| format!("{} {}", piece.color.name(), piece.kind.name());
        match self {
            EventKind::Started { color, order } => write!(f, "start {} {order}", color.name()),
            EventKind::Arrived { piece: p, square } => {
                write!(f, "arrive {} {}", piece(p), square_name(*square))
            }
            EventKind::Promoted { color, square } => {
                write!(f, "promote {} {}", color.name(), square_name(*square))
            }
            EventKind::Removed {
                piece: p,
                square,
                by,
            } => write!(
                f,
                "remove {} {} {}",
                piece(p),
                square_name(*square),
                by.name()
            ),
            EventKind::Ready { piece: p, square } => {
                write!(f, "ready {} {}", piece(p), square_name(*square))
            }
            EventKind::Ended(outcome) => write!(f, "end {outcome}"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} {}", self.ms, self.kind)
    }
}

impl FromStr for EventKind {
    type Err = String;
    fn from_str(text: &str) -> Result<EventKind, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let bad = |what: &str| format!("'{text}' is not an event: {what}");
        let color = |word: &str| {
            color_named(word).ok_or_else(|| bad(&format!("'{word}' is not white or black")))
        };
        let square = |word: &str| {
            parse_square(word).ok_or_else(|| bad(&format!("'{word}' is not a square")))
        };
        let piece = |color_word: &str, kind_word: &str| -> Result<Piece, String> {
            let kind = Kind::named(kind_word)
                .ok_or_else(|| bad(&format!("'{kind_word}' is not a piece")))?;
            Ok(Piece {
                color: color(color_word)?,
                kind,
            })
        };
        match words.as_slice() {
            ["start", c, order] => Ok(EventKind::Started {
                color: color(c)?,
                order: Order::parse(order).map_err(|error| bad(&error))?,
            }),
            ["arrive", c, k, s] => Ok(EventKind::Arrived {
                piece: piece(c, k)?,
                square: square(s)?,
            }),
            ["promote", c, s] => Ok(EventKind::Promoted {
                color: color(c)?,
                square: square(s)?,
            }),
            ["remove", c, k, s, by] => Ok(EventKind::Removed {
                piece: piece(c, k)?,
                square: square(s)?,
                by: Removal::named(by).ok_or_else(|| {
                    bad(&format!(
                        "'{by}' is not a removal (capture, in-move-capture, in-move, en-passant)"
                    ))
                })?,
            }),
            ["ready", c, k, s] => Ok(EventKind::Ready {
                piece: piece(c, k)?,
                square: square(s)?,
            }),
            ["end", result, reason] => Ok(EventKind::Ended(
                Outcome::parse(result, reason).map_err(|error| bad(&error))?,
            )),
            _ => Err(bad(
                "expected start, arrive, promote, remove, ready or end and its words",
            )),
        }
    }
}

impl FromStr for Event {
    type Err = String;
    fn from_str(text: &str) -> Result<Event, String> {
        let text = text.trim();
        let (ms, kind) = text.split_once(' ').unwrap_or((text, ""));
        let ms = ms
            .parse::<Ms>()
            .ok()
            .filter(|_| ms.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                format!("'{text}' is not an event: '{ms}' is not a millisecond count")
            })?;
        Ok(Event {
            ms,
            kind: kind.parse()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_print_and_read_back() {
        for text in [
            "0 start white e2e4",
            "2000 arrive white pawn e4",
            "7000 promote black e1",
            "1501 remove black knight f6 capture",
            "1501 remove black knight f6 in-move-capture",
            "1501 remove white queen d1 in-move",
            "501 remove black pawn d5 en-passant",
            "12000 ready white pawn e4",
            "9000 end 1-0 king-removed",
            "9000 end 1/2-1/2 both-kings-removed",
            "9000 end 0-1 resignation",
            "9000 end 1/2-1/2 agreed-draw",
            "300000 end 1/2-1/2 no-capture-draw",
        ] {
            let event: Event = text.parse().expect(text);
            assert_eq!(event.to_string(), text);
        }
    }

    #[test]
    fn bad_events_say_what_is_wrong() {
        for (text, needle) in [
            ("x start white e2e4", "'x' is not a millisecond"),
            ("-5 start white e2e4", "not a millisecond"),
            ("5 start red e2e4", "'red' is not white or black"),
            ("5 arrive white pawn e9", "'e9' is not a square"),
            ("5 arrive white duke e4", "'duke' is not a piece"),
            ("5 remove white pawn e4 eaten", "'eaten' is not a removal"),
            ("5 end 1-0 agreed-draw", "does not fit"),
            ("5 end 1-0", "expected start"),
            ("5", "expected start"),
        ] {
            let error = text.parse::<Event>().expect_err(text);
            assert!(error.contains(needle), "{text}: {error}");
        }
    }
}
