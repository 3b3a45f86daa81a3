//! The Game of the Amazons for plyd, as a dynamic plugin: the rules from
//! `plyd-amazons-rules` and the built-in evaluators, exported as
//! `plyd_game_api`.

#![deny(unsafe_code)]

pub mod classic;
pub mod regions;
pub mod seed000;
pub mod seed003;
pub mod tables;

pub use classic::Classic;
pub use plyd_amazons_rules::{board, flood, game, perft, text, Amazons, STATE_LAYOUT};
pub use seed000::Seed000;
pub use seed003::Seed003;
pub use tables::Tables;

plyd_api::export_game!(Amazons, evaluators = [Tables, Classic, Seed000, Seed003]);
