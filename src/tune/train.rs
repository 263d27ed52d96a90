//! `roger train`: fits the chess network (`src/eval/network/`) to `roger datagen` data.
//!
//! The network is trained in floating point on the same target as `roger tune` fits the
//! hand-set weights to, `lambda · result + (1 − lambda) · σ(score / S)` from the side to move's
//! view, by Adam on shuffled mini-batches, and written quantised (docs/network.md).

use super::fit::read_samples;
use crate::eval::network::chess::INPUTS;
use crate::eval::network::{Network, EVAL_SCALE, HIDDEN, WEIGHT_LIMIT};
use crate::players::Rng;
use crate::rules::chess::Chess;
use crate::rules::{Color, Game};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `roger train`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct TrainOptions {
    /// The game whose network to train (chess is the one with a network).
    #[arg(long, default_value = "chess", value_parser = ["chess"])]
    pub variant: String,
    /// Data files written by `roger datagen` (`FEN | score | result` lines).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Data files kept out of the fit, on which the loss is reported after every pass.
    #[arg(long, num_args = 1..)]
    pub holdout: Vec<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Share of the game's result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.25)]
    pub lambda: f32,
    /// Adam's step at the start; it falls to a tenth by the last pass.
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// The sigmoid's scale in centipawns (`σ(score / S)`); fitted to the results when left out.
    #[arg(long)]
    pub scale: Option<f32>,
    /// Threads for the gradients.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the first weights and of the batches' shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Train a correction to the hand-set evaluation (the network's output is added to it)
    /// instead of an evaluation on its own.
    #[arg(long)]
    pub residual: bool,
    /// Also train on each position with its files mirrored (a to h): the network does not see
    /// castling rights, and chess is otherwise the same mirrored, so this doubles the data.
    #[arg(long)]
    pub mirror: bool,
    /// Where to write the network; the file this build embeds when left out.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// A position as the trainer sees it: White's-perspective inputs, the side to move, and the
/// target from the side to move's view.
struct Example {
    first: u32,
    count: u8,
    white_to_move: bool,
    target: f32,
    /// The hand-set evaluation (side to move's view, in network units) the network corrects,
    /// with `--residual`; else 0.
    base: f32,
}

struct Examples {
    inputs: Vec<u16>,
    examples: Vec<Example>,
}

/// The input of the same piece seen from Black's side.
#[inline(always)]
fn flipped(white_input: usize) -> usize {
    let theirs = white_input / 384;
    let rest = white_input % 384;
    (1 - theirs) * 384 + (rest & !63) + ((rest & 63) ^ 56)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float network being trained.
#[derive(Clone)]
struct Weights {
    /// `[input][unit]`.
    feature: Vec<f32>,
    feature_bias: Vec<f32>,
    /// Side to move's half, then the other's.
    output: Vec<f32>,
    output_bias: f32,
}

impl Weights {
    fn random(rng: &mut Rng) -> Weights {
        let mut uniform = |limit: f32| {
            let unit = (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32;
            (unit * 2.0 - 1.0) * limit
        };
        Weights {
            feature: (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect(),
            feature_bias: vec![0.0; HIDDEN],
            output: (0..2 * HIDDEN)
                .map(|_| uniform(1.0 / (2.0 * HIDDEN as f32).sqrt()))
                .collect(),
            output_bias: 0.0,
        }
    }

    fn zero() -> Weights {
        Weights {
            feature: vec![0.0; INPUTS * HIDDEN],
            feature_bias: vec![0.0; HIDDEN],
            output: vec![0.0; 2 * HIDDEN],
            output_bias: 0.0,
        }
    }

    fn add(&mut self, other: &Weights) {
        let pairs = self
            .feature
            .iter_mut()
            .zip(&other.feature)
            .chain(self.feature_bias.iter_mut().zip(&other.feature_bias))
            .chain(self.output.iter_mut().zip(&other.output));
        for (a, b) in pairs {
            *a += b;
        }
        self.output_bias += other.output_bias;
    }

    fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.feature
            .iter_mut()
            .chain(self.feature_bias.iter_mut())
            .chain(self.output.iter_mut())
            .chain(std::iter::once(&mut self.output_bias))
    }
}

/// The hidden layer of one perspective, before clipping.
fn accumulate(weights: &Weights, inputs: impl Iterator<Item = usize>) -> [f32; HIDDEN] {
    let mut sum = [0f32; HIDDEN];
    sum.copy_from_slice(&weights.feature_bias);
    for i in inputs {
        let row = &weights.feature[i * HIDDEN..(i + 1) * HIDDEN];
        for (s, w) in sum.iter_mut().zip(row) {
            *s += w;
        }
    }
    sum
}

/// The two accumulators of an example, side to move's first, and its inputs.
fn forward(
    weights: &Weights,
    data: &Examples,
    example: &Example,
) -> ([f32; HIDDEN], [f32; HIDDEN], f32) {
    let span =
        &data.inputs[example.first as usize..example.first as usize + example.count as usize];
    let white = accumulate(weights, span.iter().map(|&i| i as usize));
    let black = accumulate(weights, span.iter().map(|&i| flipped(i as usize)));
    let (us, them) = if example.white_to_move {
        (white, black)
    } else {
        (black, white)
    };
    let mut out = example.base + weights.output_bias;
    for i in 0..HIDDEN {
        out += us[i].clamp(0.0, 1.0) * weights.output[i]
            + them[i].clamp(0.0, 1.0) * weights.output[HIDDEN + i];
    }
    (us, them, out)
}

/// Mean squared error of the network on a set.
fn loss(weights: &Weights, data: &Examples, scale: f32) -> f64 {
    let total: f64 = data
        .examples
        .par_iter()
        .map(|example| {
            let (_, _, out) = forward(weights, data, example);
            let p = sigmoid(out * EVAL_SCALE as f32 / scale);
            f64::from((p - example.target).powi(2))
        })
        .sum();
    total / data.examples.len().max(1) as f64
}

/// Adds one example's gradient to `grad`.
fn backward(weights: &Weights, data: &Examples, example: &Example, scale: f32, grad: &mut Weights) {
    let (us, them, out) = forward(weights, data, example);
    let factor = EVAL_SCALE as f32 / scale;
    let p = sigmoid(out * factor);
    let g = 2.0 * (p - example.target) * p * (1.0 - p) * factor;
    grad.output_bias += g;
    let mut d_us = [0f32; HIDDEN];
    let mut d_them = [0f32; HIDDEN];
    for i in 0..HIDDEN {
        grad.output[i] += g * us[i].clamp(0.0, 1.0);
        grad.output[HIDDEN + i] += g * them[i].clamp(0.0, 1.0);
        if us[i] > 0.0 && us[i] < 1.0 {
            d_us[i] = g * weights.output[i];
        }
        if them[i] > 0.0 && them[i] < 1.0 {
            d_them[i] = g * weights.output[HIDDEN + i];
        }
    }
    let (d_white, d_black) = if example.white_to_move {
        (&d_us, &d_them)
    } else {
        (&d_them, &d_us)
    };
    for i in 0..HIDDEN {
        grad.feature_bias[i] += d_white[i] + d_black[i];
    }
    let span =
        &data.inputs[example.first as usize..example.first as usize + example.count as usize];
    for &white_input in span {
        let white_input = white_input as usize;
        let black_input = flipped(white_input);
        let row = &mut grad.feature[white_input * HIDDEN..(white_input + 1) * HIDDEN];
        for (r, d) in row.iter_mut().zip(d_white) {
            *r += d;
        }
        let row = &mut grad.feature[black_input * HIDDEN..(black_input + 1) * HIDDEN];
        for (r, d) in row.iter_mut().zip(d_black) {
            *r += d;
        }
    }
}

/// The scale `S` for which `σ(score / S)` best predicts the results (golden-section search).
fn fit_scale(samples: &[(i32, f32)]) -> f32 {
    let error = |s: f64| -> f64 {
        samples
            .par_iter()
            .map(|&(score, result)| {
                (1.0 / (1.0 + (-score as f64 / s).exp()) - result as f64).powi(2)
            })
            .sum()
    };
    let (mut lo, mut hi) = (50.0f64, 2000.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0) as f32
}

/// One position read: White's-view inputs, White to move, target, hand-set base.
type Parsed = (Vec<u16>, bool, f32, f32);

fn load(
    paths: &[PathBuf],
    lambda: f32,
    scale: Option<f32>,
    residual: bool,
    mirror: bool,
) -> Result<(Examples, f32), String> {
    let samples = read_samples(paths)?;
    let scale = scale.unwrap_or_else(|| {
        let pairs: Vec<(i32, f32)> = samples.iter().map(|s| (s.score, s.result)).collect();
        fit_scale(&pairs)
    });
    let parsed: Vec<Result<Parsed, String>> = samples
        .par_iter()
        .map(|sample| {
            let pos = Chess::from_fen(&sample.fen).map_err(|e| format!("{}: {e}", sample.fen))?;
            let inputs: Vec<u16> = crate::eval::network::chess::active_inputs(&pos, Color::White)
                .map(|i| i as u16)
                .collect();
            let white = pos.side() == Color::White;
            let white_target =
                lambda * sample.result + (1.0 - lambda) * sigmoid(sample.score as f32 / scale);
            let target = if white {
                white_target
            } else {
                1.0 - white_target
            };
            let base = if residual {
                crate::eval::chess::evaluate_with(
                    &pos,
                    &crate::eval::weights::chess::WEIGHTS,
                    &mut (),
                ) as f32
                    / EVAL_SCALE as f32
            } else {
                0.0
            };
            Ok((inputs, white, target, base))
        })
        .collect();
    let mut data = Examples {
        inputs: Vec::new(),
        examples: Vec::with_capacity(parsed.len()),
    };
    for item in parsed {
        let (inputs, white_to_move, target, base) = item?;
        let copies = if mirror { 2 } else { 1 };
        for copy in 0..copies {
            data.examples.push(Example {
                first: data.inputs.len() as u32,
                count: inputs.len() as u8,
                white_to_move,
                target,
                base,
            });
            // The mirrored copy: the same piece on the same rank, the other side's file.
            let file_flip = if copy == 1 { 7 } else { 0 };
            data.inputs
                .extend(inputs.iter().map(|&input| input ^ file_flip));
        }
    }
    Ok((data, scale))
}

/// The loss of the hand-set evaluation on the same targets: the figure a network must beat.
fn hand_set_loss(paths: &[PathBuf], lambda: f32, scale: f32) -> Result<f64, String> {
    let samples = read_samples(paths)?;
    let total: f64 = samples
        .par_iter()
        .map(|sample| {
            let pos = Chess::from_fen(&sample.fen).map_err(|e| format!("{}: {e}", sample.fen))?;
            let eval = crate::eval::chess::evaluate_with(
                &pos,
                &crate::eval::weights::chess::WEIGHTS,
                &mut (),
            );
            let white_eval = if pos.side() == Color::White {
                eval
            } else {
                -eval
            };
            let target =
                lambda * sample.result + (1.0 - lambda) * sigmoid(sample.score as f32 / scale);
            Ok(f64::from(
                (sigmoid(white_eval as f32 / scale) - target).powi(2),
            ))
        })
        .sum::<Result<f64, String>>()?;
    Ok(total / samples.len().max(1) as f64)
}

pub fn command(options: &TrainOptions) -> ExitCode {
    super::run_in_pool("train", options.threads, || run(options))
}

/// The network file this build embeds.
pub fn embedded_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/eval/network/chess.nnue")
}

fn run(options: &TrainOptions) -> Result<(), String> {
    let timer = Instant::now();
    let (data, scale) = load(
        &options.data,
        options.lambda,
        options.scale,
        options.residual,
        options.mirror,
    )?;
    if data.examples.is_empty() {
        return Err("the data holds no positions".into());
    }
    let holdout = if options.holdout.is_empty() {
        None
    } else {
        Some(
            load(
                &options.holdout,
                options.lambda,
                Some(scale),
                options.residual,
                false,
            )?
            .0,
        )
    };
    println!(
        "{} positions ({} held out), scale {scale:.1}, read in {:.1} s",
        data.examples.len(),
        holdout.as_ref().map_or(0, |h| h.examples.len()),
        timer.elapsed().as_secs_f64()
    );
    if !options.holdout.is_empty() {
        println!(
            "the hand-set evaluation's loss on the held-out positions: {:.6}",
            hand_set_loss(&options.holdout, options.lambda, scale)?
        );
    }
    let mut rng = Rng::new(options.seed);
    let mut weights = Weights::random(&mut rng);
    let mut first_moment = Weights::zero();
    let mut second_moment = Weights::zero();
    let (beta1, beta2, epsilon) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..data.examples.len() as u32).collect();
    let batch = options.batch.max(1);
    let threads = options.threads.max(1);
    for epoch in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let progress = epoch as f32 / options.epochs.max(1) as f32;
        let rate = options.rate * 0.1f32.powf(progress);
        for chunk in order.chunks(batch) {
            let per_thread = chunk.len().div_ceil(threads);
            let mut grad = chunk
                .par_chunks(per_thread)
                .map(|part| {
                    let mut grad = Weights::zero();
                    for &index in part {
                        backward(
                            &weights,
                            &data,
                            &data.examples[index as usize],
                            scale,
                            &mut grad,
                        );
                    }
                    grad
                })
                .reduce_with(|mut a, b| {
                    a.add(&b);
                    a
                })
                .expect("a batch is not empty");
            let inverse = 1.0 / chunk.len() as f32;
            step += 1;
            let correction1 = 1.0 - beta1.powi(step);
            let correction2 = 1.0 - beta2.powi(step);
            let updates = weights
                .values_mut()
                .zip(grad.values_mut())
                .zip(first_moment.values_mut().zip(second_moment.values_mut()));
            for ((w, g), (m, v)) in updates {
                let g = *g * inverse;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *w -= rate * (*m / correction1) / ((*v / correction2).sqrt() + epsilon);
            }
            for w in weights.feature.iter_mut().chain(weights.output.iter_mut()) {
                *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
            }
        }
        let train_loss = loss(&weights, &data, scale);
        let held = holdout
            .as_ref()
            .map(|h| format!(", held out {:.6}", loss(&weights, h, scale)))
            .unwrap_or_default();
        println!(
            "epoch {:>3}: rate {rate:.6}, loss {train_loss:.6}{held}, {:.0} s",
            epoch + 1,
            timer.elapsed().as_secs_f64()
        );
    }
    let network = Network::quantise(
        options.residual,
        &weights.feature,
        &weights.feature_bias,
        &weights.output,
        weights.output_bias,
    );
    let out = options.out.clone().unwrap_or_else(embedded_path);
    std::fs::write(&out, network.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::chess::input;

    #[test]
    fn flipping_an_input_matches_the_black_perspective() {
        let pos =
            Chess::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
                .unwrap();
        let net = crate::eval::network::chess::active_inputs;
        let mut from_white: Vec<usize> = net(&pos, Color::White).map(flipped).collect();
        let mut black: Vec<usize> = net(&pos, Color::Black).collect();
        from_white.sort();
        black.sort();
        assert_eq!(from_white, black);
        assert_eq!(
            flipped(input(Color::White, Color::White, 0, 8)),
            input(Color::Black, Color::White, 0, 8)
        );
    }

    #[test]
    fn training_on_a_small_set_lowers_its_loss() {
        let dir = std::env::temp_dir().join(format!("roger-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        // White a queen up wins, Black a queen up wins, level positions draw.
        let lines = [
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1",
            "3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | -900 | 0",
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1 | 0 | 0.5",
            "3qk3/8/8/8/8/8/8/4K3 b - - 0 1 | -900 | 0",
        ];
        std::fs::write(&data, lines.join("\n")).unwrap();
        let out = dir.join("net.nnue");
        let options = TrainOptions {
            variant: "chess".into(),
            data: vec![data.clone()],
            holdout: vec![],
            epochs: 40,
            lambda: 0.5,
            rate: 0.01,
            batch: 4,
            scale: Some(300.0),
            threads: 1,
            seed: 1,
            residual: false,
            mirror: false,
            out: Some(out.clone()),
        };
        let (examples, scale) =
            load(&options.data, options.lambda, options.scale, false, false).unwrap();
        let before = loss(&Weights::random(&mut Rng::new(1)), &examples, scale);
        run(&options).unwrap();
        let network = Network::from_bytes(&std::fs::read(&out).unwrap(), INPUTS).unwrap();
        let queen_up = Chess::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let mut accumulators = [[0i16; HIDDEN]; 2];
        for (p, &side) in [Color::White, Color::Black].iter().enumerate() {
            network.refresh(
                &mut accumulators[p],
                crate::eval::network::chess::active_inputs(&queen_up, side),
            );
        }
        let score = network.output(&accumulators[0], &accumulators[1]);
        assert!(
            score > 200,
            "a queen up scored {score} (loss before {before})"
        );
        assert!(!network.is_residual());
        // As a correction, the file says so, and the hand-set score plus the correction still
        // sees the queen.
        run(&TrainOptions {
            residual: true,
            mirror: true,
            ..options
        })
        .unwrap();
        let network = Network::from_bytes(&std::fs::read(&out).unwrap(), INPUTS).unwrap();
        assert!(network.is_residual());
        for (p, &side) in [Color::White, Color::Black].iter().enumerate() {
            network.refresh(
                &mut accumulators[p],
                crate::eval::network::chess::active_inputs(&queen_up, side),
            );
        }
        let hand_set = crate::eval::chess::evaluate_with(
            &queen_up,
            &crate::eval::weights::chess::WEIGHTS,
            &mut (),
        );
        let corrected = hand_set + network.output(&accumulators[0], &accumulators[1]);
        assert!(
            corrected > 200,
            "a queen up scored {corrected} with the correction"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
