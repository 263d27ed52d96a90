//! The network being trained, in floating point: its weights, one example's forward pass and
//! gradient, and the loss on a set of examples.

use crate::common::Rng;
use crate::eval::network::{output_bucket, Activation, Network, EVAL_SCALE};
use rayon::prelude::*;

/// A position as the trainer sees it: the active inputs from both sides, the side to move,
/// the target from the side to move's view, and the hand-set score it corrects.
#[derive(Clone, Debug)]
pub struct Example {
    /// Where its inputs start in [`Examples::inputs`]: White's view, then Black's.
    pub first: u32,
    pub count: u8,
    pub white_to_move: bool,
    pub target: f32,
    /// The hand-set evaluation (side to move's view, in network units) the network corrects
    /// when trained as a correction; else 0.
    pub base: f32,
}

/// Examples and the inputs they point into.
#[derive(Default)]
pub struct Examples {
    pub inputs: Vec<u16>,
    pub examples: Vec<Example>,
}

impl Examples {
    /// Adds an example with these inputs (`white` and `black` of the same length).
    pub fn push(
        &mut self,
        white: &[u16],
        black: &[u16],
        white_to_move: bool,
        target: f32,
        base: f32,
    ) {
        debug_assert_eq!(white.len(), black.len());
        self.examples.push(Example {
            first: self.inputs.len() as u32,
            count: white.len() as u8,
            white_to_move,
            target,
            base,
        });
        self.inputs.extend_from_slice(white);
        self.inputs.extend_from_slice(black);
    }

