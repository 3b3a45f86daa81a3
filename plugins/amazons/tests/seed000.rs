//! The seed000 evaluator against a plain reading of design document 000:
//! every feature recomputed by breadth-first search on a 2-D array read
//! from the position text, worked examples done by hand, the side-to-move
//! relation, the parameter checks and the bound.

use crate::common::*;

use plyd_api::{Evaluator, Game};
use plyd_game_amazons::seed000::{Seed000, SCORE_BOUND};
use plyd_game_amazons::Amazons;

/// The document's tables, for the hand-worked examples.
const F1: [f64; 23] = [
    0.1080, 0.1080, 0.1235, 0.1332, 0.1400, 0.1468, 0.1565, 0.1720, 0.1949, 0.2217, 0.2476, 0.2680,
    0.2800, 0.2884, 0.3000, 0.3208, 0.3535, 0.4000, 0.4613, 0.5350, 0.6181, 0.7075, 0.8000,
];
const F2: [f64; 23] = [
    0.3940, 0.3940, 0.3826, 0.3753, 0.3700, 0.3647, 0.3574, 0.3460, 0.3294, 0.3098, 0.2903, 0.2740,
    0.2631, 0.2559, 0.2500, 0.2430, 0.2334, 0.2200, 0.2020, 0.1800, 0.1550, 0.1280, 0.1000,
];
const F3: [f64; 23] = [
    0.1160, 0.1160, 0.1224, 0.1267, 0.1300, 0.1333, 0.1376, 0.1440, 0.1531, 0.1640, 0.1754, 0.1860,
    0.1944, 0.1995, 0.2000, 0.1950, 0.1849, 0.1700, 0.1510, 0.1287, 0.1038, 0.0773, 0.0500,
];
const F5: [f64; 23] = [
    0.2300, 0.2300, 0.2159, 0.2067, 0.2000, 0.1933, 0.1841, 0.1700, 0.1496, 0.1254, 0.1010, 0.0800,
    0.0652, 0.0557, 0.0500, 0.0464, 0.0436, 0.0400, 0.0346, 0.0274, 0.0190, 0.0097, 0.0000,
];

// ---------------------------------------------------------------------------
// The plain reading.

/// The document's features, with the tie counts of both distances.
#[derive(Debug)]
struct Reference {
    t1: f64,
    t2: f64,
    p1: f64,
    p2: f64,
    m: f64,
    w: f64,
    tied: [f64; 2],
}

fn pow2(d: Option<u32>) -> f64 {
    d.map_or(0.0, |d| 0.5f64.powi(d as i32))
}

fn reference(fen: &str, k: f64) -> Reference {
    let grid = Grid::parse(fen);
    let us = grid.to_move;
    let them = 3 - us;
    let mut territory = [0.0; 2];
    let mut tied = [0.0; 2];
    let (mut p1, mut p2) = (0.0, 0.0);
    for (i, queen) in [(0, true), (1, false)] {
        let ours = grid.distances(us, queen);
        let theirs = grid.distances(them, queen);
        for (f, r) in grid.squares() {
            if !grid.is_empty(f, r) {
                continue;
            }
            let (a, b) = (ours[r as usize][f as usize], theirs[r as usize][f as usize]);
            territory[i] += match (a, b) {
                (None, None) => 0.0,
                (Some(a), Some(b)) if a == b => {
                    tied[i] += 1.0;
                    k
                }
                (Some(_), None) => 1.0,
                (None, Some(_)) => -1.0,
                (Some(a), Some(b)) => {
                    if a < b {
                        1.0
                    } else {
                        -1.0
                    }
                }
            };
            if queen {
                p1 += 2.0 * (pow2(a) - pow2(b));
            } else {
                p2 += match (a, b) {
                    (None, None) => 0.0,
                    (Some(_), None) => 1.0,
                    (None, Some(_)) => -1.0,
                    (Some(a), Some(b)) => ((f64::from(b) - f64::from(a)) / 6.0).clamp(-1.0, 1.0),
                };
            }
        }
    }
    let ours: f64 = grid
        .amazons(us)
        .into_iter()
        .map(|a| grid.flexibility(a))
        .sum();
    let theirs: f64 = grid
        .amazons(them)
        .into_iter()
        .map(|a| grid.flexibility(a))
        .sum();
    Reference {
        t1: territory[0],
        t2: territory[1],
        p1,
        p2,
        m: ours - theirs,
        w: (grid.arrows() / 2 + 1).min(22) as f64,
        tied,
    }
}

// ---------------------------------------------------------------------------
// Positions.

fn terms(eval: &Seed000, fen: &str) -> Vec<(String, f64)> {
    eval.explain(&game_at(fen))
}

