//! Realtime chess for the protocol fuzzer: states made by playing random games with the
//! simulator, the same broken as protocol.md and docs/rules/realtime.md say a state is refused,
//! and the referee the fuzzer plays while Roger streams (`play`): it tells the game as the
//! simulator plays it, plays the other side, and judges every `order` Roger prints.

use super::corrupt::{pick, WRONG_SEPARATORS};
use crate::common::Rng;
use crate::rules::realtime::{
    Color, Event, EventKind, Ms, Order, RealtimeParams, RealtimeState, Removal,
};
use std::collections::VecDeque;
use std::time::Instant;

/// The wrong separators but vertical tab, form feed and `\r` (issue 26, 3a: their own case).
pub fn other_separators() -> Vec<char> {
    WRONG_SEPARATORS
        .iter()
        .copied()
        .filter(|c| !matches!(c, '\u{b}' | '\u{c}' | '\r'))
        .collect()
}

/// The most ms of game time one judgement of an order looks at (an order read late).
const JUDGED_MS: Ms = 10_000;

/// A state reached by playing a random game from the start: orders of either side at random
/// and time passing by random steps; now and then a pawn taking en passant, caught on its way.
pub fn random_state(params: RealtimeParams, rng: &mut Rng) -> RealtimeState {
    if rng.index(10) == 0 {
        if let Some(state) = en_passant_in_flight(params, rng) {
            return state;
        }
    }
    let mut state = RealtimeState::start(params);
    let steps = match rng.index(10) {
        0 => 0,
        1..=6 => rng.index(30),
        _ => 30 + rng.index(200),
    };
    let tick = params.tick();
    for _ in 0..steps {
        if state.outcome().is_some() {
            break;
        }
        if rng.index(3) < 2 {
            let color = *pick(rng, &[Color::White, Color::Black]);
            let orders = state.orders(color);
            if !orders.is_empty() {
                let order = *pick(rng, &orders);
                let _ = state.apply(color, order, &mut Vec::new());
            }
        } else {
            let step = 1 + rng.index((tick * 3) as usize) as Ms;
            let at = state.now() + step;
            state.advance_to(at, &mut Vec::new());
        }
    }
    state
}

/// A pawn taking en passant on its way to its square, at a random ms of its way (before or
/// after its capture is settled): the `m:...:ep` token a referee sends (issue 26, 3d: the mark
/// stays until the pawn reaches its destination).
fn en_passant_in_flight(params: RealtimeParams, rng: &mut Rng) -> Option<RealtimeState> {
    let (start, double, take) = *pick(
        rng,
        &[
            ("4k3/3p4/8/4P3/8/8/8/4K3 - 0 0", "d7d5", "e5d6"),
            ("4k3/8/8/8/4p3/8/5P2/4K3 - 0 0", "f2f4", "e4f3"),
        ],
    );
    let mut state = RealtimeState::from_text(start, params).ok()?;
    let mover = if double.starts_with('d') {
        Color::Black
    } else {
        Color::White
    };
    state
        .apply(mover, Order::parse(double).ok()?, &mut Vec::new())
        .ok()?;
    let take = Order::parse(take).ok()?;
    let tick = params.tick();
    // The double step arrives after two ticks; the capture may start from then on.
    let mut at = state.now() + 2 * tick;
    while state.check(mover.flip(), take).is_err() && at < 6 * tick {
        state.advance_to(at, &mut Vec::new());
        at += 1 + tick / 4;
    }
    state.apply(mover.flip(), take, &mut Vec::new()).ok()?;
    let along = 1 + rng.index(tick as usize) as Ms;
    let at = state.now() + along;
    state.advance_to(at, &mut Vec::new());
    Some(state)
}

/// A pawn taking en passant caught on its way, as a referee that keeps the `:ep` mark until
/// the pawn arrives writes it (issue 26, 3d: accepted until the pawn reaches its destination).
pub fn en_passant_marked(params: RealtimeParams, rng: &mut Rng) -> Option<String> {
    let state = en_passant_in_flight(params, rng)?;
    let text = state.text();
    let marked: Vec<String> = text
        .split(' ')
        .map(|token| {
            let pawn = token.starts_with("m:P:") || token.starts_with("m:p:");
            let diagonal = token.len() >= 8 && token.as_bytes()[4] != token.as_bytes()[6];
            match pawn && diagonal && !token.ends_with(":ep") {
                true => format!("{token}:ep"),
                false => token.to_string(),
            }
        })
        .collect();
    Some(marked.join(" "))
}

