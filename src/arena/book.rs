//! `roger book`: opening books made by Roger itself. From the start position it plays random
//! legal plies, searches the position reached with a node budget, and keeps it when the score
//! is balanced: one position per line, as `roger arena --openings file=F format=epd` reads it
//! (chess as EPD, its first four FEN fields; the other games as their full FEN).

use super::openings::StartPositions;
use crate::common::Rng;
use crate::eval::Evaluate;
use crate::rules::registry::{bind_game, names_of, Family, TurnGame, DEFAULT_GAME};
use crate::rules::{Game, GameRecord, MoveList, Outcome};
use crate::search::{self, Limits, Score, SearchOptions, TranspositionTable};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// `roger book`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct BookOptions {
    /// The `UCI_Variant` of the book, or `chess960` / `dfrc`: chess lines from a random
    /// Fischer Random start (Double: each side's back rank drawn on its own).
    #[arg(long, default_value = DEFAULT_GAME, value_parser = book_variants())]
    pub variant: String,
    /// How many positions to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random legal plies played from the start position (lines that end the game are
    /// rejected).
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Keep a position only when its score is within this many centipawns of 0 (mates never).
    #[arg(long = "max-score", default_value_t = 60)]
    pub max_score: i32,
    /// Nodes searched to score each position.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Seed of the random plies: the same seed (and flags) writes the same book with one
    /// thread.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search threads (more than one may score a position slightly differently from run to
    /// run).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash (MiB) of the search, cleared before each position.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// The book file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// The `--variant` values: the turn games, and Chess960 and DFRC.
fn book_variants() -> Vec<&'static str> {
    let mut names = names_of(Family::Turn);
    names.extend(["chess960", "dfrc"]);
    names
}

/// What making a book did, for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookStats {
    /// Random lines played.
    pub tried: u64,
    /// Lines whose last ply ended the game, or that had no legal move on the way.
    pub ended: u64,
    pub duplicates: u64,
    /// Positions scored beyond `max_score` (or mate).
    pub unbalanced: u64,
}

/// One kept position and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The line written: EPD for chess, the FEN for the other games.
    pub line: String,
    pub score_cp: i32,
}

/// Lines tried per position asked for before giving up.
const TRIES_PER_POSITION: u64 = 1000;

pub fn command(options: &BookOptions) -> ExitCode {
    match run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("roger book: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &BookOptions) -> Result<(), String> {
    let (entries, stats) = make_book(options)?;
    let mut text = String::new();
    for entry in &entries {
        text.push_str(&entry.line);
        text.push('\n');
    }
    let name = options.out.display();
    std::fs::File::create(&options.out)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|error| format!("cannot write '{name}': {error}"))?;
    println!(
        "{}: {} positions written to {name} ({} lines tried: {} ended the game, {} duplicates, \
         {} scored beyond {} cp)",
        options.variant,
        entries.len(),
        stats.tried,
        stats.ended,
        stats.duplicates,
        stats.unbalanced,
        options.max_score
    );
    Ok(())
}

/// The book's positions, in the order found. An error when the flags are impossible or too
/// few balanced positions turn up.
pub fn make_book(options: &BookOptions) -> Result<(Vec<BookEntry>, BookStats), String> {
    let starts = StartPositions::named(&options.variant);
    let variant = if starts.is_some() {
        "chess"
    } else {
        options.variant.as_str()
    };
    let game = TurnGame::named(variant)
        .ok_or_else(|| format!("'{}' is not a turn game", options.variant))?;
    if options.count == 0 {
        return Err("--count must be at least 1".into());
    }
    if options.max_score < 0 {
        return Err("--max-score must be at least 0".into());
    }
    bind_game!(game, G => make::<G>(options, starts))
}

