//! plyd: a game-engine daemon that speaks a UCI-style protocol on
//! stdin/stdout and loads game rules and evaluators from plugins.
//!
//! * [`host`] loads plugin libraries and wraps them in safe handles.
//! * [`search`] is the game-agnostic search.
//! * [`perft`] counts move-generation trees through the plugin boundary.
//! * [`daemon`] runs the protocol loop.
//! * [`options`] holds settings, option declarations and the config file.
//! * [`arena`] plays matches between engines (`plyd arena`).

#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod arena;
pub mod daemon;
pub mod host;
pub mod options;
pub mod perft;
pub mod search;
