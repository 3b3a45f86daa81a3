//! Fit the `tables` evaluator's weights to game results (logistic
//! regression, as Texel's method does for chess).
//!
//! ```text
//! cargo run --release -p plyd-game-amazons --example fit_tables -- \
//!     [--iterations 1500] [--prior 1e-7] [--holdout 5] [--out tables.toml] \
//!     GAMES.txt...
//! ```
//!
//! The games are `plyd arena --out` logs of Amazons games on either board.
//! Every position after the first four plies (the random openings) is
//! kept, except those whose board has already split (the evaluator counts
//! moves there), and labelled with the game's result for its side to move.
//!
//! The `tables` score is linear in its weights: every pair-table entry,
//! mobility entry and `reach` counts once blended towards its opening
//! value by the share of empty squares and once towards its ending value.
//! So the fit is a logistic regression of the results on those features,
//! `P(win) = 1 / (1 + exp(-score / S))` with `S = 400 / ln 10` (a score
//! difference reads like an Elo difference), from all-zero weights,
//! minimising the mean cross-entropy plus `--prior` times the sum of the
//! squared weights, by full-batch gradient descent (Adam). Boards up to
//! 8x8 and larger boards are fitted apart (the former give
//! `small_board`). With `--holdout N` every N-th game is kept out of the
//! fit and the cross-entropy on those games is reported too (then the fit
//! is repeated on every game for the output). The shipped weights'
//! cross-entropy on the same positions is reported beside each figure.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod common;

use plyd_api::Evaluator;
use plyd_game_amazons::tables::{Params, Phases, Tables, Weights, BINS, MOBILITY_ENTRIES};

/// Weights per phase: two pair tables, the mobility table, reach.
const PER_PHASE: usize = 2 * BINS * BINS + MOBILITY_ENTRIES + 1;
/// All weights: opening then ending.
const FEATURES: usize = 2 * PER_PHASE;
/// The logistic curve's scale in score points, `400 / ln 10`.
const SCALE: f64 = 173.717_792_761_245_27;

struct Sample {
    x: Vec<f32>,
    result: f32,
    game: usize,
    small: bool,
}

fn features(board: &plyd_game_amazons::board::Board) -> Option<(Vec<f32>, bool)> {
    let t = Tables::terms(board);
    if t.separated.is_some() {
        return None;
    }
    let mut raw = Vec::with_capacity(PER_PHASE);
    for table in [&t.queen, &t.king] {
        raw.extend(table.iter().flatten().map(|&n| n as f32));
    }
    raw.extend(t.mobility.iter().map(|&n| n as f32));
    raw.push(t.reach as f32);
    let s = t.empty_share as f32;
    let mut x = vec![0f32; FEATURES];
    for (i, &v) in raw.iter().enumerate() {
        x[i] = v * s;
        x[PER_PHASE + i] = v * (1.0 - s);
    }
    Some((x, t.small))
}

/// Every position after the random opening of the games of `path`, the
/// games numbered on from `games`.
fn read_log(path: &Path, games: &mut usize, out: &mut Vec<Sample>) {
    common::replay(path, |game, ply, result| {
        if ply == 0 {
            *games += 1;
        }
        if ply >= 4 {
            if let Some((x, small)) = features(game.board()) {
                out.push(Sample {
                    x,
                    result,
                    game: *games,
                    small,
                });
            }
        }
    });
}

fn cross_entropy(samples: &[&Sample], w: &[f64]) -> f64 {
    let mut loss = 0.0;
    for s in samples {
        let score: f64 = s.x.iter().zip(w).map(|(&x, &w)| f64::from(x) * w).sum();
        let p = (1.0 / (1.0 + (-score / SCALE).exp())).clamp(1e-9, 1.0 - 1e-9);
        let y = f64::from(s.result);
        loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    loss / samples.len().max(1) as f64
}

/// Fit the weights of `samples` from zero.
fn fit(samples: &[&Sample], iterations: usize, prior: f64) -> Vec<f64> {
    let mut w = vec![0.0; FEATURES];
    let n = samples.len() as f64;
    let (b1, b2, rate) = (0.9f64, 0.999f64, 0.5f64);
    let mut m = vec![0.0; FEATURES];
    let mut v = vec![0.0; FEATURES];
    for t in 1..=iterations {
        let mut grad = vec![0.0; FEATURES];
        for s in samples {
            let score: f64 = s.x.iter().zip(&w).map(|(&x, &w)| f64::from(x) * w).sum();
            let p = 1.0 / (1.0 + (-score / SCALE).exp());
            let g = (p - f64::from(s.result)) / SCALE;
            for (gi, &x) in grad.iter_mut().zip(&s.x) {
                *gi += g * f64::from(x);
            }
        }
        for i in 0..FEATURES {
            let g = grad[i] / n + 2.0 * prior * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        if t % 500 == 0 {
            eprintln!(
                "  iteration {t}: cross-entropy {:.5}",
                cross_entropy(samples, &w)
            );
        }
    }
    w
}

fn weights_from(w: &[f64]) -> Weights {
    let table = |at: usize| {
        let mut t = [[0.0; BINS]; BINS];
        for (i, row) in t.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = (w[at + i * BINS + j] * 10.0).round() / 10.0;
            }
        }
        t
    };
    let mob = 2 * BINS * BINS;
    Weights {
        queen: table(0),
        king: table(BINS * BINS),
        mobility: w[mob..mob + MOBILITY_ENTRIES]
            .iter()
            .map(|v| (v * 10.0).round() / 10.0)
            .collect(),
        reach: (w[mob + MOBILITY_ENTRIES] * 100.0).round() / 100.0,
    }
}

