//! Training data read a chunk at a time, so that the files may be larger than memory: the
//! positions to learn from of game-data files (played back) and text files, in file order,
//! turned into the trainer's examples.

use super::model::{sigmoid, Examples};
use crate::eval::network::{NetworkInputs, EVAL_SCALE};
use crate::rules::{Color, Game};
use crate::tune::data::format::{self, RawGame};
use crate::tune::data::replay::sample_positions;
use crate::tune::{Sample, Tunable};
use rayon::prelude::*;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// A position to learn from: the position, its score (centipawns, White's view) and the game's
/// result (White's view).
pub struct Scored<G> {
    pub position: G,
    pub score: i32,
    pub result: f32,
}

/// Calls `each` with the positions of `paths`, in order, about `chunk` at a time.
pub fn for_each_chunk<G: Game>(
    paths: &[PathBuf],
    chunk: usize,
    each: &mut dyn FnMut(Vec<Scored<G>>) -> Result<(), String>,
) -> Result<(), String> {
    for path in paths {
        if format::is_game_data_file(path)? {
            game_data_chunks::<G>(path, chunk, each)?;
        } else {
            text_chunks::<G>(path, chunk, each)?;
        }
    }
    Ok(())
}

fn game_data_chunks<G: Game>(
    path: &Path,
    chunk: usize,
    each: &mut dyn FnMut(Vec<Scored<G>>) -> Result<(), String>,
) -> Result<(), String> {
    let mut reader = format::open(path)?;
    if reader.variant() != G::VARIANT {
        return Err(format!(
            "{} holds {} games, not {}",
            path.display(),
            reader.variant(),
            G::VARIANT
        ));
    }
    let mut games: Vec<RawGame> = Vec::new();
    let mut plies = 0;
    loop {
        let game = reader
            .next_game()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let done = game.is_none();
        if let Some(game) = game {
            plies += game.plies.len();
            games.push(game);
        }
        if (done || plies >= chunk) && !games.is_empty() {
            let played: Result<Vec<Vec<Scored<G>>>, String> = games
                .par_iter()
                .map(|game| {
                    Ok(sample_positions::<G>(game)?
                        .into_iter()
                        .map(|stored| Scored {
                            position: stored.position,
                            score: stored.score as i32,
                            result: game.result.white_score(),
                        })
                        .collect())
                })
                .collect();
            let played = played.map_err(|e| format!("{}: {e}", path.display()))?;
            each(played.into_iter().flatten().collect())?;
            games.clear();
            plies = 0;
        }
        if done {
            return Ok(());
        }
    }
}

fn text_chunks<G: Game>(
    path: &Path,
    chunk: usize,
    each: &mut dyn FnMut(Vec<Scored<G>>) -> Result<(), String>,
) -> Result<(), String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = std::io::BufReader::new(file).lines().enumerate();
    loop {
        let mut samples: Vec<(usize, Sample)> = Vec::new();
        for (n, line) in lines.by_ref() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some(sample) = Sample::parse(&line) {
                let sample = sample.map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
                samples.push((n, sample));
                if samples.len() >= chunk {
                    break;
                }
            }
        }
        if samples.is_empty() {
            return Ok(());
        }
        let parsed: Result<Vec<Scored<G>>, String> = samples
            .par_iter()
            .map(|(n, sample)| {
                Ok(Scored {
                    position: G::from_fen(&sample.fen)
                        .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?,
                    score: sample.score,
                    result: sample.result,
                })
            })
            .collect();
        each(parsed?)?;
    }
}

/// How the targets are made from the positions.
#[derive(Clone, Copy, Debug)]
pub struct Targets {
    /// The result's share of the target; the rest is the search score.
    pub lambda: f32,
    /// `σ(score / scale)` turns a score into an expected result.
    pub scale: f32,
    /// The network corrects the hand-set evaluation.
    pub residual: bool,
    /// Each position also comes mirrored left to right.
    pub mirror: bool,
}

/// The hand-set evaluation of the position (side to move's view, centipawns).
pub fn hand_set<G: Tunable>(position: &G) -> i32 {
    position.evaluate_traced(&G::current(), &mut ())
}

/// The target, from the side to move's view.
pub fn target<G: Game>(scored: &Scored<G>, lambda: f32, scale: f32) -> f32 {
    let white = lambda * scored.result + (1.0 - lambda) * sigmoid(scored.score as f32 / scale);
    match scored.position.side_to_move() {
        Color::White => white,
        Color::Black => 1.0 - white,
    }
}

/// The trainer's examples of a chunk.
pub fn examples<G: Tunable + NetworkInputs>(positions: &[Scored<G>], targets: Targets) -> Examples {
    let parts: Vec<Examples> = positions
        .par_chunks(4096)
        .map(|part| {
            let mut examples = Examples::default();
            let (mut white, mut black) = (Vec::new(), Vec::new());
            for scored in part {
                white.clear();
                black.clear();
                scored.position.active_inputs(Color::White, &mut white);
                scored.position.active_inputs(Color::Black, &mut black);
                let base = if targets.residual {
                    hand_set(&scored.position) as f32 / EVAL_SCALE as f32
                } else {
                    0.0
                };
                let white_to_move = scored.position.side_to_move() == Color::White;
                let goal = target(scored, targets.lambda, targets.scale);
                examples.push(&white, &black, white_to_move, goal, base);
                if targets.mirror {
                    let flip = |list: &[u16]| -> Vec<u16> {
                        list.iter()
                            .map(|&i| G::mirrored_input(i as usize) as u16)
                            .collect()
                    };
                    examples.push(&flip(&white), &flip(&black), white_to_move, goal, base);
                }
            }
            examples
        })
        .collect();
    let mut all = Examples::default();
    for part in parts {
        let offset = all.inputs.len() as u32;
        all.inputs.extend(part.inputs);
        all.examples
            .extend(part.examples.into_iter().map(|mut example| {
                example.first += offset;
                example
            }));
    }
    all
}
