//! The plumbing every game's move type shares, declared by [`packed_move!`]: a move is an
//! integer `from | to << B | flag << 2B` with `B`-bit squares, `NULL` (all zero) is written
//! `0000`, it prints as its text, and it packs into the transposition table's 32 bits.

/// Declares the shared plumbing of the move type `$name($int)` with `$bits`-bit squares: `NULL`,
/// `with_flag_bits`, `from`, `to`, `flag_bits`, `Debug` as its text, and [`PackedMove`] with
/// move lists of `$capacity` slots (at least the game's most legal moves in one position). The
/// game writes its `text` and what its flags mean.
///
/// [`PackedMove`]: crate::rules::PackedMove
macro_rules! packed_move {
    ($name:ident, $int:ty, $bits:expr, $capacity:expr) => {
        impl $name {
            pub const NULL: $name = $name(0);
            const SQUARE_MASK: $int = (1 << $bits) - 1;

            #[inline(always)]
            pub const fn with_flag_bits(
                from: $crate::board::Square,
                to: $crate::board::Square,
                flag: $int,
            ) -> $name {
                $name(from.0 as $int | (to.0 as $int) << $bits | flag << (2 * $bits))
            }
            #[inline(always)]
            pub const fn from(self) -> $crate::board::Square {
                $crate::board::Square((self.0 & Self::SQUARE_MASK) as u8)
            }
            #[inline(always)]
            pub const fn to(self) -> $crate::board::Square {
                $crate::board::Square(((self.0 >> $bits) & Self::SQUARE_MASK) as u8)
            }
            #[inline(always)]
            pub const fn flag_bits(self) -> $int {
                self.0 >> (2 * $bits)
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.text())
            }
        }

        impl $crate::rules::PackedMove for $name {
            type Slots<T: $crate::rules::Item> = [std::mem::MaybeUninit<T>; $capacity];
            #[inline(always)]
            fn empty_slots<T: $crate::rules::Item>() -> Self::Slots<T> {
                [std::mem::MaybeUninit::uninit(); $capacity]
            }
            #[inline(always)]
            fn pack(self) -> u32 {
                self.0 as u32
            }
            #[inline(always)]
            fn unpack(bits: u32) -> $name {
                $name(bits as $int)
            }
            #[inline(always)]
            fn squares(self) -> ($crate::board::Square, $crate::board::Square) {
                (self.from(), self.to())
            }
            fn text(self) -> String {
                $name::text(self)
            }
        }
    };
}

/// The flags chess and Millennium share on top of [`packed_move!`] (`DoublePush` = 1, bit 2 a
/// capture, `EnPassant` = 5, bit 3 a promotion with the piece, knight to queen, in the low two
/// bits), and the long algebraic text on a board `$files` wide: `e2e4`, `h7h8r`.
macro_rules! chess_move_flags {
    ($name:ident, $files:expr) => {
        impl $name {
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
                self.flag_bits() == 5
            }
            #[inline(always)]
            pub const fn is_castle(self) -> bool {
                self.flag_bits() == 2
            }
            #[inline(always)]
            pub const fn is_double_push(self) -> bool {
                self.flag_bits() == 1
            }
            /// The promotion piece, 1 = knight .. 4 = queen (as `PieceKind` indices).
            #[inline(always)]
            pub const fn promotion_index(self) -> usize {
                (self.flag_bits() & 3) as usize + 1
            }
            /// The piece a pawn becomes.
            #[inline(always)]
            pub const fn promotion_kind(self) -> $crate::rules::chess::PieceKind {
                $crate::rules::chess::PieceKind::ALL[self.promotion_index()]
            }

            /// `values[promoted kind]` for a promotion, 0 for any other move.
            #[inline(always)]
            pub const fn promotion_value(self, values: &[i32; 6]) -> i32 {
                if self.is_promotion() {
                    values[self.promotion_index()]
                } else {
                    0
                }
            }
            /// What a promotion adds in `values`: the new piece less the pawn; 0 for any
            /// other move.
            #[inline(always)]
            pub const fn promotion_gain(self, values: &[i32; 6]) -> i32 {
                if self.is_promotion() {
                    values[self.promotion_index()] - values[0]
                } else {
                    0
                }
            }

            /// Long algebraic form, castling as the king's move: `e2e4`, `e7e8q`, `e1g1`.
            pub fn text(self) -> String {
                if self == $name::NULL {
                    return "0000".to_string();
                }
                let mut text = format!("{}{}", self.from().name($files), self.to().name($files));
                if self.is_promotion() {
                    text.push(self.promotion_kind().letter());
                }
                text
            }
        }
    };
}
