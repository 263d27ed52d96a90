//! The referee of Megachess worlds between engine processes (`roger arena --variant
//! megachess`). Each seat is one engine that plays all the players of its seat; seat 1, 3, ...
//! play alabaster, seat 2, 4, ... metal. At the start of a world every seat is sent the world's
//! parameters as options and `ucinewgame`; then, turn by turn, [`WorldGame::run`] asks each
//! player of the team to move: `position megachess ...` (its window with `--window`) and
//! `go movetime MS`, answered by `bestturn X1,Y1-X2,Y2 ...`.
//!
//! A bad answer never ends a world: garbage and illegal moves are rejected one by one with
//! their reason and the legal ones stand; an answer later than the movetime plus the margin
//! loses its whole turn (the engine is sent `stop` and its late answer read and dropped, so it
//! is not taken for the next turn's); an engine that crashes, or owes an answer past the grace
//! time, plays no more: its pieces stay on the board, unmoving, and the world goes on while its
//! team has a seat that plays. When every seat of a team has faulted the world ends at once
//! (`team-faulted`) and the other team wins. Such a world's termination names the fault.

use super::game::{SeatAnswer, WorldGame};
use super::layout::{player_id, seat_team, WorldSetup};
use super::record::{SeatRecord, WorldRecord, WorldSetupRecord};
use super::settings::DEFAULT_MOVETIME;
use crate::arena::process::{drain, next_line, Client, EngineFault, GameSetup, Inbox, Limits};
use crate::arena::referee::{
    Referee, RefereeSettings, Session, SessionRecord, SessionResult, Termination,
};
use crate::arena::schedule::ScheduledGame;
use crate::rules::megachess::picture::{world_svg, PlayerLabels};
use crate::rules::megachess::{MegachessParams, PlayerId, Team, World, PARAMETERS};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The referee of Megachess worlds between engines.
pub struct WorldReferee {
    settings: RefereeSettings,
}

impl WorldReferee {
    pub fn new(settings: RefereeSettings) -> WorldReferee {
        WorldReferee { settings }
    }

    /// How long an engine that answered later than `wait` may take to answer after `stop`.
    fn grace(&self, wait: Duration) -> Duration {
        (wait * 2 + Duration::from_secs(1)).min(self.settings.hang_timeout.max(wait))
    }
}

/// What a seat's engine is asked for each turn: an answer within `st=`, or about `nodes=` moves
/// judged however long that takes (up to the hang timeout): turns that do not depend on the
/// machine's load, for self-play tests.
#[derive(Clone, Copy)]
enum SeatBudget {
    Movetime(Duration),
    Nodes(u64),
}

/// A seat's engine fault: how it ends the world's termination, and in words.
type SeatFault = Option<(Termination, String)>;

/// The record's `end` of a world stopped because every seat of a team had faulted.
pub const TEAM_FAULTED: &str = "team-faulted";

/// The team every seat of which has faulted, if any.
fn faulted_team(faults: &[SeatFault]) -> Option<Team> {
    Team::BOTH.into_iter().find(|&team| {
        let mut seats = (0..faults.len()).filter(|&seat| seat_team(seat) == team);
        seats.all(|seat| faults[seat].is_some())
    })
}

impl Referee for WorldReferee {
    fn game(&self) -> &str {
        &self.settings.variant
    }

