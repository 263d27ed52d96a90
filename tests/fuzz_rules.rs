//! The rules fuzzer: a short seeded pass over every turn game finds nothing, the checker catches
//! rules broken on purpose (with a reproducer), and `roger fuzz rules` prints its counts.

use roger::board::Square;
use roger::fuzz::rules::{fuzz_games, run, Failure, FuzzedGame, RulesFuzzOptions};
use roger::rules::chess::{Chess, Move};
use roger::rules::{Color, EndReason, Game, MoveList, RuleError};
use std::process::Command;

fn options(games: u64, seed: u64, variant: Option<&str>) -> RulesFuzzOptions {
    RulesFuzzOptions {
        games,
        seed,
        variant: variant.map(str::to_string),
    }
}

/// A short seeded pass over one game: no failure, and the games reach the special moves and
/// the endings they should.
fn short_pass(variant: &str, games: u64, specials: &[&str], endings: &[&str]) {
    let report = run(&options(games, 7, Some(variant)));
    let text = report.text();
    assert!(
        report.failures.is_empty() && report.total_failures() == 0,
        "{text}"
    );
    let (name, counts) = &report.counts[0];
    assert_eq!((*name, counts.games), (variant, games));
    assert!(counts.from_fen > 0, "{text}");
    assert!(counts.children > counts.positions && counts.positions > counts.plies);
    for special in specials {
        assert!(counts.special.contains_key(special), "{special}: {text}");
    }
    for ending in endings {
        assert!(counts.endings.contains_key(ending), "{ending}: {text}");
    }
}

#[test]
fn chess_random_games_pass_every_check() {
    short_pass(
        "chess",
        150,
        &["castling", "promotion", "en passant"],
        &[
            "checkmate",
            "stalemate",
            "50-move rule",
            "threefold repetition",
            "insufficient material",
        ],
    );
}

#[test]
fn millennium_random_games_pass_every_check() {
    short_pass(
        "millennium",
        40,
        &["castling", "promotion", "en passant"],
        &["checkmate", "50-move rule", "threefold repetition"],
    );
}

#[test]
fn nichess_random_games_pass_every_check() {
    short_pass(
        "nichess",
        120,
        &["castling", "promotion", "throw"],
        &["king destroyed", "move limit", "threefold repetition"],
    );
}

/// Chess with one fault put in on purpose, for proving that the fuzzer finds it.
#[derive(Clone, Debug)]
struct Broken<const FAULT: u8> {
    inner: Chess,
    /// What the faulty key has drifted by.
    drift: u64,
}

const KEY_FORGETS_CASTLING: u8 = 0;
const FEN_DROPS_A_RIGHT: u8 = 1;
const TEXT_DROPS_PROMOTION: u8 = 2;
const MATE_CALLED_STALEMATE: u8 = 3;
const KEY_OF_PLACEMENT_ONLY: u8 = 4;
const PANIC_ON_EN_PASSANT: u8 = 5;

impl<const FAULT: u8> Game for Broken<FAULT> {
    type Move = Move;
    const VARIANT: &'static str = "chess";
    const FILES: u8 = 8;
    const RANKS: u8 = 8;
    const START_FEN: &'static str = Chess::START_FEN;
    const MOVE_SUFFIXES: &'static [&'static str] = Chess::MOVE_SUFFIXES;
    const MOVE_FORM: &'static str = Chess::MOVE_FORM;
    const QUIET_PLY_LIMIT: Option<u32> = Chess::QUIET_PLY_LIMIT;

    fn from_fen(fen: &str) -> Result<Self, RuleError> {
        Chess::from_fen(fen).map(|inner| Broken { inner, drift: 0 })
    }
    fn fen(&self) -> String {
        let fen = self.inner.fen();
        if FAULT == FEN_DROPS_A_RIGHT {
            // Black's queen-side right is lost whenever White may still castle.
            let fields: Vec<&str> = fen.split(' ').collect();
            if fields[2].starts_with('K') && fields[2].ends_with('q') {
                return fen.replacen(fields[2], &fields[2].replace('q', ""), 1);
            }
        }
        fen
    }
    fn side_to_move(&self) -> Color {
        self.inner.side_to_move()
    }
    fn halfmove_clock(&self) -> u32 {
        self.inner.halfmove_clock()
    }
    fn key(&self) -> u64 {
        if FAULT == KEY_OF_PLACEMENT_ONLY {
            return self.key_from_scratch();
        }
        self.inner.key() ^ self.drift
    }
    fn key_from_scratch(&self) -> u64 {
        if FAULT == KEY_OF_PLACEMENT_ONLY {
            // Blind to the side to move and the rights.
            let fen = self.inner.fen();
            let placement = fen.split(' ').next().unwrap();
            return placement
                .bytes()
                .fold(0xCBF2_9CE4_8422_2325u64, |key, byte| {
                    (key ^ byte as u64).wrapping_mul(0x100_0000_01B3)
                });
        }
        self.inner.key_from_scratch()
    }
    fn in_check(&self) -> bool {
        self.inner.in_check()
    }
    fn piece_code(&self, sq: Square) -> u8 {
        self.inner.piece_code(sq)
    }
    fn pawn_key(&self) -> u64 {
        self.inner.pawn_key()
    }
    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        self.inner.generate_moves(moves)
    }
    fn generate_tactical(&self, moves: &mut MoveList<Move>) {
        self.inner.generate_tactical(moves)
    }
    fn is_tactical(&self, mv: Move) -> bool {
        self.inner.is_tactical(mv)
    }
    fn make(&mut self, mv: Move) {
        if FAULT == PANIC_ON_EN_PASSANT && mv.is_en_passant() {
            panic!("en passant is not written yet");
        }
        if FAULT == KEY_FORGETS_CASTLING && mv.is_castle() {
            self.drift ^= 0x0123_4567_89AB_CDEF;
        }
        self.inner.make(mv)
    }
    fn make_null(&mut self) {
        self.inner.make_null()
    }
    fn has_non_pawn_material(&self) -> bool {
        self.inner.has_non_pawn_material()
    }
    fn no_moves_reason(&self) -> EndReason {
        match self.inner.no_moves_reason() {
            EndReason::Checkmate if FAULT == MATE_CALLED_STALEMATE => EndReason::Stalemate,
            reason => reason,
        }
    }
    fn no_mating_material(&self) -> bool {
        self.inner.no_mating_material()
    }
    fn board_text(&self) -> String {
        self.inner.board_text()
    }
    fn move_text(&self, mv: Move) -> String {
        let text = self.inner.move_text(mv);
        if FAULT == TEXT_DROPS_PROMOTION {
            return text[..4].to_string();
        }
        text
    }
}

