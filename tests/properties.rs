//! Properties of every game plugin, checked through the loaded library on
//! random games that proptest generates and shrinks:
//!
//! * a position text the plugin writes reads back to the same state (hash,
//!   side to move, outcome, legal moves and the text itself) — except the
//!   outcome and moves of a position met before in the game, which a rule
//!   on repetitions (xiangqi's) judges from a history no text holds;
//! * `make_move` then `unmake_move` restores the hash and the position, and
//!   the hash after `make_move` equals the hash of the same position read
//!   afresh from its text (the incremental hash is the position's hash);
//! * a move's text parses back to the same move.
//!
//! A game is a list of choices: at each ply the choice, modulo the number of
//! moves (or chance outcomes), picks the move played, so shrinking a failing
//! case shortens the game and lowers the choices.

use std::collections::HashSet;
use std::sync::Arc;

use crate::common::built_library;
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
/// `repeated`: the position occurred earlier in the game, so its outcome
/// and moves may rest on the history, which its text does not hold.
fn check_position(
    plugin: &Arc<GamePlugin>,
    variant: usize,
    state: &mut GameState,
    moves: &[u32],
    repeated: bool,
) -> Result<(), TestCaseError> {
    let text = state.position_text().unwrap();
    let fresh = reread(plugin, variant, state);
    prop_assert_eq!(fresh.position_text().unwrap(), text.clone());
    prop_assert_eq!(fresh.hash(), state.hash(), "hash of '{}' read back", text);
    prop_assert_eq!(fresh.side_to_move().unwrap(), state.side_to_move().unwrap());
    if !repeated {
        prop_assert_eq!(fresh.outcome().unwrap(), state.outcome().unwrap());
        prop_assert_eq!(
            sorted(moves_of(&fresh)),
            sorted(moves.to_vec()),
            "moves of '{}' read back",
            text
        );
    }

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
    let picks = choices
        .iter()
        .map(|&choice| move |_: &GameState, moves: &[u32]| moves[choice as usize % moves.len()]);
    check_line(crate_name, variant, picks).map(drop)
}

/// Xiangqi's third occurrence of a position is judged from the moves that
/// led to it: a text read afresh has no such history. Horses out and back
/// twice draw at the ninth position, which the round trip must allow.
#[test]
fn a_repetition_judged_from_the_history_passes_the_round_trip() {
    let line = ["b0c2", "b7b6", "c2b0", "b6b7"].repeat(2);
    let xiangqi = plugin("plyd_game_xiangqi")
        .info()
        .variants
        .iter()
        .position(|v| v.name == "xiangqi")
        .expect("the xiangqi variant");
    type Pick = Box<dyn FnOnce(&GameState, &[u32]) -> u32>;
    let mut picks: Vec<Pick> = line
        .into_iter()
        .map(|text| {
            Box::new(move |state: &GameState, _: &[u32]| state.parse_move(text).unwrap()) as Pick
        })
        .collect();
    // One more, so that the repeated position is checked too.
    picks.push(Box::new(|_, moves| moves[0]));
    let last = check_line("plyd_game_xiangqi", xiangqi, picks).unwrap();
    assert_eq!(last.outcome().unwrap(), Outcome::Draw);
    let fresh = reread(&plugin("plyd_game_xiangqi"), xiangqi, &last);
    assert_eq!(fresh.outcome().unwrap(), Outcome::Ongoing);
}

/// Play from the start of `variant` the moves `picks` choose from each
/// position's moves, checking every position; returns the position reached.
fn check_line<F: FnOnce(&GameState, &[u32]) -> u32>(
    crate_name: &str,
    variant: usize,
    picks: impl IntoIterator<Item = F>,
) -> Result<GameState, TestCaseError> {
    let plugin = plugin(crate_name);
    let mut state = GameState::new(&plugin, variant).unwrap();
    let mut seen = HashSet::new();
    for pick in picks {
        let moves = moves_of(&state);
        let repeated = !seen.insert(state.hash());
        check_position(&plugin, variant, &mut state, &moves, repeated)?;
        if state.outcome().unwrap() != Outcome::Ongoing || moves.is_empty() {
            break;
        }
        let mv = pick(&state, &moves);
        state.make_move(mv).unwrap();
    }
    Ok(state)
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
