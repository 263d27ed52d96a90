//! The rows: what a world, a player and the server's state become in the tables of
//! `schema.rs`, and back, with every value read checked (a bad row is named, never a panic).

use super::diff::Changes;
use super::{PlayerRow, ServerState, StoreError};
use crate::rules::megachess::{
    Coord, Kind, MegachessParams, Piece, PieceId, Player, Team, WorldSnapshot, PARAMETERS,
};
use crate::world::events::LogEntry;
use rusqlite::types::FromSql;
use rusqlite::{Connection, ErrorCode, Params, Row};
use std::path::Path;

// ---- writing ------------------------------------------------------------------------------

/// A count or turn as an SQLite integer; more than 63 bits is an error, never a wrap.
fn int(value: u64, what: &str) -> rusqlite::Result<i64> {
    i64::try_from(value).map_err(|_| {
        rusqlite::Error::ToSqlConversionFailure(
            format!("{what} {value} does not fit an SQLite integer").into(),
        )
    })
}

/// A generator state: all 64 bits, stored as the `i64` of the same bits.
fn bits(value: u64) -> i64 {
    value as i64
}

fn team_name(team: Team) -> &'static str {
    team.name()
}

fn kind_letter(kind: Kind) -> String {
    kind.letter().to_string()
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
    for parameter in PARAMETERS {
        let value = params.get(parameter.name).ok_or_else(|| {
            rusqlite::Error::ToSqlConversionFailure(
                format!("parameter {} has no value", parameter.name).into(),
            )
        })?;
        statement.execute((parameter.name, value))?;
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
    let json = serde_json::to_string(entry)
        .map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
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

/// A failure while reading `table`: the file being busy or the disk failing is SQLite's
/// trouble; anything else (a missing table, a value of the wrong type, a damaged page) means
/// the file's contents are bad.
pub(super) fn read_failure(path: &Path, table: &str, error: rusqlite::Error) -> StoreError {
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
        StoreError::Sqlite {
            path: path.to_path_buf(),
            detail: format!("reading table {table}: {error}"),
        }
    } else {
        StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: format!("table {table}: {error}"),
        }
    }
}

fn corrupt(path: &Path, detail: String) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        detail,
    }
}

/// Every row `sql` gives, each read by `read` (whose error names the row and column).
pub(super) fn query_rows<T>(
    connection: &Connection,
    path: &Path,
    table: &str,
    sql: &str,
    params: impl Params,
    mut read: impl FnMut(&Row) -> Result<T, String>,
) -> Result<Vec<T>, StoreError> {
    let failure = |error| read_failure(path, table, error);
    let mut statement = connection.prepare_cached(sql).map_err(failure)?;
    let mut rows = statement.query(params).map_err(failure)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(failure)? {
        out.push(read(row).map_err(|detail| corrupt(path, format!("table {table}: {detail}")))?);
    }
    Ok(out)
}

/// The one row of a one-row table.
fn only_row<T>(path: &Path, table: &str, mut rows: Vec<T>) -> Result<T, StoreError> {
    match rows.len() {
        1 => Ok(rows.remove(0)),
        count => Err(corrupt(
            path,
            format!("table {table} has {count} rows, not one"),
        )),
    }
}

fn column<T: FromSql>(row: &Row, name: &str) -> Result<T, String> {
    row.get(name)
        .map_err(|error| format!("column {name}: {error}"))
}

fn unsigned(row: &Row, name: &str) -> Result<u64, String> {
    let value: i64 = column(row, name)?;
    u64::try_from(value).map_err(|_| format!("column {name}: {value} is negative"))
}

fn optional_unsigned(row: &Row, name: &str) -> Result<Option<u64>, String> {
    let value: Option<i64> = column(row, name)?;
    value
        .map(|value| {
            u64::try_from(value).map_err(|_| format!("column {name}: {value} is negative"))
        })
        .transpose()
}

