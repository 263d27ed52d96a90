//! Version 1 of the arena's JSON file (turn games only, seats named `white` and `black`), read
//! into version 2 so that `roger arena merge` joins shares written before and after the change.

use super::openings::Opening;
use super::record::{ArenaReport, FinishedGame, SettingsRecord, REPORT_VERSION};
use super::referee::{PlayedMove, SessionRecord, SessionResult, Termination, TurnRecord};
use super::schedule::ScheduledGame;
use serde::Deserialize;

#[derive(Deserialize)]
struct ReportV1 {
    format: String,
    settings: SettingsRecord,
    total_games: usize,
    #[serde(default)]
    shard: Option<(usize, usize)>,
    planned_games: usize,
    #[serde(default)]
    interrupted: bool,
    #[serde(default)]
    sprt_decision: Option<String>,
    games: Vec<GameV1>,
}

#[derive(Deserialize)]
struct GameV1 {
    index: usize,
    round: usize,
    pair: usize,
    white: usize,
    black: usize,
    opening: Opening,
    white_name: String,
    black_name: String,
    start_fen: String,
    moves: Vec<PlayedMove>,
    result: String,
    termination: Termination,
    detail: String,
    date: String,
    duration_ms: u64,
}

impl GameV1 {
    fn into_v2(self) -> Result<FinishedGame, String> {
        let white_points = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => return Err(format!("game {}: unknown result '{other}'", self.index + 1)),
        };
        Ok(FinishedGame {
            scheduled: ScheduledGame {
                index: self.index,
                round: self.round,
                pair: self.pair,
                seats: vec![self.white, self.black],
                opening: self.opening,
            },
            names: vec![self.white_name, self.black_name],
            played: SessionResult {
                points: vec![white_points, 1.0 - white_points],
                termination: self.termination,
                detail: self.detail,
                record: SessionRecord::Turn(TurnRecord {
                    start_fen: self.start_fen,
                    moves: self.moves,
                    result: self.result,
                }),
            },
            date: self.date,
            duration_ms: self.duration_ms,
        })
    }
}

/// A version 1 report, as version 2.
pub fn read(value: serde_json::Value) -> Result<ArenaReport, serde_json::Error> {
    let old: ReportV1 = serde_json::from_value(value)?;
    let games = old
        .games
        .into_iter()
        .map(GameV1::into_v2)
        .collect::<Result<Vec<_>, String>>()
        .map_err(serde::de::Error::custom)?;
    Ok(ArenaReport {
        format: old.format,
        version: REPORT_VERSION,
        settings: old.settings,
        total_games: old.total_games,
        shard: old.shard,
        planned_games: old.planned_games,
        interrupted: old.interrupted,
        sprt_decision: old.sprt_decision,
        games,
        summary: serde_json::Value::Null,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_1_file_reads_as_version_2() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/arena-v1-share1.json"
        );
        let report = ArenaReport::read_json(std::path::Path::new(path)).unwrap();
        assert_eq!(report.version, REPORT_VERSION);
        assert_eq!(report.games.len(), 2);
        let first = &report.games[0];
        assert_eq!(first.scheduled.seats, vec![0, 1]);
        assert_eq!(first.names, vec!["greedy", "random"]);
        assert_eq!(first.played.points, vec![1.0, 0.0]);
        assert_eq!(
            first.played.termination,
            Termination::Rules(crate::rules::EndReason::Checkmate)
        );
        let SessionRecord::Turn(record) = &first.played.record else {
            panic!("a turn record");
        };
        assert_eq!(record.moves.len(), 27);
        assert!(record.moves[0].book && !record.moves[2].book);
        assert_eq!(report.games[1].scheduled.seats, vec![1, 0]);
        assert_eq!(report.games[1].played.points, vec![0.0, 1.0]);
    }
}
