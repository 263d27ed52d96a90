//! The Megachess flags of `roger arena` (`--size`, `--players-per-seat`, `--layout`, `--turns`,
//! `--window`, `--svg`, and every world parameter, as `--param name=value` or as a flag of its
//! own: `--kingdom-radius 12`), as the command line gives them, checked into
//! [`WorldSettings`] once the variant is known.

use super::game::WorldGame;
use super::layout::Layout;
use super::settings::{SvgOutput, WorldSettings};
use crate::rules::megachess::{MegachessParams, PARAMETERS};
use std::path::PathBuf;

/// The most players one seat may play (a server runs many bots per process, but not more).
pub const MAX_PLAYERS_PER_SEAT: usize = 1000;

/// The Megachess flags as given, checked once the variant is known.
#[derive(Default)]
pub struct WorldFlags {
    /// The flags given, to name one used with another game.
    pub given: Vec<String>,
    /// (flag, parameter name, value text), in order.
    params: Vec<(String, String, String)>,
    players_per_seat: Option<String>,
    layout: Option<String>,
    gap: Option<String>,
    max_turns: Option<String>,
    window: Option<String>,
    svg: Option<PathBuf>,
}

fn single<'a>(flag: &str, values: &[&'a str]) -> Result<&'a str, String> {
    match values {
        [value] => Ok(value),
        [] => Err(format!("{flag} needs a value")),
        [_, extra, ..] => Err(format!("{flag}: unexpected extra value '{extra}'")),
    }
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag}: '{text}' is not a valid number"))
}

/// The parameter a flag names (`--kingdom-radius` is `kingdom_radius`), if any.
fn parameter_of(flag: &str) -> Option<&'static str> {
    let name = flag.strip_prefix("--")?.replace('-', "_");
    PARAMETERS.iter().find(|p| p.name == name).map(|p| p.name)
}

impl WorldFlags {
    /// Takes `flag` and its values if it is a Megachess flag; `Ok(false)` if it is not.
    pub fn take(&mut self, flag: &str, values: &[&str]) -> Result<bool, String> {
        match flag {
            "--size" => match values {
                [width, height] => {
                    for (name, value) in [("width", width), ("height", height)] {
                        self.params
                            .push((flag.into(), name.into(), value.to_string()));
                    }
                }
                _ => return Err("--size needs two values: W H".into()),
            },
            "--param" => {
                if values.is_empty() {
                    return Err("--param needs NAME=VALUE settings after it".into());
                }
                for token in values {
                    let Some((name, value)) = token.split_once('=') else {
                        return Err(format!("--param: '{token}' is not NAME=VALUE"));
                    };
                    self.params
                        .push((format!("--param {name}"), name.into(), value.into()));
                }
            }
            "--players-per-seat" => self.players_per_seat = Some(single(flag, values)?.into()),
            "--layout" => self.layout = Some(single(flag, values)?.into()),
            "--gap" => self.gap = Some(single(flag, values)?.into()),
            "--turns" => self.max_turns = Some(single(flag, values)?.into()),
            "--window" => self.window = Some(single(flag, values)?.into()),
            "--svg" => self.svg = Some(PathBuf::from(single(flag, values)?)),
            _ => match parameter_of(flag) {
                Some(name) => {
                    let value = single(flag, values)?;
                    self.params.push((flag.into(), name.into(), value.into()));
                }
                None => return Ok(false),
            },
        }
        self.given.push(flag.to_string());
        Ok(true)
    }

    /// The checked settings of a tournament of `worlds` worlds from `seed`.
    pub fn settings(&self, seed: u64, worlds: usize) -> Result<WorldSettings, String> {
        let mut params = MegachessParams::default();
        for (flag, name, text) in &self.params {
            if !PARAMETERS.iter().any(|p| p.name == name) {
                let names: Vec<&str> = PARAMETERS.iter().map(|p| p.name).collect();
                return Err(format!(
                    "{flag}: unknown parameter '{name}' (parameters: {})",
                    names.join(", ")
                ));
            }
            let value: i64 = number(flag, text)?;
            params
                .set(name, value)
                .map_err(|error| format!("{flag}: {error}"))?;
        }
        params.validate()?;
        let players_per_seat = match &self.players_per_seat {
            Some(text) => number("--players-per-seat", text)?,
            None => 1,
        };
        if !(1..=MAX_PLAYERS_PER_SEAT).contains(&players_per_seat) {
            return Err(format!(
                "--players-per-seat: {players_per_seat} is not between 1 and \
                 {MAX_PLAYERS_PER_SEAT}"
            ));
        }
        let mut layout = Layout::parse(self.layout.as_deref().unwrap_or("facing"))
            .map_err(|error| format!("--layout: {error}"))?;
        if let Some(text) = &self.gap {
            let value = number("--gap", text)?;
            match &mut layout {
                Layout::Facing { gap } => *gap = value,
                Layout::Ring { radius } => *radius = value,
                Layout::Scatter => return Err("--gap: not for --layout scatter".into()),
            }
        }
        let max_turns = match &self.max_turns {
            Some(text) => number("--turns", text)?,
            None => super::settings::DEFAULT_MAX_TURNS,
        };
        if max_turns == 0 {
            return Err("--turns must be at least 1".into());
        }
        let window_margin = match &self.window {
            Some(text) => Some(number("--window", text)?),
            None => None,
        };
        let settings = WorldSettings {
            params,
            players_per_seat,
            layout,
            max_turns,
            window_margin,
            seed,
            svg: self.svg.clone().map(|path| SvgOutput {
                path,
                numbered: worlds > 1,
            }),
        };
        // The armies must fit on the board: set one world up now, not at the first game.
        let game = crate::arena::schedule::ScheduledGame {
            index: 0,
            round: 0,
            pair: 0,
            seats: vec![0, 1],
            opening: Default::default(),
        };
        WorldGame::new(&settings.setup(&game, 2))
            .map_err(|error| format!("the world cannot be set up with these settings: {error}"))?;
        Ok(settings)
    }
}
