//! Perft suites as data: one position a line with its leaf counts by depth, in the EPD form
//! chess programmers publish them, `FEN ;D1 20 ;D2 400 ;D3 8902`. Other `;key value` fields
//! (`;id 518`) name the case; lines that are empty or start with `#` are comments. The tests,
//! the benchmarks and `roger perft --suite` read the same files.

use super::registry::{bind_game, TurnGame};
use super::{Game, RuleError};

/// One position of a suite and its published counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub fen: String,
    /// `(depth, leaf count)`, in the order the line gives them.
    pub counts: Vec<(u32, u64)>,
    /// The `;id` field, else `line N`.
    pub name: String,
}

/// Reads a suite; an error names the line and what is wrong with it.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or_default().trim().to_string();
        let mut case = PerftCase {
            fen,
            counts: Vec::new(),
            name: format!("line {number}"),
        };
        for field in fields {
            let (key, value) = field.trim().split_once(' ').ok_or_else(|| {
                format!("line {number}: field ';{field}' has no value (expected ';D3 8902')")
            })?;
            let value = value.trim();
            if let Some(depth) = key.strip_prefix('D') {
                let depth = depth
                    .parse()
                    .map_err(|_| format!("line {number}: '{key}' is not a depth (D1, D2, ...)"))?;
                let count = value
                    .parse()
                    .map_err(|_| format!("line {number}: count '{value}' is not a number"))?;
                case.counts.push((depth, count));
            } else if key == "id" {
                case.name = format!("id {value}");
            }
        }
        if case.counts.is_empty() {
            return Err(format!(
                "line {number}: no counts (expected ';D1 20 ;D2 400 ...')"
            ));
        }
        cases.push(case);
    }
    Ok(cases)
}

/// What counting one case found: a count that differs from the published one, or a FEN the
/// game refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    Fen(RuleError),
    Count {
        depth: u32,
        published: u64,
        counted: u64,
    },
}

/// Counts `case` in `game` at each of its depths up to `max_depth`; the first difference from
/// the published counts, if any.
pub fn check_case(game: TurnGame, case: &PerftCase, max_depth: u32) -> Result<(), Mismatch> {
    bind_game!(game, G => {
        let position = G::from_fen(&case.fen).map_err(Mismatch::Fen)?;
        for &(depth, published) in case.counts.iter().filter(|(depth, _)| *depth <= max_depth) {
            let counted = position.perft(depth);
            if counted != published {
                return Err(Mismatch::Count { depth, published, counted });
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_reads_with_its_comments_names_and_errors() {
        let text = "# comment\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;id 518\n\
                    8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 4\n";
        let cases = parse_suite(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].counts, vec![(1, 20), (2, 400)]);
        assert_eq!(cases[0].name, "id 518");
        assert_eq!(cases[1].name, "line 4");
        assert_eq!(check_case(TurnGame::Chess, &cases[0], 2), Ok(()));
        // The lone king on a1 has three moves, not the four the line claims.
        assert_eq!(
            check_case(TurnGame::Chess, &cases[1], 1),
            Err(Mismatch::Count {
                depth: 1,
                published: 4,
                counted: 3
            })
        );
        assert!(parse_suite("8/8 w ;D1 x").unwrap_err().contains("line 1"));
        assert!(parse_suite("8/8 w - - 0 1")
            .unwrap_err()
            .contains("no counts"));
    }
}
