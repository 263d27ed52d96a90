//! The referee of realtime chess. [`lockstep`] plays a game between two in-process
//! [`RealtimePlayer`](crate::plan::RealtimePlayer)s on a virtual clock; [`RealtimeReferee`]
//! referees engines in the arena, in lockstep over the wire ([`polled`]) or on the wall clock
//! with the engines streaming ([`wall`]). [`timeline`] keeps the authoritative game, its orders
//! and events, and its JSON record; [`table`] what the process referees share.

pub mod flags;
pub mod lockstep;
pub mod polled;
mod table;
pub mod timeline;
pub mod wall;

pub use lockstep::{play_lockstep, DecisionStats, LockstepGame, LockstepSettings};
pub use timeline::{
    ClockMode, DecisionRecord, OrderRecord, ParamsRecord, RealtimeRecord, RealtimeSettingsRecord,
    RefereeGame, TimedOrder,
};

use super::Termination;
use super::{win_for, Referee, RefereeSettings, Session, SessionRecord, SessionResult};
use crate::arena::schedule::ScheduledGame;
use crate::rules::realtime::{Color, Ms, RealtimeParams};

/// How realtime games are refereed (`roger arena --variant realtime`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RealtimeSettings {
    pub params: RealtimeParams,
    /// Lockstep: the game time between two polls; wall clock: between two `time` lines.
    pub poll_ms: Ms,
    /// Real time with the engines streaming, instead of lockstep.
    pub wall_clock: bool,
    /// Stop a game still going at this ms (a draw).
    pub max_game_ms: Option<Ms>,
}

impl Default for RealtimeSettings {
    fn default() -> RealtimeSettings {
        RealtimeSettings {
            params: RealtimeParams::default(),
            poll_ms: 100,
            wall_clock: false,
            max_game_ms: None,
        }
    }
}

impl RealtimeSettings {
    pub fn mode(&self) -> ClockMode {
        if self.wall_clock {
            ClockMode::WallClock
        } else {
            ClockMode::Lockstep
        }
    }

    /// The settings as the JSON file keeps them.
    pub fn record(&self) -> RealtimeSettingsRecord {
        RealtimeSettingsRecord {
            params: self.params.into(),
            mode: self.mode(),
            poll_ms: self.poll_ms,
            max_game_ms: self.max_game_ms,
        }
    }
}

/// The referee of realtime chess between engines; seat 0 plays White.
pub struct RealtimeReferee {
    settings: RefereeSettings,
}

impl RealtimeReferee {
    pub fn new(settings: RefereeSettings) -> RealtimeReferee {
        RealtimeReferee { settings }
    }
}

impl Referee for RealtimeReferee {
    fn game(&self) -> &str {
        &self.settings.variant
    }

    fn play(&self, session: &mut Session) -> Option<SessionResult> {
        let realtime = &self.settings.realtime;
        if realtime.wall_clock {
            wall::play(session, &self.settings, realtime)
        } else {
            polled::play(session, &self.settings, realtime)
        }
    }

    fn forfeit(&self, _game: &ScheduledGame, seat: usize, detail: String) -> SessionResult {
        let realtime = &self.settings.realtime;
        let mode = realtime.mode();
        let poll_ms = (!realtime.wall_clock).then_some(realtime.poll_ms);
        let result = if seat == 0 { "0-1" } else { "1-0" };
        let record = RefereeGame::new(realtime.params).record(mode, poll_ms, result);
        SessionResult {
            points: win_for(1 - seat, 2),
            termination: Termination::StartFailure,
            detail: format!("{} {detail}", self.seat_name(seat)),
            record: SessionRecord::Realtime(record),
        }
    }

    fn seat_name(&self, seat: usize) -> String {
        let side = if seat == 0 {
            Color::White
        } else {
            Color::Black
        };
        side.name().to_string()
    }
}
