//! Ctrl-C (SIGINT), SIGTERM and SIGHUP during a match.
//!
//! The first signal cancels the match: no new game starts, and the games in
//! progress end at once — their engines are killed and the games are neither
//! scored nor written. The main thread then writes what it holds and prints
//! the table of the finished games. A second signal exits at once with the
//! same status, for a match that does not stop quickly enough.
//!
//! When the match has stopped, the arena ends by the signal it was sent
//! ([`end_by_the_signal`]), as a program that cleans up after Ctrl-C
//! should: a shell running matches in a loop stops at Ctrl-C, where an
//! ordinary exit with status 130 told it the arena had handled the signal
//! and it went on to the next match.
//!
//! The handler (from the `ctrlc` crate, on its own thread) holds the only
//! sender of a channel that carries nothing; dropping it disconnects every
//! [`Cancel`] cloned from the receiver, so a thread blocked waiting for an
//! engine's answer can wait on the cancel channel too and wake at once.

use std::io::Write;

use crossbeam_channel::{bounded, never, Receiver, TryRecvError};

/// The exit status of a match ended by Ctrl-C or SIGTERM (128 + SIGINT, as
/// shells report a process ended by Ctrl-C).
pub const INTERRUPTED_STATUS: u8 = 130;

/// A second signal this soon after the first is the same one, arriving
/// twice (the terminal's to the process group, and a parent's such as
/// `timeout`, which passes it on): it does not quit at once.
const SAME_INTERRUPT: std::time::Duration = std::time::Duration::from_millis(500);

/// Whether the match has been told to stop, shared by every thread that
/// waits on an engine.
#[derive(Debug, Clone)]
pub struct Cancel(Receiver<()>);

impl Cancel {
    /// A cancel that never fires (unit tests, or no signal handler).
    pub fn never() -> Self {
        Cancel(never())
    }

    /// Whether the match has been interrupted.
    pub fn is_set(&self) -> bool {
        matches!(self.0.try_recv(), Err(TryRecvError::Disconnected))
    }

    /// A receiver that becomes ready (disconnected) when the match is
    /// interrupted, to wait on beside another channel.
    pub fn receiver(&self) -> &Receiver<()> {
        &self.0
    }
}

/// Install the handler for Ctrl-C, SIGTERM and SIGHUP and return the cancel it
/// sets. Only one handler can be installed in a process; if that fails, the
/// match runs without one (a signal then ends the process as it would any
/// program) and a warning says so.
pub fn install() -> Cancel {
    let (tx, rx) = bounded::<()>(0);
    let mut sender = Some(tx);
    let mut first: Option<std::time::Instant> = None;
    let installed = ctrlc::set_handler(move || {
        let mut stderr = std::io::stderr();
        if sender.take().is_some() {
            first = Some(std::time::Instant::now());
            let _ = writeln!(
                stderr,
                "plyd arena: interrupted: ending the games in progress (again to quit at once)"
            );
        } else if first.is_some_and(|t| t.elapsed() < SAME_INTERRUPT) {
            // One Ctrl-C seen twice: sent to the process group and passed
            // on by a parent (`timeout`, a supervisor) as well.
        } else {
            let _ = writeln!(stderr, "plyd arena: interrupted again: quitting at once");
            end_by_the_signal();
            std::process::exit(i32::from(INTERRUPTED_STATUS));
        }
    });
    match installed {
        Ok(()) => {
            note_the_signal();
            Cancel(rx)
        }
        Err(e) => {
            log::warn!("no Ctrl-C handler: {e}");
            Cancel::never()
        }
    }
}

/// The signal that interrupted the match (0: none yet).
#[cfg(unix)]
static RECEIVED: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// The signals the handler takes.
#[cfg(unix)]
const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The handlers `ctrlc` put on [`SIGNALS`], which [`noted`] calls after
/// noting which came.
#[cfg(unix)]
static mut BEFORE: [std::mem::MaybeUninit<libc::sigaction>; 3] =
    [std::mem::MaybeUninit::zeroed(); 3];

#[cfg(unix)]
extern "C" fn noted(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    RECEIVED.store(signal, std::sync::atomic::Ordering::Relaxed);
    let Some(index) = SIGNALS.iter().position(|&s| s == signal) else {
        return;
    };
    // SAFETY: BEFORE holds what sigaction gave back when `noted` was put
    // on, before any signal could call it; info and context the kernel's.
    unsafe {
        let before = (*std::ptr::addr_of!(BEFORE))[index].assume_init_ref();
        plyd_util::signals::call_before(before, signal, info, context);
    }
}

/// Put [`noted`] before the handlers `ctrlc` has put on, so that the
/// arena knows which signal stopped it.
#[cfg(unix)]
fn note_the_signal() {
    for (i, &signal) in SIGNALS.iter().enumerate() {
        // SAFETY: a zeroed sigaction is valid; `noted` has the signature
        // SA_SIGINFO asks; BEFORE is written here, once, before `noted`
        // is on.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = noted as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            let before = (*std::ptr::addr_of_mut!(BEFORE))[i].as_mut_ptr();
            libc::sigaction(signal, &action, before);
        }
    }
}

#[cfg(not(unix))]
fn note_the_signal() {}

/// End the process by the signal that interrupted the match, its default
/// action now (a shell then sees the arena killed by Ctrl-C, `$?` 130 for
/// SIGINT, 143 for SIGTERM); returns where none was noted, or on a system
/// without signals, for the caller to exit with [`INTERRUPTED_STATUS`].
pub fn end_by_the_signal() {
    #[cfg(unix)]
    {
        let signal = RECEIVED.load(std::sync::atomic::Ordering::Relaxed);
        if signal != 0 {
            let _ = std::io::stdout().flush();
            let _ = std::io::stderr().flush();
            plyd_util::signals::end_by(signal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_the_sender_cancels_every_clone() {
        let (tx, rx) = bounded::<()>(0);
        let cancel = Cancel(rx);
        let clone = cancel.clone();
        assert!(!cancel.is_set());
        drop(tx);
        assert!(cancel.is_set() && clone.is_set());
        assert!(clone.receiver().recv().is_err());
        assert!(!Cancel::never().is_set());
    }
}
