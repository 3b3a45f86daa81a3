//! The seed003 evaluator against a plain reading of design document 003:
//! every feature recomputed by breadth-first search on a 2-D array read
//! from the position text, worked examples done by hand, the phases, the
//! side-to-move relation, the parameter checks and the bound.

use crate::common::*;

use plyd_api::Evaluator;
use plyd_game_amazons::seed003::{Seed003, SCORE_BOUND};

/// The document's weights by phase: plies 1-15, 16-35, 36 on.
const WEIGHTS: [[f64; 5]; 3] = [
    [0.14, 0.37, 0.13, 0.13, 0.23],
    [0.3, 0.25, 0.2, 0.2, 0.05],
    [0.8, 0.1, 0.05, 0.05, 0.0],
];

// ---------------------------------------------------------------------------
// The plain reading.

fn sigma(x: f64) -> f64 {
    1.0 / (1.0 + (-2.0 * x).exp())
}

/// The document's features, with the tie counts of both distances.
#[derive(Debug)]
struct Reference {
    t1: f64,
    t2: f64,
    p1: f64,
    p2: f64,
    mobility: [f64; 2],
    n: f64,
    tied: [f64; 2],
}

fn pow2(d: Option<u32>) -> f64 {
    d.map_or(0.0, |d| 0.5f64.powi(d as i32 - 1))
}

fn reference(fen: &str, kappa: f64) -> Reference {
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
                    kappa
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
                p1 += pow2(a) - pow2(b);
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
    let mobility = [us, them].map(|player| {
        let counts: Vec<u32> = grid
            .amazons(player)
            .into_iter()
            .map(|a| grid.moves_from(a))
            .collect();
        let least = counts.iter().copied().min().unwrap_or(0);
        f64::from(counts.iter().sum::<u32>() + 4 * least)
    });
    Reference {
        t1: territory[0],
        t2: territory[1],
        p1,
        p2,
        mobility,
        n: (grid.arrows() + 1) as f64,
        tied,
    }
}

/// The phase (from 1) of ply `n` in the document's table.
fn phase_of(n: f64) -> usize {
    if n <= 15.0 {
        1
    } else if n <= 35.0 {
        2
    } else {
        3
    }
}

/// The document's `q` from the features.
fn blend(r: &Reference, epsilon: f64) -> f64 {
    let [m1, m2] = r.mobility;
    let m = (m1 + epsilon) / (m1 + m2 + 2.0 * epsilon);
    let x = [sigma(r.t1), sigma(r.t2), sigma(r.p1), sigma(r.p2), m];
    let w = WEIGHTS[phase_of(r.n) - 1];
    (0..5).map(|i| w[i] * x[i]).sum()
}

// ---------------------------------------------------------------------------
// Positions.

fn terms(eval: &Seed003, fen: &str) -> Vec<(String, f64)> {
    eval.explain(&game_at(fen))
}

/// Compare every feature of `fen` with the plain reading.
fn check_against_reference(eval: &Seed003, fen: &str, kappa: f64) {
    let r = reference(fen, kappa);
    let t = terms(eval, fen);
    let [m1, m2] = r.mobility;
    let m = (m1 + 1e-10) / (m1 + m2 + 2e-10);
    for (name, expected) in [
        ("t1", r.t1),
        ("t2", r.t2),
        ("p1", r.p1),
        ("p2", r.p2),
        ("M1", m1),
        ("M2", m2),
        ("sigma_t1", sigma(r.t1)),
        ("sigma_t2", sigma(r.t2)),
        ("sigma_p1", sigma(r.p1)),
        ("sigma_p2", sigma(r.p2)),
        ("m", m),
        ("n", r.n),
        ("phase", phase_of(r.n) as f64),
        ("q", blend(&r, 1e-10)),
    ] {
        assert_close(term(&t, name), expected, &format!("{name} of {fen}"));
    }
}

fn edited(from: &str, to: &str) -> String {
    assert!(
        Seed003::DEFAULT_PARAMS.contains(from),
        "'{from}' not in seed003.toml"
    );
    Seed003::DEFAULT_PARAMS.replacen(from, to, 1)
}

// ---------------------------------------------------------------------------
// Tests.

#[test]
fn names_and_game() {
    assert_eq!(Seed003::NAME, "seed003");
    assert_eq!(Seed003::GAME, "amazons");
    assert_eq!(Seed003::SCORE_BOUND, SCORE_BOUND);
}

