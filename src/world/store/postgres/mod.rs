//! The world in PostgreSQL, the shared store: one world per database (its tables in the
//! connection's current schema, `schema.rs`), so that servers and tools on other machines can
//! reach it over the network, and PostgreSQL's own backups and replicas keep it.
//!
//! One server at a time: a server holds the world by a session advisory lock (keyed by the
//! world's mark) from before it reads anything until it disconnects, and names itself in the
//! `holder` table; a second server is refused with the first one named. PostgreSQL lets go of
//! the lock when the holder's connection ends, SIGKILL included.

mod rows;
mod schema;
mod scratch;

pub use scratch::{ScratchDatabase, TEST_SERVER_VARIABLE};

use super::diff::Written;
use super::{
    describe_holder, readable_holder, LogEntry, PlayerRow, PostgresUrl, Saved, ServerState,
    StoreError, StorePlace, TurnCommit, WorldStore, APPLICATION_ID, FORMAT_VERSION,
};
use crate::rules::megachess::WorldSnapshot;
use postgres::{Client, Config, IsolationLevel, NoTls};
use rows::{describe, WriteError};
use std::str::FromStr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long connecting may take before the server gives up with an error.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a server waits for a held world to be let go: a killed holder's connection is
/// noticed by PostgreSQL within moments, a live holder keeps it, and the second server is
/// refused.
const HOLD_WAIT: Duration = Duration::from_secs(5);

/// An open world database, held by this process alone until dropped.
pub struct PostgresStore {
    at: StorePlace,
    client: Client,
    /// The rows as last committed, so that a turn writes only what it changed.
    written: Written,
    /// The number the next log entry gets.
    next_seq: i64,
}

/// Connects to `url`'s database.
pub(super) fn connect(url: &PostgresUrl, at: &StorePlace) -> Result<Client, StoreError> {
    let mut config = Config::from_str(url.secret())
        .map_err(|error| StoreError::database(at, "reading the URL", error))?;
    config.connect_timeout(CONNECT_TIMEOUT);
    config.application_name("roger world");
    config
        .connect(NoTls)
        .map_err(|error| StoreError::database(at, "connecting", describe(&error)))
}

/// The names of the tables of the connection's current schema.
fn table_names(client: &mut Client, at: &StorePlace) -> Result<Vec<String>, StoreError> {
    rows::query_rows(
        client,
        at,
        "information_schema.tables",
        schema::TABLE_NAMES,
        &[],
        |row| super::columns::Cells::text(row, "name"),
    )
}

