//! Megachess: a persistent world of two teams of many players, each moving every piece at most
//! once per timed turn, with kingdoms, fading, bonus pieces and army hand-over.
//!
//! Not a [`Game`](super::Game): there are no plies, no end and no dense board. A [`World`] is
//! sparse (a slab of pieces with stable ids and a hash map from square to piece), so its memory
//! and time depend on the pieces, never on the board's size. One `World` serves the arena's
//! referee, the engine's planner and the world server. The rules are docs/rules/megachess.md.

mod decimal;
mod effects;
mod hash;
mod index;
mod movegen;
mod params;
pub mod picture;
mod play;
mod rejection;
mod snapshot;
mod text;
mod window;
mod world;

#[cfg(test)]
mod tests;

pub use decimal::{read_decimal, DecimalError};
pub use effects::{Captured, Faded, MoveEffects, TurnEnd};
pub use index::{Zone, ZONE_SIDE};
pub use movegen::{movement, Movement, Steps, KING_STEPS, KNIGHT_STEPS};
pub use params::{MegachessParams, MAX_SIDE, PARAMETERS};
pub use rejection::Rejection;
pub use snapshot::WorldSnapshot;
pub use text::{PositionError, WorldView, MAX_TURN};
pub use window::Rect;
pub use world::{Facing, World};

use std::fmt;

/// A square of the world: `x` to the east, `y` to the north, both from 0. Text `x,y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    pub x: u32,
    pub y: u32,
}

impl Coord {
    pub const fn new(x: u32, y: u32) -> Coord {
        Coord { x, y }
    }

    /// The square `(dx, dy)` away, if it is on a `width` x `height` board.
    pub fn offset(self, dx: i32, dy: i32, width: u32, height: u32) -> Option<Coord> {
        let x = self.x as i64 + dx as i64;
        let y = self.y as i64 + dy as i64;
        (x >= 0 && y >= 0 && x < width as i64 && y < height as i64)
            .then(|| Coord::new(x as u32, y as u32))
    }

    /// The squared Euclidean distance (the kingdom test's measure).
    pub fn distance_squared(self, other: Coord) -> u64 {
        let dx = self.x.abs_diff(other.x) as u64;
        let dy = self.y.abs_diff(other.y) as u64;
        dx * dx + dy * dy
    }

    /// The king-step distance (max of the two differences).
    pub fn chebyshev(self, other: Coord) -> u32 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }

    /// Reads `x,y`: two numbers as [`read_decimal`] reads them (no leading zero), each at most
    /// `u32::MAX`.
    pub fn parse(text: &str) -> Result<Coord, String> {
        let (x, y) = text
            .split_once(',')
            .ok_or_else(|| format!("'{text}' is not a square x,y"))?;
        let number = |part: &str, what: &str| {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("'{text}' is not a square x,y"));
            }
            read_decimal(part, 0..=u32::MAX as u64)
                .map(|value| value as u32)
                .map_err(|error| format!("'{text}': {}", error.explain(what, part)))
        };
        Ok(Coord::new(number(x, "x")?, number(y, "y")?))
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// The two teams. Alabaster moves on odd turns, metal on even ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Team {
    Alabaster,
    Metal,
}

impl Team {
    pub const BOTH: [Team; 2] = [Team::Alabaster, Team::Metal];

    pub const fn other(self) -> Team {
        match self {
            Team::Alabaster => Team::Metal,
            Team::Metal => Team::Alabaster,
        }
    }
    /// The letter of the `players` tokens: `a` or `m`.
    pub const fn letter(self) -> char {
        match self {
            Team::Alabaster => 'a',
            Team::Metal => 'm',
        }
    }
    pub fn from_letter(letter: char) -> Option<Team> {
        match letter {
            'a' => Some(Team::Alabaster),
            'm' => Some(Team::Metal),
            _ => None,
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Team::Alabaster => "alabaster",
            Team::Metal => "metal",
        }
    }
    /// The team whose turn `turn` (counted from 1) is.
    pub const fn of_turn(turn: u64) -> Team {
        if turn % 2 == 1 {
            Team::Alabaster
        } else {
            Team::Metal
        }
    }
}

/// A player's id; ids are positive, [`NEUTRAL`] (0) owns the bonus pieces.
pub type PlayerId = u32;
/// The owner of neutral pieces.
pub const NEUTRAL: PlayerId = 0;

/// A piece's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];

    /// The letter in piece tokens: `K Q R B N P`.
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        }
    }
    pub fn from_letter(letter: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.letter() == letter)
    }
    pub const fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Queen => "queen",
            Kind::Rook => "rook",
            Kind::Bishop => "bishop",
            Kind::Knight => "knight",
            Kind::Pawn => "pawn",
        }
    }
    /// Its index in per-kind tables (the order of [`Kind::ALL`]).
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A piece's identity: stable for its whole life, across capture of its king and hand-over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub u32);

/// One piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub id: PieceId,
    /// Its player, or [`NEUTRAL`].
    pub owner: PlayerId,
    pub kind: Kind,
    pub at: Coord,
    /// It has moved at least once (flag `m`): a pawn's double step is gone.
    pub moved: bool,
    /// A bishop has used its one orthogonal step (flag `o`).
    pub used_orthogonal_step: bool,
    /// Turns of life left while outside its kingdom; `None`: full life.
    pub life: Option<u32>,
}

/// One player of the world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub team: Team,
    /// Its king, when the world knows it (a window may not show it).
    pub king: Option<PieceId>,
    pub score: i64,
    /// `false` once it left of its own will: its pieces stay, unmoving.
    pub present: bool,
}

/// A move: the piece on `from` goes to `to`. Text `X1,Y1-X2,Y2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Coord,
    pub to: Coord,
}

impl Move {
    pub const fn new(from: Coord, to: Coord) -> Move {
        Move { from, to }
    }
    /// Reads `X1,Y1-X2,Y2`.
    pub fn parse(text: &str) -> Result<Move, String> {
        let (from, to) = text
            .split_once('-')
            .ok_or_else(|| format!("'{text}' is not a move X1,Y1-X2,Y2"))?;
        let square = |part: &str| {
            Coord::parse(part).map_err(|error| format!("'{text}' is not a move: {error}"))
        };
        Ok(Move::new(square(from)?, square(to)?))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}
