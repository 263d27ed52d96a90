//! The decisions inside one node of the main search, apart from its loop over moves: the table's
//! cut-off, pruning the whole node before any move (reverse futility, razoring, null move,
//! ProbCut), pruning one move before it is played, the singular extension, late-move
//! reductions, and what a node learns when it ends (histories on a cut, the evaluation's
//! correction). Each is called from one place in `negamax` and inlined there.

use super::{history, reduction, Searcher};
use crate::eval::Evaluate;
use crate::rules::{Game, MoveList};
use crate::search::correction::CorrectionKeys;
use crate::search::history::NO_PIECE_TO;
use crate::search::tt::{Bound, Entry};
use crate::search::MATE_BOUND;

/// What a node of the main search knows before it tries its moves.
#[derive(Clone, Copy)]
pub(super) struct NodeFacts<M> {
    /// The depth left (after the check extension, where the game has one; less one when
    /// internal iterative reduction applies, from the move loop on).
    pub depth: i32,
    pub ply: usize,
    pub key: u64,
    /// The table's move (or none).
    pub hash_move: M,
    /// The move a singular search leaves out (or none).
    pub excluded: M,
    pub table: TableHit,
    /// The evaluation before its correction (`-INFINITY` in check).
    pub raw_eval: i32,
    pub pv_node: bool,
    pub in_check: bool,
    /// The node is searched without its hash move, to test that move's singularity.
    pub singular_search: bool,
    /// Better than two plies ago: prune less.
    pub improving: bool,
    /// The static evaluation with its correction (`-INFINITY` in check).
    pub static_eval: i32,
    /// The static evaluation, or the table's score where its bound says it is better.
    pub eval: i32,
}

/// The table's entry and its score from this ply.
pub(super) type TableHit = Option<(Entry, i32)>;

/// The score that ends a node at once because the table's entry, searched at least as deep,
/// bounds it outside the window (never at PV nodes).
#[inline(always)]
pub(super) fn table_cutoff(
    table: TableHit,
    depth: i32,
    alpha: i32,
    beta: i32,
    pv_node: bool,
) -> Option<i32> {
    let (entry, score) = table?;
    let cuts = !pv_node
        && entry.depth as i32 >= depth
        && match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
    cuts.then_some(score)
}

/// The table's score is a better guess than the static evaluation when its bound points away
/// from it; the pruning reads this guess.
#[inline(always)]
pub(super) fn refined_eval(table: TableHit, in_check: bool, static_eval: i32) -> i32 {
    match table {
        Some((entry, score)) if !in_check && score.abs() < MATE_BOUND => match entry.bound {
            Bound::Exact => score,
            Bound::Lower if score > static_eval => score,
            Bound::Upper if score < static_eval => score,
            _ => static_eval,
        },
        _ => static_eval,
    }
}

