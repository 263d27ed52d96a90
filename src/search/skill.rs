//! Skill levels: a weaker player for the turn games, built on top of [`super::search`].
//!
//! Below level 20 the engine plays the way a weaker person would: it looks less far (a depth
//! cap of `1 + level` plies and a node cap of `2000 * 2^(level / 2)` nodes) and considers at
//! least [`SKILL_MULTIPV`] root moves, of which it picks one with a seeded, weighted random
//! choice in the manner of Stockfish's `Skill`: with `weakness = 120 - 2 * level` and `delta`
//! the spread of the candidates' scores (at most a pawn), each candidate's value is
//!
//! ```text
//! score + (weakness * (top - score) + delta * random(0..weakness)) / 128
//! ```
//!
//! and the highest value is played. Only moves within [`Skill::margin_cp`] of the best
//! candidate may be chosen (a margin that shrinks as the level grows: 1100 cp at level 0,
//! 300 at 10, about 88 at 15, 0 at 20), so that a strong level never blunders badly. The
//! random draws depend on the seed, the level and the position only: a position is always
//! played the same way by the same seed and level.
//!
//! `UCI_LimitStrength` with `UCI_Elo` maps the Elo onto a fractional level with
//! [`level_from_elo`]: `level = (elo - 1000) / 70`, so 1000 is level 0 and 2400 level 20.

use super::{Info, Limits, Score, SearchOptions, MATE};
use crate::common::Rng;

/// The full-strength level: the search is left as it is.
pub const MAX_LEVEL: f64 = 20.0;
/// The fewest root moves a weakened search considers.
pub const SKILL_MULTIPV: usize = 4;
/// `UCI_Elo`'s range: its lowest is level 0, its highest level 20.
pub const ELO_MIN: i64 = 1000;
pub const ELO_MAX: i64 = 2400;
/// Elo per level in [`level_from_elo`].
const ELO_PER_LEVEL: f64 = (ELO_MAX - ELO_MIN) as f64 / MAX_LEVEL;
/// A pawn, the most `delta` (the spread of the candidates) counts for.
const PAWN_CP: i64 = 100;

/// The fractional skill level of an Elo: `(elo - 1000) / 70`, within 0..=20.
pub fn level_from_elo(elo: i64) -> f64 {
    ((elo - ELO_MIN) as f64 / ELO_PER_LEVEL).clamp(0.0, MAX_LEVEL)
}

/// A weakened player's level and the seed of its choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// 0 (weakest) to 20 (full strength), fractional from `UCI_Elo`.
    pub level: f64,
    pub seed: u64,
}

impl Skill {
    /// `None` at full strength: then the search must run exactly as without a skill.
    pub fn below_full(level: f64, seed: u64) -> Option<Skill> {
        let level = level.clamp(0.0, MAX_LEVEL);
        (level < MAX_LEVEL).then_some(Skill { level, seed })
    }

    /// The deepest iteration: `1 + level` plies.
    pub fn depth_cap(&self) -> u32 {
        1 + self.level.floor() as u32
    }

    /// The most nodes: `2000 * 2^(level / 2)` (2000 at level 0, 64000 at 10, about 1.4 million
    /// at 19).
    pub fn node_cap(&self) -> u64 {
        (2000.0 * 2f64.powf(self.level / 2.0)) as u64
    }

    /// How much worse than the best candidate (in centipawns) a chosen move may score:
    /// `2.5 * d^2 + 5 * d` with `d = 20 - level`.
    pub fn margin_cp(&self) -> i64 {
        let d = MAX_LEVEL - self.level;
        (2.5 * d * d + 5.0 * d) as i64
    }

    fn weakness(&self) -> f64 {
        120.0 - 2.0 * self.level
    }

    /// Caps the search's depth and nodes and widens it to [`SKILL_MULTIPV`] lines.
    pub fn limit(&self, limits: &mut Limits, options: &mut SearchOptions) {
        let depth = self.depth_cap();
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        let nodes = self.node_cap();
        limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
        options.multipv = options.multipv.max(SKILL_MULTIPV);
    }

    /// The index of the line to play among `scores` (best first is not required), drawn from
    /// the seed, the level and `position_key`.
    pub fn pick(&self, scores: &[i32], position_key: u64) -> usize {
        let Some(&top) = scores.iter().max() else {
            return 0;
        };
        let top = i64::from(top);
        let worst = i64::from(*scores.iter().min().unwrap_or(&0));
        let delta = (top - worst).min(PAWN_CP);
        let weakness = self.weakness();
        let margin = self.margin_cp();
        let mut random = Rng::new(
            self.seed ^ position_key.rotate_left(17) ^ self.level.to_bits().wrapping_mul(0x9E37),
        );
        let mut best = (i64::MIN, 0);
        for (index, &score) in scores.iter().enumerate() {
            let score = i64::from(score);
            // Draw for every line, so that one line's draw does not depend on another's score.
            let draw = random.below(weakness as u64) as i64;
            if top - score > margin {
                continue;
            }
            let push = ((weakness * (top - score) as f64) as i64 + delta * draw) / 128;
            let value = score + push;
            if value > best.0 {
                best = (value, index);
            }
        }
        best.1
    }
}

