//! Xiangqi for plyd, as a dynamic plugin: the rules from
//! `plyd-xiangqi-rules` and the built-in evaluators, exported as
//! `plyd_game_api`.

#![deny(unsafe_code)]

pub mod classic;
pub mod seed002;

pub use classic::Classic;
pub use plyd_xiangqi_rules::{board, game, judge, perft, tables, text, Xiangqi, STATE_LAYOUT};
pub use seed002::Seed002;

plyd_api::export_game!(Xiangqi, evaluators = [Classic, Seed002]);
