//! Megachess world rules, one test per rule of docs/rules/megachess.md: movement and ranges,
//! the bishop's orthogonal step, pawns, allies and neutral pieces, king capture and army
//! hand-over, fading and kingdoms, bonus pieces, in-order application, scores, turn order,
//! every rejection, position-line errors, determinism and the 1,000,000-wide world.
//!
//! Longer than 800 lines on purpose: it is the rules page's checklist, one test per rule in
//! the page's order, so that a reader can hold the two side by side; split by topic it would
//! lose that order and gain nothing (its helpers are a few lines at the top).

use roger::rules::megachess::{
    Coord, Facing, Kind, MegachessParams, Move, PieceId, PositionError, Rejection, Team, World,
    WorldView, NEUTRAL,
};
use std::collections::BTreeSet;

/// Players 1 and 2 are alabaster, 3 and 4 metal, on a 64 x 64 board.
const PLAYERS: &str = "players 1:a 2:a 3:m 4:m";

fn params_without_bonus() -> MegachessParams {
    MegachessParams {
        bonus_every: 0,
        ..MegachessParams::default()
    }
}

fn world_with(params: &MegachessParams, turn: u64, pieces: &str) -> World {
    let me = if turn % 2 == 1 { 1 } else { 3 };
    let line = format!("size 64 64 turn {turn} me {me} {PLAYERS} pieces {pieces}");
    WorldView::parse(&line, params)
        .unwrap_or_else(|error| panic!("{line}: {error}"))
        .world
}

/// A world at turn 1 (alabaster to move) without bonus spawns.
fn world(pieces: &str) -> World {
    world_with(&params_without_bonus(), 1, pieces)
}

fn sq(x: u32, y: u32) -> Coord {
    Coord::new(x, y)
}

fn mv(from: (u32, u32), to: (u32, u32)) -> Move {
    Move::new(sq(from.0, from.1), sq(to.0, to.1))
}

fn id_at(world: &World, x: u32, y: u32) -> PieceId {
    world.piece_at(sq(x, y)).expect("a piece there").id
}

fn targets(world: &World, x: u32, y: u32) -> BTreeSet<(u32, u32)> {
    let mut out = Vec::new();
    world.targets(id_at(world, x, y), &mut out);
    let set: BTreeSet<_> = out.iter().map(|c| (c.x, c.y)).collect();
    assert_eq!(set.len(), out.len(), "no target listed twice");
    set
}

fn not_a_move(result: Result<(), Rejection>) -> bool {
    matches!(result, Err(Rejection::NotAMove { .. }))
}

// ---- ranges and shapes --------------------------------------------------------------------

#[test]
fn queen_reaches_seven_squares_not_eight() {
    let w = world("1Q20,20");
    assert_eq!(targets(&w, 20, 20).len(), 8 * 7);
    for (dx, dy) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let at = |n: i32| ((20 + dx * n) as u32, (20 + dy * n) as u32);
        assert_eq!(w.check(1, mv((20, 20), at(7))), Ok(()));
        assert!(not_a_move(w.check(1, mv((20, 20), at(8)))));
    }
    assert!(not_a_move(w.check(1, mv((20, 20), (22, 21)))));
}

#[test]
fn rook_reaches_six_squares_orthogonally_only() {
    let w = world("1R20,20");
    assert_eq!(targets(&w, 20, 20).len(), 4 * 6);
    assert_eq!(w.check(1, mv((20, 20), (26, 20))), Ok(()));
    assert_eq!(w.check(1, mv((20, 20), (20, 14))), Ok(()));
    assert!(not_a_move(w.check(1, mv((20, 20), (27, 20)))));
    assert!(not_a_move(w.check(1, mv((20, 20), (21, 21)))));
}

#[test]
fn bishop_reaches_six_squares_diagonally() {
    let w = world("1B20,20");
    // 4 diagonals of 6, and the unused orthogonal step to each of 4 neighbours.
    assert_eq!(targets(&w, 20, 20).len(), 4 * 6 + 4);
    assert_eq!(w.check(1, mv((20, 20), (14, 26))), Ok(()));
    assert!(not_a_move(w.check(1, mv((20, 20), (13, 27)))));
    assert!(not_a_move(w.check(1, mv((20, 20), (22, 20)))));
}

#[test]
fn king_steps_one_square() {
    let w = world("1K20,20");
    let expected: BTreeSet<_> = [(19, 19), (19, 20), (19, 21), (20, 19), (20, 21), (21, 19)]
        .into_iter()
        .chain([(21, 20), (21, 21)])
        .collect();
    assert_eq!(targets(&w, 20, 20), expected);
    assert!(not_a_move(w.check(1, mv((20, 20), (22, 20)))));
}

