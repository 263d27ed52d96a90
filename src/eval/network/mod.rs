//! A small neural evaluation in the NNUE style: one hidden layer over piece-square inputs, seen
//! from both sides, with the hidden layer kept up to date move by move.
//!
//! The layout is `INPUTS → HIDDEN` (one accumulator per perspective, the same weights for both),
//! clipped to `[0, 1]`, then `2·HIDDEN → 1`: the side to move's half first. Weights are trained
//! in floating point by `roger train` (docs/network.md) and stored quantised, the first layer
//! scaled by [`QA`] and the output layer by [`QB`], so that the accumulators are `i16` and the
//! output an `i32` dot product the compiler vectorises.

pub mod chess;

/// Width of the hidden layer (of each perspective's accumulator).
pub const HIDDEN: usize = 128;
/// The first layer's quantisation: `1.0` is stored as `QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation: `1.0` is stored as `QB`.
pub const QB: i32 = 64;
/// The network's output times this is centipawns.
pub const EVAL_SCALE: i32 = 400;
/// What a network file starts with.
pub const MAGIC: &[u8; 4] = b"RGNN";
/// The file layout's version, after the magic.
pub const VERSION: u32 = 1;
/// The largest first-layer weight, in float: keeps 32 active inputs inside an `i16` sum.
pub const WEIGHT_LIMIT: f32 = 1.98;

/// One perspective's hidden layer before clipping.
pub type Accumulator = [i16; HIDDEN];

/// The quantised weights of a network with `inputs` inputs.
pub struct Network {
    inputs: usize,
    /// The network corrects the hand-set evaluation: its output is added to it.
    residual: bool,
    /// Row `i` is the hidden layer's weights from input `i`.
    feature_weights: Vec<Accumulator>,
    feature_bias: Accumulator,
    /// `[side to move, other side]`.
    output_weights: [Accumulator; 2],
    output_bias: i32,
}

/// Why a network file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    BadMagic,
    BadVersion(u32),
    WrongShape { inputs: usize, hidden: usize },
    Truncated,
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NetworkError::BadMagic => write!(f, "not a network file (no RGNN magic)"),
            NetworkError::BadVersion(v) => {
                write!(f, "network file version {v}, expected {VERSION}")
            }
            NetworkError::WrongShape { inputs, hidden } => write!(
                f,
                "network is {inputs}x{hidden}, this build reads {hidden_here} hidden units",
                hidden_here = HIDDEN
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
    fn row(&mut self) -> Result<Accumulator, NetworkError> {
        let mut row = [0i16; HIDDEN];
        for value in row.iter_mut() {
            *value = i16::from_le_bytes(self.take::<2>()?);
        }
        Ok(row)
    }
}

