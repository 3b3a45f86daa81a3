//! The crate's integration tests: each file of this folder is a module of
//! this one test binary, compiled and linked once. Run one file's tests with
//! its module name as the filter (`cargo test --release -p plyd-game-amazons --test
//! integration classic::`).

mod common;

mod classic;
mod seed000;
mod seed003;
mod tables;
