//! The result of a tournament: the games as JSON (written by `--json`, read back by `merge`),
//! and the standings and match statistics computed from them.

use super::record::{points_for, ArenaReport, FinishedGame, REPORT_FORMAT, REPORT_VERSION};
use super::referee::world::stats::{standings_text, world_standings, WorldStanding};
use super::schedule::encounters;
use super::stats::{
    elo_pentanomial, elo_trinomial, EloEstimate, Pentanomial, Sprt, SprtDecision, Trinomial,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

impl ArenaReport {
    pub fn write_json(&mut self, path: &Path, sprt: Option<&Sprt>) -> Result<(), String> {
        self.summary = serde_json::to_value(Summary::new(self, sprt))
            .map_err(|error| format!("cannot encode the summary: {error}"))?;
        let text = serde_json::to_string_pretty(self)
            .map_err(|error| format!("cannot encode the report: {error}"))?;
        std::fs::write(path, text + "\n")
            .map_err(|error| format!("cannot write '{}': {error}", path.display()))
    }

    pub fn read_json(path: &Path) -> Result<ArenaReport, String> {
        let name = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read '{name}': {error}"))?;
        let not_a_report =
            |error: serde_json::Error| format!("'{name}' is not an arena report: {error}");
        let value: serde_json::Value = serde_json::from_str(&text).map_err(not_a_report)?;
        let format = value["format"].as_str().unwrap_or_default();
        let version = value["version"].as_u64().unwrap_or_default();
        match (format, version) {
            (REPORT_FORMAT, 2) => serde_json::from_value(value).map_err(not_a_report),
            (REPORT_FORMAT, 1) => super::report_v1::read(value).map_err(not_a_report),
            _ => Err(format!(
                "'{name}' is a '{format}' version {version} file, expected '{REPORT_FORMAT}' \
                 version 1 or {REPORT_VERSION}"
            )),
        }
    }

    /// Joins the shares of one tournament into one report, the games in tournament order.
    pub fn merge(mut reports: Vec<(String, ArenaReport)>) -> Result<ArenaReport, String> {
        let (first_name, first) = reports.remove(0);
        let mut merged = ArenaReport {
            shard: None,
            planned_games: first.total_games,
            sprt_decision: None,
            summary: serde_json::Value::Null,
            ..first
        };
        for (name, report) in reports {
            if !merged.settings.same_tournament(&report.settings)
                || merged.total_games != report.total_games
            {
                return Err(format!(
                    "'{name}' is not from the same tournament as '{first_name}' (settings differ)"
                ));
            }
            merged.interrupted |= report.interrupted;
            merged.games.extend(report.games);
        }
        merged.games.sort_by_key(|game| game.scheduled.index);
        for twins in merged.games.windows(2) {
            if twins[0].scheduled.index == twins[1].scheduled.index {
                return Err(format!(
                    "game {} is in more than one file",
                    twins[0].scheduled.index + 1
                ));
            }
        }
        Ok(merged)
    }
}

/// Elo figures for JSON (infinite errors become null).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct EloFigures {
    pub elo: f64,
    pub error95: Option<f64>,
    pub los: f64,
    pub draw_ratio: f64,
}

