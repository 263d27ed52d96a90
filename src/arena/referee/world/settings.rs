//! How the arena runs Megachess worlds (`roger arena --variant megachess`): the world's
//! parameters, players per seat, spawn layout, turn limit, window, the seed each world is made
//! from, and where the SVG pictures go; and these settings as the JSON file keeps them.

use super::layout::{Layout, WorldSetup};
use crate::arena::schedule::{mix, ScheduledGame};
use crate::rules::megachess::{MegachessParams, PARAMETERS};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// The default thinking time of one player's turn, when an engine has no `st=`.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(100);
/// The default turn limit of a world.
pub const DEFAULT_MAX_TURNS: u64 = 200;

/// Where the final pictures go (`--svg FILE`): FILE itself when the tournament plays one
/// world, else one file per world, the game's number before the extension (`end-3.svg`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOutput {
    pub path: PathBuf,
    pub numbered: bool,
}

impl SvgOutput {
    /// The file of game `index` (from 0).
    pub fn file(&self, index: usize) -> PathBuf {
        if !self.numbered {
            return self.path.clone();
        }
        let stem = self
            .path
            .file_stem()
            .map_or("world".into(), |s| s.to_string_lossy().to_string());
        let name = match self.path.extension() {
            Some(ext) => format!("{stem}-{}.{}", index + 1, ext.to_string_lossy()),
            None => format!("{stem}-{}", index + 1),
        };
        self.path.with_file_name(name)
    }
}

/// How the arena runs worlds.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldSettings {
    pub params: MegachessParams,
    /// Players each seat (one engine process) plays.
    pub players_per_seat: usize,
    pub layout: Layout,
    /// Turns (over both teams) after which a world is scored.
    pub max_turns: u64,
    /// The window's margin around a player's army in the lines it is sent; `None`: the whole
    /// world.
    pub window_margin: Option<u32>,
    /// The tournament's seed: the world of game pair `p` is made from `mix(seed, p)`, so both
    /// games of a pair play the same world with the seats swapped.
    pub seed: u64,
    pub svg: Option<SvgOutput>,
}

impl Default for WorldSettings {
    fn default() -> WorldSettings {
        WorldSettings {
            params: MegachessParams::default(),
            players_per_seat: 1,
            layout: Layout::default(),
            max_turns: DEFAULT_MAX_TURNS,
            window_margin: None,
            seed: 0,
            svg: None,
        }
    }
}

impl WorldSettings {
    /// The world of one scheduled game among `seats` seats.
    pub fn setup(&self, game: &ScheduledGame, seats: usize) -> WorldSetup {
        WorldSetup {
            params: self.params,
            seed: mix(self.seed, 0x3E6A_0000 + game.pair as u64),
            seats,
            players_per_seat: self.players_per_seat,
            layout: self.layout,
            max_turns: self.max_turns,
            window_margin: self.window_margin,
        }
    }

    /// The settings as the JSON file keeps them.
    pub fn record(&self) -> WorldSettingsRecord {
        WorldSettingsRecord {
            params: PARAMETERS
                .iter()
                .filter_map(|p| Some((p.name.to_string(), self.params.get(p.name)?)))
                .collect(),
            players_per_seat: self.players_per_seat,
            layout: self.layout.to_string(),
            max_turns: self.max_turns,
            window_margin: self.window_margin,
        }
    }
}

/// The world settings in the JSON file's `settings.world`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldSettingsRecord {
    /// Every parameter by its protocol name, in the registry's order.
    pub params: Vec<(String, i64)>,
    pub players_per_seat: usize,
    pub layout: String,
    pub max_turns: u64,
    #[serde(default)]
    pub window_margin: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_files_are_numbered_when_there_are_several_worlds() {
        let one = SvgOutput {
            path: "out/end.svg".into(),
            numbered: false,
        };
        assert_eq!(one.file(4), PathBuf::from("out/end.svg"));
        let many = SvgOutput {
            numbered: true,
            ..one
        };
        assert_eq!(many.file(0), PathBuf::from("out/end-1.svg"));
        assert_eq!(many.file(11), PathBuf::from("out/end-12.svg"));
    }
}