/// The weight vector of one phase's weights (the inverse of
/// [`weights_from`], rounding aside).
fn vector_of(w: &Weights) -> Vec<f64> {
    let mut v: Vec<f64> = [&w.queen, &w.king]
        .iter()
        .flat_map(|t| t.iter().flatten().copied())
        .collect();
    v.extend(&w.mobility);
    v.push(w.reach);
    v
}

/// The weight vector the shipped parameters use on boards of one group.
fn shipped_vector(p: &Params, small: bool) -> Vec<f64> {
    let (opening, ending) = match (&p.small_board, small) {
        (Some(phases), true) => (&phases.opening, &phases.ending),
        _ => (&p.opening, &p.ending),
    };
    let mut v = vector_of(opening);
    v.extend(vector_of(ending));
    assert_eq!(v.len(), FEATURES);
    v
}

fn phases_from(w: &[f64]) -> Phases {
    Phases {
        opening: weights_from(&w[..PER_PHASE]),
        ending: weights_from(&w[PER_PHASE..]),
    }
}

fn format_weights(out: &mut String, section: &str, w: &Weights) {
    let list = |values: &[f64]| {
        let items: Vec<String> = values.iter().map(|v| format!("{v:.1}")).collect();
        format!("[{}]", items.join(", "))
    };
    let _ = writeln!(out, "\n[{section}]");
    for (name, table) in [("queen", &w.queen), ("king", &w.king)] {
        let _ = writeln!(out, "{name} = [");
        for row in table {
            let _ = writeln!(out, "    {},", list(row));
        }
        let _ = writeln!(out, "]");
    }
    let _ = writeln!(out, "mobility = {}", list(&w.mobility));
    let _ = writeln!(out, "reach = {:.2}", w.reach);
}

fn format_params(p: &Params) -> String {
    let mut out = String::from(
        "# Parameters of the Amazons evaluator `tables` (plugins/amazons/src/tables.rs),\n\
         # fitted to game results by examples/fit_tables.rs (docs/amazons.md).\n\
         # Scores are in points for the side to move; a difference of 100 points\n\
         # is about the odds of a 100-Elo edge. Each weight is blended between\n\
         # `opening` (empty board) and `ending` (full board) by the share of the\n\
         # board still empty.\n\
         #\n\
         # queen, king: the value of one empty square by distance bins, a row per\n\
         # bin of the side to move (1, 2, 3, 4, 5, 6 or more, never), a column per\n\
         # bin of the opponent. mobility: the value of one amazon with 0, 1, 2, ...\n\
         # 15 or more squares to move to. reach: per unit of seed000's mobility m.\n",
    );
    format_weights(&mut out, "opening", &p.opening);
    format_weights(&mut out, "ending", &p.ending);
    if let Some(small) = &p.small_board {
        out.push_str("\n# Boards of 8x8 and smaller (above: larger boards).");
        format_weights(&mut out, "small_board.opening", &small.opening);
        format_weights(&mut out, "small_board.ending", &small.ending);
    }
    let _ = writeln!(
        out,
        "\n# Separated boards: base + per_move * margin for the side that wins the count.\n\
         [decided]\nbase = {:.1}\nper_move = {:.1}",
        p.decided.base, p.decided.per_move
    );
    out
}

fn main() {
    let mut out_path = None;
    let mut iterations = 1500;
    let mut prior = 1e-7;
    let mut holdout = 0usize;
    let mut logs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| panic!("{name} needs a value"))
        };
        match arg.as_str() {
            "--out" => out_path = Some(PathBuf::from(value("--out"))),
            "--iterations" => iterations = value("--iterations").parse().expect("--iterations N"),
            "--prior" => prior = value("--prior").parse().expect("--prior W"),
            "--holdout" => holdout = value("--holdout").parse().expect("--holdout N"),
            _ => logs.push(PathBuf::from(arg)),
        }
    }
    let mut samples = Vec::new();
    let mut games = 0;
    for log in &logs {
        read_log(log, &mut games, &mut samples);
    }
    assert!(!samples.is_empty(), "no positions in the logs");
    eprintln!("{} positions from {games} games", samples.len());

    let start = Tables::from_params(None).expect("the shipped parameters load");
    let mut params = start.params().clone();
    for small in [false, true] {
        let group: Vec<&Sample> = samples.iter().filter(|s| s.small == small).collect();
        if group.is_empty() {
            continue;
        }
        let name = if small {
            "8x8 and smaller"
        } else {
            "above 8x8"
        };
        eprintln!("boards {name}: {} positions", group.len());
        let shipped = shipped_vector(start.params(), small);
        if holdout > 1 {
            let (test, train): (Vec<&Sample>, Vec<&Sample>) =
                group.iter().partition(|s| s.game % holdout == 0);
            eprintln!(
                "boards {name}: the shipped weights' cross-entropy {:.5} on the {} held out",
                cross_entropy(&test, &shipped),
                test.len()
            );
            let w = fit(&train, iterations, prior);
            eprintln!(
                "boards {name}: cross-entropy {:.5} on the fitted games, {:.5} on the {} held out",
                cross_entropy(&train, &w),
                cross_entropy(&test, &w),
                test.len()
            );
        }
        let w = fit(&group, iterations, prior);
        eprintln!(
            "boards {name}: cross-entropy {:.5} on every game ({:.5} with the shipped weights)",
            cross_entropy(&group, &w),
            cross_entropy(&group, &shipped)
        );
        let phases = phases_from(&w);
        if small {
            params.small_board = Some(phases);
        } else {
            params.opening = phases.opening;
            params.ending = phases.ending;
        }
    }
    let out = format_params(&params);
    Tables::from_params(Some(&out)).expect("the fitted parameters load");
    match out_path {
        Some(path) => std::fs::write(&path, out).expect("write the output"),
        None => print!("{out}"),
    }
}
