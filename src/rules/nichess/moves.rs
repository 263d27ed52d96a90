//! The Nichess action: 16 bits of from, to and what kind of action it is.

use crate::board::Square;

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

// Moves and abilities together: kept at the size every game had before lists were per game.
packed_move!(Move, u16, 6, 512);

impl Move {
    #[inline(always)]
    pub const fn new(from: u8, to: u8, kind: MoveKind) -> Move {
        Move::with_flag_bits(Square(from), Square(to), kind as u16)
    }
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.flag_bits() {
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
        matches!(self.flag_bits(), 2 | 3 | 6)
    }
    #[inline(always)]
    pub const fn is_throw(self) -> bool {
        self.flag_bits() == MoveKind::Throw as u16
    }
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.flag_bits() & 4 != 0
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flag_bits() == MoveKind::Castle as u16
    }

    /// The protocol form: from and to square, `e2e4`, `d1h5`; no promotion suffix.
    pub fn text(self) -> String {
        if self == Move::NULL {
            return "0000".to_string();
        }
        format!("{}{}", self.from().name(8), self.to().name(8))
    }
}
