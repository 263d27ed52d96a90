//! The order in which a node tries its moves: the hash move, the captures that do not lose
//! material, the killers and the counter move, the quiet moves by history, and last the captures
//! that lose material. Every move is scored up front except in one respect: a capture's exchange
//! (SEE, the costly part) is asked only when the capture comes up as the best left, so a node
//! that cuts off early never pays for the exchanges of the captures it did not reach. The order
//! is the one asking every exchange up front would give, tie for tie.

use super::ScoredMoves;
use crate::eval::Evaluate;
use crate::rules::{BoundedList, Game, MoveList};
use crate::search::history::History;

const HASH_SCORE: i32 = 4_000_000;
/// A capture not known to lose material (its order added); one that loses goes below the quiets.
const GOOD_CAPTURE: i32 = 2_000_000;
const BAD_CAPTURE: i32 = -2_000_000;
const KILLER_SCORES: [i32; 2] = [1_000_001, 1_000_000];
const COUNTER_SCORE: i32 = 999_999;

/// The moves of one node, handed out best first; `[0, next)` have been handed out. The flag
/// beside a capture's score says that its exchange is still to be asked (its score assumes it
/// does not lose material; it is lowered when it does).
pub(super) struct MovePicker<G: Game> {
    moves: BoundedList<(G::Move, i32, bool), G::Move>,
    next: usize,
}

/// Where a node's refutations and the histories that order its quiets come from.
pub(super) struct MoveOrdering<'a, M> {
    pub hash_move: M,
    /// The two killers and the counter move.
    pub refutations: [M; 3],
    pub history: &'a History,
    /// The moves before the node, for the continuation histories.
    pub previous: [usize; 2],
}

impl<G: Game + Evaluate> MovePicker<G> {
    /// A picker with no moves, to [`MovePicker::stage`] in place.
    #[inline(always)]
    pub fn empty() -> Self {
        MovePicker {
            moves: BoundedList::new(),
            next: 0,
        }
    }

    /// A picker over moves already scored: hands them out best score first.
    pub fn ordered(moves: ScoredMoves<G::Move>) -> Self {
        MovePicker {
            moves: moves
                .iter()
                .map(|&(mv, score)| (mv, score, false))
                .collect(),
            next: 0,
        }
    }

    /// A picker over a node's legal `moves`, ordered as `ordering` says.
    #[cfg(test)]
    pub fn staged(pos: &G, moves: &MoveList<G::Move>, ordering: &MoveOrdering<G::Move>) -> Self {
        let mut picker = MovePicker::empty();
        picker.stage(pos, moves, ordering);
        picker
    }

    /// Makes this picker one over a node's legal `moves`, ordered as `ordering` says. Filled in
    /// place: a picker is kilobytes of slots, which a returned value would copy whole.
    #[inline(always)]
    pub fn stage(&mut self, pos: &G, moves: &MoveList<G::Move>, ordering: &MoveOrdering<G::Move>) {
        let [first_killer, second_killer, counter] = ordering.refutations;
        self.next = 0;
        self.moves.clear();
        self.moves.extend(moves.iter().map(|&mv| {
            if mv == ordering.hash_move {
                (mv, HASH_SCORE, false)
            } else if pos.is_tactical(mv) {
                (mv, GOOD_CAPTURE + pos.tactical_order(mv), true)
            } else if mv == first_killer {
                (mv, KILLER_SCORES[0], false)
            } else if mv == second_killer {
                (mv, KILLER_SCORES[1], false)
            } else if mv == counter {
                (mv, COUNTER_SCORE, false)
            } else {
                let score = ordering.history.quiet_score(pos, mv, ordering.previous);
                (mv, score, false)
            }
        }));
    }

