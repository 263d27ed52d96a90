//! The engine driver: the current game, the options, the shared transposition table and the
//! search thread, with no text protocol. The protocol layer ([`crate::protocol`]) and the CLI
//! drive it; so can a test or a tournament harness directly.
//!
//! Commands that change the position or the options while a search runs (`set_position`,
//! `set_option`, `new_game`) first stop the search and wait for its best move, then apply. A
//! refused command (bad FEN, illegal move, bad option value) changes nothing: the search, if
//! any, goes on.

pub mod deadline;
mod error;
mod go;
pub mod megachess;
mod options;
pub mod realtime;
mod remark;
mod worker;

pub use crate::options::{
    check_value, skill_seed_option, strength_options, variant_option, OptionKind, OptionSpec,
    OptionValue, Strength, SKILL_LEVEL, SKILL_SEED, UCI_ELO, UCI_LIMIT_STRENGTH, UCI_VARIANT,
};
pub use error::{Activity, EngineError};
pub use go::{GoParams, SideClock};
pub use options::{option_specs as turn_option_specs, EngineOption, MULTI_PV};
pub use remark::OptionRemark;
pub use worker::{BestMove, Report};

use crate::rules::registry::{self, dispatch, AnyGame};
use crate::rules::{Color, Game};
use crate::search::skill::Skill;
use crate::search::{
    available_cores, Clock, Limits, SearchMemory, SearchOptions, TranspositionTable, MAX_PLY,
};
use options::{option_specs, OptionValues};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::thread::JoinHandle;
use worker::SearchJob;

/// The deepest a search goes (its last iteration): `go depth` and `bench depth` take no more.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 4;
/// The largest `go mate`: a mate in n moves is searched as 2n - 1 plies, at most [`MAX_DEPTH`].
pub const MAX_MATE: u32 = MAX_DEPTH.div_ceil(2);
/// The deepest perft: far beyond what finishes, and shallow enough for any thread's stack
/// (perft recurses once a ply).
pub const MAX_PERFT_DEPTH: u32 = 64;

/// A search running on its own thread.
struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// True while the search ponders; cleared by `ponderhit`.
    pondering: Arc<AtomicBool>,
    /// `go infinite`: runs until stopped.
    infinite: bool,
    /// Set just before the best move goes out: a GUI may send the next `go` as soon as it reads
    /// it, while the thread is still winding down.
    answered: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

pub struct Engine {
    game: AnyGame,
    options: OptionValues,
    /// Shared with the search thread, which holds a read lock while it searches; the write
    /// lock (resize, clear) is only taken with no search running.
    tt: Arc<RwLock<TranspositionTable>>,
    /// Histories and corrections, kept from move to move like the table.
    memory: Arc<SearchMemory>,
    search: Option<RunningSearch>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// The first variant's start position and every option at its default.
    pub fn new() -> Engine {
        let options = OptionValues::default();
        Engine {
            game: AnyGame::new(registry::GAMES[0].name).expect("the default game is a turn game"),
            tt: Arc::new(RwLock::new(TranspositionTable::new(options.hash_mb))),
            memory: Arc::default(),
            options,
            search: None,
        }
    }

    /// The options as the `uci` command announces them.
    pub fn option_specs(&self) -> Vec<OptionSpec> {
        option_specs(&registry::names_of(registry::Family::Turn))
    }

    pub fn variant(&self) -> &'static str {
        self.game.variant()
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Sets an option by name (case-insensitive) to a value of its kind within its bounds.
    /// Returns a remark worth showing, if any. On an error nothing changes.
    pub fn set_option(
        &mut self,
        name: &str,
        value: OptionValue,
    ) -> Result<Option<OptionRemark>, EngineError> {
        let specs = self.option_specs();
        let (name, value) = check_value(&specs, name, value)?;
        let option = EngineOption::read(name, value).ok_or_else(|| {
            EngineError::Setting(format!("option '{name}' is announced but not handled"))
        })?;
        self.apply(option)
    }

