//! The rules of xiangqi (Chinese chess) for plyd: move generation, the
//! repetition judgement, position and move text, and the state type
//! [`Xiangqi`] that the host holds.
//!
//! * [`board`]: the 90-square board, legal moves, attacks, make/unmake.
//! * [`tables`]: step and ray tables built at compile time, Zobrist keys.
//! * [`judge`]: perpetual check and chase.
//! * [`text`]: FEN, move text, the board picture.
//! * [`game`]: the state the host holds and its [`plyd_api::Game`]
//!   implementation.
//! * [`perft`]: a native perft.
//! * [`see`]: static exchange evaluation.
//!
//! This crate exports no plugin entry point, so that evaluator plugins can
//! link it (see `plyd-othello-rules` for why).
//!
//! # State layout 1 (the contract with evaluator plugins)
//!
//! A xiangqi state pointer points to a `#[repr(C)]` [`Xiangqi`] that starts
//! with a `#[repr(C)]` [`board::Position`]:
//!
//! ```c
//! struct xiangqi_state_v1 {      /* the prefix only; the rest is private */
//!     uint8_t board[90];         /* square rank * 9 + file; a0 = 0, rank 0 is Red's back rank */
//!     uint8_t side;              /* offset 90: 0 Red to move, 1 Black */
//! };
//! ```
//!
//! A square holds 0 when empty, else the kind (1 general, 2 advisor,
//! 3 elephant, 4 horse, 5 chariot, 6 cannon, 7 pawn) plus 8 for Black.
//! Nothing after `side` is part of the contract; bump
//! [`game::STATE_LAYOUT`] when the prefix changes.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod game;
pub mod judge;
pub mod perft;
pub mod see;
pub mod tables;
pub mod text;
pub mod why;

pub use game::{Xiangqi, STATE_LAYOUT};
