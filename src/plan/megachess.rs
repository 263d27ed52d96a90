//! Roger's Megachess turn planner: one turn of many moves for one player, planned in a bounded
//! window around its army.
//!
//! It copies the pieces within [`WINDOW_MARGIN`] of the army into its own picture ([`local`]: a
//! grid over the window), so planning costs follow the pieces near the army and never the
//! board's size. The turn is built move by move ([`search`]): each step makes the move that
//! improves the judgement of the whole window most ([`eval`]: material, what the enemy team's
//! whole next turn can take with every one of its pieces, my king's safety against it, enemy
//! kings still takeable this turn, fading, approach). The finished list is checked move by move
//! on a copy of the world with the world's own rules before it is returned; what fails is
//! dropped. It answers within its budget: the search stops at a share of it, or, given a number
//! of moves to judge ([`TurnBudget::Work`]), when it has judged them.

pub mod crowd;
pub mod eval;
pub mod grid;
pub mod local;
pub mod meter;
mod rollout;
pub mod search;
#[cfg(test)]
mod tests;

use super::{MegachessPlayer, PlanProgress, TurnBudget};
use crate::common::Rng;
use crate::options::{
    check_value, skill_seed_option, spin_value, strength_options, OptionSpec, OptionValue, Strength,
};
use crate::rules::megachess::{Coord, Move, PlayerId, World};
use local::Local;
use meter::{Deadline, Meter};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How far beyond its army the planner looks: its own moves reach 7 squares, and the enemy's
/// replies 7 more from there.
pub const WINDOW_MARGIN: u32 = 16;

/// Exploring, the army heads for a new point of its tour this often.
const EXPLORE_TURNS: u64 = 24;

/// The share of the budget the search may use; the rest is the check on the world and slack.
const SEARCH_SHARE: f64 = 0.6;
/// Kept free of the budget however small it is.
const SLACK: Duration = Duration::from_millis(2);

/// The option that weakens the planner for bots and house players: 20 is full strength.
pub const SKILL_LEVEL: &str = crate::options::SKILL_LEVEL;
/// The full-strength skill level.
pub const MAX_SKILL: u32 = 20;

/// Roger's Megachess player.
pub struct MegachessPlanner {
    margin: u32,
    /// 0 to 20: below 20 it thinks less and forgets some of the moves it planned.
    skill: u32,
    /// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`, of which `skill` is the level.
    strength: Strength,
    /// The `Skill Seed` option: 0 draws a new seed from the clock for every world.
    seed: u64,
    /// The seed of this world's choices among equally good plans.
    world_seed: u64,
}

impl Default for MegachessPlanner {
    fn default() -> Self {
        MegachessPlanner::new()
    }
}

impl MegachessPlanner {
    pub fn new() -> MegachessPlanner {
        MegachessPlanner {
            margin: WINDOW_MARGIN,
            skill: MAX_SKILL,
            strength: Strength::default(),
            seed: 0,
            world_seed: clock_seed(),
        }
    }

    /// The plan for `me` without the rollouts and the check on the world (for tests).
    #[cfg(test)]
    fn search(
        &self,
        world: &World,
        me: PlayerId,
        deadline: Deadline<'_>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        let started = deadline.meter().started();
        let mut report = |outcome: &search::Outcome| progress(&outcome.progress(started));
        self.sketch(world, me, deadline, stop, Sketching::Plain, &mut report)
            .map(|sketch| sketch.moves)
            .unwrap_or_default()
    }

    /// One sequential plan for `me` ([`search::plan`]) with its judgement, the way `sketching`
    /// says. `None` when `me` does not move now, has nothing in the window, or the first move
    /// it is told to start with is not legal.
    fn sketch(
        &self,
        world: &World,
        me: PlayerId,
        deadline: Deadline<'_>,
        stop: &AtomicBool,
        sketching: Sketching,
        report: &mut dyn FnMut(&search::Outcome),
    ) -> Option<Sketch> {
        let player = world.player(me)?;
        if player.team != world.team_to_move() {
            return None;
        }
        let mut local = Local::from_world(world, me, self.margin)?;
        let mut fallback = nearest_enemy_king(world, &local).or_else(|| enemy_centre(&local));
        if fallback.is_none() {
            // Nobody in sight: the whole army, king included, goes looking.
            local.king_approaches = true;
            fallback = explore_target(world, &local);
        }
        let mut moves = Vec::new();
        let mut jitter = None;
        match sketching {
            Sketching::Plain => {}
            Sketching::StartingWith(mv) => {
                world.check(me, mv).ok()?;
                let index = local.at(mv.from)?;
                moves.push(mv);
                // Kept made: the plan goes on from there.
                let _ = local.make(index, mv.to);
            }
            Sketching::Varied(random) => jitter = Some(random),
        }
        let outcome = search::plan(&mut local, fallback, deadline, stop, jitter, report);
        moves.extend(outcome.moves);
        Some(Sketch {
            moves,
            score: outcome.score,
        })
    }
}

/// How a sketch is made.
enum Sketching<'a> {
    /// The sequential plan as it comes.
    Plain,
    /// The same, after this move (my king's step, say).
    StartingWith(Move),
    /// Each step's choice varied at random ([`search::JITTER`]).
    Varied(&'a mut Rng),
}

/// A plan and the judgement of the window it leaves.
struct Sketch {
    moves: Vec<Move>,
    score: i32,
}

