//! `roger tune`: fits every evaluation weight of a game to `roger datagen` data.
//!
//! Each position is traced once with the current weights (its evaluation is then the dot
//! product of the weights with the trace, White's view); the fit is Texel's method on that
//! linear model: `K` of the sigmoid `1 / (1 + e^(-K·eval))` is fitted to the results first,
//! then Adam on mini-batches minimises the mean squared error between the sigmoid of the
//! evaluation and the target `lambda · result + (1 - lambda) · sigmoid(K · score)`.

use super::data::samples::read_samples;
use super::datagen::VARIANTS;
use super::{trace, weights_file_text, Sample, Tunable};
use crate::common::Rng;
use crate::eval::weights::Trace;
use crate::rules::chess::Chess;
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use crate::rules::{Color, Game};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `roger tune`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct TuneOptions {
    /// The game whose weights to fit: chess, millennium or nichess.
    #[arg(long, value_parser = VARIANTS)]
    pub variant: String,
    /// Data files written by `roger datagen` (`FEN | score | result` lines).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Data files kept out of the fit, on which the loss before and after is reported: a
    /// fit that lowers the loss on its own data but not on these has learnt noise.
    #[arg(long, num_args = 1..)]
    pub holdout: Vec<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 50)]
    pub epochs: usize,
    /// Share of the game's result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Adam's step (centipawns) at the start; it falls linearly to a tenth by the end.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Pull of each weight back towards its value before the fit (L2, per centipawn of
    /// distance, in the loss's units): keeps weights the data hardly sees, such as the
    /// piece-square values of squares a piece seldom stands on, from wandering on noise.
    #[arg(long, default_value_t = 2e-7)]
    pub l2: f64,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// The sigmoid's scale; fitted to the results when left out.
    #[arg(long)]
    pub k: Option<f64>,
    /// Threads for tracing and gradients.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Rewrite the game's weights file (`src/eval/weights/<game>.rs`) with the fitted values;
    /// without it the values are printed.
    #[arg(long)]
    pub write: bool,
    /// The weights file `--write` writes instead of the one in this source tree.
    #[arg(long)]
    pub weights_file: Option<PathBuf>,
    /// Seed of the batches' shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rounds of finite differences over the shape weights (those the evaluation is not
    /// linear in) after the linear fit; 0 leaves them as they are.
    #[arg(long, default_value_t = 3)]
    pub shape_rounds: usize,
    /// Positions (evenly drawn from the data) the shape rounds evaluate.
    #[arg(long, default_value_t = 100_000)]
    pub shape_positions: usize,
    /// Fit only these weight fields (names as in the weights file) and hold the rest: a new
    /// term gets its values without the settled ones drifting on the data's noise.
    #[arg(long, num_args = 1..)]
    pub only: Vec<String>,
}

/// Positions traced once: sparse coefficients, the search score and the result.
pub struct Dataset {
    offsets: Vec<usize>,
    index: Vec<u16>,
    coef: Vec<f32>,
    result: Vec<f32>,
    score: Vec<f32>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.result.len()
    }
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }
    fn entries(&self, i: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let range = self.offsets[i]..self.offsets[i + 1];
        self.index[range.clone()]
            .iter()
            .zip(&self.coef[range])
            .map(|(&j, &c)| (j as usize, c as f64))
    }
    fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        self.entries(i).map(|(j, c)| c * weights[j]).sum()
    }

    /// Traces every sample's position with `G`'s current weights.
    pub fn build<G: Tunable>(samples: &[Sample]) -> Result<Dataset, String> {
        let current = G::current();
        let traces: Vec<Result<Vec<(u32, f32)>, String>> = samples
            .par_iter()
            .map_init(
                || Trace::new(G::LEN),
                |scratch, sample| {
                    G::from_fen(&sample.fen)
                        .map(|pos| trace(&pos, &current, scratch))
                        .map_err(|e| format!("bad FEN '{}': {e}", sample.fen))
                },
            )
            .collect();
        let mut data = Dataset {
            offsets: vec![0],
            index: Vec::new(),
            coef: Vec::new(),
            result: Vec::new(),
            score: Vec::new(),
        };
        for (sample, trace) in samples.iter().zip(traces) {
            for (j, c) in trace? {
                data.index.push(j as u16);
                data.coef.push(c);
            }
            data.offsets.push(data.index.len());
            data.result.push(sample.result);
            data.score.push(sample.score as f32);
        }
        Ok(data)
    }
}

fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + (-k * x).exp())
}

/// Mean squared error of the sigmoid of each evaluation against `targets`.
fn loss(data: &Dataset, weights: &[f64], k: f64, targets: &[f64]) -> f64 {
    let total: f64 = (0..data.len())
        .into_par_iter()
        .map(|i| {
            let d = sigmoid(k, data.eval(i, weights)) - targets[i];
            d * d
        })
        .sum();
    total / data.len().max(1) as f64
}

/// The `K` that best predicts the results from the evaluations (golden-section search).
fn fit_k(data: &Dataset, weights: &[f64]) -> f64 {
    let results: Vec<f64> = data.result.iter().map(|&r| r as f64).collect();
    let (mut lo, mut hi) = (1e-5f64, 0.05f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..50 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(data, weights, a, &results) < loss(data, weights, b, &results) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fitted {
    pub k: f64,
    pub loss_before: f64,
    /// With the fitted weights rounded to integers (before the shape rounds).
    pub loss_after: f64,
    /// The loss of the shape rounds' positions, evaluated afresh, before and after them.
    pub shape_loss: Option<(f64, f64)>,
    pub weights: Vec<i32>,
    pub epoch_seconds: f64,
}

/// Fits `G`'s weights to `data`, then the shape weights to `positions` (the samples'
/// positions by their index in `data`, or none); `progress` hears a line per epoch.
pub fn fit<G: Tunable>(
    data: &Dataset,
    positions: &[(usize, G)],
    options: &TuneOptions,
    progress: &mut dyn FnMut(&str),
) -> Fitted {
    let start: Vec<f64> = G::to_vec(&G::current()).iter().map(|&v| v as f64).collect();
    let k = options.k.unwrap_or_else(|| fit_k(data, &start));
    let lambda = options.lambda.clamp(0.0, 1.0);
    let targets: Vec<f64> = (0..data.len())
        .map(|i| lambda * data.result[i] as f64 + (1.0 - lambda) * sigmoid(k, data.score[i] as f64))
        .collect();
    let loss_before = loss(data, &start, k, &targets);
    let len = start.len();
    // Which weights the fit may move: all, or those of the `--only` fields.
    let mut movable = vec![options.only.is_empty(); len];
    for (name, at, size) in G::fields() {
        if options.only.iter().any(|only| only == name) {
            movable[at..at + size].iter_mut().for_each(|m| *m = true);
        }
    }
    let mut weights = start.clone();
    let (mut m, mut v) = (vec![0.0; len], vec![0.0; len]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut rng = Rng::new(options.seed);
    let batch = options.batch.max(1);
    let timer = Instant::now();
    for epoch in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.index(i + 1));
        }
        let rate = options.rate * (1.0 - 0.9 * epoch as f64 / options.epochs.max(1) as f64);
        let mut epoch_loss = 0.0;
        for positions in order.chunks(batch) {
            let (grad, batch_loss) = positions
                .par_chunks(1024)
                .map(|chunk| {
                    let mut grad = vec![0.0f64; len];
                    let mut total = 0.0;
                    for &i in chunk {
                        let p = sigmoid(k, data.eval(i, &weights));
                        let error = p - targets[i];
                        total += error * error;
                        let d = 2.0 * error * p * (1.0 - p) * k;
                        for (j, c) in data.entries(i) {
                            grad[j] += d * c;
                        }
                    }
                    (grad, total)
                })
                .reduce(
                    || (vec![0.0f64; len], 0.0),
                    |(mut a, la), (b, lb)| {
                        a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                        (a, la + lb)
                    },
                );
            epoch_loss += batch_loss;
            step += 1;
            let scale = 1.0 / positions.len() as f64;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for j in 0..len {
                let g = grad[j] * scale + options.l2 * (weights[j] - start[j]);
                if g == 0.0 || !movable[j] {
                    continue;
                }
                m[j] = beta1 * m[j] + (1.0 - beta1) * g;
                v[j] = beta2 * v[j] + (1.0 - beta2) * g * g;
                weights[j] -= rate * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
            }
        }
        progress(&format!(
            "epoch {}/{}: loss {:.6} ({:.1} s)",
            epoch + 1,
            options.epochs,
            epoch_loss / data.len().max(1) as f64,
            timer.elapsed().as_secs_f64()
        ));
    }
    let epoch_seconds = timer.elapsed().as_secs_f64() / options.epochs.max(1) as f64;
    let mut rounded: Vec<i32> = weights.iter().map(|w| w.round() as i32).collect();
    let as_f64: Vec<f64> = rounded.iter().map(|&w| w as f64).collect();
    let loss_after = loss(data, &as_f64, k, &targets);
    let shape_loss = (options.shape_rounds > 0 && !positions.is_empty()).then(|| {
        let scored: Vec<(&G, f64)> = positions.iter().map(|(i, p)| (p, targets[*i])).collect();
        fit_shapes::<G>(
            &scored,
            &mut rounded,
            k,
            options.shape_rounds,
            &options.only,
            progress,
        )
    });
    Fitted {
        k,
        loss_before,
        loss_after,
        shape_loss,
        weights: rounded,
        epoch_seconds,
    }
}

