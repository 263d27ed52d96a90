//! One game against Roger as the session keeps it: the record of the rules, the moves with the
//! clocks before each, the result, and the state message the page draws from.

use super::clock::Clocks;
use super::settings::Settings;
use crate::rules::chess::san;
use crate::rules::registry::{bind_game, dispatch, AnyGame, TurnGame};
use crate::rules::{Color, Game, MoveList, Outcome};
use crate::search::Score;
use crate::web::view::{self, PieceView};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A move as played.
#[derive(Clone, Debug)]
pub struct Played {
    pub text: String,
    /// Chess only: standard algebraic notation.
    pub san: Option<String>,
    pub by_engine: bool,
    /// Both clocks just before the move, for a takeback.
    pub clocks_before: [Duration; 2],
    pub fen_after: String,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    pub winner: Option<Color>,
    pub reason: String,
}

impl Ended {
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

pub struct PlayGame {
    pub settings: Settings,
    pub record: AnyGame,
    pub start_fen: String,
    pub moves: Vec<Played>,
    pub clocks: Clocks,
    pub ended: Option<Ended>,
    /// The last progress of Roger's search, as sent to the page.
    pub eval: Option<Value>,
    /// Roger's last score of this game, from its own side (what a draw offer asks about).
    pub engine_score: Option<Score>,
    /// An analysis, not a game: how many lines Roger shows. Either side moves and no clock runs.
    pub analysis: Option<usize>,
}

fn color_name(color: Color) -> &'static str {
    color.name()
}

impl PlayGame {
    /// A game from the settings' FEN (or the start); an invalid FEN is an error that says why.
    pub fn new(settings: Settings, now: Instant) -> Result<PlayGame, String> {
        let record = TurnGame::start(settings.game)
            .with_position(settings.fen.as_deref(), &[])
            .map_err(|error| format!("new: {error}"))?;
        let start_fen = dispatch!(&record, r => r.position().fen());
        let mut game = PlayGame {
            clocks: Clocks::new(settings.base, settings.increment),
            settings,
            record,
            start_fen,
            moves: Vec::new(),
            ended: None,
            eval: None,
            engine_score: None,
            analysis: None,
        };
        game.check_end(now);
        if game.ended.is_none() {
            game.clocks.start(game.side_to_move(), now);
        }
        Ok(game)
    }

    pub fn side_to_move(&self) -> Color {
        dispatch!(&self.record, r => r.position().side_to_move())
    }

    pub fn fen(&self) -> String {
        dispatch!(&self.record, r => r.position().fen())
    }

    /// An analysis of the start FEN after `moves`, showing `lines` lines: nothing of the clock.
    pub fn analysis(
        settings: Settings,
        moves: &[String],
        lines: usize,
        now: Instant,
    ) -> Result<PlayGame, String> {
        let mut game =
            PlayGame::new(settings, now).map_err(|e| e.replacen("new:", "analyse:", 1))?;
        game.clocks.stop(now);
        game.analysis = Some(lines);
        for (index, text) in moves.iter().enumerate() {
            game.play(text, false, now)
                .map_err(|error| format!("analyse: move {} '{text}': {error}", index + 1))?;
        }
        Ok(game)
    }

    /// The player may move: in a game on its own turn, in an analysis always (for either side).
    pub fn humans_turn(&self) -> bool {
        self.ended.is_none()
            && (self.analysis.is_some() || self.side_to_move() == self.settings.human)
    }

    /// Roger is to move in a game (never in an analysis).
    pub fn engines_turn(&self) -> bool {
        self.analysis.is_none()
            && self.ended.is_none()
            && self.side_to_move() != self.settings.human
    }

    /// Every legal move of the side to move, in the protocol's notation.
    pub fn legal_moves(&self) -> Vec<String> {
        dispatch!(&self.record, r => {
            let position = r.position();
            let mut moves = MoveList::new();
            position.generate_moves(&mut moves);
            moves.iter().map(|&mv| position.move_text(mv)).collect()
        })
    }

