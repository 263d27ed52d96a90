//! The start positions of Fischer Random chess (Chess960) by their standard numbers, 0 to 959
//! (Scharnagl's numbering, in which 518 is the standard `RNBQKBNR`), and of Double Fischer
//! Random chess, where each side's back rank is chosen on its own: the pair `(white, black)` is
//! numbered `white * 960 + black`.
//!
//! A back rank is written from file a to file h in upper case: `BBQNNRKR` (number 0). The rules
//! of a start position: two bishops on squares of opposite colours, the king between the two
//! rooks, a queen and two knights anywhere.

use crate::rules::RuleError;

/// How many Chess960 start positions there are.
pub const CHESS960_COUNT: u16 = 960;
/// The number of the standard start position.
pub const STANDARD_NUMBER: u16 = 518;

/// Where the two knights stand among the five squares left after the bishops and the queen,
/// for the ten values of that part of the number.
const KNIGHT_PLACES: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The back rank of Chess960 position `number` (0 to 959), from file a to file h.
pub fn back_rank(number: u16) -> Option<[u8; 8]> {
    if number >= CHESS960_COUNT {
        return None;
    }
    let mut rank = [0u8; 8];
    let mut n = number as usize;
    // The light-squared bishop on b, d, f or h; the dark-squared one on a, c, e or g.
    rank[2 * (n % 4) + 1] = b'B';
    n /= 4;
    rank[2 * (n % 4)] = b'B';
    n /= 4;
    let empty = |rank: &[u8; 8]| (0..8).filter(|&f| rank[f] == 0).collect::<Vec<_>>();
    rank[empty(&rank)[n % 6]] = b'Q';
    n /= 6;
    let (first, second) = KNIGHT_PLACES[n];
    let left = empty(&rank);
    rank[left[first]] = b'N';
    rank[left[second]] = b'N';
    // The last three squares: rook, king, rook.
    for (file, piece) in empty(&rank).into_iter().zip(*b"RKR") {
        rank[file] = piece;
    }
    Some(rank)
}

/// The number of the Chess960 position whose back rank is `rank` (`RNBQKBNR`, either case),
/// or why it is not one.
pub fn number_of(rank: &str) -> Result<u16, RuleError> {
    let bad = |why: &str| RuleError::Malformed(format!("back rank '{rank}': {why}"));
    let letters: Vec<u8> = rank.bytes().map(|b| b.to_ascii_uppercase()).collect();
    if letters.len() != 8 {
        return Err(bad("a back rank has 8 pieces, one a file"));
    }
    let mut sorted = letters.clone();
    sorted.sort_unstable();
    if sorted != *b"BBKNNQRR" {
        return Err(bad(
            "a start position has two rooks, two knights, two bishops, a queen and a king",
        ));
    }
    let files = |piece: u8| -> Vec<usize> { (0..8).filter(|&f| letters[f] == piece).collect() };
    let bishops = files(b'B');
    if bishops[0] % 2 == bishops[1] % 2 {
        return Err(bad("the bishops stand on squares of the same colour"));
    }
    let rooks = files(b'R');
    let king = files(b'K')[0];
    if !(rooks[0] < king && king < rooks[1]) {
        return Err(bad("the king does not stand between the rooks"));
    }
    // The inverse of `back_rank`: each part of the number read off the placement.
    let light = bishops.iter().find(|&&f| f % 2 == 1).copied().unwrap_or(1);
    let dark = bishops.iter().find(|&&f| f % 2 == 0).copied().unwrap_or(0);
    let without_bishops: Vec<usize> = (0..8).filter(|&f| letters[f] != b'B').collect();
    let queen = without_bishops
        .iter()
        .position(|&f| letters[f] == b'Q')
        .unwrap_or(0);
    let for_knights: Vec<usize> = without_bishops
        .into_iter()
        .filter(|&f| letters[f] != b'Q')
        .collect();
    let knights: Vec<usize> = (0..5)
        .filter(|&i| letters[for_knights[i]] == b'N')
        .collect();
    let knight_part = KNIGHT_PLACES
        .iter()
        .position(|&(a, b)| (a, b) == (knights[0], knights[1]))
        .unwrap_or(0);
    let number = ((knight_part * 6 + queen) * 4 + dark / 2) * 4 + (light - 1) / 2;
    Ok(number as u16)
}

