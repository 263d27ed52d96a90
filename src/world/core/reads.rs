//! Reads that change nothing: the scoreboard, the pieces of a rectangle of the live world, and
//! the server's numbers; and the view of the world that the loop publishes for the network
//! side's reads (`super::super::view`).

use super::ServerWorld;
use crate::rules::megachess::picture::PlayerLabels;
use crate::rules::megachess::{Coord, Rect, WorldSnapshot};
use crate::world::api::{RegionReport, ScoreRow, StatusReport};
use crate::world::hub::{ReadAnswer, ReadQuery};
use crate::world::view::{self, TurnView};
use std::sync::Arc;

/// The loop's own numbers, which a status read reports beside the world's.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoopNumbers {
    pub turns_this_run: u64,
    pub turns_per_second: f64,
    pub max_stall_ms: f64,
}

impl ServerWorld {
    /// Every player that ever joined, best score first.
    pub fn scoreboard(&self) -> Vec<ScoreRow> {
        let mut rows: Vec<ScoreRow> = self
            .rows
            .values()
            .map(|row| {
                let player = self.world.player(row.id);
                ScoreRow {
                    player: row.id,
                    team: row.team.name().to_string(),
                    name: row.name.clone(),
                    score: player.map_or(row.score, |p| p.score),
                    pieces: self.world.pieces_of(row.id).count(),
                    kings_taken: row.kings_taken,
                    alive: row.eliminated_turn.is_none(),
                    present: player.is_some_and(|p| p.present),
                    connected: self.bound.contains_key(&row.id),
                    house: row.house,
                }
            })
            .collect();
        rows.sort_by_key(|row| (-row.score, row.player));
        rows
    }

    /// The pieces of a rectangle of the live world, at most `max_region_pieces` of them.
    pub fn region(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> Result<RegionReport, String> {
        let rect = Rect {
            min: Coord::new(x0, y0),
            max: Coord::new(x1, y1),
        };
        view::region(&self.world, rect, self.config.net.max_region_pieces)
    }

    /// The view of the world as it stands, for the network side's reads off the loop.
    pub(super) fn turn_view(&self, snapshot: Arc<WorldSnapshot>) -> TurnView {
        let labels: PlayerLabels = self
            .rows
            .values()
            .map(|row| (row.id, row.name.clone()))
            .collect();
        TurnView::new(snapshot, labels, self.config.net.max_region_pieces)
    }

    /// Answers a read.
    pub fn read(&self, query: &ReadQuery, numbers: LoopNumbers) -> ReadAnswer {
        match query {
            ReadQuery::Status => json(&self.status(numbers)),
            // The shape of the `scoreboard` message, less its type.
            ReadQuery::Scoreboard => json(&serde_json::json!({
                "turn": self.world.turn(),
                "players": self.scoreboard(),
            })),
        }
    }

    /// The server in numbers.
    pub fn status(&self, numbers: LoopNumbers) -> StatusReport {
        let spectators = self
            .connections
            .values()
            .filter(|c| c.role == super::Role::Spectator)
            .count();
        StatusReport {
            turn: self.world.turn(),
            team: self.world.team_to_move().name().to_string(),
            turn_ms: self.world.params().turn_ms,
            simulate: self.config.simulate,
            width: self.world.params().width,
            height: self.world.params().height,
            players: self.world.players().count(),
            pieces: self.world.piece_count(),
            connections: self.connections.len(),
            spectators,
            turns_this_run: numbers.turns_this_run,
            turns_per_second: numbers.turns_per_second,
            max_stall_ms: numbers.max_stall_ms,
            peak_memory_kib: peak_memory_kib(),
        }
    }
}

/// A read's answer as JSON.
fn json<T: serde::Serialize>(value: &T) -> ReadAnswer {
    ReadAnswer::Json(serde_json::to_string(value).expect("reads always serialise"))
}

/// The process's peak resident memory in KiB (`VmHWM`), 0 where the system does not tell.
pub fn peak_memory_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}
