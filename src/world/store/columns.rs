//! What each value becomes in a column, and back, for both stores: the tables of SQLite and of
//! PostgreSQL have the same columns (every number a 64-bit integer, every flag 0 or 1), so one
//! set of decoders reads the rows of either, and every value read is checked (a bad row is
//! named, never a panic).

use super::{PlayerRow, ServerState};
use crate::rules::megachess::{
    Coord, Kind, MegachessParams, Piece, PieceId, Player, Team, WorldSnapshot, PARAMETERS,
};
use crate::world::events::LogEntry;

// ---- writing ------------------------------------------------------------------------------

/// A count or turn as a 64-bit integer column; more than 63 bits is an error, never a wrap.
pub(super) fn int(value: u64, what: &str) -> Result<i64, String> {
    i64::try_from(value).map_err(|_| format!("{what} {value} does not fit a 64-bit integer column"))
}

/// A generator state: all 64 bits, stored as the `i64` of the same bits.
pub(super) fn bits(value: u64) -> i64 {
    value as i64
}

pub(super) fn kind_letter(kind: Kind) -> String {
    kind.letter().to_string()
}

/// A parameter's value by its name, for every parameter.
pub(super) fn param_values(params: &MegachessParams) -> Result<Vec<(&'static str, i64)>, String> {
    PARAMETERS
        .iter()
        .map(|parameter| {
            params
                .get(parameter.name)
                .map(|value| (parameter.name, value))
                .ok_or_else(|| format!("parameter {} has no value", parameter.name))
        })
        .collect()
}

/// A log entry as the JSON text its row holds.
pub(super) fn entry_json(entry: &LogEntry) -> Result<String, String> {
    serde_json::to_string(entry).map_err(|error| format!("a log entry: {error}"))
}

// ---- reading ------------------------------------------------------------------------------

/// A row of either database, read by column name.
pub(super) trait Cells {
    /// An integer column, `None` for NULL; a value of another type is an error.
    fn integer(&self, name: &str) -> Result<Option<i64>, String>;
    /// A text column (NULL is an error).
    fn text(&self, name: &str) -> Result<String, String>;
}

fn required(row: &impl Cells, name: &str) -> Result<i64, String> {
    row.integer(name)?
        .ok_or_else(|| format!("column {name}: NULL where a number belongs"))
}

pub(super) fn signed(row: &impl Cells, name: &str) -> Result<i64, String> {
    required(row, name)
}

fn non_negative(value: i64, name: &str) -> Result<u64, String> {
    u64::try_from(value).map_err(|_| format!("column {name}: {value} is negative"))
}

fn count32(value: i64, name: &str) -> Result<u32, String> {
    u32::try_from(value).map_err(|_| format!("column {name}: {value} is not a 32-bit count"))
}

pub(super) fn unsigned(row: &impl Cells, name: &str) -> Result<u64, String> {
    non_negative(required(row, name)?, name)
}

fn optional_unsigned(row: &impl Cells, name: &str) -> Result<Option<u64>, String> {
    row.integer(name)?
        .map(|value| non_negative(value, name))
        .transpose()
}

pub(super) fn small(row: &impl Cells, name: &str) -> Result<u32, String> {
    count32(required(row, name)?, name)
}

fn optional_small(row: &impl Cells, name: &str) -> Result<Option<u32>, String> {
    row.integer(name)?
        .map(|value| count32(value, name))
        .transpose()
}

fn flag(row: &impl Cells, name: &str) -> Result<bool, String> {
    match required(row, name)? {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(format!("column {name}: {other} is not 0 or 1")),
    }
}

/// A generator state (all 64 bits).
fn state(row: &impl Cells, name: &str) -> Result<u64, String> {
    Ok(required(row, name)? as u64)
}

fn team(row: &impl Cells) -> Result<Team, String> {
    let name = row.text("team")?;
    Team::BOTH
        .into_iter()
        .find(|team| team.name() == name)
        .ok_or_else(|| format!("column team: '{name}' is not alabaster or metal"))
}

fn kind(row: &impl Cells) -> Result<Kind, String> {
    let letter = row.text("kind")?;
    let mut chars = letter.chars();
    match (chars.next().and_then(Kind::from_letter), chars.next()) {
        (Some(kind), None) => Ok(kind),
        _ => Err(format!("column kind: '{letter}' is not one of K Q R B N P")),
    }
}

/// Runs `read` for the row whose key column is `id`, naming the row in its error.
fn keyed<R: Cells, T>(
    row: &R,
    what: &str,
    read: impl FnOnce(&R, u32) -> Result<T, String>,
) -> Result<T, String> {
    let id = small(row, "id")?;
    read(row, id).map_err(|detail| format!("{what} {id}: {detail}"))
}

/// The world's scalars (`SELECT seed, turn, random_state, id_bound, last_turn FROM world`).
#[derive(Clone, Copy, Debug)]
pub(super) struct WorldRow {
    pub seed: u64,
    pub last_turn: u64,
    pub turn: u64,
    pub random_state: u64,
    pub id_bound: u32,
}

