//! Where a new player's army goes: the server's policy (the rules leave it open). Alabaster
//! armies start in the southern half facing north, metal armies in the northern half facing
//! south, on a vacant 8 x 2 block with room around it.

use crate::rules::megachess::{Coord, Facing, PlayerId, Team, World};

/// How the server places new armies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// A random vacant spot of the team's half (seeded by the world's seed).
    #[default]
    Random,
    /// Side by side along the team's edge in order of joining (alabaster on the south edge
    /// facing north, metal on the north edge facing south), then the next row inwards: a
    /// repeatable layout for tests and small worlds.
    Edge,
}

impl Placement {
    /// Reads `random` or `edge`.
    pub fn parse(text: &str) -> Result<Placement, String> {
        match text {
            "random" => Ok(Placement::Random),
            "edge" => Ok(Placement::Edge),
            _ => Err(format!("unknown placement '{text}' (random or edge)")),
        }
    }
}

/// Where one army goes: its block's south-west corner and its facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub corner: Coord,
    pub facing: Facing,
}

/// Finds a spot for `player`'s army on `team`'s side, or `None` when there is no room.
/// `random_state` is the placement generator's state (a `SplitMix` state), advanced by
/// random placement; `index` is how many armies of this team were placed before (edge
/// placement).
pub fn find_spot(
    world: &World,
    placement: Placement,
    team: Team,
    player: PlayerId,
    index: u64,
    random_state: &mut u64,
) -> Option<Spot> {
    let _ = (world, placement, team, player, index, random_state);
    todo!("placement")
}
