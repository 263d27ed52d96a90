//! The three strength options (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`) and the
//! strength they ask for together.

use super::{OptionKind, OptionSpec, OptionValue};

pub const SKILL_LEVEL: &str = "Skill Level";
pub const UCI_LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const UCI_ELO: &str = "UCI_Elo";
/// The full-strength `Skill Level`.
pub const SKILL_LEVEL_MAX: i64 = 20;

/// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`, every one at full strength by default
/// (see [`crate::search::skill`]).
pub fn strength_options() -> Vec<OptionSpec> {
    use crate::search::skill::{ELO_MAX, ELO_MIN};
    vec![
        OptionSpec {
            name: SKILL_LEVEL,
            kind: OptionKind::Spin {
                default: SKILL_LEVEL_MAX,
                min: 0,
                max: SKILL_LEVEL_MAX,
            },
        },
        OptionSpec {
            name: UCI_LIMIT_STRENGTH,
            kind: OptionKind::Check { default: false },
        },
        OptionSpec {
            name: UCI_ELO,
            kind: OptionKind::Spin {
                default: ELO_MAX,
                min: ELO_MIN,
                max: ELO_MAX,
            },
        },
    ]
}

/// The strength the three strength options ask for, as a fractional level 0..=20: the
/// `UCI_Elo`'s level when `UCI_LimitStrength` is on, else `Skill Level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    pub skill_level: i64,
    pub limit_strength: bool,
    pub elo: i64,
}

impl Default for Strength {
    fn default() -> Strength {
        Strength {
            skill_level: SKILL_LEVEL_MAX,
            limit_strength: false,
            elo: crate::search::skill::ELO_MAX,
        }
    }
}

impl Strength {
    pub fn level(&self) -> f64 {
        if self.limit_strength {
            crate::search::skill::level_from_elo(self.elo)
        } else {
            self.skill_level as f64
        }
    }

    /// Takes one of the three options' checked value; false for any other option.
    pub fn set(&mut self, name: &str, value: &OptionValue) -> bool {
        match (name, value) {
            (SKILL_LEVEL, OptionValue::Spin(level)) => self.skill_level = *level,
            (UCI_LIMIT_STRENGTH, OptionValue::Check(on)) => self.limit_strength = *on,
            (UCI_ELO, OptionValue::Spin(elo)) => self.elo = *elo,
            _ => return false,
        }
        true
    }
}
