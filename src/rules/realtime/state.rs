//! The state of a realtime game at one millisecond: its pieces, standing or moving, and the
//! clock. Starting orders is in `movement.rs`, time passing in `time.rs`, the text in `text.rs`.

use super::{Color, EndReason, Event, EventKind, Ms, Order, Outcome, Piece};
use super::{RealtimeParams, Refusal};
use crate::board::Square;
use arrayvec::ArrayVec;

/// Room for every piece of both armies (nothing adds pieces: promotion changes one).
pub(super) const MAX_UNITS: usize = 32;

/// A piece on the board, standing or moving; `id` is stable for the piece's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub id: u8,
    pub piece: Piece,
    pub motion: Motion,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// On `square`; may start at `ready_at` or later. `en_passant_until` is set for a pawn that
    /// arrived by a two-square move: an en passant target while now is before it.
    Standing {
        square: Square,
        ready_at: Ms,
        en_passant_until: Option<Ms>,
    },
    /// Started from `from` towards `to` at `start`; arrives at `arrive`. Castling moves two units.
    Moving {
        from: Square,
        to: Square,
        start: Ms,
        arrive: Ms,
    },
}

impl Unit {
    /// The square it stands on, if it stands.
    pub fn standing_on(&self) -> Option<Square> {
        match self.motion {
            Motion::Standing { square, .. } => Some(square),
            Motion::Moving { .. } => None,
        }
    }
    /// Whether it stands and may start at `t`.
    pub fn ready(&self, t: Ms) -> bool {
        matches!(self.motion, Motion::Standing { ready_at, .. } if ready_at <= t)
    }
}

/// Castling rights: bit 0 white kingside, 1 white queenside, 2 black kingside, 3 black queenside.
pub(super) const ALL_CASTLING: u8 = 0b1111;

/// The right's bit for `color` on one wing.
pub(super) const fn castling_bit(color: Color, kingside: bool) -> u8 {
    1 << (color as u8 * 2 + if kingside { 0 } else { 1 })
}

/// The home rank's first square (a1 or a8).
pub(super) const fn home(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => 56,
    }
}

/// A realtime game at `now`: small and cheap to clone, so planners simulate forward on copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RealtimeState {
    pub(super) params: RealtimeParams,
    pub(super) now: Ms,
    pub(super) units: ArrayVec<Unit, MAX_UNITS>,
    /// Which kings and rooks have never started a move (see [`castling_bit`]).
    pub(super) castling: u8,
    pub(super) last_removal: Ms,
    pub(super) outcome: Option<Outcome>,
    /// Bit per unit id: pawns started as en passant captures that have not yet reached their
    /// destination square (where the target is taken).
    pub(super) en_passant_movers: u32,
}

/// The standard setup's state text.
pub(super) const START_TEXT: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR KQkq 0 0";

impl RealtimeState {
    /// The standard setup at 0 ms.
    pub fn start(params: RealtimeParams) -> RealtimeState {
        let mut state = RealtimeState::from_text(START_TEXT, RealtimeParams::default())
            .expect("the start text is valid");
        state.params = params;
        state
    }
    pub fn params(&self) -> RealtimeParams {
        self.params
    }
    pub fn now(&self) -> Ms {
        self.now
    }
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// The standing unit on `square`.
    pub fn unit_on(&self, square: Square) -> Option<&Unit> {
        self.units
            .iter()
            .find(|unit| unit.standing_on() == Some(square))
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// The ms of the last removal (0 when none).
    pub fn last_removal(&self) -> Ms {
        self.last_removal
    }
    /// Starts `order` now, appending its `Started` event (one for castling: the king's order).
    pub fn apply(
        &mut self,
        color: Color,
        order: Order,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let start = self.check_start(color, order)?;
        let now = self.now;
        let tick = self.params.tick();
        let mut set_moving = |square: Square, to: Square, ticks: Ms| {
            if let Some(unit) = self
                .units
                .iter_mut()
                .find(|unit| unit.standing_on() == Some(square))
            {
                unit.motion = Motion::Moving {
                    from: square,
                    to,
                    start: now,
                    arrive: now + ticks * tick,
                };
            }
        };
        set_moving(order.from, order.to, start.ticks);
        if let Some((rook_from, rook_to)) = start.rook {
            set_moving(rook_from, rook_to, start.ticks);
        }
        if start.en_passant {
            if let Some(id) = self.moving_id_from(order.from) {
                self.en_passant_movers |= 1 << id;
            }
        }
        self.castling &= !rights_lost_by(order.from);
        events.push(Event {
            ms: now,
            kind: EventKind::Started { color, order },
        });
        Ok(())
    }
    /// The id of the unit that just started from `from`.
    fn moving_id_from(&self, from: Square) -> Option<u8> {
        self.units.iter().find_map(|unit| match unit.motion {
            Motion::Moving {
                from: start_square,
                start,
                ..
            } if start_square == from && start == self.now => Some(unit.id),
            _ => None,
        })
    }
    pub fn resign(&mut self, color: Color, events: &mut Vec<Event>) {
        self.end(
            Outcome {
                winner: Some(color.flip()),
                reason: EndReason::Resignation,
            },
            events,
        );
    }
    pub fn agree_draw(&mut self, events: &mut Vec<Event>) {
        self.end(
            Outcome {
                winner: None,
                reason: EndReason::AgreedDraw,
            },
            events,
        );
    }
    /// Ends the game now (a finished game stays as it ended).
    pub(super) fn end(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
            events.push(Event {
                ms: self.now,
                kind: EventKind::Ended(outcome),
            });
        }
    }
    /// The standing unit on `square`, by its index in `units`.
    pub(super) fn standing_index(&self, square: Square) -> Option<usize> {
        self.units
            .iter()
            .position(|unit| unit.standing_on() == Some(square))
    }
}

/// The castling rights a piece leaving or lost from `square` takes away: the king's square
/// takes both of its side, a corner its wing.
pub(super) fn rights_lost_by(square: Square) -> u8 {
    match square.0 {
        4 => castling_bit(Color::White, true) | castling_bit(Color::White, false),
        60 => castling_bit(Color::Black, true) | castling_bit(Color::Black, false),
        7 => castling_bit(Color::White, true),
        0 => castling_bit(Color::White, false),
        63 => castling_bit(Color::Black, true),
        56 => castling_bit(Color::Black, false),
        _ => 0,
    }
}
