//! What one search thread learns about quiet moves as it goes: the butterfly history (side,
//! from, to), the continuation histories (this move's piece and square after the previous
//! moves' pieces and squares) and the counter move to each move.

use crate::rules::{Color, Game, PackedMove, HISTORY_SIZE, PIECE_TO_SIZE};

/// The largest magnitude of a history entry: the gravity update keeps every entry below it.
pub const HISTORY_MAX: i32 = 16_384;
/// The [`Game::piece_to_index`] of "no move": the root's parent, a null move.
pub const NO_PIECE_TO: usize = 12 * 128;

pub struct History {
    /// `[side][move_index]`.
    butterfly: Vec<i16>,
    /// `[previous piece_to][this piece_to]`, shared by the previous ply and the one before.
    continuation: Vec<i16>,
    /// `[previous piece_to]`: the quiet move that last refuted it, packed.
    counter: Vec<u32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * HISTORY_SIZE],
            continuation: vec![0; PIECE_TO_SIZE * PIECE_TO_SIZE],
            counter: vec![0; PIECE_TO_SIZE],
        }
    }
}

/// The bonus for a quiet move that caused a cut-off at `depth` (the malus for those tried
/// before it is the same, negated).
pub fn bonus(depth: i32) -> i32 {
    (150 * depth - 100).clamp(0, 1_600)
}

/// Moves `entry` towards `bonus`'s sign, the less the fuller it is (gravity), so that entries stay
/// below [`HISTORY_MAX`] and old knowledge fades.
#[inline(always)]
fn update(entry: &mut i16, bonus: i32) {
    let value = i32::from(*entry);
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

impl History {
    /// Forgets everything learnt, in place: the tables keep their memory.
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.counter.fill(0);
    }

    #[inline(always)]
    fn butterfly_index<G: Game>(pos: &G, mv: G::Move) -> usize {
        side_offset(pos.side_to_move()) + pos.move_index(mv)
    }

    /// The ordering score of a quiet move: its butterfly history and its continuation after
    /// the previous move and the one before it (`previous`).
    #[inline(always)]
    pub fn quiet_score<G: Game>(&self, pos: &G, mv: G::Move, previous: [usize; 2]) -> i32 {
        let piece_to = pos.piece_to_index(mv);
        i32::from(self.butterfly[Self::butterfly_index(pos, mv)])
            + i32::from(self.continuation[previous[0] * PIECE_TO_SIZE + piece_to])
            + i32::from(self.continuation[previous[1] * PIECE_TO_SIZE + piece_to])
    }

    /// Rewards `mv` by `bonus` (negative: a malus) in every table.
    pub fn reward<G: Game>(&mut self, pos: &G, mv: G::Move, previous: [usize; 2], bonus: i32) {
        let piece_to = pos.piece_to_index(mv);
        update(&mut self.butterfly[Self::butterfly_index(pos, mv)], bonus);
        for &before in &previous {
            if before != NO_PIECE_TO {
                update(
                    &mut self.continuation[before * PIECE_TO_SIZE + piece_to],
                    bonus,
                );
            }
        }
    }

    #[inline(always)]
    pub fn counter_move<M: PackedMove>(&self, previous: usize) -> M {
        M::unpack(self.counter[previous])
    }

    pub fn set_counter_move<M: PackedMove>(&mut self, previous: usize, mv: M) {
        if previous != NO_PIECE_TO {
            self.counter[previous] = mv.pack();
        }
    }
}

#[inline(always)]
fn side_offset(side: Color) -> usize {
    side.index() * HISTORY_SIZE
}
