//! One game between two engine processes, refereed with the project's own rules: the arena
//! keeps the authoritative [`GameRecord`], checks every move it receives, keeps the clocks, and
//! ends the game by the rules, by adjudication, or by an engine's fault.

use super::engine_process::{
    EngineFault, EngineProcess, EngineReply, EngineScore, Limits, MoveRequest,
};
use super::openings::Opening;
use crate::rules::registry::record_from;
use crate::rules::{Color, EndReason, Game, Outcome};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    // By the rules.
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    KingDestroyed,
    MoveLimit,
    // By the referee's adjudication.
    AdjudicatedDraw,
    AdjudicatedResign,
    MaxPlies,
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
}

impl Termination {
    fn from_rules(reason: EndReason) -> Termination {
        match reason {
            EndReason::Checkmate => Termination::Checkmate,
            EndReason::Stalemate => Termination::Stalemate,
            EndReason::Repetition => Termination::Repetition,
            EndReason::FiftyMoves => Termination::FiftyMoves,
            EndReason::InsufficientMaterial => Termination::InsufficientMaterial,
            EndReason::KingDestroyed => Termination::KingDestroyed,
            EndReason::MoveLimit => Termination::MoveLimit,
        }
    }

    /// A short text, as in standings and progress lines.
    pub fn text(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "threefold repetition",
            Termination::FiftyMoves => "50-move rule",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::KingDestroyed => "king destroyed",
            Termination::MoveLimit => "move limit",
            Termination::AdjudicatedDraw => "adjudicated draw",
            Termination::AdjudicatedResign => "adjudicated resignation",
            Termination::MaxPlies => "max plies (adjudicated draw)",
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
            | Termination::MaxPlies => "adjudication",
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
    pub fn text(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
    /// White's points.
    pub fn white_points(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

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

/// A finished game, whatever the game type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedGame {
    /// The position the game (and its opening moves) started from.
    pub start_fen: String,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub termination: Termination,
    /// What happened, in words: which side, which move, which fault.
    pub detail: String,
}

impl PlayedGame {
    /// A game lost before its first move (an engine that cannot start).
    pub fn forfeit(
        start_fen: String,
        loser: Color,
        termination: Termination,
        detail: String,
    ) -> PlayedGame {
        PlayedGame {
            start_fen,
            moves: Vec::new(),
            result: GameResult::win_for(loser.flip()),
            termination,
            detail,
        }
    }
}

/// Draw adjudication: both engines' scores within `score` centipawns of zero for `move_count`
/// consecutive moves each, from full move `move_number` on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// Resign adjudication: an engine whose score is `score` centipawns or more below zero for
/// `move_count` consecutive moves loses; with `two_sided`, only if its opponent agrees.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub max_plies: Option<usize>,
}

/// Tracks the scores the engines report and says when to adjudicate.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive plies with both sides' scores near zero.
    drawish_plies: u32,
    /// Consecutive moves of each side with a losing and a winning score.
    losing: [u32; 2],
    winning: [u32; 2],
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            ..Adjudicator::default()
        }
    }

    /// Records `side`'s score for the move that made the game `plies` long; returns the
    /// adjudicated result, if any.
    pub fn after_move(
        &mut self,
        side: Color,
        score: Option<EngineScore>,
        plies: usize,
    ) -> Option<(GameResult, Termination)> {
        let cp = score.map(EngineScore::centipawns);
        if let Some(rule) = self.rules.draw {
            match cp {
                Some(cp) if cp.abs() <= rule.score => self.drawish_plies += 1,
                _ => self.drawish_plies = 0,
            }
            if self.drawish_plies >= 2 * rule.move_count && plies / 2 >= rule.move_number as usize {
                return Some((GameResult::Draw, Termination::AdjudicatedDraw));
            }
        }
        if let Some(rule) = self.rules.resign {
            let i = side.index();
            self.losing[i] = if cp.is_some_and(|cp| cp <= -rule.score) {
                self.losing[i] + 1
            } else {
                0
            };
            self.winning[i] = if cp.is_some_and(|cp| cp >= rule.score) {
                self.winning[i] + 1
            } else {
                0
            };
            for loser in [side, side.flip()] {
                let winner = loser.flip();
                if self.losing[loser.index()] >= rule.move_count
                    && (!rule.two_sided || self.winning[winner.index()] >= rule.move_count)
                {
                    return Some((GameResult::win_for(winner), Termination::AdjudicatedResign));
                }
            }
        }
        None
    }
}

/// What the referee needs besides the engines.
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
}

