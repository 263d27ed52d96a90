//! `roger train`: fits a turn game's network (`src/eval/network/`) to self-play data.
//!
//! The network is trained in floating point on the same target as `roger tune` fits the
//! hand-set weights to, `lambda · result + (1 − lambda) · σ(score / S)` from the side to move's
//! view, by Adam on shuffled mini-batches, with the data read a chunk at a time (files may be
//! larger than memory), and written quantised (docs/network.md).

mod adam;
pub mod checkpoint;
pub mod model;
pub mod stream;

use crate::common::Rng;
use crate::eval::network::{
    Activation, Network, NetworkInputs, BUCKET_RANGE, EVAL_SCALE, HIDDEN_RANGE,
};
use crate::rules::chess::Chess;
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use crate::rules::Game;
use crate::tune::datagen::VARIANTS;
use crate::tune::Tunable;
use adam::{batch_gradient, Adam};
use checkpoint::Checkpoint;
use model::{loss, sigmoid, Examples, Weights};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use stream::{for_each_chunk, hand_set, Scored, Targets};

/// `roger train`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct TrainOptions {
    /// The game whose network to train.
    #[arg(long, default_value = "chess", value_parser = VARIANTS)]
    pub variant: String,
    /// Data files: game data or text lines, as `roger datagen` writes them.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Data kept out of the fit, on which the loss is reported after every pass.
    #[arg(long, alias = "holdout", num_args = 1..)]
    pub held_out: Vec<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Units of the hidden layer (16 to 1024, a multiple of 16).
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// The hidden layer's activation.
    #[arg(long, value_enum, default_value_t = Activation::Screlu)]
    pub activation: Activation,
    /// Output layers, one for each four pieces on the board from two up (chess only; 1 to 8).
    /// With `--init` from a network of one, each bucket starts as a copy of its output layer.
    #[arg(long, default_value_t = 1)]
    pub output_buckets: usize,
    /// Share of the game's result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.25)]
    pub lambda: f32,
    /// Adam's step at the start ...
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// ... and at the last pass, along a cosine (a tenth of `--rate` when left out).
    #[arg(long)]
    pub final_rate: Option<f32>,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Positions held in memory at once (read, shuffled and trained on before the next).
    #[arg(long, default_value_t = 1_000_000)]
    pub chunk: usize,
    /// The sigmoid's scale in centipawns (`σ(score / S)`); fitted to the results of the first
    /// chunk when left out.
    #[arg(long)]
    pub scale: Option<f32>,
    /// Threads for the gradients.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the first weights and of the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Train a correction to the hand-set evaluation (the network's output is added to it)
    /// instead of an evaluation on its own.
    #[arg(long)]
    pub residual: bool,
    /// Also train on each position mirrored left to right (the inputs do not see castling, and
    /// the rules are otherwise the same mirrored): twice the data.
    #[arg(long)]
    pub mirror: bool,
    /// Stop after this many passes of the `--epochs` planned (to go on later with `--resume`).
    #[arg(long)]
    pub stop_after: Option<usize>,
    /// Write the run's state here after every pass ...
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// ... and go on from such a state (its game, width, activation and kind must match).
    #[arg(long, conflicts_with = "init")]
    pub resume: Option<PathBuf>,
    /// Start from this network file's weights instead of random ones (its game, activation and
    /// kind must match, its width be at most `--hidden`; Adam starts afresh): a shipped network
    /// trained on with new data, usually at a lower `--rate`. A narrower network is widened:
    /// the new units start with random input weights and none in the output, so the network
    /// first scores as the file does.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Where to write the network; the file this build embeds when left out.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn command(options: &TrainOptions) -> ExitCode {
    super::run_in_pool("train", options.threads, || {
        match options.variant.as_str() {
            Chess::VARIANT => run::<Chess>(options, &mut |line| println!("{line}")),
            Millennium::VARIANT => run::<Millennium>(options, &mut |line| println!("{line}")),
            Nichess::VARIANT => run::<Nichess>(options, &mut |line| println!("{line}")),
            other => Err(format!("no network for '{other}'")),
        }
    })
}

