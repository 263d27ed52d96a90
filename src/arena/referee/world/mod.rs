//! Megachess worlds in the arena: the spawn layouts and setup ([`layout`]), the world as the
//! referee plays it turn by turn ([`game`]), shared by the in-process runner and the process
//! referee, and its JSON record ([`record`]).

pub mod flags;
pub mod game;
pub mod layout;
pub mod process;
pub mod record;
pub mod settings;
pub mod stats;

pub use game::{play_world, SeatAnswer, WorldGame};
pub use layout::{player_id, seat_team, Layout, Spawn, WorldSetup};
pub use record::{
    KingCaptureRecord, PieceRecord, RejectionRecord, SeatRecord, WorldRecord, WorldSetupRecord,
};
