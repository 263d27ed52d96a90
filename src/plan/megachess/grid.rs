//! Square → piece index over the planner's window: a dense array when the window is small (the
//! usual case: an army in one block), a hash map when the army is spread so wide that its window
//! would be large. Either way the cost follows the pieces, not the board.

use crate::rules::megachess::{Coord, Rect};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Windows of up to this many squares get a dense array (4 bytes a square).
const DENSE_LIMIT: u64 = 1 << 20;

/// A multiplicative hasher for packed squares (the keys are already well spread integers).
#[derive(Default)]
pub struct SquareHasher(u64);

impl Hasher for SquareHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (value ^ (value >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type SquareMap = HashMap<u64, u32, BuildHasherDefault<SquareHasher>>;

#[derive(Clone)]
pub enum Grid {
    Dense {
        rect: Rect,
        width: u32,
        /// Piece index + 1; 0 is vacant.
        cells: Vec<u32>,
    },
    Sparse(SquareMap),
}

fn key(square: Coord) -> u64 {
    ((square.x as u64) << 32) | square.y as u64
}

impl Grid {
    pub fn new(rect: Rect) -> Grid {
        let width = rect.max.x - rect.min.x + 1;
        let height = rect.max.y - rect.min.y + 1;
        if width as u64 * height as u64 <= DENSE_LIMIT {
            Grid::Dense {
                rect,
                width,
                cells: vec![0; (width * height) as usize],
            }
        } else {
            Grid::Sparse(SquareMap::default())
        }
    }

    /// The piece on a square of the window (the caller keeps squares inside it).
    #[inline]
    pub fn get(&self, square: Coord) -> Option<u32> {
        match self {
            Grid::Dense { rect, width, cells } => {
                let i = (square.y - rect.min.y) as usize * *width as usize
                    + (square.x - rect.min.x) as usize;
                cells[i].checked_sub(1)
            }
            Grid::Sparse(map) => map.get(&key(square)).copied(),
        }
    }

    pub fn set(&mut self, square: Coord, piece: Option<u32>) {
        match self {
            Grid::Dense { rect, width, cells } => {
                let i = (square.y - rect.min.y) as usize * *width as usize
                    + (square.x - rect.min.x) as usize;
                cells[i] = piece.map_or(0, |p| p + 1);
            }
            Grid::Sparse(map) => match piece {
                Some(p) => {
                    map.insert(key(square), p);
                }
                None => {
                    map.remove(&key(square));
                }
            },
        }
    }
}
