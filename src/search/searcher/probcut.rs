//! ProbCut: a capture whose reduced search beats beta by a margin would, with all likelihood,
//! beat beta at full depth too, so the node is cut without its full search.

use super::{ScoredMoves, Searcher};
use crate::eval::Evaluate;
use crate::rules::{Game, MoveList};

impl<G: Game + Evaluate> Searcher<'_, G> {
    /// Tries the captures whose exchange can clear `probcut_beta` from `static_eval`: first by
    /// quiescence, then at `depth - 4`. Returns the score that cuts the node (stored as a lower
    /// bound at `depth - 3`), or `None` when no capture does; after a stop, `Some(0)`.
    pub(super) fn probcut(
        &mut self,
        pos: &G,
        key: u64,
        probcut_beta: i32,
        static_eval: i32,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        let mut captures = MoveList::new();
        pos.generate_tactical(&mut captures);
        let mut ordered: ScoredMoves<G::Move> = captures
            .iter()
            .map(|&mv| (mv, pos.tactical_order(mv)))
            .collect();
        for index in 0..ordered.len() {
            let mv = Self::pick(&mut ordered, index);
            if !pos.see_ge(mv, probcut_beta - static_eval) {
                continue;
            }
            let child = self.play_prefetched(pos, mv);
            self.stack[ply].piece_to = pos.piece_to_index(mv);
            self.keys.push(child.key());
            let mut score = -self.quiescence(&child, -probcut_beta, -probcut_beta + 1, ply + 1, 0);
            if score >= probcut_beta {
                score = -self.negamax(
                    &child,
                    depth - 4,
                    -probcut_beta,
                    -probcut_beta + 1,
                    ply + 1,
                    false,
                );
            }
            self.keys.pop();
            if self.stopped {
                return Some(0);
            }
            if score >= probcut_beta {
                self.store(
                    key,
                    mv,
                    score,
                    (probcut_beta - 1, probcut_beta),
                    depth - 3,
                    ply,
                );
                return Some(score);
            }
        }
        None
    }
}
