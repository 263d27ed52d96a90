//! The world server's messages: JSON objects with a `"type"` field, one per WebSocket text
//! message. Both sides are here, with `Serialize` and `Deserialize`, so the server, `roger bot`,
//! the house bots and the tests share one definition. docs/world-server.md documents each with
//! an example.

use crate::rules::megachess::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which team a joining player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TeamChoice {
    Alabaster,
    Metal,
    /// The team with fewer players in the game (alabaster on a tie).
    Auto,
}

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Join as a new player: answered by `joined`, with the player's id and secret token.
    Join {
        team: TeamChoice,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Come back as the player that owns `token`: answered by `welcome`, or `error` `bad-token`
    /// and the connection closed.
    Hello { token: String },
    /// Watch: every turn, move and turn end, read only.
    Spectate,
    /// One move `X1,Y1-X2,Y2`, applied the moment it arrives: answered by `ack` or `rejected`.
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
    /// A whole turn, applied in order: answered by one `turn_result`. The player has answered
    /// for this turn (a simulated world does not wait for it any more).
    Turn { moves: Vec<String> },
    /// No more moves this turn (the same as an empty `turn`).
    Done,
    /// Leave the game of one's own will: the pieces stay on the board, unmoving.
    Leave,
    /// The scoreboard, answered by `scoreboard`.
    Scoreboard,
    /// The pieces in a rectangle (corners included), answered by `region`.
    Region { x0: u32, y0: u32, x1: u32, y1: u32 },
    /// Where the player's piece on `x,y` may move now, answered by `targets` (a page shows
    /// them while the pointer is on the piece).
    Targets { x: u32, y: u32 },
}

/// A piece as messages and the log name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceReport {
    pub id: u32,
    pub owner: PlayerId,
    /// `K Q R B N P`.
    pub kind: String,
    /// `x,y`.
    pub at: String,
}

/// What an accepted move did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveReport {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<PieceReport>,
    /// The player whose king this move took; its army is the mover's now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub king_captured: Option<PlayerId>,
    /// How many pieces changed owner with that king.
    #[serde(default)]
    pub handed_over: usize,
    /// The neutral pieces collected by the move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collected: Vec<PieceReport>,
    /// Points the mover scored.
    #[serde(default)]
    pub points: i64,
}

/// One move of a `turn` message and what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveResult {
    #[serde(rename = "move")]
    pub mv: String,
    pub ok: bool,
    /// The rejection's name (`not-your-piece`, `garbage`, ...) when not ok.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejection: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effects: Option<MoveReport>,
}

/// One row of the scoreboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreRow {
    pub player: PlayerId,
    pub team: String,
    pub name: String,
    pub score: i64,
    pub pieces: usize,
    pub kings_taken: u32,
    /// Its king is still on the board.
    pub alive: bool,
    /// It has not left of its own will.
    pub present: bool,
    /// A connection (or house bot) plays it now.
    pub connected: bool,
    /// A house bot of the server.
    pub house: bool,
}

/// One piece of a `region` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionPiece {
    pub id: u32,
    pub owner: PlayerId,
    pub kind: String,
    pub x: u32,
    pub y: u32,
    /// The piece's token in the bot protocol (`7B121,41.mo`).
    pub token: String,
}

/// A player owning pieces of a `region` answer. (A list, not a map: JSON object keys are
/// text, and number keys do not read back inside a tagged message.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionOwner {
    pub id: PlayerId,
    pub team: String,
}

/// The pieces of a rectangle of the world.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionReport {
    pub turn: u64,
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
    /// The owners of the pieces listed, by id.
    pub players: Vec<RegionOwner>,
    pub pieces: Vec<RegionPiece>,
    /// More pieces stand in the rectangle than one answer carries.
    pub truncated: bool,
}

