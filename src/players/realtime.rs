//! The reference players of realtime chess: a random one, and a greedy rate-limited one that stands
//! for today's realtime chess bots (kfchess's BasicBot and its kind): a one-order picker that
//! scores each order on the board as it stands and moves at a fixed rate.

use crate::common::Rng;
use crate::options::{spin_value, OptionKind, OptionSpec, OptionValue};
use crate::plan::realtime::view::{promoted, rank, strikes_from, value, View, EMPTY};
use crate::plan::RealtimePlayer;
use crate::rules::realtime::{Color, Kind, Ms, Order, Piece, RealtimeState};
use std::time::Duration;

pub const RANDOM_CHANCE: &str = "RandomChance";
pub const GREEDY_RATE: &str = "GreedyRate";
pub const GREEDY_WIDTH: &str = "GreedyWidth";

fn spin(name: &'static str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Spin { default, min, max },
    }
}

/// At each decision starts, with `RandomChance` percent, a uniformly random order of those it may
/// start now; otherwise waits.
pub struct RandomRealtimePlayer {
    rng: Rng,
    chance_percent: u64,
}

impl RandomRealtimePlayer {
    pub const DEFAULT_CHANCE: i64 = 20;

    pub fn new(seed: u64) -> RandomRealtimePlayer {
        RandomRealtimePlayer {
            rng: Rng::new(seed),
            chance_percent: Self::DEFAULT_CHANCE as u64,
        }
    }
}

impl RealtimePlayer for RandomRealtimePlayer {
    fn name(&self) -> String {
        "random".to_string()
    }
    fn options(&self) -> Vec<OptionSpec> {
        vec![spin(RANDOM_CHANCE, Self::DEFAULT_CHANCE, 0, 100)]
    }
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        let (_, chance) = spin_value(&self.options(), name, value)?;
        self.chance_percent = chance as u64;
        Ok(())
    }
    fn decide(&mut self, state: &RealtimeState, side: Color, _budget: Duration) -> Option<Order> {
        if state.outcome().is_some() || self.rng.index(100) as u64 >= self.chance_percent {
            return None;
        }
        let orders = state.orders(side);
        (!orders.is_empty()).then(|| orders[self.rng.index(orders.len())])
    }
}

/// Starts at most one order every `GreedyRate` ticks (1: its fastest rate), whenever it may: scores
/// every order by what it takes, what it then attacks, whether the piece is attacked where it stands
/// and where it lands, how well the landing square is guarded and how far it advances, and picks at
/// random among the best `GreedyWidth`.
pub struct GreedyRealtimePlayer {
    rng: Rng,
    rate_ticks: u64,
    width: usize,
    last_order: Option<Ms>,
}

impl GreedyRealtimePlayer {
    pub const DEFAULT_RATE: i64 = 1;
    pub const DEFAULT_WIDTH: i64 = 3;

    pub fn new(seed: u64) -> GreedyRealtimePlayer {
        GreedyRealtimePlayer {
            rng: Rng::new(seed),
            rate_ticks: Self::DEFAULT_RATE as u64,
            width: Self::DEFAULT_WIDTH as usize,
            last_order: None,
        }
    }

    /// Whether its rate lets it start an order at `now`.
    fn may_order(&self, now: Ms, tick: Ms) -> bool {
        match self.last_order {
            // A clock that went back is a new game.
            Some(last) => now < last || now >= last + self.rate_ticks * tick,
            None => true,
        }
    }
}

impl RealtimePlayer for GreedyRealtimePlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }
    fn options(&self) -> Vec<OptionSpec> {
        vec![
            spin(GREEDY_RATE, Self::DEFAULT_RATE, 1, 1000),
            spin(GREEDY_WIDTH, Self::DEFAULT_WIDTH, 1, 100),
        ]
    }
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match spin_value(&self.options(), name, value)? {
            (GREEDY_RATE, rate) => self.rate_ticks = rate as u64,
            (_, width) => self.width = width as usize,
        }
        Ok(())
    }
    fn new_game(&mut self) {
        self.last_order = None;
    }
    fn decide(&mut self, state: &RealtimeState, side: Color, _budget: Duration) -> Option<Order> {
        if state.outcome().is_some() || !self.may_order(state.now(), state.params().tick()) {
            return None;
        }
        let orders = state.orders(side);
        if orders.is_empty() {
            return None;
        }
        let view = View::new(state);
        let mut scored: Vec<(i32, Order)> = orders
            .iter()
            .map(|&order| (greedy_score(&view, side, order), order))
            .collect();
        // Best first; equal scores keep the simulator's order, and the draw below is uniform.
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let pick = scored[self.rng.index(self.width.min(scored.len()))].1;
        self.last_order = Some(state.now());
        Some(pick)
    }
}

