//! Game time for the referees of games without turns. A [`VirtualClock`] stands still while the
//! engines think and moves only when the referee moves it (lockstep: repeatable games that run
//! faster than real time); a [`WallClock`] is real time from the game's start (orders count at
//! the ms the referee read them). Both count whole milliseconds from the game's start.

use crate::rules::realtime::Ms;
use std::time::{Duration, Instant};

/// A game's clock, virtual or wall.
pub trait GameClock: Send {
    /// The game's ms now.
    fn now(&self) -> Ms;
    /// The game's ms at `instant` (when a line was read). A virtual clock stands still while the
    /// engines think: it is always [`GameClock::now`].
    fn ms_at(&self, instant: Instant) -> Ms;
    /// When game time reaches `t` in wall time: a deadline to wait for. `None` for a virtual
    /// clock, whose time moves only by [`GameClock::advance_to`].
    fn instant_of(&self, t: Ms) -> Option<Instant>;
    /// Moves game time on to `t` (a virtual clock); a wall clock runs by itself and ignores it.
    fn advance_to(&mut self, t: Ms);
}

/// Lockstep time: it moves only when told.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VirtualClock {
    now: Ms,
}

impl GameClock for VirtualClock {
    fn now(&self) -> Ms {
        self.now
    }

    fn ms_at(&self, _instant: Instant) -> Ms {
        self.now
    }

    fn instant_of(&self, _t: Ms) -> Option<Instant> {
        None
    }

    fn advance_to(&mut self, t: Ms) {
        self.now = self.now.max(t);
    }
}

/// Real time since the game's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallClock {
    origin: Instant,
}

impl WallClock {
    /// A clock whose 0 ms is now.
    pub fn start() -> WallClock {
        WallClock::from(Instant::now())
    }

    /// A clock whose 0 ms is `origin`.
    pub fn from(origin: Instant) -> WallClock {
        WallClock { origin }
    }
}

impl GameClock for WallClock {
    fn now(&self) -> Ms {
        self.ms_at(Instant::now())
    }

    fn ms_at(&self, instant: Instant) -> Ms {
        instant.saturating_duration_since(self.origin).as_millis() as Ms
    }

    fn instant_of(&self, t: Ms) -> Option<Instant> {
        Some(self.origin + Duration::from_millis(t))
    }

    fn advance_to(&mut self, _t: Ms) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_virtual_clock_stands_still_until_moved() {
        let mut clock = VirtualClock::default();
        let later = Instant::now() + Duration::from_secs(5);
        assert_eq!((clock.now(), clock.ms_at(later)), (0, 0));
        assert_eq!(clock.instant_of(100), None);
        clock.advance_to(300);
        clock.advance_to(200);
        assert_eq!((clock.now(), clock.ms_at(later)), (300, 300));
    }

    #[test]
    fn a_wall_clock_counts_ms_from_its_origin() {
        let origin = Instant::now();
        let mut clock = WallClock::from(origin);
        assert_eq!(clock.ms_at(origin + Duration::from_micros(1_999)), 1);
        assert_eq!(clock.ms_at(origin + Duration::from_millis(1_500)), 1_500);
        // An instant before the start (a line read before it) is the start.
        if let Some(before) = origin.checked_sub(Duration::from_millis(5)) {
            assert_eq!(clock.ms_at(before), 0);
        }
        assert_eq!(
            clock.instant_of(250),
            Some(origin + Duration::from_millis(250))
        );
        clock.advance_to(10_000);
        assert!(clock.now() < 10_000);
    }
}
