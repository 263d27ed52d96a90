//! The root of one search thread: its first order of the moves, iterative deepening with
//! aspiration windows, and the lines it reports.

use super::{Searcher, INFINITY};
use crate::eval::Evaluate;
use crate::rules::{EndReason, Game, MoveList, PackedMove};
use crate::search::time::Stability;
use crate::search::{Info, Score, SearchOutcome, MATE, MATE_BOUND, MAX_PLY};
use std::sync::atomic::Ordering;

impl<G: Game + Evaluate> Searcher<'_, G> {
    /// A cheap score of a root move, from the mover's point of view, for the root's order
    /// before any iteration completes: the static evaluation after the move, lowered by the
    /// opponent's best capture in reply (with our best recapture on the same square), and a
    /// mate as the best of all. It takes no search node: it must be ready before the first.
    /// The evaluations follow the path as the search's do (plies 1 to 3), each equal to a
    /// fresh one and far cheaper where a network's sums are updated rather than redone.
    fn static_root_score(&mut self, mv: G::Move) -> i32 {
        let child = self.root.play(mv);
        let mut replies = MoveList::new();
        child.generate_moves(&mut replies);
        if replies.is_empty() {
            return match child.no_moves_reason() {
                EndReason::Checkmate | EndReason::KingDestroyed => MATE - 1,
                _ => 0,
            };
        }
        let mut score = -self.evaluate(&child, 1);
        let mut recaptures = MoveList::new();
        for &reply in replies.iter().filter(|&&reply| child.is_tactical(reply)) {
            let after = child.play(reply);
            let mut value = self.evaluate(&after, 2);
            let square = reply.squares().1;
            recaptures.clear();
            after.generate_tactical(&mut recaptures);
            for &recapture in recaptures.iter().filter(|m| m.squares().1 == square) {
                value = value.max(-self.evaluate(&after.play(recapture), 3));
            }
            score = score.min(value);
        }
        score
    }

    /// Orders the root moves by [`Searcher::static_root_score`] (stable: equal scores keep
    /// the generation order) and returns the score of the first.
    fn order_root(&mut self, root_moves: &MoveList<G::Move>) -> i32 {
        let mut scored: Vec<(G::Move, i32)> = root_moves
            .iter()
            .map(|&mv| (mv, self.static_root_score(mv)))
            .collect();
        scored.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        self.root_order = scored.iter().map(|&(mv, _)| mv).collect();
        scored[0].1
    }

    /// The tables this thread learnt, for the next search.
    /// Iterative deepening; the main thread reports and returns the result.
    pub fn iterate(
        &mut self,
        multipv: usize,
        report: &mut dyn FnMut(&Info),
    ) -> SearchOutcome<G::Move> {
        let mut root_moves = MoveList::new();
        self.root.generate_moves(&mut root_moves);
        if !self.allowed.is_empty() {
            root_moves.retain(|mv| self.allowed.contains(mv));
        }
        if root_moves.is_empty() {
            // No legal move among `searchmoves`: search them all rather than none.
            self.allowed.clear();
            self.root.generate_moves(&mut root_moves);
        }
        let multipv = multipv.min(root_moves.len());
        let max_depth = self.shared.limits.depth.map_or(MAX_PLY as i32 - 4, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 4)
        });
        // Ordered before the search starts, so that a search stopped before its first
        // iteration completes still answers a considered move, never the first generated.
        let static_score = self.order_root(&root_moves);
        let mut best_move = self.root_order[0];
        let mut ponder_move = None;
        let mut previous_score = 0;
        let mut stability = Stability::default();

        'deepening: for depth in 1..=max_depth {
            // Helper threads skip some depths so that the threads spread over the tree.
            if self.id > 0 && depth > 1 && (depth as usize + self.id).is_multiple_of(2) {
                continue;
            }
            self.excluded.clear();
            self.root_depth = depth;
            for line in 0..multipv {
                self.seldepth = 0;
                let score = self.aspiration(depth, previous_score, line == 0);
                if self.stopped && !(depth == 1 && line == 0) {
                    // An unfinished iteration still counts when its first move is new and
                    // better: the root stores the best move found so far in `pv[0]`. It is
                    // reported, so that the last line's pv starts with the move played.
                    if line == 0
                        && !self.pv[0].is_empty()
                        && self.pv[0][0] != best_move
                        && score > -INFINITY
                        && score >= previous_score - 30
                    {
                        best_move = self.pv[0][0];
                        ponder_move = self.pv[0].get(1).copied();
                        self.report_line(depth, line, score, self.pv_text(), report);
                    }
                    break 'deepening;
                }
                let first_unfinished = self.stopped
                    && depth == 1
                    && line == 0
                    && !self.root_done.contains(&best_move)
                    && static_score > score;
                let line_move = self.pv[0].first().copied().filter(|_| !first_unfinished);
                let Some(line_move) = line_move else {
                    // The first iteration stopped before any root move was searched, or before
                    // the first of the static order was while those searched score below it:
                    // the answer is that first move, and is reported with its static score.
                    if line == 0 && self.completed_depth == 0 {
                        let text = vec![self.root.move_text(best_move)];
                        self.report_line(depth, line, static_score, text, report);
                    }
                    break 'deepening;
                };
                if line == 0 {
                    best_move = line_move;
                    ponder_move = self.pv[0].get(1).copied();
                    previous_score = score;
                }
                self.excluded.push(line_move);
                self.report_line(depth, line, score, self.pv_text(), report);
                if self.stopped {
                    break 'deepening;
                }
            }
            self.completed_depth = depth;
            if self.is_main() && !self.pondering() {
                if let Some(soft) = self.shared.budget.soft {
                    // The next iteration takes longer than all before it: don't start one that
                    // cannot finish. A best move that keeps changing, or a score that falls,
                    // asks for more time; one that has stood for iterations, for less.
                    let scale = stability.update(best_move, previous_score);
                    if self.elapsed() >= soft.mul_f64(0.6 * scale) {
                        break;
                    }
                }
                if previous_score.abs() >= MATE_BOUND
                    && self.shared.limits.depth.is_none()
                    && MATE - previous_score.abs() < depth
                    && !self.shared.limits.infinite
                {
                    break;
                }
            }
        }
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        SearchOutcome {
            best_move: Some(best_move),
            ponder: ponder_move,
            nodes: self.shared.nodes.load(Ordering::Relaxed),
        }
    }

    /// Reports one line of an iteration (main thread only).
    fn report_line(
        &self,
        depth: i32,
        line: usize,
        score: i32,
        pv: Vec<String>,
        report: &mut dyn FnMut(&Info),
    ) {
        if !self.is_main() {
            return;
        }
        let nodes = self.total_nodes();
        let time = self.shared.start.elapsed();
        report(&Info {
            depth: depth as u32,
            seldepth: self.seldepth.max(1) as u32,
            multipv: line as u32 + 1,
            score: Score::from_internal(score),
            nodes,
            nps: (nodes as u128 * 1000 / time.as_millis().max(1)) as u64,
            time,
            hashfull: self.shared.tt.hashfull(),
            pv,
        });
    }

    fn pv_text(&self) -> Vec<String> {
        let mut position = self.root.clone();
        let mut text = Vec::new();
        for &mv in &self.pv[0] {
            text.push(position.move_text(mv));
            position = position.play(mv);
        }
        text
    }

    fn aspiration(&mut self, depth: i32, previous: i32, first_line: bool) -> i32 {
        let root = self.root.clone();
        if depth < 5 || !first_line || previous.abs() >= MATE_BOUND {
            return self.negamax(&root, depth, -INFINITY, INFINITY, 0, true);
        }
        let mut window = 25;
        let (mut alpha, mut beta) = (previous - window, previous + window);
        loop {
            let score = self.negamax(&root, depth, alpha, beta, 0, true);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - window).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + window).min(INFINITY);
            } else {
                return score;
            }
            window *= 2;
            if window > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}
