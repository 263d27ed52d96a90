//! The realtime dialect's commands, read from a line: every refusal says what and at which token.

use crate::protocol::parse::{quote, refuse_inner_whitespace, tokens};
use crate::rules::realtime::{Color, Ms};
use std::time::Duration;

/// The thinking budget of a `go` (and of each decision while streaming) when none is given.
pub const DEFAULT_MOVETIME_MS: u64 = 50;
/// The largest `movetime` taken: a day.
pub const MAX_MOVETIME_MS: u64 = 86_400_000;

/// The commands of realtime chess (the session answers the shared ones itself).
pub const COMMANDS: &str = "ucinewgame, position, go, play, time, event, refused, stop";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RealtimeCommand {
    NewGame,
    /// `position startpos` (`None`) or `position state <text>`.
    Position(Option<String>),
    /// `go side <side> [movetime <ms>]`: the order to start now, or none.
    Go {
        side: Color,
        movetime: Duration,
    },
    /// `play <side> [movetime <ms>]`: streaming; `movetime` bounds each decision.
    Play {
        side: Color,
        movetime: Duration,
    },
    /// `time <ms>`: the referee's clock.
    Time(Ms),
    /// `event <ms> <what>`: the event's text, `<ms>` included, as the simulator reads it.
    Event(String),
    /// `refused <ms> <order> <reason...>`: the referee refused one of our orders.
    Refused {
        ms: Ms,
        order: String,
    },
    Stop,
}

/// Reads one line (not blank: the session skips those).
pub fn parse(line: &str) -> Result<RealtimeCommand, String> {
    let tokens: Vec<&str> = tokens(line).collect();
    let Some((&keyword, arguments)) = tokens.split_first() else {
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
        "ucinewgame" => no_arguments(RealtimeCommand::NewGame),
        "stop" => no_arguments(RealtimeCommand::Stop),
        "position" => parse_position(line, arguments),
        "go" => parse_go(arguments),
        "play" => parse_play(arguments),
        "time" => parse_time(arguments),
        "event" => parse_event(line, arguments),
        "refused" => parse_refused(arguments),
        other => Err(format!(
            "unknown command {} (realtime chess takes {COMMANDS})",
            quote(other)
        )),
    }
}

fn parse_position(line: &str, arguments: &[&str]) -> Result<RealtimeCommand, String> {
    match arguments {
        [] => Err("position: expected 'startpos' or 'state' at token 2".into()),
        ["startpos"] => Ok(RealtimeCommand::Position(None)),
        ["startpos", extra, ..] => Err(format!(
            "position: unexpected token {} at token 3, 'startpos' takes nothing more",
            quote(extra)
        )),
        ["state"] => Err("position: missing the state text after 'state' at token 3".into()),
        ["state", fields @ ..] => {
            // The rules read the state again by words: whitespace that does not separate
            // tokens here (protocol.md, "Transport") must not separate them there.
            refuse_inner_whitespace("position", line)?;
            Ok(RealtimeCommand::Position(Some(fields.join(" "))))
        }
        [other, ..] => Err(format!(
            "position: expected 'startpos' or 'state', found {} at token 2",
            quote(other)
        )),
    }
}

/// `white` or `black`, the value at `token` (1-based) of `command`.
fn side(command: &str, what: &str, value: Option<&&str>, token: usize) -> Result<Color, String> {
    match value {
        Some(&"white") => Ok(Color::White),
        Some(&"black") => Ok(Color::Black),
        Some(other) => Err(format!(
            "{command}: {what} needs 'white' or 'black' at token {token}, found {}",
            quote(other)
        )),
        None => Err(format!(
            "{command}: {what} needs 'white' or 'black' at token {token}, found end of line"
        )),
    }
}

/// A count of milliseconds: plain decimal digits, at most `max`.
fn millis(
    command: &str,
    what: &str,
    value: Option<&&str>,
    token: usize,
    max: u64,
) -> Result<u64, String> {
    let Some(text) = value else {
        return Err(format!(
            "{command}: {what} needs a number of ms at token {token}, found end of line"
        ));
    };
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(format!(
            "{command}: {what} needs a number of ms at token {token}, found {}",
            quote(text)
        ));
    }
    match text.parse::<u64>() {
        Ok(number) if number <= max => Ok(number),
        _ => Err(format!(
            "{command}: {what} value {} at token {token} is out of range 0..={max}",
            quote(text)
        )),
    }
}