    fn views(&self, example: &Example) -> (&[u16], &[u16]) {
        let first = example.first as usize;
        let count = example.count as usize;
        (
            &self.inputs[first..first + count],
            &self.inputs[first + count..first + 2 * count],
        )
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float network: `[input][unit]` first-layer weights, biases, the output weights (bucket
/// by bucket: side to move's half, then the other's) and the output biases (one a bucket).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub hidden: usize,
    pub feature: Vec<f32>,
    pub feature_bias: Vec<f32>,
    pub output: Vec<f32>,
    pub output_bias: Vec<f32>,
}

impl Weights {
    pub fn zero(inputs: usize, hidden: usize, buckets: usize) -> Weights {
        Weights {
            hidden,
            feature: vec![0.0; inputs * hidden],
            feature_bias: vec![0.0; hidden],
            output: vec![0.0; buckets * 2 * hidden],
            output_bias: vec![0.0; buckets],
        }
    }

    /// The output layer's buckets.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// These weights with `buckets` output buckets, each a copy of the first: a network of one
    /// bucket becomes one of many that scores every position as it did. Weights that already
    /// have that many are kept as they are.
    pub fn with_buckets(mut self, buckets: usize) -> Weights {
        if self.buckets() == buckets {
            return self;
        }
        let layer = self.output[..2 * self.hidden].to_vec();
        let bias = self.output_bias[0];
        self.output = layer.repeat(buckets);
        self.output_bias = vec![bias; buckets];
        self
    }

    /// These weights with `hidden` units, the units they have kept as they are and the new ones
    /// given random input weights and no say in the output, so that the wider network scores
    /// every position as the narrower one did and training can put the new units to use.
    /// Weights that already have that many units are kept as they are.
    pub fn widened(self, hidden: usize, rng: &mut Rng) -> Weights {
        let old = self.hidden;
        if hidden <= old {
            return self;
        }
        let fresh = Weights::random(self.inputs(), hidden, self.buckets(), rng);
        let mut wide = Weights::zero(self.inputs(), hidden, self.buckets());
        for (input, row) in wide.feature.chunks_mut(hidden).enumerate() {
            row[..old].copy_from_slice(&self.feature[input * old..(input + 1) * old]);
            row[old..].copy_from_slice(&fresh.feature[input * hidden + old..(input + 1) * hidden]);
        }
        wide.feature_bias[..old].copy_from_slice(&self.feature_bias);
        // Each bucket's output layer is two halves (side to move's, the other's) of `hidden`.
        for (half, wide_half) in self.output.chunks(old).zip(wide.output.chunks_mut(hidden)) {
            wide_half[..old].copy_from_slice(half);
        }
        wide.output_bias = self.output_bias;
        wide
    }

    pub fn random(inputs: usize, hidden: usize, buckets: usize, rng: &mut Rng) -> Weights {
        let mut uniform = |limit: f32| {
            let unit = (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32;
            (unit * 2.0 - 1.0) * limit
        };
        let mut weights = Weights::zero(inputs, hidden, buckets);
        weights.feature.iter_mut().for_each(|w| *w = uniform(0.1));
        let output_limit = 1.0 / (2.0 * hidden as f32).sqrt();
        weights
            .output
            .iter_mut()
            .for_each(|w| *w = uniform(output_limit));
        weights
    }

    /// The weights of a quantised network, to train on from.
    pub fn from_network(network: &Network) -> Weights {
        let (feature, feature_bias, output, output_bias) = network.dequantise();
        Weights {
            hidden: network.hidden(),
            feature,
            feature_bias,
            output,
            output_bias,
        }
    }

    pub fn inputs(&self) -> usize {
        self.feature.len() / self.hidden
    }

    /// How many values there are (never none: there is always an output bias).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.feature.len() + self.feature_bias.len() + self.output.len() + self.output_bias.len()
    }

    pub fn values(&self) -> impl Iterator<Item = &f32> {
        self.feature
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output)
            .chain(&self.output_bias)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.feature
            .iter_mut()
            .chain(self.feature_bias.iter_mut())
            .chain(self.output.iter_mut())
            .chain(self.output_bias.iter_mut())
    }

    /// Reads the values [`Weights::values`] lists, in that order.
    pub fn set_values(&mut self, mut values: impl Iterator<Item = f32>) -> Result<(), String> {
        for slot in self.values_mut() {
            *slot = values.next().ok_or("too few values")?;
        }
        Ok(())
    }

    pub fn add(&mut self, other: &Weights) {
        for (a, b) in self.values_mut().zip(other.values()) {
            *a += b;
        }
    }

    /// Keeps the weights inside what the quantised network can hold.
    pub fn clip(&mut self, feature_limit: f32, output_limit: f32) {
        for w in &mut self.feature {
            *w = w.clamp(-feature_limit, feature_limit);
        }
        for w in &mut self.output {
            *w = w.clamp(-output_limit, output_limit);
        }
    }

    pub fn quantise(&self, residual: bool, activation: Activation) -> Network {
        Network::quantise(
            residual,
            activation,
            &self.feature,
            &self.feature_bias,
            &self.output,
            &self.output_bias,
        )
    }
}

/// The activation and its slope at `x`.
#[inline(always)]
fn activate(activation: Activation, x: f32) -> (f32, f32) {
    if x <= 0.0 || x >= 1.0 {
        return (
            x.clamp(0.0, 1.0).powi(match activation {
                Activation::Crelu => 1,
                Activation::Screlu => 2,
            }),
            0.0,
        );
    }
    match activation {
        Activation::Crelu => (x, 1.0),
        Activation::Screlu => (x * x, 2.0 * x),
    }
}

/// One thread's working space: the two views' sums and their gradients.
pub struct Scratch {
    sums: [Vec<f32>; 2],
    slopes: [Vec<f32>; 2],
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            sums: [vec![0.0; hidden], vec![0.0; hidden]],
            slopes: [vec![0.0; hidden], vec![0.0; hidden]],
        }
    }
}

