//! Unit tests of the simulator; the rules page's cases with their milliseconds are the timeline
//! files of `tests/data/realtime/` (run by `tests/realtime_rules.rs`).

use super::*;
use crate::rules::RuleError;

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
    let mut random = crate::common::Rng::new(seed);
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
        // Advancing in pieces plays the same as advancing at once.
        let mut pieces = state.clone();
        let mut piece_events = Vec::new();
        let middle = was + 1 + random.below(target - was);
        pieces.advance_to(middle, &mut piece_events);
        pieces.advance_to(target, &mut piece_events);
        state.advance_to(target, &mut events);
        assert_eq!(texts(&piece_events), texts(&events[before..]));
        assert_eq!(pieces.text(), state.text());
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

#[test]
fn state_texts_read_back_and_the_docs_example_holds() {
    let params = RealtimeParams::default();
    for text in [
        state::START_TEXT,
        "r1bqkbnr/pppp1ppp/2n5/8/8/5N2/PPPP1PPP/RNBQKB1R KQkq 2500 0 d:f3:12000 d:c6:12000 m:P:e2e4:1000 m:p:e7e5:1200",
        "4k3/8/8/3pP3/8/8/8/4K3 - 2000 0 d:d5:12000 ep:d5:12000",
        "4k3/8/8/3p4/8/8/8/4K3 - 2000 0 d:d5:12000 ep:d5:12000 m:P:e5d6:2000:ep",
        "7r/8/8/8/8/8/8/R7 - 0 0 m:K:e1g1:0 m:R:h1f1:0 m:r:a8d8:0:castling m:k:e8c8:0",
        "8/8/8/8/8/8/8/4K3 - 6501 6501 end:1-0:king-removed",
    ] {
        let state = RealtimeState::from_text(text, params).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(state.text(), text);
    }
    let castled = RealtimeState::from_text(
        "7r/8/8/8/8/8/8/R7 - 0 0 m:K:e1g1:0 m:R:h1f1:0 m:r:a8d8:0:castling m:k:e8c8:0",
        params,
    )
    .unwrap();
    let rook = castled
        .units()
        .iter()
        .find(|unit| matches!(unit.motion, Motion::Moving { from, .. } if from == Square(56)))
        .unwrap();
    let squares: Vec<String> = [0, 500, 501, 1500, 1501, 1999, 2000]
        .iter()
        .map(|&t| square_name(castled.occupied_square(rook, t).unwrap()))
        .collect();
    assert_eq!(squares, ["a8", "a8", "b8", "b8", "c8", "c8", "d8"]);
}

/// States that do not read (`true`: malformed) or cannot happen (`false`: impossible), and a
/// piece of the error each must give.
const REFUSED_STATES: &[(&str, bool, &str)] = &[
    ("", true, "expected a placement"),
    ("4k3/8/8/8/8/8/8/4K3 -", true, "expected a placement"),
    ("4k3/8/8/8/8/8/4K3 - 0 0", true, "has 7 ranks"),
    (
        "4k3/8/8/8/8/8/8/4K2 - 0 0",
        true,
        "rank 1 '4K2' has 7 squares",
    ),
    ("4k3/8/8/8/8/8/8/4X3 - 0 0", true, "'X' in rank 1"),
    ("4k3/8/8/8/8/8/8/4K3 - x 0", true, "the clock 'x'"),
    (
        "4k3/8/8/8/8/8/8/4K3 - 99999999999999999999 0",
        true,
        "is above",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 0 m:P:e2e4:01",
        true,
        "plain decimal digits",
    ),
    ("4k3/8/8/8/8/8/8/4K2R KK 0 0", true, "names 'K' twice"),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 0 z:e4:5",
        true,
        "'z:e4:5' is not a token",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 0 m:X:e2e4:0",
        true,
        "'X' is not a piece letter",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 0 m:P:e2e9:0",
        true,
        "is not a square",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 5",
        false,
        "the last removal 5 is after the clock 0",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 K 0 0",
        false,
        "no white rook stands on h1",
    ),
    ("4k3/8/8/8/8/8/8/8 - 0 0", false, "white has 0 kings"),
    ("4k3/8/8/8/8/8/8/3KK3 - 0 0", false, "white has 2 kings"),
    (
        "4k3/8/8/8/8/8/8/P3K3 - 0 0",
        false,
        "pawns never stand on the first or last rank",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 1000 0 m:P:e2e4:1500",
        false,
        "starts at 1500, after the clock 1000",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 3000 0 m:P:e2e4:1000",
        false,
        "would have arrived at 3000",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 0 m:P:e2e5:0",
        false,
        "e2e5 is not a move of a white pawn",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 0 m:N:g1g3:0",
        false,
        "g1g3 is not a move of a white knight",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 0 m:R:a1d1:0:castling m:R:h1d1:0",
        false,
        "d1 is already the destination",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 0 0 m:R:h1e1:0",
        false,
        "where a white king of its own side stands",
    ),
    (
        "4k3/8/8/8/4p3/8/8/R3K3 - 5000 0 m:R:a4h4:1000",
        false,
        "the black pawn on e4 would already have been removed (in-move-capture)",
    ),
    (
        "4k3/8/8/8/4P3/8/8/4K3 - 1000 0 d:e5:5000",
        false,
        "no piece stands on e5",
    ),
    (
        "4k3/8/8/8/4P3/8/8/4K3 - 1000 0 d:e4:12000",
        false,
        "at most 10000 later",
    ),
    (
        "4k3/8/8/8/4P3/8/8/4K3 - 1000 0 d:e4:1000",
        false,
        "must end after the clock 1000",
    ),
    (
        "4k3/8/8/8/8/4P3/8/4K3 - 1000 0 d:e3:5000 ep:e3:5000",
        false,
        "only a pawn that arrived by a two-square move",
    ),
    (
        "4k3/8/8/8/4P3/8/8/4K3 - 1000 0 d:e4:5000 ep:e4:4000",
        false,
        "ends at 4000, not with its delay",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 - 300000 0",
        false,
        "the no-capture draw fell at 300000",
    ),
];

