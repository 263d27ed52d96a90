//! A world's record for the arena's JSON file: the setup, how it ended, each seat's results,
//! the first king captured, every rejected move with its reason, and the final pieces.

use super::layout::WorldSetup;
use crate::rules::megachess::PARAMETERS;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The setup in the JSON file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldSetupRecord {
    /// Every parameter by its protocol name (`width`, `kingdom_radius`, `rank_queen`, ...).
    pub params: BTreeMap<String, i64>,
    pub seed: u64,
    pub seats: usize,
    pub players_per_seat: usize,
    /// `facing:8`, `ring:32`, `scatter`.
    pub layout: String,
    pub max_turns: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_margin: Option<u32>,
}

impl From<&WorldSetup> for WorldSetupRecord {
    fn from(setup: &WorldSetup) -> WorldSetupRecord {
        let params = PARAMETERS
            .iter()
            .filter_map(|parameter| {
                let value = setup.params.get(parameter.name)?;
                Some((parameter.name.to_string(), value))
            })
            .collect();
        WorldSetupRecord {
            params,
            seed: setup.seed,
            seats: setup.seats,
            players_per_seat: setup.players_per_seat,
            layout: setup.layout.to_string(),
            max_turns: setup.max_turns,
            window_margin: setup.window_margin,
        }
    }
}

/// One seat's results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub seat: usize,
    /// `alabaster` or `metal`.
    pub team: String,
    /// The ids of the players it played for.
    pub players: Vec<u32>,
    /// Its players' scores added up (also those whose king was captured).
    pub score: i64,
    pub kings_captured: u32,
    pub kings_lost: u32,
    /// Pieces its players own at the end.
    pub pieces_left: usize,
    /// Moves applied.
    pub moves: u64,
    /// Moves rejected (garbage, illegal, late, faults).
    pub rejected: u64,
    /// Answers that came too late (all their moves dropped).
    pub late_turns: u64,
    /// Its slowest answer, in ms.
    pub plan_ms_max: u64,
}

/// A king captured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingCaptureRecord {
    pub turn: u64,
    pub capturer: u32,
    pub capturer_seat: usize,
    pub captured: u32,
    pub captured_seat: usize,
    /// The move that captured it, `X1,Y1-X2,Y2`.
    #[serde(rename = "move")]
    pub mv: String,
}

/// A move (or a whole answer) the referee did not apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejectionRecord {
    pub turn: u64,
    pub seat: usize,
    pub player: u32,
    /// The move as the seat sent it; empty for a late or faulty answer.
    #[serde(rename = "move")]
    pub mv: String,
    /// A short name: the rules' rejection (`path-blocked`, `already-moved`, ...), or
    /// `garbage`, `late`, `fault`.
    pub rejection: String,
    /// In words.
    pub reason: String,
}

/// A piece at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceRecord {
    pub id: u32,
    /// 0: neutral.
    pub owner: u32,
    /// `K Q R B N P`.
    pub kind: String,
    pub x: u32,
    pub y: u32,
    /// The piece as a position line's token (`7B121,41.mo`).
    pub token: String,
}

/// A world in the JSON file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldRecord {
    pub setup: WorldSetupRecord,
    /// Turns played.
    pub turns: u64,
    /// `team-left` (a team has no players), `max-turns`.
    pub end: String,
    /// The team still in the world when the other has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    pub seats: Vec<SeatRecord>,
    /// Points per seat: 1 each seat of the winning team, else ½ each (equal scores).
    pub points: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_king_capture: Option<KingCaptureRecord>,
    pub king_captures: Vec<KingCaptureRecord>,
    pub rejections: Vec<RejectionRecord>,
    /// Pieces that faded away, and bonus pieces placed, over the whole world.
    pub faded: u64,
    pub bonus_placed: u64,
    pub final_pieces: Vec<PieceRecord>,
}

impl WorldRecord {
    /// The seat whose player captured the first king, if any.
    pub fn first_king_capture_seat(&self) -> Option<usize> {
        self.first_king_capture.as_ref().map(|c| c.capturer_seat)
    }
}
