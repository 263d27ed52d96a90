use super::*;
use crate::board::Square;
use crate::rules::{checks, Color, EndReason, Game, GameRecord, MoveList, Outcome, RuleError};

/// The rules page's perft table; deeper counts are in the benchmarks.
const START_PERFT: [u64; 4] = [20, 400, 9062, 204_934];

fn position(fen: &str) -> Nichess {
    Nichess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(fen: &str, moves: &[&str]) -> Nichess {
    moves.iter().fold(position(fen), |pos, text| {
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.fen()));
        pos.play(mv)
    })
}

fn legal(pos: &Nichess) -> Vec<String> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.iter().map(|m| m.text()).collect()
}

fn hp(pos: &Nichess, square: &str) -> u32 {
    pos.hp_at(Square::parse(square, 8, 8).unwrap())
}

fn piece(pos: &Nichess, square: &str) -> Option<char> {
    pos.piece_at(Square::parse(square, 8, 8).unwrap())
        .map(Piece::letter)
}

#[test]
fn perft_from_the_start_matches_the_rules_page() {
    let start = Nichess::startpos();
    assert_eq!(start.fen(), START_FEN);
    checks::perft_counts(&start, &START_PERFT);
}

/// Positions with throws, damaged pieces, castling and promotions ready, for the tree walk.
const MIDGAMES: &[&str] = &[
    START_FEN,
    "r3k2r/pp1m1ppp/2n1q3/2PpN3/3Q4/2M2n(30)2/RP3PPP/R3K2R(30) w - - 4 12",
    "k5N1/1P4R1/6R1/3m4/2q1n(20)3/8/p1M5/3QK3 b - - 0 40",
];

/// Walks the tree checking at every node that the incremental key equals the key from
/// scratch, that FEN round-trips, and that the tactical actions are the hits and promotions.
fn walk(pos: &Nichess, depth: u32) {
    assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
    let fen = pos.fen();
    let reparsed = Nichess::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(reparsed.fen(), fen);
    assert_eq!(reparsed.key(), pos.key());
    assert!(reparsed == *pos, "{fen}");
    let mut all = MoveList::new();
    pos.generate_moves(&mut all);
    assert_eq!(pos.count_actions(), all.len() as u64, "{fen}");
    checks::tactical_moves_are_the_tactical_legal_ones(pos);
    // Every action has its own text, and the text reads back as the same action.
    for &mv in &all {
        assert_eq!(pos.parse_move(&mv.text()), Ok(mv), "{fen}");
    }
    if depth == 0 {
        return;
    }
    for &mv in &all {
        let child = pos.play(mv);
        assert_eq!(pos.fen(), fen, "copy-make leaves the parent as it was");
        walk(&child, depth - 1);
    }
    if let Some(null) = pos.play_null() {
        assert_eq!(null.key(), null.key_from_scratch());
    }
}

#[test]
fn incremental_keys_fen_round_trips_and_tactical_actions_hold_everywhere() {
    walk(&Nichess::startpos(), 3);
    for fen in &MIDGAMES[1..] {
        walk(&position(fen), 2);
    }
    // The walk meets throws, castling and promotions at its root already.
    let mut kinds = Vec::new();
    for fen in &MIDGAMES[1..] {
        let mut moves = MoveList::new();
        position(fen).generate_moves(&mut moves);
        kinds.extend(moves.iter().map(|m| m.kind()));
    }
    for kind in [
        MoveKind::Throw,
        MoveKind::Castle,
        MoveKind::Promotion,
        MoveKind::Attack,
    ] {
        assert!(kinds.contains(&kind), "{kind:?}");
    }
}

#[test]
fn random_games_keep_keys_health_and_fens_consistent() {
    // Seeded, so the games are the same on every run.
    let mut rng = crate::common::Rng::new(0x2545_F491_4F6C_DD1D);
    let mut endings = Vec::new();
    for _ in 0..200 {
        let mut record = GameRecord::new(Nichess::startpos());
        while record.outcome() == Outcome::Ongoing {
            let pos = record.position();
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let mv = moves[rng.index(moves.len())];
            record.play(mv);
            let pos = record.position();
            assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
            assert_eq!(Nichess::from_fen(&pos.fen()).unwrap(), *pos);
            assert_eq!(pos.count_actions(), pos.perft(1));
            let mut all = MoveList::new();
            pos.generate_moves(&mut all);
            assert_eq!(all.len() as u64, pos.count_actions());
            for sq in 0..64u8 {
                if let Some(p) = pos.piece_at(Square(sq)) {
                    let hp = pos.hp_at(Square(sq));
                    assert!((10..=p.kind.start_hp() as u32 * 10).contains(&hp));
                }
            }
        }
        endings.push(record.outcome());
    }
    // Random play ends by destroyed kings mostly, and always within 333 plies.
    let destroyed = endings
        .iter()
        .filter(|o| matches!(o, Outcome::Win(_, EndReason::KingDestroyed)))
        .count();
    assert!(destroyed > 100, "{destroyed} of 200");
}

