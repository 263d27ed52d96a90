//! The rows in PostgreSQL: what a turn writes, one statement per table with the rows as arrays
//! (a turn of 30,000 moved pieces is a dozen round trips, not 30,000), and the world read back
//! through the decoders of `columns.rs`.

use super::schema;
use crate::rules::megachess::{MegachessParams, WorldSnapshot};
use crate::world::events::LogEntry;
use crate::world::store::columns::{self, bits, int, kind_letter, select, Cells};
use crate::world::store::diff::Changes;
use crate::world::store::{PlayerRow, ServerState, StoreError, StorePlace};
use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{GenericClient, Row};

/// Why a write failed: the database's refusal, or a value that does not fit a column.
#[derive(Debug)]
pub(super) enum WriteError {
    Database(postgres::Error),
    Value(String),
}

impl From<postgres::Error> for WriteError {
    fn from(error: postgres::Error) -> WriteError {
        WriteError::Database(error)
    }
}

impl From<String> for WriteError {
    fn from(detail: String) -> WriteError {
        WriteError::Value(detail)
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            WriteError::Database(error) => write!(f, "{}", describe(error)),
            WriteError::Value(detail) => write!(f, "{detail}"),
        }
    }
}

/// The server's own words for an error (with its detail), else the client's.
pub(super) fn describe(error: &postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => match db.detail() {
            Some(detail) => format!("{} ({detail})", db.message()),
            None => db.message().to_string(),
        },
        // The client's own errors keep their cause apart ("error connecting to server", then
        // "Connection refused"): both are said.
        None => match std::error::Error::source(error) {
            Some(cause) => format!("{error}: {cause}"),
            None => error.to_string(),
        },
    }
}

type Written = Result<(), WriteError>;

