//! What an arena run records, as plain data: the settings that decide the games, each finished
//! game, and the whole report as `--json` writes it. The report's summaries and the readers of
//! older versions build on these; these build on nothing of theirs.

use super::cli::ArenaSettings;
use super::openings::BookSettings;
use super::process::Protocol;
use super::referee::realtime::RealtimeSettingsRecord;
use super::referee::world::settings::WorldSettingsRecord;
use super::referee::{Adjudication, SessionResult};
use super::schedule::{Format, ScheduledGame};
use crate::rules::registry::{self, Family};
use serde::{Deserialize, Serialize};

pub const REPORT_FORMAT: &str = "roger-arena";
/// Version 2 holds any family's sessions; version 1 (turn games only, `white`/`black`) is still
/// read, by [`super::report_v1`].
pub const REPORT_VERSION: u32 = 2;

/// One finished game: what was scheduled and what was played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinishedGame {
    #[serde(flatten)]
    pub scheduled: ScheduledGame,
    /// The engines' names, by seat.
    pub names: Vec<String>,
    #[serde(flatten)]
    pub played: SessionResult,
    /// `YYYY.MM.DD`, UTC, when the game ended.
    pub date: String,
    pub duration_ms: u64,
}

/// One engine as the tournament ran it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineRecord {
    pub name: String,
    pub cmd: String,
    #[serde(default)]
    pub args: Vec<String>,
    pub proto: Protocol,
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// `tc=1+0.01 nodes=5000` and the like.
    pub limits: String,
}

/// The settings that decide which games are played and how, to check that shares belong to one
/// tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SettingsRecord {
    pub variant: String,
    /// Chess from Fischer Random starts (`--variant chess960` or `dfrc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_positions: Option<super::openings::StartPositions>,
    pub engines: Vec<EngineRecord>,
    pub format: Format,
    pub rounds: usize,
    pub games: usize,
    #[serde(default)]
    pub book: Option<BookSettings>,
    pub random_plies: usize,
    pub seed: u64,
    pub adjudication: Adjudication,
    pub timemargin_ms: u64,
    #[serde(default)]
    pub sprt: Option<String>,
    /// How realtime games were refereed (absent for the other games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime: Option<RealtimeSettingsRecord>,
    /// How Megachess worlds were set up (absent for the other games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world: Option<WorldSettingsRecord>,
}

impl SettingsRecord {
    pub fn new(settings: &ArenaSettings) -> SettingsRecord {
        SettingsRecord {
            variant: settings.variant.clone(),
            start_positions: settings.start_positions,
            engines: settings
                .engines
                .iter()
                .map(|engine| EngineRecord {
                    name: engine.name.clone(),
                    cmd: engine.command.display().to_string(),
                    args: engine.args.clone(),
                    proto: engine.protocol,
                    options: engine.options.clone(),
                    limits: engine.limits.text(),
                })
                .collect(),
            format: settings.format,
            rounds: settings.rounds,
            games: settings.games,
            book: settings.book.clone(),
            random_plies: settings.random_plies,
            seed: settings.seed,
            adjudication: settings.referee.adjudication,
            timemargin_ms: settings.referee.margin.as_millis() as u64,
            sprt: settings.sprt.as_ref().map(|(_, text)| text.clone()),
            realtime: registry::find(&settings.variant)
                .filter(|entry| entry.family == Family::Realtime)
                .map(|_| settings.referee.realtime.record()),
            world: registry::find(&settings.variant)
                .filter(|entry| entry.family == Family::World)
                .map(|_| settings.referee.world.record()),
        }
    }

    /// The same tournament, wherever its engines were installed.
    pub(super) fn same_tournament(&self, other: &SettingsRecord) -> bool {
        let strip = |record: &SettingsRecord| {
            let mut record = record.clone();
            for engine in &mut record.engines {
                engine.cmd.clear();
            }
            if let Some(book) = &mut record.book {
                book.file = book.file.file_name().map(Into::into).unwrap_or_default();
            }
            record
        };
        strip(self) == strip(other)
    }
}

/// The whole result, as `--json` writes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ArenaReport {
    pub format: String,
    pub version: u32,
    pub settings: SettingsRecord,
    /// Games in the whole tournament (all shares).
    pub total_games: usize,
    /// `[I, N]` for a share, absent for a whole tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<(usize, usize)>,
    /// Games this run was to play.
    pub planned_games: usize,
    /// Stopped by Ctrl-C before every planned game was played.
    #[serde(default)]
    pub interrupted: bool,
    /// Set when an SPRT stopped the match early.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt_decision: Option<String>,
    /// Finished games, by index.
    pub games: Vec<FinishedGame>,
    /// Computed from the games on writing; ignored on reading.
    #[serde(default, skip_deserializing)]
    pub summary: serde_json::Value,
}

/// `engine`'s points in `game`, if it played.
pub fn points_for(game: &FinishedGame, engine: usize) -> Option<f64> {
    let seat = game.scheduled.seats.iter().position(|&e| e == engine)?;
    game.played.points.get(seat).copied()
}
