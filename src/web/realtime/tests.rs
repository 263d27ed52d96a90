//! The realtime session on a clock moved by hand: orders count at the ms they are read, the state
//! messages carry the simulator's times, and bad messages are errors that change nothing.

use super::settings::{DEFAULT_REACTION_MS, DEFAULT_SKILL};
use super::*;
use crate::arena::clock::GameClock;
use crate::rules::realtime::{Color, RealtimeState};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

/// A clock the test sets.
#[derive(Clone, Default)]
struct HandClock(Arc<AtomicU64>);

impl GameClock for HandClock {
    fn now(&self) -> Ms {
        self.0.load(Ordering::SeqCst)
    }
    fn ms_at(&self, _instant: Instant) -> Ms {
        self.now()
    }
    fn instant_of(&self, _t: Ms) -> Option<Instant> {
        None
    }
    fn advance_to(&mut self, _t: Ms) {}
}

/// Plays the orders it is given at the ms it is given them; otherwise waits.
struct Scripted(Arc<Mutex<Vec<(Ms, &'static str)>>>);

impl RealtimePlayer for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn decide(&mut self, state: &RealtimeState, _side: Color, _budget: Duration) -> Option<Order> {
        let mut script = self.0.lock().unwrap();
        let index = script.iter().position(|&(ms, _)| ms <= state.now())?;
        let (_, text) = script.remove(index);
        Order::parse(text).ok()
    }
}

struct Harness {
    session: RealtimeSession,
    clock: HandClock,
    script: Arc<Mutex<Vec<(Ms, &'static str)>>>,
    out: Outbox,
    inbox: UnboundedReceiver<String>,
}

impl Harness {
    /// A session whose Roger plays `script`, or Roger's own planner when `planner`.
    fn new(planner: bool) -> Harness {
        let clock = HandClock::default();
        let script = Arc::new(Mutex::new(Vec::new()));
        let (shared_clock, shared_script) = (clock.clone(), script.clone());
        let session = RealtimeSession::with(
            Box::new(move || Box::new(shared_clock.clone())),
            Box::new(move |settings: &Settings| {
                if planner {
                    settings.opponent.player(1, settings.skill)
                } else {
                    Box::new(Scripted(shared_script.clone()))
                }
            }),
        );
        let (sender, inbox) = unbounded_channel();
        Harness {
            session,
            clock,
            script,
            out: Outbox::new(sender),
            inbox,
        }
    }

    /// Sends `message` and polls, as the session's thread does.
    fn send(&mut self, message: Value) -> Vec<Value> {
        self.session.message(message, &self.out);
        Session::poll(&mut self.session, &self.out);
        self.take()
    }

    /// Sets the clock to `ms` and polls.
    fn at(&mut self, ms: Ms) -> Vec<Value> {
        self.clock.0.store(ms, Ordering::SeqCst);
        Session::poll(&mut self.session, &self.out);
        self.take()
    }

    fn take(&mut self) -> Vec<Value> {
        let mut messages = Vec::new();
        while let Ok(text) = self.inbox.try_recv() {
            messages.push(serde_json::from_str(&text).unwrap());
        }
        messages
    }

    fn start(&mut self, tick_ms: u64, delay_ticks: u64) -> Vec<Value> {
        self.send(
            json!({ "type": "start", "side": "white", "tick_ms": tick_ms,
                          "delay_ticks": delay_ticks }),
        )
    }
}

fn of_type<'a>(messages: &'a [Value], kind: &str) -> Vec<&'a Value> {
    messages.iter().filter(|m| m["type"] == kind).collect()
}

