//! The rules fuzzer: seeded random games of every turn game, from the start and from positions
//! reached earlier read back from FEN with random counters. At every ply it checks that the
//! position reads back from its own FEN, that the incremental Zobrist key equals the key
//! computed from scratch (after every legal move, too), that each move's text reads back as
//! that move, that what `d` prints reads back, and that a finished game says why. Some games
//! favour captures, special moves, quiet moves or repetitions, so that promotions, castling,
//! throws, the quiet-move rule, repetitions and Nichess's 333-ply end are reached.
//!
//! `roger fuzz rules --games N --seed S` runs it; `cargo test` runs a short pass.

mod checks;

use crate::board::Square;
use crate::common::Rng;
use crate::rules::chess::{Chess, MoveFlag};
use crate::rules::millennium::Millennium;
use crate::rules::nichess::{Nichess, MOVE_LIMIT};
use crate::rules::registry::{bind_game, names_of, record_from, Family, TurnGame, GAMES};
use crate::rules::{Color, Game, GameRecord, MoveList, Outcome, PackedMove};
use checks::{Check, KeysSeen};
use std::collections::BTreeMap;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What the fuzzer needs to know of a game beyond [`Game`].
pub trait FuzzedGame: Game {
    /// Most plies a game lasts, where the rules bound it (Nichess: 333); a FEN's counters must
    /// then fit in it.
    const PLY_LIMIT: Option<u32> = None;
    /// The rarer moves some games seek out, by name: castling, promotion, en passant, throw;
    /// `None` for any other move.
    fn special_kind(&self, mv: Self::Move) -> Option<&'static str>;
    fn is_special(&self, mv: Self::Move) -> bool {
        self.special_kind(mv).is_some()
    }
    /// True for the moves [`Game::generate_tactical`] lists (out of check): by default the
    /// tactical ones.
    fn in_quiescence(&self, mv: Self::Move) -> bool {
        self.is_tactical(mv)
    }
    /// Checks of the game's own rules beyond the shared ones.
    fn check_rules(&self, _legal: &MoveList<Self::Move>) -> Check {
        Ok(())
    }
    /// The squares a legal move's text shows: its own from and to, but for chess's castling
    /// written king-takes-rook.
    fn text_squares(&self, mv: Self::Move) -> (crate::board::Square, crate::board::Square) {
        mv.squares()
    }
    /// Another start position some games begin from, drawn from `rng` (chess: Chess960 and
    /// DFRC starts); `None` for the game's own start position.
    fn random_start(_rng: &mut Rng) -> Option<Self> {
        None
    }
}

/// The special moves of chess and Millennium, by name.
fn chess_special_kind(castle: bool, promotion: bool, en_passant: bool) -> Option<&'static str> {
    if castle {
        Some("castling")
    } else if promotion {
        Some("promotion")
    } else if en_passant {
        Some("en passant")
    } else {
        None
    }
}

