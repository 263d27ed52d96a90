//! One inbox for every line of every engine of a worker: each transport's reader sends its lines
//! here tagged with its [`Source`] and the time they were read. A referee seats sources for a
//! session and then waits either on one seat (a turn game asks one engine at a time) or on
//! whichever seat speaks first (games without turns). Lines of other sources that arrive during
//! a wait are kept, in order, for their own turn.

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Which transport a line came from; unique for the life of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source(usize);

/// One line as a reader thread sends it: `None` at the end of the engine's output.
#[derive(Debug)]
pub struct Envelope {
    pub source: Source,
    pub at: Instant,
    pub text: Option<String>,
}

/// A line of a seated engine, as a referee sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrival {
    pub seat: usize,
    pub at: Instant,
    /// `None`: the engine closed its output (it exited or crashed).
    pub line: Option<String>,
}

/// Why a wait ended without a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitError {
    Timeout,
    /// The engine closed its output.
    Closed,
    /// The tournament is stopping.
    Cancelled,
}

/// The slice of a long wait after which the cancel flag is checked again.
const POLL: Duration = Duration::from_millis(50);

/// The sending end of an [`Inbox`], for a transport's reader.
#[derive(Clone)]
pub struct Mailbox {
    pub source: Source,
    sender: Sender<Envelope>,
}

impl Mailbox {
    /// Posts one line (or the end of output, `None`) read now; false once the inbox is gone.
    pub fn post(&self, text: Option<String>) -> bool {
        let envelope = Envelope {
            source: self.source,
            at: Instant::now(),
            text,
        };
        self.sender.send(envelope).is_ok()
    }
}

pub struct Inbox {
    sender: Sender<Envelope>,
    receiver: Receiver<Envelope>,
    /// Lines received while waiting for another source, oldest first.
    pending: VecDeque<Envelope>,
    /// Sources whose lines are kept; lines of forgotten sources (engines that were stopped) are
    /// dropped.
    live: HashSet<Source>,
    /// The sources of the current session, by seat.
    seats: Vec<Source>,
}

impl Default for Inbox {
    fn default() -> Inbox {
        Inbox::new()
    }
}

impl Inbox {
    pub fn new() -> Inbox {
        let (sender, receiver) = mpsc::channel();
        Inbox {
            sender,
            receiver,
            pending: VecDeque::new(),
            live: HashSet::new(),
            seats: Vec::new(),
        }
    }

    /// A new source and the mailbox its reader posts to.
    pub fn connect(&mut self) -> Mailbox {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let source = Source(NEXT.fetch_add(1, Ordering::Relaxed));
        self.live.insert(source);
        Mailbox {
            source,
            sender: self.sender.clone(),
        }
    }

    /// Drops a stopped engine's lines, now and from now on.
    pub fn forget(&mut self, source: Source) {
        self.live.remove(&source);
        self.pending.retain(|envelope| envelope.source != source);
    }

    /// Seats the sources of a session: `sources[i]` is seat `i`.
    pub fn seat(&mut self, sources: &[Source]) {
        self.seats = sources.to_vec();
    }

    fn seat_of(&self, source: Source) -> Option<usize> {
        self.seats.iter().position(|&seated| seated == source)
    }

    /// Receives one envelope before `deadline`, keeping it only if its source is live.
    fn receive(
        &mut self,
        deadline: Instant,
        cancel: Option<&AtomicBool>,
    ) -> Result<Option<Envelope>, WaitError> {
        if cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Err(WaitError::Cancelled);
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(WaitError::Timeout);
        }
        match self.receiver.recv_timeout((deadline - now).min(POLL)) {
            Ok(envelope) if self.live.contains(&envelope.source) => Ok(Some(envelope)),
            Ok(_) | Err(RecvTimeoutError::Timeout) => Ok(None),
            // The inbox holds a sender itself, so this cannot happen.
            Err(RecvTimeoutError::Disconnected) => Err(WaitError::Closed),
        }
    }

    /// The next line of `source` before `deadline`, with the time it was read.
    pub fn next_from(
        &mut self,
        source: Source,
        deadline: Instant,
        cancel: Option<&AtomicBool>,
    ) -> Result<(Instant, String), WaitError> {
        let found = self.pending.iter().position(|e| e.source == source);
        let mut envelope = found.and_then(|index| self.pending.remove(index));
        while envelope.is_none() {
            match self.receive(deadline, cancel)? {
                Some(e) if e.source == source => envelope = Some(e),
                Some(other) => self.pending.push_back(other),
                None => {}
            }
        }
        match envelope.and_then(|e| e.text.map(|text| (e.at, text))) {
            Some(line) => Ok(line),
            None => Err(WaitError::Closed),
        }
    }

    /// The next line of any seated engine before `deadline`: whoever speaks first.
    pub fn next_any(
        &mut self,
        deadline: Instant,
        cancel: Option<&AtomicBool>,
    ) -> Result<Arrival, WaitError> {
        loop {
            let found = self
                .pending
                .iter()
                .position(|e| self.seat_of(e.source).is_some());
            let envelope = match found {
                Some(index) => self.pending.remove(index),
                None => self.receive(deadline, cancel)?,
            };
            let Some(envelope) = envelope else { continue };
            match self.seat_of(envelope.source) {
                Some(seat) => {
                    return Ok(Arrival {
                        seat,
                        at: envelope.at,
                        line: envelope.text,
                    })
                }
                None => self.pending.push_back(envelope),
            }
        }
    }

    /// Drops the lines of `source` received so far; `Closed` if its output has ended.
    pub fn drain(&mut self, source: Source) -> Result<(), WaitError> {
        while let Ok(envelope) = self.receiver.try_recv() {
            if self.live.contains(&envelope.source) {
                self.pending.push_back(envelope);
            }
        }
        let mut closed = false;
        self.pending.retain(|envelope| {
            let own = envelope.source == source;
            closed |= own && envelope.text.is_none();
            !own
        });
        if closed {
            Err(WaitError::Closed)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_wait_for_their_own_source_and_the_first_speaker_wins() {
        let mut inbox = Inbox::new();
        let (a, b) = (inbox.connect(), inbox.connect());
        inbox.seat(&[a.source, b.source]);
        a.post(Some("a1".into()));
        b.post(Some("b1".into()));
        a.post(Some("a2".into()));
        let soon = || Instant::now() + Duration::from_millis(200);
        // Waiting on b keeps a's lines for later, in order.
        assert_eq!(inbox.next_from(b.source, soon(), None).unwrap().1, "b1");
        let first = inbox.next_any(soon(), None).unwrap();
        assert_eq!((first.seat, first.line.as_deref()), (0, Some("a1")));
        assert_eq!(inbox.next_from(a.source, soon(), None).unwrap().1, "a2");
        assert_eq!(
            inbox.next_from(a.source, soon(), None),
            Err(WaitError::Timeout)
        );
        b.post(None);
        assert_eq!(inbox.drain(b.source), Err(WaitError::Closed));
        // A forgotten source's lines are dropped.
        inbox.forget(a.source);
        a.post(Some("late".into()));
        assert_eq!(inbox.next_any(soon(), None), Err(WaitError::Timeout));
        let cancel = AtomicBool::new(true);
        assert_eq!(
            inbox.next_any(soon(), Some(&cancel)),
            Err(WaitError::Cancelled)
        );
    }
}
