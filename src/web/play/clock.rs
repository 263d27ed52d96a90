//! The game's clocks, kept by the server: what the page shows is what is left here; the page
//! only counts down between messages.

use crate::rules::Color;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Clocks {
    /// Time left at the start of the running side's turn, White's first.
    left: [Duration; 2],
    increment: Duration,
    /// The side whose clock runs, and since when; `None` when stopped.
    running: Option<(Color, Instant)>,
}

impl Clocks {
    pub fn new(base: Duration, increment: Duration) -> Clocks {
        Clocks {
            left: [base; 2],
            increment,
            running: None,
        }
    }

    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// Time left for `side` now.
    pub fn left(&self, side: Color, now: Instant) -> Duration {
        match self.running {
            Some((running, since)) if running == side => {
                self.left[side.index()].saturating_sub(now.saturating_duration_since(since))
            }
            _ => self.left[side.index()],
        }
    }

    /// Both sides' time as it stands at a turn's start, for a takeback to go back to.
    pub fn snapshot(&self, now: Instant) -> [Duration; 2] {
        [self.left(Color::White, now), self.left(Color::Black, now)]
    }

    pub fn restore(&mut self, left: [Duration; 2]) {
        self.left = left;
        self.running = None;
    }

    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// Starts `side`'s clock (stopping the other one without charging it).
    pub fn start(&mut self, side: Color, now: Instant) {
        self.running = Some((side, now));
    }

    /// The running side has moved: its time is charged, the increment added, and the other
    /// side's clock starts.
    pub fn moved(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            let left = self.left(side, now);
            self.left[side.index()] = left + self.increment;
            self.running = Some((side.flip(), now));
        }
    }

    /// Stops the clocks where they stand.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.left[side.index()] = self.left(side, now);
        }
        self.running = None;
    }

    /// The side whose flag has fallen, if any.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        self.running()
            .filter(|&side| self.left(side, now).is_zero())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_side_is_charged_and_gets_its_increment() {
        let t0 = Instant::now();
        let mut clocks = Clocks::new(Duration::from_secs(10), Duration::from_secs(2));
        clocks.start(Color::White, t0);
        let t1 = t0 + Duration::from_secs(3);
        assert_eq!(clocks.left(Color::White, t1), Duration::from_secs(7));
        assert_eq!(clocks.left(Color::Black, t1), Duration::from_secs(10));
        clocks.moved(t1);
        assert_eq!(clocks.left(Color::White, t1), Duration::from_secs(9));
        assert_eq!(clocks.running(), Some(Color::Black));
        let t2 = t1 + Duration::from_secs(4);
        assert_eq!(
            clocks.snapshot(t2),
            [Duration::from_secs(9), Duration::from_secs(6)]
        );
        clocks.stop(t2);
        assert_eq!(clocks.running(), None);
        assert_eq!(
            clocks.left(Color::Black, t2 + Duration::from_secs(60)),
            Duration::from_secs(6)
        );
    }

    #[test]
    fn a_flag_falls_at_zero_and_not_before() {
        let t0 = Instant::now();
        let mut clocks = Clocks::new(Duration::from_millis(500), Duration::ZERO);
        assert_eq!(clocks.flagged(t0 + Duration::from_secs(5)), None);
        clocks.start(Color::Black, t0);
        assert_eq!(clocks.flagged(t0 + Duration::from_millis(499)), None);
        assert_eq!(
            clocks.flagged(t0 + Duration::from_millis(500)),
            Some(Color::Black)
        );
        clocks.restore([Duration::from_secs(1); 2]);
        assert_eq!(clocks.flagged(t0 + Duration::from_secs(9)), None);
    }
}
