//! One bitboard interface over `u64` (boards of up to 64 squares) and `u128` (up to 128 squares).
//!
//! Every game picks its integer through its [`Geometry`](super::Geometry); code written against
//! [`Bitboard`] is monomorphised, so 8x8 games pay nothing for the larger boards.

use super::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// A set of squares, one bit per square (bit `i` is square index `i`).
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Sub<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const EMPTY: Self;
    const ALL: Self;
    /// Number of bits in the integer (64 or 128).
    const BITS: u32;

    fn from_square(sq: Square) -> Self;
    /// The low bits of a `u128` set (the compile-time table builders work in `u128`).
    fn from_bits(bits: u128) -> Self;

    #[inline(always)]
    fn has(self, sq: Square) -> bool {
        !(self & Self::from_square(sq)).is_empty()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::EMPTY
    }
    fn count(self) -> u32;
    /// Lowest square of a non-empty set.
    fn lsb(self) -> Square;
    /// Highest square of a non-empty set.
    fn msb(self) -> Square;
    /// Removes and returns the lowest square of a non-empty set.
    #[inline(always)]
    fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        *self = self.clear_lsb();
        sq
    }
    fn clear_lsb(self) -> Self;
    /// True when more than one square is set.
    #[inline(always)]
    fn more_than_one(self) -> bool {
        self.clear_lsb().any()
    }
    #[inline(always)]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

macro_rules! impl_bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            const EMPTY: Self = 0;
            const ALL: Self = !0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn from_square(sq: Square) -> Self {
                1 << sq.0
            }
            #[inline(always)]
            fn from_bits(bits: u128) -> Self {
                bits as $t
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> Square {
                debug_assert!(self != 0);
                Square(self.trailing_zeros() as u8)
            }
            #[inline(always)]
            fn msb(self) -> Square {
                debug_assert!(self != 0);
                Square((<$t>::BITS - 1 - self.leading_zeros()) as u8)
            }
            #[inline(always)]
            fn clear_lsb(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
impl_bitboard!(u64);
impl_bitboard!(u128);

/// Iterates the squares of a set from the lowest up.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter<B>(B);

impl<B: Bitboard> Iterator for SquareIter<B> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bitboard> ExactSizeIterator for SquareIter<B> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip<B: Bitboard>() {
        let squares = [0u8, 5, 63];
        let mut bb = B::EMPTY;
        for &s in &squares {
            bb |= B::from_square(Square(s));
        }
        assert_eq!(bb.count(), 3);
        assert_eq!(bb.lsb(), Square(0));
        assert_eq!(bb.msb(), Square(63));
        assert!(bb.more_than_one());
        let collected: Vec<u8> = bb.squares().map(|s| s.0).collect();
        assert_eq!(collected, squares);
    }

    #[test]
    fn u64_and_u128_behave_alike() {
        roundtrip::<u64>();
        roundtrip::<u128>();
        let high = u128::from_square(Square(119));
        assert_eq!(high.lsb(), Square(119));
        assert_eq!(high.msb(), Square(119));
        assert!(!high.more_than_one());
    }
}
