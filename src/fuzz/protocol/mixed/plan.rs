//! The lines of the realtime and Megachess runs, planned from the driver's models: each with
//! its expectation (protocol.md, and the decisions of issue 26), and the model changed as an
//! accepted line changes the engine.

mod megachess;
mod stream;

use super::{Current, Home, Job, Line, Mixed, Show, Work};
use crate::fuzz::protocol::corrupt::{binary_line, pick};
use crate::fuzz::protocol::model;
use crate::fuzz::protocol::realtime::{corrupt_state, en_passant_marked, random_state, Referee};
use crate::fuzz::protocol::step::Expect;
use crate::rules::realtime::{Color, RealtimeState};
use crate::rules::registry::TurnGame;
use std::time::Instant;

/// Every game a switch may name.
const GAMES: [&str; 5] = ["chess", "nichess", "millennium", "realtime", "megachess"];

/// Lines every family refuses the same way (or its own way, with one error).
const GARBAGE: &[&str] = &[
    "xyzzy",
    "ponderhit",
    "bench",
    "register",
    "Go",
    "STOP",
    "stop now",
    "ucinewgame x",
    "isready now",
    "setoption name nosuch value 1",
    "setoption name UCI_Variant value nosuch",
    "setoption",
];

const REALTIME_GARBAGE: &[&str] = &[
    "go depth 3",
    "go",
    "go infinite",
    "go movetime 5",
    "go side red",
    "go side white movetime -5",
    "go side white movetime 86400001",
    "go side white nodes 5",
    "go side white movetime 5 x",
    "position",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "position startpos moves e2e4",
    "position state",
    "position megachess size 8 8 turn 1 me 1 players 1:a pieces 1K0,0",
    "play",
    "play red",
    "play white movetime x",
    "play white depth 3",
    "setoption name tick_ms value 5",
    "setoption name tick_ms value 60001",
    "setoption name delay_ticks value -1",
    "setoption name no_capture_draw_ticks value 0",
    "setoption name tick_ms value fast",
    "go side white\u{b}movetime 5",
    "go side\u{c}white",
    "position\u{a0}startpos",
];

impl Mixed {
    fn chance(&mut self, per_thousand: usize) -> bool {
        self.rng.index(1000) < per_thousand
    }

