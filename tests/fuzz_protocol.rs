//! The protocol fuzzer (`roger fuzz protocol`, src/fuzz/protocol): a short seeded pass over the
//! real binary that must find nothing, proof that its checks can fail, and checks of its
//! generator's corruptions against the rules.

use roger::common::Rng;
use roger::fuzz::protocol::corrupt::{corrupt_fen, normalise};
use roger::fuzz::protocol::generate::Generator;
use roger::fuzz::protocol::model::{fen, playout, set_up};
use roger::rules::registry::TurnGame;

const GAMES: [TurnGame; 3] = [TurnGame::Chess, TurnGame::Millennium, TurnGame::Nichess];

/// Every FEN the generator breaks is refused by the rules (so a line it calls bad is bad).
#[test]
fn every_corrupted_fen_is_refused_by_the_rules() {
    let mut rng = Rng::new(7);
    let mut accepted = Vec::new();
    for game in GAMES {
        for round in 0..600 {
            let mut position = game.start();
            playout(&mut position, round % 80, &mut rng);
            let good = fen(&position);
            let (bad, what) = corrupt_fen(&good, game, &mut rng);
            match std::panic::catch_unwind(|| set_up(game, Some(&bad), &[]).is_ok()) {
                Ok(false) => {}
                Ok(true) => accepted.push(format!("{game:?} {what} accepted: {good} -> {bad}")),
                Err(_) => accepted.push(format!("{game:?} {what} panicked: {good} -> {bad}")),
            }
        }
    }
    assert!(accepted.is_empty(), "{accepted:#?}");
}

/// Every normalised form the generator sends as valid is read by the rules as the same
/// position (so a line it calls good is good).
#[test]
fn every_normalised_fen_is_read_as_the_same_position() {
    let mut rng = Rng::new(8);
    let mut wrong = Vec::new();
    let mut tried = 0;
    for game in GAMES {
        for round in 0..400 {
            let mut position = game.start();
            playout(&mut position, round % 70, &mut rng);
            let good = fen(&position);
            let Some(other) = normalise(&good, game, &mut rng) else {
                continue;
            };
            tried += 1;
            let read = |text: &str| set_up(game, Some(text), &[]).map(|game| fen(&game));
            let (want, got) = (read(&good), read(&other));
            // Counters left out read as `0 1`, and the move number `0` as 1: the placement,
            // side and castling rights stay as the rules write them.
            let head = |fen: &str| fen.split(' ').take(3).collect::<Vec<_>>().join(" ");
            let same = match (&want, &got) {
                (Ok(want), Ok(got)) => head(want) == head(got),
                _ => false,
            };
            if !same {
                wrong.push(format!("{game:?}: {good} -> {other}: {got:?}"));
            }
        }
    }
    assert!(tried > 300, "only {tried} normalised");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The same seed gives the same lines; another seed other lines.
#[test]
fn the_generator_is_seeded() {
    let lines = |seed: u64| -> Vec<Vec<u8>> {
        let mut generator = Generator::new(seed);
        (0..3000).map(|_| generator.next_step().bytes).collect()
    };
    let first = lines(42);
    assert_eq!(first, lines(42));
    assert_ne!(first, lines(43));
    assert_ne!(first, lines(44));
}

use roger::fuzz::protocol::check::{Bounds, Driver, Judge, Settings};
use roger::fuzz::protocol::peer::{Launcher, Next, Peer, PythonChess};
use roger::fuzz::protocol::{self, launcher};
use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

fn roger() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_roger"))
}

/// A few thousand lines over the three games: no crash, hang, illegal move, silent bad input,
/// double or missing answer. python-chess must be there (`.ci/run` installs it).
#[test]
fn a_short_seeded_pass_finds_nothing() {
    let report = protocol::run(roger(), 2500, 20261123, true, 0).expect("the fuzzer runs");
    let summary = report.summary();
    assert_eq!(
        report.failure_count(),
        0,
        "{summary}\n{:#?}",
        report.failure_details
    );
    for game in [
        "setoption UCI_Variant",
        "go",
        "go infinite",
        "bad FEN",
        "illegal move",
    ] {
        assert!(
            report.by_kind.get(game).is_some_and(|&n| n > 0),
            "no {game}: {summary}"
        );
    }
    for game in ["chess", "millennium", "nichess"] {
        assert!(
            report.by_game.get(game).is_some_and(|&n| n > 200),
            "{summary}"
        );
    }
    assert!(report.bestmoves_checked_own > 100, "{summary}");
    assert!(report.bestmoves_checked_python > 20, "{summary}");
    assert_eq!(report.errors_seen, report.errors_expected, "{summary}");
}

/// A fake engine that answers `readyok` and a `bestmove` from nowhere, and nothing else: it
/// never refuses anything and plays `a1a1` whatever the position.
struct Careless {
    replies: VecDeque<String>,
    closed: bool,
}