#[test]
fn knight_jumps_over_pieces() {
    let ring: Vec<String> = (-1i32..=1)
        .flat_map(|dx| (-1i32..=1).map(move |dy| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(|(dx, dy)| format!("1P{},{}", 20 + dx, 20 + dy))
        .collect();
    let w = world(&format!("1N20,20 {}", ring.join(" ")));
    let expected: BTreeSet<_> = [(21, 22), (22, 21), (22, 19), (21, 18), (19, 18), (18, 19)]
        .into_iter()
        .chain([(18, 21), (19, 22)])
        .collect();
    assert_eq!(targets(&w, 20, 20), expected);
    assert!(not_a_move(w.check(1, mv((20, 20), (22, 22)))));
}

#[test]
fn sliders_stop_at_the_first_piece_and_capture_only_enemies() {
    let w = world("1Q20,20 3P23,20 1P20,23");
    let reach = targets(&w, 20, 20);
    assert!(reach.contains(&(23, 20)) && !reach.contains(&(24, 20)));
    assert!(reach.contains(&(20, 22)) && !reach.contains(&(20, 23)));
    assert_eq!(
        w.check(1, mv((20, 20), (25, 20))),
        Err(Rejection::PathBlocked {
            kind: Kind::Queen,
            at: sq(23, 20)
        })
    );
}

#[test]
fn pieces_stop_at_the_board_edges() {
    let w = world("1Q0,0 1R63,63 1N0,63");
    assert_eq!(targets(&w, 0, 0).len(), 3 * 7);
    assert_eq!(targets(&w, 63, 63).len(), 2 * 6);
    assert_eq!(targets(&w, 0, 63).len(), 2);
}

// ---- the bishop's orthogonal step -----------------------------------------------------------

#[test]
fn bishop_steps_orthogonally_once_in_its_life_and_never_captures() {
    let mut w = world("1K5,5 1B20,20 3P21,20");
    assert!(
        not_a_move(w.check(1, mv((20, 20), (21, 20)))),
        "never a capture"
    );
    assert!(
        not_a_move(w.check(1, mv((20, 20), (20, 22)))),
        "one square only"
    );
    w.apply(1, mv((20, 20), (20, 21))).unwrap();
    let bishop = *w.piece_at(sq(20, 21)).unwrap();
    assert!(bishop.moved && bishop.used_orthogonal_step);
    w.end_turn();
    w.end_turn();
    assert!(not_a_move(w.check(1, mv((20, 21), (20, 22)))), "used");
    assert!(!targets(&w, 20, 21).contains(&(20, 22)));
    w.apply(1, mv((20, 21), (23, 24))).unwrap();
    let bishop = *w.piece_at(sq(23, 24)).unwrap();
    assert!(
        bishop.moved && bishop.used_orthogonal_step,
        "flags kept for life"
    );
    // A bishop read with flag o has no orthogonal step either.
    let read = world("1B20,20.mo");
    assert_eq!(targets(&read, 20, 20).len(), 4 * 6);
    // A diagonal move alone sets only m.
    let mut fresh = world("1B20,20");
    fresh.apply(1, mv((20, 20), (22, 22))).unwrap();
    let bishop = fresh.piece_at(sq(22, 22)).unwrap();
    assert!(bishop.moved && !bishop.used_orthogonal_step);
    assert_eq!(targets(&fresh, 22, 22).len(), 4 * 6 + 4);
}

// ---- pawns --------------------------------------------------------------------------------

#[test]
fn pawn_first_move_steps_two_orthogonally_in_all_four_directions() {
    let w = world("1P20,20");
    let expected: BTreeSet<_> = (-1i32..=1)
        .flat_map(|dx| (-1i32..=1).map(move |dy| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(|(dx, dy)| ((20 + dx) as u32, (20 + dy) as u32))
        .chain([(22, 20), (18, 20), (20, 22), (20, 18)])
        .collect();
    assert_eq!(targets(&w, 20, 20), expected);
    for to in [(22, 20), (18, 20), (20, 22), (20, 18)] {
        let mut copy = w.clone();
        copy.apply(1, mv((20, 20), to)).unwrap();
        assert!(copy.piece_at(sq(to.0, to.1)).unwrap().moved);
    }
    assert!(
        not_a_move(w.check(1, mv((20, 20), (22, 22)))),
        "not diagonally"
    );
    assert!(not_a_move(w.check(1, mv((20, 20), (23, 20)))));
}

#[test]
fn pawn_double_step_needs_both_squares_vacant_and_a_first_move() {
    let w = world("1P20,20 3N21,20 1N20,22 0P18,20");
    assert_eq!(
        w.check(1, mv((20, 20), (22, 20))),
        Err(Rejection::PathBlocked {
            kind: Kind::Pawn,
            at: sq(21, 20)
        })
    );
    assert_eq!(
        w.check(1, mv((20, 20), (20, 22))),
        Err(Rejection::DestinationTaken {
            at: sq(20, 22),
            owner: 1
        })
    );
    assert_eq!(
        w.check(1, mv((20, 20), (18, 20))),
        Err(Rejection::DestinationTaken {
            at: sq(18, 20),
            owner: NEUTRAL
        })
    );
    assert_eq!(w.check(1, mv((20, 20), (20, 18))), Ok(()));
    let moved = world("1P20,20.m");
    assert!(not_a_move(moved.check(1, mv((20, 20), (20, 22)))));
    assert_eq!(targets(&moved, 20, 20).len(), 8);
    let mut w = world("1K5,5 1P20,20");
    w.apply(1, mv((20, 20), (20, 21))).unwrap();
    w.end_turn();
    w.end_turn();
    assert!(not_a_move(w.check(1, mv((20, 21), (20, 23)))));
}

#[test]
fn pawn_captures_diagonally_in_all_four_directions_and_never_orthogonally() {
    let w = world("1P20,20 3P21,21 3P19,21 3P21,19 3P19,19 3P20,21 3P21,20 3P20,19 3P19,20");
    let expected: BTreeSet<_> = [(21, 21), (19, 21), (21, 19), (19, 19)]
        .into_iter()
        .collect();
    assert_eq!(targets(&w, 20, 20), expected);
    for to in [(21, 21), (19, 21), (21, 19), (19, 19)] {
        let mut copy = w.clone();
        let effects = copy.apply(1, mv((20, 20), to)).unwrap();
        assert_eq!(effects.captured.unwrap().kind, Kind::Pawn);
        assert_eq!(effects.points, 1);
    }
    for to in [(20, 21), (21, 20), (20, 19), (19, 20)] {
        assert!(not_a_move(w.check(1, mv((20, 20), to))), "{to:?}");
    }
    // Nor by the double step.
    let far = world("1P20,20 3P22,20");
    assert!(not_a_move(far.check(1, mv((20, 20), (22, 20)))));
}

// ---- allies and neutral pieces --------------------------------------------------------------

#[test]
fn allies_are_never_captured_and_block() {
    let w = world("1R20,20 2P22,20 1P20,22 3P18,20");
    let reach = targets(&w, 20, 20);
    assert!(reach.contains(&(21, 20)) && !reach.contains(&(22, 20)));
    assert!(!reach.contains(&(20, 22)) && reach.contains(&(18, 20)));
    assert_eq!(
        w.check(1, mv((20, 20), (22, 20))),
        Err(Rejection::DestinationTaken {
            at: sq(22, 20),
            owner: 2
        })
    );
    assert_eq!(
        w.check(1, mv((20, 20), (23, 20))),
        Err(Rejection::PathBlocked {
            kind: Kind::Rook,
            at: sq(22, 20)
        })
    );
    assert!(w.allied(1, 2) && w.allied(1, 1) && !w.allied(1, 3) && !w.allied(1, NEUTRAL));
    // A pawn does not capture an ally diagonally either.
    let pawn = world("1P20,20 2P21,21");
    assert!(!targets(&pawn, 20, 20).contains(&(21, 21)));
}

#[test]
fn neutral_pieces_block_cannot_be_captured_and_never_move() {
    let mut w = world("1K5,5 1Q20,20 0R23,20 0N30,30");
    assert!(!targets(&w, 20, 20).contains(&(23, 20)));
    assert_eq!(
        w.check(1, mv((20, 20), (23, 20))),
        Err(Rejection::DestinationTaken {
            at: sq(23, 20),
            owner: NEUTRAL
        })
    );
    assert_eq!(
        w.check(1, mv((20, 20), (24, 20))),
        Err(Rejection::PathBlocked {
            kind: Kind::Queen,
            at: sq(23, 20)
        })
    );
    assert!(targets(&w, 30, 30).is_empty());
    assert_eq!(
        w.check(1, mv((30, 30), (31, 32))),
        Err(Rejection::NotYourPiece {
            at: sq(30, 30),
            owner: NEUTRAL
        })
    );
    for _ in 0..10 {
        w.end_turn();
    }
    let knight = w.piece_at(sq(30, 30)).unwrap();
    assert_eq!((knight.owner, knight.life), (NEUTRAL, None), "never fades");
}

// ---- kings and armies -----------------------------------------------------------------------

#[test]
fn king_capture_hands_over_the_whole_army_with_flags_kept() {
    let mut w = world("1K5,5 1Q20,20 3K21,21 3B30,30.mo/4 3P31,31.m 3N40,40 4K60,60");
    let army: Vec<PieceId> = w
        .pieces_of(3)
        .filter(|p| p.kind != Kind::King)
        .map(|p| p.id)
        .collect();
    let effects = w.apply(1, mv((20, 20), (21, 21))).unwrap();
    assert_eq!(effects.king_captured, Some(3));
    assert_eq!(effects.captured.unwrap().kind, Kind::King);
    assert_eq!(effects.handed_over, army);
    assert_eq!(
        effects.points, 110,
        "100 + rank_king; the army is not scored"
    );
    assert_eq!(w.player(1).unwrap().score, 110);
    assert!(w.player(3).is_none(), "the victim left the game");
    assert_eq!(w.pieces_of(3).count(), 0);
    let bishop = *w.piece_at(sq(30, 30)).unwrap();
    assert_eq!(bishop.owner, 1);
    assert!(bishop.moved && bishop.used_orthogonal_step);
    assert_eq!(bishop.life, Some(4), "life kept");
    assert!(w.piece_at(sq(31, 31)).unwrap().moved);
    assert_eq!(
        w.kingdom_centre(1),
        Some(sq(5, 5)),
        "the capturer's king is the centre"
    );
    // The handed-over knight may move in this same turn.
    w.apply(1, mv((40, 40), (42, 41))).unwrap();
    // At the end of the turn the army fades by the capturer's kingdom.
    w.end_turn();
    assert_eq!(w.piece_at(sq(30, 30)).unwrap().life, Some(3));
    assert_eq!(w.piece_at(sq(42, 41)).unwrap().life, None, "it moved");
    assert_eq!(w.piece_at(sq(31, 31)).unwrap().life, Some(2));
}

#[test]
fn a_king_hand_over_moves_the_kingdom_centre() {
    // Player 3's pawn is inside its own king's kingdom; after the hand-over it is far from
    // player 1's king, so it starts fading.
    let mut w = world("1K5,5 1N40,40 3K42,41 3P44,44");
    w.apply(1, mv((40, 40), (42, 41))).unwrap();
    assert!(!w.inside_kingdom(1, sq(44, 44)));
    w.end_turn();
    assert_eq!(w.piece_at(sq(44, 44)).unwrap().life, Some(2));
}

#[test]
fn a_player_who_left_keeps_its_pieces_unmoving_until_its_king_is_taken() {
    let mut w = world_with(&params_without_bonus(), 2, "1K5,5 3K30,30 3P50,50 1N28,29");
    w.leave(3);
    assert_eq!(
        w.check(3, mv((30, 30), (31, 31))),
        Err(Rejection::PlayerLeft(3))
    );
    assert!(w.legal_moves(3).is_empty());
    let end = w.end_turn();
    assert_eq!(end.survivors, vec![4], "no survival point after leaving");
    assert_eq!(
        w.piece_at(sq(50, 50)).unwrap().life,
        Some(2),
        "its pieces still fade"
    );
    let effects = w.apply(1, mv((28, 29), (30, 30))).unwrap();
    assert_eq!(effects.king_captured, Some(3));
    assert_eq!(w.piece_at(sq(50, 50)).unwrap().owner, 1);
    assert!(w.player(3).is_none());
}

// ---- kingdoms and fading --------------------------------------------------------------------

#[test]
fn pawn_lasts_three_turns_and_queen_eleven_outside() {
    let mut w = world("1K5,5 1P40,40 1Q50,50");
    for own_turn in 1..=2 {
        w.end_turn();
        assert_eq!(w.piece_at(sq(40, 40)).unwrap().life, Some(3 - own_turn));
        w.end_turn(); // metal's turn changes nothing of alabaster's
        assert_eq!(w.piece_at(sq(40, 40)).unwrap().life, Some(3 - own_turn));
    }
    let end = w.end_turn();
    assert!(
        w.piece_at(sq(40, 40)).is_none(),
        "gone after its third turn"
    );
    assert_eq!(end.faded.len(), 1);
    assert_eq!(end.faded[0].kind, Kind::Pawn);
    assert_eq!(w.piece_at(sq(50, 50)).unwrap().life, Some(8));
    for _ in 0..7 {
        w.end_turn();
        w.end_turn();
    }
    assert_eq!(w.piece_at(sq(50, 50)).unwrap().life, Some(1));
    w.end_turn();
    w.end_turn();
    assert!(w.piece_at(sq(50, 50)).is_none(), "a queen lasts 11 turns");
}

#[test]
fn fading_follows_the_parameters() {
    let params = MegachessParams {
        fade_base: 1,
        fade_per_rank: 0,
        ..params_without_bonus()
    };
    let mut w = world_with(&params, 1, "1K5,5 1Q40,40");
    w.end_turn();
    assert!(w.piece_at(sq(40, 40)).is_none(), "a life of 1 turn");
}

#[test]
fn moving_and_being_inside_restore_full_life() {
    let mut w = world("1K5,5 1P40,40/1 1P8,8/1 1N50,50/2");
    w.apply(1, mv((40, 40), (40, 41))).unwrap();
    assert_eq!(
        w.piece_at(sq(40, 41)).unwrap().life,
        None,
        "moving restores"
    );
    w.end_turn();
    assert_eq!(w.piece_at(sq(40, 41)).unwrap().life, None);
    assert_eq!(w.piece_at(sq(8, 8)).unwrap().life, None, "inside restores");
    assert_eq!(w.piece_at(sq(50, 50)).unwrap().life, Some(1));
}

#[test]
fn kings_never_fade_and_only_the_ending_team_fades() {
    let params = MegachessParams {
        kingdom_radius: 0,
        ..params_without_bonus()
    };
    let mut w = world_with(&params, 1, "1K5,5 3K60,60 3P40,40/1 1P6,6");
    let end = w.end_turn();
    assert_eq!(w.piece_at(sq(40, 40)).unwrap().life, Some(1), "metal waits");
    assert_eq!(
        w.piece_at(sq(6, 6)).unwrap().life,
        Some(2),
        "radius 0: outside"
    );
    assert!(end.faded.is_empty());
    let end = w.end_turn();
    assert_eq!(end.faded.len(), 1);
    assert!(w.piece_at(sq(40, 40)).is_none());
    for _ in 0..40 {
        w.end_turn();
    }
    assert_eq!(w.piece_at(sq(5, 5)).unwrap().kind, Kind::King);
    assert_eq!(w.piece_at(sq(60, 60)).unwrap().life, None);
}

#[test]
fn kingdom_edge_is_exactly_the_radius() {
    // Radius 16: (16, 0) away is 256 = 16^2, inside; (16, 1) is 257, outside.
    let mut w = world("1K20,20 1P36,20 1P36,21 1P20,4 1P8,8");
    assert!(w.inside_kingdom(1, sq(36, 20)));
    assert!(!w.inside_kingdom(1, sq(36, 21)));
    assert!(w.inside_kingdom(1, sq(20, 4)));
    assert!(!w.inside_kingdom(1, sq(8, 8)), "12^2 + 12^2 = 288 > 256");
    w.end_turn();
    assert_eq!(w.piece_at(sq(36, 20)).unwrap().life, None);
    assert_eq!(w.piece_at(sq(36, 21)).unwrap().life, Some(2));
    assert_eq!(w.piece_at(sq(20, 4)).unwrap().life, None);
    assert_eq!(w.piece_at(sq(8, 8)).unwrap().life, Some(2));
}

#[test]
fn pieces_whose_king_is_not_known_do_not_fade() {
    // A window without the king: the decision is that such pieces count as inside.
    let mut w = world("1P40,40");
    assert_eq!(w.kingdom_centre(1), None);
    assert!(!w.inside_kingdom(1, sq(40, 40)));
    w.end_turn();
    assert_eq!(w.piece_at(sq(40, 40)).unwrap().life, None);
}

// ---- bonus pieces ---------------------------------------------------------------------------

#[test]
fn a_move_collects_every_adjacent_neutral_piece() {
    let mut w = world("1K5,5 1R10,11 0P12,12.m 0N12,10 0B13,11 0Q9,30");
    let collected: Vec<PieceId> = vec![id_at(&w, 12, 12), id_at(&w, 12, 10)];
    let effects = w.apply(1, mv((10, 11), (11, 11))).unwrap();
    assert_eq!(effects.collected, collected);
    assert_eq!(effects.points, 0);
    for at in [sq(12, 12), sq(12, 10)] {
        let piece = w.piece_at(at).unwrap();
        assert_eq!((piece.owner, piece.moved, piece.life), (1, false, None));
    }
    assert_eq!(
        w.piece_at(sq(13, 11)).unwrap().owner,
        NEUTRAL,
        "two squares away"
    );
    assert_eq!(w.piece_at(sq(9, 30)).unwrap().owner, NEUTRAL);
    // A collected piece may move in the same turn.
    w.apply(1, mv((12, 10), (14, 9))).unwrap();
    // Standing next to a neutral piece without moving collects nothing.
    w.end_turn();
    assert_eq!(w.piece_at(sq(13, 11)).unwrap().owner, NEUTRAL);
}

#[test]
fn a_capture_collects_too() {
    let mut w = world("1K5,5 1N20,20 3P22,21 0P23,22 0R21,22");
    let effects = w.apply(1, mv((20, 20), (22, 21))).unwrap();
    assert_eq!(effects.points, 1);
    assert_eq!(effects.collected.len(), 2);
    assert_eq!(w.piece_at(sq(23, 22)).unwrap().owner, 1);
    assert_eq!(w.piece_at(sq(21, 22)).unwrap().owner, 1);
}

#[test]
fn bonus_pieces_spawn_every_bonus_every_turns_by_the_weights() {
    let mut params = MegachessParams::default();
    for kind in ["pawn", "knight", "bishop", "rook"] {
        params.set(&format!("bonus_{kind}"), 0).unwrap();
    }
    let mut w = World::new(params, 7);
    w.add_player(1, Team::Alabaster).unwrap();
    for turn in 1..=12u64 {
        let end = w.end_turn();
        assert_eq!(end.turn, turn);
        match end.bonus {
            Some((id, kind, at)) => {
                assert_eq!(turn % 4, 0);
                assert_eq!(kind, Kind::Queen, "the only weight");
                let piece = w.piece(id).unwrap();
                assert_eq!((piece.owner, piece.at, piece.moved), (NEUTRAL, at, false));
            }
            None => assert_ne!(turn % 4, 0),
        }
    }
    assert_eq!(w.piece_count(), 3);
    // bonus_every 0 turns them off.
    let mut quiet = World::new(params_without_bonus(), 7);
    for _ in 0..12 {
        assert!(quiet.end_turn().bonus.is_none());
    }
    assert_eq!(quiet.piece_count(), 0);
    // The default weights draw every bonus kind, pawns most often.
    let mut busy = World::new(
        MegachessParams {
            bonus_every: 1,
            ..MegachessParams::default()
        },
        3,
    );
    let mut counts = [0; 6];
    for _ in 0..2000 {
        if let Some((_, kind, _)) = busy.end_turn().bonus {
            counts[kind.index()] += 1;
        }
    }
    assert_eq!(counts[Kind::King.index()], 0);
    assert!(counts[Kind::Pawn.index()] > counts[Kind::Knight.index()]);
    assert!(counts[Kind::Rook.index()] > counts[Kind::Queen.index()]);
    assert!(counts.iter().skip(1).all(|&count| count > 0), "{counts:?}");
}

// ---- a turn in order ------------------------------------------------------------------------

#[test]
fn moves_apply_in_order_and_a_move_made_illegal_by_an_ally_is_rejected_alone() {
    let mut w = world("1K5,5 2K50,50 1R10,10 2R12,14 2N30,30");
    w.apply(1, mv((10, 10), (12, 10))).unwrap();
    let before = w.position_line(1, None);
    assert_eq!(
        w.apply(2, mv((12, 14), (12, 10))),
        Err(Rejection::DestinationTaken {
            at: sq(12, 10),
            owner: 1
        })
    );
    assert_eq!(
        w.position_line(1, None),
        before,
        "a rejection changes nothing"
    );
    assert!(!w.moved_this_turn(id_at(&w, 12, 14)));
    // The rook's other moves and the ally's other pieces still stand.
    w.apply(2, mv((12, 14), (12, 11))).unwrap();
    w.apply(2, mv((30, 30), (31, 32))).unwrap();
}

#[test]
fn a_piece_moves_at_most_once_per_turn() {
    let mut w = world("1K5,5 1R10,10");
    w.apply(1, mv((10, 10), (12, 10))).unwrap();
    assert!(w.moved_this_turn(id_at(&w, 12, 10)));
    assert_eq!(
        w.apply(1, mv((12, 10), (13, 10))),
        Err(Rejection::AlreadyMoved(sq(12, 10)))
    );
    assert!(w.legal_moves(1).iter().all(|m| m.from != sq(12, 10)));
    w.end_turn();
    w.end_turn();
    assert!(!w.moved_this_turn(id_at(&w, 12, 10)));
    w.apply(1, mv((12, 10), (13, 10))).unwrap();
}

// ---- scores and turns -----------------------------------------------------------------------

#[test]
fn scores_count_survival_ranks_and_kings() {
    let params = MegachessParams {
        ranks: [10, 4, 5, 3, 3, 1],
        ..params_without_bonus()
    };
    let mut w = world_with(&params, 1, "1K5,5 2K7,7 1R10,10 3Q10,14 3K40,40 4K50,50");
    let effects = w.apply(1, mv((10, 10), (10, 14))).unwrap();
    assert_eq!(effects.points, 4, "rank_queen as set");
    w.leave(2);
    let end = w.end_turn();
    assert_eq!(
        end.survivors,
        vec![1],
        "only present players of the ending team"
    );
    assert_eq!(w.player(1).unwrap().score, 5);
    assert_eq!(w.player(2).unwrap().score, 0);
    assert_eq!(w.player(3).unwrap().score, 0);
    let end = w.end_turn();
    assert_eq!(end.survivors, vec![3, 4]);
    assert_eq!(
        (w.player(3).unwrap().score, w.player(4).unwrap().score),
        (1, 1)
    );
}

#[test]
fn teams_alternate_and_only_the_team_to_move_may_move() {
    let mut w = world("1K5,5 3K60,60");
    assert_eq!(w.team_to_move(), Team::Alabaster);
    assert_eq!(
        w.check(3, mv((60, 60), (59, 59))),
        Err(Rejection::NotYourTurn {
            player: 3,
            team_to_move: Team::Alabaster
        })
    );
    assert!(w.legal_moves(3).is_empty());
    assert_eq!(w.legal_moves(1).len(), 8);
    w.end_turn();
    assert_eq!((w.turn(), w.team_to_move()), (2, Team::Metal));
    assert_eq!(w.check(3, mv((60, 60), (59, 59))), Ok(()));
    assert!(matches!(
        w.check(1, mv((5, 5), (6, 6))),
        Err(Rejection::NotYourTurn { .. })
    ));
}

#[test]
fn every_rejection_has_its_case() {
    let mut w = world("1K5,5 1R10,10 1P10,6 2P12,12 3P14,14 0N20,20 3K60,60");
    w.leave(2);
    let cases = [
        (9, mv((10, 10), (11, 10)), "unknown-player"),
        (2, mv((12, 12), (12, 13)), "player-left"),
        (3, mv((14, 14), (14, 13)), "not-your-turn"),
        (1, mv((10, 10), (64, 10)), "off-board"),
        (1, mv((70, 1), (10, 10)), "off-board"),
        (1, mv((11, 11), (12, 11)), "no-piece"),
        (1, mv((12, 12), (12, 13)), "not-your-piece"),
        (1, mv((14, 14), (14, 13)), "not-your-piece"),
        (1, mv((20, 20), (21, 22)), "not-your-piece"),
        (1, mv((10, 10), (11, 11)), "not-a-move"),
        (1, mv((10, 10), (10, 10)), "not-a-move"),
        (1, mv((5, 5), (7, 5)), "not-a-move"),
        (1, mv((10, 10), (10, 5)), "path-blocked"),
        (1, mv((10, 10), (10, 6)), "destination-taken"),
        (1, mv((10, 10), (5, 10)), "ok"),
    ];
    for (player, mv, name) in cases {
        let result = w.check(player, mv);
        let got = result.as_ref().map_or_else(|r| r.name(), |_| "ok");
        assert_eq!(got, name, "{mv} by {player}: {result:?}");
        if let Err(rejection) = result {
            let text = rejection.to_string();
            assert!(
                text.starts_with(&format!("{}: ", rejection.name())),
                "{text}"
            );
            assert!(text.len() > rejection.name().len() + 8, "{text} says what");
        }
    }
    w.apply(1, mv((10, 10), (5, 10))).unwrap();
    assert_eq!(
        w.check(1, mv((5, 10), (6, 10))),
        Err(Rejection::AlreadyMoved(sq(5, 10)))
    );
    // The checks run in order: the player before the board, the turn before the piece.
    assert_eq!(
        w.check(9, mv((99, 99), (0, 0))),
        Err(Rejection::UnknownPlayer(9))
    );
    assert_eq!(
        w.check(3, mv((99, 99), (0, 0))).unwrap_err().name(),
        "not-your-turn"
    );
    assert_eq!(
        w.check(1, mv((99, 99), (0, 0))),
        Err(Rejection::OffBoard(sq(99, 99)))
    );
    assert_eq!(
        w.check(1, mv((12, 12), (12, 99))),
        Err(Rejection::OffBoard(sq(12, 99))),
        "the board before the piece"
    );
    assert_eq!(
        w.check(1, mv((5, 10), (5, 30))).unwrap_err().name(),
        "already-moved",
        "already moved before the movement rule"
    );
}

// ---- spawning, windows, text ----------------------------------------------------------------

#[test]
fn an_army_spawns_as_a_chess_army_facing_its_way() {
    let mut w = World::new(params_without_bonus(), 1);
    w.add_player(1, Team::Alabaster).unwrap();
    w.add_player(3, Team::Metal).unwrap();
    w.add_player(5, Team::Metal).unwrap();
    w.spawn_army(1, sq(10, 10), Facing::North).unwrap();
    w.spawn_army(3, sq(10, 40), Facing::South).unwrap();
    w.spawn_army(5, sq(40, 10), Facing::East).unwrap();
    assert_eq!(w.piece_count(), 48);
    assert_eq!(w.piece_at(sq(14, 10)).unwrap().kind, Kind::King);
    assert_eq!(w.piece_at(sq(13, 10)).unwrap().kind, Kind::Queen);
    assert_eq!(w.piece_at(sq(10, 11)).unwrap().kind, Kind::Pawn);
    assert_eq!(w.piece_at(sq(14, 41)).unwrap().kind, Kind::King);
    assert_eq!(w.piece_at(sq(10, 40)).unwrap().kind, Kind::Pawn);
    assert_eq!(w.piece_at(sq(40, 14)).unwrap().kind, Kind::King);
    assert_eq!(w.piece_at(sq(41, 17)).unwrap().kind, Kind::Pawn);
    assert_eq!(w.kingdom_centre(1), Some(sq(14, 10)));
    assert!(
        w.spawn_army(1, sq(30, 30), Facing::North).is_err(),
        "one king"
    );
    w.add_player(7, Team::Alabaster).unwrap();
    assert!(w.spawn_army(7, sq(12, 11), Facing::North).is_err(), "taken");
    assert!(
        w.spawn_army(7, sq(250, 250), Facing::North).is_err(),
        "off the board"
    );
    assert_eq!(w.piece_count(), 48, "a refused spawn places nothing");
    // Each side's army has the chess moves of its first turn (16 pawn steps + 4 knight jumps
    // and more, since pawns may step in any direction).
    assert!(w.legal_moves(1).len() > 20);
}

#[test]
fn the_window_holds_the_pieces_near_the_army() {
    let w = world("1K10,10 1P12,12 3N20,20 3K40,40 0P14,9 4P30,30");
    let window = w.window(1, 8);
    let kept: BTreeSet<_> = window.pieces().map(|p| (p.at.x, p.at.y)).collect();
    assert_eq!(
        kept,
        [(10, 10), (12, 12), (20, 20), (14, 9)]
            .into_iter()
            .collect()
    );
    assert_eq!(
        w.army_rect(1, 8).map(|r| (r.min, r.max)),
        Some((sq(2, 2), sq(20, 20)))
    );
    assert_eq!(
        w.army_rect(1, 100).unwrap().max,
        sq(63, 63),
        "cut to the board"
    );
    assert_eq!(
        window.piece_at(sq(20, 20)).unwrap().id,
        id_at(&w, 20, 20),
        "ids kept"
    );
    assert_eq!(
        window.player(3).unwrap().king,
        None,
        "its king is out of view"
    );
    assert_eq!(window.kingdom_centre(1), Some(sq(10, 10)));
    assert!(window.player(4).is_none());
    assert_eq!(window.turn(), w.turn());
    let line = w.position_line(1, Some(8));
    assert_eq!(
        line,
        "position megachess size 64 64 turn 1 me 1 players 1:a 3:m pieces 1K10,10 1P12,12 \
         3N20,20 0P14,9"
    );
    assert!(w.army_rect(2, 8).is_none());
}

#[test]
fn position_lines_read_back_exactly() {
    let line = "size 300 200 turn 8 me 9 players 7:a 9:m 12:m pieces 7K120,40 7B121,41.mo \
                9P130,52.m/2 0N60,60 9K131,52 12R0,199.m/6 12K299,0 7Q1,1/11";
    let view = WorldView::parse(line, &MegachessParams::default()).unwrap();
    assert_eq!(view.me, 9);
    assert_eq!(
        (view.world.params().width, view.world.params().height),
        (300, 200)
    );
    let printed = view.world.position_line(9, None);
    // A life equal to the full life is full life, printed without a count.
    assert_eq!(
        printed,
        format!("position megachess {}", line.replace("7Q1,1/11", "7Q1,1"))
    );
    let again = WorldView::parse(
        printed.strip_prefix("position megachess ").unwrap(),
        &MegachessParams::default(),
    )
    .unwrap();
    assert_eq!(again.world.position_line(9, None), printed);
    let bishop = view.world.piece_at(sq(121, 41)).unwrap();
    assert!(bishop.moved && bishop.used_orthogonal_step && bishop.life.is_none());
    assert_eq!(view.world.piece_token(bishop), "7B121,41.mo");
    assert_eq!(view.world.piece_at(sq(130, 52)).unwrap().life, Some(2));
    assert_eq!(
        view.world.player(7).unwrap().king,
        Some(id_at(&view.world, 120, 40))
    );
}

#[test]
fn malformed_position_lines_are_refused_with_typed_errors() {
    let params = MegachessParams::default();
    let parse = |text: &str| WorldView::parse(text, &params).map(|_| ()).unwrap_err();
    let head = "size 64 64 turn 1 me 1 players 1:a 3:m pieces";
    assert_eq!(
        parse(&format!("{head} 1K5,5 3P5,5")),
        PositionError::SquareTakenTwice(sq(5, 5))
    );
    assert_eq!(
        parse(&format!("{head} 2P5,5")),
        PositionError::UnknownOwner {
            owner: 2,
            token: "2P5,5".into()
        }
    );
    assert_eq!(
        parse("size 0 64 turn 1 me 1 players 1:a pieces"),
        PositionError::BadSize {
            width: 0,
            height: 64
        }
    );
    assert!(matches!(
        parse("size 64 1000001 turn 1 me 1 players 1:a pieces"),
        PositionError::BadSize { .. }
    ));
    assert_eq!(
        parse(&format!("{head} 1P64,5")),
        PositionError::OffBoard(sq(64, 5))
    );
    assert_eq!(
        parse("size 64 64 turn 1 me 5 players 1:a pieces"),
        PositionError::UnknownMe(5)
    );
    assert_eq!(
        parse("size 64 64 turn 0 me 1 players 1:a pieces"),
        PositionError::BadTurn("0".into())
    );
    for players in ["1:a 1:m", "0:a", "1:x", "1:am", "a:1", "1"] {
        assert!(
            matches!(
                parse(&format!("size 9 9 turn 1 me 1 players {players} pieces")),
                PositionError::BadPlayer(_) | PositionError::UnknownMe(_)
            ),
            "{players}"
        );
    }
    for piece in [
        "1K6,6", "0K7,7", "1N7,7.o", "1P7,7/0", "1P7,7/4", "1K7,7/1", "0P7,7/1",
    ] {
        assert!(
            matches!(
                parse(&format!("{head} 1K5,5 {piece}")),
                PositionError::BadPiece { .. }
            ),
            "{piece}"
        );
    }
    for piece in [
        "K5,5",
        "1X5,5",
        "1K5",
        "1K5,",
        "1K5,5.",
        "1K5,5.x",
        "1K5,5.mm",
        "1P5,5/",
        "1P5,5/x",
        "99999999999K5,5",
        "1K5,5,5",
        "1K-5,5",
        "1Kሴ,5",
    ] {
        let error = parse(&format!("{head} {piece}"));
        assert!(
            matches!(error, PositionError::Malformed(_)),
            "{piece}: {error:?}"
        );
        assert!(error.to_string().contains(piece), "{error} names the token");
    }
    for text in [
        "",
        "size",
        "size 64",
        "size 64 64 turn",
        "size 64 64 turn x me 1",
        "size 64 64 turn 1 me 1 players 1:a",
        "turn 1 size 64 64",
        "size 64 64 turn 1 me 1 players 1:a piece",
    ] {
        assert!(
            matches!(
                parse(text),
                PositionError::Malformed(_) | PositionError::BadPlayer(_)
            ),
            "{text:?}"
        );
    }
    // Every error's text says what is wrong.
    assert!(parse(&format!("{head} 1K5,5 3P5,5"))
        .to_string()
        .contains("5,5"));
}

/// `me` says whose turn it is; `turn` is the server's count, taken as information. A server
/// that numbers turns otherwise (metal on odd turns, a count per team) is planned for alike.
#[test]
fn the_team_to_move_is_mes_team_whatever_the_turn_number() {
    let params = params_without_bonus();
    for (turn, me, team) in [
        (2, 1, Team::Alabaster),
        (1, 3, Team::Metal),
        (7, 3, Team::Metal),
        (8, 1, Team::Alabaster),
        (1, 1, Team::Alabaster),
        (2, 3, Team::Metal),
    ] {
        let line = format!("size 64 64 turn {turn} me {me} {PLAYERS} pieces 1K5,5 3K20,20");
        let view = WorldView::parse(&line, &params).unwrap_or_else(|e| panic!("{line}: {e}"));
        let mut world = view.world;
        assert_eq!(world.turn(), turn, "{line}");
        assert_eq!(world.team_to_move(), team, "{line}");
        // `me`'s king moves; the other team's does not.
        let (mine, theirs) = match team {
            Team::Alabaster => (mv((5, 5), (5, 6)), (3, mv((20, 20), (20, 21)))),
            Team::Metal => (mv((20, 20), (20, 21)), (1, mv((5, 5), (5, 6)))),
        };
        assert!(world.apply(me, mine).is_ok(), "{line}");
        assert!(
            matches!(
                world.apply(theirs.0, theirs.1),
                Err(Rejection::NotYourTurn { .. })
            ),
            "{line}"
        );
        // The teams alternate from there, and the line prints the turn as told.
        world.end_turn();
        assert_eq!(world.turn(), turn + 1);
        assert_eq!(world.team_to_move(), team.other(), "{line}");
        assert!(world
            .position_line(me, None)
            .contains(&format!(" turn {} ", turn + 1)));
    }
}

/// `turn` is 1 to 2^63 - 1, the largest turn a world server stores; outside, a clear refusal.
#[test]
fn the_turn_has_a_documented_range() {
    let params = params_without_bonus();
    let parse = |turn: &str| {
        WorldView::parse(
            &format!("size 64 64 turn {turn} me 1 {PLAYERS} pieces 1K5,5"),
            &params,
        )
    };
    for turn in ["1", "4294967297", "9223372036854775807"] {
        let world = parse(turn).unwrap_or_else(|e| panic!("{turn}: {e}")).world;
        assert_eq!(world.turn().to_string(), turn);
        assert_eq!(world.team_to_move(), Team::Alabaster);
    }
    for turn in [
        "0",
        "9223372036854775808",
        "18446744073709551615",
        "99999999999999999999",
    ] {
        let error = parse(turn).map(|_| ()).unwrap_err();
        assert_eq!(error, PositionError::BadTurn(turn.into()));
        assert_eq!(
            error.to_string(),
            format!("turn '{turn}' is out of range 1..=9223372036854775807")
        );
    }
    assert_eq!(
        parse("+1").map(|_| ()).unwrap_err().to_string(),
        "malformed position: turn '+1' is not a number"
    );
}

/// Every number of the line is written one way: digits, no sign, no leading zero (`0` itself is
/// fine), as the FEN counters are.
#[test]
fn numbers_with_leading_zeros_are_refused_everywhere_in_the_line() {
    let params = params_without_bonus();
    let parse = |text: &str| WorldView::parse(text, &params).map(|_| ());
    let line = |size: &str, turn: &str, me: &str, pieces: &str| {
        format!("size {size} turn {turn} me {me} players 1:a 3:m pieces 3K10,10 {pieces}")
    };
    let good = ("64 64", "1", "1", "1K5,5 1P7,3.m/2 0N0,0");
    parse(&line(good.0, good.1, good.2, good.3)).unwrap();
    for (text, says) in [
        (
            line("064 64", "1", "1", good.3),
            "width '064' has a leading zero: write it as '64'",
        ),
        (
            line("64 064", "1", "1", good.3),
            "height '064' has a leading zero: write it as '64'",
        ),
        (
            line("64 64", "01", "1", good.3),
            "turn '01' has a leading zero: write it as '1'",
        ),
        (
            line("64 64", "1", "01", good.3),
            "me '01' has a leading zero: write it as '1'",
        ),
        (
            line("64 64", "1", "1", "1K5,5 1P007,3.m/2"),
            "x '007' has a leading zero: write it as '7'",
        ),
        (
            line("64 64", "1", "1", "1K5,5 1P7,03.m/2"),
            "y '03' has a leading zero: write it as '3'",
        ),
        (
            line("64 64", "1", "1", "1K5,5 1P7,3.m/02"),
            "life '02' has a leading zero: write it as '2'",
        ),
        (
            line("64 64", "1", "1", "1K5,5 0N00,0"),
            "x '00' has a leading zero: write it as '0'",
        ),
        (
            line("64 64", "1", "1", "1K5,5 00N0,0"),
            "owner '00' has a leading zero: write it as '0'",
        ),
        (
            line("64 64", "1", "1", "01K5,5"),
            "owner '01' has a leading zero: write it as '1'",
        ),
    ] {
        let error = parse(&text).unwrap_err();
        assert!(
            matches!(error, PositionError::Malformed(_)),
            "{text}: {error:?}"
        );
        assert!(error.to_string().contains(says), "{text}: {error}");
    }
    assert!(matches!(
        parse("size 64 64 turn 1 me 1 players 01:a pieces 1K5,5"),
        Err(PositionError::BadPlayer(_))
    ));
    // A move's squares alike (a bot's `bestturn`, a client's move to a world server).
    assert_eq!(Move::parse("7,3-7,4"), Ok(mv((7, 3), (7, 4))));
    assert_eq!(Move::parse("0,0-1,0"), Ok(mv((0, 0), (1, 0))));
    assert_eq!(
        Move::parse("007,3-7,4"),
        Err(
            "'007,3-7,4' is not a move: '007,3': x '007' has a leading zero: write it as '7'"
                .into()
        )
    );
    assert!(Move::parse("7,3-7,04").is_err());
}

// ---- determinism and size -------------------------------------------------------------------

/// A small seeded generator for the tests' random play.
struct Random(u64);
impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Two armies a side on a 48 x 48 board, played at random for `turns` turns; every chosen
/// move is checked to be among the piece's targets and to apply.
fn random_world(seed: u64, turns: u64) -> (World, Vec<String>) {
    let params = MegachessParams {
        width: 48,
        height: 48,
        bonus_every: 2,
        ..MegachessParams::default()
    };
    let mut w = World::new(params, seed);
    for (id, team, corner, facing) in [
        (1, Team::Alabaster, sq(4, 4), Facing::North),
        (2, Team::Alabaster, sq(30, 4), Facing::North),
        (3, Team::Metal, sq(4, 20), Facing::South),
        (4, Team::Metal, sq(30, 20), Facing::South),
    ] {
        w.add_player(id, team).unwrap();
        w.spawn_army(id, corner, facing).unwrap();
    }
    let mut random = Random(99);
    let mut log = Vec::new();
    for _ in 0..turns {
        let players: Vec<_> = w
            .players()
            .filter(|p| p.team == w.team_to_move())
            .map(|p| p.id)
            .collect();
        for player in players {
            for _ in 0..6 {
                let moves = w.legal_moves(player);
                if moves.is_empty() {
                    break;
                }
                let chosen = moves[random.below(moves.len())];
                let effects = w.apply(player, chosen).expect("a legal move applies");
                log.push(format!("{player} {chosen} {effects:?}"));
            }
        }
        log.push(format!("{:?}", w.end_turn()));
    }
    (w, log)
}

#[test]
fn a_world_is_deterministic_for_its_seed() {
    let (first, first_log) = random_world(5, 40);
    let (second, second_log) = random_world(5, 40);
    assert_eq!(first_log, second_log);
    assert_eq!(first.position_line(1, None), second.position_line(1, None));
    let (other, _) = random_world(6, 40);
    assert_ne!(
        first.position_line(1, None),
        other.position_line(1, None),
        "bonus squares differ"
    );
}

#[test]
fn check_agrees_with_targets_everywhere() {
    let (mut w, _) = random_world(11, 15);
    for _ in 0..2 {
        let team = w.team_to_move();
        let pieces: Vec<_> = w.pieces().copied().collect();
        for piece in pieces {
            let owner = w.player(piece.owner).filter(|p| p.team == team);
            if owner.is_none() {
                continue;
            }
            let mut out = Vec::new();
            w.targets(piece.id, &mut out);
            for dx in -8i32..=8 {
                for dy in -8i32..=8 {
                    let Some(to) = piece.at.offset(dx, dy, 48, 48) else {
                        continue;
                    };
                    let legal = w.check(piece.owner, Move::new(piece.at, to)).is_ok();
                    assert_eq!(legal, out.contains(&to), "{:?} to {to}", piece);
                }
            }
        }
        w.end_turn();
    }
}

#[test]
fn a_million_wide_world_works() {
    let params = MegachessParams::default();
    let line = "size 1000000 1000000 turn 1 me 1 players 1:a 3:m pieces 1K999999,999999 \
                1Q999990,999999 3K0,0 3R500000,500000";
    let mut w = WorldView::parse(line, &params).unwrap().world;
    assert_eq!(
        targets(&w, 999_990, 999_999).len(),
        5 * 7,
        "the north edge cuts 3 lines"
    );
    assert_eq!(
        w.check(1, mv((999_999, 999_999), (1_000_000, 999_999))),
        Err(Rejection::OffBoard(sq(1_000_000, 999_999)))
    );
    w.apply(1, mv((999_990, 999_999), (999_983, 999_992)))
        .unwrap();
    w.add_player(5, Team::Alabaster).unwrap();
    w.spawn_army(5, sq(999_992, 999_000), Facing::South)
        .unwrap();
    for _ in 0..8 {
        w.end_turn();
    }
    assert_eq!(
        w.piece_count(),
        4 + 16 + 2,
        "two bonus pieces on the huge board"
    );
    let window = w.window(5, 16);
    assert_eq!(window.piece_count(), 16);
    let printed = w.position_line(1, None);
    let again = WorldView::parse(
        printed.strip_prefix("position megachess ").unwrap(),
        &params,
    );
    assert_eq!(again.unwrap().world.position_line(1, None), printed);
}

#[test]
fn a_long_line_of_scattered_pieces_reads_and_prints_back() {
    let mut random = Random(3);
    let mut pieces = vec!["1K0,0".to_string(), "3K999999,999999".to_string()];
    let mut squares = BTreeSet::new();
    while pieces.len() < 20_000 {
        let (x, y) = (random.below(1_000_000), random.below(1_000_000));
        if (x, y) != (0, 0) && (x, y) != (999_999, 999_999) && squares.insert((x, y)) {
            let owner = [0, 1, 3][random.below(3)];
            pieces.push(format!("{owner}P{x},{y}"));
        }
    }
    let line = format!(
        "size 1000000 1000000 turn 1 me 1 players 1:a 3:m pieces {}",
        pieces.join(" ")
    );
    let world = WorldView::parse(&line, &MegachessParams::default())
        .unwrap()
        .world;
    assert_eq!(world.piece_count(), 20_000);
    assert_eq!(
        world.position_line(1, None),
        format!("position megachess {line}")
    );
    assert!(!world.legal_moves(1).is_empty());
}