/// Plays one game from `opening`; `engines[0]` has White. `None` when the game was abandoned
/// because the tournament is stopping.
pub fn play_game<G: Game>(
    opening: &Opening,
    engines: [&mut EngineProcess; 2],
    limits: [Limits; 2],
    settings: &RefereeSettings,
    cancel: &AtomicBool,
) -> Option<PlayedGame> {
    let mut record = record_from::<G>(opening.fen.as_deref(), &opening.moves)
        .expect("openings are checked against the rules before the tournament");
    let start_fen = record.start().fen();
    let mut texts: Vec<String> = Vec::new();
    let mut moves: Vec<PlayedMove> = Vec::new();
    {
        // The moves as the rules spell them, so engines see one notation.
        let mut replay = crate::rules::GameRecord::new(record.start().clone());
        for &mv in record.moves() {
            let text = replay.position().move_text(mv);
            replay.play(mv);
            moves.push(PlayedMove {
                text: text.clone(),
                book: true,
                time_ms: None,
                clock_ms: None,
                score: None,
                depth: None,
            });
            texts.push(text);
        }
    }
    let [white, black] = engines;
    let engines = [white, black];
    let finish = |moves: Vec<PlayedMove>, result, termination, detail: String| PlayedGame {
        start_fen: start_fen.clone(),
        moves,
        result,
        termination,
        detail,
    };
    for color in [Color::White, Color::Black] {
        let engine = &mut *engines[color.index()];
        if let Err(fault) = engine.new_game(
            &settings.variant,
            &limits[color.index()],
            settings.ready_timeout,
        ) {
            engine.faulted = true;
            let (termination, detail) = fault_ending(color, &fault, false)?;
            return Some(finish(
                moves,
                GameResult::win_for(color.flip()),
                termination,
                detail,
            ));
        }
    }
    let mut remaining: [Option<Duration>; 2] = [
        limits[0].tc.map(|tc| tc.base),
        limits[1].tc.map(|tc| tc.base),
    ];
    let increments = [0, 1].map(|i| limits[i].tc.map_or(Duration::ZERO, |tc| tc.increment));
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let game = loop {
        match record.outcome() {
            Outcome::Ongoing => {}
            Outcome::Win(color, reason) => {
                let termination = Termination::from_rules(reason);
                let detail = format!("{} wins by {}", color.name(), termination.text());
                break finish(moves, GameResult::win_for(color), termination, detail);
            }
            Outcome::Draw(reason) => {
                let termination = Termination::from_rules(reason);
                break finish(
                    moves,
                    GameResult::Draw,
                    termination,
                    format!("draw by {}", termination.text()),
                );
            }
        }
        if let Some(max) = settings.adjudication.max_plies {
            if record.moves().len() >= max {
                let detail = format!("draw: the game reached {max} plies");
                break finish(moves, GameResult::Draw, Termination::MaxPlies, detail);
            }
        }
        let side = record.position().side_to_move();
        let i = side.index();
        let own = limits[i];
        let clocks = remaining[i].map(|own_time| {
            [
                remaining[0].unwrap_or(own_time),
                remaining[1].unwrap_or(own_time),
            ]
        });
        let wait = match (remaining[i], own.movetime) {
            (Some(time), _) => time + settings.margin,
            (None, Some(st)) => st + settings.margin,
            (None, None) => settings.hang_timeout,
        };
        let request = MoveRequest {
            start_fen: opening.fen.as_deref(),
            moves: &texts,
            white_to_move: side == Color::White,
            clocks,
            increments,
            limits: own,
        };
        let engine = &mut *engines[i];
        let reply: EngineReply = match engine.request_move(&request, wait, cancel) {
            Ok(reply) => reply,
            Err(fault) => {
                engine.faulted = true;
                let clocked = remaining[i].is_some() || own.movetime.is_some();
                let (termination, detail) = fault_ending(side, &fault, clocked)?;
                break finish(moves, GameResult::win_for(side.flip()), termination, detail);
            }
        };
        let allowed = remaining[i]
            .or(own.movetime)
            .map(|limit| limit + settings.margin);
        if let Some(allowed) = allowed {
            if reply.elapsed > allowed {
                let detail = format!(
                    "{} loses on time: it took {:.3} s, {:.3} s allowed",
                    side.name(),
                    reply.elapsed.as_secs_f64(),
                    allowed.as_secs_f64()
                );
                break finish(
                    moves,
                    GameResult::win_for(side.flip()),
                    Termination::TimeForfeit,
                    detail,
                );
            }
        }
        if reply.resigned {
            let detail = format!("{} resigns", side.name());
            break finish(
                moves,
                GameResult::win_for(side.flip()),
                Termination::Resignation,
                detail,
            );
        }
        let parsed = if reply.text.is_ascii() && !reply.text.is_empty() {
            record
                .position()
                .parse_move(&reply.text)
                .map_err(|error| error.to_string())
        } else {
            Err("it is not a move".to_string())
        };
        let mv = match parsed {
            Ok(mv) => mv,
            Err(error) => {
                engine.faulted = true;
                let detail = format!(
                    "{} played the illegal move '{}' in {}: {error}",
                    side.name(),
                    reply.text.escape_debug(),
                    record.position().fen()
                );
                break finish(
                    moves,
                    GameResult::win_for(side.flip()),
                    Termination::IllegalMove,
                    detail,
                );
            }
        };
        let text = record.position().move_text(mv);
        record.play(mv);
        if let Some(time) = &mut remaining[i] {
            *time = time.saturating_sub(reply.elapsed) + increments[i];
        }
        moves.push(PlayedMove {
            text: text.clone(),
            book: false,
            time_ms: Some(reply.elapsed.as_millis() as u64),
            clock_ms: remaining[i].map(|t| t.as_millis() as u64),
            score: reply.score,
            depth: reply.depth,
        });
        texts.push(text);
        if let Some((result, termination)) =
            adjudicator.after_move(side, reply.score, record.moves().len())
        {
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
            break finish(moves, result, termination, detail);
        }
    };
    for engine in engines {
        engine.game_over();
    }
    Some(game)
}