#[test]
fn features_match_the_plain_reading() {
    let eval = Seed003::default();
    let fens = sample_positions(0x5eed_0003);
    assert!(fens.len() > 700, "{}", fens.len());
    let mut phases = [0; 3];
    for fen in &fens {
        check_against_reference(&eval, fen, 0.2);
        phases[phase_of(reference(fen, 0.2).n) - 1] += 1;
    }
    // Every phase was met.
    assert!(phases.iter().all(|&count| count > 20), "{phases:?}");
    // Another tie value reaches the territory terms.
    let eval = Seed003::from_params(Some(&edited("kappa = 0.2", "kappa = -0.5"))).unwrap();
    for fen in fens.iter().step_by(7) {
        check_against_reference(&eval, fen, -0.5);
    }
}

#[test]
fn king_distances_past_thirty_two_count() {
    // The winding corridor of the seed000 tests: squares up to 45 king
    // moves away, 15 of them beyond 32, tied between the two amazons.
    let fen = "10/1*********/10/*********1/10/1*********/10/*********1/q9/Q9 w - - 0 1";
    check_against_reference(&Seed003::default(), fen, 0.2);
    assert!(reference(fen, 0.2).tied[1] >= 15.0);
}

#[test]
fn a_worked_example() {
    // 4x4, first player (Q) to move, the position worked out by hand in
    // the seed000 tests:
    //
    //   4  . . . q
    //   3  . * . .
    //   2  . . . *
    //   1  Q . . .
    //      a b c d
    //
    // t1 = 2.8, t2 = 1.6, p1 = 1.25 (the document's 2^(1 - D) is seed000's
    // 2 * 2^-D), p2 = 1/6.
    // Q on a1 reaches a2 a3 a4 b1 c1 d1 b2 c3: M1 = 8 + 4 * 8 = 40;
    // q on d4 reaches c4 b4 a4 d3 c3 b2: M2 = 6 + 4 * 6 = 30; m = 4/7.
    // Two arrows: ply n = 3, the first phase.
    // q = 0.14 s(2.8) + 0.37 s(1.6) + 0.13 s(1.25) + 0.13 s(1/6) + 0.23 (4/7)
    //   = 0.14 (0.99632) + 0.37 (0.96083) + 0.13 (0.92414) + 0.13 (0.58257)
    //     + 0.13143 = 0.82229; 2q - 1 = 0.64459, 645 for Q.
    let fen = "3q/1*2/3*/Q3 w - - 0 1";
    let eval = Seed003::default();
    let t = terms(&eval, fen);
    for (name, value) in [
        ("t1", 2.8),
        ("t2", 1.6),
        ("p1", 1.25),
        ("p2", 1.0 / 6.0),
        ("M1", 40.0),
        ("M2", 30.0),
        ("n", 3.0),
        ("phase", 1.0),
    ] {
        assert_close(term(&t, name), value, name);
    }
    assert_close(term(&t, "m"), 4.0 / 7.0, "m");
    let s = |x: f64| 1.0 / (1.0 + (-2.0 * x).exp());
    let q = 0.14 * s(2.8) + 0.37 * s(1.6) + 0.13 * s(1.25) + 0.13 * s(1.0 / 6.0) + 0.23 * 4.0 / 7.0;
    assert_close(term(&t, "q"), q, "q");
    assert_eq!(eval.evaluate(&game_at(fen)), 645);
    check_against_reference(&eval, fen, 0.2);

    // The same placement, q to move: t1 = -2.8 + 2 (0.2) 4 = -1.2,
    // t2 = -1.6 + 2 (0.2) 3 = -0.4, p1 and p2 change sign, M1 and M2
    // change places.
    let t = terms(&eval, &other_side(fen));
    for (name, value) in [
        ("t1", -1.2),
        ("t2", -0.4),
        ("p1", -1.25),
        ("p2", -1.0 / 6.0),
        ("M1", 30.0),
        ("M2", 40.0),
    ] {
        assert_close(term(&t, name), value, name);
    }
}

#[test]
fn a_walled_in_amazon() {
    // 4x4, the seed000 tests' second example:
    //
    //   4  . . . q
    //   3  . . . .
    //   2  * * . .
    //   1  Q * . .
    //      a b c d
    //
    // q to move reaches all 11 empty squares and Q none: t1 = t2 = p2 = 11,
    // p1 = 7 (2^0) + 4 (2^-1) = 9. q moves to 7 squares, Q to none:
    // M1 = 7 + 4 * 7 = 35, M2 = 0, m = (35 + e) / (35 + 2e), a hair
    // under 1. Every sigma is within 1e-7 of 1, so q rounds to 1000.
    let fen = "3q/4/**2/Q*2 b - - 0 1";
    let eval = Seed003::default();
    let t = terms(&eval, fen);
    for (name, value) in [
        ("t1", 11.0),
        ("t2", 11.0),
        ("p1", 9.0),
        ("p2", 11.0),
        ("M1", 35.0),
        ("M2", 0.0),
        ("n", 4.0),
    ] {
        assert_close(term(&t, name), value, name);
    }
    assert!(term(&t, "m") < 1.0);
    assert_eq!(eval.evaluate(&game_at(fen)), 1000);
    // With Q to move (and no move to make) the mirror image: m = e / (35 +
    // 2e), every sigma near 0.
    let other = other_side(fen);
    assert_eq!(term(&terms(&eval, &other), "M1"), 0.0);
    assert!(term(&terms(&eval, &other), "m") > 0.0);
    assert_eq!(eval.evaluate(&game_at(&other)), -1000);
}

