//! Accumulators that follow a search path, for any game's network: at each ply the position's
//! active inputs are compared with those summed at the ply above (or last at this ply, whichever
//! differs less), and only the difference is added and removed. Comparing input lists needs no
//! hook in move making and is right whatever position a stored sum came from. It works for any
//! game with inputs and is the reference the faster paths are tested against: chess's, which
//! compares bitboards (`super::chess`), and the slots of Millennium and Nichess
//! (`super::squares`), which [`GamePath`], the evaluation's path state for those games, keeps.

use super::squares::{SquareInputs, SquarePath};
use super::{Accumulator, Network, NetworkInputs};
use crate::rules::Color;

/// Beyond this many changed inputs a fresh sum is cheaper than the updates.
const REFRESH_ABOVE: usize = 16;

/// One ply's sums: each perspective's active inputs (sorted) and accumulator.
#[derive(Clone, Default)]
struct Entry {
    inputs: [Vec<u16>; 2],
    accumulators: [Accumulator; 2],
    filled: bool,
}

/// The accumulators of one search thread, a pair a ply.
#[derive(Default)]
pub struct NetworkPath {
    entries: Vec<Entry>,
    /// The position being scored: its inputs, and what changed against a stored entry.
    wanted: [Vec<u16>; 2],
    added: Vec<usize>,
    removed: Vec<usize>,
}

/// The sorted inputs of `position` from both sides.
fn sorted_inputs<G: NetworkInputs>(position: &G, lists: &mut [Vec<u16>; 2]) {
    for (list, perspective) in lists.iter_mut().zip([Color::White, Color::Black]) {
        list.clear();
        position.active_inputs(perspective, list);
        list.sort_unstable();
    }
}

/// How many inputs differ between two sorted lists, and (when `out` is given) which.
fn difference(
    held: &[u16],
    wanted: &[u16],
    mut out: Option<(&mut Vec<usize>, &mut Vec<usize>)>,
) -> usize {
    let (mut i, mut j, mut count) = (0, 0, 0);
    while i < held.len() || j < wanted.len() {
        let (h, w) = (held.get(i), wanted.get(j));
        match (h, w) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
                continue;
            }
            (Some(&a), Some(&b)) if a < b => {
                if let Some((_, removed)) = out.as_mut() {
                    removed.push(a as usize);
                }
                i += 1;
            }
            (Some(&a), None) => {
                if let Some((_, removed)) = out.as_mut() {
                    removed.push(a as usize);
                }
                i += 1;
            }
            (_, Some(&b)) => {
                if let Some((added, _)) = out.as_mut() {
                    added.push(b as usize);
                }
                j += 1;
            }
            (None, None) => unreachable!("the loop runs while one list has more"),
        }
        count += 1;
    }
    count
}

impl Entry {
    fn distance(&self, wanted: &[Vec<u16>; 2]) -> usize {
        if !self.filled {
            return usize::MAX;
        }
        // Both perspectives change alike; White's says how much.
        difference(&self.inputs[0], &wanted[0], None)
    }
}

/// A search path's network (none: `Use NNUE false`, or no network for the game) and its sums,
/// which follow the path by slots ([`super::squares`]; every game that keeps a `GamePath`
/// codes its inputs so).
#[derive(Default)]
pub struct GamePath {
    network: Option<&'static Network>,
    sums: SquarePath,
}

impl GamePath {
    pub fn new(network: Option<&'static Network>) -> GamePath {
        GamePath {
            network,
            sums: SquarePath::default(),
        }
    }

    pub fn network(&self) -> Option<&'static Network> {
        self.network
    }

    /// The score at `ply`: `hand_set`, with the path's network's correction (or in its place).
    #[inline]
    pub fn evaluate_at<G: SquareInputs>(
        &mut self,
        position: &G,
        ply: usize,
        hand_set: impl FnOnce() -> i32,
    ) -> i32 {
        let sums = &mut self.sums;
        super::with_network(self.network, hand_set, |network| {
            super::squares::evaluate_at(network, position, sums, ply)
        })
    }

    /// The same, summed afresh.
    pub fn evaluate_off_path<G: NetworkInputs>(
        &self,
        position: &G,
        hand_set: impl FnOnce() -> i32,
    ) -> i32 {
        super::with_network(self.network, hand_set, |network| {
            evaluate(network, position)
        })
    }
}

