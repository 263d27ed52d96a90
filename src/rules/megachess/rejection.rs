//! Why a move is not legal at the moment it arrives: a typed rejection a caller can match.

use super::{Coord, Kind, PlayerId, Team};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The player is not (or no longer) in the world.
    UnknownPlayer(PlayerId),
    /// The player left of its own will: its pieces do not move.
    PlayerLeft(PlayerId),
    /// It is the other team's turn.
    NotYourTurn {
        player: PlayerId,
        team_to_move: Team,
    },
    /// A square of the move is off the board.
    OffBoard(Coord),
    /// No piece stands on the move's origin.
    NoPiece(Coord),
    /// The piece on the origin belongs to another player (or is neutral).
    NotYourPiece { at: Coord, owner: PlayerId },
    /// The piece already moved this turn.
    AlreadyMoved(Coord),
    /// The destination is not one of the piece's moves: wrong shape, beyond its range, a
    /// pawn's orthogonal capture, a second orthogonal bishop step, ... (`why` says which).
    NotAMove { kind: Kind, why: String },
    /// A piece stands between origin and destination.
    PathBlocked { kind: Kind, at: Coord },
    /// The destination holds an own, allied or neutral piece.
    DestinationTaken { at: Coord, owner: PlayerId },
}

impl Rejection {
    /// A short name for logs and JSON: `not-your-turn`, `path-blocked`, ...
    pub fn name(&self) -> &'static str {
        match self {
            Rejection::UnknownPlayer(_) => "unknown-player",
            Rejection::PlayerLeft(_) => "player-left",
            Rejection::NotYourTurn { .. } => "not-your-turn",
            Rejection::OffBoard(_) => "off-board",
            Rejection::NoPiece(_) => "no-piece",
            Rejection::NotYourPiece { .. } => "not-your-piece",
            Rejection::AlreadyMoved(_) => "already-moved",
            Rejection::NotAMove { .. } => "not-a-move",
            Rejection::PathBlocked { .. } => "path-blocked",
            Rejection::DestinationTaken { .. } => "destination-taken",
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let _ = f;
        todo!("`<name>: <what and where>`")
    }
}

impl std::error::Error for Rejection {}
