//! What one connection may do: a token bucket of messages, the memory of what it dropped, and
//! a log of offenders that cannot itself be flooded. The bucket is `roger serve`'s too.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How far back dropped messages count towards a flood.
const FLOOD_WINDOW: Duration = Duration::from_secs(10);
/// A connection hears `rate-limited` at most this often.
const TELL_EVERY: Duration = Duration::from_millis(500);

/// A token bucket: `rate` messages a second on average, `burst` at once.
pub struct RateLimit {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
    dropped: VecDeque<Instant>,
    told: Option<Instant>,
}

/// What to do with one message.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Take,
    /// Drop it; `tell`: say `rate-limited` (not every time).
    Drop {
        tell: bool,
    },
    /// Too many dropped: close the connection.
    Flood,
}

impl RateLimit {
    pub fn new(rate: u32, burst: u32, now: Instant) -> RateLimit {
        let burst = f64::from(burst.max(1));
        RateLimit {
            rate: f64::from(rate.max(1)),
            burst,
            tokens: burst,
            last: now,
            dropped: VecDeque::new(),
            told: None,
        }
    }

    pub fn check(&mut self, now: Instant) -> Verdict {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Verdict::Take;
        }
        while self
            .dropped
            .front()
            .is_some_and(|&at| now.saturating_duration_since(at) > FLOOD_WINDOW)
        {
            self.dropped.pop_front();
        }
        self.dropped.push_back(now);
        if self.dropped.len() as f64 > 3.0 * self.burst {
            return Verdict::Flood;
        }
        let tell = self
            .told
            .is_none_or(|at| now.saturating_duration_since(at) >= TELL_EVERY);
        if tell {
            self.told = Some(now);
        }
        Verdict::Drop { tell }
    }
}

/// Says on standard error that a connection was dropped or refused, at most 20 lines in 10 s.
pub fn log_offender(peer: &str, what: &str) {
    static WINDOW: Mutex<Option<(Instant, u32)>> = Mutex::new(None);
    let Ok(mut window) = WINDOW.lock() else {
        return;
    };
    let now = Instant::now();
    let (start, count) = window.get_or_insert((now, 0));
    if now.saturating_duration_since(*start) > Duration::from_secs(10) {
        *start = now;
        *count = 0;
    }
    *count += 1;
    if *count <= 20 {
        eprintln!("roger world: {peer}: {what}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_takes_a_burst_then_the_rate_and_calls_a_long_flood_a_flood() {
        let start = Instant::now();
        let mut limit = RateLimit::new(10, 5, start);
        let taken = (0..5)
            .filter(|_| limit.check(start) == Verdict::Take)
            .count();
        assert_eq!(taken, 5);
        assert_eq!(limit.check(start), Verdict::Drop { tell: true });
        assert_eq!(limit.check(start), Verdict::Drop { tell: false });
        // A tenth of a second later one more token has come.
        let later = start + Duration::from_millis(100);
        assert_eq!(limit.check(later), Verdict::Take);
        let mut verdict = Verdict::Take;
        for _ in 0..20 {
            verdict = limit.check(later);
        }
        assert_eq!(verdict, Verdict::Flood);
    }
}