fn small(row: &Row, name: &str) -> Result<u32, String> {
    let value: i64 = column(row, name)?;
    u32::try_from(value).map_err(|_| format!("column {name}: {value} is not a 32-bit count"))
}

fn optional_small(row: &Row, name: &str) -> Result<Option<u32>, String> {
    let value: Option<i64> = column(row, name)?;
    value
        .map(|value| {
            u32::try_from(value)
                .map_err(|_| format!("column {name}: {value} is not a 32-bit count"))
        })
        .transpose()
}

fn flag(row: &Row, name: &str) -> Result<bool, String> {
    match column::<i64>(row, name)? {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(format!("column {name}: {other} is not 0 or 1")),
    }
}

fn state(row: &Row, name: &str) -> Result<u64, String> {
    Ok(column::<i64>(row, name)? as u64)
}

fn team(row: &Row) -> Result<Team, String> {
    let name: String = column(row, "team")?;
    Team::BOTH
        .into_iter()
        .find(|team| team.name() == name)
        .ok_or_else(|| format!("column team: '{name}' is not alabaster or metal"))
}

fn kind(row: &Row) -> Result<Kind, String> {
    let letter: String = column(row, "kind")?;
    let mut chars = letter.chars();
    match (chars.next().and_then(Kind::from_letter), chars.next()) {
        (Some(kind), None) => Ok(kind),
        _ => Err(format!("column kind: '{letter}' is not one of K Q R B N P")),
    }
}

/// Runs `read` for the row whose key column is `key`, naming the row in its error.
fn keyed<T>(
    row: &Row,
    what: &str,
    read: impl FnOnce(&Row, u32) -> Result<T, String>,
) -> Result<T, String> {
    let id = small(row, "id")?;
    read(row, id).map_err(|detail| format!("{what} {id}: {detail}"))
}

/// The world's scalars: (seed, last_turn, turn, random_state, id_bound).
fn read_world_row(
    connection: &Connection,
    path: &Path,
) -> Result<(u64, u64, u64, u64, u32), StoreError> {
    let rows = query_rows(
        connection,
        path,
        "world",
        "SELECT seed, turn, random_state, id_bound, last_turn FROM world",
        [],
        |row| {
            Ok((
                state(row, "seed")?,
                unsigned(row, "last_turn")?,
                unsigned(row, "turn")?,
                state(row, "random_state")?,
                small(row, "id_bound")?,
            ))
        },
    )?;
    only_row(path, "world", rows)
}

fn read_params(connection: &Connection, path: &Path) -> Result<MegachessParams, StoreError> {
    let rows = query_rows(
        connection,
        path,
        "params",
        "SELECT name, value FROM params ORDER BY name",
        [],
        |row| Ok((column::<String>(row, "name")?, column::<i64>(row, "value")?)),
    )?;
    let mut params = MegachessParams::default();
    for parameter in PARAMETERS {
        if !rows.iter().any(|(name, _)| name == parameter.name) {
            return Err(corrupt(
                path,
                format!("table params: parameter {} is missing", parameter.name),
            ));
        }
    }
    for (name, value) in rows {
        params
            .set(&name, value)
            .map_err(|error| corrupt(path, format!("table params: {error}")))?;
    }
    Ok(params)
}

fn read_world_players(connection: &Connection, path: &Path) -> Result<Vec<Player>, StoreError> {
    query_rows(
        connection,
        path,
        "world_players",
        "SELECT id, team, king, score, present FROM world_players ORDER BY id",
        [],
        |row| {
            keyed(row, "player", |row, id| {
                Ok(Player {
                    id,
                    team: team(row)?,
                    king: optional_small(row, "king")?.map(PieceId),
                    score: column(row, "score")?,
                    present: flag(row, "present")?,
                })
            })
        },
    )
}

