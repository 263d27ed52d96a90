//! The Millennium move: 7-bit squares and a 4-bit flag in a `u32`.

use crate::board::Square;
use crate::rules::chess::MoveFlag;

/// Board width, for square names.
const FILES: u8 = 15;

/// A move as `from | to << 7 | flag << 14`. `Move::NULL` (all zero) is written `0000`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

// Room for Millennium's widest positions (15 files, two kings, promotions to four kinds).
packed_move!(Move, u32, 7, 512);
chess_move_flags!(Move, FILES);

impl Move {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move::with_flag_bits(from, to, flag as u32)
    }
}
