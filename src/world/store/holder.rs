//! The note beside a held world file that says who holds it (`<db>-holder`: one line, the
//! process id, the host and, once the server listens, its address), so that a second server
//! refused by the lock can name the first. The lock itself is SQLite's (`schema::hold`); the
//! note only informs: a note left by a killed server is overwritten by the next holder.

use std::path::{Path, PathBuf};

/// The note's file: the world file's name with `-holder` after it, as SQLite names `-wal`.
pub(super) fn note_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-holder");
    PathBuf::from(name)
}

/// This process as a holder: `pid P on HOST`, then `, listening ADDR` when it listens.
pub(super) fn describe(listening: Option<&str>) -> String {
    let mut text = format!("pid {} on {}", std::process::id(), host_name());
    if let Some(addr) = listening {
        text.push_str(&format!(", listening {addr}"));
    }
    text
}

/// Writes the note (a failure only loses the name a refused server would print).
pub(super) fn write(db: &Path, holder: &str) {
    let _ = std::fs::write(note_path(db), format!("{holder}\n"));
}

/// The holder the note names, if a readable note is there.
pub(super) fn read(db: &Path) -> Option<String> {
    let text = std::fs::read_to_string(note_path(db)).ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty() && line.len() <= 300 && !line.chars().any(char::is_control))
        .then(|| line.to_string())
}

/// Removes the note (the holder lets go of the file).
pub(super) fn remove(db: &Path) {
    let _ = std::fs::remove_file(note_path(db));
}

/// The machine's name, as the kernel or the environment tells it.
fn host_name() -> String {
    let from_file = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .map(|text| text.trim().to_string())
    };
    from_file("/proc/sys/kernel/hostname")
        .or_else(|| from_file("/etc/hostname"))
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .filter(|name| !name.is_empty() && !name.chars().any(char::is_control))
        .unwrap_or_else(|| "this machine".to_string())
}
