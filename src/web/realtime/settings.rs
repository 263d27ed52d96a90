//! The `start` message of a realtime page: the human's side, the game's parameters and Roger's
//! player, each checked, so that a bad field is an error that names it and no game starts.

use super::request::{Opponent, SideName, StartGame};
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

impl Opponent {
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
    pub fn parse(request: &StartGame) -> Result<Settings, String> {
        let human = match request.side {
            None | Some(SideName::White) => Color::White,
            Some(SideName::Black) => Color::Black,
        };
        let defaults = RealtimeParams::default();
        let mut values = [
            defaults.tick_ms,
            defaults.delay_ticks,
            defaults.no_capture_draw_ticks,
        ];
        let given = [
            request.tick_ms,
            request.delay_ticks,
            request.no_capture_draw_ticks,
        ];
        for ((parameter, value), given) in PARAMETERS.iter().zip(values.iter_mut()).zip(given) {
            if let Some(given) = given {
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
        let opponent = request.opponent.unwrap_or(Opponent::Roger);
        let reaction_ms = request.reaction_ms.unwrap_or(DEFAULT_REACTION_MS);
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
