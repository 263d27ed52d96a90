//! The positions to learn from in data files of either kind, as [`Sample`]s: what `roger tune`
//! and `roger train` read.

use super::format::{self, RawGame};
use super::replay::samples;
use crate::tune::Sample;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Reads the positions to learn from of every file (game data of `variant`, or text lines).
pub fn read_samples(paths: &[PathBuf], variant: &str) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        if format::is_game_data_file(path)? {
            samples.extend(game_data_samples(path, variant)?);
        } else {
            samples.extend(text_samples(path)?);
        }
    }
    Ok(samples)
}

fn text_samples(path: &Path) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut samples = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(sample) = Sample::parse(line) {
            samples.push(sample.map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?);
        }
    }
    Ok(samples)
}

fn game_data_samples(path: &Path, variant: &str) -> Result<Vec<Sample>, String> {
    let mut reader = format::open(path)?;
    if reader.variant() != variant {
        return Err(format!(
            "{} holds {} games, not {variant}",
            path.display(),
            reader.variant()
        ));
    }
    let games: Vec<RawGame> = reader
        .by_ref()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let per_game: Vec<Result<Vec<Sample>, String>> = games
        .par_iter()
        .map(|game| with_game!(variant, G => samples::<G>(game)))
        .collect();
    let mut samples = Vec::new();
    for (index, game) in per_game.into_iter().enumerate() {
        samples.extend(game.map_err(|e| format!("{}: game {}: {e}", path.display(), index + 1))?);
    }
    Ok(samples)
}
