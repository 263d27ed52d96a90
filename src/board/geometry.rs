//! Board shapes and the attack tables every game shares: leapers, rays, lines and the
//! squares between two squares. Built at compile time for every shape.

use super::build::{
    between_table, file_table, flatten, keep, keep_rows, leaper_table, line_table, narrow,
    narrow_rows, rank_table, ray_tables,
};
use super::{Bitboard, Square};
use std::fmt::Debug;

/// A step on the board, in files and ranks (White's point of view: `+rank` is forward).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub files: i8,
    pub ranks: i8,
}

impl Step {
    pub const fn new(files: i8, ranks: i8) -> Step {
        Step { files, ranks }
    }
}

/// The eight ray directions. The first four raise the square index, the last four lower it,
/// and `d + 4` is the opposite of `d`; the ray and `between` code rely on that order.
pub const RAY_STEPS: [Step; 8] = [
    Step::new(0, 1),   // north
    Step::new(1, 0),   // east
    Step::new(1, 1),   // north-east
    Step::new(-1, 1),  // north-west
    Step::new(0, -1),  // south
    Step::new(-1, 0),  // west
    Step::new(-1, -1), // south-west
    Step::new(1, -1),  // south-east
];
pub const ORTHOGONAL_RAYS: [usize; 4] = [0, 1, 4, 5];
pub const DIAGONAL_RAYS: [usize; 4] = [2, 3, 6, 7];

pub const KNIGHT_STEPS: [Step; 8] = [
    Step::new(1, 2),
    Step::new(2, 1),
    Step::new(2, -1),
    Step::new(1, -2),
    Step::new(-1, -2),
    Step::new(-2, -1),
    Step::new(-2, 1),
    Step::new(-1, 2),
];
pub const KING_STEPS: [Step; 8] = RAY_STEPS;
/// One step north, east, south or west (Nichess's maenad).
pub const ORTHOGONAL_STEPS: [Step; 4] = [RAY_STEPS[0], RAY_STEPS[1], RAY_STEPS[4], RAY_STEPS[5]];
/// The captures of a pawn of each colour (0 = White, 1 = Black).
pub const PAWN_ATTACK_STEPS: [[Step; 2]; 2] = [
    [Step::new(-1, 1), Step::new(1, 1)],
    [Step::new(-1, -1), Step::new(1, -1)],
];

/// The shape of a board and the bitboard integer that holds it.
pub trait Geometry: Copy + Debug + Send + Sync + 'static {
    const FILES: u8;
    const RANKS: u8;
    const SQUARES: usize = Self::FILES as usize * Self::RANKS as usize;
    type BB: Bitboard;

    /// The shared attack tables of this shape, built on first use.
    fn tables() -> &'static Tables<Self::BB>;

    #[inline(always)]
    fn square(file: u8, rank: u8) -> Square {
        Square::from_coords(file, rank, Self::FILES)
    }
    #[inline(always)]
    fn file_of(sq: Square) -> u8 {
        sq.0 % Self::FILES
    }
    #[inline(always)]
    fn rank_of(sq: Square) -> u8 {
        sq.0 / Self::FILES
    }
    fn square_name(sq: Square) -> String {
        sq.name(Self::FILES)
    }
    fn parse_square(text: &str) -> Option<Square> {
        Square::parse(text, Self::FILES, Self::RANKS)
    }
    /// The square `step` away from `sq`, if it is on the board.
    #[inline]
    fn offset(sq: Square, step: Step) -> Option<Square> {
        let file = Self::file_of(sq) as i32 + step.files as i32;
        let rank = Self::rank_of(sq) as i32 + step.ranks as i32;
        ((0..Self::FILES as i32).contains(&file) && (0..Self::RANKS as i32).contains(&rank))
            .then(|| Self::square(file as u8, rank as u8))
    }
}

