//! Where a world's armies start: the spawn layouts (facing rows, a ring, seeded scatter), the
//! setup of a world (parameters, seats, players per seat, turns, window), and which player ids
//! and team each seat gets.

use crate::common::Rng;
use crate::rules::megachess::{Coord, Facing, MegachessParams, PlayerId, Team};
use std::fmt;

/// How the armies are placed at the start. Text: `facing:GAP`, `ring:RADIUS`, `scatter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Two rows of armies facing each other, alabaster's to the south facing north, metal's to
    /// the north facing south, with `gap` empty ranks between the two pawn ranks, centred on the
    /// board.
    Facing { gap: u32 },
    /// Every army on a circle of `radius` squares around the board's centre, facing it.
    Ring { radius: u32 },
    /// Each seat's armies side by side on a random spot of the board (seeded), apart from the
    /// others.
    Scatter,
}

impl Layout {
    pub const DEFAULT_GAP: u32 = 8;
    pub const DEFAULT_RADIUS: u32 = 32;

    /// Reads `facing`, `facing:GAP`, `ring`, `ring:RADIUS` or `scatter`.
    pub fn parse(text: &str) -> Result<Layout, String> {
        let (name, number) = match text.split_once(':') {
            Some((name, number)) => (name, Some(number)),
            None => (text, None),
        };
        let given = number;
        let number = |default: u32| match given {
            None => Ok(default),
            Some(digits) => digits
                .parse::<u32>()
                .map_err(|_| format!("layout '{text}': '{digits}' is not a number of squares")),
        };
        match name {
            "facing" => Ok(Layout::Facing {
                gap: number(Layout::DEFAULT_GAP)?,
            }),
            "ring" => Ok(Layout::Ring {
                radius: number(Layout::DEFAULT_RADIUS)?,
            }),
            "scatter" if given.is_none() => Ok(Layout::Scatter),
            _ => Err(format!(
                "unknown layout '{text}' (facing[:GAP], ring[:RADIUS] or scatter)"
            )),
        }
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::Facing {
            gap: Layout::DEFAULT_GAP,
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Layout::Facing { gap } => write!(f, "facing:{gap}"),
            Layout::Ring { radius } => write!(f, "ring:{radius}"),
            Layout::Scatter => write!(f, "scatter"),
        }
    }
}

/// Everything a world is set up from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldSetup {
    pub params: MegachessParams,
    /// Seeds the world (bonus pieces) and the scatter layout.
    pub seed: u64,
    /// Engines (or in-process players); even seats play alabaster, odd seats metal.
    pub seats: usize,
    /// Players (armies) each seat plays for.
    pub players_per_seat: usize,
    pub layout: Layout,
    /// The world stops after this many turns (counted over both teams).
    pub max_turns: u64,
    /// When set, each player is shown only its window (`World::window` with this margin).
    pub window_margin: Option<u32>,
}

/// Even seats play alabaster, odd seats metal.
pub fn seat_team(seat: usize) -> Team {
    if seat.is_multiple_of(2) {
        Team::Alabaster
    } else {
        Team::Metal
    }
}

/// The id of a seat's `index`-th player: seats' players are numbered in seat order from 1.
pub fn player_id(seat: usize, index: usize, players_per_seat: usize) -> PlayerId {
    (seat * players_per_seat + index + 1) as PlayerId
}

/// Where one army starts: the south-west corner of its block and the way its pawns face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spawn {
    pub seat: usize,
    pub player: PlayerId,
    pub corner: Coord,
    pub facing: Facing,
}

impl WorldSetup {
    /// The world's parameters valid, at least one seat of each team, players, turns; a text
    /// naming the first problem otherwise.
    pub fn validate(&self) -> Result<(), String> {
        self.params.validate()?;
        if self.seats < 2 {
            return Err(format!(
                "a world needs at least 2 seats (one of each team), not {}",
                self.seats
            ));
        }
        if self.players_per_seat == 0 || self.players_per_seat > MAX_PLAYERS_PER_SEAT {
            return Err(format!(
                "players per seat must be 1 to {MAX_PLAYERS_PER_SEAT}, not {}",
                self.players_per_seat
            ));
        }
        if self.seats * self.players_per_seat > MAX_PLAYERS {
            return Err(format!(
                "{} seats of {} players are more than {MAX_PLAYERS} players",
                self.seats, self.players_per_seat
            ));
        }
        if self.max_turns == 0 {
            return Err("max turns must be at least 1".to_string());
        }
        Ok(())
    }

