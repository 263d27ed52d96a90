//! Unit tests of the simulator; the rules page's cases with their milliseconds are the timeline
//! files of `tests/data/realtime/` (run by `tests/realtime_rules.rs`).

use super::*;

fn order(text: &str) -> Order {
    Order::parse(text).unwrap()
}

fn standard() -> RealtimeState {
    RealtimeState::start(RealtimeParams::default())
}

/// Every order of 64 x 64 that `check` allows.
fn checked_orders(state: &RealtimeState, color: Color) -> Vec<Order> {
    let mut allowed = Vec::new();
    for from in 0..64 {
        for to in 0..64 {
            let order = Order {
                from: Square(from),
                to: Square(to),
            };
            if state.check(color, order).is_ok() {
                allowed.push(order);
            }
        }
    }
    allowed
}

fn sorted(mut orders: Vec<Order>) -> Vec<(u8, u8)> {
    let mut pairs: Vec<(u8, u8)> = orders.drain(..).map(|o| (o.from.0, o.to.0)).collect();
    pairs.sort_unstable();
    pairs
}

fn assert_orders_agree(state: &RealtimeState) {
    for color in [Color::White, Color::Black] {
        assert_eq!(
            sorted(state.orders(color)),
            sorted(checked_orders(state, color)),
            "{} in {}",
            color.name(),
            state.text()
        );
    }
}

fn texts(events: &[Event]) -> Vec<String> {
    events.iter().map(Event::to_string).collect()
}

#[test]
fn the_start_has_the_army_and_twenty_orders_a_side() {
    let state = standard();
    assert_eq!(state.units().len(), 32);
    assert_eq!(state.text(), state::START_TEXT);
    assert_eq!(state.orders(Color::White).len(), 20);
    assert_eq!(state.orders(Color::Black).len(), 20);
    assert_orders_agree(&state);
    assert_eq!(state.next_change(), Some(300_000));
    let king = state.unit_on(Square(4)).unwrap();
    assert_eq!(king.piece.kind, Kind::King);
    assert_eq!(state.unit_on(Square(20)), None);
}

#[test]
fn a_pawn_goes_two_squares_then_waits_its_delay() {
    let mut state = standard();
    let mut events = Vec::new();
    state
        .apply(Color::White, order("e2e4"), &mut events)
        .unwrap();
    assert_eq!(
        state.check(Color::White, order("e2e4")).unwrap_err().name(),
        "not-ready"
    );
    assert_eq!(
        state
            .check(Color::Black, order("e7e5"))
            .map_err(|r| r.name()),
        Ok(())
    );
    let unit = *state
        .units()
        .iter()
        .find(|u| matches!(u.motion, Motion::Moving { .. }))
        .unwrap();
    for (t, square) in [
        (0, "e2"),
        (500, "e2"),
        (501, "e3"),
        (1500, "e3"),
        (1501, "e4"),
    ] {
        assert_eq!(
            state.occupied_square(&unit, t).map(square_name).as_deref(),
            Some(square),
            "{t}"
        );
    }
    assert_eq!(state.next_change(), Some(501));
    state.advance_to(1501, &mut events);
    assert_eq!(state.next_change(), Some(2000));
    state.advance_to(20_000, &mut events);
    assert_eq!(
        texts(&events),
        [
            "0 start white e2e4",
            "2000 arrive white pawn e4",
            "12000 ready white pawn e4"
        ]
    );
    assert_eq!(state.now(), 20_000);
    assert_orders_agree(&state);
}

#[test]
fn refusals_follow_the_pages_check_order() {
    let state = standard();
    let refused = |color, text: &str| state.check(color, order(text)).unwrap_err();
    assert_eq!(
        refused(Color::White, "e3e4").to_string(),
        "not a move: no white piece on e3"
    );
    assert_eq!(
        refused(Color::White, "e7e5").to_string(),
        "not a move: no white piece on e7 (a black pawn stands there)"
    );
    assert_eq!(
        refused(Color::White, "e2e5").to_string(),
        "not a move: e2e5 is not a move of the white pawn"
    );
    assert_eq!(refused(Color::White, "f1c4").name(), "path-blocked");
    assert_eq!(
        refused(Color::White, "d1d2").to_string(),
        "rule 6 (path blocked): a white pawn stands on the destination d2"
    );
    assert_eq!(refused(Color::White, "e1g1").name(), "path-blocked");
    assert_eq!(refused(Color::White, "e2d3").name(), "pawn-rule");
}
