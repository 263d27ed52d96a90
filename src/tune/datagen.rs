//! `roger datagen`: self-play games at a fixed node budget a move, from the start position
//! with a few random plies, writing whole games (every ply's move and score, docs/data.md) or
//! their quiet positions as text lines (docs/tuning.md).

use super::data::format::{self, GameResult, Ply, RawGame};
use super::data::replay::{encode_move, samples};
use super::Sample;
use crate::common::Rng;
use crate::eval::Evaluate;
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
    /// `binary`: whole games, about 4 bytes a position (docs/data.md); `text`: a line
    /// `FEN | score | result` for each quiet position (docs/tuning.md).
    #[arg(long, value_enum, default_value_t = DataFormat::Binary)]
    pub format: DataFormat,
    /// Play only the I-th of N equal shares of the games (game `g` belongs to share
    /// `g % N + 1`), so that machines with the same seed make disjoint parts of one set.
    #[arg(long, value_parser = crate::arena::cli::parse_shard)]
    pub shard: Option<(usize, usize)>,
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

#[cfg(test)]
impl DatagenOptions {
    /// A run of two short, quick games (200 nodes a move, 120 plies at most) written as text,
    /// for tests to adjust.
    pub(crate) fn tiny(variant: &str, out: PathBuf) -> DatagenOptions {
        DatagenOptions {
            variant: variant.into(),
            games: 2,
            nodes: 200,
            random_plies: 8,
            seed: 5,
            out,
            format: DataFormat::Text,
            shard: None,
            threads: 1,
            max_plies: 120,
            win_score: 2000,
            win_plies: 4,
            opening_limit: 300,
            hash: 1,
        }
    }
}

/// How datagen writes its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DataFormat {
    Binary,
    Text,
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DatagenSummary {
    pub games: usize,
    /// Positions to learn from (quiet, scored, no mate: docs/data.md).
    pub positions: usize,
    /// Positions searched and stored (every ply of every game).
    pub plies: usize,
    /// Bytes written.
    pub bytes: u64,
    /// White wins, draws, Black wins.
    pub results: [usize; 3],
    pub seconds: f64,
}

