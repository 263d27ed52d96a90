//! The realtime planner's one-step judgement of a state for a side: now, waiting a poll, and each
//! order started now and judged a poll later (the best fifteen), as the planner ranks them before
//! its play-outs (without its check of a mover struck on its way).
//!
//! `cargo run --release --example rtjudge -- "STATE" w|b`
use roger::plan::realtime::{eval, started};
use roger::rules::realtime::{Color, RealtimeParams, RealtimeState};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let state = RealtimeState::from_text(&args[1], RealtimeParams::default()).unwrap();
    let side = if args[2] == "w" {
        Color::White
    } else {
        Color::Black
    };
    let reaction = 100;
    let after = |order| {
        let next = started(&state, side, order, reaction)?;
        Some(eval::evaluate(&next, side, reaction))
    };
    println!("now {}", eval::evaluate(&state, side, reaction));
    println!("waiting {:?}", after(None));
    let mut all: Vec<_> = state
        .orders(side)
        .into_iter()
        .filter_map(|o| after(Some(o)).map(|s| (s, o)))
        .collect();
    all.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    for (s, o) in all.iter().take(15) {
        println!("{s} {o}");
    }
}
