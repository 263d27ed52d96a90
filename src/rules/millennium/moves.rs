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

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move::with_flag_bits(from, to, flag as u32)
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
        self.flag_bits() == MoveFlag::EnPassant as u32
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flag_bits() == MoveFlag::Castle as u32
    }
    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.flag_bits() == MoveFlag::DoublePush as u32
    }
    /// The reinstated piece of a promotion.
    #[inline(always)]
    pub const fn promotion_kind(self) -> PieceKind {
        PieceKind::ALL[(self.flag_bits() & 3) as usize + 1]
    }

    /// Long algebraic form with files `a`..`o`: `o2o4`, `h7h8r`, castling as the king's move
    /// `e1c1`.
    pub fn text(self) -> String {
        if self == Move::NULL {
            return "0000".to_string();
        }
        let mut text = format!("{}{}", self.from().name(FILES), self.to().name(FILES));
        if self.is_promotion() {
            text.push(self.promotion_kind().letter());
        }
        text
    }
}
