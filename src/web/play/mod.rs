//! The `play` session: a game of chess, Millennium chess or Nichess against Roger from the
//! play page. The session keeps the game (the rules decide every move's legality), the clocks
//! and Roger's engine; it sends the page a full state after every change and Roger's progress
//! while it thinks. The messages are in `docs/web-play.md`.

mod clock;
mod game;
mod pgn;
mod request;
mod settings;

#[cfg(test)]
mod tests;

use super::session::{Outbox, PageSession};
use crate::engine::{
    BestMove, Engine, GoParams, OptionValue, Report, SideClock, MULTI_PV, SKILL_LEVEL, UCI_VARIANT,
};
use crate::rules::Color;
use crate::search::Score;
use game::PlayGame;
use request::{AnalyseRequest, NewGame, PlayRequest};
use serde_json::json;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Roger thinking on one move: its progress and its answer come through these.
struct Search {
    reports: Receiver<Report>,
    best: Receiver<BestMove>,
}

#[derive(Default)]
pub struct PlaySession {
    /// Made at the first game: building it warms up every game's tables.
    engine: Option<Engine>,
    game: Option<PlayGame>,
    search: Option<Search>,
    /// An analysis's latest line for each MultiPV index (the first is the best).
    lines: Vec<Option<serde_json::Value>>,
}

impl PlaySession {
    pub fn new() -> PlaySession {
        PlaySession::default()
    }

    fn send_state(&self, out: &Outbox) {
        if let Some(game) = &self.game {
            out.send(game.state(self.search.is_some(), Instant::now()));
        }
    }

