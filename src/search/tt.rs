//! The transposition table, shared by every search thread without locks.
//!
//! Each slot is two atomics: the check word and the data. The check word is the key's upper 48
//! bits and the position's static evaluation (16 bits), XOR the data. A torn write (two threads
//! writing one slot at once) makes the XOR check fail, so a reader never sees a mixed entry.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// What a slot holds: the best move (packed), a score, the depth and the kind of bound, and the
/// position's static evaluation when it was known.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub packed_move: u32,
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
    /// The evaluation before any correction, so that a visit again need not compute it.
    pub static_eval: Option<i16>,
    generation: u8,
}

/// The key's bits that the check word holds; the others hold the static evaluation. The slot's
/// index comes from the key's upper bits too, so 48 of them tell positions apart.
const KEY_BITS: u64 = !0xFFFF;
/// The evaluation field's value for "not known" (in check, or out of range).
const NO_EVAL: u16 = i16::MIN as u16;

/// The check word's payload: the key's upper bits and the evaluation.
fn check_word(key: u64, static_eval: Option<i32>) -> u64 {
    let eval = match static_eval {
        Some(eval) if eval.abs() < i16::MAX as i32 => eval as i16 as u16,
        _ => NO_EVAL,
    };
    key & KEY_BITS | eval as u64
}

impl Entry {
    fn encode(self) -> u64 {
        self.packed_move as u64
            | (self.score as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.bound as u64) << 56
            | ((self.generation & 63) as u64) << 58
    }
    fn decode(data: u64, eval: u16) -> Option<Entry> {
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            packed_move: data as u32,
            score: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            bound,
            static_eval: (eval != NO_EVAL).then_some(eval as i16),
            generation: (data >> 58) as u8,
        })
    }
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU64,
    /// The size asked for, in MiB.
    megabytes: usize,
}

const SLOT_BYTES: usize = 16;

