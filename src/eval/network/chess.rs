//! Chess's network: 768 inputs, one for each colour, kind and square of a piece, seen from each
//! side in turn (the side's own pieces first, the board turned over for Black), so that one set
//! of weights serves both perspectives.
//!
//! In a search the accumulators follow the path: the evaluation at a ply starts from the
//! accumulators of the ply above (or of the last position at this ply, whichever differs less),
//! and adds and removes only the pieces that differ, found by comparing the twelve piece sets.
//! That needs no hook in move making, and is right whatever position the base came from.

use super::{Accumulator, Network, PathStart};
use crate::board::Bitboard;
use crate::rules::chess::{Chess, PieceKind};
use crate::rules::Color;
use std::sync::OnceLock;

/// Inputs of the chess network.
pub const INPUTS: usize = 768;
/// More changed pieces than this and a fresh sum is cheaper than the updates.
const REFRESH_ABOVE: u32 = 12;

/// The committed network, trained by `roger train` on Roger's self-play.
static EMBEDDED: &[u8] = include_bytes!("chess.nnue");

/// The network this build carries.
pub fn network() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| {
        Network::from_bytes(EMBEDDED, INPUTS).expect("the embedded chess network is readable")
    })
}

/// The input of a piece seen from `perspective`'s side.
#[inline(always)]
pub fn input(perspective: Color, color: Color, kind: usize, square: usize) -> usize {
    let theirs = usize::from(color != perspective);
    let square = match perspective {
        Color::White => square,
        Color::Black => square ^ 56,
    };
    theirs * 384 + kind * 64 + square
}

/// A position's piece sets, `[colour][kind]`.
type PieceSets = [[u64; 6]; 2];

const COLORS: [Color; 2] = [Color::White, Color::Black];

fn piece_sets(pos: &Chess) -> PieceSets {
    let mut sets = [[0; 6]; 2];
    for (c, &color) in COLORS.iter().enumerate() {
        for kind in PieceKind::ALL {
            sets[c][kind.index()] = pos.pieces(color, kind);
        }
    }
    sets
}

/// The inputs active in a position, from `perspective`'s side.
pub fn active_inputs(pos: &Chess, perspective: Color) -> impl Iterator<Item = usize> {
    let sets = piece_sets(pos);
    (0..2).flat_map(move |c| {
        (0..6).flat_map(move |kind| {
            sets[c][kind]
                .squares()
                .map(move |sq| input(perspective, COLORS[c], kind, sq.index()))
        })
    })
}

/// The pieces on the board, for the output bucket.
#[inline(always)]
fn pieces(sets: &PieceSets) -> usize {
    sets.iter()
        .flatten()
        .map(|set| set.count_ones())
        .sum::<u32>() as usize
}

/// A pair of accumulators (White's perspective, Black's) and the piece sets they sum.
#[derive(Clone, Default)]
struct Entry {
    sets: PieceSets,
    accumulators: [Accumulator; 2],
    filled: bool,
}

impl Entry {
    fn refresh(&mut self, pos: &Chess, network: &Network) {
        self.sets = piece_sets(pos);
        for (p, &perspective) in COLORS.iter().enumerate() {
            network.refresh(&mut self.accumulators[p], active_inputs(pos, perspective));
        }
        self.filled = true;
    }

    /// Pieces that differ between the sets summed here and `sets`.
    fn distance(&self, sets: &PieceSets) -> u32 {
        if !self.filled {
            return u32::MAX;
        }
        self.sets
            .iter()
            .flatten()
            .zip(sets.iter().flatten())
            .map(|(held, wanted)| (held ^ wanted).count_ones())
            .sum()
    }

    /// Moves the sums from the sets held to `sets` (at most [`REFRESH_ABOVE`] pieces apart):
    /// each side's accumulator in one pass over the changed inputs.
    fn update(&mut self, sets: &PieceSets, network: &Network) {
        let (added, removed) = changes(&self.sets, sets);
        for p in 0..2 {
            network.update(&mut self.accumulators[p], &added[p], &removed[p]);
        }
        self.sets = *sets;
    }

    /// Takes the sums of `parent` moved to `sets` (at most [`REFRESH_ABOVE`] pieces apart from
    /// the parent's): each side's accumulator written once, from the parent's.
    fn update_from(&mut self, parent: &Entry, sets: &PieceSets, network: &Network) {
        let (added, removed) = changes(&parent.sets, sets);
        for p in 0..2 {
            network.update_from(
                &parent.accumulators[p],
                &mut self.accumulators[p],
                &added[p],
                &removed[p],
            );
        }
        self.sets = *sets;
        self.filled = true;
    }
}

type Changes = arrayvec::ArrayVec<usize, { REFRESH_ABOVE as usize }>;