/// Takes the world for this connection alone (a session advisory lock), waiting a moment for
/// a holder that is going away; held by a live server, the error names it.
fn hold(client: &mut Client, at: &StorePlace) -> Result<(), StoreError> {
    let began = Instant::now();
    loop {
        let taken: bool = client
            .query_one(
                "SELECT pg_try_advisory_lock($1)",
                &[&i64::from(APPLICATION_ID)],
            )
            .and_then(|row| row.try_get(0))
            .map_err(|error| StoreError::database(at, "taking the world", describe(&error)))?;
        if taken {
            return Ok(());
        }
        if began.elapsed() >= HOLD_WAIT {
            // The holder's note, if the tables are there to hold one.
            let holder = client
                .query("SELECT note FROM holder", &[])
                .ok()
                .and_then(|rows| {
                    rows.first()
                        .and_then(|row| row.try_get::<_, String>(0).ok())
                })
                .and_then(|note| readable_holder(&note));
            return Err(StoreError::Held {
                at: at.clone(),
                holder,
            });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What the database holds: nothing, a world of ours, or something else.
enum Contents {
    Empty,
    Ours,
}

/// Reads what the database holds; another program's tables, another format or another mark
/// is an error, and nothing is touched.
fn contents(client: &mut Client, at: &StorePlace) -> Result<Contents, StoreError> {
    let tables = table_names(client, at)?;
    if tables.is_empty() {
        return Ok(Contents::Empty);
    }
    let foreign = |detail: String| StoreError::Foreign {
        at: at.clone(),
        detail,
    };
    let listed = || {
        let shown: Vec<&str> = tables.iter().take(8).map(String::as_str).collect();
        format!("tables {}", shown.join(", "))
    };
    if !tables.iter().any(|name| name == "identity")
        || tables
            .iter()
            .any(|name| !schema::TABLES.contains(&name.as_str()))
    {
        return Err(foreign(listed()));
    }
    let identity = rows::query_rows(
        client,
        at,
        "identity",
        "SELECT application_id, format_version FROM identity",
        &[],
        |row| {
            Ok((
                super::columns::signed(row, "application_id")?,
                super::columns::signed(row, "format_version")?,
            ))
        },
    )?;
    let (mark, version) = super::columns::only_row("identity", identity).map_err(foreign)?;
    if mark != i64::from(APPLICATION_ID) {
        return Err(foreign(format!("application id {mark:#x}, {}", listed())));
    }
    if version != FORMAT_VERSION {
        return Err(StoreError::Version {
            at: at.clone(),
            found: version,
            want: FORMAT_VERSION,
        });
    }
    Ok(Contents::Ours)
}

/// Now, in milliseconds since 1970.
fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}

impl PostgresStore {
    /// A new world in `url`'s database, which must hold no tables yet.
    pub fn create(
        url: &PostgresUrl,
        seed: u64,
        world: &WorldSnapshot,
        server: ServerState,
    ) -> Result<PostgresStore, StoreError> {
        let at = StorePlace::Postgres(url.clone());
        let mut client = connect(url, &at)?;
        hold(&mut client, &at)?;
        match contents(&mut client, &at)? {
            Contents::Ours => return Err(StoreError::Exists(at)),
            Contents::Empty => {}
        }
        let result = (|| -> Result<(), WriteError> {
            let mut transaction = client.transaction()?;
            transaction.batch_execute(schema::SCHEMA)?;
            transaction.execute(
                "INSERT INTO identity (application_id, format_version) VALUES ($1, $2)",
                &[&i64::from(APPLICATION_ID), &FORMAT_VERSION],
            )?;
            rows::insert_world(&mut transaction, seed, world)?;
            rows::write_params(&mut transaction, &world.params)?;
            // Everything is new to an empty database.
            rows::write_board_changes(&mut transaction, &Written::default().changes(world, &[]))?;
            rows::write_server(&mut transaction, server)?;
            transaction.commit()?;
            Ok(())
        })();
        result.map_err(|error| StoreError::database(&at, "creating the world", error))?;
        Ok(PostgresStore::named(at, client, Written::of(world, &[]), 1))
    }

    /// The store of a world held and known to be ours: the holder's note names this process.
    fn named(at: StorePlace, client: Client, written: Written, next_seq: i64) -> PostgresStore {
        let mut store = PostgresStore {
            at,
            client,
            written,
            next_seq,
        };
        store.write_note(None);
        store
    }

    /// Names this process in the `holder` table (a failure only loses the name a refused
    /// server would print).
    fn write_note(&mut self, listening: Option<&str>) {
        let note = describe_holder(listening);
        let _ = self.client.execute(
            "INSERT INTO holder (id, note) VALUES (1, $1)
             ON CONFLICT (id) DO UPDATE SET note = excluded.note",
            &[&note],
        );
    }

    /// Opens the world in `url`'s database to continue it.
    pub fn resume(url: &PostgresUrl) -> Result<(PostgresStore, Saved), StoreError> {
        let at = StorePlace::Postgres(url.clone());
        let mut client = connect(url, &at)?;
        // Held before anything is read: a second server learns nothing and changes nothing.
        hold(&mut client, &at)?;
        match contents(&mut client, &at)? {
            Contents::Empty => return Err(StoreError::Missing(at)),
            Contents::Ours => {}
        }
        // One read transaction: every table as of the same commit.
        let mut transaction = client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(|error| StoreError::database(&at, "reading the world", describe(&error)))?;
        let world = rows::read_world(&mut transaction, &at)?;
        let players = rows::read_players(&mut transaction, &at)?;
        let server = rows::read_server(&mut transaction, &at)?;
        let next_seq = rows::next_event_seq(&mut transaction, &at)?;
        transaction
            .commit()
            .map_err(|error| StoreError::database(&at, "reading the world", describe(&error)))?;
        let saved = Saved::checked(&at, world, players, server)?;
        let written = Written::of(&saved.world, &saved.players);
        Ok((PostgresStore::named(at, client, written, next_seq), saved))
    }
}

impl Drop for PostgresStore {
    /// The note goes; the lock goes with the connection.
    fn drop(&mut self) {
        let _ = self.client.execute("DELETE FROM holder", &[]);
    }
}

impl WorldStore for PostgresStore {
    /// In the `holder` table.
    fn note_listening(&mut self, addr: &str) {
        self.write_note(Some(addr));
    }

    fn add_player(&mut self, row: &PlayerRow) -> Result<(), StoreError> {
        rows::write_players(&mut self.client, &[row]).map_err(|error| {
            StoreError::database(&self.at, &format!("writing player {}", row.id), error)
        })?;
        self.written.record_row(row);
        Ok(())
    }

    fn commit_turn(&mut self, commit: &TurnCommit) -> Result<(), StoreError> {
        let committed_unix_ms = unix_ms();
        let changes = self.written.changes(commit.world, commit.players);
        let result = (|| -> Result<(), WriteError> {
            let mut transaction = self.client.transaction()?;
            rows::update_world(&mut transaction, commit.world, commit.turn)?;
            rows::write_params(&mut transaction, &commit.world.params)?;
            rows::write_board_changes(&mut transaction, &changes)?;
            rows::append_events(&mut transaction, self.next_seq, commit.events)?;
            rows::write_server(&mut transaction, commit.server)?;
            rows::append_turn(
                &mut transaction,
                commit.turn,
                committed_unix_ms,
                commit.world,
            )?;
            // Dropped without this, the transaction rolls back.
            transaction.commit()?;
            Ok(())
        })();
        match result {
            Ok(()) => {
                self.next_seq += commit.events.len() as i64;
                self.written.record(&changes.owned());
                Ok(())
            }
            Err(error) => Err(StoreError::database(
                &self.at,
                &format!("writing turn {}", commit.turn),
                error,
            )),
        }
    }

    fn events(&mut self, from: u64, to: u64) -> Result<Vec<LogEntry>, StoreError> {
        rows::read_events(&mut self.client, &self.at, from, to)
    }

    fn players(&mut self) -> Result<Vec<PlayerRow>, StoreError> {
        rows::read_players(&mut self.client, &self.at)
    }
}