/// Whether `color` attacks `square` on `board` (by pattern, a clear path), and the cheapest such
/// attacker's value; `skip` is a square whose piece does not count.
fn cheapest_attacker(
    view: &View,
    board: &[u8; 64],
    color: Color,
    square: u8,
    skip: u8,
) -> Option<i32> {
    let mut best: Option<i32> = None;
    for (index, placed) in view.pieces.iter().enumerate() {
        if placed.piece.color != color || board[placed.square as usize] != index as u8 {
            continue;
        }
        if placed.square == skip {
            continue;
        }
        let mut hits = false;
        strikes_from(
            placed.piece,
            placed.square,
            |sq| board[sq as usize] != EMPTY,
            |t, _| hits |= t == square,
        );
        if hits {
            let v = value(placed.piece.kind);
            best = Some(best.map_or(v, |b| b.min(v)));
        }
    }
    best
}

/// The greedy player's score of an order, in centipawns.
pub fn greedy_score(view: &View, side: Color, order: Order) -> i32 {
    let (from, to) = (order.from.0, order.to.0);
    let Some(mover) = view.standing(from) else {
        return i32::MIN;
    };
    let enemy = side.flip();
    let landed: Piece = promoted(mover.piece, to);
    let worth = value(mover.piece.kind).min(1000);
    let capture = view.captured_by(side, order);

    // The board after the order, the piece standing where it lands.
    let mut after = view.board;
    let index = after[from as usize];
    after[from as usize] = EMPTY;
    after[to as usize] = index;

    let mut pressure = 0;
    strikes_from(
        landed,
        to,
        |sq| after[sq as usize] != EMPTY,
        |t, _| {
            if let Some(p) = view.at(t).filter(|_| after[t as usize] != index) {
                if p.piece.color == enemy {
                    pressure += value(p.piece.kind).min(1500) / 10;
                }
            }
        },
    );

    let attacked_here = cheapest_attacker(view, &view.board, enemy, from, EMPTY).is_some();
    let attacker_there = cheapest_attacker(view, &after, enemy, to, to);
    let guards_there = cheapest_attacker(view, &after, side, to, to).is_some();
    let risk = match attacker_there {
        Some(cheapest) if guards_there => (worth - cheapest).max(0),
        Some(_) => worth,
        None => 0,
    };
    let escape = if attacked_here { worth / 2 } else { 0 };
    let guard = if guards_there { 20 } else { 0 };
    let forward = match side {
        Color::White => rank(to) - rank(from),
        Color::Black => rank(from) - rank(to),
    } as i32;
    // Kings stay home unless they must flee.
    let step = match mover.piece.kind {
        Kind::Pawn => 10,
        Kind::King => 0,
        _ => 4,
    };
    let advance = step * forward + (value(landed.kind) - value(mover.piece.kind)).min(900);
    10 * capture + pressure + escape - risk + guard + advance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::realtime::RealtimeParams;

    fn params(tick_ms: u32) -> RealtimeParams {
        RealtimeParams {
            tick_ms,
            ..RealtimeParams::default()
        }
    }

    /// Plays `white` against `black` in lockstep every `poll` ms up to `until` ms, checking every
    /// order they give; returns the orders given, with their ms and side.
    fn play(
        white: &mut dyn RealtimePlayer,
        black: &mut dyn RealtimePlayer,
        tick_ms: u32,
        poll: Ms,
        until: Ms,
    ) -> Vec<(Ms, Color, Order)> {
        let mut state = RealtimeState::start(params(tick_ms));
        let mut events = Vec::new();
        let mut log = Vec::new();
        let mut t = 0;
        while t <= until && state.outcome().is_none() {
            state.advance_to(t, &mut events);
            for side in [Color::White, Color::Black] {
                if state.outcome().is_some() {
                    break;
                }
                let player: &mut dyn RealtimePlayer = match side {
                    Color::White => &mut *white,
                    Color::Black => &mut *black,
                };
                if let Some(order) = player.decide(&state, side, Duration::from_millis(50)) {
                    assert_eq!(state.check(side, order), Ok(()), "{order} at {t}");
                    state.apply(side, order, &mut events).unwrap();
                    log.push((t, side, order));
                }
            }
            t += poll;
        }
        log
    }

    #[test]
    fn random_orders_are_legal_and_repeat_with_the_seed() {
        let run = |seed| {
            let mut white = RandomRealtimePlayer::new(seed);
            let mut black = RandomRealtimePlayer::new(seed + 1);
            white
                .set_option(RANDOM_CHANCE, &OptionValue::Spin(60))
                .unwrap();
            play(&mut white, &mut black, 100, 100, 20_000)
        };
        let first = run(7);
        assert!(first.len() > 20, "{} orders", first.len());
        assert_eq!(first, run(7));
        assert_ne!(first, run(8));
    }

    #[test]
    fn random_with_no_chance_never_orders() {
        let mut white = RandomRealtimePlayer::new(1);
        let mut black = RandomRealtimePlayer::new(2);
        white
            .set_option("randomchance", &OptionValue::Spin(0))
            .unwrap();
        let log = play(&mut white, &mut black, 100, 100, 10_000);
        assert!(log.iter().all(|&(_, side, _)| side == Color::Black));
        assert!(white
            .set_option(RANDOM_CHANCE, &OptionValue::Spin(101))
            .is_err());
        assert!(white.set_option("Nonsense", &OptionValue::Spin(1)).is_err());
    }

    #[test]
    fn greedy_keeps_its_rate_and_repeats_with_the_seed() {
        for (rate, tick_ms) in [(1, 1000), (3, 100), (2, 250)] {
            let run = || {
                let mut white = GreedyRealtimePlayer::new(3);
                let mut black = GreedyRealtimePlayer::new(4);
                white
                    .set_option(GREEDY_RATE, &OptionValue::Spin(rate as i64))
                    .unwrap();
                play(&mut white, &mut black, tick_ms, 50, 60 * tick_ms as Ms)
            };
            let log = run();
            let white: Vec<Ms> = log
                .iter()
                .filter(|o| o.1 == Color::White)
                .map(|o| o.0)
                .collect();
            assert!(white.len() > 3, "rate {rate}: {} orders", white.len());
            for pair in white.windows(2) {
                assert!(pair[1] - pair[0] >= rate * tick_ms as Ms, "{pair:?}");
            }
            assert_eq!(log, run());
        }
    }

    #[test]
    fn greedy_takes_a_free_piece() {
        // White rook on a1 and a black queen on a8 with nothing between: width 1 takes it.
        let state = RealtimeState::from_text("q3k3/8/8/8/8/8/8/R3K3 - 0 0", params(1000)).unwrap();
        let mut greedy = GreedyRealtimePlayer::new(1);
        greedy
            .set_option(GREEDY_WIDTH, &OptionValue::Spin(1))
            .unwrap();
        let order = greedy.decide(&state, Color::White, Duration::from_millis(10));
        assert_eq!(order, Some(Order::parse("a1a8").unwrap()));
    }

    #[test]
    fn greedy_options_are_spins_with_bounds() {
        let mut greedy = GreedyRealtimePlayer::new(1);
        let names: Vec<&str> = greedy.options().iter().map(|o| o.name).collect();
        assert_eq!(names, [GREEDY_RATE, GREEDY_WIDTH]);
        assert!(greedy
            .set_option(GREEDY_RATE, &OptionValue::Spin(0))
            .is_err());
        assert!(greedy
            .set_option("greedywidth", &OptionValue::Spin(5))
            .is_ok());
        assert!(greedy
            .set_option(GREEDY_WIDTH, &OptionValue::Text("x".into()))
            .is_err());
    }
}
