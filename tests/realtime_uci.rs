//! The realtime dialect through the real binary: the handshake, one-shot `go`, `stop`, streaming,
//! every refused line (one error, the state kept) and the reference players of `roger play`.
//! Orders are checked with the library's own simulator at the ms they would start.

use roger::rules::realtime::{Color, EventKind, Order, RealtimeParams, RealtimeState};
use std::time::{Duration, Instant};

use crate::common;
use common::{Roger, PROMPT};

fn start_state() -> RealtimeState {
    RealtimeState::start(RealtimeParams::default())
}

/// Roger (or `roger play ...` with `args`) with realtime chess selected.
fn realtime(args: &[&str]) -> Roger {
    let mut roger = Roger::start_with(args);
    assert_eq!(
        roger.select_variant("realtime"),
        format!(
            "info string variant realtime files 8 ranks 8 startpos {}",
            start_state().text()
        )
    );
    roger
}

/// The `State:` line of `d`.
fn state_text(roger: &mut Roger) -> String {
    roger.send("d");
    let lines = roger.sync();
    lines
        .iter()
        .find_map(|line| line.strip_prefix("State: "))
        .unwrap_or_else(|| panic!("no State line in {lines:#?}"))
        .to_string()
}

/// The order of a `bestmove` line; panics unless the rules let `side` start it in `state`.
fn checked_bestmove(line: &str, state: &RealtimeState, side: Color) -> Option<Order> {
    let answer = line.strip_prefix("bestmove ").expect("a bestmove line");
    if answer == "none" {
        return None;
    }
    let order = Order::parse(answer).unwrap_or_else(|error| panic!("{line:?}: {error}"));
    if let Err(refusal) = state.check(side, order) {
        panic!("{line:?} is refused at {} ms: {refusal}", state.now());
    }
    Some(order)
}

#[test]
fn handshake_announces_the_parameters_and_the_players_options() {
    let mut roger = realtime(&[]);
    roger.send("uci");
    let lines = roger.until("uciok");
    for wanted in [
        "option name tick_ms type spin default 1000 min 10 max 60000",
        "option name delay_ticks type spin default 10 min 0 max 1000",
        "option name no_capture_draw_ticks type spin default 300 min 1 max 1000000",
    ] {
        assert!(lines.iter().any(|line| line == wanted), "{lines:#?}");
    }
    let variant = lines
        .iter()
        .find(|line| line.starts_with("option name UCI_Variant"))
        .expect("UCI_Variant");
    assert!(variant.contains(" var realtime"), "{variant}");
    // The parameters change the start state's game (not its text) and are range checked.
    roger.send("setoption name tick_ms value 100");
    roger.expect_error(
        "setoption name tick_ms value 5",
        &["option 'tick_ms' value 5 is out of range 10..=60000"],
    );
    assert!(roger.sync().is_empty());
}

#[test]
fn one_shot_go_answers_a_legal_order_or_none_within_movetime() {
    let mut roger = realtime(&[]);
    roger.send("position startpos");
    for side in [Color::White, Color::Black] {
        let asked = Instant::now();
        roger.send(&format!("go side {} movetime 300", side.name()));
        let lines = roger.await_bestmove(PROMPT);
        assert!(
            asked.elapsed() < Duration::from_millis(300 + 200),
            "{lines:#?}"
        );
        let order = checked_bestmove(lines.last().unwrap(), &start_state(), side);
        assert!(
            order.is_some(),
            "something to start at the start: {lines:#?}"
        );
    }
    // A game that is over: none, at once.
    let mut over = start_state();
    over.resign(Color::Black, &mut Vec::new());
    roger.send(&format!("position state {}", over.text()));
    assert_eq!(
        roger.go("side white movetime 1000").last().unwrap(),
        "bestmove none"
    );
}

#[test]
fn stop_answers_at_once_and_a_late_player_is_answered_for() {
    let mut roger = realtime(&["play", "random", "--fault", "slow"]);
    roger.send("go side white movetime 60000");
    roger.assert_silent(Duration::from_millis(200));
    assert!(roger.sync().is_empty());
    let stopped = Instant::now();
    roger.send("stop");
    assert_eq!(roger.next_line(PROMPT).unwrap(), "bestmove none");
    assert!(stopped.elapsed() < Duration::from_millis(500));
    // The deadline answers for a player that has not decided.
    roger.send("go side black movetime 200");
    let lines = roger.await_bestmove(PROMPT);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].starts_with("info string ")
            && lines[0].ends_with(" did not decide within 200 ms; answering none"),
        "{lines:#?}"
    );
    assert_eq!(lines[1], "bestmove none");
}

