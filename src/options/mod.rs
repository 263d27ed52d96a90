//! Engine options as data: what an option is (its name, kind, default and bounds, for the
//! `option` lines), a value checked against it, and the names and specs that the turn engine
//! and the players of the games without turns share. Below the engine and the planners, so
//! that every player can announce and take options of the same kind.

mod strength;

pub use strength::{
    strength_options, Strength, SKILL_LEVEL, SKILL_LEVEL_MAX, UCI_ELO, UCI_LIMIT_STRENGTH,
};

use crate::common::text::quote;
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

/// Why an option's value was refused; each text says what and which option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of this name; the known ones.
    Unknown {
        name: String,
        known: Vec<&'static str>,
    },
    /// The option was given no value.
    NeedsValue(&'static str),
    /// A spin was given something that is not an integer.
    NotInteger(&'static str, String),
    /// A check was given something that is not `true` or `false`.
    NotBoolean(&'static str, String),
    OutOfRange {
        option: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    /// A combo was given a value it does not offer.
    NoSuchValue {
        option: &'static str,
        value: String,
        values: Vec<String>,
    },
    /// A value of another kind than the option's.
    WrongKind(&'static str),
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown { name, known } => write!(
                f,
                "unknown option {} (options: {})",
                quote(name),
                known.join(", ")
            ),
            OptionError::NeedsValue(option) => write!(f, "option '{option}' needs a value"),
            OptionError::NotInteger(option, value) => write!(
                f,
                "option '{option}' needs an integer, found {}",
                quote(value)
            ),
            OptionError::NotBoolean(option, value) => write!(
                f,
                "option '{option}' needs 'true' or 'false', found {}",
                quote(value)
            ),
            OptionError::OutOfRange {
                option,
                value,
                min,
                max,
            } => write!(
                f,
                "option '{option}' value {value} is out of range {min}..={max}"
            ),
            OptionError::NoSuchValue {
                option,
                value,
                values,
            } => write!(
                f,
                "option '{option}' has no value {} (values: {})",
                quote(value),
                values.join(", ")
            ),
            OptionError::WrongKind(option) => {
                write!(f, "option '{option}' takes a value of another kind")
            }
        }
    }
}

impl From<OptionError> for String {
    fn from(error: OptionError) -> String {
        error.to_string()
    }
}

/// The option named `name` (case-insensitive, as in most engines).
pub fn find_option<'a>(specs: &'a [OptionSpec], name: &str) -> Result<&'a OptionSpec, OptionError> {
    specs
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::Unknown {
            name: name.to_string(),
            known: specs.iter().map(|spec| spec.name).collect(),
        })
}

impl OptionSpec {
    /// `value` if this option takes it: a spin within its bounds, a combo's value in the
    /// option's own spelling (matched case-insensitively), any check or text.
    pub fn admit(&self, value: OptionValue) -> Result<OptionValue, OptionError> {
        let option = self.name;
        match (&self.kind, value) {
            (OptionKind::Spin { min, max, .. }, OptionValue::Spin(value)) => {
                if value < *min || value > *max {
                    return Err(OptionError::OutOfRange {
                        option,
                        value,
                        min: *min,
                        max: *max,
                    });
                }
                Ok(OptionValue::Spin(value))
            }
            (OptionKind::Check { .. }, value @ OptionValue::Check(_)) => Ok(value),
            (OptionKind::Text { .. }, value @ OptionValue::Text(_)) => Ok(value),
            (OptionKind::Combo { values, .. }, OptionValue::Combo(value)) => {
                match values
                    .iter()
                    .find(|known| known.eq_ignore_ascii_case(&value))
                {
                    Some(known) => Ok(OptionValue::Combo(known.clone())),
                    None => Err(OptionError::NoSuchValue {
                        option,
                        value,
                        values: values.clone(),
                    }),
                }
            }
            _ => Err(OptionError::WrongKind(option)),
        }
    }
}

/// Finds the option named `name` among `specs` and admits `value`: the option's own name and
/// the value as it takes it.
pub fn check_value(
    specs: &[OptionSpec],
    name: &str,
    value: OptionValue,
) -> Result<(&'static str, OptionValue), OptionError> {
    let spec = find_option(specs, name)?;
    Ok((spec.name, spec.admit(value)?))
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

/// [`check_value`] for a spin: the option's own name and the number.
pub fn spin_value(
    specs: &[OptionSpec],
    name: &str,
    value: &OptionValue,
) -> Result<(&'static str, i64), OptionError> {
    match check_value(specs, name, value.clone())? {
        (name, OptionValue::Spin(number)) => Ok((name, number)),
        (name, _) => Err(OptionError::WrongKind(name)),
    }
}