    /// Every army's spawn, seat by seat, or why the board cannot hold them.
    pub fn spawns(&self) -> Result<Vec<Spawn>, String> {
        self.validate()?;
        match self.layout {
            Layout::Facing { gap } => self.facing(gap),
            Layout::Ring { radius } => self.ring(radius),
            Layout::Scatter => self.scatter(),
        }
    }

    /// The players of a seat, in id order.
    pub fn players_of(&self, seat: usize) -> impl Iterator<Item = PlayerId> + '_ {
        (0..self.players_per_seat).map(move |index| player_id(seat, index, self.players_per_seat))
    }

    /// Every army of a team in seat order, each seat's players next to each other.
    fn team_armies(&self, team: Team) -> Vec<(usize, PlayerId)> {
        (0..self.seats)
            .filter(|&seat| seat_team(seat) == team)
            .flat_map(|seat| self.players_of(seat).map(move |player| (seat, player)))
            .collect()
    }

    fn board(&self) -> String {
        format!("{} x {}", self.params.width, self.params.height)
    }

    fn facing(&self, gap: u32) -> Result<Vec<Spawn>, String> {
        let south = self.team_armies(Team::Alabaster);
        let north = self.team_armies(Team::Metal);
        let (width, height) = (self.params.width as u64, self.params.height as u64);
        let need_width = 8 * south.len().max(north.len()) as u64;
        let need_height = 4 + gap as u64;
        if need_width > width || need_height > height {
            return Err(format!(
                "the board ({}) is too small for {} with {} alabaster and {} metal armies: \
                 it needs at least {need_width} x {need_height}",
                self.board(),
                self.layout,
                south.len(),
                north.len()
            ));
        }
        let bottom = (height - need_height) / 2;
        let mut spawns = Vec::with_capacity(south.len() + north.len());
        let rows = [
            (&south, bottom, Facing::North),
            (&north, bottom + 2 + gap as u64, Facing::South),
        ];
        for (armies, y, facing) in rows {
            let left = (width - 8 * armies.len() as u64) / 2;
            for (index, &(seat, player)) in armies.iter().enumerate() {
                let corner = Coord::new((left + 8 * index as u64) as u32, y as u32);
                spawns.push(Spawn {
                    seat,
                    player,
                    corner,
                    facing,
                });
            }
        }
        spawns.sort_by_key(|spawn| spawn.player);
        Ok(spawns)
    }

    fn ring(&self, radius: u32) -> Result<Vec<Spawn>, String> {
        let armies: Vec<(usize, PlayerId)> = (0..self.seats)
            .flat_map(|seat| self.players_of(seat).map(move |player| (seat, player)))
            .collect();
        let (width, height) = (self.params.width as f64, self.params.height as f64);
        let (cx, cy) = (width / 2.0, height / 2.0);
        let mut spawns = Vec::with_capacity(armies.len());
        let mut blocks = Vec::with_capacity(armies.len());
        for (index, &(seat, player)) in armies.iter().enumerate() {
            // The first army to the south, then round counter-clockwise.
            let angle = -std::f64::consts::FRAC_PI_2
                + std::f64::consts::TAU * index as f64 / armies.len() as f64;
            let x = (cx + radius as f64 * angle.cos()).round() as i64;
            let y = (cy + radius as f64 * angle.sin()).round() as i64;
            let (dx, dy) = (cx - x as f64, cy - y as f64);
            let facing = match (dx.abs() > dy.abs(), dx > 0.0, dy > 0.0) {
                (true, true, _) => Facing::East,
                (true, false, _) => Facing::West,
                (false, _, true) => Facing::North,
                (false, _, false) => Facing::South,
            };
            let block = Block::around(x, y, facing);
            if !block.on_board(self.params.width, self.params.height) {
                return Err(format!(
                    "the board ({}) is too small for {}: an army would stand off the board \
                     (it needs at least {} x {})",
                    self.board(),
                    self.layout,
                    2 * radius as u64 + 10,
                    2 * radius as u64 + 10
                ));
            }
            if blocks.iter().any(|other: &Block| other.overlaps(&block, 0)) {
                return Err(format!(
                    "{} is too small for {} armies: they would overlap (a radius of at least \
                     {} fits them)",
                    self.layout,
                    armies.len(),
                    (armies.len() as f64 * 9.0 / std::f64::consts::TAU).ceil() as u64 + 2
                ));
            }
            blocks.push(block);
            spawns.push(Spawn {
                seat,
                player,
                corner: Coord::new(block.x0 as u32, block.y0 as u32),
                facing,
            });
        }
        Ok(spawns)
    }

    fn scatter(&self) -> Result<Vec<Spawn>, String> {
        let mut rng = Rng::new(self.seed ^ SCATTER_SALT);
        let group_width = 8 * self.players_per_seat as u64;
        let (width, height) = (self.params.width as u64, self.params.height as u64);
        if group_width > width || height < 2 {
            return Err(format!(
                "the board ({}) is too small to scatter {} armies side by side: it needs at \
                 least {group_width} x 2",
                self.board(),
                self.players_per_seat
            ));
        }
        let mut groups: Vec<Block> = Vec::with_capacity(self.seats);
        let mut spawns = Vec::with_capacity(self.seats * self.players_per_seat);
        for seat in 0..self.seats {
            let mut placed = None;
            for _ in 0..SCATTER_TRIES {
                let x = rng.index((width - group_width + 1) as usize) as i64;
                let y = rng.index((height - 1) as usize) as i64;
                let group = Block {
                    x0: x,
                    y0: y,
                    x1: x + group_width as i64 - 1,
                    y1: y + 1,
                };
                if !groups
                    .iter()
                    .any(|other| other.overlaps(&group, SCATTER_SPACING))
                {
                    placed = Some(group);
                    break;
                }
            }
            let group = placed.ok_or_else(|| {
                format!(
                    "the board ({}) is too small to scatter {} seats of {} armies apart \
                     ({SCATTER_TRIES} tries for seat {})",
                    self.board(),
                    self.seats,
                    self.players_per_seat,
                    seat + 1
                )
            })?;
            // Pawns towards the board's other half.
            let facing = if (group.y0 as u64) < height / 2 {
                Facing::North
            } else {
                Facing::South
            };
            for (index, player) in self.players_of(seat).enumerate() {
                let corner = Coord::new((group.x0 + 8 * index as i64) as u32, group.y0 as u32);
                spawns.push(Spawn {
                    seat,
                    player,
                    corner,
                    facing,
                });
            }
            groups.push(group);
        }
        Ok(spawns)
    }
}

