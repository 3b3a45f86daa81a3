//! The seed004 evaluator against values worked out by hand.

use plyd_api::{Evaluator, Game};
use plyd_game_othello::{Othello, Seed004};

fn game_at(text: &str) -> Othello {
    let mut game = Othello::new(0);
    game.set_position(text)
        .unwrap_or_else(|e| panic!("'{text}': {e}"));
    game
}

/// The named term of `explain`.
fn term(eval: &Seed004, game: &Othello, name: &str) -> f64 {
    eval.explain(game)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no term {name}"))
        .1
}

/// Check the four heuristics and the score with Black to move, and that the
/// score flips sign with White to move.
fn check(board: &str, expected: [f64; 4], black_score: i32) {
    let eval = Seed004::from_params(None).unwrap();
    let names = [
        "piece_difference",
        "corner_occupancy",
        "corner_closeness",
        "mobility",
    ];
    for side in ["b", "w"] {
        let game = game_at(&format!("{board} {side}"));
        for (name, value) in names.iter().zip(expected) {
            let got = term(&eval, &game, name);
            assert!(
                (got - value).abs() < 1e-9,
                "{board} {side}: {name} {got} != {value}"
            );
        }
        let score = if side == "b" {
            black_score
        } else {
            -black_score
        };
        assert_eq!(eval.evaluate(&game), score, "{board} {side}");
        assert_eq!(term(&eval, &game, "total"), f64::from(score));
    }
}

#[test]
fn start_position_is_level() {
    // 2 discs each, no corners, nothing near a corner, 4 placements each.
    check("8/8/8/3OX3/3XO3/8/8/8", [0.0, 0.0, 0.0, 0.0], 0);
}

#[test]
fn corners_held() {
    // Black: a1, a8, e4, d5 (4 discs, 2 corners); White: h1, d4, e5 (3
    // discs, 1 corner). The one empty corner, h8, has no neighbours taken.
    // Each side has the four central placements only: the corner discs
    // border nothing they could flank.
    // piece difference 100 * 4 / 7; corners 25 * 2 - 25 * 1 = 25;
    // utility (400/7 + 25) / 4 = 20.5357... -> 2054.
    check(
        "X6O/8/8/3OX3/3XO3/8/8/X7",
        [400.0 / 7.0, 25.0, 0.0, 0.0],
        2054,
    );
}

#[test]
fn discs_next_to_empty_corners() {
    // Black: b1, g1, a2, b2, e4, d5 (6); White: h1, d4, e5, g7 (4).
    // Empty corners a1 (b1, a2, b2 black: Bn = 3), a8 (nothing near) and
    // h8 (g7 white: Wn = 1). g1 sits by h1, which is taken, so it does not
    // count. Closeness -12.5 * 3 + 12.5 * 1 = -25.
    // Corners: White holds h1: -25. Piece difference 100 * 6 / 10 = 60.
    // Mobility: Black has d3, c4, f5, e6 (4); White has e3, f4, c5, d6 and
    // f1, flanking g1 against h1 (5): -100 * 5 / 9.
    // Utility (60 - 25 - 25 - 500/9) / 4 = -11.3889 -> -1139.
    check(
        "1X4XO/XX6/8/3OX3/3XO3/8/6O1/8",
        [60.0, -25.0, -25.0, -500.0 / 9.0],
        -1139,
    );
}

#[test]
fn corner_closeness_is_clamped_to_the_documented_range() {
    // Black holds all twelve squares next to the four empty corners: the raw
    // formula gives -150, the document's range stops at -100.
    let game = game_at("1X4X1/XX4XX/8/3OX3/3XO3/8/XX4XX/1X4X1 b");
    let eval = Seed004::from_params(None).unwrap();
    assert_eq!(term(&eval, &game, "corner_closeness"), -100.0);
}

#[test]
fn explain_lists_weights_and_utility() {
    let eval = Seed004::from_params(Some(Seed004::DEFAULT_PARAMS)).unwrap();
    let game = game_at("X6O/8/8/3OX3/3XO3/8/8/X7 w");
    for name in [
        "piece_difference",
        "corner_occupancy",
        "corner_closeness",
        "mobility",
    ] {
        assert_eq!(term(&eval, &game, &format!("weight_{name}")), 1.0);
    }
    // The utility is Black's view; the total is the side to move's, times 100.
    let utility = term(&eval, &game, "utility");
    assert!((utility - (400.0 / 7.0 + 25.0) / 4.0).abs() < 1e-9);
    assert_eq!(term(&eval, &game, "total"), -2054.0);
}