/// The number of the Double Fischer Random position with White's back rank `white` and Black's
/// `black` (each a Chess960 number; Black's rank is mirrored onto rank 8).
pub fn dfrc_number(white: u16, black: u16) -> Option<u32> {
    (white < CHESS960_COUNT && black < CHESS960_COUNT)
        .then(|| u32::from(white) * u32::from(CHESS960_COUNT) + u32::from(black))
}

/// The two Chess960 numbers of Double Fischer Random position `number` (0 to 921,599).
pub fn dfrc_pair(number: u32) -> Option<(u16, u16)> {
    let count = u32::from(CHESS960_COUNT);
    (number < count * count).then(|| ((number / count) as u16, (number % count) as u16))
}

/// The start FEN of the pair (`white`, `black`) in X-FEN: a start position always has one rook
/// on each side of its king, so `KQkq` names the castling rooks without ambiguity.
pub fn start_fen(white: u16, black: u16) -> Option<String> {
    let white_rank = String::from_utf8(back_rank(white)?.to_vec()).ok()?;
    let black_rank = String::from_utf8(back_rank(black)?.to_vec()).ok()?;
    Some(format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white_rank} w KQkq - 0 1",
        black_rank.to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn rank(number: u16) -> String {
        String::from_utf8(back_rank(number).unwrap().to_vec()).unwrap()
    }

    #[test]
    fn the_published_numbers_give_their_back_ranks() {
        // Scharnagl's table: the first, the standard and the last.
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(STANDARD_NUMBER), "RNBQKBNR");
        assert_eq!(rank(959), "RKRNNQBB");
        assert_eq!(rank(1), "BQNBNRKR");
        assert_eq!(rank(4), "QBBNNRKR");
        assert_eq!(back_rank(960), None);
    }

    #[test]
    fn every_number_gives_a_distinct_legal_rank_that_numbers_back() {
        let mut seen = HashSet::new();
        for number in 0..CHESS960_COUNT {
            let text = rank(number);
            assert!(seen.insert(text.clone()), "{number}: {text} twice");
            assert_eq!(number_of(&text).unwrap(), number, "{text}");
            assert_eq!(number_of(&text.to_ascii_lowercase()).unwrap(), number);
        }
        assert_eq!(seen.len(), 960);
    }

    #[test]
    fn ranks_that_break_the_rules_are_refused_with_why() {
        for (text, why) in [
            ("RNBQKBN", "8 pieces"),
            ("RNBQKBNN", "two rooks"),
            ("RBNBKQNR", "same colour"),
            ("BRBNKQNR", "same colour"),
            ("RRBQKBNN", "between the rooks"),
            ("KRBQNBNR", "between the rooks"),
        ] {
            let error = number_of(text).unwrap_err().to_string();
            assert!(error.contains(why), "{text}: {error}");
        }
    }

    #[test]
    fn double_fischer_random_pairs_number_both_ways() {
        assert_eq!(dfrc_number(518, 518), Some(518 * 960 + 518));
        assert_eq!(dfrc_pair(518 * 960 + 518), Some((518, 518)));
        assert_eq!(dfrc_pair(921_599), Some((959, 959)));
        assert_eq!(dfrc_pair(921_600), None);
        assert_eq!(dfrc_number(960, 0), None);
        assert_eq!(
            start_fen(518, 518).as_deref(),
            Some(crate::rules::chess::START_FEN)
        );
        assert_eq!(
            start_fen(0, 959).as_deref(),
            Some("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1")
        );
    }
}