/// At most this many players per seat and in a world (the ids stay small, the layouts sane).
pub const MAX_PLAYERS_PER_SEAT: usize = 1000;
pub const MAX_PLAYERS: usize = 10_000;
/// Scattered seats stand at least this many squares apart.
const SCATTER_SPACING: i64 = 4;
const SCATTER_TRIES: usize = 1000;
const SCATTER_SALT: u64 = 0x5CA7_7E25_EA75_0001;

/// A rectangle of squares, corners included, in signed coordinates (it may lie off the board).
#[derive(Clone, Copy, Debug)]
struct Block {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl Block {
    /// The army block centred on `(x, y)` for a facing: 8 x 2, or 2 x 8 facing east or west.
    fn around(x: i64, y: i64, facing: Facing) -> Block {
        match facing {
            Facing::North | Facing::South => Block {
                x0: x - 4,
                y0: y - 1,
                x1: x + 3,
                y1: y,
            },
            Facing::East | Facing::West => Block {
                x0: x - 1,
                y0: y - 4,
                x1: x,
                y1: y + 3,
            },
        }
    }
    fn on_board(&self, width: u32, height: u32) -> bool {
        self.x0 >= 0 && self.y0 >= 0 && self.x1 < width as i64 && self.y1 < height as i64
    }
    /// Whether the two come closer than `spacing` empty squares apart.
    fn overlaps(&self, other: &Block, spacing: i64) -> bool {
        self.x0 <= other.x1 + spacing
            && other.x0 <= self.x1 + spacing
            && self.y0 <= other.y1 + spacing
            && other.y0 <= self.y1 + spacing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(width: u32, height: u32, seats: usize, per_seat: usize, layout: Layout) -> WorldSetup {
        WorldSetup {
            params: MegachessParams {
                width,
                height,
                ..MegachessParams::default()
            },
            seed: 11,
            seats,
            players_per_seat: per_seat,
            layout,
            max_turns: 10,
            window_margin: None,
        }
    }

    #[test]
    fn layouts_read_and_print() {
        for text in ["facing:3", "ring:20", "scatter"] {
            assert_eq!(Layout::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(Layout::parse("facing").unwrap(), Layout::default());
        assert_eq!(
            Layout::parse("ring").unwrap(),
            Layout::Ring {
                radius: Layout::DEFAULT_RADIUS
            }
        );
        for bad in ["", "grid", "facing:", "facing:-1", "ring:x", "scatter:2"] {
            assert!(Layout::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn facing_rows_are_centred_with_the_gap_between_the_pawn_ranks() {
        let spawns = setup(64, 32, 2, 2, Layout::Facing { gap: 6 })
            .spawns()
            .unwrap();
        let corners: Vec<(usize, PlayerId, u32, u32, Facing)> = spawns
            .iter()
            .map(|s| (s.seat, s.player, s.corner.x, s.corner.y, s.facing))
            .collect();
        // 4 + 6 ranks in 32: from rank 11; 16 files in 64: from file 24.
        assert_eq!(
            corners,
            vec![
                (0, 1, 24, 11, Facing::North),
                (0, 2, 32, 11, Facing::North),
                (1, 3, 24, 19, Facing::South),
                (1, 4, 32, 19, Facing::South),
            ]
        );
        // Alabaster's pawns on rank 12, metal's on 19: six empty ranks between.
        let error = setup(15, 32, 2, 2, Layout::Facing { gap: 6 })
            .spawns()
            .unwrap_err();
        assert!(
            error.contains("too small") && error.contains("16 x 10"),
            "{error}"
        );
        assert!(setup(16, 9, 2, 2, Layout::Facing { gap: 6 })
            .spawns()
            .is_err());
        assert!(setup(16, 10, 2, 2, Layout::Facing { gap: 6 })
            .spawns()
            .is_ok());
    }

    #[test]
    fn setups_that_cannot_be_played_are_refused() {
        let good = setup(64, 64, 2, 1, Layout::default());
        assert!(good.validate().is_ok());
        for bad in [
            WorldSetup {
                seats: 1,
                ..good.clone()
            },
            WorldSetup {
                players_per_seat: 0,
                ..good.clone()
            },
            WorldSetup {
                max_turns: 0,
                ..good.clone()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
            assert!(bad.spawns().is_err());
        }
    }

    #[test]
    fn ring_and_scatter_keep_armies_apart_and_on_the_board() {
        for layout in [Layout::Ring { radius: 24 }, Layout::Scatter] {
            let setup = setup(128, 128, 4, 3, layout);
            let spawns = setup.spawns().unwrap();
            assert_eq!(spawns.len(), 12);
            let blocks: Vec<Block> = spawns
                .iter()
                .map(|s| {
                    let (w, h) = match s.facing {
                        Facing::North | Facing::South => (8, 2),
                        Facing::East | Facing::West => (2, 8),
                    };
                    let (x, y) = (s.corner.x as i64, s.corner.y as i64);
                    Block {
                        x0: x,
                        y0: y,
                        x1: x + w - 1,
                        y1: y + h - 1,
                    }
                })
                .collect();
            for (i, block) in blocks.iter().enumerate() {
                assert!(block.on_board(128, 128), "{layout}: {block:?}");
                for other in &blocks[..i] {
                    assert!(!block.overlaps(other, 0), "{layout}: {block:?} {other:?}");
                }
            }
            assert_eq!(setup.spawns().unwrap(), spawns, "{layout} repeats");
        }
        let other_seed = WorldSetup {
            seed: 12,
            ..setup(128, 128, 4, 3, Layout::Scatter)
        };
        assert_ne!(
            other_seed.spawns().unwrap(),
            setup(128, 128, 4, 3, Layout::Scatter).spawns().unwrap()
        );
        let error = setup(128, 128, 2, 8, Layout::Ring { radius: 4 })
            .spawns()
            .unwrap_err();
        assert!(error.contains("overlap"), "{error}");
        assert!(setup(40, 40, 2, 1, Layout::Ring { radius: 30 })
            .spawns()
            .is_err());
        assert!(setup(40, 40, 40, 1, Layout::Scatter).spawns().is_err());
    }
}