impl FuzzedGame for Chess {
    fn special_kind(&self, mv: Self::Move) -> Option<&'static str> {
        chess_special_kind(mv.is_castle(), mv.is_promotion(), mv.is_en_passant())
    }
    /// Quiescence leaves out quiet under-promotions, which a queen promotion beats.
    fn in_quiescence(&self, mv: Self::Move) -> bool {
        mv.is_capture() || mv.flag_bits() == MoveFlag::PromoteQueen as u16
    }
    fn text_squares(&self, mv: Self::Move) -> (crate::board::Square, crate::board::Square) {
        match mv.is_castle() && self.is_chess960() {
            true => self.king_takes_rook_squares(mv),
            false => mv.squares(),
        }
    }
    /// Half the games from a Fischer Random start (one in four of those DFRC), castling written
    /// either way, so that both notations and every castling geometry meet the checks.
    fn random_start(rng: &mut Rng) -> Option<Chess> {
        use crate::rules::chess::start_positions::{start_fen, CHESS960_COUNT};
        if rng.index(2) == 0 {
            return None;
        }
        let mut draw = || rng.index(CHESS960_COUNT as usize) as u16;
        let white = draw();
        let black = if draw() % 4 == 0 { draw() } else { white };
        let mut start = Chess::from_fen(&start_fen(white, black)?).ok()?;
        start.set_chess960(rng.index(2) == 0);
        Some(start)
    }
    /// No pawn, rook or queen and at most one minor piece: too little to mate. Pawns, rooks or
    /// queens: enough.
    fn check_rules(&self, _legal: &MoveList<Self::Move>) -> Check {
        let fen = self.fen();
        let placement = fen.split(' ').next().unwrap_or_default();
        let heavy = placement.chars().any(|c| "pPrRqQ".contains(c));
        let minors = placement.chars().filter(|c| "nNbB".contains(*c)).count();
        if heavy && self.no_mating_material() {
            return Err("pawns, rooks or queens remain, yet it is insufficient material".into());
        }
        if !heavy && minors <= 1 && !self.no_mating_material() {
            return Err("kings and at most one minor piece, yet mating material".into());
        }
        Ok(())
    }
}

impl FuzzedGame for Millennium {
    fn special_kind(&self, mv: Self::Move) -> Option<&'static str> {
        chess_special_kind(mv.is_castle(), mv.is_promotion(), mv.is_en_passant())
    }
}

impl FuzzedGame for Nichess {
    const PLY_LIMIT: Option<u32> = Some(MOVE_LIMIT as u32);
    fn special_kind(&self, mv: Self::Move) -> Option<&'static str> {
        if mv.is_castle() {
            Some("castling")
        } else if mv.is_promotion() {
            Some("promotion")
        } else if mv.is_throw() {
            Some("throw")
        } else {
            None
        }
    }
    /// A finished game has no actions; the plies played fit the limit and the side to move,
    /// and the clock fits the plies.
    fn check_rules(&self, legal: &MoveList<Self::Move>) -> Check {
        let plies = self.plies();
        if self.game_over() && !legal.is_empty() {
            return Err(format!(
                "the game is over at ply {plies}, yet it has actions"
            ));
        }
        if plies > MOVE_LIMIT as u32
            || plies % 2 != self.side_to_move() as u32
            || self.halfmove_clock() > plies
        {
            return Err(format!(
                "ply {plies}, clock {} and {} to move do not fit together",
                self.halfmove_clock(),
                self.side_to_move().name()
            ));
        }
        Ok(())
    }
}

/// `roger fuzz rules`.
#[derive(Clone, Debug, clap::Args)]
pub struct RulesFuzzOptions {
    /// Random games of each turn game.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seed of the run: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only this game (every turn game when left out).
    #[arg(long, value_parser = names_of(Family::Turn))]
    pub variant: Option<String>,
}

/// Games longer than this are cut off (only games that play on past a draw get near it).
const PLY_CAP: u32 = 500;
/// Reached positions kept per game, from which later games start.
const STARTS_KEPT: usize = 512;
/// Failures kept with their reproducer (all are counted).
const FAILURES_KEPT: usize = 20;

/// A check that failed, with what reproduces it.
#[derive(Clone, Debug)]
pub struct Failure {
    pub game: &'static str,
    pub seed: u64,
    /// Which game of the run (from 0), for that seed.
    pub game_index: u64,
    /// The position the check was made in.
    pub fen: String,
    /// The move being checked, if the check was of a move.
    pub mv: Option<String>,
    pub what: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "FAIL {} game {} of seed {}: {}",
            self.game, self.game_index, self.seed, self.what
        )?;
        let moves = self
            .mv
            .as_ref()
            .map_or(String::new(), |mv| format!(" moves {mv}"));
        write!(
            f,
            "  reproduce: setoption name UCI_Variant value {}, then position fen {}{moves}",
            self.game, self.fen
        )
    }
}

