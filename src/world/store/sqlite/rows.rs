//! The rows in SQLite: what a turn writes into the tables of `schema.rs`, one statement per
//! row (each prepared once), and the world read back through the decoders of `columns.rs`.

use crate::rules::megachess::{MegachessParams, Team, WorldSnapshot};
use crate::world::events::LogEntry;
use crate::world::store::columns::{self, select, Cells};
use crate::world::store::diff::Changes;
use crate::world::store::{PlayerRow, ServerState, StoreError, StorePlace};
use rusqlite::{Connection, ErrorCode, Params, Row};

// ---- writing ------------------------------------------------------------------------------

/// An encoding failure as SQLite's error, so that it rolls the transaction back like one.
fn refused(detail: String) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(detail.into())
}

fn int(value: u64, what: &str) -> rusqlite::Result<i64> {
    columns::int(value, what).map_err(refused)
}

use columns::{bits, kind_letter};

fn team_name(team: Team) -> &'static str {
    team.name()
}

/// The world row of a new file.
pub(super) fn insert_world(
    connection: &Connection,
    seed: u64,
    world: &WorldSnapshot,
) -> rusqlite::Result<()> {
    connection.execute(
        "INSERT INTO world (id, seed, turn, random_state, id_bound, last_turn)
         VALUES (1, ?1, ?2, ?3, ?4, 0)",
        (
            bits(seed),
            int(world.turn, "turn")?,
            bits(world.random_state),
            world.id_bound,
        ),
    )?;
    Ok(())
}

/// The world's scalars after a completed turn.
pub(super) fn update_world(
    connection: &Connection,
    world: &WorldSnapshot,
    last_turn: u64,
) -> rusqlite::Result<()> {
    let changed = connection
        .prepare_cached(
            "UPDATE world SET turn = ?1, random_state = ?2, id_bound = ?3, last_turn = ?4
             WHERE id = 1",
        )?
        .execute((
            int(world.turn, "turn")?,
            bits(world.random_state),
            world.id_bound,
            int(last_turn, "turn")?,
        ))?;
    if changed != 1 {
        return Err(rusqlite::Error::StatementChangedRows(changed));
    }
    Ok(())
}

/// Every parameter by its name.
pub(super) fn write_params(
    connection: &Connection,
    params: &MegachessParams,
) -> rusqlite::Result<()> {
    let mut statement =
        connection.prepare_cached("INSERT OR REPLACE INTO params (name, value) VALUES (?1, ?2)")?;
    for (name, value) in columns::param_values(params).map_err(refused)? {
        statement.execute((name, value))?;
    }
    Ok(())
}

/// What a turn changed on the board (for a new file: everything): pieces and the world's
/// players written or deleted, and the player rows written.
pub(super) fn write_board_changes(
    connection: &Connection,
    changes: &Changes,
) -> rusqlite::Result<()> {
    let mut delete_piece = connection.prepare_cached("DELETE FROM pieces WHERE id = ?1")?;
    for id in &changes.gone_pieces {
        delete_piece.execute([id.0])?;
    }
    let mut piece_statement = connection.prepare_cached(
        "INSERT OR REPLACE INTO pieces (id, owner, kind, x, y, moved, used_orthogonal_step,
                                        life, moved_this_turn)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for &(piece, moved_this_turn) in &changes.pieces {
        piece_statement.execute((
            piece.id.0,
            piece.owner,
            kind_letter(piece.kind),
            piece.at.x,
            piece.at.y,
            piece.moved,
            piece.used_orthogonal_step,
            piece.life,
            moved_this_turn,
        ))?;
    }
    let mut delete_player = connection.prepare_cached("DELETE FROM world_players WHERE id = ?1")?;
    for id in &changes.gone_world_players {
        delete_player.execute([id])?;
    }
    let mut player_statement = connection.prepare_cached(
        "INSERT OR REPLACE INTO world_players (id, team, king, score, present)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for player in &changes.world_players {
        player_statement.execute((
            player.id,
            team_name(player.team),
            player.king.map(|king| king.0),
            player.score,
            player.present,
        ))?;
    }
    for row in &changes.rows {
        upsert_player(connection, row)?;
    }
    Ok(())
}

/// A player's row, replacing the one of the same id.
pub(super) fn upsert_player(connection: &Connection, row: &PlayerRow) -> rusqlite::Result<()> {
    connection
        .prepare_cached(
            "INSERT INTO players (id, team, name, token, house, joined_turn, eliminated_turn,
                                  kings_taken, score)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT (id) DO UPDATE SET team = excluded.team, name = excluded.name,
                 token = excluded.token, house = excluded.house,
                 joined_turn = excluded.joined_turn, eliminated_turn = excluded.eliminated_turn,
                 kings_taken = excluded.kings_taken, score = excluded.score",
        )?
        .execute((
            row.id,
            team_name(row.team),
            &row.name,
            &row.token,
            row.house,
            int(row.joined_turn, "joined turn")?,
            row.eliminated_turn
                .map(|turn| int(turn, "eliminated turn"))
                .transpose()?,
            row.kings_taken,
            row.score,
        ))?;
    Ok(())
}

pub(super) fn write_server(connection: &Connection, server: ServerState) -> rusqlite::Result<()> {
    connection
        .prepare_cached(
            "INSERT OR REPLACE INTO server (id, placement_random, next_player, placed_alabaster,
                                            placed_metal)
             VALUES (1, ?1, ?2, ?3, ?4)",
        )?
        .execute((
            bits(server.placement_random),
            server.next_player,
            int(server.placed[0], "armies placed")?,
            int(server.placed[1], "armies placed")?,
        ))?;
    Ok(())
}