/// The shipped parameter text with `from` replaced by `to` (which must
/// occur, so a renamed key cannot make a test pass by accident).
fn edited(from: &str, to: &str) -> String {
    assert!(
        Seed004::DEFAULT_PARAMS.contains(from),
        "'{from}' not in seed004.toml"
    );
    Seed004::DEFAULT_PARAMS.replacen(from, to, 1)
}

#[test]
fn the_shipped_parameters_are_the_documents() {
    // The file in the crate is the default, and it gives the same scores as
    // no parameters at all (the hand-worked values above).
    let shipped = Seed004::from_params(Some(Seed004::DEFAULT_PARAMS)).unwrap();
    let game = game_at("1X4XO/XX6/8/3OX3/3XO3/8/6O1/8 b");
    assert_eq!(shipped.evaluate(&game), -1139);
    let on_disk = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/seed004.toml"));
    assert_eq!(on_disk.unwrap(), Seed004::DEFAULT_PARAMS);
}

#[test]
fn parameters_change_the_evaluation() {
    // Same position as discs_next_to_empty_corners: terms 60, -25, -25,
    // -500/9. Mobility alone, weight 1, others 0: (-500/9) / 4 -> -1389.
    let text = edited("piece_difference = 1.0", "piece_difference = 0.0")
        .replacen("corner_occupancy = 1.0", "corner_occupancy = 0", 1)
        .replacen("corner_closeness = 1.0", "corner_closeness = 0.0", 1);
    let eval = Seed004::from_params(Some(&text)).unwrap();
    let game = game_at("1X4XO/XX6/8/3OX3/3XO3/8/6O1/8 b");
    assert_eq!(eval.evaluate(&game), -1389);
    // The corner constants: occupancy 10 makes the corner term -10.
    let eval = Seed004::from_params(Some(&edited("occupancy = 25.0", "occupancy = 10.0"))).unwrap();
    assert_eq!(term(&eval, &game, "corner_occupancy"), -10.0);
    // Closeness 50: -150 + 50 = -100, inside the range.
    let eval = Seed004::from_params(Some(&edited("closeness = 12.5", "closeness = 50.0"))).unwrap();
    assert_eq!(term(&eval, &game, "corner_closeness"), -100.0);
    // Scale 1: the utility -11.3889 rounds to -11.
    let eval = Seed004::from_params(Some(&edited("scale = 100", "scale = 1"))).unwrap();
    assert_eq!(eval.evaluate(&game), -11);
}

#[test]
fn bad_parameters_name_the_key() {
    let cases = [
        (
            edited("mobility = 1.0", "mobility = \"high\""),
            "key 'weights.mobility': expected a number, found a string \"high\"",
        ),
        (
            edited("mobility = 1.0", "mobility = 1.5"),
            "key 'weights.mobility': 1.5 is outside [0, 1]",
        ),
        (
            edited("scale = 100", "scale = 1000"),
            "key 'scale': 1000 is outside [1, 100]",
        ),
        (
            edited("scale = 100", "scale = 2.5"),
            "key 'scale': expected an integer, found a number 2.5",
        ),
        (
            edited("mobility = 1.0", "mobility = 1.0\nparity = 1.0"),
            "key 'weights.parity': unknown field `parity`",
        ),
    ];
    for (text, expected) in cases {
        let got = Seed004::from_params(Some(&text)).err();
        assert!(
            got.as_deref().is_some_and(|e| e.starts_with(expected)),
            "got {got:?}, expected {expected}"
        );
    }
    // A file missing a key is refused rather than half-read.
    let missing = edited("mobility = 1.0", "");
    let e = Seed004::from_params(Some(&missing)).unwrap_err();
    assert!(e.starts_with("key 'weights.mobility': missing"), "{e}");
}

#[test]
fn scores_stay_within_the_bound() {
    // All discs black, all corners black, Black to move: the largest
    // possible piece and corner terms.
    let eval = Seed004::from_params(None).unwrap();
    let full = "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX";
    let score = eval.evaluate(&game_at(&format!("{full} b")));
    assert!(score.abs() <= Seed004::SCORE_BOUND);
    // 100 + 100 + 0 + 0 over 4: 50 -> 5000.
    assert_eq!(score, 5000);
    assert_eq!(Seed004::NAME, "seed004");
    assert_eq!(Seed004::GAME, "othello");
}
