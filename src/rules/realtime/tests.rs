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

/// A small seeded generator (splitmix64), so random games repeat.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The state read back from its text behaves as the state: same text, same orders, and the same
/// events and text after the next change.
fn assert_reads_back(state: &RealtimeState) {
    let text = state.text();
    let read = RealtimeState::from_text(&text, state.params())
        .unwrap_or_else(|error| panic!("{text}: {error}"));
    assert_eq!(read.text(), text);
    assert_eq!(read.outcome(), state.outcome());
    for color in [Color::White, Color::Black] {
        assert_eq!(
            sorted(read.orders(color)),
            sorted(state.orders(color)),
            "{text}"
        );
    }
    if let Some(next) = state.next_change() {
        let (mut original, mut copy) = (state.clone(), read);
        let (mut first, mut second) = (Vec::new(), Vec::new());
        original.advance_to(next, &mut first);
        copy.advance_to(next, &mut second);
        assert_eq!(texts(&first), texts(&second), "{text}");
        assert_eq!(original.text(), copy.text(), "{text}");
    }
}

/// Random games: orders at random milliseconds, each checked against `check`, every state read
/// back from its text, and the simulator's own invariants at every step.
fn random_game(seed: u64, params: RealtimeParams, full_checks: bool) -> usize {
    let mut random = Random(seed);
    let mut state = RealtimeState::start(params);
    let mut events = Vec::new();
    let mut steps = 0;
    while state.outcome().is_none() && steps < 400 {
        steps += 1;
        if (full_checks && steps % 4 == 0) || steps % 16 == 0 {
            assert_orders_agree(&state);
        }
        assert_reads_back(&state);
        let color = if random.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let orders = state.orders(color);
        if !orders.is_empty() && random.below(3) > 0 {
            let chosen = orders[random.below(orders.len() as u64) as usize];
            let before = events.len();
            state.apply(color, chosen, &mut events).unwrap();
            assert_eq!(events.len(), before + 1);
        }
        // Advance to the next change or a random ms before it.
        let next = state.next_change().expect("a live game changes");
        assert!(next > state.now());
        let target = if random.below(2) == 0 {
            next
        } else {
            state.now() + 1 + random.below(next - state.now())
        };
        let (before, was) = (events.len(), state.now());
        state.advance_to(target, &mut events);
        for event in &events[before..] {
            assert!(
                was < event.ms && event.ms <= target,
                "{event} in ({was}, {target}]"
            );
            assert_eq!(event.to_string().parse::<Event>().as_ref(), Ok(event));
        }
        if state.outcome().is_none() {
            assert_eq!(state.now(), target);
        }
        let mut standing = 0u64;
        let mut destinations = 0u64;
        for unit in state.units() {
            match unit.motion {
                Motion::Standing { square, .. } => {
                    assert_eq!(standing & (1 << square.0), 0, "{}", state.text());
                    standing |= 1 << square.0;
                }
                Motion::Moving { to, .. } => {
                    assert_eq!(destinations & (1 << to.0), 0, "{}", state.text());
                    destinations |= 1 << to.0;
                }
            }
        }
    }
    assert_reads_back(&state);
    if std::env::var("REALTIME_SHOW").is_ok() {
        let removals = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Removed { .. }))
            .count();
        let kinds: Vec<String> = events
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::Removed { .. } | EventKind::Promoted { .. } | EventKind::Ended(_)
                )
            })
            .map(|e| e.to_string())
            .collect();
        eprintln!(
            "seed {seed}: {steps} steps, {} events, {removals} removals, now {}: {kinds:?}",
            events.len(),
            state.now()
        );
    }
    assert!(events.windows(2).all(|pair| pair[0].ms <= pair[1].ms));
    events.len()
}

#[test]
fn random_games_read_back_and_orders_agree_with_check() {
    let mut total = 0;
    for seed in 0..12 {
        total += random_game(seed, RealtimeParams::default(), seed < 2);
    }
    for (seed, tick_ms, delay_ticks) in [(100, 15, 3), (101, 100, 0), (102, 10, 1), (103, 1001, 2)]
    {
        let params = RealtimeParams {
            tick_ms,
            delay_ticks,
            no_capture_draw_ticks: 40,
        };
        total += random_game(seed, params, false);
    }
    assert!(total > 1000, "{total} events");
}
