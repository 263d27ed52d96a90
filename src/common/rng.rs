//! The crate's one seeded generator, SplitMix64: small, fast, the same sequence on every
//! machine for a seed, and usable at compile time (the Zobrist keys are drawn with it as
//! constants). Every seeded thing (worlds, openings, skill, fuzzing, datagen, training) draws
//! from it, so one seed means one run.

/// SplitMix64's finaliser: a well-mixed 64-bit value from any 64-bit value (a bijection).
#[inline]
pub const fn mix(value: u64) -> u64 {
    let mut z = value;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The golden-ratio step SplitMix64 adds at every draw.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A SplitMix64 stream. Any seed is good (zero too); its state is one number, so a stream can be
/// saved and resumed ([`Rng::state`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The stream's state: `Rng::new(state)` goes on from here.
    pub const fn state(&self) -> u64 {
        self.0
    }

    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }

    /// A draw in `0..n` (0 when `n` is 0), by multiply-shift: no modulo bias worth speaking of.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// An index in `0..n` (0 when `n` is 0).
    #[inline]
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// A number with about one bit in eight set (three draws ANDed): what magic-number
    /// searches try first.
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }

    /// The next `N` draws, in order (at compile time too).
    pub const fn draws<const N: usize>(&mut self) -> [u64; N] {
        let mut draws = [0; N];
        let mut i = 0;
        while i < N {
            draws[i] = self.next_u64();
            i += 1;
        }
        draws
    }

    /// The next `ROWS * N` draws as rows of `N`, in order (at compile time too).
    pub const fn table<const ROWS: usize, const N: usize>(&mut self) -> [[u64; N]; ROWS] {
        let mut table = [[0; N]; ROWS];
        let mut row = 0;
        while row < ROWS {
            table[row] = self.draws();
            row += 1;
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64() {
        // The first outputs of SplitMix64 seeded with 0, as its reference code prints them.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.state(), GOLDEN.wrapping_mul(2));
    }

    #[test]
    fn a_saved_state_resumes_the_stream() {
        let mut one = Rng::new(42);
        one.next_u64();
        let mut two = Rng::new(one.state());
        assert_eq!(one.next_u64(), two.next_u64());
    }

    #[test]
    fn tables_draw_the_same_numbers_in_the_same_order() {
        let mut one = Rng::new(7);
        let table: [[u64; 3]; 2] = one.table();
        let mut two = Rng::new(7);
        let flat: [u64; 7] = two.draws();
        assert_eq!(table.concat(), flat[..6]);
        assert_eq!(one.next_u64(), flat[6]);
        assert_ne!(flat[0], flat[1]);
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = Rng::new(3);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            seen[rng.index(5)] = true;
        }
        assert!(seen.iter().all(|&s| s), "every index comes up");
        assert_eq!(rng.below(0), 0);
    }
}
