//! Criterion benchmark of the realtime chess simulator's throughput: events per second over
//! seeded random games. `replay` times the simulator alone (orders applied at their recorded
//! ms, time advanced from change to change); `play` adds what a referee does at each 100 ms poll
//! (each side's `orders`, a random pick, `apply`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use roger::rules::realtime::{Color, Event, Ms, Order, RealtimeParams, RealtimeState};
use std::hint::black_box;

/// A small seeded generator (splitmix64), so the games repeat.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A game's orders: when, whose, what.
type Orders = Vec<(Ms, Color, Order)>;

const POLL_MS: Ms = 100;
const GAMES: u64 = 8;
/// A game stops here if it has not ended (the standard no-capture draw is at 300 s).
const LIMIT_MS: Ms = 600_000;

/// Plays one random game, polling both sides every 100 ms; returns its orders and event count.
fn play(seed: u64, params: RealtimeParams) -> (Orders, usize) {
    let mut random = Random(seed);
    let mut state = RealtimeState::start(params);
    let mut events: Vec<Event> = Vec::new();
    let mut orders = Vec::new();
    while state.outcome().is_none() && state.now() < LIMIT_MS {
        for color in [Color::White, Color::Black] {
            let choices = state.orders(color);
            // Order about once a second per side, like a brisk player.
            if !choices.is_empty() && random.below(10) == 0 {
                let order = choices[random.below(choices.len())];
                state
                    .apply(color, order, &mut events)
                    .expect("a listed order starts");
                orders.push((state.now(), color, order));
            }
        }
        state.advance_to(state.now() + POLL_MS, &mut events);
    }
    (orders, events.len())
}

/// Replays recorded orders: the simulator alone.
fn replay(orders: &[(Ms, Color, Order)], params: RealtimeParams) -> usize {
    let mut state = RealtimeState::start(params);
    let mut events = Vec::new();
    for &(ms, color, order) in orders {
        state.advance_to(ms, &mut events);
        let _ = state.apply(color, order, &mut events);
    }
    state.advance_to(LIMIT_MS, &mut events);
    events.len()
}

fn simulator(c: &mut Criterion) {
    for (name, tick_ms) in [("standard tick", 1000), ("tick 100", 100)] {
        let params = RealtimeParams {
            tick_ms,
            ..RealtimeParams::default()
        };
        let games: Vec<(Orders, usize)> = (0..GAMES).map(|seed| play(seed, params)).collect();
        let events: usize = games.iter().map(|(_, count)| count).sum();
        let mut group = c.benchmark_group(format!("realtime {name}"));
        group.throughput(Throughput::Elements(events as u64));
        group.bench_function("replay (events)", |b| {
            b.iter(|| {
                let total: usize = games
                    .iter()
                    .map(|(orders, _)| replay(black_box(orders), params))
                    .sum();
                assert_eq!(total, events);
            })
        });
        group.bench_function("play with orders every 100 ms (events)", |b| {
            b.iter(|| {
                let total: usize = (0..GAMES).map(|seed| play(black_box(seed), params).1).sum();
                assert_eq!(total, events);
            })
        });
        group.finish();
    }
}

/// Cloning and listing orders, what a planner does thousands of times per decision.
fn planner_primitives(c: &mut Criterion) {
    let params = RealtimeParams::default();
    let (orders, _) = play(3, params);
    let mut state = RealtimeState::start(params);
    let mut events = Vec::new();
    for &(ms, color, order) in orders.iter().take(orders.len() / 2) {
        state.advance_to(ms, &mut events);
        let _ = state.apply(color, order, &mut events);
    }
    let mut group = c.benchmark_group("realtime state");
    group.bench_function("clone", |b| b.iter(|| black_box(&state).clone()));
    group.bench_function("orders (both sides)", |b| {
        b.iter(|| black_box(&state).orders(Color::White).len() + state.orders(Color::Black).len())
    });
    group.bench_function("next_change + advance_to", |b| {
        b.iter(|| {
            let mut copy = black_box(&state).clone();
            let mut events = Vec::new();
            if let Some(next) = copy.next_change() {
                copy.advance_to(next, &mut events);
            }
            events.len()
        })
    });
    group.finish();
}

criterion_group!(benches, simulator, planner_primitives);
criterion_main!(benches);
