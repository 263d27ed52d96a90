//! The Megachess dialect's commands, read from a line: every refusal says what and at which token.

use crate::protocol::parse::{quote, refuse_inner_whitespace, strip_line_end, tokens, SEPARATORS};
use crate::rules::megachess::{read_decimal, DecimalError};
use std::time::Duration;

pub use crate::engine::megachess::MAX_MOVETIME_MS;
/// The largest `nodes` taken: about a minute of judging on one core.
pub const MAX_NODES: u64 = 100_000_000;

/// The commands of Megachess (the session answers the shared ones itself).
pub const COMMANDS: &str = "ucinewgame, position, go, stop";

/// How long a `go` may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go movetime <ms>`: the answer comes within this.
    Movetime(Duration),
    /// `go nodes <n>`: the answer comes when about this many moves are judged, however long
    /// that takes.
    Nodes(u64),
    /// `go` alone: within the turn (the dialect derives it from `turn_ms`).
    Turn,
    /// `go infinite`: until `stop`.
    Infinite,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MegachessCommand<'a> {
    NewGame,
    /// `position megachess <world>`: the words after `megachess`, as they stand in the line.
    Position(&'a str),
    Go(Limit),
    Stop,
}

/// Reads one line (not blank: the session skips those).
pub fn parse(line: &str) -> Result<MegachessCommand<'_>, String> {
    let words: Vec<&str> = tokens(line).take(3).collect();
    let Some((&keyword, arguments)) = words.split_first() else {
        return Err("empty line".into());
    };
    let no_arguments = |command| match arguments.first() {
        Some(extra) => Err(format!(
            "{keyword}: unexpected token {} at token 2, '{keyword}' takes no arguments",
            quote(extra)
        )),
        None => Ok(command),
    };
    match keyword {
        "ucinewgame" => no_arguments(MegachessCommand::NewGame),
        "stop" => no_arguments(MegachessCommand::Stop),
        "position" => parse_position(line, arguments),
        "go" => parse_go(&tokens(line).skip(1).collect::<Vec<_>>()),
        other => Err(format!(
            "unknown command {} (megachess takes {COMMANDS})",
            quote(other)
        )),
    }
}

/// The text after the first `skip` tokens of the line, without separators around it.
fn after_tokens(line: &str, skip: usize) -> &str {
    let mut rest = strip_line_end(line);
    for _ in 0..skip {
        rest = rest.trim_start_matches(SEPARATORS);
        let end = rest.find(SEPARATORS).unwrap_or(rest.len());
        rest = &rest[end..];
    }
    rest.trim_matches(SEPARATORS)
}

fn parse_position<'a>(line: &'a str, arguments: &[&str]) -> Result<MegachessCommand<'a>, String> {
    match arguments {
        [] => Err("position: expected 'megachess' at token 2, found end of line".into()),
        ["megachess"] => Err(
            "position: missing the world after 'megachess' at token 3: expected 'size W H turn N \
             me P players ... pieces ...'"
                .into(),
        ),
        ["megachess", ..] => {
            // Only spaces and tabs separate tokens (protocol.md, "Transport"); other whitespace
            // is part of a token, which no world token may hold.
            refuse_inner_whitespace("position", line)?;
            Ok(MegachessCommand::Position(after_tokens(line, 2)))
        }
        [other, ..] => Err(format!(
            "position: expected 'megachess' at token 2, found {}",
            quote(other)
        )),
    }
}

