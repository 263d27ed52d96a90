//! The `start` message of a realtime page: the human's side, the game's parameters and Roger's
//! player, each checked, so that a bad field is an error that names it and no game starts.

use crate::plan::realtime::RealtimePlanner;
use crate::plan::RealtimePlayer;
use crate::players::realtime::{GreedyRealtimePlayer, RandomRealtimePlayer};
use crate::rules::realtime::{Color, Ms, RealtimeParams, PARAMETERS};
use serde_json::{json, Value};

/// How often Roger decides when the page does not say, in ms.
pub const DEFAULT_REACTION_MS: Ms = 200;
/// The range of `reaction_ms`: faster than the session's poll is not real; slower than ten
/// seconds is not a game.
pub const REACTION_RANGE: (Ms, Ms) = (20, 10_000);

/// Who plays Roger's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Roger's realtime planner.
    Roger,
    /// The greedy reference player (one order a tick at most).
    Greedy,
    /// The random reference player (an order at one decision in five).
    Random,
}

impl Opponent {
    const ALL: [Opponent; 3] = [Opponent::Roger, Opponent::Greedy, Opponent::Random];

    pub fn name(self) -> &'static str {
        match self {
            Opponent::Roger => "roger",
            Opponent::Greedy => "greedy",
            Opponent::Random => "random",
        }
    }

    /// A fresh player for one game; `seed` varies the reference players' games.
    pub fn player(self, seed: u64) -> Box<dyn RealtimePlayer> {
        match self {
            Opponent::Roger => Box::new(RealtimePlanner::new()),
            Opponent::Greedy => Box::new(GreedyRealtimePlayer::new(seed)),
            Opponent::Random => Box::new(RandomRealtimePlayer::new(seed)),
        }
    }
}

/// One game's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The human's side; Roger plays the other.
    pub human: Color,
    pub params: RealtimeParams,
    pub opponent: Opponent,
    /// Game time between two of Roger's decisions.
    pub reaction_ms: Ms,
}

impl Settings {
    /// Reads a `start` message; every field may be left out (White, the rules' defaults, Roger's
    /// planner deciding every [`DEFAULT_REACTION_MS`]).
    pub fn parse(message: &Value) -> Result<Settings, String> {
        let human = match message.get("side") {
            None | Some(Value::Null) => Color::White,
            Some(Value::String(side)) if side == "white" => Color::White,
            Some(Value::String(side)) if side == "black" => Color::Black,
            Some(other) => return Err(format!("side {other} is not \"white\" or \"black\"")),
        };
        let defaults = RealtimeParams::default();
        let mut values = [
            defaults.tick_ms,
            defaults.delay_ticks,
            defaults.no_capture_draw_ticks,
        ];
        for (parameter, value) in PARAMETERS.iter().zip(values.iter_mut()) {
            if let Some(given) = number(message, parameter.name)? {
                if !(parameter.min..=parameter.max).contains(&(given as i64)) {
                    return Err(format!(
                        "{} {given} is outside {}..={}",
                        parameter.name, parameter.min, parameter.max
                    ));
                }
                // In range, so it fits.
                *value = given as u32;
            }
        }
        let params = RealtimeParams {
            tick_ms: values[0],
            delay_ticks: values[1],
            no_capture_draw_ticks: values[2],
        };
        params.validate()?;
        let opponent = match message.get("opponent") {
            None | Some(Value::Null) => Opponent::Roger,
            Some(Value::String(name)) => Opponent::ALL
                .into_iter()
                .find(|opponent| opponent.name() == name)
                .ok_or_else(|| {
                    format!("opponent \"{name}\" is not \"roger\", \"greedy\" or \"random\"")
                })?,
            Some(other) => return Err(format!("opponent {other} is not a name")),
        };
        let reaction_ms = number(message, "reaction_ms")?.unwrap_or(DEFAULT_REACTION_MS);
        let (low, high) = REACTION_RANGE;
        if !(low..=high).contains(&reaction_ms) {
            return Err(format!(
                "reaction_ms {reaction_ms} is outside {low}..={high}"
            ));
        }
        Ok(Settings {
            human,
            params,
            opponent,
            reaction_ms,
        })
    }

    pub fn roger(&self) -> Color {
        self.human.flip()
    }

    /// The `started` message: the settings as the game runs them.
    pub fn started(&self) -> Value {
        json!({
            "type": "started",
            "side": self.human.name(),
            "roger": self.roger().name(),
            "tick_ms": self.params.tick_ms,
            "delay_ticks": self.params.delay_ticks,
            "no_capture_draw_ticks": self.params.no_capture_draw_ticks,
            "opponent": self.opponent.name(),
            "reaction_ms": self.reaction_ms,
        })
    }
}

/// A field that must be a whole number when present.
fn number(message: &Value, name: &str) -> Result<Option<u64>, String> {
    match message.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{name} {value} is not a whole number of at least 0")),
    }
}
