//! Megachess worlds through `roger arena --variant megachess`: `roger play` processes in 1 v 1
//! and team worlds, an engine that sends bad moves, answers late or crashes (a Python script,
//! tests/arena/fake_megachess.py, that reads the position line on its own), the `--svg`
//! picture, and the flags' errors.

use roger::arena::cli::{parse_arena_args, ArenaCommand, ArenaSettings};
use roger::arena::referee::world::{Layout, WorldRecord};
use roger::arena::referee::SessionRecord;
use serde_json::Value;
use std::time::Duration;

/// The world records of a report's games.
fn records(report: &Value) -> Vec<WorldRecord> {
    super::games(report)
        .iter()
        .map(
            |game| match serde_json::from_value(game["record"].clone()) {
                Ok(SessionRecord::World(record)) => record,
                other => panic!("not a world record: {other:?} in {game}"),
            },
        )
        .collect()
}

/// A small, fast world: a 32 x 32 board, few turns, 20 ms a turn (and a margin generous
/// enough for a loaded machine).
const SMALL_WORLD: [&str; 12] = [
    "--variant",
    "megachess",
    "--size",
    "32",
    "32",
    "--turns",
    "12",
    "--timemargin",
    "1500",
    "--each",
    "st=0.02",
    "--seed",
];

