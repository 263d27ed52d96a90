//! Files and ranks as bitboards, built at compile time for any board, and the 8x8 board's
//! named ones (chess and Nichess), declared once.

/// Every square of `file` on a board `files` x `ranks`.
pub const fn file_mask(files: u8, ranks: u8, file: u8) -> u128 {
    let mut mask = 0u128;
    let mut rank = 0;
    while rank < ranks {
        mask |= 1u128 << (rank as u32 * files as u32 + file as u32);
        rank += 1;
    }
    mask
}

/// Every square of `rank` on a board `files` wide.
pub const fn rank_mask(files: u8, rank: u8) -> u128 {
    ((1u128 << files) - 1) << (rank as u32 * files as u32)
}

pub const FILE_A: u64 = file_mask(8, 8, 0) as u64;
pub const FILE_H: u64 = file_mask(8, 8, 7) as u64;
pub const RANK_1: u64 = rank_mask(8, 0) as u64;
pub const RANK_3: u64 = rank_mask(8, 2) as u64;
pub const RANK_6: u64 = rank_mask(8, 5) as u64;
pub const RANK_8: u64 = rank_mask(8, 7) as u64;
/// The first and last ranks, where no pawn may stand.
pub const BACK_RANKS: u64 = RANK_1 | RANK_8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_the_familiar_numbers() {
        assert_eq!(FILE_A, 0x0101_0101_0101_0101);
        assert_eq!(FILE_H, FILE_A << 7);
        assert_eq!(RANK_3, 0xFF << 16);
        assert_eq!(BACK_RANKS, 0xFF00_0000_0000_00FF);
        assert_eq!(file_mask(15, 8, 14).count_ones(), 8);
        assert_eq!(rank_mask(15, 7), ((1u128 << 15) - 1) << 105);
    }
}
