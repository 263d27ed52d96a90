//! The games the engine plays, behind one enum so the engine can switch between them at run time
//! while everything game-specific stays generic and monomorphised.
//!
//! Adding a game: a variant in [`AnyGame`], an arm in [`dispatch!`] and in
//! [`AnyGame::with_position`], and a row in [`VARIANTS`].

use crate::rules::chess::Chess;
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use crate::rules::{Game, GameRecord, MoveList};
use rayon::prelude::*;

/// A game in progress of one of the variants we play.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Chess(GameRecord<Chess>),
    Nichess(GameRecord<Nichess>),
    Millennium(GameRecord<Millennium>),
}

/// Runs `$body` with `$record` bound to the concrete `GameRecord<G>` inside an [`AnyGame`].
macro_rules! dispatch {
    ($game:expr, $record:ident => $body:expr) => {
        match $game {
            $crate::engine::variant::AnyGame::Chess($record) => $body,
            $crate::engine::variant::AnyGame::Nichess($record) => $body,
            $crate::engine::variant::AnyGame::Millennium($record) => $body,
        }
    };
}
pub(crate) use dispatch;

/// A variant the engine plays: its `UCI_Variant` name and its start.
pub struct VariantEntry {
    pub name: &'static str,
    pub start: fn() -> AnyGame,
}

/// The variants in the order the option lists them (the first is the default).
pub const VARIANTS: &[VariantEntry] = &[
    VariantEntry {
        name: Chess::VARIANT,
        start: || AnyGame::Chess(GameRecord::new(Chess::startpos())),
    },
    VariantEntry {
        name: Nichess::VARIANT,
        start: || AnyGame::Nichess(GameRecord::new(Nichess::startpos())),
    },
    VariantEntry {
        name: Millennium::VARIANT,
        start: || AnyGame::Millennium(GameRecord::new(Millennium::startpos())),
    },
];

pub fn variant_names() -> Vec<&'static str> {
    VARIANTS.iter().map(|variant| variant.name).collect()
}

impl AnyGame {
    /// The start position of the variant with this name.
    pub fn new(variant: &str) -> Option<AnyGame> {
        VARIANTS
            .iter()
            .find(|entry| entry.name == variant)
            .map(|entry| (entry.start)())
    }

    pub fn variant(&self) -> &'static str {
        fn name<G: Game>(_: &GameRecord<G>) -> &'static str {
            G::VARIANT
        }
        dispatch!(self, record => name(record))
    }

    /// What a GUI needs to set up the board of this variant:
    /// `variant <name> files <n> ranks <n> startpos <FEN>`.
    pub fn board_info(&self) -> String {
        fn info<G: Game>(_: &GameRecord<G>) -> String {
            format!(
                "variant {} files {} ranks {} startpos {}",
                G::VARIANT,
                G::FILES,
                G::RANKS,
                G::startpos().fen()
            )
        }
        dispatch!(self, record => info(record))
    }

    /// A new game of the same variant from `fen` (or the start position) and `moves`.
    pub fn with_position(&self, fen: Option<&str>, moves: &[String]) -> Result<AnyGame, String> {
        Ok(match self {
            AnyGame::Chess(_) => AnyGame::Chess(record_from(fen, moves)?),
            AnyGame::Nichess(_) => AnyGame::Nichess(record_from(fen, moves)?),
            AnyGame::Millennium(_) => AnyGame::Millennium(record_from(fen, moves)?),
        })
    }

    /// Builds the rules' lazily made tables (slider attacks and the like) now, before the GUI's
    /// clock runs, rather than during the first search.
    pub fn warm_up(&self) {
        fn generate<G: Game>(position: &G) {
            let mut moves = MoveList::new();
            position.generate_moves(&mut moves);
            for &mv in &moves {
                position.play(mv).generate_moves(&mut MoveList::new());
            }
        }
        dispatch!(self, record => generate(record.position()))
    }

    /// The current position as a board diagram, its FEN and its key.
    pub fn display(&self) -> String {
        dispatch!(self, record => display(record.position()))
    }

    /// Leaf counts under each legal root move, in generation order.
    pub fn perft(&self, depth: u32, threads: usize) -> Vec<(String, u64)> {
        dispatch!(self, record => divided_perft(record.position(), depth, threads))
    }
}

/// Builds a game record from a FEN (or the start position) and the moves played from there.
pub fn record_from<G: Game>(fen: Option<&str>, moves: &[String]) -> Result<GameRecord<G>, String> {
    let start = match fen {
        None => G::startpos(),
        Some(fen) => {
            // The rules slice their input by bytes; keep them to the ASCII the notation uses.
            if let Some(bad) = fen.chars().find(|c| !c.is_ascii()) {
                return Err(format!(
                    "invalid FEN '{fen}': character '{bad}' is not allowed"
                ));
            }
            G::from_fen(fen).map_err(|error| format!("invalid FEN '{fen}': {error}"))?
        }
    };
    let mut record = GameRecord::new(start);
    for (index, text) in moves.iter().enumerate() {
        let number = index + 1;
        let played = if text.is_ascii() {
            record.play_text(text).map(|_| ())
        } else {
            Err(crate::rules::RuleError::new(format!(
                "'{text}' is not a move: it has characters outside ASCII"
            )))
        };
        played.map_err(|error| format!("move {number} '{text}' rejected: {error}"))?;
    }
    Ok(record)
}

/// Reads moves that must all be legal in `position`.
pub fn parse_moves<G: Game>(position: &G, texts: &[String]) -> Result<Vec<G::Move>, String> {
    texts
        .iter()
        .map(|text| {
            if !text.is_ascii() {
                return Err(format!("searchmoves: '{text}' is not a move"));
            }
            position
                .parse_move(text)
                .map_err(|error| format!("searchmoves: {error}"))
        })
        .collect()
}

pub fn display<G: Game>(position: &G) -> String {
    format!(
        "{}\nFen: {}\nKey: {:016X}",
        position.board_text().trim_end(),
        position.fen(),
        position.key()
    )
}

/// Leaf counts under each root move. With one thread it runs on the calling thread; with more,
/// the root moves are shared out over a pool of that many threads.
pub fn divided_perft<G: Game>(position: &G, depth: u32, threads: usize) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    let count = |&mv: &G::Move| (position.move_text(mv), position.play(mv).perft(depth - 1));
    if threads <= 1 {
        return moves.iter().map(count).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
        Err(_) => moves.iter().map(count).collect(),
    }
}
