//! The turn log: every move received with its player, time and acceptance or rejection reason,
//! captures, hand-overs, fading, bonus spawns, joins and leaves. Each entry is one JSON line of
//! the `--log` file and one row of the database's `events` table, in the same order.

use super::api::{MoveReport, PieceReport};
use crate::rules::megachess::PlayerId;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// One entry of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// The turn it happened in.
    pub turn: u64,
    /// Milliseconds since the turn began (wall clock).
    pub ms: u64,
    #[serde(flatten)]
    pub event: Event,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A new player (house bots included).
    Joined {
        player: PlayerId,
        team: String,
        name: String,
        house: bool,
    },
    /// Its army of 16 was placed: the block's south-west corner and where it faces.
    Placed {
        player: PlayerId,
        corner: String,
        facing: String,
    },
    /// A move was applied.
    Move {
        player: PlayerId,
        #[serde(rename = "move")]
        mv: String,
        effects: MoveReport,
    },
    /// A move was refused: `rejection` is the rules' name (`not-your-piece`, ...) or the
    /// server's (`garbage`), `reason` the words.
    Rejected {
        player: PlayerId,
        #[serde(rename = "move")]
        mv: String,
        rejection: String,
        reason: String,
    },
    /// `player` took `captured`'s king; `handed_over` pieces changed owner.
    KingCaptured {
        player: PlayerId,
        captured: PlayerId,
        handed_over: usize,
    },
    /// Pieces faded at the turn's end.
    Faded { pieces: Vec<PieceReport> },
    /// A neutral bonus piece was placed at the turn's end.
    Bonus { piece: PieceReport },
    /// A player left of its own will.
    Left { player: PlayerId },
    /// The turn ended: every player's score after it.
    TurnEnd {
        #[serde(deserialize_with = "scores_by_id")]
        scores: BTreeMap<PlayerId, i64>,
    },
}

/// Reads `scores` back. JSON keys are text, and inside a flattened entry serde hands them
/// over as text even where a number is wanted (serde issue 1183), so the ids are read as text
/// and parsed.
fn scores_by_id<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<PlayerId, i64>, D::Error> {
    let by_text = BTreeMap::<String, i64>::deserialize(deserializer)?;
    by_text
        .into_iter()
        .map(|(key, score)| {
            key.parse::<PlayerId>()
                .map(|id| (id, score))
                .map_err(|_| serde::de::Error::custom(format!("player id '{key}' is not a number")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_end_reads_back() {
        let entry = LogEntry {
            turn: 3,
            ms: 25_000,
            event: Event::TurnEnd {
                scores: BTreeMap::from([(1, 5), (12, -2)]),
            },
        };
        let json = serde_json::to_string(&entry).unwrap();
        assert_eq!(
            json,
            r#"{"turn":3,"ms":25000,"event":"turn-end","scores":{"1":5,"12":-2}}"#
        );
        assert_eq!(serde_json::from_str::<LogEntry>(&json).unwrap(), entry);
        let bad = json.replace("\"12\"", "\"twelve\"");
        assert!(serde_json::from_str::<LogEntry>(&bad).is_err());
    }
}
