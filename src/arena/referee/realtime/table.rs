//! What the realtime referees share around one session: the game, the engines' set-up for it
//! (the game's parameters as options, `ucinewgame`), the endings (by the rules, at the time
//! limit, by a fault) and the session's result with its record.

use super::timeline::{outcome_detail, result_text, ClockMode, DecisionRecord, RefereeGame};
use super::RealtimeSettings;
use crate::arena::openings::realtime_opening_side;
use crate::arena::process::GameSetup;
use crate::arena::referee::{draw, win_for, RefereeSettings, Session, SessionRecord};
use crate::arena::referee::{SessionResult, Termination};
use crate::rules::realtime::{Color, Ms};
use std::time::Duration;

/// One realtime session's game and how it is run.
pub struct Table {
    pub game: RefereeGame,
    mode: ClockMode,
    poll_ms: Option<Ms>,
    max_game_ms: Option<Ms>,
    decisions: [DecisionRecord; 2],
    /// Wall clock: the pipe's round trip per seat, in microseconds.
    pub round_trip_us: Option<[u64; 2]>,
}

/// The default thinking budget of a decision, when an engine has no `st=`.
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(50);

/// Each seat's thinking budget per decision: its `st=`, or the default.
pub fn budgets(session: &Session) -> Vec<Duration> {
    session
        .limits
        .iter()
        .map(|limits| limits.movetime.unwrap_or(DEFAULT_BUDGET))
        .collect()
}

impl Table {
    pub fn new(settings: &RealtimeSettings, mode: ClockMode) -> Table {
        Table {
            game: RefereeGame::new(settings.params),
            mode,
            poll_ms: (mode == ClockMode::Lockstep).then_some(settings.poll_ms),
            max_game_ms: settings.max_game_ms,
            decisions: [DecisionRecord::default(); 2],
            round_trip_us: None,
        }
    }

    /// Sets each seat up for a new game: the parameters as options, then `ucinewgame` and
    /// `isready`. A seat that fails loses; `Err(None)` when the tournament is stopping. (The
    /// result is boxed: it is large and rare.)
    pub fn set_up(
        &mut self,
        session: &mut Session,
        referee: &RefereeSettings,
    ) -> Result<(), Box<Option<SessionResult>>> {
        let params = self.game.state.params();
        let options = [
            ("tick_ms", params.tick_ms),
            ("delay_ticks", params.delay_ticks),
            ("no_capture_draw_ticks", params.no_capture_draw_ticks),
        ];
        for side in [Color::White, Color::Black] {
            let seat = side.index();
            let client = session.clients[seat].as_mut();
            let setup = GameSetup {
                game: &referee.variant,
                options: &[],
                limits: session.limits[seat],
                timeout: referee.ready_timeout,
            };
            let sent = options.iter().try_for_each(|(name, value)| {
                client
                    .send(&format!("setoption name {name} value {value}"))
                    .map(drop)
            });
            let ready = sent.and_then(|()| client.new_game(session.inbox, &setup));
            if let Err(fault) = ready {
                client.set_faulted();
                let Some((termination, detail)) = Termination::of_fault(side.name(), &fault, false)
                else {
                    return Err(Box::new(None));
                };
                return Err(Box::new(Some(self.lost(side, termination, detail))));
            }
        }
        // The opening's orders (`--random-plies`) start at 0 ms, White's and Black's in turn.
        for (ply, text) in session.game.opening.moves.iter().enumerate() {
            let _ = self.game.order_text(realtime_opening_side(ply), text, None);
        }
        Ok(())
    }

    /// Notes one decision's thinking time.
    pub fn decided(&mut self, side: Color, elapsed: Duration, budget: Duration) {
        let record = &mut self.decisions[side.index()];
        record.count += 1;
        record.max_ms = record.max_ms.max(elapsed.as_millis() as u64);
        record.over_budget += u64::from(elapsed > budget);
    }

    /// The session's result if the game is over: by the rules, or at the time limit.
    pub fn ending(&self) -> Option<SessionResult> {
        if let Some(outcome) = self.game.outcome() {
            let points = match outcome.winner {
                Some(winner) => win_for(winner.index(), 2),
                None => draw(2),
            };
            let detail = outcome_detail(outcome);
            return Some(self.finish(points, Termination::GameRule, detail));
        }
        let max = self.max_game_ms.filter(|&max| self.game.now() >= max)?;
        let detail = format!("draw: the game reached {max} ms");
        Some(self.finish(draw(2), Termination::MaxGameTime, detail))
    }

    /// `side` lost by `termination` (a fault).
    pub fn lost(&self, side: Color, termination: Termination, detail: String) -> SessionResult {
        self.finish(win_for(side.flip().index(), 2), termination, detail)
    }

    fn finish(&self, points: Vec<f64>, termination: Termination, detail: String) -> SessionResult {
        let result = if points == win_for(0, 2) {
            "1-0"
        } else if points == win_for(1, 2) {
            "0-1"
        } else {
            result_text(None)
        };
        let mut record = self.game.record(self.mode, self.poll_ms, result);
        record.decisions = (self.mode == ClockMode::Lockstep).then_some(self.decisions);
        record.round_trip_us = self.round_trip_us;
        SessionResult {
            points,
            termination,
            detail,
            record: SessionRecord::Realtime(record),
        }
    }
}
