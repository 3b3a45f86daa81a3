//! The health of a loaded library: whether an earlier failure disabled it,
//! and the checks that turn impossible answers into that state.
//!
//! A game plugin and a stand-alone evaluator plugin each carry one. Every
//! answer from a plugin passes through these checks: a reported panic, an
//! unexpected status code, a count beyond [`MAX_MOVES`], a text length that
//! cannot be true or a text without its NUL all disable the library, so a
//! broken plugin costs a search but never the daemon.

use std::ffi::c_char;
use std::sync::atomic::{AtomicBool, Ordering};

use plyd_api::abi;

use crate::error::PluginError;

/// A plugin may list at most this many moves in one position.
pub const MAX_MOVES: usize = 1 << 20;
/// Longest text (position, board, move, explanation) accepted from a plugin.
const MAX_TEXT: usize = 1 << 20;

/// The entries, among those whose status goes through
/// [`Health::status`], that may answer `STATUS_UNSUPPORTED` ("not here"):
/// a stack declining a search, perft left to the host, no terms to
/// explain, no rule to name (for an outcome or a refused move). From any
/// other it disables the plugin.
const MAY_DECLINE: [&str; 5] = [
    "stack_reset",
    "perft",
    "explain",
    "outcome_reason",
    "illegal_reason",
];

