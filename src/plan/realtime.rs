//! Roger's realtime chess player: it plans in time.
//!
//! At each decision it weighs every order it may start now against waiting: it starts the order
//! on a copy of the game, lets the copy run a tick (the moves under way land or collide exactly as
//! the simulator says), and judges the result in time ([`eval`]): the captures nothing can stop
//! any more, then for every piece whether an enemy can reach it before it can get away and what
//! the recapture costs, the kings' safety and development. Dodging, captures timed inside the
//! defender's delay and attacks on an exposed king all come out of that judgement. It answers
//! within its budget: orders are weighed most promising first until half the budget is spent.

pub mod eval;
pub mod view;

use super::RealtimePlayer;
use crate::rules::realtime::{Color, Motion, Ms, Order, RealtimeState};
use std::time::{Duration, Instant};
use view::View;

/// How much better than waiting an order must judge before the planner starts it: moving puts a
/// piece on delay, which the judgement only partly sees.
const START_MARGIN: i32 = 5;

/// Roger's realtime player.
pub struct RealtimePlanner {
    /// The smallest gap seen between two decisions: how soon either side answers a new threat.
    reaction: Ms,
    last_now: Option<Ms>,
}

impl Default for RealtimePlanner {
    fn default() -> Self {
        RealtimePlanner::new()
    }
}

impl RealtimePlanner {
    /// Until it has seen two decisions, it assumes the arena's default poll.
    const DEFAULT_REACTION: Ms = 100;

    pub fn new() -> RealtimePlanner {
        RealtimePlanner {
            reaction: Self::DEFAULT_REACTION,
            last_now: None,
        }
    }

    fn learn_reaction(&mut self, now: Ms, tick: Ms) {
        if let Some(last) = self.last_now {
            if now > last {
                self.reaction = self.reaction.min(now - last);
            }
        }
        self.last_now = Some(now);
        self.reaction = self.reaction.clamp(1, tick);
    }

    /// The judgement of the game after `order` (or none) starts now and the next decision comes;
    /// a piece sent on its way that a move under way would strike before it lands counts as lost.
    fn judge(&self, state: &RealtimeState, side: Color, order: Option<Order>) -> Option<i32> {
        let mut next = state.clone();
        let mut events = Vec::new();
        let mut mover = None;
        if let Some(order) = order {
            mover = state.unit_on(order.from).map(|u| (u.id, u.piece.kind));
            next.apply(side, order, &mut events).ok()?;
        }
        next.advance_to(state.now() + self.reaction, &mut events);
        let score = eval::evaluate(&next, side, self.reaction);
        let Some((id, kind)) = mover else {
            return Some(score);
        };
        let arrival = next.units().iter().find_map(|u| match u.motion {
            Motion::Moving { arrive, .. } if u.id == id => Some(arrive),
            _ => None,
        });
        let Some(arrival) = arrival else {
            return Some(score);
        };
        let mut probe = next.clone();
        probe.advance_to(arrival, &mut events);
        if probe.outcome().is_some() {
            return Some(eval::evaluate(&probe, side, self.reaction));
        }
        let survives = probe.units().iter().any(|u| u.id == id);
        Some(if survives {
            score
        } else {
            score - view::value(kind).min(eval::WIN / 4)
        })
    }
}

/// A quick guess at an order's promise, to weigh the likeliest orders first.
fn promise(view: &View, side: Color, order: Order) -> i32 {
    let taken = view.captured_by(side, order);
    let threatened = view.pieces.iter().any(|p| {
        p.moving
            .is_some_and(|_| p.square == order.from.0 && p.piece.color != side)
    });
    taken * 10 + if threatened { 5000 } else { 0 }
}

impl RealtimePlayer for RealtimePlanner {
    fn name(&self) -> String {
        "roger".to_string()
    }

    fn new_game(&mut self) {
        self.last_now = None;
    }

    fn decide(&mut self, state: &RealtimeState, side: Color, budget: Duration) -> Option<Order> {
        let began = Instant::now();
        let tick = state.params().tick();
        self.learn_reaction(state.now(), tick);
        if state.outcome().is_some() {
            return None;
        }
        let mut orders = state.orders(side);
        if orders.is_empty() {
            return None;
        }
        let view = View::new(state);
        orders.sort_by_cached_key(|&order| std::cmp::Reverse(promise(&view, side, order)));
        let allowed = budget / 2;
        let waiting = self.judge(state, side, None)?;
        let mut best: Option<(i32, Order)> = None;
        for order in orders {
            if began.elapsed() >= allowed {
                break;
            }
            if let Some(score) = self.judge(state, side, Some(order)) {
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, order));
                }
            }
        }
        best.filter(|&(score, _)| score > waiting + START_MARGIN)
            .map(|(_, order)| order)
    }
}
