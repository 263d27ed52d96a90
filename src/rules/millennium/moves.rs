//! The Millennium move: 7-bit squares and a 4-bit flag in a `u32`.

use crate::board::Square;
use crate::rules::chess::PieceKind;
use crate::rules::PackedMove;

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

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move::with_flag_bits(from, to, flag as u32)
    }
    #[inline(always)]
    pub const fn with_flag_bits(from: Square, to: Square, flag: u32) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << 7 | flag << 14)
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 127) as u8)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 7) & 127) as u8)
    }
    #[inline(always)]
    pub const fn flag_bits(self) -> u32 {
        self.0 >> 14
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

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

impl PackedMove for Move {
    #[inline(always)]
    fn pack(self) -> u32 {
        self.0
    }
    #[inline(always)]
    fn unpack(bits: u32) -> Move {
        Move(bits)
    }
    #[inline(always)]
    fn squares(self) -> (Square, Square) {
        (self.from(), self.to())
    }
}