fn parse_go(arguments: &[&str]) -> Result<MegachessCommand<'static>, String> {
    match arguments {
        [] => Ok(MegachessCommand::Go(Limit::Turn)),
        ["infinite"] => Ok(MegachessCommand::Go(Limit::Infinite)),
        ["movetime"] => {
            Err("go: 'movetime' needs a number of ms at token 3, found end of line".into())
        }
        ["nodes"] => {
            Err("go: 'nodes' needs a number of moves at token 3, found end of line".into())
        }
        [name @ ("movetime" | "nodes"), value, rest @ ..] => {
            if let Some(extra) = rest.first() {
                return Err(format!("go: unexpected token {} at token 4", quote(extra)));
            }
            let (what, most) = match *name {
                "movetime" => ("ms", MAX_MOVETIME_MS),
                _ => ("moves", MAX_NODES),
            };
            // Numbers are written as in the world line: no leading zero.
            match read_decimal(value, 0..=most) {
                Ok(ms) if *name == "movetime" => Ok(MegachessCommand::Go(Limit::Movetime(
                    Duration::from_millis(ms),
                ))),
                Ok(moves) => Ok(MegachessCommand::Go(Limit::Nodes(moves))),
                Err(DecimalError::NotANumber) => Err(format!(
                    "go: '{name}' needs a number of {what} at token 3, found {}",
                    quote(value)
                )),
                Err(DecimalError::LeadingZero { plain }) => Err(format!(
                    "go: '{name}' value {} at token 3 has a leading zero: write it as \
                     '{plain}'",
                    quote(value)
                )),
                Err(DecimalError::OutOfRange(_)) => Err(format!(
                    "go: '{name}' value {} at token 3 is out of range 0..={most}",
                    quote(value)
                )),
            }
        }
        ["infinite", extra, ..] => Err(format!(
            "go: unexpected token {} at token 3, 'infinite' takes nothing more",
            quote(extra)
        )),
        [other, ..] => Err(format!(
            "go: unknown parameter {} at token 2, megachess takes 'go', 'go movetime <ms>', \
             'go nodes <n>' or 'go infinite'",
            quote(other)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_command() {
        use MegachessCommand::*;
        assert_eq!(parse("ucinewgame"), Ok(NewGame));
        assert_eq!(parse("  stop \r\n"), Ok(Stop));
        assert_eq!(
            parse("position\tmegachess  size 8 8 turn 1 me 1 players 1:a pieces 1K0,0 \r\n"),
            Ok(Position("size 8 8 turn 1 me 1 players 1:a pieces 1K0,0"))
        );
        assert_eq!(parse("go"), Ok(Go(Limit::Turn)));
        assert_eq!(parse("go infinite"), Ok(Go(Limit::Infinite)));
        assert_eq!(
            parse("go movetime 250"),
            Ok(Go(Limit::Movetime(Duration::from_millis(250))))
        );
        assert_eq!(
            parse("go movetime 0"),
            Ok(Go(Limit::Movetime(Duration::ZERO)))
        );
        assert_eq!(parse("go nodes 4000"), Ok(Go(Limit::Nodes(4000))));
    }

    #[test]
    fn refusals_say_what_and_where() {
        let refused = |line: &str| parse(line).unwrap_err();
        assert_eq!(
            refused("ponderhit"),
            format!("unknown command 'ponderhit' (megachess takes {COMMANDS})")
        );
        assert_eq!(
            refused("stop now"),
            "stop: unexpected token 'now' at token 2, 'stop' takes no arguments"
        );
        assert_eq!(
            refused("position"),
            "position: expected 'megachess' at token 2, found end of line"
        );
        assert_eq!(
            refused("position startpos"),
            "position: expected 'megachess' at token 2, found 'startpos'"
        );
        assert!(refused("position megachess").starts_with("position: missing the world"));
        assert_eq!(
            refused("position megachess size 8 8 turn 1 me 1 players 1:a pieces 1K0,0\u{a0}1P0,1"),
            "position: token '1K0,0\\u{a0}1P0,1' at token 13 holds whitespace that does not \
             separate tokens (only spaces and tabs do)"
        );
        assert_eq!(
            refused("go movetime"),
            "go: 'movetime' needs a number of ms at token 3, found end of line"
        );
        assert_eq!(
            refused("go movetime -5"),
            "go: 'movetime' needs a number of ms at token 3, found '-5'"
        );
        assert_eq!(
            refused("go movetime 86400001"),
            "go: 'movetime' value '86400001' at token 3 is out of range 0..=86400000"
        );
        assert_eq!(
            refused("go movetime 0250"),
            "go: 'movetime' value '0250' at token 3 has a leading zero: write it as '250'"
        );
        assert_eq!(
            refused("go movetime 5 x"),
            "go: unexpected token 'x' at token 4"
        );
        assert_eq!(
            refused("go infinite 5"),
            "go: unexpected token '5' at token 3, 'infinite' takes nothing more"
        );
        assert_eq!(
            refused("go nodes"),
            "go: 'nodes' needs a number of moves at token 3, found end of line"
        );
        assert_eq!(
            refused("go nodes 1e6"),
            "go: 'nodes' needs a number of moves at token 3, found '1e6'"
        );
        assert_eq!(
            refused("go nodes 100000001"),
            "go: 'nodes' value '100000001' at token 3 is out of range 0..=100000000"
        );
        assert!(refused("go depth 3").starts_with("go: unknown parameter 'depth' at token 2"));
    }
}