/// The inputs to add and to remove, for each perspective, to go from the pieces `was` to `now`
/// (at most [`REFRESH_ABOVE`] apart).
#[inline(always)]
fn changes(was: &PieceSets, now: &PieceSets) -> ([Changes; 2], [Changes; 2]) {
    let mut added: [Changes; 2] = Default::default();
    let mut removed: [Changes; 2] = Default::default();
    for (c, &color) in COLORS.iter().enumerate() {
        for (kind, (&was, &now)) in was[c].iter().zip(now[c].iter()).enumerate() {
            for (changes, set) in [(&mut removed, was & !now), (&mut added, now & !was)] {
                for sq in set.squares() {
                    for (p, &perspective) in COLORS.iter().enumerate() {
                        changes[p].push(input(perspective, color, kind, sq.index()));
                    }
                }
            }
        }
    }
    (added, removed)
}

/// The accumulators of one search thread, one pair a ply, and the network that search scores
/// with (none: its engine's `Use NNUE` is off).
#[derive(Default)]
pub struct PathAccumulators {
    entries: Vec<Entry>,
    network: Option<&'static Network>,
}

impl PathAccumulators {
    pub fn new(network: Option<&'static Network>) -> PathAccumulators {
        PathAccumulators {
            entries: Vec::new(),
            network,
        }
    }

    pub fn network(&self) -> Option<&'static Network> {
        self.network
    }
}

/// The network's score of `pos`, side to move's view, summed afresh.
pub fn evaluate(network: &Network, pos: &Chess) -> i32 {
    let mut entry = Entry::default();
    entry.refresh(pos, network);
    network.output_for_pieces(pos.side(), &entry.accumulators, pieces(&entry.sets))
}

/// The score of `pos` at `ply` of a search by the path's network, from the accumulators of the
/// ply above.
pub fn evaluate_at(network: &Network, pos: &Chess, path: &mut PathAccumulators, ply: usize) -> i32 {
    let sets = piece_sets(pos);
    let start = super::path_start(&mut path.entries, ply, REFRESH_ABOVE as usize, |e| {
        e.distance(&sets) as usize
    });
    let entry = match start {
        PathStart::Above { parent, entry, .. } => {
            entry.update_from(parent, &sets, network);
            entry
        }
        PathStart::Own { entry, .. } => {
            entry.update(&sets, network);
            entry
        }
        PathStart::Fresh { entry, .. } => {
            entry.refresh(pos, network);
            entry
        }
    };
    network.output_for_pieces(pos.side(), &entry.accumulators, pieces(&sets))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, MoveList};

    #[test]
    fn the_embedded_network_reads_and_scores_the_start_near_level() {
        let start = Chess::from_fen(Chess::START_FEN).unwrap();
        let score = evaluate(network(), &start);
        assert!(score.abs() < 100, "start position scored {score}");
    }

    #[test]
    fn a_colour_flipped_position_scores_the_same() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        let mirrored = crate::eval::mirror_fen(fen);
        let a = evaluate(network(), &Chess::from_fen(fen).unwrap());
        let b = evaluate(network(), &Chess::from_fen(&mirrored).unwrap());
        assert_eq!(a, b);
    }

    #[test]
    fn path_updates_agree_with_the_generic_path_for_a_wide_squared_network() {
        let mut rng = crate::common::Rng::new(5);
        let mut uniform =
            |limit: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * limit;
        let hidden = 512;
        let feature: Vec<f32> = (0..INPUTS * hidden).map(|_| uniform(1.0)).collect();
        let bias: Vec<f32> = (0..hidden).map(|_| uniform(0.5)).collect();
        // Three output buckets, so that the bucket each path picks is checked too.
        let output: Vec<f32> = (0..3 * 2 * hidden).map(|_| uniform(1.0)).collect();
        let network = Network::quantise(
            false,
            super::super::Activation::Screlu,
            &feature,
            &bias,
            &output,
            &[0.0, 0.1, -0.1],
        );
        let mut path = PathAccumulators::default();
        let mut pos = Chess::from_fen(Chess::START_FEN).unwrap();
        for ply in 0..80 {
            let fresh = super::super::path::evaluate(&network, &pos);
            assert_eq!(evaluate(&network, &pos), fresh);
            assert_eq!(evaluate_at(&network, &pos, &mut path, ply), fresh);
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[ply * 7 % moves.len()]);
        }
    }

    #[test]
    fn path_updates_agree_with_fresh_sums_along_random_games() {
        let mut rng = crate::common::Rng::new(7);
        let mut path = PathAccumulators::default();
        let network = network();
        for _ in 0..20 {
            let mut pos = Chess::from_fen(Chess::START_FEN).unwrap();
            for ply in 0..60 {
                assert_eq!(
                    evaluate_at(network, &pos, &mut path, ply),
                    evaluate(network, &pos),
                    "{}",
                    pos.fen()
                );
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let pick = moves[(rng.next_u64() % moves.len() as u64) as usize];
                pos = pos.play(pick);
            }
        }
    }
}
