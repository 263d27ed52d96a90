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

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move::with_flag_bits(from, to, flag as u16)
    }
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.flag_bits() & 4 != 0
    }
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.flag_bits() & 8 != 0
    }
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flag_bits() == MoveFlag::EnPassant as u16
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        matches!(self.flag_bits(), 2 | 3)
    }
    /// The promotion piece, 1 = knight .. 4 = queen (as [`PieceKind`](super::PieceKind) indices).
    #[inline(always)]
    pub const fn promotion_index(self) -> usize {
        (self.flag_bits() & 3) as usize + 1
    }

    /// Long algebraic form: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    pub fn text(self) -> String {
        if self == Move::NULL {
            return "0000".to_string();
        }
        let mut text = format!("{}{}", self.from().name(8), self.to().name(8));
        if self.is_promotion() {
            text.push(['n', 'b', 'r', 'q'][self.promotion_index() - 1]);
        }
        text
    }
}