/// The pieces by id, and the ids of those that moved this turn.
fn read_pieces(
    connection: &Connection,
    path: &Path,
) -> Result<(Vec<Piece>, Vec<PieceId>), StoreError> {
    let rows = query_rows(
        connection,
        path,
        "pieces",
        "SELECT id, owner, kind, x, y, moved, used_orthogonal_step, life, moved_this_turn
         FROM pieces ORDER BY id",
        [],
        |row| {
            keyed(row, "piece", |row, id| {
                let piece = Piece {
                    id: PieceId(id),
                    owner: small(row, "owner")?,
                    kind: kind(row)?,
                    at: Coord::new(small(row, "x")?, small(row, "y")?),
                    moved: flag(row, "moved")?,
                    used_orthogonal_step: flag(row, "used_orthogonal_step")?,
                    life: optional_small(row, "life")?,
                };
                Ok((piece, flag(row, "moved_this_turn")?))
            })
        },
    )?;
    let moved = rows
        .iter()
        .filter(|(_, moved)| *moved)
        .map(|(piece, _)| piece.id)
        .collect();
    Ok((rows.into_iter().map(|(piece, _)| piece).collect(), moved))
}

/// The world as the tables hold it: (seed, last_turn, snapshot), not yet validated.
pub(super) fn read_world(
    connection: &Connection,
    path: &Path,
) -> Result<(u64, u64, WorldSnapshot), StoreError> {
    let (seed, last_turn, turn, random_state, id_bound) = read_world_row(connection, path)?;
    let params = read_params(connection, path)?;
    let players = read_world_players(connection, path)?;
    let (pieces, moved_this_turn) = read_pieces(connection, path)?;
    let snapshot = WorldSnapshot {
        params,
        turn,
        random_state,
        id_bound,
        players,
        pieces,
        moved_this_turn,
    };
    Ok((seed, last_turn, snapshot))
}

pub(super) fn read_players(
    connection: &Connection,
    path: &Path,
) -> Result<Vec<PlayerRow>, StoreError> {
    query_rows(
        connection,
        path,
        "players",
        "SELECT id, team, name, token, house, joined_turn, eliminated_turn, kings_taken, score
         FROM players ORDER BY id",
        [],
        |row| {
            keyed(row, "player", |row, id| {
                Ok(PlayerRow {
                    id,
                    team: team(row)?,
                    name: column(row, "name")?,
                    token: column(row, "token")?,
                    house: flag(row, "house")?,
                    joined_turn: unsigned(row, "joined_turn")?,
                    eliminated_turn: optional_unsigned(row, "eliminated_turn")?,
                    kings_taken: small(row, "kings_taken")?,
                    score: column(row, "score")?,
                })
            })
        },
    )
}

pub(super) fn read_server(connection: &Connection, path: &Path) -> Result<ServerState, StoreError> {
    let rows = query_rows(
        connection,
        path,
        "server",
        "SELECT placement_random, next_player, placed_alabaster, placed_metal FROM server",
        [],
        |row| {
            Ok(ServerState {
                placement_random: state(row, "placement_random")?,
                next_player: small(row, "next_player")?,
                placed: [
                    unsigned(row, "placed_alabaster")?,
                    unsigned(row, "placed_metal")?,
                ],
            })
        },
    )?;
    only_row(path, "server", rows)
}

/// The log entries of turns `from..=to`, in the order they were written.
pub(super) fn read_events(
    connection: &Connection,
    path: &Path,
    from: u64,
    to: u64,
) -> Result<Vec<LogEntry>, StoreError> {
    // Turns beyond SQLite's integers hold no entries.
    let clamp = |turn: u64| i64::try_from(turn).unwrap_or(i64::MAX);
    query_rows(
        connection,
        path,
        "events",
        "SELECT seq, entry FROM events WHERE turn BETWEEN ?1 AND ?2 ORDER BY seq",
        (clamp(from), clamp(to)),
        |row| {
            let seq: i64 = column(row, "seq")?;
            let json: String = column(row, "entry").map_err(|e| format!("event {seq}: {e}"))?;
            serde_json::from_str(&json)
                .map_err(|error| format!("event {seq}: not a log entry: {error}"))
        },
    )
}