/// Every event text in the state messages.
fn events(messages: &[Value]) -> Vec<String> {
    of_type(messages, "state")
        .iter()
        .flat_map(|m| m["events"].as_array().unwrap().clone())
        .map(|e| e.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn an_order_counts_at_the_ms_it_is_read_and_the_state_carries_its_times() {
    let mut h = Harness::new(false);
    let started = h.start(300, 4);
    assert_eq!(started[0]["type"], "started");
    assert_eq!(started[0]["roger"], "black");
    assert_eq!(started[0]["tick_ms"], 300);
    assert_eq!(started[0]["reaction_ms"], DEFAULT_REACTION_MS);
    assert_eq!(started[0]["skill"], DEFAULT_SKILL);
    let first = of_type(&started, "state");
    assert_eq!(first.len(), 1, "{started:?}");
    assert_eq!(first[0]["now"], 0);
    assert_eq!(first[0]["pieces"].as_array().unwrap().len(), 32);

    h.at(250);
    let answer = h.send(json!({ "type": "order", "order": "g1f3" }));
    assert_eq!(events(&answer), ["250 start white g1f3"]);
    let state = of_type(&answer, "state")[0];
    assert_eq!(
        state["moving"],
        json!([{ "id": 6, "letter": "N", "from": "g1", "to": "f3", "start": 250,
                 "arrive": 850, "holds": "g1" }])
    );
    // It lands at start + 2 ticks, sits out 4 ticks and is ready at 2050.
    let landed = h.at(900);
    assert_eq!(events(&landed), ["850 arrive white knight f3"]);
    let state = of_type(&landed, "state")[0];
    assert_eq!(state["now"], 900);
    assert_eq!(state["moving"], json!([]));
    assert_eq!(
        state["delays"],
        json!([{ "id": 6, "square": "f3", "until": 2050 }])
    );
    let ready = h.at(2100);
    assert_eq!(events(&ready), ["2050 ready white knight f3"]);
    assert_eq!(of_type(&ready, "state")[0]["delays"], json!([]));
}

#[test]
fn roger_starts_its_orders_at_its_decisions() {
    let mut h = Harness::new(false);
    h.script.lock().unwrap().push((400, "e7e5"));
    h.start(300, 4);
    // Roger decides every DEFAULT_REACTION_MS: at 0 (nothing to play yet), then not before
    // the next decision.
    let due = DEFAULT_REACTION_MS;
    assert!(events(&h.at(due - 10)).is_empty());
    assert_eq!(
        events(&h.at(due + 20)),
        [format!("{} start black e7e5", due + 20)]
    );
}

#[test]
fn roger_s_planner_moves_by_itself() {
    let mut h = Harness::new(true);
    let started = h.send(
        json!({ "type": "start", "side": "white", "tick_ms": 100, "delay_ticks": 2,
                                 "reaction_ms": 100, "skill": 20 }),
    );
    assert_eq!(started[0]["skill"], 20);
    let mut told = Vec::new();
    for ms in (0..=3000).step_by(20) {
        told.extend(events(&h.at(ms)));
    }
    assert!(told.iter().any(|e| e.contains(" start black ")), "{told:?}");
}

#[test]
fn the_state_is_told_on_events_and_at_least_every_heartbeat() {
    let mut h = Harness::new(false);
    h.start(1000, 10);
    assert!(h.at(100).is_empty());
    assert!(h.at(249).is_empty());
    let beat = h.at(250);
    assert_eq!(of_type(&beat, "state").len(), 1);
    assert_eq!(beat[0]["now"], 250);
    assert!(h.at(260).is_empty());
}

#[test]
fn targets_come_from_the_rules() {
    let mut h = Harness::new(false);
    h.start(300, 4);
    let answer = h.send(json!({ "type": "select", "square": "g1" }));
    let targets = of_type(&answer, "targets")[0];
    assert_eq!(targets["targets"], json!(["f3", "h3"]));
    assert_eq!(targets["refusal"], Value::Null);
    let answer = h.send(json!({ "type": "select", "square": "e7" }));
    let targets = of_type(&answer, "targets")[0];
    assert_eq!(targets["targets"], json!([]));
    assert_eq!(targets["rule"], "not-a-move");
    // A piece in its delay: rule 1, and the same when ordered.
    h.send(json!({ "type": "order", "order": "g1f3" }));
    h.at(700);
    let answer = h.send(json!({ "type": "select", "square": "f3" }));
    let targets = of_type(&answer, "targets")[0];
    assert_eq!(targets["rule"], "not-ready");
    assert!(targets["refusal"]
        .as_str()
        .unwrap()
        .starts_with("rule 1 (not ready)"));
}

#[test]
fn a_refused_order_is_told_and_changes_nothing() {
    let mut h = Harness::new(false);
    h.start(300, 4);
    h.send(json!({ "type": "order", "order": "g1f3" }));
    h.at(700);
    let before = h.session.live.as_ref().unwrap().game.state.clone();
    let answer = h.send(json!({ "type": "order", "order": "f3e5" }));
    let refused = of_type(&answer, "refused");
    assert_eq!(refused.len(), 1, "{answer:?}");
    assert_eq!(refused[0]["rule"], "not-ready");
    assert_eq!(refused[0]["ms"], 700);
    assert_eq!(h.session.live.as_ref().unwrap().game.state, before);
}

#[test]
fn bad_messages_are_errors_and_the_game_goes_on() {
    let mut h = Harness::new(false);
    let error = |messages: Vec<Value>| -> String {
        let errors = of_type(&messages, "error");
        assert_eq!(errors.len(), 1, "{messages:?}");
        errors[0]["error"].as_str().unwrap().to_string()
    };
    assert!(error(h.send(json!({ "type": "order", "order": "e2e4" }))).contains("no game yet"));
    for (start, needle) in [
        (
            json!({ "type": "start", "side": "red" }),
            "start: unknown variant `red`",
        ),
        (
            json!({ "type": "start", "tick_ms": 5 }),
            "tick_ms 5 is outside",
        ),
        (
            json!({ "type": "start", "tick_ms": -5 }),
            "start: invalid value: integer `-5`",
        ),
        (
            json!({ "type": "start", "delay_ticks": "x" }),
            "start: invalid type: string \"x\"",
        ),
        (
            json!({ "type": "start", "tick_ms": 1e300 }),
            "start: invalid type: floating point",
        ),
        (
            json!({ "type": "start", "opponent": "magnus" }),
            "start: unknown variant `magnus`",
        ),
        (
            json!({ "type": "start", "reaction_ms": 1 }),
            "reaction_ms 1",
        ),
        (
            json!({ "type": "start", "skill": 21 }),
            "skill 21 is outside 0..=20",
        ),
        (
            json!({ "type": "start", "side": 5 }),
            "start: invalid type: integer `5`",
        ),
        (
            json!({ "type": "start", "tick": 100 }),
            "start: unknown field `tick`",
        ),
        (
            json!({ "type": "start", "tick_ms": 5_000_000_000u64 }),
            "tick_ms 5000000000",
        ),
        (
            json!({ "type": "start", "tick_ms": 2.5 }),
            "start: invalid type: floating point `2.5`",
        ),
        (
            json!({ "type": "start", "no_capture_draw_ticks": 0 }),
            "no_capture_draw",
        ),
    ] {
        assert!(error(h.send(start.clone())).contains(needle), "{start}");
    }
    assert!(h.session.live.is_none());
    h.start(300, 4);
    h.send(json!({ "type": "order", "order": "e2e4" }));
    let before = h.session.live.as_ref().unwrap().game.state.clone();
    for (message, needle) in [
        (json!({ "type": "order" }), "order: missing field `order`"),
        (
            json!({ "type": "order", "order": 7 }),
            "order: invalid type: integer `7`",
        ),
        (json!({ "type": "order", "order": "e2e9" }), "not an order"),
        (json!({ "type": "select", "square": "z9" }), "not a square"),
        (json!({ "type": "order", "order": "e7e8n" }), "queen only"),
        (
            json!({ "type": "order", "order": "é".repeat(10_000) }),
            "not an order",
        ),
        (json!({ "type": "select", "square": "" }), "not a square"),
        (
            json!({ "type": "select", "square": "e2e4" }),
            "not a square",
        ),
        (
            json!({ "type": "select", "square": ["e2"] }),
            "select: invalid type: sequence",
        ),
        (json!({ "type": "dance" }), "unknown message type \"dance\""),
        (json!({ "type": "" }), "unknown message type"),
    ] {
        assert!(error(h.send(message.clone())).contains(needle), "{message}");
    }
    let live = h.session.live.as_ref().unwrap();
    assert_eq!(live.game.state, before);
    assert_eq!(live.game.orders.len(), 1);
}

#[test]
fn a_resignation_ends_the_game_and_the_last_state_says_so() {
    let mut h = Harness::new(false);
    h.start(300, 4);
    h.at(500);
    let answer = h.send(json!({ "type": "resign" }));
    let state = of_type(&answer, "state")[0];
    assert_eq!(state["result"]["result"], "0-1");
    assert_eq!(state["result"]["reason"], "resignation");
    assert_eq!(state["result"]["winner"], "black");
    assert_eq!(events(&answer), ["500 end 0-1 resignation"]);
    // Nothing more is told, and orders are refused as the game is over.
    assert!(h.at(5000).is_empty());
    let answer = h.send(json!({ "type": "order", "order": "e2e4" }));
    assert_eq!(of_type(&answer, "refused")[0]["rule"], "game-over");
    // A new game starts afresh.
    let again = h.start(300, 4);
    assert_eq!(of_type(&again, "state")[0]["result"], Value::Null);
}