impl Peer for Careless {
    fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        for line in String::from_utf8_lossy(bytes).lines() {
            match line.split(' ').next() {
                Some("isready") => self.replies.push_back("readyok".into()),
                Some("go") if !line.contains("perft") => {
                    self.replies
                        .push_back("info depth 1 score cp 0 nodes 1 pv e2e4".into());
                    self.replies.push_back("bestmove a1a1".into());
                }
                Some("quit") => self.closed = true,
                _ => {}
            }
        }
        Ok(())
    }
    fn next_line(&mut self, _: Duration) -> Next {
        match self.replies.pop_front() {
            Some(line) => Next::Line(line),
            None if self.closed => Next::Closed,
            None => Next::Timeout,
        }
    }
    fn close_input(&mut self) {
        self.closed = true;
    }
    fn exit_code(&mut self, _: Duration) -> Option<Option<i32>> {
        Some(Some(0))
    }
}

/// The checks fail when they should: silent bad input, illegal best moves (for the second
/// roger and for python-chess), a PV that disagrees, and a search that never answers `stop`.
#[test]
fn the_checks_flag_a_careless_engine() {
    let careless: Launcher = Box::new(|| {
        Ok(Box::new(Careless {
            replies: VecDeque::new(),
            closed: false,
        }) as Box<dyn Peer>)
    });
    let bounds = Bounds {
        ready: Duration::from_secs(10),
        job: Duration::from_secs(10),
    };
    let judge = Judge::new(launcher(roger()), bounds).expect("the judge starts");
    let python = PythonChess::start().expect("python-chess is installed");
    let settings = Settings {
        lines: 400,
        seed: 5,
        bounds,
        progress_every: 0,
    };
    let driver = Driver::new(settings, careless, judge, Some(python)).expect("starts");
    let report = driver.run().expect("runs");
    let failures = |kind: &str| report.failures.get(kind).copied().unwrap_or(0);
    let summary = report.summary();
    for kind in [
        "silent bad inputs",
        "illegal moves",
        "illegal moves (python-chess)",
        "PV mismatches",
    ] {
        assert!(failures(kind) > 0, "{kind} not flagged: {summary}");
    }
    let first = &report.failure_details[0];
    assert!(first.reproducer.contains("printf '"), "{first:?}");
}

use roger::fuzz::protocol::megachess::{corrupt_world, random_world};
use roger::fuzz::protocol::mixed::Home;
use roger::fuzz::protocol::realtime::{corrupt_state, random_state};
use roger::rules::megachess::MegachessParams;
use roger::rules::realtime::RealtimeParams;

/// What a timed answer may take past its movetime in the short passes: generous, for a busy
/// 2-core CI machine running a debug build.
const MARGIN: Duration = Duration::from_secs(2);

/// Two thousand realtime lines (random games, broken states, one-shot `go`, streams refereed
/// by the fuzzer, switches while they run): nothing found. (The planner spends most of its budget
/// on each decision, so a stream starts an order only every few tens of ms: how many a pass
/// starts depends on the machine's load (one running two builds at once started only 5), so the
/// test asks only that the referee started some.) Needs issue 26's
/// 3a, 3c, 3d and 5.
#[test]
fn a_short_realtime_pass_finds_nothing() {
    let report = protocol::run_mixed(roger(), Home::Realtime, 2000, 20261126, MARGIN, 0)
        .expect("the fuzzer runs");
    let summary = report.summary();
    assert_eq!(
        report.failure_count(),
        0,
        "{summary}\n{:#?}",
        report.failure_details
    );
    assert!(report.orders_checked > 20, "{summary}");
    assert!(report.orders_started > 0, "{summary}");
    assert!(report.states_checked > 20, "{summary}");
    assert!(report.switches_during_jobs > 0, "{summary}");
    assert_eq!(report.errors_seen, report.errors_expected, "{summary}");
}

/// A few hundred Megachess lines (random, played and huge worlds, broken worlds, timed and
/// endless plans, switches while they run): every bestturn replays. Needs issue 26's 4a, 4b,
/// 4c and 5.
#[test]
fn a_short_megachess_pass_finds_nothing() {
    let report = protocol::run_mixed(roger(), Home::Megachess, 700, 20261126, MARGIN, 0)
        .expect("the fuzzer runs");
    let summary = report.summary();
    assert_eq!(
        report.failure_count(),
        0,
        "{summary}\n{:#?}",
        report.failure_details
    );
    assert!(report.bestturns > 30, "{summary}");
    assert!(report.bestturn_moves_replayed > 20, "{summary}");
    assert!(report.timed_answers > 30, "{summary}");
    assert!(report.switches_during_jobs > 0, "{summary}");
    assert_eq!(report.errors_seen, report.errors_expected, "{summary}");
}