/// The `movetime <ms>` that may follow the side (tokens from 4 on), once.
fn movetime_after(command: &str, rest: &[&str], first_token: usize) -> Result<Duration, String> {
    match rest {
        [] => Ok(Duration::from_millis(DEFAULT_MOVETIME_MS)),
        ["movetime", value @ ..] => {
            let ms = millis(
                command,
                "'movetime'",
                value.first(),
                first_token + 1,
                MAX_MOVETIME_MS,
            )?;
            match value.get(1) {
                Some(extra) => Err(format!(
                    "{command}: unexpected token {} at token {}",
                    quote(extra),
                    first_token + 2
                )),
                None => Ok(Duration::from_millis(ms)),
            }
        }
        [other, ..] => Err(format!(
            "{command}: unknown parameter {} at token {first_token}, expected 'movetime'",
            quote(other)
        )),
    }
}

fn parse_go(arguments: &[&str]) -> Result<RealtimeCommand, String> {
    match arguments.first() {
        Some(&"side") => {}
        Some(other) => {
            return Err(format!(
                "go: expected 'side' at token 2, found {}: realtime chess asks 'go side \
                 <white|black> [movetime <ms>]'",
                quote(other)
            ))
        }
        None => {
            return Err(
                "go: expected 'side' at token 2: realtime chess asks 'go side <white|black> \
                 [movetime <ms>]'"
                    .into(),
            )
        }
    }
    let side = side("go", "'side'", arguments.get(1), 3)?;
    let movetime = movetime_after("go", &arguments[2..], 4)?;
    Ok(RealtimeCommand::Go { side, movetime })
}

fn parse_play(arguments: &[&str]) -> Result<RealtimeCommand, String> {
    let side = side("play", "the side", arguments.first(), 2)?;
    let movetime = movetime_after("play", &arguments[1..], 3)?;
    Ok(RealtimeCommand::Play { side, movetime })
}

fn parse_time(arguments: &[&str]) -> Result<RealtimeCommand, String> {
    let ms = millis("time", "the clock", arguments.first(), 2, u64::MAX)?;
    match arguments.get(1) {
        Some(extra) => Err(format!(
            "time: unexpected token {} at token 3, 'time' takes one number",
            quote(extra)
        )),
        None => Ok(RealtimeCommand::Time(ms)),
    }
}

fn parse_event(line: &str, arguments: &[&str]) -> Result<RealtimeCommand, String> {
    match arguments {
        [] => Err("event: expected '<ms> <event>' at token 2, found end of line".into()),
        [_] => {
            Err("event: expected what happened after the ms at token 3, found end of line".into())
        }
        _ => {
            // As for a state: the simulator reads the event again by words.
            refuse_inner_whitespace("event", line)?;
            Ok(RealtimeCommand::Event(arguments.join(" ")))
        }
    }
}

