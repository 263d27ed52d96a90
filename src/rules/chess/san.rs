//! Standard algebraic notation (SAN), written as every PGN reader expects (`Nbd7`, `exd5`,
//! `e8=Q+`, `O-O`, `Qh7#`) and read back (a replay's moves may come in it).

use super::{Chess, Move, PieceKind};
use crate::rules::{Game, MoveList};

/// A legal move in SAN: `Nbd7`, `exd5`, `e8=Q+`, `O-O`, `Qh7#`.
pub fn write(position: &Chess, mv: Move) -> String {
    let mut san = String::new();
    if mv.is_castle() {
        // The king lands on the g-file castling on its own side, on the c-file on the queen's.
        san.push_str(if mv.to().0 & 7 == 6 { "O-O" } else { "O-O-O" });
    } else {
        let kind = position
            .piece_at(mv.from())
            .map_or(PieceKind::Pawn, |p| p.kind);
        let (from, to) = (mv.from().name(8), mv.to().name(8));
        if kind == PieceKind::Pawn {
            if mv.is_capture() {
                san.push_str(&from[..1]);
                san.push('x');
            }
            san.push_str(&to);
            if mv.is_promotion() {
                san.push('=');
                san.push(['N', 'B', 'R', 'Q'][mv.promotion_index() - 1]);
            }
        } else {
            san.push(kind.letter().to_ascii_uppercase());
            let mut legal = MoveList::new();
            position.generate_moves(&mut legal);
            let rivals: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|other| {
                    other.to() == mv.to()
                        && other.from() != mv.from()
                        && position.piece_at(other.from()).map(|p| p.kind) == Some(kind)
                })
                .collect();
            if !rivals.is_empty() {
                let file = |m: &Move| m.from().name(8)[..1].to_string();
                let rank = |m: &Move| m.from().name(8)[1..].to_string();
                if rivals.iter().all(|r| file(r) != file(&mv)) {
                    san.push_str(&file(&mv));
                } else if rivals.iter().all(|r| rank(r) != rank(&mv)) {
                    san.push_str(&rank(&mv));
                } else {
                    san.push_str(&from);
                }
            }
            if mv.is_capture() {
                san.push('x');
            }
            san.push_str(&to);
        }
    }
    let after = position.play(mv);
    if after.in_check() {
        let mut replies = MoveList::new();
        after.generate_moves(&mut replies);
        san.push(if replies.is_empty() { '#' } else { '+' });
    }
    san
}

/// The legal move whose SAN is `san` (with or without its check mark; castling also with zeros,
/// `0-0-0`), if any.
pub fn read(position: &Chess, san: &str) -> Option<Move> {
    let bare = |text: &str| {
        let text = text.trim_end_matches(['+', '#']);
        // Castling written with zeros, as some writers do.
        match text {
            "0-0" => "O-O".to_string(),
            "0-0-0" => "O-O-O".to_string(),
            other => other.to_string(),
        }
    };
    let wanted = bare(san);
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    moves
        .iter()
        .copied()
        .find(|&mv| bare(&write(position, mv)) == wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_of_every_kind_of_chess_move() {
        let san = |fen: &str, text: &str| {
            let position = Chess::from_fen(fen).unwrap();
            write(&position, position.parse_move(text).unwrap())
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san(start, "e2e4"), "e4");
        assert_eq!(san(start, "g1f3"), "Nf3");
        assert_eq!(san("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), "exd5");
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), "O-O");
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"), "O-O-O");
        assert_eq!(san("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"), "e8=Q");
        assert_eq!(san("7k/8/5KQ1/8/8/8/8/8 w - - 0 1", "g6g7"), "Qg7#");
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "a1a8"), "Ra8+");
        // Two rooks on one rank: the file tells them apart; on one file: the rank.
        assert_eq!(san("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1"), "Rad1");
        assert_eq!(san("4k3/8/8/8/R7/8/8/R5K1 w - - 0 1", "a1a2"), "R1a2");
        assert_eq!(san("4k3/8/8/3p4/8/2N1N3/8/4K3 w - - 0 1", "c3d5"), "Ncxd5");
    }

    #[test]
    fn reading_finds_the_move_whatever_its_check_marks() {
        let position = Chess::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let read = |san: &str| read(&position, san).map(|mv| position.move_text(mv));
        assert_eq!(read("O-O"), Some("e1g1".to_string()));
        assert_eq!(read("0-0-0"), Some("e1c1".to_string()));
        assert_eq!(read("Ra8+"), Some("a1a8".to_string()));
        assert_eq!(read("Ra8"), Some("a1a8".to_string()));
        assert_eq!(read("Rb8"), None);
        assert_eq!(read("Nf3"), None);
    }
}
