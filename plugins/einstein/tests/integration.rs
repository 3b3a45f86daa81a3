//! The crate's integration tests: each file of this folder (but
//! `solver_handover.rs`, which needs a process of its own) is a module of
//! this one test binary, compiled and linked once. Run one file's tests with
//! its module name as the filter (`cargo test --release -p plyd-game-einstein --test
//! integration endgame::`).

mod endgame;
mod evaluators;
