//! The chess move: 16 bits of from, to and a flag.

use crate::board::Square;

/// What kind of move this is, in chess and in Millennium; values 8..=15 are promotions (bit 2 =
/// capture, low bits = piece).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum MoveFlag {
    Quiet = 0,
    DoublePush = 1,
    /// The king's two-square move; the rook follows from the king's destination.
    Castle = 2,
    Capture = 4,
    EnPassant = 5,
    PromoteKnight = 8,
    PromoteBishop = 9,
    PromoteRook = 10,
    PromoteQueen = 11,
    CapturePromoteKnight = 12,
    CapturePromoteBishop = 13,
    CapturePromoteRook = 14,
    CapturePromoteQueen = 15,
}

impl MoveFlag {
    /// The promotion flag for `kind` (knight to queen), with or without a capture.
    #[inline(always)]
    pub const fn promotion(kind: super::PieceKind, capture: bool) -> u8 {
        8 + (kind as u8 - 1) + if capture { 4 } else { 0 }
    }
}

/// A move as `from | to << 6 | flag << 12`. `Move::NULL` (all zero) is written `0000`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

// No chess position has more than 218 legal moves.
packed_move!(Move, u16, 6, 256);
chess_move_flags!(Move, 8);

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move::with_flag_bits(from, to, flag as u16)
    }
}
