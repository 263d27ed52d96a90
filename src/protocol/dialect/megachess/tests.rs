//! Unit tests of the Megachess dialect, with private test players that behave (one legal move
//! per piece), are late, fail, or plan moves the rules refuse.

use super::*;
use crate::engine::megachess::{planning_budget, turn_movetime, watch_time};
use crate::plan::{PlanProgress, TurnBudget};
use crate::protocol::output::Captured;
use crate::rules::megachess::{Coord, MegachessParams, Move, PlayerId, World, WorldView};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Instant;

/// How late a thread may wake on a loaded machine (the integration tests allow the same).
const SCHEDULING: Duration = Duration::from_millis(500);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Behaviour {
    /// Moves each piece it can, once, reporting after each move.
    Good,
    /// Reports one move, then sleeps a second whatever `stop` says.
    Late,
    /// Reports one move, then waits for `stop` and returns nothing.
    UntilStop,
    /// Panics.
    Panics,
    /// Plans its good turn with an enemy king's square moved first, and a move twice.
    Illegal,
}

struct TestPlayer(Behaviour);

/// One legal move for each piece of `me` that has one, applied in order.
fn good_turn(world: &World, me: PlayerId) -> Vec<Move> {
    let mut board = world.clone();
    let mut moves = Vec::new();
    loop {
        let Some(mv) = board
            .legal_moves(me)
            .into_iter()
            .find(|mv| !moves.iter().any(|done: &Move| done.to == mv.from))
        else {
            return moves;
        };
        board.apply(me, mv).expect("a legal move applies");
        moves.push(mv);
    }
}

impl MegachessPlayer for TestPlayer {
    fn name(&self) -> String {
        "tester".into()
    }
    fn plan_turn(
        &mut self,
        world: &World,
        me: PlayerId,
        _budget: TurnBudget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&PlanProgress),
    ) -> Vec<Move> {
        let turn = good_turn(world, me);
        let report = |moves: &[Move], progress: &mut dyn FnMut(&PlanProgress)| {
            progress(&PlanProgress {
                iteration: 1,
                evaluated: moves.len() as u64,
                score: 7,
                moves: moves.to_vec(),
                ..PlanProgress::default()
            })
        };
        match self.0 {
            Behaviour::Good => {
                for done in 1..=turn.len() {
                    report(&turn[..done], progress);
                }
                turn
            }
            Behaviour::Late => {
                report(&turn[..1], progress);
                thread::sleep(Duration::from_secs(1));
                turn
            }
            Behaviour::UntilStop => {
                report(&turn[..1], progress);
                while !stop.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(1));
                }
                Vec::new()
            }
            Behaviour::Panics => panic!("the test player fails"),
            Behaviour::Illegal => {
                let mut moves = vec![Move::new(Coord::new(10, 10), Coord::new(10, 11))];
                moves.extend(turn.iter().copied());
                moves.push(turn[0]);
                moves
            }
        }
    }
}

/// Alabaster's player 1 (king, pawn, knight) against metal's player 2, alabaster to move.
const WORLD: &str = "size 16 16 turn 1 me 1 players 1:a 2:m pieces 1K3,3 1P3,4 1N1,1 2K10,10";

fn dialect(behaviour: Behaviour) -> (MegachessDialect, Output, Captured) {
    let captured = Captured::default();
    let out = Output::new(captured.clone());
    (
        MegachessDialect::new(Box::new(TestPlayer(behaviour))),
        out,
        captured,
    )
}

fn send(dialect: &mut MegachessDialect, out: &Output, line: &str) {
    dialect.handle_line(line, out).unwrap();
}

/// The moves of the last `bestturn` line, after checking that they apply in order.
fn checked_bestturn(lines: &[String], text: &str) -> Vec<Move> {
    let line = lines
        .iter()
        .rev()
        .find(|line| line.starts_with("bestturn"))
        .unwrap_or_else(|| panic!("no bestturn in {lines:#?}"));
    let view = WorldView::parse(text, &MegachessParams::default()).unwrap();
    let mut world = view.world;
    let moves: Vec<Move> = line
        .split(' ')
        .skip(1)
        .map(|text| Move::parse(text).unwrap())
        .collect();
    for &mv in &moves {
        world
            .apply(view.me, mv)
            .unwrap_or_else(|rejection| panic!("{line}: {mv} refused: {rejection}"));
    }
    moves
}

