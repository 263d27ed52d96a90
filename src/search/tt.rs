//! The transposition table (placeholder; being replaced by the real, shared, lock-free table).

pub struct TranspositionTable {
    megabytes: usize,
}

impl TranspositionTable {
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable { megabytes }
    }
    pub fn resize(&mut self, megabytes: usize) {
        self.megabytes = megabytes;
    }
    pub fn clear(&mut self) {}
    /// Per mille of entries in use.
    pub fn hashfull(&self) -> u32 {
        0
    }
}
