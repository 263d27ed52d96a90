//! `roger data`: count, merge, de-duplicate, split and convert data files (docs/data.md).

use super::convert::TextConverter;
use super::format::{self, Ply, RawGame};
use super::replay::{replay, sample_positions};
use crate::rules::Game;
use crate::tune::datagen::VARIANTS;
use crate::tune::Sample;
use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Subcommand)]
pub enum DataCommand {
    /// Count the games, plies, positions to learn from and bytes of data files (game data or
    /// text).
    Count {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Join game-data files of one game into one file.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Keep the first occurrence of each position as something to learn from, over all the
    /// files in order; games left with nothing to learn are dropped.
    Dedup {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Split whole games into a training set and a held-out set.
    Split {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The share of the games held out.
        #[arg(long, default_value_t = 0.02)]
        fraction: f64,
        /// Which games are held out depends on the seed and the game's place in the input.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        train: PathBuf,
        #[arg(long)]
        held_out: PathBuf,
    },
    /// Convert text files (`FEN | score | result` lines, as datagen wrote them) to one
    /// game-data file.
    Convert {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The game the lines are positions of.
        #[arg(long, default_value = "chess", value_parser = VARIANTS)]
        variant: String,
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn command(command: &DataCommand) -> ExitCode {
    let result = match command {
        DataCommand::Count { files } => count_command(files),
        DataCommand::Merge { files, out } => {
            transform(files, &[out], |_, game| Ok(Some((0, game))))
        }
        DataCommand::Dedup { files, out } => dedup(files, out),
        DataCommand::Split {
            files,
            fraction,
            seed,
            train,
            held_out,
        } => split(files, *fraction, *seed, train, held_out),
        DataCommand::Convert {
            files,
            variant,
            out,
        } => convert(files, variant, out),
    };
    match result {
        Ok(report) => {
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("roger data: {error}");
            ExitCode::FAILURE
        }
    }
}

/// What a data file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub games: usize,
    pub plies: usize,
    /// Positions to learn from.
    pub positions: usize,
    pub bytes: u64,
    /// White wins, draws, Black wins (game data only).
    pub results: [usize; 3],
    /// Whether the file ends inside a game (datagen stopped while writing it).
    pub truncated: bool,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.plies += other.plies;
        self.positions += other.positions;
        self.bytes += other.bytes;
        for (mine, theirs) in self.results.iter_mut().zip(other.results) {
            *mine += theirs;
        }
    }

    fn text(&self) -> String {
        format!(
            "{} games (+{} ={} -{}), {} plies, {} positions, {} bytes, {:.2} bytes a position{}",
            self.games,
            self.results[0],
            self.results[1],
            self.results[2],
            self.plies,
            self.positions,
            self.bytes,
            self.bytes as f64 / self.positions.max(1) as f64,
            if self.truncated {
                " (cut inside its last game, which is left out)"
            } else {
                ""
            }
        )
    }
}

/// The game a file's games are of, and its counts.
pub fn count_file(path: &Path) -> Result<(String, Counts), String> {
    let bytes = std::fs::metadata(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    if bytes == 0 {
        return Ok(("empty".into(), Counts::default()));
    }
    if !format::is_game_data_file(path)? {
        let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let mut positions = 0;
        for line in std::io::BufReader::new(file).lines() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            positions += Sample::parse(&line).is_some() as usize;
        }
        let counts = Counts {
            positions,
            bytes,
            ..Counts::default()
        };
        return Ok(("text".into(), counts));
    }
    let mut reader = format::open(path)?;
    let variant = reader.variant().to_string();
    let mut counts = Counts {
        bytes,
        ..Counts::default()
    };
    while let Some(game) = reader
        .next_game()
        .map_err(|e| format!("{}: {e}", path.display()))?
    {
        counts.games += 1;
        counts.plies += game.plies.len();
        counts.results[2 - game.result as usize] += 1;
        counts.positions += with_game!(variant.as_str(), G => sample_count::<G>(&game))
            .map_err(|e| format!("{}: game {}: {e}", path.display(), counts.games))?;
    }
    counts.truncated = reader.truncated();
    Ok((variant, counts))
}

fn sample_count<G: Game>(game: &RawGame) -> Result<usize, String> {
    Ok(sample_positions::<G>(game)?.len())
}

fn count_command(files: &[PathBuf]) -> Result<String, String> {
    let mut lines = Vec::new();
    let mut total = Counts::default();
    for path in files {
        let (variant, counts) = count_file(path)?;
        lines.push(format!("{}: {variant}, {}", path.display(), counts.text()));
        total.add(&counts);
    }
    if files.len() > 1 {
        lines.push(format!("total: {}", total.text()));
    }
    Ok(lines.join("\n"))
}

/// A game-data file being written.
struct GameWriter {
    out: BufWriter<std::fs::File>,
    path: PathBuf,
    counts: Counts,
}

impl GameWriter {
    fn create(path: &Path, variant: &str) -> Result<GameWriter, String> {
        let file = std::fs::File::create(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut out = BufWriter::new(file);
        format::write_header(&mut out, variant).map_err(|e| e.to_string())?;
        Ok(GameWriter {
            out,
            path: path.to_path_buf(),
            counts: Counts::default(),
        })
    }

    fn write(&mut self, game: &RawGame, positions: usize) -> Result<(), String> {
        format::write_game(&mut self.out, game)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.counts.games += 1;
        self.counts.plies += game.plies.len();
        self.counts.positions += positions;
        self.counts.results[2 - game.result as usize] += 1;
        Ok(())
    }

    fn finish(mut self) -> Result<String, String> {
        self.out
            .flush()
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.counts.bytes = std::fs::metadata(&self.path)
            .map_err(|e| e.to_string())?
            .len();
        Ok(format!("{}: {}", self.path.display(), self.counts.text()))
    }
}

/// Refuses to write over an input.
fn check_outputs(files: &[PathBuf], outs: &[&PathBuf]) -> Result<(), String> {
    for out in outs {
        let same = |input: &PathBuf| {
            input == *out
                || std::fs::canonicalize(input)
                    .ok()
                    .is_some_and(|input| std::fs::canonicalize(out).is_ok_and(|out| out == input))
        };
        if files.iter().any(same) {
            return Err(format!("{} is an input: write elsewhere", out.display()));
        }
    }
    Ok(())
}

/// Reads every game of `files` (game data of one game) in order and writes what `route` makes
/// of each (given its place in the input): the game to write and the output to write it to,
/// or nothing.
fn transform(
    files: &[PathBuf],
    outs: &[&PathBuf],
    mut route: impl FnMut(usize, RawGame) -> Result<Option<(usize, RawGame)>, String>,
) -> Result<String, String> {
    check_outputs(files, outs)?;
    let variant = file_variant(&files[0])?;
    let mut writers: Vec<GameWriter> = outs
        .iter()
        .map(|out| GameWriter::create(out, &variant))
        .collect::<Result<_, _>>()?;
    let mut index = 0;
    let mut notes = Vec::new();
    for path in files {
        let mut reader = format::open(path)?;
        if reader.variant() != variant {
            return Err(format!(
                "{} holds {} games, {} holds {variant} games",
                path.display(),
                reader.variant(),
                files[0].display()
            ));
        }
        while let Some(game) = reader
            .next_game()
            .map_err(|e| format!("{}: {e}", path.display()))?
        {
            let at = |e: String| format!("{}: game {}: {e}", path.display(), index + 1);
            if let Some((out, game)) = route(index, game).map_err(at)? {
                let positions =
                    with_game!(variant.as_str(), G => sample_count::<G>(&game)).map_err(at)?;
                writers[out].write(&game, positions)?;
            }
            index += 1;
        }
        if reader.truncated() {
            notes.push(format!(
                "{} ends inside a game, which is left out",
                path.display()
            ));
        }
    }
    let mut report: Vec<String> = writers
        .into_iter()
        .map(GameWriter::finish)
        .collect::<Result<_, _>>()?;
    report.extend(notes);
    Ok(report.join("\n"))
}

fn file_variant(path: &Path) -> Result<String, String> {
    Ok(format::open(path)?.variant().to_string())
}

fn dedup(files: &[PathBuf], out: &PathBuf) -> Result<String, String> {
    let variant = file_variant(&files[0])?;
    let mut seen = ahash::AHashSet::new();
    let mut dropped = 0usize;
    let report = transform(files, &[out], |_, mut game| {
        let (kept, marked) =
            with_game!(variant.as_str(), G => mark_repeats::<G>(&mut game, &mut seen))?;
        dropped += marked;
        Ok((kept > 0).then_some((0, game)))
    })?;
    Ok(format!(
        "{report}\n{dropped} repeated positions no longer learnt from"
    ))
}

/// Marks each position to learn from that `seen` already holds as not to be learnt from; how
/// many positions remain to learn from, and how many were marked.
fn mark_repeats<G: Game>(
    game: &mut RawGame,
    seen: &mut ahash::AHashSet<u64>,
) -> Result<(usize, usize), String> {
    let (mut kept, mut marked) = (0, 0);
    let replayed = replay::<G>(game)?;
    for (ply, stored) in game.plies.iter_mut().zip(replayed) {
        if stored.is_sample() {
            if seen.insert(stored.position.key()) {
                kept += 1;
            } else {
                ply.score = Ply::NO_SCORE;
                marked += 1;
            }
        }
    }
    Ok((kept, marked))
}

fn split(
    files: &[PathBuf],
    fraction: f64,
    seed: u64,
    train: &PathBuf,
    held_out: &PathBuf,
) -> Result<String, String> {
    if !(0.0..=1.0).contains(&fraction) {
        return Err(format!("--fraction {fraction} is not between 0 and 1"));
    }
    transform(files, &[train, held_out], |index, game| {
        let draw = crate::tune::datagen::mix(seed, index as u64) as f64 / u64::MAX as f64;
        Ok(Some(((draw < fraction) as usize, game)))
    })
}

fn convert(files: &[PathBuf], variant: &str, out: &PathBuf) -> Result<String, String> {
    check_outputs(files, &[out])?;
    let mut writer = GameWriter::create(out, variant)?;
    let mut lines = 0;
    with_game!(variant, G => convert_into::<G>(files, &mut writer, &mut lines))?;
    let report = writer.finish()?;
    Ok(format!("{report}\nfrom {lines} lines"))
}

fn convert_into<G: Game>(
    files: &[PathBuf],
    writer: &mut GameWriter,
    lines: &mut usize,
) -> Result<(), String> {
    let mut converter = TextConverter::<G>::default();
    let mut failure = Ok(());
    let mut emit = |game: RawGame| {
        if failure.is_ok() {
            failure = sample_count::<G>(&game).and_then(|n| writer.write(&game, n));
        }
    };
    for path in files {
        if format::is_game_data_file(path)? {
            return Err(format!("{} is game data already", path.display()));
        }
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            let Some(sample) = Sample::parse(&line) else {
                continue;
            };
            let at = |e: String| format!("{}:{}: {e}", path.display(), n + 1);
            converter
                .push(&sample.map_err(at)?, &mut emit)
                .map_err(at)?;
            *lines += 1;
        }
        // A game never runs on from one file into the next.
        converter.finish(&mut emit);
    }
    failure
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::datagen::{self, DataFormat, DatagenOptions};

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("roger-data-test-{}-{name}", std::process::id()))
    }