#[test]
fn a_turn_comes_within_movetime_with_progress_before_it() {
    let (mut dialect, out, captured) = dialect(Behaviour::Good);
    send(&mut dialect, &out, &format!("position megachess {WORLD}\n"));
    send(&mut dialect, &out, "go movetime 500");
    dialect.finish();
    let lines = captured.lines();
    let moves = checked_bestturn(&lines, WORLD);
    assert_eq!(moves.len(), 3, "{lines:#?}");
    assert!(lines[0].starts_with("info time "), "{lines:#?}");
    let last_info = &lines[lines.len() - 2];
    assert!(
        last_info.contains(" iteration 1 evaluated 3 score 7 moves 3 pv "),
        "{last_info}"
    );
}

#[test]
fn a_late_player_is_answered_for_with_its_best_so_far() {
    let (mut dialect, out, captured) = dialect(Behaviour::Late);
    send(&mut dialect, &out, &format!("position megachess {WORLD}"));
    let started = Instant::now();
    send(&mut dialect, &out, "go movetime 100");
    while !captured
        .lines()
        .iter()
        .any(|line| line.starts_with("bestturn"))
    {
        assert!(started.elapsed() < Duration::from_secs(2));
        thread::sleep(Duration::from_millis(1));
    }
    // The watch answered, not the player (which sleeps a whole second). The watch's own
    // deadline is the movetime; on a busy machine its thread may wake a little late, so the
    // test allows the scheduling delay a loaded machine adds and no more.
    let took = started.elapsed();
    assert!(took < Duration::from_millis(100) + SCHEDULING, "{took:?}");
    let lines = captured.lines();
    assert!(
        lines.contains(
            &"info string tester did not finish within 100 ms; answering its best turn so far"
                .into()
        ),
        "{lines:#?}"
    );
    assert_eq!(checked_bestturn(&lines, WORLD).len(), 1);
    // The next `go` waits for nothing: its watch answers it too.
    send(&mut dialect, &out, "go movetime 50");
    dialect.finish();
    assert_eq!(
        captured
            .lines()
            .iter()
            .filter(|line| line.starts_with("bestturn"))
            .count(),
        2
    );
}

#[test]
fn stop_ends_an_infinite_plan_and_a_second_go_is_refused_meanwhile() {
    let (mut dialect, out, captured) = dialect(Behaviour::UntilStop);
    send(&mut dialect, &out, &format!("position megachess {WORLD}"));
    send(&mut dialect, &out, "go infinite");
    // The player has reported its one move: the plan is under way.
    let started = Instant::now();
    while !captured
        .lines()
        .iter()
        .any(|line| line.starts_with("info ") && !line.starts_with("info string"))
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no progress reported"
        );
        thread::sleep(Duration::from_millis(1));
    }
    send(&mut dialect, &out, "go movetime 10");
    assert!(!captured
        .lines()
        .iter()
        .any(|line| line.starts_with("bestturn")));
    send(&mut dialect, &out, "stop");
    let lines = captured.lines();
    assert!(lines.contains(
        &"info string error: go: a plan is already running; send 'stop' first".to_string()
    ));
    // The player returned nothing after `stop`: its plan, not the best so far, is the answer.
    assert_eq!(lines.last().unwrap(), "bestturn", "{lines:#?}");
    send(&mut dialect, &out, "stop");
    assert_eq!(captured.lines().len(), lines.len());
}

