//! Zobrist keys, generated at compile time from a fixed seed.

use crate::rules::zobrist::splitmix;

pub struct Keys {
    /// `pieces[piece code][square]`, piece code = kind + 6 * colour.
    pub pieces: [[u64; 64]; 12],
    pub black_to_move: u64,
    /// One key per castling-rights set (4 bits).
    pub castling: [u64; 16],
    pub en_passant_file: [u64; 8],
}

const fn make_keys() -> Keys {
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        black_to_move: 0,
        castling: [0; 16],
        en_passant_file: [0; 8],
    };
    let mut state = 0x5EED_0FC4_E55E_ED00u64;
    let mut piece = 0;
    while piece < 12 {
        let mut sq = 0;
        while sq < 64 {
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
    // Castling keys are the XOR of one key per right, so a set of rights has one key.
    let mut rights = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (s, k) = splitmix(state);
        state = s;
        rights[i] = k;
        i += 1;
    }
    let mut set = 0;
    while set < 16 {
        let mut bit = 0;
        while bit < 4 {
            if set & (1 << bit) != 0 {
                keys.castling[set] ^= rights[bit];
            }
            bit += 1;
        }
        set += 1;
    }
    let mut file = 0;
    while file < 8 {
        let (s, k) = splitmix(state);
        state = s;
        keys.en_passant_file[file] = k;
        file += 1;
    }
    keys
}

pub static KEYS: Keys = make_keys();
