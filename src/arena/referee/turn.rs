//! The referee of the alternating games (chess, Millennium, Nichess): it keeps the
//! authoritative [`GameRecord`](crate::rules::GameRecord), asks the seat to move for its move,
//! checks it, keeps the clocks, and ends the game by the rules, by adjudication, or by an
//! engine's fault. Seat 0 has White, seat 1 Black.

use super::adjudication::{Adjudicator, GameResult};
use super::{Referee, Session, SessionRecord, SessionResult, Termination};
use crate::arena::process::{EngineReply, EngineScore, GameSetup, MoveRequest};
use crate::arena::schedule::ScheduledGame;
use crate::rules::registry::{bind_game, record_from, TurnGame};
use crate::rules::{Color, Game, Outcome};
use serde::{Deserialize, Serialize};
use std::time::Duration;

pub use super::adjudication::{Adjudication, DrawRule, ResignRule};

/// One ply of a played game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedMove {
    #[serde(rename = "move")]
    pub text: String,
    /// From the opening, not chosen by an engine.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
    /// Thinking time in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// The mover's clock after the move (increment added), in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<EngineScore>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

impl PlayedMove {
    fn book(text: String) -> PlayedMove {
        PlayedMove {
            text,
            book: true,
            time_ms: None,
            clock_ms: None,
            score: None,
            depth: None,
        }
    }
}

/// A turn game as the JSON file keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The position the game (and its opening moves) started from.
    pub start_fen: String,
    pub moves: Vec<PlayedMove>,
    /// `1-0`, `0-1` or `1/2-1/2`, as PGN writes it.
    pub result: String,
}

/// What the turn referee needs besides the engines.
#[derive(Clone, Debug)]
pub struct RefereeSettings {
    pub variant: String,
    /// How far past its clock (or `st`) an engine may go before it loses on time.
    pub margin: Duration,
    /// How long an engine without a clock may think before it is declared hung.
    pub hang_timeout: Duration,
    /// How long to wait for `readyok` (and xboard's `pong`).
    pub ready_timeout: Duration,
    pub adjudication: Adjudication,
    /// How realtime games are refereed (the other families ignore it).
    pub realtime: super::realtime::RealtimeSettings,
    /// How Megachess worlds are refereed (the other families ignore it).
    pub world: super::world::settings::WorldSettings,
    /// Chess960: moves go to the engines with castling king-takes-own-rook, as the engines
    /// set with `UCI_Chess960` expect.
    pub chess960: bool,
}

/// The referee of one turn game, by name.
pub struct TurnReferee {
    settings: RefereeSettings,
    kind: TurnGame,
}

impl TurnReferee {
    pub fn new(settings: RefereeSettings) -> Result<TurnReferee, String> {
        let kind = TurnGame::named(&settings.variant)
            .ok_or_else(|| format!("unknown variant '{}'", settings.variant))?;
        Ok(TurnReferee { settings, kind })
    }
}

impl Referee for TurnReferee {
    fn game(&self) -> &str {
        &self.settings.variant
    }

    fn play(&self, session: &mut Session) -> Option<SessionResult> {
        bind_game!(self.kind, G => play_game::<G>(session, &self.settings))
    }

    fn forfeit(&self, game: &ScheduledGame, seat: usize, detail: String) -> SessionResult {
        let lost = GameResult::win_for(seat_color(seat).flip());
        let detail = format!("{} {detail}", self.seat_name(seat));
        let fen = game.opening.fen.as_deref();
        bind_game!(self.kind, G => Board::<G>::new(fen, &[], self.settings.chess960).finish(lost, Termination::StartFailure, detail))
    }

    fn seat_name(&self, seat: usize) -> String {
        seat_color(seat).name().to_string()
    }
}

