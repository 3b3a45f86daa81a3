//! How far the learned estimate (and the race) lies from the truth where
//! the truth can still be counted: plays games from random arrangements
//! (random rolls, each side taking the step the shipped network rates best
//! one ply deep, or with probability `--explore` a random step, as a weaker
//! opponent would), takes the first position before a roll with exactly
//! `--stones` stones of each game, solves it exactly from nothing and
//! compares every estimate with the exact value.
//!
//! ```sh
//! cargo run --release -p plyd-game-einstein --example learned_error -- \
//!     --games 300 --stones 6 --explore 0.2 [--weights FILE]...
//! ```
//!
//! `--save FILE` writes each position solved (the moves from the set-up)
//! with its exact value; `--load FILE` reads such a file instead of playing
//! and solving, so that networks compare on one set in seconds.
//!
//! `--playouts N` scores one more estimate: the share of `N` games played
//! on from the position by the shipped network's best step one ply deep
//! (both sides, random rolls), as a Monte-Carlo search's playouts would.
//!
//! Prints, for the race and each network (the shipped one first), the
//! mean squared and mean absolute error against the exact values and the
//! mean log loss (the exact value taken as the target probability), over
//! the positions solved within `--budget` new positions each.

use std::time::Instant;

use plyd_einstein_rules::board::{Board, ARRANGE, ARRANGEMENTS, ROLL};
use plyd_game_einstein::exact::{Ending, Solver};
use plyd_game_einstein::learned::{self, Net};
use plyd_game_einstein::{endgame, Odds};

#[path = "shared/flags.rs"]
mod flags;
#[path = "shared/rng.rs"]
mod rng;
use rng::Rng;

/// The step `net` rates best one ply deep after the roll.
fn best_step(net: &Net, board: &Board) -> u32 {
    let mut best = (f64::MIN, 0);
    let mut child = board.clone();
    board.for_each_step(board.roll, &mut |mv| {
        let undo = child.play(mv);
        let v = if child.is_over() {
            2.0
        } else {
            1.0 - endgame::win_probability(&child).unwrap_or_else(|| net.probability(&child))
        };
        child.take_back(mv, undo);
        if v > best.0 {
            best = (v, mv);
        }
    });
    best.1
}

/// The share of `n` games won by the side to move at `board` (before its
/// roll), each played on with random rolls and the shipped network's best
/// step one ply deep for both sides, as far as the table's exact values
/// of three stones or fewer (counted as their probability).
fn rollout(net: &Net, board: &Board, n: usize, rng: &mut Rng) -> f64 {
    let me = board.mover();
    let mut wins = 0.0;
    for _ in 0..n {
        let mut b = board.clone();
        loop {
            if b.is_over() {
                if b.winner() == Some(me) {
                    wins += 1.0;
                }
                break;
            }
            if let Some(p) = endgame::win_probability(&b) {
                wins += if b.mover() == me { p } else { 1.0 - p };
                break;
            }
            let roll = ROLL + 1 + rng.below(6) as u32;
            b.play(roll);
            let mv = best_step(net, &b);
            b.play(mv);
        }
    }
    wins / n as f64
}

struct Tally {
    name: String,
    squared: f64,
    absolute: f64,
    log_loss: f64,
}

impl Tally {
    fn new(name: String) -> Tally {
        Tally {
            name,
            squared: 0.0,
            absolute: 0.0,
            log_loss: 0.0,
        }
    }

    fn add(&mut self, estimate: f64, truth: f64) {
        let e = estimate.clamp(1e-6, 1.0 - 1e-6);
        self.squared += (e - truth) * (e - truth);
        self.absolute += (e - truth).abs();
        // Cross-entropy less the truth's own entropy: 0 for a perfect estimate.
        let t = truth.clamp(1e-9, 1.0 - 1e-9);
        self.log_loss += t * (t / e).ln() + (1.0 - t) * ((1.0 - t) / (1.0 - e)).ln();
    }
}

