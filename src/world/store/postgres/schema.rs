//! The database's tables (format 1) in PostgreSQL: the columns of the SQLite file, with every
//! number a `BIGINT` and every flag a `BIGINT` of 0 or 1, so that `columns.rs` reads both; and
//! two tables of PostgreSQL's own: `identity` (what SQLite keeps in its header) and `holder`
//! (what SQLite keeps in a note beside the file).

/// Every table of a world, and only those: a database holding any other table is not ours.
pub(super) const TABLES: [&str; 10] = [
    "events",
    "holder",
    "identity",
    "params",
    "pieces",
    "players",
    "server",
    "turns",
    "world",
    "world_players",
];

pub(super) const SCHEMA: &str = "
CREATE TABLE identity (
    application_id BIGINT NOT NULL,
    format_version BIGINT NOT NULL
);
CREATE TABLE holder (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    note TEXT NOT NULL
);
CREATE TABLE world (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    seed BIGINT NOT NULL,
    turn BIGINT NOT NULL,
    random_state BIGINT NOT NULL,
    id_bound BIGINT NOT NULL,
    last_turn BIGINT NOT NULL
);
CREATE TABLE params (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
CREATE TABLE world_players (
    id BIGINT PRIMARY KEY,
    team TEXT NOT NULL,
    king BIGINT,
    score BIGINT NOT NULL,
    present BIGINT NOT NULL
);
CREATE TABLE pieces (
    id BIGINT PRIMARY KEY,
    owner BIGINT NOT NULL,
    kind TEXT NOT NULL,
    x BIGINT NOT NULL,
    y BIGINT NOT NULL,
    moved BIGINT NOT NULL,
    used_orthogonal_step BIGINT NOT NULL,
    life BIGINT,
    moved_this_turn BIGINT NOT NULL
);
CREATE TABLE players (
    id BIGINT PRIMARY KEY,
    team TEXT NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    house BIGINT NOT NULL,
    joined_turn BIGINT NOT NULL,
    eliminated_turn BIGINT,
    kings_taken BIGINT NOT NULL,
    score BIGINT NOT NULL
);
CREATE TABLE server (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    placement_random BIGINT NOT NULL,
    next_player BIGINT NOT NULL,
    placed_alabaster BIGINT NOT NULL,
    placed_metal BIGINT NOT NULL
);
CREATE TABLE events (
    seq BIGINT PRIMARY KEY,
    turn BIGINT NOT NULL,
    ms BIGINT NOT NULL,
    entry TEXT NOT NULL
);
CREATE INDEX events_by_turn ON events (turn, seq);
CREATE TABLE turns (
    turn BIGINT PRIMARY KEY,
    committed_unix_ms BIGINT NOT NULL,
    pieces BIGINT NOT NULL,
    players BIGINT NOT NULL
);
";

/// The tables of the connection's current schema, by name.
pub(super) const TABLE_NAMES: &str =
    "SELECT table_name::text AS name FROM information_schema.tables
     WHERE table_schema = current_schema() ORDER BY 1";

// ---- a turn's writes: one statement per table, the rows as arrays -------------------------

pub(super) const UPDATE_WORLD: &str =
    "UPDATE world SET turn = $1, random_state = $2, id_bound = $3, last_turn = $4 WHERE id = 1";

pub(super) const UPSERT_PARAMS: &str = "INSERT INTO params (name, value)
     SELECT * FROM unnest($1::text[], $2::bigint[])
     ON CONFLICT (name) DO UPDATE SET value = excluded.value";

pub(super) const DELETE_PIECES: &str = "DELETE FROM pieces WHERE id = ANY($1::bigint[])";

pub(super) const UPSERT_PIECES: &str = "INSERT INTO pieces (id, owner, kind, x, y, moved,
         used_orthogonal_step, life, moved_this_turn)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[],
         $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[])
     ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, kind = excluded.kind,
         x = excluded.x, y = excluded.y, moved = excluded.moved,
         used_orthogonal_step = excluded.used_orthogonal_step, life = excluded.life,
         moved_this_turn = excluded.moved_this_turn";

pub(super) const DELETE_WORLD_PLAYERS: &str =
    "DELETE FROM world_players WHERE id = ANY($1::bigint[])";

pub(super) const UPSERT_WORLD_PLAYERS: &str = "INSERT INTO world_players (id, team, king, score,
         present)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
     ON CONFLICT (id) DO UPDATE SET team = excluded.team, king = excluded.king,
         score = excluded.score, present = excluded.present";

pub(super) const UPSERT_PLAYERS: &str = "INSERT INTO players (id, team, name, token, house,
         joined_turn, eliminated_turn, kings_taken, score)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[],
         $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[])
     ON CONFLICT (id) DO UPDATE SET team = excluded.team, name = excluded.name,
         token = excluded.token, house = excluded.house, joined_turn = excluded.joined_turn,
         eliminated_turn = excluded.eliminated_turn, kings_taken = excluded.kings_taken,
         score = excluded.score";

pub(super) const UPSERT_SERVER: &str = "INSERT INTO server (id, placement_random, next_player,
         placed_alabaster, placed_metal)
     VALUES (1, $1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET placement_random = excluded.placement_random,
         next_player = excluded.next_player, placed_alabaster = excluded.placed_alabaster,
         placed_metal = excluded.placed_metal";

pub(super) const APPEND_EVENTS: &str = "INSERT INTO events (seq, turn, ms, entry)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[])";

pub(super) const APPEND_TURN: &str =
    "INSERT INTO turns (turn, committed_unix_ms, pieces, players) VALUES ($1, $2, $3, $4)";

pub(super) const READ_EVENTS: &str =
    "SELECT seq, entry FROM events WHERE turn BETWEEN $1 AND $2 ORDER BY seq";
