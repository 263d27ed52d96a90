//! Roger's Megachess planner against the reference players, in in-process worlds
//! ([`play_world`]: every player of the team to move is asked in turn, the world waits while it
//! plans, each answer within `movetime`).
//!
//! `cargo test --release --test suite megachess_strength::` plays one short greedy-against-random world.
//! The measurements (1 v 1 against greedy and against random, 50 worlds each: king
//! captured first; 8 v 8 team worlds against greedy's team, 20 worlds: the higher score) are
//! `cargo test --release --test suite megachess_strength:: -- --ignored --nocapture --test-threads 1`
//! (`ROGER_MC_WORLDS=n` for another number of worlds per match, `ROGER_MC_MOVETIME=ms` for
//! another budget, `ROGER_MC_LAYOUT=ring:30` for another spawn layout; the default is
//! `facing:16`, 200 turns, 100 ms, the rules page's parameters).

use roger::arena::referee::world::{play_world, Layout, WorldRecord, WorldSetup};
use roger::plan::megachess::MegachessPlanner;
use roger::plan::MegachessPlayer;
use roger::players::megachess::{GreedyMegachessPlayer, RandomMegachessPlayer};
use roger::rules::megachess::MegachessParams;
use std::time::{Duration, Instant};

/// Roger's turn planner.
fn roger_player() -> Box<dyn MegachessPlayer> {
    Box::new(MegachessPlanner::new())
}

#[derive(Clone, Copy, Debug)]
enum Opponent {
    Greedy,
    Random,
}

