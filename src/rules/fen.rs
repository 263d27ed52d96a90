//! The FEN parts every game shares.

use crate::board::Square;
use crate::rules::pieces::{KindIndex, Piece};
use crate::rules::{Color, RuleError};

/// The error for a malformed FEN: `bad FEN: <what and where>`.
pub fn bad_fen(text: String) -> RuleError {
    RuleError::Malformed(format!("bad FEN: {text}"))
}

/// The fields of a chess-like FEN, in order (Millennium adds the pool).
pub const FIELD_NAMES: [&str; 7] = [
    "placement",
    "side",
    "castling",
    "en passant",
    "halfmove clock",
    "move number",
    "pool",
];

/// A FEN split into its fields, with the readers of the fields every game has.
pub struct Fields<'a>(Vec<&'a str>);

impl<'a> Fields<'a> {
    /// Splits `fen` at spaces and tabs; `names` are its fields in order, the first `required` of
    /// them needed.
    pub fn split(fen: &'a str, required: usize, names: &[&str]) -> Result<Fields<'a>, RuleError> {
        // Spaces and tabs only, as the protocol splits its tokens.
        let fields: Vec<&str> = fen
            .split([' ', '\t'])
            .filter(|field| !field.is_empty())
            .collect();
        if fields.len() < required || fields.len() > names.len() {
            return Err(bad_fen(format!(
                "expected {required} to {} fields ({}), found {}",
                names.len(),
                names.join(", "),
                fields.len()
            )));
        }
        Ok(Fields(fields))
    }

    pub fn get(&self, index: usize) -> Option<&'a str> {
        self.0.get(index).copied()
    }

    /// The placement, the first field (always there).
    pub fn placement(&self) -> &'a str {
        self.0[0]
    }

    /// The side to move, the second field.
    pub fn side(&self) -> Result<Color, RuleError> {
        match self.0[1] {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            other => Err(bad_fen(format!(
                "side to move is '{other}', expected 'w' or 'b'"
            ))),
        }
    }

    /// The halfmove clock (fifth field, 0 when left out) and the move number (sixth field, 1
    /// when left out; 0 is read as 1, as some tools write it). Each is plain decimal digits
    /// without a sign or a leading zero, at most [`u32::MAX`].
    pub fn clocks(&self) -> Result<(u32, u32), RuleError> {
        let number = |index: usize, name: &str, default: u32| match self.get(index) {
            None => Ok(default),
            Some(text) => read_counter(text, name),
        };
        let halfmove = number(4, "halfmove clock", 0)?;
        let fullmove = number(5, "move number", 1)?.max(1);
        Ok((halfmove, fullmove))
    }
}

/// A FEN counter: decimal digits, no sign, no leading zero (`0` itself is fine), in `u32`.
pub fn read_counter(text: &str, name: &str) -> Result<u32, RuleError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad_fen(format!(
            "{name} '{text}' is not a number: expected decimal digits"
        )));
    }
    if text.len() > 1 && text.starts_with('0') {
        let trimmed = text.trim_start_matches('0');
        let plain = if trimmed.is_empty() { "0" } else { trimmed };
        return Err(bad_fen(format!(
            "{name} '{text}' has a leading zero: write it as '{plain}'"
        )));
    }
    text.parse::<u32>().map_err(|_| {
        bad_fen(format!(
            "{name} '{text}' is out of range: at most {}",
            u32::MAX
        ))
    })
}

/// The error unless `count` kings of `color` is within `allowed`.
pub fn check_kings(
    color: Color,
    count: u32,
    allowed: std::ops::RangeInclusive<u32>,
) -> Result<(), RuleError> {
    if allowed.contains(&count) {
        return Ok(());
    }
    let expected = if allowed.start() == allowed.end() || *allowed.start() == 0 {
        allowed.end().to_string()
    } else {
        format!("{} or {}", allowed.start(), allowed.end())
    };
    Err(bad_fen(format!(
        "{} has {count} kings, expected {expected}",
        color.name()
    )))
}

/// The error when a pawn stands on the first or last rank.
pub fn check_back_ranks(pawn_on_back_rank: bool) -> Result<(), RuleError> {
    if pawn_on_back_rank {
        return Err(bad_fen(
            "a pawn stands on the first or last rank".to_string(),
        ));
    }
    Ok(())
}

/// What a game tells the placement reader: its pieces' letters, and how a piece goes on the
/// board (with whatever follows its letter, such as Nichess's health `N(40)`).
pub trait PlacementTarget {
    /// The game's piece kinds, which give the letters.
    type Kind: KindIndex;
    /// Puts `piece` on `square`.
    fn put_piece(&mut self, square: Square, piece: Piece<Self::Kind>);
    /// Puts `piece` on `square`; `after` is the rank's text after the letter. Returns how many
    /// bytes of it belong to the piece (a suffix), 0 for none (the default: no suffixes).
    fn place(
        &mut self,
        square: Square,
        piece: Piece<Self::Kind>,
        _after: &str,
    ) -> Result<usize, RuleError> {
        self.put_piece(square, piece);
        Ok(0)
    }
    /// The error for `c`, which is neither a piece letter nor a digit, on `rank` (from 1).
    fn not_a_piece(c: char, rank: u8) -> RuleError {
        bad_fen(format!("'{c}' on rank {rank} is not a piece letter"))
    }
}

