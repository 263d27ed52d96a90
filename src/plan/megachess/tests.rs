//! The planner's unit tests: small hand-built worlds where one turn shows one skill, checked with
//! the world's own rules (not the planner's).

use super::crowd::{crowd_world, CROWD_ME};
use super::meter::Meter;
use super::{MegachessPlanner, MAX_SKILL};
use crate::options::OptionValue;
use crate::plan::{MegachessPlayer, TurnBudget};
use crate::rules::megachess::{Coord, Kind, MegachessParams, Move, PlayerId, Team, World};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const ME: PlayerId = 1;
const ENEMY: PlayerId = 2;

/// A 64 x 64 world without bonus spawns, alabaster (player 1) to move against metal (player 2).
fn world_with(pieces: &[(PlayerId, Kind, u32, u32)]) -> World {
    let params = MegachessParams {
        width: 64,
        height: 64,
        bonus_every: 0,
        ..MegachessParams::default()
    };
    let mut world = World::new(params, 7);
    world.add_player(ME, Team::Alabaster).unwrap();
    world.add_player(ENEMY, Team::Metal).unwrap();
    for &(owner, kind, x, y) in pieces {
        world
            .place(owner, kind, Coord::new(x, y), true, false, None)
            .unwrap();
    }
    world
}

/// Enough judgements for a plain plan of a small army to finish.
const RAW_PLAN_MOVES: u64 = 200_000;

