//! Fit the `classic` evaluator's weights to game results (Texel's method).
//!
//! ```text
//! cargo run --release -p plyd-game-xiangqi --example tune_xiangqi -- \
//!     [--params plugins/xiangqi/classic.toml] [--out tuned.toml] [--rounds 6] \
//!     [--only tables,mobility] GAMES.txt...
//! ```
//!
//! The games are `plyd arena --out` logs of xiangqi games from the start
//! position (docs/xiangqi.md gives the command that makes the committed
//! weights' games). From every game the positions after its tenth ply in
//! which the side to move is not in check and the move played was not a
//! capture are kept (quiet positions, where the static score should tell
//! the outcome), each labelled with the game's result for Red. The loss is
//! the mean squared difference between the result and
//! `1 / (1 + 10^(-K * score / 400))` of the evaluator's score for Red,
//! plus `--prior W` (default 0) times the sum of each weight's squared
//! distance from its starting value: a pull towards the hand-set values
//! for the weights the games say little about (endgame terms of positions
//! that seldom occur). `--only` fits just the weights whose dotted names
//! start with one of the given prefixes. `K` is fitted first and then
//! held. Every integer in the parameter file is then moved up and down by
//! its step, keeping each move that lowers the loss, round after round; a
//! round with no gain halves the steps, and ends the fit once every step
//! is down to one. The result is the parameter file with the numbers
//! replaced, comments kept.
//!
//! `--labels FILE` (repeatable) adds positions scored by plyd's own search
//! (`tests/tools/xiangqi_labels.py` writes them: result, score, next move,
//! moves), kept by the same rule. Once `K` is fitted to the results, each
//! labelled position is fitted to `L × result + (1 − L) ×
//! 1 / (1 + 10^(-K × search score / 400))` instead of its result alone,
//! `L` given by `--lambda` (default 0: the search's score only), so that
//! the static score learns what a deeper look at the same position says.
//! `--min-step N` starts every step at N or more (the per-square
//! corrections of `[psqt.<kind>]` start at 0, whose step would be 1).

use std::collections::BTreeMap;
use std::path::PathBuf;

use plyd_api::{Evaluator, Game};
use plyd_game_xiangqi::board::{to_sq, Position, EMPTY, RED};
use plyd_game_xiangqi::{Classic, Xiangqi};

/// Plies skipped at the start of every game (the random opening and the
/// first moves after it).
const SKIP_PLIES: usize = 10;

/// One training position: the board, the result for Red (1, 0.5, 0), a
/// search's score for Red where labelled, and what the fit aims at (the
/// result until the labels are blended in).
struct Sample {
    position: Position,
    result: f64,
    label: Option<f64>,
    target: f64,
}

/// The command line, for `--help` and for a command that cannot run.
const USAGE: &str = "usage: tune_xiangqi [--params FILE] [--out FILE] [--rounds N] [--prior W] \
    [--only P,...] [--min-step N] [--labels FILE [--lambda L]] GAMES.txt...\n\
    GAMES.txt: plyd arena --out logs of xiangqi games; the progress goes to stderr, the fitted \
    parameter file to --out (or stdout); see docs/xiangqi.md";

/// Say why the fit cannot run, and stop.
fn fail(why: &str) -> ! {
    eprintln!("tune_xiangqi: {why}");
    std::process::exit(2);
}

/// The value after `flag`, read as a `T`.
fn value<T: std::str::FromStr>(args: &mut impl Iterator<Item = String>, flag: &str) -> T {
    let text = args
        .next()
        .unwrap_or_else(|| fail(&format!("{flag} needs a value\n{USAGE}")));
    text.parse()
        .unwrap_or_else(|_| fail(&format!("{flag} {text}: not a value it takes\n{USAGE}")))
}

/// A file's text, or a line naming it and why it cannot be read.
fn read(path: &std::path::Path, what: &str) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| fail(&format!("{what} {}: {e}", path.display())))
}

