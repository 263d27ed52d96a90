//! Reads that change nothing: the scoreboard, the pieces of a rectangle, its picture, and the
//! server's numbers.

use super::ServerWorld;
use crate::arena::referee::world::svg::{world_svg, PlayerLabels};
use crate::rules::megachess::{Coord, Kind, Rect, World};
use crate::world::api::{RegionOwner, RegionPiece, RegionReport, ScoreRow, StatusReport};
use crate::world::hub::{ReadAnswer, ReadQuery};
use std::collections::BTreeSet;

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

    /// The rectangle `x0,y0`..`x1,y1` if it is on the board and the right way round.
    fn rect(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> Result<Rect, String> {
        let (width, height) = (self.world.params().width, self.world.params().height);
        if x0 > x1 || y0 > y1 {
            return Err(format!("{x0},{y0}..{x1},{y1} is upside down"));
        }
        if x1 >= width || y1 >= height {
            return Err(format!(
                "{x0},{y0}..{x1},{y1} is off the {width} x {height} board"
            ));
        }
        Ok(Rect {
            min: Coord::new(x0, y0),
            max: Coord::new(x1, y1),
        })
    }

    /// The pieces of a rectangle, at most `max_region_pieces` of them.
    pub fn region(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> Result<RegionReport, String> {
        let rect = self.rect(x0, y0, x1, y1)?;
        let limit = self.config.net.max_region_pieces;
        let mut inside = self.world.pieces().filter(|piece| rect.contains(piece.at));
        let pieces: Vec<RegionPiece> = inside
            .by_ref()
            .take(limit)
            .map(|piece| RegionPiece {
                id: piece.id.0,
                owner: piece.owner,
                kind: piece.kind.letter().to_string(),
                x: piece.at.x,
                y: piece.at.y,
                token: self.world.piece_token(piece),
            })
            .collect();
        let truncated = inside.next().is_some();
        let owners: BTreeSet<_> = pieces.iter().map(|piece| piece.owner).collect();
        let players = owners
            .into_iter()
            .filter_map(|id| {
                let player = self.world.player(id)?;
                Some(RegionOwner {
                    id,
                    team: player.team.name().to_string(),
                })
            })
            .collect();
        Ok(RegionReport {
            turn: self.world.turn(),
            x0,
            y0,
            x1,
            y1,
            players,
            pieces,
            truncated,
        })
    }

    /// A world of just the pieces of `rect` (kings outside it unknown), for its picture.
    fn region_world(&self, rect: Rect) -> Result<World, String> {
        let mut snapshot = self.world.snapshot();
        snapshot.pieces.retain(|piece| rect.contains(piece.at));
        snapshot.moved_this_turn.clear();
        for player in &mut snapshot.players {
            let inside = |id| {
                snapshot
                    .pieces
                    .iter()
                    .any(|p| p.id == id && p.kind == Kind::King)
            };
            if player.king.is_some_and(|king| !inside(king)) {
                player.king = None;
            }
        }
        World::from_snapshot(&snapshot)
    }

    /// Answers a read.
    pub fn read(&self, query: &ReadQuery, numbers: LoopNumbers) -> ReadAnswer {
        match query {
            ReadQuery::Status => json(&self.status(numbers)),
            ReadQuery::Scoreboard => json(&self.scoreboard()),
            ReadQuery::Region(rect) => {
                match self.region(rect.min.x, rect.min.y, rect.max.x, rect.max.y) {
                    Ok(report) => json(&report),
                    Err(reason) => ReadAnswer::Refused {
                        status: 400,
                        reason,
                    },
                }
            }
            ReadQuery::Svg(rect) => {
                // A rectangle reaching past the board means "as far as the board goes".
                let (width, height) = (self.world.params().width, self.world.params().height);
                let max = Coord::new(rect.max.x.min(width - 1), rect.max.y.min(height - 1));
                let picture = self
                    .rect(rect.min.x, rect.min.y, max.x, max.y)
                    .and_then(|rect| self.region_world(rect));
                match picture {
                    Ok(world) => {
                        let labels: PlayerLabels = self
                            .rows
                            .values()
                            .map(|row| (row.id, row.name.clone()))
                            .collect();
                        let title = format!("Megachess world, turn {}", self.world.turn());
                        ReadAnswer::Svg(world_svg(&world, &title, &labels))
                    }
                    Err(reason) => ReadAnswer::Refused {
                        status: 400,
                        reason,
                    },
                }
            }
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
