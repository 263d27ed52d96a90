//! Skill levels for realtime chess, the way a person plays worse: slower to react and less
//! careful in the choice. Below level 20 the planner judges every order one step ahead as
//! always, but plays nothing out, lets some decisions pass (a chance of `(20 - level) / 40`, half
//! of them at level 0: it reacts about twice as slowly), and picks at random among the orders
//! that judge within `MARGIN_PER_LEVEL * (20 - level)` of the best. An order that wins the game
//! is never let pass. Level 20 plays as without the option.

use crate::common::Rng;
use crate::options::{strength_options, OptionSpec, OptionValue, Strength};

/// Per level below 20, how far below the best order (in hundredths of a pawn) a choice may
/// judge: at level 0 a rook's worth.
const MARGIN_PER_LEVEL: i32 = 25;
/// The full-strength level.
pub const MAX_SKILL: f64 = 20.0;

/// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo` and `Skill Seed` for the realtime planner.
#[derive(Clone, Debug)]
pub struct RealtimeSkill {
    strength: Strength,
    seed: u64,
    random: Rng,
}

impl Default for RealtimeSkill {
    fn default() -> Self {
        RealtimeSkill::new()
    }
}

impl RealtimeSkill {
    pub fn new() -> RealtimeSkill {
        RealtimeSkill {
            strength: Strength::default(),
            seed: 0,
            random: Rng::new(0),
        }
    }

    /// The options: the turn games' strength options and their `Skill Seed`.
    pub fn options() -> Vec<OptionSpec> {
        let mut specs = strength_options();
        specs.push(crate::options::skill_seed_option());
        specs
    }

    /// Takes a checked option's value; false if it is not one of [`RealtimeSkill::options`].
    pub fn set(&mut self, name: &'static str, value: &OptionValue) -> bool {
        if name == crate::options::SKILL_SEED {
            let OptionValue::Spin(seed) = value else {
                return false;
            };
            self.seed = *seed as u64;
            self.new_game();
            return true;
        }
        self.strength.set(name, value)
    }

    /// Restarts the draws: a game from the same start with the same seed is played alike.
    pub fn new_game(&mut self) {
        self.random = Rng::new(self.seed);
    }

    /// The level, 0 to 20 (fractional through `UCI_Elo`).
    pub fn level(&self) -> f64 {
        self.strength.level().clamp(0.0, MAX_SKILL)
    }

    pub fn full_strength(&self) -> bool {
        self.level() >= MAX_SKILL
    }

    /// Whether this decision passes (a slower reaction).
    pub fn lets_pass(&mut self) -> bool {
        let chance_in_80 = ((MAX_SKILL - self.level()) * 2.0).round() as u64;
        self.random.below(80) < chance_in_80
    }

    /// How far below the best a chosen order may judge.
    pub fn margin(&self) -> i32 {
        (f64::from(MARGIN_PER_LEVEL) * (MAX_SKILL - self.level())).round() as i32
    }

    /// A uniform index below `n` (n > 0).
    pub fn pick(&mut self, n: usize) -> usize {
        self.random.below(n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(level: i64) -> RealtimeSkill {
        let mut skill = RealtimeSkill::new();
        assert!(skill.set(crate::options::SKILL_LEVEL, &OptionValue::Spin(level)));
        skill
    }

    #[test]
    fn level_twenty_never_lets_a_decision_pass_and_level_zero_half_of_them() {
        let mut full = at(20);
        assert!(full.full_strength());
        assert!((0..1000).all(|_| !full.lets_pass()));
        assert_eq!(full.margin(), 0);
        let mut weakest = at(0);
        let passed = (0..4000).filter(|_| weakest.lets_pass()).count();
        assert!((1700..2300).contains(&passed), "{passed} of 4000");
        assert_eq!(weakest.margin(), 500);
    }

    #[test]
    fn the_seed_repeats_the_draws() {
        let mut a = at(5);
        let mut b = at(5);
        for skill in [&mut a, &mut b] {
            assert!(skill.set(crate::options::SKILL_SEED, &OptionValue::Spin(9)));
        }
        let draws = |s: &mut RealtimeSkill| (0..50).map(|_| s.pick(7)).collect::<Vec<_>>();
        assert_eq!(draws(&mut a), draws(&mut b));
        assert!(RealtimeSkill::options()
            .iter()
            .any(|spec| spec.name == "Skill Seed"));
    }
}