    /// Sets a typed option, checked against its bounds as [`Engine::set_option`] checks it.
    pub fn set(&mut self, option: EngineOption) -> Result<Option<OptionRemark>, EngineError> {
        self.set_option(option.name(), option.value())
    }

    /// Applies a checked option: a running search is stopped first.
    fn apply(&mut self, option: EngineOption) -> Result<Option<OptionRemark>, EngineError> {
        self.stop();
        match option {
            EngineOption::Hash { megabytes } => {
                if megabytes != self.options.hash_mb {
                    let (resized, held) = {
                        let mut tt = self.tt_write();
                        (tt.try_resize(megabytes), tt.megabytes())
                    };
                    // A failed allocation may leave another size (see `try_resize`).
                    self.options.hash_mb = held;
                    resized.map_err(EngineError::Setting)?;
                }
            }
            EngineOption::Threads(threads) => {
                self.options.threads = threads;
                let cores = available_cores();
                if threads > cores {
                    return Ok(Some(OptionRemark::ThreadsCapped {
                        asked: threads as i64,
                        cores,
                    }));
                }
            }
            EngineOption::MultiPv(lines) => self.options.multipv = lines,
            EngineOption::Chess960(on) => {
                self.options.chess960 = on;
                self.game.set_chess960(on);
            }
            EngineOption::MoveOverhead(time) => self.options.move_overhead = time,
            EngineOption::SkillSeed(seed) => self.options.skill_seed = seed,
            EngineOption::UciLimitStrength(on) => self.options.strength.limit_strength = on,
            EngineOption::UciElo(elo) => self.options.strength.elo = elo,
            EngineOption::SkillLevel(level) => self.options.strength.skill_level = level,
            // Only announced: pondering follows `go ponder`, whatever this says.
            EngineOption::Ponder(_) => {}
            EngineOption::UseNnue(on) => {
                self.options.eval.use_network = on;
                // Scores stored under one evaluation mislead the other.
                self.tt_write().clear();
                self.memory.clear();
            }
            EngineOption::EvalFile(path) => {
                let (loaded, said) = if path == options::EMBEDDED_NETWORK {
                    (None, "the built-in networks".to_string())
                } else {
                    let (game, network) =
                        crate::eval::network::load_file(std::path::Path::new(&path))
                            .map_err(EngineError::Setting)?;
                    let buckets = match network.buckets() {
                        1 => String::new(),
                        n => format!(", {n} output buckets"),
                    };
                    let said = format!(
                        "a {game} network, {}x{} ({}{buckets}{}), in place of the built-in one",
                        network.inputs(),
                        network.hidden(),
                        network.activation(),
                        if network.is_residual() {
                            ", a correction"
                        } else {
                            ""
                        }
                    );
                    (Some(network), said)
                };
                self.options.eval.loaded_network = loaded;
                // Scores stored under one evaluation mislead the other.
                self.tt_write().clear();
                self.memory.clear();
                return Ok(Some(OptionRemark::EvalFile {
                    path,
                    network: said,
                }));
            }
            EngineOption::Variant(variant) => {
                if variant != self.variant() {
                    self.game = AnyGame::new(&variant).ok_or_else(|| {
                        EngineError::Setting(format!("variant '{variant}' is not available"))
                    })?;
                    self.game.set_chess960(self.options.chess960);
                    self.tt_write().clear();
                    self.memory.clear();
                    // The GUI learns the board's size and start position from this line.
                    return Ok(Some(OptionRemark::Variant(self.game.board_info())));
                }
            }
        }
        Ok(None)
    }

    /// Forgets the game: start position of the current variant, empty transposition table.
    pub fn new_game(&mut self) {
        self.stop();
        self.tt_write().clear();
        self.memory.clear();
        if let Some(game) = AnyGame::new(self.variant()) {
            self.game = game;
            self.game.set_chess960(self.options.chess960);
        }
    }

