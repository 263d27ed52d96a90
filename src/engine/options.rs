//! The engine's options: what they are (for the `option` lines) and their current values.

use crate::common::text::{quote, SEPARATORS};
use crate::eval::EvalOptions;
use std::time::Duration;

/// What kind of value an option takes, with its default and bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: String,
        values: Vec<String>,
    },
    /// Any text (a file name, say).
    Text {
        default: String,
    },
}

/// One option as the engine announces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

pub const HASH: &str = "Hash";
pub const THREADS: &str = "Threads";
pub const MULTI_PV: &str = "MultiPV";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const PONDER: &str = "Ponder";
pub const UCI_VARIANT: &str = "UCI_Variant";
pub const SKILL_LEVEL: &str = "Skill Level";
pub const UCI_LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const UCI_ELO: &str = "UCI_Elo";
pub const SKILL_SEED: &str = "Skill Seed";
pub const USE_NNUE: &str = "Use NNUE";
pub const EVAL_FILE: &str = "EvalFile";
/// `EvalFile`'s value for the network built into the binary.
pub const EMBEDDED_NETWORK: &str = "<embedded>";

pub const HASH_DEFAULT_MB: i64 = 16;
pub const HASH_MAX_MB: i64 = 65536;
pub const THREADS_MAX: i64 = 256;
pub const MULTI_PV_MAX: i64 = 256;
pub const MOVE_OVERHEAD_DEFAULT_MS: i64 = 30;
pub const MOVE_OVERHEAD_MAX_MS: i64 = 5000;
/// The full-strength `Skill Level`.
pub const SKILL_LEVEL_MAX: i64 = 20;
/// The largest `Skill Seed` (GUIs keep spins in 32-bit integers).
pub const SKILL_SEED_MAX: i64 = i32::MAX as i64;

/// The options every variant shares; `variants` are the values of `UCI_Variant`.
pub fn option_specs(variants: &[&str]) -> Vec<OptionSpec> {
    let spin = |name, default, min, max| OptionSpec {
        name,
        kind: OptionKind::Spin { default, min, max },
    };
    vec![
        spin(HASH, HASH_DEFAULT_MB, 1, HASH_MAX_MB),
        spin(THREADS, 1, 1, THREADS_MAX),
        spin(MULTI_PV, 1, 1, MULTI_PV_MAX),
        spin(
            MOVE_OVERHEAD,
            MOVE_OVERHEAD_DEFAULT_MS,
            0,
            MOVE_OVERHEAD_MAX_MS,
        ),
        // Announced so GUIs know we can ponder; the engine ponders whenever it is sent
        // `go ponder`, whatever the value.
        OptionSpec {
            name: PONDER,
            kind: OptionKind::Check { default: false },
        },
        variant_option(variants),
        // Chess only: the network (on) or the hand-set evaluation.
        OptionSpec {
            name: USE_NNUE,
            kind: OptionKind::Check { default: true },
        },
        // A network file of any turn game to use in place of the built-in one.
        OptionSpec {
            name: EVAL_FILE,
            kind: OptionKind::Text {
                default: EMBEDDED_NETWORK.to_string(),
            },
        },
    ]
    .into_iter()
    .chain(strength_options())
    .chain([skill_seed_option()])
    .collect()
}

/// `Skill Seed`, the seed of a player's random choices (what 0 means is the player's).
pub fn skill_seed_option() -> OptionSpec {
    OptionSpec {
        name: SKILL_SEED,
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: SKILL_SEED_MAX,
        },
    }
}

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

/// The `UCI_Variant` combo over `variants`, the first the default.
pub fn variant_option(variants: &[&str]) -> OptionSpec {
    OptionSpec {
        name: UCI_VARIANT,
        kind: OptionKind::Combo {
            default: variants.first().copied().unwrap_or_default().to_string(),
            values: variants.iter().map(|v| v.to_string()).collect(),
        },
    }
}

/// The current values of the options that are not kept elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionValues {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub strength: Strength,
    pub skill_seed: u64,
    /// `Use NNUE`: this engine's alone (each search carries it).
    pub eval: EvalOptions,
}