/// The network's score of `position` (side to move's view), summed afresh.
pub fn evaluate<G: NetworkInputs>(network: &Network, position: &G) -> i32 {
    // A sum needs no order (the accumulator's additions wrap): the inputs as they come.
    let mut lists = [Vec::new(), Vec::new()];
    for (list, perspective) in lists.iter_mut().zip([Color::White, Color::Black]) {
        position.active_inputs(perspective, list);
    }
    let mut accumulators = [network.accumulator(), network.accumulator()];
    for (accumulator, list) in accumulators.iter_mut().zip(&lists) {
        network.refresh(accumulator, list.iter().map(|&i| i as usize));
    }
    // In chess the active inputs of a perspective are the pieces on the board.
    network.output_for_pieces(position.side_to_move(), &accumulators, lists[0].len())
}

/// The network's score of `position` at `ply` of a search, from the sums of the ply above.
pub fn evaluate_at<G: NetworkInputs>(
    network: &Network,
    position: &G,
    path: &mut NetworkPath,
    ply: usize,
) -> i32 {
    sorted_inputs(position, &mut path.wanted);
    let wanted_lists = &path.wanted;
    let (entry, distance) = super::path_entry(&mut path.entries, ply, REFRESH_ABOVE, |e| {
        e.distance(wanted_lists)
    });
    for p in 0..2 {
        let wanted = &path.wanted[p];
        if distance <= REFRESH_ABOVE {
            path.added.clear();
            path.removed.clear();
            difference(
                &entry.inputs[p],
                wanted,
                Some((&mut path.added, &mut path.removed)),
            );
            network.update(&mut entry.accumulators[p], &path.added, &path.removed);
        } else {
            network.refresh(
                &mut entry.accumulators[p],
                wanted.iter().map(|&i| i as usize),
            );
        }
        entry.inputs[p].clone_from(wanted);
    }
    entry.filled = true;
    network.output_for_pieces(
        position.side_to_move(),
        &entry.accumulators,
        entry.inputs[0].len(),
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::common::Rng;
    use crate::eval::network::Activation;
    use crate::rules::chess::Chess;
    use crate::rules::millennium::Millennium;
    use crate::rules::nichess::Nichess;
    use crate::rules::MoveList;

    /// A network of seeded random weights for `G`.
    pub(crate) fn random_network<G: NetworkInputs>(activation: Activation, seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let hidden = 32;
        let mut uniform =
            |limit: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * limit;
        let feature: Vec<f32> = (0..G::INPUTS * hidden)
            .map(|_| uniform(G::weight_limit()))
            .collect();
        let bias: Vec<f32> = (0..hidden).map(|_| uniform(0.5)).collect();
        let output: Vec<f32> = (0..2 * hidden).map(|_| uniform(1.0)).collect();
        Network::quantise(false, activation, &feature, &bias, &output, &[0.05])
    }

    /// Along random games, scoring at each ply from the path (with jumps back up the path, as
    /// a search makes) equals a fresh sum.
    pub(crate) fn path_equals_fresh<G: NetworkInputs, P: Default>(
        games: u64,
        evaluate_at: fn(&Network, &G, &mut P, usize) -> i32,
    ) {
        for activation in [Activation::Crelu, Activation::Screlu] {
            let network = random_network::<G>(activation, 3);
            let mut path = P::default();
            let mut distinct = std::collections::HashSet::new();
            for seed in 0..games {
                let mut rng = Rng::new(seed);
                let mut position = G::startpos();
                for ply in 0..80 {
                    let fresh = evaluate(&network, &position);
                    distinct.insert(fresh);
                    assert_eq!(evaluate_at(&network, &position, &mut path, ply), fresh);
                    let mut moves = MoveList::new();
                    position.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    // A sibling scored at the next ply first, as a search tries moves in turn.
                    let sibling = position.play(moves[rng.index(moves.len())]);
                    assert_eq!(
                        evaluate_at(&network, &sibling, &mut path, ply + 1),
                        evaluate(&network, &sibling)
                    );
                    position = position.play(moves[rng.index(moves.len())]);
                }
            }
            assert!(
                distinct.len() > 50,
                "{activation:?}: the scores hardly vary"
            );
        }
    }

    #[test]
    fn chess_path_sums_equal_fresh_sums() {
        path_equals_fresh::<Chess, NetworkPath>(6, evaluate_at);
    }

    #[test]
    fn millennium_path_sums_equal_fresh_sums() {
        path_equals_fresh::<Millennium, NetworkPath>(4, evaluate_at);
    }

    #[test]
    fn nichess_path_sums_equal_fresh_sums() {
        path_equals_fresh::<Nichess, NetworkPath>(6, evaluate_at);
    }

    #[test]
    fn nichess_square_sums_equal_fresh_sums() {
        use crate::eval::network::squares::{self, SquarePath};
        path_equals_fresh::<Nichess, SquarePath>(6, squares::evaluate_at);
    }

    #[test]
    fn millennium_square_sums_equal_fresh_sums() {
        use crate::eval::network::squares::{self, SquarePath};
        path_equals_fresh::<Millennium, SquarePath>(4, squares::evaluate_at);
    }

    /// Millennium and Nichess score with a loaded network of their own (a correction added to
    /// the hand-set score), and ignore one of another game or with `Use NNUE false`.
    fn game_paths_use_a_loaded_network_that_fits<
        G: NetworkInputs + crate::eval::Evaluate<PathState = GamePath>,
    >() {
        use crate::eval::EvalOptions;
        let mut network = random_network::<G>(Activation::Screlu, 9);
        network.residual = true;
        let network: &'static Network = Box::leak(Box::new(network));
        let chess_network: &'static Network =
            Box::leak(Box::new(random_network::<Chess>(Activation::Crelu, 9)));
        let options = |loaded, use_network| EvalOptions {
            use_network,
            loaded_network: Some(loaded),
        };
        let mut with = G::path_state(options(network, true));
        let mut other = G::path_state(options(chess_network, true));
        let mut off = G::path_state(options(network, false));
        let mut rng = Rng::new(1);
        let mut position = G::startpos();
        let mut differs = 0;
        for ply in 0..60 {
            let hand_set = position.evaluate_off_path(&off);
            let corrected = (hand_set + evaluate(network, &position)).clamp(-20_000, 20_000);
            assert_eq!(position.evaluate_at(&mut with, ply), corrected);
            assert_eq!(position.evaluate_off_path(&with), corrected);
            // Another game's network is ignored: the game's own built-in one scores (if any).
            assert_eq!(position.evaluate_at(&mut other, ply), position.evaluate());
            assert_eq!(position.evaluate_at(&mut off, ply), hand_set);
            differs += (corrected != hand_set) as usize;
            let mut moves = MoveList::new();
            position.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            position = position.play(moves[rng.index(moves.len())]);
        }
        assert!(differs > 10);
    }

    #[test]
    fn millennium_uses_a_loaded_network_of_its_own() {
        game_paths_use_a_loaded_network_that_fits::<Millennium>();
    }

    #[test]
    fn nichess_uses_a_loaded_network_of_its_own() {
        game_paths_use_a_loaded_network_that_fits::<Nichess>();
    }

    #[test]
    fn differences_of_sorted_lists() {
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        let count = difference(
            &[1, 3, 5, 9],
            &[2, 3, 9, 11, 12],
            Some((&mut added, &mut removed)),
        );
        assert_eq!((count, added, removed), (5, vec![2, 11, 12], vec![1, 5]));
        assert_eq!(difference(&[], &[], None), 0);
    }
}
