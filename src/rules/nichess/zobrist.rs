//! Zobrist keys, generated at compile time from a fixed seed. A piece's key depends on its HP,
//! so two positions that differ only in health have different keys.

use super::position::HP_LEVELS;
use crate::rules::zobrist::splitmix;

pub struct Keys {
    /// `pieces[piece code][hp in tens - 1][square]`, piece code = kind + 6 * colour.
    pub pieces: [[[u64; 64]; HP_LEVELS]; 12],
    pub black_to_move: u64,
}

const fn make_keys() -> Keys {
    let mut keys = Keys {
        pieces: [[[0; 64]; HP_LEVELS]; 12],
        black_to_move: 0,
    };
    let mut state = 0x4E1C_4E55_0000_0001u64;
    let mut piece = 0;
    while piece < 12 {
        let mut level = 0;
        while level < HP_LEVELS {
            let mut sq = 0;
            while sq < 64 {
                let (s, k) = splitmix(state);
                state = s;
                keys.pieces[piece][level][sq] = k;
                sq += 1;
            }
            level += 1;
        }
        piece += 1;
    }
    let (_, k) = splitmix(state);
    keys.black_to_move = k;
    keys
}

pub static KEYS: Keys = make_keys();

/// The key of one piece with `hp` (in tens, 1..=6) on `sq`.
#[inline(always)]
pub fn piece_key(code: u8, hp: u8, sq: usize) -> u64 {
    KEYS.pieces[code as usize][hp as usize - 1][sq]
}