#[test]
fn malformed_and_impossible_states_are_refused_with_what_and_where() {
    let params = RealtimeParams::default();
    for &(text, malformed, needle) in REFUSED_STATES {
        let error = RealtimeState::from_text(text, params).expect_err(text);
        assert_eq!(
            matches!(error, RuleError::Malformed(_)),
            malformed,
            "{text}: {error}"
        );
        assert!(error.text().contains(needle), "{text}: {error}");
    }
    let bad_params = RealtimeParams {
        tick_ms: 5,
        ..params
    };
    assert!(RealtimeState::from_text(state::START_TEXT, bad_params).is_err());
}

/// Two pieces on one square: a piece still taking off (holding its from-square during
/// `[t0, t0 + T/2]`) with a piece of its side standing there, or with another piece taking off
/// from it, is refused: no game reaches it. A piece standing there once the mover has left, or a
/// piece passing through a square where an own piece stands, is a state of a game and is read.
#[test]
fn a_piece_taking_off_shares_its_square_with_no_other() {
    let params = RealtimeParams::default();
    for (text, needle) in [
        (
            "4k3/8/8/8/8/8/8/Q3K3 - 1200 0 m:R:a1a4:1000",
            "two pieces on a1 at 1200: the moving white rook started there at 1000 holds it \
             until 1500 (its take-off), and a white queen stands there",
        ),
        (
            "4k3/8/8/8/8/8/8/Q3K3 - 1500 0 m:R:a1a4:1000",
            "two pieces on a1 at 1500",
        ),
        (
            "4k3/8/8/8/8/8/8/Q7 - 1400 0 m:K:e1c1:1000 m:R:a1d1:1000:castling",
            "the moving white rook started there at 1000 holds it until 1500 (its take-off), \
             and a white queen stands there",
        ),
        (
            "4k3/8/8/8/8/8/8/4K1B1 - 1000 0 m:N:g1f3:1000",
            "two pieces on g1 at 1000: the moving white knight",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 - 1200 0 m:R:a1a4:1000 m:q:a1b2:1100",
            "and a black queen takes off from it too",
        ),
    ] {
        let error = RealtimeState::from_text(text, params).expect_err(text);
        assert!(matches!(error, RuleError::Illegal(_)), "{text}: {error}");
        assert!(error.text().contains(needle), "{text}: {error}");
    }
    for text in [
        // The rook left a1 at 1501; the queen arrived later.
        "4k3/8/8/8/8/8/8/Q3K3 - 1501 0 m:R:a1a4:1000",
        "4k3/8/8/8/8/8/8/Q3K3 - 2000 0 d:a1:12000 m:R:a1a4:1000",
        // The rook passes a5 during (4500, 5500] while the knight stands there.
        "4k3/8/8/N7/8/8/8/4K3 - 4600 0 d:a5:14600 m:R:a1a8:0",
    ] {
        let state =
            RealtimeState::from_text(text, params).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(state.text(), text);
    }
}

