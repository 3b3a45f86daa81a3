//! The rules of EinStein würfelt nicht for plyd, as played at the Computer
//! Olympiad and the Chinese Computer Games Championship: the 5x5 board,
//! each side's choice of set-up, the die, and the state type
//! [`EinStein`] that the host holds.
//!
//! * [`board`]: squares, stones, the die's choice of stone, legal moves,
//!   make/unmake, the arrangements.
//! * [`text`]: position text, move text and the board picture.
//! * [`game`]: the state the host holds and its [`plyd_api::Game`]
//!   implementation (chance nodes for the rolls).
//! * [`perft`]: perft for a dice game, each roll its own ply.
//!
//! This crate exports no plugin entry point, so that evaluator plugins can
//! link it (see `plyd-othello-rules` for why).
//!
//! # Squares
//!
//! Files `a`..`e` from the left, ranks `1`..`5` from the bottom, as the
//! Chinese championship records write the board. Square `a1` is index 0,
//! `e1` index 4, `a5` index 20: index `(rank - 1) * 5 + file`. Red starts
//! in the top-left corner (`a5 b5 c5 a4 b4 a3`) and heads for `e1`; Blue
//! starts in the bottom-right corner (`e1 d1 c1 e2 d2 e3`) and heads for
//! `a5`.
//!
//! # Moves
//!
//! A move is a `u32`: a stone's step is `from * 32 + to` (below 1024), a
//! roll of the die is `1024 + face`, an arrangement is `2048 + index`,
//! `index` being the arrangement's number among the 720 orders of the
//! stones 1..6 in lexicographic order (`s123456` is 0, `s654321` is 719).
//!
//! # State layout 1 (the contract with evaluator plugins)
//!
//! An EinStein state pointer points to a `#[repr(C)]` [`EinStein`] that
//! starts with a `#[repr(C)]` [`board::Board`]:
//!
//! ```c
//! struct einstein_state_v1 {     /* the prefix only; the rest is private */
//!     uint8_t cells[25];         /* square index as above: 0 empty, 1..6 red stone n, 7..12 blue stone n - 6 */
//!     uint8_t side;              /* offset 25: 0 Red to move (or to roll), 1 Blue */
//!     uint8_t roll;              /* offset 26: 0 not rolled yet, else the face 1..6 */
//!     uint8_t stage;             /* offset 27: 0 Red arranges, 1 Blue arranges, 2 play */
//! };
//! ```
//!
//! Nothing after `stage` is part of the contract; bump
//! [`game::STATE_LAYOUT`] when the prefix changes.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod game;
pub mod perft;
pub mod text;

pub use board::Board;
pub use game::{EinStein, STATE_LAYOUT};