/// The network file a build embeds for `variant`.
pub fn embedded_path(variant: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("src/eval/network/{variant}.nnue"))
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

/// The first chunk's scale.
fn first_chunk_scale<G: Game>(paths: &[PathBuf], chunk: usize) -> Result<f32, String> {
    let mut pairs = None;
    let result = for_each_chunk::<G>(paths, chunk, &mut |positions| {
        pairs = Some(
            positions
                .iter()
                .map(|s| (s.score, s.result))
                .collect::<Vec<_>>(),
        );
        Err(String::new()) // one chunk is enough
    });
    match (result, pairs) {
        (_, Some(pairs)) if !pairs.is_empty() => Ok(fit_scale(&pairs)),
        (Err(error), None) if !error.is_empty() => Err(error),
        _ => Err("the data holds no positions to learn from".into()),
    }
}

/// Mean loss of the network on a set of files, and the count.
fn file_loss<G: Tunable + NetworkInputs>(
    paths: &[PathBuf],
    chunk: usize,
    targets: Targets,
    score: &dyn Fn(&Examples) -> (f64, usize),
) -> Result<(f64, usize), String> {
    let (mut total, mut count) = (0.0, 0);
    for_each_chunk::<G>(paths, chunk, &mut |positions| {
        let (sum, n) = score(&stream::examples(&positions, targets));
        total += sum;
        count += n;
        Ok(())
    })?;
    Ok((total / count.max(1) as f64, count))
}

/// The hand-set evaluation's loss on a set of files: the figure a network has to beat.
fn hand_set_loss<G: Tunable + NetworkInputs>(
    paths: &[PathBuf],
    chunk: usize,
    targets: Targets,
) -> Result<f64, String> {
    let (mut total, mut count) = (0.0, 0usize);
    for_each_chunk::<G>(paths, chunk, &mut |positions: Vec<Scored<G>>| {
        total += positions
            .par_iter()
            .map(|scored| {
                let goal = stream::target(scored, targets.lambda, targets.scale);
                let eval = hand_set(&scored.position) as f32;
                f64::from((sigmoid(eval / targets.scale) - goal).powi(2))
            })
            .sum::<f64>();
        count += positions.len();
        Ok(())
    })?;
    Ok(total / count.max(1) as f64)
}

/// The step size of pass `epoch` of `epochs`: a cosine from `rate` down to `final_rate`.
fn scheduled_rate(rate: f32, final_rate: f32, epoch: usize, epochs: usize) -> f32 {
    let progress = epoch as f32 / (epochs.max(2) - 1) as f32;
    final_rate
        + (rate - final_rate) * 0.5 * (1.0 + (std::f32::consts::PI * progress.min(1.0)).cos())
}

/// The checkpoint `--resume` names, if any, checked to be of this run's variant and shape.
fn resume<G: Tunable + NetworkInputs>(
    options: &TrainOptions,
) -> Result<Option<Checkpoint>, String> {
    let Some(path) = &options.resume else {
        return Ok(None);
    };
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let checkpoint =
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let same = checkpoint.variant == G::VARIANT
        && checkpoint.weights.hidden == options.hidden
        && checkpoint.weights.buckets() == options.output_buckets
        && checkpoint.weights.inputs() == G::INPUTS
        && checkpoint.activation == options.activation
        && checkpoint.residual == options.residual;
    if !same {
        return Err(format!(
            "{} is a {} checkpoint of {} units, {} output buckets ({}, correction {}): not this \
             run's",
            path.display(),
            checkpoint.variant,
            checkpoint.weights.hidden,
            checkpoint.weights.buckets(),
            checkpoint.activation,
            checkpoint.residual
        ));
    }
    Ok(Some(checkpoint))
}