/// Reads the piece placement field of a board `files` x `ranks` onto `board`: ranks from the
/// top, `/` between them, runs of empty squares as numbers of one or more digits (`15`).
pub fn read_placement<T: PlacementTarget>(
    board: &mut T,
    field: &str,
    files: u8,
    ranks: u8,
) -> Result<(), RuleError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != ranks as usize {
        let found = rows.len();
        let plural = if found == 1 { "" } else { "s" };
        return Err(bad_fen(format!(
            "the board has {found} rank{plural} (ranks are separated by '/'), expected {ranks}"
        )));
    }
    let files = files as u32;
    for (row, text) in rows.iter().enumerate() {
        let rank = ranks - 1 - row as u8;
        let number = rank + 1;
        let too_many = || bad_fen(format!("rank {number} has more than {files} squares"));
        let mut file = 0u32;
        let mut at = 0;
        while let Some(c) = text[at..].chars().next() {
            at += c.len_utf8();
            if c.is_ascii_digit() {
                let digits = text[at..].bytes().take_while(u8::is_ascii_digit).count();
                let run_text = &text[at - 1..at + digits];
                at += digits;
                let run = run_text.parse::<u32>().unwrap_or(u32::MAX);
                // `08` is refused like `44`: one run of empty squares, one number as written.
                if run == 0 || run > files || run_text.starts_with('0') {
                    return Err(bad_fen(format!(
                        "rank {number} has '{run_text}' empty squares in a row, but a count of empty squares is 1 to {files}"
                    )));
                }
                file += run;
            } else if let Some(piece) = Piece::<T::Kind>::from_letter(c) {
                if file >= files {
                    return Err(too_many());
                }
                let square = Square::from_coords(file as u8, rank, files as u8);
                at += board.place(square, piece, &text[at..])?;
                file += 1;
            } else {
                return Err(T::not_a_piece(c, number));
            }
            if file > files {
                return Err(too_many());
            }
        }
        if file != files {
            return Err(bad_fen(format!(
                "rank {number} has {file} squares, expected {files}"
            )));
        }
    }
    Ok(())
}

/// The piece placement field: ranks from the top, `/` between them, runs of empty squares as
/// numbers (several digits on wide boards: `15`). `piece` gives a square's text, if occupied.
pub fn write_placement(
    files: u8,
    ranks: u8,
    mut piece: impl FnMut(Square) -> Option<String>,
) -> String {
    let mut placement = String::with_capacity(files as usize * ranks as usize);
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for file in 0..files {
            match piece(Square::from_coords(file, rank, files)) {
                Some(text) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push_str(&text);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    placement
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::pieces::tests::Kind;

    /// A board of letters, each with an optional `!` suffix.
    #[derive(Default)]
    struct Letters(Vec<(Square, char, bool)>);
    impl PlacementTarget for Letters {
        type Kind = Kind;
        fn put_piece(&mut self, square: Square, piece: Piece<Kind>) {
            self.0.push((square, piece.letter(), false));
        }
        fn place(
            &mut self,
            square: Square,
            piece: Piece<Kind>,
            after: &str,
        ) -> Result<usize, RuleError> {
            let marked = after.starts_with('!');
            self.0.push((square, piece.letter(), marked));
            Ok(marked as usize)
        }
    }

    #[test]
    fn placement_reads_long_runs_and_suffixes_and_names_what_is_wrong() {
        let mut board = Letters::default();
        read_placement(&mut board, "a14/13B!c", 15, 2).unwrap();
        assert_eq!(
            board.0,
            [
                (Square(15), 'a', false),
                (Square(13), 'B', true),
                (Square(14), 'c', false)
            ]
        );
        let error = |field: &str| {
            let mut board = Letters::default();
            read_placement(&mut board, field, 8, 2).unwrap_err()
        };
        assert!(
            matches!(error("8"), RuleError::Malformed(t) if t.contains("1 rank (ranks are separated by '/'), expected 2"))
        );
        for (field, needle) in [
            ("8/44", "rank 1 has '44' empty squares in a row"),
            ("8/09", "'09' empty squares"),
            ("8/7ab", "rank 1 has more than 8 squares"),
            ("8/7", "rank 1 has 7 squares, expected 8"),
            ("8/7#", "'#' on rank 1 is not a piece letter"),
            ("8/99999999999999999999", "empty squares in a row"),
        ] {
            assert!(error(field).text().contains(needle), "{field}");
        }
    }

    #[test]
    fn counters_are_plain_decimal_in_32_bits() {
        assert_eq!(read_counter("0", "n"), Ok(0));
        assert_eq!(read_counter("4294967295", "n"), Ok(u32::MAX));
        for (text, needle) in [
            ("", "is not a number"),
            ("+1", "is not a number"),
            ("-1", "is not a number"),
            ("1.0", "is not a number"),
            ("٣", "is not a number"),
            ("00", "leading zero: write it as '0'"),
            ("0042", "leading zero: write it as '42'"),
            ("4294967296", "out of range: at most 4294967295"),
            ("99999999999999999999999", "out of range"),
        ] {
            let error = read_counter(text, "n").unwrap_err();
            assert!(error.text().contains(needle), "{text}: {error}");
        }
    }

    #[test]
    fn empty_runs_count_across_wide_ranks() {
        let placement = write_placement(15, 2, |sq| (sq.0 == 0).then(|| "K".to_string()));
        assert_eq!(placement, "15/K14");
    }
}
