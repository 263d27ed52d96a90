use super::*;
use crate::rules::chess::Chess;
use crate::search::Info;
use std::sync::mpsc;
use std::time::Duration;

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn fen_of(engine: &Engine) -> String {
    let display = engine.display();
    let fen = display.lines().find_map(|line| line.strip_prefix("Fen: "));
    fen.unwrap_or_default().to_string()
}

fn moves(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|text| text.to_string()).collect()
}

/// Starts a search whose reports and answer arrive on channels.
fn go(
    engine: &mut Engine,
    params: &GoParams,
) -> (mpsc::Receiver<Report>, mpsc::Receiver<BestMove>) {
    let (report_sender, reports) = mpsc::channel();
    let (best_sender, best) = mpsc::channel();
    engine
        .go(
            params,
            move |report| {
                let _ = report_sender.send(report);
            },
            move |answer| {
                let _ = best_sender.send(answer);
            },
        )
        .expect("the search starts");
    (reports, best)
}

#[test]
fn a_refused_position_keeps_the_previous_one() {
    let mut engine = Engine::new();
    engine.set_position(None, &moves(&["e2e4"])).unwrap();
    let before = fen_of(&engine);
    let error = engine
        .set_position(None, &moves(&["e2e4", "e7e5", "e1e3"]))
        .unwrap_err();
    // A typed error a caller can match, with the rules' reason.
    let EngineError::Position(error) = error else {
        panic!("{error:?}");
    };
    assert!(error.starts_with("move 3 'e1e3' rejected"), "{error}");
    assert_eq!(fen_of(&engine), before);
    assert!(engine.set_position(Some("8/8/8 w - -"), &[]).is_err());
    assert_eq!(fen_of(&engine), before);
    engine.new_game();
    assert_eq!(fen_of(&engine), START_FEN);
}

/// The last depth's score and node count of a one-thread `go depth` from a fixed position.
fn fixed_search(engine: &mut Engine) -> (crate::search::Score, u64) {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    engine.new_game();
    engine.set_position(Some(fen), &[]).unwrap();
    let params = GoParams {
        depth: Some(7),
        ..GoParams::default()
    };
    let (reports, best) = go(engine, &params);
    best.recv().expect("an answer");
    let last = reports
        .try_iter()
        .filter_map(|report| match report {
            Report::Progress(info) => Some(info),
            Report::Message(_) => None,
        })
        .last()
        .expect("progress reports");
    (last.score, last.nodes)
}

#[test]
fn use_nnue_is_each_engines_own() {
    let mut with_network = Engine::new();
    let before = fixed_search(&mut with_network);
    let mut without = Engine::new();
    assert_eq!(
        without.set_option("Use NNUE", OptionValue::Check(false)),
        Ok(None)
    );
    let hand_set = fixed_search(&mut without);
    assert_ne!(hand_set, before, "the option changes this engine's search");
    // The other engine in the process still judges with the network.
    assert_eq!(fixed_search(&mut with_network), before);
    assert_eq!(
        without.set_option("Use NNUE", OptionValue::Check(true)),
        Ok(None)
    );
    assert_eq!(fixed_search(&mut without), before);
}

