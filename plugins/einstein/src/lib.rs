//! EinStein würfelt nicht for plyd, as a dynamic plugin: the rules from
//! `plyd-einstein-rules` and the built-in evaluators, exported as
//! `plyd_game_api`.

#![deny(unsafe_code)]

pub use plyd_einstein_rules::{board, game, perft, text, EinStein, STATE_LAYOUT};
