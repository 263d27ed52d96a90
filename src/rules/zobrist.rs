//! What every game's Zobrist keys are made from.

/// One step of SplitMix64: the next state and a well-mixed 64-bit number. A `const fn`, so each
/// game builds its key tables at compile time from a fixed seed.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}
