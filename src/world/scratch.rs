//! A folder of its own for each world test's files, removed at the end (tests only).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty folder named after `name`, the process and a counter, so that tests
    /// running side by side never share one.
    pub fn new(name: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "roger-world-{name}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A file in the folder.
    pub fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Where a test's world database goes.
    pub fn db(&self) -> PathBuf {
        self.file("world.sqlite")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
