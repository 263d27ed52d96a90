//! Draw and resign adjudication of the turn referee, from the scores the engines report.

use super::Termination;
use crate::arena::process::EngineScore;
use crate::rules::Color;
use serde::{Deserialize, Serialize};

/// The result of a turn game, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
    pub fn text(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
    /// Points by seat: White's, then Black's.
    pub fn points(self) -> Vec<f64> {
        let white = self.white_points();
        vec![white, 1.0 - white]
    }
    /// White's points.
    pub fn white_points(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

/// Draw adjudication: both engines' scores within `score` centipawns of zero for `move_count`
/// consecutive moves each, from full move `move_number` on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// Resign adjudication: an engine whose score is `score` centipawns or more below zero for
/// `move_count` consecutive moves loses; with `two_sided`, only if its opponent agrees.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub max_plies: Option<usize>,
}

/// Tracks the scores the engines report and says when to adjudicate.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive plies with both sides' scores near zero.
    drawish_plies: u32,
    /// Consecutive moves of each side with a losing and a winning score.
    losing: [u32; 2],
    winning: [u32; 2],
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            ..Adjudicator::default()
        }
    }

    /// Records `side`'s score for the move that made the game `plies` long; returns the
    /// adjudicated result, if any.
    pub fn after_move(
        &mut self,
        side: Color,
        score: Option<EngineScore>,
        plies: usize,
    ) -> Option<(GameResult, Termination)> {
        let cp = score.map(EngineScore::centipawns);
        if let Some(rule) = self.rules.draw {
            match cp {
                Some(cp) if cp.abs() <= rule.score => self.drawish_plies += 1,
                _ => self.drawish_plies = 0,
            }
            if self.drawish_plies >= 2 * rule.move_count && plies / 2 >= rule.move_number as usize {
                return Some((GameResult::Draw, Termination::AdjudicatedDraw));
            }
        }
        if let Some(rule) = self.rules.resign {
            let i = side.index();
            self.losing[i] = if cp.is_some_and(|cp| cp <= -rule.score) {
                self.losing[i] + 1
            } else {
                0
            };
            self.winning[i] = if cp.is_some_and(|cp| cp >= rule.score) {
                self.winning[i] + 1
            } else {
                0
            };
            for loser in [side, side.flip()] {
                let winner = loser.flip();
                if self.losing[loser.index()] >= rule.move_count
                    && (!rule.two_sided || self.winning[winner.index()] >= rule.move_count)
                {
                    return Some((GameResult::win_for(winner), Termination::AdjudicatedResign));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_adjudication_needs_both_sides_near_zero_long_enough() {
        let rules = Adjudication {
            draw: Some(DrawRule {
                move_number: 10,
                move_count: 2,
                score: 10,
            }),
            ..Adjudication::default()
        };
        let mut adjudicator = Adjudicator::new(rules);
        let cp = |c| Some(EngineScore::Cp(c));
        // Too early: full move 5.
        for ply in 1..=4 {
            assert_eq!(adjudicator.after_move(Color::White, cp(5), ply), None);
        }
        let mut adjudicator = Adjudicator::new(rules);
        assert_eq!(adjudicator.after_move(Color::White, cp(5), 20), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(-3), 21), None);
        assert_eq!(adjudicator.after_move(Color::White, cp(50), 22), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(0), 23), None);
        assert_eq!(adjudicator.after_move(Color::White, cp(0), 24), None);
        assert_eq!(adjudicator.after_move(Color::Black, None, 25), None);
        for ply in 26..29 {
            assert_eq!(adjudicator.after_move(Color::White, cp(1), ply), None);
        }
        assert_eq!(
            adjudicator.after_move(Color::Black, cp(-10), 29),
            Some((GameResult::Draw, Termination::AdjudicatedDraw))
        );
    }

    #[test]
    fn resign_adjudication_one_and_two_sided() {
        let rule = ResignRule {
            move_count: 2,
            score: 500,
            two_sided: false,
        };
        let rules = Adjudication {
            resign: Some(rule),
            ..Adjudication::default()
        };
        let mut adjudicator = Adjudicator::new(rules);
        let cp = |c| Some(EngineScore::Cp(c));
        assert_eq!(adjudicator.after_move(Color::White, cp(-600), 1), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(0), 2), None);
        assert_eq!(
            adjudicator.after_move(Color::White, Some(EngineScore::Mate(-3)), 3),
            Some((GameResult::BlackWins, Termination::AdjudicatedResign))
        );
        let rules = Adjudication {
            resign: Some(ResignRule {
                two_sided: true,
                ..rule
            }),
            ..Adjudication::default()
        };
        let mut adjudicator = Adjudicator::new(rules);
        assert_eq!(adjudicator.after_move(Color::White, cp(-600), 1), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(0), 2), None);
        assert_eq!(adjudicator.after_move(Color::White, cp(-600), 3), None);
        assert_eq!(adjudicator.after_move(Color::Black, cp(700), 4), None);
        assert_eq!(adjudicator.after_move(Color::White, cp(-600), 5), None);
        assert_eq!(
            adjudicator.after_move(Color::Black, cp(700), 6),
            Some((GameResult::BlackWins, Termination::AdjudicatedResign))
        );
    }
}
