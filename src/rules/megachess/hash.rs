//! The hash maps of the world, keyed by squares and piece ids: `ahash` (fast, non-cryptographic;
//! the keys come from the world itself, so flooding is not a concern) with fixed keys, so that
//! a world behaves the same in every process.

use std::collections::{HashMap, HashSet};

pub type FastMap<K, V> = HashMap<K, V, ahash::RandomState>;
pub type FastSet<K> = HashSet<K, ahash::RandomState>;

/// `ahash`'s state with keys fixed here rather than drawn per process.
pub fn fixed_state() -> ahash::RandomState {
    ahash::RandomState::with_seeds(
        0x243F_6A88_85A3_08D3,
        0x1319_8A2E_0370_7344,
        0xA409_3822_299F_31D0,
        0x082E_FA98_EC4E_6C89,
    )
}