pub fn command(options: &DatagenOptions) -> ExitCode {
    match run(options, &mut |line| eprintln!("{line}")) {
        Ok(summary) => {
            println!(
                "datagen {}: {} games (+{} ={} -{}), {} positions ({} plies) in {:.1} s, \
                 {:.0} positions/s, {:.1} bytes a position, written to {}",
                options.variant,
                summary.games,
                summary.results[0],
                summary.results[1],
                summary.results[2],
                summary.positions,
                summary.plies,
                summary.seconds,
                summary.positions as f64 / summary.seconds.max(1e-9),
                summary.bytes as f64 / summary.positions.max(1) as f64,
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
    let mut bytes = Vec::new();
    if options.format == DataFormat::Binary {
        // At once, so that a file of no game yet already says what it is.
        format::write_header(&mut bytes, G::VARIANT).map_err(|e| e.to_string())?;
        out.write_all(&bytes).map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    // Each game searches on its own worker's thread (`on_this_thread`), whose stack must hold
    // the deepest search.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .stack_size(search::SEARCH_STACK_BYTES)
        .build()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut summary = DatagenSummary {
        bytes: bytes.len() as u64,
        ..DatagenSummary::default()
    };
    bytes.clear();
    let batch = options.threads.max(1) * 4;
    let (share, shares) = options.shard.unwrap_or((1, 1));
    let indices: Vec<u64> = (0..options.games as u64)
        .filter(|&game| game as usize % shares == share - 1)
        .collect();
    for chunk in indices.chunks(batch) {
        // Games are independent (their own seed stream, table and searches), so the file is
        // the same whatever the thread count: each batch is written in game order.
        let games: Vec<Option<RawGame>> = pool.install(|| {
            chunk
                .par_iter()
                .map_init(
                    || GameTables::new(options.hash),
                    |tables, &i| play_game::<G>(options, i, tables),
                )
                .collect()
        });
        for game in games.into_iter().flatten() {
            let samples: Vec<Sample> = samples::<G>(&game)?;
            match options.format {
                DataFormat::Binary => bytes.extend(format::game_bytes(&game)),
                DataFormat::Text => {
                    for sample in &samples {
                        writeln!(bytes, "{}", sample.line()).map_err(|e| e.to_string())?;
                    }
                }
            }
            summary.games += 1;
            summary.positions += samples.len();
            summary.plies += game.plies.len();
            summary.results[2 - game.result as usize] += 1;
        }
        // Whole games only, flushed a batch at a time: a run stopped at any moment leaves a
        // file that ends at most inside its last game.
        out.write_all(&bytes).map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
        summary.bytes += bytes.len() as u64;
        bytes.clear();
        let seconds = start.elapsed().as_secs_f64();
        progress(&format!(
            "{} games, {} positions, {:.1} s, {:.0} positions/s",
            summary.games,
            summary.positions,
            seconds,
            summary.positions as f64 / seconds.max(1e-9)
        ));
    }
    out.write_all(&bytes).map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    summary.bytes += bytes.len() as u64;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// A well-mixed 64-bit value from two (splitmix64's finaliser).
pub fn mix(a: u64, b: u64) -> u64 {
    crate::common::rng::mix(
        a ^ b
            .wrapping_add(0x9E37_79B9_7F4A_7C15)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9),
    )
}

/// A search of the record's position within `nodes`: the best move and the score in
/// centipawns from White's view (mates as ±`search::MATE` less the distance).
fn search_position<G: Game + Evaluate>(
    record: &GameRecord<G>,
    nodes: u64,
    tt: &TranspositionTable,
    memory: &search::SearchMemory,
) -> Option<(G::Move, i32)> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let options = SearchOptions {
        threads: 1,
        multipv: 1,
        on_this_thread: true,
        ..SearchOptions::default()
    };
    let stop = AtomicBool::new(false);
    let mut score = Score::Cp(0);
    let outcome = search::search(record, &limits, options, tt, memory, &stop, &mut |info| {
        score = info.score
    });
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
    memory: &search::SearchMemory,
) -> Option<GameRecord<G>> {
    'attempt: for _ in 0..200 {
        let mut record = GameRecord::new(G::startpos());
        for _ in 0..options.random_plies {
            let mut moves = MoveList::new();
            record.position().generate_moves(&mut moves);
            if moves.is_empty() {
                continue 'attempt;
            }
            record.play(moves[rng.index(moves.len())]);
            if record.outcome() != Outcome::Ongoing {
                continue 'attempt;
            }
        }
        let quick = (options.nodes / 4).max(200);
        match search_position(&record, quick, tt, memory) {
            Some((_, score)) if score.abs() <= options.opening_limit => return Some(record),
            _ => continue,
        }
    }
    None
}

/// A game's transposition table and search memory. A worker keeps one and clears it for each
/// game, so that a game starts as on fresh tables without asking the system for fresh pages
/// (the kernel zeroing new pages was 5% of a short chess run's profile).
pub struct GameTables {
    tt: TranspositionTable,
    memory: search::SearchMemory,
}

impl GameTables {
    pub fn new(hash_megabytes: usize) -> GameTables {
        GameTables {
            tt: TranspositionTable::new(hash_megabytes.max(1)),
            memory: search::SearchMemory::default(),
        }
    }

    fn clear(&mut self) {
        self.tt.clear();
        self.memory.reset();
    }
}

/// Plays game `index` on `tables` (cleared first): every ply's move and score from the end of
/// its opening on, and the result; `None` when no playable opening was found.
pub fn play_game<G: Game + Evaluate>(
    options: &DatagenOptions,
    index: u64,
    tables: &mut GameTables,
) -> Option<RawGame> {
    let mut rng = Rng::new(mix(options.seed, index));
    tables.clear();
    // The histories and corrections are kept from move to move, as the engine keeps them
    // through a game: the searches order their moves as in play, and the tables (megabytes)
    // are not zeroed again for every position.
    let (tt, memory) = (&tables.tt, &tables.memory);
    let mut record = opening::<G>(options, &mut rng, tt, memory)?;
    let start = record.position().fen();
    let mut plies = Vec::new();
    let mut streak = 0i32; // plies in a row beyond the win score, signed by the side ahead
    let result = loop {
        match record.outcome() {
            Outcome::Win(Color::White, _) => break GameResult::WhiteWon,
            Outcome::Win(Color::Black, _) => break GameResult::BlackWon,
            Outcome::Draw(_) => break GameResult::Draw,
            Outcome::Ongoing => {}
        }
        if record.moves().len() >= options.max_plies {
            break GameResult::Draw;
        }
        let Some((mv, score)) = search_position(&record, options.nodes, tt, memory) else {
            break GameResult::Draw;
        };
        streak = if score >= options.win_score {
            streak.max(0) + 1
        } else if score <= -options.win_score {
            streak.min(0) - 1
        } else {
            0
        };
        if streak.unsigned_abs() as usize >= options.win_plies {
            break if streak > 0 {
                GameResult::WhiteWon
            } else {
                GameResult::BlackWon
            };
        }
        let code = encode_move(record.position(), mv).expect("the search plays legal moves");
        plies.push(Ply {
            code,
            score: Ply::stored_score(score),
        });
        record.play(mv);
    };
    Some(RawGame {
        start,
        result,
        plies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::data::format::GameReader;
    use crate::tune::data::replay::replay;

    fn options(variant: &str, out: PathBuf) -> DatagenOptions {
        DatagenOptions::tiny(variant, out)
    }

    fn temp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("roger-datagen-test-{}-{name}", std::process::id()))
    }

    fn read_games(path: &std::path::Path) -> Vec<RawGame> {
        let bytes = std::fs::read(path).unwrap();
        GameReader::new(&bytes[..])
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn a_tiny_run_writes_parseable_lines_with_results_and_repeats_for_a_seed() {
        for variant in VARIANTS {
            let path = temp_path(&format!("{variant}.txt"));
            let summary = run(&options(variant, path.clone()), &mut |_| {}).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert_eq!(summary.games, 2, "{variant}");
            assert_eq!(summary.positions, text.lines().count(), "{variant}");
            assert!(summary.positions > 10, "{variant}: {summary:?}");
            assert_eq!(summary.bytes, text.len() as u64);
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

    /// Tables that played a game and were cleared play the next game as fresh ones do: a
    /// worker reuses its tables, and the file must not depend on which games it played before.
    #[test]
    fn a_game_on_reused_tables_is_the_game_on_fresh_ones() {
        let options = options("chess", temp_path("unused"));
        let mut reused = GameTables::new(options.hash);
        play_game::<Chess>(&options, 0, &mut reused).unwrap();
        let again = play_game::<Chess>(&options, 1, &mut reused).unwrap();
        let fresh = play_game::<Chess>(&options, 1, &mut GameTables::new(options.hash)).unwrap();
        assert_eq!(again, fresh);
    }

    /// The binary file holds the same games as the text one: its quiet positions are the text's
    /// lines, and it is several times smaller.
    fn binary_holds_the_text_games<G: Game + Evaluate>() {
        let text_path = temp_path(&format!("{}-same.txt", G::VARIANT));
        let binary_path = temp_path(&format!("{}-same.rgd", G::VARIANT));
        let text_options = options(G::VARIANT, text_path.clone());
        let binary_options = DatagenOptions {
            out: binary_path.clone(),
            format: DataFormat::Binary,
            ..text_options.clone()
        };
        let text_summary = run(&text_options, &mut |_| {}).unwrap();
        let binary_summary = run(&binary_options, &mut |_| {}).unwrap();
        assert_eq!(text_summary.positions, binary_summary.positions);
        let mut lines = Vec::new();
        let games = read_games(&binary_path);
        assert_eq!(games.len(), 2);
        for game in &games {
            for stored in replay::<G>(game).unwrap() {
                if stored.is_sample() {
                    let sample = Sample {
                        fen: stored.position.fen(),
                        score: stored.score as i32,
                        result: game.result.white_score(),
                    };
                    lines.push(sample.line());
                }
            }
        }
        assert_eq!(
            lines.join("\n") + "\n",
            std::fs::read_to_string(&text_path).unwrap()
        );
        let binary_bytes = std::fs::metadata(&binary_path).unwrap().len();
        assert_eq!(binary_summary.bytes, binary_bytes);
        assert!(
            binary_bytes as usize * 5 < text_summary.bytes as usize,
            "{binary_bytes} bytes against {} as text",
            text_summary.bytes
        );
        let _ = std::fs::remove_file(&text_path);
        let _ = std::fs::remove_file(&binary_path);
    }

    #[test]
    fn chess_binary_files_hold_the_text_files_games() {
        binary_holds_the_text_games::<Chess>();
    }

    #[test]
    fn nichess_binary_files_hold_the_text_files_games() {
        binary_holds_the_text_games::<Nichess>();
    }

    #[test]
    fn shards_with_one_seed_make_the_whole_run_between_them() {
        let whole_path = temp_path("whole.rgd");
        let whole = DatagenOptions {
            games: 5,
            format: DataFormat::Binary,
            nodes: 100,
            max_plies: 40,
            ..options("chess", whole_path.clone())
        };
        run(&whole, &mut |_| {}).unwrap();
        let mut all = read_games(&whole_path);
        let mut parts = Vec::new();
        for share in 1..=2 {
            let path = temp_path(&format!("share-{share}.rgd"));
            let options = DatagenOptions {
                out: path.clone(),
                shard: Some((share, 2)),
                ..whole.clone()
            };
            let summary = run(&options, &mut |_| {}).unwrap();
            assert_eq!(summary.games, [3, 2][share - 1]);
            parts.extend(read_games(&path));
            let _ = std::fs::remove_file(&path);
        }
        assert_eq!(all.len(), 5);
        all.sort_by(|a, b| a.start.cmp(&b.start));
        parts.sort_by(|a, b| a.start.cmp(&b.start));
        assert_eq!(all, parts);
        let _ = std::fs::remove_file(&whole_path);
    }
}