/// Plays the referee for a while: every `order` the engine prints is started at the referee's
/// ms (wall time since `play`) and told back, each one checked legal at that ms; black's own
/// orders are told as they happen.
#[test]
fn streaming_orders_are_legal_when_they_arrive() {
    // The greedy player orders whenever its rate lets it: one order a tick, here 100 ms.
    let mut roger = realtime(&["play", "greedy"]);
    roger.send("setoption name tick_ms value 100");
    let params = RealtimeParams {
        tick_ms: 100,
        ..RealtimeParams::default()
    };
    let mut state = RealtimeState::start(params);
    roger.send("play white movetime 20");
    let began = Instant::now();
    let mut orders = 0;
    let black = ["e7e5", "g8f6", "b8c6"];
    while orders < 3 {
        let line = roger.next_line(PROMPT).expect("an order");
        let order = line
            .strip_prefix("order ")
            .unwrap_or_else(|| panic!("expected an order, got {line:?}"));
        let order = Order::parse(order).unwrap();
        let ms = (began.elapsed().as_millis() as u64).max(state.now());
        let mut events = Vec::new();
        state.advance_to(ms, &mut events);
        if let Err(refusal) = state.check(Color::White, order) {
            panic!("order {order} is refused at {ms} ms: {refusal}");
        }
        state.apply(Color::White, order, &mut events).unwrap();
        // Black answers in the same ms when it may.
        let reply = Order::parse(black[orders]).unwrap();
        if state.check(Color::Black, reply).is_ok() {
            state.apply(Color::Black, reply, &mut events).unwrap();
        }
        // In time order: what happened up to `ms`, then the clock.
        for event in events {
            roger.send(&format!("event {event}"));
        }
        roger.send(&format!("time {ms}"));
        orders += 1;
    }
    roger.send("stop");
    let replies = roger.sync();
    assert!(
        replies.iter().all(|line| line.starts_with("order ")),
        "{replies:#?}"
    );
    // After `stop` nothing more comes, and the engine's copy is the referee's game as told.
    roger.assert_silent(Duration::from_millis(300));
    assert_eq!(state_text(&mut roger), state.text());
    // Roger's planner streams as well: its first order is legal at the start.
    let mut roger = realtime(&[]);
    roger.send("play black");
    let line = roger.next_line(PROMPT).expect("an order");
    let order = Order::parse(line.strip_prefix("order ").expect("an order line")).unwrap();
    assert_eq!(start_state().check(Color::Black, order), Ok(()));
}

/// Streams for black from a state where black's one piece may not start before 10 s, so every
/// reply is the error and nothing else.
fn quiet_stream() -> (Roger, String) {
    let mut roger = realtime(&[]);
    let text = "4k3/8/8/8/8/8/8/4K3 - 0 0 d:e8:10000".to_string();
    roger.send(&format!("position state {text}"));
    roger.send("play black");
    assert!(roger.sync().is_empty());
    (roger, text)
}

#[test]
fn every_bad_line_gets_one_error_and_the_state_stays() {
    let mut roger = realtime(&[]);
    let start = state_text(&mut roger);
    let bad_lines: [(&str, &[&str]); 13] = [
        (
            "position startpos moves e2e4",
            &["position: unexpected token 'moves' at token 3, 'startpos' takes nothing more"],
        ),
        // Only spaces and tabs separate: a vertical tab, a form feed or a bare `\r` belongs to
        // its token, which the state or the event then refuses, escaped.
        (
            "position state 4k3/8/8/8/8/8/8/4K3\u{b}- 0 0",
            &["position: token '4k3/8/8/8/8/8/8/4K3\\u{b}-' at token 3 holds whitespace"],
        ),
        (
            "position state 4k3/8/8/8/8/8/8/4K3 - 0\r0",
            &["position: token '0\\r0' at token 5 holds whitespace"],
        ),
        (
            "event 5\u{c}start white e2e4",
            &["event: token '5\\u{c}start' at token 2 holds whitespace"],
        ),
        (
            "position state nonsense",
            &["position: invalid state 'nonsense'", "unchanged"],
        ),
        (
            "position state rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR KQkq 1000 0 m:P:e2e4:5000",
            &["position: invalid state", "unchanged"],
        ),
        (
            "position fen x",
            &["position: expected 'startpos' or 'state', found 'fen' at token 2"],
        ),
        (
            "go side red",
            &["go: 'side' needs 'white' or 'black' at token 3, found 'red'"],
        ),
        (
            "go depth 3",
            &["go: expected 'side' at token 2, found 'depth'"],
        ),
        (
            "go side white movetime x",
            &["go: 'movetime' needs a number of ms at token 5"],
        ),
        ("fly away", &["unknown command 'fly'"]),
        (
            "time 5",
            &["time: not streaming; send 'play white' or 'play black' first"],
        ),
        (
            "play purple",
            &["play: the side needs 'white' or 'black' at token 2, found 'purple'"],
        ),
    ];
    for (line, fragments) in bad_lines {
        roger.expect_error(line, fragments);
        assert_eq!(state_text(&mut roger), start, "after {line:?}");
    }
}