impl TranspositionTable {
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut table = TranspositionTable {
            slots: Vec::new(),
            generation: AtomicU64::new(0),
            megabytes: 0,
        };
        table.resize(megabytes);
        table
    }

    pub fn resize(&mut self, megabytes: usize) {
        if let Err(error) = self.try_resize(megabytes) {
            panic!("{error}");
        }
    }

    /// The table's size in MiB.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// Resizes to `megabytes` MiB (a resized table starts empty), or says why not. The old table
    /// is freed before the new one is allocated, so the two are never held at once. A size more
    /// than the machine's free memory plus the old table is refused before anything changes. If
    /// the allocation fails all the same, the table is allocated again at its old size (or at
    /// 1 MiB if even that fails): it keeps its size but not its entries.
    pub fn try_resize(&mut self, megabytes: usize) -> Result<(), String> {
        self.resize_within(megabytes, available_memory_mib())
    }

    /// [`TranspositionTable::try_resize`] with `available` MiB of free memory, if known.
    fn resize_within(&mut self, megabytes: usize, available: Option<usize>) -> Result<(), String> {
        if let Some(available) = available {
            let room = available.saturating_add(self.megabytes);
            if megabytes > room {
                return Err(format!(
                    "Hash {megabytes} MiB is more than the {room} MiB of memory available"
                ));
            }
        }
        let old = self.megabytes;
        self.slots = Vec::new();
        self.generation.store(0, Ordering::Relaxed);
        match allocate(megabytes) {
            Ok(slots) => {
                self.slots = slots;
                self.megabytes = megabytes;
                Ok(())
            }
            Err(error) => {
                (self.slots, self.megabytes) = match allocate(old) {
                    Ok(slots) => (slots, old),
                    Err(_) => (allocate(1).map_err(|again| again.to_string())?, 1),
                };
                Err(format!(
                    "{error}; the table keeps {} MiB, emptied",
                    self.megabytes
                ))
            }
        }
    }

    pub fn clear(&mut self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks a new search, so that entries of older searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 63) as u8
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &Slot {
        // Multiply-shift maps the key onto the table without a division.
        let index = ((key as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let payload = slot.check.load(Ordering::Relaxed) ^ data;
        if (payload ^ key) & KEY_BITS != 0 {
            return None;
        }
        Entry::decode(data, payload as u16)
    }

    /// Stores a result for `key`; `static_eval` is the position's evaluation when known.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        packed_move: u32,
        score: i32,
        depth: i32,
        bound: Bound,
        static_eval: Option<i32>,
    ) {
        let slot = self.slot(key);
        let generation = self.current_generation();
        let old_data = slot.data.load(Ordering::Relaxed);
        let same_key = (slot.check.load(Ordering::Relaxed) ^ old_data ^ key) & KEY_BITS == 0;
        if let Some(old) = Entry::decode(old_data, NO_EVAL) {
            // Keep a deeper entry of this search for another position, and keep the old best
            // move when the new result has none.
            if !same_key && old.generation == generation && old.depth as i32 > depth + 2 {
                return;
            }
            if same_key && bound != Bound::Exact && old.depth as i32 > depth + 3 {
                return;
            }
        }
        let packed_move = if packed_move == 0 && same_key {
            old_data as u32
        } else {
            packed_move
        };
        let entry = Entry {
            packed_move,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            bound,
            static_eval: None,
            generation,
        };
        let data = entry.encode();
        slot.check
            .store(check_word(key, static_eval) ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Per mille of the first thousand slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.current_generation();
        self.slots
            .iter()
            .take(1000)
            .filter_map(|s| Entry::decode(s.data.load(Ordering::Relaxed), NO_EVAL))
            .filter(|e| e.generation == generation)
            .count() as u32
            * 1000
            / self.slots.len().min(1000) as u32
    }
}

/// A zeroed table of `megabytes` MiB (at least 1024 slots), or why not.
fn allocate(megabytes: usize) -> Result<Vec<Slot>, String> {
    let count = (megabytes.max(1).saturating_mul(1024 * 1024) / SLOT_BYTES).max(1024);
    let mut slots = Vec::new();
    slots
        .try_reserve_exact(count)
        .map_err(|_| format!("cannot allocate a {megabytes} MiB hash table"))?;
    slots.extend((0..count).map(|_| Slot {
        check: AtomicU64::new(0),
        data: AtomicU64::new(0),
    }));
    Ok(slots)
}

/// Memory the system can still give, from `/proc/meminfo` (where there is one).
fn available_memory_mib() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_entries() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9ABC_DEF0;
        assert!(tt.probe(key).is_none());
        tt.store(key, 777, -250, 7, Bound::Lower, Some(-31));
        let e = tt.probe(key).unwrap();
        assert_eq!(
            (e.packed_move, e.score, e.depth, e.bound),
            (777, -250, 7, Bound::Lower)
        );
        assert_eq!(e.static_eval, Some(-31));
        assert!(tt.probe(key ^ (1 << 40)).is_none());
        // No evaluation (in check) and one beyond 16 bits read back as unknown.
        tt.store(key, 777, -250, 8, Bound::Lower, None);
        assert_eq!(tt.probe(key).unwrap().static_eval, None);
        tt.store(key, 777, -250, 9, Bound::Lower, Some(40_000));
        assert_eq!(tt.probe(key).unwrap().static_eval, None);
        assert!(tt.hashfull() <= 1000);
    }

    #[test]
    fn the_old_table_counts_as_free_memory_and_a_refusal_keeps_it() {
        let mut tt = TranspositionTable::new(8);
        tt.store(42 << 16, 1, 2, 3, Bound::Exact, None);
        // 4 MiB free plus the 8 MiB table cannot hold 13 MiB: refused, nothing changes.
        assert_eq!(
            tt.resize_within(13, Some(4)),
            Err("Hash 13 MiB is more than the 12 MiB of memory available".into())
        );
        assert_eq!((tt.megabytes(), tt.slots.len()), (8, 8 << 16));
        assert_eq!(tt.probe(42 << 16).unwrap().packed_move, 1);
        // 12 MiB fits once the old table is freed.
        assert_eq!(tt.resize_within(12, Some(4)), Ok(()));
        assert_eq!((tt.megabytes(), tt.slots.len()), (12, 12 << 16));
        assert!(tt.probe(42 << 16).is_none());
    }

    #[test]
    fn a_failed_allocation_keeps_the_size_but_not_the_entries() {
        let mut tt = TranspositionTable::new(2);
        tt.store(42 << 16, 1, 2, 3, Bound::Exact, None);
        let impossible = usize::MAX / (1 << 21);
        let error = tt.resize_within(impossible, None).unwrap_err();
        assert_eq!(
            error,
            format!(
                "cannot allocate a {impossible} MiB hash table; the table keeps 2 MiB, emptied"
            )
        );
        assert_eq!((tt.megabytes(), tt.slots.len()), (2, 2 << 16));
        assert!(tt.probe(42 << 16).is_none());
    }

    #[test]
    fn an_impossible_size_is_refused_and_the_table_kept() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42 << 16, 1, 2, 3, Bound::Exact, None);
        assert!(tt.try_resize(usize::MAX / (1 << 21)).is_err());
        assert_eq!(tt.probe(42 << 16).unwrap().packed_move, 1);
    }
}
