//! Reading PGN: the games of a file, each as its tags and its move tokens. Moves stay text here;
//! [`super::turn`] reads them with the game's rules (chess SAN or the protocol's notation).

/// One game of a PGN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    /// The move tokens, without numbers, comments, variations, annotations or the result.
    pub moves: Vec<String>,
    /// The result token at the end (`1-0`, `0-1`, `1/2-1/2`, `*`), when there is one.
    pub result: Option<String>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Every game of `text`. An error names the line of a tag that does not read.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    // Comments in braces may span lines; variations in parentheses nest.
    let mut in_comment = false;
    let mut variation_depth = 0usize;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if !in_comment && variation_depth == 0 && trimmed.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            game.tags.push(read_tag(trimmed).ok_or_else(|| {
                format!(
                    "line {}: '{trimmed}' is not a PGN tag like [Name \"value\"]",
                    index + 1
                )
            })?);
            continue;
        }
        if trimmed.starts_with('%') {
            continue;
        }
        let mut token = String::new();
        let flush = |token: &mut String, game: &mut PgnGame, in_moves: &mut bool| {
            if token.is_empty() {
                return;
            }
            let word = std::mem::take(token);
            *in_moves = true;
            if RESULTS.contains(&word.as_str()) {
                game.result = Some(word);
                return;
            }
            // Move numbers (`12.`, `12...`) and annotation glyphs (`$1`).
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if word.is_empty() || word.starts_with('$') {
                return;
            }
            let word = word.trim_end_matches(['!', '?']);
            if !word.is_empty() {
                game.moves.push(word.to_string());
            }
        };
        for c in trimmed.chars() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, &mut game, &mut in_moves);
                    in_comment = true;
                }
                ';' if variation_depth == 0 => {
                    flush(&mut token, &mut game, &mut in_moves);
                    break;
                }
                '(' => {
                    flush(&mut token, &mut game, &mut in_moves);
                    variation_depth += 1;
                }
                ')' => variation_depth = variation_depth.saturating_sub(1),
                _ if variation_depth > 0 => {}
                c if c.is_whitespace() => flush(&mut token, &mut game, &mut in_moves),
                c => token.push(c),
            }
        }
        flush(&mut token, &mut game, &mut in_moves);
    }
    if in_moves || !game.tags.is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// `[Name "value"]`, with `\"` and `\\` escapes.
fn read_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let value = quoted.replace("\\\"", "\"").replace("\\\\", "\\");
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_moves_comments_variations_and_results_are_told_apart() {
        let text = "[Event \"t\"]\n[Variant \"chess\"]\n\n1. e4 {a comment\nover lines} e5 \
                    (1... c5 2. Nf3) 2. Nf3!? $1 Nc6 ; rest of line\n3. Bb5 1-0\n\n\
                    [Event \"second\"]\n\n1. d4 *\n";
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("variant"), Some("chess"));
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].tag("Event"), Some("second"));
        assert_eq!(games[1].moves, ["d4"]);
    }

    #[test]
    fn a_broken_tag_is_named_by_its_line() {
        let error = read_games("[Event \"ok\"]\n[Broken]\n").unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
    }
}