/// The weights of the network file `--init` names, if any, checked to be of this run's game
/// and shape.
fn initial_weights<G: Tunable + NetworkInputs>(
    options: &TrainOptions,
) -> Result<Option<Weights>, String> {
    let Some(path) = &options.init else {
        return Ok(None);
    };
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let network = Network::from_bytes(&bytes, G::INPUTS)
        .map_err(|e| format!("{}: not a {} network: {e}", path.display(), G::VARIANT))?;
    let buckets_fit = network.buckets() == options.output_buckets || network.buckets() == 1;
    if network.hidden() > options.hidden
        || network.activation() != options.activation
        || network.is_residual() != options.residual
        || !buckets_fit
    {
        return Err(format!(
            "{} is a network of {} units, {} output buckets ({}, correction {}): not this run's",
            path.display(),
            network.hidden(),
            network.buckets(),
            network.activation(),
            network.is_residual()
        ));
    }
    // The new units' weights when widening, from a stream apart from the shuffles' ("WIDE").
    let mut rng = Rng::new(options.seed ^ 0x5749_4445);
    Ok(Some(
        Weights::from_network(&network)
            .with_buckets(options.output_buckets)
            .widened(options.hidden, &mut rng),
    ))
}

/// One pass over the data, in an order of its own (files shuffled, positions shuffled within
/// each chunk): Adam's steps and the pass's summed loss and count.
fn train_pass<G: Tunable + NetworkInputs>(
    options: &TrainOptions,
    adam: &mut Adam,
    targets: Targets,
    epoch: usize,
    rate: f32,
) -> Result<(f64, usize), String> {
    let batch = options.batch.max(1);
    let threads = rayon::current_num_threads().max(1);
    let mut shuffle = Rng::new(crate::tune::datagen::mix(options.seed, epoch as u64 + 1));
    let mut paths = options.data.clone();
    for i in (1..paths.len()).rev() {
        paths.swap(i, shuffle.index(i + 1));
    }
    let (mut pass_loss, mut seen) = (0f64, 0usize);
    for_each_chunk::<G>(&paths, options.chunk, &mut |positions| {
        let data = stream::examples(&positions, targets);
        drop(positions);
        let mut order: Vec<u32> = (0..data.examples.len() as u32).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, shuffle.index(i + 1));
        }
        for part in order.chunks(batch) {
            let (mut grad, batch_loss) = batch_gradient(
                &adam.weights,
                options.activation,
                &data,
                part,
                targets.scale,
                threads,
            );
            pass_loss += batch_loss;
            seen += part.len();
            adam.step(&mut grad, part.len(), rate, G::weight_limit());
        }
        Ok(())
    })?;
    Ok((pass_loss, seen))
}

