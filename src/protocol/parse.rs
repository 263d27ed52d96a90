//! Reads one line of the protocol into a [`Command`]. No engine state is touched here: whether a
//! FEN, a move or an option value makes sense is the engine's call; this only checks the shape.

pub use crate::common::text::{quote, QUOTE_LIMIT, SEPARATORS};
use crate::engine::{GoParams, MAX_DEPTH, MAX_MATE, MAX_PERFT_DEPTH};
use crate::rules::Color;
use std::fmt;
use std::time::Duration;

/// Where a position starts before its `moves`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    StartPos,
    /// The FEN fields, joined by single spaces.
    Fen(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    Go(GoParams),
    /// `go perft <depth>`.
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the board.
    Display,
    Bench {
        depth: Option<u32>,
    },
}

/// A line that cannot be read. The text says what is wrong and where (1-based token positions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProtocolError {}

fn error(text: impl Into<String>) -> ProtocolError {
    ProtocolError(text.into())
}

/// The line without its line end: a trailing `\n`, then one `\r` before it (`\r\n`).
pub fn strip_line_end(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

/// The tokens of a line: the runs between [`SEPARATORS`], after [`strip_line_end`].
pub fn tokens(line: &str) -> impl Iterator<Item = &str> {
    strip_line_end(line)
        .split(SEPARATORS)
        .filter(|token| !token.is_empty())
}

/// Refuses a line with a token that holds whitespace other than the [`SEPARATORS`] (a vertical
/// tab, a form feed, a `\r` inside the line, U+00A0, U+3000 ...): such a character belongs to its
/// token, and a command whose text the rules read again by words (a Megachess world, a realtime
/// state or event) would otherwise split there. The error names the first such token and its
/// 1-based position in the line.
pub fn refuse_inner_whitespace(command: &str, line: &str) -> Result<(), String> {
    let odd = tokens(line)
        .enumerate()
        .find(|(_, token)| token.chars().any(char::is_whitespace));
    match odd {
        Some((index, token)) => Err(format!(
            "{command}: token {} at token {} holds whitespace that does not separate tokens \
             (only spaces and tabs do)",
            quote(token),
            index + 1
        )),
        None => Ok(()),
    }
}

/// Reads one line. `Ok(None)` for a blank line, which the protocol ignores.
pub fn parse_command(line: &str) -> Result<Option<Command>, ProtocolError> {
    let tokens: Vec<&str> = tokens(line).collect();
    let Some(&keyword) = tokens.first() else {
        return Ok(None);
    };
    let arguments = &tokens[1..];
    let no_arguments = |command: Command| match arguments.first() {
        Some(extra) => Err(error(format!(
            "{keyword}: unexpected token {} at token 2, '{keyword}' takes no arguments",
            quote(extra)
        ))),
        None => Ok(command),
    };
    let command = match keyword {
        "uci" => no_arguments(Command::Uci)?,
        "isready" => no_arguments(Command::IsReady)?,
        "ucinewgame" => no_arguments(Command::UciNewGame)?,
        "stop" => no_arguments(Command::Stop)?,
        "ponderhit" => no_arguments(Command::PonderHit)?,
        "quit" => no_arguments(Command::Quit)?,
        "d" => no_arguments(Command::Display)?,
        "debug" => parse_debug(arguments)?,
        "setoption" => parse_setoption(arguments)?,
        "position" => parse_position(arguments)?,
        "go" => parse_go(arguments)?,
        "bench" => parse_bench(arguments)?,
        other => return Err(error(format!("unknown command {}", quote(other)))),
    };
    Ok(Some(command))
}

fn parse_debug(arguments: &[&str]) -> Result<Command, ProtocolError> {
    match arguments {
        [] | ["on"] => Ok(Command::Debug(true)),
        ["off"] => Ok(Command::Debug(false)),
        [other, ..] => Err(error(format!(
            "debug: expected 'on' or 'off', found {} at token 2",
            quote(other)
        ))),
    }
}

/// `setoption name <name...> [value <value...>]`; names and values may contain spaces.
fn parse_setoption(arguments: &[&str]) -> Result<Command, ProtocolError> {
    match arguments.first() {
        Some(&"name") => {}
        Some(other) => {
            return Err(error(format!(
                "setoption: expected 'name', found {} at token 2",
                quote(other)
            )))
        }
        None => return Err(error("setoption: expected 'name' at token 2")),
    }
    let rest = &arguments[1..];
    let value_at = rest.iter().position(|&token| token == "value");
    let (name_tokens, value) = match value_at {
        Some(at) => (&rest[..at], Some(rest[at + 1..].join(" "))),
        None => (rest, None),
    };
    if name_tokens.is_empty() {
        return Err(error("setoption: missing option name after 'name'"));
    }
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

/// `position startpos|fen <fields...> [moves <m1> <m2> ...]`.
fn parse_position(arguments: &[&str]) -> Result<Command, ProtocolError> {
    let moves_at = arguments.iter().position(|&token| token == "moves");
    let (head, moves) = match moves_at {
        Some(at) => (&arguments[..at], &arguments[at + 1..]),
        None => (arguments, &arguments[arguments.len()..]),
    };
    let start = match head {
        [] => return Err(error("position: expected 'startpos' or 'fen' at token 2")),
        ["startpos"] => PositionStart::StartPos,
        ["startpos", extra, ..] => {
            return Err(error(format!(
                "position: unexpected token {} at token 3, expected 'moves'",
                quote(extra)
            )))
        }
        ["fen"] => return Err(error("position: missing FEN after 'fen' at token 3")),
        ["fen", fields @ ..] => PositionStart::Fen(fields.join(" ")),
        [other, ..] => {
            return Err(error(format!(
                "position: expected 'startpos' or 'fen', found {} at token 2",
                quote(other)
            )))
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|&m| m.to_string()).collect(),
    })
}

const GO_KEYWORDS: [&str; 14] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "perft",
    "searchmoves",
    "go",
];