    /// Stops Roger's search, if any, and forgets its answer.
    fn stop_search(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.stop();
        }
        self.search = None;
    }

    fn new_game(&mut self, request: &NewGame, out: &Outbox) {
        let random = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| crate::common::rng::mix(d.as_nanos() as u64));
        let settings = match settings::parse(request, random) {
            Ok(settings) => settings,
            Err(error) => return out.error(error),
        };
        // The FEN is checked before anything is touched: a bad one leaves the game as it was.
        let game = match PlayGame::new(settings, Instant::now()) {
            Ok(game) => game,
            Err(error) => return out.error(error),
        };
        self.start(game, out);
    }

    /// Roger analyses a position: full strength, several lines, either side moves.
    fn analyse(&mut self, request: &AnalyseRequest, out: &Outbox) {
        let (settings, lines) = match settings::analysis(request) {
            Ok(found) => found,
            Err(error) => return out.error(error),
        };
        match PlayGame::analysis(settings, &request.moves, lines, Instant::now()) {
            Ok(game) => self.start(game, out),
            Err(error) => out.error(error),
        }
    }

    /// Makes `game` the session's game: Roger's search stopped, its options set for the game
    /// (one line in a game, the analysis's lines in an analysis), and the first state sent.
    fn start(&mut self, game: PlayGame, out: &Outbox) {
        self.stop_search();
        self.lines.clear();
        let engine = self.engine.get_or_insert_with(Engine::new);
        let options = [
            (
                UCI_VARIANT,
                OptionValue::Combo(game.settings.game_name.to_string()),
            ),
            (SKILL_LEVEL, OptionValue::Spin(game.settings.skill.into())),
            (
                MULTI_PV,
                OptionValue::Spin(game.analysis.unwrap_or(1) as i64),
            ),
        ];
        for (name, value) in options {
            let shown = value.text();
            if let Err(error) = engine.set_option(name, value) {
                return out.error(format!("new: Roger refused {name} {shown}: {error}"));
            }
        }
        engine.new_game();
        self.game = Some(game);
        self.send_state(out);
    }

    fn human_move(&mut self, text: &str, out: &Outbox) {
        let Some(game) = &mut self.game else {
            return out.error("move: no game yet; start one with \"new\"");
        };
        if game.engines_turn() {
            return out.error(format!(
                "move: '{text}' comes too early: it is Roger's turn"
            ));
        }
        let analysing = game.analysis.is_some();
        match game.play(text, false, Instant::now()) {
            Ok(()) => {
                if analysing {
                    // The analysis of the position before the move is over; the next poll
                    // starts the new one.
                    self.stop_search();
                    self.lines.clear();
                }
                self.send_state(out)
            }
            Err(error) => out.error(format!("move: {error}")),
        }
    }

    fn take_back(&mut self, out: &Outbox) {
        let Some(game) = &self.game else {
            return out.error("takeback: no game yet");
        };
        // Checked before Roger's search is stopped: a refused takeback changes nothing.
        if game.moves.iter().all(|played| played.by_engine) {
            return out.error("takeback: you have made no move to take back");
        }
        self.stop_search();
        let Some(game) = &mut self.game else { return };
        match game.take_back(Instant::now()) {
            Ok(_) => self.send_state(out),
            Err(error) => out.error(error),
        }
    }

    fn resign(&mut self, out: &Outbox) {
        let Some(game) = &mut self.game else {
            return out.error("resign: no game yet");
        };
        if let Some(ended) = &game.ended {
            return out.error(format!("resign: the game is over ({})", ended.reason));
        }
        let winner = game.settings.human.flip();
        game.end(Some(winner), "you resigned", Instant::now());
        self.stop_search();
        self.send_state(out);
    }

    /// A draw offer: Roger accepts when its last search of the game scored its own side at
    /// most level (a mate against it included), and declines when it thinks it stands better
    /// or has not searched yet; either way the page is told, and a declined game goes on.
    fn offer_draw(&mut self, out: &Outbox) {
        let Some(game) = &mut self.game else {
            return out.error("offer_draw: no game yet");
        };
        if game.analysis.is_some() {
            return out.error("offer_draw: an analysis is not a game");
        }
        if let Some(ended) = &game.ended {
            return out.error(format!("offer_draw: the game is over ({})", ended.reason));
        }
        // Mating counts as far better, being mated as far worse.
        let own = game.engine_score.map(|score| match score {
            Score::Cp(cp) => cp,
            Score::Mate(moves) if moves > 0 => i32::MAX,
            Score::Mate(_) => i32::MIN,
        });
        let accepted = own.is_some_and(|cp| cp <= 0);
        let why = match own {
            None => "Roger has not looked at the position yet".to_string(),
            Some(cp) if cp > 0 => "Roger thinks it stands better".to_string(),
            Some(_) => "Roger does not think it stands better".to_string(),
        };
        out.send(json!({ "type": "draw_offer", "accepted": accepted, "why": why }));
        if accepted {
            game.end(None, "draw agreed", Instant::now());
            self.stop_search();
            self.send_state(out);
        }
    }

    fn pgn(&self, out: &Outbox) {
        let Some(game) = &self.game else {
            return out.error("pgn: no game yet");
        };
        let name = format!("roger-{}.pgn", game.settings.game_name);
        out.send(json!({ "type": "pgn", "name": name, "pgn": game.pgn() }));
    }

    /// Starts Roger's search when it is its turn.
    fn think(&mut self, out: &Outbox) {
        let (Some(game), Some(engine)) = (&self.game, &mut self.engine) else {
            return;
        };
        let analysing = game.analysis.is_some() && game.ended.is_none();
        if self.search.is_some() || !(game.engines_turn() || analysing) {
            return;
        }
        let moves: Vec<String> = game.moves.iter().map(|m| m.text.clone()).collect();
        if let Err(error) = engine.set_position(Some(&game.start_fen), &moves) {
            return self.give_up(format!("Roger could not take the position: {error}"), out);
        }
        let now = Instant::now();
        let side = |color| SideClock {
            time: Some(game.clocks.left(color, now)),
            increment: Some(game.clocks.increment()),
        };
        let params = if analysing {
            GoParams {
                infinite: true,
                ..GoParams::default()
            }
        } else {
            GoParams {
                clocks: [side(Color::White), side(Color::Black)],
                movetime: game.settings.movetime,
                ..GoParams::default()
            }
        };
        let (report_to, reports) = mpsc::channel();
        let (best_to, best) = mpsc::channel();
        let started = engine.go(
            &params,
            move |report| {
                let _ = report_to.send(report);
            },
            move |answer| {
                let _ = best_to.send(answer);
            },
        );
        match started {
            Ok(()) => {
                self.search = Some(Search { reports, best });
                self.send_state(out);
            }
            Err(error) => self.give_up(format!("Roger could not start thinking: {error}"), out),
        }
    }

    /// Roger cannot play on: the game ends, rather than the page getting the same error at
    /// every poll.
    fn give_up(&mut self, error: String, out: &Outbox) {
        out.error(&error);
        if let Some(game) = &mut self.game {
            game.end(Some(game.settings.human), &error, Instant::now());
        }
        self.send_state(out);
    }

    /// An analysis's lines as they come: the latest of each MultiPV index, all sent together
    /// (at most once a poll), with scores from White's side.
    fn follow_analysis(&mut self, out: &Outbox) {
        let (Some(search), Some(game)) = (&self.search, &self.game) else {
            return;
        };
        let sign = if game.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        let mut changed = false;
        for report in search.reports.try_iter() {
            let Report::Progress(info) = report else {
                continue;
            };
            let index = (info.multipv.max(1) - 1) as usize;
            if self.lines.len() <= index {
                self.lines.resize(index + 1, None);
            }
            self.lines[index] = Some(json!({
                "multipv": info.multipv.max(1),
                "depth": info.depth,
                "score": white_score(info.score, sign),
                "pv": info.pv,
            }));
            changed = true;
        }
        if changed {
            let lines = distinct_lines(&self.lines);
            out.send(json!({ "type": "analysis", "fen": game.fen(), "lines": lines }));
        }
    }

    /// Forwards Roger's latest progress and plays its answer once it comes.
    fn follow_search(&mut self, out: &Outbox) {
        if self
            .game
            .as_ref()
            .is_some_and(|game| game.analysis.is_some())
        {
            return self.follow_analysis(out);
        }
        let (Some(search), Some(game)) = (&self.search, &mut self.game) else {
            return;
        };
        let engine_white = game.settings.human == Color::Black;
        let latest = search
            .reports
            .try_iter()
            .filter_map(|report| match report {
                Report::Progress(info) if info.multipv <= 1 => Some(info),
                _ => None,
            })
            .last();
        if let Some(info) = latest {
            // Scores are Roger's own; the page shows them from White's side.
            let sign = if engine_white { 1 } else { -1 };
            let score = white_score(info.score, sign);
            let eval = json!({
                "depth": info.depth,
                "seldepth": info.seldepth,
                "score": score,
                "nodes": info.nodes,
                "time_ms": info.time.as_millis() as u64,
                "pv": info.pv,
            });
            out.send(json!({ "type": "thinking", "eval": eval }));
            game.eval = Some(eval);
            game.engine_score = Some(info.score);
        }
        let answer = match search.best.try_recv() {
            Ok(answer) => answer,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => BestMove::default(),
        };
        self.search = None;
        let now = Instant::now();
        match answer.best {
            Some(text) => {
                // The rules check Roger's move like any other; it is never played unchecked.
                if let Err(error) = game.play(&text, true, now) {
                    out.error(format!("Roger's move '{text}' was refused: {error}"));
                    game.end(Some(game.settings.human), "Roger gave an illegal move", now);
                }
            }
            None => {
                out.error("Roger found no move in a game that goes on");
                game.end(Some(game.settings.human), "Roger gave no move", now);
            }
        }
        self.send_state(out);
    }

    /// A fallen flag ends the game.
    fn check_flag(&mut self, out: &Outbox) {
        let Some(game) = &mut self.game else { return };
        let now = Instant::now();
        if game.ended.is_some() {
            return;
        }
        if let Some(side) = game.clocks.flagged(now) {
            game.end(
                Some(side.flip()),
                &format!("{} lost on time", side.name()),
                now,
            );
            self.stop_search();
            self.send_state(out);
        }
    }
}

