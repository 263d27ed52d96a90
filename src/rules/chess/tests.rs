use super::*;
use crate::rules::{checks, Color, EndReason, Game, GameRecord, MoveList, Outcome};

/// The standard perft suite (chessprogramming.org "Perft Results"), at depths that keep the test
/// run short; deeper counts are in the benchmarks.
const PERFT_SUITE: &[(&str, &[u64])] = &[
    (START_FEN, &[20, 400, 8902, 197_281, 4_865_609]),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2039, 97_862, 4_085_603],
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2812, 43_238, 674_624],
    ),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9467, 422_333],
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1486, 62_379, 2_103_487],
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2079, 89_890, 3_894_594],
    ),
];

#[test]
fn perft_suite() {
    for (fen, counts) in PERFT_SUITE {
        checks::perft_counts(&Chess::from_fen(fen).unwrap(), counts);
    }
}

/// Walks the move tree and checks at every node that the incremental key equals the key from
/// scratch, that FEN round-trips, and that the tactical generator is the captures and queen
/// promotions of the full one.
fn walk(pos: &Chess, depth: u32) {
    assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.fen());
    let fen = pos.fen();
    let reparsed = Chess::from_fen(&fen).unwrap();
    assert_eq!(reparsed.fen(), fen);
    assert_eq!(reparsed.key(), pos.key());
    let mut all = MoveList::new();
    pos.generate_moves(&mut all);
    let mut tactical = MoveList::new();
    pos.generate_tactical(&mut tactical);
    if !pos.in_check() {
        let mut expected: Vec<Move> = all
            .iter()
            .copied()
            .filter(|m| m.is_capture() || m.flag_bits() == MoveFlag::PromoteQueen as u16)
            .collect();
        let mut got: Vec<Move> = tactical.to_vec();
        expected.sort_by_key(|m| m.0);
        got.sort_by_key(|m| m.0);
        assert_eq!(got, expected, "{}", pos.fen());
    }
    if depth == 0 {
        return;
    }
    for &mv in &all {
        let child = pos.play(mv);
        // The search's early guess of the child's key holds for every usual move.
        let usual = !mv.is_castle()
            && !mv.is_en_passant()
            && !mv.is_promotion()
            && child.castling == pos.castling
            && !child.en_passant_matters();
        if usual {
            assert_eq!(
                pos.likely_key_after(mv),
                child.key(),
                "{fen} {}",
                pos.move_text(mv)
            );
        }
        walk(&child, depth - 1);
    }
    if let Some(null) = pos.play_null() {
        assert_eq!(null.key(), null.key_from_scratch());
    }
}

#[test]
fn incremental_keys_fen_round_trips_and_tactical_moves_hold_everywhere() {
    for (fen, _) in PERFT_SUITE {
        walk(&Chess::from_fen(fen).unwrap(), 3);
    }
}

