//! Zobrist keys, generated at compile time from a fixed seed. A piece's key depends on its HP,
//! so two positions that differ only in health have different keys.

use super::HP_LEVELS;
use crate::common::Rng;

pub struct Keys {
    /// `pieces[piece code][hp in tens - 1][square]`, piece code = kind + 6 * colour.
    pub pieces: [[[u64; 64]; HP_LEVELS]; 12],
    pub black_to_move: u64,
}

const fn make_keys() -> Keys {
    let mut stream = Rng::new(0x4E1C_4E55_0000_0001);
    let mut pieces = [[[0; 64]; HP_LEVELS]; 12];
    let mut piece = 0;
    while piece < 12 {
        pieces[piece] = stream.table();
        piece += 1;
    }
    Keys {
        pieces,
        black_to_move: stream.next_u64(),
    }
}

pub static KEYS: Keys = make_keys();

/// The key of one piece with `hp` (in tens, 1..=6) on `sq`.
#[inline(always)]
pub fn piece_key(code: u8, hp: u8, sq: usize) -> u64 {
    KEYS.pieces[code as usize][hp as usize - 1][sq]
}