#[test]
fn phases_follow_the_ply() {
    // Ply n = arrows + 1: 14 arrows are ply 15 (first phase), 15 arrows
    // ply 16 (second), 34 ply 35 (second), 35 ply 36 (third).
    let eval = Seed003::default();
    let with_arrows = |count: usize| {
        let mut cells: Vec<char> = ".".repeat(100).chars().collect();
        cells[0] = 'Q';
        cells[99] = 'q';
        for cell in cells.iter_mut().skip(20).take(count) {
            *cell = '*';
        }
        let ranks: Vec<String> = cells
            .chunks(10)
            .rev()
            .map(|rank| {
                let text: String = rank.iter().collect();
                // Runs of empty squares as numbers.
                let mut out = String::new();
                let mut run = 0;
                for c in text.chars() {
                    if c == '.' {
                        run += 1;
                    } else {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(c);
                    }
                }
                if run > 0 {
                    out.push_str(&run.to_string());
                }
                out
            })
            .collect();
        format!("{} w - - 0 1", ranks.join("/"))
    };
    for (arrows, phase) in [
        (0, 1.0),
        (14, 1.0),
        (15, 2.0),
        (34, 2.0),
        (35, 3.0),
        (70, 3.0),
    ] {
        let fen = with_arrows(arrows);
        let t = terms(&eval, &fen);
        assert_eq!(term(&t, "n"), arrows as f64 + 1.0, "{fen}");
        assert_eq!(term(&t, "phase"), phase, "{fen}");
        check_against_reference(&eval, &fen, 0.2);
    }
}

#[test]
fn the_other_side_to_move() {
    // The same placement with the other side to move: p1 and p2 change
    // sign, so their sigmas become 1 - sigma; M1 and M2 change places, so
    // m becomes 1 - m; t1 and t2 become -t + 2 kappa T (T the tied squares
    // of each distance). So q' = 1 - q + the sum over i of the t_i weight
    // times sigma(2 kappa T_i - t_i) - sigma(-t_i); with kappa = 0, q' =
    // 1 - q (the weights add up to 1) and the score changes sign.
    let eval = Seed003::default();
    let level = Seed003::from_params(Some(&edited("kappa = 0.2", "kappa = 0.0"))).unwrap();
    for fen in sample_positions(0x0003_5eed).iter().step_by(3) {
        let flipped = other_side(fen);
        let r = reference(fen, 0.2);
        let (a, b) = (terms(&eval, fen), terms(&eval, &flipped));
        for name in ["p1", "p2"] {
            assert_close(term(&b, name), -term(&a, name), name);
            let sigma_name = format!("sigma_{name}");
            assert_close(
                term(&b, &sigma_name),
                1.0 - term(&a, &sigma_name),
                &sigma_name,
            );
        }
        assert_eq!(term(&b, "M1"), term(&a, "M2"));
        assert_eq!(term(&b, "M2"), term(&a, "M1"));
        assert_close(term(&b, "m"), 1.0 - term(&a, "m"), "m");
        let (t1, t2) = (term(&a, "t1"), term(&a, "t2"));
        assert_close(term(&b, "t1"), -t1 + 0.4 * r.tied[0], "t1");
        assert_close(term(&b, "t2"), -t2 + 0.4 * r.tied[1], "t2");
        let w = WEIGHTS[phase_of(r.n) - 1];
        let shift = w[0] * (sigma(0.4 * r.tied[0] - t1) - sigma(-t1))
            + w[1] * (sigma(0.4 * r.tied[1] - t2) - sigma(-t2));
        assert_close(term(&b, "q"), 1.0 - term(&a, "q") + shift, fen);

        let (x, y) = (
            level.explain(&game_at(fen)),
            level.explain(&game_at(&flipped)),
        );
        assert_close(term(&x, "q") + term(&y, "q"), 1.0, fen);
        let (sx, sy) = (term(&x, "total"), term(&y, "total"));
        assert!((sx + sy).abs() <= 1.0, "{fen}: {sx} {sy}");
    }
}

