//! The note beside a held world file that says who holds it (`<db>-holder`: one line, the
//! process id, the host and, once the server listens, its address), so that a second server
//! refused by the lock can name the first. The lock itself is SQLite's (`schema::hold`); the
//! note only informs: a note left by a killed server is overwritten by the next holder.

use std::path::{Path, PathBuf};

/// The note's file: the world file's name with `-holder` after it, as SQLite names `-wal`.
pub(in crate::world::store) fn note_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-holder");
    PathBuf::from(name)
}

/// Writes the note (a failure only loses the name a refused server would print).
pub(super) fn write(db: &Path, holder: &str) {
    let _ = std::fs::write(note_path(db), format!("{holder}\n"));
}

/// The holder the note names, if a readable note is there.
pub(super) fn read(db: &Path) -> Option<String> {
    super::super::readable_holder(&std::fs::read_to_string(note_path(db)).ok()?)
}

/// Removes the note (the holder lets go of the file).
pub(super) fn remove(db: &Path) {
    let _ = std::fs::remove_file(note_path(db));
}