/// The square of the enemy king nearest my king (or army) anywhere in the world: where to head
/// when none is in the window. Costs one look per player, whatever the board's size.
fn nearest_enemy_king(world: &World, local: &Local) -> Option<Coord> {
    let from = local
        .king_of(local.me)
        .map(|k| local.pieces[k].at)
        .unwrap_or(local.rect.min);
    world
        .players()
        .filter(|p| p.team != local.team)
        .filter_map(|p| world.piece(p.king?))
        .map(|king| king.at)
        .min_by_key(|&at| at.distance_squared(from))
}

/// Where to look for enemies when none is in view: the board's centre, and from there a tour
/// of four points around it, a new one every [`EXPLORE_TURNS`] turns.
fn explore_target(world: &World, local: &Local) -> Option<Coord> {
    let params = world.params();
    let centre = Coord::new(params.width / 2, params.height / 2);
    let king = local.pieces[local.king_of(local.me)?].at;
    let radius = params.width.min(params.height) / 4;
    if king.chebyshev(centre) > radius {
        return Some(centre);
    }
    let (dx, dy) = [(1, 0), (0, 1), (-1, 0), (0, -1)][(world.turn() / EXPLORE_TURNS % 4) as usize];
    centre.offset(
        dx * radius as i32,
        dy * radius as i32,
        params.width,
        params.height,
    )
}

/// The middle of the capturable pieces in the window: where to head when no enemy king is in
/// view (and, with nothing in view, the board's centre, where the others are likeliest).
fn enemy_centre(local: &Local) -> Option<Coord> {
    let (mut n, mut x, mut y) = (0u64, 0u64, 0u64);
    for piece in local.pieces.iter().filter(|p| p.side.capturable()) {
        n += 1;
        x += piece.at.x as u64;
        y += piece.at.y as u64;
    }
    (n > 0).then(|| Coord::new((x / n) as u32, (y / n) as u32))
}

/// A weaker player's plan, the way a person's turn goes wrong: some pieces it meant to move
/// are forgotten (each with a chance of `(20 - skill) / 40`, half of them at level 0). A move
/// that takes a king is never forgotten, and level 20 forgets nothing. The draws depend on the
/// world, the player and the level only, so a position is always played the same way.
fn forget_some(world: &World, me: PlayerId, plan: Vec<Move>, skill: u32) -> Vec<Move> {
    if skill >= MAX_SKILL {
        return plan;
    }
    let seed = world.turn() ^ (u64::from(me) << 32) ^ u64::from(skill) << 56;
    let mut random = crate::common::Rng::new(seed ^ world.piece_count() as u64);
    let forget = u64::from(MAX_SKILL - skill);
    plan.into_iter()
        .filter(|mv| {
            let takes_king = world
                .piece_at(mv.to)
                .is_some_and(|piece| piece.kind == crate::rules::megachess::Kind::King);
            takes_king || random.below(2 * u64::from(MAX_SKILL)) >= forget
        })
        .collect()
}

/// The option that fixes the planner's choices among equally good plans (the turn games' name
/// for the seed of their choices): 0, the default, draws a new seed for every world, so that no
/// line found once wins every time.
pub const SEED: &str = crate::options::SKILL_SEED;

/// A seed from the clock and the process, different for every world.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// The moves of `plan` that the world accepts in order (the others dropped).
pub fn legal_prefix(world: &World, me: PlayerId, plan: &[Move]) -> Vec<Move> {
    let mut copy = world.clone();
    plan.iter()
        .copied()
        .filter(|&mv| copy.apply(me, mv).is_ok())
        .collect()
}

impl MegachessPlayer for MegachessPlanner {
    fn name(&self) -> String {
        "roger".to_string()
    }

    /// `Skill Level` and, as for the turn games, `UCI_LimitStrength` with `UCI_Elo`: then the
    /// level is the Elo's (`(elo - 1000) / 70`, see [`crate::search::skill`]), rounded.
    fn options(&self) -> Vec<OptionSpec> {
        let mut specs = strength_options();
        specs.push(skill_seed_option());
        specs
    }

    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        if name.eq_ignore_ascii_case(SEED) {
            let (_, seed) = spin_value(&[skill_seed_option()], name, value)?;
            self.seed = seed as u64;
            self.new_game();
            return Ok(());
        }
        let specs = strength_options();
        if !specs
            .iter()
            .any(|spec| spec.name.eq_ignore_ascii_case(name))
        {
            return Err(format!("unknown option '{name}'"));
        }
        let (name, value) = check_value(&specs, name, value.clone())?;
        self.strength.set(name, &value);
        self.skill = (self.strength.level().round() as u32).min(MAX_SKILL);
        Ok(())
    }

    fn new_game(&mut self) {
        self.world_seed = match self.seed {
            0 => clock_seed(),
            seed => seed,
        };
    }

    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        budget: TurnBudget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        // A weaker player thinks less: a quarter of the search's allowance at level 0.
        let weight = 0.25 + 0.75 * f64::from(self.skill) / f64::from(MAX_SKILL);
        let (meter, allowance) = match budget {
            TurnBudget::Time(time) => {
                let time = time.mul_f64(SEARCH_SHARE * weight).saturating_sub(SLACK);
                (
                    Meter::wall(),
                    time.as_nanos().min(u128::from(u64::MAX)) as u64,
                )
            }
            TurnBudget::Work(moves) => (Meter::work(), (moves as f64 * weight) as u64),
        };
        let deadline = meter.after(allowance);
        // The choices among equally good plans: the world's seed, the turn and the player.
        let mut choices = Rng::new(
            self.world_seed ^ world.turn().wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(me),
        );
        let plan = self.search_plans(world, me, deadline, stop, &mut choices, progress);
        let plan = forget_some(world, me, plan, self.skill);
        legal_prefix(world, me, &plan)
    }
}