/// The counts of one game's part of a run.
#[derive(Clone, Debug, Default)]
pub struct GameCounts {
    pub games: u64,
    /// Games that started from a reached position read from FEN with random counters.
    pub from_fen: u64,
    pub plies: u64,
    /// Positions checked in full: FEN, key, display, move texts, ending, null move.
    pub positions: u64,
    /// Positions after every legal move, checked for their key and counters.
    pub children: u64,
    /// Castlings, promotions, en passant captures and throws played in the games, by kind.
    pub special: BTreeMap<&'static str, u64>,
    /// How the games ended (the first ending each game reached), by reason.
    pub endings: BTreeMap<&'static str, u64>,
    pub failures: u64,
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub seed: u64,
    pub counts: Vec<(&'static str, GameCounts)>,
    /// The first failures, with their reproducers.
    pub failures: Vec<Failure>,
    pub elapsed: Duration,
}

impl Report {
    pub fn total_failures(&self) -> u64 {
        self.counts.iter().map(|(_, counts)| counts.failures).sum()
    }

    /// One line per game, the failures, and a total.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (name, c) in &self.counts {
            out.push_str(&format!(
                "{name}: {} games ({} from FEN), {} plies, {} positions, {} positions after \
                 each legal move, {} failures; special moves: {}; endings: {}\n",
                c.games,
                c.from_fen,
                c.plies,
                c.positions,
                c.children,
                c.failures,
                tally(&c.special),
                tally(&c.endings)
            ));
        }
        for failure in &self.failures {
            out.push_str(&format!("{failure}\n"));
        }
        out.push_str(&format!(
            "rules fuzz seed {}: {} failures in {:.1} s\n",
            self.seed,
            self.total_failures(),
            self.elapsed.as_secs_f64()
        ));
        out
    }
}

/// Counts by name as `name count, name count`, or `none`.
fn tally(counts: &BTreeMap<&'static str, u64>) -> String {
    if counts.is_empty() {
        return "none".to_string();
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(name, count)| format!("{name} {count}"))
        .collect();
    parts.join(", ")
}

/// Runs the fuzzer as the options say.
pub fn run(options: &RulesFuzzOptions) -> Report {
    let started = Instant::now();
    let mut report = Report {
        seed: options.seed,
        ..Report::default()
    };
    // A game's number is its row in the registry, so that `--variant` plays the same games.
    for (number, entry) in GAMES.iter().enumerate() {
        let chosen = options
            .variant
            .as_deref()
            .is_none_or(|name| name == entry.name);
        let Some(turn_game) = entry.turn.filter(|_| chosen) else {
            continue;
        };
        let counts = fuzz_turn_game(turn_game, options, number as u64, &mut report.failures);
        report.counts.push((entry.name, counts));
    }
    report.elapsed = started.elapsed();
    report
}

