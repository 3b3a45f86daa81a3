//! A test plugin that panics on purpose: a take-away game where each move
//! removes one or two counters and whoever faces an empty pile loses. It
//! panics when asked to read the position text `panic` (and prints a line
//! on its stdout when asked to read `print`; spells its moves as two words
//! at 17 counters), when generating
//! moves with exactly 7 counters left, and when evaluating 13 counters.
//! The host must survive all three.
//!
//! With `<pile> slow <k>`, generating the moves of `k` counters spins for
//! 400 ms of its thread's processor time and then returns: a call slow
//! enough to outlast a short search, which a stopped process does not
//! advance. With `<pile> hold <k>` it spins for 2 s of the clock instead:
//! a call whose length no load on its core changes, only how much of it
//! the thread spends waiting for the core.
//!
//! It also stalls on request: read from `<pile> stall <k>`, generating the
//! moves of a position of `k` counters, or drawing its board, never returns
//! (the call says so on stderr, then sleeps in a loop; with `spin` for
//! `stall`, it spins on a core instead), as a plugin with an
//! endless loop would, and so does creating its evaluator with parameters
//! that mention `stall`, and making the start position of its second
//! variant, `panicky-stuck`; the daemon's watchdog must still answer
//! `bestmove`. The game declares
//! no pruning and the root's moves are all searched: from `n` counters with
//! `stall <n - 1>`, the first iteration (which only evaluates the two
//! replies) finishes and the second stalls.

mod game;

pub use game::{Countdown, PileEval};

plyd_api::export_game!(Countdown, evaluators = [PileEval]);