#[test]
fn start_position_layout_and_health() {
    let start = Nichess::startpos();
    let rank1: String = "abcdefgh"
        .chars()
        .map(|f| piece(&start, &format!("{f}1")).unwrap())
        .collect();
    assert_eq!(rank1, "RNMQKMNR");
    assert_eq!(piece(&start, "d8"), Some('q'));
    assert_eq!(piece(&start, "e8"), Some('k'));
    for (square, expected) in [
        ("a1", 60),
        ("b1", 60),
        ("c1", 10),
        ("d1", 10),
        ("e1", 10),
        ("a2", 30),
    ] {
        assert_eq!(hp(&start, square), expected, "{square}");
    }
    let white_moves = legal(&start);
    assert_eq!(white_moves.len(), 20);
    // Maenads step orthogonally: none can, every square around them is taken at the start.
    assert!(!white_moves.iter().any(|m| m.starts_with("c1")));
}

#[test]
fn queen_damaging_attack_stops_before_the_target() {
    let fen = "4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1";
    let after = play(fen, &["d1d5"]);
    assert_eq!(after.fen(), "4k3/8/8/3n(30)4/3Q4/8/8/4K3 b - - 0 1");
    // Adjacent now: the second hit destroys the knight and the queen takes its square.
    let second = play(fen, &["d1d5", "e8e7", "d4d5"]);
    assert_eq!(piece(&second, "d5"), Some('Q'));
    assert_eq!(piece(&second, "d4"), None);
}

/// Each action, played from its position, leaves the position given.
fn check_results(cases: &[(&str, &str, &str)]) {
    for &(fen, action, expected) in cases {
        assert_eq!(play(fen, &[action]).fen(), expected, "{action} in {fen}");
    }
}

#[test]
fn pirate_damaging_attack_stops_before_the_target() {
    check_results(&[(
        "4k3/8/n7/8/8/8/8/R3K3 w - - 0 1",
        "a1a6",
        "4k3/8/n(30)7/R7/8/8/8/4K3 b - - 0 1",
    )]);
}

#[test]
fn maenad_damaging_attacks_diagonal_and_orthogonal() {
    check_results(&[
        // Along the diagonal it lands on g5, next to the pirate on h6.
        (
            "4k3/8/7r/8/8/8/8/2M1K3 w - - 0 1",
            "c1h6",
            "4k3/8/7r(30)/6M1/8/8/8/4K3 b - - 0 1",
        ),
        // Its one orthogonal step attacks too; already adjacent, it stays where it is.
        (
            "4k3/8/8/4n3/4M3/8/8/4K3 w - - 0 1",
            "e4e5",
            "4k3/8/8/4n(30)3/4M3/8/8/4K3 b - - 0 1",
        ),
        // A 30-AP attack destroys a piece of 30 HP or less and moves onto its square.
        (
            "4k3/8/8/4n(30)3/4M3/8/8/4K3 w - - 0 1",
            "e4e5",
            "4k3/8/8/4M3/8/8/8/4K3 b - - 0 1",
        ),
    ]);
}

#[test]
fn sixty_ap_pieces_destroy_anything() {
    // The knight destroys a full pirate; the pawn attacks only diagonally forward.
    check_results(&[(
        "4k3/8/8/8/8/2r5/8/1N2K3 w - - 0 1",
        "b1c3",
        "4k3/8/8/8/8/2N5/8/4K3 b - - 0 1",
    )]);
    let pawn = position("4k3/8/8/8/3rr3/4P3/8/4K3 w - - 0 1");
    let moves = legal(&pawn);
    assert!(moves.contains(&"e3d4".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("e3e")), "{moves:?}");
    assert_eq!(
        play("4k3/8/8/8/3rr3/4P3/8/4K3 w - - 0 1", &["e3d4"]).fen(),
        "4k3/8/8/8/3Pr3/8/8/4K3 b - - 0 1"
    );
}