/// `roger fuzz rules`: runs, prints the report, and fails when a check failed.
pub fn command(options: &RulesFuzzOptions) -> ExitCode {
    let report = run(options);
    print!("{}", report.text());
    if report.total_failures() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn fuzz_turn_game(
    turn_game: TurnGame,
    options: &RulesFuzzOptions,
    number: u64,
    failures: &mut Vec<Failure>,
) -> GameCounts {
    bind_game!(turn_game, G => fuzz_games::<G>(options, number, failures))
}

/// Runs `options.games` games of `G`, counting them and keeping the first failures.
pub fn fuzz_games<G: FuzzedGame>(
    options: &RulesFuzzOptions,
    number: u64,
    failures: &mut Vec<Failure>,
) -> GameCounts {
    let mut counts = GameCounts::default();
    let mut starts: Vec<String> = Vec::new();
    for game_index in 0..options.games {
        // Each game its own stream, so one game's length does not shift the others.
        let mut rng = Rng::new(game_seed(options.seed, number, game_index));
        let mut trace = Trace::default();
        let played = panic::catch_unwind(AssertUnwindSafe(|| {
            play_game::<G>(&mut rng, &mut starts, &mut counts, &mut trace)
        }));
        let what = match played {
            Ok(Ok(())) => None,
            Ok(Err(what)) => Some(what),
            Err(panic) => Some(format!("panicked: {}", panic_text(&panic))),
        };
        counts.games += 1;
        if let Some(what) = what {
            counts.failures += 1;
            if failures.len() < FAILURES_KEPT {
                failures.push(Failure {
                    game: G::VARIANT,
                    seed: options.seed,
                    game_index,
                    fen: trace.fen,
                    mv: trace.mv.map(|bits| G::Move::unpack(bits).text()),
                    what,
                });
            }
        }
    }
    counts
}

/// The seed of one game: the run's seed, the game's number in the run and the game's index,
/// mixed (SplitMix64's finaliser) so that neighbouring games share nothing.
fn game_seed(seed: u64, number: u64, game_index: u64) -> u64 {
    crate::common::rng::mix(
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(number.wrapping_mul(0xD1B5_4A32_D192_ED03))
            .wrapping_add(game_index.wrapping_mul(0xBF58_476D_1CE4_E5B9)),
    )
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}

/// Where a game is, for the reproducer of a failure or a panic.
#[derive(Default)]
struct Trace {
    fen: String,
    /// The move being checked (packed), if any.
    mv: Option<u32>,
}

/// How a game picks its moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    /// Any legal move.
    Uniform,
    /// Mostly captures and promotions.
    Tactical,
    /// Castling, promotion, en passant and throws when there are any, else pawn moves.
    Special,
    /// Mostly reversible moves: long games, the quiet-move rule, Nichess's 333 plies; plays on
    /// past draws.
    Quiet,
    /// Mostly moves back to a position seen before: repetitions; plays on past draws.
    Repeat,
}

const STYLES: [Style; 5] = [
    Style::Uniform,
    Style::Tactical,
    Style::Special,
    Style::Quiet,
    Style::Repeat,
];

/// Counters a position may have: for chess and Millennium anything, favouring the quiet-move
/// limit and the top of the range; for a game with a ply limit, plies that fit it (of the
/// parity of the side to move) and a clock that fits the plies.
fn random_counters<G: FuzzedGame>(rng: &mut Rng, side: Color) -> (u32, u32) {
    let pick = |rng: &mut Rng, ranges: &[(u32, u32)]| {
        let (low, high) = ranges[rng.index(ranges.len())];
        low + rng.index((high - low) as usize + 1) as u32
    };
    match G::PLY_LIMIT {
        Some(limit) => {
            let parity = side as u32;
            let most = (limit - parity) / 2 + 1;
            let fullmove = pick(rng, &[(1, most), (most.saturating_sub(8).max(1), most)]);
            let plies = 2 * (fullmove - 1) + parity;
            (pick(rng, &[(0, plies), (0, plies.min(3))]), fullmove)
        }
        None => {
            let quiet = G::QUIET_PLY_LIMIT.unwrap_or(100);
            let halfmove = pick(
                rng,
                &[
                    (0, 20),
                    (quiet.saturating_sub(6), quiet + 2),
                    (u16::MAX as u32 - 2, u16::MAX as u32 + 2),
                    (u32::MAX - 3, u32::MAX),
                ],
            );
            let fullmove = pick(
                rng,
                &[
                    (1, 300),
                    (u16::MAX as u32 - 2, u16::MAX as u32 + 2),
                    (u32::MAX - 2, u32::MAX),
                ],
            );
            (halfmove, fullmove)
        }
    }
}