/// An en passant capture is settled at `t0 + floor(T/2) + 1`; the `:ep` mark is written until
/// then, and read until the pawn arrives (a referee marks the whole move): a settled mark says
/// nothing more, and the state is the one the simulator reaches.
#[test]
fn a_settled_en_passant_mark_is_read_until_the_pawn_arrives() {
    let params = RealtimeParams::default();
    let before = "4k3/8/8/8/1P6/8/8/4K3 - 39600 0 d:b4:49000 ep:b4:49000 m:p:c4b3:39500:ep";
    let mut played = RealtimeState::from_text(before, params).unwrap();
    let mut events = Vec::new();
    played.advance_to(40100, &mut events);
    assert_eq!(texts(&events), ["40001 remove white pawn b4 en-passant"]);
    assert_eq!(
        played.text(),
        "4k3/8/8/8/8/8/8/4K3 - 40100 40001 m:p:c4b3:39500"
    );
    for ms in [40001, 40100, 40499] {
        let mut at = RealtimeState::from_text(before, params).unwrap();
        at.advance_to(ms, &mut Vec::new());
        let marked = format!("4k3/8/8/8/8/8/8/4K3 - {ms} 40001 m:p:c4b3:39500:ep");
        let read = RealtimeState::from_text(&marked, params)
            .unwrap_or_else(|error| panic!("{marked}: {error}"));
        assert_eq!(read.text(), at.text(), "{marked}");
        let (mut read, mut after_read, mut after_played) = (read, Vec::new(), Vec::new());
        read.advance_to(41000, &mut after_read);
        at.advance_to(41000, &mut after_played);
        assert_eq!(texts(&after_read), texts(&after_played));
        assert_eq!(texts(&after_read), ["40500 arrive black pawn b3"]);
    }
    // Before the settle the mark still counts: the capture is yet to come.
    let unsettled = "4k3/8/8/8/1P6/8/8/4K3 - 40000 0 d:b4:49000 ep:b4:49000 m:p:c4b3:39500:ep";
    let mut state = RealtimeState::from_text(unsettled, params).unwrap();
    assert_eq!(state.text(), unsettled);
    let mut events = Vec::new();
    state.advance_to(40001, &mut events);
    assert_eq!(texts(&events), ["40001 remove white pawn b4 en-passant"]);
}

#[test]
fn after_the_end_nothing_moves() {
    let mut state = standard();
    let mut events = Vec::new();
    state
        .apply(Color::White, order("e2e4"), &mut events)
        .unwrap();
    state.resign(Color::Black, &mut events);
    state.resign(Color::White, &mut events);
    state.agree_draw(&mut events);
    assert_eq!(
        texts(&events),
        ["0 start white e2e4", "0 end 1-0 resignation"]
    );
    assert_eq!(state.next_change(), None);
    state.advance_to(50_000, &mut events);
    assert_eq!((state.now(), events.len()), (0, 2));
    assert_eq!(
        state.check(Color::Black, order("e7e5")),
        Err(Refusal::GameOver)
    );
    assert!(state.orders(Color::White).is_empty());
    assert!(state.text().ends_with(" m:P:e2e4:0 end:1-0:resignation"));
}

/// Every prefix of good state texts, and each with one character changed, reads without a panic.
#[test]
fn damaged_state_texts_never_panic() {
    let params = RealtimeParams::default();
    let texts = [
        "r1bqkbnr/pppp1ppp/2n5/8/8/5N2/PPPP1PPP/RNBQKB1R KQkq 2500 0 d:f3:12000 d:c6:12000 m:P:e2e4:1000 m:p:e7e5:1200",
        "4k3/8/8/3p4/8/8/8/4K3 - 2000 0 d:d5:12000 ep:d5:12000 m:P:e5d6:2000:ep",
        "7r/8/8/8/8/8/8/R7 - 0 0 m:K:e1g1:0 m:R:h1f1:0 m:r:a8d8:0:castling m:k:e8c8:0 end:1/2-1/2:agreed-draw",
    ];
    let mut random = crate::common::Rng::new(7);
    for text in texts {
        for end in 0..=text.len() {
            let _ = RealtimeState::from_text(&text[..end], params);
        }
        for _ in 0..300 {
            let mut bytes = text.as_bytes().to_vec();
            let at = random.below(bytes.len() as u64) as usize;
            bytes[at] = b" :/-0123456789abcdefghkmnpqrKQRBNP"[random.below(34) as usize];
            let damaged = String::from_utf8(bytes).unwrap();
            if let Ok(mut state) = RealtimeState::from_text(&damaged, params) {
                let copy = state.clone();
                assert_orders_agree(&copy);
                state.advance_to(copy.now() + 400_000, &mut Vec::new());
                let state = copy;
                assert_eq!(
                    RealtimeState::from_text(&state.text(), params).map(|s| s.text()),
                    Ok(state.text())
                );
            }
        }
    }
}

