//! Zobrist keys, generated at compile time from a fixed seed: pieces, side to move, each
//! castling right, the en passant file and each pool count.

use super::position::{CASTLING_RIGHTS, MAX_POOL, SQUARES};
use crate::rules::zobrist::splitmix;

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
    let mut keys = Keys {
        pieces: [[0; SQUARES]; 12],
        black_to_move: 0,
        castling: [0; CASTLING_RIGHTS],
        en_passant_file: [0; 15],
        pool: [[[0; MAX_POOL + 1]; 4]; 2],
    };
    let mut state = 0x0031_11E2_21A5_EED5_u64;
    let mut piece = 0;
    while piece < 12 {
        let mut sq = 0;
        while sq < SQUARES {
            let (s, k) = splitmix(state);
            state = s;
            keys.pieces[piece][sq] = k;
            sq += 1;
        }
        piece += 1;
    }
    let (s, k) = splitmix(state);
    state = s;
    keys.black_to_move = k;
    let mut i = 0;
    while i < CASTLING_RIGHTS {
        let (s, k) = splitmix(state);
        state = s;
        keys.castling[i] = k;
        i += 1;
    }
    let mut file = 0;
    while file < 15 {
        let (s, k) = splitmix(state);
        state = s;
        keys.en_passant_file[file] = k;
        file += 1;
    }
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 4 {
            let mut count = 1;
            while count <= MAX_POOL {
                let (s, k) = splitmix(state);
                state = s;
                keys.pool[color][kind][count] = k;
                count += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    keys
}

pub static KEYS: Keys = make_keys();
