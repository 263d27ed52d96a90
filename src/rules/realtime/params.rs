//! The game's run-time parameters.

use super::Ms;
use crate::rules::parameter::Parameter;

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

/// The registry row's parameters: defaults and the ranges the rules allow.
pub const PARAMETERS: &[Parameter] = &[
    Parameter {
        name: "tick_ms",
        default: 1000,
        min: 10,
        max: 60_000,
        meaning: "milliseconds a piece takes to travel one square",
    },
    Parameter {
        name: "delay_ticks",
        default: 10,
        min: 0,
        max: 1000,
        meaning: "ticks a piece waits after arriving before it may start again",
    },
    Parameter {
        name: "no_capture_draw_ticks",
        default: 300,
        min: 1,
        max: 1_000_000,
        meaning: "ticks without a removal after which the game is drawn",
    },
];

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
        let values = [self.tick_ms, self.delay_ticks, self.no_capture_draw_ticks];
        for (parameter, value) in PARAMETERS.iter().zip(values) {
            if !(parameter.min..=parameter.max).contains(&(value as i64)) {
                return Err(format!(
                    "{} {value} is outside {}..={}",
                    parameter.name, parameter.min, parameter.max
                ));
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
        let defaults: Vec<i64> = PARAMETERS.iter().map(|p| p.default).collect();
        assert_eq!(defaults, [1000, 10, 300]);
    }
}
