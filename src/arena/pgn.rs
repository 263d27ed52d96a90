//! PGN of the arena's games. Chess moves are in standard algebraic notation (SAN), as every
//! PGN reader expects; the other games' moves are in the protocol's long algebraic notation
//! (`e2e4`), which is what their rules define. Each engine move carries a comment with its score
//! and depth, its thinking time and the clock left.

use super::record::{FinishedGame, SettingsRecord};
use super::referee::{SessionRecord, TurnRecord};
use crate::rules::chess::{Chess, Move, PieceKind};
use crate::rules::registry::AnyGame;
use crate::rules::{Game, MoveList};
use std::fmt::Write as _;

/// A legal chess move in SAN: `Nbd7`, `exd5`, `e8=Q+`, `O-O`, `Qh7#`.
pub fn chess_san(position: &Chess, mv: Move) -> String {
    let mut san = String::new();
    if mv.is_castle() {
        san.push_str(if mv.to().0 > mv.from().0 {
            "O-O"
        } else {
            "O-O-O"
        });
    } else {
        let kind = position
            .piece_at(mv.from())
            .map_or(PieceKind::Pawn, |p| p.kind);
        let (from, to) = (mv.from().name(8), mv.to().name(8));
        if kind == PieceKind::Pawn {
            if mv.is_capture() {
                san.push_str(&from[..1]);
                san.push('x');
            }
            san.push_str(&to);
            if mv.is_promotion() {
                san.push('=');
                san.push(['N', 'B', 'R', 'Q'][mv.promotion_index() - 1]);
            }
        } else {
            san.push(kind.letter().to_ascii_uppercase());
            let mut legal = MoveList::new();
            position.generate_moves(&mut legal);
            let rivals: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|other| {
                    other.to() == mv.to()
                        && other.from() != mv.from()
                        && position.piece_at(other.from()).map(|p| p.kind) == Some(kind)
                })
                .collect();
            if !rivals.is_empty() {
                let file = |m: &Move| m.from().name(8)[..1].to_string();
                let rank = |m: &Move| m.from().name(8)[1..].to_string();
                if rivals.iter().all(|r| file(r) != file(&mv)) {
                    san.push_str(&file(&mv));
                } else if rivals.iter().all(|r| rank(r) != rank(&mv)) {
                    san.push_str(&rank(&mv));
                } else {
                    san.push_str(&from);
                }
            }
            if mv.is_capture() {
                san.push('x');
            }
            san.push_str(&to);
        }
    }
    let after = position.play(mv);
    if after.in_check() {
        let mut replies = MoveList::new();
        after.generate_moves(&mut replies);
        san.push(if replies.is_empty() { '#' } else { '+' });
    }
    san
}

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
        sans.push(chess_san(&position, mv));
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
    fn san_of_every_kind_of_chess_move() {
        let san = |fen: &str, text: &str| {
            let position = Chess::from_fen(fen).unwrap();
            chess_san(&position, position.parse_move(text).unwrap())
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san(start, "e2e4"), "e4");
        assert_eq!(san(start, "g1f3"), "Nf3");
        assert_eq!(san("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), "exd5");
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), "O-O");
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"), "O-O-O");
        assert_eq!(san("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"), "e8=Q");
        assert_eq!(san("7k/8/5KQ1/8/8/8/8/8 w - - 0 1", "g6g7"), "Qg7#");
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "a1a8"), "Ra8+");
        // Two rooks on one rank: the file tells them apart; on one file: the rank.
        assert_eq!(san("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1"), "Rad1");
        assert_eq!(san("4k3/8/8/8/R7/8/8/R5K1 w - - 0 1", "a1a2"), "R1a2");
        assert_eq!(san("4k3/8/8/3p4/8/2N1N3/8/4K3 w - - 0 1", "c3d5"), "Ncxd5");
    }

    #[test]
    fn clocks() {
        assert_eq!(clock_text(9_488), "0:00:09.49");
        assert_eq!(clock_text(3_723_000), "1:02:03.00");
    }
}
