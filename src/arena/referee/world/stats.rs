//! Megachess results in words and numbers: a world's outcome and its seats' figures for the
//! progress lines, and each engine's figures over all its worlds for the standings and the
//! JSON summary.

use super::record::WorldRecord;
use crate::arena::record::FinishedGame;
use crate::arena::referee::SessionRecord;
use serde::Serialize;
use std::fmt::Write as _;

/// How a world ended, in words: `metal wins at turn 57: alabaster has no players left; first
/// king: seat 2 at turn 31`, or `scored at turn 200: alabaster 312, metal 280`.
pub fn outcome_text(record: &WorldRecord) -> String {
    let team_score = |team: &str| -> i64 {
        record
            .seats
            .iter()
            .filter(|seat| seat.team == team)
            .map(|seat| seat.score)
            .sum()
    };
    let (alabaster, metal) = (team_score("alabaster"), team_score("metal"));
    let mut text = match (record.end.as_str(), &record.winner) {
        ("not-played", Some(winner)) => format!("not played; {winner} wins"),
        ("not-played", None) => "not played".to_string(),
        (end @ ("team-left" | "team-faulted"), Some(winner)) => {
            let loser = if winner == "alabaster" {
                "metal"
            } else {
                "alabaster"
            };
            let why = if end == "team-left" {
                "has no players left"
            } else {
                "has no engine left"
            };
            format!("{winner} wins at turn {}: {loser} {why}", record.turns)
        }
        (end, _) => {
            let verdict = match alabaster.cmp(&metal) {
                std::cmp::Ordering::Greater => "alabaster wins",
                std::cmp::Ordering::Less => "metal wins",
                std::cmp::Ordering::Equal => "a draw",
            };
            let when = if end == "max-turns" {
                "scored at turn".to_string()
            } else {
                format!("{end} at turn")
            };
            format!(
                "{when} {}: alabaster {alabaster}, metal {metal}, {verdict}",
                record.turns
            )
        }
    };
    if let Some(capture) = &record.first_king_capture {
        let _ = write!(
            text,
            "; first king: seat {} at turn {}",
            capture.capturer_seat + 1,
            capture.turn
        );
    }
    text
}

