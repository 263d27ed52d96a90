//! The learning pipeline from the command line, end to end on a tiny scale: sharded self-play,
//! the data commands, a trained network, and the engine playing with it through `EvalFile`.

use crate::common;

use common::{Roger, PROMPT};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `roger ARGS`, expecting success; its standard output.
fn roger(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_roger"))
        .args(args)
        .output()
        .expect("roger runs");
    assert!(
        output.status.success(),
        "roger {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().expect("a UTF-8 path").to_string()
}

#[test]
fn sharded_self_play_trains_a_nichess_network_that_the_engine_plays_with() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("roger-data-pipeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two shares of one seeded run of four games.
    for share in ["1/2", "2/2"] {
        let out = path(&dir, &format!("part-{}.rgd", &share[..1]));
        let said = roger(&[
            "datagen",
            "--variant",
            "nichess",
            "--games",
            "4",
            "--nodes",
            "150",
            "--max-plies",
            "60",
            "--seed",
            "8",
            "--shard",
            share,
            "--out",
            &out,
        ]);
        assert!(said.contains("datagen nichess: 2 games"), "{said}");
    }
    let all = path(&dir, "all.rgd");
    roger(&[
        "data",
        "merge",
        &path(&dir, "part-1.rgd"),
        &path(&dir, "part-2.rgd"),
        "--out",
        &all,
    ]);
    let counted = roger(&["data", "count", &all]);
    assert!(counted.contains(": nichess, 4 games"), "{counted}");
    let (train, held) = (path(&dir, "train.rgd"), path(&dir, "held.rgd"));
    roger(&[
        "data",
        "split",
        &all,
        "--fraction",
        "0.5",
        "--seed",
        "3",
        "--train",
        &train,
        "--held-out",
        &held,
    ]);
    let net = path(&dir, "nichess.nnue");
    let trained = roger(&[
        "train",
        "--variant",
        "nichess",
        "--data",
        &train,
        "--held-out",
        &held,
        "--epochs",
        "2",
        "--hidden",
        "16",
        "--residual",
        "--batch",
        "64",
        "--threads",
        "1",
        "--out",
        &net,
    ]);
    assert!(trained.contains("held out"), "{trained}");
    assert!(trained.contains("epoch   2"), "{trained}");

    let mut engine = Roger::start();
    engine.select_variant("nichess");
    engine.send(&format!("setoption name EvalFile value {net}"));
    let said = engine
        .read_until(PROMPT, |line| line.starts_with("info string"))
        .pop()
        .expect("an answer");
    assert_eq!(
        said,
        format!(
            "info string EvalFile {net}: a nichess network, 4608x16 (SCReLU, a correction), in \
             place of the built-in one"
        )
    );
    engine.send("position startpos");
    let lines = engine.go("depth 3");
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
