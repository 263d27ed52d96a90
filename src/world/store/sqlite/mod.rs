//! The world in SQLite (one file; the crate builds SQLite from source), the embedded store.
//!
//! The file is held exclusively from the moment it is opened until the store is dropped
//! (`schema::hold`), and a second server is refused with the first one named (`holder.rs` keeps
//! the name beside the file). The tables are in `schema.rs`, their rows in `rows.rs`.

pub(super) mod holder;
mod rows;
mod schema;

use super::diff::Written;
use super::{LogEntry, PlayerRow};
use super::{Saved, ServerState, StoreError, StorePlace, TurnCommit, WorldStore};
use crate::rules::megachess::WorldSnapshot;
use rusqlite::{Connection, ErrorCode, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// An open world database, held by this process alone until dropped.
pub struct SqliteStore {
    path: PathBuf,
    /// The same, as errors name it.
    at: StorePlace,
    connection: Connection,
    /// The rows as last committed, so that a turn writes only what it changed.
    written: Written,
}

impl Drop for SqliteStore {
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
                at: StorePlace::File(path.to_path_buf()),
                holder: holder::read(path),
            })
        }
        Err(error) if error.sqlite_error_code() == Some(ErrorCode::NotADatabase) => {
            Err(StoreError::NotADatabase {
                at: StorePlace::File(path.to_path_buf()),
                detail: error.to_string(),
            })
        }
        Err(error) => Err(StoreError::Database {
            at: StorePlace::File(path.to_path_buf()),
            detail: format!("taking the file: {error}"),
        }),
    }
}

impl SqliteStore {
    /// A new world file at `path` (which must not exist) for a world of `seed` whose state
    /// before turn 1 is `world`. A failure removes the file it began.
    pub fn create(
        path: &Path,
        seed: u64,
        world: &WorldSnapshot,
        server: ServerState,
    ) -> Result<SqliteStore, StoreError> {
        // Made here, so that a file appearing meanwhile is never taken over.
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(StoreError::Exists(StorePlace::File(path.to_path_buf())))
            }
            Err(error) => {
                return Err(StoreError::Database {
                    at: StorePlace::File(path.to_path_buf()),
                    detail: format!("cannot create the file: {error}"),
                })
            }
        }
        let made = schema::open(path)
            .map_err(|error| StoreError::Database {
                at: StorePlace::File(path.to_path_buf()),
                detail: format!("creating the world: {error}"),
            })
            .and_then(|connection| {
                hold(path, &connection)?;
                Self::open_new(connection, path, seed, world, server).map_err(|error| {
                    StoreError::Database {
                        at: StorePlace::File(path.to_path_buf()),
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
    ) -> rusqlite::Result<SqliteStore> {
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
        Ok(SqliteStore::named(
            path,
            connection,
            Written::of(world, &[]),
        ))
    }

    /// The store of a file held and known to be ours: the note names this process.
    fn named(path: &Path, connection: Connection, written: Written) -> SqliteStore {
        holder::write(path, &super::describe_holder(None));
        SqliteStore {
            path: path.to_path_buf(),
            at: StorePlace::File(path.to_path_buf()),
            connection,
            written,
        }
    }

    /// Opens the world at `path` to continue it.
    pub fn resume(path: &Path) -> Result<(SqliteStore, Saved), StoreError> {
        let owned = || StorePlace::File(path.to_path_buf());
        match std::fs::metadata(path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::Missing(owned()))
            }
            Err(error) => {
                return Err(StoreError::Database {
                    at: owned(),
                    detail: format!("cannot read the file: {error}"),
                })
            }
            Ok(metadata) if !metadata.is_file() => {
                return Err(StoreError::NotADatabase {
                    at: owned(),
                    detail: "it is not a file".into(),
                })
            }
            // SQLite reads an empty file as a database with no tables, but taking the lock
            // would write its first page: refused before that.
            Ok(metadata) if metadata.len() == 0 => {
                return Err(StoreError::Foreign {
                    at: owned(),
                    detail: "an empty file, no tables".into(),
                })
            }
            Ok(_) => {}
        }
        let sqlite = |error: rusqlite::Error| StoreError::Database {
            at: owned(),
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
                    at: owned(),
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
                at: owned(),
                detail: format!("application id {application_id:#x}, {holds}"),
            });
        }
        if version != schema::FORMAT_VERSION {
            return Err(StoreError::Version {
                at: owned(),
                found: version,
                want: schema::FORMAT_VERSION,
            });
        }
        schema::set_journal(&connection).map_err(sqlite)?;
        // One read transaction: every table as of the same commit.
        let transaction = connection.transaction().map_err(sqlite)?;
        let at = owned();
        let world = rows::read_world(&transaction, &at)?;
        let players = rows::read_players(&transaction, &at)?;
        let server = rows::read_server(&transaction, &at)?;
        transaction.commit().map_err(sqlite)?;
        let saved = Saved::checked(&at, world, players, server)?;
        let written = Written::of(&saved.world, &saved.players);
        Ok((SqliteStore::named(path, connection, written), saved))
    }

    fn write_failure(&self, doing: &str, error: rusqlite::Error) -> StoreError {
        StoreError::Database {
            at: self.at.clone(),
            detail: format!("{doing}: {error}"),
        }
    }
}

impl WorldStore for SqliteStore {
    /// In the note beside the file.
    fn note_listening(&mut self, addr: &str) {
        holder::write(&self.path, &super::describe_holder(Some(addr)));
    }

    fn add_player(&mut self, row: &PlayerRow) -> Result<(), StoreError> {
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

    fn commit_turn(&mut self, commit: &TurnCommit) -> Result<(), StoreError> {
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

    fn events(&mut self, from: u64, to: u64) -> Result<Vec<LogEntry>, StoreError> {
        rows::read_events(&self.connection, &self.at, from, to)
    }

    fn players(&mut self) -> Result<Vec<PlayerRow>, StoreError> {
        rows::read_players(&self.connection, &self.at)
    }
}
