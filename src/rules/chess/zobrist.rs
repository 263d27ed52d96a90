//! Zobrist keys, generated at compile time from a fixed seed.

use crate::common::Rng;

pub struct Keys {
    /// `pieces[piece code][square]`, piece code = kind + 6 * colour.
    pub pieces: [[u64; 64]; 12],
    pub black_to_move: u64,
    /// One key per castling-rights set (4 bits).
    pub castling: [u64; 16],
    pub en_passant_file: [u64; 8],
}

const fn make_keys() -> Keys {
    let mut stream = Rng::new(0x5EED_0FC4_E55E_ED00);
    let pieces = stream.table();
    let black_to_move = stream.next_u64();
    // Castling keys are the XOR of one key per right, so a set of rights has one key.
    let rights: [u64; 4] = stream.draws();
    let mut castling = [0u64; 16];
    let mut set = 0;
    while set < 16 {
        let mut bit = 0;
        while bit < 4 {
            if set & (1 << bit) != 0 {
                castling[set] ^= rights[bit];
            }
            bit += 1;
        }
        set += 1;
    }
    Keys {
        pieces,
        black_to_move,
        castling,
        en_passant_file: stream.draws(),
    }
}

pub static KEYS: Keys = make_keys();
