//! Roger's realtime chess player: it plans in time.
//!
//! At each decision it weighs every order it may start now against waiting: it starts the order
//! on a copy of the game, lets the copy run a poll (the moves under way land or collide exactly as
//! the simulator says), and judges the result in time ([`eval`]): the captures nothing can stop
//! any more, then for every piece whether an enemy can reach it before it can get away and what
//! the recapture costs, the kings' safety and development, and for the side well ahead the hunt
//! of the other king. Dodging, captures timed inside the defender's delay and attacks on an
//! exposed king all come out of that judgement. Then the best few orders and waiting are played
//! out five polls on copies, both sides deciding by that one-step judgement, and the best
//! outcome is started: exchanges that lose material a move later, and threats the opponent
//! answers, show there; but an order that judgement sees losing the king, where waiting does
//! not, or a choice it judges a king worse than the best, is not played out (play-outs deciding
//! a tick apart can miss the blow). Hunting a bare king ([`hunt`]), each order is judged after
//! the king's worst answer instead. It answers within its budget: orders are judged until a
//! quarter of it is spent and played out until three fifths.

pub mod eval;
pub mod hunt;
pub mod skill;
pub mod view;

use super::RealtimePlayer;
use crate::options::{check_value, OptionSpec, OptionValue};
use crate::rules::realtime::{Color, Motion, Ms, Order, RealtimeState, Unit};
use std::time::{Duration, Instant};
use view::View;

/// How much better than waiting an order must judge before the planner starts it: moving puts a
/// piece on delay, which the judgement only partly sees.
const START_MARGIN: i32 = 5;

/// The share of the budget for judging every order one step ahead...
const JUDGE_SHARE: f64 = 0.25;
/// ... and up to which the best few are played out.
const ROLLOUT_SHARE: f64 = 0.6;
/// How many of the best orders are played out (besides waiting)...
const ROLLOUT_CANDIDATES: usize = 4;
/// ... for how many polls.
const ROLLOUT_POLLS: u32 = 5;

/// A judgement at or below this has lost the king (a king taken for certain costs half a win;
/// material, even all of it, stays far above).
const KING_LOST: i32 = -eval::WIN / 4;

/// The longest reaction it assumes: decisions farther apart than this are not a poll.
const MAX_REACTION: Ms = 10_000;

/// Roger's realtime player.
pub struct RealtimePlanner {
    /// The smallest gap seen between two decisions: how soon either side answers a new threat.
    reaction: Ms,
    last_now: Option<Ms>,
    /// `Skill Level` and its kin: below 20 it reacts slower and chooses less carefully.
    skill: skill::RealtimeSkill,
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
            skill: skill::RealtimeSkill::new(),
        }
    }

    fn learn_reaction(&mut self, now: Ms) {
        if let Some(last) = self.last_now {
            if now > last {
                self.reaction = self.reaction.min(now - last);
            }
        }
        self.last_now = Some(now);
        self.reaction = self.reaction.clamp(1, MAX_REACTION);
    }

    /// The judgement of the game after `order` (or none) starts now and the next decision comes;
    /// a piece sent on its way that a move under way strikes before the last of them lands counts as
    /// lost.
    fn judge(&self, state: &RealtimeState, side: Color, order: Option<Order>) -> Option<i32> {
        let next = started(state, side, order, self.reaction)?;
        let mover = order.and_then(|order| state.unit_on(order.from));
        let mover = mover.map(|u| (u.id, u.piece.kind));
        let score = eval::evaluate(&next, side, self.reaction);
        let Some((id, kind)) = mover else {
            return Some(score);
        };
        // Every move under way lands before the mover's delay ends: until then its fate is set.
        let moving = |u: &&Unit| matches!(u.motion, Motion::Moving { .. });
        if !next.units().iter().filter(moving).any(|u| u.id == id) {
            return Some(score);
        }
        let last_landing = next.units().iter().filter(moving).map(|u| match u.motion {
            Motion::Moving { arrive, .. } => arrive,
            Motion::Standing { .. } => 0,
        });
        let mut probe = next.clone();
        probe.advance_to(last_landing.max().unwrap_or(0) + 1, &mut Vec::new());
        let survives = probe.units().iter().any(|u| u.id == id);
        Some(if survives {
            score
        } else {
            score - view::value(kind).min(eval::WIN / 4)
        })
    }
}

