use super::*;
use crate::eval::network::{path, Network};
use crate::tune::datagen::{self, DataFormat, DatagenOptions};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("roger-train-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn options(variant: &str, data: PathBuf, out: PathBuf) -> TrainOptions {
    TrainOptions {
        variant: variant.into(),
        data: vec![data.clone()],
        held_out: vec![data],
        epochs: 6,
        hidden: 16,
        activation: Activation::Screlu,
        output_buckets: 1,
        lambda: 0.5,
        rate: 0.01,
        final_rate: None,
        batch: 64,
        chunk: 300,
        scale: None,
        threads: 1,
        seed: 1,
        residual: false,
        mirror: false,
        stop_after: None,
        checkpoint: None,
        resume: None,
        init: None,
        out: Some(out),
    }
}

/// Runs on one thread, so that sums are made in one order and runs repeat exactly.
fn run_quietly<G: Tunable + NetworkInputs>(options: &TrainOptions) -> Vec<String> {
    let mut lines = Vec::new();
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| run::<G>(options, &mut |line| lines.push(line.to_string())))
        .unwrap();
    lines
}

/// A file of five chess positions with scores and results, a queen up or level, in `dir`.
fn queen_positions(dir: &std::path::Path) -> PathBuf {
    let data = dir.join("data.txt");
    let lines = [
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1",
        "3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | -900 | 0",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1 | 0 | 0.5",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 b - - 0 1 | 700 | 1",
        "3qk3/8/8/8/8/8/8/4K3 b - - 0 1 | -900 | 0",
    ];
    std::fs::write(&data, lines.join("\n")).unwrap();
    data
}

/// The error a chess run with `options` stops with (it must stop with one).
fn refusal(options: &TrainOptions) -> String {
    refusal_of::<Chess>(options)
}

/// The error a run of `G` stops with.
fn refusal_of<G: Tunable + NetworkInputs>(options: &TrainOptions) -> String {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| run::<G>(options, &mut |_| {}))
        .unwrap_err()
}

/// The held-out losses the epoch lines report.
fn held_out_losses(lines: &[String]) -> Vec<f64> {
    lines
        .iter()
        .filter_map(|line| line.split("held out ").nth(1))
        .map(|rest| rest.split(',').next().unwrap().parse().unwrap())
        .collect()
}

