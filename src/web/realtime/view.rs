//! What the page is told: the game at one millisecond as JSON (standing pieces, moving pieces
//! with their times, delays, the new events, the result), and the squares a selected piece may be
//! ordered to. The page draws from this alone; it never works out a rule itself.

use crate::arena::referee::realtime::timeline::{outcome_detail, reason_name};
use crate::board::Square;
use crate::rules::realtime::{Color, Event, Motion, Order, Outcome, RealtimeState, Refusal};
use serde_json::{json, Value};

fn name(square: Square) -> String {
    square.name(8)
}

/// The `state` message: the game at `state.now()`, with the events not told before.
pub fn state_message(state: &RealtimeState, new_events: &[Event]) -> Value {
    let now = state.now();
    let mut pieces = Vec::new();
    let mut moving = Vec::new();
    let mut delays = Vec::new();
    for unit in state.units() {
        let letter = unit.piece.letter().to_string();
        match unit.motion {
            Motion::Standing {
                square, ready_at, ..
            } => {
                pieces.push(json!({ "id": unit.id, "letter": letter, "square": name(square) }));
                if ready_at > now {
                    delays
                        .push(json!({ "id": unit.id, "square": name(square), "until": ready_at }));
                }
            }
            Motion::Moving {
                from,
                to,
                start,
                arrive,
            } => moving.push(json!({
                "id": unit.id,
                "letter": letter,
                "from": name(from),
                "to": name(to),
                "start": start,
                "arrive": arrive,
                // The square it holds for collisions now; none for a knight in the air.
                "holds": state.occupied_square(unit, now).map(name),
            })),
        }
    }
    json!({
        "type": "state",
        "now": now,
        "pieces": pieces,
        "moving": moving,
        "delays": delays,
        "events": new_events.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "result": state.outcome().map(result),
        "text": state.text(),
    })
}

/// A finished game for the page: `1-0`, the reason's name, the winner and a sentence.
pub fn result(outcome: Outcome) -> Value {
    json!({
        "result": outcome.result(),
        "reason": reason_name(outcome.reason),
        "winner": outcome.winner.map(Color::name),
        "text": outcome_detail(outcome),
    })
}

/// The `targets` message for `color`'s piece on `square`: the squares an order from there may
/// go to now, or, when there are none, why.
pub fn targets_message(state: &RealtimeState, color: Color, square: Square) -> Value {
    let mut targets: Vec<String> = state
        .orders(color)
        .into_iter()
        .filter(|order| order.from == square)
        .map(|order| name(order.to))
        .collect();
    targets.sort();
    targets.dedup();
    let refusal = if targets.is_empty() {
        Some(why_none(state, color, square))
    } else {
        None
    };
    json!({
        "type": "targets",
        "square": name(square),
        "now": state.now(),
        "targets": targets,
        "refusal": refusal.as_ref().map(ToString::to_string),
        "rule": refusal.as_ref().map(Refusal::name),
    })
}

/// Why no order may start from `square`: the rules' own refusal for a missing, moving or delayed
/// piece (checked before any destination), else that the piece has nowhere to go.
fn why_none(state: &RealtimeState, color: Color, square: Square) -> Refusal {
    let standing_ready = state
        .unit_on(square)
        .is_some_and(|unit| unit.piece.color == color && unit.ready(state.now()));
    if standing_ready {
        return Refusal::NotAMove(format!("nothing may start from {} now", name(square)));
    }
    let probe = Order {
        from: square,
        to: square,
    };
    match state.check(color, probe) {
        Err(refusal) => refusal,
        Ok(()) => Refusal::NotAMove(format!("nothing may start from {} now", name(square))),
    }
}

/// The `refused` message: the order, the ms it was judged at and the rules' reason.
pub fn refused_message(text: &str, ms: u64, refusal: &Refusal) -> Value {
    json!({
        "type": "refused",
        "order": text,
        "ms": ms,
        "refusal": refusal.to_string(),
        "rule": refusal.name(),
    })
}
