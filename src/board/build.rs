//! Attack tables built at compile time, for any board shape: leapers, rays and the squares
//! between two squares. Every game's tables come from these, as constants (the compile-time
//! tables of Millennium and Nichess) or, square by square, at run time ([`Tables`](super::Tables)).
//!
//! Bits are built in a `u128` (any board up to 128 squares); [`narrow`] makes a `u64` table of
//! a small board. A table may be longer than the board (Millennium sizes its tables to the
//! whole `u128`); the squares past the board stay empty.

use super::{Step, RAY_STEPS};

const fn on_board(files: u8, ranks: u8, file: i32, rank: i32) -> bool {
    file >= 0 && file < files as i32 && rank >= 0 && rank < ranks as i32
}

/// The squares `steps` reach from `sq` in one jump.
pub const fn leaper_bits(files: u8, ranks: u8, sq: usize, steps: &[Step]) -> u128 {
    let (file, rank) = ((sq % files as usize) as i32, (sq / files as usize) as i32);
    let mut bits = 0u128;
    let mut i = 0;
    while i < steps.len() {
        let (f, r) = (file + steps[i].files as i32, rank + steps[i].ranks as i32);
        if on_board(files, ranks, f, r) {
            bits |= 1u128 << (r * files as i32 + f);
        }
        i += 1;
    }
    bits
}

/// The squares from `sq` to the edge along `step`, `sq` excluded.
pub const fn ray_bits(files: u8, ranks: u8, sq: usize, step: Step) -> u128 {
    ray_until(files, ranks, sq, step, 0)
}

/// The squares a slider on `sq` reaches along `step` over `occupied`: up to the edge or up to
/// and including the first occupied square. The one ray walk every table is built from.
pub const fn ray_until(files: u8, ranks: u8, sq: usize, step: Step, occupied: u128) -> u128 {
    let mut file = (sq % files as usize) as i32 + step.files as i32;
    let mut rank = (sq / files as usize) as i32 + step.ranks as i32;
    let mut bits = 0u128;
    while on_board(files, ranks, file, rank) {
        let bit = 1u128 << (rank * files as i32 + file);
        bits |= bit;
        if occupied & bit != 0 {
            break;
        }
        file += step.files as i32;
        rank += step.ranks as i32;
    }
    bits
}

/// `table[square]`: the squares `steps` reach from each square of the board.
pub const fn leaper_table<const N: usize>(files: u8, ranks: u8, steps: &[Step]) -> [u128; N] {
    let mut table = [0u128; N];
    let mut sq = 0;
    while sq < files as usize * ranks as usize && sq < N {
        table[sq] = leaper_bits(files, ranks, sq, steps);
        sq += 1;
    }
    table
}

/// `rays[direction][square]`, in the order of [`RAY_STEPS`].
pub const fn ray_tables<const N: usize>(files: u8, ranks: u8) -> [[u128; N]; 8] {
    let mut rays = [[0u128; N]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < files as usize * ranks as usize && sq < N {
            rays[d][sq] = ray_bits(files, ranks, sq, RAY_STEPS[d]);
            sq += 1;
        }
        d += 1;
    }
    rays
}

/// `between[a][b]`: the squares strictly between `a` and `b` on a shared line, else empty.
pub const fn between_table<const N: usize>(files: u8, ranks: u8) -> [[u128; N]; N] {
    let rays = ray_tables::<N>(files, ranks);
    let mut between = [[0u128; N]; N];
    let mut a = 0;
    while a < N {
        let mut d = 0;
        while d < 8 {
            let mut ray = rays[d][a];
            while ray != 0 {
                let b = ray.trailing_zeros() as usize;
                ray &= ray - 1;
                between[a][b] = rays[d][a] & rays[(d + 4) % 8][b];
            }
            d += 1;
        }
        a += 1;
    }
    between
}

/// A table of a board of at most 64 squares, in `u64`.
pub const fn narrow<const N: usize>(table: [u128; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i] as u64;
        i += 1;
    }
    out
}

/// [`narrow`] for a table of tables.
pub const fn narrow_rows<const ROWS: usize, const N: usize>(
    table: [[u128; N]; ROWS],
) -> [[u64; N]; ROWS] {
    let mut out = [[0u64; N]; ROWS];
    let mut row = 0;
    while row < ROWS {
        out[row] = narrow(table[row]);
        row += 1;
    }
    out
}

/// `line[a][b]`: the whole line through `a` and `b` (edge to edge, both included) when they
/// share one, else empty.
pub const fn line_table<const N: usize>(files: u8, ranks: u8) -> [[u128; N]; N] {
    let rays = ray_tables::<N>(files, ranks);
    let mut line = [[0u128; N]; N];
    let mut a = 0;
    while a < N && a < files as usize * ranks as usize {
        let mut d = 0;
        while d < 8 {
            let full = rays[d][a] | rays[(d + 4) % 8][a] | 1u128 << a;
            let mut ray = rays[d][a];
            while ray != 0 {
                let b = ray.trailing_zeros() as usize;
                ray &= ray - 1;
                line[a][b] = full;
            }
            d += 1;
        }
        a += 1;
    }
    line
}

/// A table of tables as one flat table, row after row (`NN` is `N * N`).
pub const fn flatten<const N: usize, const NN: usize>(table: [[u128; N]; N]) -> [u128; NN] {
    assert!(N * N == NN);
    let mut flat = [0u128; NN];
    let mut i = 0;
    while i < NN {
        flat[i] = table[i / N][i % N];
        i += 1;
    }
    flat
}

/// `masks[file]`: every square of each file.
pub const fn file_table<const F: usize>(files: u8, ranks: u8) -> [u128; F] {
    let mut masks = [0u128; F];
    let mut file = 0;
    while file < F {
        masks[file] = super::masks::file_mask(files, ranks, file as u8);
        file += 1;
    }
    masks
}

/// `masks[rank]`: every square of each rank.
pub const fn rank_table<const R: usize>(files: u8) -> [u128; R] {
    let mut masks = [0u128; R];
    let mut rank = 0;
    while rank < R {
        masks[rank] = super::masks::rank_mask(files, rank as u8);
        rank += 1;
    }
    masks
}

/// A `u128` table as it is, for the boards of more than 64 squares (what [`narrow`] is for the
/// others).
pub const fn keep<const N: usize>(table: [u128; N]) -> [u128; N] {
    table
}

/// [`keep`] for a table of tables.
pub const fn keep_rows<const ROWS: usize, const N: usize>(
    table: [[u128; N]; ROWS],
) -> [[u128; N]; ROWS] {
    table
}
