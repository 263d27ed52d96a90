//! The evaluation weights of each game, one struct per game, and the evaluation trace the tuner
//! fits them with.
//!
//! Each game's values live in a file of their own (`chess.rs`, `millennium.rs`, `nichess.rs`
//! here), a single `pub const WEIGHTS` that `roger tune --write` rewrites; the evaluation reads
//! nothing else. Every weight is an `i32` added to the score (tapered games: to the
//! middlegame or the endgame part) times a coefficient the position determines, so that the
//! evaluation is the dot product of the weights with the position's [`Trace`] (see
//! docs/tuning.md for what is linear by construction and what is held fixed).

pub mod chess;
pub mod millennium;
pub mod nichess;

/// A weight field: a number or a (nested) array of numbers, flattened in declaration order.
pub trait Flat: Sized {
    const LEN: usize;
    fn flatten(&self, out: &mut Vec<i32>);
    fn unflatten(values: &mut dyn Iterator<Item = i32>) -> Self;
    /// The value as Rust source (before rustfmt).
    fn render(&self, out: &mut String);
}

impl Flat for i32 {
    const LEN: usize = 1;
    fn flatten(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
    fn unflatten(values: &mut dyn Iterator<Item = i32>) -> Self {
        values.next().expect("enough weight values")
    }
    fn render(&self, out: &mut String) {
        out.push_str(&self.to_string());
    }
}

impl<T: Flat, const N: usize> Flat for [T; N] {
    const LEN: usize = N * T::LEN;
    fn flatten(&self, out: &mut Vec<i32>) {
        self.iter().for_each(|v| v.flatten(out));
    }
    fn unflatten(values: &mut dyn Iterator<Item = i32>) -> Self {
        std::array::from_fn(|_| T::unflatten(values))
    }
    fn render(&self, out: &mut String) {
        out.push('[');
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            v.render(out);
        }
        out.push(']');
    }
}

