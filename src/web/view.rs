//! A board as the pages draw it: the pieces of a FEN's placement field, for any of the turn
//! games (runs of empty squares may take two digits, as in Millennium's 15-file ranks; Nichess
//! writes a piece's HP in parentheses after its letter). The rules have read the FEN already;
//! this only lays it out for drawing.

use serde::Serialize;

/// One piece to draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViewPiece {
    /// `e2`, `o8`.
    pub square: String,
    /// The FEN letter: upper case White, lower case Black.
    pub letter: char,
    /// HP, where the FEN gives it (Nichess pieces below their starting HP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<u32>,
}

/// The pieces of `fen`'s placement field, rank 8 (the top) first.
pub fn pieces(fen: &str, files: u8, ranks: u8) -> Vec<ViewPiece> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let mut out = Vec::new();
    for (row, rank_text) in placement.split('/').enumerate() {
        let Some(rank) = (ranks as usize).checked_sub(row + 1) else {
            break;
        };
        let mut file = 0usize;
        let mut chars = rank_text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                let mut run = digit as usize;
                while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run * 10 + next as usize;
                    chars.next();
                }
                file += run;
                continue;
            }
            let mut hp = None;
            if chars.peek() == Some(&'(') {
                chars.next();
                let digits: String = chars.by_ref().take_while(|&c| c != ')').collect();
                hp = digits.parse().ok();
            }
            if file < files as usize {
                out.push(ViewPiece {
                    square: square_name(file, rank),
                    letter: c,
                    hp,
                });
            }
            file += 1;
        }
    }
    out
}

/// `a1` from zero-based file and rank.
pub fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millennium_runs_and_nichess_health_are_laid_out() {
        let wide = pieces("4k5k4/15/15/15/15/15/15/4K5K4 w - - 0 1", 15, 8);
        let squares: Vec<&str> = wide.iter().map(|p| p.square.as_str()).collect();
        assert_eq!(squares, ["e8", "k8", "e1", "k1"]);
        let nichess = pieces("k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1", 8, 8);
        let knight = nichess.iter().find(|p| p.square == "h6").unwrap();
        assert_eq!((knight.letter, knight.hp), ('n', Some(40)));
        let pawn = nichess.iter().find(|p| p.square == "h4").unwrap();
        assert_eq!(pawn.hp, Some(10));
        assert_eq!(nichess.iter().find(|p| p.square == "g5").unwrap().hp, None);
        assert_eq!(nichess.len(), 7);
    }
}