impl<const FAULT: u8> FuzzedGame for Broken<FAULT> {
    fn special_kind(&self, mv: Move) -> Option<&'static str> {
        self.inner.special_kind(mv)
    }
    fn in_quiescence(&self, mv: Move) -> bool {
        self.inner.in_quiescence(mv)
    }
}

/// The first failure the fuzzer reports for the broken game.
fn first_failure<const FAULT: u8>() -> Failure {
    let mut failures = Vec::new();
    let counts = fuzz_games::<Broken<FAULT>>(&options(20, 1, None), 0, &mut failures);
    assert!(counts.failures > 0, "fault {FAULT} went unnoticed");
    assert_eq!(failures.len() as u64, counts.failures.min(20));
    let failure = failures.swap_remove(0);
    // The reproducer's position reads.
    Chess::from_fen(&failure.fen).expect("the reproducer's FEN reads");
    failure
}

#[test]
fn an_incremental_key_that_forgets_castling_is_caught_after_the_castling() {
    let failure = first_failure::<KEY_FORGETS_CASTLING>();
    assert!(failure.what.contains("from scratch"), "{failure}");
    let mv = failure.mv.clone().expect("the move is named");
    let position = Chess::from_fen(&failure.fen).unwrap();
    assert!(position.parse_move(&mv).unwrap().is_castle(), "{failure}");
    assert!(failure
        .to_string()
        .contains(&format!("position fen {} moves {mv}", failure.fen)));
}

#[test]
fn a_fen_that_loses_a_castling_right_is_caught() {
    let failure = first_failure::<FEN_DROPS_A_RIGHT>();
    assert!(failure.what.contains("read back"), "{failure}");
}

#[test]
fn move_texts_that_drop_the_promotion_letter_are_caught() {
    let failure = first_failure::<TEXT_DROPS_PROMOTION>();
    assert!(
        failure.what.contains("two legal moves are both written"),
        "{failure}"
    );
}

#[test]
fn a_checkmate_reported_as_stalemate_is_caught() {
    let failure = first_failure::<MATE_CALLED_STALEMATE>();
    assert!(failure.what.contains("no legal move"), "{failure}");
    assert!(Chess::from_fen(&failure.fen).unwrap().in_check());
}

#[test]
fn a_key_blind_to_the_side_to_move_is_caught_by_a_shared_key() {
    let failure = first_failure::<KEY_OF_PLACEMENT_ONLY>();
    assert!(failure.what.contains("also belongs to"), "{failure}");
}

#[test]
fn a_panic_in_the_rules_is_caught_and_reported_with_the_move() {
    let failure = first_failure::<PANIC_ON_EN_PASSANT>();
    assert!(
        failure
            .what
            .contains("panicked: en passant is not written yet"),
        "{failure}"
    );
    let position = Chess::from_fen(&failure.fen).unwrap();
    let mv = failure.mv.clone().expect("the move is named");
    assert!(
        position.parse_move(&mv).unwrap().is_en_passant(),
        "{failure}"
    );
}

#[test]
fn the_command_prints_counts_for_every_game_and_succeeds() {
    let output = Command::new(env!("CARGO_BIN_EXE_roger"))
        .args(["fuzz", "rules", "--games", "4", "--seed", "3"])
        .output()
        .expect("run roger");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    for game in ["chess", "nichess", "millennium"] {
        assert!(
            text.lines()
                .any(|line| line.starts_with(&format!("{game}: 4 games ("))
                    && line.contains(" 0 failures")),
            "{text}"
        );
    }
    assert!(text.contains("rules fuzz seed 3: 0 failures"), "{text}");
}

#[test]
fn one_game_alone_plays_the_same_games_as_in_a_full_run() {
    let alone = run(&options(6, 9, Some("nichess")));
    let full = run(&options(6, 9, None));
    let plies = |report: &roger::fuzz::rules::Report| {
        report
            .counts
            .iter()
            .find(|(name, _)| *name == "nichess")
            .map(|(_, counts)| (counts.plies, counts.positions, counts.children))
    };
    assert_eq!(alone.counts.len(), 1);
    assert_eq!(full.counts.len(), 3);
    assert!(plies(&alone).is_some());
    assert_eq!(plies(&alone), plies(&full));
}
