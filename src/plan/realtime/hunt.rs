//! The hunt of a bare king. A king with no pieces left (pawns aside) cannot be taken where it
//! stands and is free: it sees a strike coming and steps aside. It falls only to a piece next to
//! it that is free to strike (which it must leave before that piece's delay ends), or when every
//! square it could step to is struck before its own delay ends. So the hunter's orders are
//! weighed by the king's best answer: each order is judged after every reply the other side
//! could start at its next decision, and counts for the worst of them. That finds the guarded
//! piece set down next to the king that leaves it nowhere to go, which judging the order alone
//! (the king's answer unseen) does not.

use super::eval;
use super::view::{value, View};
use crate::rules::realtime::{Color, Kind, Ms, Order, RealtimeState};

/// Whether `hunter` hunts a bare king in `view`: the other side has nothing but its king and
/// pawns, and `hunter` a rook's worth of pieces.
pub fn bare_king(view: &View, hunter: Color) -> bool {
    let mut hunter_pieces = 0;
    for placed in &view.pieces {
        let kind = placed.piece.kind;
        if matches!(kind, Kind::King | Kind::Pawn) {
            continue;
        }
        if placed.piece.color != hunter {
            return false;
        }
        hunter_pieces += value(kind);
    }
    hunter_pieces >= value(Kind::Rook)
}

/// The judgement for `side` after it starts `order` (or waits) now and the other side answers at
/// its next decision, `reaction` later, with the reply worst for `side` (waiting among them);
/// judged another `reaction` on. `None` if `order` cannot start.
pub fn answered(
    state: &RealtimeState,
    side: Color,
    order: Option<Order>,
    reaction: Ms,
) -> Option<i32> {
    let next = super::started(state, side, order, reaction)?;
    // A strike no answer escapes (the king's answer is in that judgement's timing) stays one:
    // after the king's step it may judge as lost only later, and waiting, lost too, would win.
    let alone = eval::evaluate(&next, side, reaction);
    if next.outcome().is_some() || alone >= eval::WIN / 2 {
        return Some(alone);
    }
    let other = side.flip();
    let mut events = Vec::new();
    let replies = next.orders(other);
    let mut worst = i32::MAX;
    for reply in std::iter::once(None).chain(replies.into_iter().map(Some)) {
        let mut after = next.clone();
        if let Some(reply) = reply {
            if after.apply(other, reply, &mut events).is_err() {
                continue;
            }
        }
        after.advance_to(next.now() + reaction, &mut events);
        worst = worst.min(eval::evaluate(&after, side, reaction));
    }
    Some(worst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::realtime::RealtimeParams;

    fn view(text: &str) -> View {
        View::new(&RealtimeState::from_text(text, RealtimeParams::default()).unwrap())
    }

    #[test]
    fn a_king_with_pawns_only_is_bare_to_a_rook_or_more() {
        let rook = view("4k3/4p3/8/8/8/8/8/R3K3 - 5000 0");
        assert!(bare_king(&rook, Color::White));
        assert!(!bare_king(&rook, Color::Black));
        // A knight is no bare king, and a bishop is too little to hunt with.
        assert!(!bare_king(
            &view("4k3/4n3/8/8/8/8/8/R3K3 - 5000 0"),
            Color::White
        ));
        assert!(!bare_king(
            &view("4k3/8/8/8/8/8/8/B3K3 - 5000 0"),
            Color::White
        ));
        // A queen on its way counts.
        let moving = view("4k3/8/8/8/8/8/8/4K3 - 5000 0 m:Q:d1d4:4500");
        assert!(bare_king(&moving, Color::White));
    }
}
