//! Fit the `classic` evaluator's weights to game results (Texel's method,
//! by logistic regression).
//!
//! ```text
//! cargo run --release -p plyd-game-amazons --example tune_classic -- \
//!     [--params plugins/amazons/classic.toml] [--out tuned.toml] \
//!     [--skip 4] [--iterations 3000] [--prior 0.001] GAMES.txt...
//! ```
//!
//! The games are `plyd arena --out` logs of Amazons games on either board
//! (docs/amazons.md gives the commands behind the committed weights). Every
//! position after the first `--skip` plies (the random opening) is kept,
//! except those whose board has already split into separate regions (the
//! evaluator counts moves there instead of weighing terms), and labelled
//! with the game's result for its side to move.
//!
//! The classic score is linear in its weights: each term, and each entry of
//! the mobility table, counts once blended towards its opening value by the
//! share of empty squares and once towards its ending value. So the fit is
//! a logistic regression of the results on those 2 x (5 + 16) features,
//! `P(win) = 1 / (1 + exp(-score / S))` with `S = 400 / ln 10` (so that a
//! score difference reads like an Elo difference), minimising the mean
//! cross-entropy plus `--prior` times the mean squared distance of the
//! weights from their starting values, by full-batch gradient descent
//! (Adam). Positions of boards up to 8x8 and of larger boards are fitted
//! apart (the former give `small_board`). `tempo` and the decided scores
//! are kept. The result is written
//! as a complete parameter file.

use std::path::{Path, PathBuf};

mod common;

use plyd_api::Evaluator;
use plyd_game_amazons::classic::{Classic, Params, Phases, Weights, MOBILITY_ENTRIES};

/// The terms before the mobility table.
const TERMS: usize = 5;
/// Features per phase: the terms and the mobility table.
const PER_PHASE: usize = TERMS + MOBILITY_ENTRIES;
/// All features: opening then ending.
const FEATURES: usize = 2 * PER_PHASE;

/// The logistic curve's scale in score points.
fn curve_scale() -> f64 {
    400.0 / std::f64::consts::LN_10
}

struct Sample {
    x: [f32; FEATURES],
    result: f32,
    /// From a board of 8x8 or smaller.
    small: bool,
}

fn weights_of(opening: &Weights, ending: &Weights) -> [f64; FEATURES] {
    let mut w = [0.0; FEATURES];
    for (phase, p) in [opening, ending].into_iter().enumerate() {
        let base = phase * PER_PHASE;
        w[base] = p.queen_territory;
        w[base + 1] = p.king_territory;
        w[base + 2] = p.queen_position;
        w[base + 3] = p.king_position;
        w[base + 4] = p.reach;
        w[base + TERMS..base + PER_PHASE].copy_from_slice(&p.mobility);
    }
    w
}

fn set_weights(opening: &mut Weights, ending: &mut Weights, w: &[f64; FEATURES]) {
    for (phase, p) in [opening, ending].into_iter().enumerate() {
        let base = phase * PER_PHASE;
        p.queen_territory = w[base];
        p.king_territory = w[base + 1];
        p.queen_position = w[base + 2];
        p.king_position = w[base + 3];
        p.reach = w[base + 4];
        p.mobility = w[base + TERMS..base + PER_PHASE].to_vec();
    }
}

/// The positions of one arena log.
fn read_log(path: &Path, skip: usize, eval: &Classic, out: &mut Vec<Sample>) {
    common::replay(path, |game, ply, result| {
        if ply < skip {
            return;
        }
        let terms = eval.terms(game.board());
        if terms.separated.is_some() {
            return;
        }
        let s = terms.empty_share;
        let mut x = [0f32; FEATURES];
        let raw = [
            terms.queen_territory,
            terms.king_territory,
            terms.queen_position,
            terms.king_position,
            terms.reach,
        ];
        for (i, &v) in raw.iter().enumerate() {
            x[i] = (v * s) as f32;
            x[PER_PHASE + i] = (v * (1.0 - s)) as f32;
        }
        for (i, &n) in terms.mobility.iter().enumerate() {
            x[TERMS + i] = (f64::from(n) * s) as f32;
            x[PER_PHASE + TERMS + i] = (f64::from(n) * (1.0 - s)) as f32;
        }
        out.push(Sample {
            x,
            result,
            small: terms.small,
        });
    });
}