impl Network {
    /// Reads a network file: magic, version, inputs, hidden width and flags (`u32`; bit 0: the
    /// network corrects the hand-set evaluation), the first
    /// layer's weights input by input, its biases, the output weights (side to move's half
    /// first), all `i16`, and the output bias (`i32`), little-endian.
    pub fn from_bytes(bytes: &[u8], expected_inputs: usize) -> Result<Network, NetworkError> {
        let mut reader = Reader(bytes);
        if &reader.take::<4>()? != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let version = reader.u32()?;
        if version != VERSION {
            return Err(NetworkError::BadVersion(version));
        }
        let inputs = reader.u32()? as usize;
        let hidden = reader.u32()? as usize;
        let residual = reader.u32()? & 1 == 1;
        if inputs != expected_inputs || hidden != HIDDEN {
            return Err(NetworkError::WrongShape { inputs, hidden });
        }
        let feature_weights = (0..inputs)
            .map(|_| reader.row())
            .collect::<Result<Vec<_>, _>>()?;
        let feature_bias = reader.row()?;
        let output_weights = [reader.row()?, reader.row()?];
        let output_bias = reader.i32()?;
        Ok(Network {
            inputs,
            residual,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// Writes the file [`Network::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&u32::from(self.residual).to_le_bytes());
        let rows = self
            .feature_weights
            .iter()
            .chain(std::iter::once(&self.feature_bias))
            .chain(self.output_weights.iter());
        for row in rows {
            for value in row {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// Builds the quantised network from float weights (`feature_weights[input][unit]`).
    pub fn quantise(
        residual: bool,
        feature_weights: &[f32],
        feature_bias: &[f32],
        output_weights: &[f32],
        output_bias: f32,
    ) -> Network {
        let inputs = feature_weights.len() / HIDDEN;
        let q = |value: f32, scale: i32| -> i16 {
            (value * scale as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        let row = |values: &[f32], scale: i32| -> Accumulator {
            let mut row = [0i16; HIDDEN];
            for (cell, &value) in row.iter_mut().zip(values) {
                *cell = q(value, scale);
            }
            row
        };
        Network {
            inputs,
            residual,
            feature_weights: feature_weights
                .chunks(HIDDEN)
                .map(|chunk| row(chunk, QA))
                .collect(),
            feature_bias: row(feature_bias, QA),
            output_weights: [
                row(&output_weights[..HIDDEN], QB),
                row(&output_weights[HIDDEN..], QB),
            ],
            output_bias: (output_bias * (QA * QB) as f32).round() as i32,
        }
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// True when the output corrects the hand-set evaluation rather than replacing it.
    pub fn is_residual(&self) -> bool {
        self.residual
    }

    /// The accumulator of a set of active inputs.
    #[inline]
    pub fn refresh(&self, accumulator: &mut Accumulator, active: impl Iterator<Item = usize>) {
        *accumulator = self.feature_bias;
        for input in active {
            self.add(accumulator, input);
        }
    }

    #[inline(always)]
    pub fn add(&self, accumulator: &mut Accumulator, input: usize) {
        let row = &self.feature_weights[input];
        for (cell, &weight) in accumulator.iter_mut().zip(row.iter()) {
            *cell = cell.wrapping_add(weight);
        }
    }

    #[inline(always)]
    pub fn remove(&self, accumulator: &mut Accumulator, input: usize) {
        let row = &self.feature_weights[input];
        for (cell, &weight) in accumulator.iter_mut().zip(row.iter()) {
            *cell = cell.wrapping_sub(weight);
        }
    }

    /// The evaluation in centipawns, side to move's view, from the two accumulators.
    #[inline]
    pub fn output(&self, side_to_move: &Accumulator, other: &Accumulator) -> i32 {
        let half = |accumulator: &Accumulator, weights: &Accumulator| -> i32 {
            accumulator
                .iter()
                .zip(weights.iter())
                .map(|(&value, &weight)| i32::from(value.clamp(0, QA as i16)) * i32::from(weight))
                .sum()
        };
        let sum = half(side_to_move, &self.output_weights[0])
            + half(other, &self.output_weights[1])
            + self.output_bias;
        (sum as i64 * EVAL_SCALE as i64 / (QA * QB) as i64) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(inputs: usize) -> Network {
        let weights: Vec<f32> = (0..inputs * HIDDEN)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 100.0)
            .collect();
        let bias: Vec<f32> = (0..HIDDEN).map(|i| (i % 7) as f32 / 10.0).collect();
        let output: Vec<f32> = (0..2 * HIDDEN)
            .map(|i| ((i * 13 % 29) as f32 - 14.0) / 20.0)
            .collect();
        Network::quantise(false, &weights, &bias, &output, 0.1)
    }

    #[test]
    fn a_network_file_reads_back_as_written() {
        let network = small(10);
        let bytes = network.to_bytes();
        let again = Network::from_bytes(&bytes, 10).unwrap();
        assert_eq!(again.to_bytes(), bytes);
        assert_eq!(
            Network::from_bytes(&bytes, 11).err(),
            Some(NetworkError::WrongShape {
                inputs: 10,
                hidden: HIDDEN
            })
        );
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1], 10).err(),
            Some(NetworkError::Truncated)
        );
        assert_eq!(
            Network::from_bytes(b"XXXX", 10).err(),
            Some(NetworkError::BadMagic)
        );
    }

    #[test]
    fn adding_and_removing_inputs_matches_a_refresh() {
        let network = small(10);
        let mut step = [0i16; HIDDEN];
        network.refresh(&mut step, [1, 4, 7].into_iter());
        network.remove(&mut step, 4);
        network.add(&mut step, 9);
        let mut fresh = [0i16; HIDDEN];
        network.refresh(&mut fresh, [1, 7, 9].into_iter());
        assert_eq!(step, fresh);
        assert_eq!(network.output(&step, &fresh), network.output(&fresh, &step));
    }
}
