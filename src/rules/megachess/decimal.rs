//! The one way a number is written in Megachess texts (the world line, squares and moves, the
//! dialect's `go movetime`): plain decimal digits, no sign, no leading zero (`0` itself is
//! fine), as the FEN counters of the turn games. `007` could be read as 7, but one spelling per
//! number keeps every line that reads back the same line, and a writer that pads numbers is one
//! to hear about.

use std::ops::RangeInclusive;

/// Why a number did not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecimalError {
    /// Empty, or a character other than the digits 0-9 (a sign, a space, an exponent).
    NotANumber,
    /// `007`: the number as it should be written.
    LeadingZero { plain: String },
    /// Digits, but outside the range.
    OutOfRange(RangeInclusive<u64>),
}

impl DecimalError {
    /// The reason, for the number `text` of `what`: `<what> '<text>' <why>`.
    pub fn explain(&self, what: &str, text: &str) -> String {
        match self {
            DecimalError::NotANumber => format!("{what} '{text}' is not a number"),
            DecimalError::LeadingZero { plain } => {
                format!("{what} '{text}' has a leading zero: write it as '{plain}'")
            }
            DecimalError::OutOfRange(range) => format!(
                "{what} '{text}' is out of range {}..={}",
                range.start(),
                range.end()
            ),
        }
    }
}

/// Reads a number within `range`.
pub fn read_decimal(text: &str, range: RangeInclusive<u64>) -> Result<u64, DecimalError> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(DecimalError::NotANumber);
    }
    if text.len() > 1 && text.starts_with('0') {
        let trimmed = text.trim_start_matches('0');
        let plain = if trimmed.is_empty() { "0" } else { trimmed };
        return Err(DecimalError::LeadingZero {
            plain: plain.to_string(),
        });
    }
    match text.parse::<u64>() {
        Ok(value) if range.contains(&value) => Ok(value),
        _ => Err(DecimalError::OutOfRange(range)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_digits_only_without_leading_zeros() {
        let read = |text: &str, range| read_decimal(text, range).map_err(|e| e.explain("x", text));
        assert_eq!(read("0", 0..=9), Ok(0));
        assert_eq!(read("10", 0..=10), Ok(10));
        assert_eq!(
            read("007", 0..=9),
            Err("x '007' has a leading zero: write it as '7'".into())
        );
        assert_eq!(
            read("00", 0..=9),
            Err("x '00' has a leading zero: write it as '0'".into())
        );
        for text in ["", "+1", "-1", "1e3", " 1", "٣"] {
            assert_eq!(
                read(text, 0..=9),
                Err(format!("x '{text}' is not a number"))
            );
        }
        assert_eq!(
            read("11", 1..=10),
            Err("x '11' is out of range 1..=10".into())
        );
        assert_eq!(
            read("0", 1..=10),
            Err("x '0' is out of range 1..=10".into())
        );
        assert_eq!(
            read("18446744073709551616", 0..=u64::MAX),
            Err(format!(
                "x '18446744073709551616' is out of range 0..={}",
                u64::MAX
            ))
        );
    }
}
