//! Adam over the network's weights: the moments it keeps, one step from a batch's summed
//! gradient, and that gradient computed on every thread.

use super::model::{backward, Examples, Scratch, Weights};
use crate::eval::network::{Activation, WEIGHT_LIMIT};
use rayon::prelude::*;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The weights being fitted and Adam's state for them (a checkpoint saves all of it).
pub struct Adam {
    pub weights: Weights,
    pub first_moment: Weights,
    pub second_moment: Weights,
    /// Steps taken so far, for the moments' bias correction.
    pub steps: u64,
}

impl Adam {
    /// One step by the mean of `grad`, a sum over `count` examples, then the weights clipped
    /// to what the quantised network can hold (`feature_limit` for the first layer).
    pub fn step(&mut self, grad: &mut Weights, count: usize, rate: f32, feature_limit: f32) {
        let inverse = 1.0 / count as f32;
        self.steps += 1;
        let exponent = self.steps.min(i32::MAX as u64) as i32;
        let correction1 = 1.0 - BETA1.powi(exponent);
        let correction2 = 1.0 - BETA2.powi(exponent);
        let updates = self.weights.values_mut().zip(grad.values_mut()).zip(
            self.first_moment
                .values_mut()
                .zip(self.second_moment.values_mut()),
        );
        for ((w, g), (m, v)) in updates {
            let g = *g * inverse;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= rate * (*m / correction1) / ((*v / correction2).sqrt() + EPSILON);
        }
        self.weights.clip(feature_limit, WEIGHT_LIMIT);
    }
}

/// The summed gradient and loss of the examples `part` indexes, split evenly over `threads`.
pub fn batch_gradient(
    weights: &Weights,
    activation: Activation,
    data: &Examples,
    part: &[u32],
    scale: f32,
    threads: usize,
) -> (Weights, f64) {
    let per_thread = part.len().div_ceil(threads);
    part.par_chunks(per_thread)
        .map(|slice| {
            let mut grad = Weights::zero(weights.inputs(), weights.hidden, weights.buckets());
            let mut scratch = Scratch::new(weights.hidden);
            let mut sum = 0f64;
            for &index in slice {
                let example = &data.examples[index as usize];
                sum += f64::from(backward(
                    weights,
                    activation,
                    data,
                    example,
                    scale,
                    &mut grad,
                    &mut scratch,
                ));
            }
            (grad, sum)
        })
        .reduce_with(|(mut a, x), (b, y)| {
            a.add(&b);
            (a, x + y)
        })
        .expect("a batch is not empty")
}
