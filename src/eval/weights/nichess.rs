//! The nichess evaluation weights, written by `roger tune --write` (see docs/tuning.md);
//! the fields are described on [`NichessWeights`].

use super::NichessWeights;

pub const WEIGHTS: NichessWeights = NichessWeights {
    value: [
        [0, 70, 85, 100, 100, 100, 100],
        [0, 216, 270, 315, 387, 414, 450],
        [0, 330, 330, 330, 330, 330, 330],
        [0, 259, 324, 378, 464, 496, 540],
        [0, 820, 820, 820, 820, 820, 820],
        [0, 0, 0, 0, 0, 0, 0],
    ],
    pawn_advance: [0, 0, 4, 12, 28, 60, 140, 0],
    passed: [0, 5, 10, 20, 40, 70, 110, 0],
    knight_centre: [-8, 0, 8, 16],
    maenad_centre: [0, 4, 8, 12],
    pirate_seventh: 15,
    mobility: [0, 7, 6, 4, 3, 0],
    king_danger: [
        0, -5, -14, -25, -40, -57, -78, -101, -128, -157, -190, -225, -264, -305, -350, -397, -448,
        -500,
    ],
    king_shelter: 15,
    hanging_second: 160,
    hanging_largest: 30,
    threat_credit: 40,
    throw_against: 80,
    throw_for: 30,
    tempo: 12,
    king_zone: [2, 3, 2, 3, 4, 1],
    base: [100, 450, 330, 540, 820, 0],
};