    /// Sets the position from a FEN (`None`: the start position) and the moves played from it.
    /// On an error the previous position stays; the error names the bad move (1-based) or the
    /// FEN's problem.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), EngineError> {
        let mut game = self
            .game
            .with_position(fen, moves)
            .map_err(EngineError::Position)?;
        game.set_chess960(self.options.chess960);
        self.stop();
        self.game = game;
        Ok(())
    }

    /// Starts searching the current position on its own thread. `on_report` gets the progress,
    /// `on_best` the answer, once, from the search thread. Fails if a search is running or a
    /// `searchmoves` move is not legal.
    pub fn go<R, B>(
        &mut self,
        params: &GoParams,
        on_report: R,
        on_best: B,
    ) -> Result<(), EngineError>
    where
        R: FnMut(Report) + Send + 'static,
        B: FnOnce(BestMove) + Send + 'static,
    {
        if self.is_searching() {
            return Err(EngineError::Busy(Activity::Search));
        }
        self.reap();
        let stop = Arc::new(AtomicBool::new(false));
        let pondering = Arc::new(AtomicBool::new(params.ponder));
        let mut limits = Limits {
            move_overhead: self.options.move_overhead,
            pondering: params.ponder.then(|| pondering.clone()),
            ..Limits::default()
        };
        let mut search_options = SearchOptions {
            threads: self.search_threads(),
            multipv: self.options.multipv,
            eval: self.options.eval,
            on_this_thread: false,
        };
        let skill = Skill::below_full(self.options.strength.level(), self.options.skill_seed);
        let tt = self.tt.clone();
        let memory = self.memory.clone();
        let thread_stop = stop.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let thread_answered = answered.clone();
        let on_best = move |best| {
            thread_answered.store(true, Ordering::Release);
            on_best(best)
        };
        let thread = dispatch!(&self.game, record => {
            let searchmoves =
                go::parse_moves(record, &params.searchmoves).map_err(EngineError::Position)?;
            set_limits(&mut limits, params, record.position().side_to_move());
            if let Some(skill) = &skill {
                skill.limit(&mut limits, &mut search_options);
            }
            let job = SearchJob {
                record: record.clone(),
                limits,
                options: search_options,
                searchmoves,
                tt,
                memory,
                stop: thread_stop,
                infinite: params.infinite,
                skill,
            };
            worker::spawn(job, on_report, on_best)
        });
        self.search = Some(RunningSearch {
            stop,
            pondering,
            infinite: params.infinite,
            answered,
            thread,
        });
        Ok(())
    }

    /// Stops the search, if any, and waits until it has given its best move.
    pub fn stop(&mut self) {
        if let Some(search) = &self.search {
            search.stop.store(true, Ordering::Release);
        }
        self.reap();
    }

    /// The opponent played the move we pondered on: the search goes on as a normal one. Ignored
    /// when not pondering.
    pub fn ponderhit(&mut self) {
        if let Some(search) = &self.search {
            search.pondering.store(false, Ordering::Release);
        }
    }

    pub fn is_searching(&self) -> bool {
        self.search.as_ref().is_some_and(|search| {
            !search.answered.load(Ordering::Acquire) && !search.thread.is_finished()
        })
    }

    /// Waits for the search to give its best move. A search that would never end by itself
    /// (`go infinite`, or pondering) is stopped first.
    pub fn wait(&mut self) {
        let endless = self
            .search
            .as_ref()
            .is_some_and(|search| search.infinite || search.pondering.load(Ordering::Acquire));
        if endless {
            self.stop();
        } else {
            self.reap();
        }
    }

    /// The current position as a board diagram, its FEN and its key.
    pub fn display(&self) -> String {
        self.game.display()
    }

    /// Leaf counts at `depth` under each legal root move, in generation order.
    pub fn perft(&self, depth: u32) -> Result<Vec<(String, u64)>, EngineError> {
        check_perft_depth(depth)?;
        if self.is_searching() {
            return Err(EngineError::Busy(Activity::Search));
        }
        Ok(self.game.perft(depth, self.search_threads()))
    }

    /// `go perft`: counts on its own thread, as a search runs, so that `stop`, `isready` and
    /// `quit` are answered meanwhile; `on_done` gets the counts, or `None` when stopped.
    pub fn go_perft<D>(&mut self, depth: u32, on_done: D) -> Result<(), EngineError>
    where
        D: FnOnce(Option<Vec<(String, u64)>>) + Send + 'static,
    {
        check_perft_depth(depth)?;
        let game = self.game.clone();
        let threads = self.search_threads();
        self.run_in_background(move |job: &Background| {
            let counts = game.perft_until(depth, threads, job.stop);
            job.answering();
            on_done(counts)
        })
    }

    /// Runs `job` on its own thread as a search runs (see [`Engine::go_perft`]); `job` should
    /// end soon after its stop flag is set, and call [`Background::answering`] just before it
    /// prints its answer.
    pub fn run_in_background<J>(&mut self, job: J) -> Result<(), EngineError>
    where
        J: FnOnce(&Background) + Send + 'static,
    {
        if self.is_searching() {
            return Err(EngineError::Busy(Activity::Search));
        }
        self.reap();
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let (thread_stop, thread_answered) = (stop.clone(), answered.clone());
        let thread = std::thread::spawn(move || {
            let background = Background {
                stop: &thread_stop,
                answered: &thread_answered,
            };
            job(&background);
            background.answering();
        });
        self.search = Some(RunningSearch {
            stop,
            pondering: Arc::new(AtomicBool::new(false)),
            infinite: false,
            answered,
            thread,
        });
        Ok(())
    }

    /// The threads a search or perft runs on: `Threads`, but no more than the machine's cores
    /// (see [`available_cores`]).
    fn search_threads(&self) -> usize {
        self.options.threads.clamp(1, available_cores())
    }

    /// Joins a finished (or stopping) search thread.
    fn reap(&mut self) {
        if let Some(search) = self.search.take() {
            // The worker catches the search's panics; a panic here can only come from a
            // callback, and the best move is lost either way, so there is nothing to add.
            let _ = search.thread.join();
        }
    }

    fn tt_write(&self) -> std::sync::RwLockWriteGuard<'_, TranspositionTable> {
        self.tt
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A perft depth the engine counts to, or why not.
fn check_perft_depth(depth: u32) -> Result<(), EngineError> {
    if (1..=MAX_PERFT_DEPTH).contains(&depth) {
        Ok(())
    } else {
        Err(EngineError::Limit(format!(
            "depth {depth} is out of range 1..={MAX_PERFT_DEPTH}"
        )))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// What a job of [`Engine::run_in_background`] is given.
pub struct Background<'a> {
    /// Set when the job should end.
    pub stop: &'a AtomicBool,
    answered: &'a AtomicBool,
}

impl Background<'_> {
    /// The job is about to print its answer: from now on the engine takes new work (a GUI may
    /// send its next `go` as soon as it reads the answer), which waits for this thread first.
    pub fn answering(&self) {
        self.answered.store(true, Ordering::Release);
    }
}

/// The search limits for `side` to move.
fn set_limits(limits: &mut Limits, params: &GoParams, side: Color) {
    let SideClock { time, increment } = params.clock(side);
    limits.clock = time.map(|time| Clock {
        time,
        increment: increment.unwrap_or_default(),
        moves_to_go: params.moves_to_go.filter(|&moves| moves > 0),
    });
    // Depth 0 would search nothing; treat it as the shallowest search. The parser refuses
    // depths beyond the deepest; a library caller's are searched to it.
    limits.depth = params.depth.map(|depth| depth.clamp(1, MAX_DEPTH));
    // The search has no mate limit yet: a mate in n moves is found within 2n - 1 plies.
    if let Some(mate) = params.mate {
        let plies = mate.clamp(1, MAX_MATE) * 2 - 1;
        limits.depth = Some(limits.depth.map_or(plies, |depth| depth.min(plies)));
    }
    limits.nodes = params.nodes;
    limits.movetime = params.movetime;
    limits.infinite = params.infinite;
    limits.searchmoves = params.searchmoves.clone();
}

#[cfg(test)]
mod tests;