#[test]
fn streaming_refuses_events_out_of_order_unknown_or_impossible() {
    let (mut roger, text) = quiet_stream();
    roger.send("time 1000");
    let at_1000 = state_text(&mut roger);
    assert_ne!(at_1000, text);
    let bad_lines: [(&str, &[&str]); 7] = [
        (
            "time 999",
            &["time: 999 ms is before 1000 ms, the last time given"],
        ),
        (
            "event 500 start white e2e4",
            &["event: 500 ms is before 1000 ms"],
        ),
        ("event 1000 fly white e2e4", &["event:", "fly"]),
        (
            "event 1000 arrive white king e2",
            &["does not happen in this engine's copy"],
        ),
        (
            "event 1000 start white e1e3",
            &["this engine's copy of the game refuses"],
        ),
        (
            "refused 10 e2e4 not-ready",
            &["refused: 10 ms is before 1000 ms"],
        ),
        (
            "play white",
            &["play: already streaming for black; send 'stop' first"],
        ),
    ];
    for (line, fragments) in bad_lines {
        roger.expect_error(line, fragments);
        assert_eq!(state_text(&mut roger), at_1000, "after {line:?}");
    }
    roger.expect_error(
        "go side white",
        &["go: streaming for black; send 'stop' first"],
    );
    roger.send("stop");
    assert!(roger.sync().is_empty());
}

#[test]
fn told_events_are_checked_and_starts_replay_in_the_engines_copy() {
    let mut roger = realtime(&[]);
    roger.send("play white movetime 5");
    // The referee's game: black starts e7e5 at 100 and it arrives two ticks later. White's
    // orders are never applied, so the engine's copy is black's game alone.
    let mut referee = start_state();
    let mut events = Vec::new();
    referee.advance_to(100, &mut events);
    referee
        .apply(Color::Black, Order::parse("e7e5").unwrap(), &mut events)
        .unwrap();
    referee.advance_to(2100, &mut events);
    let arrival = events
        .iter()
        .find(|event| matches!(event.kind, EventKind::Arrived { .. }))
        .expect("the pawn arrives");
    assert_eq!(arrival.to_string(), "2100 arrive black pawn e5");
    for event in &events {
        roger.send(&format!("event {event}"));
    }
    roger.send("time 2100");
    let replies = roger.sync();
    assert!(
        replies.iter().all(|line| line.starts_with("order ")),
        "{replies:#?}"
    );
    roger.send("stop");
    roger.sync();
    assert_eq!(state_text(&mut roger), referee.text());
}

#[test]
fn the_reference_players_serve_realtime() {
    for player in ["random", "greedy"] {
        let mut roger = realtime(&["play", player]);
        roger.send("uci");
        let lines = roger.until("uciok");
        assert_eq!(lines[0], format!("id name Roger {player}"));
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with("option name tick_ms")),
            "{lines:#?}"
        );
        roger.send("position startpos");
        let lines = roger.go("side black movetime 100");
        checked_bestmove(lines.last().unwrap(), &start_state(), Color::Black);
    }
    let mut greedy = Roger::start_with(&["play", "greedy", "--variant", "realtime"]);
    greedy.send("uci");
    let lines = greedy.until("uciok");
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("option name GreedyRate type spin")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("option name UCI_Variant type combo default realtime")),
        "{lines:#?}"
    );
    greedy.send("go side white");
    let lines = greedy.await_bestmove(PROMPT);
    checked_bestmove(lines.last().unwrap(), &start_state(), Color::White);
}
