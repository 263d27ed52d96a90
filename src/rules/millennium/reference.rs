//! A slow, plain mailbox move generator written only to check the real one: its own FEN reader,
//! pseudo-legal moves square by square, legality by playing the move and looking for attacks on
//! a last king. It shares no code with the bitboard rules beyond the standard library.

/// Board width and height.
const W: i32 = 15;
const H: i32 = 8;

/// A piece: colour (true = White) and lower-case letter.
type Cell = Option<(bool, char)>;

#[derive(Clone)]
pub struct Reference {
    board: Vec<Cell>,
    white: bool,
    /// Castling rights by (White?, file).
    rights: Vec<(bool, i32)>,
    en_passant: Option<i32>,
    /// Pool counts by (White?, letter).
    pool: Vec<(bool, char, u32)>,
}

fn idx(file: i32, rank: i32) -> usize {
    (rank * W + file) as usize
}

fn name(sq: i32) -> String {
    format!("{}{}", (b'a' + (sq % W) as u8) as char, sq / W + 1)
}

/// A knight's jumps, as (files, ranks).
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// The eight lines a rook (the first four) or a bishop (the last four) slides along.
const LINES: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// King file, rook file, king destination file, rook destination file.
const CASTLINGS: [(i32, i32, i32, i32); 4] =
    [(4, 0, 2, 3), (4, 7, 6, 5), (10, 7, 8, 9), (10, 14, 12, 11)];

/// A move before the legality check: from, to, and the piece a pawn becomes.
type Candidate = (i32, i32, Option<char>);

