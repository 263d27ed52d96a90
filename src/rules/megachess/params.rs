//! The world's run-time parameters: every number the rules page calls a parameter.

use super::Kind;
use crate::rules::registry::Parameter;

/// The parameters of one world. Piece ranges (queen 7, rook and bishop 6) are rules, not
/// parameters, and live in the movement table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MegachessParams {
    pub width: u32,
    pub height: u32,
    pub turn_ms: u64,
    /// Rank of each kind, indexed by [`Kind::index`].
    pub ranks: [u32; 6],
    pub kingdom_radius: u32,
    pub fade_base: u32,
    pub fade_per_rank: u32,
    /// A bonus piece every this many turns; 0: never.
    pub bonus_every: u32,
    /// Relative weights of a bonus piece's kind, indexed by [`Kind::index`] (the king's is 0).
    pub bonus_weights: [u32; 6],
}

impl Default for MegachessParams {
    fn default() -> Self {
        todo!("defaults of the rules page")
    }
}

/// The registry row's parameters: names exactly as the protocol's options, defaults, ranges.
/// (width, height, turn_ms, kingdom_radius, fade_base, fade_per_rank, bonus_every,
/// rank_king .. rank_pawn, bonus_pawn .. bonus_queen.)
pub const PARAMETERS: &[Parameter] = &[];

impl MegachessParams {
    pub fn rank(&self, kind: Kind) -> u32 {
        self.ranks[kind.index()]
    }
    /// Turns of life of a piece of this kind outside its kingdom.
    pub fn full_life(&self, kind: Kind) -> u32 {
        self.fade_base + self.fade_per_rank * self.rank(kind)
    }
    /// Sets the parameter of this name (as in [`PARAMETERS`]), inside its range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let _ = (name, value);
        todo!()
    }
    /// The value of the parameter of this name.
    pub fn get(&self, name: &str) -> Option<i64> {
        let _ = name;
        todo!()
    }
    /// Every parameter inside its range, or a text naming the first one that is not.
    pub fn validate(&self) -> Result<(), String> {
        todo!()
    }
}
