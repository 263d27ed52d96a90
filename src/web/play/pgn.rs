//! The game as PGN for the page's download. Chess moves in SAN (the arena's writer), the other
//! games' in the protocol's notation, which is what their rules define; a variant game carries
//! `[Variant]` and, as every game not from chess's start, `[SetUp]` and `[FEN]`.

use crate::arena::pgn::movetext_lines;
use std::fmt::Write as _;

/// What the PGN says about the game.
pub struct PgnGame<'a> {
    pub variant: &'a str,
    pub start_fen: &'a str,
    /// The game's own start position, for telling whether `[FEN]` is needed.
    pub standard_fen: &'a str,
    /// The moves as written (SAN for chess).
    pub moves: &'a [String],
    pub white: &'a str,
    pub black: &'a str,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// Why it ended, as a closing comment; empty while it goes on.
    pub reason: &'a str,
    /// `300+2`.
    pub time_control: &'a str,
    pub date: &'a str,
}

fn tag_value(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

pub fn write(game: &PgnGame) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", tag_value(value));
    };
    tag("Event", "Roger in the browser");
    tag("Site", "roger serve");
    tag("Date", game.date);
    tag("Round", "-");
    tag("White", game.white);
    tag("Black", game.black);
    tag("Result", game.result);
    if game.variant != "chess" {
        tag("Variant", game.variant);
    }
    if game.variant != "chess" || game.start_fen != game.standard_fen {
        tag("SetUp", "1");
        tag("FEN", game.start_fen);
    }
    tag("TimeControl", game.time_control);
    tag("PlyCount", &game.moves.len().to_string());
    out.push('\n');
    let fields: Vec<&str> = game.start_fen.split_whitespace().collect();
    let mut black = fields.get(1) == Some(&"b");
    let mut number: u32 = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut tokens = Vec::new();
    for (ply, mv) in game.moves.iter().enumerate() {
        if !black {
            tokens.push(format!("{number}."));
        } else if ply == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(mv.clone());
        if black {
            number += 1;
        }
        black = !black;
    }
    if !game.reason.is_empty() {
        tokens.push(format!("{{{}}}", game.reason.replace(['{', '}'], "")));
    }
    tokens.push(game.result.to_string());
    out.push_str(&movetext_lines(&tokens));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_from_the_start_and_a_variant_from_a_fen() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let moves = ["f3".to_string(), "e5".into(), "g4".into(), "Qh4#".into()];
        let text = write(&PgnGame {
            variant: "chess",
            start_fen: start,
            standard_fen: start,
            moves: &moves,
            white: "You",
            black: "Roger",
            result: "0-1",
            reason: "checkmate",
            time_control: "300+2",
            date: "2026.01.01",
        });
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
        assert!(!text.contains("[Variant"), "{text}");
        assert!(!text.contains("[FEN"), "{text}");
        assert!(
            text.ends_with("1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n"),
            "{text}"
        );
        let fen = "k7/8/6mn/6Nr/7p/8/4M3/3QK3 b - - 0 7";
        let moves = ["a8b8".to_string(), "d1h5".into()];
        let text = write(&PgnGame {
            variant: "nichess",
            start_fen: fen,
            standard_fen: "x",
            moves: &moves,
            white: "Roger",
            black: "You",
            result: "*",
            reason: "",
            time_control: "60+0",
            date: "2026.01.01",
        });
        assert!(text.contains("[Variant \"nichess\"]\n[SetUp \"1\"]\n[FEN \"k7/8/6mn/6Nr/7p/8/4M3/3QK3 b - - 0 7\"]"), "{text}");
        assert!(text.ends_with("7... a8b8 8. d1h5 *\n"), "{text}");
    }
}