    /// The next move to try, or `None` when every move has been handed out.
    pub fn next(&mut self, pos: &G) -> Option<G::Move> {
        loop {
            let slice = self.moves.as_mut_slice();
            if self.next == slice.len() {
                return None;
            }
            let best = super::best_index(slice, self.next, |entry| entry.1);
            let (mv, score, unchecked) = slice[best];
            if !unchecked {
                slice.swap(self.next, best);
                self.next += 1;
                return Some(mv);
            }
            // The best left is a capture whose exchange is unknown: ask it, then pick again.
            if !pos.see_ge(mv, 0) {
                slice[best].1 = score - GOOD_CAPTURE + BAD_CAPTURE;
            }
            slice[best].2 = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::exchange::Exchange;
    use crate::rules::chess::Chess;
    use crate::search::history::NO_PIECE_TO;

    const PREVIOUS: [usize; 2] = [NO_PIECE_TO, NO_PIECE_TO];
    type ChessMove = <Chess as Game>::Move;

    fn all_picked(picker: &mut MovePicker<Chess>, pos: &Chess) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(mv) = picker.next(pos) {
            out.push(pos.move_text(mv));
        }
        out
    }

    fn mv(pos: &Chess, text: &str) -> ChessMove {
        pos.parse_move(text).unwrap()
    }

    fn legal(pos: &Chess) -> MoveList<ChessMove> {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        moves
    }

    #[test]
    fn stages_come_in_order_and_every_move_comes_once() {
        // White's queen can take a pawn that e7 guards (a losing capture) and the knight a free
        // one on b5; plenty of quiets besides.
        let pos = Chess::from_fen("4k3/4p3/3p4/1p6/8/2N5/8/3QK3 w - - 0 1").unwrap();
        let legal = legal(&pos);
        let mut history = History::default();
        // The history prefers d1d4 among the quiets.
        history.reward(&pos, mv(&pos, "d1d4"), PREVIOUS, 1_000);
        let killers = [mv(&pos, "c3a4"), mv(&pos, "d1h5")];
        let ordering = MoveOrdering {
            hash_move: mv(&pos, "e1f2"),
            refutations: [killers[0], killers[1], killers[0]],
            history: &history,
            previous: PREVIOUS,
        };
        let order = all_picked(&mut MovePicker::staged(&pos, &legal, &ordering), &pos);

        let mut sorted = order.clone();
        sorted.sort();
        let mut expected: Vec<String> = legal.iter().map(|&m| pos.move_text(m)).collect();
        expected.sort();
        assert_eq!(sorted, expected, "every legal move exactly once");

        assert_eq!(order[0], "e1f2", "the hash move first");
        assert_eq!(order[1], "c3b5", "then the capture that wins material");
        assert_eq!(order[2..4], ["c3a4", "d1h5"], "then the killers, once each");
        assert_eq!(order[4], "d1d4", "then the quiets, best history first");
        assert_eq!(order.last().unwrap(), "d1d6", "the losing capture last");
    }

    #[test]
    fn the_order_is_that_of_every_exchange_asked_up_front() {
        // A crowded middlegame with captures both ways.
        let pos =
            Chess::from_fen("r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8")
                .unwrap();
        let legal = legal(&pos);
        let history = History::default();
        let ordering = MoveOrdering {
            hash_move: ChessMove::default(),
            refutations: [ChessMove::default(); 3],
            history: &history,
            previous: PREVIOUS,
        };
        let lazy = all_picked(&mut MovePicker::staged(&pos, &legal, &ordering), &pos);
        let eager: ScoredMoves<ChessMove> = legal
            .iter()
            .map(|&m| {
                let score = if !pos.is_tactical(m) {
                    history.quiet_score(&pos, m, PREVIOUS)
                } else if pos.see_ge(m, 0) {
                    GOOD_CAPTURE + pos.tactical_order(m)
                } else {
                    BAD_CAPTURE + pos.tactical_order(m)
                };
                (m, score)
            })
            .collect();
        let eager = all_picked(&mut MovePicker::ordered(eager), &pos);
        assert_eq!(lazy, eager);
        assert!(lazy.len() > 30);
    }

    #[test]
    fn refutations_that_are_not_legal_quiets_are_skipped() {
        let pos = Chess::startpos();
        let legal = legal(&pos);
        // A move from another position (illegal here) and an empty slot.
        let foreign = Chess::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let stranger = mv(&foreign, "a1a8");
        let history = History::default();
        let ordering = MoveOrdering {
            hash_move: ChessMove::default(),
            refutations: [stranger, ChessMove::default(), stranger],
            history: &history,
            previous: PREVIOUS,
        };
        let order = all_picked(&mut MovePicker::staged(&pos, &legal, &ordering), &pos);
        assert_eq!(order.len(), 20);
        assert!(!order.contains(&"a1a8".to_string()));
    }

    #[test]
    fn the_best_left_is_the_first_of_equals() {
        let scores = [3, 5, 1, 5, 7, 7, -2];
        let best = |from| super::super::best_index(&scores, from, |&score| score);
        assert_eq!(best(0), 4);
        assert_eq!(best(5), 5);
        assert_eq!(best(6), 6);
        assert_eq!(best(7), 7, "none left: the place asked");
        let ties = [5, 5, 5];
        assert_eq!(super::super::best_index(&ties, 1, |&score| score), 1);
    }

    #[test]
    fn an_ordered_picker_hands_out_the_best_score_first() {
        let pos = Chess::startpos();
        let legal = legal(&pos);
        let scored: ScoredMoves<_> = legal
            .iter()
            .enumerate()
            .map(|(i, &m)| (m, i as i32))
            .collect();
        let order = all_picked(&mut MovePicker::<Chess>::ordered(scored), &pos);
        let expected: Vec<String> = legal.iter().rev().map(|&m| pos.move_text(m)).collect();
        assert_eq!(order, expected);
    }
}