/// Each seat's figures in one line: `seat 1 score 312 kings 1/0 pieces 24 rejected 0 late 0`.
pub fn seats_text(record: &WorldRecord) -> String {
    record
        .seats
        .iter()
        .map(|seat| {
            format!(
                "seat {} score {} kings {}/{} pieces {} rejected {} late {}",
                seat.seat + 1,
                seat.score,
                seat.kings_captured,
                seat.kings_lost,
                seat.pieces_left,
                seat.rejected,
                seat.late_turns
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// One engine's figures over all its worlds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WorldStanding {
    pub name: String,
    pub worlds: u64,
    /// Worlds in which it captured the first king.
    pub first_kings: u64,
    pub kings_captured: u64,
    pub kings_lost: u64,
    /// Its seat's score, on average over its worlds.
    pub mean_score: f64,
    /// Its pieces at the end, on average.
    pub mean_pieces_left: f64,
    pub moves: u64,
    pub rejected: u64,
    pub late_turns: u64,
    /// Its slowest answer over all worlds, in ms.
    pub plan_ms_max: u64,
}

/// Every engine's Megachess figures; empty when no world was played.
pub fn world_standings(games: &[FinishedGame], names: &[String]) -> Vec<WorldStanding> {
    let mut standings: Vec<WorldStanding> = names
        .iter()
        .map(|name| WorldStanding {
            name: name.clone(),
            ..WorldStanding::default()
        })
        .collect();
    let mut any = false;
    for game in games {
        let SessionRecord::World(record) = &game.played.record else {
            continue;
        };
        any = true;
        let first = record.first_king_capture_seat();
        for seat in &record.seats {
            let Some(standing) = game
                .scheduled
                .seats
                .get(seat.seat)
                .and_then(|&engine| standings.get_mut(engine))
            else {
                continue;
            };
            standing.worlds += 1;
            standing.first_kings += u64::from(first == Some(seat.seat));
            standing.kings_captured += u64::from(seat.kings_captured);
            standing.kings_lost += u64::from(seat.kings_lost);
            standing.mean_score += seat.score as f64;
            standing.mean_pieces_left += seat.pieces_left as f64;
            standing.moves += seat.moves;
            standing.rejected += seat.rejected;
            standing.late_turns += seat.late_turns;
            standing.plan_ms_max = standing.plan_ms_max.max(seat.plan_ms_max);
        }
    }
    if !any {
        return Vec::new();
    }
    for standing in &mut standings {
        let worlds = standing.worlds.max(1) as f64;
        standing.mean_score /= worlds;
        standing.mean_pieces_left /= worlds;
    }
    standings
}

/// The standings' Megachess table.
pub fn standings_text(standings: &[WorldStanding]) -> String {
    let mut out = String::new();
    if standings.is_empty() {
        return out;
    }
    let width = standings
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "\nMegachess  {:<width$}  {:>6} {:>10} {:>11} {:>10} {:>11} {:>8} {:>8} {:>5} {:>8}",
        "Name",
        "Worlds",
        "First king",
        "Kings +/-",
        "Mean score",
        "Mean pieces",
        "Moves",
        "Rejected",
        "Late",
        "Max ms"
    );
    for s in standings {
        let _ =
            writeln!(
            out,
            "           {:<width$}  {:>6} {:>10} {:>11} {:>10.1} {:>11.1} {:>8} {:>8} {:>5} {:>8}",
            s.name,
            s.worlds,
            format!("{} ({:.0}%)", s.first_kings, percent(s.first_kings, s.worlds)),
            format!("{}/{}", s.kings_captured, s.kings_lost),
            s.mean_score,
            s.mean_pieces_left,
            s.moves,
            s.rejected,
            s.late_turns,
            s.plan_ms_max
        );
    }
    out
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::world::record::{KingCaptureRecord, SeatRecord, WorldSetupRecord};
    use crate::arena::referee::{SessionResult, Termination};
    use crate::arena::schedule::ScheduledGame;

    fn seat(seat: usize, score: i64, kings: (u32, u32), pieces: usize) -> SeatRecord {
        SeatRecord {
            seat,
            team: crate::arena::referee::world::seat_team(seat).name().into(),
            players: vec![seat as u32 + 1],
            score,
            kings_captured: kings.0,
            kings_lost: kings.1,
            pieces_left: pieces,
            moves: 10,
            rejected: seat as u64,
            late_turns: 0,
            plan_ms_max: 40 + seat as u64,
        }
    }

    fn record(end: &str, winner: Option<&str>, scores: [i64; 2]) -> WorldRecord {
        WorldRecord {
            setup: WorldSetupRecord {
                params: Default::default(),
                seed: 1,
                seats: 2,
                players_per_seat: 1,
                layout: "facing:8".into(),
                max_turns: 200,
                window_margin: None,
            },
            turns: 57,
            end: end.into(),
            winner: winner.map(String::from),
            seats: vec![
                seat(0, scores[0], (1, 0), 30),
                seat(1, scores[1], (0, 1), 0),
            ],
            points: vec![1.0, 0.0],
            first_king_capture: Some(KingCaptureRecord {
                turn: 31,
                capturer: 1,
                capturer_seat: 0,
                captured: 2,
                captured_seat: 1,
                mv: "4,4-4,5".into(),
            }),
            king_captures: Vec::new(),
            rejections: Vec::new(),
            faded: 0,
            bonus_placed: 0,
            final_pieces: Vec::new(),
        }
    }

    #[test]
    fn outcomes_in_words() {
        let won = record("team-left", Some("alabaster"), [150, 20]);
        assert_eq!(
            outcome_text(&won),
            "alabaster wins at turn 57: metal has no players left; first king: seat 1 at turn 31"
        );
        let mut scored = record("max-turns", None, [40, 40]);
        scored.first_king_capture = None;
        assert_eq!(
            outcome_text(&scored),
            "scored at turn 57: alabaster 40, metal 40, a draw"
        );
        assert!(seats_text(&won).starts_with("seat 1 score 150 kings 1/0 pieces 30 rejected 0"));
    }

    #[test]
    fn standings_add_up_each_engine_s_seats() {
        // Engine 0 plays seat 1 in the first world and seat 2 in the second.
        let game = |index: usize, seats: Vec<usize>| FinishedGame {
            scheduled: ScheduledGame {
                index,
                round: 0,
                pair: 0,
                seats,
                opening: Default::default(),
            },
            names: vec![],
            played: SessionResult {
                points: vec![1.0, 0.0],
                termination: Termination::GameRule,
                detail: String::new(),
                record: SessionRecord::World(record("team-left", Some("alabaster"), [100, 10])),
            },
            date: String::new(),
            duration_ms: 0,
        };
        let games = [game(0, vec![0, 1]), game(1, vec![1, 0])];
        let names = ["a".to_string(), "b".to_string()];
        let standings = world_standings(&games, &names);
        assert_eq!(standings.len(), 2);
        let a = &standings[0];
        assert_eq!(
            (a.worlds, a.first_kings, a.kings_captured, a.kings_lost),
            (2, 1, 1, 1)
        );
        assert_eq!((a.mean_score, a.mean_pieces_left), (55.0, 15.0));
        assert_eq!((a.rejected, a.plan_ms_max), (1, 41));
        assert!(standings_text(&standings).contains("1 (50%)"));
        assert!(world_standings(&[], &names).is_empty());
    }
}