/// How an engine's fault ends the game; `None` when the game was abandoned.
fn fault_ending(side: Color, fault: &EngineFault, clocked: bool) -> Option<(Termination, String)> {
    let who = side.name();
    Some(match fault {
        EngineFault::Cancelled => return None,
        EngineFault::Crashed(how) => (Termination::Crash, format!("{who} crashed: {how}")),
        EngineFault::Protocol(what) => (Termination::ProtocolError, format!("{who}: {what}")),
        EngineFault::Timeout(waited) => match clocked {
            true => (
                Termination::TimeForfeit,
                format!(
                    "{who} loses on time: no move after {:.3} s",
                    waited.as_secs_f64()
                ),
            ),
            false => (
                Termination::Unresponsive,
                format!("{who} did not answer within {:.1} s", waited.as_secs_f64()),
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_adjudication_needs_both_sides_near_zero_long_enough() {
        let rules = Adjudication {
            draw: Some(DrawRule {
                move_number: 10,
                move_count: 2,
                score: 10,
            }),
            ..Adjudication::default()
        };
        let mut adjudicator = Adjudicator::new(rules);
        let cp = |c| Some(EngineScore::Cp(c));
        // Too early: full move 5.
        for ply in 1..=4 {
            assert_eq!(adjudicator.after_move(Color::White, cp(5), ply), None);
        }
        let mut adjudicator = Adjudicator::new(rules);
        assert_eq!(adjudicator.after_move(Color::White, cp(5), 20), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(-3), 21), None);
        assert_eq!(adjudicator.after_move(Color::White, cp(50), 22), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(0), 23), None);
        assert_eq!(adjudicator.after_move(Color::White, cp(0), 24), None);
        assert_eq!(adjudicator.after_move(Color::Black, None, 25), None);
        for ply in 26..29 {
            assert_eq!(adjudicator.after_move(Color::White, cp(1), ply), None);
        }
        assert_eq!(
            adjudicator.after_move(Color::Black, cp(-10), 29),
            Some((GameResult::Draw, Termination::AdjudicatedDraw))
        );
    }

    #[test]
    fn resign_adjudication_one_and_two_sided() {
        let rule = ResignRule {
            move_count: 2,
            score: 500,
            two_sided: false,
        };
        let rules = Adjudication {
            resign: Some(rule),
            ..Adjudication::default()
        };
        let mut adjudicator = Adjudicator::new(rules);
        let cp = |c| Some(EngineScore::Cp(c));
        assert_eq!(adjudicator.after_move(Color::White, cp(-600), 1), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(0), 2), None);
        assert_eq!(
            adjudicator.after_move(Color::White, Some(EngineScore::Mate(-3)), 3),
            Some((GameResult::BlackWins, Termination::AdjudicatedResign))
        );
        let rules = Adjudication {
            resign: Some(ResignRule {
                two_sided: true,
                ..rule
            }),
            ..Adjudication::default()
        };
        let mut adjudicator = Adjudicator::new(rules);
        assert_eq!(adjudicator.after_move(Color::White, cp(-600), 1), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(0), 2), None);
        assert_eq!(adjudicator.after_move(Color::White, cp(-600), 3), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(700), 4), None);
        assert_eq!(adjudicator.after_move(Color::White, cp(-600), 5), None);
        assert_eq!(
            adjudicator.after_move(Color::Black, cp(700), 6),
            Some((GameResult::BlackWins, Termination::AdjudicatedResign))
        );
    }
}