    fn play(&self, session: &mut Session) -> Option<SessionResult> {
        let world = &self.settings.world;
        let seats = session.clients.len();
        let setup = world.setup(session.game, seats);
        let mut game = match WorldGame::new(&setup) {
            Ok(game) => game,
            Err(error) => {
                let detail = format!("the world cannot be set up: {error}");
                return Some(unplayed(&setup, None, Termination::StartFailure, detail));
            }
        };
        let budgets: Vec<SeatBudget> = session
            .limits
            .iter()
            .map(|limits| match limits.nodes {
                Some(moves) => SeatBudget::Nodes(moves),
                None => SeatBudget::Movetime(limits.movetime.unwrap_or(DEFAULT_MOVETIME)),
            })
            .collect();
        let mut faults: Vec<SeatFault> = vec![None; seats];
        for (seat, fault) in faults.iter_mut().enumerate() {
            let limits = session.limits[seat];
            let client = session.clients[seat].as_mut();
            if let Err(error) = self.set_up(client, session.inbox, &setup.params, limits) {
                client.set_faulted();
                let who = self.seat_name(seat);
                *fault = Some(Termination::of_fault(&who, &error, false)?);
            }
        }
        let (clients, inbox, cancel) = (&mut *session.clients, &mut *session.inbox, session.cancel);
        let (margin, hang_timeout) = (self.settings.margin, self.settings.hang_timeout);
        // Set to stop the world: the tournament is stopping, or a whole team has faulted.
        let stop = AtomicBool::new(faulted_team(&faults).is_some());
        let mut ask = |seat: usize, view: &World, me: PlayerId| -> SeatAnswer {
            if cancel.load(Ordering::SeqCst) {
                stop.store(true, Ordering::SeqCst);
                return SeatAnswer::Fault("the tournament is stopping".into());
            }
            if let Some((_, detail)) = &faults[seat] {
                return SeatAnswer::Fault(detail.clone());
            }
            let client = clients[seat].as_mut();
            let line = view.position_line(me, None);
            let (go, wait) = match budgets[seat] {
                SeatBudget::Movetime(time) => (
                    format!("go movetime {}", time.as_millis().max(1)),
                    time + margin,
                ),
                SeatBudget::Nodes(moves) => (format!("go nodes {moves}"), hang_timeout),
            };
            let grace = self.grace(wait);
            match ask_turn(client, inbox, &line, &go, wait, grace, cancel) {
                Ok(Some(moves)) => SeatAnswer::Moves(moves),
                Ok(None) => SeatAnswer::Late,
                Err(error) => {
                    client.set_faulted();
                    let who = self.seat_name(seat);
                    match Termination::of_fault(&who, &error, false) {
                        Some((termination, detail)) => {
                            faults[seat] = Some((termination, detail.clone()));
                            if faulted_team(&faults).is_some() {
                                stop.store(true, Ordering::SeqCst);
                            }
                            SeatAnswer::Fault(detail)
                        }
                        None => {
                            stop.store(true, Ordering::SeqCst);
                            SeatAnswer::Fault("the tournament is stopping".into())
                        }
                    }
                }
            }
        };
        let record = match game.run(&mut ask, &stop) {
            Some(record) => record,
            None if cancel.load(Ordering::SeqCst) => return None,
            // Nobody is left to play a team: the other wins, and the world ends now.
            None => match faulted_team(&faults) {
                Some(team) => game.record(TEAM_FAULTED, Some(team.other())),
                None => return None,
            },
        };
        if let Some(svg) = &world.svg {
            write_svg(&game, &record, session.game, &svg.file(session.game.index));
        }
        Some(finished(record, &faults))
    }

    /// A seat that could not start: its team loses before the world begins.
    fn forfeit(&self, game: &ScheduledGame, seat: usize, detail: String) -> SessionResult {
        let setup = self.settings.world.setup(game, game.seats.len());
        let detail = format!("{} {detail}", self.seat_name(seat));
        unplayed(
            &setup,
            Some(seat_team(seat)),
            Termination::StartFailure,
            detail,
        )
    }

    fn seat_name(&self, seat: usize) -> String {
        format!("seat {} ({})", seat + 1, seat_team(seat).name())
    }
}

impl WorldReferee {
    /// Sends `ucinewgame`, the world's parameters as options, then `ucinewgame` again (the
    /// client's new game) and waits for `readyok`.
    fn set_up(
        &self,
        client: &mut dyn Client,
        inbox: &mut Inbox,
        params: &MegachessParams,
        limits: Limits,
    ) -> Result<(), EngineFault> {
        // A new game first, so that no world of before has to read under the new parameters.
        client.send("ucinewgame")?;
        for parameter in PARAMETERS {
            if let Some(value) = params.get(parameter.name) {
                client.send(&format!("setoption name {} value {value}", parameter.name))?;
            }
        }
        let setup = GameSetup {
            game: &self.settings.variant,
            options: &[],
            limits,
            timeout: self.settings.ready_timeout,
        };
        client.new_game(inbox, &setup)
    }
}

