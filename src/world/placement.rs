//! Where a new player's army goes: the server's policy (the rules leave it open). Alabaster
//! armies start in the southern half facing north, metal armies in the northern half facing
//! south, on a vacant 8 x 2 block with room around it.

use crate::common::Rng;
#[cfg(test)]
use crate::rules::megachess::PlayerId;
use crate::rules::megachess::{Coord, Facing, Team, World};

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

/// The empty squares kept around a randomly placed army's block.
const RANDOM_MARGIN: u32 = 2;
/// Random spots tried before the join is refused.
const RANDOM_TRIES: u32 = 256;

/// Finds a spot for an army of `team`, or `None` when there is no room. `random_state` is the
/// placement generator's state (a [`Rng`] state), advanced by random placement.
pub fn find_spot(
    world: &World,
    placement: Placement,
    team: Team,
    random_state: &mut u64,
) -> Option<Spot> {
    let params = world.params();
    let (width, height) = (params.width, params.height);
    if width < 8 || height < 2 {
        return None;
    }
    let facing = match team {
        Team::Alabaster => Facing::North,
        Team::Metal => Facing::South,
    };
    match placement {
        Placement::Edge => edge_spot(world, team, facing),
        Placement::Random => {
            let mut random = Rng::new(*random_state);
            // The team's half of the rows a block may start on (the whole board when it is
            // too low to halve).
            let half = height / 2;
            let rows = match team {
                _ if height < 4 => 0..=height - 2,
                Team::Alabaster => 0..=half.saturating_sub(2),
                Team::Metal => half..=height - 2,
            };
            let spot = (0..RANDOM_TRIES).find_map(|_| {
                let x = random.below(u64::from(width - 8) + 1) as u32;
                let span = u64::from(rows.end() - rows.start()) + 1;
                let y = rows.start() + random.below(span) as u32;
                let corner = Coord::new(x, y);
                vacant_block(world, corner, RANDOM_MARGIN).then_some(Spot { corner, facing })
            });
            *random_state = random.state();
            spot
        }
    }
}

/// The first vacant block along the team's edge: alabaster from the south-west corner
/// eastwards and then northwards, metal from the north-west corner eastwards and then
/// southwards, each in its own half.
fn edge_spot(world: &World, team: Team, facing: Facing) -> Option<Spot> {
    let params = world.params();
    let (width, height) = (params.width, params.height);
    // Only pairs of rows wholly inside the team's half: rounding up would let both teams
    // claim the middle rows when the half's height is odd. A board too low to halve is shared.
    let row_pairs = if height < 4 { 1 } else { height / 2 / 2 };
    for pair in 0..row_pairs {
        let y = match team {
            Team::Alabaster => pair * 2,
            Team::Metal => height.checked_sub(2 + pair * 2)?,
        };
        if y + 1 >= height {
            break;
        }
        for slot in 0..width / 8 {
            let corner = Coord::new(slot * 8, y);
            if vacant_block(world, corner, 0) {
                return Some(Spot { corner, facing });
            }
        }
    }
    None
}

/// Whether the 8 x 2 block at `corner` and `margin` squares around it (as far as the board
/// goes) are empty; the block itself must be on the board.
fn vacant_block(world: &World, corner: Coord, margin: u32) -> bool {
    let params = world.params();
    if corner.x + 8 > params.width || corner.y + 2 > params.height {
        return false;
    }
    let xs = corner.x.saturating_sub(margin)..(corner.x + 8 + margin).min(params.width);
    let ys = corner.y.saturating_sub(margin)..(corner.y + 2 + margin).min(params.height);
    ys.flat_map(|y| xs.clone().map(move |x| Coord::new(x, y)))
        .all(|at| world.piece_at(at).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::megachess::MegachessParams;

    fn world(width: u32, height: u32) -> World {
        let params = MegachessParams {
            width,
            height,
            ..MegachessParams::default()
        };
        World::new(params, 1)
    }

    fn place(world: &mut World, id: PlayerId, team: Team, spot: Spot) {
        world.add_player(id, team).unwrap();
        world.spawn_army(id, spot.corner, spot.facing).unwrap();
    }

    #[test]
    fn edge_placement_fills_each_edge_in_order_then_the_next_rows() {
        let mut world = world(16, 8);
        let mut state = 0;
        let expected = [
            (Team::Alabaster, (0, 0)),
            (Team::Metal, (0, 6)),
            (Team::Alabaster, (8, 0)),
            (Team::Alabaster, (0, 2)),
            (Team::Metal, (8, 6)),
            (Team::Metal, (0, 4)),
        ];
        for (index, (team, (x, y))) in expected.into_iter().enumerate() {
            let spot = find_spot(&world, Placement::Edge, team, &mut state).unwrap();
            assert_eq!(spot.corner, Coord::new(x, y), "army {index}");
            place(&mut world, index as PlayerId + 1, team, spot);
        }
        for (id, team, (x, y)) in [(7, Team::Alabaster, (8, 2)), (8, Team::Metal, (8, 4))] {
            let spot = find_spot(&world, Placement::Edge, team, &mut state).unwrap();
            assert_eq!(spot.corner, Coord::new(x, y));
            place(&mut world, id, team, spot);
        }
        // Both halves are full now.
        assert_eq!(
            find_spot(&world, Placement::Edge, Team::Alabaster, &mut state),
            None
        );
        assert_eq!(
            find_spot(&world, Placement::Edge, Team::Metal, &mut state),
            None
        );
        let king = |id| world.kingdom_centre(id).unwrap();
        assert_eq!(king(1), Coord::new(4, 0));
        assert_eq!(king(2), Coord::new(4, 7));
    }

    #[test]
    fn edge_placement_keeps_each_team_in_its_half_when_the_half_is_odd() {
        for height in [6, 7] {
            let mut world = world(8, height);
            let mut state = 0;
            let half = height / 2;
            for (id, team) in [(1, Team::Alabaster), (2, Team::Metal)] {
                let spot = find_spot(&world, Placement::Edge, team, &mut state).unwrap();
                place(&mut world, id, team, spot);
            }
            // A half of three rows holds one pair: a second army of either team has no room
            // rather than a row of the other team's half.
            for team in [Team::Alabaster, Team::Metal] {
                assert_eq!(
                    find_spot(&world, Placement::Edge, team, &mut state),
                    None,
                    "height {height}, {team:?}"
                );
            }
            for piece in world.pieces() {
                let in_south = piece.at.y < half;
                let in_north = piece.at.y >= height - half;
                assert!(
                    if piece.owner == 1 { in_south } else { in_north },
                    "height {height}: {piece:?}"
                );
            }
        }
    }

    #[test]
    fn random_placement_keeps_each_team_in_its_half_with_room_around_and_repeats() {
        let run = |seed: u64| {
            let mut world = world(64, 64);
            let mut state = seed;
            let mut corners = Vec::new();
            for id in 1..=12 {
                let team = if id % 2 == 1 {
                    Team::Alabaster
                } else {
                    Team::Metal
                };
                let spot = find_spot(&world, Placement::Random, team, &mut state).unwrap();
                match team {
                    Team::Alabaster => assert!(spot.corner.y + 1 < 32, "{spot:?}"),
                    Team::Metal => assert!(spot.corner.y >= 32, "{spot:?}"),
                }
                place(&mut world, id, team, spot);
                corners.push(spot.corner);
            }
            corners
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        // No room: a board narrower than a block.
        let mut state = 1;
        assert_eq!(
            find_spot(&world(7, 64), Placement::Random, Team::Metal, &mut state),
            None
        );
    }
}