/// Every state the generator breaks is refused by the rules, but the two cases of issue 26
/// the rules of today still read (3a: a vertical tab, form feed or `\r` in the text; 3c: two
/// pieces of one colour on one square), and every state it plays reads back.
#[test]
fn broken_states_are_refused_and_played_ones_read_back() {
    let params = RealtimeParams::default();
    let mut rng = Rng::new(11);
    let mut wrong = Vec::new();
    for _ in 0..600 {
        let state = random_state(params, &mut rng);
        let text = state.text();
        let read = roger::rules::realtime::RealtimeState::from_text(&text, params);
        if read.map(|state| state.text()).as_ref() != Ok(&text) {
            wrong.push(format!("played state does not read back: {text}"));
        }
        let (broken, what) = corrupt_state(&state, &mut rng);
        // Wrong separators are the protocol layer's to refuse (the live passes check them).
        let pending = what.contains("(3a)") || what.contains("(3c)") || what.contains("separator");
        if !pending && roger::rules::realtime::RealtimeState::from_text(&broken, params).is_ok() {
            wrong.push(format!("{what} accepted: {broken}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every world the generator makes reads (its turn aside, 4a); every world it breaks is
/// refused, leading zeros (4b) and turns past the range (4c) included.
#[test]
fn broken_worlds_are_refused_and_made_ones_read() {
    let params = MegachessParams::default();
    let mut rng = Rng::new(12);
    let mut wrong = Vec::new();
    for round in 0..400 {
        let told = random_world(&mut rng, &params, round % 50 == 0);
        if let Err(error) = told.world(&params) {
            wrong.push(format!("made world refused ({error}): {}", told.text));
        }
        let (broken, what) = corrupt_world(&told, &mut rng);
        // Wrong separators are the protocol layer's to refuse (the live passes check them).
        let protocols = what.contains("separator");
        let read = roger::rules::megachess::WorldView::parse(&broken, &params);
        if !protocols && read.is_ok() {
            wrong.push(format!("{what} accepted: {broken}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A fake engine that takes every line and answers each `go` with an order or turn from
/// nowhere, and each `play` with an order at once.
struct Reckless {
    replies: VecDeque<String>,
    closed: bool,
    realtime: bool,
    game: String,
}

impl Peer for Reckless {
    fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        for line in String::from_utf8_lossy(bytes).lines() {
            let lower = line.to_lowercase();
            if let Some((_, game)) = lower.split_once("uci_variant value ") {
                let game = game.to_string();
                self.realtime = game == "realtime";
                if game != self.game {
                    self.replies
                        .push_back(format!("info string variant {game} files 8"));
                    self.game = game;
                }
            }
            match line.split(' ').next() {
                Some("isready") => self.replies.push_back("readyok".into()),
                Some("go") if self.realtime => self.replies.push_back("bestmove a1h8".into()),
                Some("go") => self.replies.push_back("bestturn 0,0-5,7".into()),
                Some("play") => self.replies.push_back("order a1h8".into()),
                Some("quit") => self.closed = true,
                _ => {}
            }
        }
        Ok(())
    }
    fn next_line(&mut self, _: Duration) -> Next {
        match self.replies.pop_front() {
            Some(line) => Next::Line(line),
            None if self.closed => Next::Closed,
            None => Next::Timeout,
        }
    }
    fn close_input(&mut self) {
        self.closed = true;
    }
    fn exit_code(&mut self, _: Duration) -> Option<Option<i32>> {
        Some(Some(0))
    }
}

/// The realtime and Megachess checks fail when they should: silent bad inputs, illegal orders
/// (one-shot and streamed) and illegal turns.
#[test]
fn the_realtime_and_megachess_checks_flag_a_reckless_engine() {
    for home in [Home::Realtime, Home::Megachess] {
        let reckless: Launcher = Box::new(|| {
            Ok(Box::new(Reckless {
                replies: VecDeque::new(),
                closed: false,
                realtime: false,
                game: "chess".into(),
            }) as Box<dyn Peer>)
        });
        let settings = roger::fuzz::protocol::mixed::MixedSettings {
            lines: 400,
            seed: 5,
            home,
            ready: Duration::from_millis(200),
            margin: MARGIN,
            hang: Duration::from_millis(200),
            progress_every: 0,
        };
        let report = roger::fuzz::protocol::mixed::Mixed::new(settings, reckless)
            .expect("starts")
            .run()
            .expect("runs");
        let failures = |kind: &str| report.failures.get(kind).copied().unwrap_or(0);
        let summary = report.summary();
        for kind in ["silent bad inputs", "illegal moves"] {
            assert!(
                failures(kind) > 0,
                "{home:?}: {kind} not flagged: {summary}"
            );
        }
        let illegal: Vec<&str> = report
            .failure_details
            .iter()
            .filter(|f| f.kind == "illegal moves")
            .map(|f| f.what.as_str())
            .collect();
        let wanted = match home {
            Home::Realtime => ["bestmove a1h8", "order a1h8"].as_slice(),
            Home::Megachess => ["bestturn 0,0-5,7"].as_slice(),
        };
        for what in wanted {
            assert!(
                illegal.iter().any(|i| i.contains(what)),
                "{home:?}: {what} not flagged: {illegal:#?}"
            );
        }
    }
}