    fn datagen(variant: &str, format: DataFormat, out: &Path) {
        let options = DatagenOptions {
            games: 3,
            nodes: 150,
            seed: 3,
            format,
            max_plies: 60,
            ..DatagenOptions::tiny(variant, out.to_path_buf())
        };
        datagen::run(&options, &mut |_| {}).unwrap();
    }

    fn counts(path: &Path) -> Counts {
        count_file(path).unwrap().1
    }

    #[test]
    fn merge_dedup_split_and_convert_keep_every_position_once() {
        let games = temp("games.rgd");
        let text = temp("games.txt");
        datagen("chess", DataFormat::Binary, &games);
        datagen("chess", DataFormat::Text, &text);
        let one = counts(&games);
        assert_eq!((one.games, one.positions), (3, counts(&text).positions));
        assert!(one.plies > one.positions);

        // Two copies merged: twice everything; de-duplicated: the first copy again, the
        // second's games dropped with nothing left to learn from.
        let merged = temp("merged.rgd");
        merge(&[games.clone(), games.clone()], &merged);
        let two = counts(&merged);
        assert_eq!((two.games, two.positions), (6, 2 * one.positions));
        let unique = temp("unique.rgd");
        let report = dedup(std::slice::from_ref(&merged), &unique).unwrap();
        let deduped = counts(&unique);
        assert!(
            deduped.games <= 3 && deduped.positions <= one.positions,
            "{report}"
        );
        assert!(report.ends_with(&format!(
            "{} repeated positions no longer learnt from",
            2 * one.positions - deduped.positions
        )));

        // A split puts each game on one side.
        let (train, held) = (temp("train.rgd"), temp("held.rgd"));
        split(std::slice::from_ref(&merged), 0.5, 9, &train, &held).unwrap();
        let (a, b) = (counts(&train), counts(&held));
        assert_eq!(a.games + b.games, 6);
        assert_eq!(a.positions + b.positions, two.positions);
        assert!(a.games > 0 && b.games > 0, "{a:?} {b:?}");

        // The text file converts into the same positions.
        let converted = temp("converted.rgd");
        convert(std::slice::from_ref(&text), "chess", &converted).unwrap();
        assert_eq!(counts(&converted).positions, one.positions);
        let from_games =
            crate::tune::data::samples::read_samples(std::slice::from_ref(&games), "chess")
                .unwrap();
        let from_text =
            crate::tune::data::samples::read_samples(std::slice::from_ref(&converted), "chess")
                .unwrap();
        assert_eq!(from_games, from_text);

        // Refusals: writing over an input, mixing games, converting game data.
        assert!(dedup(std::slice::from_ref(&games), &games)
            .unwrap_err()
            .contains("is an input"));
        let nichess = temp("nichess.rgd");
        datagen("nichess", DataFormat::Binary, &nichess);
        let error = transform(
            &[games.clone(), nichess.clone()],
            &[&temp("mixed.rgd")],
            |_, g| Ok(Some((0, g))),
        )
        .unwrap_err();
        assert!(error.contains("holds nichess games"), "{error}");
        assert!(
            convert(std::slice::from_ref(&games), "chess", &temp("again.rgd"))
                .unwrap_err()
                .contains("game data already")
        );
        for path in [games, text, merged, unique, train, held, converted, nichess] {
            let _ = std::fs::remove_file(path);
        }
        for name in ["mixed.rgd", "again.rgd"] {
            let _ = std::fs::remove_file(temp(name));
        }
    }

    fn merge(files: &[PathBuf], out: &Path) {
        transform(files, &[&out.to_path_buf()], |_, game| Ok(Some((0, game)))).unwrap();
    }
}
