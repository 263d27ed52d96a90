//! Scheduling priority: a thread that may wait lowers its own, so that the threads that must
//! not wait (a world server's turn loop) get the cores first on a busy machine.

extern "C" {
    /// glibc's `nice(3)`: on Linux it changes the calling thread's priority, which the
    /// threads it starts afterwards inherit.
    fn nice(increment: std::ffi::c_int) -> std::ffi::c_int;
}

/// Lowers the priority of the calling thread, and of the threads it starts from now on, by
/// `increment` (0: unchanged). A refusal (never expected when lowering) changes nothing.
pub fn lower_this_thread(increment: i32) {
    if increment > 0 {
        // SAFETY: nice(3) takes a plain integer and changes only the scheduling priority of
        // the calling thread; it reads and writes no memory of this program.
        unsafe {
            nice(increment);
        }
    }
}
