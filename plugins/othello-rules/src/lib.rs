//! The rules of Othello for plyd: bitboard move generation, position and
//! move text, and the state type [`Othello`] that the host holds.
//!
//! * [`board`]: bitboard move generation and flips, the hot loop.
//! * [`perft`]: a native perft over bare bitboards.
//! * [`endgame`]: the exact endgame solver.
//! * [`text`]: position and move text.
//! * [`game`]: the state the host holds and its [`plyd_api::Game`]
//!   implementation.
//!
//! Squares are numbered `row * 8 + file` with `a1` the top-left square and
//! rows counted downwards; a move is that number, and 64 is the pass.
//!
//! # Why this is its own crate
//!
//! The game plugin (`plyd-game-othello`) exports the C entry point
//! `plyd_game_api`. An evaluator plugin needs the Othello state type, and if
//! it depended on the plugin crate, the plugin's `#[no_mangle]` entry point
//! would be linked into the evaluator library as well (and clash with any
//! test plugin defining its own). A cargo feature that leaves the export out
//! would not help inside this workspace: cargo unifies features, so one crate
//! asking for the export turns it on for every crate built with it. Keeping
//! the rules here, with no export at all, leaves no symbol to leak.
//!
//! # State layout 1 (the contract with evaluator plugins)
//!
//! An evaluator plugin is handed the same `const State *` the game plugin
//! created. For Othello that pointer points to an [`Othello`], which is
//! `#[repr(C)]` and starts with a `#[repr(C)]` [`board::Position`]:
//!
//! ```c
//! struct othello_state_v1 {      /* the prefix only; the rest is private */
//!     uint64_t black;            /* offset 0: bit (row * 8 + file), a1 = bit 0 */
//!     uint64_t white;            /* offset 8 */
//!     uint8_t  side;             /* offset 16: 0 Black to move, 1 White */
//! };
//! ```
//!
//! Rust evaluators read it through this crate's [`Othello::position`]; C
//! evaluators through the struct above. Nothing after `side` is part of the
//! contract. The game plugin declares [`game::STATE_LAYOUT`] (1) and the host
//! refuses an evaluator built for any other layout; a change to the prefix
//! must bump that number.

// The rules are safe Rust; unsafe code belongs to the host and the ABI crate.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod endgame;
pub mod game;
pub mod perft;
pub mod shallow;
pub mod testing;
pub mod text;

pub use board::PASS;
pub use game::{Othello, STATE_LAYOUT};
