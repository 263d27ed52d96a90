//! Openings: a book file (EPD positions or move lists) and random legal plies, all checked
//! against the game's rules before any game starts.

use crate::common::Rng;
use crate::rules::realtime::{Color, RealtimeParams, RealtimeState};
use crate::rules::registry::{bind_game, find, record_from, AnyGame, Family, TurnGame};
use crate::rules::{Game, MoveList, Outcome};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Where a game starts: a FEN (or the variant's start position) and moves played from there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
}

/// Chess from Fischer Random start positions, drawn from the tournament's seed when no book is
/// given: `--variant chess960` (Black's back rank mirrors White's) or `--variant dfrc` (each
/// side's drawn on its own). The game is chess; the engines play it with `UCI_Chess960`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StartPositions {
    Chess960,
    Dfrc,
}

impl StartPositions {
    /// The start positions an arena `--variant` name asks for (`fischerandom` and `frc` are
    /// other tools' names for Chess960).
    pub fn named(name: &str) -> Option<StartPositions> {
        match name.to_ascii_lowercase().as_str() {
            "chess960" | "fischerandom" | "frc" => Some(StartPositions::Chess960),
            "dfrc" => Some(StartPositions::Dfrc),
            _ => None,
        }
    }

    /// The name reports give it.
    pub fn name(self) -> &'static str {
        match self {
            StartPositions::Chess960 => "chess960",
            StartPositions::Dfrc => "dfrc",
        }
    }

    /// A start position drawn from `seed`, as an opening.
    pub fn opening(self, seed: u64) -> Opening {
        use crate::rules::chess::start_positions::{start_fen, CHESS960_COUNT};
        let mut rng = Rng::new(seed);
        let mut draw = || rng.index(CHESS960_COUNT as usize) as u16;
        let white = draw();
        let black = match self {
            StartPositions::Chess960 => white,
            StartPositions::Dfrc => draw(),
        };
        Opening {
            fen: Some(start_fen(white, black).expect("numbers below 960 have start positions")),
            moves: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookFormat {
    /// One position per line: FEN fields, then anything (EPD operations) which is ignored.
    Epd,
    /// One opening per line: moves in the protocol's notation from the start position.
    Moves,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookOrder {
    Sequential,
    Random,
}

/// `--openings file=F format=epd|moves order=sequential|random start=N plies=N`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookSettings {
    pub file: PathBuf,
    pub format: BookFormat,
    pub order: BookOrder,
    /// The first opening used (1-based, sequential order).
    pub start: usize,
    /// Keep at most this many moves of each move-list opening.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
}

/// Reads and checks every opening of a book; an error names the file and line.
pub fn load_book(book: &BookSettings, variant: &str) -> Result<Vec<Opening>, String> {
    let name = book.file.display();
    let text = std::fs::read_to_string(&book.file)
        .map_err(|error| format!("cannot read openings file '{name}': {error}"))?;
    let game = AnyGame::new(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |error: String| format!("openings file '{name}' line {}: {error}", number + 1);
        let opening = match book.format {
            BookFormat::Epd => Opening {
                fen: Some(epd_fen(&game, line).map_err(at)?),
                moves: Vec::new(),
            },
            BookFormat::Moves => {
                let mut moves: Vec<String> = line.split_whitespace().map(String::from).collect();
                if let Some(plies) = book.plies {
                    moves.truncate(plies);
                }
                game.with_position(None, &moves).map_err(at)?;
                Opening { fen: None, moves }
            }
        };
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("openings file '{name}' has no openings"));
    }
    Ok(openings)
}

/// The longest run of leading fields of an EPD line that the rules read as a FEN.
fn epd_fen(game: &AnyGame, line: &str) -> Result<String, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mut first_error = None;
    for count in (1..=fields.len().min(8)).rev() {
        let fen = fields[..count].join(" ");
        match game.with_position(Some(&fen), &[]) {
            Ok(_) => return Ok(fen),
            Err(error) => {
                if count <= 6 && first_error.is_none() {
                    first_error = Some(error);
                }
            }
        }
    }
    Err(first_error.unwrap_or_else(|| "no FEN found".to_string()))
}