fn main() {
    let mut params_path = PathBuf::from("plugins/xiangqi/classic.toml");
    let mut out_path: Option<PathBuf> = None;
    let mut rounds = 6;
    let mut prior = 0.0;
    let mut only: Vec<String> = Vec::new();
    let mut logs = Vec::new();
    let mut labels = Vec::new();
    let mut lambda = 0.0;
    let mut min_step = 1;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--help" | "-h" => {
                println!("{USAGE}");
                return;
            }
            "--params" => params_path = value(&mut args, "--params"),
            "--out" => out_path = Some(value(&mut args, "--out")),
            "--rounds" => rounds = value(&mut args, "--rounds"),
            "--prior" => prior = value(&mut args, "--prior"),
            "--min-step" => min_step = value(&mut args, "--min-step"),
            "--labels" => labels.push(value::<PathBuf>(&mut args, "--labels")),
            "--lambda" => lambda = value(&mut args, "--lambda"),
            "--only" => {
                only = value::<String>(&mut args, "--only")
                    .split(',')
                    .map(str::to_string)
                    .collect()
            }
            flag if flag.starts_with('-') => fail(&format!("unknown option {flag}\n{USAGE}")),
            _ => logs.push(PathBuf::from(arg)),
        }
    }
    if logs.is_empty() && labels.is_empty() {
        fail(&format!("no games and no labels to fit to\n{USAGE}"));
    }
    let text = read(&params_path, "the parameter file");
    // The starting file is checked before the games are read: a typo in it
    // is the file's, not the fit's.
    if let Err(e) = Classic::from_params(Some(&text)) {
        fail(&format!(
            "the parameter file {}: {e}",
            params_path.display()
        ));
    }
    let mut samples = Vec::new();
    for log in &logs {
        let text = read(log, "the game log");
        // A log of another game (its moves would replay as nothing) or a
        // file that is no log is refused by name, not fitted to nothing.
        match log_variant(&text) {
            Some("xiangqi") => {}
            Some(other) => fail(&format!(
                "{}: a log of {other} games (its Variant tag); the tuner reads xiangqi's",
                log.display()
            )),
            None => fail(&format!(
                "{}: not a plyd arena game log (no [Variant \"...\"] tag)",
                log.display()
            )),
        }
        let left_out = read_games(&text, &mut samples);
        if left_out > 0 {
            eprintln!(
                "{}: {left_out} games start from a position text and are left out (the tuner \
                 replays games from the start position)",
                log.display()
            );
        }
    }
    for file in &labels {
        read_labels(&read(file, "the label file"), &mut samples);
    }
    eprintln!(
        "{} positions from {} files",
        samples.len(),
        logs.len() + labels.len()
    );
    if samples.is_empty() {
        fail("no positions to fit to: the games and labels gave none past their tenth ply");
    }

    let mut values = numbers(&text);
    let start = values.clone();
    let names: Vec<String> = values
        .keys()
        .filter(|name| only.is_empty() || only.iter().any(|p| name.starts_with(p.as_str())))
        .cloned()
        .collect();
    let loss_of = |samples: &[Sample], values: &BTreeMap<String, i64>, k: f64| -> f64 {
        let evaluator = Classic::from_params(Some(&rewrite(&text, values)))
            .unwrap_or_else(|e| panic!("tuned parameters refused: {e}"));
        let pull: f64 = values
            .iter()
            .map(|(name, &v)| ((v - start[name]) as f64).powi(2))
            .sum();
        loss(&evaluator, samples, k) + prior * pull
    };

    // K: a scan, then a finer one around the best.
    let mut k = 1.0;
    let mut best = f64::MAX;
    for step in [0.1, 0.01] {
        let centre = k;
        for i in -10..=10 {
            let candidate: f64 = centre + step * f64::from(i);
            if candidate <= 0.0 {
                continue;
            }
            let l = loss_of(&samples, &values, candidate);
            if l < best {
                best = l;
                k = candidate;
            }
        }
    }
    eprintln!("K {k:.3}, loss {best:.6}");
    if !labels.is_empty() {
        for sample in &mut samples {
            if let Some(label) = sample.label {
                let searched = 1.0 / (1.0 + 10f64.powf(-k * label / 400.0));
                sample.target = lambda * sample.result + (1.0 - lambda) * searched;
            }
        }
        best = loss_of(&samples, &values, k);
        eprintln!("aiming at the labels (lambda {lambda}): loss {best:.6}");
    }

    let mut steps: BTreeMap<String, i64> = values
        .iter()
        .map(|(name, &v)| (name.clone(), (v.abs() / 10).clamp(1, 20).max(min_step)))
        .collect();
    for round in 1..=rounds {
        let mut improved = false;
        for name in &names {
            let step = steps[name];
            for delta in [step, -step] {
                let mut trial = values.clone();
                *trial.get_mut(name).unwrap() += delta;
                if Classic::from_params(Some(&rewrite(&text, &trial))).is_err() {
                    continue;
                }
                let l = loss_of(&samples, &trial, k);
                if l < best {
                    best = l;
                    values = trial;
                    improved = true;
                    break;
                }
            }
        }
        eprintln!("round {round}: loss {best:.6}");
        if !improved {
            // Nothing moves at the smallest steps: the fit is done.
            if names.iter().all(|name| steps[name] == 1) {
                break;
            }
            for step in steps.values_mut() {
                *step = (*step / 2).max(1);
            }
        }
    }
    let tuned = rewrite(&text, &values);
    match out_path {
        Some(path) => std::fs::write(&path, &tuned)
            .unwrap_or_else(|e| fail(&format!("--out {}: {e}", path.display()))),
        None => print!("{tuned}"),
    }
}

/// The variant an arena log's header names (`[Variant "xiangqi"]`).
fn log_variant(log: &str) -> Option<&str> {
    log.lines()
        .take_while(|line| line.starts_with('[') || line.trim().is_empty())
        .find_map(|line| line.strip_prefix("[Variant \"")?.strip_suffix("\"]"))
}

