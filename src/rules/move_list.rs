//! Move lists sized per game. Every search frame holds move lists on the stack (the moves, the
//! scored moves, the quiets tried), so each game's lists hold what its positions can need and no
//! more: chess positions have at most 218 legal moves, so chess lists hold 256, while Millennium
//! and Nichess keep 512. Stable Rust cannot size an array by a constant of a generic game, so
//! each move type names its own slot array ([`PackedMove::Slots`], set by `packed_move!`) and
//! [`BoundedList`] stores any `Copy` item in the slots of a move type.

use super::PackedMove;
use std::fmt;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

/// What a list holds: plain values that may cross threads (moves, moves with scores).
pub trait Item: Copy + Send + Sync {}
impl<T: Copy + Send + Sync> Item for T {}

/// A list of at most the move type `M`'s capacity of `T`s, on the stack. Pushing past the
/// capacity panics: the capacity is a bound on the game's legal moves, so it is a bug.
pub struct BoundedList<T: Item, M: PackedMove> {
    len: usize,
    slots: M::Slots<T>,
}

/// The legal moves of a position.
pub type MoveList<M> = BoundedList<M, M>;

impl<T: Item, M: PackedMove> BoundedList<T, M> {
    #[inline(always)]
    pub fn new() -> Self {
        BoundedList {
            len: 0,
            slots: M::empty_slots(),
        }
    }

    /// How many items the list can hold.
    #[inline(always)]
    pub fn capacity(&self) -> usize {
        self.slots.as_ref().len()
    }

    #[inline(always)]
    pub fn push(&mut self, item: T) {
        match self.slots.as_mut().get_mut(self.len) {
            Some(slot) => *slot = MaybeUninit::new(item),
            None => panic!("a move list of capacity {} overflowed", self.capacity()),
        }
        self.len += 1;
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` items (all of them when there are fewer).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        let last = *self.last()?;
        self.len -= 1;
        Some(last)
    }

    /// Removes the item at `index`, putting the last one in its place.
    #[inline(always)]
    pub fn swap_remove(&mut self, index: usize) -> T {
        let item = self[index];
        let last = self.len - 1;
        self.as_mut_slice().swap(index, last);
        self.len = last;
        item
    }

    /// Keeps the items for which `keep` says true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&mut T) -> bool) {
        let mut kept = 0;
        for index in 0..self.len {
            let mut item = self[index];
            if keep(&mut item) {
                self[kept] = item;
                kept += 1;
            }
        }
        self.len = kept;
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        let slots = self.slots.as_ref();
        // SAFETY: the first `len` slots were written by `push` (`len` never exceeds the slots
        // written: only `push` raises it), and `MaybeUninit<T>` has `T`'s layout.
        unsafe { std::slice::from_raw_parts(slots.as_ptr().cast::<T>(), self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let len = self.len;
        let slots = self.slots.as_mut();
        // SAFETY: as in `as_slice`; the borrow of `self` is unique.
        unsafe { std::slice::from_raw_parts_mut(slots.as_mut_ptr().cast::<T>(), len) }
    }
}

impl<T: Item, M: PackedMove> Default for BoundedList<T, M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item, M: PackedMove> Clone for BoundedList<T, M> {
    fn clone(&self) -> Self {
        let mut copy = Self::new();
        copy.extend(self.iter().copied());
        copy
    }
}

impl<T: Item, M: PackedMove> Deref for BoundedList<T, M> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Item, M: PackedMove> DerefMut for BoundedList<T, M> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Item + fmt::Debug, M: PackedMove> fmt::Debug for BoundedList<T, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Item + PartialEq, M: PackedMove> PartialEq for BoundedList<T, M> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Item + Eq, M: PackedMove> Eq for BoundedList<T, M> {}

impl<T: Item, M: PackedMove> Extend<T> for BoundedList<T, M> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.push(item);
        }
    }
}

impl<T: Item, M: PackedMove> FromIterator<T> for BoundedList<T, M> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut list = Self::new();
        list.extend(items);
        list
    }
}

impl<'a, T: Item, M: PackedMove> IntoIterator for &'a BoundedList<T, M> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: Item, M: PackedMove> IntoIterator for &'a mut BoundedList<T, M> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// The items of a list, by value.
pub struct IntoIter<T: Item, M: PackedMove> {
    list: BoundedList<T, M>,
    next: usize,
}

impl<T: Item, M: PackedMove> Iterator for IntoIter<T, M> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        let item = self.list.get(self.next).copied()?;
        self.next += 1;
        Some(item)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len() - self.next;
        (left, Some(left))
    }
}

impl<T: Item, M: PackedMove> ExactSizeIterator for IntoIter<T, M> {}

impl<T: Item, M: PackedMove> IntoIterator for BoundedList<T, M> {
    type Item = T;
    type IntoIter = IntoIter<T, M>;
    fn into_iter(self) -> IntoIter<T, M> {
        IntoIter {
            list: self,
            next: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::chess::Move as ChessMove;
    use crate::rules::millennium::Move as MillenniumMove;
    use crate::rules::nichess::Move as NichessMove;
    use crate::rules::{BoundedList, MoveList, PackedMove};

    #[test]
    fn each_game_sizes_its_own_lists() {
        assert_eq!(MoveList::<ChessMove>::new().capacity(), 256);
        assert_eq!(MoveList::<MillenniumMove>::new().capacity(), 512);
        assert_eq!(MoveList::<NichessMove>::new().capacity(), 512);
        // Chess's lists are half the size they were when every game had 512 slots.
        assert!(std::mem::size_of::<MoveList<ChessMove>>() <= 256 * 2 + 8);
        assert!(std::mem::size_of::<BoundedList<(ChessMove, i32), ChessMove>>() <= 256 * 8 + 8);
    }

    #[test]
    fn a_list_keeps_order_through_its_edits() {
        let mut list: BoundedList<u32, ChessMove> = (0..10).collect();
        assert_eq!(list.len(), 10);
        list.retain(|x| *x % 3 != 0);
        assert_eq!(list.as_slice(), [1, 2, 4, 5, 7, 8]);
        assert_eq!(list.swap_remove(1), 2);
        assert_eq!(list.as_slice(), [1, 8, 4, 5, 7]);
        assert_eq!(list.pop(), Some(7));
        list.truncate(2);
        assert_eq!(list.clone().into_iter().collect::<Vec<_>>(), [1, 8]);
        list.sort_unstable_by_key(|&x| std::cmp::Reverse(x));
        assert_eq!(list.as_slice(), [8, 1]);
        list.clear();
        assert!(list.is_empty() && list.pop().is_none());
        assert_eq!(ChessMove::unpack(0), ChessMove::NULL);
    }

    #[test]
    #[should_panic(expected = "overflowed")]
    fn pushing_past_the_capacity_is_a_bug_that_panics() {
        let mut list: BoundedList<u8, ChessMove> = BoundedList::new();
        for _ in 0..=256 {
            list.push(0);
        }
    }
}