/// `fen` with its halfmove clock and move number replaced and, half the time, some of its
/// castling rights given up (any subset of rights is as valid as the whole).
fn with_counters(fen: &str, halfmove: u32, fullmove: u32, rng: &mut Rng) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    if fields.len() >= 6 {
        fields[4] = halfmove.to_string();
        fields[5] = fullmove.to_string();
    }
    if fields.len() >= 3 && fields[2] != "-" && rng.index(2) == 0 {
        let kept: String = fields[2].chars().filter(|_| rng.index(2) == 0).collect();
        fields[2] = if kept.is_empty() {
            "-".to_string()
        } else {
            kept
        };
    }
    fields.join(" ")
}

/// The start of a game: mostly the start position, else a position an earlier game reached,
/// with random counters and perhaps fewer castling rights.
fn start_position<G: FuzzedGame>(
    rng: &mut Rng,
    starts: &[String],
    counts: &mut GameCounts,
    trace: &mut Trace,
) -> Result<G, String> {
    if starts.is_empty() || rng.index(3) != 0 {
        return Ok(G::random_start(rng).unwrap_or_else(G::startpos));
    }
    let reached = &starts[rng.index(starts.len())];
    trace.fen = reached.clone();
    let side = G::from_fen(reached)
        .map_err(|error| format!("a reached position's FEN is refused: {error}"))?
        .side_to_move();
    let (halfmove, fullmove) = random_counters::<G>(rng, side);
    let fen = with_counters(reached, halfmove, fullmove, rng);
    trace.fen = fen.clone();
    counts.from_fen += 1;
    G::from_fen(&fen).map_err(|error| {
        format!("a reached position with new counters ({halfmove} {fullmove}) is refused: {error}")
    })
}

/// One random game, checking every position on the way.
fn play_game<G: FuzzedGame>(
    rng: &mut Rng,
    starts: &mut Vec<String>,
    counts: &mut GameCounts,
    trace: &mut Trace,
) -> Check {
    let style = STYLES[rng.index(STYLES.len())];
    let play_past_draws = matches!(style, Style::Quiet | Style::Repeat) && rng.index(2) == 0;
    let mut record = GameRecord::new(start_position::<G>(rng, starts, counts, trace)?);
    let mut keys_seen = KeysSeen::default();
    // Each position of the game as its FEN without the counters, for repetitions.
    let mut identities = Vec::new();
    let mut ending: Option<&'static str> = None;
    // One position of the game, drawn evenly, is kept for later games to start from.
    let mut kept: Option<String> = None;
    for ply in 0.. {
        let position = record.position().clone();
        let fen = position.fen();
        trace.fen = fen.clone();
        trace.mv = None;
        let mut legal = MoveList::new();
        position.generate_moves(&mut legal);
        let outcome = record.outcome();
        check_position(&position, &fen, &legal, outcome, &mut keys_seen, rng)?;
        identities.push(checks::identity(&fen, true));
        checks::repetition(&record, &identities)?;
        counts.positions += 1;
        if rng.index(ply as usize + 1) == 0 {
            kept = Some(fen.clone());
        }

        let mut children = Vec::with_capacity(legal.len());
        for (index, &mv) in legal.iter().enumerate() {
            trace.mv = Some(mv.pack());
            let after = position.play(mv);
            checks::child(&position, mv, &after, index == 0, rng.index(8) == 0)
                .map_err(|what| format!("after {}: {what}", position.move_text(mv)))?;
            children.push(after);
        }
        counts.children += children.len() as u64;
        trace.mv = None;

        if legal.is_empty() {
            ending.get_or_insert(outcome_name(outcome));
            break;
        }
        if outcome != Outcome::Ongoing {
            ending.get_or_insert(outcome_name(outcome));
            if !play_past_draws {
                break;
            }
        }
        if ply >= PLY_CAP {
            ending.get_or_insert("ply cap");
            break;
        }
        let index = choose_move(style, &position, &legal, &children, &record, rng);
        let mv = legal[index];
        trace.mv = Some(mv.pack());
        let text = position.move_text(mv);
        // As `position fen <fen> moves <move>` sets it up.
        let replayed = record_from::<G>(Some(&fen), std::slice::from_ref(&text))
            .map_err(|error| format!("the position and move are refused: {error}"))?;
        let (set_up, after) = (replayed.position().fen(), children[index].fen());
        if set_up != after {
            return Err(format!(
                "the position and move set up {set_up}, not {after}"
            ));
        }
        if let Some(kind) = position.special_kind(mv) {
            *counts.special.entry(kind).or_default() += 1;
        }
        record.play(mv);
        if record.position().fen() != after {
            return Err(format!(
                "the record's position after {text} is not copy-make's"
            ));
        }
        counts.plies += 1;
    }
    *counts.endings.entry(ending.unwrap_or("none")).or_default() += 1;
    if let Some(fen) = kept {
        if starts.len() < STARTS_KEPT {
            starts.push(fen);
        } else {
            let slot = rng.index(STARTS_KEPT);
            starts[slot] = fen;
        }
    }
    Ok(())
}

