//! The world in SQLite (one file; the crate builds SQLite from source): the world after every
//! completed turn written in one transaction with that turn's log and every player's row, and a
//! player's row (with its token) written the moment it joins, so a crash or a SIGKILL loses at
//! most the turn in progress and never a token. A file that is not a world of ours (not SQLite,
//! another program's database, a newer format, damaged rows) is a clear error, never a fresh
//! world.
//!
//! One server at a time: the file is held exclusively from the moment it is opened until the
//! store is dropped, and a second server is refused with the first one named, before it has
//! read or written anything (`holder.rs` keeps the name).
//!
//! The tables are in `schema.rs`, their rows in `rows.rs`.

mod diff;
mod holder;
mod rows;
mod schema;
#[cfg(test)]
mod tests;
pub mod writer;

use super::events::LogEntry;
use crate::rules::megachess::{PlayerId, Team, World, WorldSnapshot};
use diff::Written;
use rusqlite::{Connection, ErrorCode, TransactionBehavior};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

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
    /// Armies placed so far per team (alabaster, metal), re-placements on resume included.
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
    /// Another server (or program) has the file open: `holder` names it when its note says.
    Held {
        path: PathBuf,
        holder: Option<String>,
    },
    /// SQLite failed (disk full, permissions, ...).
    Sqlite { path: PathBuf, detail: String },
    /// The store's thread stopped (it panicked): nothing more can be written.
    Gone,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StoreError::Missing(path) => write!(
                f,
                "{} does not exist: there is no world to resume; leave out --resume to start a \
                 new world there",
                path.display()
            ),
            StoreError::Exists(path) => write!(
                f,
                "{} exists: pass --resume to continue it, or choose another --db",
                path.display()
            ),
            StoreError::NotADatabase { path, detail } => write!(
                f,
                "{} is not an SQLite database ({detail}): refusing to touch it; choose another \
                 --db",
                path.display()
            ),
            StoreError::Foreign { path, detail } => write!(
                f,
                "{} is not a Megachess world of Roger's ({detail}): refusing to touch it; choose \
                 another --db",
                path.display()
            ),
            StoreError::Version { path, found, want } => write!(
                f,
                "{} is a Megachess world of format {found} but this roger reads format {want}: \
                 resume it with a roger of format {found}, or choose another --db",
                path.display()
            ),
            StoreError::Corrupt { path, detail } => write!(
                f,
                "{} is damaged ({detail}): restore it from a copy, or choose another --db",
                path.display()
            ),
            StoreError::Held {
                path,
                holder: Some(holder),
            } => write!(
                f,
                "{} is in use by another world server ({holder}): stop that one first, or \
                 choose another --db",
                path.display()
            ),
            StoreError::Held { path, holder: None } => write!(
                f,
                "{} is in use by another program or world server: stop it first, or choose \
                 another --db",
                path.display()
            ),
            StoreError::Gone => write!(f, "the store's thread stopped; nothing more is written"),
            StoreError::Sqlite { path, detail } => write!(
                f,
                "{}: SQLite failed ({detail}): check the disk's space and permissions and that \
                 no other server has the file open",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// An open world database, held by this process alone until dropped.
pub struct Store {
    path: PathBuf,
    connection: Connection,
    /// The rows as last committed, so that a turn writes only what it changed.
    written: Written,
}

impl Drop for Store {
    fn drop(&mut self) {
        holder::remove(&self.path);
    }
}

/// Takes the file for `connection` alone (see `schema::hold`); held by someone else, the error
/// names them.
fn hold(path: &Path, connection: &Connection) -> Result<(), StoreError> {
    match schema::hold(connection) {
        Ok(()) => Ok(()),
        Err(error)
            if matches!(
                error.sqlite_error_code(),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            ) =>
        {
            Err(StoreError::Held {
                path: path.to_path_buf(),
                holder: holder::read(path),
            })
        }
        Err(error) if error.sqlite_error_code() == Some(ErrorCode::NotADatabase) => {
            Err(StoreError::NotADatabase {
                path: path.to_path_buf(),
                detail: error.to_string(),
            })
        }
        Err(error) => Err(StoreError::Sqlite {
            path: path.to_path_buf(),
            detail: format!("taking the file: {error}"),
        }),
    }
}

impl Store {
    /// A new world file at `path` (which must not exist) for a world of `seed` whose state
    /// before turn 1 is `world`. A failure removes the file it began.
    pub fn create(
        path: &Path,
        seed: u64,
        world: &WorldSnapshot,
        server: ServerState,
    ) -> Result<Store, StoreError> {
        // Made here, so that a file appearing meanwhile is never taken over.
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(StoreError::Exists(path.to_path_buf()))
            }
            Err(error) => {
                return Err(StoreError::Sqlite {
                    path: path.to_path_buf(),
                    detail: format!("cannot create the file: {error}"),
                })
            }
        }
        let made = schema::open(path)
            .map_err(|error| StoreError::Sqlite {
                path: path.to_path_buf(),
                detail: format!("creating the world: {error}"),
            })
            .and_then(|connection| {
                hold(path, &connection)?;
                Self::open_new(connection, path, seed, world, server).map_err(|error| {
                    StoreError::Sqlite {
                        path: path.to_path_buf(),
                        detail: format!("creating the world: {error}"),
                    }
                })
            });
        if made
            .as_ref()
            .is_err_and(|error| !matches!(error, StoreError::Held { .. }))
        {
            // The connection is closed by now; nothing of ours is worth keeping (but a file
            // someone else took meanwhile is theirs).
            for suffix in ["", "-wal", "-shm", "-journal", "-holder"] {
                let mut name = path.as_os_str().to_owned();
                name.push(suffix);
                let _ = std::fs::remove_file(PathBuf::from(name));
            }
        }
        made
    }

    /// The schema, the identity and the first rows, in one transaction.
    fn open_new(
        mut connection: Connection,
        path: &Path,
        seed: u64,
        world: &WorldSnapshot,
        server: ServerState,
    ) -> rusqlite::Result<Store> {
        schema::set_journal(&connection)?;
        let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        transaction.execute_batch(schema::SCHEMA)?;
        schema::write_identity(&transaction)?;
        rows::insert_world(&transaction, seed, world)?;
        rows::write_params(&transaction, &world.params)?;
        // Everything is new to an empty file.
        rows::write_board_changes(&transaction, &Written::default().changes(world, &[]))?;
        rows::write_server(&transaction, server)?;
        transaction.commit()?;
        Ok(Store::named(path, connection, Written::of(world, &[])))
    }

    /// The store of a file held and known to be ours: the note names this process.
    fn named(path: &Path, connection: Connection, written: Written) -> Store {
        holder::write(path, &holder::describe(None));
        Store {
            path: path.to_path_buf(),
            connection,
            written,
        }
    }

    /// Opens the world at `path` to continue it.
    pub fn resume(path: &Path) -> Result<(Store, Saved), StoreError> {
        let owned = || path.to_path_buf();
        match std::fs::metadata(path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::Missing(owned()))
            }
            Err(error) => {
                return Err(StoreError::Sqlite {
                    path: owned(),
                    detail: format!("cannot read the file: {error}"),
                })
            }
            Ok(metadata) if !metadata.is_file() => {
                return Err(StoreError::NotADatabase {
                    path: owned(),
                    detail: "it is not a file".into(),
                })
            }
            // SQLite reads an empty file as a database with no tables, but taking the lock
            // would write its first page: refused before that.
            Ok(metadata) if metadata.len() == 0 => {
                return Err(StoreError::Foreign {
                    path: owned(),
                    detail: "an empty file, no tables".into(),
                })
            }
            Ok(_) => {}
        }
        let sqlite = |error: rusqlite::Error| StoreError::Sqlite {
            path: owned(),
            detail: format!("opening the world: {error}"),
        };
        let mut connection = schema::open(path).map_err(sqlite)?;
        // Held before anything is read: a second server learns nothing and changes nothing.
        hold(path, &connection)?;
        // Only reads until the file is known to be ours.
        let (application_id, version) = match schema::read_identity(&connection) {
            Ok(identity) => identity,
            Err(error) if error.sqlite_error_code() == Some(ErrorCode::NotADatabase) => {
                return Err(StoreError::NotADatabase {
                    path: owned(),
                    detail: error.to_string(),
                })
            }
            Err(error) => return Err(sqlite(error)),
        };
        if application_id != schema::APPLICATION_ID {
            let tables = schema::table_names(&connection).unwrap_or_default();
            let holds = if tables.is_empty() {
                "no tables".to_string()
            } else {
                format!("tables {}", tables.join(", "))
            };
            return Err(StoreError::Foreign {
                path: owned(),
                detail: format!("application id {application_id:#x}, {holds}"),
            });
        }
        if version != schema::FORMAT_VERSION {
            return Err(StoreError::Version {
                path: owned(),
                found: version,
                want: schema::FORMAT_VERSION,
            });
        }
        schema::set_journal(&connection).map_err(sqlite)?;
        // One read transaction: every table as of the same commit.
        let transaction = connection.transaction().map_err(sqlite)?;
        let (seed, last_turn, world) = rows::read_world(&transaction, path)?;
        let players = rows::read_players(&transaction, path)?;
        let server = rows::read_server(&transaction, path)?;
        transaction.commit().map_err(sqlite)?;
        World::from_snapshot(&world).map_err(|error| StoreError::Corrupt {
            path: owned(),
            detail: format!("tables world, world_players and pieces: {error}"),
        })?;
        let store = Store::named(path, connection, Written::of(&world, &players));
        let saved = Saved {
            seed,
            last_turn,
            world,
            players,
            server,
        };
        Ok((store, saved))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Names the address this server listens on in the note beside the file, for a second
    /// server that is refused.
    pub fn note_listening(&self, addr: &str) {
        holder::write(&self.path, &holder::describe(Some(addr)));
    }

    fn write_failure(&self, doing: &str, error: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.path.clone(),
            detail: format!("{doing}: {error}"),
        }
    }

    /// Writes a new player's row at once (its token survives a crash in this turn).
    pub fn add_player(&mut self, row: &PlayerRow) -> Result<(), StoreError> {
        let doing = format!("writing player {}", row.id);
        let result = (|| {
            let transaction = self
                .connection
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            rows::upsert_player(&transaction, row)?;
            transaction.commit()
        })();
        if result.is_ok() {
            self.written.record_row(row);
        }
        result.map_err(|error| self.write_failure(&doing, error))
    }

    /// Writes a completed turn in one transaction: all of it or, on an error, none of it. Only
    /// the rows the turn changed are written.
    pub fn commit_turn(&mut self, commit: &TurnCommit) -> Result<(), StoreError> {
        let committed_unix_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_millis() as u64);
        let changes = self.written.changes(commit.world, commit.players);
        let result = (|| {
            let transaction = self
                .connection
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            rows::update_world(&transaction, commit.world, commit.turn)?;
            rows::write_params(&transaction, &commit.world.params)?;
            rows::write_board_changes(&transaction, &changes)?;
            for entry in commit.events {
                rows::append_event(&transaction, entry)?;
            }
            rows::write_server(&transaction, commit.server)?;
            rows::append_turn(&transaction, commit.turn, committed_unix_ms, commit.world)?;
            // Dropped without this, the transaction rolls back.
            transaction.commit()
        })();
        if result.is_ok() {
            let owned = changes.owned();
            self.written.record(&owned);
        }
        result.map_err(|error| self.write_failure(&format!("writing turn {}", commit.turn), error))
    }

    /// The log entries of turns `from..=to`, in order.
    pub fn events(&self, from: u64, to: u64) -> Result<Vec<LogEntry>, StoreError> {
        rows::read_events(&self.connection, &self.path, from, to)
    }

    /// The players' rows, by id.
    pub fn players(&self) -> Result<Vec<PlayerRow>, StoreError> {
        rows::read_players(&self.connection, &self.path)
    }
}
