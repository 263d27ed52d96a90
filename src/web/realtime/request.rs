//! What the realtime page sends: one typed request per message, tagged by `"type"`. Fields a
//! page may leave out are options; their ranges are checked by `settings.rs`.

use serde::Deserialize;

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RealtimeRequest {
    /// A new game, answered by `started` and its first `state`.
    Start(StartGame),
    /// One order of the human's, `e2e4` (a promotion is to a queen: `e7e8q` or `e7e8`).
    Order {
        order: String,
    },
    /// Where the human's piece on `square` may go now, answered by `targets`.
    Select {
        square: String,
    },
    Resign,
}

/// The game to play. Every field may be left out or null.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartGame {
    #[serde(default)]
    pub side: Option<SideName>,
    #[serde(default)]
    pub tick_ms: Option<u64>,
    #[serde(default)]
    pub delay_ticks: Option<u64>,
    #[serde(default)]
    pub no_capture_draw_ticks: Option<u64>,
    #[serde(default)]
    pub opponent: Option<Opponent>,
    /// Game time between two of Roger's decisions.
    #[serde(default)]
    pub reaction_ms: Option<u64>,
    /// Roger's planner's `Skill Level`, 0 to 20.
    #[serde(default)]
    pub skill: Option<u64>,
}

/// The human's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideName {
    White,
    Black,
}

/// Who plays Roger's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// Roger's realtime planner.
    Roger,
    /// The greedy reference player (one order a tick at most).
    Greedy,
    /// The random reference player (an order at one decision in five).
    Random,
}

impl Opponent {
    pub fn name(self) -> &'static str {
        match self {
            Opponent::Roger => "roger",
            Opponent::Greedy => "greedy",
            Opponent::Random => "random",
        }
    }
}
