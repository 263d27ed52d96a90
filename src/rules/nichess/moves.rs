//! The Nichess action: 16 bits of from, to and what kind of action it is.

use crate::board::Square;
use crate::rules::PackedMove;

/// What an action does. Attacks and throws are written to the target's square, whatever
/// square the attacker ends on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum MoveKind {
    /// A move onto an empty square.
    Quiet = 0,
    /// The king's two-square move; the pirate jumps over it.
    Castle = 1,
    /// A standard attack on the enemy piece on `to`: destroys it or damages it.
    Attack = 2,
    /// A queen throwing a maenad or a pirate throwing a pirate at the enemy piece on `to`.
    Throw = 3,
    /// A pawn moving onto the last rank, becoming a pirate.
    Promotion = 4,
    /// A pawn destroying a piece on the last rank, becoming a pirate.
    AttackPromotion = 6,
}

/// An action as `from | to << 6 | kind << 12`. `Move::NULL` (all zero) is written `0000`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: u8, to: u8, kind: MoveKind) -> Move {
        Move(from as u16 | (to as u16) << 6 | (kind as u16) << 12)
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }
    #[inline(always)]
    pub const fn kind_bits(self) -> u16 {
        self.0 >> 12
    }
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.kind_bits() {
            1 => MoveKind::Castle,
            2 => MoveKind::Attack,
            3 => MoveKind::Throw,
            4 => MoveKind::Promotion,
            6 => MoveKind::AttackPromotion,
            _ => MoveKind::Quiet,
        }
    }
    /// An attack or a throw (with or without promotion): the action hits an enemy piece.
    #[inline(always)]
    pub const fn is_hit(self) -> bool {
        matches!(self.kind_bits(), 2 | 3 | 6)
    }
    #[inline(always)]
    pub const fn is_throw(self) -> bool {
        self.kind_bits() == MoveKind::Throw as u16
    }
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.kind_bits() & 4 != 0
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.kind_bits() == MoveKind::Castle as u16
    }

    /// The protocol form: from and to square, `e2e4`, `d1h5`; no promotion suffix.
    pub fn text(self) -> String {
        if self == Move::NULL {
            return "0000".to_string();
        }
        format!("{}{}", self.from().name(8), self.to().name(8))
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
        self.0 as u32
    }
    #[inline(always)]
    fn unpack(bits: u32) -> Move {
        Move(bits as u16)
    }
    #[inline(always)]
    fn squares(self) -> (Square, Square) {
        (self.from(), self.to())
    }
}