/// The game after `side` starts `order` (or waits) now and the next decision comes, `reaction`
/// later; `None` if `order` cannot start.
pub fn started(
    state: &RealtimeState,
    side: Color,
    order: Option<Order>,
    reaction: Ms,
) -> Option<RealtimeState> {
    let mut next = state.clone();
    let mut events = Vec::new();
    if let Some(order) = order {
        next.apply(side, order, &mut events).ok()?;
    }
    next.advance_to(state.now() + reaction, &mut events);
    Some(next)
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

    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo` and `Skill Seed` ([`skill`]).
    fn options(&self) -> Vec<OptionSpec> {
        skill::RealtimeSkill::options()
    }

    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        let specs = skill::RealtimeSkill::options();
        let (name, value) = check_value(&specs, name, value.clone())?;
        self.skill.set(name, &value);
        Ok(())
    }

    fn new_game(&mut self) {
        self.reaction = Self::DEFAULT_REACTION;
        self.last_now = None;
        self.skill.new_game();
    }

    fn decide(&mut self, state: &RealtimeState, side: Color, budget: Duration) -> Option<Order> {
        let began = Instant::now();
        self.learn_reaction(state.now());
        if state.outcome().is_some() {
            return None;
        }
        let deadline = began + budget.mul_f64(JUDGE_SHARE);
        let ranked = self.rank(state, side, deadline, true)?;
        if !self.skill.full_strength() {
            return self.weaker_choice(&ranked);
        }
        let rollout_deadline = began + budget.mul_f64(ROLLOUT_SHARE);
        if Instant::now() >= rollout_deadline {
            return ranked.choice();
        }
        // The most promising few, and waiting, each played out a few polls with both sides
        // deciding by the one-step judgement; the best outcome wins, the judgement breaks ties.
        let mut best: Option<((i32, i32), Option<Order>)> = None;
        // Waiting's play-out alone is no comparison.
        let mut finished = 0;
        let best_judged = ranked
            .orders
            .first()
            .map_or(ranked.waiting, |&(score, _)| score.max(ranked.waiting));
        let candidates = ranked.orders.iter().take(ROLLOUT_CANDIDATES);
        let candidates = candidates.map(|&(score, order)| (score, Some(order)));
        // Hunting, the other side's answer at this poll is the one it gives not seeing ours: a
        // piece set down next to a bare king strikes before the king has seen it come.
        let unseen_answer = ranked.answered.then(|| {
            self.rank(state, side.flip(), rollout_deadline, false)
                .and_then(|r| r.choice())
        });
        for (score, order) in std::iter::once((ranked.waiting, None)).chain(candidates) {
            if Instant::now() >= rollout_deadline {
                break;
            }
            // An order the one-step judgement sees losing the king, where waiting does not, is
            // not played out: the play-outs decide a tick apart and can miss the blow that
            // judgement sees coming. Nor is a choice (waiting too) it judges a king worse than
            // the best: where both kings look lost, the play-outs' opponent may save its own
            // and leave ours, where the real one takes it.
            let loses_king = score <= KING_LOST && ranked.waiting > KING_LOST;
            if loses_king || score <= best_judged.saturating_add(KING_LOST) {
                continue;
            }
            let Some(outcome) = self.rollout(state, side, order, unseen_answer, rollout_deadline)
            else {
                continue;
            };
            finished += 1;
            // The better outcome wins; on a tie (waiting, then starting the same order at the
            // next poll, often plays out alike) the one-step judgement decides, waiting with
            // the margin an order must beat.
            let margin = if order.is_none() { START_MARGIN } else { 0 };
            let key = (outcome, score + margin);
            if best.is_none_or(|(best_key, _)| key > best_key) {
                best = Some((key, order));
            }
        }
        match best {
            Some((_, order)) if finished >= 2 => order,
            _ => ranked.choice(),
        }
    }
}

/// The orders of one decision judged one step ahead, best first, and waiting's judgement.
struct Ranked {
    orders: Vec<(i32, Order)>,
    waiting: i32,
    /// Whether each was judged after the other side's worst answer ([`hunt`]).
    answered: bool,
}

impl RealtimePlanner {
    /// Below level 20: a winning order at once; otherwise, unless this decision passes, one
    /// drawn among the orders within the level's margin of the best, if that one beats waiting.
    fn weaker_choice(&mut self, ranked: &Ranked) -> Option<Order> {
        let &(best, _) = ranked.orders.first()?;
        if best >= eval::WIN / 2 {
            return ranked.orders.first().map(|&(_, order)| order);
        }
        if self.skill.lets_pass() {
            return None;
        }
        let margin = self.skill.margin();
        let near = ranked
            .orders
            .iter()
            .take_while(|&&(score, _)| score >= best - margin)
            .count();
        let (score, order) = ranked.orders[self.skill.pick(near)];
        (score > ranked.waiting + START_MARGIN - margin).then_some(order)
    }
}

impl Ranked {
    /// The best order if it beats waiting by the margin.
    fn choice(&self) -> Option<Order> {
        self.orders
            .first()
            .filter(|&&(score, _)| score > self.waiting + START_MARGIN)
            .map(|&(_, order)| order)
    }
}

impl RealtimePlanner {
    /// Every order `side` may start now judged one step ahead (most promising first, until
    /// `deadline`), best first.
    fn rank(
        &self,
        state: &RealtimeState,
        side: Color,
        deadline: Instant,
        answers: bool,
    ) -> Option<Ranked> {
        let mut orders = state.orders(side);
        let view = View::new(state);
        orders.sort_by_cached_key(|&order| std::cmp::Reverse(promise(&view, side, order)));
        let hunting = answers && hunt::bare_king(&view, side);
        let judge = |order| {
            if hunting {
                hunt::answered(state, side, order, self.reaction)
            } else {
                self.judge(state, side, order)
            }
        };
        let waiting = judge(None)?;
        let mut judged = Vec::with_capacity(orders.len());
        for order in orders {
            if Instant::now() >= deadline {
                break;
            }
            if let Some(score) = judge(Some(order)) {
                judged.push((score, order));
            }
        }
        judged.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        Some(Ranked {
            orders: judged,
            waiting,
            answered: hunting,
        })
    }

    /// The judgement for `side` after it starts `order` (or waits) and both sides then decide
    /// by the one-step judgement at every poll (or tick, if longer) for [`ROLLOUT_POLLS`] polls.
    /// With `unseen_answer` the other side decides this poll without seeing `order` (that
    /// answer) and sees it a reaction later, as in play; without, it answers `order` at once, the
    /// cautious model outside the hunt. `None` if it could not finish by `deadline`.
    fn rollout(
        &self,
        state: &RealtimeState,
        side: Color,
        order: Option<Order>,
        unseen_answer: Option<Option<Order>>,
        deadline: Instant,
    ) -> Option<i32> {
        let mut game = state.clone();
        let mut events = Vec::new();
        if let Some(order) = order {
            game.apply(side, order, &mut events).ok()?;
        }
        let unseen = unseen_answer.is_some();
        if let Some(answer) = unseen_answer {
            if let Some(answer) = answer {
                let _ = game.apply(side.flip(), answer, &mut events);
            }
            game.advance_to(game.now() + self.reaction, &mut events);
        }
        // Both sides decide once a poll, but at least a tick apart: a slow game is played out
        // far enough for moves to land.
        let step = self.reaction.max(state.params().tick());
        for poll in 0..ROLLOUT_POLLS {
            // At the first poll only the opponent has still to answer (if it answers at once).
            for mover in [side.flip(), side] {
                if game.outcome().is_some() || (poll == 0 && mover == side && !unseen) {
                    continue;
                }
                if let Some(choice) = self
                    .rank(&game, mover, deadline, false)
                    .and_then(|r| r.choice())
                {
                    let _ = game.apply(mover, choice, &mut events);
                }
            }
            game.advance_to(game.now() + step, &mut events);
            if game.outcome().is_some() {
                break;
            }
        }
        // Cut short, the play-out is not the model's: it says nothing.
        (Instant::now() < deadline).then(|| eval::evaluate(&game, side, self.reaction))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::realtime::{Kind, Piece, RealtimeParams};

    const BUDGET: Duration = Duration::from_millis(30);

    fn state(text: &str) -> RealtimeState {
        RealtimeState::from_text(text, RealtimeParams::default()).unwrap()
    }

    /// A fresh planner's choice for White in `start`.
    fn white_choice(start: &RealtimeState) -> Option<Order> {
        RealtimePlanner::new().decide(start, Color::White, BUDGET)
    }

    /// Lets the planner play `side` every 100 ms up to `until` against a side that gives no
    /// orders; returns the final state and the planner's orders.
    fn run(state: RealtimeState, side: Color, until: Ms) -> (RealtimeState, Vec<(Ms, Order)>) {
        run_with(state, side, until, BUDGET)
    }

    /// [`run`] with a budget for each decision.
    fn run_with(
        mut state: RealtimeState,
        side: Color,
        until: Ms,
        budget: Duration,
    ) -> (RealtimeState, Vec<(Ms, Order)>) {
        let mut planner = RealtimePlanner::new();
        let mut events = Vec::new();
        let mut orders = Vec::new();
        let mut t = state.now();
        while t <= until && state.outcome().is_none() {
            state.advance_to(t, &mut events);
            if state.outcome().is_some() {
                break;
            }
            if let Some(order) = planner.decide(&state, side, budget) {
                assert_eq!(state.check(side, order), Ok(()), "{order} at {t}");
                state.apply(side, order, &mut events).unwrap();
                orders.push((t, order));
            }
            t += 100;
        }
        (state, orders)
    }

    fn has(state: &RealtimeState, color: Color, kind: Kind) -> bool {
        state
            .units()
            .iter()
            .any(|u| u.piece == Piece { color, kind })
    }

    #[test]
    fn takes_a_piece_that_sits_out_its_delay() {
        // The black knight on a5 may not move before 13000; the rook reaches it at 8501.
        let start = state("7k/8/8/n7/8/8/8/R3K3 - 5000 0 d:a5:13000");
        let order = white_choice(&start);
        assert_eq!(order, Some(Order::parse("a1a5").unwrap()));
        let (end, _) = run(start, Color::White, 9000);
        assert!(!has(&end, Color::Black, Kind::Knight));
    }

    #[test]
    fn dodges_a_rook_in_time() {
        // The black rook left d8 at 5000 for d4, where it takes what stands at 8501: the knight
        // must start leaving by 8000.
        let start = state("7k/8/8/8/3N4/8/8/4K3 - 5000 0 m:r:d8d4:5000");
        let (end, orders) = run(start, Color::White, 9500);
        assert!(has(&end, Color::White, Kind::Knight), "{orders:?}");
        let knight = orders.iter().find(|(_, order)| order.from.name(8) == "d4");
        assert!(knight.is_some_and(|&(t, _)| t <= 8000), "{orders:?}");
    }

    #[test]
    fn moves_its_king_out_of_a_knights_way() {
        // The black knight jumps f3-e1 from 5000 and lands at 6501.
        let start = state("7k/8/8/8/8/8/8/4K3 - 5000 0 m:n:f3e1:5000");
        let (end, _) = run(start, Color::White, 8000);
        assert!(has(&end, Color::White, Kind::King));
        assert_eq!(end.outcome(), None);
    }

    #[test]
    fn the_weakest_level_never_lets_a_won_king_pass_and_plays_worse_elsewhere() {
        let won = state("8/8/8/4k3/8/8/8/Q3K3 - 5000 0 d:e5:14000");
        let knight = state("7k/8/8/n7/8/8/8/R3K3 - 5000 0 d:a5:13000");
        let mut other_choices = 0;
        for seed in 1..=8 {
            let mut planner = RealtimePlanner::new();
            planner
                .set_option("Skill Level", &OptionValue::Spin(0))
                .unwrap();
            planner
                .set_option("Skill Seed", &OptionValue::Spin(seed as i64))
                .unwrap();
            let order = planner.decide(&won, Color::White, BUDGET);
            assert_eq!(order, Some(Order::parse("a1e5").unwrap()), "seed {seed}");
            if planner.decide(&knight, Color::White, BUDGET) != Some(Order::parse("a1a5").unwrap())
            {
                other_choices += 1;
            }
        }
        // Full strength always takes the knight (`takes_a_piece_that_sits_out_its_delay`).
        assert!(other_choices > 0, "level 0 took the knight every time");
        let mut planner = RealtimePlanner::new();
        assert!(planner
            .set_option("Skill Level", &OptionValue::Spin(21))
            .is_err());
        assert!(planner.set_option("Skill", &OptionValue::Spin(3)).is_err());
    }

    #[test]
    fn strikes_a_king_that_cannot_get_away() {
        // The black king arrived on e5 and may not move before 14000.
        let start = state("8/8/8/4k3/8/8/8/Q3K3 - 5000 0 d:e5:14000");
        let (end, _) = run(start, Color::White, 14_000);
        assert_eq!(end.outcome().and_then(|o| o.winner), Some(Color::White));
    }

    #[test]
    fn blocks_the_path_of_a_rook_towards_its_king() {
        // The white king sits out its delay until 15000; the black rook on e8 may start at 6000
        // and would take it at 12501. The white rook on a4 can stand in the way on e4: while it moves
        // there, rule 4 forbids the black rook's path through e4, and then it stands there.
        let start = state("4r2k/8/8/8/R7/8/8/4K3 - 5000 0 d:e8:6000 d:e1:15000");
        let (mut end, orders) = run(start, Color::White, 5900);
        end.advance_to(6000, &mut Vec::new());
        let strike = Order::parse("e8e1").unwrap();
        assert!(end.check(Color::Black, strike).is_err(), "{orders:?}");
    }

    #[test]
    fn does_not_let_a_play_out_step_its_king_onto_a_line_a_screen_is_about_to_open() {
        // At tick 1000 the black rook on h2 faces a2 through its own bishop on c2, which may
        // leave at 53200; the rook can start a poll later and take a king on a2 at 59801, while
        // a king stepping there at 49100 sits out its delay until 60100. The one-step judgement
        // sees it; the play-outs, deciding a tick apart, did not, and stepped there.
        let start = state(
            "8/2P1rk2/p2pN3/P7/4ppp1/2p5/2b4r/1KB5 - 49100 47001 d:c1:57500 d:c2:53200 \
             d:h2:52100 d:d6:54200 d:e6:53200 d:c7:56300 d:e7:57300 d:f7:56500",
        );
        let order = white_choice(&start);
        assert_ne!(order, Some(Order::parse("b1a2").unwrap()));
    }

    #[test]
    fn does_not_step_its_king_into_a_strike_when_both_kings_look_lost() {
        // The black bishop on c5 is free to move and has f2 on its diagonal: a king stepping
        // f1-f2 lands at 73300 and sits out its delay there. White's pieces round the black king
        // make that king look lost too, so the one-step judgement puts the step a king below
        // waiting but not below the line of a lost king; the play-outs, where Black saves its
        // own king first, chose it.
        let start = state(
            "3kN2Q/8/4Q3/2bp4/1pb5/8/4Bp2/1r3K2 - 72300 52601 d:e2:82100 d:c4:76200 \
             d:e6:76300 d:d8:73100 d:e8:73200 d:h8:73200 m:R:e5f5:72200",
        );
        let order = white_choice(&start);
        assert_ne!(order, Some(Order::parse("f1f2").unwrap()));
    }

    #[test]
    fn does_not_take_a_queen_with_its_king_next_to_a_rook_free_to_strike() {
        // The white king on e2 stands next to a black rook on e1 that is free to move: waiting
        // loses it, and so does taking the queen on d1 (it lands beside the rook and sits out
        // its delay); stepping to f2 saves it. The one-step judgement sees both lost kings, the
        // play-outs, where Black defends its own king first, preferred the queen.
        let start = state(
            "5Q2/3N1Qk1/8/8/8/3B4/4K3/3qr3 - 80000 49501 d:d1:81100 d:d7:86900 d:f7:89900 \
             d:g7:83400 d:f8:83500",
        );
        let order = white_choice(&start);
        assert_ne!(order, Some(Order::parse("e2d1").unwrap()));
        assert_ne!(order, None);
    }

    /// A budget no decision here needs in full: the planner's choices do not depend on the
    /// machine's load.
    const UNHURRIED: Duration = Duration::from_secs(5);

    #[test]
    fn strikes_a_bare_king_next_to_its_queen_before_it_sees_it_come() {
        // The queen on e7 is free and guarded by the king on d6. Taking the king on e8 lands
        // half a tick after it starts: the black king sees the strike a poll later and, were it
        // to answer at once, would get away by stepping off as the queen sets off.
        let start = state("4k3/4Q3/3K4/8/8/8/8/8 - 310000 184001");
        let order = RealtimePlanner::new().decide(&start, Color::White, UNHURRIED);
        assert_eq!(order, Some(Order::parse("e7e8").unwrap()));
    }

    #[test]
    fn hunts_down_a_bare_king_that_stands_still() {
        // A king that never moves is safe from strikes it can see coming: the queen must be set
        // down next to it, guarded and a tick away, so that every square it could flee to is
        // next to the queen, and strike once free. Judged one step ahead, every order looked
        // worse than waiting (a king on delay, a queen on delay) and nothing happened.
        let start = state("4k1Q1/8/3K4/8/8/8/8/8 - 250000 184001");
        let (end, orders) = run_with(start, Color::White, 300_000, UNHURRIED);
        assert_eq!(
            end.outcome().and_then(|o| o.winner),
            Some(Color::White),
            "{orders:?}"
        );
    }

    #[test]
    fn waits_when_it_has_no_time_to_think() {
        let start = RealtimeState::start(RealtimeParams::default());
        let mut planner = RealtimePlanner::new();
        assert_eq!(planner.decide(&start, Color::White, Duration::ZERO), None);
        assert!(planner.decide(&start, Color::White, BUDGET).is_some());
    }
}
