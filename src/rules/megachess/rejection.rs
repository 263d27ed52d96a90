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
        write!(f, "{}: ", self.name())?;
        match self {
            Rejection::UnknownPlayer(player) => write!(f, "player {player} is not in the world"),
            Rejection::PlayerLeft(player) => {
                write!(f, "player {player} left the game; its pieces do not move")
            }
            Rejection::NotYourTurn {
                player,
                team_to_move,
            } => write!(f, "player {player} moved in {}'s turn", team_to_move.name()),
            Rejection::OffBoard(at) => write!(f, "square {at} is off the board"),
            Rejection::NoPiece(at) => write!(f, "no piece on {at}"),
            Rejection::NotYourPiece { at, owner } => {
                if *owner == super::NEUTRAL {
                    write!(f, "the piece on {at} is neutral")
                } else {
                    write!(f, "the piece on {at} belongs to player {owner}")
                }
            }
            Rejection::AlreadyMoved(at) => {
                write!(f, "the piece on {at} already moved this turn")
            }
            Rejection::NotAMove { kind, why } => write!(f, "{} {why}", kind.name()),
            Rejection::PathBlocked { kind, at } => {
                write!(f, "the {}'s path is blocked on {at}", kind.name())
            }
            Rejection::DestinationTaken { at, owner } => {
                if *owner == super::NEUTRAL {
                    write!(f, "{at} holds a neutral piece")
                } else {
                    write!(f, "{at} holds a piece of player {owner} (own or allied)")
                }
            }
        }
    }
}

impl std::error::Error for Rejection {}
