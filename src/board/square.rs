//! Squares and their names on boards of up to 16 files and 16 ranks.

use std::fmt;

/// A square index: `rank * files + file`, counted from `a1` = 0.
///
/// The index alone does not know the board's width; names go through a
/// [`Geometry`](super::Geometry) (or [`Square::name`] with the file count).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(pub u8);

impl Square {
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8, files: u8) -> Square {
        Square(rank * files + file)
    }

    /// The square's name, for example `o8` or `a10`, on a board `files` wide.
    pub fn name(self, files: u8) -> String {
        let file = self.0 % files;
        let rank = self.0 / files;
        format!("{}{}", (b'a' + file) as char, rank + 1)
    }

    /// Reads a square name such as `e4`, `o8` or `a10` for a board of the given size.
    pub fn parse(text: &str, files: u8, ranks: u8) -> Option<Square> {
        let (file, rank) = parse_coords(text)?;
        (file < files && rank < ranks).then(|| Square::from_coords(file, rank, files))
    }
}

/// Splits a square name into zero-based (file, rank), without a board-size check.
pub fn parse_coords(text: &str) -> Option<(u8, u8)> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || bytes.len() > 3 {
        return None;
    }
    let file = bytes[0].wrapping_sub(b'a');
    if file >= 16 {
        return None;
    }
    let digits = &text[1..];
    if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    if !(1..=16).contains(&rank) {
        return None;
    }
    Some((file, rank - 1))
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_wide_and_tall_boards() {
        for (files, ranks) in [(8u8, 8u8), (15, 8), (16, 8), (8, 16), (5, 5)] {
            for index in 0..files * ranks {
                let sq = Square(index);
                let name = sq.name(files);
                assert_eq!(Square::parse(&name, files, ranks), Some(sq), "{name}");
            }
        }
        assert_eq!(Square(119).name(15), "o8");
        assert_eq!(Square::parse("a10", 8, 16), Some(Square(72)));
    }

    #[test]
    fn rejects_bad_names() {
        for bad in ["", "e", "e0", "e9", "i1", "e01", "z3", "e17", "ee", "e4x"] {
            assert_eq!(Square::parse(bad, 8, 8), None, "{bad}");
        }
    }
}
