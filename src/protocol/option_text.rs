//! An option's value as `setoption` writes it: read as the option's kind, then admitted by the
//! option's own bounds ([`OptionSpec::admit`]).

use super::parse::SEPARATORS;
use crate::options::{find_option, OptionError, OptionKind, OptionSpec, OptionValue};

/// Finds the option (names are case-insensitive, as in most engines) and reads the value's text
/// as its kind: the option's own name and the checked value.
pub fn read_option(
    specs: &[OptionSpec],
    name: &str,
    value: Option<&str>,
) -> Result<(&'static str, OptionValue), OptionError> {
    let spec = find_option(specs, name)?;
    let option = spec.name;
    let text = match value.map(|text| text.trim_matches(SEPARATORS)) {
        Some(text) if !text.is_empty() => text,
        _ => return Err(OptionError::NeedsValue(option)),
    };
    let value = match &spec.kind {
        OptionKind::Spin { .. } => OptionValue::Spin(
            text.parse()
                .map_err(|_| OptionError::NotInteger(option, text.to_string()))?,
        ),
        OptionKind::Check { .. } => match text.to_ascii_lowercase().as_str() {
            "true" => OptionValue::Check(true),
            "false" => OptionValue::Check(false),
            _ => return Err(OptionError::NotBoolean(option, text.to_string())),
        },
        OptionKind::Text { .. } => OptionValue::Text(text.to_string()),
        OptionKind::Combo { .. } => OptionValue::Combo(text.to_string()),
    };
    Ok((option, spec.admit(value)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::turn_option_specs as option_specs;
    use crate::options::UCI_VARIANT;

    fn specs() -> Vec<OptionSpec> {
        option_specs(&["chess", "nichess"])
    }

    fn read(name: &str, value: Option<&str>) -> Result<(&'static str, OptionValue), String> {
        read_option(&specs(), name, value).map_err(|error| error.to_string())
    }

    #[test]
    fn spins_are_range_checked() {
        assert_eq!(
            read("hash", Some("64")),
            Ok(("Hash", OptionValue::Spin(64)))
        );
        assert_eq!(
            read("Hash", Some("0")),
            Err("option 'Hash' value 0 is out of range 1..=65536".into())
        );
        assert_eq!(
            read("Hash", Some("abc")),
            Err("option 'Hash' needs an integer, found 'abc'".into())
        );
        assert_eq!(
            read("Hash", None),
            Err("option 'Hash' needs a value".into())
        );
        assert_eq!(
            read("move overhead", Some("0")),
            Ok(("Move Overhead", OptionValue::Spin(0)))
        );
    }

    #[test]
    fn checks_combos_and_unknown_names() {
        assert_eq!(
            read("Ponder", Some("TRUE")),
            Ok(("Ponder", OptionValue::Check(true)))
        );
        assert!(read("Ponder", Some("yes")).is_err());
        assert_eq!(
            read("UCI_Variant", Some("NiChess")),
            Ok((UCI_VARIANT, OptionValue::Combo("nichess".into())))
        );
        assert_eq!(
            read("UCI_Variant", Some("shogi")),
            Err("option 'UCI_Variant' has no value 'shogi' (values: chess, nichess)".into())
        );
        assert!(read("Contempt", Some("1"))
            .unwrap_err()
            .starts_with("unknown option 'Contempt'"));
    }
}
