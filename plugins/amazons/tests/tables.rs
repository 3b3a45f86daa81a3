//! The `tables` evaluator: its distance-bin counts and mobility figures
//! against a plain breadth-first reading of the position, the score as the
//! weighted sum of them, separated boards, trapped amazons, and parameter
//! errors naming their key.

use crate::common::*;

use plyd_api::Evaluator;
use plyd_game_amazons::tables::{Tables, BINS, MOBILITY_ENTRIES, NEVER, SCORE_BOUND};

fn tables() -> Tables {
    Tables::from_params(None).expect("the default parameters load")
}

/// The bin of a distance: 1..=5 their own, 6 or more one bin, never the
/// last.
fn bin(d: Option<u32>) -> usize {
    match d {
        None => NEVER,
        Some(d) => (d as usize).min(6) - 1,
    }
}

#[test]
fn bin_counts_and_mobility_equal_a_plain_reading_on_random_positions() {
    let mut checked = 0;
    for fen in sample_positions(77) {
        let game = game_at(&fen);
        let terms = Tables::terms(game.board());
        let grid = Grid::parse(&fen);
        let (us, them) = (grid.to_move, 3 - grid.to_move);
        let kings = [grid.distances(us, false), grid.distances(them, false)];
        let touching = grid.squares().any(|(f, r)| {
            kings[0][r as usize][f as usize].is_some() && kings[1][r as usize][f as usize].is_some()
        });
        if !touching {
            assert!(terms.separated.is_some(), "{fen}");
            continue;
        }
        assert!(terms.separated.is_none(), "{fen}");
        let queens = [grid.distances(us, true), grid.distances(them, true)];
        let mut want_queen = [[0u32; BINS]; BINS];
        let mut want_king = [[0u32; BINS]; BINS];
        for (f, r) in grid.squares() {
            if !grid.is_empty(f, r) {
                continue;
            }
            let (f, r) = (f as usize, r as usize);
            want_queen[bin(queens[0][r][f])][bin(queens[1][r][f])] += 1;
            want_king[bin(kings[0][r][f])][bin(kings[1][r][f])] += 1;
        }
        assert_eq!(terms.queen, want_queen, "{fen}");
        assert_eq!(terms.king, want_king, "{fen}");
        let mut want_mobility = [0i32; MOBILITY_ENTRIES];
        for (player, sign) in [(us, 1), (them, -1)] {
            for amazon in grid.amazons(player) {
                let moves = grid.moves_from(amazon) as usize;
                want_mobility[moves.min(MOBILITY_ENTRIES - 1)] += sign;
            }
        }
        assert_eq!(terms.mobility, want_mobility, "{fen}");
        checked += 1;
    }
    assert!(checked > 300, "only {checked} positions checked");
}

#[test]
fn the_score_is_the_blended_weights_times_the_counts() {
    let eval = tables();
    for fen in sample_positions(5).into_iter().step_by(7) {
        let game = game_at(&fen);
        let terms = Tables::terms(game.board());
        if terms.separated.is_some() {
            continue;
        }
        let (o, e) = eval.phases(terms.small);
        let s = terms.empty_share;
        let blend = |a: f64, b: f64| a * s + b * (1.0 - s);
        let mut want = blend(o.reach, e.reach) * terms.reach;
        for i in 0..BINS {
            for j in 0..BINS {
                want += f64::from(terms.queen[i][j]) * blend(o.queen[i][j], e.queen[i][j]);
                want += f64::from(terms.king[i][j]) * blend(o.king[i][j], e.king[i][j]);
            }
        }
        for i in 0..MOBILITY_ENTRIES {
            want += f64::from(terms.mobility[i]) * blend(o.mobility[i], e.mobility[i]);
        }
        let got = eval.evaluate(&game);
        assert!(
            (f64::from(got) - want).abs() <= 0.5 + 1e-6,
            "{fen}: {got} vs {want}"
        );
        let parts = ["queen", "king", "mobility", "reach", "decided"];
        let sum: f64 = parts.iter().map(|p| term(&eval.explain(&game), p)).sum();
        assert_eq!(sum.round() as i32, got, "{fen}");
    }
}

