//! What applying a move and ending a turn did, for referees, logs and planners.

use super::{Coord, Kind, PieceId, PlayerId};

/// A piece taken off the board by a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captured {
    pub id: PieceId,
    pub kind: Kind,
    pub owner: PlayerId,
    pub at: Coord,
}

/// What one applied move did.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveEffects {
    pub captured: Option<Captured>,
    /// The player whose king was captured; it left the game.
    pub king_captured: Option<PlayerId>,
    /// The pieces that changed owner with that king (the capturer's now, flags kept).
    pub handed_over: Vec<PieceId>,
    /// The neutral pieces collected by ending the move next to them.
    pub collected: Vec<PieceId>,
    /// Points the mover scored (a piece's rank, or 100 + rank_king for a king).
    pub points: i64,
}

/// A piece that faded away at the end of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Faded {
    pub id: PieceId,
    pub kind: Kind,
    pub owner: PlayerId,
    pub at: Coord,
}

/// What ending a team's turn did.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TurnEnd {
    /// The turn that ended.
    pub turn: u64,
    pub faded: Vec<Faded>,
    /// The bonus piece placed, if one was due and a vacant square was found.
    pub bonus: Option<(PieceId, Kind, Coord)>,
    /// The players that scored a point for surviving the turn.
    pub survivors: Vec<PlayerId>,
}
