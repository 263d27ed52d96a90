//! Engine options as data: what an option is (its name, kind, default and bounds, for the
//! `option` lines), a value checked against it, and the names and specs that the turn engine
//! and the players of the games without turns share. Below the engine and the planners, so
//! that every player can announce and take options of the same kind.

mod strength;

pub use strength::{
    strength_options, Strength, SKILL_LEVEL, SKILL_LEVEL_MAX, UCI_ELO, UCI_LIMIT_STRENGTH,
};

use crate::common::text::{quote, SEPARATORS};
use crate::rules::parameter::Parameter;

pub const UCI_VARIANT: &str = "UCI_Variant";
pub const SKILL_SEED: &str = "Skill Seed";
/// The largest `Skill Seed` (GUIs keep spins in 32-bit integers).
pub const SKILL_SEED_MAX: i64 = i32::MAX as i64;

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

/// A game's run-time parameters as spins, named exactly as the rules name them.
pub fn parameter_specs(parameters: &[Parameter]) -> Vec<OptionSpec> {
    parameters
        .iter()
        .map(|parameter| OptionSpec {
            name: parameter.name,
            kind: OptionKind::Spin {
                default: parameter.default,
                min: parameter.min,
                max: parameter.max,
            },
        })
        .collect()
}
