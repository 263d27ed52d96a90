//! The game's run-time parameters.

use super::Ms;

/// The parameters of one realtime game; every duration is in ticks of `tick_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RealtimeParams {
    pub tick_ms: u32,
    pub delay_ticks: u32,
    pub no_capture_draw_ticks: u32,
}

impl Default for RealtimeParams {
    fn default() -> Self {
        RealtimeParams {
            tick_ms: 1000,
            delay_ticks: 10,
            no_capture_draw_ticks: 300,
        }
    }
}

/// The ranges the registry row gives (name, min, max).
pub(crate) const TICK_MS: (&str, u32, u32) = ("tick_ms", 10, 60_000);
pub(crate) const DELAY_TICKS: (&str, u32, u32) = ("delay_ticks", 0, 1000);
pub(crate) const NO_CAPTURE_DRAW_TICKS: (&str, u32, u32) = ("no_capture_draw_ticks", 1, 1_000_000);

impl RealtimeParams {
    pub fn tick(&self) -> Ms {
        self.tick_ms as Ms
    }
    pub fn delay(&self) -> Ms {
        self.delay_ticks as Ms * self.tick()
    }
    pub fn no_capture_draw(&self) -> Ms {
        self.no_capture_draw_ticks as Ms * self.tick()
    }
    /// Each parameter inside its range, or a text naming the first one that is not.
    pub fn validate(&self) -> Result<(), String> {
        for ((name, min, max), value) in [
            (TICK_MS, self.tick_ms),
            (DELAY_TICKS, self.delay_ticks),
            (NO_CAPTURE_DRAW_TICKS, self.no_capture_draw_ticks),
        ] {
            if !(min..=max).contains(&value) {
                return Err(format!("{name} {value} is outside {min}..={max}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_ranges_are_enforced() {
        let standard = RealtimeParams::default();
        assert_eq!(standard.validate(), Ok(()));
        assert_eq!(
            (
                standard.tick(),
                standard.delay(),
                standard.no_capture_draw()
            ),
            (1000, 10_000, 300_000)
        );
        let fast = RealtimeParams {
            tick_ms: 9,
            ..standard
        };
        assert_eq!(
            fast.validate(),
            Err("tick_ms 9 is outside 10..=60000".into())
        );
        let no_draw = RealtimeParams {
            no_capture_draw_ticks: 0,
            ..standard
        };
        assert!(no_draw
            .validate()
            .unwrap_err()
            .starts_with("no_capture_draw_ticks 0"));
        let no_delay = RealtimeParams {
            delay_ticks: 0,
            ..standard
        };
        assert_eq!(no_delay.validate(), Ok(()));
    }
}