fn main() {
    let mut params_path = PathBuf::from("plugins/amazons/classic.toml");
    let mut out_path = None;
    let mut skip = 4;
    let mut iterations = 3000;
    let mut prior = 0.001;
    let mut logs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| panic!("{name} needs a value"))
        };
        match arg.as_str() {
            "--params" => params_path = value("--params").into(),
            "--out" => out_path = Some(PathBuf::from(value("--out"))),
            "--skip" => skip = value("--skip").parse().expect("--skip N"),
            "--iterations" => iterations = value("--iterations").parse().expect("--iterations N"),
            "--prior" => prior = value("--prior").parse().expect("--prior W"),
            _ => logs.push(PathBuf::from(arg)),
        }
    }
    let text = std::fs::read_to_string(&params_path)
        .unwrap_or_else(|e| panic!("{}: {e}", params_path.display()));
    let start = Classic::from_params(Some(&text)).expect("the starting parameters load");
    let mut params: Params = start.params().clone();
    let mut samples = Vec::new();
    for log in &logs {
        read_log(log, skip, &start, &mut samples);
    }
    assert!(!samples.is_empty(), "no positions in the logs");
    eprintln!("{} positions from {} logs", samples.len(), logs.len());

    let (small, large): (Vec<Sample>, Vec<Sample>) = samples.into_iter().partition(|s| s.small);
    if !large.is_empty() {
        eprintln!("boards above 8x8: {} positions", large.len());
        let w = fit(
            &large,
            weights_of(&params.opening, &params.ending),
            iterations,
            prior,
        );
        set_weights(&mut params.opening, &mut params.ending, &w);
    }
    if !small.is_empty() {
        eprintln!("boards of 8x8 and smaller: {} positions", small.len());
        let (o, e) = start.phases(true);
        let w = fit(&small, weights_of(o, e), iterations, prior);
        let mut phases = Phases {
            opening: o.clone(),
            ending: e.clone(),
        };
        set_weights(&mut phases.opening, &mut phases.ending, &w);
        params.small_board = Some(phases);
    }
    let out = format_params(&params);
    Classic::from_params(Some(&out)).expect("the fitted parameters load");
    match out_path {
        Some(path) => std::fs::write(&path, out).expect("write the output"),
        None => print!("{out}"),
    }
}

/// Fit the weights of one group of samples, starting from `w0`.
fn fit(samples: &[Sample], w0: [f64; FEATURES], iterations: usize, prior: f64) -> [f64; FEATURES] {
    let mut w = w0;
    let scale = curve_scale();
    let n = samples.len() as f64;
    let loss_and_grad = |w: &[f64; FEATURES]| {
        let mut grad = [0.0; FEATURES];
        let mut loss = 0.0;
        for s in samples {
            let score: f64 = s.x.iter().zip(w).map(|(&x, &w)| f64::from(x) * w).sum();
            let p = 1.0 / (1.0 + (-score / scale).exp());
            let y = f64::from(s.result);
            loss -= y * p.max(1e-12).ln() + (1.0 - y) * (1.0 - p).max(1e-12).ln();
            let g = (p - y) / scale;
            for (gi, &x) in grad.iter_mut().zip(&s.x) {
                *gi += g * f64::from(x);
            }
        }
        for i in 0..FEATURES {
            loss += prior * (w[i] - w0[i]).powi(2) * n / FEATURES as f64;
            grad[i] += 2.0 * prior * (w[i] - w0[i]) * n / FEATURES as f64;
        }
        (loss / n, grad.map(|g| g / n))
    };
    let (first_loss, _) = loss_and_grad(&w);
    // Adam, with a step of a fraction of a point.
    let (b1, b2, rate) = (0.9, 0.999, 0.5);
    let mut m = [0.0; FEATURES];
    let mut v = [0.0; FEATURES];
    for t in 1..=iterations {
        let (loss, grad) = loss_and_grad(&w);
        for i in 0..FEATURES {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        if t % 500 == 0 {
            eprintln!("iteration {t}: loss {loss:.5}");
        }
    }
    let (last_loss, _) = loss_and_grad(&w);
    eprintln!("loss {first_loss:.5} -> {last_loss:.5}");
    w
}

fn list(values: &[f64]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("{v:.1}")).collect();
    format!("[{}]", items.join(", "))
}

fn format_params(p: &Params) -> String {
    let mut out = String::from(
        "# Parameters of the Amazons evaluator `classic` (plugins/amazons/src/classic.rs),\n\
         # fitted to game results by examples/tune_classic.rs (docs/amazons.md).\n\
         # Scores are in points for the side to move; a difference of 100 points\n\
         # is about the odds of a 100-Elo edge. Each weight (and each entry of a\n\
         # mobility table) is blended between `opening` (empty board) and `ending`\n\
         # (full board) by the share of the board still empty.\n\n\
         # Share of a square both sides reach equally soon that goes to the side to move.\n",
    );
    out.push_str(&format!("tempo = {}\n", p.tempo));
    let mut sets = vec![("opening", &p.opening), ("ending", &p.ending)];
    if let Some(small) = &p.small_board {
        sets.push(("small_board.opening", &small.opening));
        sets.push(("small_board.ending", &small.ending));
    }
    for (name, w) in sets {
        if name == "small_board.opening" {
            out.push_str("\n# Boards of 8x8 and smaller (above: larger boards).");
        }
        out.push_str(&format!(
            "\n[{name}]\nqueen_territory = {:.1}\nking_territory = {:.1}\nqueen_position = {:.1}\nking_position = {:.1}\nreach = {:.2}\n\
             # Value of one amazon with 0, 1, 2, ... 15 or more squares to move to.\nmobility = {}\n",
            w.queen_territory,
            w.king_territory,
            w.queen_position,
            w.king_position,
            w.reach,
            list(&w.mobility)
        ));
    }
    out.push_str(&format!(
        "\n# Separated boards: base + per_move * margin for the side that wins the count.\n\
         [decided]\nbase = {:.1}\nper_move = {:.1}\n",
        p.decided.base, p.decided.per_move
    ));
    out
}