/// Read the games of one arena log into samples; how many games it left
/// out for starting from a position text.
fn read_games(log: &str, samples: &mut Vec<Sample>) -> usize {
    let mut result = None;
    let mut left_out = 0;
    for line in log.lines() {
        if line.starts_with("position fen ") {
            left_out += 1;
            continue;
        }
        if let Some(rest) = line.strip_prefix("[Result \"") {
            result = match rest.trim_end_matches("\"]") {
                "1-0" => Some(1.0),
                "0-1" => Some(0.0),
                "1/2-1/2" => Some(0.5),
                _ => None,
            };
        } else if let Some(moves) = line.strip_prefix("position startpos moves ") {
            if let Some(result) = result.take() {
                let moves: Vec<&str> = moves.split_whitespace().collect();
                for (ply, position) in replay(&moves) {
                    if ply >= SKIP_PLIES {
                        samples.push(Sample {
                            position,
                            result,
                            label: None,
                            target: result,
                        });
                    }
                }
            }
        }
    }
    left_out
}

/// Read the positions of one label file into samples.
fn read_labels(text: &str, samples: &mut Vec<Sample>) {
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [result, score, next, moves] = fields[..] else {
            continue;
        };
        let (Ok(result), Ok(score)) = (result.parse::<f64>(), score.parse::<f64>()) else {
            continue;
        };
        let mut moves: Vec<&str> = moves.split_whitespace().collect();
        let ply = moves.len();
        moves.push(next);
        // The last quiet position of the replay is the labelled one.
        if let Some((at, position)) = replay(&moves).pop() {
            if at == ply {
                let red = if position.side() == RED {
                    score
                } else {
                    -score
                };
                samples.push(Sample {
                    position,
                    result,
                    label: Some(red),
                    target: result,
                });
            }
        }
    }
}

/// Replay one game: its quiet positions (not in check, the move played
/// there not a capture), with their plies.
fn replay(moves: &[&str]) -> Vec<(usize, Position)> {
    let mut game = Xiangqi::new(0);
    let mut quiet_positions = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        let Some(mv) = game.parse_move(text).filter(|&mv| game.is_legal(mv)) else {
            break;
        };
        let quiet = game.position().board[to_sq(mv)] == EMPTY;
        if quiet && !game.in_check() {
            quiet_positions.push((ply, *game.position()));
        }
        game.make_move(mv);
    }
    quiet_positions
}

/// Mean squared error of the predicted results, on two threads.
fn loss(evaluator: &Classic, samples: &[Sample], k: f64) -> f64 {
    let half = samples.len() / 2;
    let (a, b) = samples.split_at(half);
    let part = |chunk: &[Sample]| -> f64 {
        chunk
            .iter()
            .map(|s| {
                let score = evaluator.score(&s.position);
                let red = if s.position.side() == RED {
                    score
                } else {
                    -score
                };
                let predicted = 1.0 / (1.0 + 10f64.powf(-k * f64::from(red) / 400.0));
                (s.target - predicted).powi(2)
            })
            .sum()
    };
    let total = std::thread::scope(|scope| {
        let other = scope.spawn(|| part(b));
        part(a) + other.join().expect("the loss thread")
    });
    total / samples.len().max(1) as f64
}

/// Every integer of a parameter file by dotted path (`material.horse.mg`),
/// read from lines `key = N` and `key = { mg = N, eg = M }` under
/// `[section]` headers, the only shapes `classic.toml` has.
fn numbers(text: &str) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    walk(text, |path, value| {
        out.insert(path.to_string(), value);
        value
    });
    out
}

/// The file with every integer replaced by its value in `values`.
fn rewrite(text: &str, values: &BTreeMap<String, i64>) -> String {
    walk(text, |path, value| {
        values.get(path).copied().unwrap_or(value)
    })
}

/// Visit every integer of the file, rebuilding it with what `visit` returns.
fn walk(text: &str, mut visit: impl FnMut(&str, i64) -> i64) -> String {
    let mut section = String::new();
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = trimmed.trim_matches(['[', ']']).to_string();
            out.push_str(line);
        } else if trimmed.starts_with('#') || !trimmed.contains('=') {
            out.push_str(line);
        } else {
            let (key, value) = line.split_once('=').unwrap();
            let key_name = key.trim();
            let prefix = if section.is_empty() {
                key_name.to_string()
            } else {
                format!("{section}.{key_name}")
            };
            let value = value.trim();
            out.push_str(key);
            out.push_str("= ");
            if let Some(inner) = value.strip_prefix('{') {
                let inner = inner.trim_end_matches('}');
                let parts: Vec<String> = inner
                    .split(',')
                    .map(|part| {
                        let (k, v) = part.split_once('=').expect("key = value");
                        let n: i64 = v.trim().parse().expect("an integer");
                        format!(
                            "{} = {}",
                            k.trim(),
                            visit(&format!("{prefix}.{}", k.trim()), n)
                        )
                    })
                    .collect();
                out.push_str(&format!("{{ {} }}", parts.join(", ")));
            } else {
                let n: i64 = value.parse().expect("an integer");
                out.push_str(&visit(&prefix, n).to_string());
            }
        }
        out.push('\n');
    }
    out
}
