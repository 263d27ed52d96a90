//! Time passing: where moving pieces are (the occupancy intervals, in doubled milliseconds so
//! the half-tick edges stay exact for odd ticks), the next millisecond at which anything changes,
//! and each such millisecond in the page's order: arrivals, delays ending, collisions, endings.

use super::movement::{is_knight_jump, line, step_square};
use super::state::{rights_lost_by, Motion, RealtimeState, Unit, MAX_UNITS};
use super::{Color, EndReason, Event, EventKind, Kind, Ms, Outcome, Piece, Removal};
use crate::board::Square;
use arrayvec::ArrayVec;

/// How a moving piece crosses the board.
#[derive(Clone, Copy)]
enum Path {
    /// One square per tick along a line.
    Line { step: i8, squares: u8 },
    /// Take-off half-tick, air, landing half-tick.
    Knight,
    /// The queenside castling rook: three squares in two ticks.
    CastlingRook { step: i8 },
}

impl RealtimeState {
    fn path(&self, unit: &Unit, from: Square, to: Square, start: Ms, arrive: Ms) -> Path {
        if unit.piece.kind == Kind::Knight && is_knight_jump(from, to) {
            return Path::Knight;
        }
        let (step, squares) = line(from, to).unwrap_or((0, 0));
        if unit.piece.kind == Kind::Rook && squares == 3 && arrive - start == 2 * self.params.tick()
        {
            Path::CastlingRook { step }
        } else {
            Path::Line { step, squares }
        }
    }

    /// Where `unit` is at `t` by the occupancy intervals (`None` for a knight in the air).
    pub fn occupied_square(&self, unit: &Unit, t: Ms) -> Option<Square> {
        let (from, to, start, arrive) = match unit.motion {
            Motion::Standing { square, .. } => return Some(square),
            Motion::Moving {
                from,
                to,
                start,
                arrive,
            } => (from, to, start, arrive),
        };
        if t >= arrive {
            return Some(to);
        }
        let tick = self.params.tick();
        let doubled = 2 * t.saturating_sub(start);
        match self.path(unit, from, to, start, arrive) {
            Path::Knight if doubled <= tick => Some(from),
            Path::Knight if doubled <= 3 * tick => None,
            Path::Knight => Some(to),
            Path::CastlingRook { step } => {
                let k = if doubled <= tick {
                    0
                } else if doubled <= 3 * tick {
                    1
                } else {
                    2
                };
                Some(step_square(from, step, k))
            }
            Path::Line { step, squares } => {
                // On the k-th square while (2k-1)T < doubled <= (2k+1)T.
                let k = ((doubled + tick - 1) / (2 * tick)).min(squares as Ms);
                Some(step_square(from, step, k as u8))
            }
        }
    }

    /// The first ms after now at which a moving `unit` changes square, lands or arrives.
    fn next_boundary(&self, unit: &Unit) -> Option<Ms> {
        let Motion::Moving {
            from,
            to,
            start,
            arrive,
        } = unit.motion
        else {
            return None;
        };
        let tick = self.params.tick();
        let doubled = 2 * (self.now - start);
        let next = match self.path(unit, from, to, start, arrive) {
            Path::Knight | Path::CastlingRook { .. } if doubled <= tick => start + tick / 2 + 1,
            Path::Knight | Path::CastlingRook { .. } if doubled <= 3 * tick => {
                start + 3 * tick / 2 + 1
            }
            Path::Knight | Path::CastlingRook { .. } => arrive,
            Path::Line { squares, .. } => {
                let k = ((doubled + tick - 1) / (2 * tick)).min(squares as Ms);
                if k < squares as Ms {
                    // The first ms on square k + 1: t0 + floor((2k+1)T/2) + 1.
                    start + (2 * k + 1) * tick / 2 + 1
                } else {
                    arrive
                }
            }
        };
        Some(next.min(arrive))
    }

    /// The next ms after now at which anything happens by itself (an occupancy change, an
    /// arrival, a delay's end, the no-capture draw); `None` once the game is over.
    pub fn next_change(&self) -> Option<Ms> {
        if self.outcome.is_some() {
            return None;
        }
        let mut next = self.last_removal + self.params.no_capture_draw();
        for unit in &self.units {
            match unit.motion {
                Motion::Standing { ready_at, .. } if ready_at > self.now => {
                    next = next.min(ready_at)
                }
                Motion::Standing { .. } => {}
                Motion::Moving { .. } => {
                    if let Some(boundary) = self.next_boundary(unit) {
                        next = next.min(boundary);
                    }
                }
            }
        }
        Some(next.max(self.now + 1))
    }