/// Token `index` of `arguments`, as a 1-based position in the whole line (`go` is token 1).
fn line_position(index: usize) -> usize {
    index + 2
}

/// `go` and its fields, in any order.
fn parse_go(arguments: &[&str]) -> Result<Command, ProtocolError> {
    let mut params = GoParams::default();
    let mut perft = None;
    let mut index = 0;
    while index < arguments.len() {
        let keyword = arguments[index];
        let value = || go_value(arguments, index, keyword);
        match keyword {
            // Some GUIs send negative clocks after a flag fall; a clock can't go below zero.
            "wtime" => params.clock_mut(Color::White).time = Some(millis(value()?)),
            "btime" => params.clock_mut(Color::Black).time = Some(millis(value()?)),
            "winc" => params.clock_mut(Color::White).increment = Some(millis(value()?)),
            "binc" => params.clock_mut(Color::Black).increment = Some(millis(value()?)),
            "movetime" => params.movetime = Some(millis(value()?)),
            "movestogo" => params.moves_to_go = Some(unsigned(value()?, keyword, index)?),
            "depth" => params.depth = Some(ranged(value()?, 0, MAX_DEPTH, keyword, index)?),
            "nodes" => params.nodes = Some(unsigned(value()?, keyword, index)?),
            "mate" => params.mate = Some(ranged(value()?, 0, MAX_MATE, keyword, index)?),
            "perft" => perft = Some(ranged(value()?, 1, MAX_PERFT_DEPTH, keyword, index)?),
            "infinite" => params.infinite = true,
            "ponder" => params.ponder = true,
            "searchmoves" => {
                let moves: Vec<String> = arguments[index + 1..]
                    .iter()
                    .take_while(|token| !GO_KEYWORDS.contains(token))
                    .map(|m| m.to_string())
                    .collect();
                if moves.is_empty() {
                    return Err(error(format!(
                        "go: 'searchmoves' at token {} needs at least one move",
                        line_position(index)
                    )));
                }
                index += moves.len();
                params.searchmoves = moves;
            }
            other => {
                return Err(error(format!(
                    "go: unknown parameter {} at token {}",
                    quote(other),
                    line_position(index)
                )))
            }
        }
        index += match keyword {
            "infinite" | "ponder" | "searchmoves" => 1,
            _ => 2,
        };
    }
    match perft {
        Some(depth) if params == GoParams::default() => Ok(Command::Perft(depth)),
        Some(_) => Err(error("go: 'perft' takes no other parameters")),
        None => Ok(Command::Go(params)),
    }
}

