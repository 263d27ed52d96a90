//! Referees: one per family of games. Given a scheduled session, the seats' clients and the
//! inbox, a referee plays one session by its game's rules and returns what every family
//! returns: points per seat, one [`Termination`] (the rules, an adjudication, or a fault) and a
//! family-specific [`SessionRecord`] for the JSON file. [`turn`] referees the alternating games
//! (chess, Millennium, Nichess); games without turns plug in as other implementations of
//! [`Referee`].

pub mod adjudication;
pub mod realtime;
pub mod turn;
pub mod world;

use super::process::{Client, EngineFault, Inbox, Limits};
use super::schedule::ScheduledGame;
use crate::rules::registry::{self, Family};
use crate::rules::EndReason;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

pub use turn::{
    Adjudication, DrawRule, PlayedMove, RefereeSettings, ResignRule, TurnRecord, TurnReferee,
};

/// How a session ended, for every family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    // By the rules: a turn game's ending is `Rules` (last, as serde wants its untagged variant).
    /// Another family's own ending by its rules (the detail says which).
    GameRule,
    // By the referee's adjudication.
    AdjudicatedDraw,
    AdjudicatedResign,
    MaxPlies,
    /// A game without turns stopped at its time limit (`--max-game-ms`): a draw.
    MaxGameTime,
    /// A Megachess world stopped at its turn limit (`--turns`), won on score.
    MaxTurns,
    // By an engine.
    Resignation,
    TimeForfeit,
    IllegalMove,
    Crash,
    /// No answer at all (no clock ran out: a fixed-depth or nodes search that never ended).
    Unresponsive,
    /// The engine said something the protocol does not allow (refused a legal move, say).
    ProtocolError,
    /// The engine could not be (re)started for this game.
    StartFailure,
    /// A turn game's ending by its rules, written as the rules name it (`checkmate`).
    #[serde(untagged)]
    Rules(EndReason),
}

impl Termination {
    /// A short text, as in standings and progress lines.
    pub fn text(self) -> &'static str {
        match self {
            Termination::Rules(reason) => reason.text(),
            Termination::GameRule => "the game's rule",
            Termination::AdjudicatedDraw => "adjudicated draw",
            Termination::AdjudicatedResign => "adjudicated resignation",
            Termination::MaxPlies => "max plies (adjudicated draw)",
            Termination::MaxGameTime => "max game time (adjudicated draw)",
            Termination::MaxTurns => "max turns (scored)",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "loss on time",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "engine crash",
            Termination::Unresponsive => "unresponsive engine",
            Termination::ProtocolError => "protocol error",
            Termination::StartFailure => "engine failed to start",
        }
    }

    /// The PGN `Termination` tag's value.
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::AdjudicatedDraw
            | Termination::AdjudicatedResign
            | Termination::MaxPlies
            | Termination::MaxGameTime
            | Termination::MaxTurns => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove | Termination::ProtocolError => "rules infraction",
            Termination::Crash | Termination::Unresponsive | Termination::StartFailure => {
                "abandoned"
            }
            _ => "normal",
        }
    }

    /// Endings caused by an engine's fault (what a clean run should have none of).
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove
                | Termination::Crash
                | Termination::Unresponsive
                | Termination::ProtocolError
                | Termination::StartFailure
        )
    }

    /// How an engine's fault ends a session; `None` when the session was abandoned because the
    /// tournament is stopping. `who` names the engine (a colour, a seat); `clocked` says whether
    /// it played on a clock, which makes a timeout a loss on time.
    pub fn of_fault(
        who: &str,
        fault: &EngineFault,
        clocked: bool,
    ) -> Option<(Termination, String)> {
        Some(match fault {
            EngineFault::Cancelled => return None,
            EngineFault::Crashed(how) => (Termination::Crash, format!("{who} crashed: {how}")),
            EngineFault::Protocol(what) => (Termination::ProtocolError, format!("{who}: {what}")),
            EngineFault::Timeout(waited) if clocked => (
                Termination::TimeForfeit,
                format!(
                    "{who} loses on time: no move after {:.3} s",
                    waited.as_secs_f64()
                ),
            ),
            EngineFault::Timeout(waited) => (
                Termination::Unresponsive,
                format!("{who} did not answer within {:.1} s", waited.as_secs_f64()),
            ),
        })
    }
}

/// What each family keeps of a session for the JSON file, tagged by `family`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "lowercase")]
pub enum SessionRecord {
    Turn(TurnRecord),
    Realtime(realtime::RealtimeRecord),
    World(world::WorldRecord),
    /// A family the arena's own types do not describe (a test's toy game, a game in the
    /// making): its record as a JSON object.
    Other(serde_json::Map<String, serde_json::Value>),
}

/// A finished session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionResult {
    /// Points of each seat: 1, ½ or 0 in a two-seat game.
    pub points: Vec<f64>,
    pub termination: Termination,
    /// What happened, in words: which seat, which move, which fault.
    pub detail: String,
    pub record: SessionRecord,
}

impl SessionResult {
    /// The result as text: `1-0`, `0-1`, `1/2-1/2` for two seats, else the points in seat
    /// order (`1-0-0`).
    pub fn result_text(&self) -> String {
        let half = |p: f64| {
            if p == 0.5 {
                "1/2".to_string()
            } else {
                p.to_string()
            }
        };
        self.points
            .iter()
            .map(|&p| half(p))
            .collect::<Vec<_>>()
            .join("-")
    }

