//! The world as text: the `position megachess ...` line that tells a bot the world, read into
//! a [`World`] with typed errors, and printed from one (for a player's window).

use super::{Coord, MegachessParams, PlayerId, World};
use std::fmt;

/// A world read from a position line, and the player to plan for.
#[derive(Clone, Debug)]
pub struct WorldView {
    pub world: World,
    pub me: PlayerId,
}

/// Why a position line was refused; Display says what and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A keyword missing or out of order, a number or token that does not read.
    Malformed(String),
    /// `size 0 H` or `size W 0`, or a size over 1,000,000.
    BadSize { width: u64, height: u64 },
    /// Two pieces on one square.
    SquareTakenTwice(Coord),
    /// A square outside `size`.
    OffBoard(Coord),
    /// A piece's owner is not among `players` (and not 0).
    UnknownOwner { owner: PlayerId, token: String },
    /// A player listed twice, or with id 0.
    BadPlayer(String),
    /// `me` is not among `players`.
    UnknownMe(PlayerId),
    /// It is not `me`'s team's turn at `turn` (turn 0 included).
    NotMyTurn { turn: u64, me: PlayerId },
    /// A player with two kings, a neutral king, a life of 0 or beyond full life, a flag that
    /// does not apply (`o` on a non-bishop).
    BadPiece { token: String, why: String },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let _ = f;
        todo!()
    }
}

impl std::error::Error for PositionError {}

impl WorldView {
    /// Reads the words after `position megachess` (`size W H turn N me P players ... pieces
    /// ...`), with the parameters the engine was given.
    pub fn parse(text: &str, params: &MegachessParams) -> Result<WorldView, PositionError> {
        let _ = (text, params);
        todo!()
    }
}

impl World {
    /// The whole line `position megachess size ... pieces ...` for `me`, with every piece of
    /// the world, or only those of `me`'s window (see [`World::window`]) when `margin` is given.
    pub fn position_line(&self, me: PlayerId, margin: Option<u32>) -> String {
        let _ = (me, margin);
        todo!()
    }
    /// One piece's token: `<owner><letter><x>,<y>[.<flags>][/<life>]`.
    pub fn piece_token(&self, piece: &super::Piece) -> String {
        let _ = piece;
        todo!()
    }
}
