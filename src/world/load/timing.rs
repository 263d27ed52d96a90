//! When each turn's `turn` messages arrived, gathered from every client of a load run: how
//! long after the turn began the last client heard of it.
//!
//! The clients cannot see the server's clock, but every `turn` message says how long the turn
//! has left (`deadline_ms`), so `arrival - (turn_ms - deadline_ms)` is the turn's start plus
//! that message's time in transit. The smallest of these over all clients is the turn's start
//! to within the fastest message's transit (well under a millisecond on loopback), and the
//! delay of the turn is the last arrival less that start.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One turn as the clients saw it, in microseconds since the run's origin.
#[derive(Clone, Copy, Debug)]
struct TurnSeen {
    /// The earliest estimate of the turn's start.
    start_us: i64,
    /// The last `turn` message's arrival.
    last_arrival_us: i64,
    messages: u64,
}

/// Every client's `turn` arrivals, shared by the clients of a run.
pub struct TurnTimes {
    origin: Instant,
    turns: Mutex<BTreeMap<u64, TurnSeen>>,
    /// The turns in which clients' kings were taken: from the next turn on they hear no more.
    eliminations: Mutex<Vec<u64>>,
}

/// The delays of a run's turns, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnDelays {
    /// Turns heard of by every client.
    pub turns: usize,
    /// Turns some client did not hear of, and the fewest clients that heard of one.
    pub partial: usize,
    pub fewest_heard: u64,
    pub median_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// From the first turn's start to the last one's, in seconds.
    pub span_s: f64,
}

impl TurnTimes {
    pub fn new(origin: Instant) -> TurnTimes {
        TurnTimes {
            origin,
            turns: Mutex::new(BTreeMap::new()),
            eliminations: Mutex::new(Vec::new()),
        }
    }

    /// A `turn` message of `turn` arrived at `arrival`, saying `left` of a `turn_length` turn.
    pub fn arrived(&self, turn: u64, arrival: Instant, left: Duration, turn_length: Duration) {
        let arrival_us = arrival.saturating_duration_since(self.origin).as_micros() as i64;
        let spent = turn_length.saturating_sub(left).as_micros() as i64;
        let start_us = arrival_us - spent;
        let mut turns = self
            .turns
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let seen = turns.entry(turn).or_insert(TurnSeen {
            start_us,
            last_arrival_us: arrival_us,
            messages: 0,
        });
        seen.start_us = seen.start_us.min(start_us);
        seen.last_arrival_us = seen.last_arrival_us.max(arrival_us);
        seen.messages += 1;
    }

    /// A client's king was taken in `turn`: it hears of no later turn.
    pub fn eliminated(&self, turn: u64) {
        self.eliminations
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(turn);
    }

    /// The earliest turn's start, after the origin; `None` before any `turn` arrived.
    pub fn first_start(&self) -> Option<Duration> {
        let turns = self
            .turns
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let first = turns.values().next()?;
        Some(Duration::from_micros(first.start_us.max(0) as u64))
    }

    /// The delays of the turns that every one of `clients` still in the game heard of (a turn
    /// some client missed, the one in progress at the end say, has no last arrival to speak of).
    pub fn delays(&self, clients: u64) -> TurnDelays {
        let turns = self
            .turns
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let eliminations = self
            .eliminations
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let playing = |turn: u64| {
            let out = eliminations.iter().filter(|&&taken| taken < turn).count() as u64;
            clients.saturating_sub(out)
        };
        let complete: Vec<&TurnSeen> = turns
            .iter()
            .filter(|(&turn, seen)| seen.messages >= playing(turn))
            .map(|(_, seen)| seen)
            .collect();
        let mut delays: Vec<f64> = complete
            .iter()
            .map(|seen| (seen.last_arrival_us - seen.start_us) as f64 / 1000.0)
            .collect();
        delays.sort_by(f64::total_cmp);
        let span_s = match (complete.first(), complete.last()) {
            (Some(first), Some(last)) => (last.start_us - first.start_us) as f64 / 1e6,
            _ => 0.0,
        };
        let partial: Vec<u64> = turns
            .iter()
            .filter(|(&turn, seen)| seen.messages < playing(turn))
            .map(|(_, seen)| seen.messages)
            .collect();
        TurnDelays {
            turns: delays.len(),
            partial: partial.len(),
            fewest_heard: partial.iter().copied().min().unwrap_or(clients),
            median_ms: percentile(&delays, 0.5),
            p99_ms: percentile(&delays, 0.99),
            max_ms: delays.last().copied().unwrap_or(0.0),
            span_s,
        }
    }
}

/// The value below which `fraction` of the sorted `values` lie (nearest rank); 0 when empty.
fn percentile(sorted: &[f64], fraction: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (fraction * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_starts_at_its_earliest_estimate_and_ends_at_its_last_arrival() {
        let origin = Instant::now();
        let times = TurnTimes::new(origin);
        let length = Duration::from_millis(1000);
        let at = |ms| origin + Duration::from_millis(ms);
        // Turn 1 began at 100 ms: one client heard at 102 ms (998 left), one at 130 (990 left:
        // written 10 ms into the turn, 20 ms in transit).
        times.arrived(1, at(102), Duration::from_millis(998), length);
        times.arrived(1, at(130), Duration::from_millis(990), length);
        // Turn 2 began at 501 ms (the earlier arrival, with the whole turn left); the last
        // heard 3 ms later.
        times.arrived(2, at(504), Duration::from_millis(1000), length);
        times.arrived(2, at(501), Duration::from_millis(1000), length);
        // Turn 3: only one of the two clients heard of it.
        times.arrived(3, at(900), Duration::from_millis(1000), length);
        let delays = times.delays(2);
        assert_eq!(delays.turns, 2);
        assert_eq!((delays.partial, delays.fewest_heard), (1, 1));
        assert!((delays.max_ms - 30.0).abs() < 0.01, "{delays:?}");
        assert!((delays.p99_ms - 30.0).abs() < 0.01);
        assert!((delays.median_ms - 3.0).abs() < 0.01);
        assert!((delays.span_s - 0.401).abs() < 0.0001);
        // The other client's king was taken in turn 2: turn 3 was heard by every client left.
        times.eliminated(2);
        let delays = times.delays(2);
        assert_eq!((delays.turns, delays.partial), (3, 0));
        // Taken in turn 3 instead, it should have heard of turn 3.
        let times = TurnTimes::new(origin);
        times.arrived(3, at(900), Duration::from_millis(1000), length);
        times.eliminated(3);
        assert_eq!(times.delays(2).partial, 1);
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let values: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&values, 0.99), 198.0);
        assert_eq!(percentile(&values, 0.5), 100.0);
        assert_eq!(percentile(&[], 0.99), 0.0);
        assert_eq!(percentile(&[7.0], 0.99), 7.0);
    }
}