#[test]
fn pawn_double_step_only_from_its_start_rank_and_no_en_passant() {
    let pos = position("4k3/8/8/8/8/P7/1P6/4K3 w - - 0 1");
    let moves = legal(&pos);
    assert!(moves.contains(&"b2b4".to_string()));
    assert!(moves.contains(&"a3a4".to_string()));
    assert!(!moves.contains(&"a3a5".to_string()));
    let blocked = position("4k3/8/8/8/1n6/8/1P6/4K3 w - - 0 1");
    assert!(!legal(&blocked).contains(&"b2b4".to_string()));
    // After a double step beside an enemy pawn there is no en passant.
    let pos = play("4k3/8/8/8/2p5/8/1P6/4K3 w - - 0 1", &["b2b4"]);
    assert!(!legal(&pos).contains(&"c4b3".to_string()));
}

#[test]
fn queen_throw_destroys_the_target_and_splashes_enemies_only() {
    // The queen on d1 throws the maenad on e2 along the diagonal at the pirate on h5 (60 HP,
    // destroyed whatever its health). Around h5: the black maenad dies (10 HP), the black
    // knight drops to 40, the black pawn to 10; the white knight on g5 is spared.
    let fen = "k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1";
    assert!(legal(&position(fen)).contains(&"d1h5".to_string()));
    let after = play(fen, &["d1h5"]);
    assert_eq!(after.fen(), "k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1");
    assert_eq!(hp(&after, "h5"), 10, "the maenad lands unhurt");
    assert_eq!(hp(&after, "g5"), 60, "own pieces take no splash");
}

#[test]
fn pirate_throw_keeps_the_thrown_pirates_health() {
    // The pirate on a1 throws the damaged pirate on a2 at the knight on a6: the black pirate
    // on b6 drops from 60 to 40, the maenad on b7 dies.
    let fen = "7k/1m6/nr6/8/8/8/R(30)7/R3K3 w - - 0 1";
    let after = play(fen, &["a1a6"]);
    assert_eq!(after.fen(), "7k/8/R(30)r(40)6/8/8/8/8/R3K3 b - - 0 1");
}

#[test]
fn throws_need_an_adjacent_piece_and_an_enemy_first_in_line() {
    // An own piece first in line: no throw. Nothing in line: no throw.
    let own_first = position("k7/8/8/7N/8/8/4M3/3QK3 w - - 0 1");
    assert!(!legal(&own_first).contains(&"d1h5".to_string()));
    let empty_line = position("k7/8/8/8/8/8/4M3/3QK3 w - - 0 1");
    assert!(legal(&empty_line)
        .iter()
        .all(|m| !m.starts_with("d1") || !["e2", "f3", "g4", "h5"].contains(&&m[2..])));
    // The maenad one square away, not adjacent: no throw; the queen just moves.
    let gap = position("k7/8/8/7r/8/5M2/8/3QK3 w - - 0 1");
    assert!(!legal(&gap).contains(&"d1h5".to_string()));
    // Pirates throw orthogonally only, queens throw maenads diagonally only.
    let diagonal_pirate = position("k7/6r1/8/8/8/8/1R6/R3K3 w - - 0 1");
    assert!(!legal(&diagonal_pirate).contains(&"a1g7".to_string()));
    let orthogonal_maenad = position("k7/3r4/8/8/8/8/3M4/3QK3 w - - 0 1");
    assert!(!legal(&orthogonal_maenad).contains(&"d1d7".to_string()));
    // Range is unlimited, over any number of empty squares.
    let long = play("r6k/8/8/8/8/8/R7/R3K3 w - - 0 1", &["a1a8"]);
    assert_eq!(long.fen(), "R6k/8/8/8/8/8/8/R3K3 b - - 0 1");
}

#[test]
fn a_king_killed_by_splash_ends_the_game() {
    let fen = "8/1k6/n7/8/8/8/R7/R3K3 w - - 0 1";
    let mut record = GameRecord::new(position(fen));
    record.play_text("a1a6").unwrap();
    let pos = record.position();
    assert!(pos.king_destroyed(Color::Black));
    assert!(legal(pos).is_empty());
    assert!(pos.in_check());
    assert_eq!(pos.no_moves_reason(), EndReason::KingDestroyed);
    assert_eq!(
        record.outcome(),
        Outcome::Win(Color::White, EndReason::KingDestroyed)
    );
    // The FEN of the finished game reads back.
    assert_eq!(Nichess::from_fen(&pos.fen()).unwrap().fen(), pos.fen());
}

