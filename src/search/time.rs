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
const DEFAULT_MOVES_TO_GO: u32 = 30;
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
        assert!(soft > ms(300) && soft < ms(500), "{soft:?}");
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
}