/// Writes what a run needs to go on after `epochs_done` passes.
fn save_checkpoint<G: Tunable>(
    path: &std::path::Path,
    options: &TrainOptions,
    adam: &Adam,
    epochs_done: usize,
    scale: f32,
) -> Result<(), String> {
    let checkpoint = Checkpoint {
        variant: G::VARIANT.into(),
        residual: options.residual,
        activation: options.activation,
        epochs_done: epochs_done as u32,
        steps: adam.steps,
        scale,
        weights: adam.weights.clone(),
        first_moment: adam.first_moment.clone(),
        second_moment: adam.second_moment.clone(),
    };
    std::fs::write(path, checkpoint.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Trains `G`'s network; `report` hears a line after each pass and at the start and end.
pub fn run<G: Tunable + NetworkInputs>(
    options: &TrainOptions,
    report: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let timer = Instant::now();
    if !HIDDEN_RANGE.contains(&options.hidden) || !options.hidden.is_multiple_of(16) {
        return Err(format!(
            "--hidden {}: a multiple of 16 from 16 to 1024",
            options.hidden
        ));
    }
    if !BUCKET_RANGE.contains(&options.output_buckets)
        || (options.output_buckets > 1 && G::VARIANT != Chess::VARIANT)
    {
        return Err(format!(
            "--output-buckets {}: 1 to 8, and more than 1 only for chess (whose inputs count \
             the pieces)",
            options.output_buckets
        ));
    }
    let resumed = resume::<G>(options)?;
    let scale = match (&resumed, options.scale) {
        (Some(checkpoint), _) => checkpoint.scale,
        (None, Some(scale)) => scale,
        (None, None) => first_chunk_scale::<G>(&options.data, options.chunk)?,
    };
    let targets = Targets {
        lambda: options.lambda,
        scale,
        residual: options.residual,
        mirror: options.mirror,
    };
    let held_targets = Targets {
        mirror: false,
        ..targets
    };
    let buckets = match options.output_buckets {
        1 => String::new(),
        n => format!(", {n} output buckets"),
    };
    report(&format!(
        "{} network {}x{} ({}{buckets}{}), scale {scale:.1}",
        G::VARIANT,
        G::INPUTS,
        options.hidden,
        options.activation,
        if options.residual {
            ", a correction"
        } else {
            ""
        }
    ));
    if !options.held_out.is_empty() {
        report(&format!(
            "the hand-set evaluation's loss on the held-out positions: {:.6}",
            hand_set_loss::<G>(&options.held_out, options.chunk, held_targets)?
        ));
    }
    let (mut adam, start_epoch) = match resumed {
        Some(c) => {
            let adam = Adam {
                weights: c.weights,
                first_moment: c.first_moment,
                second_moment: c.second_moment,
                steps: c.steps,
            };
            (adam, c.epochs_done as usize)
        }
        None => {
            let mut rng = Rng::new(options.seed);
            let weights = match initial_weights::<G>(options)? {
                Some(weights) => {
                    if !options.held_out.is_empty() {
                        let (held_loss, _) = file_loss::<G>(
                            &options.held_out,
                            options.chunk,
                            held_targets,
                            &|data| loss(&weights, options.activation, data, scale),
                        )?;
                        report(&format!(
                            "the starting network's loss on the held-out positions: {held_loss:.6}"
                        ));
                    }
                    weights
                }
                None => {
                    Weights::random(G::INPUTS, options.hidden, options.output_buckets, &mut rng)
                }
            };
            let adam = Adam {
                weights,
                first_moment: Weights::zero(G::INPUTS, options.hidden, options.output_buckets),
                second_moment: Weights::zero(G::INPUTS, options.hidden, options.output_buckets),
                steps: 0,
            };
            (adam, 0)
        }
    };
    let final_rate = options.final_rate.unwrap_or(options.rate / 10.0);
    let last_epoch = options.stop_after.unwrap_or(usize::MAX).min(options.epochs);
    for epoch in start_epoch..last_epoch {
        let pass_timer = Instant::now();
        let rate = scheduled_rate(options.rate, final_rate, epoch, options.epochs);
        let (pass_loss, seen) = train_pass::<G>(options, &mut adam, targets, epoch, rate)?;
        if seen == 0 {
            return Err("the data holds no positions to learn from".into());
        }
        let seconds = pass_timer.elapsed().as_secs_f64();
        let held = if options.held_out.is_empty() {
            String::new()
        } else {
            let (held_loss, _) =
                file_loss::<G>(&options.held_out, options.chunk, held_targets, &|data| {
                    loss(&adam.weights, options.activation, data, scale)
                })?;
            format!(", held out {held_loss:.6}")
        };
        report(&format!(
            "epoch {:>3}: rate {rate:.6}, loss {:.6}{held}, {seen} positions in {seconds:.1} s \
             ({:.0} positions/s)",
            epoch + 1,
            pass_loss / seen as f64,
            seen as f64 / seconds.max(1e-9)
        ));
        if let Some(path) = &options.checkpoint {
            save_checkpoint::<G>(path, options, &adam, epoch + 1, scale)?;
        }
    }
    let network = adam.weights.quantise(options.residual, options.activation);
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| embedded_path(G::VARIANT));
    std::fs::write(&out, network.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    report(&format!(
        "wrote {} in {:.1} s (output scale: {} centipawns a unit)",
        out.display(),
        timer.elapsed().as_secs_f64(),
        EVAL_SCALE
    ));
    Ok(())
}

#[cfg(test)]
mod tests;
