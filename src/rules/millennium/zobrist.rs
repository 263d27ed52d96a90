//! Zobrist keys, generated at compile time from a fixed seed: pieces, side to move, each
//! castling right, the en passant file and each pool count.

use super::{CASTLING_RIGHTS, MAX_POOL, SQUARES};
use crate::common::Rng;

pub struct Keys {
    /// `pieces[piece code][square]`, piece code = kind + 6 * colour.
    pub pieces: [[u64; SQUARES]; 12],
    pub black_to_move: u64,
    /// One key per castling right (bit index); a set of rights is the XOR of its keys.
    pub castling: [u64; CASTLING_RIGHTS],
    pub en_passant_file: [u64; 15],
    /// `pool[colour][kind - 1][count]`; count 0 has key 0, so empty pools add nothing.
    pub pool: [[[u64; MAX_POOL + 1]; 4]; 2],
}

impl Keys {
    /// The key of a set of castling rights.
    #[inline(always)]
    pub fn castling_set(&self, mut rights: u16) -> u64 {
        let mut key = 0;
        while rights != 0 {
            key ^= self.castling[rights.trailing_zeros() as usize];
            rights &= rights - 1;
        }
        key
    }
}

const fn make_keys() -> Keys {
    let mut stream = Rng::new(0x0031_11E2_21A5_EED5);
    let pieces = stream.table();
    let black_to_move = stream.next_u64();
    let castling = stream.draws();
    let en_passant_file = stream.draws();
    let mut pool = [[[0; MAX_POOL + 1]; 4]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 4 {
            let counts: [u64; MAX_POOL] = stream.draws();
            let mut count = 1;
            while count <= MAX_POOL {
                pool[color][kind][count] = counts[count - 1];
                count += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    Keys {
        pieces,
        black_to_move,
        castling,
        en_passant_file,
        pool,
    }
}

pub static KEYS: Keys = make_keys();
