//! The dialect with scripted players: what it prints for a refused choice, a panic, a late
//! player, and which state and options reach the player.

use super::*;
use crate::engine::{OptionKind, OptionSpec, OptionValue};
use crate::protocol::output::Captured;
use crate::rules::realtime::Color;
use crate::rules::realtime::Order;
use crate::rules::realtime::RealtimeParams;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the scripted player saw: (ms, side, budget) per decision, and the options set.
type Seen = Arc<Mutex<Vec<String>>>;

/// Answers from a script: an order's text, `panic`, `sleep <ms>`, or anything else for none.
struct Scripted {
    answer: &'static str,
    seen: Seen,
}

impl RealtimePlayer for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn options(&self) -> Vec<OptionSpec> {
        vec![OptionSpec {
            name: "Width",
            kind: OptionKind::Spin {
                default: 3,
                min: 1,
                max: 9,
            },
        }]
    }
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        self.seen
            .lock()
            .unwrap()
            .push(format!("set {name} {}", value.text()));
        Ok(())
    }
    fn new_game(&mut self) {
        self.seen.lock().unwrap().push("new game".into());
    }
    fn decide(&mut self, state: &RealtimeState, side: Color, budget: Duration) -> Option<Order> {
        self.seen.lock().unwrap().push(format!(
            "decide {} {} {}",
            state.now(),
            side.name(),
            budget.as_millis()
        ));
        if self.answer == "panic" {
            panic!("scripted to fail");
        }
        if let Some(ms) = self.answer.strip_prefix("sleep ") {
            std::thread::sleep(Duration::from_millis(ms.parse().unwrap()));
            return None;
        }
        Order::parse(self.answer).ok()
    }
}

/// Runs `lines` through a dialect over a scripted player; returns its replies and what the
/// player saw.
fn run(answer: &'static str, lines: &[&str]) -> (Vec<String>, Vec<String>) {
    let seen = Seen::default();
    let captured = Captured::default();
    let out = Output::new(captured.clone());
    let mut dialect = RealtimeDialect::new(Box::new(Scripted {
        answer,
        seen: seen.clone(),
    }));
    for line in lines {
        match line.strip_prefix("setoption ") {
            Some(option) => {
                let (name, value) = option.split_once(' ').unwrap();
                if let Err(error) = dialect.set_option(name, Some(value)) {
                    out.error(&format!("setoption: {error}")).unwrap();
                }
            }
            None => dialect.handle_line(line, &out).unwrap(),
        }
        // Each `go` answers before the next line, as a referee would wait.
        dialect.finish();
    }
    let seen = seen.lock().unwrap().clone();
    (captured.lines(), seen)
}

#[test]
fn the_players_order_is_printed_when_the_rules_allow_it_and_never_otherwise() {
    let (lines, seen) = run("e2e4", &["go side white movetime 100"]);
    assert_eq!(lines, ["bestmove e2e4"]);
    assert_eq!(seen, ["decide 0 white 75"]);
    let (lines, _) = run("e2e5", &["go side white", "go side black"]);
    assert_eq!(lines.len(), 4, "{lines:#?}");
    assert!(
        lines[0].starts_with(
            "info string error: scripted chose e2e5 for white at 0 ms, which the rules refuse: "
        ),
        "{lines:#?}"
    );
    assert!(lines[0].ends_with("; answering none"), "{lines:#?}");
    assert_eq!(lines[1], "bestmove none");
    // Black has no piece on e2.
    assert!(lines[2].contains("chose e2e5 for black"), "{lines:#?}");
    assert_eq!(lines[3], "bestmove none");
}

#[test]
fn a_panicking_player_is_answered_for_and_asked_again() {
    let (lines, seen) = run(
        "panic",
        &["go side white movetime 5000", "go side black movetime 5000"],
    );
    assert_eq!(
        lines,
        [
            "info string error: scripted failed while deciding for white at 0 ms; answering none",
            "bestmove none",
            "info string error: scripted failed while deciding for black at 0 ms; answering none",
            "bestmove none",
        ]
    );
    assert_eq!(seen.len(), 2);
}

#[test]
fn a_late_player_is_answered_for_at_the_movetime() {
    let (lines, _) = run("sleep 300", &["go side white movetime 40"]);
    assert_eq!(
        lines,
        [
            "info string scripted did not decide within 40 ms; answering none",
            "bestmove none"
        ]
    );
}

#[test]
fn the_player_decides_on_the_state_given_and_takes_its_options() {
    let mut state = RealtimeState::start(RealtimeParams::default());
    state.advance_to(5000, &mut Vec::new());
    let position = format!("position state {}", state.text());
    let (lines, seen) = run(
        "none",
        &[
            "setoption width 7",
            "setoption tick_ms 100",
            &position,
            "go side black movetime 1000",
            "ucinewgame",
            "go side white movetime 1000",
        ],
    );
    assert_eq!(lines, ["bestmove none", "bestmove none"]);
    assert_eq!(
        seen,
        [
            "set Width 7",
            "decide 5000 black 975",
            "new game",
            "decide 0 white 975"
        ]
    );
}

#[test]
fn display_shows_the_board_the_moving_pieces_and_the_state() {
    let mut state = RealtimeState::start(RealtimeParams::default());
    let mut events = Vec::new();
    state
        .apply(Color::White, Order::parse("e2e4").unwrap(), &mut events)
        .unwrap();
    state.advance_to(500, &mut events);
    let shown = display(&state);
    assert!(
        shown.contains(" | R | N | B | Q | K | B | N | R | 1"),
        "{shown}"
    );
    assert!(
        shown.contains("\nMoving: Pe2e4 from 0 to 2000\n"),
        "{shown}"
    );
    assert!(shown.contains("\nDelays: none\nMs: 500\n"), "{shown}");
    assert!(
        shown.ends_with(&format!("State: {}", state.text())),
        "{shown}"
    );
}

/// Errors never print whitespace other than a space, nor invisible characters, raw (a raw
/// U+2028 ends the line for some readers): the protocol's token check and the rules' own
/// messages both reach the GUI escaped, `\u{2028}`.
#[test]
fn errors_escape_unseen_whitespace_wherever_they_come_from() {
    let state = "position state 4k3/8/8/8/8/8/8/4K3 - 0 0";
    let mut lines = Vec::new();
    for odd in ['\u{a0}', '\u{2003}', '\u{3000}', '\u{2028}'] {
        lines.push(format!("{state} d:e1:{odd}5000"));
        lines.push(format!("event 5 start{odd}white e2e4"));
        lines.push(format!("go side white{odd}"));
    }
    // Not whitespace, so the rules see it: their message is escaped too.
    lines.push(format!("{state} \u{200b}"));
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let (replies, _) = run("none", &lines);
    assert_eq!(replies.len(), lines.len(), "{replies:#?}");
    for (line, reply) in lines.iter().zip(&replies) {
        assert!(reply.starts_with("info string error: "), "{reply}");
        assert!(
            !reply
                .chars()
                .any(|c| (c.is_whitespace() && c != ' ') || c == '\u{200b}'),
            "{line:?} got {reply:?}"
        );
    }
    assert_eq!(
        replies[9],
        "info string error: position: token 'd:e1:\\u{2028}5000' at token 7 holds whitespace \
         that does not separate tokens (only spaces and tabs do)"
    );
    assert_eq!(
        replies[12],
        "info string error: position: invalid state '4k3/8/8/8/8/8/8/4K3 - 0 0 \\u{200b}': \
         character '\\u{200b}' is not allowed in a state text; the state is unchanged"
    );
}
