//! The world's run-time parameters: every number the rules page calls a parameter.

use super::Kind;
use crate::rules::parameter::Parameter;

/// The parameters of one world. Piece ranges (queen 7, rook and bishop 6) are rules, not
/// parameters, and live in the movement table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MegachessParams {
    pub width: u32,
    pub height: u32,
    pub turn_ms: u64,
    /// Rank of each kind, indexed by [`Kind::index`].
    pub ranks: [u32; 6],
    pub kingdom_radius: u32,
    pub fade_base: u32,
    pub fade_per_rank: u32,
    /// A bonus piece every this many turns; 0: never.
    pub bonus_every: u32,
    /// Relative weights of a bonus piece's kind, indexed by [`Kind::index`] (the king's is 0).
    pub bonus_weights: [u32; 6],
}

impl Default for MegachessParams {
    fn default() -> Self {
        let mut params = MegachessParams {
            width: 0,
            height: 0,
            turn_ms: 0,
            ranks: [0; 6],
            kingdom_radius: 0,
            fade_base: 0,
            fade_per_rank: 0,
            bonus_every: 0,
            bonus_weights: [0; 6],
        };
        for parameter in PARAMETERS {
            params
                .set(parameter.name, parameter.default)
                .expect("every default is inside its range");
        }
        params
    }
}

/// The largest board side the rules support.
pub const MAX_SIDE: i64 = 1_000_000;

const fn parameter(
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
    meaning: &'static str,
) -> Parameter {
    Parameter {
        name,
        default,
        min,
        max,
        meaning,
    }
}

/// The registry row's parameters: names exactly as the protocol's options, defaults, ranges.
pub const PARAMETERS: &[Parameter] = &[
    parameter("width", 256, 1, MAX_SIDE, "squares from west to east"),
    parameter("height", 256, 1, MAX_SIDE, "squares from south to north"),
    parameter(
        "turn_ms",
        25_000,
        1,
        3_600_000,
        "milliseconds a team's turn lasts",
    ),
    parameter(
        "kingdom_radius",
        16,
        0,
        MAX_SIDE,
        "a piece within this Euclidean distance of its king is inside its kingdom",
    ),
    parameter(
        "fade_base",
        2,
        1,
        1000,
        "turns of life outside the kingdom, before the rank's share",
    ),
    parameter(
        "fade_per_rank",
        1,
        0,
        1000,
        "extra turns of life outside the kingdom per point of rank",
    ),
    parameter(
        "bonus_every",
        4,
        0,
        1_000_000,
        "a neutral bonus piece every this many turns; 0: never",
    ),
    parameter("rank_king", 10, 0, 1000, "rank of a king"),
    parameter("rank_queen", 9, 0, 1000, "rank of a queen"),
    parameter("rank_rook", 5, 0, 1000, "rank of a rook"),
    parameter("rank_bishop", 3, 0, 1000, "rank of a bishop"),
    parameter("rank_knight", 3, 0, 1000, "rank of a knight"),
    parameter("rank_pawn", 1, 0, 1000, "rank of a pawn"),
    parameter(
        "bonus_pawn",
        50,
        0,
        1000,
        "weight of a pawn among bonus pieces",
    ),
    parameter(
        "bonus_knight",
        20,
        0,
        1000,
        "weight of a knight among bonus pieces",
    ),
    parameter(
        "bonus_bishop",
        20,
        0,
        1000,
        "weight of a bishop among bonus pieces",
    ),
    parameter(
        "bonus_rook",
        8,
        0,
        1000,
        "weight of a rook among bonus pieces",
    ),
    parameter(
        "bonus_queen",
        2,
        0,
        1000,
        "weight of a queen among bonus pieces",
    ),
];

/// Where each parameter lives in [`MegachessParams`].
enum Field {
    Width,
    Height,
    TurnMs,
    KingdomRadius,
    FadeBase,
    FadePerRank,
    BonusEvery,
    Rank(Kind),
    Bonus(Kind),
}

fn field(name: &str) -> Option<Field> {
    Some(match name {
        "width" => Field::Width,
        "height" => Field::Height,
        "turn_ms" => Field::TurnMs,
        "kingdom_radius" => Field::KingdomRadius,
        "fade_base" => Field::FadeBase,
        "fade_per_rank" => Field::FadePerRank,
        "bonus_every" => Field::BonusEvery,
        _ => {
            if let Some(kind) = name.strip_prefix("rank_") {
                Field::Rank(kind_named(kind)?)
            } else {
                let kind = kind_named(name.strip_prefix("bonus_")?)?;
                if kind == Kind::King {
                    return None;
                }
                Field::Bonus(kind)
            }
        }
    })
}

