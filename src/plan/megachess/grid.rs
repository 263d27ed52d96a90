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

/// The dense grid's border: cells around the window that say "outside", so a line or a
/// knight's jump stops there without comparing coordinates (a knight jumps two squares).
const PAD: u32 = 2;
/// A border cell's value.
const OUTSIDE: u32 = u32::MAX;

/// What a line walk's visitor tells it: go on past this piece, or stop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    Go,
    Stop,
}

/// The window as an array with its border.
#[derive(Clone)]
pub struct Dense {
    rect: Rect,
    /// Cells a row: the window's width and the border on both sides.
    stride: u32,
    /// Piece index + 1; 0 is vacant, [`OUTSIDE`] is the border.
    cells: Vec<u32>,
}

impl Dense {
    /// The cell of a square of the window.
    #[inline(always)]
    fn cell(&self, square: Coord) -> usize {
        (square.y - self.rect.min.y + PAD) as usize * self.stride as usize
            + (square.x - self.rect.min.x + PAD) as usize
    }
}

#[derive(Clone)]
pub enum Grid {
    Dense(Dense),
    Sparse { rect: Rect, map: SquareMap },
}

fn key(square: Coord) -> u64 {
    ((square.x as u64) << 32) | square.y as u64
}

fn inside(rect: &Rect, x: i64, y: i64) -> bool {
    x >= rect.min.x as i64
        && y >= rect.min.y as i64
        && x <= rect.max.x as i64
        && y <= rect.max.y as i64
}

impl Grid {
    pub fn new(rect: Rect) -> Grid {
        let width = (rect.max.x - rect.min.x + 1) as u64;
        let height = (rect.max.y - rect.min.y + 1) as u64;
        if width * height <= DENSE_LIMIT {
            let stride = width as u32 + 2 * PAD;
            let rows = height as u32 + 2 * PAD;
            let mut cells = vec![OUTSIDE; (stride * rows) as usize];
            for row in PAD..rows - PAD {
                let start = (row * stride + PAD) as usize;
                cells[start..start + width as usize].fill(0);
            }
            Grid::Dense(Dense {
                rect,
                stride,
                cells,
            })
        } else {
            Grid::Sparse {
                rect,
                map: SquareMap::default(),
            }
        }
    }

    /// The piece on a square of the window (the caller keeps squares inside it).
    #[inline]
    pub fn get(&self, square: Coord) -> Option<u32> {
        match self {
            Grid::Dense(dense) => dense.cells[dense.cell(square)].checked_sub(1),
            Grid::Sparse { map, .. } => map.get(&key(square)).copied(),
        }
    }

    pub fn set(&mut self, square: Coord, piece: Option<u32>) {
        match self {
            Grid::Dense(dense) => {
                let cell = dense.cell(square);
                dense.cells[cell] = piece.map_or(0, |p| p + 1);
            }
            Grid::Sparse { map, .. } => match piece {
                Some(p) => {
                    map.insert(key(square), p);
                }
                None => {
                    map.remove(&key(square));
                }
            },
        }
    }

    /// The square `(dx, dy)` from `from` (at most [`PAD`] away on each axis): `None` outside
    /// the window, else its piece if any.
    #[inline(always)]
    pub fn neighbour(&self, from: Coord, dx: i32, dy: i32) -> Option<Option<u32>> {
        match self {
            Grid::Dense(dense) => {
                let at =
                    dense.cell(from) as isize + dy as isize * dense.stride as isize + dx as isize;
                match dense.cells[at as usize] {
                    OUTSIDE => None,
                    cell => Some(cell.checked_sub(1)),
                }
            }
            Grid::Sparse { rect, map } => {
                let (x, y) = (from.x as i64 + dx as i64, from.y as i64 + dy as i64);
                inside(rect, x, y).then(|| map.get(&key(Coord::new(x as u32, y as u32))).copied())
            }
        }
    }

    /// Walks from `from` (not included) along the king step `(dx, dy)` for at most `steps`
    /// squares inside the window, showing `visit` each piece on the way (its distance and
    /// index) until it says [`Walk::Stop`].
    #[inline(always)]
    pub fn walk(
        &self,
        from: Coord,
        (dx, dy): (i32, i32),
        steps: u32,
        mut visit: impl FnMut(u32, u32) -> Walk,
    ) {
        match self {
            Grid::Dense(dense) => {
                let delta = dy as isize * dense.stride as isize + dx as isize;
                let mut at = dense.cell(from) as isize;
                for distance in 1..=steps {
                    at += delta;
                    match dense.cells[at as usize] {
                        0 => {}
                        OUTSIDE => return,
                        cell => {
                            if visit(distance, cell - 1) == Walk::Stop {
                                return;
                            }
                        }
                    }
                }
            }
            Grid::Sparse { rect, map } => {
                let (mut x, mut y) = (from.x as i64, from.y as i64);
                for distance in 1..=steps {
                    x += dx as i64;
                    y += dy as i64;
                    if !inside(rect, x, y) {
                        return;
                    }
                    if let Some(&piece) = map.get(&key(Coord::new(x as u32, y as u32))) {
                        if visit(distance, piece) == Walk::Stop {
                            return;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Rng;

    /// The dense grid (with its border) and the hash map answer every walk and every
    /// neighbour alike, and as coordinates say: the edge of the window ends a walk.
    #[test]
    fn dense_and_sparse_grids_walk_alike() {
        let rect = Rect {
            min: Coord::new(100, 200),
            max: Coord::new(139, 229),
        };
        let mut dense = Grid::new(rect);
        assert!(matches!(dense, Grid::Dense(_)));
        let mut sparse = Grid::Sparse {
            rect,
            map: SquareMap::default(),
        };
        let mut random = Rng::new(5);
        let mut piece = 0;
        for x in rect.min.x..=rect.max.x {
            for y in rect.min.y..=rect.max.y {
                if random.next_u64().is_multiple_of(3) {
                    dense.set(Coord::new(x, y), Some(piece));
                    sparse.set(Coord::new(x, y), Some(piece));
                    piece += 1;
                }
            }
        }
        let steps = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ];
        for x in rect.min.x..=rect.max.x {
            for y in rect.min.y..=rect.max.y {
                let from = Coord::new(x, y);
                for step in steps {
                    let mut seen = [Vec::new(), Vec::new()];
                    for (grid, seen) in [&dense, &sparse].into_iter().zip(&mut seen) {
                        grid.walk(from, step, 7, |distance, piece| {
                            seen.push((distance, piece));
                            Walk::Go
                        });
                    }
                    let mut expected = Vec::new();
                    for distance in 1..=7i64 {
                        let (x, y) = (
                            x as i64 + step.0 as i64 * distance,
                            y as i64 + step.1 as i64 * distance,
                        );
                        if !inside(&rect, x, y) {
                            break;
                        }
                        if let Some(piece) = dense.get(Coord::new(x as u32, y as u32)) {
                            expected.push((distance as u32, piece));
                        }
                    }
                    assert_eq!(seen[0], expected, "dense from {from} along {step:?}");
                    assert_eq!(seen[1], expected, "sparse from {from} along {step:?}");
                }
                for dx in -2..=2 {
                    for dy in -2..=2 {
                        let (tx, ty) = (x as i64 + dx as i64, y as i64 + dy as i64);
                        let expected = inside(&rect, tx, ty)
                            .then(|| sparse.get(Coord::new(tx as u32, ty as u32)));
                        assert_eq!(dense.neighbour(from, dx, dy), expected);
                        assert_eq!(sparse.neighbour(from, dx, dy), expected);
                    }
                }
            }
        }
    }
}
