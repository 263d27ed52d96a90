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
    pub fn validate(&self) -> Result<(), String> {
        todo!()
    }
}