/// Attack tables for one board shape, built at compile time ([`super::build`]) and kept in
/// statics: nothing to build or warm up at run time.
pub struct Tables<B: 'static> {
    pub files: u8,
    pub ranks: u8,
    /// All squares of the board (the integer may have spare high bits).
    pub board: B,
    pub file_masks: &'static [B],
    pub rank_masks: &'static [B],
    pub knight: &'static [B],
    pub king: &'static [B],
    /// Squares a pawn of each colour (0 = White, 1 = Black) attacks.
    pub pawn_attacks: [&'static [B]; 2],
    /// `rays[direction][square]`: every square from `square` to the edge, exclusive.
    pub rays: [&'static [B]; 8],
    /// `between[a * n + b]`: the squares strictly between `a` and `b` on a shared line.
    between: &'static [B],
    /// `line[a * n + b]`: the whole line through `a` and `b` (edge to edge), or empty.
    line: &'static [B],
}

impl<B: Bitboard> Tables<B> {
    #[inline(always)]
    fn square_count(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> B {
        self.between[a.index() * self.square_count() + b.index()]
    }

    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> B {
        self.line[a.index() * self.square_count() + b.index()]
    }

    /// Squares a slider on `sq` reaches along ray `dir`, up to and including the first blocker.
    #[inline(always)]
    pub fn ray_attacks(&self, sq: Square, occupied: B, dir: usize) -> B {
        let ray = self.rays[dir][sq.index()];
        let blockers = ray & occupied;
        if blockers.is_empty() {
            return ray;
        }
        let first = if dir < 4 {
            blockers.lsb()
        } else {
            blockers.msb()
        };
        ray ^ self.rays[dir][first.index()]
    }

    #[inline]
    pub fn rook_attacks(&self, sq: Square, occupied: B) -> B {
        ORTHOGONAL_RAYS
            .iter()
            .fold(B::EMPTY, |bb, &d| bb | self.ray_attacks(sq, occupied, d))
    }

    #[inline]
    pub fn bishop_attacks(&self, sq: Square, occupied: B) -> B {
        DIAGONAL_RAYS
            .iter()
            .fold(B::EMPTY, |bb, &d| bb | self.ray_attacks(sq, occupied, d))
    }
}

/// Declares a board shape with its bitboard integer and its tables, built at compile time in
/// `u128` and made the shape's integer by `$to_bb` and `$rows_to_bb` ([`narrow`] for boards of
/// up to 64 squares, [`keep`] for the others).
macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, $files:expr, $ranks:expr, $bb:ty, $to_bb:ident, $rows_to_bb:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl Geometry for $name {
            const FILES: u8 = $files;
            const RANKS: u8 = $ranks;
            type BB = $bb;
            #[inline(always)]
            fn tables() -> &'static Tables<$bb> {
                const N: usize = $files * $ranks;
                static FILE_MASKS: [$bb; $files] = $to_bb(file_table($files, $ranks));
                static RANK_MASKS: [$bb; $ranks] = $to_bb(rank_table($files));
                static KNIGHT: [$bb; N] = $to_bb(leaper_table($files, $ranks, &KNIGHT_STEPS));
                static KING: [$bb; N] = $to_bb(leaper_table($files, $ranks, &KING_STEPS));
                static PAWN_ATTACKS: [[$bb; N]; 2] = [
                    $to_bb(leaper_table($files, $ranks, &PAWN_ATTACK_STEPS[0])),
                    $to_bb(leaper_table($files, $ranks, &PAWN_ATTACK_STEPS[1])),
                ];
                static RAYS: [[$bb; N]; 8] = $rows_to_bb(ray_tables($files, $ranks));
                static BETWEEN: [$bb; N * N] =
                    $to_bb(flatten::<N, { N * N }>(between_table($files, $ranks)));
                static LINE: [$bb; N * N] =
                    $to_bb(flatten::<N, { N * N }>(line_table($files, $ranks)));
                static TABLES: Tables<$bb> = Tables {
                    files: $files,
                    ranks: $ranks,
                    board: <$bb>::MAX >> (<$bb>::BITS as usize - N),
                    file_masks: &FILE_MASKS,
                    rank_masks: &RANK_MASKS,
                    knight: &KNIGHT,
                    king: &KING,
                    pawn_attacks: [&PAWN_ATTACKS[0], &PAWN_ATTACKS[1]],
                    rays: [
                        &RAYS[0], &RAYS[1], &RAYS[2], &RAYS[3], &RAYS[4], &RAYS[5], &RAYS[6],
                        &RAYS[7],
                    ],
                    between: &BETWEEN,
                    line: &LINE,
                };
                &TABLES
            }
        }
        const _: () = assert!(($files as u32) * ($ranks as u32) <= <$bb>::BITS);
    };
}

