//! The swap algorithm on bitboards, shared by chess and Millennium: the least valuable attacker
//! of each side recaptures in turn, and sliders behind a piece that has moved join in.

use crate::board::{Bitboard, Square};
use crate::rules::Color;

/// Exchange values of pawn, knight, bishop, rook, queen; the king's is per position.
pub(super) const SEE_VALUES: [i32; 5] = [100, 320, 330, 500, 950];
/// A royal king's value: taking it ends everything, so it may only capture last.
pub(super) const ROYAL: i32 = 20_000;

/// What the swap needs to know of a position.
pub(super) trait SwapBoard {
    type Bits: Bitboard;
    fn color_bits(&self, color: Color) -> Self::Bits;
    /// Pieces of `kind` (0 pawn .. 5 king) of both colours.
    fn kind_bits(&self, kind: usize) -> Self::Bits;
    fn occupied_bits(&self) -> Self::Bits;
    /// Every piece of either colour attacking `sq` through `occupied`.
    fn attackers(&self, sq: Square, occupied: Self::Bits) -> Self::Bits;
    /// The value of a king of `color` in an exchange, [`ROYAL`] when losing it loses the game.
    fn king_value(&self, color: Color) -> i32;
    /// The kind (0 pawn .. 5 king) and colour of the piece on `sq`.
    fn occupant(&self, sq: Square) -> Option<(usize, Color)>;
}

/// What the exchange needs to know of a chess-like move.
pub(super) struct ChessLikeMove {
    pub from: Square,
    pub to: Square,
    /// Castling and en passant: no exchange to weigh.
    pub special: bool,
    pub en_passant: bool,
    /// The promoted kind (1 knight .. 4 queen).
    pub promotion: Option<usize>,
}

/// `see_ge` of chess and Millennium: the move's immediate gain for promotions, castling and en
/// passant, the swap for every other move.
pub(super) fn chess_like_see_ge<B: SwapBoard>(
    board: &B,
    mover: Color,
    mv: ChessLikeMove,
    threshold: i32,
) -> bool {
    let captured = board
        .occupant(mv.to)
        .map_or(0, |(kind, color)| value(board, kind, color));
    if mv.special || mv.promotion.is_some() {
        let en_passant = if mv.en_passant { SEE_VALUES[0] } else { 0 };
        let promotion = mv
            .promotion
            .map_or(0, |kind| SEE_VALUES[kind] - SEE_VALUES[0]);
        return en_passant + promotion + captured >= threshold;
    }
    let Some((kind, color)) = board.occupant(mv.from) else {
        return 0 >= threshold;
    };
    swap_at_least(
        board,
        mover,
        (mv.from, mv.to),
        (captured, value(board, kind, color)),
        threshold,
    )
}

/// The value of the piece of `kind` and `color` in an exchange.
#[inline(always)]
pub(super) fn value<B: SwapBoard>(board: &B, kind: usize, color: Color) -> i32 {
    if kind == 5 {
        board.king_value(color)
    } else {
        SEE_VALUES[kind]
    }
}

/// True when moving the `mover`'s piece (worth `moved_value`) from `from` to `to`, where it
/// wins `gain` at once, comes out at least `threshold` ahead after the best recaptures.
pub(super) fn swap_at_least<B: SwapBoard>(
    board: &B,
    mover: Color,
    (from, to): (Square, Square),
    (gain, moved_value): (i32, i32),
    threshold: i32,
) -> bool {
    // `swap` is what the side that moved last stands to lose (or, negative, to win) when its
    // piece on `to` is taken; `winning` says who is ahead if the exchange stops now.
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = moved_value - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied =
        (board.occupied_bits() & !B::Bits::from_square(from)) | B::Bits::from_square(to);
    let mut side = mover;
    let mut mover_ahead = true;
    loop {
        side = side.flip();
        let attackers = board.attackers(to, occupied) & occupied;
        let ours = attackers & board.color_bits(side);
        if ours.is_empty() {
            break;
        }
        mover_ahead = !mover_ahead;
        // The least valuable attacker takes.
        let Some((kind, square)) = (0..6).find_map(|kind| {
            let of_kind = ours & board.kind_bits(kind);
            of_kind.any().then(|| (kind, of_kind.lsb()))
        }) else {
            break;
        };
        let value = value(board, kind, side);
        if value >= ROYAL {
            // A royal king takes last: if the other side still attacks, it cannot take at all.
            let defended = (attackers & board.color_bits(side.flip())).any();
            return if defended { !mover_ahead } else { mover_ahead };
        }
        swap = value - swap;
        // The side to capture stops when even taking leaves it behind.
        if swap < i32::from(mover_ahead) {
            break;
        }
        occupied &= !B::Bits::from_square(square);
    }
    mover_ahead
}