/// Declares a weights struct (`#[repr(C)]`, all `i32`, so that a field's index in the flat
/// vector is its byte offset over four) with its flat view and its source text.
macro_rules! weights {
    ($(#[$meta:meta])* $name:ident { $($(#[$fmeta:meta])* $field:ident: $ty:ty,)* }) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name {
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl $name {
            /// How many numbers the weights hold.
            pub const LEN: usize = 0 $(+ <$ty as Flat>::LEN)*;

            /// Every number, in declaration order.
            pub fn to_vec(&self) -> Vec<i32> {
                let mut out = Vec::with_capacity(Self::LEN);
                $(self.$field.flatten(&mut out);)*
                out
            }

            /// The weights from their numbers in declaration order (`LEN` of them).
            pub fn from_slice(values: &[i32]) -> Self {
                assert_eq!(values.len(), Self::LEN, "weight count");
                let mut it = values.iter().copied();
                $name { $($field: <$ty as Flat>::unflatten(&mut it),)* }
            }

            /// Each field's name, first index and length.
            pub fn fields() -> Vec<(&'static str, usize, usize)> {
                let mut out = Vec::new();
                let mut at = 0;
                $(
                    out.push((stringify!($field), at, <$ty as Flat>::LEN));
                    at += <$ty as Flat>::LEN;
                )*
                let _ = at;
                out
            }

            /// Each field's index by its byte offset, which the trace uses (equal to
            /// [`Self::fields`] when the layout has no padding).
            pub fn offsets() -> Vec<usize> {
                vec![$(std::mem::offset_of!($name, $field) / 4,)*]
            }

            /// The struct literal's fields, one a line (rustfmt lays them out).
            pub fn render_fields(&self) -> String {
                let mut out = String::new();
                $(
                    out.push_str(concat!("    ", stringify!($field), ": "));
                    self.$field.render(&mut out);
                    out.push_str(",\n");
                )*
                out
            }
        }
    };
}

/// The flat index of a weights field (`idx!(ChessWeights, material_mg)`).
macro_rules! idx {
    ($ty:ty, $field:ident) => {
        std::mem::offset_of!($ty, $field) / 4
    };
}
pub(crate) use idx;

weights! {
    /// Standard chess: tapered (middlegame `_mg`, endgame `_eg`) between 24 (full board) and 0.
    ChessWeights {
        /// Pawn, knight, bishop, rook, queen, king.
        material_mg: [i32; 6],
        material_eg: [i32; 6],
        /// `[kind][square]` from White's side (Black's rank is mirrored).
        pst_mg: [[i32; 64]; 6],
        pst_eg: [[i32; 64]; 6],
        /// Per safe square reached beyond four, by kind.
        mobility_mg: [i32; 6],
        mobility_eg: [i32; 6],
        /// Passed pawn by relative rank.
        passed_mg: [i32; 8],
        passed_eg: [i32; 8],
        /// Per isolated pawn.
        isolated_mg: i32,
        isolated_eg: i32,
        /// Per pawn beyond the first on a file.
        doubled_mg: i32,
        doubled_eg: i32,
        bishop_pair_mg: i32,
        bishop_pair_eg: i32,
        /// Rook on a file without pawns, or without own pawns.
        rook_open_mg: i32,
        rook_half_open_mg: i32,
        /// The king's pawn shelter: on each of the three files around the king (the middle one
        /// kept off the edge), by the file's distance from the edge and the relative rank of
        /// the own pawn nearest the king in front of it (0: none).
        shelter_mg: [[i32; 8]; 4],
        /// The enemy's pawn storm on the same files, by the file's distance from the edge and
        /// the relative rank (from the king's side) of the enemy pawn nearest the king (0:
        /// none), when no own pawn blocks it.
        storm_mg: [[i32; 8]; 4],
        /// An enemy storm pawn blocked by an own pawn just in front of it, by its relative rank.
        storm_blocked_mg: [i32; 8],
        storm_blocked_eg: [i32; 8],
        /// No pawn of either side on the king's flank.
        pawnless_flank_mg: i32,
        pawnless_flank_eg: i32,
        /// A pawn with neighbours, none of them able to support it, whose next square an
        /// enemy pawn attacks or blocks.
        backward_mg: i32,
        backward_eg: i32,
        /// For the side to move.
        tempo: i32,
        /// A pawn defended by an own pawn or beside one, by relative rank.
        connected_mg: [i32; 8],
        connected_eg: [i32; 8],
        /// A passed pawn whose next square is occupied, by relative rank.
        passed_blocked_mg: [i32; 8],
        passed_blocked_eg: [i32; 8],
        /// Per square of distance from the enemy king, and from the own king, to a passed
        /// pawn's next square, by relative rank.
        passed_enemy_king_eg: [i32; 8],
        passed_own_king_eg: [i32; 8],
        /// A passed pawn whose next square is empty and not attacked by the enemy, by
        /// relative rank.
        passed_safe_push_eg: [i32; 8],
        /// A knight on the enemy's half, defended by a pawn and out of reach of enemy pawns.
        outpost_mg: i32,
        outpost_eg: i32,
        /// An enemy piece, by kind, attacked by a pawn; by a knight or bishop (pawns and
        /// minors only when no enemy pawn defends them); by a rook (queens, and undefended
        /// pawns and minors).
        threat_pawn_mg: [i32; 6],
        threat_pawn_eg: [i32; 6],
        threat_minor_mg: [i32; 6],
        threat_minor_eg: [i32; 6],
        threat_rook_mg: [i32; 6],
        threat_rook_eg: [i32; 6],
        /// Per enemy piece (not a pawn) attacked and not defended at all.
        hanging_mg: i32,
        hanging_eg: i32,
        /// King danger by the pressure on the king's zone and the safe checks (40 and more:
        /// the last entry), with an enemy queen on the board and without.
        danger_mg: [i32; 41],
        danger_light_mg: [i32; 41],
        /// Shape, fitted by finite differences (the rest is linear): the phase weight of each
        /// kind (the board is full at 24).
        phase: [i32; 6],
        /// Shape: the pressure on the king's zone per attacked zone square, by attacker kind.
        king_zone: [i32; 6],
        /// Shape: the pressure of each safe checking square, by the kind that can check there.
        safe_check: [i32; 6],
    }
}

weights! {
    /// Millennium chess: tapered between 44 (both doubled armies) and 0.
    MillenniumWeights {
        material_mg: [i32; 6],
        material_eg: [i32; 6],
        /// A side's first king while it still has two.
        keystone_mg: i32,
        keystone_eg: i32,
        /// `[kind][square]` (15x8) from White's side.
        pst_mg: [[i32; 120]; 6],
        pst_eg: [[i32; 120]; 6],
        /// Per safe square reached beyond the kind's norm.
        mobility_mg: [i32; 6],
        mobility_eg: [i32; 6],
        /// Passed pawn by relative rank, with pieces in the pool to promote to.
        passed_mg: [i32; 8],
        passed_eg: [i32; 8],
        /// The same with an empty pool.
        passed_empty_pool_mg: [i32; 8],
        passed_empty_pool_eg: [i32; 8],
        /// Promotion prospects (endgame) of a passed pawn by the best kind in the pool (knight,
        /// bishop, rook, queen) and its relative rank.
        promotion_eg: [[i32; 8]; 4],
        isolated_mg: i32,
        isolated_eg: i32,
        doubled_mg: i32,
        doubled_eg: i32,
        bishop_pair_mg: i32,
        bishop_pair_eg: i32,
        rook_open_mg: i32,
        rook_half_open_mg: i32,
        /// Per shield pawn of a lone king, and of each king of two.
        shield_mg: i32,
        shield_pair_mg: i32,
        /// King danger by attack pressure on the zone (20 and more: the last entry), for each
        /// king of two, a lone king against queens, and a lone king without.
        danger_pair_mg: [i32; 21],
        danger_lone_mg: [i32; 21],
        danger_lone_light_mg: [i32; 21],
        /// Both kings of two attacked with the enemy to move.
        both_kings_attacked_mg: i32,
        both_kings_attacked_eg: i32,
        /// The side to move attacks a keystone king.
        keystone_capture_mg: i32,
        keystone_capture_eg: i32,
        tempo: i32,
        /// Shapes, fitted by finite differences: the phase weight of each kind (full at 44),
        /// the mobility counted as neutral, and the weight of an attack on a king's zone, by
        /// kind.
        phase: [i32; 6],
        mobility_norm: [i32; 6],
        king_zone: [i32; 6],
    }
}

weights! {
    /// Nichess: not tapered.
    NichessWeights {
        /// `[kind][hp in tens]`: a piece's worth with that much health (six and more: the last).
        value: [[i32; 7]; 6],
        /// Pawn by relative rank.
        pawn_advance: [i32; 8],
        passed: [i32; 8],
        /// Knight and maenad by centrality (0 on the rim, 3 in the centre).
        knight_centre: [i32; 4],
        maenad_centre: [i32; 4],
        pirate_seventh: i32,
        /// Per safe square reached beyond four, by kind.
        mobility: [i32; 6],
        /// King danger by attack units on its zone (17 and more: the last), and the back-rank
        /// shelter; both scaled by the enemy's force (full at 3000).
        king_danger: [i32; 18],
        king_shelter: i32,
        /// Shares (of 240) of the threats: our second and largest hanging piece (lost), their
        /// largest (credit), the enemy's and our best throw.
        hanging_second: i32,
        hanging_largest: i32,
        threat_credit: i32,
        throw_against: i32,
        throw_for: i32,
        tempo: i32,
        /// Shapes, fitted by finite differences: the weight of an attack next to the enemy king
        /// by kind, and each kind's full-health worth as the threat risks, the king-danger force
        /// scale and move ordering read it.
        king_zone: [i32; 6],
        base: [i32; 6],
    }
}

/// What an evaluation tells the tuner: each weight's coefficient, in White's point of view.
/// The plain evaluation uses `()`, which does nothing and costs nothing.
pub trait Tracer {
    /// A middlegame term of a tapered evaluation.
    fn mg(&mut self, index: usize, coef: f32);
    /// An endgame term.
    fn eg(&mut self, index: usize, coef: f32);
    /// A term of an evaluation that is not tapered.
    fn flat(&mut self, index: usize, coef: f32);
    /// The middlegame share of the taper (1 a full board, 0 a bare one).
    fn phase(&mut self, share: f32);
    /// The share of the endgame part that counts (1 unless the position is drawish).
    fn endgame_scale(&mut self, _scale: f32) {}
}

impl Tracer for () {
    #[inline(always)]
    fn mg(&mut self, _: usize, _: f32) {}
    #[inline(always)]
    fn eg(&mut self, _: usize, _: f32) {}
    #[inline(always)]
    fn flat(&mut self, _: usize, _: f32) {}
    #[inline(always)]
    fn phase(&mut self, _: f32) {}
}

/// A recorded trace: dense coefficients by weight, middlegame, endgame and flat.
#[derive(Clone, Debug)]
pub struct Trace {
    mg: Vec<f32>,
    eg: Vec<f32>,
    flat: Vec<f32>,
    share: f32,
    endgame_scale: f32,
}

impl Trace {
    pub fn new(len: usize) -> Trace {
        Trace {
            mg: vec![0.0; len],
            eg: vec![0.0; len],
            flat: vec![0.0; len],
            share: 1.0,
            endgame_scale: 1.0,
        }
    }

    /// Clears it for the next position.
    pub fn clear(&mut self) {
        for v in [&mut self.mg, &mut self.eg, &mut self.flat] {
            v.iter_mut().for_each(|c| *c = 0.0);
        }
        self.share = 1.0;
        self.endgame_scale = 1.0;
    }

    /// Each weight's coefficient with the taper applied (White's view), the zero ones left out.
    pub fn sparse(&self) -> Vec<(u32, f32)> {
        let s = self.share;
        let e = self.endgame_scale;
        (0..self.mg.len())
            .filter_map(|i| {
                let c = self.mg[i] * s + self.eg[i] * (1.0 - s) * e + self.flat[i];
                (c != 0.0).then_some((i as u32, c))
            })
            .collect()
    }
}

impl Tracer for Trace {
    fn mg(&mut self, index: usize, coef: f32) {
        self.mg[index] += coef;
    }
    fn eg(&mut self, index: usize, coef: f32) {
        self.eg[index] += coef;
    }
    fn flat(&mut self, index: usize, coef: f32) {
        self.flat[index] += coef;
    }
    fn phase(&mut self, share: f32) {
        self.share = share;
    }
    fn endgame_scale(&mut self, scale: f32) {
        self.endgame_scale = scale;
    }
}

/// The source of a weights file: a header, then `pub const WEIGHTS: <ty> = <ty> { .. };`
/// (not yet formatted: [`format_rust`] does that).
pub fn weights_source(game: &str, ty: &str, fields: &str) -> String {
    format!(
        "//! The {game} evaluation weights, written by `roger tune --write` (see docs/tuning.md);\n\
         //! the fields are described on [`{ty}`].\n\n\
         use super::{ty};\n\n\
         pub const WEIGHTS: {ty} = {ty} {{\n{fields}}};\n"
    )
}

/// The numbers of a weights file, in order: every integer literal inside the struct literal.
pub fn parse_weights_source(text: &str, ty: &str) -> Result<Vec<i32>, String> {
    let start = text
        .find(&format!("= {ty} {{"))
        .ok_or_else(|| format!("no `= {ty} {{` in the weights file"))?;
    let body = &text[start + ty.len() + 4..];
    let end = body.rfind("};").ok_or("no closing `};`")?;
    let body = &body[..end];
    let mut values = Vec::new();
    for line in body.lines() {
        let line = line.split("//").next().unwrap_or("");
        let numbers = match line.split_once(':') {
            Some((_, rest)) => rest,
            None => line,
        };
        for token in numbers.split(|c: char| !(c.is_ascii_digit() || c == '-')) {
            if token.is_empty() {
                continue;
            }
            values.push(
                token
                    .parse::<i32>()
                    .map_err(|e| format!("bad number '{token}': {e}"))?,
            );
        }
    }
    Ok(values)
}

/// Formats Rust source with `rustfmt` (edition 2021); the text as it was if rustfmt is missing.
pub fn format_rust(source: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let child = Command::new("rustfmt")
        .args(["--edition", "2021", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return source.to_string();
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(source.as_bytes());
    }
    match child.wait_with_output() {
        Ok(output) if output.status.success() => {
            String::from_utf8(output.stdout).unwrap_or_else(|_| source.to_string())
        }
        _ => source.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_indices_are_byte_offsets_and_round_trip() {
        fn check(fields: Vec<(&str, usize, usize)>, offsets: Vec<usize>, len: usize) {
            let starts: Vec<usize> = fields.iter().map(|f| f.1).collect();
            assert_eq!(starts, offsets);
            let last = fields.last().unwrap();
            assert_eq!(last.1 + last.2, len);
        }
        check(
            ChessWeights::fields(),
            ChessWeights::offsets(),
            ChessWeights::LEN,
        );
        check(
            MillenniumWeights::fields(),
            MillenniumWeights::offsets(),
            MillenniumWeights::LEN,
        );
        check(
            NichessWeights::fields(),
            NichessWeights::offsets(),
            NichessWeights::LEN,
        );
        assert_eq!(std::mem::size_of::<ChessWeights>(), 4 * ChessWeights::LEN);
        let w = chess::WEIGHTS;
        assert_eq!(ChessWeights::from_slice(&w.to_vec()), w);
    }

    #[test]
    fn a_rendered_weights_file_parses_back() {
        let w = nichess::WEIGHTS;
        let text = format_rust(&weights_source(
            "Nichess",
            "NichessWeights",
            &w.render_fields(),
        ));
        let values = parse_weights_source(&text, "NichessWeights").unwrap();
        assert_eq!(NichessWeights::from_slice(&values), w);
        // The file in the tree is what the writer writes.
        let on_disk = include_str!("nichess.rs");
        assert_eq!(
            parse_weights_source(on_disk, "NichessWeights").unwrap(),
            w.to_vec()
        );
    }
}
