//! The turn engine's options: the ones it announces beside the players' shared ones, and
//! their current values.

use crate::eval::EvalOptions;
use crate::options::{
    skill_seed_option, strength_options, variant_option, OptionKind, OptionSpec, OptionValue,
    Strength, SKILL_LEVEL, SKILL_SEED, UCI_ELO, UCI_LIMIT_STRENGTH, UCI_VARIANT,
};
use std::time::Duration;

pub const HASH: &str = "Hash";
pub const THREADS: &str = "Threads";
pub const MULTI_PV: &str = "MultiPV";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const PONDER: &str = "Ponder";
pub const USE_NNUE: &str = "Use NNUE";
pub const EVAL_FILE: &str = "EvalFile";
/// Chess: castling written king-takes-own-rook, as Chess960 GUIs expect.
pub const UCI_CHESS960: &str = "UCI_Chess960";
/// `EvalFile`'s value for the network built into the binary.
pub const EMBEDDED_NETWORK: &str = "<embedded>";

pub const HASH_DEFAULT_MB: i64 = 16;
pub const HASH_MAX_MB: i64 = 65536;
pub const THREADS_MAX: i64 = 256;
pub const MULTI_PV_MAX: i64 = 256;
pub const MOVE_OVERHEAD_DEFAULT_MS: i64 = 30;
pub const MOVE_OVERHEAD_MAX_MS: i64 = 5000;

/// The options every variant shares; `variants` are the values of `UCI_Variant`.
pub fn option_specs(variants: &[&str]) -> Vec<OptionSpec> {
    let spin = |name, default, min, max| OptionSpec {
        name,
        kind: OptionKind::Spin { default, min, max },
    };
    vec![
        spin(HASH, HASH_DEFAULT_MB, 1, HASH_MAX_MB),
        spin(THREADS, 1, 1, THREADS_MAX),
        spin(MULTI_PV, 1, 1, MULTI_PV_MAX),
        spin(
            MOVE_OVERHEAD,
            MOVE_OVERHEAD_DEFAULT_MS,
            0,
            MOVE_OVERHEAD_MAX_MS,
        ),
        // Announced so GUIs know we can ponder; the engine ponders whenever it is sent
        // `go ponder`, whatever the value.
        OptionSpec {
            name: PONDER,
            kind: OptionKind::Check { default: false },
        },
        variant_option(variants),
        // Chess: castling king-takes-own-rook (`e1h1`), as GUIs that play Chess960 expect. Any
        // start position can be set up either way; this changes only how castling is written.
        OptionSpec {
            name: UCI_CHESS960,
            kind: OptionKind::Check { default: false },
        },
        // Chess only: the network (on) or the hand-set evaluation.
        OptionSpec {
            name: USE_NNUE,
            kind: OptionKind::Check { default: true },
        },
        // A network file of any turn game to use in place of the built-in one.
        OptionSpec {
            name: EVAL_FILE,
            kind: OptionKind::Text {
                default: EMBEDDED_NETWORK.to_string(),
            },
        },
    ]
    .into_iter()
    .chain(strength_options())
    .chain([skill_seed_option()])
    .collect()
}

/// The current values of the options that are not kept elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionValues {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub strength: Strength,
    pub skill_seed: u64,
    /// `UCI_Chess960`: chess positions write castling king-takes-own-rook.
    pub chess960: bool,
    /// `Use NNUE`: this engine's alone (each search carries it).
    pub eval: EvalOptions,
}

impl Default for OptionValues {
    fn default() -> OptionValues {
        OptionValues {
            hash_mb: HASH_DEFAULT_MB as usize,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(MOVE_OVERHEAD_DEFAULT_MS as u64),
            strength: Strength::default(),
            skill_seed: 0,
            chess960: false,
            eval: EvalOptions::default(),
        }
    }
}

