//! The networks this build carries for the games beside chess (chess's is in `super::chess`),
//! each read once, on first use.

use super::{Network, NetworkInputs};
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use std::sync::OnceLock;

/// Nichess's correction to its hand-set evaluation, trained by `roger train` on Roger's
/// self-play (docs/network.md).
static NICHESS: &[u8] = include_bytes!("nichess.nnue");

/// The Nichess network this build carries.
pub fn nichess() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| {
        Network::from_bytes(NICHESS, Nichess::INPUTS)
            .expect("the embedded Nichess network is readable")
    })
}

/// Millennium's correction to its hand-set evaluation, trained by `roger train` on Roger's
/// self-play (docs/network.md).
static MILLENNIUM: &[u8] = include_bytes!("millennium.nnue");

/// The Millennium network this build carries.
pub fn millennium() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| {
        Network::from_bytes(MILLENNIUM, Millennium::INPUTS)
            .expect("the embedded Millennium network is readable")
    })
}