#[test]
fn any_hit_on_the_king_destroys_it() {
    // A 30-AP pirate against the 10-HP king, from across the board.
    let mut record = GameRecord::new(position("3k4/8/8/8/8/8/8/3RK3 w - - 0 1"));
    assert_eq!(record.outcome(), Outcome::Ongoing);
    record.play_text("d1d8").unwrap();
    assert_eq!(record.position().fen(), "3R4/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(
        record.outcome(),
        Outcome::Win(Color::White, EndReason::KingDestroyed)
    );
    // A black pawn's attack ends it for White the same way.
    let mut record = GameRecord::new(position("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1"));
    record.play_text("d2e1").unwrap();
    assert_eq!(
        record.outcome(),
        Outcome::Win(Color::Black, EndReason::KingDestroyed)
    );
}

#[test]
fn in_check_means_the_king_can_be_destroyed_next() {
    // A pirate on the king's file, a throw at a piece next to the king, and a quiet board.
    assert!(position("4k3/8/8/8/8/8/8/R3K2r w - - 0 1").in_check());
    assert!(!position("4k3/8/8/8/8/8/3NK3/8 b - - 0 1").in_check());
    // The black pirate pair on a8/a7 throws at the knight on a2; the splash reaches b1.
    assert!(position("r3k3/r7/8/8/8/8/N7/1K6 w - - 0 1").in_check());
    assert!(!position("r3k3/r7/8/8/8/8/N7/2K5 w - - 0 1").in_check());
}

#[test]
fn castling_goes_by_squares_even_after_the_pieces_moved() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1";
    let shuffled = play(
        fen,
        &[
            "h1h2", "e8d8", "e1e2", "d8e8", "h2h1", "a8a7", "e2e1", "a7a8",
        ],
    );
    let moves = legal(&shuffled);
    assert!(moves.contains(&"e1g1".to_string()));
    assert!(moves.contains(&"e1c1".to_string()));
    let short = shuffled.play(shuffled.parse_move("e1g1").unwrap());
    assert_eq!(short.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b - - 9 5");
    let long = play(fen, &["e1c1", "e8c8"]);
    assert_eq!(long.fen(), "2kr3r/8/8/8/8/8/8/2KR3R w - - 2 2");
    // A damaged pirate castles too; a square between taken, or the king away: no castling.
    assert!(legal(&position("4k3/8/8/8/8/8/8/4K2R(30) w - - 0 1")).contains(&"e1g1".to_string()));
    assert!(!legal(&position("4k3/8/8/8/8/8/8/1N2K2R w - - 0 1")).contains(&"e1c1".to_string()));
    assert!(!legal(&position("4k3/8/8/8/8/8/8/R2K3R w - - 0 1"))
        .iter()
        .any(|m| m == "d1f1" || m == "d1b1"));
    // An attacked crossing square does not matter (no check in Nichess).
    assert!(legal(&position("4kr2/8/8/8/8/8/8/4K2R w - - 0 1")).contains(&"e1g1".to_string()));
}