/// The planner's moves before the final check on the world, so that a test sees its own order:
/// a plain plan with room to judge `moves` moves (enough to finish it), whatever the machine's
/// load.
fn raw_plan(world: &World, me: PlayerId, moves: u64) -> Vec<Move> {
    let planner = MegachessPlanner::new();
    let meter = Meter::work();
    planner.search(
        world,
        me,
        meter.after(moves),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// Applies the plan in order on a copy; every move must pass.
fn played(world: &World, me: PlayerId, plan: &[Move]) -> World {
    let mut after = world.clone();
    for (n, &mv) in plan.iter().enumerate() {
        if let Err(why) = after.apply(me, mv) {
            panic!("move {n} ({mv}) of {plan:?} refused: {why}");
        }
    }
    after
}

fn planned(world: &World) -> World {
    let plan = raw_plan(world, ME, RAW_PLAN_MOVES);
    played(world, ME, &plan)
}

/// Whether some sequence of at most two enemy moves in its next turn captures `me`'s king.
fn king_falls_in_two(world: &World, me: PlayerId) -> bool {
    let mut next = world.clone();
    next.end_turn();
    let enemy_team = next.team_to_move();
    let enemies: Vec<PlayerId> = next
        .players()
        .filter(|p| p.team == enemy_team)
        .map(|p| p.id)
        .collect();
    let king = next.player(me).and_then(|p| p.king).unwrap();
    let takes_king = |w: &World| {
        let at = w.piece(king).map(|p| p.at);
        enemies
            .iter()
            .any(|&e| w.legal_moves(e).iter().any(|m| Some(m.to) == at))
    };
    if takes_king(&next) {
        return true;
    }
    enemies.iter().any(|&e| {
        next.legal_moves(e).into_iter().any(|mv| {
            let mut after = next.clone();
            after.apply(e, mv).is_ok() && takes_king(&after)
        })
    })
}

#[test]
fn a_plan_is_legal_in_order() {
    let mut world = world_with(&[]);
    world
        .spawn_army(
            ME,
            Coord::new(20, 20),
            crate::rules::megachess::Facing::North,
        )
        .unwrap();
    world
        .spawn_army(
            ENEMY,
            Coord::new(20, 30),
            crate::rules::megachess::Facing::South,
        )
        .unwrap();
    let plan = raw_plan(&world, ME, RAW_PLAN_MOVES);
    assert!(plan.len() >= 4, "an army moves: {plan:?}");
    played(&world, ME, &plan);
}

#[test]
fn it_takes_a_free_enemy_king() {
    let world = world_with(&[
        (ME, Kind::King, 5, 5),
        (ME, Kind::Rook, 30, 20),
        (ENEMY, Kind::King, 30, 25),
        (ENEMY, Kind::Queen, 40, 40),
    ]);
    let after = planned(&world);
    assert!(after.player(ENEMY).is_none_or(|p| p.king.is_none()));
    assert_eq!(after.piece_at(Coord::new(30, 25)).unwrap().owner, ME);
}

#[test]
fn it_opens_its_own_line_to_take_a_king() {
    // The rook's file to the king is blocked by an own knight: move it away, then take.
    let world = world_with(&[
        (ME, Kind::King, 5, 5),
        (ME, Kind::Rook, 30, 20),
        (ME, Kind::Knight, 30, 22),
        (ENEMY, Kind::King, 30, 25),
    ]);
    let after = planned(&world);
    assert_eq!(after.piece_at(Coord::new(30, 25)).unwrap().owner, ME);
}

/// The enemy pawn on 20,23 may take the knight on 21,22 (or just step aside) and open the
/// queen's file to the king seven squares away.
fn two_move_net() -> World {
    let world = world_with(&[
        (ME, Kind::King, 20, 20),
        (ME, Kind::Knight, 21, 22),
        (ENEMY, Kind::Pawn, 20, 23),
        (ENEMY, Kind::Queen, 20, 27),
        (ENEMY, Kind::King, 50, 50),
    ]);
    assert!(king_falls_in_two(&world, ME), "the test's threat is real");
    world
}

#[test]
fn its_king_escapes_a_threat_that_needs_two_enemy_moves() {
    let world = two_move_net();
    let after = planned(&world);
    assert!(!king_falls_in_two(&after, ME));
}

#[test]
fn it_does_not_leave_a_queen_en_prise() {
    // The enemy pawn attacks the queen; the bishop covers squares around it.
    let world = world_with(&[
        (ME, Kind::King, 5, 5),
        (ME, Kind::Queen, 30, 30),
        (ENEMY, Kind::Pawn, 31, 31),
        (ENEMY, Kind::Knight, 33, 32),
        (ENEMY, Kind::Bishop, 36, 30),
        (ENEMY, Kind::King, 60, 60),
    ]);
    let after = planned(&world);
    let queen = after
        .pieces_of(ME)
        .find(|p| p.kind == Kind::Queen)
        .expect("the queen is still there")
        .at;
    let mut next = after.clone();
    next.end_turn();
    let takes = next.legal_moves(ENEMY).iter().any(|m| m.to == queen);
    assert!(!takes, "the queen on {queen} is en prise");
}

#[test]
fn it_collects_an_adjacent_bonus_piece() {
    let world = world_with(&[
        (ME, Kind::King, 10, 10),
        (ME, Kind::Pawn, 12, 12),
        (0, Kind::Rook, 14, 14),
        (ENEMY, Kind::King, 60, 60),
    ]);
    let after = planned(&world);
    assert_eq!(after.piece_at(Coord::new(14, 14)).unwrap().owner, ME);
}

/// Pawns and knights far from every enemy king stay beside their own king (stragglers come
/// back), so that raiders find it sheltered; within range of an enemy king they head for it.
#[test]
fn slow_pieces_far_from_the_fight_stay_by_their_king() {
    let king = Coord::new(10, 10);
    let pawns = [(9, 11), (10, 11), (11, 11), (20, 20)];
    let knight = Coord::new(30, 30);
    let army = |enemy_king: Coord| {
        let mut pieces = vec![
            (ME, Kind::King, king.x, king.y),
            (ME, Kind::Knight, knight.x, knight.y),
        ];
        pieces.extend(pawns.iter().map(|&(x, y)| (ME, Kind::Pawn, x, y)));
        pieces.push((ENEMY, Kind::King, enemy_king.x, enemy_king.y));
        world_with(&pieces)
    };
    let squares_of = |world: &World, kind: Kind| -> Vec<Coord> {
        let mut squares: Vec<Coord> = world
            .pieces_of(ME)
            .filter(|p| p.kind == kind)
            .map(|p| p.at)
            .collect();
        squares.sort_by_key(|at| at.chebyshev(king));
        squares
    };

    let far = planned(&army(Coord::new(60, 60)));
    let pawns_after = squares_of(&far, Kind::Pawn);
    assert_eq!(pawns_after.len(), 4);
    let beside = pawns_after[..3].iter().all(|at| at.chebyshev(king) == 1);
    assert!(beside, "{pawns_after:?}");
    let straggler = pawns_after[3].chebyshev(king);
    assert!(straggler < 10, "the pawn stayed out: {pawns_after:?}");
    let knight_after = squares_of(&far, Kind::Knight);
    let home = knight_after[0].chebyshev(king) < knight.chebyshev(king);
    assert!(home, "the knight went from {knight} to {knight_after:?}");

    let enemy = Coord::new(20, 12);
    let near = planned(&army(enemy));
    let to_enemy = |squares: &[Coord]| squares.iter().map(|at| at.chebyshev(enemy)).sum::<u32>();
    let before: Vec<Coord> = pawns.iter().map(|&(x, y)| Coord::new(x, y)).collect();
    let after = squares_of(&near, Kind::Pawn);
    assert!(to_enemy(&after) < to_enemy(&before), "{after:?}");
}

#[test]
fn it_keeps_a_piece_from_fading() {
    let mut world = world_with(&[(ME, Kind::King, 5, 5), (ENEMY, Kind::King, 60, 60)]);
    // A rook far outside the kingdom with one turn of life left.
    world
        .place(ME, Kind::Rook, Coord::new(40, 5), true, false, Some(1))
        .unwrap();
    let mut after = planned(&world);
    after.end_turn();
    assert!(after.pieces_of(ME).any(|p| p.kind == Kind::Rook));
}

#[test]
fn it_answers_within_budget_for_200_pieces_among_1000() {
    let world = crowd_world(256, 256, 100, 100, 200, 1000, 3);
    let mut planner = MegachessPlanner::new();
    let budget = Duration::from_millis(1000);
    let started = Instant::now();
    let mut last = None;
    let plan = planner.plan_turn(
        &world,
        CROWD_ME,
        budget.into(),
        &AtomicBool::new(false),
        &mut |p| last = Some(p.clone()),
    );
    let elapsed = started.elapsed();
    let last = last.expect("progress was reported");
    println!(
        "200 among 1000: {} moves in {elapsed:?}, {} judged, score {}",
        plan.len(),
        last.evaluated,
        last.score
    );
    assert!(elapsed < budget, "{elapsed:?}");
    // How many moves fit depends on the build and the machine's load (the bench measures
    // the release figure); a debug build on a busy machine still plans some.
    assert!(!plan.is_empty(), "an empty plan");
    played(&world, CROWD_ME, &plan);
}

#[test]
fn it_stops_soon_after_stop() {
    let world = crowd_world(256, 256, 100, 100, 200, 1000, 5);
    let mut planner = MegachessPlanner::new();
    let started = Instant::now();
    let stop = AtomicBool::new(true);
    planner.plan_turn(
        &world,
        CROWD_ME,
        Duration::from_secs(30).into(),
        &stop,
        &mut |_| {},
    );
    assert!(started.elapsed() < Duration::from_millis(300));
}

/// The plan of a planner at `skill`, through the player's own entry point.
fn plan_at(world: &World, skill: u32) -> Vec<Move> {
    let mut planner = MegachessPlanner::new();
    planner
        .set_option(super::SKILL_LEVEL, &OptionValue::Spin(skill as i64))
        .unwrap();
    planner.plan_turn(
        world,
        ME,
        Duration::from_millis(200).into(),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

#[test]
fn a_low_skill_level_forgets_moves_but_never_a_king_and_stays_legal() {
    let mut world = world_with(&[]);
    let north = crate::rules::megachess::Facing::North;
    let south = crate::rules::megachess::Facing::South;
    world.spawn_army(ME, Coord::new(20, 20), north).unwrap();
    world.spawn_army(ENEMY, Coord::new(20, 30), south).unwrap();
    let (full, weak): (Vec<Move>, Vec<Move>) = (plan_at(&world, 20), plan_at(&world, 0));
    played(&world, ME, &full);
    played(&world, ME, &weak);
    assert!(
        weak.len() < full.len(),
        "level 0 moved {} pieces, level 20 {}",
        weak.len(),
        full.len()
    );
    // However weak, a free king is taken.
    let king = world_with(&[
        (ME, Kind::King, 5, 5),
        (ME, Kind::Rook, 30, 20),
        (ENEMY, Kind::King, 30, 25),
    ]);
    for skill in [0, 5, 10] {
        let after = played(&king, ME, &plan_at(&king, skill));
        assert_eq!(
            after.piece_at(Coord::new(30, 25)).unwrap().owner,
            ME,
            "{skill}"
        );
    }
    let mut planner = MegachessPlanner::new();
    assert!(planner
        .set_option("Skill Level", &OptionValue::Spin(21))
        .is_err());
    assert!(planner.set_option("Skill", &OptionValue::Spin(3)).is_err());
}

#[test]
fn limit_strength_maps_the_elo_onto_the_skill_level() {
    let mut planner = MegachessPlanner::new();
    planner
        .set_option("UCI_Elo", &OptionValue::Spin(1735))
        .unwrap();
    assert_eq!(planner.skill, MAX_SKILL);
    planner
        .set_option("uci_limitstrength", &OptionValue::Check(true))
        .unwrap();
    // (1735 - 1000) / 70 = 10.5, rounded.
    assert_eq!(planner.skill, 11);
    planner
        .set_option("Skill Level", &OptionValue::Spin(3))
        .unwrap();
    assert_eq!(planner.skill, 11);
    planner
        .set_option("UCI_LimitStrength", &OptionValue::Check(false))
        .unwrap();
    assert_eq!(planner.skill, 3);
    assert!(planner
        .set_option("UCI_Elo", &OptionValue::Spin(2401))
        .is_err());
    assert_eq!(planner.skill, 3);
}

#[test]
fn skill_seed_fixes_the_worlds_seed_and_zero_draws_one_per_world() {
    let mut planner = MegachessPlanner::new();
    assert!(planner
        .options()
        .iter()
        .any(|spec| spec.name == "Skill Seed"));
    planner
        .set_option("Skill Seed", &OptionValue::Spin(12345))
        .unwrap();
    assert_eq!(planner.world_seed, 12345);
    planner.new_game();
    assert_eq!(
        planner.world_seed, 12345,
        "a fixed seed stays for every world"
    );
    planner
        .set_option("skill seed", &OptionValue::Spin(0))
        .unwrap();
    let first = planner.world_seed;
    // The clock's nanoseconds differ between two draws (a loop bounded by the draws, not time).
    let drawn_again = (0..1000).any(|_| {
        planner.new_game();
        planner.world_seed != first
    });
    assert!(drawn_again, "seed 0 draws a new seed for a new world");
    assert!(planner
        .set_option("Skill Seed", &OptionValue::Spin(-1))
        .is_err());
    assert!(planner
        .set_option("Skill Seed", &OptionValue::Spin(2147483648))
        .is_err());
}

#[test]
fn the_whole_planner_keeps_its_king_out_of_a_two_move_net_within_its_budget() {
    // The net of `its_king_escapes_a_threat_that_needs_two_enemy_moves`, through `plan_turn`:
    // the play-outs of several plans must not lose what the plain plan keeps.
    let world = two_move_net();
    let mut planner = MegachessPlanner::new();
    planner
        .set_option("Skill Seed", &OptionValue::Spin(3))
        .unwrap();
    let budget = Duration::from_millis(200);
    let began = Instant::now();
    let plan = planner.plan_turn(
        &world,
        ME,
        budget.into(),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(began.elapsed() < budget, "{:?}", began.elapsed());
    let after = played(&world, ME, &plan);
    assert!(!king_falls_in_two(&after, ME), "{plan:?}");
}

/// The planner's turn and how many moves it judged, with `Skill Seed` 3 and `budget`.
fn seeded_turn(world: &World, budget: TurnBudget) -> (Vec<Move>, u64) {
    let mut planner = MegachessPlanner::new();
    planner
        .set_option("Skill Seed", &OptionValue::Spin(3))
        .unwrap();
    planner.new_game();
    let mut judged = 0;
    let plan = planner.plan_turn(world, ME, budget, &AtomicBool::new(false), &mut |p| {
        judged = judged.max(p.evaluated)
    });
    (plan, judged)
}

#[test]
fn a_turn_given_work_is_the_same_on_any_machine_and_grows_with_the_work() {
    // The two-move net: play-outs run, so the whole search spends its allowance.
    let world = two_move_net();
    let (small, small_judged) = seeded_turn(&world, TurnBudget::Work(20_000));
    assert_eq!(
        seeded_turn(&world, TurnBudget::Work(20_000)),
        (small.clone(), small_judged)
    );
    // The plain plan's share: a tiny allowance cuts it short, a large one lets it finish.
    let (_, tiny_judged) = seeded_turn(&world, TurnBudget::Work(8));
    assert!(
        tiny_judged > 0 && small_judged > tiny_judged,
        "{tiny_judged} {small_judged}"
    );
    let after = played(&world, ME, &small);
    assert!(!king_falls_in_two(&after, ME), "{small:?}");
}
