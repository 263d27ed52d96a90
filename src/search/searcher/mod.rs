//! One search thread: iterative deepening, principal variation search and quiescence.

use super::correction::{Correction, CorrectionKeys};
use super::history::{self, History, NO_PIECE_TO};
use super::memory::ThreadMemory;
use super::time::Budget;
use super::tt::{Bound, TranspositionTable};
use super::{Limits, MATE, MATE_BOUND, MAX_PLY};
use crate::eval::{EvalOptions, Evaluate};
use crate::rules::{BoundedList, Game, GameRecord, MoveList, PackedMove};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const INFINITY: i32 = 32_500;

/// How many plies of captures the quiescence search follows before it trusts the evaluation. On
/// crowded boards (Millennium's 120 squares) unbounded capture chains made a depth-1 search take
/// millions of nodes; eight plies keep every usual exchange and bound the rest.
const QUIESCENCE_MAX_PLIES: usize = 8;

/// Moves with their ordering scores, on the stack.
type ScoredMoves<M> = BoundedList<(M, i32), M>;
/// Nodes between checks of the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

mod node;
mod picker;
mod probcut;
mod quiescence;
mod root;

use node::NodeFacts;
use picker::{MoveOrdering, MovePicker};

/// What every thread of one search shares.
pub(super) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// Set by the engine (`stop`, `quit`).
    pub stop: &'a AtomicBool,
    /// Set by the main thread when it is done, to end the helper threads.
    pub halt: AtomicBool,
    /// Nodes of every thread, flushed every `CHECK_INTERVAL` nodes.
    pub nodes: AtomicU64,
    pub limits: &'a Limits,
    pub budget: Budget,
    pub start: Instant,
    /// Milliseconds after `start` from which the clock counts (moved on `ponderhit`).
    pub clock_origin_ms: AtomicU64,
    pub eval: EvalOptions,
}

/// Late move reductions by depth and move number.
fn reduction(depth: i32, move_number: usize) -> i32 {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        t
    });
    table[(depth as usize).min(63)][move_number.min(63)] as i32
}

/// The place of the highest score among `entries[from..]` (the first of equals), `from` when
/// there are none. Two passes that do not branch on the scores, the maximum and then its first
/// place, instead of one that keeps the best so far: move scores are in no order a predictor can
/// learn, and the branchy scan was a tenth of the search's time.
#[inline(always)]
fn best_index<T>(entries: &[T], from: usize, score: impl Fn(&T) -> i32) -> usize {
    let rest = &entries[from..];
    let Some(max) = rest.iter().map(&score).max() else {
        return from;
    };
    from + rest
        .iter()
        .position(|entry| score(entry) == max)
        .unwrap_or(0)
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// What the search remembers of one ply of the current path.
#[derive(Clone, Copy)]
struct PlyState {
    /// [`Game::piece_to_index`] of the move made at this ply ([`NO_PIECE_TO`]: none, or null).
    piece_to: usize,
    /// The static evaluation here; `-INFINITY` in check.
    static_eval: i32,
    /// The evaluation before the correction, for the table (`None`: in check, or not computed).
    raw_eval: Option<i32>,
    /// Double extensions on the path up to here, which are limited.
    double_extensions: i32,
    /// Beta cut-offs at this ply since the node two plies up began: when many of them refute
    /// the moves of a node one ply up one after another (an all-node), it reduces the rest more.
    cutoffs: u32,
}

impl Default for PlyState {
    fn default() -> Self {
        PlyState {
            piece_to: NO_PIECE_TO,
            static_eval: -INFINITY,
            raw_eval: None,
            double_extensions: 0,
            cutoffs: 0,
        }
    }
}

pub(super) struct Searcher<'a, G: Game + Evaluate> {
    shared: &'a Shared<'a>,
    id: usize,
    root: G,
    /// Keys of the game so far and of the current search path, for repetition.
    keys: Vec<u64>,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    stopped: bool,
    was_pondering: bool,
    killers: Vec<[G::Move; 2]>,
    history: Box<History>,
    correction: Box<Correction>,
    /// Per ply of the current path: the move made there and the static evaluation.
    stack: Vec<PlyState>,
    /// What the evaluation keeps along the path (chess: the network's accumulators).
    eval_path: G::PathState,
    /// Per ply: the move a singular-extension search leaves out (`default()`: none).
    singular_excluded: Vec<G::Move>,
    pv: Vec<Vec<G::Move>>,
    /// Root moves excluded from the current search (lines already given in MultiPV).
    excluded: Vec<G::Move>,
    /// The root moves `searchmoves` allows; empty means all.
    allowed: Vec<G::Move>,
    /// Nodes between checks of the clock and the limits.
    check_interval: u64,
    /// The root moves, best first by [`Searcher::static_root_score`]: the order of the root
    /// until an iteration completes, and the answer when none does.
    root_order: Vec<G::Move>,
    /// The deepest iteration this thread has completed (0: none yet).
    completed_depth: i32,
    /// The depth of the iteration under way.
    root_depth: i32,
    /// The root moves whose search has finished in the current iteration.
    root_done: Vec<G::Move>,
}

