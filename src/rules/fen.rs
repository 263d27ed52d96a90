//! The FEN parts every game shares.

use crate::board::Square;
use crate::rules::RuleError;

/// The error for a malformed FEN: `bad FEN: <what and where>`.
pub fn bad_fen(text: String) -> RuleError {
    RuleError::Malformed(format!("bad FEN: {text}"))
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

    #[test]
    fn empty_runs_count_across_wide_ranks() {
        let placement = write_placement(15, 2, |sq| (sq.0 == 0).then(|| "K".to_string()));
        assert_eq!(placement, "15/K14");
    }
}
