//! The chess move: 16 bits of from, to and a flag.

use crate::board::Square;

/// What kind of move this is; values 8..=15 are promotions (bit 2 = capture, low bits = piece).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum MoveFlag {
    Quiet = 0,
    DoublePush = 1,
    KingCastle = 2,
    QueenCastle = 3,
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

/// A move as `from | to << 6 | flag << 12`. `Move::NULL` (all zero) is written `0000`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

packed_move!(Move, u16, 6);
chess_move_flags!(Move, 8);

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move::with_flag_bits(from, to, flag as u16)
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        matches!(self.flag_bits(), 2 | 3)
    }
}