fn seat_color(seat: usize) -> Color {
    if seat == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The game so far: the record by the rules, the moves as sent to the engines, and as played.
struct Board<G: Game> {
    record: crate::rules::GameRecord<G>,
    texts: Vec<String>,
    moves: Vec<PlayedMove>,
    start_fen: String,
}

impl<G: Game> Board<G> {
    /// The opening's record, with its moves spelled as the rules spell them so that engines see
    /// one notation.
    fn new(fen: Option<&str>, opening: &[String], chess960: bool) -> Board<G> {
        let mut record = record_from::<G>(fen, opening)
            .expect("openings are checked against the rules before the tournament");
        record.modify_positions(|position| position.set_chess960(chess960));
        let mut replay = crate::rules::GameRecord::new(record.start().clone());
        let mut texts = Vec::new();
        for &mv in record.moves() {
            texts.push(replay.position().move_text(mv));
            replay.play(mv);
        }
        Board {
            start_fen: record.start().fen(),
            moves: texts.iter().cloned().map(PlayedMove::book).collect(),
            texts,
            record,
        }
    }

    fn finish(self, result: GameResult, termination: Termination, detail: String) -> SessionResult {
        SessionResult {
            points: result.points(),
            termination,
            detail,
            record: SessionRecord::Turn(TurnRecord {
                start_fen: self.start_fen,
                moves: self.moves,
                result: result.text().to_string(),
            }),
        }
    }

    /// The game's end by the rules or the ply limit, if it has come.
    fn ending(&self, max_plies: Option<usize>) -> Option<(GameResult, Termination, String)> {
        match self.record.outcome() {
            Outcome::Ongoing => {}
            Outcome::Win(color, reason) => {
                let termination = Termination::Rules(reason);
                let detail = format!("{} wins by {}", color.name(), termination.text());
                return Some((GameResult::win_for(color), termination, detail));
            }
            Outcome::Draw(reason) => {
                let termination = Termination::Rules(reason);
                let detail = format!("draw by {}", termination.text());
                return Some((GameResult::Draw, termination, detail));
            }
        }
        let max = max_plies.filter(|&max| self.record.moves().len() >= max)?;
        let detail = format!("draw: the game reached {max} plies");
        Some((GameResult::Draw, Termination::MaxPlies, detail))
    }

    /// Checks and plays an engine's move; the error says why it is illegal.
    fn play(&mut self, reply: &EngineReply, clock_ms: Option<u64>) -> Result<(), String> {
        let parsed = if reply.text.is_ascii() && !reply.text.is_empty() {
            self.record
                .position()
                .parse_move(&reply.text)
                .map_err(|error| error.to_string())
        } else {
            Err("it is not a move".to_string())
        };
        let mv = parsed.map_err(|error| {
            format!(
                "played the illegal move '{}' in {}: {error}",
                reply.text.escape_debug(),
                self.record.position().fen()
            )
        })?;
        let text = self.record.position().move_text(mv);
        self.record.play(mv);
        self.moves.push(PlayedMove {
            text: text.clone(),
            book: false,
            time_ms: Some(reply.elapsed.as_millis() as u64),
            clock_ms,
            score: reply.score,
            depth: reply.depth,
        });
        self.texts.push(text);
        Ok(())
    }
}

/// Plays one game of `G`; `clients[0]` has White. `None` when the game was abandoned because
/// the tournament is stopping.
fn play_game<G: Game>(session: &mut Session, settings: &RefereeSettings) -> Option<SessionResult> {
    let opening = &session.game.opening;
    let limits = &session.limits;
    let (clients, inbox, cancel) = (&mut *session.clients, &mut *session.inbox, session.cancel);
    let mut board = Board::<G>::new(opening.fen.as_deref(), &opening.moves, settings.chess960);
    for color in [Color::White, Color::Black] {
        let client = clients[color.index()].as_mut();
        let setup = GameSetup {
            game: &settings.variant,
            options: &[],
            limits: limits[color.index()],
            timeout: settings.ready_timeout,
        };
        let ready = client.new_game(inbox, &setup);
        if let Err(fault) = ready {
            client.set_faulted();
            let (termination, detail) = Termination::of_fault(color.name(), &fault, false)?;
            return Some(board.finish(GameResult::win_for(color.flip()), termination, detail));
        }
    }
    let mut remaining: Vec<Option<Duration>> =
        limits.iter().map(|l| l.tc.map(|tc| tc.base)).collect();
    let increments: Vec<Duration> = limits
        .iter()
        .map(|l| l.tc.map_or(Duration::ZERO, |tc| tc.increment))
        .collect();
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let game = loop {
        if let Some((result, termination, detail)) = board.ending(settings.adjudication.max_plies) {
            break board.finish(result, termination, detail);
        }
        let side = board.record.position().side_to_move();
        let seat = side.index();
        let own = limits[seat];
        // An engine on a clock is told every clock; one without sees its own time for the other.
        let clocks = remaining[seat].map(|own_time| {
            remaining
                .iter()
                .map(|time| time.unwrap_or(own_time))
                .collect()
        });
        let wait = match (remaining[seat], own.movetime) {
            (Some(time), _) => time + settings.margin,
            (None, Some(st)) => st + settings.margin,
            (None, None) => settings.hang_timeout,
        };
        let request = MoveRequest {
            start_fen: opening.fen.as_deref(),
            moves: &board.texts,
            seat,
            clocks,
            increments: increments.clone(),
            limits: own,
            wait,
            cancel,
        };
        let client = clients[seat].as_mut();
        let lost = GameResult::win_for(side.flip());
        let reply = match client.request_move(inbox, &request) {
            Ok(reply) => reply,
            Err(fault) => {
                client.set_faulted();
                let clocked = remaining[seat].is_some() || own.movetime.is_some();
                let (termination, detail) = Termination::of_fault(side.name(), &fault, clocked)?;
                break board.finish(lost, termination, detail);
            }
        };
        let allowed = remaining[seat]
            .or(own.movetime)
            .map(|limit| limit + settings.margin);
        if let Some(allowed) = allowed.filter(|&allowed| reply.elapsed > allowed) {
            let detail = format!(
                "{} loses on time: it took {:.3} s, {:.3} s allowed",
                side.name(),
                reply.elapsed.as_secs_f64(),
                allowed.as_secs_f64()
            );
            break board.finish(lost, Termination::TimeForfeit, detail);
        }
        if reply.resigned {
            let detail = format!("{} resigns", side.name());
            break board.finish(lost, Termination::Resignation, detail);
        }
        if let Some(time) = &mut remaining[seat] {
            *time = time.saturating_sub(reply.elapsed) + increments[seat];
        }
        let clock_ms = remaining[seat].map(|t| t.as_millis() as u64);
        if let Err(illegal) = board.play(&reply, clock_ms) {
            client.set_faulted();
            let detail = format!("{} {illegal}", side.name());
            break board.finish(lost, Termination::IllegalMove, detail);
        }
        let plies = board.record.moves().len();
        if let Some((result, termination)) = adjudicator.after_move(side, reply.score, plies) {
            let detail = match result {
                GameResult::Draw => "draw adjudicated: both scores near zero".to_string(),
                _ => format!(
                    "{} resignation adjudicated by score",
                    if result == GameResult::WhiteWins {
                        "black"
                    } else {
                        "white"
                    }
                ),
            };
            break board.finish(result, termination, detail);
        }
    };
    for client in clients.iter_mut() {
        client.game_over();
    }
    Some(game)
}