/// The integer after the keyword at `index`.
fn go_value(arguments: &[&str], index: usize, keyword: &str) -> Result<i64, ProtocolError> {
    let position = line_position(index + 1);
    let Some(&text) = arguments.get(index + 1) else {
        return Err(error(format!(
            "go: '{keyword}' needs a value at token {position}, found end of line"
        )));
    };
    text.parse::<i64>().map_err(|_| {
        let digits = text.strip_prefix('-').unwrap_or(text);
        // An integer all the same, only too long for 64 bits: say so rather than "not an integer".
        if !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()) {
            error(format!(
                "go: '{keyword}' value {text} at token {position} is out of range"
            ))
        } else {
            error(format!(
                "go: '{keyword}' needs an integer at token {position}, found {}",
                quote(text)
            ))
        }
    })
}

fn millis(value: i64) -> Duration {
    Duration::from_millis(value.max(0) as u64)
}

fn unsigned<T: TryFrom<i64>>(value: i64, keyword: &str, index: usize) -> Result<T, ProtocolError> {
    T::try_from(value).map_err(|_| {
        error(format!(
            "go: '{keyword}' value {value} at token {} is out of range",
            line_position(index + 1)
        ))
    })
}

/// A value that only makes sense in `min..=max` (a depth), refused beyond it with the range.
fn ranged(
    value: i64,
    min: u32,
    max: u32,
    keyword: &str,
    index: usize,
) -> Result<u32, ProtocolError> {
    match u32::try_from(value) {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(error(format!(
            "go: '{keyword}' value {value} at token {} is out of range {min}..={max}",
            line_position(index + 1)
        ))),
    }
}

