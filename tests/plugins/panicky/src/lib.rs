//! A test plugin that panics on purpose: a take-away game where each move
//! removes one or two counters and whoever faces an empty pile loses. It
//! panics when asked to read the position text `panic`, when generating
//! moves with exactly 7 counters left, and when evaluating 13 counters.
//! The host must survive all three.

mod game;

pub use game::{Countdown, PileEval};

plyd_api::export_game!(Countdown, evaluators = [PileEval]);
