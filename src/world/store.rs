//! The world in SQLite (one file; the crate builds SQLite from source): the world after every
//! completed turn written in one transaction with that turn's log and every player's row, and a
//! player's row (with its token) written the moment it joins, so a crash or a SIGKILL loses at
//! most the turn in progress and never a token. A file that is not a world of ours (not SQLite,
//! another program's database, a newer format, damaged rows) is a clear error, never a fresh
//! world.

use super::events::LogEntry;
use crate::rules::megachess::{PlayerId, Team, WorldSnapshot};
use std::fmt;
use std::path::{Path, PathBuf};

/// A player as the server knows it beyond the rules: its name, token and history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: PlayerId,
    pub team: Team,
    pub name: String,
    /// The secret a player reconnects with.
    pub token: String,
    /// A house bot of the server.
    pub house: bool,
    /// The turn it joined in.
    pub joined_turn: u64,
    /// The turn its king was captured, if it was.
    pub eliminated_turn: Option<u64>,
    pub kings_taken: u32,
    /// Its score as last known (kept after its king is captured, when the world forgets it).
    pub score: i64,
}

/// The server's own state beyond the world and the players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerState {
    /// The placement generator's state.
    pub placement_random: u64,
    /// The id the next player gets.
    pub next_player: PlayerId,
    /// Armies placed so far per team (alabaster, metal), for edge placement.
    pub placed: [u64; 2],
}

/// What one completed turn writes, in one transaction.
#[derive(Clone, Debug)]
pub struct TurnCommit<'a> {
    /// The turn that ended.
    pub turn: u64,
    /// The world after the turn ended (the next turn begun, nobody moved in it yet).
    pub world: &'a WorldSnapshot,
    /// Every player's row as it stands (rows are replaced by id).
    pub players: &'a [PlayerRow],
    /// The turn's log, in order (appended).
    pub events: &'a [LogEntry],
    pub server: ServerState,
}

/// What a resumed world starts from.
#[derive(Clone, Debug)]
pub struct Saved {
    pub seed: u64,
    /// The last completed turn (0: none yet).
    pub last_turn: u64,
    pub world: WorldSnapshot,
    pub players: Vec<PlayerRow>,
    pub server: ServerState,
}

/// Why the store cannot be used; Display says what and where.
#[derive(Debug)]
pub enum StoreError {
    /// `--resume` of a file that does not exist.
    Missing(PathBuf),
    /// A new world over a file that exists.
    Exists(PathBuf),
    /// The file is not an SQLite database.
    NotADatabase { path: PathBuf, detail: String },
    /// An SQLite database of another program (or an empty one).
    Foreign { path: PathBuf, detail: String },
    /// A world written by a newer or older format.
    Version {
        path: PathBuf,
        found: i64,
        want: i64,
    },
    /// The rows do not make a valid world.
    Corrupt { path: PathBuf, detail: String },
    /// SQLite failed (disk full, locked by another server, ...).
    Sqlite { path: PathBuf, detail: String },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let _ = f;
        todo!("store errors")
    }
}

impl std::error::Error for StoreError {}

/// An open world database.
pub struct Store {
    path: PathBuf,
}

impl Store {
    /// A new world file at `path` (which must not exist) for a world of `seed` whose state
    /// before turn 1 is `world`.
    pub fn create(
        path: &Path,
        seed: u64,
        world: &WorldSnapshot,
        server: ServerState,
    ) -> Result<Store, StoreError> {
        let _ = (path, seed, world, server);
        todo!("store")
    }

    /// Opens the world at `path` to continue it.
    pub fn resume(path: &Path) -> Result<(Store, Saved), StoreError> {
        let _ = path;
        todo!("store")
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes a new player's row at once (its token survives a crash in this turn).
    pub fn add_player(&mut self, row: &PlayerRow) -> Result<(), StoreError> {
        let _ = row;
        todo!("store")
    }

    /// Writes a completed turn in one transaction.
    pub fn commit_turn(&mut self, commit: &TurnCommit) -> Result<(), StoreError> {
        let _ = commit;
        todo!("store")
    }

    /// The log entries of turns `from..=to`, in order.
    pub fn events(&self, from: u64, to: u64) -> Result<Vec<LogEntry>, StoreError> {
        let _ = (from, to);
        todo!("store")
    }

    /// The players' rows, by id.
    pub fn players(&self) -> Result<Vec<PlayerRow>, StoreError> {
        todo!("store")
    }
}
