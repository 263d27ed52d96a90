//! Millennium chess through the real `roger` binary: variant selection and its announcement,
//! positions and moves with files `a`..`o`, perft after any move list, searches that answer with
//! legal moves, a mate of the last king, and bad input refused with the last good state kept.

use roger::rules::millennium::{Millennium, START_FEN};
use roger::rules::{Game, GameRecord};
mod common;
use common::Roger;

/// Starts the engine and selects Millennium, checking the board announcement.
fn millennium() -> Roger {
    let mut roger = Roger::start();
    assert_eq!(
        roger.select_variant("millennium"),
        format!("info string variant millennium files 15 ranks 8 startpos {START_FEN}")
    );
    roger
}

#[test]
fn perft_after_move_lists_matches_the_library() {
    let mut roger = millennium();
    roger.send("position startpos");
    roger.send("go perft 3");
    assert_eq!(roger.last("Nodes searched"), "Nodes searched: 59535");
    // Moves on the far files, a capture into the pool, castling with the k-king.
    let lines: [&[&str]; 3] = [
        &["o2o4", "a7a5", "o4o5", "a5a4"],
        &[
            "l2l4", "a7a6", "l1l3", "a6a5", "m1l2", "a5a4", "n1m3", "a4a3", "k1m1", "a3b2",
        ],
        &["i1j3", "i8j6", "j3k5", "j6k4", "k5l7", "m8l7"],
    ];
    for moves in lines {
        let mut record = GameRecord::new(Millennium::startpos());
        for mv in moves {
            record.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
        let expected = record.position().perft(3);
        roger.send(&format!("position startpos moves {}", moves.join(" ")));
        assert_eq!(roger.fen(), record.position().fen());
        roger.send("go perft 3");
        assert_eq!(
            roger.last("Nodes searched"),
            format!("Nodes searched: {expected}"),
            "{moves:?}"
        );
    }
}

#[test]
fn the_board_display_has_fifteen_files_and_the_pool() {
    let mut roger = millennium();
    roger.send("position fen 4k5k4/7P7/15/15/15/15/15/4K5K4 w - - 0 30 QNr");
    roger.send("d");
    let lines = roger.until("Key: ");
    assert!(lines
        .iter()
        .any(|l| l.trim_start().starts_with("a   b") && l.trim_end().ends_with("n   o")));
    assert!(lines.iter().any(|l| l == "Pool: QNr"));
    assert!(lines
        .iter()
        .any(|l| l == "Fen: 4k5k4/7P7/15/15/15/15/15/4K5K4 w - - 0 30 QNr"));
}

#[test]
fn bad_input_is_refused_and_the_last_good_state_kept() {
    let mut roger = millennium();
    let good = "4k5k4/7P7/15/15/15/15/15/4K5K4 w - - 0 30 QNr";
    roger.send(&format!("position fen {good}"));
    assert_eq!(roger.fen(), good);
    let cases = [
        // Sixteen files.
        (
            "position fen 16/15/15/15/15/15/15/4K5K4 w - - 0 1".to_string(),
            "empty-run count of 16",
        ),
        (
            "position fen 4k5k5/15/15/15/15/15/15/4K5K4 w - - 0 1".to_string(),
            "more than 15 squares",
        ),
        // A king in the pool.
        (
            "position fen 4k5k4/15/15/15/15/15/15/4K5K4 w - - 0 1 Kq".to_string(),
            "a king is never reinstated",
        ),
        // Castling letters for pieces that are not there.
        (
            "position fen 4k5k4/15/15/15/15/15/15/4K5K4 w AEHKO - 0 1".to_string(),
            "castling right 'A' needs the white rook on a1",
        ),
        (
            "position fen 4k5k4/15/15/15/15/15/15/4K5K4 w EK - 0 1 moves e1d1 e8e7 d1e1 e7e8 e1c1"
                .to_string(),
            "is not a legal move",
        ),
        // A promotion to a kind the pool does not hold, and with no pool at all.
        (
            format!("position fen {good} moves h7h8r"),
            "a pawn is exchanged only for a captured piece of its side; here one of: q n",
        ),
        (
            "position fen 4k5k4/7P7/15/15/15/15/15/4K5K4 w - - 0 30 moves h7h8q".to_string(),
            "white has no captured piece to reinstate",
        ),
        // Chess notation on the wide board.
        ("position startpos moves p2p4".to_string(), "files a to o"),
    ];
    for (command, needle) in cases {
        roger.send(&command);
        let error = roger.last("info string error");
        assert!(error.contains(needle), "{command}: {error}");
        assert_eq!(roger.fen(), good, "{command}");
    }
    // A good move list afterwards still works.
    roger.send(&format!("position fen {good} moves h7h8q"));
    assert_eq!(roger.fen(), "4k2Q2k4/15/15/15/15/15/15/4K5K4 b - - 0 30 Nr");
}

#[test]
fn searches_answer_with_legal_moves_and_find_the_mate_of_the_last_king() {
    let mut roger = millennium();
    roger.send("position startpos moves h2h4 h7h5");
    roger.send("go depth 5");
    let best = roger.last("bestmove");
    let mv = best.split_whitespace().nth(1).unwrap().to_string();
    let mut record = GameRecord::new(Millennium::startpos());
    record.play_text("h2h4").unwrap();
    record.play_text("h7h5").unwrap();
    assert!(record.play_text(&mv).is_ok(), "{best}");

    // Black's last king on a8: a back-rank mate in one.
    let mate = "k14/pp13/15/15/15/15/15/2R1K5K4 w - - 0 1";
    roger.send(&format!("position fen {mate}"));
    roger.send("go depth 4");
    let lines = roger.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove c1c8");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:#?}"
    );
    // The mated side has no move.
    roger.send(&format!("position fen {mate} moves c1c8"));
    roger.send("go depth 4");
    assert_eq!(roger.last("bestmove"), "bestmove 0000");
}