/// The output (network units, side to move's view) of an example; leaves each view's sums
/// (White's, Black's) in `scratch`.
fn forward(
    weights: &Weights,
    activation: Activation,
    data: &Examples,
    example: &Example,
    scratch: &mut Scratch,
) -> f32 {
    let hidden = weights.hidden;
    let (white, black) = data.views(example);
    for (sum, view) in scratch.sums.iter_mut().zip([white, black]) {
        sum.copy_from_slice(&weights.feature_bias);
        for &input in view {
            let row = &weights.feature[input as usize * hidden..(input as usize + 1) * hidden];
            for (s, w) in sum.iter_mut().zip(row) {
                *s += w;
            }
        }
    }
    let (us, them) = if example.white_to_move {
        (0, 1)
    } else {
        (1, 0)
    };
    let bucket = example_bucket(weights, example);
    let layer = bucket * 2 * hidden;
    let mut out = example.base + weights.output_bias[bucket];
    for (view, half) in [(us, layer), (them, layer + hidden)] {
        for (i, &x) in scratch.sums[view].iter().enumerate() {
            out += activate(activation, x).0 * weights.output[half + i];
        }
    }
    out
}

/// The output bucket of an example: by its active inputs (in chess, its pieces).
#[inline(always)]
fn example_bucket(weights: &Weights, example: &Example) -> usize {
    output_bucket(example.count as usize, weights.buckets())
}

/// The squared error of one example.
fn error(out: f32, target: f32, scale: f32) -> f32 {
    (sigmoid(out * EVAL_SCALE as f32 / scale) - target).powi(2)
}

/// The sum of the squared errors on a set, and the count.
pub fn loss(
    weights: &Weights,
    activation: Activation,
    data: &Examples,
    scale: f32,
) -> (f64, usize) {
    let total = data
        .examples
        .par_chunks(1024)
        .map(|part| {
            let mut scratch = Scratch::new(weights.hidden);
            part.iter()
                .map(|example| {
                    let out = forward(weights, activation, data, example, &mut scratch);
                    f64::from(error(out, example.target, scale))
                })
                .sum::<f64>()
        })
        .sum();
    (total, data.examples.len())
}

