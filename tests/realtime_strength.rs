//! Roger's realtime planner against the reference players, in in-process lockstep games (every
//! 100 ms of game time each side is asked; game time stands still while it thinks).
//!
//! `cargo test --release --test suite realtime_strength::` runs a short smoke match; the issue's
//! measurement (100 games each at tick 1000 and 100 ms against the greedy player at its fastest
//! rate and against random) is `cargo test --release --test suite realtime_strength:: -- --ignored
//! --nocapture` (`ROGER_RT_GAMES=n` for another number of games per match).

use roger::arena::referee::realtime::{play_lockstep, LockstepSettings};
use roger::plan::realtime::RealtimePlanner;
use roger::plan::RealtimePlayer;
use roger::players::realtime::{GreedyRealtimePlayer, RandomRealtimePlayer};
use roger::rules::realtime::{Color, RealtimeParams};
use std::time::{Duration, Instant};

const BUDGET: Duration = Duration::from_millis(30);

#[derive(Clone, Copy, Debug)]
enum Opponent {
    Greedy,
    Random,
}

impl Opponent {
    fn player(self, seed: u64) -> Box<dyn RealtimePlayer> {
        match self {
            Opponent::Greedy => Box::new(GreedyRealtimePlayer::new(seed)),
            Opponent::Random => Box::new(RandomRealtimePlayer::new(seed)),
        }
    }
}

#[derive(Debug, Default)]
struct MatchResult {
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    game_ms: u64,
    decisions: u64,
    thinking: Duration,
    slowest: Duration,
    over_budget: u64,
    /// The opponent's slowest decision and its answers over the budget: a control for the
    /// machine's own stalls (its decisions take a fraction of a millisecond of work).
    opponent_slowest: Duration,
    opponent_over_budget: u64,
    /// Orders the referee refused, from either side (a player must give only legal orders).
    refused: u64,
    wall: Duration,
}

impl MatchResult {
    fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
    }
}

/// Roger against `opponent` for `games` games, alternating colours.
fn play_match(
    opponent: Opponent,
    tick_ms: u32,
    games: u32,
    max_game_ms: Option<u64>,
) -> MatchResult {
    let began = Instant::now();
    let settings = LockstepSettings {
        params: RealtimeParams {
            tick_ms,
            ..RealtimeParams::default()
        },
        poll_ms: 100,
        budget: BUDGET,
        max_game_ms,
    };
    let mut result = MatchResult::default();
    for game in 0..games {
        let mut roger = RealtimePlanner::new();
        let mut other = opponent.player(1000 + game as u64);
        let roger_color = if game % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let played = match roger_color {
            Color::White => play_lockstep([&mut roger, other.as_mut()], &settings),
            Color::Black => play_lockstep([other.as_mut(), &mut roger], &settings),
        };
        result.games += 1;
        match played.outcome.and_then(|o| o.winner) {
            Some(w) if w == roger_color => result.wins += 1,
            Some(_) => result.losses += 1,
            None => result.draws += 1,
        }
        result.game_ms += played.end_ms;
        let stats = played.decisions[roger_color.index()];
        result.decisions += stats.count;
        result.thinking += stats.total;
        result.slowest = result.slowest.max(stats.max);
        result.over_budget += stats.over_budget;
        let control = played.decisions[roger_color.flip().index()];
        result.opponent_slowest = result.opponent_slowest.max(control.max);
        result.opponent_over_budget += control.over_budget;
        result.refused += played.orders.iter().filter(|o| o.refusal.is_some()).count() as u64;
    }
    result.wall = began.elapsed();
    println!(
        "roger vs {opponent:?} tick {tick_ms} ms: {:.1}% (+{} ={} -{}) in {} games; average game {:.1} ticks; \
         {} decisions, mean {:.2} ms, max {:.2} ms, {} over the {} ms budget (opponent: max {:.2} ms, {} over); {} refused; {:.1} s",
        100.0 * result.score(),
        result.wins,
        result.draws,
        result.losses,
        result.games,
        result.game_ms as f64 / result.games as f64 / tick_ms as f64,
        result.decisions,
        result.thinking.as_secs_f64() * 1000.0 / result.decisions.max(1) as f64,
        result.slowest.as_secs_f64() * 1000.0,
        result.over_budget,
        BUDGET.as_millis(),
        result.opponent_slowest.as_secs_f64() * 1000.0,
        result.opponent_over_budget,
        result.refused,
        result.wall.as_secs_f64(),
    );
    result
}

#[test]
fn smoke_roger_beats_greedy_and_random_in_short_games() {
    let greedy = play_match(Opponent::Greedy, 100, 2, Some(60_000));
    let random = play_match(Opponent::Random, 100, 2, Some(60_000));
    assert_eq!(greedy.refused + random.refused, 0);
    assert_eq!(greedy.losses + random.losses, 0, "{greedy:?} {random:?}");
    assert!(random.wins == 2, "{random:?}");
}

#[test]
#[ignore = "the issue's strength measurement: minutes in release"]
fn strength_against_greedy_and_random() {
    let games: u32 = std::env::var("ROGER_RT_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let mut failures = Vec::new();
    for tick_ms in [1000, 100] {
        for (opponent, needed) in [(Opponent::Greedy, 0.90), (Opponent::Random, 0.99)] {
            let result = play_match(opponent, tick_ms, games, None);
            if result.score() < needed || result.over_budget > 0 || result.refused > 0 {
                failures.push(format!("{opponent:?} at tick {tick_ms}: {result:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
