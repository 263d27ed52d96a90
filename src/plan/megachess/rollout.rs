//! The search over whole-turn plans. The sequential plan ([`super::search`]) judges the end of
//! my turn only; a plan that looks safe there can still walk into a net the enemy closes over
//! two turns. So the planner sketches several whole-turn plans (the plain one, one starting
//! with each step of my king when enemy pieces are near it, and plans varied at random), and
//! plays each out: my plan, the nearest enemy players' replies (planned by the same planner
//! from their side), and my next plan, whose judgement is the plan's value. The best value
//! wins; among plans within [`VARIETY_MARGIN`] of it the world's seed picks, so a line that
//! beat the planner once does not win every time.

use super::meter::{Deadline, Meter};
use super::{legal_prefix, MegachessPlanner, Sketch, Sketching};
use crate::common::Rng;
use crate::plan::PlanProgress;
use crate::rules::megachess::{Coord, Move, PlayerId, World, KING_STEPS};
use std::sync::atomic::{AtomicBool, Ordering};

/// Enemy players whose replies a play-out plans: the ones whose kings are nearest mine.
const MAX_REPLIERS: usize = 2;
/// Plans whose value is within this of the best are as good: the seed picks among them.
const VARIETY_MARGIN: i32 = 20;
/// The value of a play-out in which my king is taken.
const KING_LOST: i32 = -2_000_000;
/// My king's steps are tried as first moves when an enemy piece stands this near it.
const KING_PRESSURE: u32 = 8;
/// The share of the search's allowance the first (plain) plan may take.
const FIRST_SHARE: u64 = 4;

/// Does nothing with a plan's progress (the play-outs' inner plans report none).
fn silent(_: &super::search::Outcome) {}

impl MegachessPlanner {
    /// The best plan for `me` by its play-out, found by `deadline` (the plain plan when there
    /// is nothing left for play-outs).
    pub(super) fn search_plans(
        &self,
        world: &World,
        me: PlayerId,
        deadline: Deadline<'_>,
        stop: &AtomicBool,
        choices: &mut Rng,
        progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        let meter = deadline.meter();
        let started = meter.started();
        let first_deadline = deadline.share(FIRST_SHARE);
        let mut report = |outcome: &super::search::Outcome| progress(&outcome.progress(started));
        let Some(plain) = self.sketch(
            world,
            me,
            first_deadline,
            stop,
            Sketching::Plain,
            &mut report,
        ) else {
            return Vec::new();
        };
        let plain = legal_prefix(world, me, &plain.moves);
        if !few_players_near(world, me, self.margin) {
            return plain;
        }
        let mut openings: Vec<Move> = king_steps(world, me);
        let mut tried: Vec<(i32, Vec<Move>)> = Vec::new();
        // The most a play-out has cost on the meter.
        let mut play_out_cost = 0;
        let mut candidate = Some(plain.clone());
        while let Some(plan) = candidate.take() {
            let now = meter.now();
            if deadline.left() <= play_out_cost || stop.load(Ordering::Relaxed) {
                break;
            }
            // Each inner plan gets a third of a play-out's share of what is left: at least one
            // more plan fits after this one.
            let inner = deadline.left() / 8;
            if !tried.iter().any(|(_, moves)| *moves == plan) {
                let value = self.play_out(world, me, &plan, meter, inner, stop);
                tried.push((value, plan));
            }
            play_out_cost = play_out_cost.max(meter.now() - now);
            // The next candidate: my king's steps first, then varied plans.
            let next_deadline = meter.after(inner);
            let sketching = match openings.pop() {
                Some(first) => Sketching::StartingWith(first),
                None => Sketching::Varied(&mut *choices),
            };
            candidate = self
                .sketch(world, me, next_deadline, stop, sketching, &mut silent)
                .map(|sketch: Sketch| legal_prefix(world, me, &sketch.moves));
        }
        let Some(best) = tried.iter().map(|(value, _)| *value).max() else {
            return plain;
        };
        let near_best: Vec<&Vec<Move>> = tried
            .iter()
            .filter(|(value, _)| *value >= best.saturating_sub(VARIETY_MARGIN))
            .map(|(_, plan)| plan)
            .collect();
        near_best[choices.below(near_best.len() as u64) as usize].clone()
    }

    /// The value of `plan` for `me`: the judgement of my next plan after the nearest enemy
    /// players' replies, each plan given `inner` units of `meter` to think.
    fn play_out(
        &self,
        world: &World,
        me: PlayerId,
        plan: &[Move],
        meter: &Meter,
        inner: u64,
        stop: &AtomicBool,
    ) -> i32 {
        let mut board = world.clone();
        for &mv in plan {
            let _ = board.apply(me, mv);
        }
        board.end_turn();
        for enemy in nearest_enemies(&board, me) {
            let deadline = meter.after(inner);
            let reply = self.sketch(&board, enemy, deadline, stop, Sketching::Plain, &mut silent);
            if let Some(reply) = reply {
                for mv in reply.moves {
                    let _ = board.apply(enemy, mv);
                }
            }
        }
        board.end_turn();
        if board.player(me).is_none() {
            return KING_LOST;
        }
        let deadline = meter.after(inner);
        self.sketch(&board, me, deadline, stop, Sketching::Plain, &mut silent)
            .map_or(KING_LOST / 2, |next| next.score)
    }
}