    /// The game at `ms` as a reader who has heard every event up to `clock` will have it, and
    /// the events at `ms` not yet told: `untold` are those at `clock` still to be told, kept
    /// only when `ms == clock`. Lines come in time order, so nothing before `ms` is told later.
    pub fn seen_at(&self, clock: Ms, untold: &[Event], ms: Ms) -> (RealtimeState, Vec<Event>) {
        let mut state = self.clone();
        let mut events = if ms == clock {
            untold.to_vec()
        } else {
            Vec::new()
        };
        if ms > state.now() {
            state.advance_to(ms, &mut events);
        }
        events.retain(|event| event.ms == ms);
        (state, events)
    }

    /// Plays every ms in (now, t] (arrivals, delays, collisions, endings) and sets now to `t`,
    /// or to the game's last ms if it ends first. Orders at `t` come after this.
    pub fn advance_to(&mut self, t: Ms, events: &mut Vec<Event>) {
        while let Some(next) = self.next_change() {
            if next > t {
                break;
            }
            self.now = next;
            self.play_ms(events);
            if self.outcome.is_some() {
                return;
            }
        }
        if self.outcome.is_none() {
            self.now = self.now.max(t);
        }
    }

    /// Everything that happens at `now`, in the page's order.
    fn play_ms(&mut self, events: &mut Vec<Event>) {
        let now = self.now;
        self.arrive(events);
        self.end_delays(events);
        let removed = self.collide();
        let mut kings_removed = [false; 2];
        if !removed.is_empty() {
            self.last_removal = now;
            let mut gone = 0u32;
            for &(index, square, by) in &removed {
                let unit = self.units[index];
                gone |= 1 << index;
                self.en_passant_movers &= !(1 << unit.id);
                if unit.standing_on().is_some() {
                    self.castling &= !rights_lost_by(square);
                }
                if unit.piece.kind == Kind::King {
                    kings_removed[unit.piece.color.index()] = true;
                }
                events.push(Event {
                    ms: now,
                    kind: EventKind::Removed {
                        piece: unit.piece,
                        square,
                        by,
                    },
                });
            }
            let mut index = 0;
            self.units.retain(|_| {
                index += 1;
                gone & (1 << (index - 1)) == 0
            });
        }
        let outcome = match kings_removed {
            [true, true] => Some((None, EndReason::BothKingsRemoved)),
            [true, false] => Some((Some(Color::Black), EndReason::KingRemoved)),
            [false, true] => Some((Some(Color::White), EndReason::KingRemoved)),
            [false, false] if now >= self.last_removal + self.params.no_capture_draw() => {
                Some((None, EndReason::NoCaptureDraw))
            }
            [false, false] => None,
        };
        if let Some((winner, reason)) = outcome {
            self.end(Outcome { winner, reason }, events);
        }
    }

    /// Moving pieces whose arrival is now stand on their destination (a pawn on the last rank
    /// as a queen), with their delay; by square.
    fn arrive(&mut self, events: &mut Vec<Event>) {
        let now = self.now;
        let delay = self.params.delay();
        let mut arrivals: ArrayVec<(u8, usize), MAX_UNITS> = ArrayVec::new();
        for (index, unit) in self.units.iter().enumerate() {
            if let Motion::Moving { to, arrive, .. } = unit.motion {
                if arrive <= now {
                    arrivals.push((to.0, index));
                }
            }
        }
        arrivals.sort_unstable();
        for (_, index) in arrivals {
            let unit = &mut self.units[index];
            let Motion::Moving { from, to, .. } = unit.motion else {
                continue;
            };
            let pawn = unit.piece.kind == Kind::Pawn;
            let double_step = pawn && from.0.abs_diff(to.0) == 16;
            unit.motion = Motion::Standing {
                square: to,
                ready_at: now + delay,
                en_passant_until: (double_step && delay > 0).then_some(now + delay),
            };
            self.en_passant_movers &= !(1 << unit.id);
            events.push(Event {
                ms: now,
                kind: EventKind::Arrived {
                    piece: unit.piece,
                    square: to,
                },
            });
            let last_rank = match unit.piece.color {
                Color::White => 7,
                Color::Black => 0,
            };
            if pawn && to.0 / 8 == last_rank {
                unit.piece.kind = Kind::Queen;
                events.push(Event {
                    ms: now,
                    kind: EventKind::Promoted {
                        color: unit.piece.color,
                        square: to,
                    },
                });
            }
        }
    }

