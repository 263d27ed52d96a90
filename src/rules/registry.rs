//! Every game Roger knows, in one place: its protocol name, its family and its run-time
//! parameters. The engine, the protocol, the arena, the bench and the players all look games up
//! here.
//!
//! Adding a turn game: a variant in [`TurnGame`] and [`AnyGame`], an arm in [`dispatch!`] and
//! [`bind_game!`], and a row in [`GAMES`]. Games of the other families get a row in [`GAMES`]
//! and their own types.

use super::chess::Chess;
use super::millennium::Millennium;
use super::nichess::Nichess;
pub use super::parameter::Parameter;
use super::{Game, GameRecord, MoveList};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// How a game's players take their turns, which decides the referee, the engine and the
/// protocol dialect that serve it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    /// Two sides alternate one move per ply (chess, Millennium, Nichess).
    Turn,
    /// No turns: both sides start moves at any millisecond.
    Realtime,
    /// A persistent world of many players in teams, each moving every piece once per timed turn.
    World,
}

impl Family {
    pub const fn name(self) -> &'static str {
        match self {
            Family::Turn => "turn",
            Family::Realtime => "realtime",
            Family::World => "world",
        }
    }
}

/// One game of the registry.
pub struct GameEntry {
    /// The `UCI_Variant` name.
    pub name: &'static str,
    pub family: Family,
    pub parameters: &'static [Parameter],
    /// Which turn game it is; `None` for the games of the other families.
    pub turn: Option<TurnGame>,
}

/// The turn games by name, without a position: what [`bind_game!`] binds a game's type from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TurnGame {
    Chess,
    Nichess,
    Millennium,
}

impl TurnGame {
    /// The turn game with this protocol name.
    pub fn named(name: &str) -> Option<TurnGame> {
        find(name).and_then(|entry| entry.turn)
    }

    /// A new game from the start position.
    pub fn start(self) -> AnyGame {
        match self {
            TurnGame::Chess => AnyGame::Chess(GameRecord::new(Chess::startpos())),
            TurnGame::Nichess => AnyGame::Nichess(GameRecord::new(Nichess::startpos())),
            TurnGame::Millennium => AnyGame::Millennium(GameRecord::new(Millennium::startpos())),
        }
    }
}

/// The games in the order the `UCI_Variant` option lists them (the first is the default).
pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: Chess::VARIANT,
        family: Family::Turn,
        parameters: &[],
        turn: Some(TurnGame::Chess),
    },
    GameEntry {
        name: Nichess::VARIANT,
        family: Family::Turn,
        parameters: &[],
        turn: Some(TurnGame::Nichess),
    },
    GameEntry {
        name: Millennium::VARIANT,
        family: Family::Turn,
        parameters: &[],
        turn: Some(TurnGame::Millennium),
    },
    GameEntry {
        name: "realtime",
        family: Family::Realtime,
        parameters: crate::rules::realtime::PARAMETERS,
        turn: None,
    },
    GameEntry {
        name: "megachess",
        family: Family::World,
        parameters: crate::rules::megachess::PARAMETERS,
        turn: None,
    },
];

/// The game a session, a command or a tournament plays when none is named: the first row.
pub const DEFAULT_GAME: &str = GAMES[0].name;

/// The registry's entry for a protocol name.
pub fn find(name: &str) -> Option<&'static GameEntry> {
    GAMES.iter().find(|entry| entry.name == name)
}

/// Every game's protocol name, in the registry's order.
pub fn game_names() -> Vec<&'static str> {
    GAMES.iter().map(|entry| entry.name).collect()
}

/// The names of the games of one family.
pub fn names_of(family: Family) -> Vec<&'static str> {
    GAMES
        .iter()
        .filter(|entry| entry.family == family)
        .map(|entry| entry.name)
        .collect()
}

/// A turn game in progress, of any of the turn games we play.
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
            $crate::rules::registry::AnyGame::Chess($record) => $body,
            $crate::rules::registry::AnyGame::Nichess($record) => $body,
            $crate::rules::registry::AnyGame::Millennium($record) => $body,
        }
    };
}
pub(crate) use dispatch;

/// Runs `$body` with the type `$game_type` bound to a [`TurnGame`]'s type, for code that needs
/// the type and not a position.
macro_rules! bind_game {
    ($turn_game:expr, $game_type:ident => $body:expr) => {
        match $turn_game {
            $crate::rules::registry::TurnGame::Chess => {
                type $game_type = $crate::rules::chess::Chess;
                $body
            }
            $crate::rules::registry::TurnGame::Nichess => {
                type $game_type = $crate::rules::nichess::Nichess;
                $body
            }
            $crate::rules::registry::TurnGame::Millennium => {
                type $game_type = $crate::rules::millennium::Millennium;
                $body
            }
        }
    };
}
pub(crate) use bind_game;

impl AnyGame {
    /// The start position of the turn game with this name.
    pub fn new(name: &str) -> Option<AnyGame> {
        TurnGame::named(name).map(TurnGame::start)
    }

