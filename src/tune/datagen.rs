//! `roger datagen`: self-play games at a fixed node budget a move, from the start position
//! with a few random plies, writing quiet positions with their search score and the game's
//! result (see docs/tuning.md for the file format).

use super::Sample;
use crate::eval::Evaluate;
use crate::players::Rng;
use crate::rules::chess::Chess;
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use crate::rules::{Color, Game, GameRecord, MoveList, Outcome};
use crate::search::{self, Limits, Score, SearchOptions, TranspositionTable};
use rayon::prelude::*;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The turn games datagen and tune know.
pub const VARIANTS: [&str; 3] = [Chess::VARIANT, Millennium::VARIANT, Nichess::VARIANT];

/// `roger datagen`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct DatagenOptions {
    /// The game to play: chess, millennium or nichess.
    #[arg(long, value_parser = VARIANTS)]
    pub variant: String,
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random legal plies played from the start position (not recorded).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Seed of the random openings; game `i` uses its own stream of it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The data file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Games played at once (each searches on one thread).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A game still going after this many plies (openings included) is a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// A side whose score stays beyond this (centipawns) ...
    #[arg(long, default_value_t = 2000)]
    pub win_score: i32,
    /// ... for this many plies in a row wins by adjudication.
    #[arg(long, default_value_t = 4)]
    pub win_plies: usize,
    /// Openings a quick search scores beyond this (centipawns) are drawn again.
    #[arg(long, default_value_t = 300)]
    pub opening_limit: i32,
    /// Hash (MiB) of each game's transposition table.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DatagenSummary {
    pub games: usize,
    pub positions: usize,
    /// White wins, draws, Black wins.
    pub results: [usize; 3],
    pub seconds: f64,
}