fn kind_named(name: &str) -> Option<Kind> {
    Kind::ALL.into_iter().find(|kind| kind.name() == name)
}

impl MegachessParams {
    pub fn rank(&self, kind: Kind) -> u32 {
        self.ranks[kind.index()]
    }
    /// Turns of life of a piece of this kind outside its kingdom.
    pub fn full_life(&self, kind: Kind) -> u32 {
        self.fade_base + self.fade_per_rank * self.rank(kind)
    }
    /// The registry row of a parameter name.
    pub fn parameter(name: &str) -> Option<&'static Parameter> {
        PARAMETERS.iter().find(|parameter| parameter.name == name)
    }
    /// Sets the parameter of this name (as in [`PARAMETERS`]), inside its range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let (Some(parameter), Some(field)) = (Self::parameter(name), field(name)) else {
            return Err(format!("unknown parameter '{name}'"));
        };
        if !(parameter.min..=parameter.max).contains(&value) {
            return Err(format!(
                "{name} {value} is outside {}..={}",
                parameter.min, parameter.max
            ));
        }
        // Every range fits a u32.
        let small = value as u32;
        match field {
            Field::Width => self.width = small,
            Field::Height => self.height = small,
            Field::TurnMs => self.turn_ms = value as u64,
            Field::KingdomRadius => self.kingdom_radius = small,
            Field::FadeBase => self.fade_base = small,
            Field::FadePerRank => self.fade_per_rank = small,
            Field::BonusEvery => self.bonus_every = small,
            Field::Rank(kind) => self.ranks[kind.index()] = small,
            Field::Bonus(kind) => self.bonus_weights[kind.index()] = small,
        }
        Ok(())
    }
    /// The value of the parameter of this name.
    pub fn get(&self, name: &str) -> Option<i64> {
        Self::parameter(name)?;
        Some(match field(name)? {
            Field::Width => self.width as i64,
            Field::Height => self.height as i64,
            Field::TurnMs => self.turn_ms as i64,
            Field::KingdomRadius => self.kingdom_radius as i64,
            Field::FadeBase => self.fade_base as i64,
            Field::FadePerRank => self.fade_per_rank as i64,
            Field::BonusEvery => self.bonus_every as i64,
            Field::Rank(kind) => self.ranks[kind.index()] as i64,
            Field::Bonus(kind) => self.bonus_weights[kind.index()] as i64,
        })
    }
    /// Every parameter inside its range, or a text naming the first one that is not.
    pub fn validate(&self) -> Result<(), String> {
        for parameter in PARAMETERS {
            let value = self.get(parameter.name).unwrap_or(i64::MIN);
            if !(parameter.min..=parameter.max).contains(&value) {
                return Err(format!(
                    "{} {value} is outside {}..={}",
                    parameter.name, parameter.min, parameter.max
                ));
            }
        }
        if self.bonus_weights[Kind::King.index()] != 0 {
            return Err("a bonus piece is never a king".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_rules_page_and_every_name_reads_back() {
        let params = MegachessParams::default();
        assert_eq!(params.validate(), Ok(()));
        assert_eq!(
            (params.width, params.height, params.turn_ms),
            (256, 256, 25_000)
        );
        assert_eq!(params.ranks, [10, 9, 5, 3, 3, 1]);
        assert_eq!(params.bonus_weights, [0, 2, 8, 20, 20, 50]);
        assert_eq!(params.full_life(Kind::Pawn), 3);
        assert_eq!(params.full_life(Kind::Queen), 11);
        assert_eq!(PARAMETERS.len(), 18);
        for parameter in PARAMETERS {
            assert_eq!(params.get(parameter.name), Some(parameter.default));
            let mut changed = params;
            changed.set(parameter.name, parameter.max).unwrap();
            assert_eq!(changed.get(parameter.name), Some(parameter.max));
            assert!(changed.set(parameter.name, parameter.max + 1).is_err());
            assert!(changed.set(parameter.name, parameter.min - 1).is_err());
        }
        assert!(params.clone().set("bonus_king", 1).is_err());
        assert_eq!(params.get("rank_emperor"), None);
        let wide = MegachessParams {
            width: 1_000_001,
            ..params
        };
        assert_eq!(
            wide.validate(),
            Err("width 1000001 is outside 1..=1000000".into())
        );
    }
}