/// The loss of `positions` (with their targets) evaluated afresh with `weights`.
fn fresh_loss<G: Tunable>(positions: &[(&G, f64)], weights: &[i32], k: f64) -> f64 {
    let w = G::from_slice(weights);
    let total: f64 = positions
        .par_iter()
        .map(|(pos, target)| {
            let white = match pos.side_to_move() {
                Color::White => 1.0,
                Color::Black => -1.0,
            };
            let eval = pos.evaluate_traced(&w, &mut ()) as f64 * white;
            let d = sigmoid(k, eval) - target;
            d * d
        })
        .sum();
    total / positions.len().max(1) as f64
}

/// Coordinate descent by finite differences on the shape weights: each non-zero one tries a
/// step of a tenth of its value (at least 1) up and down and keeps what lowers the loss of the
/// positions evaluated afresh; the linear weights stay. Returns the loss before and after.
fn fit_shapes<G: Tunable>(
    positions: &[(&G, f64)],
    weights: &mut [i32],
    k: f64,
    rounds: usize,
    only: &[String],
    progress: &mut dyn FnMut(&str),
) -> (f64, f64) {
    let shapes: Vec<usize> = G::fields()
        .into_iter()
        .filter(|(name, _, _)| G::SHAPES.contains(name))
        .filter(|(name, _, _)| only.is_empty() || only.iter().any(|o| o == name))
        .flat_map(|(_, at, len)| at..at + len)
        .filter(|&j| weights[j] != 0)
        .collect();
    let before = fresh_loss(positions, weights, k);
    let mut best = before;
    for round in 0..rounds {
        let mut improved = false;
        for &j in &shapes {
            let step = (weights[j].abs() / 10).max(1);
            for delta in [step, -step] {
                if weights[j] + delta <= 0 {
                    continue;
                }
                weights[j] += delta;
                let trial = fresh_loss(positions, weights, k);
                if trial < best {
                    best = trial;
                    improved = true;
                    break;
                }
                weights[j] -= delta;
            }
        }
        progress(&format!(
            "shape round {}/{rounds}: loss {best:.6} on {} positions",
            round + 1,
            positions.len()
        ));
        if !improved {
            break;
        }
    }
    (before, best)
}

pub fn command(options: &TuneOptions) -> ExitCode {
    super::run_in_pool("tune", options.threads, || match options.variant.as_str() {
        Chess::VARIANT => run::<Chess>(options),
        Millennium::VARIANT => run::<Millennium>(options),
        Nichess::VARIANT => run::<Nichess>(options),
        other => Err(format!("tune does not know '{other}'")),
    })
}