/// `bench [depth N]`.
fn parse_bench(arguments: &[&str]) -> Result<Command, ProtocolError> {
    match arguments {
        [] => Ok(Command::Bench { depth: None }),
        ["depth", text] => match text.parse::<u32>() {
            Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => {
                Ok(Command::Bench { depth: Some(depth) })
            }
            // Digits all the same: a number, only too large (or 0).
            _ if !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit()) => Err(error(
                format!("bench: 'depth' value {text} at token 3 is out of range 1..={MAX_DEPTH}"),
            )),
            _ => Err(error(format!(
                "bench: 'depth' needs a positive integer at token 3, found {}",
                quote(text)
            ))),
        },
        ["depth"] => Err(error(
            "bench: 'depth' needs a value at token 3, found end of line",
        )),
        ["depth", _, extra, ..] => Err(error(format!(
            "bench: unexpected token {} at token 4",
            quote(extra)
        ))),
        [other, ..] => Err(error(format!(
            "bench: expected 'depth', found {} at token 2",
            quote(other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SideClock;

    fn parse(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(command)) => command,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn parse_error(line: &str) -> String {
        match parse_command(line) {
            Err(ProtocolError(text)) => text,
            other => panic!("{line:?} should fail, gave {other:?}"),
        }
    }

    /// Each line fails with an error that says the given words.
    fn assert_errors(cases: &[(&str, &str)]) {
        for (line, words) in cases {
            let error = parse_error(line);
            assert!(error.contains(words), "{line:?} gave {error:?}");
        }
    }

    fn clock(time_ms: u64, increment_ms: Option<u64>) -> SideClock {
        SideClock {
            time: Some(Duration::from_millis(time_ms)),
            increment: increment_ms.map(Duration::from_millis),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Command::Uci);
        assert_eq!(parse("  isready \r"), Command::IsReady);
        assert_eq!(parse("ucinewgame"), Command::UciNewGame);
        assert_eq!(parse("stop"), Command::Stop);
        assert_eq!(parse("ponderhit"), Command::PonderHit);
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse("d"), Command::Display);
        assert_eq!(parse("debug off"), Command::Debug(false));
        assert_eq!(parse_command("").unwrap(), None);
        assert_eq!(parse_command(" \t \r").unwrap(), None);
    }

    #[test]
    fn unknown_command_and_extra_tokens() {
        assert_eq!(parse_error("xyz"), "unknown command 'xyz'");
        assert_eq!(parse_error("UCI"), "unknown command 'UCI'");
        assert_eq!(
            parse_error("isready now"),
            "isready: unexpected token 'now' at token 2, 'isready' takes no arguments"
        );
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            parse("setoption name Some Path value C:\\a b\\c"),
            Command::SetOption {
                name: "Some Path".into(),
                value: Some("C:\\a b\\c".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption name Hash value"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some(String::new())
            }
        );
        assert_errors(&[
            ("setoption", "expected 'name'"),
            ("setoption Hash 3", "found 'Hash' at token 2"),
            ("setoption name value 3", "missing option name"),
        ]);
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos"),
            Command::Position {
                start: PositionStart::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Command::Position {
                start: PositionStart::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1b1"),
            Command::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1b1".into()]
            }
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k   w - -"),
            Command::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K6k w - -".into()),
                moves: vec![]
            }
        );
        assert_eq!(
            parse("position startpos moves"),
            Command::Position {
                start: PositionStart::StartPos,
                moves: vec![]
            }
        );
        assert_errors(&[
            ("position", "expected 'startpos' or 'fen' at token 2"),
            ("position fen", "missing FEN"),
            ("position fen moves e2e4", "missing FEN"),
            ("position startpos e2e4", "'e2e4' at token 3"),
            ("position start", "found 'start' at token 2"),
        ]);
    }

    #[test]
    fn go_with_clocks_and_limits() {
        let Command::Go(params) =
            parse("go wtime 60000 btime 59000 winc 1000 binc 1000 movestogo 20")
        else {
            panic!()
        };
        assert_eq!(
            params.clocks,
            [clock(60000, Some(1000)), clock(59000, Some(1000))]
        );
        assert_eq!(params.moves_to_go, Some(20));

        let Command::Go(params) = parse("go depth 7 nodes 100000 movetime 250 mate 3") else {
            panic!()
        };
        assert_eq!(params.depth, Some(7));
        assert_eq!(params.nodes, Some(100000));
        assert_eq!(params.movetime, Some(Duration::from_millis(250)));
        assert_eq!(params.mate, Some(3));

        assert_eq!(parse("go"), Command::Go(GoParams::default()));
        let Command::Go(params) = parse("go infinite") else {
            panic!()
        };
        assert!(params.infinite && !params.ponder);
        let Command::Go(params) = parse("go ponder wtime 1000 btime 1000") else {
            panic!()
        };
        assert!(params.ponder);
    }

    #[test]
    fn go_negative_clocks_are_clamped() {
        let Command::Go(params) = parse("go wtime -150 btime 100 winc -1") else {
            panic!()
        };
        assert_eq!(params.clocks, [clock(0, Some(0)), clock(100, None)]);
    }

    #[test]
    fn go_searchmoves_stops_at_the_next_keyword() {
        let Command::Go(params) = parse("go searchmoves e2e4 d2d4 depth 3") else {
            panic!()
        };
        assert_eq!(params.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(params.depth, Some(3));
        assert_errors(&[
            ("go searchmoves", "needs at least one move"),
            ("go searchmoves infinite", "token 2"),
        ]);
    }

    #[test]
    fn go_perft() {
        assert_eq!(parse("go perft 3"), Command::Perft(3));
        assert_errors(&[
            ("go perft 3 depth 2", "no other parameters"),
            ("go perft", "'perft' needs a value at token 3"),
            ("go perft 0", "value 0 at token 3 is out of range 1..=64"),
            // Deeper would overflow the stack (perft recurses once a ply).
            (
                "go perft 10000",
                "value 10000 at token 3 is out of range 1..=64",
            ),
        ]);
        assert_eq!(parse("go perft 64"), Command::Perft(MAX_PERFT_DEPTH));
    }

    #[test]
    fn depths_beyond_the_search_are_refused_not_wrapped() {
        let Command::Go(params) = parse("go depth 124 mate 62") else {
            panic!("not a go");
        };
        assert_eq!(
            (params.depth, params.mate),
            (Some(MAX_DEPTH), Some(MAX_MATE))
        );
        assert_errors(&[
            (
                "go depth 4294967295",
                "value 4294967295 at token 3 is out of range 0..=124",
            ),
            (
                "go depth 2147483648",
                "value 2147483648 at token 3 is out of range 0..=124",
            ),
            ("go depth 125", "out of range 0..=124"),
            (
                "go mate 2147483648",
                "value 2147483648 at token 3 is out of range 0..=62",
            ),
            (
                "go nodes 1 mate 63",
                "value 63 at token 5 is out of range 0..=62",
            ),
            (
                "bench depth 2147483648",
                "value 2147483648 at token 3 is out of range 1..=124",
            ),
            ("bench depth 125", "out of range 1..=124"),
        ]);
        assert_eq!(
            parse("bench depth 124"),
            Command::Bench {
                depth: Some(MAX_DEPTH)
            }
        );
    }

    #[test]
    fn go_errors_name_the_token_and_position() {
        assert_eq!(
            parse_error("go depth abc"),
            "go: 'depth' needs an integer at token 3, found 'abc'"
        );
        assert_eq!(
            parse_error("go depth"),
            "go: 'depth' needs a value at token 3, found end of line"
        );
        assert_eq!(
            parse_error("go foo"),
            "go: unknown parameter 'foo' at token 2"
        );
        assert_eq!(
            parse_error("go infinite foo"),
            "go: unknown parameter 'foo' at token 3"
        );
        assert_eq!(
            parse_error("go depth -1"),
            "go: 'depth' value -1 at token 3 is out of range 0..=124"
        );
        assert_eq!(
            parse_error("go nodes 99999999999999999999999"),
            "go: 'nodes' value 99999999999999999999999 at token 3 is out of range"
        );
        assert!(parse_error("go wtime -99999999999999999999").contains("out of range"));
        assert!(parse_error("go depth 5000000000").contains("out of range"));
        assert!(parse_error("go depth 1e9").contains("needs an integer"));
        assert!(parse_error("go depth -").contains("needs an integer"));
        assert!(parse_error("go movestogo 1 wtime x").contains("at token 5, found 'x'"));
    }

    #[test]
    fn bench() {
        assert_eq!(parse("bench"), Command::Bench { depth: None });
        assert_eq!(parse("bench depth 9"), Command::Bench { depth: Some(9) });
        assert_errors(&[
            ("bench depth", "needs a value"),
            (
                "bench depth 0",
                "value 0 at token 3 is out of range 1..=124",
            ),
            ("bench depth -1", "positive integer"),
            ("bench 9", "expected 'depth'"),
        ]);
    }

    #[test]
    fn only_spaces_and_tabs_separate_tokens() {
        assert_eq!(parse(" \tisready\t \r\n"), Command::IsReady);
        let cases = [
            ("isready\u{a0}", "unknown command 'isready\\u{a0}'"),
            ("go\u{2003}depth 1", "unknown command 'go\\u{2003}depth'"),
            ("isready\u{3000}", "unknown command 'isready\\u{3000}'"),
            ("isready\u{b}", "unknown command 'isready\\u{b}'"),
            ("isready\u{c}", "unknown command 'isready\\u{c}'"),
            ("isready\rquit", "unknown command 'isready\\rquit'"),
            ("isready\r\r\n", "unknown command 'isready\\r'"),
            (
                "d \u{a0}",
                "d: unexpected token '\\u{a0}' at token 2, 'd' takes no arguments",
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(parse_error(line), expected, "{line:?}");
        }
        let fen = "position fen 8/8/8/8/8/8/8/K6k\u{a0}w - - 0 1";
        let Command::Position { start, .. } = parse(fen) else {
            panic!("{fen:?} is a position");
        };
        assert_eq!(
            start,
            PositionStart::Fen("8/8/8/8/8/8/8/K6k\u{a0}w - - 0 1".into())
        );
    }

    #[test]
    fn errors_quote_a_short_prefix() {
        let long = "x".repeat(100_000);
        assert_eq!(
            parse_error(&long),
            format!(
                "unknown command '{}...' (100000 bytes)",
                "x".repeat(QUOTE_LIMIT)
            )
        );
        let error = parse_error(&format!("go depth 1 {long}"));
        assert_eq!(
            error,
            format!(
                "go: unknown parameter '{}...' (100000 bytes) at token 4",
                "x".repeat(32)
            )
        );
        assert_eq!(
            quote(&"é".repeat(QUOTE_LIMIT)),
            format!("'{}'", "é".repeat(32))
        );
    }
}
