//! The `classic` evaluator: its terms on positions worked out by hand, the
//! decided score of separated boards, the mobility table on trapped and
//! dead amazons, symmetry, and parameter errors naming their key.

use plyd_api::{Evaluator, Game};
use plyd_game_amazons::classic::{Classic, SCORE_BOUND};
use plyd_game_amazons::Amazons;

fn game_at(fen: &str) -> Amazons {
    let mut game = Amazons::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("'{fen}': {e}"));
    game
}

fn classic() -> Classic {
    Classic::from_params(None).expect("the default parameters load")
}

fn term(eval: &Classic, game: &Amazons, name: &str) -> f64 {
    eval.explain(game)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no term {name}"))
        .1
}

#[test]
fn explain_adds_up_to_evaluate() {
    let eval = classic();
    for fen in [
        "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1",
        "2*3q3/3q6/10/3Q2*2q/1q8/10/Q5Q2Q/10/1*2*5/10 w - - 0 3",
        "2q2q2/2Q5/q6q/4*3/8/Q6Q/8/5Q2 b - - 0 1",
    ] {
        let game = game_at(fen);
        let parts: f64 = [
            "queen_territory",
            "king_territory",
            "queen_position",
            "king_position",
            "reach",
            "mobility",
            "decided",
        ]
        .iter()
        .map(|n| term(&eval, &game, n))
        .sum();
        assert_eq!(parts.round() as i32, eval.evaluate(&game), "{fen}");
        assert_eq!(term(&eval, &game, "total") as i32, eval.evaluate(&game));
    }
}

#[test]
fn a_position_symmetric_under_a_half_turn_is_level() {
    // 4x4, first player's amazon on a1, second's on d4, arrows on b2 and
    // c3:
    //   4 . . . q
    //   3 . . * .
    //   2 . * . .
    //   1 Q . . .
    // A half turn maps the position onto itself with the players swapped.
    let fen = "3q/2*1/1*2/Q3 w - - 0 1";
    let eval = classic();
    let game = game_at(fen);
    let qt = term(&eval, &game, "raw.queen_territory");
    let kt = term(&eval, &game, "raw.king_territory");
    // The position is symmetric under the half turn that swaps the
    // players: nearer squares cancel and only ties remain, each worth the
    // tempo share (0.2) to the side to move.
    assert!((qt / 0.2 - (qt / 0.2).round()).abs() < 1e-9, "{qt}");
    assert!(qt > 0.0 && kt > 0.0, "{qt} {kt}");
    assert!(term(&eval, &game, "raw.queen_position").abs() < 1e-9);
    assert!(term(&eval, &game, "raw.king_position").abs() < 1e-9);
    assert!(term(&eval, &game, "mobility").abs() < 1e-9);
    // Same placement, other side to move: the same figure.
    let other = game_at("3q/2*1/1*2/Q3 b - - 0 1");
    assert_eq!(eval.evaluate(&game), eval.evaluate(&other));
}

#[test]
fn the_start_positions_score_alike_for_either_side_to_move() {
    let eval = classic();
    for fen in [
        "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3",
        "2q2q2/8/q6q/8/8/Q6Q/8/2Q2Q2",
    ] {
        let white = game_at(&format!("{fen} w"));
        let black = game_at(&format!("{fen} b"));
        assert_eq!(eval.evaluate(&white), eval.evaluate(&black), "{fen}");
        assert!(
            eval.evaluate(&white).abs() < 200,
            "{}",
            eval.evaluate(&white)
        );
    }
}