/// Every check of one position.
fn check_position<G: FuzzedGame>(
    position: &G,
    fen: &str,
    legal: &MoveList<G::Move>,
    outcome: Outcome,
    keys_seen: &mut KeysSeen,
    rng: &mut Rng,
) -> Check {
    checks::key_from_scratch(position)?;
    checks::round_trip(position, fen, legal)?;
    checks::other_forms::<G>(fen, rng)?;
    checks::display(position, fen)?;
    checks::move_texts(position, legal)?;
    checks::move_parsing(position, fen, legal, rng)?;
    checks::ending(position, legal, outcome)?;
    checks::null_move(position, legal)?;
    keys_seen.check(position, fen, legal)
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Ongoing => "ongoing",
        Outcome::Win(_, reason) | Outcome::Draw(reason) => reason.text(),
    }
}

/// The index of the move to play, as the game's style favours.
fn choose_move<G: FuzzedGame>(
    style: Style,
    position: &G,
    legal: &MoveList<G::Move>,
    children: &[G],
    record: &GameRecord<G>,
    rng: &mut Rng,
) -> usize {
    let pick = |rng: &mut Rng, wanted: &dyn Fn(usize) -> bool| {
        let candidates: Vec<usize> = (0..legal.len()).filter(|&i| wanted(i)).collect();
        (!candidates.is_empty()).then(|| candidates[rng.index(candidates.len())])
    };
    let tactical = |i: usize| position.is_tactical(legal[i]);
    let reversible = |i: usize| children[i].halfmove_clock() != 0;
    let pawn_like = |i: usize| !tactical(i) && !reversible(i);
    let recent = record.keys().len().saturating_sub(16);
    let repeats = |i: usize| record.keys()[recent..].contains(&children[i].key());
    let chosen = match style {
        Style::Uniform => None,
        Style::Tactical if rng.index(4) != 0 => pick(rng, &tactical),
        Style::Special if rng.index(10) != 0 => {
            let special = |i: usize| position.is_special(legal[i]);
            // Pieces leaving the back rank open the way to castling; pawn moves lead to
            // promotions and en passant.
            let back_rank = match position.side_to_move() {
                Color::White => 0,
                Color::Black => G::RANKS - 1,
            };
            let rank = |square: Square| square.0 / G::FILES;
            let develops = |i: usize| {
                let (from, to) = legal[i].squares();
                rank(from) == back_rank && rank(to) != back_rank
            };
            let next: &dyn Fn(usize) -> bool = if rng.index(2) == 0 {
                &develops
            } else {
                &pawn_like
            };
            pick(rng, &special)
                .or_else(|| pick(rng, next))
                .or_else(|| pick(rng, &pawn_like))
        }
        Style::Quiet if rng.index(20) != 0 => pick(rng, &reversible),
        Style::Repeat if rng.index(5) != 0 => {
            pick(rng, &repeats).or_else(|| pick(rng, &reversible))
        }
        _ => None,
    };
    chosen.unwrap_or_else(|| rng.index(legal.len()))
}