geometry!(
    /// The 8x8 board of chess and Nichess.
    Board8x8, 8, 8, u64, narrow, narrow_rows
);
geometry!(
    /// The 15x8 board of Millennium chess.
    Board15x8, 15, 8, u128, keep, keep_rows
);
geometry!(
    /// The largest wide board the layer supports.
    Board16x8, 16, 8, u128, keep, keep_rows
);
geometry!(
    /// The largest tall board the layer supports.
    Board8x16, 8, 16, u128, keep, keep_rows
);
geometry!(
    /// The smallest board the layer supports.
    Board5x5, 5, 5, u64, narrow, narrow_rows
);

#[cfg(test)]
mod tests {
    use super::*;

    fn names<G: Geometry>(bb: G::BB) -> Vec<String> {
        bb.squares().map(G::square_name).collect()
    }

    #[test]
    fn knight_and_king_tables_stop_at_the_edges() {
        let t = Board15x8::tables();
        let o1 = Board15x8::parse_square("o1").unwrap();
        assert_eq!(names::<Board15x8>(t.knight[o1.index()]), ["m2", "n3"]);
        assert_eq!(names::<Board15x8>(t.king[o1.index()]), ["n1", "n2", "o2"]);
        let t = Board8x8::tables();
        assert_eq!(t.knight[0].count(), 2);
        assert_eq!(t.king[27].count(), 8);
    }

    #[test]
    fn sliders_stop_at_the_first_blocker_on_every_shape() {
        fn check<G: Geometry>() {
            let t = G::tables();
            let from = G::square(0, 0);
            let blocker = G::square(0, 2);
            let occupied = G::BB::from_square(blocker);
            let attacks = t.rook_attacks(from, occupied);
            assert!(attacks.has(G::square(0, 1)));
            assert!(attacks.has(blocker));
            assert!(!attacks.has(G::square(0, 3)));
            assert_eq!(
                (attacks & t.rank_masks[0]).count(),
                G::FILES as u32 - 1,
                "the first rank is open"
            );
            let corner = G::square(G::FILES - 1, G::RANKS - 1);
            assert!(t.bishop_attacks(from, G::BB::EMPTY).has(G::square(
                G::FILES.min(G::RANKS) - 1,
                G::FILES.min(G::RANKS) - 1
            )));
            assert_eq!(
                t.between(from, corner).is_empty(),
                G::FILES != G::RANKS,
                "a1 and the far corner share a diagonal only on square boards"
            );
        }
        check::<Board8x8>();
        check::<Board15x8>();
        check::<Board16x8>();
        check::<Board8x16>();
        check::<Board5x5>();
    }

    #[test]
    fn between_and_line() {
        let t = Board8x8::tables();
        let sq = |s| Board8x8::parse_square(s).unwrap();
        assert_eq!(
            names::<Board8x8>(t.between(sq("a1"), sq("d4"))),
            ["b2", "c3"]
        );
        assert_eq!(t.between(sq("a1"), sq("b3")), 0);
        assert_eq!(t.line(sq("b2"), sq("c3")).count(), 8);
        assert_eq!(t.line(sq("a1"), sq("b3")), 0);
        let wide = Board15x8::tables();
        let w = |s| Board15x8::parse_square(s).unwrap();
        assert_eq!(wide.between(w("a1"), w("o1")).count(), 13);
    }
}
