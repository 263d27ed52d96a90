//! PGN of the arena's games. Chess moves are in standard algebraic notation (SAN), as every
//! PGN reader expects; the other games' moves are in the protocol's long algebraic notation
//! (`e2e4`), which is what their rules define. Each engine move carries a comment with its score
//! and depth, its thinking time and the clock left.

use super::record::{FinishedGame, SettingsRecord};
use super::referee::{SessionRecord, TurnRecord};
use crate::rules::chess::{san, Chess};
use crate::rules::registry::AnyGame;
use crate::rules::Game;
use std::fmt::Write as _;

/// The moves as PGN writes them: SAN for chess, else as played.
fn pgn_moves(variant: &str, start_fen: &str, texts: &[&str]) -> Vec<String> {
    let as_played = || texts.iter().map(|t| t.to_string()).collect();
    if variant != "chess" {
        return as_played();
    }
    let Ok(mut position) = Chess::from_fen(start_fen) else {
        return as_played();
    };
    let mut sans = Vec::new();
    for text in texts {
        let Ok(mv) = position.parse_move(text) else {
            return as_played();
        };
        sans.push(san::write(&position, mv));
        position = position.play(mv);
    }
    sans
}

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
    let clocks: Vec<Option<String>> = game
        .scheduled
        .seats
        .iter()
        .map(|&e| tc(&limits(e)))
        .collect();
    match clocks.first() {
        Some(Some(first)) if clocks.iter().all(|c| c.as_ref() == Some(first)) => first.clone(),
        _ => "-".to_string(),
    }
}

/// One game as PGN, ending with a blank line; empty for games that are not turn games.
pub fn game_pgn(settings: &SettingsRecord, game: &FinishedGame) -> String {
    match &game.played.record {
        SessionRecord::Turn(record) => turn_game_pgn(settings, game, record),
        SessionRecord::Realtime(_) | SessionRecord::World(_) | SessionRecord::Other(_) => {
            String::new()
        }
    }
}

/// A turn game as PGN: seat 0 is White, seat 1 Black.
fn turn_game_pgn(settings: &SettingsRecord, game: &FinishedGame, played: &TurnRecord) -> String {
    let result = game.played.result_text();
    let name = |seat: usize| game.names.get(seat).map_or("?", String::as_str);
    let variant = settings.variant.as_str();
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", tag_value(value));
    };
    tag("Event", "roger arena");
    tag("Site", "?");
    tag("Date", &game.date);
    tag("Round", &(game.scheduled.index + 1).to_string());
    tag("White", name(0));
    tag("Black", name(1));
    tag("Result", &result);
    // PGN readers know Fischer Random chess, DFRC included, as "Chess960" with its FEN.
    let chess960 = settings.start_positions.is_some();
    tag("Variant", if chess960 { "Chess960" } else { variant });
    let standard_start = AnyGame::new(variant)
        .map(|g| g.board_info())
        .is_some_and(|info| info.ends_with(&format!("startpos {}", played.start_fen)));
    if !(standard_start && variant == "chess") || chess960 {
        tag("SetUp", "1");
        tag("FEN", &played.start_fen);
    }
    tag("TimeControl", &time_control(settings, game));
    tag("PlyCount", &played.moves.len().to_string());
    tag("Termination", game.played.termination.pgn_tag());
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
    let texts: Vec<&str> = played.moves.iter().map(|m| m.text.as_str()).collect();
    let notation = pgn_moves(variant, &played.start_fen, &texts);
    let mut tokens: Vec<String> = Vec::new();
    for (ply, (mv, written)) in played.moves.iter().zip(notation).enumerate() {
        if !black_to_move {
            tokens.push(format!("{number}."));
        } else if ply == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(written);
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
    tokens.push(format!("{{{}}}", comment(&game.played.detail)));
    tokens.push(result);
    out.push_str(&movetext_lines(&tokens));
    out.push('\n');
    out
}

/// Movetext tokens joined into lines of at most 80 characters (a long comment may go over),
/// each line ended.
pub fn movetext_lines(tokens: &[String]) -> String {
    let mut out = String::new();
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
        line.push_str(token);
    }
    out.push_str(&line);
    out.push('\n');
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