pub(super) fn world_row(row: &impl Cells) -> Result<WorldRow, String> {
    Ok(WorldRow {
        seed: state(row, "seed")?,
        last_turn: unsigned(row, "last_turn")?,
        turn: unsigned(row, "turn")?,
        random_state: state(row, "random_state")?,
        id_bound: small(row, "id_bound")?,
    })
}

/// A row of `params` (`SELECT name, value`).
pub(super) fn param_row(row: &impl Cells) -> Result<(String, i64), String> {
    Ok((row.text("name")?, signed(row, "value")?))
}

/// The parameters from every row of `params`: each one there, each value in its range.
pub(super) fn params_from(rows: Vec<(String, i64)>) -> Result<MegachessParams, String> {
    let mut params = MegachessParams::default();
    for parameter in PARAMETERS {
        if !rows.iter().any(|(name, _)| name == parameter.name) {
            return Err(format!("parameter {} is missing", parameter.name));
        }
    }
    for (name, value) in rows {
        params.set(&name, value)?;
    }
    Ok(params)
}

/// A row of `world_players` (`SELECT id, team, king, score, present`).
pub(super) fn world_player_row(row: &impl Cells) -> Result<Player, String> {
    keyed(row, "player", |row, id| {
        Ok(Player {
            id,
            team: team(row)?,
            king: optional_small(row, "king")?.map(PieceId),
            score: signed(row, "score")?,
            present: flag(row, "present")?,
        })
    })
}

/// A row of `pieces` (every column), with whether it moved in the turn in progress.
pub(super) fn piece_row(row: &impl Cells) -> Result<(Piece, bool), String> {
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
}

/// The world as its rows hold it, not yet validated: (seed, last_turn, snapshot).
pub(super) fn world_from(
    scalars: WorldRow,
    params: MegachessParams,
    players: Vec<Player>,
    pieces: Vec<(Piece, bool)>,
) -> (u64, u64, WorldSnapshot) {
    let moved_this_turn = pieces
        .iter()
        .filter(|(_, moved)| *moved)
        .map(|(piece, _)| piece.id)
        .collect();
    let snapshot = WorldSnapshot {
        params,
        turn: scalars.turn,
        random_state: scalars.random_state,
        id_bound: scalars.id_bound,
        players,
        pieces: pieces.into_iter().map(|(piece, _)| piece).collect(),
        moved_this_turn,
    };
    (scalars.seed, scalars.last_turn, snapshot)
}

/// A row of `players` (every column).
pub(super) fn player_row(row: &impl Cells) -> Result<PlayerRow, String> {
    keyed(row, "player", |row, id| {
        Ok(PlayerRow {
            id,
            team: team(row)?,
            name: row.text("name")?,
            token: row.text("token")?,
            house: flag(row, "house")?,
            joined_turn: unsigned(row, "joined_turn")?,
            eliminated_turn: optional_unsigned(row, "eliminated_turn")?,
            kings_taken: small(row, "kings_taken")?,
            score: signed(row, "score")?,
        })
    })
}

/// The row of `server` (every column).
pub(super) fn server_row(row: &impl Cells) -> Result<ServerState, String> {
    Ok(ServerState {
        placement_random: state(row, "placement_random")?,
        next_player: small(row, "next_player")?,
        placed: [
            unsigned(row, "placed_alabaster")?,
            unsigned(row, "placed_metal")?,
        ],
    })
}

/// A row of `events` (`SELECT seq, entry`).
pub(super) fn event_row(row: &impl Cells) -> Result<LogEntry, String> {
    let seq = signed(row, "seq")?;
    let json = row.text("entry").map_err(|e| format!("event {seq}: {e}"))?;
    serde_json::from_str(&json).map_err(|error| format!("event {seq}: not a log entry: {error}"))
}

/// The one row of a one-row table.
pub(super) fn only_row<T>(table: &str, mut rows: Vec<T>) -> Result<T, String> {
    match rows.len() {
        1 => Ok(rows.remove(0)),
        count => Err(format!("table {table} has {count} rows, not one")),
    }
}

/// The column lists the readers select, the same in both stores.
pub(super) mod select {
    pub const WORLD: &str = "SELECT seed, turn, random_state, id_bound, last_turn FROM world";
    pub const PARAMS: &str = "SELECT name, value FROM params ORDER BY name";
    pub const WORLD_PLAYERS: &str =
        "SELECT id, team, king, score, present FROM world_players ORDER BY id";
    pub const PIECES: &str = "SELECT id, owner, kind, x, y, moved, used_orthogonal_step, life, \
                              moved_this_turn FROM pieces ORDER BY id";
    pub const PLAYERS: &str = "SELECT id, team, name, token, house, joined_turn, eliminated_turn, \
                               kings_taken, score FROM players ORDER BY id";
    pub const SERVER: &str =
        "SELECT placement_random, next_player, placed_alabaster, placed_metal FROM server";
}