    /// Which turn game this is.
    pub fn kind(&self) -> TurnGame {
        match self {
            AnyGame::Chess(_) => TurnGame::Chess,
            AnyGame::Nichess(_) => TurnGame::Nichess,
            AnyGame::Millennium(_) => TurnGame::Millennium,
        }
    }

    /// The game's protocol name.
    pub fn variant(&self) -> &'static str {
        bind_game!(self.kind(), G => G::VARIANT)
    }

    /// What a GUI needs to set up the board of this game:
    /// `variant <name> files <n> ranks <n> startpos <FEN>`.
    pub fn board_info(&self) -> String {
        bind_game!(self.kind(), G => format!(
            "variant {} files {} ranks {} startpos {}",
            G::VARIANT,
            G::FILES,
            G::RANKS,
            G::startpos().fen()
        ))
    }

    /// A new game of the same kind from `fen` (or the start position) and `moves`.
    pub fn with_position(&self, fen: Option<&str>, moves: &[String]) -> Result<AnyGame, String> {
        Ok(match self {
            AnyGame::Chess(_) => AnyGame::Chess(record_from(fen, moves)?),
            AnyGame::Nichess(_) => AnyGame::Nichess(record_from(fen, moves)?),
            AnyGame::Millennium(_) => AnyGame::Millennium(record_from(fen, moves)?),
        })
    }

    /// Chess: castling written king-takes-own-rook (`on`, the `UCI_Chess960` option) or as
    /// the king's two-square move where that is unambiguous. The other games have no castling
    /// notation to choose.
    pub fn set_chess960(&mut self, on: bool) {
        dispatch!(self, record => record.modify_positions(|position| position.set_chess960(on)))
    }

    /// The current position as a board diagram, its FEN and its key.
    pub fn display(&self) -> String {
        dispatch!(self, record => display(record.position()))
    }

    /// Leaf counts under each legal root move, in generation order: none in a game over by
    /// repetition ([`GameRecord::over_by_repetition`]), as at a position's own endings.
    pub fn perft(&self, depth: u32, threads: usize) -> Vec<(String, u64)> {
        dispatch!(self, record => if record.over_by_repetition() {
            Vec::new()
        } else {
            divided_perft(record.position(), depth, threads)
        })
    }

    /// [`AnyGame::perft`] that gives up (`None`) soon after `stop` is set.
    pub fn perft_until(
        &self,
        depth: u32,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<Vec<(String, u64)>> {
        dispatch!(self, record => if record.over_by_repetition() {
            Some(Vec::new())
        } else {
            divided_perft_until(record.position(), depth, threads, stop)
        })
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
            Err(crate::rules::RuleError::Malformed(format!(
                "'{text}' is not a move: it has characters outside ASCII"
            )))
        };
        played.map_err(|error| format!("move {number} '{text}' rejected: {error}"))?;
    }
    Ok(record)
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

/// [`divided_perft`] that looks at `stop` at every node down to the last few plies (counted
/// at once, in well under a second), and gives up (`None`) when it is set.
pub fn divided_perft_until<G: Game>(
    position: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(String, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    let count = |&mv: &G::Move| {
        perft_until(&position.play(mv), depth - 1, stop).map(|n| (position.move_text(mv), n))
    };
    if threads <= 1 {
        return moves.iter().map(count).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
        Err(_) => moves.iter().map(count).collect(),
    }
}

/// The plies counted without looking at the stop flag.
const UNSTOPPED_PLIES: u32 = 3;

fn perft_until<G: Game>(position: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNSTOPPED_PLIES {
        return Some(position.perft(depth));
    }
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        total += perft_until(&position.play(mv), depth - 1, stop)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_turn_game_starts_and_binds_its_own_type() {
        for entry in GAMES {
            assert_eq!(find(entry.name).map(|found| found.name), Some(entry.name));
            if entry.family == Family::Turn {
                let game = AnyGame::new(entry.name).expect("a turn game has a start");
                assert_eq!(game.variant(), entry.name);
                assert!(game
                    .board_info()
                    .starts_with(&format!("variant {} ", entry.name)));
            }
        }
        assert!(find("no such game").is_none());
        let turn_games: Vec<&str> = GAMES
            .iter()
            .filter(|entry| entry.turn.is_some())
            .map(|entry| entry.name)
            .collect();
        assert_eq!(names_of(Family::Turn), turn_games);
        assert_eq!(names_of(Family::Realtime), ["realtime"]);
    }

    #[test]
    fn perft_until_counts_as_perft_and_gives_up_when_stopped() {
        let go_on = AtomicBool::new(false);
        for entry in GAMES.iter().filter(|entry| entry.family == Family::Turn) {
            let game = AnyGame::new(entry.name).expect("a turn game has a start");
            for threads in [1, 2] {
                assert_eq!(
                    game.perft_until(UNSTOPPED_PLIES + 1, threads, &go_on),
                    Some(game.perft(UNSTOPPED_PLIES + 1, threads)),
                    "{}",
                    entry.name
                );
                assert_eq!(game.perft_until(8, threads, &AtomicBool::new(true)), None);
            }
        }
    }
}
