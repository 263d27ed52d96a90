//! Time management: how long to think, from the clock fields of `go`.

use super::Limits;
use std::time::Duration;

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Past this, start no new iteration (checked between iterations).
    pub soft: Option<Duration>,
    /// Past this, stop at once (checked inside the search).
    pub hard: Option<Duration>,
}

/// Moves we expect still to play when the GUI does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u32 = 18;
/// Thinking time never goes below this, so the search always has time for depth 1.
const MINIMUM: Duration = Duration::from_millis(1);

pub fn budget(limits: &Limits) -> Budget {
    let overhead = limits.move_overhead;
    if limits.infinite {
        return Budget {
            soft: None,
            hard: None,
        };
    }
    if let Some(movetime) = limits.movetime {
        // Answer by `movetime` minus the overhead, keeping at least half the time to think.
        let hard = movetime
            .saturating_sub(overhead)
            .max(movetime / 2)
            .max(MINIMUM);
        // No soft limit: `movetime` asks for that much thinking, not for a guess of it.
        return Budget {
            soft: None,
            hard: Some(hard),
        };
    }
    let Some(clock) = limits.clock else {
        return Budget {
            soft: None,
            hard: None,
        };
    };
    let moves_to_go = clock
        .moves_to_go
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, 60);
    let available = clock.time.saturating_sub(overhead);
    let increment = clock.increment;
    // Spend an even share of what is left plus most of the increment, never more than a set
    // part of the clock (all but a margin when this is the last move before the time control).
    let cap = if moves_to_go == 1 {
        available.mul_f64(0.8)
    } else {
        available.mul_f64(0.4)
    };
    let soft = (available / moves_to_go + increment.mul_f64(0.75)).min(cap);
    let hard = (soft * 4).min(if moves_to_go == 1 {
        available.mul_f64(0.9)
    } else {
        available.mul_f64(0.6)
    });
    Budget {
        soft: Some(soft.max(MINIMUM)),
        hard: Some(hard.max(soft).max(MINIMUM)),
    }
}

/// How settled the root is, from one completed iteration to the next: it scales the share of
/// the soft time limit after which no new iteration starts.
pub struct Stability<M> {
    best: Option<M>,
    /// Completed iterations in a row that kept the best move.
    unchanged: usize,
    /// The score of the iteration before the last one.
    previous_score: Option<i32>,
}

impl<M> Default for Stability<M> {
    fn default() -> Self {
        Stability {
            best: None,
            unchanged: 0,
            previous_score: None,
        }
    }
}

impl<M: PartialEq + Copy> Stability<M> {
    /// Records a completed iteration and returns the time scale (1 is the norm).
    pub fn update(&mut self, best: M, score: i32) -> f64 {
        const BY_UNCHANGED: [f64; 8] = [1.9, 1.45, 1.2, 1.05, 0.95, 0.85, 0.8, 0.75];
        if self.best == Some(best) {
            self.unchanged += 1;
        } else {
            self.unchanged = 0;
        }
        self.best = Some(best);
        let fall = self
            .previous_score
            .map_or(0, |before| (before - score).clamp(0, 120));
        self.previous_score = Some(score);
        BY_UNCHANGED[self.unchanged.min(BY_UNCHANGED.len() - 1)] * (1.0 + fall as f64 / 160.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_keeps_back_the_overhead() {
        let limits = Limits {
            movetime: Some(ms(1000)),
            move_overhead: ms(30),
            ..Limits::default()
        };
        assert_eq!(budget(&limits).hard, Some(ms(970)));
    }

    #[test]
    fn clock_budget_is_a_share_and_never_the_whole_clock() {
        let limits = Limits {
            clock: Some(Clock {
                time: ms(10_000),
                increment: ms(100),
                moves_to_go: None,
            }),
            move_overhead: ms(30),
            ..Limits::default()
        };
        let b = budget(&limits);
        let soft = b.soft.unwrap();
        let hard = b.hard.unwrap();
        // 9,970 ms over 18 moves to go, plus three quarters of the increment.
        assert!(soft > ms(550) && soft < ms(700), "{soft:?}");
        assert!(hard >= soft && hard <= ms(6000), "{hard:?}");
        let short = Limits {
            clock: Some(Clock {
                time: ms(20),
                increment: ms(0),
                moves_to_go: Some(1),
            }),
            move_overhead: ms(30),
            ..Limits::default()
        };
        assert_eq!(budget(&short).hard, Some(MINIMUM));
    }

    #[test]
    fn a_settled_best_move_spends_less_and_a_falling_score_more() {
        let mut stability = Stability::default();
        let first = stability.update(1u8, 30);
        let mut settled = first;
        for _ in 0..6 {
            settled = stability.update(1u8, 30);
        }
        assert!(settled < 1.0 && settled < first, "{first} {settled}");
        let changed = stability.update(2u8, 30);
        assert!(changed > 1.5, "{changed}");
        let mut steady = Stability::default();
        steady.update(1u8, 0);
        let level = steady.update(1u8, 0);
        let mut falling = Stability::default();
        falling.update(1u8, 0);
        let fall = falling.update(1u8, -100);
        assert!(fall > level * 1.5, "{fall} vs {level}");
    }
}
