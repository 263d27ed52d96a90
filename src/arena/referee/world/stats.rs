//! Megachess results in words and numbers: a world's outcome and its seats' figures for the
//! progress lines, and each engine's figures over all its worlds for the standings and the
//! JSON summary.

use super::record::WorldRecord;
use crate::arena::referee::SessionRecord;
use crate::arena::report::FinishedGame;
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
        ("team-left", Some(winner)) => {
            let loser = if winner == "alabaster" {
                "metal"
            } else {
                "alabaster"
            };
            format!(
                "{winner} wins at turn {}: {loser} has no players left",
                record.turns
            )
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
