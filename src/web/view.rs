//! The board as the page draws it, read from a FEN of any of the turn games: pieces with their
//! squares (and health in Nichess), the board's size, Millennium's pools and kings, and the
//! squares a Nichess throw's splash hit.

use crate::rules::nichess::PieceKind as NichessKind;
use crate::rules::registry::TurnGame;
use serde_json::{json, Value};

/// One piece on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceView {
    /// `e2`, `o8`.
    pub square: String,
    /// The FEN letter: upper case White.
    pub letter: char,
    /// Health points, where the game has them (Nichess).
    pub hp: Option<u32>,
}

impl PieceView {
    pub fn white(&self) -> bool {
        self.letter.is_ascii_uppercase()
    }

    pub fn json(&self, game: TurnGame) -> Value {
        let mut piece = json!({
            "square": self.square,
            "letter": self.letter.to_string(),
            "color": if self.white() { "white" } else { "black" },
        });
        if let Some(hp) = self.hp {
            piece["hp"] = json!(hp);
        }
        if game == TurnGame::Nichess {
            if let Some(kind) = nichess_kind(self.letter) {
                piece["ap"] = json!(u32::from(kind.ability()) * 10);
                piece["max_hp"] = json!(u32::from(kind.start_hp()) * 10);
            }
        }
        piece
    }
}

/// The Nichess kind of a FEN letter.
fn nichess_kind(letter: char) -> Option<NichessKind> {
    let lower = letter.to_ascii_lowercase();
    NichessKind::ALL
        .into_iter()
        .find(|kind| kind.letter() == lower)
}

/// The square name of a file and rank counted from 0 (`a1`; two-digit ranks write as such).
pub fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The pieces of a FEN's placement field, for a board of `files` x `ranks`. The rules have
/// already accepted the FEN, so a shape that does not fit is an error in this reader: it says
/// what it found rather than guess.
pub fn parse_placement(
    fen: &str,
    game: TurnGame,
    files: usize,
    ranks: usize,
) -> Result<Vec<PieceView>, String> {
    let placement = fen.split_whitespace().next().unwrap_or_default();
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != ranks {
        let plural = if rows.len() == 1 { "" } else { "s" };
        return Err(format!(
            "the board '{placement}' has {} rank{plural} (ranks are separated by '/'), expected {ranks}",
            rows.len()
        ));
    }
    let mut pieces = Vec::new();
    for (row_index, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - row_index;
        let mut file = 0;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                // Millennium writes runs of up to 15 empty squares with two digits.
                let mut run = digit as usize;
                while let Some(next) = chars.peek().and_then(|d| d.to_digit(10)) {
                    run = run * 10 + next as usize;
                    chars.next();
                }
                file += run;
                continue;
            }
            if !c.is_ascii_alphabetic() {
                return Err(format!("rank {} has '{c}'", rank + 1));
            }
            let mut hp = None;
            if chars.peek() == Some(&'(') {
                chars.next();
                let digits: String = chars.by_ref().take_while(|&d| d != ')').collect();
                hp = Some(
                    digits
                        .parse::<u32>()
                        .map_err(|_| format!("rank {} has HP '({digits})'", rank + 1))?,
                );
            }
            if game == TurnGame::Nichess && hp.is_none() {
                hp = nichess_kind(c).map(|kind| u32::from(kind.start_hp()) * 10);
            }
            if file >= files {
                return Err(format!("rank {} is longer than {files} squares", rank + 1));
            }
            pieces.push(PieceView {
                square: square_name(file, rank),
                letter: c,
                hp,
            });
            file += 1;
        }
        if file != files {
            return Err(format!(
                "rank {} has {file} squares, expected {files}",
                rank + 1
            ));
        }
    }
    Ok(pieces)
}

/// Squares other than `target` whose pieces of the side that did not act lost health or were
/// destroyed by the action from `before` to `after`: a Nichess throw's splash.
pub fn splash(
    before: &[PieceView],
    after: &[PieceView],
    mover_white: bool,
    target: &str,
) -> Vec<String> {
    let mut squares: Vec<String> = before
        .iter()
        .filter(|piece| piece.white() != mover_white && piece.square != target)
        .filter(
            |piece| match after.iter().find(|other| other.square == piece.square) {
                None => true,
                Some(other) => other.letter != piece.letter || other.hp < piece.hp,
            },
        )
        .map(|piece| piece.square.clone())
        .collect();
    squares.sort();
    squares
}

/// The from and to squares of a move text: `h7h8q` gives `h7` and `h8`, `a10a9` `a10` and
/// `a9`.
pub fn move_squares(text: &str) -> Option<(String, String)> {
    let square_end = |s: &str| {
        s.char_indices()
            .skip(1)
            .find(|(_, c)| !c.is_ascii_digit())
            .map_or(s.len(), |(i, _)| i)
    };
    if !text.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    let (from, rest) = text.split_at(square_end(text));
    if from.len() < 2 || !rest.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    let to = &rest[..square_end(rest)];
    (to.len() >= 2).then(|| (from.to_string(), to.to_string()))
}