    /// How the session ended, in a few words: the termination's text, or for a realtime
    /// game or a Megachess world ended by its rules the rules' name of the ending
    /// (`king-removed`, `team-left`).
    pub fn ending_text(&self) -> String {
        match (&self.record, self.termination) {
            (SessionRecord::Realtime(record), Termination::GameRule) => record
                .outcome
                .clone()
                .unwrap_or_else(|| self.termination.text().to_string()),
            (SessionRecord::World(record), Termination::GameRule) => record.end.clone(),
            _ => self.termination.text().to_string(),
        }
    }

    /// Plies or moves played (a realtime game: orders given), for progress lines.
    pub fn length(&self) -> usize {
        match &self.record {
            SessionRecord::Turn(record) => record.moves.len(),
            SessionRecord::Realtime(record) => record.orders.len(),
            SessionRecord::World(record) => record.turns as usize,
            SessionRecord::Other(_) => 0,
        }
    }
}

/// One session to referee: the scheduled game, and the engines in their seats with the limits
/// of each; their lines arrive in `inbox`. `cancel` is set when the tournament is stopping.
pub struct Session<'a> {
    pub game: &'a ScheduledGame,
    pub limits: Vec<Limits>,
    pub clients: &'a mut [Box<dyn Client>],
    pub inbox: &'a mut Inbox,
    pub cancel: &'a AtomicBool,
}

/// A family's referee.
pub trait Referee: Sync {
    /// The protocol name of the game refereed (`chess`), which the engines are set up for.
    fn game(&self) -> &str;
    /// Plays one session; `None` when it was abandoned because the tournament is stopping.
    fn play(&self, session: &mut Session) -> Option<SessionResult>;
    /// The result of a session lost before it began by the engine in `seat` (it could not
    /// start).
    fn forfeit(&self, game: &ScheduledGame, seat: usize, detail: String) -> SessionResult;
    /// How a seat is named in details (`white`, `seat 2`).
    fn seat_name(&self, seat: usize) -> String {
        format!("seat {}", seat + 1)
    }
}

/// The referee of the game `settings.variant`, chosen by the game's family in the registry.
pub fn referee_for(settings: RefereeSettings) -> Result<Box<dyn Referee>, String> {
    let entry = registry::find(&settings.variant)
        .ok_or_else(|| format!("unknown variant '{}'", settings.variant))?;
    match entry.family {
        Family::Turn => Ok(Box::new(TurnReferee::new(settings)?)),
        Family::Realtime => Ok(Box::new(realtime::RealtimeReferee::new(settings))),
        Family::World => Ok(Box::new(world::process::WorldReferee::new(settings))),
    }
}

/// Points for a win of `winner` among `seats` seats.
pub fn win_for(winner: usize, seats: usize) -> Vec<f64> {
    (0..seats)
        .map(|s| if s == winner { 1.0 } else { 0.0 })
        .collect()
}

/// Points for a draw among `seats` seats.
pub fn draw(seats: usize) -> Vec<f64> {
    vec![1.0 / seats as f64; seats]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn terminations_are_written_by_one_name_each() {
        for (termination, name) in [
            (Termination::Rules(EndReason::Checkmate), "checkmate"),
            (Termination::Rules(EndReason::FiftyMoves), "fifty_moves"),
            (
                Termination::Rules(EndReason::KingDestroyed),
                "king_destroyed",
            ),
            (Termination::IllegalMove, "illegal_move"),
            (Termination::GameRule, "game_rule"),
        ] {
            let json = serde_json::to_string(&termination).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(
                serde_json::from_str::<Termination>(&json).unwrap(),
                termination
            );
        }
        assert!(serde_json::from_str::<Termination>("\"no_such_ending\"").is_err());
    }

    #[test]
    fn the_referee_is_chosen_by_the_registry() {
        let settings = |variant: &str| RefereeSettings {
            variant: variant.into(),
            margin: Duration::ZERO,
            hang_timeout: Duration::from_secs(1),
            ready_timeout: Duration::from_secs(1),
            adjudication: Adjudication::default(),
            realtime: Default::default(),
            world: Default::default(),
            chess960: false,
        };
        let families = [Family::Turn, Family::Realtime, Family::World];
        for name in families.into_iter().flat_map(registry::names_of) {
            let referee = referee_for(settings(name)).expect("every such game has a referee");
            assert_eq!(referee.game(), name);
        }
        let error = referee_for(settings("shogi")).err().expect("refused");
        assert_eq!(error, "unknown variant 'shogi'");
    }

    #[test]
    fn results_as_text() {
        let result = |points: Vec<f64>| SessionResult {
            points,
            termination: Termination::GameRule,
            detail: String::new(),
            record: SessionRecord::Other(Default::default()),
        };
        assert_eq!(result(win_for(0, 2)).result_text(), "1-0");
        assert_eq!(result(win_for(1, 2)).result_text(), "0-1");
        assert_eq!(result(draw(2)).result_text(), "1/2-1/2");
        assert_eq!(result(win_for(2, 3)).result_text(), "0-0-1");
    }
}