/// Whether the play-outs model the world around `me`: no ally and at most [`MAX_REPLIERS`]
/// enemy players in its window. Among many players, a play-out that moves only the nearest
/// enemies and none of my allies misleads more than it shows (8 v 8: the plain plan won 60% of
/// 20 worlds against the planner before play-outs, with play-outs 7.5% of 40).
fn few_players_near(world: &World, me: PlayerId, margin: u32) -> bool {
    let Some(window) = world.army_rect(me, margin) else {
        return false;
    };
    let mut enemies: Vec<PlayerId> = Vec::new();
    for piece in world.pieces().filter(|piece| window.contains(piece.at)) {
        let owner = piece.owner;
        if owner == me || owner == crate::rules::megachess::NEUTRAL {
            continue;
        }
        if world.allied(owner, me) {
            return false;
        }
        if !enemies.contains(&owner) {
            enemies.push(owner);
            if enemies.len() > MAX_REPLIERS {
                return false;
            }
        }
    }
    true
}

/// The first moves to try besides the plain plan: each legal step of my king when an enemy
/// piece stands within [`KING_PRESSURE`] of it.
fn king_steps(world: &World, me: PlayerId) -> Vec<Move> {
    let Some(at) = world.kingdom_centre(me) else {
        return Vec::new();
    };
    let pressed = world.pieces().any(|piece| {
        piece.owner != crate::rules::megachess::NEUTRAL
            && !world.allied(piece.owner, me)
            && piece.at.chebyshev(at) <= KING_PRESSURE
    });
    if !pressed {
        return Vec::new();
    }
    let params = world.params();
    KING_STEPS
        .iter()
        .filter_map(|&(dx, dy)| at.offset(dx, dy, params.width, params.height))
        .map(|to: Coord| Move::new(at, to))
        .filter(|&mv| world.check(me, mv).is_ok())
        .collect()
}

/// The enemy players still playing whose kings are nearest `me`'s, at most [`MAX_REPLIERS`].
fn nearest_enemies(world: &World, me: PlayerId) -> Vec<PlayerId> {
    let Some(mine) = world.kingdom_centre(me) else {
        return Vec::new();
    };
    let mut enemies: Vec<(u64, PlayerId)> = world
        .players()
        .filter(|player| player.present && !world.allied(player.id, me))
        .filter_map(|player| {
            let king = world.kingdom_centre(player.id)?;
            Some((king.distance_squared(mine), player.id))
        })
        .collect();
    enemies.sort_unstable();
    enemies
        .into_iter()
        .take(MAX_REPLIERS)
        .map(|(_, id)| id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::megachess::{Kind, MegachessParams, Team};

    fn world(pieces: &[(PlayerId, Kind, u32, u32)]) -> World {
        let mut world = World::new(MegachessParams::default(), 1);
        world.add_player(1, Team::Alabaster).unwrap();
        for id in [2, 3, 4] {
            world.add_player(id, Team::Metal).unwrap();
        }
        for &(owner, kind, x, y) in pieces {
            world
                .place(owner, kind, Coord::new(x, y), true, false, None)
                .unwrap();
        }
        world
    }

    #[test]
    fn king_steps_are_tried_only_with_an_enemy_near() {
        let near = world(&[(1, Kind::King, 30, 30), (2, Kind::Knight, 30, 38)]);
        let steps = king_steps(&near, 1);
        assert_eq!(steps.len(), 8, "{steps:?}");
        assert!(steps.iter().all(|mv| mv.from == Coord::new(30, 30)));
        let far = world(&[(1, Kind::King, 30, 30), (2, Kind::Knight, 30, 39)]);
        assert!(king_steps(&far, 1).is_empty());
        // An own piece on a neighbour leaves that step out.
        let blocked = world(&[
            (1, Kind::King, 30, 30),
            (1, Kind::Pawn, 31, 30),
            (2, Kind::Knight, 30, 36),
        ]);
        assert_eq!(king_steps(&blocked, 1).len(), 7);
    }

    #[test]
    fn the_nearest_enemy_kings_reply() {
        let board = world(&[
            (1, Kind::King, 30, 30),
            (2, Kind::King, 90, 90),
            (3, Kind::King, 30, 40),
            (4, Kind::King, 50, 30),
        ]);
        assert_eq!(nearest_enemies(&board, 1), vec![3, 4]);
    }
}
