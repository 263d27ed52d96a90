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

/// Linux's `SCHED_IDLE` policy.
const SCHED_IDLE: std::ffi::c_int = 5;

/// `struct sched_param`: the static priority, 0 for `SCHED_IDLE`.
#[repr(C)]
struct SchedParam {
    sched_priority: std::ffi::c_int,
}

extern "C" {
    /// glibc's `sched_setscheduler(2)`; pid 0 is the calling thread.
    fn sched_setscheduler(
        pid: std::ffi::c_int,
        policy: std::ffi::c_int,
        param: *const SchedParam,
    ) -> std::ffi::c_int;
}

/// Lets the calling thread (and the threads it starts from now on) run only when a core would
/// otherwise be idle: `SCHED_IDLE`, below every nice level; if the system refuses, the lowest
/// nice level instead.
pub fn idle_this_thread() {
    let param = SchedParam { sched_priority: 0 };
    // SAFETY: sched_setscheduler(2) reads the one `sched_param` passed, which lives until the
    // call returns, and changes only the calling thread's scheduling policy.
    if unsafe { sched_setscheduler(0, SCHED_IDLE, &param) } != 0 {
        lower_this_thread(19);
    }
}
