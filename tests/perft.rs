//! Perft through the loaded plugin: the host walks the tree across the C ABI
//! and must reproduce the published figures kept with each game plugin
//! (`plugins/<game>/tests/<game>.perft`).

use crate::common::{built_library, Engine};
use plyd::host::{GameState, PluginError, PluginHost};
use plyd::perft::Perft;

/// (position text, [(depth, count)]) from a `.perft` file: one position per
/// line, then `;<depth> <count>[ <ended>]` fields (the optional third
/// number, games that ended early, is the plugin's own concern).
fn read_perft_file(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim().to_string();
            let counts = fields
                .map(|f| {
                    let numbers: Vec<u64> =
                        f.split_whitespace().map(|n| n.parse().unwrap()).collect();
                    assert!(numbers.len() >= 2, "bad field '{f}'");
                    (numbers[0] as u32, numbers[1])
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// A fresh state of the first variant of the built plugin `library`.
fn state_of(library: &str) -> GameState {
    let mut host = PluginHost::default();
    let plugin = host
        .load_file(&built_library(library))
        .unwrap_or_else(|e| panic!("{library} loads: {e}"));
    GameState::new(&plugin, 0).unwrap()
}

fn othello_state() -> GameState {
    state_of("plyd_game_othello")
}

#[test]
fn othello_perft_matches_the_published_table_through_the_abi() {
    let cases = read_perft_file(include_str!("../plugins/othello/tests/othello.perft"));
    assert!(!cases.is_empty());
    let mut state = othello_state();
    let mut perft = Perft::new();
    for (fen, counts) in cases {
        state.set_position(&fen).unwrap();
        assert_eq!(counts.len(), 11, "the table covers depths 1..=11");
        for (depth, expected) in counts {
            assert_eq!(
                perft.count(&mut state, depth).unwrap(),
                expected,
                "{fen} depth {depth}"
            );
        }
        // The walk leaves the state as it found it.
        assert_eq!(state.position_text().unwrap(), fen);
    }
}

#[test]
fn native_perft_agrees_with_the_abi_walk() {
    let mut state = othello_state();
    let mut perft = Perft::new();
    for moves in [&[][..], &["f5", "d6", "c3", "d3", "c4"][..]] {
        state.set_position("8/8/8/3OX3/3XO3/8/8/8 b").unwrap();
        for m in moves {
            let mv = state.parse_legal_move(m).unwrap();
            state.make_move(mv).unwrap();
        }
        for depth in 0..=7 {
            assert_eq!(
                state.native_perft(depth).unwrap(),
                perft.count(&mut state, depth).unwrap(),
                "after {moves:?} at depth {depth}"
            );
        }
    }
}

#[test]
fn a_panic_while_counting_the_last_ply_is_one_typed_error() {
    let mut state = state_of("plyd_test_panicky");
    // From a pile of 9, taking 2 leaves the pile of 7, whose moves the
    // plugin panics to count: the walk's innermost loop reports it.
    state.set_position("9").unwrap();
    match Perft::new().count(&mut state, 2) {
        Err(PluginError::Panicked { entry, .. }) => assert_eq!(entry, "gen_moves"),
        other => panic!("expected a panic in gen_moves, got {other:?}"),
    }
}

#[test]
fn a_panic_in_count_after_is_one_typed_error() {
    let mut state = state_of("plyd_test_panicky");
    // From 6: taking 1 leaves 5, which the plugin leaves to the host;
    // taking 2 leaves 4, which it panics to count.
    state.set_position("6").unwrap();
    match Perft::new().count(&mut state, 2) {
        Err(PluginError::Panicked { entry, .. }) => assert_eq!(entry, "count_after"),
        other => panic!("expected a panic in count_after, got {other:?}"),
    }
    assert_eq!(state.position_text().unwrap(), "6");
}

#[test]
fn count_after_and_the_hosts_own_count_agree() {
    // Piles of 3 and less: the plugin answers the even piles after a move
    // and leaves the odd ones to the host's make, count and take-back.
    let mut state = state_of("plyd_test_panicky");
    for pile in 1..=3 {
        state.set_position(&pile.to_string()).unwrap();
        for depth in 1..=pile {
            assert_eq!(
                Perft::new().count(&mut state, depth).unwrap(),
                state.native_perft(depth).unwrap(),
                "pile {pile} depth {depth}"
            );
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves).unwrap();
        for mv in moves {
            let mut made = state.try_clone().unwrap();
            made.make_move(mv).unwrap();
            assert_eq!(state.count_after(mv).unwrap(), made.count_moves().unwrap());
        }
    }
}

#[test]
fn divided_perft_sums_to_the_total() {
    let mut state = othello_state();
    let report = Perft::new().divide(&mut state, 7, false, || false).unwrap();
    assert_eq!(report.total, 55_092);
    assert_eq!(report.roots.iter().map(|r| r.nodes).sum::<u64>(), 55_092);
    let names: Vec<&str> = report.roots.iter().map(|r| r.text.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(sorted, ["c4", "d3", "e6", "f5"]);
    // Othello's start is symmetric: every opening move has the same count.
    assert!(report.roots.iter().all(|r| r.nodes == 55_092 / 4));
}

#[test]
fn go_perft_in_the_daemon_matches_the_table() {
    let (mut e, _dir) = Engine::othello();
    for (depth, expected) in [(1, 4), (2, 12), (3, 56), (4, 244), (6, 8200), (8, 390_216)] {
        e.send(&format!("go perft {depth}"));
        let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
        assert_eq!(
            lines.last().unwrap(),
            &format!("Nodes searched: {expected}")
        );
        e.sync();
    }
}
