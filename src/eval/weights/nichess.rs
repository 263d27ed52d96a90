//! The nichess evaluation weights, written by `roger tune --write` (see docs/tuning.md);
//! the fields are described on [`NichessWeights`].

use super::NichessWeights;

pub const WEIGHTS: NichessWeights = NichessWeights {
    value: [
        [0, 87, 85, 102, 100, 100, 100],
        [0, 284, 270, 313, 382, 414, 449],
        [0, 363, 330, 330, 330, 330, 330],
        [0, 277, 324, 390, 424, 496, 553],
        [0, 832, 820, 820, 820, 820, 820],
        [0, 0, 0, 0, 0, 0, 0],
    ],
    pawn_advance: [0, 8, 12, 9, 18, 40, 146, 0],
    passed: [0, 10, 1, 22, 53, 119, 116, 0],
    knight_centre: [-16, 6, 13, 36],
    maenad_centre: [22, 31, 39, 31],
    pirate_seventh: 7,
    mobility: [0, 8, 6, 5, 3, 0],
    king_danger: [
        -64, -94, -71, -90, -75, -111, -106, -112, -135, -153, -192, -178, -213, -217, -260, -268,
        -327, -355,
    ],
    king_shelter: 10,
    hanging_second: 82,
    hanging_largest: 27,
    threat_credit: 86,
    throw_against: 31,
    throw_for: 34,
    tempo: 14,
    king_zone: [2, 3, 3, 3, 4, 1],
    base: [81, 365, 268, 540, 992, 0],
};
