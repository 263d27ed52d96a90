//! What the rules fuzzer checks of one position and of the moves out of it. Each check returns
//! the text of what went wrong; the game loop in [`super`] adds the reproducer.

use super::FuzzedGame;
use crate::common::Rng;
use crate::rules::registry;
use crate::rules::{
    parse_move_squares, EndReason, Game, GameRecord, MoveList, Outcome, PackedMove, RuleError,
};
use std::collections::HashMap;

pub type Check = Result<(), String>;

macro_rules! ensure {
    ($condition:expr, $($what:tt)*) => {
        if !$condition {
            return Err(format!($($what)*));
        }
    };
}

/// The legal moves as packed numbers, sorted: two positions allow the same moves when these are
/// equal.
pub fn move_set<G: Game>(moves: &MoveList<G::Move>) -> Vec<u32> {
    let mut packed: Vec<u32> = moves.iter().map(|mv| mv.pack()).collect();
    packed.sort_unstable();
    packed
}

fn legal_moves<G: Game>(position: &G) -> MoveList<G::Move> {
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    moves
}

/// The moves in one set and not in the other, as text, for an error.
fn difference<G: Game>(position: &G, ours: &[u32], theirs: &[u32]) -> String {
    let text = |bits: &[u32], other: &[u32]| {
        bits.iter()
            .filter(|bits| other.binary_search(bits).is_err())
            .map(|&bits| position.move_text(G::Move::unpack(bits)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "only here: [{}], only there: [{}]",
        text(ours, theirs),
        text(theirs, ours)
    )
}

/// `fen` (the position's own FEN) reads back as the same position: the same FEN, key, side,
/// clock, check and legal moves.
pub fn round_trip<G: Game>(position: &G, fen: &str, legal: &MoveList<G::Move>) -> Check {
    let reread =
        G::from_fen(fen).map_err(|error| format!("its own FEN is refused when read: {error}"))?;
    ensure!(
        reread.fen() == fen,
        "its FEN reads back as {}",
        reread.fen()
    );
    ensure!(
        reread.key() == position.key(),
        "key {:016X}, but {:016X} once read back from its FEN",
        position.key(),
        reread.key()
    );
    ensure!(
        reread.side_to_move() == position.side_to_move()
            && reread.halfmove_clock() == position.halfmove_clock()
            && reread.in_check() == position.in_check(),
        "side, clock or check differ once read back from its FEN"
    );
    let ours = move_set::<G>(legal);
    let theirs = move_set::<G>(&legal_moves(&reread));
    ensure!(
        ours == theirs,
        "other legal moves once read back from its FEN: {}",
        difference(position, &ours, &theirs)
    );
    Ok(())
}

/// The position's FEN written in another form that protocol.md says reads the same: fields
/// split by runs of spaces and tabs, castling letters and pool letters in another order, a
/// move number of 1 written 0, counters of `0 1` left out.
pub fn other_forms<G: Game>(fen: &str, rng: &mut Rng) -> Check {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let shuffle = |field: &mut String, rng: &mut Rng| {
        let mut letters: Vec<char> = field.chars().collect();
        for i in (1..letters.len()).rev() {
            letters.swap(i, rng.index(i + 1));
        }
        *field = letters.into_iter().collect();
    };
    if fields.len() >= 3 && fields[2] != "-" {
        shuffle(&mut fields[2], rng);
    }
    if fields.len() >= 7 {
        shuffle(&mut fields[6], rng);
    }
    if fields.len() == 6 && fields[4] == "0" && fields[5] == "1" && rng.index(2) == 0 {
        fields.truncate(4);
    } else if fields.len() >= 6 && fields[5] == "1" && rng.index(2) == 0 {
        fields[5] = "0".to_string();
    }
    let mut form = String::new();
    for field in &fields {
        if !form.is_empty() {
            form.push_str([" ", "  ", "\t", " \t "][rng.index(4)]);
        }
        form.push_str(field);
    }
    let read = G::from_fen(&form)
        .map_err(|error| format!("its FEN written as {form:?} is refused: {error}"))?;
    ensure!(
        read.fen() == fen,
        "its FEN written as {form:?} reads as {}",
        read.fen()
    );
    Ok(())
}

/// The incremental key equals the key computed from scratch.
pub fn key_from_scratch<G: Game>(position: &G) -> Check {
    let scratch = position.key_from_scratch();
    ensure!(
        position.key() == scratch,
        "incremental key {:016X}, but {scratch:016X} from scratch",
        position.key()
    );
    Ok(())
}

/// What `d` prints names the position's FEN and key.
pub fn display<G: Game>(position: &G, fen: &str) -> Check {
    let shown = registry::display(position);
    let line = |label: &str| {
        shown
            .lines()
            .find_map(|line| line.strip_prefix(label))
            .map(str::to_string)
    };
    ensure!(
        line("Fen: ").as_deref() == Some(fen),
        "`d` shows the FEN {:?}, not {fen}",
        line("Fen: ")
    );
    let key = format!("{:016X}", position.key());
    ensure!(
        line("Key: ").as_deref() == Some(key.as_str()),
        "`d` shows the key {:?}, not {key}",
        line("Key: ")
    );
    Ok(())
}

/// Every legal move is written in the protocol's form with its own squares, no two alike, and
/// packs into 32 bits and back; the tactical moves (what quiescence searches) and the move count
/// agree with the list.
pub fn move_texts<G: FuzzedGame>(position: &G, legal: &MoveList<G::Move>) -> Check {
    let mut texts = Vec::with_capacity(legal.len());
    for &mv in legal {
        let text = position.move_text(mv);
        ensure!(
            G::Move::unpack(mv.pack()) == mv,
            "{text} does not survive packing ({:#x})",
            mv.pack()
        );
        let form = parse_move_squares(&text, G::FILES, G::RANKS);
        ensure!(
            form.is_some_and(|(from, to, rest)| {
                (from, to) == position.text_squares(mv) && G::MOVE_SUFFIXES.contains(&rest)
            }),
            "the legal move {mv:?} is written '{text}', which is not its squares in {}",
            G::MOVE_FORM
        );
        texts.push(text);
    }
    texts.sort_unstable();
    if let Some(twice) = texts.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(format!("two legal moves are both written '{}'", twice[0]));
    }
    ensure!(
        position.count_moves() == legal.len() as u64,
        "count_moves says {}, the list has {}",
        position.count_moves(),
        legal.len()
    );
    let mut tactical = MoveList::new();
    position.generate_tactical(&mut tactical);
    let want: Vec<u32> = move_set::<G>(legal)
        .into_iter()
        .filter(|&bits| position.in_quiescence(G::Move::unpack(bits)))
        .collect();
    let got = move_set::<G>(&tactical);
    ensure!(
        got == want,
        "the tactical moves are not the legal moves called tactical: {}",
        difference(position, &got, &want)
    );
    Ok(())
}

/// A random legal move's text reads back as that move, and a random well-formed text is either
/// a legal move or refused as illegal with the position's FEN in the error.
pub fn move_parsing<G: Game>(
    position: &G,
    fen: &str,
    legal: &MoveList<G::Move>,
    rng: &mut Rng,
) -> Check {
    if !legal.is_empty() {
        let mv = legal[rng.index(legal.len())];
        let text = position.move_text(mv);
        let read = position.parse_move(&text);
        ensure!(
            read == Ok(mv),
            "'{text}' reads back as {read:?}, not {mv:?}"
        );
    }
    let square = |rng: &mut Rng| {
        let file = (b'a' + rng.index(G::FILES as usize) as u8) as char;
        format!("{file}{}", rng.index(G::RANKS as usize) + 1)
    };
    let suffix = G::MOVE_SUFFIXES[rng.index(G::MOVE_SUFFIXES.len())];
    let text = format!("{}{}{suffix}", square(rng), square(rng));
    // A move's own text, or the other one the game reads (chess: castling both ways).
    let written = |mv: G::Move| {
        position.move_text(mv) == text || position.other_move_text(mv).as_deref() == Some(&text)
    };
    let is_legal = legal.iter().any(|&mv| written(mv));
    match position.parse_move(&text) {
        Ok(mv) => ensure!(
            is_legal && legal.contains(&mv) && written(mv),
            "'{text}' is read as the move {mv:?}, which is not the legal move so written"
        ),
        Err(RuleError::Illegal(error)) => {
            ensure!(!is_legal, "the legal move '{text}' is refused: {error}");
            ensure!(
                error.contains(fen),
                "the error for '{text}' does not show the position's FEN: {error}"
            );
        }
        Err(error) => return Err(format!("the well-formed '{text}' is refused as {error:?}")),
    }
    Ok(())
}

/// How the game stands agrees with the legal moves: no moves and only then a win, a loss or a
/// stalemate, with the reason the rules give; a draw by rule only where a rule says so.
pub fn ending<G: FuzzedGame>(position: &G, legal: &MoveList<G::Move>, outcome: Outcome) -> Check {
    let by_rule = position.draw_by_rule();
    ensure!(
        (by_rule == Some(EndReason::FiftyMoves)) == position.quiet_limit_reached(),
        "clock {} with the quiet-move limit {:?}, but the draw by rule is {by_rule:?}",
        position.halfmove_clock(),
        G::QUIET_PLY_LIMIT
    );
    if legal.is_empty() {
        let reason = position.no_moves_reason();
        let lost = matches!(reason, EndReason::Checkmate | EndReason::KingDestroyed);
        ensure!(
            lost || matches!(reason, EndReason::Stalemate | EndReason::MoveLimit),
            "no legal move, yet the reason is {reason:?}"
        );
        ensure!(
            lost == position.in_check(),
            "no legal move, the reason is {reason:?}, but in_check is {}",
            position.in_check()
        );
        let expected = if lost {
            Outcome::Win(position.side_to_move().flip(), reason)
        } else {
            Outcome::Draw(reason)
        };
        ensure!(
            outcome == expected,
            "no legal move ({reason:?}), but the record says {outcome:?}"
        );
        if reason == EndReason::MoveLimit {
            ensure!(
                by_rule == Some(EndReason::MoveLimit),
                "the move limit ended the game but the draw by rule is {by_rule:?}"
            );
        }
        let refused = position.parse_move("a1a2");
        ensure!(
            matches!(refused, Err(RuleError::Illegal(_))),
            "the game is over, yet 'a1a2' reads as {refused:?}"
        );
    } else {
        ensure!(
            !matches!(outcome, Outcome::Win(..))
                && outcome != Outcome::Draw(EndReason::Stalemate)
                && by_rule != Some(EndReason::MoveLimit),
            "legal moves remain, yet the record says {outcome:?} (draw by rule {by_rule:?})"
        );
    }
    position.check_rules(legal)
}

/// The position with the turn passed (for the search's null move) keeps its key and reads back.
pub fn null_move<G: Game>(position: &G, legal: &MoveList<G::Move>) -> Check {
    let passed = position.play_null();
    if position.in_check() || legal.is_empty() {
        ensure!(
            !position.in_check() || passed.is_none(),
            "a null move is allowed in check"
        );
        return Ok(());
    }
    let Some(passed) = passed else {
        return Err("no null move out of check".to_string());
    };
    key_from_scratch(&passed).map_err(|error| format!("after a null move: {error}"))?;
    let reread = G::from_fen(&passed.fen())
        .map_err(|error| format!("after a null move the FEN is refused: {error}"))?;
    ensure!(
        reread.key() == passed.key(),
        "after a null move the key is {:016X}, read back {:016X}",
        passed.key(),
        reread.key()
    );
    Ok(())
}

/// The position after `mv`: its key as from scratch, the other side to move, its clock reset by
/// an irreversible move and else one more. With `full`, copy-make as make in place; with
/// `full` or `read_back` and after every special move, the position reads back from its FEN
/// (which also refuses a position whose side not to move is in check).
pub fn child<G: FuzzedGame>(
    position: &G,
    mv: G::Move,
    after: &G,
    full: bool,
    read_back: bool,
) -> Check {
    key_from_scratch(after)?;
    ensure!(
        after.side_to_move() == position.side_to_move().flip(),
        "the side to move did not change"
    );
    let clock = after.halfmove_clock();
    ensure!(
        clock == 0 || clock == position.halfmove_clock().saturating_add(1),
        "the clock went from {} to {clock}",
        position.halfmove_clock()
    );
    ensure!(
        clock == 0 || !position.is_tactical(mv),
        "a capture or promotion left the clock at {clock}"
    );
    if full {
        let mut in_place = position.clone();
        in_place.make(mv);
        ensure!(
            in_place.fen() == after.fen() && in_place.key() == after.key(),
            "make in place gives {} (key {:016X}), copy-make {} (key {:016X})",
            in_place.fen(),
            in_place.key(),
            after.fen(),
            after.key()
        );
    }
    if full || read_back || position.is_special(mv) {
        let fen = after.fen();
        let reread = G::from_fen(&fen)
            .map_err(|error| format!("the FEN after it, {fen}, is refused: {error}"))?;
        ensure!(
            reread.fen() == fen && reread.key() == after.key(),
            "the position after it, {fen} (key {:016X}), reads back as {} (key {:016X})",
            after.key(),
            reread.fen(),
            reread.key()
        );
    }
    Ok(())
}

/// What a position is apart from its counters: placement, side, castling rights, pools, and
/// the en passant square if `with_en_passant` (the key counts it only where a capture can use
/// it).
pub fn identity(fen: &str, with_en_passant: bool) -> String {
    let dropped = if with_en_passant { 4..=5 } else { 3..=5 };
    fen.split(' ')
        .enumerate()
        .filter(|(index, _)| !dropped.contains(index))
        .map(|(_, field)| field)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The record's count of the current position (for threefold repetition) against the game's
/// positions since the last irreversible move, compared by their FEN: at least those equal
/// with the en passant square, at most those equal without it.
pub fn repetition<G: Game>(record: &GameRecord<G>, identities: &[String]) -> Check {
    let position = record.position();
    let window = (position.halfmove_clock() as usize).saturating_add(1);
    let recent = &identities[identities.len().saturating_sub(window)..];
    let Some(current) = recent.last() else {
        return Ok(());
    };
    let loose = |id: &String| {
        let mut fields: Vec<&str> = id.split(' ').collect();
        fields.remove(3);
        fields.join(" ")
    };
    let exact = recent.iter().filter(|id| *id == current).count();
    let without_en_passant = recent
        .iter()
        .filter(|id| loose(id) == loose(current))
        .count();
    let counted = record.occurrences();
    ensure!(
        exact <= counted && counted <= without_en_passant,
        "the record counts {counted} occurrences; the FENs say {exact} (at most \
         {without_en_passant} without the en passant square)"
    );
    Ok(())
}

/// The positions of one game by key: two positions with one key must be one position, with the
/// same legal moves (where neither game is over).
#[derive(Default)]
pub struct KeysSeen(HashMap<u64, (String, Vec<u32>)>);

impl KeysSeen {
    pub fn check<G: Game>(&mut self, position: &G, fen: &str, legal: &MoveList<G::Move>) -> Check {
        let moves = move_set::<G>(legal);
        let this = identity(fen, false);
        match self.0.get(&position.key()) {
            None => {
                self.0.insert(position.key(), (this, moves));
            }
            Some((seen, seen_moves)) => {
                ensure!(
                    *seen == this,
                    "key {:016X} also belongs to the earlier {seen}",
                    position.key()
                );
                ensure!(
                    moves.is_empty() || seen_moves.is_empty() || moves == *seen_moves,
                    "key {:016X} belonged to the same position with other moves: {}",
                    position.key(),
                    difference(position, &moves, seen_moves)
                );
            }
        }
        Ok(())
    }
}