#[test]
fn a_separated_board_is_scored_by_counting_moves() {
    // A wall of arrows on rank 4 splits a 7x7 board: the first player owns
    // the 20 free squares below it, the second the 20 above.
    let eval = tables();
    let base = eval.params().decided.base;
    for side in ["w", "b"] {
        let game = game_at(&format!("6q/7/7/*******/7/7/Q6 {side}"));
        // Equal counts: the side to move runs out first and loses.
        assert!(f64::from(eval.evaluate(&game)) <= -base);
        assert_eq!(term(&eval.explain(&game), "separated.ours"), 20.0);
    }
    // One square fewer for the second player: the first wins either way.
    let more = "5*q/7/7/*******/7/7/Q6";
    let first = eval.evaluate(&game_at(&format!("{more} w")));
    let second = eval.evaluate(&game_at(&format!("{more} b")));
    assert!(f64::from(first) >= base && f64::from(second) <= -base);
    assert!(first.abs() <= SCORE_BOUND && second.abs() <= SCORE_BOUND);
}

#[test]
fn the_start_positions_score_alike_for_either_side_to_move() {
    let eval = tables();
    for fen in [
        "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3",
        "2q2q2/8/q6q/8/8/Q6Q/8/2Q2Q2",
    ] {
        let white = eval.evaluate(&game_at(&format!("{fen} w")));
        let black = eval.evaluate(&game_at(&format!("{fen} b")));
        assert_eq!(white, black, "{fen}");
        assert!(white.abs() < 200, "{fen}: {white}");
    }
}

#[test]
fn a_dead_amazon_costs_more_than_a_free_one() {
    let eval = tables();
    // The same amazons; in the second position the first player's amazon
    // on a1 is walled in by arrows on a2, b2 and b1.
    let free = game_at("3q2q3/10/10/q8q/10/10/Q8Q/10/10/Q5Q3 w - - 0 1");
    let dead = game_at("3q2q3/10/10/q8q/10/10/Q8Q/10/**8/Q*4Q3 w - - 0 1");
    let (free, dead) = (eval.evaluate(&free), eval.evaluate(&dead));
    assert!(dead < free - 50, "{dead} vs {free}");
}

#[test]
fn parameter_errors_name_their_key() {
    let good = Tables::DEFAULT_PARAMS;
    for (from, to, key) in [
        ("mobility = [", "mobility = [1.0, ", "opening.mobility"),
        ("reach = ", "reach = 1e12 #", "opening.reach"),
        ("base = 2000.0", "base = -1.0", "decided.base"),
        ("[opening]\n", "[opening]\nspeed = 1.0\n", "speed"),
    ] {
        assert!(good.contains(from), "{from}");
        let text = good.replacen(from, to, 1);
        let err = match Tables::from_params(Some(&text)) {
            Ok(_) => panic!("{to} accepted"),
            Err(e) => e,
        };
        assert!(err.contains(key), "{to}: {err}");
    }
    // A table entry out of bounds names its row and column.
    let at = good.find("king = [\n    [").expect("a king table") + "king = [\n    ".len();
    let end = at + good[at..].find(']').expect("the row ends") + 1;
    let text = format!(
        "{}[0.0, nan, 0.0, 0.0, 0.0, 0.0, 0.0]{}",
        &good[..at],
        &good[end..]
    );
    let err = Tables::from_params(Some(&text)).expect_err("nan refused");
    assert!(err.contains("opening.king[0][1]"), "{err}");
}

#[test]
fn small_boards_read_their_own_weights() {
    let full = Tables::DEFAULT_PARAMS;
    let cut = full
        .find("[small_board.opening]")
        .expect("small-board weights");
    let decided = full.find("[decided]").expect("decided scores");
    let without = format!("{}{}", &full[..cut], &full[decided..]);
    let shared = Tables::from_params(Some(&without)).expect("parameters without small_board");
    let eval = tables();
    let ten = game_at("2*3q3/3q6/10/3Q2*2q/1q8/10/Q5Q2Q/10/1*2*5/10 w - - 0 3");
    let eight = game_at("2q2q2/2Q5/q6q/4*3/8/Q6Q/8/5Q2 b - - 0 1");
    assert_eq!(eval.evaluate(&ten), shared.evaluate(&ten));
    assert_ne!(eval.evaluate(&eight), shared.evaluate(&eight));
}
