//! Why a store cannot be used: typed, so that a caller can match, and each saying what, where
//! and what to do about it.

use super::place::StorePlace;
use std::fmt;

/// Why the store cannot be used; Display says what and where.
#[derive(Debug)]
pub enum StoreError {
    /// `--resume` of a world that does not exist.
    Missing(StorePlace),
    /// A new world where one exists.
    Exists(StorePlace),
    /// The file is not an SQLite database.
    NotADatabase { at: StorePlace, detail: String },
    /// A database of another program (or an empty file).
    Foreign { at: StorePlace, detail: String },
    /// A world written by a newer or older format.
    Version {
        at: StorePlace,
        found: i64,
        want: i64,
    },
    /// The rows do not make a valid world.
    Corrupt { at: StorePlace, detail: String },
    /// Another server (or program) holds the world: `holder` names it when its note says.
    Held {
        at: StorePlace,
        holder: Option<String>,
    },
    /// The database failed (disk full, permissions, a server down, ...).
    Database { at: StorePlace, detail: String },
    /// The store's thread stopped (it panicked): nothing more can be written.
    Gone,
}

impl StoreError {
    /// A failure of the database at `at` while `doing` something.
    pub(super) fn database(at: &StorePlace, doing: &str, error: impl fmt::Display) -> StoreError {
        StoreError::Database {
            at: at.clone(),
            detail: format!("{doing}: {error}"),
        }
    }

    pub(super) fn corrupt(at: &StorePlace, detail: String) -> StoreError {
        StoreError::Corrupt {
            at: at.clone(),
            detail,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StoreError::Missing(at @ StorePlace::File(_)) => write!(
                f,
                "{at} does not exist: there is no world to resume; leave out --resume to start a \
                 new world there"
            ),
            StoreError::Missing(at @ StorePlace::Postgres(_)) => write!(
                f,
                "{at} holds no world to resume; leave out --resume to start a new world there"
            ),
            StoreError::Exists(at @ StorePlace::File(_)) => write!(
                f,
                "{at} exists: pass --resume to continue it, or choose another --db"
            ),
            StoreError::Exists(at @ StorePlace::Postgres(_)) => write!(
                f,
                "{at} holds a world already: pass --resume to continue it, or choose another --db"
            ),
            StoreError::NotADatabase { at, detail } => write!(
                f,
                "{at} is not an SQLite database ({detail}): refusing to touch it; choose another \
                 --db"
            ),
            StoreError::Foreign { at, detail } => write!(
                f,
                "{at} is not a Megachess world of Roger's ({detail}): refusing to touch it; choose \
                 another --db"
            ),
            StoreError::Version { at, found, want } => write!(
                f,
                "{at} is a Megachess world of format {found} but this roger reads format {want}: \
                 resume it with a roger of format {found}, or choose another --db"
            ),
            StoreError::Corrupt { at, detail } => write!(
                f,
                "{at} is damaged ({detail}): restore it from a copy, or choose another --db"
            ),
            StoreError::Held {
                at,
                holder: Some(holder),
            } => write!(
                f,
                "{at} is in use by another world server ({holder}): stop that one first, or \
                 choose another --db"
            ),
            StoreError::Held { at, holder: None } => write!(
                f,
                "{at} is in use by another program or world server: stop it first, or choose \
                 another --db"
            ),
            StoreError::Gone => write!(f, "the store's thread stopped; nothing more is written"),
            StoreError::Database {
                at: at @ StorePlace::File(_),
                detail,
            } => write!(
                f,
                "{at}: SQLite failed ({detail}): check the disk's space and permissions and that \
                 no other server has the file open"
            ),
            StoreError::Database {
                at: at @ StorePlace::Postgres(_),
                detail,
            } => write!(
                f,
                "{at}: PostgreSQL failed ({detail}): check that the server is up, that the URL's \
                 user, password and database are right, and that the user may create tables \
                 there"
            ),
        }
    }
}

impl std::error::Error for StoreError {}