fn parse_refused(arguments: &[&str]) -> Result<RealtimeCommand, String> {
    let ms = millis("refused", "the ms", arguments.first(), 2, u64::MAX)?;
    match arguments.get(1) {
        Some(order) => Ok(RealtimeCommand::Refused {
            ms,
            order: order.to_string(),
        }),
        None => Err("refused: expected the refused order at token 3, found end of line".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(value: u64) -> Duration {
        Duration::from_millis(value)
    }

    #[test]
    fn reads_every_command() {
        use RealtimeCommand::*;
        assert_eq!(parse("ucinewgame"), Ok(NewGame));
        assert_eq!(parse("  stop \r\n"), Ok(Stop));
        assert_eq!(parse("position startpos"), Ok(Position(None)));
        assert_eq!(
            parse("position state 8/8  w\t12"),
            Ok(Position(Some("8/8 w 12".into())))
        );
        assert_eq!(
            parse("go side black"),
            Ok(Go {
                side: Color::Black,
                movetime: ms(DEFAULT_MOVETIME_MS)
            })
        );
        assert_eq!(
            parse("go side white movetime 0"),
            Ok(Go {
                side: Color::White,
                movetime: ms(0)
            })
        );
        assert_eq!(
            parse("play white movetime 20"),
            Ok(Play {
                side: Color::White,
                movetime: ms(20)
            })
        );
        assert_eq!(parse("time 1500"), Ok(Time(1500)));
        assert_eq!(
            parse("event 1500 start black e7e5"),
            Ok(Event("1500 start black e7e5".into()))
        );
        assert_eq!(
            parse("refused 12 e2e5 not a move: no"),
            Ok(Refused {
                ms: 12,
                order: "e2e5".into()
            })
        );
    }

    #[test]
    fn refusals_say_what_and_where() {
        let refused = |line: &str| parse(line).unwrap_err();
        assert_eq!(
            refused("ponderhit"),
            format!("unknown command 'ponderhit' (realtime chess takes {COMMANDS})")
        );
        assert_eq!(
            refused("stop now"),
            "stop: unexpected token 'now' at token 2, 'stop' takes no arguments"
        );
        assert_eq!(
            refused("position fen x"),
            "position: expected 'startpos' or 'state', found 'fen' at token 2"
        );
        assert_eq!(
            refused("position state"),
            "position: missing the state text after 'state' at token 3"
        );
        assert!(refused("go depth 3").starts_with("go: expected 'side' at token 2, found 'depth'"));
        assert_eq!(
            refused("go side red"),
            "go: 'side' needs 'white' or 'black' at token 3, found 'red'"
        );
        assert_eq!(
            refused("go side white movetime -5"),
            "go: 'movetime' needs a number of ms at token 5, found '-5'"
        );
        assert_eq!(
            refused("go side white movetime 86400001"),
            "go: 'movetime' value '86400001' at token 5 is out of range 0..=86400000"
        );
        assert_eq!(
            refused("go side white nodes 5"),
            "go: unknown parameter 'nodes' at token 4, expected 'movetime'"
        );
        assert_eq!(
            refused("go side white movetime 5 x"),
            "go: unexpected token 'x' at token 6"
        );
        assert_eq!(
            refused("play"),
            "play: the side needs 'white' or 'black' at token 2, found end of line"
        );
        assert_eq!(
            refused("time 99999999999999999999"),
            "time: the clock value '99999999999999999999' at token 2 is out of range \
             0..=18446744073709551615"
        );
        assert_eq!(
            refused("time 5 6"),
            "time: unexpected token '6' at token 3, 'time' takes one number"
        );
        assert_eq!(
            refused("event 5"),
            "event: expected what happened after the ms at token 3, found end of line"
        );
        assert_eq!(
            refused("refused 5"),
            "refused: expected the refused order at token 3, found end of line"
        );
    }

    /// Only spaces and tabs separate tokens (protocol.md, "Transport"): a vertical tab, a form
    /// feed, a bare `\r` or U+00A0 inside a state or an event belongs to its token, and the
    /// line is refused, as a Megachess world is, instead of the rules splitting it there.
    #[test]
    fn whitespace_that_does_not_separate_refuses_a_state_or_an_event() {
        let refused = |line: &str| parse(line).unwrap_err();
        let holds = "holds whitespace that does not separate tokens (only spaces and tabs do)";
        assert_eq!(
            refused("position state 4k3/8/8/8/8/8/8/4K3\u{b}- 0 0"),
            format!("position: token '4k3/8/8/8/8/8/8/4K3\\u{{b}}-' at token 3 {holds}")
        );
        assert_eq!(
            refused("position state 4k3/8/8/8/8/8/8/4K3 -\u{c}0 0"),
            format!("position: token '-\\u{{c}}0' at token 4 {holds}")
        );
        assert_eq!(
            refused("position state 4k3/8/8/8/8/8/8/4K3 - 0 0\rd:e1:500\r\n"),
            format!("position: token '0\\rd:e1:500' at token 6 {holds}")
        );
        assert_eq!(
            refused("event 1500\u{a0}start black e7e5"),
            format!("event: token '1500\\u{{a0}}start' at token 2 {holds}")
        );
        assert_eq!(
            refused("event 1500 start\u{2028}black e7e5"),
            format!("event: token 'start\\u{{2028}}black' at token 3 {holds}")
        );
        // The line end itself, `\r\n`, is no part of the line.
        assert_eq!(
            parse("event 1500 start black e7e5\r\n"),
            Ok(RealtimeCommand::Event("1500 start black e7e5".into()))
        );
    }
}
