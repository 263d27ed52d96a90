//! The referee of realtime chess. [`lockstep`] plays a game between two in-process
//! [`RealtimePlayer`](crate::plan::RealtimePlayer)s on a virtual clock; [`timeline`] keeps the
//! authoritative game, its orders and events, and the JSON record.

pub mod lockstep;
pub mod timeline;

pub use lockstep::{play_lockstep, DecisionStats, LockstepGame, LockstepSettings};
pub use timeline::{ClockMode, OrderRecord, ParamsRecord, RealtimeRecord, RefereeGame, TimedOrder};
