//! Where a world lives between turns: the world after every completed turn written in one
//! transaction with that turn's log and every player's row, and a player's row (with its token)
//! written the moment it joins, so a crash or a SIGKILL loses at most the turn in progress and
//! never a token. A place that is not a world of ours (another program's database, a newer
//! format, damaged rows) is a clear error, never a fresh world. One server at a time holds a
//! world, and a second one is refused with the first one named, before it has read or written
//! anything.
//!
//! Two stores behind one trait ([`WorldStore`]): SQLite, one file, the embedded default
//! (`sqlite/`), and PostgreSQL, a database shared over the network (`postgres/`). Both have the
//! same tables and columns (`columns.rs` reads the rows of either) and write only what a turn
//! changed (`diff.rs`); `writer.rs` runs either on a thread of its own.

mod columns;
mod diff;
mod error;
mod place;
mod postgres;
pub(super) mod sqlite;
#[cfg(test)]
mod tests;
pub mod writer;

pub use error::StoreError;
pub use place::{PostgresUrl, StorePlace};
pub use postgres::{PostgresStore, ScratchDatabase, TEST_SERVER_VARIABLE};
pub use sqlite::SqliteStore;

use super::events::LogEntry;
use crate::rules::megachess::{PlayerId, Team, WorldSnapshot};

/// The mark of a Megachess world of Roger's: "RgMW" in ASCII (SQLite's `application_id`; in
/// PostgreSQL, the `identity` table's, and the key of the lock a server holds the world by).
const APPLICATION_ID: i32 = 0x5267_4D57;
/// The format of the tables; the same in both stores.
const FORMAT_VERSION: i64 = 1;

/// An open world, held by this process alone until dropped.
pub trait WorldStore: Send {
    /// Writes a new player's row at once (its token survives a crash in this turn).
    fn add_player(&mut self, row: &PlayerRow) -> Result<(), StoreError>;

    /// Writes a completed turn in one transaction: all of it or, on an error, none of it. Only
    /// the rows the turn changed are written.
    fn commit_turn(&mut self, commit: &TurnCommit) -> Result<(), StoreError>;

    /// The log entries of turns `from..=to`, in order.
    fn events(&mut self, from: u64, to: u64) -> Result<Vec<LogEntry>, StoreError>;

    /// The players' rows, by id.
    fn players(&mut self) -> Result<Vec<PlayerRow>, StoreError>;

    /// Names the address this server listens on where a second server that is refused reads
    /// who holds the world.
    fn note_listening(&mut self, addr: &str);
}

/// A new world at `place` (where none may be yet) for a world of `seed` whose state before
/// turn 1 is `world`.
pub fn create(
    place: &StorePlace,
    seed: u64,
    world: &WorldSnapshot,
    server: ServerState,
) -> Result<Box<dyn WorldStore>, StoreError> {
    Ok(match place {
        StorePlace::File(path) => Box::new(SqliteStore::create(path, seed, world, server)?),
        StorePlace::Postgres(url) => Box::new(PostgresStore::create(url, seed, world, server)?),
    })
}

/// The world at `place`, to continue it.
pub fn resume(place: &StorePlace) -> Result<(Box<dyn WorldStore>, Saved), StoreError> {
    Ok(match place {
        StorePlace::File(path) => {
            let (store, saved) = SqliteStore::resume(path)?;
            (Box::new(store), saved)
        }
        StorePlace::Postgres(url) => {
            let (store, saved) = PostgresStore::resume(url)?;
            (Box::new(store), saved)
        }
    })
}

/// The process holding a world, as a refused second server names it: `pid P on HOST`, then
/// `, listening ADDR` once it listens.
fn describe_holder(listening: Option<&str>) -> String {
    let mut text = format!("pid {} on {}", std::process::id(), host_name());
    if let Some(addr) = listening {
        text.push_str(&format!(", listening {addr}"));
    }
    text
}

/// The machine's name, as the kernel or the environment tells it.
fn host_name() -> String {
    let from_file = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .map(|text| text.trim().to_string())
    };
    from_file("/proc/sys/kernel/hostname")
        .or_else(|| from_file("/etc/hostname"))
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .filter(|name| !name.is_empty() && !name.chars().any(char::is_control))
        .unwrap_or_else(|| "this machine".to_string())
}

/// A holder's description as read back: one short printable line, or nothing.
fn readable_holder(text: &str) -> Option<String> {
    let line = text.lines().next()?.trim();
    (!line.is_empty() && line.len() <= 300 && !line.chars().any(char::is_control))
        .then(|| line.to_string())
}

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

impl Saved {
    /// The rows read back from `at`, once they make a valid world.
    fn checked(
        at: &StorePlace,
        (seed, last_turn, world): (u64, u64, WorldSnapshot),
        players: Vec<PlayerRow>,
        server: ServerState,
    ) -> Result<Saved, StoreError> {
        crate::rules::megachess::World::from_snapshot(&world).map_err(|error| {
            StoreError::corrupt(
                at,
                format!("tables world, world_players and pieces: {error}"),
            )
        })?;
        Ok(Saved {
            seed,
            last_turn,
            world,
            players,
            server,
        })
    }
}