impl<'a, G: Game + Evaluate> Searcher<'a, G> {
    pub fn new(
        record: &GameRecord<G>,
        shared: &'a Shared<'a>,
        id: usize,
        memory: ThreadMemory,
    ) -> Searcher<'a, G> {
        let pondering = shared
            .limits
            .pondering
            .as_ref()
            .is_some_and(|p| p.load(Ordering::Relaxed));
        Searcher {
            shared,
            id,
            root: record.position().clone(),
            keys: record.keys().to_vec(),
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            was_pondering: pondering,
            killers: vec![[G::Move::default(); 2]; MAX_PLY + 2],
            history: memory.history,
            correction: memory.correction,
            stack: vec![PlyState::default(); MAX_PLY + 2],
            eval_path: G::path_state(shared.eval),
            singular_excluded: vec![G::Move::default(); MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            excluded: Vec::new(),
            allowed: shared
                .limits
                .searchmoves
                .iter()
                .filter_map(|text| record.position().parse_move(text).ok())
                .collect(),
            // A small node limit is checked at every node, so that it holds exactly.
            check_interval: shared
                .limits
                .nodes
                .map_or(CHECK_INTERVAL, |n| n.clamp(1, CHECK_INTERVAL)),
            root_order: Vec::new(),
            completed_depth: 0,
            root_depth: 0,
            root_done: Vec::new(),
        }
    }

