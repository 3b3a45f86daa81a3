//! Othello for plyd, as a dynamic plugin: the rules from `plyd-othello-rules`
//! and the built-in `patterns` (the default) and `seed004` evaluators,
//! exported as `plyd_game_api`.
//!
//! This crate is the only one that exports the game entry point; see the
//! rules crate for why the rules live apart from it. The rules' modules are
//! re-exported so that code written against this crate keeps working.

// The game crate writes no unsafe code. Not `forbid`: the export macro's
// `#[no_mangle]` counts as unsafe code for this lint, and only `deny` could
// be lifted for that one item should rustc start reporting it (today it
// skips code expanded from another crate's macro).
#![deny(unsafe_code)]

pub mod patterns;
pub mod seed004;

pub use patterns::{Patterns, PatternsStack};
pub use plyd_othello_rules::{board, game, perft, shallow, text, Othello, PASS, STATE_LAYOUT};
pub use seed004::Seed004;

plyd_api::export_game!(
    Othello,
    evaluators = [Patterns, Seed004, PatternsStack],
    init = register_solver_order
);

/// Hand the exact endgame solver the `patterns` evaluator with the weights
/// of `order.bin` to sort its moves by at nodes with many empty squares (see
/// [`plyd_othello_rules::endgame::set_order_evaluator`]). Run when the host
/// first asks for the game's table; programs that call the solver without
/// the host (the `endgame` example) call it themselves.
pub fn register_solver_order() {
    plyd_othello_rules::endgame::set_order_evaluation(patterns::order_evaluation());
}
