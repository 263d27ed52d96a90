//! Quiescence search: captures (every move in check) until the position is quiet, with the
//! stand-pat score as the floor and the transposition table probed and filled.

use super::{score_from_tt, ScoredMoves, Searcher, INFINITY, QUIESCENCE_MAX_PLIES};
use crate::eval::Evaluate;
use crate::rules::{Game, MoveList};
use crate::search::correction::CorrectionKeys;
use crate::search::{MATE, MAX_PLY};

impl<G: Game + Evaluate> Searcher<'_, G> {
    pub(super) fn quiescence(
        &mut self,
        pos: &G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiescence_ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 2 || quiescence_ply >= QUIESCENCE_MAX_PLIES {
            return self.evaluate(pos, ply);
        }
        let in_check = pos.in_check();
        let key = pos.key();
        let entry = self.shared.tt.probe(key);
        // The entry with its score as seen from this ply (mates counted from here).
        let table = entry.map(|e| (e, score_from_tt(e.score as i32, ply)));
        // Every entry is at least as deep as quiescence (depth 0).
        if let Some(score) = super::node::table_cutoff(table, 0, alpha, beta, false) {
            return score;
        }
        let mut best_score = -INFINITY;
        // The table keeps the evaluation of a position seen before.
        let raw_eval = match entry.and_then(|e| e.static_eval) {
            _ if in_check => None,
            Some(eval) => Some(eval as i32),
            None => Some(self.evaluate(pos, ply)),
        };
        self.stack[ply].raw_eval = raw_eval;
        let stand_pat = match raw_eval {
            Some(eval) => {
                eval + self
                    .correction
                    .get(pos.side_to_move(), CorrectionKeys::of(pos))
            }
            None => -INFINITY,
        };
        // A bound from the table that says more than the evaluation replaces it, as in the
        // main search.
        let stand_pat = super::node::refined_eval(table, in_check, stand_pat);
        if !in_check {
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }
        let mut moves = MoveList::new();
        if in_check {
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            pos.generate_tactical(&mut moves);
        }
        // Filled in place: a list returned by value would be copied whole.
        let mut ordered: ScoredMoves<G::Move> = ScoredMoves::new();
        ordered.extend(moves.iter().map(|&mv| {
            (
                mv,
                if pos.is_tactical(mv) {
                    pos.tactical_order(mv) + 1_000_000
                } else {
                    0
                },
            )
        }));
        let original_alpha = alpha;
        let mut best_move = G::Move::default();
        for index in 0..ordered.len() {
            let mv = Self::pick(&mut ordered, index);
            // Delta pruning: even winning this piece outright cannot lift us to alpha.
            if !in_check && stand_pat + pos.tactical_gain(mv) + 200 <= alpha {
                continue;
            }
            // A capture that loses material in the exchange.
            if !in_check && !pos.see_ge(mv, 0) {
                continue;
            }
            let child = self.play_prefetched(pos, mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, quiescence_ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                }
                if score >= beta {
                    break;
                }
            }
        }
        self.store(key, best_move, best_score, (original_alpha, beta), 0, ply);
        best_score
    }
}
