//! What the play page sends: one typed request per message, tagged by `"type"`. Fields a page
//! may leave out are options; their ranges are checked by `settings.rs`.

use serde::Deserialize;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PlayRequest {
    /// A new game, answered by its first `state`.
    New(NewGame),
    /// The human's move, in the text the `state`'s legal moves use.
    Move {
        #[serde(rename = "move")]
        text: String,
    },
    /// Takes back the human's last move and Roger's answer to it.
    Takeback,
    Resign,
    /// The player offers a draw; Roger accepts when it does not think it stands better.
    OfferDraw,
    /// The game so far as a PGN file, answered by `pgn`.
    Pgn,
    /// The state again, answered by `state`.
    State,
    /// The position after the game's first `ply` moves (0: the start), answered by `position`.
    Position {
        ply: usize,
    },
    /// Roger analyses a position instead of playing: either side moves, no clock runs, and
    /// its best lines come as `analysis` messages.
    Analyse(AnalyseRequest),
}

/// The game to play. Every field may be left out or null.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    #[serde(default)]
    pub game: Option<GameName>,
    #[serde(default)]
    pub side: Option<SideChoice>,
    /// The clock of each side, in minutes.
    #[serde(default)]
    pub minutes: Option<f64>,
    /// Seconds added after each move.
    #[serde(default)]
    pub increment: Option<f64>,
    /// Roger's `Skill Level`, a whole number.
    #[serde(default)]
    pub skill: Option<f64>,
    /// Where the game starts; empty is the game's start position.
    #[serde(default)]
    pub fen: Option<String>,
    /// Chess960: the start position's number, 0 to 959 (518 is the standard one); left out,
    /// one drawn at random. A `fen` goes before it.
    #[serde(default)]
    pub position: Option<u32>,
    /// The most Roger thinks on one move, in ms.
    #[serde(default)]
    pub movetime: Option<u64>,
}

/// The position to analyse. Every field may be left out.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    #[serde(default)]
    pub game: Option<GameName>,
    /// Where the moves start; empty is the game's start position.
    #[serde(default)]
    pub fen: Option<String>,
    /// Chess960: the start position's number, as in a new game's request.
    #[serde(default)]
    pub position: Option<u32>,
    /// Moves played from there (the protocol's notation), kept to step through.
    #[serde(default)]
    pub moves: Vec<String>,
    /// How many of Roger's best lines to show (MultiPV), 1 to 5; 3 when left out.
    #[serde(default)]
    pub lines: Option<u32>,
}

/// The turn games the play page offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameName {
    Chess,
    /// Chess from a Fischer Random start position (`position`: its number, else at random).
    Chess960,
    Millennium,
    Nichess,
}

/// The human's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    White,
    Black,
    /// Either, by the session's clock.
    Random,
}
