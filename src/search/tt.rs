//! The transposition table, shared by every search thread without locks.
//!
//! The table is made of buckets of four slots, one cache line each: a position may sit in any
//! slot of its bucket, so a collision evicts the bucket's least useful entry (shallow, or from an
//! older search) rather than whatever held the one slot. Each slot is two atomics: the check
//! word and the data. The check word is the key's upper 48
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

impl Slot {
    /// The slot's entry if it holds `key`.
    #[inline(always)]
    fn entry_for(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let payload = self.check.load(Ordering::Relaxed) ^ data;
        if (payload ^ key) & KEY_BITS != 0 {
            return None;
        }
        Entry::decode(data, payload as u16)
    }
}

const BUCKET_SLOTS: usize = 4;

/// Four slots on one cache line, so that a probe reads one line from memory.
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; BUCKET_SLOTS],
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU64,
    /// The size asked for, in MiB.
    megabytes: usize,
}

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

impl TranspositionTable {
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut table = TranspositionTable {
            buckets: Vec::new(),
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
        self.buckets = Vec::new();
        self.generation.store(0, Ordering::Relaxed);
        match allocate(megabytes) {
            Ok(buckets) => {
                self.buckets = buckets;
                self.megabytes = megabytes;
                Ok(())
            }
            Err(error) => {
                (self.buckets, self.megabytes) = match allocate(old) {
                    Ok(buckets) => (buckets, old),
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
        for slot in self.buckets.iter().flat_map(|bucket| &bucket.slots) {
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
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the table without a division.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the processor to start loading `key`'s bucket, so that the probe that follows a
    /// little later finds it in the cache.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let address = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint: it reads nothing into the program and cannot
            // fault, and the address is that of a bucket the table owns.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(address) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key)
            .slots
            .iter()
            .find_map(|slot| slot.entry_for(key))
    }

    /// Stores a result for `key`; `static_eval` is the position's evaluation when known. The
    /// key's own slot is updated if the bucket has one; otherwise the entry replaces the
    /// bucket's least useful one: an empty slot first, then the shallowest counting each search
    /// of age as eight plies.
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
        let generation = self.current_generation();
        let slots = &self.bucket(key).slots;
        let (slot, old) = match slots
            .iter()
            .find_map(|slot| slot.entry_for(key).map(|entry| (slot, entry)))
        {
            Some((slot, old)) => {
                // Keep a much deeper bound of this position, and its best move when the new
                // result has none.
                if bound != Bound::Exact && old.depth as i32 > depth + 3 {
                    return;
                }
                (slot, Some(old))
            }
            None => (Self::victim(slots, generation), None),
        };
        let packed_move = match old {
            Some(old) if packed_move == 0 => old.packed_move,
            _ => packed_move,
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

    /// The slot of a bucket that a new position takes: an empty one, else the one whose depth
    /// less eight plies per search of age is the least.
    #[inline(always)]
    fn victim(slots: &[Slot; BUCKET_SLOTS], generation: u8) -> &Slot {
        let worth = |slot: &Slot| match Entry::decode(slot.data.load(Ordering::Relaxed), NO_EVAL) {
            None => i32::MIN,
            Some(entry) => {
                let age = generation.wrapping_sub(entry.generation) & 63;
                entry.depth as i32 - 8 * age as i32
            }
        };
        slots
            .iter()
            .min_by_key(|slot| worth(slot))
            .expect("a bucket has slots")
    }

    /// Per mille of the first thousand slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.current_generation();
        let sample = self
            .buckets
            .iter()
            .take(1000 / BUCKET_SLOTS)
            .flat_map(|bucket| &bucket.slots);
        let (mut used, mut seen) = (0, 0);
        for slot in sample {
            seen += 1;
            let entry = Entry::decode(slot.data.load(Ordering::Relaxed), NO_EVAL);
            used += entry.is_some_and(|e| e.generation == generation) as u32;
        }
        used * 1000 / seen
    }
}

/// A zeroed table of `megabytes` MiB (at least 256 buckets), or why not.
fn allocate(megabytes: usize) -> Result<Vec<Bucket>, String> {
    let count = (megabytes.max(1).saturating_mul(1024 * 1024) / BUCKET_BYTES).max(256);
    let mut buckets = Vec::new();
    buckets
        .try_reserve_exact(count)
        .map_err(|_| format!("cannot allocate a {megabytes} MiB hash table"))?;
    buckets.extend((0..count).map(|_| Bucket {
        slots: std::array::from_fn(|_| Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }),
    }));
    Ok(buckets)
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
    fn a_full_bucket_gives_up_its_shallowest_or_oldest_entry() {
        let tt = TranspositionTable::new(1);
        // Keys that differ only below the index's bits share a bucket.
        let key = |i: u64| 0xABCD_0000_0000_0000 | i << 16;
        assert_eq!(
            tt.bucket(key(1)) as *const Bucket,
            tt.bucket(key(9)) as *const Bucket
        );
        for (i, depth) in [(1, 9), (2, 3), (3, 7), (4, 5)] {
            tt.store(key(i), i as u32, 0, depth, Bound::Exact, None);
        }
        // A fifth position evicts the shallowest (depth 3); the others stay.
        tt.store(key(5), 5, 0, 1, Bound::Exact, None);
        let kept = |i| tt.probe(key(i)).map(|e| e.packed_move);
        assert_eq!(
            [1, 2, 3, 4, 5].map(kept),
            [Some(1), None, Some(3), Some(4), Some(5)]
        );
        // A search later, an old deep entry counts for less than a fresh shallow one.
        tt.new_search();
        tt.store(key(6), 6, 0, 2, Bound::Exact, None);
        assert_eq!(kept(5), None, "depth 1 of the old search goes first");
        tt.store(key(7), 7, 0, 2, Bound::Exact, None);
        assert_eq!(kept(4), None, "then depth 5 of the old search");
        assert_eq!([1, 3, 6, 7].map(kept), [Some(1), Some(3), Some(6), Some(7)]);
        // Storing a position again updates its own slot and keeps its move if it has none.
        tt.store(key(6), 0, 10, 4, Bound::Lower, None);
        let entry = tt.probe(key(6)).unwrap();
        assert_eq!((entry.packed_move, entry.depth), (6, 4));
        assert_eq!([1, 3, 7].map(kept), [Some(1), Some(3), Some(7)]);
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
        assert_eq!(
            (tt.megabytes(), tt.buckets.len() * BUCKET_SLOTS),
            (8, 8 << 16)
        );
        assert_eq!(tt.probe(42 << 16).unwrap().packed_move, 1);
        // 12 MiB fits once the old table is freed.
        assert_eq!(tt.resize_within(12, Some(4)), Ok(()));
        assert_eq!(
            (tt.megabytes(), tt.buckets.len() * BUCKET_SLOTS),
            (12, 12 << 16)
        );
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
        assert_eq!(
            (tt.megabytes(), tt.buckets.len() * BUCKET_SLOTS),
            (2, 2 << 16)
        );
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
