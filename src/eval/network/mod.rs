//! A small neural evaluation in the NNUE style: one hidden layer over a game's sparse inputs
//! (piece, square and the game's extras), seen from both sides, with the hidden layer kept up to
//! date move by move.
//!
//! The layout is `inputs → hidden` (one accumulator per perspective, the same weights for both),
//! activated (clipped to `[0, 1]`, or clipped and squared), then `2·hidden → 1`: the side to
//! move's half first. The output layer may come in buckets by the count of pieces on the board
//! (one set of output weights and bias for each four pieces), so that the opening, middlegame
//! and endgame each weigh the hidden units their own way. Weights are trained in floating point by `roger train` (docs/network.md)
//! and stored quantised, the first layer scaled by [`QA`] and the output layer by [`QB`], so that
//! the accumulators are `i16` and the output an integer dot product the compiler vectorises.

pub mod chess;
pub mod embedded;
pub mod inputs;
pub mod path;
pub mod squares;

pub use inputs::NetworkInputs;

/// The first layer's quantisation: `1.0` is stored as `QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation: `1.0` is stored as `QB`.
pub const QB: i32 = 64;
/// The network's output times this is centipawns.
pub const EVAL_SCALE: i32 = 400;
/// What a network file starts with.
pub const MAGIC: &[u8; 4] = b"RGNN";
/// The file layout's version, after the magic: 3 when the output layer has buckets (a network
/// with one is written as version 2); versions 1 (128 units, clipped) and 2 are still read.
pub const VERSION: u32 = 3;
/// The version of a file whose output layer has one bucket.
const VERSION_ONE_BUCKET: u32 = 2;
/// Output buckets a network may have.
pub const BUCKET_RANGE: std::ops::RangeInclusive<usize> = 1..=8;
/// Pieces a bucket spans, from two (the kings) up.
const PIECES_PER_BUCKET: usize = 4;

/// The output bucket of a position with `pieces` on the board (the active inputs of one
/// perspective in chess), out of `buckets`.
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) / PIECES_PER_BUCKET).min(buckets - 1)
}
/// The largest weight, in float: keeps 32 active inputs inside an `i16` sum and an output
/// weight inside seven bits.
pub const WEIGHT_LIMIT: f32 = 1.98;
/// Hidden widths a network may have: a multiple of 16 in this range.
pub const HIDDEN_RANGE: std::ops::RangeInclusive<usize> = 16..=1024;

/// One perspective's hidden layer before activation, `hidden` values.
pub type Accumulator = Vec<i16>;

/// What the hidden layer does to its sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Activation {
    /// Clipped ReLU: `clamp(x, 0, 1)`.
    Crelu,
    /// Squared clipped ReLU: `clamp(x, 0, 1)²`.
    Screlu,
}

impl std::fmt::Display for Activation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Activation::Crelu => "CReLU",
            Activation::Screlu => "SCReLU",
        })
    }
}

/// The quantised weights of a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    inputs: usize,
    hidden: usize,
    activation: Activation,
    /// The network corrects the hand-set evaluation: its output is added to it.
    residual: bool,
    /// `inputs` rows of `hidden`: row `i` is the hidden layer's weights from input `i`.
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// Output buckets (1: one output layer for every position).
    buckets: usize,
    /// For each bucket, the side to move's `hidden`, then the other side's.
    output_weights: Vec<i16>,
    /// One a bucket.
    output_bias: Vec<i32>,
}

/// Why a network file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    BadMagic,
    BadVersion(u32),
    WrongShape { inputs: usize, hidden: usize },
    BadBuckets(u32),
    Truncated,
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NetworkError::BadMagic => write!(f, "not a network file (no RGNN magic)"),
            NetworkError::BadVersion(v) => {
                write!(f, "network file version {v}, expected 1 to {VERSION}")
            }
            NetworkError::BadBuckets(b) => {
                write!(f, "network has {b} output buckets, not 1 to 8")
            }
            NetworkError::WrongShape { inputs, hidden } => write!(
                f,
                "network is {inputs}x{hidden}: not this game's inputs, or a width outside \
                 16..=1024 in steps of 16"
            ),
            NetworkError::Truncated => write!(f, "network file is truncated"),
        }
    }
}

