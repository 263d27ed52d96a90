//! PGN of the arena's games. Moves are in the protocol's long algebraic notation (`e2e4`,
//! `e7e8q`), the one notation every game we play shares; each engine move carries a comment with
//! its score and depth, its thinking time and the clock left.

use super::report::{FinishedGame, SettingsRecord};
use crate::engine::AnyGame;
use std::fmt::Write as _;

/// `s` with backslashes and quotes escaped for a tag value.
fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Comment text may not contain a closing brace.
fn comment(s: &str) -> String {
    s.replace('}', ")").replace('{', "(")
}

/// `[%clk h:mm:ss.s]`-style clock text: `0:00:09.49`.
fn clock_text(millis: u64) -> String {
    let hours = millis / 3_600_000;
    let minutes = millis / 60_000 % 60;
    let seconds = millis % 60_000;
    format!("{hours}:{minutes:02}:{:05.2}", seconds as f64 / 1000.0)
}

/// The PGN `TimeControl` value: `base+inc` when both engines play the same clock.
fn time_control(settings: &SettingsRecord, game: &FinishedGame) -> String {
    let limits = |engine: usize| {
        settings
            .engines
            .get(engine)
            .map(|e| e.limits.clone())
            .unwrap_or_default()
    };
    let tc = |text: &str| {
        text.split_whitespace()
            .find_map(|part| part.strip_prefix("tc="))
            .map(String::from)
    };
    let (white, black) = (limits(game.scheduled.white), limits(game.scheduled.black));
    match (tc(&white), tc(&black)) {
        (Some(w), Some(b)) if w == b => w,
        _ => "-".to_string(),
    }
}

/// One game as PGN, ending with a blank line.
pub fn game_pgn(settings: &SettingsRecord, game: &FinishedGame) -> String {
    let played = &game.played;
    let variant = settings.variant.as_str();
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", tag_value(value));
    };
    tag("Event", "roger arena");
    tag("Site", "?");
    tag("Date", &game.date);
    tag("Round", &(game.scheduled.index + 1).to_string());
    tag("White", &game.white_name);
    tag("Black", &game.black_name);
    tag("Result", played.result.text());
    tag("Variant", variant);
    let standard_start = AnyGame::new(variant)
        .map(|g| g.board_info())
        .is_some_and(|info| info.ends_with(&format!("startpos {}", played.start_fen)));
    if !(standard_start && variant == "chess") {
        tag("SetUp", "1");
        tag("FEN", &played.start_fen);
    }
    tag("TimeControl", &time_control(settings, game));
    tag("PlyCount", &played.moves.len().to_string());
    tag("Termination", played.termination.pgn_tag());
    out.push('\n');

    // The start's side to move and move number, from its FEN.
    let fields: Vec<&str> = played.start_fen.split_whitespace().collect();
    let mut black_to_move = fields.get(1) == Some(&"b");
    let mut number: u32 = fields
        .iter()
        .rev()
        .find_map(|f| f.parse().ok())
        .filter(|_| fields.len() >= 6)
        .unwrap_or(1);
    let mut tokens: Vec<String> = Vec::new();
    for (ply, mv) in played.moves.iter().enumerate() {
        if !black_to_move {
            tokens.push(format!("{number}."));
        } else if ply == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(mv.text.clone());
        if mv.book {
            tokens.push("{book}".to_string());
        } else {
            let mut parts = Vec::new();
            if let Some(score) = mv.score {
                let depth = mv.depth.map(|d| format!("/{d}")).unwrap_or_default();
                parts.push(format!("{}{depth}", score.pgn_text()));
            }
            if let Some(time) = mv.time_ms {
                parts.push(format!("{:.3}s", time as f64 / 1000.0));
            }
            if let Some(clock) = mv.clock_ms {
                parts.push(format!("[%clk {}]", clock_text(clock)));
            }
            if !parts.is_empty() {
                tokens.push(format!("{{{}}}", parts.join(" ")));
            }
        }
        if black_to_move {
            number += 1;
        }
        black_to_move = !black_to_move;
    }
    tokens.push(format!("{{{}}}", comment(&played.detail)));
    tokens.push(played.result.text().to_string());
    // Lines of at most 80 characters (a long comment may go over).
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(clock_text(9_488), "0:00:09.49");
        assert_eq!(clock_text(3_723_000), "1:02:03.00");
    }
}