fn make<G: Game + Evaluate>(
    options: &BookOptions,
    starts: Option<StartPositions>,
) -> Result<(Vec<BookEntry>, BookStats), String> {
    let mut rng = Rng::new(options.seed);
    let mut tt = TranspositionTable::new(options.hash.max(1));
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(options.nodes.max(1)),
        ..Limits::default()
    };
    let search_options = SearchOptions {
        threads: options.threads.max(1),
        multipv: 1,
        ..SearchOptions::default()
    };
    let mut seen = HashSet::new();
    let mut entries = Vec::new();
    let mut stats = BookStats::default();
    let most = TRIES_PER_POSITION * options.count as u64;
    while entries.len() < options.count {
        if stats.tried >= most {
            return Err(format!(
                "only {} balanced positions in {} lines; raise --max-score or lower --plies",
                entries.len(),
                stats.tried
            ));
        }
        stats.tried += 1;
        let Some(record) = random_line::<G>(&mut rng, options.plies, starts) else {
            stats.ended += 1;
            continue;
        };
        let position = record.position();
        if !seen.insert(position.key()) {
            stats.duplicates += 1;
            continue;
        }
        tt.clear();
        let mut last = None;
        search::search(
            &record,
            &limits,
            search_options,
            &tt,
            &search::SearchMemory::default(),
            &stop,
            &mut |info| {
                if info.multipv == 1 {
                    last = Some(info.score);
                }
            },
        );
        let score_cp = match last {
            Some(Score::Cp(cp)) if cp.abs() <= options.max_score => cp,
            _ => {
                stats.unbalanced += 1;
                continue;
            }
        };
        entries.push(BookEntry {
            line: book_line(position),
            score_cp,
        });
    }
    Ok((entries, stats))
}

/// `plies` random legal plies from the start (a random Fischer Random one with `starts`);
/// `None` when one of them ends the game.
fn random_line<G: Game>(
    rng: &mut Rng,
    plies: usize,
    starts: Option<StartPositions>,
) -> Option<GameRecord<G>> {
    let start = match starts {
        Some(starts) => {
            let fen = starts.opening(rng.next_u64()).fen?;
            G::from_fen(&fen).ok()?
        }
        None => G::startpos(),
    };
    let mut record = GameRecord::new(start);
    for _ in 0..plies {
        let mut legal = MoveList::new();
        record.position().generate_moves(&mut legal);
        if legal.is_empty() {
            return None;
        }
        record.play(legal[rng.index(legal.len())]);
        if record.outcome() != Outcome::Ongoing {
            return None;
        }
    }
    Some(record)
}

/// Chess as EPD (the FEN without its move counters); the other games' full FEN.
fn book_line<G: Game>(position: &G) -> String {
    let fen = position.fen();
    if G::VARIANT == "chess" {
        fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
    } else {
        fen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::openings::{load_book, BookFormat, BookOrder, BookSettings};
    use crate::rules::registry::AnyGame;

    fn options(variant: &str, out: PathBuf) -> BookOptions {
        BookOptions {
            variant: variant.to_string(),
            count: 3,
            plies: 6,
            max_score: 80,
            nodes: 500,
            seed: 5,
            threads: 1,
            hash: 1,
            out,
        }
    }

    #[test]
    fn a_tiny_book_has_distinct_balanced_positions_the_arena_reads() {
        for variant in book_variants() {
            let out = std::env::temp_dir()
                .join(format!("roger-book-{}-{variant}.epd", std::process::id()));
            let options = options(variant, out.clone());
            let (entries, _) = make_book(&options).unwrap();
            assert_eq!(make_book(&options).unwrap().0, entries, "{variant}");
            assert_eq!(entries.len(), 3);
            let lines: HashSet<&str> = entries.iter().map(|e| e.line.as_str()).collect();
            assert_eq!(lines.len(), 3, "{variant}: {entries:?}");
            assert!(
                entries.iter().all(|e| e.score_cp.abs() <= 80),
                "{entries:?}"
            );
            let game_name = if StartPositions::named(variant).is_some() {
                "chess"
            } else {
                variant
            };
            let game = AnyGame::new(game_name).unwrap();
            for entry in &entries {
                game.with_position(Some(&entry.line), &[]).unwrap();
            }
            // The file as `roger book` writes it reads back through the arena's EPD reader.
            run(&options).unwrap();
            let settings = BookSettings {
                file: out.clone(),
                format: BookFormat::Epd,
                order: BookOrder::Sequential,
                start: 1,
                plies: None,
            };
            let openings = load_book(&settings, game_name).unwrap();
            std::fs::remove_file(&out).unwrap();
            let fens: Vec<&str> = openings.iter().map(|o| o.fen.as_deref().unwrap()).collect();
            let written: Vec<&str> = entries.iter().map(|e| e.line.as_str()).collect();
            assert_eq!(fens, written, "{variant}");
            // Fischer Random books start from other back ranks: some king is off e1.
            if game_name != variant {
                let off_e1 = entries.iter().any(|entry| {
                    let position = crate::rules::chess::Chess::from_fen(&entry.line).unwrap();
                    position.king_square(crate::rules::Color::White).0 != 4
                });
                assert!(off_e1, "{variant}: {entries:?}");
            }
        }
    }
}