/// Reads little-endian numbers off a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], NetworkError> {
        if self.0.len() < N {
            return Err(NetworkError::Truncated);
        }
        let (head, tail) = self.0.split_at(N);
        self.0 = tail;
        Ok(head.try_into().expect("split at N"))
    }
    fn u32(&mut self) -> Result<u32, NetworkError> {
        self.take::<4>().map(u32::from_le_bytes)
    }
    fn i32(&mut self) -> Result<i32, NetworkError> {
        self.take::<4>().map(i32::from_le_bytes)
    }
    fn i16s(&mut self, count: usize) -> Result<Vec<i16>, NetworkError> {
        if self.0.len() < 2 * count {
            return Err(NetworkError::Truncated);
        }
        let (head, tail) = self.0.split_at(2 * count);
        self.0 = tail;
        Ok(head
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }
}

impl Network {
    /// Reads a network file: magic, version, inputs, hidden width and flags (`u32`; bit 0: the
    /// network corrects the hand-set evaluation; bit 1: the activation is squared), in version 3
    /// the output buckets (`u32`), then the first layer's weights input by input, its biases,
    /// the output weights (bucket by bucket, side to move's half first), all `i16`, and the
    /// output biases (`i32`, one a bucket), little-endian. Version 1 files have no bit 1;
    /// versions 1 and 2 have one bucket.
    pub fn from_bytes(bytes: &[u8], expected_inputs: usize) -> Result<Network, NetworkError> {
        let mut reader = Reader(bytes);
        if &reader.take::<4>()? != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let version = reader.u32()?;
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::BadVersion(version));
        }
        let inputs = reader.u32()? as usize;
        let hidden = reader.u32()? as usize;
        let flags = reader.u32()?;
        let buckets = if version >= 3 { reader.u32()? } else { 1 };
        if !BUCKET_RANGE.contains(&(buckets as usize)) {
            return Err(NetworkError::BadBuckets(buckets));
        }
        let buckets = buckets as usize;
        if inputs != expected_inputs
            || !HIDDEN_RANGE.contains(&hidden)
            || !hidden.is_multiple_of(16)
        {
            return Err(NetworkError::WrongShape { inputs, hidden });
        }
        let activation = if version > 1 && flags & 2 != 0 {
            Activation::Screlu
        } else {
            Activation::Crelu
        };
        Ok(Network {
            inputs,
            hidden,
            activation,
            residual: flags & 1 == 1,
            feature_weights: reader.i16s(inputs * hidden)?,
            feature_bias: reader.i16s(hidden)?,
            buckets,
            output_weights: reader.i16s(buckets * 2 * hidden)?,
            output_bias: (0..buckets)
                .map(|_| reader.i32())
                .collect::<Result<_, _>>()?,
        })
    }

    /// Writes the file [`Network::from_bytes`] reads (the current version).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let flags =
            u32::from(self.residual) | u32::from(self.activation == Activation::Screlu) << 1;
        let version = if self.buckets == 1 {
            VERSION_ONE_BUCKET
        } else {
            VERSION
        };
        for word in [version, self.inputs as u32, self.hidden as u32, flags] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        if self.buckets > 1 {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        let values = self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights);
        for value in values {
            out.extend_from_slice(&value.to_le_bytes());
        }
        for bias in &self.output_bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        out
    }

    /// Builds the quantised network from float weights (`feature_weights[input][unit]`; the
    /// width is the biases' length; the output biases' length is the count of buckets).
    pub fn quantise(
        residual: bool,
        activation: Activation,
        feature_weights: &[f32],
        feature_bias: &[f32],
        output_weights: &[f32],
        output_bias: &[f32],
    ) -> Network {
        let hidden = feature_bias.len();
        let q = |values: &[f32], scale: i32| -> Vec<i16> {
            values
                .iter()
                .map(|&value| {
                    (value * scale as f32)
                        .round()
                        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
                })
                .collect()
        };
        Network {
            inputs: feature_weights.len() / hidden,
            hidden,
            activation,
            residual,
            feature_weights: q(feature_weights, QA),
            feature_bias: q(feature_bias, QA),
            buckets: output_bias.len(),
            output_weights: q(output_weights, QB),
            output_bias: output_bias
                .iter()
                .map(|bias| (bias * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }

    /// The float weights this network was quantised from, as near as its integers tell:
    /// [`Network::quantise`] undone (`feature_weights[input][unit]`, the biases, the output
    /// weights, the output biases), so that training can go on from a shipped network.
    pub fn dequantise(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
        let f = |values: &[i16], scale: i32| -> Vec<f32> {
            values
                .iter()
                .map(|&v| f32::from(v) / scale as f32)
                .collect()
        };
        (
            f(&self.feature_weights, QA),
            f(&self.feature_bias, QA),
            f(&self.output_weights, QB),
            self.output_bias
                .iter()
                .map(|&bias| bias as f32 / (QA * QB) as f32)
                .collect(),
        )
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// The output layer's buckets (1: none).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// True when the output corrects the hand-set evaluation rather than replacing it.
    pub fn is_residual(&self) -> bool {
        self.residual
    }

    /// A zeroed accumulator of this network's width.
    pub fn accumulator(&self) -> Accumulator {
        vec![0; self.hidden]
    }

    /// The accumulator of a set of active inputs.
    #[inline]
    pub fn refresh(&self, accumulator: &mut Accumulator, active: impl Iterator<Item = usize>) {
        accumulator.clear();
        accumulator.extend_from_slice(&self.feature_bias);
        for input in active {
            self.add(accumulator, input);
        }
    }

    #[inline(always)]
    fn row(&self, input: usize) -> &[i16] {
        &self.feature_weights[input * self.hidden..(input + 1) * self.hidden]
    }

    #[inline(always)]
    pub fn add(&self, accumulator: &mut [i16], input: usize) {
        for (cell, &weight) in accumulator.iter_mut().zip(self.row(input)) {
            *cell = cell.wrapping_add(weight);
        }
    }

    #[inline(always)]
    pub fn remove(&self, accumulator: &mut [i16], input: usize) {
        for (cell, &weight) in accumulator.iter_mut().zip(self.row(input)) {
            *cell = cell.wrapping_sub(weight);
        }
    }

    /// Adds the inputs of `added` and removes those of `removed`, in one pass over the
    /// accumulator for the changes a move makes (a move: one of each; a capture: one added, two
    /// removed; castling: two of each).
    #[inline]
    pub fn update(&self, accumulator: &mut [i16], added: &[usize], removed: &[usize]) {
        let cells = accumulator.iter_mut().map(|cell| (*cell, cell));
        if !self.fused_changes(cells, added, removed) {
            self.add_and_remove(accumulator, added, removed);
        }
    }

    /// [`Network::update`] from `source` into `target`: the child's sums written once from the
    /// parent's, with no copy made first.
    #[inline]
    pub fn update_from(
        &self,
        source: &[i16],
        target: &mut Accumulator,
        added: &[usize],
        removed: &[usize],
    ) {
        target.resize(source.len(), 0);
        let cells = source.iter().copied().zip(target.iter_mut());
        if !self.fused_changes(cells, added, removed) {
            target.copy_from_slice(source);
            self.add_and_remove(target, added, removed);
        }
    }

    /// Writes each cell as its value with the rows of `added` added and those of `removed`
    /// taken away, in one pass, for the changes a usual move makes; false (nothing written) for
    /// any other.
    #[inline(always)]
    fn fused_changes<'a>(
        &self,
        cells: impl Iterator<Item = (i16, &'a mut i16)>,
        added: &[usize],
        removed: &[usize],
    ) -> bool {
        match (added, removed) {
            ([a], [r]) => {
                let (a, r) = (self.row(*a), self.row(*r));
                for (((value, cell), &plus), &minus) in cells.zip(a).zip(r) {
                    *cell = value.wrapping_add(plus).wrapping_sub(minus);
                }
            }
            ([a], [r1, r2]) => {
                let (a, r1, r2) = (self.row(*a), self.row(*r1), self.row(*r2));
                for ((((value, cell), &plus), &minus1), &minus2) in cells.zip(a).zip(r1).zip(r2) {
                    *cell = value
                        .wrapping_add(plus)
                        .wrapping_sub(minus1)
                        .wrapping_sub(minus2);
                }
            }
            ([a1, a2], [r1, r2]) => {
                let (a1, a2) = (self.row(*a1), self.row(*a2));
                let (r1, r2) = (self.row(*r1), self.row(*r2));
                for (((((value, cell), &plus1), &plus2), &minus1), &minus2) in
                    cells.zip(a1).zip(a2).zip(r1).zip(r2)
                {
                    *cell = value
                        .wrapping_add(plus1)
                        .wrapping_add(plus2)
                        .wrapping_sub(minus1)
                        .wrapping_sub(minus2);
                }
            }
            _ => return false,
        }
        true
    }

    /// The changes one input at a time, in place.
    fn add_and_remove(&self, accumulator: &mut [i16], added: &[usize], removed: &[usize]) {
        for &input in added {
            self.add(accumulator, input);
        }
        for &input in removed {
            self.remove(accumulator, input);
        }
    }

    /// [`Network::output`] for `side` to move, from the accumulators of White's perspective and
    /// Black's, with the first output bucket (a network of one bucket).
    #[inline]
    pub fn output_for(&self, side: crate::rules::Color, accumulators: &[Accumulator; 2]) -> i32 {
        self.output_for_pieces(side, accumulators, 0)
    }

    /// [`Network::output`] for `side` to move with the bucket of `pieces` on the board.
    #[inline]
    pub fn output_for_pieces(
        &self,
        side: crate::rules::Color,
        [white, black]: &[Accumulator; 2],
        pieces: usize,
    ) -> i32 {
        let bucket = output_bucket(pieces, self.buckets);
        match side {
            crate::rules::Color::White => self.output(white, black, bucket),
            crate::rules::Color::Black => self.output(black, white, bucket),
        }
    }

    /// The evaluation in centipawns, side to move's view, from the two accumulators and the
    /// output layer of `bucket`.
    #[inline]
    pub fn output(&self, side_to_move: &[i16], other: &[i16], bucket: usize) -> i32 {
        let layer = &self.output_weights[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden];
        let (us, them) = layer.split_at(self.hidden);
        let sum = match self.activation {
            Activation::Crelu => {
                let half = |accumulator: &[i16], weights: &[i16]| -> i32 {
                    accumulator
                        .iter()
                        .zip(weights)
                        .map(|(&value, &weight)| {
                            i32::from(value.clamp(0, QA as i16)) * i32::from(weight)
                        })
                        .sum()
                };
                (half(side_to_move, us) + half(other, them)) as i64
            }
            Activation::Screlu => {
                // v² · w stays below 2^23 (|w| <= 127), so a term fits an i32; the sum of up
                // to 2,048 of them may not, so sixteen terms at a time go into an i64.
                let half = |accumulator: &[i16], weights: &[i16]| -> i64 {
                    accumulator
                        .chunks(16)
                        .zip(weights.chunks(16))
                        .map(|(values, weights)| {
                            values
                                .iter()
                                .zip(weights)
                                .map(|(&value, &weight)| {
                                    let v = i32::from(value.clamp(0, QA as i16));
                                    v * v * i32::from(weight)
                                })
                                .sum::<i32>() as i64
                        })
                        .sum()
                };
                (half(side_to_move, us) + half(other, them)) / QA as i64
            }
        };
        ((sum + self.output_bias[bucket] as i64) * EVAL_SCALE as i64 / (QA * QB) as i64) as i32
    }
}

/// Reads a network file of any turn game (its inputs say which) for `EvalFile`, and keeps it
/// for the rest of the process; the game's name with it.
pub fn load_file(path: &std::path::Path) -> Result<(&'static str, &'static Network), String> {
    use crate::rules::chess::Chess;
    use crate::rules::millennium::Millennium;
    use crate::rules::nichess::Nichess;
    use crate::rules::Game;
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let games = [
        (Chess::VARIANT, Chess::INPUTS),
        (Millennium::VARIANT, Millennium::INPUTS),
        (Nichess::VARIANT, Nichess::INPUTS),
    ];
    let mut last_error = NetworkError::Truncated;
    for (game, inputs) in games {
        match Network::from_bytes(&bytes, inputs) {
            Ok(network) if network.buckets() > 1 && game != Chess::VARIANT => {
                return Err(format!(
                    "{}: a {game} network has one output bucket, not {}",
                    path.display(),
                    network.buckets()
                ))
            }
            Ok(network) => return Ok((game, Box::leak(Box::new(network)))),
            Err(NetworkError::WrongShape { inputs: found, .. }) if found != inputs => {
                last_error = NetworkError::WrongShape {
                    inputs: found,
                    hidden: 0,
                };
            }
            Err(error) => return Err(format!("{}: {error}", path.display())),
        }
    }
    Err(match last_error {
        NetworkError::WrongShape { inputs, .. } => format!(
            "{}: a network of {inputs} inputs is no game's (chess 768, millennium 1466, nichess \
             4608)",
            path.display()
        ),
        error => format!("{}: {error}", path.display()),
    })
}

/// Where the sums of `ply` of a search path start from, for the wanted position.
pub(super) enum PathStart<'a, E> {
    /// The ply above's entry (`parent`), nearer than the entry kept at this ply and at most the
    /// limit away (`distance`): `entry` is to be brought from it.
    Above {
        parent: &'a E,
        entry: &'a mut E,
        distance: usize,
    },
    /// The entry kept at this ply, at most the limit away (`distance`): to be updated in place.
    Own { entry: &'a mut E, distance: usize },
    /// Neither is near enough (the nearer is `distance` away): `entry` is to be summed afresh.
    Fresh { entry: &'a mut E, distance: usize },
}

/// Chooses where `ply`'s sums start: the ply above's entry when it is nearer (in `distance`,
/// the changes to the wanted position) than the one last kept at this ply and at most `limit`
/// away, else this ply's own when at most `limit` away, else a fresh sum.
pub(super) fn path_start<E: Default>(
    entries: &mut Vec<E>,
    ply: usize,
    limit: usize,
    distance: impl Fn(&E) -> usize,
) -> PathStart<'_, E> {
    if entries.len() <= ply {
        entries.resize_with(ply + 1, E::default);
    }
    let (above, rest) = entries.split_at_mut(ply);
    let entry = &mut rest[0];
    let own = distance(entry);
    let parent = above.last();
    let from_above = parent.map_or(usize::MAX, &distance);
    match parent {
        Some(parent) if from_above < own && from_above <= limit => PathStart::Above {
            parent,
            entry,
            distance: from_above,
        },
        _ if own <= limit => PathStart::Own {
            entry,
            distance: own,
        },
        _ => PathStart::Fresh {
            entry,
            distance: own.min(from_above),
        },
    }
}

/// The entry to score `ply` of a search path in, as [`path_start`] chooses, with the ply
/// above's entry copied down where that is the start. Returns the entry and how far it still
/// is from the wanted position; beyond `limit`, a fresh sum is cheaper.
pub(super) fn path_entry<E: Clone + Default>(
    entries: &mut Vec<E>,
    ply: usize,
    limit: usize,
    distance: impl Fn(&E) -> usize,
) -> (&mut E, usize) {
    match path_start(entries, ply, limit, distance) {
        PathStart::Above {
            parent,
            entry,
            distance,
        } => {
            entry.clone_from(parent);
            (entry, distance)
        }
        PathStart::Own { entry, distance } | PathStart::Fresh { entry, distance } => {
            (entry, distance)
        }
    }
}

/// A score with `network`: the hand-set evaluation plus the network's correction, or the
/// network alone for a network not trained as a correction; without a network (`Use NNUE
/// false`, or a game with none), the hand-set evaluation alone.
#[inline(always)]
pub fn with_network(
    network: Option<&'static Network>,
    hand_set: impl FnOnce() -> i32,
    network_output: impl FnOnce(&'static Network) -> i32,
) -> i32 {
    let Some(network) = network else {
        return hand_set();
    };
    let base = if network.is_residual() { hand_set() } else { 0 };
    // Far inside the search's mate scores, whatever a network outputs.
    (base + network_output(network)).clamp(-20_000, 20_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network of fixed pseudo-random weights.
    pub(crate) fn small(inputs: usize, hidden: usize, activation: Activation) -> Network {
        let weights: Vec<f32> = (0..inputs * hidden)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 100.0)
            .collect();
        let bias: Vec<f32> = (0..hidden).map(|i| (i % 7) as f32 / 10.0).collect();
        let output: Vec<f32> = (0..2 * hidden)
            .map(|i| ((i * 13 % 29) as f32 - 14.0) / 20.0)
            .collect();
        Network::quantise(false, activation, &weights, &bias, &output, &[0.1])
    }

    #[test]
    fn a_network_file_reads_back_as_written() {
        for activation in [Activation::Crelu, Activation::Screlu] {
            let network = small(10, 32, activation);
            let bytes = network.to_bytes();
            let again = Network::from_bytes(&bytes, 10).unwrap();
            assert_eq!(again, network);
            assert_eq!(again.to_bytes(), bytes);
            assert_eq!(
                Network::from_bytes(&bytes, 11).err(),
                Some(NetworkError::WrongShape {
                    inputs: 10,
                    hidden: 32
                })
            );
            assert_eq!(
                Network::from_bytes(&bytes[..bytes.len() - 1], 10).err(),
                Some(NetworkError::Truncated)
            );
        }
        assert_eq!(
            Network::from_bytes(b"XXXX", 10).err(),
            Some(NetworkError::BadMagic)
        );
        // A width outside the range is refused.
        let mut bytes = small(10, 32, Activation::Crelu).to_bytes();
        bytes[12..16].copy_from_slice(&24u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes, 10),
            Err(NetworkError::WrongShape { hidden: 24, .. })
        ));
    }

    #[test]
    fn a_network_with_output_buckets_reads_back_and_scores_by_its_pieces() {
        let one = small(10, 32, Activation::Crelu);
        let (feature, bias, output, output_bias) = one.dequantise();
        // Three buckets: the first the one-bucket network's layer, the others their own.
        let mut layers = output.clone();
        layers.extend(output.iter().map(|w| -w));
        layers.extend(output.iter().map(|w| w / 2.0));
        let biases = [output_bias[0], 0.3, -0.2];
        let three = Network::quantise(false, Activation::Crelu, &feature, &bias, &layers, &biases);
        assert_eq!(three.buckets(), 3);
        let bytes = three.to_bytes();
        assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), VERSION);
        assert_eq!(Network::from_bytes(&bytes, 10), Ok(three.clone()));
        // A network of one bucket is still written as version 2.
        assert_eq!(
            u32::from_le_bytes(one.to_bytes()[4..8].try_into().unwrap()),
            2
        );
        let mut acc = three.accumulator();
        three.refresh(&mut acc, [1, 4, 7].into_iter());
        let accumulators = [acc.clone(), acc.clone()];
        let side = crate::rules::Color::White;
        // Two to five pieces score with the first bucket, six to nine the second, and so on;
        // the last bucket takes every count above.
        for (pieces, bucket) in [(2, 0), (5, 0), (6, 1), (9, 1), (10, 2), (32, 2)] {
            assert_eq!(output_bucket(pieces, 3), bucket, "{pieces} pieces");
            assert_eq!(
                three.output_for_pieces(side, &accumulators, pieces),
                three.output(&acc, &acc, bucket)
            );
        }
        assert_eq!(
            three.output(&acc, &acc, 0),
            one.output_for(side, &accumulators)
        );
        assert_ne!(three.output(&acc, &acc, 1), three.output(&acc, &acc, 0));
        // A count of buckets outside 1..=8 is refused.
        let mut bad = bytes.clone();
        bad[20..24].copy_from_slice(&9u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bad, 10),
            Err(NetworkError::BadBuckets(9))
        );
    }

    #[test]
    fn a_version_one_file_reads_as_a_clipped_network() {
        let network = small(10, 128, Activation::Crelu);
        let mut bytes = network.to_bytes();
        bytes[4..8].copy_from_slice(&1u32.to_le_bytes());
        bytes[16..20].copy_from_slice(&3u32.to_le_bytes()); // bit 1 meant nothing in version 1
        let read = Network::from_bytes(&bytes, 10).unwrap();
        assert_eq!(read.activation(), Activation::Crelu);
        assert!(read.is_residual());
    }

    #[test]
    fn adding_and_removing_inputs_matches_a_refresh() {
        for activation in [Activation::Crelu, Activation::Screlu] {
            let network = small(10, 64, activation);
            let mut step = network.accumulator();
            network.refresh(&mut step, [1, 4, 7].into_iter());
            network.remove(&mut step, 4);
            network.add(&mut step, 9);
            network.update(&mut step, &[2], &[1]);
            network.update(&mut step, &[1, 3], &[2]);
            network.update(&mut step, &[5], &[1, 3]);
            network.update(&mut step, &[1, 3], &[5, 8]);
            network.add(&mut step, 8);
            let mut fresh = network.accumulator();
            network.refresh(&mut fresh, [1, 3, 7, 9].into_iter());
            assert_eq!(step, fresh);
            assert_eq!(
                network.output(&step, &fresh, 0),
                network.output(&fresh, &step, 0)
            );
        }
    }

    #[test]
    fn the_integer_output_follows_the_float_network() {
        // One input, one active unit at 0.5: clipped gives 0.5·w, squared 0.25·w.
        for (activation, factor) in [(Activation::Crelu, 0.5), (Activation::Screlu, 0.25)] {
            let mut bias = vec![0.0; 16];
            bias[0] = 0.5;
            let mut output = vec![0.0; 32];
            output[0] = 1.0;
            let network = Network::quantise(false, activation, &[0.0; 16], &bias, &output, &[0.25]);
            let mut acc = network.accumulator();
            network.refresh(&mut acc, std::iter::empty());
            let expected = (factor + 0.25) * EVAL_SCALE as f32;
            let got = network.output(&acc, &acc, 0) as f32;
            assert!(
                (got - expected).abs() <= 2.0,
                "{activation:?}: {got} vs {expected}"
            );
        }
    }
}
