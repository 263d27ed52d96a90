//! What the Megachess planner spends on a turn: wall time, or a count of judged moves when the
//! turn is given a fixed amount of work (`go nodes`). With work, a turn is the same on any
//! machine and under any load, as a search with a node limit is: what self-play tests need.
//!
//! Both are read as units on one meter (nanoseconds since planning began, or moves judged), so
//! the planner's arithmetic on what is left (a share for the first plan, an eighth for each
//! inner plan, as many judgements as a step can afford) is the same for both.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// A turn's meter.
pub struct Meter {
    started: Instant,
    /// Moves judged so far, when the turn is limited by work.
    judged: Option<Cell<u64>>,
}

impl Meter {
    /// Measures wall time, in nanoseconds.
    pub fn wall() -> Meter {
        Meter {
            started: Instant::now(),
            judged: None,
        }
    }

    /// Measures work: the moves judged.
    pub fn work() -> Meter {
        Meter {
            started: Instant::now(),
            judged: Some(Cell::new(0)),
        }
    }

    /// When planning began.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Units spent so far.
    pub fn now(&self) -> u64 {
        match &self.judged {
            Some(judged) => judged.get(),
            None => self.started.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64,
        }
    }

    /// Counts `moves` judged (the wall meter counts time by itself).
    #[inline]
    pub fn charge(&self, moves: u64) {
        if let Some(judged) = &self.judged {
            judged.set(judged.get() + moves);
        }
    }

    /// What one judgement is assumed to cost before any is measured.
    pub fn first_judge_cost(&self) -> u64 {
        match self.judged {
            Some(_) => 1,
            None => Duration::from_micros(5).as_nanos() as u64,
        }
    }

    /// The deadline `span` units from now.
    pub fn after(&self, span: u64) -> Deadline<'_> {
        Deadline {
            meter: self,
            at: self.now().saturating_add(span),
        }
    }
}

/// A point on a turn's meter that a plan must not pass.
#[derive(Clone, Copy)]
pub struct Deadline<'a> {
    meter: &'a Meter,
    at: u64,
}

impl<'a> Deadline<'a> {
    pub fn meter(&self) -> &'a Meter {
        self.meter
    }

    pub fn passed(&self) -> bool {
        self.meter.now() >= self.at
    }

    /// Units left until the deadline.
    pub fn left(&self) -> u64 {
        self.at.saturating_sub(self.meter.now())
    }

    /// The deadline a `1/divisor` share of what is left from now.
    pub fn share(&self, divisor: u64) -> Deadline<'a> {
        self.meter.after(self.left() / divisor.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_counts_judged_moves_and_deadlines_share_what_is_left() {
        let meter = Meter::work();
        let deadline = meter.after(100);
        assert_eq!((deadline.left(), deadline.passed()), (100, false));
        meter.charge(60);
        assert_eq!(deadline.left(), 40);
        let inner = deadline.share(8);
        assert_eq!(inner.left(), 5);
        meter.charge(40);
        assert!(deadline.passed() && inner.passed());
        assert_eq!(meter.first_judge_cost(), 1);
    }

    #[test]
    fn the_wall_meter_counts_time_and_ignores_charges() {
        let meter = Meter::wall();
        let deadline = meter.after(Duration::from_secs(3600).as_nanos() as u64);
        meter.charge(1_000_000_000_000);
        assert!(!deadline.passed());
        assert!(meter.after(0).passed());
    }
}
