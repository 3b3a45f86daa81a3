//! Small utilities shared by plyd's crates, so that the search and the
//! arena can both use them without either depending on the other.
//!
//! * [`rng`] — a seeded SplitMix64 generator, behind the arena's openings
//!   and chance outcomes and the bench's random positions.
//! * [`files`] — reading a file a user names, refusing devices, FIFOs and
//!   files past a size.
//! * [`output`] — stdout kept for the daemon's and the tools' own output,
//!   out of reach of what plugins print.
//! * `signals` (Unix) — handing a signal on to the handler before, and
//!   ending the process by a signal.
//! * [`text`] — text fit for one line whatever it quotes: control
//!   characters escaped, quotations and the whole cut to a length.

#![warn(missing_docs)]

pub mod files;
pub mod output;
pub mod rng;
#[cfg(unix)]
pub mod signals;
pub mod text;
