//! The realtime flags of `roger arena` (`--poll-ms`, `--wall-clock`, `--tick-ms`, ...), as the
//! command line gives them, checked into [`RealtimeSettings`] once the variant is known.

use super::RealtimeSettings;

/// The realtime flags as given, checked once the variant is known.
#[derive(Default)]
pub struct RealtimeFlags {
    /// The flags given, to name one used with another game.
    pub given: Vec<String>,
    pub wall_clock: Option<bool>,
    values: Vec<(String, u64)>,
}

impl RealtimeFlags {
    pub fn set(&mut self, flag: &str, value: u64) {
        self.given.push(flag.to_string());
        self.values.push((flag.to_string(), value));
    }

    pub fn settings(&self) -> Result<RealtimeSettings, String> {
        let mut settings = RealtimeSettings {
            wall_clock: self.wall_clock.unwrap_or(false),
            ..RealtimeSettings::default()
        };
        let too_big = |flag: &str| format!("{flag}: too large");
        for (flag, value) in &self.values {
            let value = *value;
            let ticks = || u32::try_from(value).map_err(|_| too_big(flag));
            match flag.as_str() {
                "--poll-ms" if value == 0 => return Err("--poll-ms must be at least 1".into()),
                "--poll-ms" => settings.poll_ms = value,
                "--max-game-ms" => settings.max_game_ms = Some(value),
                "--tick-ms" => settings.params.tick_ms = ticks()?,
                "--delay-ticks" => settings.params.delay_ticks = ticks()?,
                _ => settings.params.no_capture_draw_ticks = ticks()?,
            }
        }
        settings.params.validate()?;
        Ok(settings)
    }
}