    pub fn into_memory(self) -> ThreadMemory {
        ThreadMemory {
            history: self.history,
            correction: self.correction,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unflushed
    }

    fn pondering(&self) -> bool {
        self.shared
            .limits
            .pondering
            .as_ref()
            .is_some_and(|p| p.load(Ordering::Relaxed))
    }

    /// Time on the clock: since the search started, or since `ponderhit`.
    fn elapsed(&self) -> Duration {
        let origin = Duration::from_millis(self.shared.clock_origin_ms.load(Ordering::Relaxed));
        self.shared.start.elapsed().saturating_sub(origin)
    }

    /// Checks the stop flag, and in the main thread the clock and the node limit.
    fn check_stop(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        if self.shared.stop.load(Ordering::Relaxed) || self.shared.halt.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(limit) = self.shared.limits.nodes {
            if self.shared.nodes.load(Ordering::Relaxed) >= limit {
                self.stopped = true;
            }
        }
        let pondering = self.pondering();
        if self.is_main() && self.was_pondering && !pondering {
            let since_start = self.shared.start.elapsed().as_millis() as u64;
            self.shared
                .clock_origin_ms
                .store(since_start, Ordering::Relaxed);
        }
        self.was_pondering = pondering;
        // Every thread watches the clock: with more threads than cores the main thread may
        // get little time, and must not be the only one to notice.
        if !pondering {
            if let Some(hard) = self.shared.budget.hard {
                if self.elapsed() >= hard {
                    self.stopped = true;
                    self.shared.halt.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.stopped && self.shared.limits.nodes.is_some() {
            self.shared.halt.store(true, Ordering::Relaxed);
        }
    }

    /// True when the current position repeats one since the last irreversible move (a single
    /// repetition inside the search is scored as a draw).
    fn is_repetition(&self, halfmove: u32) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let reach = (halfmove as usize).min(n - 1);
        (4..=reach)
            .step_by(2)
            .any(|back| self.keys[n - 1 - back] == key)
    }

    /// Plays `mv`, with the fetch of the child's table entry started as early as the game
    /// allows: before the move is made when the game can tell the key, else just after.
    #[inline(always)]
    fn play_prefetched(&self, pos: &G, mv: G::Move) -> G {
        let likely = pos.likely_key_after(mv);
        if let Some(key) = likely {
            self.shared.tt.prefetch(key);
        }
        let child = pos.play(mv);
        if likely != Some(child.key()) {
            self.shared.tt.prefetch(child.key());
        }
        child
    }

    /// The static evaluation of `pos`, at `ply` of the path.
    #[inline(always)]
    fn evaluate(&mut self, pos: &G, ply: usize) -> i32 {
        pos.evaluate_at(&mut self.eval_path, ply)
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= self.check_interval {
            self.check_stop();
        }
    }

    /// The root's moves scored up front (the root needs every move anyway; below it the
    /// [`MovePicker`] scores lazily).
    fn order_root_moves(
        &self,
        pos: &G,
        moves: &MoveList<G::Move>,
        hash_move: G::Move,
        ply: usize,
    ) -> ScoredMoves<G::Move> {
        let previous = self.previous_moves(ply);
        let counter: G::Move = self.history.counter_move(previous[0]);
        moves
            .iter()
            .map(|&mv| {
                let score = if mv == hash_move {
                    4_000_000
                } else if pos.is_tactical(mv) {
                    // Captures that lose material in the exchange go after the quiet moves.
                    if pos.see_ge(mv, 0) {
                        2_000_000 + pos.tactical_order(mv)
                    } else {
                        -2_000_000 + pos.tactical_order(mv)
                    }
                } else if ply == 0 && self.completed_depth == 0 {
                    // Quiet root moves before any iteration completes: their static order.
                    self.root_order
                        .iter()
                        .position(|&m| m == mv)
                        .map_or(0, |rank| 900_000 - rank as i32)
                } else if mv == self.killers[ply][0] {
                    1_000_001
                } else if mv == self.killers[ply][1] {
                    1_000_000
                } else if mv == counter {
                    999_999
                } else {
                    self.history.quiet_score(pos, mv, previous)
                };
                (mv, score)
            })
            .collect()
    }

    /// Moves the best-scored remaining move to `index` and returns it.
    #[inline]
    fn pick(moves: &mut [(G::Move, i32)], index: usize) -> G::Move {
        let best = best_index(moves, index, |entry| entry.1);
        moves.swap(index, best);
        moves[index].0
    }

    /// The [`Game::piece_to_index`] of the moves that led to `ply`: the last one and the one
    /// before.
    #[inline(always)]
    fn previous_moves(&self, ply: usize) -> [usize; 2] {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].piece_to
            } else {
                NO_PIECE_TO
            }
        };
        [back(1), back(2)]
    }