#[test]
fn promotion_by_a_move_and_by_a_destroying_attack() {
    let fen = "n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    let by_move = play(fen, &["b7b8"]);
    assert_eq!(by_move.fen(), "nR2k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(hp(&by_move, "b8"), 60);
    let by_attack = play(fen, &["b7a8"]);
    assert_eq!(by_attack.fen(), "R3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // A black pawn promotes on the first rank; no suffix is read.
    let black = play("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1", &["g2g1"]);
    assert_eq!(black.fen(), "4k3/8/8/8/8/8/8/4K1r1 w - - 0 2");
    assert!(position(fen).parse_move("b7b8r").is_err());
    assert!(position(fen).parse_move("b7b8").unwrap().is_promotion());
}

#[test]
fn repetition_counts_health() {
    // The same placement with a knight at 60 and at 30 HP are two positions.
    let full = position("4k3/8/8/3n4/3Q4/8/8/4K3 w - - 0 1");
    let hurt = position("4k3/8/8/3n(30)4/3Q4/8/8/4K3 w - - 0 1");
    assert_ne!(full.key(), hurt.key());
    // Hitting the knight from the adjacent square leaves the placement as it was.
    let hit = play(&full.fen(), &["d4d5"]);
    assert_eq!(
        hit.fen().split(' ').next(),
        Some("4k3/8/8/3n(30)4/3Q4/8/8/4K3")
    );
    let mut record = GameRecord::new(full);
    let cycle = ["e1e2", "e8e7", "e2e1", "e7e8"];
    for mv in cycle {
        record.play_text(mv).unwrap();
    }
    assert_eq!(record.occurrences(), 2);
    // The queen hits the knight, then both kings walk back (Black by a triangle).
    for mv in ["d4d5", "e8d8", "e1e2", "d8e7", "e2e1", "e7e8"] {
        record.play_text(mv).unwrap();
    }
    // Same squares as the start, other health: counted apart from it.
    assert_eq!(record.occurrences(), 1);
    assert_eq!(record.outcome(), Outcome::Ongoing);
    for mv in cycle {
        record.play_text(mv).unwrap();
    }
    assert_eq!(record.occurrences(), 2);
    // The record ends the game at the first threefold repetition, which comes on the way (the
    // kings on e2 and e7, White to move); the position's own moves go on to the start's third.
    let mut ended = record.clone();
    ended.play_text("e1e2").unwrap();
    ended.play_text("e8e7").unwrap();
    assert_eq!(ended.outcome(), Outcome::Draw(EndReason::Repetition));
    assert!(ended.play_text("e2e1").is_err());
    for mv in cycle {
        let mv = record.position().parse_move(mv).unwrap();
        record.play(mv);
    }
    assert_eq!(record.occurrences(), 3);
    assert_eq!(record.outcome(), Outcome::Draw(EndReason::Repetition));
    // A draw at once: the record allows no more actions, and says why it refuses one.
    assert!(record.over_by_repetition());
    let mut moves = MoveList::new();
    record.generate_moves(&mut moves);
    assert!(moves.is_empty());
    let error = record.play_text("e1e2").unwrap_err();
    assert!(
        matches!(&error, RuleError::Illegal(text) if text.contains("the game is over: the position has occurred three times")),
        "{error:?}"
    );
}

#[test]
fn in_chess_a_threefold_repetition_lets_play_go_on() {
    // Chess's repetition is a draw to claim, adjudicated by the GUI: moves stay legal.
    let mut record = GameRecord::new(crate::rules::chess::Chess::startpos());
    for _ in 0..2 {
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            record.play_text(mv).unwrap();
        }
    }
    assert_eq!(record.occurrences(), 3);
    assert!(!record.over_by_repetition());
    let mut moves = MoveList::new();
    record.generate_moves(&mut moves);
    assert_eq!(moves.len(), 20);
    record.play_text("g1f3").unwrap();
}

#[test]
fn the_game_is_drawn_after_333_plies() {
    // Move 167 with White to move is ply 332; one more ply ends the game.
    let pos = position("4k3/8/8/8/8/8/8/R3K3 w - - 10 167");
    assert_eq!(pos.plies(), 332);
    assert_eq!(pos.draw_by_rule(), None);
    let mut record = GameRecord::new(pos);
    record.play_text("e1e2").unwrap();
    assert_eq!(record.position().plies(), 333);
    assert_eq!(record.position().fen(), "4k3/8/8/8/8/8/4K3/R7 b - - 11 167");
    assert_eq!(record.outcome(), Outcome::Draw(EndReason::MoveLimit));
    // A king destroyed on the 333rd ply still loses.
    let mut record = GameRecord::new(position("4k2R/8/8/8/8/8/8/4K3 w - - 10 167"));
    record.play_text("h8e8").unwrap();
    assert_eq!(
        record.outcome(),
        Outcome::Win(Color::White, EndReason::KingDestroyed)
    );
    // Past the limit is not a position of any game.
    let error = Nichess::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 168").unwrap_err();
    assert!(matches!(&error, RuleError::Malformed(text) if text.contains("333")));
}

#[test]
fn a_game_at_its_move_limit_has_no_actions_and_refuses_moves_with_the_reason() {
    // Black to move at ply 333, its king attacked: the game is over all the same.
    let pos = position("4k3/8/8/8/8/8/8/R3K2R b - - 11 167");
    assert_eq!(pos.plies(), 333);
    assert!(legal(&pos).is_empty());
    assert_eq!(pos.count_moves(), 0);
    assert_eq!(pos.perft(2), 0);
    let mut tactical = MoveList::new();
    pos.generate_tactical(&mut tactical);
    assert!(tactical.is_empty());
    // Nothing can attack the king any more, so the search does not see it as mated.
    assert!(!pos.in_check());
    assert_eq!(pos.no_moves_reason(), EndReason::MoveLimit);
    let error = pos.parse_move("e8d8").unwrap_err();
    assert!(
        matches!(&error, RuleError::Illegal(text) if text.contains("the game is over: all 333 plies")),
        "{error}"
    );
    let record = GameRecord::new(pos);
    assert_eq!(record.outcome(), Outcome::Draw(EndReason::MoveLimit));
    // Every position of a game reads back, the last one too.
    assert_eq!(Nichess::from_fen(&pos.fen()).unwrap(), pos);
    // A destroyed king is the reason when it is one.
    let mut record = GameRecord::new(position("4k2R/8/8/8/8/8/8/4K3 w - - 10 100"));
    record.play_text("h8e8").unwrap();
    let error = record.play_text("e8e7").unwrap_err();
    assert!(
        error.text().contains("the black king was destroyed"),
        "{error}"
    );
}

#[test]
fn fen_with_health_round_trips() {
    for fen in [
        "rnmqkmnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w - - 0 1",
        "r(20)n(10)mqkm1r/p(10)ppppppp/8/8/8/8/PPPPPPPP/R(40)NMQKMN(50)R(30) b - - 3 9",
        "k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1",
    ] {
        assert_eq!(position(fen).fen(), fen);
    }
    // Starting HP written out is accepted and left out when written back.
    assert_eq!(
        position("4k3/8/8/8/8/8/P(30)7/N(60)3K(10)3 w - - 0 1").fen(),
        "4k3/8/8/8/8/8/P7/N3K3 w - - 0 1"
    );
    // Short forms: side only, and castling letters (ignored).
    assert_eq!(
        position("rnmqkmnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w").fen(),
        START_FEN
    );
    assert_eq!(
        position("rnmqkmnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w KQkq - 0 1").fen(),
        START_FEN
    );
}

#[test]
fn impossible_health_and_malformed_fens_are_rejected_with_a_reason() {
    let cases = [
        ("4k3/8/8/8/8/8/8/N(25)3K3 w - - 0 1", "multiple of 10"),
        ("4k3/8/8/8/8/8/8/R(70)3K3 w - - 0 1", "at most 60"),
        ("4k3/8/8/8/8/8/8/N(0)3K3 w - - 0 1", "multiple of 10"),
        ("4k3/8/8/8/8/8/8/3QK(20)3 w - - 0 1", "king has at most 10"),
        ("4k3/8/8/8/8/8/P(40)7/4K3 w - - 0 1", "pawn has at most 30"),
        ("4k3/8/8/8/8/8/8/N(x)3K3 w - - 0 1", "expected a number"),
        ("4k3/8/8/8/8/8/8/3K3N(40 w", "closing"),
        (
            "4k3/8/8/8/8/8/8/(40)4K3 w - - 0 1",
            "does not follow a piece",
        ),
        ("4k3/8/8/8/8/8/8/B3K3 w - - 0 1", "not a piece letter"),
        ("4k3/8/8/8/8/8/8/8 b - - 0 1", "white has 0 kings"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has 2 kings"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "no en passant"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 5 2", "more than the 2 plies"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"),
        ("4k3/8/8/8/8/8/8/4K3 x", "side to move"),
        ("4k3/8/8/8/8/8/8 w", "7 ranks"),
        ("", "fields"),
    ];
    for (fen, reason) in cases {
        let error = Nichess::from_fen(fen).unwrap_err().text().to_string();
        assert!(error.contains(reason), "{fen}: {error}");
    }
}

#[test]
fn action_texts_name_the_target_square_and_bad_texts_are_explained() {
    let pos = position("k7/8/6mn/6Nr/7p/8/4M3/3QK3 w - - 0 1");
    let mv = pos.parse_move("d1h5").unwrap();
    assert!(mv.is_throw());
    assert!(
        matches!(pos.parse_move("d1h"), Err(RuleError::Malformed(text)) if text.contains("not a move"))
    );
    assert!(
        matches!(pos.parse_move("e1e3"), Err(RuleError::Illegal(text)) if text.contains("not a legal move"))
    );
    let attack = position("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1")
        .parse_move("d1d5")
        .unwrap();
    assert_eq!(attack.kind(), MoveKind::Attack);
}

#[test]
fn board_diagram_shows_health() {
    let text = position("k7/8/7n(40)/6NM/7p(10)/8/8/3QK3 b - - 0 1").board_text();
    assert!(text.contains("n 40"), "{text}");
    assert!(text.contains("p 10"), "{text}");
    assert!(text.contains("Q 10"), "{text}");
}
