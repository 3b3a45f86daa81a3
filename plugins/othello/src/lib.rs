//! Othello for plyd, as a dynamic plugin: the rules on bitboards and the
//! `seed004` evaluator.
//!
//! * [`board`]: bitboard move generation and flips, the hot loop.
//! * [`perft`]: a native perft over bare bitboards.
//! * [`text`]: position and move text.
//! * [`game`]: the state the host holds and its [`plyd_api::Game`]
//!   implementation.
//! * [`seed004`]: the evaluator.
//!
//! Squares are numbered `row * 8 + file` with `a1` the top-left square and
//! rows counted downwards; a move is that number, and 64 is the pass.

// The game crate writes no unsafe code. Not `forbid`: the export macro's
// `#[no_mangle]` counts as unsafe code for this lint, and only `deny` could
// be lifted for that one item should rustc start reporting it (today it
// skips code expanded from another crate's macro).
#![deny(unsafe_code)]

pub mod board;
pub mod game;
pub mod perft;
pub mod seed004;
pub mod text;

pub use board::PASS;
pub use game::Othello;
pub use seed004::Seed004;

plyd_api::export_game!(Othello, evaluators = [Seed004]);
