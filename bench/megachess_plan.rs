//! Criterion benchmark of Roger's Megachess turn planner: one turn for an army of 200 pieces
//! among 1,000 enemy pieces, with a 1 s budget (the time it actually takes is what is measured),
//! and the same crowd on a 256-wide and on a 1,000,000-wide board (the planner works in a window
//! around its army, so the two should take the same time).

use criterion::{criterion_group, criterion_main, Criterion};
use roger::plan::megachess::crowd::{crowd_world, CROWD_ME};
use roger::plan::megachess::MegachessPlanner;
use roger::plan::MegachessPlayer;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const BUDGET: Duration = Duration::from_millis(1000);

fn plan_once(planner: &mut MegachessPlanner, world: &roger::rules::megachess::World) -> usize {
    let stop = AtomicBool::new(false);
    planner
        .plan_turn(world, CROWD_ME, BUDGET.into(), &stop, &mut |_| {})
        .len()
}

fn turn_200_among_1000(c: &mut Criterion) {
    let small = crowd_world(256, 256, 100, 100, 200, 1000, 11);
    let huge = crowd_world(1_000_000, 1_000_000, 700_000, 300_000, 200, 1000, 11);
    let mut planner = MegachessPlanner::new();
    // One plan each, timed by hand, so a short run still prints the ratio.
    let started = Instant::now();
    let moves_small = plan_once(&mut planner, &small);
    let small_time = started.elapsed();
    let started = Instant::now();
    let moves_huge = plan_once(&mut planner, &huge);
    let huge_time = started.elapsed();
    println!(
        "one turn, 200 own among 1000 enemy: 256-wide {small_time:?} ({moves_small} moves), \
         1,000,000-wide {huge_time:?} ({moves_huge} moves), ratio {:.2}",
        huge_time.as_secs_f64() / small_time.as_secs_f64()
    );
    let mut group = c.benchmark_group("megachess_plan");
    group.sample_size(10);
    group.bench_function("turn_200_among_1000_board_256", |b| {
        b.iter(|| black_box(plan_once(&mut planner, &small)))
    });
    group.bench_function("turn_200_among_1000_board_1000000", |b| {
        b.iter(|| black_box(plan_once(&mut planner, &huge)))
    });
    group.finish();
}

criterion_group!(benches, turn_200_among_1000);
criterion_main!(benches);
