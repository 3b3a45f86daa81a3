//! Signal handlers that come before others: handing a signal on to the
//! handler that was there, and ending the process by a signal.

use std::ffi::{c_int, c_void};

/// Call the handler `before` describes (what `sigaction` gave back when a
/// handler was put in front of it) with the signal being handled;
/// `false`, calling nothing, where it was the default action or ignored.
///
/// # Safety
/// `before` is what `sigaction` returned for `signal`; `info` and
/// `context` are those the kernel passed to the handler calling this.
pub unsafe fn call_before(
    before: &libc::sigaction,
    signal: c_int,
    info: *mut libc::siginfo_t,
    context: *mut c_void,
) -> bool {
    let handler = before.sa_sigaction;
    if handler == libc::SIG_DFL || handler == libc::SIG_IGN {
        return false;
    }
    // SAFETY: a handler installed with SA_SIGINFO has the three-argument
    // signature, one without it the one-argument one.
    unsafe {
        if before.sa_flags & libc::SA_SIGINFO != 0 {
            let call: extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) =
                std::mem::transmute(handler);
            call(signal, info, context);
        } else {
            let call: extern "C" fn(c_int) = std::mem::transmute(handler);
            call(signal);
        }
    }
    true
}

/// End the process by `signal`: its default action restored, then raised
/// (a signal whose default action ends the process).
pub fn end_by(signal: c_int) {
    // SAFETY: signal(2) and raise(3), both async-signal-safe.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}
