//! A bounded window around a player's army: what a server sends a bot, and what the planner
//! works in. Its cost depends on the pieces near the army, never on the board's size.

use super::{Coord, PlayerId, World};

/// A rectangle of squares, both corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub min: Coord,
    pub max: Coord,
}

impl World {
    /// The rectangle around `player`'s pieces grown by `margin` on every side, cut to the
    /// board; `None` when it has no pieces.
    pub fn army_rect(&self, player: PlayerId, margin: u32) -> Option<Rect> {
        let _ = (player, margin);
        todo!()
    }
    /// A world of the same size, turn and parameters holding only the pieces inside
    /// `army_rect(player, margin)`, and the players owning them (with `player` itself).
    pub fn window(&self, player: PlayerId, margin: u32) -> World {
        let _ = (player, margin);
        todo!()
    }
}