#[test]
fn eval_file_loads_a_network_for_its_game_and_keeps_the_last_on_a_refusal() {
    let dir = std::env::temp_dir().join(format!("roger-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let built_in = dir.join("chess.nnue");
    std::fs::write(&built_in, crate::eval::network::chess::network().to_bytes()).unwrap();
    let mut engine = Engine::new();
    let before = fixed_search(&mut engine);
    // The built-in network from a file: the same search.
    let path = built_in.to_str().unwrap();
    let said = engine
        .set_option("EvalFile", OptionValue::Text(path.into()))
        .unwrap()
        .unwrap();
    let OptionRemark::EvalFile { network, .. } = &said else {
        panic!("not an EvalFile remark: {said:?}");
    };
    assert!(
        network.contains("a chess network, 768x128 (CReLU, a correction)"),
        "{said}"
    );
    assert_eq!(fixed_search(&mut engine), before);
    // Another network (every weight zero: no correction) changes the search ...
    let zero = crate::eval::network::Network::quantise(
        true,
        crate::eval::network::Activation::Screlu,
        &vec![0.0; 768 * 32],
        &[0.0; 32],
        &[0.0; 64],
        &[0.0],
    );
    let zero_path = dir.join("zero.nnue");
    std::fs::write(&zero_path, zero.to_bytes()).unwrap();
    let said = engine.set_option(
        "EvalFile",
        OptionValue::Text(zero_path.to_str().unwrap().into()),
    );
    assert!(said
        .unwrap()
        .unwrap()
        .to_string()
        .contains("768x32 (SCReLU"));
    let with_zero = fixed_search(&mut engine);
    assert_ne!(with_zero, before);
    // ... into the hand-set evaluation's, since a zero correction is none.
    let mut hand_set = Engine::new();
    hand_set
        .set_option("Use NNUE", OptionValue::Check(false))
        .unwrap();
    assert_eq!(fixed_search(&mut hand_set), with_zero);
    // A file that is no network is refused with the reason; the zero network stays.
    let error = engine
        .set_option("EvalFile", OptionValue::Text("/no/such/file.nnue".into()))
        .unwrap_err()
        .to_string();
    assert!(error.contains("cannot read /no/such/file.nnue"), "{error}");
    let error = engine
        .set_option("EvalFile", OptionValue::Text("Cargo.toml".into()))
        .unwrap_err()
        .to_string();
    assert!(error.contains("not a network file"), "{error}");
    assert_eq!(fixed_search(&mut engine), with_zero);
    let said = engine
        .set_option("EvalFile", OptionValue::Text("<embedded>".into()))
        .unwrap()
        .unwrap();
    assert_eq!(
        said.to_string(),
        "EvalFile <embedded>: the built-in networks"
    );
    assert_eq!(fixed_search(&mut engine), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn threads_past_the_core_count_are_not_started() {
    let mut engine = Engine::new();
    let cores = available_cores();
    let remark = engine
        .set_option("Threads", OptionValue::Spin(256))
        .unwrap();
    assert_eq!(engine.search_threads(), cores.min(256));
    if cores < 256 {
        let remark = remark.expect("the cap is announced");
        assert_eq!(remark, OptionRemark::ThreadsCapped { asked: 256, cores });
        assert!(
            remark.to_string().contains(&format!("{cores} cores")),
            "{remark}"
        );
    }
    assert_eq!(
        engine.set_option("Threads", OptionValue::Spin(1)).unwrap(),
        None
    );
    assert_eq!(engine.search_threads(), 1);
}

#[test]
fn options_are_checked_and_applied() {
    let mut engine = Engine::new();
    assert_eq!(engine.set_option("Hash", OptionValue::Spin(1)), Ok(None));
    assert_eq!(engine.options.hash_mb, 1);
    assert!(engine.set_option("Hash", OptionValue::Spin(0)).is_err());
    assert_eq!(engine.options.hash_mb, 1);
    assert_eq!(engine.set_option("multipv", OptionValue::Spin(3)), Ok(None));
    assert_eq!(engine.options.multipv, 3);
    assert_eq!(
        engine.set_option("UCI_Variant", OptionValue::Combo("chess".into())),
        Ok(None)
    );
    assert_eq!(engine.variant(), "chess");
}

#[test]
fn infinite_search_answers_only_when_stopped() {
    let mut engine = Engine::new();
    let params = GoParams {
        infinite: true,
        ..GoParams::default()
    };
    let (reports, best) = go(&mut engine, &params);
    assert!(engine.is_searching());
    // Past depth 6 an ordinary search of the start position would long have answered.
    loop {
        match reports.recv_timeout(Duration::from_secs(60)) {
            Ok(Report::Progress(info)) if info.depth >= 6 => break,
            Ok(_) => {}
            Err(error) => panic!("no report of depth 6: {error}"),
        }
    }
    assert!(
        best.try_recv().is_err(),
        "an infinite search answered before stop"
    );
    assert!(engine.go(&params, |_| {}, |_| {}).is_err());
    engine.stop();
    assert!(!engine.is_searching());
    let answer = best.try_recv().expect("stop waits for the answer");
    assert!(answer.best.is_some());
}

#[test]
fn no_legal_move_answers_the_null_move() {
    let mut engine = Engine::new();
    engine
        .set_position(Some("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), &[])
        .unwrap();
    let (reports, best) = go(&mut engine, &GoParams::default());
    engine.wait();
    assert_eq!(best.try_recv(), Ok(BestMove::default()));
    match reports.try_recv() {
        Ok(Report::Progress(info)) => assert_eq!(info.score, crate::search::Score::Mate(0)),
        other => panic!("expected a mate 0 report, got {other:?}"),
    }
}

#[test]
fn mate_limit_becomes_a_depth() {
    let mut limits = Limits::default();
    let params = GoParams {
        mate: Some(3),
        ..GoParams::default()
    };
    set_limits(&mut limits, &params, Color::White);
    assert_eq!(limits.depth, Some(5));
    let mut params = GoParams {
        moves_to_go: Some(0),
        depth: Some(0),
        ..GoParams::default()
    };
    params.clock_mut(Color::Black).time = Some(Duration::from_secs(5));
    set_limits(&mut limits, &params, Color::Black);
    assert_eq!(limits.depth, Some(1));
    let clock = limits.clock.expect("black's clock");
    assert_eq!(clock.time, Duration::from_secs(5));
    assert_eq!(clock.moves_to_go, None);
}

#[test]
fn depths_beyond_the_search_are_searched_to_its_deepest() {
    // The parser refuses them; a library caller gets the deepest search, not a wrapped one.
    for (depth, mate, plies) in [
        (Some(u32::MAX), None, MAX_DEPTH),
        (Some(1 << 31), None, MAX_DEPTH),
        (None, Some(1 << 31), MAX_MATE * 2 - 1),
        (None, Some(u32::MAX), MAX_MATE * 2 - 1),
    ] {
        let mut limits = Limits::default();
        let params = GoParams {
            depth,
            mate,
            ..GoParams::default()
        };
        set_limits(&mut limits, &params, Color::White);
        assert_eq!(limits.depth, Some(plies), "{depth:?} {mate:?}");
    }
}

/// The move a fresh engine plays after `options`, searching `params` to the end, with
/// the reports.
fn skilled_move(
    fen: Option<&str>,
    options: &[(&str, OptionValue)],
    params: &GoParams,
) -> (String, Vec<Info>) {
    let mut engine = Engine::new();
    for (name, value) in options {
        engine.set_option(name, value.clone()).unwrap();
    }
    engine.set_position(fen, &[]).unwrap();
    let (reports, best) = go(&mut engine, params);
    engine.wait();
    let infos = reports
        .try_iter()
        .map(|report| match report {
            Report::Progress(info) => info,
            Report::Message(text) => panic!("unexpected message {text}"),
        })
        .collect();
    (best.try_recv().unwrap().best.unwrap(), infos)
}

#[test]
fn level_0_plays_several_moves_over_seeds_and_repeats_each_seed() {
    let mut played = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let options = [
            (SKILL_LEVEL, OptionValue::Spin(0)),
            (SKILL_SEED, OptionValue::Spin(seed)),
        ];
        let (mv, infos) = skilled_move(None, &options, &GoParams::default());
        assert_eq!(skilled_move(None, &options, &GoParams::default()).0, mv);
        // Valid progress: every line has a move, and the last first line is the move played.
        assert!(infos
            .iter()
            .all(|info| !info.pv.is_empty() && info.multipv >= 1));
        let last_first = infos.iter().rev().find(|info| info.multipv == 1).unwrap();
        assert_eq!(last_first.pv[0], mv, "seed {seed}: {infos:#?}");
        assert!(infos.iter().all(|info| info.depth <= 1), "{infos:#?}");
        played.insert(mv);
    }
    assert!(played.len() >= 3, "{played:?}");
}

#[test]
fn strong_levels_never_hang_the_queen() {
    // The queen on e4 is attacked by the d5 pawn: a move that leaves it there, or puts it
    // where Black takes it, loses it; Qd3, Qe3, Qf3 and others keep it.
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4Q3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1";
    let position = Chess::from_fen(fen).unwrap();
    let params = GoParams {
        nodes: Some(20_000),
        ..GoParams::default()
    };
    for level in [10, 13, 15] {
        for seed in 0..4 {
            let options = [
                (SKILL_LEVEL, OptionValue::Spin(level)),
                (SKILL_SEED, OptionValue::Spin(seed)),
            ];
            let (mv, _) = skilled_move(Some(fen), &options, &params);
            assert!(mv.starts_with("e4"), "level {level} seed {seed}: {mv}");
            let after = position.play(position.parse_move(&mv).unwrap());
            let mut replies = crate::rules::MoveList::new();
            after.generate_moves(&mut replies);
            let to = &mv[2..4];
            assert!(
                replies
                    .iter()
                    .all(|&reply| &after.move_text(reply)[2..4] != to),
                "level {level} seed {seed}: {mv} hangs the queen"
            );
        }
    }
}

#[test]
fn full_strength_and_limit_strength_off_search_one_line_as_before() {
    let params = GoParams {
        depth: Some(4),
        ..GoParams::default()
    };
    let (plain, plain_infos) = skilled_move(None, &[], &params);
    let options = [
        (SKILL_LEVEL, OptionValue::Spin(20)),
        (UCI_ELO, OptionValue::Spin(1000)),
        (SKILL_SEED, OptionValue::Spin(7)),
    ];
    let (mv, infos) = skilled_move(None, &options, &params);
    assert_eq!(mv, plain);
    assert!(infos.iter().all(|info| info.multipv == 1));
    let pvs = |infos: &[Info]| -> Vec<Vec<String>> { infos.iter().map(|i| i.pv.clone()).collect() };
    assert_eq!(pvs(&infos), pvs(&plain_infos));
    // UCI_LimitStrength at the top Elo is full strength too.
    let options = [(UCI_LIMIT_STRENGTH, OptionValue::Check(true))];
    assert_eq!(skilled_move(None, &options, &params).0, plain);
}

#[test]
fn limit_strength_takes_the_elo_level_over_skill_level() {
    let mut engine = Engine::new();
    engine
        .set_option("UCI_Elo", OptionValue::Spin(1700))
        .unwrap();
    assert_eq!(engine.options.strength.level(), 20.0);
    engine
        .set_option("uci_limitstrength", OptionValue::Check(true))
        .unwrap();
    assert_eq!(engine.options.strength.level(), 10.0);
    engine
        .set_option("Skill Level", OptionValue::Spin(3))
        .unwrap();
    assert_eq!(engine.options.strength.level(), 10.0);
    engine
        .set_option("UCI_LimitStrength", OptionValue::Check(false))
        .unwrap();
    assert_eq!(engine.options.strength.level(), 3.0);
    assert!(engine
        .set_option("Skill Level", OptionValue::Spin(21))
        .is_err());
    assert!(engine
        .set_option("UCI_Elo", OptionValue::Spin(999))
        .is_err());
    assert!(engine
        .set_option("Skill Seed", OptionValue::Spin(-1))
        .is_err());
    assert_eq!(engine.options.strength.level(), 3.0);
}

#[test]
fn perft_refuses_depths_that_would_overflow_the_stack() {
    let engine = Engine::new();
    for depth in [0, MAX_PERFT_DEPTH + 1, 10_000] {
        assert_eq!(
            engine.perft(depth),
            Err(EngineError::Limit(format!(
                "depth {depth} is out of range 1..=64"
            )))
        );
    }
}

#[test]
fn every_announced_option_reads_into_a_typed_option_and_back() {
    let engine = Engine::new();
    for spec in engine.option_specs() {
        let default = match &spec.kind {
            OptionKind::Spin { default, .. } => OptionValue::Spin(*default),
            OptionKind::Check { default } => OptionValue::Check(*default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default.clone()),
            OptionKind::Text { default } => OptionValue::Text(default.clone()),
        };
        let option = EngineOption::read(spec.name, default.clone())
            .unwrap_or_else(|| panic!("{} is announced but has no typed option", spec.name));
        assert_eq!(option.name(), spec.name);
        assert_eq!(option.value(), default, "{}", spec.name);
    }
    assert_eq!(EngineOption::read("Hash", OptionValue::Check(true)), None);
    assert_eq!(EngineOption::read("Nonsense", OptionValue::Spin(1)), None);
}

#[test]
fn a_typed_option_is_checked_against_its_bounds_and_applied() {
    let mut engine = Engine::new();
    let huge = EngineOption::Hash { megabytes: 1 << 40 };
    assert!(matches!(engine.set(huge), Err(EngineError::Option(_))));
    assert_eq!(engine.options.hash_mb, 16);
    assert_eq!(engine.set(EngineOption::MultiPv(4)), Ok(None));
    assert_eq!(engine.options.multipv, 4);
    let overhead = EngineOption::MoveOverhead(Duration::from_millis(120));
    assert_eq!(engine.set(overhead), Ok(None));
    assert_eq!(engine.options.move_overhead, Duration::from_millis(120));
    assert_eq!(engine.set(EngineOption::SkillLevel(5)), Ok(None));
    assert_eq!(engine.options.strength.skill_level, 5);
    assert!(engine.set(EngineOption::SkillLevel(21)).is_err());
    let variant = engine.set(EngineOption::Variant("millennium".into()));
    assert!(
        matches!(&variant, Ok(Some(OptionRemark::Variant(board))) if board.starts_with("variant millennium")),
        "{variant:?}"
    );
}