/// Where a unit is at `t`, written again from the rules page's intervals with doubled ms (an
/// independent reading, to check the simulator's).
fn page_square(unit: &Unit, t: Ms, tick: Ms) -> Option<u8> {
    let (from, to, start, arrive) = match unit.motion {
        Motion::Standing { square, .. } => return Some(square.0),
        Motion::Moving {
            from,
            to,
            start,
            arrive,
        } => (from.0 as i64, to.0 as i64, start, arrive),
    };
    if t >= arrive {
        return Some(to as u8);
    }
    let doubled = 2 * (t - start);
    let (df, dr) = (to % 8 - from % 8, to / 8 - from / 8);
    if unit.piece.kind == Kind::Knight && df.abs() + dr.abs() == 3 && df != 0 && dr != 0 {
        return if doubled <= tick {
            Some(from as u8)
        } else if doubled > 3 * tick {
            Some(to as u8)
        } else {
            None
        };
    }
    let step = df.signum() + 8 * dr.signum();
    let squares = df.abs().max(dr.abs()) as Ms;
    if unit.piece.kind == Kind::Rook && squares == 3 && arrive - start == 2 * tick {
        let k = if doubled <= tick {
            0
        } else if doubled <= 3 * tick {
            1
        } else {
            2
        };
        return Some((from + k * step) as u8);
    }
    (0..=squares)
        .find(|&k| {
            let low = if k == 0 { 0 } else { (2 * k - 1) * tick };
            (k == 0 || low < doubled) && doubled <= (2 * k + 1) * tick
        })
        .map(|k| (from + k as i64 * step) as u8)
        .or(Some(to as u8))
}

/// Random games stepped one ms at a time: at every ms the simulator's occupancy matches the
/// page's intervals, and after each ms no two pieces of different colours share a square unless
/// both are moving and started at the same ms (a double dodge) — so no collision was missed
/// between the milliseconds the simulator jumps to.
#[test]
fn stepping_every_ms_finds_no_missed_collision() {
    for (seed, tick_ms, delay_ticks, length) in
        [(1, 1000, 2, 40_000), (2, 15, 1, 3000), (3, 100, 0, 8000)]
    {
        let params = RealtimeParams {
            tick_ms,
            delay_ticks,
            no_capture_draw_ticks: 300,
        };
        let tick = params.tick();
        let mut random = crate::common::Rng::new(seed);
        let mut state = RealtimeState::start(params);
        let mut events = Vec::new();
        let mut removals = 0;
        for t in 1..length {
            state.advance_to(t, &mut events);
            if state.outcome().is_some() {
                break;
            }
            for color in [Color::White, Color::Black] {
                if random.below(tick / 2 + 1) == 0 {
                    let orders = state.orders(color);
                    if !orders.is_empty() {
                        let chosen = orders[random.below(orders.len() as u64) as usize];
                        state.apply(color, chosen, &mut events).unwrap();
                    }
                }
            }
            let units = state.units();
            for (i, a) in units.iter().enumerate() {
                let square = page_square(a, t, tick);
                assert_eq!(
                    state.occupied_square(a, t).map(|s| s.0),
                    square,
                    "{t} {a:?}"
                );
                for b in &units[i + 1..] {
                    if a.piece.color == b.piece.color
                        || square.is_none()
                        || square != page_square(b, t, tick)
                    {
                        continue;
                    }
                    let dodge = matches!((a.motion, b.motion),
                        (Motion::Moving { start: x, .. }, Motion::Moving { start: y, .. }) if x == y);
                    assert!(
                        dodge,
                        "at {t}: {a:?} and {b:?} share a square in {}",
                        state.text()
                    );
                }
            }
        }
        removals += events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Removed { .. }))
            .count();
        assert!(removals > 3, "seed {seed}: {removals} removals");
    }
}
