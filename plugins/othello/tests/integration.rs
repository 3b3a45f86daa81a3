//! The crate's integration tests: each file of this folder is a module of
//! this one test binary, compiled and linked once. Run one file's tests with
//! its module name as the filter (`cargo test --release -p plyd-game-othello --test
//! integration perft::`).

mod reference;

mod patterns;
mod perft;
mod random_games;
mod seed004;
mod solver_order;
mod text;
