//! Where a world's armies start: the spawn layouts (facing rows, a ring, seeded scatter), the
//! setup of a world (parameters, seats, players per seat, turns, window), and which player ids
//! and team each seat gets.

use crate::rules::megachess::{Coord, Facing, MegachessParams, PlayerId, Team};
use std::fmt;

/// How the armies are placed at the start. Text: `facing:GAP`, `ring:RADIUS`, `scatter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Two rows of armies facing each other, alabaster's to the south facing north, metal's to
    /// the north facing south, with `gap` empty ranks between the two pawn ranks, centred on the
    /// board.
    Facing { gap: u32 },
    /// Every army on a circle of `radius` squares around the board's centre, facing it.
    Ring { radius: u32 },
    /// Each seat's armies side by side on a random spot of the board (seeded), apart from the
    /// others.
    Scatter,
}

impl Layout {
    pub const DEFAULT_GAP: u32 = 8;
    pub const DEFAULT_RADIUS: u32 = 32;

    /// Reads `facing`, `facing:GAP`, `ring`, `ring:RADIUS` or `scatter`.
    pub fn parse(text: &str) -> Result<Layout, String> {
        let _ = text;
        todo!()
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::Facing {
            gap: Layout::DEFAULT_GAP,
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Layout::Facing { gap } => write!(f, "facing:{gap}"),
            Layout::Ring { radius } => write!(f, "ring:{radius}"),
            Layout::Scatter => write!(f, "scatter"),
        }
    }
}

/// Everything a world is set up from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldSetup {
    pub params: MegachessParams,
    /// Seeds the world (bonus pieces) and the scatter layout.
    pub seed: u64,
    /// Engines (or in-process players); even seats play alabaster, odd seats metal.
    pub seats: usize,
    /// Players (armies) each seat plays for.
    pub players_per_seat: usize,
    pub layout: Layout,
    /// The world stops after this many turns (counted over both teams).
    pub max_turns: u64,
    /// When set, each player is shown only its window (`World::window` with this margin).
    pub window_margin: Option<u32>,
}

/// Even seats play alabaster, odd seats metal.
pub fn seat_team(seat: usize) -> Team {
    if seat.is_multiple_of(2) {
        Team::Alabaster
    } else {
        Team::Metal
    }
}

/// The id of a seat's `index`-th player: seats' players are numbered in seat order from 1.
pub fn player_id(seat: usize, index: usize, players_per_seat: usize) -> PlayerId {
    (seat * players_per_seat + index + 1) as PlayerId
}

/// Where one army starts: the south-west corner of its block and the way its pawns face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spawn {
    pub seat: usize,
    pub player: PlayerId,
    pub corner: Coord,
    pub facing: Facing,
}

impl WorldSetup {
    /// The world's parameters valid, at least one seat of each team, players, turns; a text
    /// naming the first problem otherwise.
    pub fn validate(&self) -> Result<(), String> {
        todo!()
    }

    /// Every army's spawn, seat by seat, or why the board cannot hold them.
    pub fn spawns(&self) -> Result<Vec<Spawn>, String> {
        todo!()
    }
}
