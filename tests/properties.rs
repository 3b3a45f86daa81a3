//! Properties of every game plugin, checked through the loaded library on
//! random games that proptest generates and shrinks:
//!
//! * a position text the plugin writes reads back to the same state (hash,
//!   side to move, outcome, legal moves and the text itself);
//! * `make_move` then `unmake_move` restores the hash and the position, and
//!   the hash after `make_move` equals the hash of the same position read
//!   afresh from its text (the incremental hash is the position's hash);
//! * a move's text parses back to the same move.
//!
//! A game is a list of choices: at each ply the choice, modulo the number of
//! moves (or chance outcomes), picks the move played, so shrinking a failing
//! case shortens the game and lowers the choices.

mod common;

use std::sync::Arc;

use common::built_library;
use plyd::host::{GamePlugin, GameState, Outcome, PluginHost};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};

/// Moves checked by make/unmake at each ply (all of them when there are
/// fewer; Amazons has over 2,000 at the start).
const MOVES_CHECKED: usize = 24;

fn plugin(crate_name: &str) -> Arc<GamePlugin> {
    PluginHost::default()
        .load_file(&built_library(crate_name))
        .unwrap_or_else(|e| panic!("{crate_name} loads: {e}"))
}

/// The moves of the side to move, or the outcomes of a chance node.
fn moves_of(state: &GameState) -> Vec<u32> {
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes).unwrap();
    if !outcomes.is_empty() {
        return outcomes.into_iter().map(|(mv, _)| mv).collect();
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves).unwrap();
    moves
}

fn sorted(mut moves: Vec<u32>) -> Vec<u32> {
    moves.sort_unstable();
    moves
}

/// The state read afresh from `state`'s own position text.
fn reread(plugin: &Arc<GamePlugin>, variant: usize, state: &GameState) -> GameState {
    let text = state.position_text().unwrap();
    let mut fresh = GameState::new(plugin, variant).unwrap();
    fresh
        .set_position(&text)
        .unwrap_or_else(|e| panic!("the plugin's own text '{text}' is refused: {e}"));
    fresh
}

/// Check every property at the current position; `Err` names the failure.
fn check_position(
    plugin: &Arc<GamePlugin>,
    variant: usize,
    state: &mut GameState,
    moves: &[u32],
) -> Result<(), TestCaseError> {
    let text = state.position_text().unwrap();
    let fresh = reread(plugin, variant, state);
    prop_assert_eq!(fresh.position_text().unwrap(), text.clone());
    prop_assert_eq!(fresh.hash(), state.hash(), "hash of '{}' read back", text);
    prop_assert_eq!(fresh.side_to_move().unwrap(), state.side_to_move().unwrap());
    prop_assert_eq!(fresh.outcome().unwrap(), state.outcome().unwrap());
    prop_assert_eq!(
        sorted(moves_of(&fresh)),
        sorted(moves.to_vec()),
        "moves of '{}' read back",
        text
    );

    let step = moves.len().div_ceil(MOVES_CHECKED).max(1);
    for &mv in moves.iter().step_by(step) {
        let move_text = state.format_move(mv).unwrap();
        prop_assert_eq!(
            state.parse_move(&move_text).unwrap(),
            mv,
            "move '{}' in '{}'",
            move_text,
            text
        );
        let before = state.hash();
        state.make_move(mv).unwrap();
        let after = reread(plugin, variant, state);
        prop_assert_eq!(
            state.hash(),
            after.hash(),
            "hash after '{}' in '{}' differs from the hash of the position read afresh",
            move_text,
            text
        );
        state.unmake_move(mv).unwrap();
        prop_assert_eq!(state.hash(), before, "hash after '{}' undone", move_text);
        prop_assert_eq!(state.position_text().unwrap(), text.clone());
    }
    Ok(())
}

/// Play `choices` from the start of `variant`, checking every position.
fn check_game(crate_name: &str, variant: usize, choices: &[u32]) -> Result<(), TestCaseError> {
    let plugin = plugin(crate_name);
    let mut state = GameState::new(&plugin, variant).unwrap();
    for &choice in choices {
        let moves = moves_of(&state);
        check_position(&plugin, variant, &mut state, &moves)?;
        if state.outcome().unwrap() != Outcome::Ongoing || moves.is_empty() {
            break;
        }
        state
            .make_move(moves[choice as usize % moves.len()])
            .unwrap();
    }
    Ok(())
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    }
}

fn variants(crate_name: &str) -> usize {
    plugin(crate_name).info().variants.len()
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn othello_positions_moves_and_hashes_round_trip(
        variant in 0..variants("plyd_game_othello"),
        choices in proptest::collection::vec(any::<u32>(), 0..70),
    ) {
        check_game("plyd_game_othello", variant, &choices)?;
    }

    #[test]
    fn xiangqi_positions_moves_and_hashes_round_trip(
        variant in 0..variants("plyd_game_xiangqi"),
        choices in proptest::collection::vec(any::<u32>(), 0..120),
    ) {
        check_game("plyd_game_xiangqi", variant, &choices)?;
    }

    #[test]
    fn einstein_positions_moves_and_hashes_round_trip(
        variant in 0..variants("plyd_game_einstein"),
        choices in proptest::collection::vec(any::<u32>(), 0..80),
    ) {
        check_game("plyd_game_einstein", variant, &choices)?;
    }
}

proptest! {
    // Amazons positions have up to thousands of moves, each read back once
    // a ply for the move-list comparison: fewer, shorter games.
    #![proptest_config(config(64))]

    #[test]
    fn amazons_positions_moves_and_hashes_round_trip(
        variant in 0..variants("plyd_game_amazons"),
        choices in proptest::collection::vec(any::<u32>(), 0..60),
    ) {
        check_game("plyd_game_amazons", variant, &choices)?;
    }
}
