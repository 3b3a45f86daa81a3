//! The engine's integration tests: each file of this folder is a module of
//! this one test binary, so that they are compiled and linked once. Run one
//! file's tests with its module name as the filter, for example
//! `cargo test --release -p plyd --test integration arena::`.

mod common;
// The Othello of the plugin's own tests, square by square and sharing no
// code with the plugin: the C evaluator sample's scores are counted on it.
#[allow(dead_code)]
#[path = "../plugins/othello/tests/reference/mod.rs"]
mod othello_reference;

mod amazons;
mod arena;
mod book;
mod botzone;
mod c_plugin;
mod chance;
mod cli;
mod clients;
mod einstein;
mod evaluators;
mod gtp;
mod nboard;
mod othello_endgame;
mod perft;
mod plugin_host;
mod properties;
mod protocol_session;
mod readme_session;
mod records;
mod search;
mod ucci;
mod ugi;
mod xiangqi;
