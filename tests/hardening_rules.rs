//! Issue 9's rules reproducers through the real `roger` binary: move counters that must not
//! wrap, a Nichess game that has reached its move limit, and FEN text that is refused rather
//! than quietly read.

use crate::common;
use common::Roger;

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
const MILLENNIUM_START: &str =
    "rnbqkbnrnbkqbnr/ppppppppppppppp/15/15/15/15/PPPPPPPPPPPPPPP/RNBQKBNRNBKQBNR";

/// The FEN `d` shows reads back as the same position.
fn assert_reads_back(roger: &mut Roger, fen: &str) {
    roger.send(&format!("position fen {fen}"));
    assert_eq!(roger.sync(), Vec::<String>::new(), "{fen} was refused");
    assert_eq!(roger.fen(), fen);
}

#[test]
fn move_counters_go_past_65535_and_saturate_instead_of_wrapping() {
    let mut roger = Roger::start();
    // Four quiet plies past where 16-bit counters wrapped (`... 2 1` before the fix).
    roger.send(&format!(
        "position fen {CHESS_START} w KQkq - 65534 65535 moves g1f3 g8f6 f3g1 f6g8"
    ));
    let fen = roger.fen();
    assert_eq!(fen, format!("{CHESS_START} w KQkq - 65538 65537"));
    assert_reads_back(&mut roger, &fen);
    // At the top of the range the counters stay there.
    let top = u32::MAX;
    roger.send(&format!(
        "position fen {CHESS_START} w KQkq - {top} {top} moves g1f3 g8f6 f3g1 f6g8"
    ));
    assert_eq!(roger.fen(), format!("{CHESS_START} w KQkq - {top} {top}"));
    roger.expect_error(
        &format!("position fen {CHESS_START} w KQkq - 4294967296 1"),
        &["halfmove clock '4294967296' is out of range: at most 4294967295"],
    );

    roger.select_variant("millennium");
    roger.send(&format!(
        "position fen {MILLENNIUM_START} w AEHKOaehko - 65535 65535 moves b1c3 b8c6 c3b1 c6b8"
    ));
    let fen = roger.fen();
    assert_eq!(
        fen,
        format!("{MILLENNIUM_START} w AEHKOaehko - 65539 65537")
    );
    assert_reads_back(&mut roger, &fen);
}

/// The Nichess start with 328 plies played (move 165, White to move), then `n` plies of
/// knights going out and back. (From the start itself the shuffle would end the game by
/// threefold repetition at ply 8, long before the limit.)
fn knight_shuffle(n: usize) -> String {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = (0..n).map(|i| cycle[i % 4]).collect();
    format!(
        "fen rnmqkmnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w - - 0 165 moves {}",
        moves.join(" ")
    )
}

#[test]
fn a_nichess_game_at_its_move_limit_refuses_moves_and_has_no_best_move() {
    let mut roger = Roger::start();
    roger.select_variant("nichess");
    roger.send(&format!("position {}", knight_shuffle(5)));
    let fen = roger.fen();
    assert_eq!(
        fen,
        "rnmqkmnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNMQKM1R b - - 5 167"
    );
    assert_reads_back(&mut roger, &fen);
    // The finished game has nothing to play and says so.
    let lines = roger.go("depth 3");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 0000"));
    assert!(lines.iter().any(|l| l.contains("score cp 0")), "{lines:#?}");
    roger.send("go perft 2");
    assert_eq!(roger.last("Nodes searched"), "Nodes searched: 0");
    // A 334th ply is refused with the reason, and the last good position stays.
    roger.send(&format!("position {}", knight_shuffle(4)));
    roger.sync();
    roger.expect_error(
        &format!("position {}", knight_shuffle(6)),
        &[
            "move 6 'g8f6'",
            "the game is over: all 333 plies of the move limit have been played",
        ],
    );
    assert_eq!(
        roger.fen(),
        "rnmqkmnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w - - 4 167"
    );
    roger.expect_error(
        &format!("position fen {fen} moves g8f6"),
        &["the game is over"],
    );
    // One ply short of the limit the game goes on.
    roger.send(&format!("position {}", knight_shuffle(4)));
    let lines = roger.go("depth 2");
    assert_ne!(lines.last().map(String::as_str), Some("bestmove 0000"));
}

#[test]
fn lenient_fen_text_is_refused_with_what_is_wrong() {
    let mut roger = Roger::start();
    for (fen, fragment) in [
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6 has '44' empty squares in a row, but a count of empty squares is 1 to 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 00 1",
            "halfmove clock '00' has a leading zero: write it as '0'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 01",
            "move number '01' has a leading zero: write it as '1'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +3 1",
            "halfmove clock '+3' is not a number",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "white has 17 pieces, 8 of them pawns; a side has at most 16",
        ),
        (
            "4k3/8/8/8/p7/8/pppppppp/4K3 b - - 0 1",
            "black has 10 pieces, 9 of them pawns",
        ),
        // Found by the protocol fuzzer: a run with a leading zero, and an en passant square on
        // the first rank (which overflowed a square index in debug builds).
        (
            "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6 has '08' empty squares in a row, but a count of empty squares is 1 to 8",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - a1 0 1",
            "en passant square a1 does not follow a double pawn push",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 b - h8 0 1",
            "en passant square h8 does not follow a double pawn push",
        ),
    ] {
        roger.expect_error(&format!("position fen {fen}"), &[fragment]);
        // The engine keeps its last good position.
        assert_eq!(roger.fen(), format!("{CHESS_START} w KQkq - 0 1"));
    }
    // The counters read the same in every game.
    roger.select_variant("nichess");
    roger.expect_error(
        "position fen rnmqkmnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w - - 0 007",
        &["move number '007' has a leading zero: write it as '7'"],
    );
    roger.select_variant("millennium");
    roger.expect_error(
        &format!("position fen {MILLENNIUM_START} w - - 0 1e3"),
        &["move number '1e3' is not a number"],
    );
}

#[test]
fn castling_letters_in_any_order_and_move_number_0_are_normalised() {
    let mut roger = Roger::start();
    roger.send(&format!("position fen {CHESS_START} w qkQK - 0 0"));
    assert_eq!(roger.fen(), format!("{CHESS_START} w KQkq - 0 1"));
    roger.select_variant("millennium");
    roger.send(&format!(
        "position fen {MILLENNIUM_START} w okheaOKHEA - 0 1"
    ));
    assert_eq!(
        roger.fen(),
        format!("{MILLENNIUM_START} w AEHKOaehko - 0 1")
    );
    roger.expect_error(
        &format!("position fen {MILLENNIUM_START} w AEHKOaehkoA - 0 1"),
        &["castling letter 'A' appears twice"],
    );
}
