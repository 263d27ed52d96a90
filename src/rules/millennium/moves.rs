//! The Millennium move: 7-bit squares and a 4-bit flag in a `u32`.

use crate::board::Square;
use crate::rules::chess::PieceKind;

/// Board width, for square names.
const FILES: u8 = 15;

/// What kind of move this is; values 8..=15 are promotions (bit 2 = capture, low bits = piece).
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
    /// The promotion flag for reinstating `kind` (knight to queen), with or without a capture.
    #[inline(always)]
    pub const fn promotion(kind: PieceKind, capture: bool) -> u32 {
        8 + (kind as u32 - 1) + if capture { 4 } else { 0 }
    }
}

/// A move as `from | to << 7 | flag << 14`. `Move::NULL` (all zero) is written `0000`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

packed_move!(Move, u32, 7);
chess_move_flags!(Move, FILES);

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move::with_flag_bits(from, to, flag as u32)
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flag_bits() == MoveFlag::Castle as u32
    }
}
