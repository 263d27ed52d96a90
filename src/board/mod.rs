//! Board geometry and bitboards, shared by every game.
//!
//! A game names its [`Geometry`] (files, ranks and the bitboard integer); everything here is
//! generic over it and monomorphised per shape. The 8x8 `u64` shape also has magic-bitboard
//! slider attacks ([`magic`]) for the hot paths of chess and Nichess.

mod bitboard;
pub mod build;
mod geometry;
pub mod magic;
pub mod masks;
mod square;

pub use bitboard::{Bitboard, SquareIter};
pub use geometry::{
    Board15x8, Board16x8, Board5x5, Board8x16, Board8x8, Geometry, Step, Tables, DIAGONAL_RAYS,
    KING_STEPS, KNIGHT_STEPS, ORTHOGONAL_RAYS, ORTHOGONAL_STEPS, PAWN_ATTACK_STEPS, RAY_STEPS,
};
pub use square::{parse_coords, Square};
