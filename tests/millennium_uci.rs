//! Millennium chess through the real `roger` binary: variant selection and its announcement,
//! positions and moves with files `a`..`o`, perft after any move list, searches that answer with
//! legal moves, a mate of the last king, and bad input refused with the last good state kept.

use crate::common;
use common::Roger;
use roger::rules::millennium::{Millennium, START_FEN};
use roger::rules::{Game, GameRecord};

#[test]
fn perft_after_move_lists_matches_the_library() {
    let mut roger = Roger::start_variant("millennium", 15, 8, START_FEN);
    assert_eq!(roger.perft("startpos", 3), "Nodes searched: 59535");
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
        let position = format!("startpos moves {}", moves.join(" "));
        assert_eq!(
            roger.perft(&position, 3),
            format!("Nodes searched: {expected}"),
            "{moves:?}"
        );
        assert_eq!(roger.fen(), record.position().fen());
    }
}

#[test]
fn the_board_display_has_fifteen_files_and_the_pool() {
    let mut roger = Roger::start_variant("millennium", 15, 8, START_FEN);
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
    let mut roger = Roger::start_variant("millennium", 15, 8, START_FEN);
    let good = "4k5k4/7P7/15/15/15/15/15/4K5K4 w - - 0 30 QNr";
    roger.send(&format!("position fen {good}"));
    assert_eq!(roger.fen(), good);
    let cases = [
        // Sixteen files.
        (
            "position fen 16/15/15/15/15/15/15/4K5K4 w - - 0 1".to_string(),
            "'16' empty squares in a row",
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
    let mut roger = Roger::start_variant("millennium", 15, 8, START_FEN);
    roger.send("position startpos moves h2h4 h7h5");
    let best = roger.go("depth 5").pop().expect("a bestmove line");
    let mv = best.split_whitespace().nth(1).unwrap().to_string();
    let mut record = GameRecord::new(Millennium::startpos());
    record.play_text("h2h4").unwrap();
    record.play_text("h7h5").unwrap();
    assert!(record.play_text(&mv).is_ok(), "{best}");

    // Black's last king on a8: a back-rank mate in one.
    let mate = "fen k14/pp13/15/15/15/15/15/2R1K5K4 w - - 0 1";
    roger.assert_search(mate, "depth 4", "bestmove c1c8", "score mate 1 ");
    // The mated side has no move.
    let mated = format!("{mate} moves c1c8");
    roger.assert_search(&mated, "depth 4", "bestmove 0000", "score mate 0");
}
