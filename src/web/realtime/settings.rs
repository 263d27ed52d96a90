//! The `start` message of a realtime page: the human's side, the game's parameters and Roger's
//! player, each checked, so that a bad field is an error that names it and no game starts.

use super::request::{Opponent, SideName, StartGame};
use crate::options::{OptionValue, SKILL_LEVEL, SKILL_LEVEL_MAX, SKILL_SEED, SKILL_SEED_MAX};
use crate::plan::realtime::RealtimePlanner;
use crate::plan::RealtimePlayer;
use crate::players::realtime::{GreedyRealtimePlayer, RandomRealtimePlayer};
use crate::rules::realtime::{Color, Ms, RealtimeParams, PARAMETERS};
use serde_json::{json, Value};

/// How often Roger decides when the page does not say, in ms: about a person's pace (at 200 ms
/// Roger started eight moves in the first 1.6 seconds, more than anyone can answer).
pub const DEFAULT_REACTION_MS: Ms = 1000;
/// Roger's planner's `Skill Level` when the page does not say: gentle enough for a newcomer
/// (against the greedy reference player it scores about 78%; 20 is full strength).
pub const DEFAULT_SKILL: u8 = 5;
/// The range of `reaction_ms`: faster than the session's poll is not real; slower than ten
/// seconds is not a game.
pub const REACTION_RANGE: (Ms, Ms) = (20, 10_000);

impl Opponent {
    /// A fresh player for one game at `skill` (Roger's planner; the reference players have no
    /// levels); `seed` varies the games of the reference players and of a weakened planner.
    pub fn player(self, seed: u64, skill: u8) -> Box<dyn RealtimePlayer> {
        match self {
            Opponent::Roger => {
                let mut planner = RealtimePlanner::new();
                if i64::from(skill) < SKILL_LEVEL_MAX {
                    // Both values are within the options' bounds.
                    let seed = (seed % SKILL_SEED_MAX as u64) as i64;
                    let _ = planner.set_option(SKILL_SEED, &OptionValue::Spin(seed));
                    let _ = planner.set_option(SKILL_LEVEL, &OptionValue::Spin(i64::from(skill)));
                }
                Box::new(planner)
            }
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
    /// Roger's planner's `Skill Level`, 0 to [`SKILL_LEVEL_MAX`].
    pub skill: u8,
}

impl Settings {
    /// Reads a `start` message; every field may be left out (White, the rules' defaults, Roger's
    /// planner at [`DEFAULT_SKILL`] deciding every [`DEFAULT_REACTION_MS`]).
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
        let skill = request.skill.unwrap_or(u64::from(DEFAULT_SKILL));
        if skill > SKILL_LEVEL_MAX as u64 {
            return Err(format!("skill {skill} is outside 0..={SKILL_LEVEL_MAX}"));
        }
        Ok(Settings {
            human,
            params,
            opponent,
            reaction_ms,
            // At most SKILL_LEVEL_MAX, so it fits.
            skill: skill as u8,
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
            "skill": self.skill,
        })
    }
}
