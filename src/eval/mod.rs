//! Evaluation, one module per game.

/// A static evaluation in centipawns from the side to move's point of view.
pub trait Evaluate {
    fn evaluate(&self) -> i32;
}
