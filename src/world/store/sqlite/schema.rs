//! The file's identity (`PRAGMA application_id` and `user_version`) and tables (format 1), and
//! how every connection to it is set up.

use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::time::Duration;

pub(super) use crate::world::store::{APPLICATION_ID, FORMAT_VERSION};
/// How long a statement waits for a lock another connection holds (a reader of the file,
/// a checkpoint) before it fails; short, since the turn loop waits with it.
const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

/// The tables of format 1. Unsigned numbers are SQLite integers (they fit in 63 bits), but the
/// two generator states are all 64 bits of a `u64` stored as the `i64` of the same bits.
/// Booleans are 0 or 1. The board's invariants (squares on the board and held once, kings,
/// lives) are checked on reading by `World::from_snapshot`, not by constraints, so the tables
/// stay cheap to rewrite every turn.
pub(super) const SCHEMA: &str = "
CREATE TABLE world (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seed INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    random_state INTEGER NOT NULL,
    id_bound INTEGER NOT NULL,
    last_turn INTEGER NOT NULL
);
CREATE TABLE params (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE world_players (
    id INTEGER PRIMARY KEY,
    team TEXT NOT NULL,
    king INTEGER,
    score INTEGER NOT NULL,
    present INTEGER NOT NULL
);
CREATE TABLE pieces (
    id INTEGER PRIMARY KEY,
    owner INTEGER NOT NULL,
    kind TEXT NOT NULL,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    moved INTEGER NOT NULL,
    used_orthogonal_step INTEGER NOT NULL,
    life INTEGER,
    moved_this_turn INTEGER NOT NULL
);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    team TEXT NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    house INTEGER NOT NULL,
    joined_turn INTEGER NOT NULL,
    eliminated_turn INTEGER,
    kings_taken INTEGER NOT NULL,
    score INTEGER NOT NULL
);
CREATE TABLE server (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    placement_random INTEGER NOT NULL,
    next_player INTEGER NOT NULL,
    placed_alabaster INTEGER NOT NULL,
    placed_metal INTEGER NOT NULL
);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    turn INTEGER NOT NULL,
    ms INTEGER NOT NULL,
    entry TEXT NOT NULL
);
CREATE INDEX events_by_turn ON events (turn, seq);
CREATE TABLE turns (
    turn INTEGER PRIMARY KEY,
    committed_unix_ms INTEGER NOT NULL,
    pieces INTEGER NOT NULL,
    players INTEGER NOT NULL
);
";

/// Opens an existing file read-write (never creating it; no URI names).
pub(super) fn open(path: &Path) -> rusqlite::Result<Connection> {
    Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
}

/// Takes the file for this connection alone until it closes (SQLite's exclusive locking mode,
/// the lock taken at once by an empty write transaction): no other connection, in this process
/// or another, reads or writes it meanwhile, and a second server is refused before it has read
/// or written anything. Fails at once with `DatabaseBusy` while someone else holds the file.
/// The operating system lets go of the lock when the process dies, even by SIGKILL.
pub(super) fn hold(connection: &Connection) -> rusqlite::Result<()> {
    connection.busy_timeout(Duration::ZERO)?;
    connection.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;")?;
    set_busy_timeout(connection)
}

/// The lock wait, for any connection before it first reads.
pub(super) fn set_busy_timeout(connection: &Connection) -> rusqlite::Result<()> {
    connection.busy_timeout(BUSY_TIMEOUT)
}

/// WAL with `synchronous=NORMAL`: a committed turn survives the process being killed (a power
/// cut may lose the last turns, never the file's consistency). The file is held exclusively
/// (`hold`), so the WAL index lives in the process's memory and no `-shm` file is made. Only for a file known to be ours: the journal mode is written into the file.
pub(super) fn set_journal(connection: &Connection) -> rusqlite::Result<()> {
    let mode: String = connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(rusqlite::Error::ToSqlConversionFailure(
            format!("the file refused WAL journaling (journal mode {mode})").into(),
        ));
    }
    connection.execute_batch("PRAGMA synchronous = NORMAL;")?;
    // Every statement of a commit stays prepared.
    connection.set_prepared_statement_cache_capacity(32);
    Ok(())
}

/// Writes the identity into a new file (inside the creating transaction).
pub(super) fn write_identity(connection: &Connection) -> rusqlite::Result<()> {
    connection.execute_batch(&format!(
        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {FORMAT_VERSION};"
    ))
}

/// The file's application id and format version (reading them reads the header: a file that
/// is not SQLite fails here with `NotADatabase`).
pub(super) fn read_identity(connection: &Connection) -> rusqlite::Result<(i32, i64)> {
    let application_id: i32 =
        connection.query_row("PRAGMA application_id", [], |row| row.get(0))?;
    let user_version: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    Ok((application_id, user_version))
}

/// The names of the file's tables, to say what a foreign database holds.
pub(super) fn table_names(connection: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut statement = connection
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name LIMIT 8")?;
    let names = statement.query_map([], |row| row.get(0))?;
    names.collect()
}
