//! What every game's Zobrist keys are made from: one stream of well-mixed numbers from a seed,
//! drawn at compile time, so each game builds its key tables as constants.

/// SplitMix64 as a stream: each game seeds its own and draws its keys in a fixed order.
pub struct KeyStream {
    state: u64,
}

impl KeyStream {
    pub const fn new(seed: u64) -> KeyStream {
        KeyStream { state: seed }
    }

    /// The next key.
    pub const fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next `N` keys, in order.
    pub const fn keys<const N: usize>(&mut self) -> [u64; N] {
        let mut keys = [0; N];
        let mut i = 0;
        while i < N {
            keys[i] = self.next();
            i += 1;
        }
        keys
    }

    /// The next `ROWS * N` keys as rows of `N`, in order.
    pub const fn table<const ROWS: usize, const N: usize>(&mut self) -> [[u64; N]; ROWS] {
        let mut table = [[0; N]; ROWS];
        let mut row = 0;
        while row < ROWS {
            table[row] = self.keys();
            row += 1;
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_draw_the_same_keys_in_the_same_order() {
        let mut one = KeyStream::new(7);
        let table: [[u64; 3]; 2] = one.table();
        let mut two = KeyStream::new(7);
        let flat: [u64; 7] = two.keys();
        assert_eq!(table.concat(), flat[..6]);
        assert_eq!(one.next(), flat[6]);
        assert_ne!(flat[0], flat[1]);
    }
}
