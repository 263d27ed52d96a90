//! Self-play data and evaluation tuning (docs/tuning.md): `roger datagen` plays games at a
//! fixed node budget and writes scored positions with the games' results; `roger tune` fits
//! every evaluation weight of a game to such data and rewrites its weights file.

pub mod data;
pub mod datagen;
pub mod fit;
pub mod train;

use crate::eval::weights::{self, ChessWeights, MillenniumWeights, NichessWeights, Trace, Tracer};
use crate::eval::{self as eval, Evaluate};
use crate::rules::chess::Chess;
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use crate::rules::Game;

/// A game whose evaluation reads a weights struct and traces its coefficients.
pub trait Tunable: Game + Evaluate {
    type Weights: Clone + Send + Sync;
    /// The weights struct's name, as written in the weights file.
    const WEIGHTS_TYPE: &'static str;
    /// The weights file, relative to the crate's root.
    const WEIGHTS_FILE: &'static str;
    /// How many numbers the weights hold.
    const LEN: usize;
    /// The fields the evaluation is not linear in, fitted by finite differences.
    const SHAPES: &'static [&'static str];
    /// The weights the evaluation reads now.
    fn current() -> Self::Weights;
    fn to_vec(weights: &Self::Weights) -> Vec<i32>;
    fn from_slice(values: &[i32]) -> Self::Weights;
    /// Each field's name, first index and length.
    fn fields() -> Vec<(&'static str, usize, usize)>;
    fn render_fields(weights: &Self::Weights) -> String;
    /// The evaluation (side to move's view) with these weights, telling `tracer` each
    /// weight's coefficient (White's view).
    fn evaluate_traced<T: Tracer>(&self, weights: &Self::Weights, tracer: &mut T) -> i32;
    /// What `evaluate()` adds to the weights' score: chess's network correction, else 0.
    fn beyond_weights(&self) -> i32 {
        0
    }
}

/// Runs `job` on a pool of `threads` threads (at least one) and turns its result into the
/// command's exit code, printing a failure as `roger <command>: <error>`.
pub fn run_in_pool(
    command: &str,
    threads: usize,
    job: impl FnOnce() -> Result<(), String> + Send,
) -> std::process::ExitCode {
    let result = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|error| error.to_string())
        .and_then(|pool| pool.install(job));
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("roger {command}: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

macro_rules! tunable {
    ($game:ty, $weights:ident, $module:ident, $file:literal, $shapes:expr $(, $extra:item)*) => {
        impl Tunable for $game {
            type Weights = $weights;
            const WEIGHTS_TYPE: &'static str = stringify!($weights);
            const WEIGHTS_FILE: &'static str = $file;
            const LEN: usize = $weights::LEN;
            const SHAPES: &'static [&'static str] = $shapes;
            fn current() -> $weights {
                weights::$module::WEIGHTS
            }
            fn to_vec(weights: &$weights) -> Vec<i32> {
                weights.to_vec()
            }
            fn from_slice(values: &[i32]) -> $weights {
                $weights::from_slice(values)
            }
            fn fields() -> Vec<(&'static str, usize, usize)> {
                $weights::fields()
            }
            fn render_fields(weights: &$weights) -> String {
                weights.render_fields()
            }
            fn evaluate_traced<T: Tracer>(&self, weights: &$weights, tracer: &mut T) -> i32 {
                eval::$module::evaluate_with(self, weights, tracer)
            }
            $($extra)*
        }
    };
}

tunable!(
    Chess,
    ChessWeights,
    chess,
    "src/eval/weights/chess.rs",
    &["phase", "king_zone", "safe_check"],
    fn beyond_weights(&self) -> i32 {
        use crate::eval::network::chess as network;
        // The weights are fitted beside the network the engine plays with by default.
        if network::network().is_residual() {
            network::evaluate(network::network(), self)
        } else {
            0
        }
    }
);
tunable!(
    Millennium,
    MillenniumWeights,
    millennium,
    "src/eval/weights/millennium.rs",
    &["phase", "mobility_norm", "king_zone"],
    fn beyond_weights(&self) -> i32 {
        use crate::eval::network::{embedded, path};
        // The weights are fitted beside the network the engine plays with by default.
        path::evaluate(embedded::millennium(), self)
    }
);
tunable!(
    Nichess,
    NichessWeights,
    nichess,
    "src/eval/weights/nichess.rs",
    &["king_zone", "base"],
    fn beyond_weights(&self) -> i32 {
        use crate::eval::network::{embedded, path};
        // The weights are fitted beside the network the engine plays with by default.
        path::evaluate(embedded::nichess(), self)
    }
);

/// The position's trace with `weights`: each weight's coefficient (White's view, taper
/// applied), the zero ones left out.
pub fn trace<G: Tunable>(
    position: &G,
    weights: &G::Weights,
    scratch: &mut Trace,
) -> Vec<(u32, f32)> {
    scratch.clear();
    position.evaluate_traced(weights, scratch);
    scratch.sparse()
}

/// The evaluation in White's view read off a trace: the dot product with the weights.
pub fn trace_eval(trace: &[(u32, f32)], weights: &[f64]) -> f64 {
    trace
        .iter()
        .map(|&(i, c)| c as f64 * weights[i as usize])
        .sum()
}

/// The weights file's text for `weights`, formatted.
pub fn weights_file_text<G: Tunable>(weights: &G::Weights) -> String {
    weights::format_rust(&weights::weights_source(
        G::VARIANT,
        G::WEIGHTS_TYPE,
        &G::render_fields(weights),
    ))
}

