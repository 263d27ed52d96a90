//! The reference players of Megachess: a random one, and a greedy one at the level of today's
//! open MMO bots (one piece at a time by a one-ply rule: the best capture, else a step toward
//! the nearest enemy king).

use super::Rng;
use crate::engine::OptionSpec;
use crate::plan::{MegachessPlayer, PlanProgress};
use crate::rules::megachess::{Move, PlayerId, World};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub const RANDOM_MOVE_CHANCE: &str = "RandomMoveChance";

/// Each of its pieces, in a shuffled order, moves with `RandomMoveChance` percent to a random
/// destination legal after the moves before it.
pub struct RandomMegachessPlayer {
    seed: u64,
    rng: Rng,
    chance_percent: u64,
}

impl RandomMegachessPlayer {
    pub const DEFAULT_CHANCE: i64 = 50;

    pub fn new(seed: u64) -> RandomMegachessPlayer {
        RandomMegachessPlayer {
            seed,
            rng: Rng::new(seed),
            chance_percent: Self::DEFAULT_CHANCE as u64,
        }
    }
}

impl MegachessPlayer for RandomMegachessPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }
    fn options(&self) -> Vec<OptionSpec> {
        todo!()
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let _ = (name, value);
        todo!()
    }
    fn new_game(&mut self) {
        self.rng = Rng::new(self.seed);
    }
    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        _budget: Duration,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        let _ = (world, me, self.chance_percent);
        todo!()
    }
}

/// Each of its pieces in turn (id order) takes the best capture it has (the highest rank; a
/// king above all), otherwise steps to the destination nearest the nearest enemy king, when that
/// is nearer than where it stands; its king only captures. Each move is applied to a copy of the
/// world, so later pieces see it. Ties are broken at random (seeded).
pub struct GreedyMegachessPlayer {
    seed: u64,
    rng: Rng,
}

impl GreedyMegachessPlayer {
    pub fn new(seed: u64) -> GreedyMegachessPlayer {
        GreedyMegachessPlayer {
            seed,
            rng: Rng::new(seed),
        }
    }
}

impl MegachessPlayer for GreedyMegachessPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }
    fn new_game(&mut self) {
        self.rng = Rng::new(self.seed);
    }
    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        _budget: Duration,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        let _ = (world, me);
        todo!()
    }
}
