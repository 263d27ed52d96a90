//! Nichess through the real `roger` binary: variant selection, positions and moves in the
//! game's notation, FEN with health, perft, and the end of a game by a destroyed king.

use crate::common;
use common::Roger;
use roger::rules::nichess::{Nichess, START_FEN};
use roger::rules::{Game, GameRecord};

#[test]
fn perft_after_a_move_list_in_the_games_notation() {
    let mut roger = Roger::start_variant("nichess", 8, 8, START_FEN);
    assert_eq!(roger.perft("startpos", 3), "Nodes searched: 9062");
    // Moves, a queen raid and its hits on the f7 pawn and beyond, then perft from there.
    let moves = ["e2e4", "e7e5", "d1h5", "g8f6", "h5f7", "e8f7", "g1f3"];
    let mut record = GameRecord::new(Nichess::startpos());
    for mv in moves {
        record.play_text(mv).unwrap();
    }
    let expected = record.position().perft(3);
    assert_eq!(
        roger.perft(&format!("startpos moves {}", moves.join(" ")), 3),
        format!("Nodes searched: {expected}")
    );
}

#[test]
fn fen_with_health_throws_and_the_board_display() {
    let mut roger = Roger::start_variant("nichess", 8, 8, START_FEN);
    roger.send("position fen k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1 moves d1h5");
    roger.send("d");
    assert_eq!(
        roger.last("Fen:"),
        "Fen: k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1"
    );
    roger.send("position fen 4k3/8/8/8/8/8/8/N(25)3K3 w - - 0 1");
    roger.send("isready");
    let lines = roger.until("readyok");
    assert!(
        lines.iter().any(|l| l.contains("25 HP")),
        "no error about the 25 HP: {lines:#?}"
    );
    roger.send("position startpos moves e2e4 e7e5 d1h5 b8c6 b7b8r");
    roger.send("isready");
    let lines = roger.until("readyok");
    assert!(lines.iter().any(|l| l.contains("'b7b8r'")), "{lines:#?}");
}

#[test]
fn the_engine_destroys_the_king_by_splash_and_knows_when_its_own_is_gone() {
    let mut roger = Roger::start_variant("nichess", 8, 8, START_FEN);
    let splash = "fen 8/1k6/n7/8/8/8/R7/R3K3 w - - 0 1";
    roger.assert_search(splash, "depth 4", "bestmove a1a6", "score mate 1 ");
    let after = format!("{splash} moves a1a6");
    roger.assert_search(&after, "depth 4", "bestmove 0000", "score mate 0");
}

/// Threefold repetition ends a Nichess game at once (docs/rules/nichess.md), and the protocol
/// treats it as the 333-ply limit: no actions, `go` answers `score cp 0` and `bestmove 0000`,
/// perft counts 0, and a further move (or a `searchmoves` move) is refused naming the ending.
#[test]
fn threefold_repetition_ends_the_game_as_the_ply_limit_does() {
    let mut roger = Roger::start_variant("nichess", 8, 8, START_FEN);
    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    let ply_limit = "fen 4k3/8/8/8/8/8/8/R3K3 b - - 0 167";
    let repeated = format!("startpos moves {shuffle} {shuffle}");
    for ended in [ply_limit, repeated.as_str()] {
        roger.assert_search(ended, "depth 3", "bestmove 0000", "score cp 0 ");
        assert_eq!(roger.perft(ended, 1), "Nodes searched: 0", "{ended}");
        assert_eq!(roger.perft(ended, 3), "Nodes searched: 0", "{ended}");
    }
    let fen = roger.fen();
    let over =
        "the game is over: the position has occurred three times (threefold repetition, a draw)";
    roger.expect_error(
        &format!("position {repeated} g1f3"),
        &["move 9 'g1f3' rejected", over, "the position is unchanged"],
    );
    roger.expect_error(
        &format!("position {repeated} {shuffle}"),
        &["move 9 'g1f3' rejected", over],
    );
    assert_eq!(roger.fen(), fen, "the last good position stays");
    roger.expect_error(
        "go searchmoves g1f3 depth 2",
        &["searchmoves: 'g1f3'", over],
    );
    // A malformed move is still named as such.
    roger.expect_error(
        &format!("position {repeated} b7b8r"),
        &["'b7b8r' is not a move"],
    );
    // Twice is not yet the end: the game goes on.
    roger.send(&format!("position startpos moves {shuffle} g1f3 g8f6 f3g1"));
    let lines = roger.go("depth 2");
    let best = lines.last().unwrap();
    assert_ne!(best, "bestmove 0000", "{lines:#?}");
    assert_eq!(
        roger.perft(&format!("startpos moves {shuffle}"), 1),
        "Nodes searched: 20"
    );
}