/// The weights file `--write` writes.
pub fn weights_path<G: Tunable>(options: &TuneOptions) -> PathBuf {
    options
        .weights_file
        .clone()
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(G::WEIGHTS_FILE))
}

fn run<G: Tunable>(options: &TuneOptions) -> Result<(), String> {
    let timer = Instant::now();
    let names: Vec<&str> = G::fields().iter().map(|(name, _, _)| *name).collect();
    if let Some(unknown) = options.only.iter().find(|o| !names.contains(&o.as_str())) {
        return Err(format!(
            "--only {unknown}: no such weight field; the fields are {}",
            names.join(", ")
        ));
    }
    let samples = read_samples(&options.data, G::VARIANT)?;
    let data = Dataset::build::<G>(&samples)?;
    let stride = samples
        .len()
        .div_ceil(options.shape_positions.max(1))
        .max(1);
    let positions: Vec<(usize, G)> = if options.shape_rounds == 0 {
        Vec::new()
    } else {
        (0..samples.len())
            .step_by(stride)
            .filter_map(|i| G::from_fen(&samples[i].fen).ok().map(|p| (i, p)))
            .collect()
    };
    drop(samples);
    if data.is_empty() {
        return Err("no positions in the data".into());
    }
    println!(
        "{} positions traced in {:.1} s ({} weights)",
        data.len(),
        timer.elapsed().as_secs_f64(),
        G::LEN
    );
    let fitted = fit::<G>(&data, &positions, options, &mut |line| eprintln!("{line}"));
    println!(
        "K {:.6}, loss {:.6} before, {:.6} after; {:.2} s an epoch, {:.1} s in all",
        fitted.k,
        fitted.loss_before,
        fitted.loss_after,
        fitted.epoch_seconds,
        timer.elapsed().as_secs_f64()
    );
    if !options.holdout.is_empty() {
        let held = Dataset::build::<G>(&read_samples(&options.holdout, G::VARIANT)?)?;
        let lambda = options.lambda.clamp(0.0, 1.0);
        let targets: Vec<f64> = (0..held.len())
            .map(|i| {
                lambda * held.result[i] as f64
                    + (1.0 - lambda) * sigmoid(fitted.k, held.score[i] as f64)
            })
            .collect();
        let start: Vec<f64> = G::to_vec(&G::current()).iter().map(|&v| v as f64).collect();
        let after: Vec<f64> = fitted.weights.iter().map(|&v| v as f64).collect();
        println!(
            "held-out loss on {} positions: {:.6} before, {:.6} after",
            held.len(),
            loss(&held, &start, fitted.k, &targets),
            loss(&held, &after, fitted.k, &targets)
        );
    }
    if let Some((before, after)) = fitted.shape_loss {
        println!(
            "shapes: loss {before:.6} before, {after:.6} after on {} positions",
            positions.len()
        );
    }
    let weights = G::from_slice(&fitted.weights);
    if options.write {
        let path = weights_path::<G>(options);
        std::fs::write(&path, weights_file_text::<G>(&weights))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    } else {
        let before = G::to_vec(&G::current());
        for (name, at, len) in G::fields() {
            let changed = (at..at + len)
                .filter(|&j| fitted.weights[j] != before[j])
                .count();
            println!("{name}: {changed} of {len} changed");
        }
        print!("{}", G::render_fields(&weights));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluate;
    use crate::rules::MoveList;

    /// Random-game positions of chess whose "result" follows the material balance: a fit
    /// must find the signal and lower the loss.
    fn synthetic() -> Vec<Sample> {
        let mut samples = Vec::new();
        let mut rng = Rng::new(3);
        for _ in 0..60 {
            let mut pos = Chess::startpos();
            for _ in 0..80 {
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.index(moves.len())]);
                let white = match pos.side_to_move() {
                    crate::rules::Color::White => 1,
                    crate::rules::Color::Black => -1,
                };
                let material = pos.material_balance() * white;
                let p = sigmoid(0.006, material as f64 * 2.0);
                let result = if rng.index(1000) < (p * 1000.0) as usize {
                    1.0
                } else {
                    0.0
                };
                samples.push(Sample {
                    fen: pos.fen(),
                    score: material * 2,
                    result,
                });
            }
        }
        samples
    }

    fn options(write: Option<PathBuf>) -> TuneOptions {
        TuneOptions {
            variant: "chess".into(),
            data: Vec::new(),
            epochs: 30,
            lambda: 0.5,
            rate: 2.0,
            holdout: Vec::new(),
            l2: 0.0,
            batch: 512,
            k: None,
            threads: 1,
            write: write.is_some(),
            weights_file: write,
            seed: 1,
            shape_rounds: 2,
            only: Vec::new(),
            shape_positions: 1000,
        }
    }

    #[test]
    fn tuning_a_synthetic_set_lowers_the_loss_and_writes_a_file_that_parses() {
        let samples = synthetic();
        assert!(samples.len() > 2000);
        let data = Dataset::build::<Chess>(&samples).unwrap();
        let positions: Vec<(usize, Chess)> = (0..samples.len())
            .step_by(3)
            .map(|i| (i, Chess::from_fen(&samples[i].fen).unwrap()))
            .collect();
        let fitted = fit::<Chess>(&data, &positions, &options(None), &mut |_| {});
        let (shape_before, shape_after) = fitted.shape_loss.unwrap();
        assert!(shape_after <= shape_before);
        assert!(fitted.k > 0.0);
        assert!(
            fitted.loss_after < fitted.loss_before * 0.97,
            "{} -> {}",
            fitted.loss_before,
            fitted.loss_after
        );
        assert_ne!(fitted.weights, Chess::to_vec(&Chess::current()));
        // Round trip: the written file reads back to the same numbers.
        let path = std::env::temp_dir().join(format!("roger-tune-test-{}.rs", std::process::id()));
        let opts = options(Some(path.clone()));
        let weights = <Chess as Tunable>::from_slice(&fitted.weights);
        std::fs::write(
            weights_path::<Chess>(&opts),
            weights_file_text::<Chess>(&weights),
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(text.contains("pub const WEIGHTS: ChessWeights = ChessWeights {"));
        let values =
            crate::eval::weights::parse_weights_source(&text, Chess::WEIGHTS_TYPE).unwrap();
        assert_eq!(values, fitted.weights);
        // The rendering is rustfmt's.
        assert_eq!(crate::eval::weights::format_rust(&text), text);
    }

    #[test]
    fn a_fit_limited_to_some_fields_moves_those_and_holds_the_rest() {
        let samples = synthetic();
        let data = Dataset::build::<Chess>(&samples).unwrap();
        let mut opts = options(None);
        opts.only = vec!["material_mg".into(), "material_eg".into()];
        opts.shape_rounds = 0;
        let fitted = fit::<Chess>(&data, &[], &opts, &mut |_| {});
        let before = Chess::to_vec(&Chess::current());
        let mut changed_inside = 0;
        for (name, at, len) in <Chess as Tunable>::fields() {
            let moved = (at..at + len)
                .filter(|&j| fitted.weights[j] != before[j])
                .count();
            if name.starts_with("material_") {
                changed_inside += moved;
            } else {
                assert_eq!(moved, 0, "{name} moved");
            }
        }
        assert!(changed_inside > 0);
    }

    #[test]
    fn data_lines_that_do_not_parse_are_errors() {
        let path = std::env::temp_dir().join(format!("roger-tune-bad-{}.txt", std::process::id()));
        std::fs::write(&path, "# header\n8/8/8/8/8/8/8/8 w - - 0 1 | 12\n").unwrap();
        let error = read_samples(std::slice::from_ref(&path), "chess").unwrap_err();
        let _ = std::fs::remove_file(&path);
        assert!(error.contains(":2:"), "{error}");
    }
}
