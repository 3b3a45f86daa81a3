//! plyd: a game-engine daemon that speaks a UCI-style protocol on
//! stdin/stdout and loads game rules and evaluators from plugins.
//!
//! * [`host`] loads plugin libraries and wraps them in safe handles (the
//!   `plyd-host` crate, re-exported under this name).
//! * [`search`] is the game-agnostic search.
//! * [`perft`] counts move-generation trees through the plugin boundary.
//! * [`daemon`] runs the protocol loop.
//! * [`options`] holds settings, option declarations and the config file.
//! * [`replay`] reads community game records back into `position` lines.
//! * [`analysis`] searches a record's positions for its mistakes.
//! * [`threads`] keeps the threads of a job, to demote one left stuck.
//!
//! `plyd arena` lives in the `plyd-arena` crate, which the `plyd` binary
//! calls; it depends on the host, not on this library.

#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub use plyd_host as host;

pub mod analysis;
pub mod book;
pub mod check;
pub mod daemon;
pub mod logpipe;
pub mod memory;
pub mod options;
pub mod perft;
pub mod replay;
pub mod search;
pub mod threads;

/// The most bytes a parameter or configuration file may have: far past
/// any real one (Othello's largest is a few KiB; its weights, a file of
/// their own, are read by the plugin).
pub const PARAMS_FILE_LIMIT: u64 = 16 << 20;
/// The most bytes a book file may have: a book held takes about eight
/// times its file's size in memory (a book of 426 MB took 3 GB), and the
/// largest plyd builds are a few megabytes.
pub const BOOK_FILE_LIMIT: u64 = 256 << 20;
/// The most bytes a record or position file read whole may have.
pub const RECORD_FILE_LIMIT: u64 = 256 << 20;

/// `n` things in words, the noun as the count asks: `1 game`, `3 games`,
/// `1 ply`, `9 plies`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