/// One line of a data file: `FEN | score | result`, the score in centipawns and the result
/// (1, 0.5 or 0) both from White's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub fen: String,
    pub score: i32,
    pub result: f32,
}

impl Sample {
    pub fn line(&self) -> String {
        let result = if self.result == 1.0 {
            "1"
        } else if self.result == 0.0 {
            "0"
        } else {
            "0.5"
        };
        format!("{} | {} | {result}", self.fen, self.score)
    }

    /// Reads a line; `None` for blank lines and `#` comments.
    pub fn parse(line: &str) -> Option<Result<Sample, String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut fields = line.rsplitn(3, '|').map(str::trim);
        let (result, score, fen) = (fields.next(), fields.next(), fields.next());
        let (Some(result), Some(score), Some(fen)) = (result, score, fen) else {
            return Some(Err(format!("expected 'FEN | score | result': {line}")));
        };
        let result = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Some(Err(format!("bad result '{other}' in: {line}"))),
        };
        Some(match score.parse::<i32>() {
            Ok(score) => Ok(Sample {
                fen: fen.to_string(),
                score,
                result,
            }),
            Err(_) => Err(format!("bad score '{score}' in: {line}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Rng;
    use crate::rules::MoveList;

    /// Positions of random games from the start, and the given ones.
    fn positions<G: Game>(extra: &[&str], games: u64) -> Vec<G> {
        let mut out: Vec<G> = extra.iter().map(|f| G::from_fen(f).unwrap()).collect();
        for seed in 0..games {
            let mut rng = Rng::new(seed);
            let mut pos = G::startpos();
            for _ in 0..120 {
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.index(moves.len())]);
                out.push(pos.clone());
            }
        }
        out
    }

    /// For every position: the evaluation through the trace equals `evaluate()` (the
    /// rounding of the taper and of scaled terms aside), with today's weights and with random
    /// ones, which catches a coefficient missing for a weight that happens to be zero.
    fn trace_matches_evaluate<G: Tunable>(extra: &[&str], tolerance: f64) {
        let mut scratch = Trace::new(G::LEN);
        let mut rng = Rng::new(99);
        let current = G::to_vec(&G::current());
        // Shapes (phase, zone weights, ...) stay non-negative, as the tuner keeps them.
        let shapes: Vec<usize> = G::fields()
            .into_iter()
            .filter(|(name, _, _)| G::SHAPES.contains(name))
            .flat_map(|(_, at, len)| at..at + len)
            .collect();
        let random: Vec<i32> = current
            .iter()
            .enumerate()
            .map(|(j, &v)| match shapes.contains(&j) {
                true => (v + rng.index(7) as i32 - 3).max(0),
                false => v + rng.index(41) as i32 - 20,
            })
            .collect();
        let positions = positions::<G>(extra, 12);
        assert!(positions.len() > 500);
        for values in [current, random] {
            let weights = G::from_slice(&values);
            let dense: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            for pos in &positions {
                let white = match pos.side_to_move() {
                    crate::rules::Color::White => 1.0,
                    crate::rules::Color::Black => -1.0,
                };
                let direct = pos.evaluate_traced(&weights, &mut ()) as f64 * white;
                let traced = trace_eval(&trace(pos, &weights, &mut scratch), &dense);
                assert!(
                    (direct - traced).abs() <= tolerance,
                    "{}: evaluate {direct} vs trace {traced}",
                    pos.fen()
                );
            }
        }
        // evaluate() is the traced evaluation with the current weights (in chess, plus the
        // network's correction).
        for pos in &positions {
            assert_eq!(
                pos.evaluate(),
                pos.evaluate_traced(&G::current(), &mut ()) + pos.beyond_weights()
            );
        }
    }

    #[test]
    fn chess_trace_equals_evaluate() {
        trace_matches_evaluate::<Chess>(
            &["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"],
            1.0,
        );
    }

    #[test]
    fn millennium_trace_equals_evaluate() {
        trace_matches_evaluate::<Millennium>(
            &[
                "1n2k1k3r4/1P3P1P4p1p/15/15/15/15/p5p1p6/RN2K5K4 w - - 0 1 QNrbq",
                "4k5k4/15/15/15/15/15/15/4R5K4 w - - 0 1",
                "14k/15/15/15/15/3q1r9/15/4K10 w - - 0 1",
            ],
            1.0,
        );
    }

    #[test]
    fn nichess_trace_equals_evaluate() {
        // Two scaled king terms and five threat shares, each rounded once.
        trace_matches_evaluate::<Nichess>(
            &[
                "r3k2r/pp1m1ppp/2n1q3/2PpN3/3Q4/2M2n(30)2/RP3PPP/R3K2R(30) w - - 4 12",
                "k5N1/1P4R1/6R1/3m4/2q1n(20)3/8/p1M5/3QK3 b - - 0 40",
                "r3k3/r7/8/8/8/8/N7/4K3 w - - 0 1",
            ],
            9.0,
        );
    }

    #[test]
    fn sample_lines_round_trip() {
        let sample = Sample {
            fen: "k5N1/1P4R1/6R1/3m4/2q1n(20)3/8/p1M5/3QK3 b - - 0 40".into(),
            score: -35,
            result: 0.5,
        };
        assert_eq!(Sample::parse(&sample.line()).unwrap().unwrap(), sample);
        assert!(Sample::parse("# comment").is_none());
        assert!(Sample::parse("8/8 w - - 0 1 | x | 1").unwrap().is_err());
        assert!(Sample::parse("8/8 w - - 0 1 | 3 | 2").unwrap().is_err());
    }
}