/// Runs `sql` with `params`, for statements of one row or of arrays.
fn run(client: &mut impl GenericClient, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Written {
    client.execute(sql, params)?;
    Ok(())
}

fn flag(value: bool) -> i64 {
    i64::from(value)
}

/// The world row of a new database.
pub(super) fn insert_world(
    client: &mut impl GenericClient,
    seed: u64,
    world: &WorldSnapshot,
) -> Written {
    run(
        client,
        "INSERT INTO world (id, seed, turn, random_state, id_bound, last_turn)
         VALUES (1, $1, $2, $3, $4, 0)",
        &[
            &bits(seed),
            &int(world.turn, "turn")?,
            &bits(world.random_state),
            &i64::from(world.id_bound),
        ],
    )
}

/// The world's scalars after a completed turn.
pub(super) fn update_world(
    client: &mut impl GenericClient,
    world: &WorldSnapshot,
    last_turn: u64,
) -> Written {
    let changed = client.execute(
        schema::UPDATE_WORLD,
        &[
            &int(world.turn, "turn")?,
            &bits(world.random_state),
            &i64::from(world.id_bound),
            &int(last_turn, "turn")?,
        ],
    )?;
    if changed != 1 {
        return Err(WriteError::Value(format!(
            "table world: {changed} rows updated, not one"
        )));
    }
    Ok(())
}

pub(super) fn write_params(client: &mut impl GenericClient, params: &MegachessParams) -> Written {
    let (names, values): (Vec<&str>, Vec<i64>) = columns::param_values(params)?.into_iter().unzip();
    run(client, schema::UPSERT_PARAMS, &[&names, &values])
}

/// What a turn changed on the board (for a new database: everything).
pub(super) fn write_board_changes(client: &mut impl GenericClient, changes: &Changes) -> Written {
    if !changes.gone_pieces.is_empty() {
        let ids: Vec<i64> = changes
            .gone_pieces
            .iter()
            .map(|id| i64::from(id.0))
            .collect();
        run(client, schema::DELETE_PIECES, &[&ids])?;
    }
    if !changes.pieces.is_empty() {
        let count = changes.pieces.len();
        let mut ids = Vec::with_capacity(count);
        let mut owners = Vec::with_capacity(count);
        let mut kinds = Vec::with_capacity(count);
        let mut xs = Vec::with_capacity(count);
        let mut ys = Vec::with_capacity(count);
        let mut moved = Vec::with_capacity(count);
        let mut orthogonal = Vec::with_capacity(count);
        let mut lives = Vec::with_capacity(count);
        let mut moved_now = Vec::with_capacity(count);
        for &(piece, moved_this_turn) in &changes.pieces {
            ids.push(i64::from(piece.id.0));
            owners.push(i64::from(piece.owner));
            kinds.push(kind_letter(piece.kind));
            xs.push(i64::from(piece.at.x));
            ys.push(i64::from(piece.at.y));
            moved.push(flag(piece.moved));
            orthogonal.push(flag(piece.used_orthogonal_step));
            lives.push(piece.life.map(i64::from));
            moved_now.push(flag(moved_this_turn));
        }
        run(
            client,
            schema::UPSERT_PIECES,
            &[
                &ids,
                &owners,
                &kinds,
                &xs,
                &ys,
                &moved,
                &orthogonal,
                &lives,
                &moved_now,
            ],
        )?;
    }
    if !changes.gone_world_players.is_empty() {
        let ids: Vec<i64> = changes
            .gone_world_players
            .iter()
            .map(|&id| i64::from(id))
            .collect();
        run(client, schema::DELETE_WORLD_PLAYERS, &[&ids])?;
    }
    if !changes.world_players.is_empty() {
        let players = &changes.world_players;
        let ids: Vec<i64> = players.iter().map(|p| i64::from(p.id)).collect();
        let teams: Vec<&str> = players.iter().map(|p| p.team.name()).collect();
        let kings: Vec<Option<i64>> = players
            .iter()
            .map(|p| p.king.map(|king| i64::from(king.0)))
            .collect();
        let scores: Vec<i64> = players.iter().map(|p| p.score).collect();
        let present: Vec<i64> = players.iter().map(|p| flag(p.present)).collect();
        run(
            client,
            schema::UPSERT_WORLD_PLAYERS,
            &[&ids, &teams, &kings, &scores, &present],
        )?;
    }
    write_players(client, &changes.rows)
}

/// Players' rows, each replacing the one of the same id.
pub(super) fn write_players(client: &mut impl GenericClient, rows: &[&PlayerRow]) -> Written {
    if rows.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = rows.iter().map(|row| i64::from(row.id)).collect();
    let teams: Vec<&str> = rows.iter().map(|row| row.team.name()).collect();
    let names: Vec<&str> = rows.iter().map(|row| row.name.as_str()).collect();
    let tokens: Vec<&str> = rows.iter().map(|row| row.token.as_str()).collect();
    let house: Vec<i64> = rows.iter().map(|row| flag(row.house)).collect();
    let joined = rows
        .iter()
        .map(|row| int(row.joined_turn, "joined turn"))
        .collect::<Result<Vec<i64>, String>>()?;
    let eliminated = rows
        .iter()
        .map(|row| {
            row.eliminated_turn
                .map(|turn| int(turn, "eliminated turn"))
                .transpose()
        })
        .collect::<Result<Vec<Option<i64>>, String>>()?;
    let kings_taken: Vec<i64> = rows.iter().map(|row| i64::from(row.kings_taken)).collect();
    let scores: Vec<i64> = rows.iter().map(|row| row.score).collect();
    run(
        client,
        schema::UPSERT_PLAYERS,
        &[
            &ids,
            &teams,
            &names,
            &tokens,
            &house,
            &joined,
            &eliminated,
            &kings_taken,
            &scores,
        ],
    )
}

pub(super) fn write_server(client: &mut impl GenericClient, server: ServerState) -> Written {
    run(
        client,
        schema::UPSERT_SERVER,
        &[
            &bits(server.placement_random),
            &i64::from(server.next_player),
            &int(server.placed[0], "armies placed")?,
            &int(server.placed[1], "armies placed")?,
        ],
    )
}

/// Appends a turn's log entries, numbered from `first_seq` on.
pub(super) fn append_events(
    client: &mut impl GenericClient,
    first_seq: i64,
    entries: &[LogEntry],
) -> Written {
    if entries.is_empty() {
        return Ok(());
    }
    let seqs: Vec<i64> = (first_seq..).take(entries.len()).collect();
    let turns = entries
        .iter()
        .map(|entry| int(entry.turn, "turn"))
        .collect::<Result<Vec<i64>, String>>()?;
    let ms = entries
        .iter()
        .map(|entry| int(entry.ms, "ms"))
        .collect::<Result<Vec<i64>, String>>()?;
    let json = entries
        .iter()
        .map(columns::entry_json)
        .collect::<Result<Vec<String>, String>>()?;
    run(client, schema::APPEND_EVENTS, &[&seqs, &turns, &ms, &json])
}

/// Appends the row of a completed turn (a turn committed twice is an error).
pub(super) fn append_turn(
    client: &mut impl GenericClient,
    turn: u64,
    committed_unix_ms: u64,
    world: &WorldSnapshot,
) -> Written {
    run(
        client,
        schema::APPEND_TURN,
        &[
            &int(turn, "turn")?,
            &int(committed_unix_ms, "time")?,
            &int(world.pieces.len() as u64, "piece count")?,
            &int(world.players.len() as u64, "player count")?,
        ],
    )
}

// ---- reading ------------------------------------------------------------------------------

impl Cells for Row {
    fn integer(&self, name: &str) -> Result<Option<i64>, String> {
        self.try_get(name)
            .map_err(|error| format!("column {name}: {error}"))
    }

    fn text(&self, name: &str) -> Result<String, String> {
        self.try_get(name)
            .map_err(|error| format!("column {name}: {error}"))
    }
}

/// A failure while reading `table`: a missing table or column means the database's contents
/// are bad; anything else (the connection, permissions) is the database's trouble.
pub(super) fn read_failure(at: &StorePlace, table: &str, error: postgres::Error) -> StoreError {
    // (A value of the wrong type is found reading the row, by `Cells`, and is damage too.)
    let damaged = matches!(
        error.code(),
        Some(&SqlState::UNDEFINED_TABLE | &SqlState::UNDEFINED_COLUMN)
    );
    if damaged {
        StoreError::corrupt(at, format!("table {table}: {}", describe(&error)))
    } else {
        StoreError::database(at, &format!("reading table {table}"), describe(&error))
    }
}

/// Every row `sql` gives, each read by `read` (whose error names the row and column).
pub(super) fn query_rows<T>(
    client: &mut impl GenericClient,
    at: &StorePlace,
    table: &str,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    read: impl FnMut(&Row) -> Result<T, String>,
) -> Result<Vec<T>, StoreError> {
    let rows = client
        .query(sql, params)
        .map_err(|error| read_failure(at, table, error))?;
    rows.iter()
        .map(read)
        .collect::<Result<Vec<T>, String>>()
        .map_err(|detail| StoreError::corrupt(at, format!("table {table}: {detail}")))
}

fn one_row<T>(
    client: &mut impl GenericClient,
    at: &StorePlace,
    table: &str,
    sql: &str,
    read: impl FnMut(&Row) -> Result<T, String>,
) -> Result<T, StoreError> {
    let rows = query_rows(client, at, table, sql, &[], read)?;
    columns::only_row(table, rows).map_err(|detail| StoreError::corrupt(at, detail))
}

/// The world as the tables hold it: (seed, last_turn, snapshot), not yet validated.
pub(super) fn read_world(
    client: &mut impl GenericClient,
    at: &StorePlace,
) -> Result<(u64, u64, WorldSnapshot), StoreError> {
    let scalars = one_row(client, at, "world", select::WORLD, columns::world_row)?;
    let params = query_rows(
        client,
        at,
        "params",
        select::PARAMS,
        &[],
        columns::param_row,
    )?;
    let params = columns::params_from(params)
        .map_err(|detail| StoreError::corrupt(at, format!("table params: {detail}")))?;
    let players = query_rows(
        client,
        at,
        "world_players",
        select::WORLD_PLAYERS,
        &[],
        columns::world_player_row,
    )?;
    let pieces = query_rows(
        client,
        at,
        "pieces",
        select::PIECES,
        &[],
        columns::piece_row,
    )?;
    Ok(columns::world_from(scalars, params, players, pieces))
}

pub(super) fn read_players(
    client: &mut impl GenericClient,
    at: &StorePlace,
) -> Result<Vec<PlayerRow>, StoreError> {
    query_rows(
        client,
        at,
        "players",
        select::PLAYERS,
        &[],
        columns::player_row,
    )
}

pub(super) fn read_server(
    client: &mut impl GenericClient,
    at: &StorePlace,
) -> Result<ServerState, StoreError> {
    one_row(client, at, "server", select::SERVER, columns::server_row)
}

/// The next number of the log (one past the highest).
pub(super) fn next_event_seq(
    client: &mut impl GenericClient,
    at: &StorePlace,
) -> Result<i64, StoreError> {
    let rows = query_rows(
        client,
        at,
        "events",
        "SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM events",
        &[],
        |row| columns::signed(row, "next"),
    )?;
    columns::only_row("events", rows).map_err(|detail| StoreError::corrupt(at, detail))
}

/// The log entries of turns `from..=to`, in the order they were written.
pub(super) fn read_events(
    client: &mut impl GenericClient,
    at: &StorePlace,
    from: u64,
    to: u64,
) -> Result<Vec<LogEntry>, StoreError> {
    let clamp = |turn: u64| i64::try_from(turn).unwrap_or(i64::MAX);
    query_rows(
        client,
        at,
        "events",
        schema::READ_EVENTS,
        &[&clamp(from), &clamp(to)],
        columns::event_row,
    )
}
