//! The nichess evaluation weights, written by `roger tune --write` (see docs/tuning.md);
//! the fields are described on [`NichessWeights`].

use super::NichessWeights;

pub const WEIGHTS: NichessWeights = NichessWeights {
    value: [
        [0, 78, 85, 102, 100, 100, 100],
        [0, 291, 225, 319, 382, 414, 446],
        [0, 374, 330, 330, 330, 330, 330],
        [0, 292, 324, 384, 447, 496, 550],
        [0, 817, 820, 820, 820, 820, 820],
        [0, 0, 0, 0, 0, 0, 0],
    ],
    pawn_advance: [0, 9, 11, 7, 15, 37, 146, 0],
    passed: [0, 10, 0, 29, 61, 124, 116, 0],
    knight_centre: [-13, 7, 13, 35],
    maenad_centre: [25, 38, 47, 38],
    pirate_seventh: 9,
    mobility: [0, 8, 6, 6, 3, 0],
    king_danger: [
        -78, -100, -87, -92, -83, -107, -114, -107, -138, -139, -167, -180, -209, -191, -263, -252,
        -305, -348,
    ],
    king_shelter: 14,
    hanging_second: 77,
    hanging_largest: 27,
    threat_credit: 89,
    throw_against: 37,
    throw_for: 36,
    tempo: 12,
    king_zone: [2, 3, 3, 3, 3, 1],
    base: [73, 297, 294, 534, 1200, 0],
};