/// The placement's 64 squares, a1 first (`None`: empty), or `None` when it does not read.
fn squares(placement: &str) -> Option<Vec<Option<char>>> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    let mut board = vec![None; 64];
    for (row, rank) in ranks.iter().enumerate() {
        let mut file = 0usize;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(run) => file += run as usize,
                None => {
                    if file >= 8 {
                        return None;
                    }
                    board[(7 - row) * 8 + file] = Some(c);
                    file += 1;
                }
            }
        }
        if file != 8 {
            return None;
        }
    }
    Some(board)
}

fn placement(board: &[Option<char>]) -> String {
    let mut ranks = Vec::new();
    for row in (0..8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[row * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

fn square_name(index: usize) -> String {
    format!("{}{}", (b'a' + (index % 8) as u8) as char, index / 8 + 1)
}

/// A state text broken so that protocol.md and the rules page refuse it, and what was broken.
/// Two of them are the settled decisions of issue 26: a vertical tab, form feed or bare `\r`
/// inside the line belongs to its token (3a), and two pieces of one colour on one square are
/// refused (3c).
pub fn corrupt_state(state: &RealtimeState, rng: &mut Rng) -> (String, &'static str) {
    let text = state.text();
    let parts = StateParts::new(state, &text);
    for _ in 0..8 {
        let kind = rng.index(15);
        let corrupted = match kind {
            0..=6 => parts.break_rules(kind, rng),
            _ => parts.break_text(kind, rng),
        };
        if let Some(corrupted) = corrupted {
            return corrupted;
        }
    }
    (
        format!("{text} m:N:b1c3:{}", parts.now + 1),
        "state: a start after the clock",
    )
}

/// A state's text taken apart for [`corrupt_state`].
struct StateParts<'a> {
    state: &'a RealtimeState,
    /// The text's fields.
    fields: Vec<&'a str>,
    /// The standing pieces by square.
    board: Vec<Option<char>>,
    /// The empty squares.
    empty: Vec<usize>,
    /// Whether the game is over.
    over: bool,
    now: Ms,
}

/// What [`corrupt_state`] made, and what it broke.
type Corrupted = Option<(String, &'static str)>;

impl<'a> StateParts<'a> {
    fn new(state: &'a RealtimeState, text: &'a str) -> StateParts<'a> {
        let fields: Vec<&str> = text.split(' ').collect();
        let board = squares(fields[0]).unwrap_or_else(|| vec![None; 64]);
        StateParts {
            state,
            over: fields[4..].iter().any(|token| token.starts_with("end:")),
            empty: (0..64).filter(|&i| board[i].is_none()).collect(),
            board,
            fields,
            now: state.now(),
        }
    }

    /// The state's fields, to change one.
    fn own(&self) -> Vec<String> {
        self.fields.iter().map(|f| f.to_string()).collect()
    }

    /// A state the rules refuse (`kind` 0 to 6), or `None` when this state offers no way.
    fn break_rules(&self, kind: usize, rng: &mut Rng) -> Corrupted {
        let (state, board, empty, over, now) =
            (self.state, &self.board, &self.empty, self.over, self.now);
        let (castling, removal) = (self.fields[1], self.fields[3]);
        let join = |fields: Vec<String>| fields.join(" ");
        let mut own = self.own();
        match kind {
            0 => {
                own.push(format!("m:N:b1c3:{}", now + 1 + rng.index(5000) as Ms));
                Some((join(own), "state: a start after the clock"))
            }
            1 => {
                own[3] = (now + 1 + rng.index(1000) as Ms).to_string();
                Some((join(own), "state: last removal after the clock"))
            }
            2 => {
                let edge: Vec<usize> = empty
                    .iter()
                    .copied()
                    .filter(|&i| !(8..56).contains(&i))
                    .collect();
                if edge.is_empty() {
                    return None;
                }
                let mut board = board.clone();
                board[*pick(rng, &edge)] = Some(*pick(rng, &['P', 'p']));
                own[0] = placement(&board);
                Some((join(own), "state: a pawn on the first or last rank"))
            }
            3 if !over && !empty.is_empty() => {
                let mut board = board.clone();
                board[*pick(rng, empty)] = Some(*pick(rng, &['K', 'k']));
                own[0] = placement(&board);
                Some((join(own), "state: a second king"))
            }
            4 => {
                let needs = [('K', 4, 'K', 7, 'R'), ('Q', 4, 'K', 0, 'R')];
                let needs_black = [('k', 60, 'k', 63, 'r'), ('q', 60, 'k', 56, 'r')];
                let missing: Vec<char> = needs
                    .iter()
                    .chain(&needs_black)
                    .filter(|(letter, king, k, rook, r)| {
                        !castling.contains(*letter)
                            && (board[*king] != Some(*k) || board[*rook] != Some(*r))
                    })
                    .map(|need| need.0)
                    .collect();
                if missing.is_empty() {
                    return None;
                }
                let letter = *pick(rng, &missing);
                let mut rights: String = castling.replace('-', "");
                rights.push(letter);
                let order = "KQkq";
                let rights: String = order.chars().filter(|c| rights.contains(*c)).collect();
                own[1] = rights;
                Some((join(own), "state: castling without its king and rook"))
            }
            5 if !over => {
                let last: Ms = removal.parse().unwrap_or(0);
                let draw = state.params().no_capture_draw();
                own[2] = (last + draw + rng.index(1000) as Ms).to_string();
                Some((join(own), "state: the clock at the no-capture draw"))
            }
            6 => {
                own.push(format!("m:N:b1c3:{now}"));
                own.push(format!("m:N:d1c3:{now}"));
                Some((join(own), "state: two moving pieces with one destination"))
            }
            _ => self.onto_own_piece(rng),
        }
    }

    /// A text that does not read as a state (`kind` 7 to 14), or `None` as above.
    fn break_text(&self, kind: usize, rng: &mut Rng) -> Corrupted {
        let (state, board, now) = (self.state, &self.board, self.now);
        let place = self.fields[0];
        let join = |fields: Vec<String>| fields.join(" ");
        let mut own = self.own();
        match kind {
            7 => {
                let token = *pick(
                    rng,
                    &[
                        "d:e9:5",
                        "q:e2:5",
                        "m:X:e2e4:0",
                        "d:e4",
                        "ep:",
                        "end:2-0:king-removed",
                        "end:1-0:checkmate",
                        "m:P:e2e4:0:xx",
                        "d:e4:-5",
                        "m:P:e2:0",
                        ":",
                        "x",
                    ],
                );
                own.push(token.to_string());
                Some((join(own), "state: a malformed token"))
            }
            8 => {
                let broken = match rng.index(4) {
                    0 => format!("{place}/8"),
                    1 => place.rsplit_once('/').map_or("8".into(), |(a, _)| a.into()),
                    2 => place.replacen('/', "x/", 1),
                    _ => place.replacen('/', "1/", 1),
                };
                own[0] = broken;
                Some((join(own), "state: a bad placement"))
            }
            9 => {
                own[2] = pick(
                    rng,
                    &["1e3", "-5", "0x10", "+7", "5.0", "99999999999999999999"],
                )
                .to_string();
                Some((join(own), "state: a clock that is no number"))
            }
            10 => {
                let kept = 1 + rng.index(3);
                Some((self.fields[..kept].join(" "), "state: fields missing"))
            }
            11 => {
                // A moving piece still on its from-square at the clock (taking off), and one
                // of its own colour standing there (3c). A mover passing through a square
                // where its side stands is a real game's state, and read.
                let mut tried = None;
                for unit in state.units() {
                    if let crate::rules::realtime::Motion::Moving { from, .. } = unit.motion {
                        if let Some(square) = state.occupied_square(unit, now) {
                            if square == from && board[square.index()].is_none() {
                                tried = Some((square.index(), unit.piece.color));
                                break;
                            }
                        }
                    }
                }
                let (index, color) = tried?;
                let mut board = board.clone();
                board[index] = Some(match color {
                    Color::White => 'N',
                    Color::Black => 'n',
                });
                own[0] = placement(&board);
                Some((
                    join(own),
                    "state: two pieces of one colour on one square (3c)",
                ))
            }
            12 => {
                let mut bytes = own.join(" ");
                let at = bytes.find(' ').unwrap_or(0);
                let wrong = *pick(rng, &['\u{b}', '\u{c}', '\r']);
                bytes.replace_range(at..at + 1, &wrong.to_string());
                Some((bytes, "state: a vertical tab, form feed or \\r (3a)"))
            }
            13 => {
                let mut bytes = own.join(" ");
                let spaces: Vec<usize> = bytes.match_indices(' ').map(|(i, _)| i).collect();
                let at = *pick(rng, &spaces);
                let wrong = *pick(rng, &other_separators());
                bytes.replace_range(at..at + 1, &wrong.to_string());
                Some((bytes, "state: a wrong separator"))
            }
            _ => self.onto_own_piece(rng),
        }
    }

    /// A moving rook heading for a square where an own piece stands.
    fn onto_own_piece(&self, rng: &mut Rng) -> Corrupted {
        let (board, now) = (&self.board, self.now);
        let join = |fields: Vec<String>| fields.join(" ");
        let mut own = self.own();
        let targets: Vec<usize> = (0..64)
            .filter(|&i| board[i] == Some('P') && i + 8 < 64 && i >= 8)
            .collect();
        if targets.is_empty() {
            return None;
        }
        let to = *pick(rng, &targets);
        let from = if to.is_multiple_of(8) { to + 1 } else { to - 1 };
        own.push(format!(
            "m:R:{}{}:{now}",
            square_name(from),
            square_name(to)
        ));
        Some((join(own), "state: a move onto an own piece"))
    }
}

/// A recent line that set the referee's clock: the game then, and when it was sent.
#[derive(Clone)]
struct Window {
    state: RealtimeState,
    sent: Instant,
}

/// What the referee makes of an order Roger printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Legal now (at this ms): the referee starts it with `event <ms> start ...`.
    Start(Ms),
    /// Legal only in the game before the last line (Roger decided before it arrived): refused,
    /// not a failure.
    Stale(String),
    /// Legal at no ms Roger can have decided it at.
    Illegal(String),
}

/// The fuzzer as the referee of a stream: the true game at its clock, the events the
/// simulator produced there that are not told yet, and the recent clocks for judging orders.
pub struct Referee {
    pub side: Color,
    pub truth: RealtimeState,
    pub clock: Ms,
    untold: Vec<Event>,
    recent: VecDeque<Window>,
    /// Lines to send before anything else: the answers to Roger's orders and the events of a
    /// time step, in time order (each checked again when its turn comes).
    pub queue: VecDeque<Queued>,
}

/// A referee's line waiting to be sent.
#[derive(Clone, Debug)]
pub enum Queued {
    /// `event ...`; `ours`: the start of an order Roger printed.
    Event {
        event: Event,
        ours: bool,
    },
    Time(Ms),
    /// `refused <clock> <order> <reason>`.
    Refused(Order, String),
}

impl Referee {
    pub fn new(side: Color, state: RealtimeState, sent: Instant) -> Referee {
        let mut referee = Referee {
            side,
            clock: state.now(),
            truth: state.clone(),
            untold: Vec::new(),
            recent: VecDeque::new(),
            queue: VecDeque::new(),
        };
        referee.sent(sent);
        referee
    }

    /// A line that may change the game went out now.
    pub fn sent(&mut self, at: Instant) {
        self.recent.push_back(Window {
            state: self.truth.clone(),
            sent: at,
        });
        while self.recent.len() > 3 {
            self.recent.pop_front();
        }
    }

    /// The game as Roger's copy will have it after a line at `ms` (the events there not told).
    fn at(&self, ms: Ms) -> (RealtimeState, Vec<Event>) {
        self.truth.seen_at(self.clock, &self.untold, ms)
    }

    fn commit(&mut self, state: RealtimeState, ms: Ms, untold: Vec<Event>) {
        self.truth = state;
        self.clock = ms;
        self.untold = untold;
    }

    /// `time <ms>` (at or after the clock).
    pub fn time(&mut self, ms: Ms) {
        let (state, untold) = self.at(ms);
        self.commit(state, ms, untold);
    }

    /// `refused <ms> ...`: the clock moves, nothing else.
    pub fn refused(&mut self, ms: Ms) {
        self.time(ms);
    }

    /// `position` while streaming: the game starts again from `state`.
    pub fn reset(&mut self, state: RealtimeState) {
        self.clock = state.now();
        self.truth = state;
        self.untold.clear();
    }

    /// An event line the copy takes: a start, a resignation or agreed draw, or one the
    /// simulator produced (told once).
    pub fn told(&mut self, event: &Event) -> bool {
        if event.ms < self.clock {
            return false;
        }
        let (mut state, mut untold) = self.at(event.ms);
        match &event.kind {
            EventKind::Started { color, order } => {
                if state.apply(*color, *order, &mut Vec::new()).is_err() {
                    return false;
                }
            }
            EventKind::Ended(outcome)
                if matches!(
                    outcome.reason,
                    crate::rules::realtime::EndReason::Resignation
                        | crate::rules::realtime::EndReason::AgreedDraw
                ) && state.outcome().is_none() =>
            {
                match outcome.winner {
                    Some(winner) => state.resign(winner.flip(), &mut Vec::new()),
                    None => state.agree_draw(&mut Vec::new()),
                }
            }
            _ => {
                let Some(at) = untold.iter().position(|told| told == event) else {
                    return false;
                };
                untold.remove(at);
            }
        }
        self.commit(state, event.ms, untold);
        true
    }

    /// Whether the copy would take `event` (without taking it).
    pub fn would_take(&self, event: &Event) -> bool {
        let mut copy = Referee {
            side: self.side,
            truth: self.truth.clone(),
            clock: self.clock,
            untold: self.untold.clone(),
            recent: VecDeque::new(),
            queue: VecDeque::new(),
        };
        copy.told(event)
    }

    /// The events the simulator produces from the clock to `ms` (those at the clock not yet
    /// told included), in order.
    pub fn events_until(&self, ms: Ms) -> Vec<Event> {
        let mut state = self.truth.clone();
        let mut events = self.untold.clone();
        if ms > state.now() {
            state.advance_to(ms, &mut events);
        }
        events
    }

    /// Judges an order Roger printed, read at `arrived`.
    pub fn judge(&self, order: Order, arrived: Instant) -> Verdict {
        let newest = self.recent.len().saturating_sub(1);
        let mut reason = None;
        for (index, window) in self.recent.iter().enumerate().rev() {
            let span = arrived.saturating_duration_since(window.sent).as_millis() as Ms + 1;
            let mut state = window.state.clone();
            let first = state.now();
            let last = first + span.min(JUDGED_MS);
            let mut ms = first;
            loop {
                if ms > state.now() {
                    state.advance_to(ms, &mut Vec::new());
                }
                match state.check(self.side, order) {
                    Ok(()) if index == newest => return Verdict::Start(ms.max(self.clock)),
                    Ok(()) => {
                        let why = self
                            .truth
                            .check(self.side, order)
                            .err()
                            .map_or("not now".to_string(), |refusal| refusal.to_string());
                        return Verdict::Stale(why);
                    }
                    Err(refusal) => {
                        if reason.is_none() {
                            reason = Some(format!("at {ms} ms: {refusal}"));
                        }
                    }
                }
                if ms >= last || state.outcome().is_some() {
                    break;
                }
                ms += 1;
            }
        }
        Verdict::Illegal(reason.unwrap_or_else(|| "no game to judge it in".into()))
    }

    /// The answer to an order Roger printed goes out next.
    pub fn answer(&mut self, order: Order, verdict: Verdict) {
        let line = match verdict {
            Verdict::Start(ms) => Queued::Event {
                event: Event {
                    ms,
                    kind: EventKind::Started {
                        color: self.side,
                        order,
                    },
                },
                ours: true,
            },
            Verdict::Stale(why) | Verdict::Illegal(why) => Queued::Refused(order, why),
        };
        self.queue.push_front(line);
    }

    /// A `refused` reason for `order` now.
    pub fn refusal(&self, order: Order) -> String {
        match self.truth.check(self.side, order) {
            Err(refusal) => refusal.to_string(),
            Ok(()) => "not a move: refused by the fuzzer".into(),
        }
    }

    /// An event that does not happen at its ms in the copy: a real one changed a little.
    pub fn fake_event(&self, rng: &mut Rng) -> Option<Event> {
        let horizon = self.clock + 1 + self.truth.params().tick() * 4;
        let real = self.events_until(horizon);
        let candidates: Vec<&Event> = real
            .iter()
            .filter(|event| !matches!(event.kind, EventKind::Started { .. }))
            .collect();
        let base = match candidates.is_empty() {
            true => Event {
                ms: self.clock,
                kind: EventKind::Arrived {
                    piece: crate::rules::realtime::Piece {
                        color: Color::White,
                        kind: crate::rules::realtime::Kind::Queen,
                    },
                    square: crate::board::Square(35),
                },
            },
            false => (*pick(rng, &candidates)).clone(),
        };
        for _ in 0..6 {
            let mut fake = base.clone();
            match rng.index(4) {
                0 if fake.ms > self.clock => fake.ms -= 1,
                1 => fake.ms += 1,
                2 => match &mut fake.kind {
                    EventKind::Arrived { square, .. }
                    | EventKind::Promoted { square, .. }
                    | EventKind::Removed { square, .. }
                    | EventKind::Ready { square, .. } => square.0 = (square.0 + 1) % 64,
                    _ => fake.ms += 1,
                },
                _ => match &mut fake.kind {
                    EventKind::Removed { by, .. } => {
                        *by = match by {
                            Removal::Capture => Removal::InMove,
                            _ => Removal::Capture,
                        }
                    }
                    EventKind::Arrived { piece, .. } | EventKind::Ready { piece, .. } => {
                        piece.color = piece.color.flip()
                    }
                    _ => fake.ms += 2,
                },
            }
            let is_end = matches!(fake.kind, EventKind::Ended(_));
            if !is_end && !self.would_take(&fake) {
                return Some(fake);
            }
        }
        None
    }
}