/// Millennium's pools: the FEN's seventh field split by side (`-` or none: both empty).
pub fn pools(fen: &str) -> (String, String) {
    let field = fen.split_whitespace().nth(6).unwrap_or("-");
    let field = if field == "-" { "" } else { field };
    (
        field.chars().filter(char::is_ascii_uppercase).collect(),
        field.chars().filter(char::is_ascii_lowercase).collect(),
    )
}

/// The squares of one side's kings.
pub fn king_squares(pieces: &[PieceView], white: bool) -> Vec<String> {
    let king = if white { 'K' } else { 'k' };
    pieces
        .iter()
        .filter(|piece| piece.letter == king)
        .map(|piece| piece.square.clone())
        .collect()
}

/// Millennium: the square a side's first king fell on, when `after` has one king of that side
/// less than `before` and leaves it a single one.
pub fn fallen_keystone(before: &[PieceView], after: &[PieceView], white: bool) -> Option<String> {
    let (was, is) = (king_squares(before, white), king_squares(after, white));
    if was.len() == 2 && is.len() == 1 {
        was.into_iter().find(|square| !is.contains(square))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_texts_split_into_squares() {
        let split = |text| move_squares(text).map(|(a, b)| format!("{a} {b}"));
        assert_eq!(split("e2e4").as_deref(), Some("e2 e4"));
        assert_eq!(split("h7h8q").as_deref(), Some("h7 h8"));
        assert_eq!(split("o1o7").as_deref(), Some("o1 o7"));
        assert_eq!(split("a10a9").as_deref(), Some("a10 a9"));
        assert_eq!(split("e2"), None);
        assert_eq!(split("0000"), None);
    }

    #[test]
    fn chess_start_reads_32_pieces() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let pieces = parse_placement(fen, TurnGame::Chess, 8, 8).unwrap();
        assert_eq!(pieces.len(), 32);
        assert_eq!(
            pieces[0],
            PieceView {
                square: "a8".into(),
                letter: 'r',
                hp: None
            }
        );
        let e1 = pieces.iter().find(|p| p.square == "e1").unwrap();
        assert_eq!(e1.letter, 'K');
        assert!(parse_placement("8/8 w", TurnGame::Chess, 8, 8).is_err());
        assert!(parse_placement("9/8/8/8/8/8/8/8 w", TurnGame::Chess, 8, 8).is_err());
    }

    #[test]
    fn millennium_runs_take_two_digits() {
        let fen = "4k5k4/7P7/15/15/15/15/15/4K5K4 w - - 0 30 QNr";
        let pieces = parse_placement(fen, TurnGame::Millennium, 15, 8).unwrap();
        let squares: Vec<&str> = pieces.iter().map(|p| p.square.as_str()).collect();
        assert_eq!(squares, ["e8", "k8", "h7", "e1", "k1"]);
        assert_eq!(pools(fen), ("QN".to_string(), "r".to_string()));
        assert_eq!(pools("15/15 w - - 0 1"), (String::new(), String::new()));
        assert_eq!(king_squares(&pieces, true), ["e1", "k1"]);
        let after = parse_placement(
            "4k5k4/7P7/15/15/15/15/15/10K4 w",
            TurnGame::Millennium,
            15,
            8,
        )
        .unwrap();
        assert_eq!(
            fallen_keystone(&pieces, &after, true),
            Some("e1".to_string())
        );
        assert_eq!(fallen_keystone(&pieces, &after, false), None);
    }

    #[test]
    fn nichess_health_is_read_or_defaulted() {
        let fen = "k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1";
        let pieces = parse_placement(fen, TurnGame::Nichess, 8, 8).unwrap();
        let at = |sq: &str| pieces.iter().find(|p| p.square == sq).unwrap().clone();
        assert_eq!(at("h6").hp, Some(40));
        assert_eq!(at("h4").hp, Some(10));
        assert_eq!(at("g5").hp, Some(60));
        assert_eq!(at("a8").hp, Some(10));
        let knight = at("g5").json(TurnGame::Nichess);
        assert_eq!(knight["ap"], 60);
        assert_eq!(knight["max_hp"], 60);
        assert_eq!(at("h5").json(TurnGame::Nichess)["ap"], 30);
        assert!(parse_placement("k7/8/7n(x)/8/8/8/8/4K3 w", TurnGame::Nichess, 8, 8).is_err());
    }

    #[test]
    fn a_throws_splash_is_the_hurt_enemies_beside_the_target() {
        // The rules' own example: the queen on d1 throws the maenad on e2 at h5.
        let before = "k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1";
        let after = "k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1";
        let read = |fen| parse_placement(fen, TurnGame::Nichess, 8, 8).unwrap();
        assert_eq!(
            splash(&read(before), &read(after), true, "h5"),
            ["g6", "h4", "h6"]
        );
        // A plain move hurts nobody.
        let moved = "k7/8/6mn/6Nr/7p/8/3M4/3QK3 b - - 0 1";
        assert!(splash(&read(before), &read(moved), true, "d2").is_empty());
    }
}