    /// Standing pieces whose delay ends now may start again; by square.
    fn end_delays(&mut self, events: &mut Vec<Event>) {
        let now = self.now;
        let mut ready: ArrayVec<(u8, usize), MAX_UNITS> = ArrayVec::new();
        for (index, unit) in self.units.iter().enumerate() {
            if let Motion::Standing {
                square, ready_at, ..
            } = unit.motion
            {
                if ready_at > 0 && ready_at <= now {
                    ready.push((square.0, index));
                }
            }
        }
        ready.sort_unstable();
        for (square, index) in ready {
            let unit = &mut self.units[index];
            unit.motion = Motion::Standing {
                square: Square(square),
                ready_at: 0,
                en_passant_until: None,
            };
            events.push(Event {
                ms: now,
                kind: EventKind::Ready {
                    piece: unit.piece,
                    square: Square(square),
                },
            });
        }
    }

    /// The pieces removed now, judged together: every pair of pieces of different colours on
    /// one square, and the en passant captures that reach their square now. By square, white
    /// first.
    pub(super) fn collide(&mut self) -> ArrayVec<(usize, Square, Removal), MAX_UNITS> {
        let mut removed = self.collisions();
        let now = self.now;
        let tick = self.params.tick();
        if self.en_passant_movers != 0 {
            for unit in self.units.clone().iter() {
                let Motion::Moving {
                    from, to, start, ..
                } = unit.motion
                else {
                    continue;
                };
                if self.en_passant_movers & (1 << unit.id) == 0 || now < start + tick / 2 + 1 {
                    continue;
                }
                self.en_passant_movers &= !(1 << unit.id);
                let beside = Square(from.0 / 8 * 8 + to.0 % 8);
                let target = self.standing_index(beside).filter(|&index| {
                    self.units[index].piece
                        == Piece {
                            color: unit.piece.color.flip(),
                            kind: Kind::Pawn,
                        }
                });
                if let Some(index) = target {
                    if !removed.iter().any(|&(gone, _, _)| gone == index) {
                        removed.push((index, beside, Removal::EnPassant));
                    }
                }
            }
        }
        let units = &self.units;
        removed.sort_unstable_by_key(|&(index, square, _)| {
            (square.0, units[index].piece.color.index(), units[index].id)
        });
        removed
    }

    /// The pieces that collisions remove now (without en passant), by square.
    pub(super) fn collisions(&self) -> ArrayVec<(usize, Square, Removal), MAX_UNITS> {
        let mut removed = ArrayVec::new();
        let mut occupants: ArrayVec<(u8, usize), MAX_UNITS> = ArrayVec::new();
        let (mut seen, mut shared) = (0u64, false);
        for (index, unit) in self.units.iter().enumerate() {
            if let Some(square) = self.occupied_square(unit, self.now) {
                shared |= seen & (1 << square.0) != 0;
                seen |= 1 << square.0;
                occupants.push((square.0, index));
            }
        }
        if !shared {
            return removed;
        }
        occupants.sort_unstable();
        let mut verdicts: [Option<Removal>; MAX_UNITS] = [None; MAX_UNITS];
        for (i, &(square, a)) in occupants.iter().enumerate() {
            for &(other_square, b) in &occupants[i + 1..] {
                if other_square != square {
                    break;
                }
                let (x, y) = (&self.units[a], &self.units[b]);
                if x.piece.color == y.piece.color {
                    continue;
                }
                match (x.motion, y.motion) {
                    (Motion::Standing { .. }, Motion::Moving { to, .. }) => {
                        capture(&mut verdicts[a], to.0 == square)
                    }
                    (Motion::Moving { to, .. }, Motion::Standing { .. }) => {
                        capture(&mut verdicts[b], to.0 == square)
                    }
                    (Motion::Moving { start: first, .. }, Motion::Moving { start: second, .. }) => {
                        if first < second {
                            verdicts[b].get_or_insert(Removal::InMove);
                        } else if second < first {
                            verdicts[a].get_or_insert(Removal::InMove);
                        }
                    }
                    // Two standing pieces never share a square (rules 3 and 6).
                    (Motion::Standing { .. }, Motion::Standing { .. }) => {}
                }
            }
        }
        for &(square, index) in &occupants {
            if let Some(by) = verdicts[index] {
                removed.push((index, Square(square), by));
            }
        }
        removed
    }
}

/// A standing piece taken by a mover: a capture when the square is the mover's destination
/// (which wins over an in-move capture by another mover at the same ms).
fn capture(verdict: &mut Option<Removal>, destination: bool) {
    if destination {
        *verdict = Some(Removal::Capture);
    } else {
        verdict.get_or_insert(Removal::InMoveCapture);
    }
}