#[test]
fn a_failing_player_and_refused_moves_never_reach_the_server() {
    // A long movetime: printing the panic's backtrace may be slow on a loaded machine.
    let (mut dialect, out, captured) = dialect(Behaviour::Panics);
    send(&mut dialect, &out, &format!("position megachess {WORLD}"));
    send(&mut dialect, &out, "go movetime 60000");
    dialect.finish();
    let lines = captured.lines();
    assert!(
        lines[0].starts_with("info string error: tester failed while planning for player 1"),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "bestturn");

    let (mut dialect, out, captured) = super::tests::dialect(Behaviour::Illegal);
    send(&mut dialect, &out, &format!("position megachess {WORLD}"));
    send(&mut dialect, &out, "go movetime 1000");
    dialect.finish();
    let lines = captured.lines();
    let error = lines
        .iter()
        .find(|line| line.starts_with("info string error: tester planned moves the rules refuse"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(error.contains("move 1 10,10-10,11: "), "{error}");
    assert!(error.contains("move 5 "), "{error}");
    assert_eq!(checked_bestturn(&lines, WORLD).len(), 3);
}

#[test]
fn a_bad_position_keeps_the_last_world_and_parameters_read_it_again() {
    let (mut dialect, out, captured) = dialect(Behaviour::Good);
    send(&mut dialect, &out, "go movetime 10");
    send(&mut dialect, &out, &format!("position megachess {WORLD}"));
    let before = dialect.display();
    for bad in [
        "size 16 16 turn 1 me 1 players 1:a 2:m pieces 1K3,3 1P3,3",
        "size 16 16 turn 1 me 1 players 1:a pieces 1K3,3 3P3,4",
        "size 0 16 turn 1 me 1 players 1:a pieces 1K3,3",
        "size 16 16 turn 0 me 1 players 1:a pieces 1K3,3",
        "size 16 16 turn 9223372036854775808 me 1 players 1:a pieces 1K3,3",
        "size 16 16 turn 1 me 1 players 1:a pieces 1K03,3",
        "garbage",
    ] {
        send(&mut dialect, &out, &format!("position megachess {bad}"));
        assert_eq!(dialect.display(), before);
    }
    let lines = captured.lines();
    assert_eq!(lines.len(), 8, "{lines:#?}");
    assert!(lines[0].starts_with("info string error: go: no world yet"));
    for line in &lines[1..] {
        assert!(
            line.starts_with("info string error: position: ")
                && line.ends_with("; the world is unchanged"),
            "{line}"
        );
    }
    // A parameter reads the last world again; a world that no longer reads is forgotten.
    assert_eq!(dialect.set_option("kingdom_radius", Some("3")), Ok(None));
    assert_eq!(dialect.engine.params().kingdom_radius, 3);
    assert_eq!(dialect.display(), before);
    let refused = dialect.set_option("rank_pawn", Some("-1")).unwrap_err();
    assert!(refused.contains("rank_pawn"), "{refused}");
    send(
        &mut dialect,
        &out,
        "position megachess size 8 8 turn 1 me 1 players 1:a pieces 1K0,0 1P3,3.m/3",
    );
    assert_eq!(
        dialect.set_option("fade_per_rank", Some("0")),
        Ok(Some(
            "fade_per_rank 0: the last world does not read under it (piece '1P3,3.m/3': life 3 \
             is outside 1..=2), so it is forgotten; send a new 'position megachess ...'"
                .into()
        ))
    );
    assert!(dialect.display().starts_with("World: none yet"));
}

#[test]
fn d_draws_the_window_and_prints_the_position_line() {
    let (mut dialect, out, _) = dialect(Behaviour::Good);
    assert!(dialect.display().starts_with("World: none yet"));
    send(&mut dialect, &out, &format!("position megachess {WORLD}"));
    let shown = dialect.display();
    let lines: Vec<&str> = shown.lines().collect();
    assert!(
        lines[0].starts_with("World: size 16 16 turn 1 (alabaster to move), me 1 (alabaster)"),
        "{shown}"
    );
    assert!(lines.contains(&"Window: x 0..5, y 0..6 (6 x 7), 2 squares around the army"));
    assert!(lines.contains(&". . . P*. . 4"), "{shown}");
    assert!(lines.contains(&". N*. . . . 1"), "{shown}");
    let position = lines.last().unwrap().strip_prefix("Position: ").unwrap();
    let again = position.strip_prefix("position megachess ").unwrap();
    let reread = WorldView::parse(again, &MegachessParams::default()).unwrap();
    assert_eq!(reread.world.piece_count(), 4);
}

#[test]
fn budgets_leave_room_for_the_answer() {
    let ms = Duration::from_millis;
    assert_eq!(planning_budget(ms(100)), ms(75));
    assert_eq!(planning_budget(ms(25_000)), ms(24_975));
    assert_eq!(watch_time(ms(100)), ms(90));
    assert_eq!(watch_time(ms(20)), ms(16));
    assert_eq!(turn_movetime(25_000), ms(22_500));
    assert_eq!(bestturn_line(&[]), "bestturn");
}

#[test]
fn go_infinite_holds_a_finished_plan_until_stop() {
    let (mut dialect, out, captured) = dialect(Behaviour::Good);
    send(&mut dialect, &out, &format!("position megachess {WORLD}"));
    send(&mut dialect, &out, "go infinite");
    // The plan is finished and held: no answer until `stop`.
    dialect.engine.settle();
    assert!(
        dialect.engine.is_thinking(),
        "a held plan still waits for its answer"
    );
    assert!(!captured
        .lines()
        .iter()
        .any(|line| line.starts_with("bestturn")));
    send(&mut dialect, &out, "stop");
    assert_eq!(checked_bestturn(&captured.lines(), WORLD).len(), 3);
    // The end of the input stops it too.
    send(&mut dialect, &out, "go infinite");
    dialect.finish();
    let answers = captured.lines();
    assert_eq!(
        answers
            .iter()
            .filter(|line| line.starts_with("bestturn"))
            .count(),
        2
    );
}