/// Whether `text` is one word, as names and moves are on the protocol's
/// lines: not empty, no space, line break or other control character.
pub(crate) fn is_one_word(text: &str) -> bool {
    !text.is_empty() && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Whether a length-or-status return value reports a panic.
pub(crate) fn is_panic(value: i64) -> bool {
    value == i64::from(abi::STATUS_PANIC)
}

/// A reason a plugin wrote into an error buffer the host lent: up to its
/// first NUL, or the whole buffer where the plugin wrote none (a C
/// `strncpy` of a long reason), never past it; trimmed, `None` if empty.
pub(crate) fn buffer_reason(buffer: &[u8]) -> Option<String> {
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    let reason = String::from_utf8_lossy(&buffer[..end]).trim().to_string();
    (!reason.is_empty()).then_some(reason)
}

/// The disabled flag of one library, with the name used in messages.
pub(crate) struct Health {
    /// How messages name the library: `othello`, `evaluator 'weights'`.
    label: String,
    /// What a user can do once it is disabled.
    remedy: &'static str,
    disabled: AtomicBool,
}

impl Health {
    /// A healthy library called `label` in messages.
    pub fn new(label: String, remedy: &'static str) -> Self {
        Health {
            label,
            remedy,
            disabled: AtomicBool::new(false),
        }
    }

    /// The name used in messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Whether an earlier failure disabled the library.
    pub fn is_disabled(&self) -> bool {
        self.disabled.load(Ordering::Relaxed)
    }

    /// An error if the library is disabled.
    pub fn check_enabled(&self) -> Result<(), PluginError> {
        if self.is_disabled() {
            Err(PluginError::Disabled {
                plugin: self.label.clone(),
                remedy: self.remedy,
            })
        } else {
            Ok(())
        }
    }

    /// Disable after a panic in `entry`.
    pub fn panicked(&self, entry: &'static str) -> PluginError {
        self.disabled.store(true, Ordering::Relaxed);
        log::error!("plugin {} panicked in {entry}; disabling it", self.label);
        PluginError::Panicked {
            plugin: self.label.clone(),
            entry,
        }
    }

    /// Disable after a call that did not return in time: the daemon's
    /// watchdog gave up on it. The thread inside the call is left there.
    pub fn unresponsive(&self) {
        self.disabled.store(true, Ordering::Relaxed);
        log::error!(
            "plugin {} did not return from a call; disabling it",
            self.label
        );
    }

    /// Disable after an impossible answer from `entry`.
    pub fn garbage(&self, entry: &'static str, what: String) -> PluginError {
        self.disabled.store(true, Ordering::Relaxed);
        log::error!(
            "plugin {} returned garbage from {entry}: {what}; disabling it",
            self.label
        );
        PluginError::Garbage {
            plugin: self.label.clone(),
            entry,
            what,
        }
    }

    /// Map a status code to a result.
    #[inline]
    pub fn status(&self, entry: &'static str, status: i32) -> Result<(), PluginError> {
        if status == abi::STATUS_OK {
            Ok(())
        } else {
            Err(self.status_error(entry, status))
        }
    }

    /// The error of a status other than `STATUS_OK`, kept out of line so
    /// that the calls made at every node inline only the comparison.
    #[cold]
    #[inline(never)]
    fn status_error(&self, entry: &'static str, status: i32) -> PluginError {
        match status {
            abi::STATUS_PANIC => self.panicked(entry),
            // "Not answered here" is an answer only where the ABI lets an
            // entry decline (the others that may are read before this);
            // elsewhere the plugin left a call the host needs unanswered,
            // and would leave every later one so.
            abi::STATUS_UNSUPPORTED if MAY_DECLINE.contains(&entry) => PluginError::Unsupported {
                plugin: self.label.clone(),
                entry,
            },
            abi::STATUS_UNSUPPORTED => self.garbage(
                entry,
                format!("answered STATUS_UNSUPPORTED, which {entry} may not answer"),
            ),
            abi::STATUS_INVALID => self.garbage(
                entry,
                "answered STATUS_INVALID to a call the host makes only with valid input"
                    .to_string(),
            ),
            other => self.garbage(entry, format!("unexpected status {other}")),
        }
    }

    /// Check a count returned by a list-writing entry point.
    #[inline]
    pub fn count(&self, entry: &'static str, count: i64) -> Result<usize, PluginError> {
        if (0..=MAX_MOVES as i64).contains(&count) {
            Ok(count as usize)
        } else {
            Err(self.count_error(entry, count))
        }
    }

    /// The error of a count out of range, out of line as above.
    #[cold]
    #[inline(never)]
    fn count_error(&self, entry: &'static str, count: i64) -> PluginError {
        if is_panic(count) {
            self.panicked(entry)
        } else {
            self.garbage(entry, format!("count {count} is out of range"))
        }
    }

    /// Call a text-writing entry point, growing the buffer as it asks, and
    /// check what comes back: a plausible length, the NUL where the length
    /// says, UTF-8.
    pub fn read_text(
        &self,
        entry: &'static str,
        mut call: impl FnMut(*mut c_char, usize) -> i64,
    ) -> Result<String, PluginError> {
        let mut buf = vec![0u8; 256];
        // The length the first call claimed, once the buffer was grown to
        // hold it: the same call on the same state must then fit.
        let mut claimed: Option<usize> = None;
        loop {
            // A plugin that writes no NUL must not get the previous call's
            // terminator for free.
            buf.fill(0xff);
            let len = call(buf.as_mut_ptr().cast(), buf.len());
            if is_panic(len) {
                return Err(self.panicked(entry));
            }
            if let Ok(status @ (abi::STATUS_UNSUPPORTED | abi::STATUS_INVALID)) = i32::try_from(len)
            {
                return Err(self.status_error(entry, status));
            }
            if len < 0 || len as usize > MAX_TEXT {
                return Err(self.garbage(entry, format!("text length {len}")));
            }
            let len = len as usize;
            if len < buf.len() {
                if buf[len] != 0 {
                    return Err(self.garbage(entry, "text is not NUL-terminated".to_string()));
                }
                buf.truncate(len);
                return String::from_utf8(buf)
                    .map_err(|_| self.garbage(entry, "text is not UTF-8".to_string()));
            }
            if let Some(first) = claimed {
                return Err(self.garbage(
                    entry,
                    format!("text length {first}, then {len} with room for {first}"),
                ));
            }
            claimed = Some(len);
            buf.resize(len + 1, 0);
        }
    }
}
