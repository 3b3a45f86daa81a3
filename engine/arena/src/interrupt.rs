//! Ctrl-C (SIGINT), SIGTERM and SIGHUP during a match.
//!
//! The first signal cancels the match: no new game starts, and the games in
//! progress end at once — their engines are killed and the games are neither
//! scored nor written. The main thread then writes what it holds and prints
//! the table of the finished games. A second signal exits at once with the
//! same status, for a match that does not stop quickly enough.
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
    let installed = ctrlc::set_handler(move || {
        let mut stderr = std::io::stderr();
        if sender.take().is_some() {
            let _ = writeln!(
                stderr,
                "plyd arena: interrupted: ending the games in progress (again to quit at once)"
            );
        } else {
            let _ = writeln!(stderr, "plyd arena: interrupted again: quitting at once");
            std::process::exit(i32::from(INTERRUPTED_STATUS));
        }
    });
    match installed {
        Ok(()) => Cancel(rx),
        Err(e) => {
            log::warn!("no Ctrl-C handler: {e}");
            Cancel::never()
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
