//! The rules of the Game of the Amazons for plyd, on any square board from
//! 4x4 to 10x10: move generation on 128-bit bitboards, distance floods for
//! evaluators, position and move text, and the state type [`Amazons`] that
//! the host holds.
//!
//! * [`board`]: the bitboard position, legal moves, make/unmake.
//! * [`flood`]: queen- and king-move distance maps of each side, computed
//!   as bitboard floods (what territory evaluations are built from).
//! * [`text`]: position text (Fairy-Stockfish's Amazons FEN), move text,
//!   the board picture.
//! * [`game`]: the state the host holds and its [`plyd_api::Game`]
//!   implementation, with the ordering hints and the selective mode.
//! * [`perft`]: a native perft.
//!
//! This crate exports no plugin entry point, so that evaluator plugins can
//! link it (see `plyd-othello-rules` for why).
//!
//! # Squares and bitboards
//!
//! A board of side `n` is stored with one padding column: square (file `f`,
//! rank `r`), both from 0, is bit `r * (n + 1) + f` of a `u128`. A move is
//! `from | to << 8 | arrow << 16` in those bit numbers.
//!
//! # State layout 1 (the contract with evaluator plugins)
//!
//! An Amazons state pointer points to a `#[repr(C)]` [`Amazons`] that
//! starts with a `#[repr(C)]` [`board::Board`]:
//!
//! ```c
//! struct amazons_state_v1 {      /* the prefix only; the rest is private */
//!     uint8_t size;              /* board side n, 4..=10 */
//!     uint8_t side;              /* offset 1: 0 first player to move, 1 second */
//!     uint8_t cells[100];        /* offset 2: cell rank * n + file (a1 = 0) */
//! };
//! ```
//!
//! A cell holds 0 when empty, 1 for an amazon of the first player, 2 for one
//! of the second player, 3 for an arrow; cells from `n * n` on are 0.
//! Nothing after `cells` is part of the contract; bump
//! [`game::STATE_LAYOUT`] when the prefix changes.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod flood;
pub mod game;
pub mod perft;
pub mod text;

pub use game::{Amazons, STATE_LAYOUT};
