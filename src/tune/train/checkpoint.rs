//! A training run's state after a pass, to resume from: the float weights, Adam's two moments,
//! the passes done and the scale. Little-endian: the magic `RGCK`, the version (`u32`, 2), the
//! game's name (a length byte and the text), inputs, hidden width, flags (`u32`; bit 0 a
//! correction, bit 1 squared activation), output buckets (`u32`; not in version 1, which has
//! one) and passes done (`u32`), Adam's steps (`u64`), the scale (`f32`), then the weights, the
//! first moment and the second moment (`f32` each, in `Weights::values` order).

use super::model::Weights;
use crate::eval::network::Activation;

const MAGIC: &[u8; 4] = b"RGCK";
const VERSION: u32 = 2;

#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub variant: String,
    pub residual: bool,
    pub activation: Activation,
    pub epochs_done: u32,
    pub steps: u64,
    pub scale: f32,
    pub weights: Weights,
    pub first_moment: Weights,
    pub second_moment: Weights,
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 12 * self.weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(self.variant.len() as u8);
        out.extend_from_slice(self.variant.as_bytes());
        let flags =
            u32::from(self.residual) | u32::from(self.activation == Activation::Screlu) << 1;
        for word in [
            self.weights.inputs() as u32,
            self.weights.hidden as u32,
            flags,
            self.weights.buckets() as u32,
            self.epochs_done,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.steps.to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        for weights in [&self.weights, &self.first_moment, &self.second_moment] {
            for value in weights.values() {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], String> {
            let part = bytes.get(at..at + n).ok_or("the checkpoint is cut short")?;
            at += n;
            Ok(part)
        };
        if take(4)? != MAGIC {
            return Err("not a training checkpoint (no RGCK magic)".into());
        }
        let word = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("four bytes"));
        let version = word(take(4)?);
        if !(1..=VERSION).contains(&version) {
            return Err(format!(
                "checkpoint version {version}, this build reads {VERSION}"
            ));
        }
        let name_length = take(1)?[0] as usize;
        let variant = String::from_utf8(take(name_length)?.to_vec())
            .map_err(|_| "the checkpoint's game name is not UTF-8")?;
        let inputs = word(take(4)?) as usize;
        let hidden = word(take(4)?) as usize;
        let flags = word(take(4)?);
        let buckets = if version >= 2 {
            word(take(4)?) as usize
        } else {
            1
        };
        let epochs_done = word(take(4)?);
        let steps = u64::from_le_bytes(take(8)?.try_into().expect("eight bytes"));
        let scale = f32::from_le_bytes(take(4)?.try_into().expect("four bytes"));
        if hidden == 0 || inputs == 0 || inputs * hidden > 1 << 28 || !(1..=64).contains(&buckets) {
            return Err(format!(
                "a checkpoint of {inputs}x{hidden}, {buckets} output buckets, makes no sense"
            ));
        }
        let mut read_weights = || -> Result<Weights, String> {
            let mut weights = Weights::zero(inputs, hidden, buckets);
            let bytes = take(4 * weights.len())?;
            weights.set_values(
                bytes
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes(b.try_into().expect("four bytes"))),
            )?;
            Ok(weights)
        };
        let weights = read_weights()?;
        let first_moment = read_weights()?;
        let second_moment = read_weights()?;
        if at != bytes.len() {
            return Err("the checkpoint has bytes after its end".into());
        }
        Ok(Checkpoint {
            variant,
            residual: flags & 1 == 1,
            activation: if flags & 2 != 0 {
                Activation::Screlu
            } else {
                Activation::Crelu
            },
            epochs_done,
            steps,
            scale,
            weights,
            first_moment,
            second_moment,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Rng;

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let mut rng = Rng::new(2);
        let checkpoint = Checkpoint {
            variant: "nichess".into(),
            residual: true,
            activation: Activation::Screlu,
            epochs_done: 3,
            steps: 12_345,
            scale: 181.5,
            weights: Weights::random(20, 16, 3, &mut rng),
            first_moment: Weights::random(20, 16, 3, &mut rng),
            second_moment: Weights::random(20, 16, 3, &mut rng),
        };
        let bytes = checkpoint.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes), Ok(checkpoint));
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Checkpoint::from_bytes(b"RGNN").is_err());
    }
}