#[test]
fn transposed_positions_share_a_key() {
    let a = Chess::startpos();
    let play = |p: &Chess, moves: &[&str]| {
        moves
            .iter()
            .fold(*p, |p, m| p.play(p.parse_move(m).unwrap()))
    };
    let x = play(&a, &["g1f3", "g8f6", "b1c3", "b8c6"]);
    let y = play(&a, &["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(x.key(), y.key());
    // The same placement with an en passant capture available is another position.
    let e = play(&a, &["e2e4", "a7a6", "e4e5", "d7d5"]);
    let f = play(
        &a,
        &["e2e4", "d7d6", "e4e5", "a7a6", "g1f3", "d6d5", "f3g1"],
    );
    assert_eq!(e.to_fen().split(' ').next(), f.to_fen().split(' ').next());
    assert_ne!(e.key(), f.key());
}

#[test]
fn more_pieces_than_promotions_allow_are_refused_and_the_most_moves_fit_a_list() {
    // Fifteen queens: fourteen beyond the starting set, with no pawn missing to account for them.
    let error = Chess::from_fen("k7/8/8/8/8/8/QQQQQQQQ/QQQQQQQK w - - 0 1").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("14 pieces beyond its starting set"),
        "{error}"
    );
    // Three rooks and all eight pawns: one promoted piece, no pawn missing.
    let error = Chess::from_fen("k7/8/8/8/8/8/PPPPPPPP/RRRK4 w - - 0 1").unwrap_err();
    assert!(
        error.to_string().contains("only 0 pawns missing"),
        "{error}"
    );
    // The position with the most legal moves known (218): nine queens, eight of them promoted.
    let most = Chess::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
    let mut moves = MoveList::new();
    most.generate_moves(&mut moves);
    assert_eq!(moves.len(), 218);
    assert!(moves.capacity() >= 218);
}

#[test]
fn malformed_fens_are_rejected_with_a_reason() {
    let cases = [
        ("", "fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "'9' empty squares",
        ),
        (
            "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "7 squares",
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "'x'",
        ),
        (
            "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "black has 0 kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
            "'z'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "castling right 'K'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq j9 0 1",
            "not a square",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove",
        ),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1 extra", "fields"),
        ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "not to move"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn"),
        (
            "rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "white has 17 pieces",
        ),
        (
            "4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1",
            "white has 10 pieces, 9 of them pawns",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 01",
            "leading zero",
        ),
    ];
    checks::fen_errors::<Chess>(&cases);
    // Four fields are enough.
    assert_eq!(
        Chess::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap().fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
}

#[test]
fn moves_parse_and_print_in_long_algebraic_form() {
    let pos = Chess::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    for text in ["e1g1", "e1c1", "b7b8q", "b7a8n", "a1a8"] {
        assert_eq!(pos.parse_move(text).unwrap().text(), text);
    }
    for bad in ["e1e3", "b7b8", "b7b8k", "e9e1", "", "e1g1x", "castle"] {
        assert!(pos.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn endings_are_recognised() {
    let record = |fen: &str, moves: &[&str]| {
        let mut r = GameRecord::new(Chess::from_fen(fen).unwrap());
        for m in moves {
            r.play_text(m).unwrap();
        }
        r
    };
    let mate = record(START_FEN, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(
        mate.outcome(),
        Outcome::Win(Color::Black, EndReason::Checkmate)
    );
    let stalemate = record("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[]);
    assert_eq!(stalemate.outcome(), Outcome::Draw(EndReason::Stalemate));
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let twice = record(START_FEN, &shuffle);
    assert_eq!(twice.outcome(), Outcome::Ongoing);
    let thrice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    assert_eq!(
        record(START_FEN, &thrice).outcome(),
        Outcome::Draw(EndReason::Repetition)
    );
    let fifty = record("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", &["a1a2"]);
    assert_eq!(fifty.outcome(), Outcome::Draw(EndReason::FiftyMoves));
    // Mate on the hundredth ply is still mate.
    let mate_at_fifty = record("7k/8/6K1/8/8/8/8/R7 w - - 99 80", &["a1a8"]);
    assert_eq!(
        mate_at_fifty.outcome(),
        Outcome::Win(Color::White, EndReason::Checkmate)
    );
    for (fen, drawn) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
    ] {
        let outcome = record(fen, &[]).outcome();
        assert_eq!(
            outcome == Outcome::Draw(EndReason::InsufficientMaterial),
            drawn,
            "{fen}"
        );
    }
}

#[test]
fn counters_count_past_16_bits_in_a_long_game() {
    // 131,072 quiet plies of knights out and back: 16-bit counters wrapped to `0 1` here.
    let mut record = GameRecord::new(Chess::startpos());
    for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        record.play_text(text).unwrap();
    }
    let cycle = record.moves().to_vec();
    for ply in 4..131_072 {
        record.play(cycle[ply % 4]);
    }
    let fen = record.position().fen();
    assert_eq!(fen, START_FEN.replace(" 0 1", " 131072 65537"));
    assert_eq!(Chess::from_fen(&fen).unwrap().fen(), fen);
}

#[test]
fn a_move_after_the_end_says_the_game_is_over() {
    // Fool's mate: White is mated and has no move left.
    let mut record = GameRecord::new(Chess::startpos());
    for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        record.play_text(text).unwrap();
    }
    let error = record.play_text("e1f2").unwrap_err();
    assert!(
        error.text().ends_with(": the game is over (checkmate)"),
        "{error}"
    );
    assert_eq!(record.moves().len(), 4);
}

/// The legal moves of `fen` as the protocol writes them, sorted.
fn legal_texts(position: &Chess) -> Vec<String> {
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&mv| position.move_text(mv)).collect();
    texts.sort();
    texts
}

#[test]
fn chess960_castling_lands_king_and_rook_on_the_standard_files() {
    // King f1 and rook g1: the king lands where its rook stood, the rook jumps over it.
    let position = Chess::from_fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1").unwrap();
    assert!(position.is_chess960());
    let after = position.play(position.parse_move("f1g1").unwrap());
    assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // King g1 castling with h1: the king does not move at all.
    let position = Chess::from_fen("4k3/8/8/8/8/8/8/6KR w K - 0 1").unwrap();
    let castle = position.parse_move("g1h1").unwrap();
    assert!(castle.is_castle());
    assert_eq!(position.move_text(castle), "g1h1");
    assert_eq!(san::write(&position, castle), "O-O");
    assert_eq!(
        position.play(castle).fen(),
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    );
    // Queen's side from b1 with the rook on a1: king to c1, rook to d1.
    let position = Chess::from_fen("4k3/8/8/8/8/8/8/RK6 w Q - 0 1").unwrap();
    let castle = position.parse_move("b1a1").unwrap();
    assert_eq!(san::write(&position, castle), "O-O-O");
    assert_eq!(
        position.play(castle).fen(),
        "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"
    );
}

#[test]
fn chess960_castling_needs_free_squares_a_safe_path_and_a_safe_landing() {
    let castles = |fen: &str| {
        let position = Chess::from_fen(fen).unwrap();
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        moves
            .iter()
            .filter(|mv| mv.is_castle())
            .map(|&mv| position.move_text(mv))
            .collect::<Vec<_>>()
    };
    // Free: king b1 and rook c1 castle short over d1-g1 when they are empty.
    assert_eq!(castles("4k3/8/8/8/8/8/8/1KR5 w C - 0 1"), ["b1c1"]);
    // A piece on the king's path (e1), or on the rook's landing square (f1), stops it.
    assert!(castles("4k3/8/8/8/8/8/8/1KR1N3 w C - 0 1").is_empty());
    assert!(castles("4k3/8/8/8/8/8/8/1KR2N2 w C - 0 1").is_empty());
    // An attacked square on the king's path (e1 by the rook on e8).
    assert!(castles("4r1k1/8/8/8/8/8/8/1KR5 w C - 0 1").is_empty());
    // The castling rook shields c1 from the queen on a1 only until it moves to d1.
    assert!(castles("4k3/8/8/8/8/8/8/qRK5 w B - 0 1").is_empty());
    // In check: no castling.
    assert!(castles("2r1k3/8/8/8/8/8/8/1RK5 w B - 0 1").is_empty());
    // The squares only the rook crosses may be attacked (b1 by the rook on b8).
    assert_eq!(castles("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), ["e1c1"]);
}

#[test]
fn castling_fields_read_as_x_fen_and_shredder_fen() {
    let rights = |fen: &str| {
        let position = Chess::from_fen(fen).unwrap();
        (position.castling_rights(), position.fen())
    };
    // KQkq name the outermost rooks; file letters any rook; both write back as X-FEN.
    let (_, fen) = rights("rk2r2r/8/8/8/8/8/8/RK2R2R w KQkq - 0 1");
    assert!(fen.contains(" KQkq "), "{fen}");
    let (_, fen) = rights("rk2r2r/8/8/8/8/8/8/RK2R2R w EAea - 0 1");
    assert!(fen.contains(" EQeq "), "{fen}");
    let (bits, fen) = rights("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    assert_eq!(bits, 15);
    assert!(fen.contains(" KQkq "), "{fen}");
    // The standard start reads and writes as always, and is not Chess960 unless asked.
    let mut start = Chess::startpos();
    assert!(!start.is_chess960());
    assert_eq!(start.fen(), START_FEN);
    assert_eq!(
        Chess::from_fen(&START_FEN.replace("KQkq", "HAha")).unwrap(),
        start
    );
    // Asked for Chess960, the standard start writes castling king-takes-rook and reads both.
    let position = Chess::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    assert!(legal_texts(&position).contains(&"e1g1".to_string()));
    assert_eq!(position.parse_move("e1h1"), position.parse_move("e1g1"));
    let mut chess960 = position;
    chess960.set_chess960(true);
    let texts = legal_texts(&chess960);
    assert!(texts.contains(&"e1h1".to_string()) && texts.contains(&"e1a1".to_string()));
    assert!(!texts.contains(&"e1g1".to_string()));
    assert_eq!(chess960.parse_move("e1g1"), chess960.parse_move("e1h1"));
    start.set_chess960(true);
    assert!(start.is_chess960());
}

#[test]
fn castling_rights_go_with_the_king_and_with_their_own_rook() {
    let play = |fen: &str, moves: &[&str]| {
        let mut record = GameRecord::new(Chess::from_fen(fen).unwrap());
        for text in moves {
            record.play_text(text).unwrap();
        }
        record.position().fen()
    };
    let fen = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1";
    // A rook's move gives up its side only; the king's move both.
    assert!(play(fen, &["g1g2"]).contains(" Qkq "));
    assert!(play(fen, &["b1b2"]).contains(" Kkq "));
    assert!(play(fen, &["e1e2"]).contains(" b kq "));
    // Capturing a castling rook takes its right.
    assert!(play(fen, &["g1g8"]).contains(" Qq "));
}

#[test]
fn chess960_castling_errors_say_what_is_missing() {
    for (fen, expected) in [
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            "castling right 'K' needs a white rook on the king's side of its king on e1",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w C - 0 1",
            "castling right 'C' needs a white rook on the queen's side of its king on e1, on the c-file",
        ),
        (
            "4k3/8/8/8/8/8/4K3/R6R w K - 0 1",
            "castling right 'K' needs the white king on its back rank, not on e2",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K1RR w KG - 0 1",
            "castling field 'KG' gives white two rights on the king's side",
        ),
    ] {
        let error = Chess::from_fen(fen).unwrap_err().to_string();
        assert!(error.contains(expected), "{fen}: {error}");
    }
}