fn fake_engine() -> String {
    format!(
        "{}/tests/arena/fake_megachess.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Checks what every played world must hold: points of a sound result, seats of both teams,
/// every seat's players, the final pieces.
fn check_world(game: &Value, record: &WorldRecord, players_per_seat: usize) {
    assert_eq!(record.seats.len(), 2, "{game}");
    assert_eq!(record.seats[0].team, "alabaster");
    assert_eq!(record.seats[1].team, "metal");
    let total: f64 = record.points.iter().sum();
    assert!((total - 1.0).abs() < 1e-9, "{:?}", record.points);
    let points: Vec<f64> = serde_json::from_value(game["points"].clone()).unwrap();
    assert_eq!(points, record.points);
    for seat in &record.seats {
        assert_eq!(seat.players.len(), players_per_seat, "{seat:?}");
    }
    assert!(record.turns >= 1 && record.turns <= record.setup.max_turns);
    assert!(!record.final_pieces.is_empty());
    assert_eq!(record.setup.players_per_seat, players_per_seat);
}

#[test]
fn a_one_v_one_world_between_roger_play_processes() {
    let mut args = SMALL_WORLD.to_vec();
    args.extend([
        "5",
        "--engine",
        "cmd=roger",
        "name=greedy",
        "args=play greedy",
        "--engine",
        "cmd=roger",
        "name=random",
        "args=play random",
        "--games",
        "2",
    ]);
    let report = super::tournament("megachess-1v1", &args);
    assert_eq!(report["settings"]["world"]["players_per_seat"], 1);
    assert!(
        report["summary"]["world"].is_array(),
        "{}",
        report["summary"]
    );
    let games = super::games(&report);
    assert_eq!(games.len(), 2);
    for (game, record) in games.iter().zip(records(&report)) {
        check_world(game, &record, 1);
        let termination = game["termination"].as_str().unwrap();
        assert!(["game_rule", "max_turns"].contains(&termination), "{game}");
        for seat in &record.seats {
            assert!(seat.moves > 0, "{seat:?}");
            assert_eq!(
                seat.rejected, 0,
                "the reference players move legally: {record:?}"
            );
        }
    }
    // Both games of the pair play the same world with the seats swapped.
    let records = records(&report);
    assert_eq!(records[0].setup.seed, records[1].setup.seed);
}

#[test]
fn worlds_at_a_number_of_moves_judged_replay_exactly() {
    // `nodes=`: each turn judges that many moves however loaded the machine is, so with a
    // fixed `Skill Seed` the planner plays the same worlds again, move for move; and no seat
    // is on a clock, so neither can be late in one run and on time in the other.
    let play = |name: &str| {
        let args = [
            "--variant",
            "megachess",
            "--size",
            "32",
            "32",
            "--turns",
            "10",
            "--layout",
            "scatter",
            "--seed",
            "9",
            "--engine",
            "cmd=roger",
            "name=roger",
            "nodes=3000",
            "option.Skill Seed=5",
            "--engine",
            "cmd=roger",
            "name=guard",
            "args=play guard --variant megachess",
            // The guard ignores its budget, but on a clock a loaded machine could make it late
            // in one run and not the other: given work instead, it is waited for too.
            "nodes=1",
            "--games",
            "2",
        ];
        let report = super::tournament(name, &args);
        // Roger's seat in each game, by the names the report gives the seats.
        let roger_seats: Vec<usize> = super::games(&report)
            .iter()
            .map(|game| {
                let names = game["names"].as_array().expect("names");
                names
                    .iter()
                    .position(|n| n == "roger")
                    .expect("roger plays")
            })
            .collect();
        (records(&report), roger_seats)
    };
    let ((first, roger_seats), (second, _)) =
        (play("megachess-nodes-1"), play("megachess-nodes-2"));
    assert_eq!(first.len(), 2);
    // Roger moves in at least one world (it may wait out a whole short world far from the enemy).
    assert!(
        first
            .iter()
            .zip(&roger_seats)
            .any(|(a, &r)| a.seats[r].moves > 0),
        "{first:?}"
    );
    for (a, b) in first.iter().zip(&second) {
        assert!(a.seats.iter().all(|s| s.late_turns == 0), "{a:?}");
        assert_eq!(
            serde_json::to_value(&a.final_pieces).unwrap(),
            serde_json::to_value(&b.final_pieces).unwrap()
        );
        assert_eq!((a.turns, &a.end), (b.turns, &b.end));
    }
}

#[test]
fn a_team_world_of_four_players_per_seat() {
    let mut args = SMALL_WORLD.to_vec();
    args.extend([
        "6",
        "--size",
        "64",
        "48",
        "--players-per-seat",
        "4",
        "--turns",
        "6",
        // The built-in players in-process, as a server would run its bots.
        "--engine",
        "cmd=roger",
        "args=play greedy",
        "inprocess=true",
        "--engine",
        "cmd=roger",
        "args=play random",
        "inprocess=true",
        "--games",
        "1",
    ]);
    let report = super::tournament("megachess-team", &args);
    let games = super::games(&report);
    let records = records(&report);
    assert_eq!(records.len(), 1);
    check_world(&games[0], &records[0], 4);
    let ids: Vec<u32> = records[0]
        .seats
        .iter()
        .flat_map(|seat| seat.players.clone())
        .collect();
    assert_eq!(ids, (1..=8).collect::<Vec<u32>>(), "every player once");
}

#[test]
fn bad_moves_are_rejected_one_by_one_and_the_legal_ones_stand() {
    let fake = fake_engine();
    let fake_args = format!("args={fake} bad");
    let mut args = SMALL_WORLD.to_vec();
    args[8] = "200"; // the margin: the fake's late answers are 600 ms late
    args.extend([
        "7",
        "--turns",
        "8",
        "--engine",
        "cmd=python3",
        "name=fake",
        &fake_args,
        "--engine",
        "cmd=roger",
        "name=random",
        "args=play random",
        "--games",
        "1",
    ]);
    let report = super::tournament("megachess-bad", &args);
    let record = &records(&report)[0];
    let game = &super::games(&report)[0];
    check_world(game, record, 1);
    assert_eq!(
        game["termination"], "max_turns",
        "nothing ends the world early"
    );
    let fake = &record.seats[0];
    // Four answers (turns 1, 3, 5, 7): the third came late; each of the others had one legal
    // pawn step and the bad moves after it.
    assert_eq!(fake.late_turns, 1, "{record:?}");
    assert_eq!(fake.moves, 3, "the legal moves stand: {record:?}");
    let reasons = |name: &str| {
        record
            .rejections
            .iter()
            .filter(|r| r.seat == 0 && r.rejection == name)
            .count()
    };
    assert_eq!(reasons("garbage"), 3, "{:?}", record.rejections);
    assert_eq!(reasons("already-moved"), 3, "{:?}", record.rejections);
    assert_eq!(reasons("not-your-piece"), 3, "{:?}", record.rejections);
    assert_eq!(reasons("off-board"), 3, "{:?}", record.rejections);
    assert_eq!(reasons("late"), 1, "{:?}", record.rejections);
    for rejection in record.rejections.iter().filter(|r| r.rejection != "late") {
        assert!(!rejection.reason.is_empty() && !rejection.mv.is_empty());
    }
    assert_eq!(record.seats[1].rejected, 0);
}

#[test]
fn a_team_whose_engine_crashed_loses_the_world_there() {
    let fake = fake_engine();
    let fake_args = format!("args={fake} crash 3");
    let mut args = SMALL_WORLD.to_vec();
    args.extend([
        "8",
        "--turns",
        "10",
        "--engine",
        "cmd=roger",
        "name=random",
        "args=play random",
        "--engine",
        "cmd=python3",
        "name=fake",
        &fake_args,
        "--games",
        "1",
    ]);
    let report = super::tournament("megachess-crash", &args);
    let record = &records(&report)[0];
    let game = &super::games(&report)[0];
    assert_eq!(game["termination"], "crash", "{game}");
    let detail = game["detail"].as_str().unwrap();
    assert!(detail.contains("seat 2 (metal) crashed"), "{detail}");
    assert!(detail.contains("metal has no engine left"), "{detail}");
    // It moved in its first two turns; at its third the whole of its team was gone, and the
    // world ended there, won by the other team.
    assert_eq!(record.end, "team-faulted");
    assert_eq!(record.points, vec![1.0, 0.0]);
    assert_eq!(record.winner.as_deref(), Some("alabaster"));
    assert_eq!(record.seats[1].moves, 2, "{record:?}");
    assert!(record.seats[1].pieces_left > 0, "its pieces stayed");
    assert!(record.turns <= 6, "the world ended early: {record:?}");
    assert!(record.seats[0].moves > 0);
}

#[test]
fn an_engine_that_never_answers_is_unresponsive_and_its_team_loses() {
    let fake = fake_engine();
    let fake_args = format!("args={fake} hang 2");
    let mut args = SMALL_WORLD.to_vec();
    args[8] = "100"; // the margin
    args.extend([
        "11",
        "--engine",
        "cmd=python3",
        "name=fake",
        &fake_args,
        "--engine",
        "cmd=roger",
        "name=random",
        "args=play random",
        "--games",
        "1",
    ]);
    let report = super::tournament("megachess-hang", &args);
    let record = &records(&report)[0];
    let game = &super::games(&report)[0];
    assert_eq!(game["termination"], "unresponsive", "{game}");
    let detail = game["detail"].as_str().unwrap();
    assert!(
        detail.contains("seat 1 (alabaster) did not answer"),
        "{detail}"
    );
    assert_eq!(record.end, "team-faulted");
    assert_eq!(record.points, vec![0.0, 1.0]);
    assert_eq!(
        record.seats[0].moves, 1,
        "its first answer stands: {record:?}"
    );
}

/// A minimal well-formedness check: every tag closed in order, attributes quoted.
fn assert_well_formed(xml: &str) {
    let body = xml
        .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .expect("an XML declaration");
    let mut open: Vec<String> = Vec::new();
    let mut rest = body;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        assert!(!text.contains('>'), "a stray '>' in {text:?}");
        let end = rest[start..].find('>').expect("a tag ends") + start;
        let tag = &rest[start + 1..end];
        assert!(!tag.contains('<'), "a '<' inside the tag {tag:?}");
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in {tag:?}"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name), "closing {name}");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap().to_string();
            open.push(name);
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "left open: {open:?}");
    assert!(rest.trim().is_empty());
}

#[test]
fn svg_pictures_of_the_final_worlds() {
    let svg = super::scratch("megachess.svg");
    let svg_text = svg.display().to_string();
    let mut args = SMALL_WORLD.to_vec();
    args.extend([
        "9",
        "--turns",
        "4",
        "--svg",
        &svg_text,
        "--engine",
        "cmd=roger",
        "args=play greedy",
        "--engine",
        "cmd=roger",
        "args=play random",
        "--games",
        "2",
    ]);
    let report = super::tournament("megachess-svg", &args);
    let records = records(&report);
    // Two worlds: one picture each, numbered.
    for (index, record) in records.iter().enumerate() {
        let path = svg.with_file_name(format!(
            "{}-{}.svg",
            svg.file_stem().unwrap().to_string_lossy(),
            index + 1
        ));
        let picture = std::fs::read_to_string(&path).expect("the picture");
        std::fs::remove_file(&path).unwrap();
        assert_well_formed(&picture);
        assert!(picture.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        // One disc per piece, kings ringed in gold.
        let discs = picture.matches("<circle").count();
        let kings = record.final_pieces.iter().filter(|p| p.kind == "K").count();
        assert_eq!(
            discs,
            record.final_pieces.len() + kings,
            "discs and kingdoms"
        );
        assert_eq!(picture.matches("stroke=\"#d4a017\"").count(), kings);
        assert!(picture.contains("seat 1") && picture.contains("seat 2"));
    }
    assert!(!svg.exists(), "several worlds are numbered");
}

fn settings(line: &str) -> ArenaSettings {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    match parse_arena_args(&args) {
        Ok(ArenaCommand::Run(settings)) => *settings,
        Ok(_) => panic!("{line}: not a tournament"),
        Err(error) => panic!("{line}: {error}"),
    }
}

fn error(line: &str) -> String {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    parse_arena_args(&args).expect_err(line)
}

#[test]
fn the_megachess_flags_of_roger_arena() {
    let two = "--engine cmd=roger --engine cmd=roger st=0.25";
    let s = settings(&format!(
        "--variant megachess {two} --size 200 160 --players-per-seat 8 --layout ring:50 \
         --turns 50 --window 12 --param kingdom_radius=10 bonus_every=0 --fade-base 3 \
         --seed 4"
    ));
    let world = &s.referee.world;
    assert_eq!((world.params.width, world.params.height), (200, 160));
    assert_eq!(
        (world.params.kingdom_radius, world.params.bonus_every),
        (10, 0)
    );
    assert_eq!(world.params.fade_base, 3);
    assert_eq!(world.players_per_seat, 8);
    assert_eq!(world.layout, Layout::Ring { radius: 50 });
    assert_eq!((world.max_turns, world.window_margin), (50, Some(12)));
    assert_eq!(world.seed, 4);
    assert_eq!(s.engines[0].limits.movetime, None, "the referee's default");
    assert_eq!(
        s.engines[1].limits.movetime,
        Some(Duration::from_millis(250))
    );
    let gap = settings(&format!("--variant megachess {two} --gap 5"));
    assert_eq!(gap.referee.world.layout, Layout::Facing { gap: 5 });
    let cases = [
        (
            format!("{two} --size 40 40"),
            "--size is for --variant megachess",
        ),
        (
            format!("{two} --kingdom-radius 4"),
            "--kingdom-radius is for --variant megachess",
        ),
        (
            format!("--variant megachess {two} tc=1"),
            "Megachess engines take st=",
        ),
        (
            format!("--variant megachess {two} st=0.1 nodes=500"),
            "give st= or nodes=, not both",
        ),
        (format!("--variant megachess {two} --size 40"), "two values"),
        (format!("--variant megachess {two} --size 0 40"), "width"),
        (
            format!("--variant megachess {two} --param colour=red"),
            "unknown parameter 'colour'",
        ),
        (
            format!("--variant megachess {two} --param kingdom_radius"),
            "not NAME=VALUE",
        ),
        (
            format!("--variant megachess {two} --kingdom-radius many"),
            "--kingdom-radius: 'many' is not a valid number",
        ),
        (
            format!("--variant megachess {two} --players-per-seat 0"),
            "--players-per-seat",
        ),
        (format!("--variant megachess {two} --turns 0"), "--turns"),
        (
            format!("--variant megachess {two} --layout hexagon"),
            "--layout",
        ),
        (
            format!("--variant megachess {two} --layout scatter --gap 3"),
            "--gap: not for --layout scatter",
        ),
        (
            format!("--variant megachess {two} --size 16 16 --players-per-seat 8"),
            "cannot be set up",
        ),
        (
            format!("--variant megachess {two} --random-plies 2"),
            "--random-plies: not for Megachess worlds",
        ),
        (
            format!("--variant megachess {two} --poll-ms 50"),
            "--poll-ms is for --variant realtime",
        ),
        (
            format!("--variant megachess {two} --svg"),
            "--svg needs a value",
        ),
    ];
    for (line, message) in cases {
        let error = error(&line);
        assert!(error.contains(message), "{line}: {error}");
    }
}

#[test]
fn shares_of_worlds_merge_and_other_worlds_do_not() {
    let mut common = SMALL_WORLD.to_vec();
    common.extend([
        "10",
        "--turns",
        "4",
        "--engine",
        "cmd=roger",
        "name=greedy",
        "args=play greedy",
        "inprocess=true",
        "--engine",
        "cmd=roger",
        "name=random",
        "args=play random",
        "inprocess=true",
        "--games",
        "4",
    ]);
    let mut files = Vec::new();
    for share in ["1/2", "2/2"] {
        let file = super::scratch(&format!("megachess-share{}.json", &share[..1]));
        let file_text = file.display().to_string();
        let mut args = common.clone();
        args.extend(["--shard", share, "--json", &file_text]);
        let output = super::arena(&args);
        assert!(output.status.success(), "{}", super::text(&output));
        files.push(file_text);
    }
    let merged_file = super::scratch("megachess-merged.json");
    let merged_text = merged_file.display().to_string();
    let merge = |files: &[&str]| {
        let mut args = vec!["merge"];
        args.extend(files);
        args.extend(["--json", &merged_text]);
        super::arena(&args)
    };
    let output = merge(&[&files[0], &files[1]]);
    assert!(output.status.success(), "{}", super::text(&output));
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(&merged_file).unwrap()).unwrap();
    let seeds: Vec<u64> = records(&merged).iter().map(|r| r.setup.seed).collect();
    assert_eq!(seeds.len(), 4);
    assert!(seeds[0] == seeds[1] && seeds[2] == seeds[3] && seeds[1] != seeds[2]);
    let standings = merged["summary"]["world"]
        .as_array()
        .expect("world standings");
    for standing in standings {
        assert_eq!(standing["worlds"], 4, "{standing}");
    }
    // A share of other worlds does not merge.
    let other = super::scratch("megachess-other.json");
    let mut report: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    report["settings"]["world"]["max_turns"] = Value::from(5);
    std::fs::write(&other, report.to_string()).unwrap();
    let other_text = other.display().to_string();
    let output = merge(&[&files[0], &other_text]);
    assert!(!output.status.success());
    assert!(super::text(&output).contains("not from the same tournament"));
    for file in files.iter().chain([&merged_text, &other_text]) {
        let _ = std::fs::remove_file(file);
    }
}
