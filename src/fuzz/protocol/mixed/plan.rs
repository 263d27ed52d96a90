//! The lines of the realtime and Megachess runs, planned from the driver's models: each with
//! its expectation (protocol.md, and the decisions of issue 26), and the model changed as an
//! accepted line changes the engine.

use super::{Current, Home, Job, Line, Mixed, Show, Work};
use crate::fuzz::protocol::corrupt::{binary_line, pick};
use crate::fuzz::protocol::megachess::{self as mega, Told};
use crate::fuzz::protocol::model;
use crate::fuzz::protocol::realtime::{
    corrupt_state, en_passant_marked, other_separators, random_state, Queued, Referee,
};
use crate::fuzz::protocol::step::Expect;
use crate::protocol::session::MAX_LINE_BYTES;
use crate::rules::realtime::{Color, EndReason, Event, EventKind, Order, Outcome, RealtimeState};
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

const MEGACHESS_GARBAGE: &[&str] = &[
    "position startpos",
    "position",
    "position megachess",
    "position state 4k3/8/8/8/8/8/8/4K3 - 0 0",
    "go depth 3",
    "go movetime -1",
    "go movetime 86400001",
    "go movetime",
    "go movetime 5 x",
    "go side white",
    "play white",
    "time 5",
    "event 0 start white e2e4",
    "setoption name kingdom_radius value -1",
    "setoption name fade_base value 0",
    "setoption name UCI_Elo value 2401",
    "setoption name Skill Level value 21",
    "setoption name width value 1000001",
    "setoption name turn_ms value soon",
    "go\u{b}movetime 5",
    "go movetime\u{a0}5",
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
        match self.rng.index(20) {
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
            14 => {
                let mut line = self.switch("realtime");
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
            _ => {
                let mut line = Line::good("stop", "stop");
                line.ends_job = true;
                line
            }
        }
    }

    /// A line while streaming: the referee's own first, else time, the other side's orders,
    /// refusals, hostile lines, `d`, and what ends or restarts the stream.
    fn plan_stream(&mut self) -> Line {
        if let Some(line) = self.pop_queued() {
            return line;
        }
        let roll = self.rng.index(1000);
        match roll {
            300..=429 => {
                if let Some(line) = self.opponent_start() {
                    return line;
                }
            }
            430..=459 => {
                let referee = self.referee.as_mut().expect("streaming");
                let mine = referee.truth.orders(referee.side);
                let order = match mine.is_empty() {
                    true => Order::parse("e2e4").expect("an order"),
                    false => *pick(&mut self.rng, &mine),
                };
                let ms = referee.clock;
                let reason = referee.refusal(order);
                referee.refused(ms);
                let mut line =
                    Line::good(format!("refused {ms} {order} {reason}"), "stream: refused");
                line.sets_clock = true;
                return line;
            }
            460..=464 => {
                let referee = self.referee.as_mut().expect("streaming");
                if referee.truth.outcome().is_none() {
                    let outcome = match self.rng.index(3) {
                        0 => Outcome {
                            winner: None,
                            reason: EndReason::AgreedDraw,
                        },
                        1 => Outcome {
                            winner: Some(Color::White),
                            reason: EndReason::Resignation,
                        },
                        _ => Outcome {
                            winner: Some(Color::Black),
                            reason: EndReason::Resignation,
                        },
                    };
                    let event = Event {
                        ms: referee.clock,
                        kind: EventKind::Ended(outcome),
                    };
                    if referee.told(&event) {
                        let mut line =
                            Line::good(format!("event {event}"), "stream: resignation or draw");
                        line.sets_clock = true;
                        return line;
                    }
                }
            }
            465..=599 => return self.stream_hostile(),
            600..=679 => return self.realtime_display(),
            680..=719 => return Line::good("isready", "isready"),
            720..=744 => {
                let mut line = Line::good("stop", "stream: stop");
                line.ends_job = true;
                self.job_ended_in_model();
                return line;
            }
            745..=769 => {
                let state = match self.rng.index(3) {
                    0 => RealtimeState::start(self.rt_params),
                    _ => random_state(self.rt_params, &mut self.rng),
                };
                let text =
                    match state == RealtimeState::start(self.rt_params) && self.rng.index(2) == 0 {
                        true => "position startpos".to_string(),
                        false => format!("position state {}", state.text()),
                    };
                let referee = self.referee.as_mut().expect("streaming");
                referee.reset(state);
                let mut line = Line::good(text, "stream: position");
                line.sets_clock = true;
                return line;
            }
            770..=779 => {
                self.job_ended_in_model();
                self.rt_state = RealtimeState::start(self.rt_params);
                let mut line = Line::good("ucinewgame", "stream: ucinewgame");
                line.ends_job = true;
                return line;
            }
            780..=799 => {
                let game = *pick(
                    &mut self.rng,
                    &["chess", "nichess", "millennium", "megachess"],
                );
                return self.switch(game);
            }
            _ => {}
        }
        self.time_step()
    }

    fn pop_queued(&mut self) -> Option<Line> {
        let referee = self.referee.as_mut()?;
        while let Some(item) = referee.queue.pop_front() {
            match item {
                Queued::Event { event, ours } => {
                    if referee.would_take(&event) {
                        referee.told(&event);
                        let kind = match ours {
                            true => "stream: our order started",
                            false => "stream: event",
                        };
                        if ours {
                            self.report.orders_started += 1;
                        }
                        let mut line = Line::good(format!("event {event}"), kind);
                        line.sets_clock = true;
                        return Some(line);
                    }
                }
                Queued::Time(ms) if ms >= referee.clock => {
                    referee.time(ms);
                    let mut line = Line::good(format!("time {ms}"), "stream: time");
                    line.sets_clock = true;
                    return Some(line);
                }
                Queued::Time(_) => {}
                Queued::Refused(order, why) => {
                    let ms = referee.clock;
                    referee.refused(ms);
                    let mut line = Line::good(
                        format!("refused {ms} {order} {why}"),
                        "stream: our order refused",
                    );
                    line.sets_clock = true;
                    return Some(line);
                }
            }
        }
        None
    }

    /// Time passes: the events until then (most of them told), then `time`.
    fn time_step(&mut self) -> Line {
        let tick = self.rt_params.tick() as usize;
        let step = match self.rng.index(5) {
            0 => 0,
            1 => 1 + self.rng.index(10),
            2 => 1 + self.rng.index(tick / 2 + 1),
            _ => tick + self.rng.index(2 * tick),
        } as u64;
        let referee = self.referee.as_mut().expect("streaming");
        let until = referee.clock + step;
        for event in referee.events_until(until) {
            if self.rng.index(5) != 0 {
                referee
                    .queue
                    .push_back(Queued::Event { event, ours: false });
            }
        }
        referee.queue.push_back(Queued::Time(until));
        self.pop_queued().expect("a time line is queued")
    }

    fn opponent_start(&mut self) -> Option<Line> {
        let referee = self.referee.as_mut().expect("streaming");
        let other = referee.side.flip();
        let orders = referee.truth.orders(other);
        if orders.is_empty() {
            return None;
        }
        let order = *pick(&mut self.rng, &orders);
        let event = Event {
            ms: referee.clock,
            kind: EventKind::Started {
                color: other,
                order,
            },
        };
        if !referee.told(&event) {
            return None;
        }
        let mut line = Line::good(format!("event {event}"), "stream: the other side starts");
        line.sets_clock = true;
        Some(line)
    }

    fn stream_hostile(&mut self) -> Line {
        let referee = self.referee.as_ref().expect("streaming");
        let clock = referee.clock;
        let side = referee.side;
        match self.rng.index(12) {
            0..=2 => {
                if let Some(fake) = referee.fake_event(&mut self.rng) {
                    return Line::bad(
                        format!("event {fake}"),
                        "stream: an event that does not happen",
                    );
                }
                Line::bad(
                    format!("event {clock} arrive white queen z9"),
                    "stream: a malformed event",
                )
            }
            3 if clock > 0 => {
                let back = clock - 1 - self.rng.index(clock.min(5000) as usize) as u64;
                Line::bad(format!("time {back}"), "stream: time going back")
            }
            4 => {
                for _ in 0..20 {
                    let from = self.rng.index(64) as u8;
                    let to = self.rng.index(64) as u8;
                    if from == to {
                        continue;
                    }
                    let order = Order {
                        from: crate::board::Square(from),
                        to: crate::board::Square(to),
                    };
                    let color = *pick(&mut self.rng, &[Color::White, Color::Black]);
                    let event = Event {
                        ms: clock,
                        kind: EventKind::Started { color, order },
                    };
                    if !referee.would_take(&event) {
                        return Line::bad(
                            format!("event {event}"),
                            "stream: a start the rules refuse",
                        );
                    }
                }
                Line::bad("event 5", "stream: a malformed event")
            }
            5 => {
                let text = match self.rng.index(7) {
                    0 => format!("event {clock} arrive white pawn"),
                    1 => "event x start white e2e4".to_string(),
                    2 => format!("event {clock} remove black king e8 nonsense"),
                    3 => format!("event {clock} start green e2e4"),
                    4 => format!("event {clock} end 1-0 checkmate"),
                    5 => format!("event {clock} end 1/2-1/2 resignation"),
                    _ => format!("event {clock}"),
                };
                Line::bad(text, "stream: a malformed event")
            }
            6 => {
                let text = match self.rng.index(3) {
                    0 => format!("refused {clock} e2"),
                    1 => format!("refused {clock}"),
                    _ => "refused x e2e4 no".to_string(),
                };
                Line::bad(text, "stream: a malformed refusal")
            }
            7 => {
                let wrong = *pick(&mut self.rng, &['\u{b}', '\u{c}', '\r']);
                let orders = referee.truth.orders(side.flip());
                let order = orders.first().map_or("e2e4".to_string(), |o| o.to_string());
                Line::bad(
                    format!("event {clock}{wrong}start {} {order}", side.flip().name()),
                    "stream: a vertical tab, form feed or \\r (3a)",
                )
            }
            8 => {
                let wrong = *pick(&mut self.rng, &other_separators());
                Line::bad(format!("time{wrong}{clock}"), "stream: a wrong separator")
            }
            9 => {
                let text = *pick(
                    &mut self.rng,
                    &[
                        "go side white",
                        "go side black movetime 5",
                        "play white",
                        "play black movetime 3",
                        "setoption name tick_ms value 100",
                        "setoption name delay_ticks value 3",
                    ],
                );
                Line::bad(text, "stream: refused while streaming")
            }
            _ => self.garbage(REALTIME_GARBAGE),
        }
    }

    // ---- Megachess ----

    fn plan_megachess(&mut self) -> Line {
        if self.job.is_some() {
            return self.plan_megachess_busy();
        }
        match self.rng.index(1000) {
            0..=199 => self.megachess_position(),
            200..=329 => self.megachess_corrupt(),
            330..=479 => self.megachess_go(),
            480..=499 => {
                if self.told.is_none() {
                    return Line::bad("go", "megachess: go with no world");
                }
                if self.mega_params.turn_ms > 3000 {
                    return self.megachess_parameter_named("turn_ms");
                }
                let ms =
                    crate::protocol::dialect::megachess::turn_movetime(self.mega_params.turn_ms);
                self.mega_go_line("go".into(), Some(ms.as_millis() as u64), false)
            }
            500..=539 => {
                if self.told.is_none() {
                    return Line::bad("go infinite", "megachess: go with no world");
                }
                self.busy_lines = 1 + self.rng.index(4);
                self.mega_go_line("go infinite".into(), None, true)
            }
            540..=559 => {
                if self.told.is_none() {
                    return Line::bad("go movetime 9000", "megachess: go with no world");
                }
                let ms = 5000 + self.rng.index(86_395_001);
                self.busy_lines = 1 + self.rng.index(4);
                self.mega_go_line(format!("go movetime {ms}"), None, false)
            }
            560..=619 => self.megachess_display(),
            620..=699 => self.megachess_parameter(),
            700..=719 => {
                self.told = None;
                Line::good("ucinewgame", "ucinewgame")
            }
            720..=739 => Line::good("stop", "stop"),
            740..=759 => Line::good("isready", "isready"),
            760..=857 => self.garbage(MEGACHESS_GARBAGE),
            858..=859 => self.megachess_too_long(),
            860..=879 => self.uci(),
            880..=939 => {
                let game = *pick(&mut self.rng, &GAMES);
                self.switch(game)
            }
            940..=941 => {
                let mut line = Line::good("quit", "quit");
                line.quit = true;
                line
            }
            _ => self.megachess_go(),
        }
    }

    fn mega_go_line(&mut self, text: String, timed: Option<u64>, endless: bool) -> Line {
        let told = self.told.clone().expect("a world");
        let work = Work::Megachess {
            told,
            params: self.mega_params,
        };
        let mut line = Line::good(text, "megachess: go");
        line.starts = Some(self.job(work, timed, endless));
        line
    }

    fn megachess_go(&mut self) -> Line {
        let ms = match self.rng.index(10) {
            0 => 100 + self.rng.index(300),
            _ => self.rng.index(60),
        } as u64;
        if self.told.is_none() {
            if self.rng.index(4) != 0 {
                return self.megachess_position();
            }
            return Line::bad(format!("go movetime {ms}"), "megachess: go with no world");
        }
        self.busy_lines = self.rng.index(3);
        self.mega_go_line(format!("go movetime {ms}"), Some(ms), false)
    }

    /// A valid world: random, huge, or armies played a few turns.
    fn some_world(&mut self) -> Told {
        for _ in 0..10 {
            let told = match self.rng.index(100) {
                0..=69 => mega::random_world(&mut self.rng, &self.mega_params, false),
                70..=94 => mega::played_world(&mut self.rng, &self.mega_params),
                _ => mega::random_world(&mut self.rng, &self.mega_params, true),
            };
            if told.world(&self.mega_params).is_ok() {
                return told;
            }
        }
        Told {
            text: "size 64 64 turn 1 me 1 players 1:a 2:m pieces 1K3,3 2K9,9".into(),
            me: 1,
            turn: 1,
        }
    }

    fn megachess_position(&mut self) -> Line {
        let told = self.some_world();
        let kind = if told.text.len() > 10_000 {
            "megachess: position (huge)"
        } else {
            "megachess: position"
        };
        let text = match self.rng.index(10) {
            0 => self.spaced(&told.text),
            _ => told.text.clone(),
        };
        self.told = Some(told);
        let mut line = Line::good(format!("position megachess {text}"), kind);
        if self.job.is_some() {
            line.ends_job = true;
        }
        line
    }

    fn megachess_corrupt(&mut self) -> Line {
        let base = match (&self.told, self.rng.index(2)) {
            (Some(told), 0) => told.clone(),
            _ => self.some_world(),
        };
        let (text, kind) = mega::corrupt_world(&base, &mut self.rng);
        Line::bad(format!("position megachess {text}"), kind)
    }

    fn megachess_display(&mut self) -> Line {
        let mut line = Line::good("d", "d");
        let world = self
            .told
            .as_ref()
            .and_then(|told| mega::normalised(&told.text, &self.mega_params));
        line.show = Show::World(world);
        line
    }

    fn megachess_parameter(&mut self) -> Line {
        let name = *pick(
            &mut self.rng,
            &[
                "kingdom_radius",
                "fade_base",
                "fade_per_rank",
                "rank_pawn",
                "rank_queen",
                "bonus_every",
                "turn_ms",
                "width",
                "height",
                "Skill Level",
                "UCI_LimitStrength",
                "UCI_Elo",
            ],
        );
        self.megachess_parameter_named(name)
    }

    fn megachess_parameter_named(&mut self, name: &'static str) -> Line {
        let value: String = match name {
            "kingdom_radius" => (*pick(&mut self.rng, &[0, 3, 16, 100, 1_000_000])).to_string(),
            "fade_base" => (1 + self.rng.index(5)).to_string(),
            "fade_per_rank" | "rank_pawn" | "rank_queen" => self.rng.index(12).to_string(),
            "bonus_every" => self.rng.index(10).to_string(),
            "turn_ms" => (*pick(&mut self.rng, &[1, 20, 200, 1000, 25_000])).to_string(),
            "width" | "height" => (*pick(&mut self.rng, &[1, 64, 256, 1_000_000])).to_string(),
            "Skill Level" => self.rng.index(21).to_string(),
            "UCI_LimitStrength" => (*pick(&mut self.rng, &["true", "false"])).to_string(),
            _ => (1000 + self.rng.index(1401)).to_string(),
        };
        let mut line = Line::good(
            format!("setoption name {name} value {value}"),
            "megachess: setoption",
        );
        if let Ok(number) = value.parse::<i64>() {
            let mut params = self.mega_params;
            if params.set(name, number).is_ok() {
                self.mega_params = params;
                if let Some(told) = &self.told {
                    if told.world(&params).is_err() {
                        self.told = None;
                        line.remark = true;
                    }
                }
            }
        }
        if self.job.is_some() {
            line.ends_job = true;
        }
        line
    }

    fn megachess_too_long(&mut self) -> Line {
        let mut text = String::from(
            "position megachess size 1000000 1000000 turn 1 me 1 players 1:a pieces 1K0,0",
        );
        let mut x = 1u32;
        while text.len() <= MAX_LINE_BYTES + 10 {
            text.push_str(&format!(" 1P{x},{}", x % 1000));
            x += 1;
        }
        Line::bad(text, "megachess: a world line over 1 MiB")
    }

    fn plan_megachess_busy(&mut self) -> Line {
        if self.busy_lines == 0 {
            return match self.rng.index(5) {
                0 => self.megachess_position(),
                1 => {
                    let mut line = self.megachess_parameter();
                    line.ends_job = true;
                    line
                }
                2 => {
                    self.told = None;
                    let mut line = Line::good("ucinewgame", "ucinewgame");
                    line.ends_job = true;
                    line
                }
                _ => self.ending_switch_or_stop(),
            };
        }
        match self.rng.index(20) {
            0..=3 => Line::good("isready", "isready"),
            4..=5 => self.megachess_display(),
            6..=7 => self.megachess_corrupt(),
            8 if self.job.as_ref().is_some_and(|job| job.endless) => {
                Line::bad("go movetime 5", "busy: go")
            }
            8 => Line::good("isready", "isready"),
            9 => Line::bad(
                "go side white movetime 5",
                "busy: realtime line in megachess",
            ),
            10 => Line::bad("position startpos", "busy: realtime line in megachess"),
            11..=13 => self.garbage(MEGACHESS_GARBAGE),
            14 => {
                let mut line = self.switch("megachess");
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
            17 => self.megachess_position(),
            _ => {
                let mut line = Line::good("stop", "stop");
                line.ends_job = true;
                line
            }
        }
    }
}