/// One of the turn engine's options with a value of its type: what `Engine::set_option`
/// reads a name and value into, and what a program that embeds the engine may give
/// `Engine::set` directly. Either way the value is checked against the option's bounds first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// The transposition table's size.
    Hash {
        megabytes: usize,
    },
    /// Search threads (no more than the machine's cores run).
    Threads(usize),
    /// Principal variations reported.
    MultiPv(usize),
    /// Time kept back on every move for the GUI's and the pipe's delays.
    MoveOverhead(Duration),
    /// Only announced: the engine ponders on `go ponder` whatever this says.
    Ponder(bool),
    /// The game played (`UCI_Variant`).
    Variant(String),
    /// Chess: castling written king-takes-own-rook (`UCI_Chess960`).
    Chess960(bool),
    /// Chess: the network (on) or the hand-set evaluation alone.
    UseNnue(bool),
    /// A network file in place of the built-in one ([`EMBEDDED_NETWORK`] restores it).
    EvalFile(String),
    UciLimitStrength(bool),
    UciElo(i64),
    SkillLevel(i64),
    /// Seeds the weakened play of the strength options.
    SkillSeed(u64),
}

impl EngineOption {
    /// The option `name` (as announced) with `value`, or `None` when the name is not one of
    /// the turn engine's or the value is of another kind.
    pub fn read(name: &str, value: OptionValue) -> Option<EngineOption> {
        use OptionValue::{Check, Combo, Spin, Text};
        Some(match (name, value) {
            (HASH, Spin(megabytes)) => EngineOption::Hash {
                megabytes: usize::try_from(megabytes).ok()?,
            },
            (THREADS, Spin(threads)) => EngineOption::Threads(usize::try_from(threads).ok()?),
            (MULTI_PV, Spin(lines)) => EngineOption::MultiPv(usize::try_from(lines).ok()?),
            (MOVE_OVERHEAD, Spin(ms)) => {
                EngineOption::MoveOverhead(Duration::from_millis(u64::try_from(ms).ok()?))
            }
            (PONDER, Check(on)) => EngineOption::Ponder(on),
            (UCI_VARIANT, Combo(variant)) => EngineOption::Variant(variant),
            (UCI_CHESS960, Check(on)) => EngineOption::Chess960(on),
            (USE_NNUE, Check(on)) => EngineOption::UseNnue(on),
            (EVAL_FILE, Text(path)) => EngineOption::EvalFile(path),
            (UCI_LIMIT_STRENGTH, Check(on)) => EngineOption::UciLimitStrength(on),
            (UCI_ELO, Spin(elo)) => EngineOption::UciElo(elo),
            (SKILL_LEVEL, Spin(level)) => EngineOption::SkillLevel(level),
            (SKILL_SEED, Spin(seed)) => EngineOption::SkillSeed(u64::try_from(seed).ok()?),
            _ => return None,
        })
    }

    /// The option's name as announced.
    pub fn name(&self) -> &'static str {
        match self {
            EngineOption::Hash { .. } => HASH,
            EngineOption::Threads(_) => THREADS,
            EngineOption::MultiPv(_) => MULTI_PV,
            EngineOption::MoveOverhead(_) => MOVE_OVERHEAD,
            EngineOption::Ponder(_) => PONDER,
            EngineOption::Variant(_) => UCI_VARIANT,
            EngineOption::Chess960(_) => UCI_CHESS960,
            EngineOption::UseNnue(_) => USE_NNUE,
            EngineOption::EvalFile(_) => EVAL_FILE,
            EngineOption::UciLimitStrength(_) => UCI_LIMIT_STRENGTH,
            EngineOption::UciElo(_) => UCI_ELO,
            EngineOption::SkillLevel(_) => SKILL_LEVEL,
            EngineOption::SkillSeed(_) => SKILL_SEED,
        }
    }

    /// The value as the option specs hold values (saturated where it cannot be in bounds).
    pub fn value(&self) -> OptionValue {
        let spin = |n: u64| OptionValue::Spin(i64::try_from(n).unwrap_or(i64::MAX));
        match self {
            EngineOption::Hash { megabytes } => spin(*megabytes as u64),
            EngineOption::Threads(n) | EngineOption::MultiPv(n) => spin(*n as u64),
            EngineOption::MoveOverhead(time) => {
                spin(u64::try_from(time.as_millis()).unwrap_or(u64::MAX))
            }
            EngineOption::SkillSeed(seed) => spin(*seed),
            EngineOption::UciElo(n) | EngineOption::SkillLevel(n) => OptionValue::Spin(*n),
            EngineOption::Ponder(on)
            | EngineOption::UseNnue(on)
            | EngineOption::UciLimitStrength(on)
            | EngineOption::Chess960(on) => OptionValue::Check(*on),
            EngineOption::Variant(name) => OptionValue::Combo(name.clone()),
            EngineOption::EvalFile(path) => OptionValue::Text(path.clone()),
        }
    }
}