/// A score as one number, mates beyond every centipawn score, from the mover's side.
pub fn score_value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -MATE + 2 * -n,
    }
}

/// Collects a multi-line search's reports: the lines of the last iteration that reported them
/// all, and the latest first line.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// How many lines an iteration reports.
    expected: usize,
    current: Vec<Option<Info>>,
    complete: Vec<Info>,
    latest_first: Option<Info>,
}

impl Lines {
    pub fn new(expected: usize) -> Lines {
        Lines {
            expected: expected.max(1),
            ..Lines::default()
        }
    }

    pub fn add(&mut self, info: &Info) {
        let index = info.multipv.max(1) as usize - 1;
        if index >= self.expected || info.pv.is_empty() {
            return;
        }
        if index == 0 {
            self.current = vec![None; self.expected];
            self.latest_first = Some(info.clone());
        }
        if let Some(slot) = self.current.get_mut(index) {
            *slot = Some(info.clone());
        }
        if !self.current.is_empty() && self.current.iter().all(Option::is_some) {
            self.complete = self.current.iter().flatten().cloned().collect();
        }
    }

    /// The candidates: the last complete iteration's lines, with a deeper first line's move (an
    /// unfinished iteration that changed its mind) in place of the first; or, when no iteration
    /// completed, the lines seen so far. Each root move once.
    pub fn candidates(&self) -> Vec<Info> {
        let mut lines: Vec<Info> = if self.complete.is_empty() {
            self.current.iter().flatten().cloned().collect()
        } else {
            self.complete.clone()
        };
        if let Some(first) = &self.latest_first {
            let deeper = lines.first().is_none_or(|line| first.depth > line.depth);
            if deeper {
                lines.retain(|line| line.pv.first() != first.pv.first());
                lines.insert(0, first.clone());
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn info(depth: u32, multipv: u32, cp: i32, mv: &str) -> Info {
        Info {
            depth,
            seldepth: depth,
            multipv,
            score: Score::Cp(cp),
            nodes: 0,
            nps: 0,
            time: Duration::ZERO,
            hashfull: 0,
            pv: vec![mv.to_string()],
        }
    }

    #[test]
    fn elo_maps_onto_levels() {
        assert_eq!(level_from_elo(ELO_MIN), 0.0);
        assert_eq!(level_from_elo(1700), 10.0);
        assert_eq!(level_from_elo(ELO_MAX), 20.0);
        assert_eq!(level_from_elo(1735), 10.5);
        assert_eq!(Skill::below_full(20.0, 1), None);
        assert!(Skill::below_full(19.9, 1).is_some());
    }

    #[test]
    fn margins_shrink_and_caps_grow_with_the_level() {
        let skill = |level| Skill { level, seed: 0 };
        assert_eq!(skill(0.0).margin_cp(), 1100);
        assert_eq!(skill(10.0).margin_cp(), 300);
        assert!(skill(15.0).margin_cp() <= 100);
        assert_eq!(skill(0.0).depth_cap(), 1);
        assert_eq!(skill(10.0).node_cap(), 64_000);
        let mut limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut options = SearchOptions {
            threads: 1,
            multipv: 1,
            ..SearchOptions::default()
        };
        skill(10.0).limit(&mut limits, &mut options);
        assert_eq!((limits.depth, limits.nodes), (Some(3), Some(64_000)));
        assert_eq!(options.multipv, SKILL_MULTIPV);
    }

    #[test]
    fn picks_vary_with_the_seed_stay_within_the_margin_and_repeat() {
        let scores = [30, 25, 20, -900];
        let mut seen = [0; 4];
        for seed in 0..200 {
            let skill = Skill { level: 0.0, seed };
            let pick = skill.pick(&scores, 7);
            assert_eq!(pick, skill.pick(&scores, 7));
            seen[pick] += 1;
        }
        assert!(seen[..3].iter().all(|&n| n > 0), "{seen:?}");
        for level in [10.0, 12.5, 15.0, 19.0] {
            for seed in 0..200 {
                let pick = Skill { level, seed }.pick(&scores, 7);
                assert_ne!(pick, 3, "level {level} seed {seed}");
                // From level 15 nothing worse than a pawn below the best.
                let losing = [0, -120, -101, -60];
                let pick = Skill { level, seed }.pick(&losing, 7);
                if level >= 15.0 {
                    assert!(pick == 0 || pick == 3, "level {level} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn lines_keep_the_last_complete_iteration_and_a_deeper_first_line() {
        let mut lines = Lines::new(3);
        for (depth, multipv, cp, mv) in [
            (1, 1, 10, "a"),
            (1, 2, 5, "b"),
            (1, 3, 0, "c"),
            (2, 1, 12, "b"),
            (2, 2, 6, "a"),
        ] {
            lines.add(&info(depth, multipv, cp, mv));
        }
        let moves: Vec<String> = lines
            .candidates()
            .iter()
            .map(|line| line.pv[0].clone())
            .collect();
        assert_eq!(moves, ["b", "a", "c"]);
    }
}
