//! Exchange values of hand-checked positions in each game.

use super::Exchange;
use crate::rules::chess::Chess;
use crate::rules::millennium::Millennium;
use crate::rules::nichess::Nichess;
use crate::rules::Game;

/// Asserts that `mv` in `fen` wins exactly `value`: at least `value`, not `value + 1`.
fn assert_exchange<G: Game + Exchange>(fen: &str, mv: &str, value: i32) {
    let pos = G::from_fen(fen).unwrap();
    let mv = pos.parse_move(mv).unwrap();
    assert!(
        pos.see_ge(mv, value),
        "{fen} {mv:?} should win at least {value}"
    );
    assert!(
        !pos.see_ge(mv, value + 1),
        "{fen} {mv:?} should win no more than {value}"
    );
}

#[test]
fn chess_captures_weigh_the_recaptures() {
    // An undefended pawn.
    assert_exchange::<Chess>(
        "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        "e1e5",
        100,
    );
    // Nxe5 Nxe5, and White stops: Rxe5 Bxe5 would lose more.
    assert_exchange::<Chess>(
        "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        "d3e5",
        100 - 320,
    );
    // A queen takes a pawn defended by a pawn.
    assert_exchange::<Chess>("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100 - 950);
    // The rook behind the rook joins in (an x-ray): Rxd5 cxd5 Rxd5 wins a pawn net of a rook
    // for a rook and pawn.
    assert_exchange::<Chess>(
        "4k3/8/2p5/3p4/8/8/3R4/3RK3 w - - 0 1",
        "d2d5",
        100 - 500 + 100,
    );
    // A king retakes only what is not defended again.
    assert_exchange::<Chess>("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100 - 500);
    assert_exchange::<Chess>("8/8/4k3/3p4/2P5/8/8/3RK3 w - - 0 1", "d1d5", 100);
}

#[test]
fn chess_quiet_moves_onto_attacked_squares_lose_the_piece() {
    let fen = "4k3/8/3p4/8/8/2Q5/8/4K3 w - - 0 1";
    assert_exchange::<Chess>(fen, "c3e5", -950);
    assert_exchange::<Chess>(fen, "c3a5", 0);
}

#[test]
fn millennium_kings_are_pieces_until_the_keystone_falls() {
    // A rook takes a pawn defended by a pawn.
    assert_exchange::<Millennium>(
        "4k5k4/3p11/4p10/15/15/15/15/4R5K4 w - - 0 1",
        "e1e6",
        100 - 500,
    );
    // With two kings a king is worth a keystone, and may be taken.
    assert_exchange::<Millennium>("4k5k4/15/15/15/15/15/15/4R5K4 w - - 0 1", "e1e8", 650);
}

#[test]
fn nichess_knows_a_hit_that_only_damages() {
    // The queen wounds the knight and stops on d4, out of the knight's reach: a gain.
    let wound = "4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1";
    let pos = Nichess::from_fen(wound).unwrap();
    let hit = pos.parse_move("d1d5").unwrap();
    assert!(pos.see_ge(hit, 1));
    // The queen destroys a pawn and lands on d5, where the other pawn destroys her: a loss.
    let defended = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
    let pos = Nichess::from_fen(defended).unwrap();
    let hit = pos.parse_move("d1d5").unwrap();
    assert!(pos.see_ge(hit, -2000));
    assert!(!pos.see_ge(hit, 0));
}
