use super::*;
use crate::rules::Game;

/// The hand-set evaluation, whose terms these tests check (the network's correction is
/// tested in `network::chess`).
fn eval(fen: &str) -> i32 {
    evaluate_with(&Chess::from_fen(fen).unwrap(), W, &mut ())
}

#[test]
fn the_evaluation_is_the_hand_set_one_plus_the_network() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let pos = Chess::from_fen(fen).unwrap();
    let correction = if network::network().is_residual() {
        network::evaluate(network::network(), &pos)
    } else {
        network::evaluate(network::network(), &pos) - eval(fen)
    };
    assert_eq!(pos.evaluate(), eval(fen) + correction);
    let mut path = Chess::path_state(EvalOptions::default());
    assert_eq!(pos.evaluate_at(&mut path, 3), pos.evaluate());
    assert_eq!(pos.evaluate_off_path(&path), pos.evaluate());
    // `Use NNUE false` is the search's own: its path state says so.
    let mut hand_set = Chess::path_state(EvalOptions {
        use_network: false,
        ..EvalOptions::default()
    });
    assert_eq!(pos.evaluate_at(&mut hand_set, 3), eval(fen));
    assert_eq!(pos.evaluate_off_path(&hand_set), eval(fen));
}

#[test]
fn start_position_is_near_equal_and_symmetric() {
    let start = eval(crate::rules::chess::START_FEN);
    assert!(start.abs() < 30, "{start}");
    // Mirrored positions score the same for the side to move.
    let a = eval("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let b = eval("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
    assert_eq!(a, b);
}

#[test]
fn material_and_passed_pawns_count() {
    assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 700);
    assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -700);
    let passer = eval("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
    let home = eval("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
    assert!(passer > home + 50, "{passer} vs {home}");
}

#[test]
fn drawn_material_scales_the_endgame_to_nothing() {
    // A bare minor piece cannot win: the evaluation is near zero though a bishop is up.
    let bishop = eval("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert!(bishop.abs() < 40, "{bishop}");
    // A rook against a bishop is mostly drawn: far less than a rook's lead.
    let rook_vs_bishop = eval("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1");
    assert!(rook_vs_bishop < 100, "{rook_vs_bishop}");
    // With a pawn the minor counts in full.
    let with_pawn = eval("4k3/8/8/8/8/8/P7/2B1K3 w - - 0 1");
    assert!(with_pawn > 300, "{with_pawn}");
}

#[test]
fn opposite_coloured_bishops_halve_the_endgame() {
    // Two pawns up with bishops on opposite colours, against the same on one colour.
    let opposite = eval("4k3/8/8/3b4/8/8/PP6/2B1K3 w - - 0 1");
    let same = eval("4k3/8/8/2b5/8/8/PP6/2B1K3 w - - 0 1");
    assert!(
        opposite > 0 && opposite * 3 < same * 2,
        "{opposite} vs {same}"
    );
}

#[test]
fn attackers_near_the_king_and_threats_count() {
    // The same material; Black's queen and knight bear on White's castled king.
    let quiet = eval("r1b1k2r/ppppqppp/2n2n2/8/8/5N2/PPPP1PPP/RNBQ1RK1 w kq - 0 1");
    let attacked = eval("r1b1k2r/pppp1ppp/8/8/6n1/7q/PPPP1PP1/RNBQ1RK1 w kq - 0 1");
    assert!(attacked < quiet - 100, "{attacked} vs {quiet}");
    // A pawn attacking a knight is worth something to the side that attacks.
    let threat = eval("4k3/8/2n5/3P4/8/8/8/4K3 b - - 0 1");
    let no_threat = eval("4k3/8/1n6/3P4/8/8/8/4K3 b - - 0 1");
    assert!(threat < no_threat, "{threat} vs {no_threat}");
}

#[test]
fn a_king_behind_its_pawns_is_safer_than_one_in_front_of_a_storm() {
    // The same material: White's castled king keeps f2-g2-h2, or has pushed them while
    // Black's pawns storm the same files.
    let sheltered = eval("r3k2r/pppq1p2/2n1b3/4p1pp/8/2N1B3/PPPQ1PPP/R4RK1 w kq - 0 1");
    let stormed = eval("r3k2r/pppq1p2/2n1b3/4p3/5Ppp/2N1B1P1/PPPQ3P/R4RK1 w kq - 0 1");
    assert!(sheltered > stormed + 20, "{sheltered} vs {stormed}");
    // The storm is read from each side alike.
    let mirrored = eval("r4rk1/pppq1ppp/2n1b3/8/4P1PP/2N1B3/PPPQ1P2/R3K2R b KQ - 0 1");
    assert_eq!(sheltered, mirrored);
}

/// The middlegame coefficient (White's view) an evaluation gives weight `index`.
fn coefficient(fen: &str, index: usize) -> f32 {
    struct One(usize, f32);
    impl Tracer for One {
        fn mg(&mut self, index: usize, coef: f32) {
            if index == self.0 {
                self.1 += coef;
            }
        }
        fn eg(&mut self, _: usize, _: f32) {}
        fn flat(&mut self, _: usize, _: f32) {}
        fn phase(&mut self, _: f32) {}
    }
    let mut one = One(index, 0.0);
    evaluate_with(&Chess::from_fen(fen).unwrap(), W, &mut one);
    one.1
}

#[test]
fn backward_pawns_and_bare_king_flanks_are_seen() {
    // d3 has a neighbour on c4 but none beside or behind it, and e5 covers d4.
    let backward = "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1";
    assert_eq!(coefficient(backward, at!(backward_mg)), 1.0);
    assert_eq!(
        coefficient("4k3/8/8/4p3/8/2PP4/8/4K3 w - - 0 1", at!(backward_mg)),
        0.0
    );
    // White's king on g1 has no pawn of either side on the f-h files; Black's on b8 has.
    let flank = "1k6/pp6/8/8/8/8/PP6/6K1 w - - 0 1";
    assert_eq!(coefficient(flank, at!(pawnless_flank_mg)), 1.0);
    // With Black's king on g8 as well, both flanks are bare and the two terms cancel.
    let both = "6k1/pp6/8/8/8/8/PP6/6K1 w - - 0 1";
    assert_eq!(coefficient(both, at!(pawnless_flank_mg)), 0.0);
}

#[test]
fn a_bishop_shut_in_its_corner_costs_and_standard_chess_never_has_one() {
    use crate::rules::Color;
    let cost = |fen: &str, us: Color| super::cornered_bishops(&Chess::from_fen(fen).unwrap(), us);
    assert_eq!(cost(crate::rules::chess::START_FEN, Color::White), 0);
    // Start position 0, BBQNNRKR: each side's a-file bishop sits behind its b-pawn.
    let sp0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    assert_eq!(cost(sp0, Color::White), super::CORNERED_BISHOP);
    assert_eq!(cost(sp0, Color::Black), super::CORNERED_BISHOP);
    // The pawn gone: free. The pawn blocked on b3: four times. Backed by a pawn on c3: twice.
    let fen = |rank3: &str, rank2: &str| format!("4k3/8/8/8/8/{rank3}/{rank2}/B3K3 w - - 0 1");
    assert_eq!(cost(&fen("8", "8"), Color::White), 0);
    assert_eq!(
        cost(&fen("1N6", "1P6"), Color::White),
        4 * super::CORNERED_BISHOP
    );
    assert_eq!(
        cost(&fen("2P5", "1P6"), Color::White),
        2 * super::CORNERED_BISHOP
    );
}

/// The pawn cache returns what the evaluation would compute: along random games (each step
/// checked after a cache that has seen every position before it), and for two positions that
/// differ only in castling rights, whose shelters differ.
#[test]
fn the_pawn_cache_never_changes_a_score() {
    let mut rng = crate::common::Rng::new(11);
    let mut cache = PawnCache::default();
    for _ in 0..30 {
        let mut pos = Chess::from_fen(crate::rules::chess::START_FEN).unwrap();
        for _ in 0..120 {
            assert_eq!(
                evaluate_cached(&pos, W, &mut cache),
                evaluate_with(&pos, W, &mut ()),
                "{}",
                pos.fen()
            );
            let mut moves = crate::rules::MoveList::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
    }
    let castles = "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQ - 0 1";
    let stays = "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w - - 0 1";
    assert_ne!(
        eval(castles),
        eval(stays),
        "the test needs shelters that differ"
    );
    for fen in [castles, stays, castles] {
        let pos = Chess::from_fen(fen).unwrap();
        assert_eq!(evaluate_cached(&pos, W, &mut cache), eval(fen), "{fen}");
    }
}