/// Appends one entry of the turn log (its `seq` is the next one).
pub(super) fn append_event(connection: &Connection, entry: &LogEntry) -> rusqlite::Result<()> {
    let json = columns::entry_json(entry).map_err(refused)?;
    connection
        .prepare_cached("INSERT INTO events (turn, ms, entry) VALUES (?1, ?2, ?3)")?
        .execute((int(entry.turn, "turn")?, int(entry.ms, "ms")?, json))?;
    Ok(())
}

/// Appends the row of a completed turn (a turn committed twice is an error).
pub(super) fn append_turn(
    connection: &Connection,
    turn: u64,
    committed_unix_ms: u64,
    world: &WorldSnapshot,
) -> rusqlite::Result<()> {
    connection
        .prepare_cached(
            "INSERT INTO turns (turn, committed_unix_ms, pieces, players) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute((
            int(turn, "turn")?,
            int(committed_unix_ms, "time")?,
            int(world.pieces.len() as u64, "piece count")?,
            int(world.players.len() as u64, "player count")?,
        ))?;
    Ok(())
}

// ---- reading ------------------------------------------------------------------------------

impl Cells for Row<'_> {
    fn integer(&self, name: &str) -> Result<Option<i64>, String> {
        self.get(name)
            .map_err(|error| format!("column {name}: {error}"))
    }

    fn text(&self, name: &str) -> Result<String, String> {
        self.get(name)
            .map_err(|error| format!("column {name}: {error}"))
    }
}

/// A failure while reading `table`: the file being busy or the disk failing is SQLite's
/// trouble; anything else (a missing table, a value of the wrong type, a damaged page) means
/// the file's contents are bad.
pub(super) fn read_failure(at: &StorePlace, table: &str, error: rusqlite::Error) -> StoreError {
    let environmental = matches!(
        error.sqlite_error_code(),
        Some(
            ErrorCode::DatabaseBusy
                | ErrorCode::DatabaseLocked
                | ErrorCode::SystemIoFailure
                | ErrorCode::DiskFull
                | ErrorCode::CannotOpen
                | ErrorCode::PermissionDenied
                | ErrorCode::OutOfMemory
                | ErrorCode::ReadOnly
                | ErrorCode::FileLockingProtocolFailed
                | ErrorCode::OperationInterrupted
                | ErrorCode::NoLargeFileSupport
        )
    );
    if environmental {
        StoreError::database(at, &format!("reading table {table}"), error)
    } else {
        StoreError::corrupt(at, format!("table {table}: {error}"))
    }
}

/// Every row `sql` gives, each read by `read` (whose error names the row and column).
pub(super) fn query_rows<T>(
    connection: &Connection,
    at: &StorePlace,
    table: &str,
    sql: &str,
    params: impl Params,
    mut read: impl FnMut(&Row) -> Result<T, String>,
) -> Result<Vec<T>, StoreError> {
    let failure = |error| read_failure(at, table, error);
    let mut statement = connection.prepare_cached(sql).map_err(failure)?;
    let mut rows = statement.query(params).map_err(failure)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(failure)? {
        out.push(
            read(row)
                .map_err(|detail| StoreError::corrupt(at, format!("table {table}: {detail}")))?,
        );
    }
    Ok(out)
}

/// The one row of a one-row table.
fn one_row<T>(
    connection: &Connection,
    at: &StorePlace,
    table: &str,
    sql: &str,
    read: impl FnMut(&Row) -> Result<T, String>,
) -> Result<T, StoreError> {
    let rows = query_rows(connection, at, table, sql, [], read)?;
    columns::only_row(table, rows).map_err(|detail| StoreError::corrupt(at, detail))
}

/// The world as the tables hold it: (seed, last_turn, snapshot), not yet validated.
pub(super) fn read_world(
    connection: &Connection,
    at: &StorePlace,
) -> Result<(u64, u64, WorldSnapshot), StoreError> {
    let scalars = one_row(connection, at, "world", select::WORLD, |row| {
        columns::world_row(row)
    })?;
    let params = read_params(connection, at)?;
    let players = query_rows(
        connection,
        at,
        "world_players",
        select::WORLD_PLAYERS,
        [],
        |row| columns::world_player_row(row),
    )?;
    let pieces = query_rows(connection, at, "pieces", select::PIECES, [], |row| {
        columns::piece_row(row)
    })?;
    Ok(columns::world_from(scalars, params, players, pieces))
}

fn read_params(connection: &Connection, at: &StorePlace) -> Result<MegachessParams, StoreError> {
    let rows = query_rows(connection, at, "params", select::PARAMS, [], |row| {
        columns::param_row(row)
    })?;
    columns::params_from(rows)
        .map_err(|detail| StoreError::corrupt(at, format!("table params: {detail}")))
}

pub(super) fn read_players(
    connection: &Connection,
    at: &StorePlace,
) -> Result<Vec<PlayerRow>, StoreError> {
    query_rows(connection, at, "players", select::PLAYERS, [], |row| {
        columns::player_row(row)
    })
}

pub(super) fn read_server(
    connection: &Connection,
    at: &StorePlace,
) -> Result<ServerState, StoreError> {
    one_row(connection, at, "server", select::SERVER, |row| {
        columns::server_row(row)
    })
}

/// The log entries of turns `from..=to`, in the order they were written.
pub(super) fn read_events(
    connection: &Connection,
    at: &StorePlace,
    from: u64,
    to: u64,
) -> Result<Vec<LogEntry>, StoreError> {
    // Turns beyond the integers hold no entries.
    let clamp = |turn: u64| i64::try_from(turn).unwrap_or(i64::MAX);
    query_rows(
        connection,
        at,
        "events",
        "SELECT seq, entry FROM events WHERE turn BETWEEN ?1 AND ?2 ORDER BY seq",
        (clamp(from), clamp(to)),
        |row| columns::event_row(row),
    )
}