/// A score of the side to move as the page shows it: from White's side (`sign` is -1 when
/// Black is to move).
fn white_score(score: Score, sign: i32) -> serde_json::Value {
    match score {
        Score::Cp(cp) => json!({ "cp": cp * sign }),
        Score::Mate(moves) => json!({ "mate": moves * sign }),
    }
}

impl PageSession for PlaySession {
    type Request = PlayRequest;

    fn request(&mut self, request: PlayRequest, out: &Outbox) {
        match request {
            PlayRequest::New(new_game) => self.new_game(&new_game, out),
            PlayRequest::Analyse(request) => self.analyse(&request, out),
            PlayRequest::Move { text } => self.human_move(&text, out),
            PlayRequest::Takeback => self.take_back(out),
            PlayRequest::Resign => self.resign(out),
            PlayRequest::OfferDraw => self.offer_draw(out),
            PlayRequest::Pgn => self.pgn(out),
            PlayRequest::Position { ply } => match &self.game {
                Some(game) => match game.position_at(ply) {
                    Ok(position) => out.send(position),
                    Err(error) => out.error(error),
                },
                None => out.error("position: no game yet; start one with \"new\""),
            },
            PlayRequest::State => match &self.game {
                Some(_) => self.send_state(out),
                None => out.error("state: no game yet; start one with \"new\""),
            },
        }
    }

    fn poll(&mut self, out: &Outbox) {
        self.check_flag(out);
        self.follow_search(out);
        self.think(out);
    }
}

/// The lines to show, best first, each with a first move of its own. The latest line of each
/// MultiPV index is kept, so between two reports of one depth a line of the new depth stands
/// beside the older depth's lines, and its move may be one of theirs: that older line is left
/// out until its own report comes.
fn distinct_lines(lines: &[Option<serde_json::Value>]) -> Vec<&serde_json::Value> {
    let mut shown: Vec<&serde_json::Value> = Vec::new();
    for line in lines.iter().flatten() {
        let first = line["pv"].get(0);
        if first.is_none() || shown.iter().all(|other| other["pv"].get(0) != first) {
            shown.push(line);
        }
    }
    shown
}