impl Default for OptionValues {
    fn default() -> OptionValues {
        OptionValues {
            hash_mb: HASH_DEFAULT_MB as usize,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(MOVE_OVERHEAD_DEFAULT_MS as u64),
            strength: Strength::default(),
            skill_seed: 0,
            eval: EvalOptions::default(),
        }
    }
}

/// A value checked against its option's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
    /// The combo value, spelled as the engine announces it.
    Combo(String),
    Text(String),
}

impl OptionValue {
    /// The value as it would be written in `setoption`.
    pub fn text(&self) -> String {
        match self {
            OptionValue::Spin(number) => number.to_string(),
            OptionValue::Check(flag) => flag.to_string(),
            OptionValue::Combo(text) | OptionValue::Text(text) => text.clone(),
        }
    }
}

/// Finds the option (names are case-insensitive, as in most engines) and checks the value.
pub fn check_option(
    specs: &[OptionSpec],
    name: &str,
    value: Option<&str>,
) -> Result<(&'static str, OptionValue), String> {
    let Some(spec) = specs.iter().find(|s| s.name.eq_ignore_ascii_case(name)) else {
        let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
        return Err(format!(
            "unknown option {} (options: {})",
            quote(name),
            known.join(", ")
        ));
    };
    let option = spec.name;
    let value = match value.map(|text| text.trim_matches(SEPARATORS)) {
        Some(text) if !text.is_empty() => text,
        _ => return Err(format!("option '{option}' needs a value")),
    };
    let checked = match &spec.kind {
        OptionKind::Spin { min, max, .. } => {
            let number: i64 = value.parse().map_err(|_| {
                format!("option '{option}' needs an integer, found {}", quote(value))
            })?;
            if number < *min || number > *max {
                return Err(format!(
                    "option '{option}' value {number} is out of range {min}..={max}"
                ));
            }
            OptionValue::Spin(number)
        }
        OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
            "true" => OptionValue::Check(true),
            "false" => OptionValue::Check(false),
            _ => {
                return Err(format!(
                    "option '{option}' needs 'true' or 'false', found {}",
                    quote(value)
                ))
            }
        },
        OptionKind::Text { .. } => OptionValue::Text(value.to_string()),
        OptionKind::Combo { values, .. } => {
            match values.iter().find(|v| v.eq_ignore_ascii_case(value)) {
                Some(known) => OptionValue::Combo(known.clone()),
                None => {
                    return Err(format!(
                        "option '{option}' has no value {} (values: {})",
                        quote(value),
                        values.join(", ")
                    ))
                }
            }
        }
    };
    Ok((option, checked))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<OptionSpec> {
        option_specs(&["chess", "nichess"])
    }

    #[test]
    fn spins_are_range_checked() {
        let specs = specs();
        assert_eq!(
            check_option(&specs, "hash", Some("64")),
            Ok((HASH, OptionValue::Spin(64)))
        );
        assert_eq!(
            check_option(&specs, "Hash", Some("0")),
            Err("option 'Hash' value 0 is out of range 1..=65536".into())
        );
        assert_eq!(
            check_option(&specs, "Hash", Some("abc")),
            Err("option 'Hash' needs an integer, found 'abc'".into())
        );
        assert_eq!(
            check_option(&specs, "Hash", None),
            Err("option 'Hash' needs a value".into())
        );
        assert_eq!(
            check_option(&specs, "move overhead", Some("0")),
            Ok((MOVE_OVERHEAD, OptionValue::Spin(0)))
        );
    }

    #[test]
    fn checks_combos_and_unknown_names() {
        let specs = specs();
        assert_eq!(
            check_option(&specs, "Ponder", Some("TRUE")),
            Ok((PONDER, OptionValue::Check(true)))
        );
        assert!(check_option(&specs, "Ponder", Some("yes")).is_err());
        assert_eq!(
            check_option(&specs, "UCI_Variant", Some("NiChess")),
            Ok((UCI_VARIANT, OptionValue::Combo("nichess".into())))
        );
        assert_eq!(
            check_option(&specs, "UCI_Variant", Some("shogi")),
            Err("option 'UCI_Variant' has no value 'shogi' (values: chess, nichess)".into())
        );
        assert!(check_option(&specs, "Contempt", Some("1"))
            .unwrap_err()
            .starts_with("unknown option 'Contempt'"));
    }
}