impl Opponent {
    fn player(self, seed: u64) -> Box<dyn MegachessPlayer> {
        match self {
            Opponent::Greedy => Box::new(GreedyMegachessPlayer::new(seed)),
            Opponent::Random => Box::new(RandomMegachessPlayer::new(seed)),
        }
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// The spawn layout: `ROGER_MC_LAYOUT` (`facing:16`, `ring:24`, `scatter`), else facing
/// across 16 ranks.
fn layout() -> Layout {
    std::env::var("ROGER_MC_LAYOUT")
        .ok()
        .and_then(|text| Layout::parse(&text).ok())
        .unwrap_or(Layout::Facing { gap: 16 })
}

fn movetime() -> Duration {
    Duration::from_millis(env_number("ROGER_MC_MOVETIME", 100))
}

/// A world of two seats facing each other across `gap` ranks, the defaults of the rules page
/// otherwise.
fn setup(
    seed: u64,
    width: u32,
    height: u32,
    players_per_seat: usize,
    max_turns: u64,
) -> WorldSetup {
    WorldSetup {
        params: MegachessParams {
            width,
            height,
            ..MegachessParams::default()
        },
        seed,
        seats: 2,
        players_per_seat,
        layout: layout(),
        max_turns,
        window_margin: None,
    }
}

#[derive(Debug, Default)]
struct MatchResult {
    worlds: u32,
    /// Worlds where Roger's seat captured the first king, and where the other did.
    first_king: u32,
    first_king_lost: u32,
    /// Worlds Roger's seat scored more, and less.
    scored_more: u32,
    scored_less: u32,
    points: f64,
    turns: u64,
    slowest_ms: u64,
    late_turns: u64,
    rejected: u64,
    opponent_rejected: u64,
    wall: Duration,
}

impl MatchResult {
    fn add(&mut self, record: &WorldRecord, roger_seat: usize) {
        let other = 1 - roger_seat;
        let (mine, theirs) = (&record.seats[roger_seat], &record.seats[other]);
        self.worlds += 1;
        match record.first_king_capture_seat() {
            Some(seat) if seat == roger_seat => self.first_king += 1,
            Some(_) => self.first_king_lost += 1,
            None => {}
        }
        self.scored_more += u32::from(mine.score > theirs.score);
        self.scored_less += u32::from(mine.score < theirs.score);
        self.points += record.points[roger_seat];
        self.turns += record.turns;
        self.slowest_ms = self.slowest_ms.max(mine.plan_ms_max);
        self.late_turns += mine.late_turns;
        self.rejected += mine.rejected;
        self.opponent_rejected += theirs.rejected;
    }

    fn percent(&self, count: u32) -> f64 {
        100.0 * count as f64 / self.worlds.max(1) as f64
    }

    fn print(&self, title: &str) {
        println!(
            "{title}: {} worlds in {:.1} s; Roger captured the first king in {} ({:.0}%), lost \
             the first king in {}; scored more in {} ({:.0}%), less in {}; points {:.1}; \
             {:.0} turns a world; slowest answer {} ms, late turns {}, rejected moves {} \
             (opponent {})",
            self.worlds,
            self.wall.as_secs_f64(),
            self.first_king,
            self.percent(self.first_king),
            self.first_king_lost,
            self.scored_more,
            self.percent(self.scored_more),
            self.scored_less,
            self.points,
            self.turns as f64 / self.worlds.max(1) as f64,
            self.slowest_ms,
            self.late_turns,
            self.rejected,
            self.opponent_rejected,
        );
    }
}

/// Roger against `opponent` in `worlds` worlds made by `setup_of(seed)`, Roger's seat
/// alternating (seat 0 is alabaster and moves first).
fn play_match(
    opponent: Opponent,
    worlds: u64,
    setup_of: impl Fn(u64) -> WorldSetup,
) -> MatchResult {
    let began = Instant::now();
    let mut result = MatchResult::default();
    for world in 0..worlds {
        let seed = 1000 + world;
        let setup = setup_of(seed);
        let mut roger = roger_player();
        let mut other = opponent.player(seed);
        let roger_seat = (world % 2) as usize;
        let record = if roger_seat == 0 {
            play_world(&setup, &mut [roger.as_mut(), other.as_mut()], movetime())
        } else {
            play_world(&setup, &mut [other.as_mut(), roger.as_mut()], movetime())
        }
        .expect("the setup is valid");
        result.add(&record, roger_seat);
    }
    result.wall = began.elapsed();
    result
}

#[test]
fn greedy_against_random_in_a_short_world() {
    let setup = WorldSetup {
        layout: Layout::Facing { gap: 4 },
        ..setup(7, 32, 24, 1, 60)
    };
    let mut greedy = GreedyMegachessPlayer::new(7);
    let mut random = RandomMegachessPlayer::new(7);
    let record = play_world(&setup, &mut [&mut greedy, &mut random], movetime()).unwrap();
    assert!(record.turns <= 60);
    assert!(
        record.end == "team-left" || record.end == "max-turns",
        "{}",
        record.end
    );
    assert!(record.rejections.is_empty(), "{:?}", record.rejections);
    assert!(record
        .seats
        .iter()
        .all(|seat| seat.moves > 0 && seat.late_turns == 0));
    assert!(
        record.seats[0].score > record.seats[1].score,
        "greedy outscores random: {:?}",
        record.seats
    );
}

#[test]
#[ignore = "measurement: minutes of planning"]
fn one_against_one_against_greedy() {
    let worlds = env_number("ROGER_MC_WORLDS", 50);
    let result = play_match(Opponent::Greedy, worlds, |seed| setup(seed, 64, 64, 1, 200));
    result.print(&format!(
        "1 v 1 against greedy (64 x 64, {}, 200 turns)",
        layout()
    ));
}

#[test]
#[ignore = "measurement: minutes of planning"]
fn one_against_one_against_random() {
    let worlds = env_number("ROGER_MC_WORLDS", 50);
    let result = play_match(Opponent::Random, worlds, |seed| setup(seed, 64, 64, 1, 200));
    result.print(&format!(
        "1 v 1 against random (64 x 64, {}, 200 turns)",
        layout()
    ));
}

#[test]
#[ignore = "measurement: many minutes of planning"]
fn eight_against_eight_against_greedy() {
    let worlds = env_number("ROGER_MC_WORLDS", 20);
    let result = play_match(Opponent::Greedy, worlds, |seed| setup(seed, 96, 96, 8, 200));
    result.print(&format!(
        "8 v 8 against greedy's team (96 x 96, {}, 200 turns)",
        layout()
    ));
}