/// Compare every feature of `fen` with the plain reading.
fn check_against_reference(eval: &Seed000, fen: &str, k: f64) {
    let r = reference(fen, k);
    let t = terms(eval, fen);
    for (name, expected) in [
        ("t1", r.t1),
        ("t2", r.t2),
        ("p1", r.p1),
        ("p2", r.p2),
        ("m", r.m),
        ("w", r.w),
    ] {
        assert_close(term(&t, name), expected, &format!("{name} of {fen}"));
    }
}

fn edited(from: &str, to: &str) -> String {
    assert!(
        Seed000::DEFAULT_PARAMS.contains(from),
        "'{from}' not in seed000.toml"
    );
    Seed000::DEFAULT_PARAMS.replacen(from, to, 1)
}

// ---------------------------------------------------------------------------
// Tests.

#[test]
fn names_and_game() {
    assert_eq!(Seed000::NAME, "seed000");
    assert_eq!(Seed000::GAME, "amazons");
    assert_eq!(Seed000::SCORE_BOUND, SCORE_BOUND);
}

#[test]
fn features_match_the_plain_reading() {
    let eval = Seed000::default();
    let fens = sample_positions(0x5eed_0000);
    assert!(fens.len() > 700, "{}", fens.len());
    for fen in &fens {
        check_against_reference(&eval, fen, 0.2);
    }
    // Another tie value reaches the territory terms.
    let eval = Seed000::from_params(Some(&edited("k = 0.2", "k = -0.7"))).unwrap();
    for fen in fens.iter().step_by(7) {
        check_against_reference(&eval, fen, -0.7);
    }
}

#[test]
fn king_distances_past_thirty_two_count() {
    // A corridor winding through walls of arrows on ranks 3, 5, 7 and 9,
    // both amazons at its two-square-wide start. Each reaches every square
    // in the same number of king moves, up to 45 (j10); the 15 squares
    // from d8 on, 33 king moves or more away, are tied, not nobody's.
    let fen = "10/1*********/10/*********1/10/1*********/10/*********1/q9/Q9 w - - 0 1";
    let grid = Grid::parse(fen);
    let far = |player| {
        grid.distances(player, false)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|&d| d > 32)
            .count()
    };
    assert_eq!((far(1), far(2)), (15, 15));
    let eval = Seed000::default();
    check_against_reference(&eval, fen, 0.2);
    let r = reference(fen, 0.2);
    assert!(r.tied[1] >= 15.0, "{r:?}");
}

#[test]
fn a_worked_example() {
    // 4x4, first player (Q) to move:
    //
    //   4  . . . q
    //   3  . * . .
    //   2  . . . *
    //   1  Q . . .
    //      a b c d
    //
    // Queen distances, Q / q:
    //   a2 1/2  a3 1/2  a4 1/1  b1 1/2  b2 1/1  b4 2/1
    //   c1 1/2  c2 2/2  c3 1/1  c4 2/1  d1 1/3  d3 2/1
    // Q nearer on a2 a3 b1 c1 d1 (5), q on b4 c4 d3 (3), tied a4 b2 c2 c3
    // (4): t1 = 5 - 3 + 4k = 2.8.
    // p1 = 2 (4 (1/2 - 1/4) + (1/2 - 1/8) - 3 (1/2 - 1/4)) = 1.25.
    //
    // King distances, Q / q:
    //   a2 1/3  a3 2/3  a4 3/3  b1 1/3  b2 1/2  b4 3/2
    //   c1 2/3  c2 2/2  c3 2/1  c4 3/1  d1 3/3  d3 3/1
    // Q nearer on a2 a3 b1 b2 c1 (5), q on b4 c3 c4 d3 (4), tied a4 c2 d1
    // (3): t2 = 5 - 4 + 3k = 1.6.
    // p2 = (2 + 1 + 2 + 1 + 1 + 0 - 1 + 0 - 1 - 2 + 0 - 2) / 6 = 1/6
    // (a2 a3 b1 b2 c1 | a4 b4 c2 c3 c4 d1 d3 in the order of the gaps:
    // a2 +2, b1 +2, b2 +1, a3 +1, c1 +1, c3 -1, b4 -1, c4 -2, d3 -2).
    //
    // Empty neighbours m: a2 3, a3 4, a4 2, b1 4, b2 6, b4 4, c1 4, c2 6,
    // c3 5, c4 3, d1 2, d3 3.
    // F(Q a1) = up a2 3/1 + a3 4/2 + a4 2/3, right b1 4/1 + c1 4/2 +
    //   d1 2/3, diagonal b2 6/1 + c3 5/2 = 125/6.
    // F(q d4) = left c4 3/1 + b4 4/2 + a4 2/3, down d3 3/1, diagonal
    //   c3 5/1 + b2 6/2 = 50/3.
    // m = 125/6 - 100/6 = 25/6.
    //
    // Two arrows: round w = 2.
    let fen = "3q/1*2/3*/Q3 w - - 0 1";
    let eval = Seed000::default();
    let t = terms(&eval, fen);
    assert_close(term(&t, "t1"), 2.8, "t1");
    assert_close(term(&t, "p1"), 1.25, "p1");
    assert_close(term(&t, "t2"), 1.6, "t2");
    assert_close(term(&t, "p2"), 1.0 / 6.0, "p2");
    assert_close(term(&t, "m"), 25.0 / 6.0, "m");
    assert_eq!(term(&t, "w"), 2.0);
    let e = 2.8 * F1[2] + 1.6 * F2[2] + 1.25 * F3[2] + F3[2] / 6.0 + 25.0 / 6.0 * F5[2];
    assert_close(term(&t, "E"), e, "E");
    // E = 2.0309..., times 100.
    assert_eq!(eval.evaluate(&game_at(fen)), 203);
    check_against_reference(&eval, fen, 0.2);

    // The other side to move: p1, p2 and m change sign, each territory
    // becomes -t + 2k * (its ties): t1 = -2.8 + 1.6, t2 = -1.6 + 1.2.
    let t = terms(&eval, &other_side(fen));
    assert_close(term(&t, "t1"), -1.2, "t1");
    assert_close(term(&t, "t2"), -0.4, "t2");
    assert_close(term(&t, "p1"), -1.25, "p1");
    assert_close(term(&t, "p2"), -1.0 / 6.0, "p2");
    assert_close(term(&t, "m"), -25.0 / 6.0, "m");
}

