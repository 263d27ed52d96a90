//! The turn engine's options: the ones it announces beside the players' shared ones, and
//! their current values.

use crate::eval::EvalOptions;
use crate::options::{
    skill_seed_option, strength_options, variant_option, OptionKind, OptionSpec, Strength,
};
use std::time::Duration;

pub const HASH: &str = "Hash";
pub const THREADS: &str = "Threads";
pub const MULTI_PV: &str = "MultiPV";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const PONDER: &str = "Ponder";
pub const USE_NNUE: &str = "Use NNUE";
pub const EVAL_FILE: &str = "EvalFile";
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
            eval: EvalOptions::default(),
        }
    }
}