impl From<EloEstimate> for EloFigures {
    fn from(e: EloEstimate) -> EloFigures {
        EloFigures {
            elo: e.elo,
            error95: e.error95.is_finite().then_some(e.error95),
            los: e.los,
            draw_ratio: e.draw_ratio,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct EngineStanding {
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub points: f64,
    pub elo: Option<EloFigures>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EncounterSummary {
    pub first: String,
    pub second: String,
    /// From the first engine's point of view.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub pentanomial: [u64; 5],
    pub elo: Option<EloFigures>,
    pub elo_pentanomial: Option<EloFigures>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSummary>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SprtSummary {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    pub decision: String,
}

/// Standings, encounters and endings, computed from the games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub games: usize,
    pub standings: Vec<EngineStanding>,
    pub encounters: Vec<EncounterSummary>,
    pub terminations: BTreeMap<String, u64>,
    /// Games lost by an engine's fault (time, illegal move, crash, hang).
    pub faults: u64,
    /// Megachess: each engine's figures over its worlds (absent for the other games).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub world: Vec<WorldStanding>,
}

/// The results of one encounter from `first`'s side.
pub struct EncounterStats {
    pub trinomial: Trinomial,
    pub pentanomial: Pentanomial,
}

/// Tallies the games between `first` and `second`; pairs count when both games are in.
pub fn encounter_stats(games: &[FinishedGame], first: usize, second: usize) -> EncounterStats {
    let mut trinomial = Trinomial::default();
    let mut pentanomial = Pentanomial::default();
    let mut by_pair: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for game in games {
        let seats = &game.scheduled.seats;
        if seats.len() != 2 || !seats.contains(&first) || !seats.contains(&second) {
            continue;
        }
        let Some(points) = points_for(game, first) else {
            continue;
        };
        trinomial.add(points);
        by_pair.entry(game.scheduled.pair).or_default().push(points);
    }
    for points in by_pair.values() {
        if let [a, b] = points.as_slice() {
            pentanomial.add_pair(*a, *b);
        }
    }
    EncounterStats {
        trinomial,
        pentanomial,
    }
}

fn decision_text(decision: SprtDecision) -> &'static str {
    match decision {
        SprtDecision::Continue => "continue",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
    }
}

impl Summary {
    pub fn new(report: &ArenaReport, sprt: Option<&Sprt>) -> Summary {
        let names: Vec<String> = report
            .settings
            .engines
            .iter()
            .map(|e| e.name.clone())
            .collect();
        let games = &report.games;
        let mut field = vec![Trinomial::default(); names.len()];
        for game in games {
            for (&engine, &points) in game.scheduled.seats.iter().zip(&game.played.points) {
                field[engine].add(points);
            }
        }
        let mut standings: Vec<EngineStanding> = names
            .iter()
            .zip(&field)
            .map(|(name, t)| EngineStanding {
                name: name.clone(),
                games: t.games(),
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                points: t.points(),
                elo: elo_trinomial(t).map(Into::into),
            })
            .collect();
        standings.sort_by(|a, b| {
            let score = |s: &EngineStanding| s.points / s.games.max(1) as f64;
            score(b).total_cmp(&score(a))
        });
        let encounters = encounters(names.len(), report.settings.format)
            .into_iter()
            .map(|(a, b)| {
                let stats = encounter_stats(games, a, b);
                let t = stats.trinomial;
                EncounterSummary {
                    first: names[a].clone(),
                    second: names[b].clone(),
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                    pentanomial: stats.pentanomial.counts,
                    elo: elo_trinomial(&t).map(Into::into),
                    elo_pentanomial: elo_pentanomial(&stats.pentanomial).map(Into::into),
                    sprt: sprt.map(|sprt| {
                        let (lower_bound, upper_bound) = sprt.bounds();
                        SprtSummary {
                            elo0: sprt.elo0,
                            elo1: sprt.elo1,
                            alpha: sprt.alpha,
                            beta: sprt.beta,
                            llr: sprt.llr(&stats.pentanomial),
                            lower_bound,
                            upper_bound,
                            decision: decision_text(sprt.decision(&stats.pentanomial)).into(),
                        }
                    }),
                }
            })
            .collect();
        let mut terminations = BTreeMap::new();
        let mut faults = 0;
        for game in games {
            *terminations.entry(game.played.ending_text()).or_insert(0) += 1;
            faults += game.played.termination.is_fault() as u64;
        }
        Summary {
            games: games.len(),
            standings,
            encounters,
            terminations,
            faults,
            world: world_standings(games, &names),
        }
    }

    /// The closing text: standings, each encounter, the endings.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let width = self
            .standings
            .iter()
            .map(|s| s.name.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(
            out,
            "Rank  {:<width$}  {:>8} {:>7}  {:>5}  {:>6}  {:>13}  {:>5}",
            "Name", "Elo", "+/-", "Games", "Score", "W-D-L", "Draw"
        );
        for (rank, s) in self.standings.iter().enumerate() {
            let (elo, error) = elo_columns(s.elo.as_ref(), s.points / s.games.max(1) as f64);
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {elo:>8} {error:>7}  {:>5}  {:>5.1}%  {:>13}  {:>4.1}%",
                rank + 1,
                s.name,
                s.games,
                100.0 * s.points / s.games.max(1) as f64,
                format!("{}-{}-{}", s.wins, s.draws, s.losses),
                100.0 * s.draws as f64 / s.games.max(1) as f64,
            );
        }
        for e in &self.encounters {
            let games = e.wins + e.draws + e.losses;
            if games == 0 {
                continue;
            }
            let points = e.wins as f64 + 0.5 * e.draws as f64;
            let _ = writeln!(
                out,
                "\n{} vs {}: {games} games, W-D-L {}-{}-{}, {points}/{games} ({:.1}%)",
                e.first,
                e.second,
                e.wins,
                e.draws,
                e.losses,
                100.0 * points / games as f64
            );
            match &e.elo {
                Some(elo) => {
                    let (value, error) = elo_columns(Some(elo), 0.5);
                    let _ = writeln!(
                        out,
                        "  Elo {value} +/- {error}, LOS {:.2}%, draw ratio {:.1}%",
                        100.0 * elo.los,
                        100.0 * elo.draw_ratio
                    );
                }
                None => {
                    let (value, _) = elo_columns(None, points / games as f64);
                    let _ = writeln!(out, "  Elo {value} (a clean sweep has no finite estimate)");
                }
            }
            let pairs: u64 = e.pentanomial.iter().sum();
            if pairs > 0 {
                let _ = write!(out, "  Pairs (LL, LD, WL+DD, WD, WW): {:?}", e.pentanomial);
                if let Some(elo) = &e.elo_pentanomial {
                    let (value, error) = elo_columns(Some(elo), 0.5);
                    let _ = write!(out, ", pentanomial Elo {value} +/- {error}");
                }
                out.push('\n');
            }
            if let Some(sprt) = &e.sprt {
                let _ = writeln!(
                    out,
                    "  SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) {}",
                    sprt.elo0,
                    sprt.elo1,
                    sprt.alpha,
                    sprt.beta,
                    sprt.llr,
                    sprt.lower_bound,
                    sprt.upper_bound,
                    sprt.decision
                );
            }
        }
        let endings: Vec<String> = self
            .terminations
            .iter()
            .map(|(text, count)| format!("{text} {count}"))
            .collect();
        let _ = writeln!(out, "\nEndings: {}", endings.join(", "));
        let _ = writeln!(out, "Games lost by an engine fault: {}", self.faults);
        out.push_str(&standings_text(&self.world));
        out
    }
}

/// `+35.2` and `21.3` (or `inf`); without an estimate, `+inf`/`-inf` for a clean sweep (by
/// `score`) and dashes otherwise.
fn elo_columns(elo: Option<&EloFigures>, score: f64) -> (String, String) {
    match elo {
        Some(e) => (
            format!("{:+.1}", e.elo),
            e.error95.map_or("inf".to_string(), |x| format!("{x:.1}")),
        ),
        None if score >= 1.0 => ("+inf".to_string(), "-".to_string()),
        None if score <= 0.0 => ("-inf".to_string(), "-".to_string()),
        None => ("-".to_string(), "-".to_string()),
    }
}