pub fn command(options: &DatagenOptions) -> ExitCode {
    match run(options, &mut |line| eprintln!("{line}")) {
        Ok(summary) => {
            println!(
                "datagen {}: {} games (+{} ={} -{}), {} positions in {:.1} s, {:.0} positions/s, \
                 written to {}",
                options.variant,
                summary.games,
                summary.results[0],
                summary.results[1],
                summary.results[2],
                summary.positions,
                summary.seconds,
                summary.positions as f64 / summary.seconds.max(1e-9),
                options.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("roger datagen: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Plays the games and writes the file; `progress` hears a line now and then.
pub fn run(
    options: &DatagenOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<DatagenSummary, String> {
    match options.variant.as_str() {
        Chess::VARIANT => run_game::<Chess>(options, progress),
        Millennium::VARIANT => run_game::<Millennium>(options, progress),
        Nichess::VARIANT => run_game::<Nichess>(options, progress),
        other => Err(format!("datagen does not play '{other}'")),
    }
}

fn run_game<G: Game + Evaluate>(
    options: &DatagenOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<DatagenSummary, String> {
    let file = std::fs::File::create(&options.out)
        .map_err(|e| format!("cannot write {}: {e}", options.out.display()))?;
    let mut out = BufWriter::new(file);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut summary = DatagenSummary::default();
    let batch = options.threads.max(1) * 4;
    let indices: Vec<u64> = (0..options.games as u64).collect();
    for chunk in indices.chunks(batch) {
        // Games are independent (their own seed stream, table and searches), so the file is
        // the same whatever the thread count: each batch is written in game order.
        let games: Vec<Option<(Vec<Sample>, f32)>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&i| play_game::<G>(options, i))
                .collect()
        });
        for (samples, result) in games.into_iter().flatten() {
            for sample in &samples {
                writeln!(out, "{}", sample.line()).map_err(|e| e.to_string())?;
            }
            summary.games += 1;
            summary.positions += samples.len();
            let slot = if result == 1.0 {
                0
            } else if result == 0.0 {
                2
            } else {
                1
            };
            summary.results[slot] += 1;
        }
        let seconds = start.elapsed().as_secs_f64();
        progress(&format!(
            "{} games, {} positions, {:.1} s, {:.0} positions/s",
            summary.games,
            summary.positions,
            seconds,
            summary.positions as f64 / seconds.max(1e-9)
        ));
    }
    out.flush().map_err(|e| e.to_string())?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// A well-mixed 64-bit value from two (splitmix64's finaliser).
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b
        .wrapping_add(0x9E37_79B9_7F4A_7C15)
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A search of the record's position within `nodes`: the best move and the score in
/// centipawns from White's view (mates as ±`search::MATE` less the distance).
fn search_position<G: Game + Evaluate>(
    record: &GameRecord<G>,
    nodes: u64,
    tt: &TranspositionTable,
) -> Option<(G::Move, i32)> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let options = SearchOptions {
        threads: 1,
        multipv: 1,
        ..SearchOptions::default()
    };
    let stop = AtomicBool::new(false);
    let mut score = Score::Cp(0);
    let outcome = search::search(
        record,
        &limits,
        options,
        tt,
        &search::SearchMemory::default(),
        &stop,
        &mut |info| score = info.score,
    );
    let cp = match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => search::MATE - 2 * n,
        Score::Mate(n) => -search::MATE - 2 * n,
    };
    let white = match record.position().side_to_move() {
        Color::White => cp,
        Color::Black => -cp,
    };
    outcome.best_move.map(|mv| (mv, white))
}

/// A random opening of `plies` plies that leaves the game going and a quick search within
/// the limit; `None` after many tries.
fn opening<G: Game + Evaluate>(
    options: &DatagenOptions,
    rng: &mut Rng,
    tt: &TranspositionTable,
) -> Option<GameRecord<G>> {
    'attempt: for _ in 0..200 {
        let mut record = GameRecord::new(G::startpos());
        for _ in 0..options.random_plies {
            let mut moves = MoveList::new();
            record.position().generate_moves(&mut moves);
            if moves.is_empty() {
                continue 'attempt;
            }
            record.play(moves[rng.below(moves.len())]);
            if record.outcome() != Outcome::Ongoing {
                continue 'attempt;
            }
        }
        let quick = (options.nodes / 4).max(200);
        match search_position(&record, quick, tt) {
            Some((_, score)) if score.abs() <= options.opening_limit => return Some(record),
            _ => continue,
        }
    }
    None
}

/// Plays game `index`: its recorded positions and its result (White's view), or `None` when
/// no playable opening was found.
pub fn play_game<G: Game + Evaluate>(
    options: &DatagenOptions,
    index: u64,
) -> Option<(Vec<Sample>, f32)> {
    let mut rng = Rng::new(mix(options.seed, index));
    let tt = TranspositionTable::new(options.hash.max(1));
    let mut record = opening::<G>(options, &mut rng, &tt)?;
    let mut positions: Vec<(String, i32)> = Vec::new();
    let mut streak = 0i32; // plies in a row beyond the win score, signed by the side ahead
    let result = loop {
        match record.outcome() {
            Outcome::Win(Color::White, _) => break 1.0,
            Outcome::Win(Color::Black, _) => break 0.0,
            Outcome::Draw(_) => break 0.5,
            Outcome::Ongoing => {}
        }
        if record.moves().len() >= options.max_plies {
            break 0.5;
        }
        let Some((mv, score)) = search_position(&record, options.nodes, &tt) else {
            break 0.5;
        };
        streak = if score >= options.win_score {
            streak.max(0) + 1
        } else if score <= -options.win_score {
            streak.min(0) - 1
        } else {
            0
        };
        if streak.unsigned_abs() as usize >= options.win_plies {
            break if streak > 0 { 1.0 } else { 0.0 };
        }
        let position = record.position();
        let quiet = !position.in_check() && !position.is_tactical(mv);
        if quiet && score.abs() < search::MATE_BOUND {
            positions.push((position.fen(), score));
        }
        record.play(mv);
    };
    let samples = positions
        .into_iter()
        .map(|(fen, score)| Sample { fen, score, result })
        .collect();
    Some((samples, result))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(variant: &str, out: PathBuf) -> DatagenOptions {
        DatagenOptions {
            variant: variant.into(),
            games: 2,
            nodes: 200,
            random_plies: 8,
            seed: 5,
            out,
            threads: 1,
            max_plies: 120,
            win_score: 2000,
            win_plies: 4,
            opening_limit: 300,
            hash: 1,
        }
    }

    #[test]
    fn a_tiny_run_writes_parseable_lines_with_results_and_repeats_for_a_seed() {
        for variant in VARIANTS {
            let dir = std::env::temp_dir();
            let path = dir.join(format!(
                "roger-datagen-test-{}-{variant}.txt",
                std::process::id()
            ));
            let summary = run(&options(variant, path.clone()), &mut |_| {}).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert_eq!(summary.games, 2, "{variant}");
            assert_eq!(summary.positions, text.lines().count(), "{variant}");
            assert!(summary.positions > 10, "{variant}: {summary:?}");
            for line in text.lines() {
                let sample = Sample::parse(line).unwrap().unwrap();
                assert!([0.0, 0.5, 1.0].contains(&sample.result), "{line}");
                let position = match variant {
                    "chess" => Chess::from_fen(&sample.fen).map(|p| p.in_check()),
                    "millennium" => Millennium::from_fen(&sample.fen).map(|p| p.in_check()),
                    _ => Nichess::from_fen(&sample.fen).map(|p| p.in_check()),
                };
                assert_eq!(position, Ok(false), "{line}");
            }
            // The same seed plays the same games.
            if variant == "chess" {
                run(&options(variant, path.clone()), &mut |_| {}).unwrap();
                assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
            }
            let _ = std::fs::remove_file(&path);
        }
    }
}