fn main() {
    let mut games = 300usize;
    let mut stones = 6usize;
    let mut explore = 0.2f64;
    let mut budget = 50_000_000usize;
    let mut seed = 1u64;
    let mut rollouts = 0usize;
    let mut weights: Vec<String> = Vec::new();
    let (mut save, mut load): (Option<String>, Option<String>) = (None, None);
    for (flag, value) in flags::flags() {
        match flag.as_str() {
            "--games" => games = value.parse().expect("--games"),
            "--stones" => stones = value.parse().expect("--stones"),
            "--explore" => explore = value.parse().expect("--explore"),
            "--budget" => budget = value.parse().expect("--budget"),
            "--seed" => seed = value.parse().expect("--seed"),
            "--playouts" => rollouts = value.parse().expect("--playouts"),
            "--weights" => weights.push(value),
            "--save" => save = Some(value),
            "--load" => load = Some(value),
            _ => panic!("unknown flag {flag}"),
        }
    }
    let shipped = learned::shipped();
    let mut nets: Vec<(String, std::sync::Arc<Net>)> = vec![("shipped".into(), shipped.clone())];
    for w in &weights {
        nets.push((w.clone(), learned::from_file(w).expect("--weights")));
    }
    let race = Odds::racing();
    let mut tallies: Vec<Tally> = std::iter::once("race".to_string())
        .chain(nets.iter().map(|(n, _)| n.clone()))
        .map(Tally::new)
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let (mut counted, mut over_budget) = (0usize, 0usize);
    let start = Instant::now();
    let mut saved = String::new();
    let mut rollout_rng = Rng(0x5851_f42d_4c95_7f2d ^ seed);
    let mut rollout_tally = Tally::new(format!("{rollouts} playouts"));
    let mut score = |board: &Board, truth: f64, tallies: &mut Vec<Tally>| {
        if rollouts > 0 {
            rollout_tally.add(rollout(&shipped, board, rollouts, &mut rollout_rng), truth);
        }
        tallies[0].add(race.probability(board), truth);
        for (t, (_, net)) in tallies[1..].iter_mut().zip(&nets) {
            t.add(net.probability(board), truth);
        }
    };
    if let Some(path) = &load {
        for line in std::fs::read_to_string(path).expect("--load").lines() {
            let mut words = line.split_whitespace();
            let truth: f64 = words.next().expect("a value").parse().expect("a value");
            let mut board = Board::setup();
            for w in words {
                let mv: u32 = w.parse().expect("a move");
                assert!(board.is_legal(mv), "{path}: move {mv} is not legal here");
                board.play(mv);
            }
            score(&board, truth, &mut tallies);
            counted += 1;
        }
    }
    // A loaded set replaces the games.
    let games = if load.is_some() { 0 } else { games };
    for _ in 0..games {
        let mut moves: Vec<u32> = Vec::new();
        let mut board = Board::setup();
        for _ in 0..2 {
            let mv = ARRANGE + rng.below(ARRANGEMENTS) as u32;
            board.play(mv);
            moves.push(mv);
        }
        while !board.is_over() {
            let n = usize::from(board.counts[0] + board.counts[1]);
            if n < stones {
                break;
            }
            if n == stones {
                let e = Ending::of(&board).expect("an ending in play");
                let mut solver = Solver::new();
                match solver.solve(&e, budget) {
                    Some(truth) => {
                        score(&board, truth, &mut tallies);
                        counted += 1;
                        saved += &format!("{truth}");
                        for mv in &moves {
                            saved += &format!(" {mv}");
                        }
                        saved.push('\n');
                    }
                    None => over_budget += 1,
                }
                break;
            }
            let roll = ROLL + 1 + rng.below(6) as u32;
            board.play(roll);
            moves.push(roll);
            let mv = if rng.unit() < explore {
                rng.step(&board)
            } else {
                best_step(&shipped, &board)
            };
            board.play(mv);
            moves.push(mv);
        }
    }
    if let Some(path) = &save {
        std::fs::write(path, &saved).expect("--save");
    }
    match &load {
        Some(path) => println!("{counted} positions from {path}"),
        None => println!(
            "{counted} positions of {stones} stones solved exactly ({over_budget} over the budget), {:.0} s",
            start.elapsed().as_secs_f64()
        ),
    }
    let k = counted.max(1) as f64;
    if rollouts > 0 {
        tallies.push(rollout_tally);
    }
    for t in &tallies {
        println!(
            "{:>20}: squared error {:.5}, absolute error {:.4}, log loss {:.5}",
            t.name,
            t.squared / k,
            t.absolute / k,
            t.log_loss / k
        );
    }
}