    fn negamax(
        &mut self,
        pos: &G,
        mut depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        let root = ply == 0;
        if root {
            self.root_done.clear();
        }
        let in_check = pos.in_check();
        if G::EXTEND_CHECKS && in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if !root {
            if self.is_repetition(pos.halfmove_clock()) || pos.draw_by_rule().is_some() {
                // The game's quiet-move rule yields to a mate on the last move; checked below.
                if !(in_check && pos.quiet_limit_reached()) {
                    return 0;
                }
            }
            if ply >= MAX_PLY - 2 {
                return self.evaluate(pos, ply);
            }
            // Mate distance pruning: no line from here beats a mate already found nearer.
            let alpha_floor = alpha.max(-MATE + ply as i32);
            let beta_ceiling = beta.min(MATE - ply as i32 - 1);
            if alpha_floor >= beta_ceiling {
                return alpha_floor;
            }
        }

        let key = pos.key();
        let excluded = self.singular_excluded[ply];
        let singular_search = excluded != G::Move::default();
        // A search that leaves a move out must not use or fill the table's entry of the node.
        let entry = if singular_search {
            None
        } else {
            self.shared.tt.probe(key)
        };
        // The entry with its score as seen from this ply (mates counted from here).
        let table = entry.map(|e| (e, score_from_tt(e.score as i32, ply)));
        let hash_move = entry.map_or(G::Move::default(), |e| G::Move::unpack(e.packed_move));
        if let Some(score) = node::table_cutoff(table, depth, alpha, beta, pv_node) {
            return score;
        }

        // The table keeps the evaluation of a position seen before.
        let raw_eval = if in_check {
            -INFINITY
        } else if let Some(eval) = entry.and_then(|e| e.static_eval) {
            eval as i32
        } else {
            self.evaluate(pos, ply)
        };
        self.stack[ply].raw_eval = (!in_check).then_some(raw_eval);
        let static_eval = if in_check {
            -INFINITY
        } else {
            raw_eval
                + self
                    .correction
                    .get(pos.side_to_move(), CorrectionKeys::of(pos))
        };
        self.stack[ply].static_eval = static_eval;
        if ply > 0 {
            self.stack[ply].double_extensions = self.stack[ply - 1].double_extensions;
        }
        self.stack[ply + 2].cutoffs = 0;
        if root {
            self.stack[1].cutoffs = 0;
        }
        let mut node = NodeFacts {
            depth,
            ply,
            key,
            hash_move,
            excluded,
            table,
            raw_eval,
            pv_node,
            in_check,
            singular_search,
            // Better than two plies ago (or than the last position out of check): prune less.
            improving: !in_check && (ply < 2 || static_eval > self.stack[ply - 2].static_eval),
            static_eval,
            eval: node::refined_eval(table, in_check, static_eval),
        };
        if let Some(score) = self.prune_node(pos, &node, alpha, beta) {
            return score;
        }

        // Internal iterative reduction: a node without a hash move was never searched, or
        // searched only shallowly; search it less deep now and let the table fill.
        if node.depth >= 4 && hash_move == G::Move::default() && !singular_search {
            node.depth -= 1;
        }
        self.search_moves(pos, &node, alpha, beta)
    }

    /// The loop over a node's moves (`node` as the node's first part found it): each move
    /// searched, after the pruning, extensions and reductions that apply to it, then the
    /// node's result learnt and stored.
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &G,
        node: &NodeFacts<G::Move>,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let NodeFacts {
            depth,
            ply,
            hash_move,
            excluded,
            in_check,
            singular_search,
            ..
        } = *node;
        let root = ply == 0;
        let previous = self.previous_moves(ply);

        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut picker = MovePicker::empty();
        if root {
            picker = MovePicker::ordered(self.order_root_moves(pos, &moves, hash_move, ply));
        } else {
            let [first, second] = self.killers[ply];
            let ordering = MoveOrdering {
                hash_move,
                refutations: [first, second, self.history.counter_move(previous[0])],
                history: &self.history,
                previous,
            };
            picker.stage(pos, &moves, &ordering);
        }
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = G::Move::default();
        let mut searched = 0usize;
        let mut quiets_tried: MoveList<G::Move> = MoveList::new();