#[test]
fn a_walled_in_amazon() {
    // 4x4, second player (q) to move; Q is walled in and reaches nothing:
    //
    //   4  . . . q
    //   3  . . . .
    //   2  * * . .
    //   1  Q * . .
    //      a b c d
    //
    // q reaches all 11 empty squares, Q none: t1 = t2 = p2 = 11.
    // Queen distances of q: a4 b4 c4 c3 d3 d2 d1 at 1, a3 b3 c2 c1 at 2:
    // p1 = 2 (7/2 + 4/4) = 9.
    // F(q d4) = left c4 4/1 + b4 5/2 + a4 3/3, down d3 4/1 + d2 5/2 +
    //   d1 3/3, diagonal c3 6/1 (b2 is an arrow) = 21; F(Q a1) = 0.
    // Three arrows: w = 2.
    // E = 11 (0.1235 + 0.3826 + 0.1224) + 9 (0.1224) + 21 (0.2159)
    //   = 12.5490, 1255 for q, the side to move.
    let fen = "3q/4/**2/Q*2 b - - 0 1";
    let eval = Seed000::default();
    let t = terms(&eval, fen);
    for (name, value) in [
        ("t1", 11.0),
        ("t2", 11.0),
        ("p1", 9.0),
        ("p2", 11.0),
        ("m", 21.0),
        ("w", 2.0),
    ] {
        assert_close(term(&t, name), value, name);
    }
    assert_eq!(eval.evaluate(&game_at(fen)), 1255);
    check_against_reference(&eval, fen, 0.2);
}

#[test]
fn the_start_position() {
    // The start is symmetric between the players: only the ties are left,
    // worth k to the side to move, so E = k (T1 f1(1) + T2 f2(1)).
    let eval = Seed000::default();
    for fen in [START_10, Amazons::VARIANTS[1].start_position] {
        let r = reference(fen, 0.2);
        let t = terms(&eval, fen);
        for name in ["p1", "p2", "m"] {
            assert_close(term(&t, name), 0.0, name);
        }
        assert_close(term(&t, "t1"), 0.2 * r.tied[0], "t1");
        assert_close(term(&t, "t2"), 0.2 * r.tied[1], "t2");
        assert_eq!(term(&t, "w"), 1.0);
        let e = 0.2 * (r.tied[0] * F1[1] + r.tied[1] * F2[1]);
        assert_close(term(&t, "E"), e, fen);
    }
}

#[test]
fn the_other_side_to_move() {
    // The same placement with the other side to move: p1, p2 and m change
    // sign, t1 and t2 become -t + 2k T (T the tied squares of each
    // distance), so E' = -E + 2k (T1 f1(w) + T2 f2(w)). With k = 0 the
    // score is exactly antisymmetric.
    let eval = Seed000::default();
    let level = Seed000::from_params(Some(&edited("k = 0.2", "k = 0.0"))).unwrap();
    for fen in sample_positions(0x0000_5eed).iter().step_by(3) {
        let flipped = other_side(fen);
        let r = reference(fen, 0.2);
        let (a, b) = (terms(&eval, fen), terms(&eval, &flipped));
        for name in ["p1", "p2", "m"] {
            assert_close(term(&b, name), -term(&a, name), name);
        }
        assert_close(term(&a, "t1") + term(&b, "t1"), 0.4 * r.tied[0], "t1");
        assert_close(term(&a, "t2") + term(&b, "t2"), 0.4 * r.tied[1], "t2");
        let w = r.w as usize;
        let ties = 0.4 * (r.tied[0] * F1[w] + r.tied[1] * F2[w]);
        assert_close(term(&a, "E") + term(&b, "E"), ties, fen);
        let (x, y) = (game_at(fen), game_at(&flipped));
        assert_eq!(level.evaluate(&x), -level.evaluate(&y), "{fen}");
    }
}