#[test]
fn a_separated_board_is_scored_by_counting_moves() {
    // A wall of arrows on rank 4 splits a 7x7 board: the first player owns
    // the 20 free squares below it, the second the 20 above.
    let even = "6q/7/7/*******/7/7/Q6";
    let eval = classic();
    let params = eval.params().decided;
    // Equal counts: the side to move runs out first and loses.
    for side in ["w", "b"] {
        let game = game_at(&format!("{even} {side}"));
        let score = eval.evaluate(&game);
        assert!(f64::from(score) <= -params.base, "{side}: {score}");
        assert_eq!(term(&eval, &game, "separated.ours"), 20.0);
    }
    // One more square for the first player (the second player's region
    // loses a square to an arrow): the first player wins whoever moves.
    let more = "5*q/7/7/*******/7/7/Q6";
    let first = eval.evaluate(&game_at(&format!("{more} w")));
    let second = eval.evaluate(&game_at(&format!("{more} b")));
    assert!(f64::from(first) >= params.base, "{first}");
    assert!(f64::from(second) <= -params.base, "{second}");
    assert!(first.abs() <= SCORE_BOUND && second.abs() <= SCORE_BOUND);
}

#[test]
fn a_trapped_amazon_costs_more_than_a_free_one() {
    let eval = classic();
    // The same amazons; in the second position the first player's amazon
    // on a1 is walled in by arrows on a2, b2 and b1: it is dead.
    let free = game_at("3q2q3/10/10/q8q/10/10/Q8Q/10/10/Q5Q3 w - - 0 1");
    let dead = game_at("3q2q3/10/10/q8q/10/10/Q8Q/10/**8/Q*4Q3 w - - 0 1");
    assert!(
        eval.evaluate(&dead) < eval.evaluate(&free) - 100,
        "{} vs {}",
        eval.evaluate(&dead),
        eval.evaluate(&free)
    );
}

#[test]
fn parameter_errors_name_their_key() {
    let good = Classic::DEFAULT_PARAMS;
    for (from, to, key) in [
        ("tempo = 0.2", "tempo = 1.5", "tempo"),
        ("mobility = [", "mobility = [1.0, ", "opening.mobility"),
        ("base = 2000.0", "base = -1.0", "decided.base"),
        (
            "[small_board.opening]\n",
            "[small_board.opening]\nspeed = 1.0\n",
            "speed",
        ),
        ("[opening]\n", "[opening]\nspeed = 1.0\n", "speed"),
    ] {
        assert!(good.contains(from), "{from}");
        let text = good.replacen(from, to, 1);
        let err = match Classic::from_params(Some(&text)) {
            Ok(_) => panic!("{to} accepted"),
            Err(e) => e,
        };
        assert!(err.contains(key), "{to}: {err}");
    }
}

#[test]
fn small_boards_read_their_own_weights() {
    let full = Classic::DEFAULT_PARAMS;
    let cut = full
        .find("[small_board.opening]")
        .expect("small-board weights");
    let decided = full.find("[decided]").expect("decided scores");
    let without = format!("{}{}", &full[..cut], &full[decided..]);
    let shared = Classic::from_params(Some(&without)).expect("parameters without small_board");
    let eval = classic();
    let ten = game_at("2*3q3/3q6/10/3Q2*2q/1q8/10/Q5Q2Q/10/1*2*5/10 w - - 0 3");
    let eight = game_at("2q2q2/2Q5/q6q/4*3/8/Q6Q/8/5Q2 b - - 0 1");
    assert_eq!(eval.evaluate(&ten), shared.evaluate(&ten));
    assert_ne!(eval.evaluate(&eight), shared.evaluate(&eight));
}