        while let Some(mv) = picker.next(pos) {
            if (mv == excluded && singular_search) || (root && self.root_skips(mv)) {
                continue;
            }
            let tactical = pos.is_tactical(mv);
            // Read afresh: the siblings searched since the move was scored have taught the
            // histories more.
            let quiet_score = if tactical {
                0
            } else {
                self.history.quiet_score(pos, mv, previous)
            };

            // Pruning is decided before the move is played, so that a pruned move is never
            // made; whether it checks is asked only when a rule would prune it.
            let prune = !root
                && best_score > -MATE_BOUND
                && Self::prunes_move(
                    pos,
                    mv,
                    node,
                    alpha,
                    tactical,
                    quiet_score,
                    (searched, quiets_tried.len()),
                );
            if prune && !pos.gives_check(mv) {
                continue;
            }
            let child = self.play_prefetched(pos, mv);
            let gives_check = child.in_check();

            let mut extension = 0;
            if !root && mv == hash_move {
                match self.singular_extension(pos, mv, node, beta) {
                    Ok(by) => extension = by,
                    Err(score) => return score,
                }
            }

            searched += 1;
            self.stack[ply].piece_to = pos.piece_to_index(mv);
            self.keys.push(child.key());
            let depth = depth + extension;
            // The first move is searched with the full window, the others reduced or not.
            let reduction = (searched > 1).then(|| {
                if tactical || in_check {
                    0
                } else {
                    self.late_move_reduction(node, depth, mv, (searched, quiet_score, gives_check))
                }
            });
            let score = self.search_child(&child, node, depth, reduction, (alpha, beta));
            self.keys.pop();
            if self.stopped {
                return Self::score_at_stop(best_score);
            }
            if root {
                self.root_done.push(mv);
            }
            if !tactical {
                quiets_tried.push(mv);
            }

            if score > best_score {
                best_score = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.record_pv(ply, mv);
                }
                if score >= beta {
                    self.stack[ply].cutoffs += 1;
                    if !tactical {
                        self.reward_quiet_cutoff(pos, mv, depth, ply, previous, &quiets_tried);
                    }
                    break;
                }
            }
        }

        if searched == 0 {
            // Every move was excluded (MultiPV) or pruned.
            return if root { -INFINITY } else { alpha };
        }
        self.finish_node(pos, node, best_move, best_score, (original_alpha, beta));
        best_score
    }

    /// Whether the root leaves `mv` out: a line already reported (MultiPV) or a move outside
    /// `searchmoves`.
    #[inline(always)]
    fn root_skips(&self, mv: G::Move) -> bool {
        self.excluded.contains(&mv) || (!self.allowed.is_empty() && !self.allowed.contains(&mv))
    }

    /// The score a node returns when the search stops inside it: its best so far (a root
    /// move whose search finished before the stop still holds in `pv[0]`), or 0.
    #[inline(always)]
    fn score_at_stop(best_score: i32) -> i32 {
        if best_score > -INFINITY {
            best_score
        } else {
            0
        }
    }

    /// One move's search at `depth` (extended): without a reduction (the first move) with the
    /// full window; the others with a null window at `depth - 1 - reduction`, searched again
    /// unreduced and then with the full window (at a PV node) while they beat alpha.
    #[inline(always)]
    fn search_child(
        &mut self,
        child: &G,
        node: &NodeFacts<G::Move>,
        depth: i32,
        reduction: Option<i32>,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        let (ply, pv_node) = (node.ply, node.pv_node);
        let Some(reduction) = reduction else {
            return -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, pv_node);
        };
        let mut score = -self.negamax(
            child,
            depth - 1 - reduction,
            -alpha - 1,
            -alpha,
            ply + 1,
            false,
        );
        if score > alpha && reduction > 0 {
            score = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1, false);
        }
        if score > alpha && score < beta && pv_node {
            score = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, true);
        }
        score
    }

    /// `mv` followed by the child's line becomes the line of `ply`.
    #[inline(always)]
    fn record_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// What a searched node leaves behind: the correction it teaches and its table entry
    /// (not for a singular search's or MultiPV's partial view of the node).
    #[inline(always)]
    fn finish_node(
        &mut self,
        pos: &G,
        node: &NodeFacts<G::Move>,
        best_move: G::Move,
        best_score: i32,
        window: (i32, i32),
    ) {
        self.learn_correction(pos, node, node.raw_eval, best_move, best_score, window);
        if (node.ply != 0 || self.excluded.is_empty()) && !node.singular_search {
            self.store(
                node.key, best_move, best_score, window, node.depth, node.ply,
            );
        }
    }

    /// Stores a node's result, with the bound its score is against the window it was searched
    /// with, and the node's evaluation (the ply's `raw_eval`).
    #[inline(always)]
    fn store(
        &self,
        key: u64,
        best_move: G::Move,
        score: i32,
        (alpha, beta): (i32, i32),
        depth: i32,
        ply: usize,
    ) {
        let bound = if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let score = score_to_tt(score, ply);
        let raw_eval = self.stack[ply].raw_eval;
        self.shared
            .tt
            .store(key, best_move.pack(), score, depth, bound, raw_eval);
    }
}
