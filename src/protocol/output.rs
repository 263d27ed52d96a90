//! Where a session's replies go: one writer shared by the read loop and a search thread.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

/// The output, shared with the search thread. Every batch of lines is flushed at once: GUIs
/// read pipes.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    pub fn lines<S: AsRef<str>>(&self, lines: impl IntoIterator<Item = S>) -> io::Result<()> {
        // A poisoned lock only means a writer panicked mid-line; the stream is still usable.
        let mut writer = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for line in lines {
            writer.write_all(line.as_ref().as_bytes())?;
            writer.write_all(b"\n")?;
        }
        writer.flush()
    }

    pub fn line(&self, line: &str) -> io::Result<()> {
        self.lines([line])
    }

    /// An `info string error: ...` line.
    pub fn error(&self, text: &str) -> io::Result<()> {
        self.line(&super::print::error_line(text))
    }
}

/// A writer that a test keeps a handle on after a session has taken it.
#[cfg(test)]
#[derive(Clone, Default)]
pub(crate) struct Captured(Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
impl Captured {
    /// Everything written so far, line by line.
    pub(crate) fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }
}
