//! EinStein würfelt nicht for plyd, as a dynamic plugin: the rules from
//! `plyd-einstein-rules` and the built-in evaluators `odds` (the default)
//! and `seed001`, exported as `plyd_game_api`.
//!
//! * [`odds`]: the probability of winning, exact in small endings
//!   ([`endgame`]), learned in self-play ([`learned`]) or from the race to
//!   the corner by die odds otherwise.
//! * [`seed001`]: the attack-and-defence evaluation of design document 001.
//! * [`endgame`]: the retrograde table of endings of three stones or fewer.
//! * [`exact`]: larger endings, solved when first asked.
//! * [`learned`]: the n-tuple network trained by temporal differences.
//! * [`setup`]: the set-up book, each arrangement's value.

#![deny(unsafe_code)]

pub mod endgame;
pub mod exact;
pub mod learned;
pub mod odds;
pub mod seed001;
pub mod setup;
#[cfg(test)]
mod test_games;

pub use odds::Odds;
pub use plyd_einstein_rules::{board, game, perft, text, EinStein, STATE_LAYOUT};
pub use seed001::Seed001;

plyd_api::export_game!(EinStein, evaluators = [Odds, Seed001]);