/// A little self-play of `G` (game data, with `threads` games and at most `max_plies` each),
/// trained on with both activations: the loss falls, and the written network reads back.
fn the_loss_falls_on_a_little_self_play<G: Tunable + NetworkInputs>() {
    let dir = temp_dir(G::VARIANT);
    let data = dir.join("data.rgd");
    datagen::run(
        &DatagenOptions {
            games: 3,
            nodes: 150,
            seed: 11,
            format: DataFormat::Binary,
            max_plies: 80,
            ..DatagenOptions::tiny(G::VARIANT, data.clone())
        },
        &mut |_| {},
    )
    .unwrap();
    for activation in [Activation::Crelu, Activation::Screlu] {
        let out = dir.join("net.nnue");
        let lines = run_quietly::<G>(&TrainOptions {
            activation,
            mirror: true,
            ..options(G::VARIANT, data.clone(), out.clone())
        });
        let losses = held_out_losses(&lines);
        assert_eq!(losses.len(), 6, "{lines:?}");
        assert!(
            losses[5] < losses[0] * 0.9,
            "{} {activation:?}: {lines:?}",
            G::VARIANT
        );
        let network = Network::from_bytes(&std::fs::read(&out).unwrap(), G::INPUTS).unwrap();
        assert_eq!((network.hidden(), network.activation()), (16, activation));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_chess_loss_falls_on_a_little_self_play() {
    the_loss_falls_on_a_little_self_play::<Chess>();
}

#[test]
fn the_millennium_loss_falls_on_a_little_self_play() {
    the_loss_falls_on_a_little_self_play::<Millennium>();
}

#[test]
fn the_nichess_loss_falls_on_a_little_self_play() {
    the_loss_falls_on_a_little_self_play::<Nichess>();
}

#[test]
fn a_network_learns_that_a_queen_up_wins() {
    let dir = temp_dir("queen");
    let data = dir.join("data.txt");
    // White a queen up wins, Black a queen up wins, level positions draw.
    let lines = [
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1",
        "3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | -900 | 0",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1 | 0 | 0.5",
        "3qk3/8/8/8/8/8/8/4K3 b - - 0 1 | -900 | 0",
    ];
    std::fs::write(&data, lines.join("\n")).unwrap();
    let out = dir.join("net.nnue");
    let queen_up = Chess::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    for residual in [false, true] {
        run_quietly::<Chess>(&TrainOptions {
            epochs: 40,
            batch: 4,
            scale: Some(300.0),
            residual,
            held_out: vec![],
            ..options("chess", data.clone(), out.clone())
        });
        let network = Network::from_bytes(&std::fs::read(&out).unwrap(), Chess::INPUTS).unwrap();
        assert_eq!(network.is_residual(), residual);
        // As a correction, the hand-set score plus the correction still sees the queen.
        let base = if residual { hand_set(&queen_up) } else { 0 };
        let score = base + path::evaluate(&network, &queen_up);
        assert!(
            score > 200,
            "a queen up scored {score} (correction: {residual})"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_resumed_from_its_checkpoint_ends_where_a_whole_run_ends() {
    let dir = temp_dir("resume");
    let data = queen_positions(&dir);
    let whole = dir.join("whole.nnue");
    let resumed = dir.join("resumed.nnue");
    let checkpoint = dir.join("run.ckpt");
    let base = TrainOptions {
        epochs: 4,
        batch: 2,
        chunk: 3,
        held_out: vec![],
        ..options("chess", data.clone(), whole.clone())
    };
    run_quietly::<Chess>(&base);
    run_quietly::<Chess>(&TrainOptions {
        stop_after: Some(2),
        checkpoint: Some(checkpoint.clone()),
        out: Some(resumed.clone()),
        ..base.clone()
    });
    let lines = run_quietly::<Chess>(&TrainOptions {
        resume: Some(checkpoint.clone()),
        out: Some(resumed.clone()),
        ..base.clone()
    });
    // Only the passes left were run.
    assert_eq!(lines.iter().filter(|l| l.starts_with("epoch")).count(), 2);
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&resumed).unwrap()
    );
    // A checkpoint of another shape is refused.
    let error = refusal(&TrainOptions {
        hidden: 32,
        resume: Some(checkpoint.clone()),
        ..base.clone()
    });
    assert!(error.contains("not this run's"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two chess networks give a few positions (bare, full of pawns, the start) the same score.
fn assert_scores_alike(first: &Network, second: &Network) {
    for fen in [
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 b - - 0 1",
        Chess::START_FEN,
    ] {
        let pos = Chess::from_fen(fen).unwrap();
        assert_eq!(
            path::evaluate(first, &pos),
            path::evaluate(second, &pos),
            "{fen}"
        );
    }
}

#[test]
fn a_run_from_a_network_file_starts_where_that_network_stands() {
    let dir = temp_dir("init");
    let data = queen_positions(&dir);
    let first = dir.join("first.nnue");
    let again = dir.join("again.nnue");
    let base = TrainOptions {
        epochs: 4,
        batch: 2,
        chunk: 3,
        ..options("chess", data.clone(), first.clone())
    };
    let trained = run_quietly::<Chess>(&base);
    // No pass at all: the network read is the network written, integer for integer, and its
    // loss is reported before any pass, near the float network's after the last one.
    let lines = run_quietly::<Chess>(&TrainOptions {
        epochs: 0,
        init: Some(first.clone()),
        out: Some(again.clone()),
        ..base.clone()
    });
    assert_eq!(
        std::fs::read(&first).unwrap(),
        std::fs::read(&again).unwrap()
    );
    let start: f64 = lines
        .iter()
        .find_map(|l| l.strip_prefix("the starting network's loss on the held-out positions: "))
        .expect("the starting loss is reported")
        .parse()
        .unwrap();
    let last = *held_out_losses(&trained).last().unwrap();
    assert!(
        (start - last).abs() < 0.01 * last.max(1e-3),
        "{start} against {last}"
    );
    // Passes from there go on lowering the loss a random start would begin far above.
    let lines = run_quietly::<Chess>(&TrainOptions {
        init: Some(first.clone()),
        out: Some(again.clone()),
        ..base.clone()
    });
    let first_pass = held_out_losses(&lines)[0];
    assert!(first_pass < held_out_losses(&trained)[0], "{first_pass}");
    // A network of another activation is refused.
    let error = refusal(&TrainOptions {
        activation: Activation::Crelu,
        init: Some(first.clone()),
        ..base.clone()
    });
    assert!(error.contains("not this run's"), "{error}");
    // A narrower one starts a wider run as it stands: the new units have no say at first.
    let wide_file = dir.join("wide.nnue");
    run_quietly::<Chess>(&TrainOptions {
        epochs: 0,
        hidden: 48,
        init: Some(first.clone()),
        out: Some(wide_file.clone()),
        ..base.clone()
    });
    let error = refusal(&TrainOptions {
        init: Some(wide_file.clone()),
        ..base.clone()
    });
    assert!(error.contains("not this run's"), "{error}");
    let narrow = Network::from_bytes(&std::fs::read(&first).unwrap(), Chess::INPUTS).unwrap();
    let wide = Network::from_bytes(&std::fs::read(&wide_file).unwrap(), Chess::INPUTS).unwrap();
    assert_eq!((narrow.hidden(), wide.hidden()), (16, 48));
    assert_scores_alike(&narrow, &wide);
    // A network of one output bucket starts a run of three as three copies of its output
    // layer: every position scores as before, whatever its bucket.
    let bucketed = dir.join("bucketed.nnue");
    run_quietly::<Chess>(&TrainOptions {
        epochs: 0,
        output_buckets: 3,
        init: Some(first.clone()),
        out: Some(bucketed.clone()),
        ..base.clone()
    });
    let one = Network::from_bytes(&std::fs::read(&first).unwrap(), Chess::INPUTS).unwrap();
    let three = Network::from_bytes(&std::fs::read(&bucketed).unwrap(), Chess::INPUTS).unwrap();
    assert_eq!((one.buckets(), three.buckets()), (1, 3));
    assert_scores_alike(&one, &three);
    // Trained on from there, the buckets part ways, and a three-bucket network does not start
    // a run of two.
    run_quietly::<Chess>(&TrainOptions {
        output_buckets: 3,
        init: Some(first.clone()),
        out: Some(bucketed.clone()),
        ..base.clone()
    });
    let three = Network::from_bytes(&std::fs::read(&bucketed).unwrap(), Chess::INPUTS).unwrap();
    let (_, _, layers, _) = three.dequantise();
    let hidden = three.hidden();
    assert_ne!(layers[..2 * hidden], layers[2 * hidden..4 * hidden]);
    let error = refusal(&TrainOptions {
        output_buckets: 2,
        init: Some(bucketed.clone()),
        ..base.clone()
    });
    assert!(error.contains("not this run's"), "{error}");
    // A three-bucket network starts a run of three as it is, every bucket its own.
    let again = dir.join("again-bucketed.nnue");
    run_quietly::<Chess>(&TrainOptions {
        epochs: 0,
        output_buckets: 3,
        init: Some(bucketed.clone()),
        out: Some(again.clone()),
        ..base.clone()
    });
    assert_eq!(
        std::fs::read(&bucketed).unwrap(),
        std::fs::read(&again).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_buckets_are_for_chess_alone_and_at_most_eight() {
    let dir = temp_dir("buckets");
    let data = queen_positions(&dir);
    let out = dir.join("net.nnue");
    for (variant, buckets) in [("nichess", 2), ("chess", 9), ("chess", 0)] {
        let options = TrainOptions {
            output_buckets: buckets,
            ..options(variant, data.clone(), out.clone())
        };
        let error = match variant {
            "nichess" => refusal_of::<Nichess>(&options),
            _ => refusal(&options),
        };
        assert!(
            error.contains("--output-buckets"),
            "{variant} {buckets}: {error}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_rate_follows_a_cosine_from_the_first_to_the_last_pass() {
    assert_eq!(scheduled_rate(0.01, 0.001, 0, 5), 0.01);
    assert!((scheduled_rate(0.01, 0.001, 4, 5) - 0.001).abs() < 1e-9);
    assert!((scheduled_rate(0.01, 0.001, 2, 5) - 0.0055).abs() < 1e-6);
}
