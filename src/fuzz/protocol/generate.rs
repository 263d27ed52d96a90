//! The seeded generator of protocol lines. It keeps a [`Model`] of the engine and gives every
//! line its expectation: valid commands built from the rules' own legal moves, the same with a
//! field corrupted, commands sent while a search runs, and raw, huge and binary lines.

use super::corrupt::{self, pick};
use super::model::{self, Model};
use super::step::{Expect, Job, JobKind, Reply, SearchMode, Step};
use crate::common::Rng;
use crate::protocol::session::MAX_LINE_BYTES;
use crate::rules::registry::{AnyGame, TurnGame};

/// Valid positions worth visiting: mates, stalemates, promotions, pools, the end of Nichess.
const SPECIAL_FENS: &[(TurnGame, &str)] = &[
    (TurnGame::Chess, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    (TurnGame::Chess, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"),
    (
        TurnGame::Chess,
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ),
    (
        TurnGame::Chess,
        "5kn1/1pp3bB/1rP5/Qq1bp1R1/p2p1P2/1P2P3/P2P1K1P/R1B5 w - - 3 34",
    ),
    (
        TurnGame::Chess,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ),
    (TurnGame::Chess, "8/P6k/8/8/8/8/6Kp/8 w - - 0 60"),
    (TurnGame::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    (TurnGame::Chess, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"),
    (
        TurnGame::Millennium,
        "4k5k4/7P7/15/15/15/15/15/4K5K4 w - - 0 30 QNr",
    ),
    (
        TurnGame::Millennium,
        "k14/pp13/15/15/15/15/15/2R1K5K4 w - - 0 1",
    ),
    (
        TurnGame::Millennium,
        "4k10/15/15/15/15/15/15/4K5K4 b - - 0 40",
    ),
    (TurnGame::Nichess, "k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1"),
    (TurnGame::Nichess, "8/1k6/n7/8/8/8/R7/R3K3 w - - 0 1"),
    (TurnGame::Nichess, "4k3/8/8/8/8/8/8/R3K3 b - - 0 167"),
    (TurnGame::Nichess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 166"),
    (
        TurnGame::Nichess,
        "k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1",
    ),
];

/// A command before its text is laid out: tokens, expectation and what it does if accepted.
pub(super) struct Planned {
    pub(super) tokens: Vec<String>,
    pub(super) kind: &'static str,
    pub(super) expect: Expect,
    pub(super) update: Update,
    pub(super) reply: Reply,
}

/// What an accepted line does to the model.
pub(super) enum Update {
    None,
    Position {
        game: Box<AnyGame>,
        fen: Option<String>,
        moves: Vec<String>,
    },
    NewGame,
    Variant(TurnGame),
    /// Any other accepted `setoption` (it stops a running job).
    Option,
    Start(Job),
    Stop,
    PonderHit,
    Quit,
}

impl Planned {
    pub(super) fn good(
        tokens: Vec<String>,
        kind: &'static str,
        update: Update,
        reply: Reply,
    ) -> Planned {
        Planned {
            tokens,
            kind,
            expect: Expect::Accepted,
            update,
            reply,
        }
    }
    pub(super) fn bad(tokens: Vec<String>, kind: &'static str) -> Planned {
        Planned {
            tokens,
            kind,
            expect: Expect::Bad,
            update: Update::None,
            reply: Reply::None,
        }
    }
}

pub(super) fn words(text: &str) -> Vec<String> {
    text.split(' ').map(str::to_string).collect()
}

/// `position startpos` or `position fen <fen>`, as tokens, for a move list to follow.
pub(super) fn position_tokens(fen: Option<&str>) -> Vec<String> {
    let mut tokens = words("position");
    match fen {
        None => tokens.push("startpos".into()),
        Some(text) => {
            tokens.push("fen".into());
            tokens.extend(words(text));
        }
    }
    tokens
}

fn variant_name(game: TurnGame) -> &'static str {
    game.start().variant()
}

/// A seed spread over all 64 bits (splitmix64, a bijection): `Rng::new` sets the lowest bit,
/// so seeds that differ only there would give the same lines.
fn spread(seed: u64) -> u64 {
    crate::common::Rng::new(seed).next_u64()
}

pub struct Generator {
    pub(super) rng: Rng,
    pub(super) model: Model,
    specials: Vec<(TurnGame, String)>,
}

impl Generator {
    pub fn new(seed: u64) -> Generator {
        let specials = SPECIAL_FENS
            .iter()
            .filter(|(game, fen)| model::set_up(*game, Some(fen), &[]).is_ok())
            .map(|(game, fen)| (*game, fen.to_string()))
            .collect();
        Generator {
            rng: Rng::new(spread(seed)),
            model: Model::default(),
            specials,
        }
    }

    /// The engine was restarted: a fresh engine's state.
    pub fn reset(&mut self) {
        self.model = Model::default();
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    fn chance(&mut self, per_thousand: usize) -> bool {
        self.rng.index(1000) < per_thousand
    }

    fn range(&mut self, low: i64, high: i64) -> i64 {
        low + self.rng.index((high - low + 1) as usize) as i64
    }

    /// The line that ends a run: `stop` when a job would not end by itself at the end of the
    /// input (a long perft or bench is let finish there).
    pub fn closing_step(&mut self) -> Option<Step> {
        let job = self.model.job.as_ref()?;
        if matches!(job.kind, JobKind::Search(_)) {
            return None;
        }
        let planned = Planned::good(words("stop"), "stop", Update::Stop, Reply::None);
        Some(self.lay_out(planned, true, false))
    }

    /// The next line.
    pub fn next_step(&mut self) -> Step {
        let interleaved = self.model.job.is_some();
        let roll = self.rng.index(10_000);
        if roll < 100 {
            let bytes = corrupt::binary_line(&mut self.rng);
            return self.raw(bytes, "binary", interleaved);
        }
        if roll < 105 && !interleaved {
            return self.huge();
        }
        let planned = if interleaved {
            self.plan_interleaved()
        } else {
            self.plan_free()
        };
        self.lay_out(planned, interleaved, true)
    }

    fn raw(&mut self, bytes: Vec<u8>, kind: &'static str, interleaved: bool) -> Step {
        Step {
            bytes,
            kind,
            expect: Expect::Bad,
            starts: None,
            ends_job: false,
            ponderhit: false,
            reply: Reply::None,
            interleaved,
        }
    }

    /// Lines near and over the 1 MiB a line may hold.
    fn huge(&mut self) -> Step {
        let padded = |text: &str, total: usize| {
            let mut bytes = text.as_bytes().to_vec();
            bytes.resize(total - 1, b' ');
            bytes.push(b'\n');
            bytes
        };
        match self.rng.index(5) {
            0 => {
                let pattern = b"position startpos moves e2e4 e7e5 ";
                let total = MAX_LINE_BYTES + 1 + self.rng.index(5000);
                let mut bytes: Vec<u8> = pattern.iter().cycle().take(total - 1).copied().collect();
                bytes.push(b'\n');
                self.raw(bytes, "huge: over 1 MiB", false)
            }
            1 => {
                let mut step = self.raw(padded("isready", MAX_LINE_BYTES), "huge: 1 MiB", false);
                step.expect = Expect::Accepted;
                step.reply = Reply::ReadyOk;
                step
            }
            2 => self.raw(
                padded("isready", MAX_LINE_BYTES + 1),
                "huge: over 1 MiB",
                false,
            ),
            3 => {
                let first = model::legal_moves(&self.model.kind().start())[0].clone();
                let mut text = String::from("position startpos moves");
                while text.len() < MAX_LINE_BYTES - 100 {
                    text.push(' ');
                    text.push_str(&first);
                }
                let mut bytes = text.into_bytes();
                bytes.push(b'\n');
                self.raw(bytes, "huge: move list", false)
            }
            _ => {
                let name = "x".repeat(MAX_LINE_BYTES - 200);
                let bytes = format!("setoption name {name} value 1\n").into_bytes();
                self.raw(bytes, "huge: option name", false)
            }
        }
    }

    fn plan_free(&mut self) -> Planned {
        match self.rng.index(1000) {
            0..=199 => self.plan_position(),
            200..=329 => self.plan_go(),
            330..=354 => self.plan_endless(),
            355..=359 => self.plan_long_job(),
            360..=389 => self.plan_perft(),
            390..=459 => self.plan_setoption(),
            460..=579 => self.plan_simple(),
            580..=589 => Planned::good(Vec::new(), "blank", Update::None, Reply::None),
            590 => Planned::good(words("quit"), "quit", Update::Quit, Reply::Quit),
            591 => {
                let job = Job {
                    kind: JobKind::Bench { long: false },
                    position: self.model.searched(Vec::new()),
                };
                Planned::good(
                    words("bench depth 1"),
                    "bench",
                    Update::Start(job),
                    Reply::None,
                )
            }
            _ => self.plan_bad(),
        }
    }

    /// A line while a job runs.
    fn plan_interleaved(&mut self) -> Planned {
        match self.rng.index(100) {
            0..=19 => Planned::good(words("isready"), "isready", Update::None, Reply::ReadyOk),
            20..=27 => self.display(),
            28..=34 => Planned::good(
                words("ponderhit"),
                "ponderhit",
                Update::PonderHit,
                Reply::None,
            ),
            35..=44 => match self.rng.index(3) {
                0 => {
                    let mut planned = self.plan_go();
                    planned.kind = "busy: go";
                    planned
                }
                1 => Planned::bad(words("go perft 1"), "busy: go perft"),
                _ => Planned::bad(words("bench depth 1"), "busy: bench"),
            },
            45..=64 => self.plan_bad(),
            65..=66 => Planned::good(words("uci"), "uci", Update::None, Reply::Uci),
            67..=68 => Planned::good(words("debug on"), "debug", Update::None, Reply::None),
            69..=70 => Planned::good(Vec::new(), "blank", Update::None, Reply::None),
            71..=84 => Planned::good(words("stop"), "stop", Update::Stop, Reply::None),
            85..=90 => self.plan_position(),
            91..=94 => self.plan_setoption(),
            95..=98 => Planned::good(
                words("ucinewgame"),
                "ucinewgame",
                Update::NewGame,
                Reply::None,
            ),
            _ if self.rng.index(4) == 0 => {
                Planned::good(words("quit"), "quit", Update::Quit, Reply::Quit)
            }
            _ => Planned::good(words("stop"), "stop", Update::Stop, Reply::None),
        }
    }

    fn display(&mut self) -> Planned {
        let fen = model::fen(&self.model.game);
        Planned::good(words("d"), "d", Update::None, Reply::Display(fen))
    }

    pub(super) fn plan_simple(&mut self) -> Planned {
        match self.rng.index(12) {
            0..=3 => Planned::good(words("isready"), "isready", Update::None, Reply::ReadyOk),
            4..=6 => self.display(),
            7 => Planned::good(words("uci"), "uci", Update::None, Reply::Uci),
            8 => Planned::good(
                words("ucinewgame"),
                "ucinewgame",
                Update::NewGame,
                Reply::None,
            ),
            9 => Planned::good(words("stop"), "stop", Update::Stop, Reply::None),
            10 => Planned::good(
                words("ponderhit"),
                "ponderhit",
                Update::PonderHit,
                Reply::None,
            ),
            _ => {
                let text = *pick(&mut self.rng, &["debug on", "debug off", "debug"]);
                Planned::good(words(text), "debug", Update::None, Reply::None)
            }
        }
    }

    /// A random valid FEN of the current game: after a random playout, or one of note.
    pub(super) fn some_fen(&mut self) -> String {
        let kind = self.model.kind();
        if self.chance(300) {
            let specials: Vec<&String> = self
                .specials
                .iter()
                .filter(|(game, _)| *game == kind)
                .map(|(_, fen)| fen)
                .collect();
            if !specials.is_empty() {
                return pick(&mut self.rng, &specials).to_string();
            }
        }
        let mut game = kind.start();
        let plies = self.rng.index(60);
        model::playout(&mut game, plies, &mut self.rng);
        model::fen(&game)
    }

    /// How many moves a `position` plays: mostly a few, sometimes a whole game.
    pub(super) fn some_plies(&mut self) -> usize {
        match self.rng.index(100) {
            0..=69 => self.rng.index(9),
            70..=89 => 8 + self.rng.index(32),
            90..=97 => 40 + self.rng.index(110),
            _ => 150 + self.rng.index(250),
        }
    }

    pub(super) fn plan_position(&mut self) -> Planned {
        let kind = self.model.kind();
        let (mut fen, mut label) = match self.rng.index(10) {
            0..=5 => (None, "position startpos"),
            _ => (Some(self.some_fen()), "position fen"),
        };
        if let Some(text) = &fen {
            if self.chance(200) {
                if let Some(normalised) = corrupt::normalise(text, kind, &mut self.rng) {
                    fen = Some(normalised);
                    label = "position fen (normalised)";
                }
            }
        }
        let Ok(mut game) = model::set_up(kind, fen.as_deref(), &[]) else {
            // Never: `tests/fuzz_protocol.rs` checks that the rules read every normalised form.
            return self.plan_position();
        };
        let plies = self.some_plies();
        let moves = model::playout(&mut game, plies, &mut self.rng);
        let mut tokens = position_tokens(fen.as_deref());
        if !moves.is_empty() || self.chance(200) {
            tokens.push("moves".into());
            tokens.extend(moves.iter().cloned());
        }
        let update = Update::Position {
            game: Box::new(game),
            fen,
            moves,
        };
        Planned::good(tokens, label, update, Reply::None)
    }

    fn max_depth(&self) -> i64 {
        match self.model.kind() {
            TurnGame::Chess => 4,
            TurnGame::Nichess => 3,
            TurnGame::Millennium => 2,
        }
    }

    /// Small limits, so a search takes milliseconds.
    fn limit(&mut self) -> Vec<String> {
        let text = match self.rng.index(6) {
            0 => format!("depth {}", self.range(1, self.max_depth())),
            1 => format!("nodes {}", self.range(1, 3000)),
            2 => format!("movetime {}", self.range(1, 10)),
            3 => {
                let mut text = format!("wtime {} btime {}", self.range(0, 300), self.range(0, 300));
                if self.rng.index(2) == 0 {
                    text += &format!(" winc {} binc {}", self.range(0, 20), self.range(0, 20));
                }
                if self.rng.index(3) == 0 {
                    text += &format!(" movestogo {}", self.range(0, 30));
                }
                text
            }
            4 => format!("mate {}", self.range(1, 2)),
            _ => format!("depth {} nodes {}", self.range(0, 9), self.range(1, 2000)),
        };
        words(&text)
    }

    /// A finite `go` (refused as busy when a job runs).
    pub(super) fn plan_go(&mut self) -> Planned {
        let legal = model::legal_moves(&self.model.game);
        let mut tokens = words("go");
        let mut searchmoves = Vec::new();
        let mut kind = "go";
        match self.rng.index(10) {
            0 => tokens.extend(words("depth 0")),
            1 => {
                let (a, b) = (self.range(1, 3000), self.range(1, 3000));
                tokens.extend(words(&format!("nodes {a} nodes {b}")));
                kind = "go (repeated parameter)";
            }
            2 => {
                let (a, b) = (self.range(-1000, -1), self.range(-1000, 0));
                tokens.extend(words(&format!("wtime {a} btime {b}")));
                kind = "go (negative clock)";
            }
            3 | 4 if !legal.is_empty() => {
                let count = 1 + self.rng.index(3.min(legal.len()));
                let mut pool = legal.clone();
                for _ in 0..count {
                    let at = self.rng.index(pool.len());
                    searchmoves.push(pool.swap_remove(at));
                }
                let mut listed = words("searchmoves");
                listed.extend(searchmoves.iter().cloned());
                let limit = self.limit();
                if self.rng.index(2) == 0 {
                    tokens.extend(listed.into_iter().chain(limit));
                } else {
                    tokens.extend(limit.into_iter().chain(listed));
                }
                kind = "go searchmoves";
            }
            _ => tokens.extend(self.limit()),
        }
        if self.model.job.is_some() {
            return Planned::bad(tokens, "busy: go");
        }
        let job = Job {
            kind: JobKind::Search(SearchMode::Finite),
            position: self.model.searched(searchmoves),
        };
        Planned::good(tokens, kind, Update::Start(job), Reply::None)
    }

    /// `go infinite` or `go ponder` with a limit.
    fn plan_endless(&mut self) -> Planned {
        let (tokens, mode, kind) = if self.rng.index(2) == 0 {
            let mut tokens = words("go infinite");
            if self.rng.index(4) == 0 {
                tokens.extend(self.limit());
            }
            (tokens, SearchMode::Endless, "go infinite")
        } else {
            let mut tokens = words("go ponder");
            tokens.extend(self.limit());
            (tokens, SearchMode::Ponder, "go ponder")
        };
        let job = Job {
            kind: JobKind::Search(mode),
            position: self.model.searched(Vec::new()),
        };
        Planned::good(tokens, kind, Update::Start(job), Reply::None)
    }

    /// A perft or bench that runs until stopped.
    fn plan_long_job(&mut self) -> Planned {
        let position = self.model.searched(Vec::new());
        let wide = position.legal.len() >= 15
            && (self.model.kind() != TurnGame::Nichess || model::plies_played(&position.fen) < 300);
        if wide && self.rng.index(4) != 0 {
            let job = Job {
                kind: JobKind::Perft {
                    depth: 8,
                    long: true,
                },
                position,
            };
            Planned::good(
                words("go perft 8"),
                "go perft (long)",
                Update::Start(job),
                Reply::None,
            )
        } else {
            let job = Job {
                kind: JobKind::Bench { long: true },
                position,
            };
            Planned::good(
                words("bench"),
                "bench (long)",
                Update::Start(job),
                Reply::None,
            )
        }
    }

    fn plan_perft(&mut self) -> Planned {
        let depth = self.range(1, 3) as u32;
        let job = Job {
            kind: JobKind::Perft { depth, long: false },
            position: self.model.searched(Vec::new()),
        };
        let tokens = words(&format!("go perft {depth}"));
        Planned::good(tokens, "go perft", Update::Start(job), Reply::None)
    }

    pub(super) fn plan_setoption(&mut self) -> Planned {
        let (name, value, update, kind) = match self.rng.index(7) {
            0 => {
                let name = *pick(&mut self.rng, &["Hash", "hash", "HASH"]);
                let value = *pick(&mut self.rng, &[1, 2, 4, 8, 16, 32]);
                (
                    name.to_string(),
                    value.to_string(),
                    Update::Option,
                    "setoption",
                )
            }
            1 => {
                let value = self.range(1, 3);
                (
                    "Threads".into(),
                    value.to_string(),
                    Update::Option,
                    "setoption",
                )
            }
            2 => {
                let value = self.range(1, 4);
                (
                    "MultiPV".into(),
                    value.to_string(),
                    Update::Option,
                    "setoption",
                )
            }
            3 => {
                let name = *pick(
                    &mut self.rng,
                    &["Move Overhead", "move overhead", "MOVE\tOVERHEAD"],
                );
                let value = self.range(0, 100);
                (
                    name.to_string(),
                    value.to_string(),
                    Update::Option,
                    "setoption",
                )
            }
            4 => {
                let value = *pick(&mut self.rng, &["true", "false", "TRUE", "False"]);
                (
                    "Ponder".into(),
                    value.to_string(),
                    Update::Option,
                    "setoption",
                )
            }
            _ => {
                let game = *pick(
                    &mut self.rng,
                    &[TurnGame::Chess, TurnGame::Millennium, TurnGame::Nichess],
                );
                let value = match self.rng.index(4) {
                    0 => variant_name(game).to_uppercase(),
                    _ => variant_name(game).to_string(),
                };
                let name = *pick(&mut self.rng, &["UCI_Variant", "uci_variant"]);
                let kind = "setoption UCI_Variant";
                (name.to_string(), value, Update::Variant(game), kind)
            }
        };
        let mut tokens = words("setoption name");
        tokens.extend(name.split(' ').map(str::to_string));
        tokens.push("value".into());
        tokens.push(value);
        Planned::good(tokens, kind, update, Reply::None)
    }

    /// Lays the tokens out as a line (sometimes with tabs and runs of spaces, or `\r\n`, which
    /// keep it valid; sometimes broken by a wrong separator, a control character, an invalid
    /// byte, a capital or a stray `\r`, which make it bad) and applies what it does.
    fn lay_out(&mut self, mut planned: Planned, interleaved: bool, vary: bool) -> Step {
        let mut bytes: Vec<u8>;
        if planned.tokens.is_empty() {
            let blank = *pick(&mut self.rng, &["", " ", "\t", " \t  "]);
            bytes = blank.as_bytes().to_vec();
        } else {
            let roll = if vary { self.rng.index(100) } else { 99 };
            let broken = planned.kind == "broken text" || roll < 4;
            if broken {
                let (text, kind) = self.break_text(&planned.tokens);
                bytes = text;
                planned.kind = kind;
                planned.expect = Expect::Bad;
            } else if roll < 14 {
                bytes = Vec::new();
                if self.rng.index(3) == 0 {
                    bytes.extend(self.spacing().bytes());
                }
                for (index, token) in planned.tokens.iter().enumerate() {
                    if index > 0 {
                        bytes.extend(self.spacing().bytes());
                    }
                    bytes.extend(token.bytes());
                }
                if self.rng.index(3) == 0 {
                    bytes.extend(self.spacing().bytes());
                }
            } else {
                bytes = planned.tokens.join(" ").into_bytes();
            }
        }
        // A `\r` that ends the text must not be read as part of the line end.
        let crlf = (vary && self.rng.index(10) == 0) || bytes.last() == Some(&b'\r');
        bytes.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        let mut step = Step {
            bytes,
            kind: planned.kind,
            expect: planned.expect,
            starts: None,
            ends_job: false,
            ponderhit: false,
            reply: Reply::None,
            interleaved,
        };
        if planned.expect == Expect::Bad {
            return step;
        }
        step.reply = planned.reply;
        match planned.update {
            Update::None => {}
            Update::Position { game, fen, moves } => {
                step.ends_job = self.model.job.take().is_some();
                self.model.game = *game;
                self.model.start_fen = fen;
                self.model.moves = moves;
            }
            Update::NewGame => {
                step.ends_job = self.model.job.take().is_some();
                self.model = Model::new(self.model.kind());
            }
            Update::Variant(game) => {
                step.ends_job = self.model.job.take().is_some();
                let changed = game != self.model.kind();
                if changed {
                    self.model = Model::new(game);
                }
                step.reply = Reply::Variant(changed.then(|| variant_name(game)));
            }
            Update::Option | Update::Stop => {
                step.ends_job = self.model.job.take().is_some();
            }
            Update::Start(job) => {
                if !job.kind.finite() {
                    self.model.job = Some(job.clone());
                }
                step.starts = Some(job);
            }
            Update::PonderHit => {
                let pondering = self
                    .model
                    .job
                    .as_ref()
                    .is_some_and(|job| job.kind == JobKind::Search(SearchMode::Ponder));
                if pondering {
                    self.model.job = None;
                    step.ponderhit = true;
                }
            }
            Update::Quit => {
                step.ends_job = self.model.job.is_some();
                self.model = Model::default();
            }
        }
        step
    }

    /// A run of spaces and tabs.
    fn spacing(&mut self) -> String {
        (0..1 + self.rng.index(3))
            .map(|_| *pick(&mut self.rng, &[' ', '\t']))
            .collect()
    }
}