impl<G: Game + Evaluate> Searcher<'_, G> {
    /// Prunes the whole node before its moves: the score to return, or `None` to search it
    /// (`Some(0)` after a stop).
    #[inline(always)]
    pub(super) fn prune_node(
        &mut self,
        pos: &G,
        node: &NodeFacts<G::Move>,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let NodeFacts {
            depth,
            ply,
            eval,
            static_eval,
            improving,
            key,
            table,
            ..
        } = *node;
        let quiet_node = !node.pv_node && !node.in_check && !node.singular_search;
        if quiet_node {
            // Reverse futility: far above beta at low depth, the opponent will not come back.
            let margin = 80 * (depth - i32::from(improving));
            if depth <= 6 && eval - margin >= beta && beta.abs() < MATE_BOUND {
                return Some(eval);
            }
            // Razoring: far below alpha near the leaves, only a capture can help; ask
            // quiescence whether one does.
            if depth <= 3 && eval + 200 + 150 * depth <= alpha && alpha.abs() < MATE_BOUND {
                let score = self.quiescence(pos, alpha, alpha + 1, ply, 0);
                if self.stopped {
                    return Some(0);
                }
                if score <= alpha {
                    return Some(score);
                }
            }
            // Null move: if passing still beats beta, a real move will too.
            if depth >= 3 && eval >= beta && static_eval >= beta - 30 && pos.has_non_pawn_material()
            {
                if let Some(null) = pos.play_null() {
                    let r = 3 + depth / 4 + ((eval - beta) / 200).min(2);
                    self.stack[ply].piece_to = NO_PIECE_TO;
                    self.keys.push(null.key());
                    let score =
                        -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    self.keys.pop();
                    if self.stopped {
                        return Some(0);
                    }
                    if score >= beta {
                        return Some(if score >= MATE_BOUND { beta } else { score });
                    }
                }
            }
        }

        // ProbCut: a capture whose shallow search beats beta by a margin would, with all
        // likelihood, beat beta at full depth too.
        let probcut_beta = beta + 200 - 50 * i32::from(improving);
        if !node.pv_node
            && !node.in_check
            && !node.singular_search
            && depth >= 5
            && beta.abs() < MATE_BOUND
            && !matches!(table, Some((entry, score))
                if entry.depth as i32 >= depth - 3 && score < probcut_beta)
        {
            return self.probcut(pos, key, probcut_beta, static_eval, depth, ply);
        }
        None
    }

    /// Whether a rule prunes `mv` before it is played, `alpha` being the window's floor now and
    /// `searched` and `quiets_tried` the moves searched and the quiet ones among them (the caller still keeps a move that
    /// gives check): a capture that loses much more than the depth can win back; near the
    /// leaves, quiet moves late in the order, with a bad history, far below alpha, or handing
    /// material over.
    #[inline(always)]
    pub(super) fn prunes_move(
        pos: &G,
        mv: G::Move,
        node: &NodeFacts<G::Move>,
        alpha: i32,
        tactical: bool,
        quiet_score: i32,
        (searched, quiets_tried): (usize, usize),
    ) -> bool {
        let depth = node.depth;
        if tactical {
            return depth <= 6 && !pos.see_ge(mv, -100 * depth);
        }
        if node.in_check {
            return false;
        }
        let late = (3 + (depth * depth) as usize) / if node.improving { 1 } else { 2 };
        // The depth this move would be searched to after its late-move reduction: the futility
        // and exchange margins follow it, not the node's depth.
        let reduced_depth =
            (depth - 1 - reduction(depth, searched + 1) + quiet_score / 12_000).max(0);
        (!node.pv_node && depth <= 4 && quiets_tried >= late)
            // Quiet moves that history says fail, near the leaves.
            || (!node.pv_node && depth <= 3 && quiet_score < -3_000 * depth)
            || (!node.pv_node && reduced_depth <= 6 && node.eval + 100 + 100 * reduced_depth <= alpha)
            // A quiet move that hands the opponent material near the leaves.
            || (depth <= 8 && !pos.see_ge(mv, -30 * reduced_depth * reduced_depth))
    }

    /// Singular extension of the hash move `mv`: when it is much better than every other move
    /// it is searched one ply deeper (two if far better); when another move also beats beta
    /// the node is cut at once (multi-cut, `Err` with the score to return; `Err(0)` after a
    /// stop), and a hash move that only seems good is searched less deep. `Ok` with the
    /// extension otherwise.
    #[inline(always)]
    pub(super) fn singular_extension(
        &mut self,
        pos: &G,
        mv: G::Move,
        node: &NodeFacts<G::Move>,
        beta: i32,
    ) -> Result<i32, i32> {
        let (depth, ply) = (node.depth, node.ply);
        if depth < 8 || node.singular_search || (ply as i32) >= 2 * self.root_depth {
            return Ok(0);
        }
        let Some((entry, tt_score)) = node.table else {
            return Ok(0);
        };
        if (entry.depth as i32) < depth - 3
            || entry.bound == Bound::Upper
            || tt_score.abs() >= MATE_BOUND
        {
            return Ok(0);
        }
        let singular_beta = tt_score - 2 * depth;
        self.singular_excluded[ply] = mv;
        let score = self.negamax(
            pos,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            false,
        );
        self.singular_excluded[ply] = G::Move::default();
        if self.stopped {
            return Err(0);
        }
        if score < singular_beta {
            if !node.pv_node && score < singular_beta - 25 && self.stack[ply].double_extensions < 6
            {
                self.stack[ply].double_extensions += 1;
                return Ok(2);
            }
            Ok(1)
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// The late-move reduction of a quiet move (not in check) searched `searched`-th at
    /// `depth`: more late in the order and when not improving, less at PV nodes, for killers
    /// and for a good history, and a ply less when it gives check.
    #[inline(always)]
    pub(super) fn late_move_reduction(
        &self,
        node: &NodeFacts<G::Move>,
        depth: i32,
        mv: G::Move,
        (searched, quiet_score, gives_check): (usize, i32, bool),
    ) -> i32 {
        if depth < 3 || searched <= 2 {
            return 0;
        }
        let killers = &self.killers[node.ply];
        let mut r = reduction(depth, searched);
        r -= i32::from(node.pv_node);
        r -= i32::from(mv == killers[0] || mv == killers[1]);
        r += i32::from(!node.improving);
        r += i32::from(self.stack[node.ply + 1].cutoffs > 3);
        r -= quiet_score / 12_000;
        (r.clamp(0, depth - 2) - i32::from(gives_check)).max(0)
    }

    /// A quiet move `mv` cut the node: it becomes a killer and the counter to the move before,
    /// and the quiet moves tried before it are punished in the histories.
    #[inline(always)]
    pub(super) fn reward_quiet_cutoff(
        &mut self,
        pos: &G,
        mv: G::Move,
        depth: i32,
        ply: usize,
        previous: [usize; 2],
        quiets_tried: &MoveList<G::Move>,
    ) {
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let bonus = history::bonus(depth);
        for &quiet in quiets_tried {
            let b = if quiet == mv { bonus } else { -bonus };
            self.history.reward(pos, quiet, previous, b);
        }
        self.history.set_counter_move(previous[0], mv);
    }

    /// Learns how far the evaluation was off, from results that bound it on the right side:
    /// not in check, no capture decided it, and no fail that says less than it knows.
    #[inline(always)]
    pub(super) fn learn_correction(
        &mut self,
        pos: &G,
        node: &NodeFacts<G::Move>,
        raw_eval: i32,
        best_move: G::Move,
        best_score: i32,
        (alpha, beta): (i32, i32),
    ) {
        let static_eval = node.static_eval;
        let bound_ok = if best_score >= beta {
            best_score > static_eval
        } else if best_score <= alpha {
            best_score < static_eval
        } else {
            true
        };
        if !node.in_check
            && !node.singular_search
            && bound_ok
            && (best_move == G::Move::default() || !pos.is_tactical(best_move))
            && best_score.abs() < MATE_BOUND
        {
            let error = best_score - raw_eval;
            self.correction.learn(
                pos.side_to_move(),
                CorrectionKeys::of(pos),
                error,
                node.depth,
            );
        }
    }
}