    /// The legal moves in standard notation, in [`PlayGame::legal_moves`]' order (chess only: the
    /// other games have none; the page's typed moves match them).
    pub fn legal_san(&self) -> Vec<String> {
        match &self.record {
            AnyGame::Chess(r) => {
                let position = r.position();
                let mut moves = MoveList::new();
                position.generate_moves(&mut moves);
                moves.iter().map(|&mv| san::write(position, mv)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Plays `text` if it is legal here, charging the mover's clock.
    pub fn play(&mut self, text: &str, by_engine: bool, now: Instant) -> Result<(), String> {
        if let Some(ended) = &self.ended {
            return Err(format!("the game is over ({})", ended.reason));
        }
        if !text.is_ascii() {
            return Err(format!("'{text}' is not a move"));
        }
        let san = match &self.record {
            AnyGame::Chess(r) => r
                .position()
                .parse_move(text)
                .ok()
                .map(|mv| san::write(r.position(), mv)),
            _ => None,
        };
        let mut record = self.record.clone();
        dispatch!(&mut record, r => r.play_text(text).map(|_| ())).map_err(|e| e.to_string())?;
        let clocks_before = self.clocks.snapshot(now);
        self.clocks.moved(now);
        self.record = record;
        self.moves.push(Played {
            text: text.to_string(),
            san,
            by_engine,
            clocks_before,
            fen_after: self.fen(),
        });
        self.check_end(now);
        Ok(())
    }

    fn check_end(&mut self, now: Instant) {
        let outcome = dispatch!(&self.record, r => r.outcome());
        self.ended = match outcome {
            Outcome::Ongoing => None,
            Outcome::Win(winner, reason) => Some(Ended {
                winner: Some(winner),
                reason: reason.text().to_string(),
            }),
            Outcome::Draw(reason) => Some(Ended {
                winner: None,
                reason: reason.text().to_string(),
            }),
        };
        if self.ended.is_some() {
            self.clocks.stop(now);
        }
    }

    /// Ends the game with `winner` for `reason` (a flag, a resignation).
    pub fn end(&mut self, winner: Option<Color>, reason: &str, now: Instant) {
        self.clocks.stop(now);
        self.ended = Some(Ended {
            winner,
            reason: reason.to_string(),
        });
    }

    /// Takes back the human's last move and Roger's answer to it, if any; the clocks go back
    /// to where they stood before the human's move, and the game goes on.
    pub fn take_back(&mut self, now: Instant) -> Result<usize, String> {
        let Some(last_human) = self.moves.iter().rposition(|played| !played.by_engine) else {
            return Err("takeback: you have made no move to take back".into());
        };
        let keep: Vec<String> = self.moves[..last_human]
            .iter()
            .map(|played| played.text.clone())
            .collect();
        let record = self
            .record
            .with_position(Some(&self.start_fen), &keep)
            .map_err(|error| format!("takeback: {error}"))?;
        let undone = self.moves.len() - last_human;
        self.clocks.restore(self.moves[last_human].clocks_before);
        self.moves.truncate(last_human);
        self.record = record;
        self.ended = None;
        self.eval = None;
        self.engine_score = None;
        self.check_end(now);
        if self.ended.is_none() && self.analysis.is_none() {
            self.clocks.start(self.side_to_move(), now);
        }
        Ok(undone)
    }

    fn size(&self) -> (usize, usize) {
        bind_game!(self.record.kind(), G => (usize::from(G::FILES), usize::from(G::RANKS)))
    }

    fn pieces_of(&self, fen: &str) -> Vec<PieceView> {
        let (files, ranks) = self.size();
        // The rules wrote this FEN; a reader that cannot follow it shows an empty board.
        view::parse_placement(fen, self.record.kind(), files, ranks).unwrap_or_default()
    }

    /// The squares of the last move: from and to.
    fn last_move(&self) -> Option<(String, String)> {
        view::move_squares(&self.moves.last()?.text)
    }

    /// The FEN before move `index` (0-based).
    fn fen_before(&self, index: usize) -> &str {
        match index {
            0 => &self.start_fen,
            _ => &self.moves[index - 1].fen_after,
        }
    }

    /// Nichess: the squares besides its target whose enemy pieces move `index` hurt (a
    /// throw's splash); empty in the other games.
    fn splash_of(&self, index: usize) -> Vec<String> {
        if self.record.kind() != TurnGame::Nichess {
            return Vec::new();
        }
        let Some((_, to)) = view::move_squares(&self.moves[index].text) else {
            return Vec::new();
        };
        let before_fen = self.fen_before(index);
        let mover_white = before_fen.split_whitespace().nth(1) == Some("w");
        let before = self.pieces_of(before_fen);
        let after = self.pieces_of(&self.moves[index].fen_after);
        view::splash(&before, &after, mover_white, &to)
    }

    /// Millennium: pools and kings after the first `plies` moves; where each side's keystone
    /// king fell.
    fn millennium(&self, pieces: &[PieceView], fen: &str, plies: usize) -> Value {
        let (white_pool, black_pool) = view::pools(fen);
        let mut fallen: [Option<String>; 2] = [None, None];
        let mut before = self.pieces_of(&self.start_fen);
        for played in &self.moves[..plies] {
            let after = self.pieces_of(&played.fen_after);
            for color in [Color::White, Color::Black] {
                if fallen[color.index()].is_none() {
                    fallen[color.index()] =
                        view::fallen_keystone(&before, &after, color == Color::White);
                }
            }
            before = after;
        }
        let kings = |color: Color| {
            let squares = view::king_squares(pieces, color == Color::White);
            json!({
                "squares": squares,
                // One king left: it is royal (the first to fall was the keystone).
                "royal": squares.len() == 1,
                "keystone_fell_on": fallen[color.index()],
            })
        };
        json!({
            "pools": { "white": white_pool, "black": black_pool },
            "kings": { "white": kings(Color::White), "black": kings(Color::Black) },
        })
    }

    /// Everything the page draws, as one message.
    pub fn state(&self, thinking: bool, now: Instant) -> Value {
        let (files, ranks) = self.size();
        let fen = self.fen();
        let kind = self.record.kind();
        let pieces = self.pieces_of(&fen);
        let splash = self
            .moves
            .len()
            .checked_sub(1)
            .map_or_else(Vec::new, |i| self.splash_of(i));
        let moves: Vec<Value> = self
            .moves
            .iter()
            .enumerate()
            .map(|(index, played)| {
                json!({
                    "ply": index + 1,
                    "text": played.text,
                    "san": played.san,
                    "by": if played.by_engine { "roger" } else { "you" },
                    "splash": self.splash_of(index),
                })
            })
            .collect();
        let running = self.clocks.running().map(color_name);
        let mut state = json!({
            "type": "state",
            "game": self.settings.game_name,
            "chess960": self.settings.chess960,
            "files": files,
            "ranks": ranks,
            "human": color_name(self.settings.human),
            "skill": self.settings.skill,
            "fen": fen,
            "start_fen": self.start_fen,
            "side_to_move": color_name(self.side_to_move()),
            "your_turn": self.humans_turn(),
            "pieces": pieces.iter().map(|p| p.json(kind)).collect::<Vec<_>>(),
            "legal": if self.humans_turn() { self.legal_moves() } else { Vec::new() },
            "legal_san": if self.humans_turn() { self.legal_san() } else { Vec::new() },
            "moves": moves,
            "last_move": self.last_move().map(|(from, to)| json!({"from": from, "to": to})),
            "clocks": {
                "white": self.clocks.left(Color::White, now).as_millis() as u64,
                "black": self.clocks.left(Color::Black, now).as_millis() as u64,
                "running": running,
                "increment": self.clocks.increment().as_millis() as u64,
            },
            "result": self.ended.as_ref().map(|ended| json!({
                "result": ended.result_text(),
                "winner": ended.winner.map(color_name),
                "reason": ended.reason,
            })),
            "thinking": thinking,
            "eval": self.eval,
            "analysis": self.analysis,
            "splash": splash,
        });
        if kind == TurnGame::Millennium {
            state["millennium"] = self.millennium(&pieces, &fen, self.moves.len());
        }
        state
    }

    /// The position after the first `ply` moves (0: the start), for stepping back through the
    /// game: what the board draws of it, and nothing of the clocks or the legal moves.
    pub fn position_at(&self, ply: usize) -> Result<Value, String> {
        if ply > self.moves.len() {
            return Err(format!(
                "position: ply {ply} is past the game's last move ({})",
                self.moves.len()
            ));
        }
        let fen = self.fen_before(ply).to_string();
        let kind = self.record.kind();
        let pieces = self.pieces_of(&fen);
        let last_move = ply
            .checked_sub(1)
            .and_then(|index| view::move_squares(&self.moves[index].text));
        let splash = ply
            .checked_sub(1)
            .map_or_else(Vec::new, |index| self.splash_of(index));
        let mut position = json!({
            "type": "position",
            "ply": ply,
            "fen": fen,
            "pieces": pieces.iter().map(|p| p.json(kind)).collect::<Vec<_>>(),
            "last_move": last_move.map(|(from, to)| json!({"from": from, "to": to})),
            "splash": splash,
        });
        if kind == TurnGame::Millennium {
            position["millennium"] = self.millennium(&pieces, &fen, ply);
        }
        Ok(position)
    }

    /// The game as PGN.
    pub fn pgn(&self) -> String {
        let written: Vec<String> = self
            .moves
            .iter()
            .map(|played| played.san.clone().unwrap_or_else(|| played.text.clone()))
            .collect();
        let roger = format!("Roger (skill {})", self.settings.skill);
        let (white, black) = match self.settings.human {
            Color::White => ("You".to_string(), roger),
            Color::Black => (roger, "You".to_string()),
        };
        let standard = dispatch!(&TurnGame::start(self.record.kind()), r => r.position().fen());
        let increment = self.settings.increment.as_secs_f64();
        let time_control = format!("{}+{}", self.settings.base.as_secs_f64(), increment);
        let (result, reason) = match &self.ended {
            Some(ended) => (ended.result_text(), ended.reason.as_str()),
            None => ("*", ""),
        };
        super::pgn::write(&super::pgn::PgnGame {
            variant: if self.settings.chess960.is_some() {
                "Chess960"
            } else {
                self.settings.game_name
            },
            start_fen: &self.start_fen,
            standard_fen: &standard,
            moves: &written,
            white: &white,
            black: &black,
            result,
            reason,
            time_control: &time_control,
            date: &crate::common::date::today(),
        })
    }
}