impl Reference {
    pub fn from_fen(fen: &str) -> Reference {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut board = vec![None; (W * H) as usize];
        for (row, text) in fields[0].split('/').enumerate() {
            let rank = H - 1 - row as i32;
            let mut file = 0;
            let mut digits = String::new();
            for c in text.chars().chain(std::iter::once('/')) {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    file += digits.parse::<i32>().unwrap();
                    digits.clear();
                }
                if c != '/' {
                    board[idx(file, rank)] = Some((c.is_ascii_uppercase(), c.to_ascii_lowercase()));
                    file += 1;
                }
            }
        }
        let rights = if fields[2] == "-" {
            Vec::new()
        } else {
            fields[2]
                .chars()
                .map(|c| {
                    (
                        c.is_ascii_uppercase(),
                        (c.to_ascii_lowercase() as u8 - b'a') as i32,
                    )
                })
                .collect()
        };
        let en_passant = (fields[3] != "-").then(|| {
            let b = fields[3].as_bytes();
            idx((b[0] - b'a') as i32, (b[1] - b'1') as i32) as i32
        });
        let mut pool = Vec::new();
        for c in fields
            .get(6)
            .copied()
            .unwrap_or("-")
            .chars()
            .filter(|&c| c != '-')
        {
            let key = (c.is_ascii_uppercase(), c.to_ascii_lowercase());
            match pool.iter_mut().find(|(w, l, _)| (*w, *l) == key) {
                Some((_, _, n)) => *n += 1,
                None => pool.push((key.0, key.1, 1)),
            }
        }
        Reference {
            board,
            white: fields[1] == "w",
            rights,
            en_passant,
            pool,
        }
    }

    fn at(&self, file: i32, rank: i32) -> Option<Cell> {
        ((0..W).contains(&file) && (0..H).contains(&rank)).then(|| self.board[idx(file, rank)])
    }

    fn kings(&self, white: bool) -> Vec<i32> {
        (0..W * H)
            .filter(|&sq| self.board[sq as usize] == Some((white, 'k')))
            .collect()
    }

    fn pool_count(&self, white: bool, letter: char) -> u32 {
        self.pool
            .iter()
            .find(|(w, l, _)| *w == white && *l == letter)
            .map_or(0, |p| p.2)
    }

    fn add_pool(&mut self, white: bool, letter: char, delta: i32) {
        match self
            .pool
            .iter_mut()
            .find(|(w, l, _)| *w == white && *l == letter)
        {
            Some(entry) => entry.2 = (entry.2 as i32 + delta) as u32,
            None => self.pool.push((white, letter, delta as u32)),
        }
    }

    /// True when a piece of colour `by` attacks `sq`, looking outward from the square.
    pub fn attacked(&self, sq: i32, by: bool) -> bool {
        let (f, r) = (sq % W, sq / W);
        let is = |df: i32, dr: i32, letters: &str| matches!(self.at(f + df, r + dr), Some(Some((w, l))) if w == by && letters.contains(l));
        if KNIGHT.iter().any(|&(df, dr)| is(df, dr, "n")) {
            return true;
        }
        for df in -1..=1 {
            for dr in -1..=1 {
                if (df, dr) != (0, 0) && is(df, dr, "k") {
                    return true;
                }
            }
        }
        // A White pawn attacks from one rank below, a Black one from one rank above.
        let pawn_rank = if by { -1 } else { 1 };
        if is(-1, pawn_rank, "p") || is(1, pawn_rank, "p") {
            return true;
        }
        for (df, dr) in LINES {
            let sliders = if df == 0 || dr == 0 { "rq" } else { "bq" };
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(cell) = self.at(x, y) {
                if let Some((w, l)) = cell {
                    if w == by && sliders.contains(l) {
                        return true;
                    }
                    break;
                }
                x += df;
                y += dr;
            }
        }
        false
    }

    /// The legal moves as text.
    pub fn moves(&self) -> Vec<String> {
        let us = self.white;
        let one_king = self.kings(us).len() == 1;
        let mut candidates: Vec<Candidate> = Vec::new();
        for sq in 0..W * H {
            if let Some((w, letter)) = self.board[sq as usize] {
                if w == us {
                    self.piece_moves(sq, letter, &mut candidates);
                }
            }
        }
        let mut expanded = self.promotions(candidates);
        expanded.extend(self.castlings(one_king));
        let mut out = Vec::new();
        for (from, to, promotion) in expanded {
            let text = format!(
                "{}{}{}",
                name(from),
                name(to),
                promotion.map_or(String::new(), String::from)
            );
            if one_king {
                let after = self.play(&text);
                let king = after.kings(us)[0];
                if after.attacked(king, !us) {
                    continue;
                }
            }
            out.push(text);
        }
        out
    }

    /// The moves of our piece `letter` on `sq` by its movement alone, into `candidates`.
    fn piece_moves(&self, sq: i32, letter: char, candidates: &mut Vec<Candidate>) {
        let us = self.white;
        let (f, r) = (sq % W, sq / W);
        let mut add = |tf: i32, tr: i32, capture_only: bool, quiet_only: bool| {
            let Some(cell) = self.at(tf, tr) else {
                return false;
            };
            match cell {
                Some((w, _)) if w == us => false,
                Some(_) if quiet_only => false,
                Some(_) => {
                    candidates.push((sq, tr * W + tf, None));
                    false
                }
                None if capture_only => false,
                None => {
                    candidates.push((sq, tr * W + tf, None));
                    true
                }
            }
        };
        match letter {
            'n' => {
                for (df, dr) in KNIGHT {
                    add(f + df, r + dr, false, false);
                }
            }
            'k' => {
                for df in -1..=1 {
                    for dr in -1..=1 {
                        if (df, dr) != (0, 0) {
                            add(f + df, r + dr, false, false);
                        }
                    }
                }
            }
            'b' | 'r' | 'q' => {
                for (df, dr) in LINES {
                    let diagonal = df != 0 && dr != 0;
                    if (letter == 'b' && !diagonal) || (letter == 'r' && diagonal) {
                        continue;
                    }
                    let (mut x, mut y) = (f + df, r + dr);
                    while add(x, y, false, false) {
                        x += df;
                        y += dr;
                    }
                }
            }
            'p' => {
                let dir = if us { 1 } else { -1 };
                let start = if us { 1 } else { H - 2 };
                if add(f, r + dir, false, true) && r == start {
                    add(f, r + 2 * dir, false, true);
                }
                add(f - 1, r + dir, true, false);
                add(f + 1, r + dir, true, false);
                for df in [-1, 1] {
                    if self.en_passant == Some((r + dir) * W + f + df) && (0..W).contains(&(f + df))
                    {
                        candidates.push((sq, (r + dir) * W + f + df, None));
                    }
                }
            }
            _ => unreachable!(),
        }
    }

    /// Pawn moves onto the last rank become one move per kind in the pool, or none.
    fn promotions(&self, candidates: Vec<Candidate>) -> Vec<Candidate> {
        let us = self.white;
        let last_rank = if us { H - 1 } else { 0 };
        let pool_letters: Vec<char> = "nbrq"
            .chars()
            .filter(|&l| self.pool_count(us, l) > 0)
            .collect();
        let mut expanded = Vec::new();
        for (from, to, _) in candidates {
            let pawn = self.board[from as usize] == Some((us, 'p'));
            if pawn && to / W == last_rank {
                for &l in &pool_letters {
                    expanded.push((from, to, Some(l)));
                }
            } else {
                expanded.push((from, to, None));
            }
        }
        expanded
    }

    /// The castlings whose rights stand and whose path is empty (and, with one king, not
    /// attacked).
    fn castlings(&self, one_king: bool) -> Vec<Candidate> {
        let us = self.white;
        let base = if us { 0 } else { (H - 1) * W };
        let mut out = Vec::new();
        for (king, rook, king_to, _) in CASTLINGS {
            let has = |file| self.rights.contains(&(us, file));
            if !has(king) || !has(rook) {
                continue;
            }
            assert_eq!(self.board[(base + king) as usize], Some((us, 'k')));
            assert_eq!(self.board[(base + rook) as usize], Some((us, 'r')));
            let (lo, hi) = (king.min(rook), king.max(rook));
            if (lo + 1..hi).any(|file| self.board[(base + file) as usize].is_some()) {
                continue;
            }
            if one_king {
                let through = (king + king_to) / 2;
                if self.attacked(base + king, !us) || self.attacked(base + through, !us) {
                    continue;
                }
            }
            out.push((base + king, base + king_to, None));
        }
        out
    }

    /// The position after a move given as text (assumed legal).
    pub fn play(&self, text: &str) -> Reference {
        let parse = |s: &str| {
            let b = s.as_bytes();
            (b[0] - b'a') as i32 + (b[1] - b'1') as i32 * W
        };
        let from = parse(&text[0..2]);
        let to = parse(&text[2..4]);
        let promotion = text.chars().nth(4);
        let mut next = self.clone();
        let us = self.white;
        let (_, letter) = self.board[from as usize].expect("a piece moves");
        next.en_passant = None;
        if let Some((_, victim)) = self.board[to as usize] {
            if "nbrq".contains(victim) {
                next.add_pool(!us, victim, 1);
            }
        }
        if letter == 'p' && Some(to) == self.en_passant {
            let victim = if us { to - W } else { to + W };
            next.board[victim as usize] = None;
        }
        if letter == 'p' && (to - from).abs() == 2 * W {
            next.en_passant = Some((from + to) / 2);
        }
        next.board[to as usize] = self.board[from as usize];
        next.board[from as usize] = None;
        if let Some(p) = promotion {
            next.board[to as usize] = Some((us, p));
            next.add_pool(us, p, -1);
        }
        let mut touched = vec![from, to];
        if letter == 'k' && (to - from).abs() == 2 {
            let base = if us { 0 } else { (H - 1) * W };
            let (_, rook, _, rook_to) = CASTLINGS
                .iter()
                .copied()
                .find(|c| base + c.0 == from && base + c.2 == to)
                .expect("a castling");
            next.board[(base + rook_to) as usize] = next.board[(base + rook) as usize].take();
            touched.push(base + rook);
        }
        next.rights.retain(|&(white, file)| {
            let sq = file + if white { 0 } else { (H - 1) * W };
            !touched.contains(&sq)
        });
        next.white = !us;
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