/// Adds one example's gradient to `grad`; its squared error.
pub fn backward(
    weights: &Weights,
    activation: Activation,
    data: &Examples,
    example: &Example,
    scale: f32,
    grad: &mut Weights,
    scratch: &mut Scratch,
) -> f32 {
    let hidden = weights.hidden;
    let out = forward(weights, activation, data, example, scratch);
    let factor = EVAL_SCALE as f32 / scale;
    let p = sigmoid(out * factor);
    let g = 2.0 * (p - example.target) * p * (1.0 - p) * factor;
    let bucket = example_bucket(weights, example);
    grad.output_bias[bucket] += g;
    let (us, them) = if example.white_to_move {
        (0, 1)
    } else {
        (1, 0)
    };
    let layer = bucket * 2 * hidden;
    for (view, half) in [(us, layer), (them, layer + hidden)] {
        for i in 0..hidden {
            let (value, slope) = activate(activation, scratch.sums[view][i]);
            grad.output[half + i] += g * value;
            scratch.slopes[view][i] = g * weights.output[half + i] * slope;
        }
    }
    for (bias, (w, b)) in grad
        .feature_bias
        .iter_mut()
        .zip(scratch.slopes[0].iter().zip(&scratch.slopes[1]))
    {
        *bias += w + b;
    }
    let (white, black) = data.views(example);
    for (view, inputs) in [white, black].into_iter().enumerate() {
        for &input in inputs {
            let row = &mut grad.feature[input as usize * hidden..(input as usize + 1) * hidden];
            for (r, d) in row.iter_mut().zip(&scratch.slopes[view]) {
                *r += d;
            }
        }
    }
    (p - example.target).powi(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A widened network scores as the narrower one did, with two output buckets to check that
    /// each bucket's halves land in their place, and the new units are not all dead weight.
    #[test]
    fn a_widened_network_scores_as_the_narrow_one() {
        let mut rng = Rng::new(9);
        let narrow = Weights::random(6, 16, 2, &mut rng);
        let mut data = Examples::default();
        data.push(&[0, 2, 5], &[1, 3, 4], true, 0.8, 0.1);
        data.push(&[1, 4], &[0, 5], false, 0.3, -0.2);
        data.push(&[0, 1, 2, 3, 4, 5], &[5, 4, 3, 2, 1, 0], true, 0.6, 0.0);
        let wide = narrow.clone().widened(48, &mut rng);
        assert_eq!((wide.hidden, wide.inputs(), wide.buckets()), (48, 6, 2));
        for activation in [Activation::Crelu, Activation::Screlu] {
            let (narrow_loss, _) = loss(&narrow, activation, &data, 200.0);
            let (wide_loss, _) = loss(&wide, activation, &data, 200.0);
            assert!(
                (narrow_loss - wide_loss).abs() < 1e-9,
                "{narrow_loss} against {wide_loss}"
            );
        }
        assert!(wide
            .feature
            .chunks(48)
            .all(|row| row[16..].iter().any(|&w| w != 0.0)));
        assert_eq!(narrow.clone().widened(16, &mut rng), narrow);
    }

    /// The gradient matches finite differences of the loss, for both activations.
    #[test]
    fn gradients_match_finite_differences() {
        for (activation, buckets) in [
            (Activation::Crelu, 1),
            (Activation::Screlu, 1),
            (Activation::Crelu, 3),
        ] {
            let mut rng = Rng::new(4);
            let mut weights = Weights::random(6, 16, buckets, &mut rng);
            // Every unit's sum stays away from the activation's kinks at 0 and 1 (finite
            // differences across a kink are wrong): inputs of at most ±0.05, six at most, on
            // biases of 0.35 to 0.55; unit 0 always below 0 and unit 1 always above 1, so that
            // the clipped parts are checked too.
            weights.feature.iter_mut().for_each(|w| *w /= 2.0);
            weights
                .feature_bias
                .iter_mut()
                .enumerate()
                .for_each(|(i, b)| *b = 0.35 + 0.05 * (i % 5) as f32);
            (weights.feature_bias[0], weights.feature_bias[1]) = (-0.5, 1.5);
            let mut data = Examples::default();
            data.push(&[0, 2, 5], &[1, 3, 4], true, 0.8, 0.1);
            data.push(&[1, 4], &[0, 5], false, 0.3, -0.2);
            // Six inputs: with three buckets, the second bucket's.
            data.push(&[0, 1, 2, 3, 4, 5], &[5, 4, 3, 2, 1, 0], true, 0.6, 0.0);
            let scale = 200.0;
            let mut grad = Weights::zero(6, 16, buckets);
            let mut scratch = Scratch::new(16);
            for example in &data.examples {
                backward(
                    &weights,
                    activation,
                    &data,
                    example,
                    scale,
                    &mut grad,
                    &mut scratch,
                );
            }
            let total = |w: &Weights| loss(w, activation, &data, scale).0;
            let analytic: Vec<f32> = grad.values().copied().collect();
            let step = 1e-3;
            let mut checked = 0;
            // Every output weight and bias, and a sample of the first layer's.
            let first_output = weights.feature.len() + weights.feature_bias.len();
            for index in (0..weights.len()).filter(|&i| i % 7 == 0 || i >= first_output) {
                let mut plus = weights.clone();
                *plus.values_mut().nth(index).unwrap() += step;
                let mut minus = weights.clone();
                *minus.values_mut().nth(index).unwrap() -= step;
                let numeric = ((total(&plus) - total(&minus)) / (2.0 * step as f64)) as f32;
                assert!(
                    (numeric - analytic[index]).abs() <= 1e-3 + 0.05 * numeric.abs(),
                    "{activation:?}, {buckets} buckets, weight {index}: numeric {numeric}, \
                     analytic {}",
                    analytic[index]
                );
                checked += (numeric.abs() > 1e-5) as usize;
            }
            assert!(checked > 5, "{activation:?}: too few weights with a slope");
        }
    }
}