/// The server's state in numbers (`GET /status`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StatusReport {
    pub turn: u64,
    /// The team to move.
    pub team: String,
    pub turn_ms: u64,
    pub simulate: bool,
    pub width: u32,
    pub height: u32,
    /// Players in the game (king on the board).
    pub players: usize,
    pub pieces: usize,
    /// Open connections and house bots bound to a player, and spectators.
    pub connections: usize,
    pub spectators: usize,
    /// Turns completed since this process started, and their rate.
    pub turns_this_run: u64,
    pub turns_per_second: f64,
    /// The longest time the turn loop spent on one message or one turn end (persistence
    /// included) since the process started, in milliseconds.
    pub max_stall_ms: f64,
    /// The process's peak resident memory, in KiB (0 where unknown).
    pub peak_memory_kib: u64,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// A new player: keep the token, it is the only way back.
    Joined {
        player: PlayerId,
        token: String,
        team: String,
        name: String,
    },
    /// Sent after `joined` and after a good `hello`: the world's parameters (every rules
    /// parameter by name) and where things stand.
    Welcome {
        player: PlayerId,
        team: String,
        name: String,
        params: BTreeMap<String, i64>,
        /// The margin of the window each `turn` shows around the army.
        window: u32,
        turn: u64,
        simulate: bool,
        /// The player's king is still on the board.
        alive: bool,
    },
    /// A spectator's first message.
    Spectating {
        params: BTreeMap<String, i64>,
        turn: u64,
    },
    /// A turn begins. `position` (the bot protocol's line for the player's window) is there
    /// when it is the player's team's turn; `deadline_ms` is how long the turn has left.
    Turn {
        turn: u64,
        team: String,
        you_move: bool,
        deadline_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<String>,
    },
    /// A `move` was applied.
    Ack {
        turn: u64,
        #[serde(rename = "move")]
        mv: String,
        effects: MoveReport,
    },
    /// A `move` was refused; nothing changed.
    Rejected {
        turn: u64,
        #[serde(rename = "move")]
        mv: String,
        rejection: String,
        reason: String,
    },
    /// The answer to a `turn`: one result per move, in order.
    TurnResult {
        turn: u64,
        results: Vec<MoveResult>,
    },
    /// Another player's move in or next to the player's window (spectators get every move).
    Moved {
        turn: u64,
        player: PlayerId,
        #[serde(rename = "move")]
        mv: String,
        effects: MoveReport,
    },
    /// A turn ended: what faded, the bonus piece placed, and the player's own score.
    TurnEnd {
        turn: u64,
        faded: Vec<PieceReport>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bonus: Option<PieceReport>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<i64>,
    },
    /// The player's king was captured by `by`: it has left the game.
    Eliminated {
        turn: u64,
        by: PlayerId,
    },
    Scoreboard {
        turn: u64,
        players: Vec<ScoreRow>,
    },
    Region(RegionReport),
    /// The answer to `targets`: every square the piece on `x,y` may move to now, by the rules
    /// (`[x, y]` pairs). Empty when it is not the player's piece, not its team's turn, or the
    /// piece has moved this turn.
    Targets {
        turn: u64,
        x: u32,
        y: u32,
        squares: Vec<[u32; 2]>,
    },
    /// The server is stopping: `max-turns` (the world is over, do not come back) or `shutdown`
    /// (it may come back: reconnect with the token).
    Closing {
        turn: u64,
        reason: String,
    },
    /// Something was wrong with what the client sent; `error` is a short name (see
    /// [`ErrorCode`]), `reason` the words.
    Error {
        error: String,
        reason: String,
    },
}

/// The names of `error` messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// Not JSON, or not one of the client messages.
    BadJson,
    /// A message over the size limit.
    TooLarge,
    /// Too many messages too fast.
    RateLimited,
    /// `hello` with a token the world does not know.
    BadToken,
    /// A player's message before `join` or `hello`.
    NotJoined,
    /// `join`, `hello` or `spectate` on a connection that already has a role.
    AlreadyJoined,
    /// A spectator tried to play.
    Spectator,
    /// The player's king was captured: it has left the game.
    Eliminated,
    /// No room on the board for a new army.
    NoRoom,
    /// A read asked for too much, or for a rectangle off the board.
    BadRequest,
    /// Nothing arrived in time (no `join`, `hello` or `spectate` after connecting).
    Timeout,
    /// The server is full (connection limit).
    Full,
}

impl ErrorCode {
    pub const fn name(self) -> &'static str {
        match self {
            ErrorCode::BadJson => "bad-json",
            ErrorCode::TooLarge => "too-large",
            ErrorCode::RateLimited => "rate-limited",
            ErrorCode::BadToken => "bad-token",
            ErrorCode::NotJoined => "not-joined",
            ErrorCode::AlreadyJoined => "already-joined",
            ErrorCode::Spectator => "spectator",
            ErrorCode::Eliminated => "eliminated",
            ErrorCode::NoRoom => "no-room",
            ErrorCode::BadRequest => "bad-request",
            ErrorCode::Timeout => "timeout",
            ErrorCode::Full => "full",
        }
    }
}

impl ServerMessage {
    pub fn error(code: ErrorCode, reason: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            error: code.name().to_string(),
            reason: reason.into(),
        }
    }
    /// The message as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages always serialise")
    }
}
