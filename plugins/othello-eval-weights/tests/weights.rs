//! The `weights` evaluator against values worked out by hand, and its
//! parameter checks.

use plyd_api::{Evaluator, Game};
use plyd_eval_othello_weights::Weights;
use plyd_othello_rules::Othello;

fn game_at(text: &str) -> Othello {
    let mut game = Othello::new(0);
    game.set_position(text)
        .unwrap_or_else(|e| panic!("'{text}': {e}"));
    game
}

fn edited(from: &str, to: &str) -> String {
    assert!(
        Weights::DEFAULT_PARAMS.contains(from),
        "'{from}' not in weights.toml"
    );
    Weights::DEFAULT_PARAMS.replacen(from, to, 1)
}

#[test]
fn start_position_is_level_for_both_sides() {
    let eval = Weights::default();
    for side in ["b", "w"] {
        let game = game_at(&format!("8/8/8/3OX3/3XO3/8/8/8 {side}"));
        let t = eval.terms(&game);
        assert_eq!((t.squares, t.mobility, t.frontier, t.discs), (0, 0, 0, 0));
        assert_eq!(t.empties, 60);
        assert_eq!(eval.evaluate(&game), 0);
    }
}

#[test]
fn terms_of_a_worked_position() {
    // Black: a1 (corner, 100), b1 (next to a taken corner: released, 0), e4
    // and d5 (0 each). White: d4, e5 (0 each) and b2 (X-square of a1, which
    // is taken: released, 0). Black to move.
    let game = game_at("XX6/1O6/8/3OX3/3XO3/8/8/8 b");
    let eval = Weights::default();
    let t = eval.terms(&game);
    assert_eq!(t.squares, 100);
    assert_eq!(t.discs, 4 - 3);
    // Every disc here touches an empty square except a1 (neighbours b1, a2,
    // b2: a2 is empty, so a1 is frontier too). All 4 black and all 3 white
    // discs are frontier: 3 - 4 = -1.
    assert_eq!(t.frontier, -1);
    // Mobility is the rules' own count, from both sides.
    let own =
        plyd_othello_rules::board::legal_placements(game.position().black, game.position().white);
    let opp =
        plyd_othello_rules::board::legal_placements(game.position().white, game.position().black);
    assert_eq!(
        t.mobility,
        i64::from(own.count_ones()) - i64::from(opp.count_ones())
    );
    // Default weights: squares 1, mobility 12, frontier 6, discs 0 with 56
    // empties (above the endgame's 12).
    let expected = 100 + 12 * t.mobility - 6;
    assert_eq!(i64::from(eval.evaluate(&game)), expected);
    // White to move sees the same position negated.
    let white = game_at("XX6/1O6/8/3OX3/3XO3/8/8/8 w");
    let tw = eval.terms(&white);
    assert_eq!((tw.squares, tw.frontier, tw.discs), (-100, 1, -1));
}

#[test]
fn released_neighbours_follow_the_parameter() {
    let game = game_at("XX6/1O6/8/3OX3/3XO3/8/8/8 b");
    let strict = Weights::from_params(Some(&edited(
        "release_corner_neighbours = true",
        "release_corner_neighbours = false",
    )))
    .unwrap();
    // b1 now counts -20 for Black, b2 -50 for White: 100 - 20 + 50.
    assert_eq!(strict.terms(&game).squares, 130);
}

#[test]
fn the_endgame_switches_the_disc_weight() {
    // 11 empty squares (under the 12 of the shipped file): discs weigh 40.
    let game = game_at("XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/OOOOOOO1/OOOOOO2/8 b");
    let eval = Weights::default();
    let t = eval.terms(&game);
    assert_eq!(t.empties, 11);
    let explained = eval.explain(&game);
    let discs = explained.iter().find(|(n, _)| n == "discs").unwrap().1;
    assert_eq!(discs, 40.0 * t.discs as f64);
    let total = explained.iter().find(|(n, _)| n == "total").unwrap().1;
    assert_eq!(total, f64::from(eval.evaluate(&game)));
}

#[test]
fn the_shipped_file_is_the_default() {
    let on_disk = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/weights.toml"));
    assert_eq!(on_disk.unwrap(), Weights::DEFAULT_PARAMS);
    assert!(Weights::from_params(None).is_ok());
}

#[test]
fn bad_parameters_name_the_key() {
    let cases = [
        (
            edited("mobility = 12", "mobility = \"lots\""),
            "key 'terms.mobility': expected an integer, found a string \"lots\"",
        ),
        (
            edited("mobility = 12", "mobility = 5000"),
            "key 'terms.mobility': 5000 is outside [-1000, 1000]",
        ),
        (
            edited(
                "[ 10,  -2,   1,   1,   1,   1,  -2,  10],",
                "[ 10,  -2,   1,   1,   1,   1,  -2],",
            ),
            "key 'squares.table[2]': expected 8 values, found 7",
        ),
        (
            edited("empties = 12", "empties = 61"),
            "key 'endgame.empties': 61 is outside [0, 60]",
        ),
        (
            edited("discs = 40", "discs = 40\nparity = 3"),
            "key 'endgame.parity': unknown field `parity`",
        ),
    ];
    for (text, expected) in cases {
        let got = Weights::from_params(Some(&text)).err();
        assert!(
            got.as_deref().is_some_and(|e| e.starts_with(expected)),
            "got {got:?}, expected {expected}"
        );
    }
}
