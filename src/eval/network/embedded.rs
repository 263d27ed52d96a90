//! The networks this build carries for the games beside chess (chess's is in `super::chess`),
//! each read once, on first use. Each is a correction to its game's hand-set evaluation,
//! trained by `roger train` on Roger's self-play (docs/network.md).

use super::{Network, NetworkInputs};
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use std::sync::OnceLock;

static NICHESS: &[u8] = include_bytes!("nichess.nnue");
static MILLENNIUM: &[u8] = include_bytes!("millennium.nnue");

/// `G`'s network from `bytes`, read into `cell` the first time.
fn read_once<G: NetworkInputs>(cell: &'static OnceLock<Network>, bytes: &[u8]) -> &'static Network {
    cell.get_or_init(|| {
        Network::from_bytes(bytes, G::INPUTS).unwrap_or_else(|error| {
            panic!("the embedded {} network is unreadable: {error}", G::VARIANT)
        })
    })
}

/// The Nichess network this build carries.
pub fn nichess() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    read_once::<Nichess>(&NETWORK, NICHESS)
}

/// The Millennium network this build carries.
pub fn millennium() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    read_once::<Millennium>(&NETWORK, MILLENNIUM)
}