    fn current_name(&self) -> &'static str {
        match self.current {
            Current::Turn => self.turn_game.start().variant(),
            Current::Realtime => "realtime",
            Current::Megachess => "megachess",
        }
    }

    fn home_name(&self) -> &'static str {
        match self.settings.home {
            Home::Realtime => "realtime",
            Home::Megachess => "megachess",
        }
    }

    /// The next line.
    pub(super) fn plan(&mut self) -> Line {
        let idle = self.job.is_none();
        if self.current_name() != self.home_name() {
            if idle && self.away == 0 {
                let home = self.home_name();
                return self.switch(home);
            }
            self.away = self.away.saturating_sub(1);
        }
        if self.chance(8) {
            let bytes = binary_line(&mut self.rng);
            return Line::new(bytes, "binary", Expect::Bad);
        }
        match self.current {
            Current::Turn => self.plan_turn(),
            Current::Realtime => self.plan_realtime(),
            Current::Megachess => self.plan_megachess(),
        }
    }

    /// Lines in the turn dialect: searches of the start position, `d`, switches.
    fn plan_turn(&mut self) -> Line {
        if self.job.is_some() {
            if self.busy_lines == 0 {
                return self.ending_switch_or_stop();
            }
            // A second `go` is refused only while the first surely runs (a timed one may have
            // answered already).
            let endless = self.job.as_ref().is_some_and(|job| job.endless);
            return match self.rng.index(4) {
                0 => Line::good("isready", "isready"),
                1 => self.turn_display(),
                _ if endless => Line::bad("go depth 1", "busy: go"),
                _ => Line::good("isready", "isready"),
            };
        }
        match self.rng.index(10) {
            0..=3 => {
                let (text, timed) = match self.rng.index(2) {
                    0 => ("go depth 1".to_string(), 0),
                    _ => {
                        let ms = 1 + self.rng.index(10) as u64;
                        (format!("go movetime {ms}"), ms)
                    }
                };
                let mut line = Line::good(text, "turn: go");
                line.starts = Some(self.job(
                    Work::Turn {
                        legal: self.turn_legal(),
                    },
                    Some(timed),
                    false,
                ));
                self.busy_lines = self.rng.index(2);
                line
            }
            4 => {
                let mut line = Line::good("go infinite", "turn: go infinite");
                line.starts = Some(self.job(
                    Work::Turn {
                        legal: self.turn_legal(),
                    },
                    None,
                    true,
                ));
                self.busy_lines = 1 + self.rng.index(3);
                line
            }
            5..=6 => self.turn_display(),
            7 => Line::good("isready", "isready"),
            _ => {
                let game = *pick(&mut self.rng, &GAMES);
                self.switch(game)
            }
        }
    }

    fn turn_display(&mut self) -> Line {
        let mut line = Line::good("d", "d");
        line.show = Show::Fen(model::fen(&self.turn_game.start()));
        line
    }

    fn job(&self, work: Work, timed: Option<u64>, endless: bool) -> Job {
        Job {
            work,
            timed,
            endless,
            started: Instant::now(),
        }
    }

    /// `setoption name UCI_Variant value <game>`, with the model switched.
    pub(super) fn switch(&mut self, game: &'static str) -> Line {
        let name = *pick(
            &mut self.rng,
            &["UCI_Variant", "uci_variant", "UCI_VARIANT"],
        );
        let value = match self.rng.index(5) {
            0 => game.to_uppercase(),
            _ => game.to_string(),
        };
        let mut line = Line::good(
            format!("setoption name {name} value {value}"),
            "setoption UCI_Variant",
        );
        line.announce = Some((game != self.current_name()).then_some(game));
        if self.job.is_some() {
            line.ends_job = true;
            line.switch_during_job = true;
            line.kind = "setoption UCI_Variant (during a job)";
            self.job_ended_in_model();
        }
        let home = self.home_name();
        self.current = match game {
            "realtime" => Current::Realtime,
            "megachess" => Current::Megachess,
            turn => {
                let kind = [TurnGame::Chess, TurnGame::Nichess, TurnGame::Millennium]
                    .into_iter()
                    .find(|kind| kind.start().variant() == turn)
                    .unwrap_or(TurnGame::Chess);
                self.turn_game = kind;
                Current::Turn
            }
        };
        if game != home && self.away == 0 {
            self.away = 1 + self.rng.index(6);
        }
        line
    }

    /// A switch to another game (or, now and then, `stop`): what ends a job at its time.
    fn ending_switch_or_stop(&mut self) -> Line {
        if self.rng.index(3) == 0 {
            let game = *pick(&mut self.rng, &GAMES);
            let streaming_same = self.referee.is_some() && game == "realtime";
            if !streaming_same {
                return self.switch(game);
            }
        }
        let mut line = Line::good("stop", "stop");
        line.ends_job = true;
        self.job_ended_in_model();
        line
    }
    /// What a busy run of any game may be sent at `roll` 14 to 17 (of 20): a switch to the
    /// same game during the job, a switch to any game, or (at 17, one time in ten) `quit`;
    /// `None` leaves the roll to the game's own lines.
    fn busy_switch_or_quit(&mut self, roll: usize, same: &'static str) -> Option<Line> {
        Some(match roll {
            14 => {
                let mut line = self.switch(same);
                line.kind = "setoption UCI_Variant (the same game, during a job)";
                line
            }
            15..=16 => {
                let game = *pick(&mut self.rng, &GAMES);
                self.switch(game)
            }
            17 if self.rng.index(10) == 0 => {
                let mut line = Line::good("quit", "quit");
                line.quit = true;
                line
            }
            _ => return None,
        })
    }

    fn garbage(&mut self, own: &[&str]) -> Line {
        let text = match self.rng.index(3) {
            0 => *pick(&mut self.rng, GARBAGE),
            _ => *pick(&mut self.rng, own),
        };
        Line::bad(text, "garbage")
    }

    /// A line with its tokens separated by runs of spaces and tabs (valid).
    fn spaced(&mut self, text: &str) -> String {
        let mut out = String::new();
        for (index, word) in text.split(' ').enumerate() {
            if index > 0 {
                for _ in 0..1 + self.rng.index(3) {
                    out.push(*pick(&mut self.rng, &[' ', '\t']));
                }
            }
            out.push_str(word);
        }
        out
    }

    // ---- realtime ----

    fn plan_realtime(&mut self) -> Line {
        if self.referee.is_some() {
            return self.plan_stream();
        }
        if self.job.is_some() {
            return self.plan_realtime_busy();
        }
        match self.rng.index(1000) {
            0..=149 => self.realtime_position(),
            150..=199 => {
                self.rt_state = RealtimeState::start(self.rt_params);
                Line::good("position startpos", "realtime: position startpos")
            }
            200..=329 => {
                let base = random_state(self.rt_params, &mut self.rng);
                let (text, kind) = corrupt_state(&base, &mut self.rng);
                Line::bad(format!("position state {text}"), kind)
            }
            330..=479 => self.realtime_go(),
            480..=559 => self.realtime_play(),
            560..=619 => self.realtime_display(),
            620..=679 => self.realtime_parameter(),
            680..=699 => {
                self.rt_state = RealtimeState::start(self.rt_params);
                Line::good("ucinewgame", "ucinewgame")
            }
            700..=719 => Line::good("stop", "stop"),
            720..=739 => Line::good("isready", "isready"),
            740..=799 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "time 5",
                        "event 0 start white e2e4",
                        "refused 0 e2e4 rule 1 (not ready): no",
                    ],
                );
                Line::bad(text, "realtime: streaming line, not streaming")
            }
            800..=899 => self.garbage(REALTIME_GARBAGE),
            900..=959 => {
                let game = *pick(&mut self.rng, &GAMES);
                self.switch(game)
            }
            960..=961 => {
                let mut line = Line::good("quit", "quit");
                line.quit = true;
                line
            }
            _ => self.uci(),
        }
    }

    fn uci(&mut self) -> Line {
        let mut line = Line::good("uci", "uci");
        line.uci = true;
        line
    }

    fn realtime_position(&mut self) -> Line {
        if self.rng.index(20) == 0 {
            if let Some(text) = en_passant_marked(self.rt_params, &mut self.rng) {
                // The rules of this build read it (after 3d) as Roger does; if they do not,
                // Roger refuses it too and the run restarts.
                if let Ok(state) = RealtimeState::from_text(&text, self.rt_params) {
                    self.rt_state = state;
                }
                return Line::good(
                    format!("position state {text}"),
                    "realtime: position state (en passant mark kept, 3d)",
                );
            }
        }
        let state = random_state(self.rt_params, &mut self.rng);
        let text = format!("position state {}", state.text());
        let text = match self.rng.index(10) {
            0 => self.spaced(&text),
            _ => text,
        };
        self.rt_state = state;
        Line::good(text, "realtime: position state")
    }

    fn realtime_display(&mut self) -> Line {
        let mut line = Line::good("d", "d");
        line.show = Show::State(match &self.referee {
            Some(referee) => referee.truth.text(),
            None => self.rt_state.text(),
        });
        line
    }

    fn realtime_go(&mut self) -> Line {
        let side = *pick(&mut self.rng, &[Color::White, Color::Black]);
        let (text, timed) = match self.rng.index(10) {
            0 => (format!("go side {}", side.name()), Some(50)),
            1 => {
                let ms = 5000 + self.rng.index(86_395_001) as u64;
                (format!("go side {} movetime {ms}", side.name()), None)
            }
            _ => {
                let ms = self.rng.index(40) as u64;
                (format!("go side {} movetime {ms}", side.name()), Some(ms))
            }
        };
        let mut line = Line::good(text, "realtime: go side");
        let work = Work::Realtime {
            state: Box::new(self.rt_state.clone()),
            side,
        };
        line.starts = Some(self.job(work, timed, false));
        self.busy_lines = match timed {
            Some(_) => self.rng.index(3),
            None => 1 + self.rng.index(4),
        };
        line
    }

    fn realtime_play(&mut self) -> Line {
        let side = *pick(&mut self.rng, &[Color::White, Color::Black]);
        let text = match self.rng.index(4) {
            0 => format!("play {}", side.name()),
            _ => format!("play {} movetime {}", side.name(), 1 + self.rng.index(20)),
        };
        let mut line = Line::good(text, "realtime: play");
        line.starts = Some(self.job(Work::Stream, None, false));
        self.referee = Some(Referee::new(side, self.rt_state.clone(), Instant::now()));
        line
    }

    fn realtime_parameter(&mut self) -> Line {
        let (name, low, high) = *pick(
            &mut self.rng,
            &[
                ("tick_ms", 10i64, 60_000i64),
                ("delay_ticks", 0, 1000),
                ("no_capture_draw_ticks", 1, 1_000_000),
            ],
        );
        if self.rng.index(4) == 0 {
            let value = match self.rng.index(3) {
                0 => (low - 1 - self.rng.index(10) as i64).to_string(),
                1 => (high + 1 + self.rng.index(10) as i64).to_string(),
                _ => "x".to_string(),
            };
            return Line::bad(
                format!("setoption name {name} value {value}"),
                "realtime: setoption out of range",
            );
        }
        let value = match (name, self.rng.index(4)) {
            ("tick_ms", 0) => 10 + self.rng.index(2000) as i64,
            ("tick_ms", _) => 10 + self.rng.index(100) as i64,
            ("delay_ticks", _) => self.rng.index(20) as i64,
            (_, 0) => 1 + self.rng.index(1000) as i64,
            _ => 300,
        };
        let mut params = self.rt_params;
        match name {
            "tick_ms" => params.tick_ms = value as u32,
            "delay_ticks" => params.delay_ticks = value as u32,
            _ => params.no_capture_draw_ticks = value as u32,
        }
        self.rt_params = params;
        self.rt_state = RealtimeState::start(params);
        let mut line = Line::good(
            format!("setoption name {name} value {value}"),
            "realtime: setoption",
        );
        if self.job.is_some() {
            line.ends_job = true;
        }
        line
    }

    fn plan_realtime_busy(&mut self) -> Line {
        if self.busy_lines == 0 {
            return match self.rng.index(5) {
                0 => {
                    let mut line = self.realtime_position();
                    line.ends_job = true;
                    line
                }
                1 => {
                    let line = self.realtime_parameter();
                    if line.expect == Expect::Bad {
                        return self.ending_switch_or_stop();
                    }
                    line
                }
                2 => {
                    self.rt_state = RealtimeState::start(self.rt_params);
                    let mut line = Line::good("ucinewgame", "ucinewgame");
                    line.ends_job = true;
                    line
                }
                _ => self.ending_switch_or_stop(),
            };
        }
        let roll = self.rng.index(20);
        match roll {
            0..=3 => Line::good("isready", "isready"),
            4..=5 => self.realtime_display(),
            6 => {
                let base = random_state(self.rt_params, &mut self.rng);
                let (text, kind) = corrupt_state(&base, &mut self.rng);
                Line::bad(format!("position state {text}"), kind)
            }
            // No second `go` nor `play`: Roger's player may have answered already, whatever
            // the movetime, and then they are good lines.
            7..=8 => Line::good("isready", "isready"),
            9 => Line::bad(
                "position megachess size 64 64 turn 1 me 1 players 1:a pieces 1K3,3",
                "busy: megachess line in realtime",
            ),
            10 => Line::bad("go movetime 5", "busy: megachess line in realtime"),
            11..=13 => self.garbage(REALTIME_GARBAGE),
            14..=17 if let Some(line) = self.busy_switch_or_quit(roll, "realtime") => line,
            _ => {
                let mut line = Line::good("stop", "stop");
                line.ends_job = true;
                line
            }
        }
    }
}