/// The terms computed the plain way: stored distance maps per side, a
/// level-by-level comparison, and a ray walk counting neighbours square by
/// square.
fn reference_terms(game: &Amazons, tempo: f64) -> [f64; 5] {
    use plyd_game_amazons::board::squares;
    use plyd_game_amazons::flood::{DistanceMap, Maps};
    let board = game.board();
    let us = usize::from(board.side);
    let them = us ^ 1;
    let empty = board.empties();
    let g = *board.geometry();
    let territory = |maps: &Maps| {
        let s = maps.split(empty);
        f64::from(s.nearer[us]) - f64::from(s.nearer[them]) + tempo * f64::from(s.tied)
    };
    let closeness = |map: &DistanceMap| -> f64 {
        (1..=map.depth())
            .map(|d| f64::from(map.level(d).count_ones()) * 2f64.powi(1 - d as i32))
            .sum()
    };
    let queen = Maps::queen(board);
    let king = Maps::king(board);
    let (ku, kt) = (&king.maps[us], &king.maps[them]);
    let mut king_position = 0.0;
    for sq in squares(empty) {
        king_position += match (ku.distance(sq), kt.distance(sq)) {
            (Some(a), Some(b)) => ((b as f64 - a as f64) / 6.0).clamp(-1.0, 1.0),
            (Some(_), None) => 1.0,
            (None, Some(_)) => -1.0,
            (None, None) => 0.0,
        };
    }
    let reach = |player: usize| -> f64 {
        let mut total = 0.0;
        for from in squares(board.amazons[player]) {
            for &d in &g.dirs {
                let mut at = i32::from(from) + d;
                let mut steps = 1.0;
                while (0..128).contains(&at) && empty >> at & 1 != 0 {
                    let around = (g.neighbours(1u128 << at) & empty).count_ones();
                    total += f64::from(around) / steps;
                    at += d;
                    steps += 1.0;
                }
            }
        }
        total
    };
    [
        territory(&queen),
        territory(&king),
        closeness(&queen.maps[us]) - closeness(&queen.maps[them]),
        king_position,
        reach(us) - reach(them),
    ]
}

#[test]
fn terms_equal_a_plain_computation_on_random_games() {
    use plyd_api::MoveSink;
    let eval = classic();
    let tempo = eval.params().tempo;
    let mut rng = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut moves = vec![0u32; 5000];
    let mut checked = 0;
    for game_index in 0..40 {
        let mut game = Amazons::new(game_index % 2);
        loop {
            let terms = eval.terms(game.board());
            if terms.separated.is_none() {
                let want = reference_terms(&game, tempo);
                let got = [
                    terms.queen_territory,
                    terms.king_territory,
                    terms.queen_position,
                    terms.king_position,
                    terms.reach,
                ];
                for (g, w) in got.iter().zip(&want) {
                    assert!(
                        (g - w).abs() < 1e-9,
                        "{}: {got:?} vs {want:?}",
                        game.position_text()
                    );
                }
                checked += 1;
            }
            let mut sink = MoveSink::new(&mut moves);
            game.generate_moves(&mut sink);
            let n = sink.len();
            if n == 0 {
                break;
            }
            game.make_move(moves[(next() % n as u64) as usize]);
        }
    }
    assert!(checked > 500, "{checked}");
}

/// A defective region holds fewer moves than empty squares: the first
/// player's region below reaches 8 empty squares but its amazon can make
/// only 6 moves there (squares it can enter only by a move that leaves it
/// nowhere to shoot, or by shooting into them), the same as the 6 of the
/// second player's clean corridor above. Counted by squares the first
/// player would win by 2; counted by moves the side to move runs out first
/// and loses. Both evaluators count moves.
#[test]
fn a_defective_region_counts_its_moves_not_its_squares() {
    let fen = "q6/*******/*******/*******/*1*1*1*/*1*1*1*/Q*1*1**";
    let game = game_at(&format!("{fen} w"));
    let board = game.board();
    assert_eq!(
        plyd_game_amazons::regions::moves_left(board, board.amazons[0]),
        6
    );
    let eval = classic();
    assert_eq!(term(&eval, &game, "separated.ours"), 6.0);
    let base = eval.params().decided.base;
    for side in ["w", "b"] {
        let score = eval.evaluate(&game_at(&format!("{fen} {side}")));
        assert!(
            f64::from(score) <= -base,
            "classic, {side} to move: {score}"
        );
    }
    let tables = plyd_game_amazons::Tables::from_params(None).unwrap();
    let base = tables.params().decided.base;
    for side in ["w", "b"] {
        let score = tables.evaluate(&game_at(&format!("{fen} {side}")));
        assert!(f64::from(score) <= -base, "tables, {side} to move: {score}");
    }
}