#[test]
fn explain_agrees_with_evaluate() {
    let eval = Seed000::default();
    for fen in sample_positions(0x0e0e_0e0e).iter().step_by(5) {
        let t = terms(&eval, fen);
        let names: Vec<&str> = t.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["t1", "t2", "p1", "p2", "m", "w", "E", "total"]);
        let score = eval.evaluate(&game_at(fen));
        assert_eq!(term(&t, "total"), f64::from(score), "{fen}");
        assert_eq!(score, (term(&t, "E") * 100.0).round() as i32, "{fen}");
    }
}

#[test]
fn scores_stay_within_the_bound() {
    let eval = Seed000::default();
    // Every weight 100 times the document's: the score is clamped.
    let mut text = String::from("k = 0.2\nscale = 100\n[weights]\n");
    for name in ["f1", "f2", "f3", "f4", "f5"] {
        text.push_str(&format!("{name} = [{}]\n", ["20.0"; 23].join(", ")));
    }
    let loud = Seed000::from_params(Some(&text)).unwrap();
    let mut clamped = 0;
    for fen in sample_positions(0xb0_b0_b0) {
        let game = game_at(&fen);
        let score = eval.evaluate(&game);
        assert!(score.abs() <= SCORE_BOUND, "{fen}: {score}");
        let score = loud.evaluate(&game);
        assert!(score.abs() <= SCORE_BOUND, "{fen}: {score}");
        if score.abs() == SCORE_BOUND {
            clamped += 1;
        }
    }
    assert!(clamped > 0);
}

#[test]
fn the_scale_is_a_parameter() {
    let fen = "3q/1*2/3*/Q3 w - - 0 1";
    let eval = Seed000::from_params(Some(&edited("scale = 100", "scale = 1000"))).unwrap();
    // E = 2.03094...
    assert_eq!(eval.evaluate(&game_at(fen)), 2031);
}

#[test]
fn the_shipped_parameters_are_the_default() {
    let shipped = Seed000::from_params(Some(Seed000::DEFAULT_PARAMS)).unwrap();
    let default = Seed000::from_params(None).unwrap();
    let game = game_at("3q/1*2/3*/Q3 w - - 0 1");
    assert_eq!(shipped.evaluate(&game), default.evaluate(&game));
    let on_disk = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/seed000.toml"));
    assert_eq!(on_disk.unwrap(), Seed000::DEFAULT_PARAMS);
}

#[test]
fn bad_parameters_name_the_key() {
    let cases = [
        (
            edited("0.0190, 0.0097, 0.0000,", "0.0190, 0.0097,"),
            "key 'weights.f5': 22 values, expected 23",
        ),
        (
            edited("0.1080, 0.1080,", "0.1080, 0.1080, 0.5,"),
            "key 'weights.f1': 24 values, expected 23",
        ),
        (
            edited("0.3940, 0.3940,", "0.3940, nan,"),
            "key 'weights.f2[1]': NaN is not a finite number",
        ),
        (
            edited("0.3940, 0.3940,", "0.3940, \"x\","),
            "key 'weights.f2[1]': expected a number, found a string \"x\"",
        ),
        (
            edited("k = 0.2", "k = 1.0"),
            "key 'k': 1 is outside (-1, 1)",
        ),
        (
            edited("k = 0.2", "k = -1"),
            "key 'k': -1 is outside (-1, 1)",
        ),
        (
            edited("scale = 100", "scale = 0"),
            "key 'scale': 0 is not a number greater than 0",
        ),
        (
            edited("scale = 100", "scale = 100\nscales = 3"),
            "key 'scales': unknown field `scales`",
        ),
        (
            edited("[weights]", "[weights]\nf6 = [1.0]"),
            "key 'weights.f6': unknown field `f6`",
        ),
    ];
    for (text, expected) in cases {
        let got = Seed000::from_params(Some(&text)).err();
        assert!(
            got.as_deref().is_some_and(|e| e.starts_with(expected)),
            "got {got:?}, expected {expected}"
        );
    }
    let missing = edited("k = 0.2\n", "");
    let e = Seed000::from_params(Some(&missing)).unwrap_err();
    assert!(e.starts_with("key 'k': missing"), "{e}");
}
