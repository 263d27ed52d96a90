//! The lines of a Megachess run: worlds, `go`, parameters and hostile lines, each with what
//! the engine must answer.

use super::GAMES;
use crate::fuzz::protocol::corrupt::pick;
use crate::fuzz::protocol::megachess::{self as mega, Told};
use crate::fuzz::protocol::mixed::{Line, Mixed, Show, Work};
use crate::protocol::session::MAX_LINE_BYTES;

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
    pub(super) fn plan_megachess(&mut self) -> Line {
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
                let ms = crate::engine::megachess::turn_movetime(self.mega_params.turn_ms);
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
        let roll = self.rng.index(20);
        match roll {
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
            14..=17 if let Some(line) = self.busy_switch_or_quit(roll, "megachess") => line,
            17 => self.megachess_position(),
            _ => {
                let mut line = Line::good("stop", "stop");
                line.ends_job = true;
                line
            }
        }
    }
}