/// Asks one player's turn with `go`: its moves, or `None` when the answer came later than
/// `wait`.
fn ask_turn(
    client: &mut dyn Client,
    inbox: &mut Inbox,
    position: &str,
    go: &str,
    wait: Duration,
    grace: Duration,
    cancel: &AtomicBool,
) -> Result<Option<Vec<String>>, EngineFault> {
    // Lines left over from before (late `info` lines) are not this answer's.
    drain(client, inbox)?;
    client.send(position)?;
    let sent = client.send(go)?;
    match best_turn(client, inbox, sent + wait, sent, cancel) {
        Ok(moves) => Ok(Some(moves)),
        Err(EngineFault::Timeout(_)) => {
            // Too late: the turn is lost. The answer it still owes is read and dropped, so that
            // it is not taken for the next turn's; owing it past the grace time is a fault.
            client.send("stop")?;
            let stopped = Instant::now();
            best_turn(client, inbox, stopped + grace, sent, cancel)?;
            Ok(None)
        }
        Err(fault) => Err(fault),
    }
}

/// Reads lines until `bestturn`; its move texts.
fn best_turn(
    client: &mut dyn Client,
    inbox: &mut Inbox,
    deadline: Instant,
    started: Instant,
    cancel: &AtomicBool,
) -> Result<Vec<String>, EngineFault> {
    loop {
        let (_, line) = next_line(client, inbox, deadline, started, Some(cancel))?;
        let mut tokens = line.split_whitespace();
        if tokens.next() == Some("bestturn") {
            return Ok(tokens.map(String::from).collect());
        }
        // Anything else (`info` lines) is not part of the answer.
    }
}

/// The session's result from a played world.
fn finished(record: WorldRecord, faults: &[SeatFault]) -> SessionResult {
    let outcome = super::stats::outcome_text(&record);
    let (termination, detail) = match faults.iter().flatten().next() {
        Some((termination, fault)) => (*termination, format!("{fault}; {outcome}")),
        None if record.end == "max-turns" => (Termination::MaxTurns, outcome),
        None => (Termination::GameRule, outcome),
    };
    SessionResult {
        points: record.points.clone(),
        termination,
        detail,
        record: SessionRecord::World(record),
    }
}

/// The result of a world that was never played: `loser`'s team loses (no team: a draw).
fn unplayed(
    setup: &WorldSetup,
    loser: Option<Team>,
    termination: Termination,
    detail: String,
) -> SessionResult {
    let points: Vec<f64> = (0..setup.seats)
        .map(|seat| match loser {
            Some(team) if seat_team(seat) == team => 0.0,
            Some(_) => 1.0,
            None => 0.5,
        })
        .collect();
    let seats = (0..setup.seats)
        .map(|seat| SeatRecord {
            seat,
            team: seat_team(seat).name().to_string(),
            players: (0..setup.players_per_seat)
                .map(|index| player_id(seat, index, setup.players_per_seat))
                .collect(),
            score: 0,
            kings_captured: 0,
            kings_lost: 0,
            pieces_left: 0,
            moves: 0,
            rejected: 0,
            late_turns: 0,
            plan_ms_max: 0,
        })
        .collect();
    let record = WorldRecord {
        setup: WorldSetupRecord::from(setup),
        turns: 0,
        end: "not-played".to_string(),
        winner: loser.map(|team| team.other().name().to_string()),
        seats,
        points: points.clone(),
        first_king_capture: None,
        king_captures: Vec::new(),
        rejections: Vec::new(),
        faded: 0,
        bonus_placed: 0,
        final_pieces: Vec::new(),
    };
    SessionResult {
        points,
        termination,
        detail,
        record: SessionRecord::World(record),
    }
}

/// Writes the picture of a world's final state; a failure is said, not fatal.
fn write_svg(
    game: &WorldGame,
    record: &WorldRecord,
    scheduled: &ScheduledGame,
    path: &std::path::Path,
) {
    let mut labels = PlayerLabels::new();
    for seat in 0..record.seats.len() {
        for &id in game.players_of(seat) {
            labels.insert(id, format!("seat {}", seat + 1));
        }
    }
    let title = format!(
        "Megachess, game {}: {}",
        scheduled.index + 1,
        super::stats::outcome_text(record)
    );
    let svg = world_svg(game.world(), &title, &labels);
    if let Err(error) = std::fs::write(path, svg) {
        eprintln!("arena: cannot write '{}': {error}", path.display());
    }
}