#[test]
fn explain_agrees_with_evaluate() {
    let eval = Seed003::default();
    for fen in sample_positions(0x0e0e_0e03).iter().step_by(5) {
        let t = terms(&eval, fen);
        let names: Vec<&str> = t.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "t1", "t2", "p1", "p2", "M1", "M2", "sigma_t1", "sigma_t2", "sigma_p1", "sigma_p2",
                "m", "n", "phase", "q", "total"
            ]
        );
        let score = eval.evaluate(&game_at(fen));
        assert_eq!(term(&t, "total"), f64::from(score), "{fen}");
        let expected = ((2.0 * term(&t, "q") - 1.0) * 1000.0).round();
        assert_eq!(f64::from(score), expected, "{fen}");
    }
}

#[test]
fn scores_stay_within_the_bound() {
    let eval = Seed003::default();
    let mut largest = 0;
    for fen in sample_positions(0xb0_b0_b3) {
        let score = eval.evaluate(&game_at(&fen));
        assert!(score.abs() <= SCORE_BOUND, "{fen}: {score}");
        largest = largest.max(score.abs());
    }
    // Finished games reach the ends of the range.
    assert_eq!(largest, SCORE_BOUND);
    // A smaller scale shrinks every score.
    let half = Seed003::from_params(Some(&edited("scale = 1000", "scale = 500"))).unwrap();
    let game = game_at("3q/1*2/3*/Q3 w - - 0 1");
    assert_eq!(half.evaluate(&game), 322);
}

#[test]
fn phases_are_parameters() {
    // One phase for the whole game, all on the queen territory: the
    // worked example scores 2 s(2.8) - 1.
    let text = "kappa = 0.2\nepsilon = 1e-10\nscale = 1000\n\n[[phases]]\nfirst_ply = 1\nt1 = 1.0\nt2 = 0.0\np1 = 0.0\np2 = 0.0\nm = 0.0\n";
    let eval = Seed003::from_params(Some(text)).unwrap();
    let game = game_at("3q/1*2/3*/Q3 w - - 0 1");
    let q = 1.0 / (1.0 + (-5.6f64).exp());
    assert_eq!(
        eval.evaluate(&game),
        ((2.0 * q - 1.0) * 1000.0).round() as i32
    );
}

#[test]
fn the_shipped_parameters_are_the_default() {
    let shipped = Seed003::from_params(Some(Seed003::DEFAULT_PARAMS)).unwrap();
    let default = Seed003::from_params(None).unwrap();
    let game = game_at("3q/1*2/3*/Q3 w - - 0 1");
    assert_eq!(shipped.evaluate(&game), default.evaluate(&game));
    let on_disk = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/seed003.toml"));
    assert_eq!(on_disk.unwrap(), Seed003::DEFAULT_PARAMS);
}

#[test]
fn bad_parameters_name_the_key() {
    let cases = [
        (
            edited("kappa = 0.2", "kappa = 1.5"),
            "key 'kappa': 1.5 is outside (-1, 1)",
        ),
        (
            edited("epsilon = 1e-10", "epsilon = 0.0"),
            "key 'epsilon': 0 is not a number greater than 0",
        ),
        (
            edited("scale = 1000", "scale = 2000"),
            "key 'scale': 2000 is outside (0, 1000]",
        ),
        (
            edited("scale = 1000", "scale = -1"),
            "key 'scale': -1 is outside (0, 1000]",
        ),
        (
            edited("first_ply = 1", "first_ply = 2"),
            "key 'phases[0].first_ply': 2, expected 1",
        ),
        (
            edited("first_ply = 36", "first_ply = 16"),
            "key 'phases[2].first_ply': 16, expected a ply after 16",
        ),
        (
            edited("t2 = 0.37", "t2 = 0.47"),
            "key 'phases[0]': the weights add up to 1.1",
        ),
        (
            edited(
                "p1 = 0.2\np2 = 0.2\nm = 0.05",
                "p1 = 0.3\np2 = 0.2\nm = -0.05",
            ),
            "key 'phases[1].m': -0.05 is not a number of at least 0",
        ),
        (
            edited("m = 0.23", "m = 0.23\nn = 4"),
            "key 'phases[0].n': unknown field `n`",
        ),
        (
            edited("kappa = 0.2", "kappa = 0.2\nk = 0.2"),
            "key 'k': unknown field `k`",
        ),
    ];
    for (text, expected) in cases {
        let got = Seed003::from_params(Some(&text)).err();
        assert!(
            got.as_deref().is_some_and(|e| e.starts_with(expected)),
            "got {got:?}, expected {expected}"
        );
    }
    let none = "kappa = 0.2\nepsilon = 1e-10\nscale = 1000\nphases = []\n";
    let e = Seed003::from_params(Some(none)).unwrap_err();
    assert_eq!(e, "key 'phases': no phase given");
}