/// `opening` followed by `plies` random legal plies drawn from `seed`. Moves that would end
/// the game are avoided while there are others.
pub fn with_random_plies(
    variant: &str,
    opening: &Opening,
    plies: usize,
    seed: u64,
) -> Result<Opening, String> {
    if find(variant).is_some_and(|entry| entry.family == Family::Realtime) {
        return Ok(realtime_orders(plies, seed));
    }
    let kind = TurnGame::named(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    bind_game!(kind, G => extend::<G>(opening, plies, seed))
}

/// A realtime opening: `plies` random orders started at 0 ms, White's and Black's in turn,
/// each legal after those before it (a piece already under way is not sent twice).
fn realtime_orders(plies: usize, seed: u64) -> Opening {
    let mut state = RealtimeState::start(RealtimeParams::default());
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut events = Vec::new();
    for ply in 0..plies {
        let side = realtime_opening_side(ply);
        let orders = state.orders(side);
        if orders.is_empty() {
            continue;
        }
        let order = orders[rng.index(orders.len())];
        if state.apply(side, order, &mut events).is_ok() {
            moves.push(order.to_string());
        }
    }
    Opening { fen: None, moves }
}

/// Who starts the `ply`-th order of a realtime opening: White first, then in turn.
pub fn realtime_opening_side(ply: usize) -> Color {
    if ply.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

fn extend<G: Game>(opening: &Opening, plies: usize, seed: u64) -> Result<Opening, String> {
    let mut record = record_from::<G>(opening.fen.as_deref(), &opening.moves)?;
    let mut rng = Rng::new(seed);
    let mut moves = opening.moves.clone();
    for _ in 0..plies {
        if record.outcome() != Outcome::Ongoing {
            break;
        }
        let mut legal = MoveList::new();
        record.position().generate_moves(&mut legal);
        let mut candidates: Vec<G::Move> = legal
            .iter()
            .copied()
            .filter(|&mv| {
                let mut after = record.clone();
                after.play(mv);
                after.outcome() == Outcome::Ongoing
            })
            .collect();
        if candidates.is_empty() {
            candidates = legal.to_vec();
        }
        let mv = candidates[rng.index(candidates.len())];
        moves.push(record.position().move_text(mv));
        record.play(mv);
    }
    Ok(Opening {
        fen: opening.fen.clone(),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chess::Chess;

    #[test]
    fn fischer_random_starts_are_drawn_from_the_seed() {
        let back_ranks = |opening: &Opening| {
            let fen = opening.fen.clone().unwrap();
            Chess::from_fen(&fen).unwrap();
            let ranks: Vec<String> = fen.split(['/', ' ']).map(String::from).collect();
            (ranks[7].clone(), ranks[0].to_ascii_uppercase())
        };
        let mut mirrored_only = true;
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..40 {
            let (white, black) = back_ranks(&StartPositions::Chess960.opening(seed));
            assert_eq!(white, black, "seed {seed}: Black mirrors White in Chess960");
            distinct.insert(white);
            let (white, black) = back_ranks(&StartPositions::Dfrc.opening(seed));
            mirrored_only &= white == black;
            assert_eq!(
                StartPositions::Dfrc.opening(seed),
                StartPositions::Dfrc.opening(seed)
            );
        }
        assert!(!mirrored_only, "DFRC draws each side's rank on its own");
        assert!(distinct.len() > 30, "{distinct:?}");
    }

    fn book(text: &str, format: BookFormat, name: &str) -> Result<Vec<Opening>, String> {
        variant_book(text, format, name, "chess")
    }

    fn variant_book(
        text: &str,
        format: BookFormat,
        name: &str,
        variant: &str,
    ) -> Result<Vec<Opening>, String> {
        let file =
            std::env::temp_dir().join(format!("roger-openings-{}-{name}", std::process::id()));
        std::fs::write(&file, text).unwrap();
        let settings = BookSettings {
            file: file.clone(),
            format,
            order: BookOrder::Sequential,
            start: 1,
            plies: None,
        };
        let openings = load_book(&settings, variant);
        std::fs::remove_file(file).unwrap();
        openings
    }

    #[test]
    fn epd_lines_keep_the_fen_and_drop_operations() {
        let openings = book(
            "# a comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n\n\
             4k3/8/8/8/8/8/8/4K2R w K - 0 1\n",
            BookFormat::Epd,
            "epd",
        )
        .unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(
            openings[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -")
        );
        assert_eq!(
            openings[1].fen.as_deref(),
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
        );
    }

    #[test]
    fn every_turn_games_fen_reads_as_epd_with_or_without_its_counters() {
        use crate::rules::registry::{names_of, Family};
        for variant in names_of(Family::Turn) {
            let line = with_random_plies(variant, &Opening::default(), 6, 3).unwrap();
            let kind = TurnGame::named(variant).unwrap();
            let fen = bind_game!(kind, G => record_from::<G>(None, &line.moves)
                .unwrap()
                .position()
                .fen());
            let epd: Vec<&str> = fen.split_whitespace().take(4).collect();
            let epd = epd.join(" ");
            let text = format!("{fen}\n{epd}\n{epd} bm a1; id \"x\";\n");
            let openings = variant_book(&text, BookFormat::Epd, variant, variant).unwrap();
            let fens: Vec<&str> = openings.iter().map(|o| o.fen.as_deref().unwrap()).collect();
            assert_eq!(fens, [fen.as_str(), &epd, &epd], "{variant}");
        }
    }

    #[test]
    fn bad_books_name_the_line() {
        let error = book("e2e4 e7e5\ne2e4 e2e4\n", BookFormat::Moves, "moves").unwrap_err();
        assert!(error.contains("line 2"), "{error}");
        let error = book("not a fen\n", BookFormat::Epd, "bad").unwrap_err();
        assert!(error.contains("line 1"), "{error}");
        assert!(book("\n# nothing\n", BookFormat::Moves, "empty")
            .unwrap_err()
            .contains("no openings"));
    }

    #[test]
    fn random_plies_are_legal_and_repeat_with_the_seed() {
        use crate::rules::registry::{names_of, Family};
        for variant in names_of(Family::Turn) {
            let a = with_random_plies(variant, &Opening::default(), 8, 42).unwrap();
            let b = with_random_plies(variant, &Opening::default(), 8, 42).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.moves.len(), 8);
            AnyGame::new(variant)
                .unwrap()
                .with_position(None, &a.moves)
                .unwrap();
        }
    }
}
