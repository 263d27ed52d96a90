//! What the search threads learn that outlasts one search: the move histories and the
//! evaluation corrections. The engine keeps them from one move of a game to the next, as it
//! keeps the transposition table, and forgets them with it (`ucinewgame`, a new variant).

use super::correction::Correction;
use super::history::History;
use std::sync::Mutex;

/// One search thread's learnt tables.
#[derive(Default)]
pub(super) struct ThreadMemory {
    pub history: Box<History>,
    pub correction: Box<Correction>,
}

/// The learnt tables of every search thread, by thread number.
#[derive(Default)]
pub struct SearchMemory {
    threads: Mutex<Vec<Option<ThreadMemory>>>,
}

impl SearchMemory {
    /// Forgets everything learnt.
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Forgets everything learnt but keeps the tables' memory, zeroed, for the next search: a
    /// new game costs no fresh pages (datagen starts thousands of games on one memory).
    pub fn reset(&self) {
        for memory in self.lock().iter_mut().flatten() {
            memory.history.clear();
            memory.correction.clear();
        }
    }

    /// Thread `id`'s tables, empty the first time.
    pub(super) fn take(&self, id: usize) -> ThreadMemory {
        self.lock()
            .get_mut(id)
            .and_then(Option::take)
            .unwrap_or_default()
    }

    /// Keeps thread `id`'s tables for the next search.
    pub(super) fn keep(&self, id: usize, memory: ThreadMemory) {
        let mut threads = self.lock();
        if threads.len() <= id {
            threads.resize_with(id + 1, || None);
        }
        threads[id] = Some(memory);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<ThreadMemory>>> {
        // A poisoned lock only means a search panicked; the tables are still usable.
        self.threads
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::super::correction::CorrectionKeys;
    use super::*;

    #[test]
    fn tables_come_back_until_cleared() {
        let memory = SearchMemory::default();
        let mut first = memory.take(1);
        let keys = CorrectionKeys {
            pawns: 7,
            pieces: None,
        };
        first
            .correction
            .learn(crate::rules::Color::White, keys, 50, 10);
        memory.keep(1, first);
        let again = memory.take(1);
        assert!(again.correction.get(crate::rules::Color::White, keys) > 0);
        memory.keep(1, again);
        memory.reset();
        let reset = memory.take(1);
        assert_eq!(reset.correction.get(crate::rules::Color::White, keys), 0);
        memory.keep(1, reset);
        memory.clear();
        assert_eq!(
            memory
                .take(1)
                .correction
                .get(crate::rules::Color::White, keys),
            0
        );
    }
}
