//! The plyd plugin boundary.
//!
//! Game rules and evaluation functions live in dynamic libraries that the
//! plyd daemon loads at run time. This crate is the one thing both sides
//! share:
//!
//! * [`abi`]: the `#[repr(C)]` tables of `extern "C"` functions, the version
//!   number and the status codes. This is the contract; `ABI.md` next to this
//!   crate describes it for authors writing in other languages.
//! * [`sdk`]: a safe Rust layer — implement [`Game`] (and optionally
//!   [`Evaluator`]) for your types, call [`export_game!`], and the crate
//!   contains no `unsafe` of its own.
//! * [`pooled`]: per-thread state that outlives the search's threads;
//!   [`hint`]: a prefetch, for plugins' own tables.
//!
//! Only plain data crosses the boundary: integers, pointers to buffers the
//! caller owns together with their capacity, and NUL-terminated UTF-8.

#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod abi;
pub mod hint;
pub mod pooled;
pub mod sdk;

pub use abi::{EvaluatorApi, GameApi, Move, VariantInfo, ABI_VERSION, NULL_MOVE};
pub use sdk::{
    ChanceSink, Evaluator, Game, GameOption, GameOptionKind, Incremental, MoveSink, Outcome,
    SeeAnswer, Shallow, ShallowResult, SolveHost, Variant,
};
