//! Train the n-tuple network of `learned` (see `src/learned.rs`) by
//! temporal differences, TD(0), in games against itself, and write it to
//! `learned.bin`.
//!
//! Each game starts from two random arrangements; the dice are random and
//! the side to move takes the step the network rates best one ply deep
//! (`--lookahead N`: the expectimax over `N` more rolls and steps). The
//! estimate of each position before a roll is moved towards the value of
//! the step taken: 1 if it wins, else one minus the estimate of the
//! position it leaves, or one minus the exact value once three stones or
//! fewer are left (the shipped table; `--exact-budget N` adds four-stone
//! endings the solver of `exact` finishes within `N` new positions), where
//! the game stops.
//!
//! Every `--report` games the network plays `--check` games one ply deep
//! against `odds`' race one ply deep (the same dealt arrangements and
//! rolls with colours swapped), the score is printed with the mean squared
//! error of the estimates over the last games, and the weights are written.
//!
//! ```sh
//! cargo run --release -p plyd-game-einstein --example train_learned -- \
//!     --games 10000000 --report 1000000 --check 2000 --rate 0.004 \
//!     --final-rate 0.0003 --out plugins/einstein/learned.bin
//! ```
//!
//! `--init FILE` starts from a weights file instead of zeros; `--seed N`
//! changes the games; `--explore P` plays a random step instead of the
//! best with probability `P` (the estimate is still moved towards the best
//! step's value), so that training meets the positions a weaker opponent
//! leads to. `--lambda L` (0 to 1) moves each estimate after the game
//! instead, towards its λ-return: `1 - L` of the step's value and `L` of
//! one minus the next position's return (1: the game's result alone); the
//! returns follow the steps played, so use it without `--explore`.

use std::time::Instant;

use plyd_einstein_rules::board::{Board, ARRANGE, ROLL};
use plyd_game_einstein::learned::{features, Net, FEATURES};
use plyd_game_einstein::{endgame, exact, Odds};

#[path = "shared/flags.rs"]
mod flags;
#[path = "shared/rng.rs"]
mod rng;
use rng::Rng;

/// The exact probability that the side to move wins a position before its
/// roll with at most four stones, if the solver finds it within `budget`
/// new positions (0: three stones or fewer only).
fn exact_value(board: &Board, budget: usize) -> Option<f64> {
    if usize::from(board.counts[0] + board.counts[1]) > 4 {
        return None;
    }
    endgame::win_probability(board).or_else(|| exact::win_probability(board, 4, budget))
}

/// What the side to move, the die rolled, gets from each step: 1 for a win,
/// else one minus the other side's chance after it (exact, or the
/// network's `plies` rolls deeper). The best step, its value, and whether
/// that ends the game here (a win or an exact value).
fn best_step(net: &Net, board: &Board, plies: u32, budget: usize) -> (u32, f64, bool) {
    let mut best = (0u32, -1.0f64, false);
    let mut child = board.clone();
    board.for_each_step(board.roll, &mut |mv| {
        let undo = child.play(mv);
        let (value, last) = if child.is_over() {
            (1.0, true)
        } else if let Some(p) = exact_value(&child, budget) {
            (1.0 - p, true)
        } else {
            (1.0 - before_roll(net, &mut child, plies, budget), false)
        };
        child.take_back(mv, undo);
        if value > best.1 {
            best = (mv, value, last);
        }
    });
    best
}

/// The chance that the side to move wins `board` (in play, before its
/// roll, not exact): the network's, or with `plies` > 0 the mean over the
/// six rolls of the best step's value `plies - 1` rolls deeper.
fn before_roll(net: &Net, board: &mut Board, plies: u32, budget: usize) -> f64 {
    if plies == 0 {
        return net.probability(board);
    }
    let mut total = 0.0;
    for face in 1..=6 {
        let undo = board.play(ROLL + face);
        total += best_step(net, board, plies - 1, budget).1;
        board.take_back(ROLL + face, undo);
    }
    total / 6.0
}

/// Move the estimate `p` of the position whose features are `f` by `rate`
/// times its error towards `target`; the squared error.
fn step_towards(net: &mut Net, f: &[u32; FEATURES], p: f64, target: f64, rate: f32) -> f64 {
    let delta = (target - p) as f32 * rate;
    for &i in f {
        net.weights[i as usize] += delta;
    }
    (target - p) * (target - p)
}

/// One game of training; the summed squared error and the positions.
///
/// With `lambda` 0 each estimate moves towards its step's value as the
/// game goes (TD(0)). Above 0 the game is played first and each estimate
/// then moves towards its λ-return: the step's value where the game ends
/// there, else `1 - λ` of one minus the next estimate and `λ` of one minus
/// the next position's own λ-return (1: the game's result alone).
fn train_game(
    net: &mut Net,
    rate: f32,
    plies: u32,
    budget: usize,
    explore: f64,
    lambda: f64,
    rng: &mut Rng,
) -> (f64, usize) {
    let mut board = Board::setup();
    board.play(ARRANGE + rng.below(720) as u32);
    board.play(ARRANGE + rng.below(720) as u32);
    let (mut error, mut positions) = (0.0, 0);
    // With lambda: each position's features, estimate and step value.
    let mut played: Vec<([u32; FEATURES], f64, f64)> = Vec::new();
    loop {
        let f: [u32; FEATURES] = features(&board);
        let p = net.probability_of(&f);
        board.play(ROLL + 1 + rng.below(6) as u32);
        let (mv, target, last) = best_step(net, &board, plies, budget);
        if lambda > 0.0 {
            played.push((f, p, target));
        } else {
            error += step_towards(net, &f, p, target, rate);
            positions += 1;
        }
        if last {
            break;
        }
        // No draw at all without `--explore`: the games stay those of
        // runs before it.
        if explore > 0.0 && rng.unit() < explore {
            board.play(rng.step(&board));
        } else {
            board.play(mv);
        }
    }
    let mut next_return = 0.0;
    for t in (0..played.len()).rev() {
        let (f, p, target) = &played[t];
        let g = if t + 1 == played.len() {
            *target
        } else {
            // `target` is one minus the next estimate.
            (1.0 - lambda) * target + lambda * (1.0 - next_return)
        };
        next_return = g;
        error += step_towards(net, f, *p, g, rate);
        positions += 1;
    }
    (error, positions)
}

/// Red's result (1 or 0) of a game from the dealt arrangements and rolls,
/// Red stepping by `red` and Blue by `blue`.
fn check_game(
    red: &dyn Fn(&Board) -> u32,
    blue: &dyn Fn(&Board) -> u32,
    arrangements: (usize, usize),
    rolls: &[u8],
) -> u32 {
    let mut board = Board::setup();
    board.play(ARRANGE + arrangements.0 as u32);
    board.play(ARRANGE + arrangements.1 as u32);
    let mut turn = 0;
    while !board.is_over() {
        board.play(ROLL + u32::from(rolls[turn % rolls.len()]));
        turn += 1;
        let mv = if board.side == 0 {
            red(&board)
        } else {
            blue(&board)
        };
        board.play(mv);
    }
    u32::from(board.winner() == Some(0))
}

/// The network's score one ply deep against `odds` one ply deep over
/// `pairs` pairs of games.
fn check(net: &Net, odds: &Odds, pairs: usize, seed: u64) -> f64 {
    let mut rng = Rng(seed);
    let learned = |b: &Board| best_step(net, b, 0, 1000).0;
    let race = |b: &Board| odds.best_step(b);
    let mut score = 0;
    for _ in 0..pairs {
        let arrangements = (rng.below(720), rng.below(720));
        let rolls: Vec<u8> = (0..200).map(|_| 1 + rng.below(6) as u8).collect();
        score += check_game(&learned, &race, arrangements, &rolls);
        score += 1 - check_game(&race, &learned, arrangements, &rolls);
    }
    f64::from(score) / (2 * pairs) as f64
}

fn main() {
    let mut games: u64 = 1_000_000;
    let mut rate: f32 = 0.004;
    let mut final_rate: f32 = 0.0005;
    let mut seed: u64 = 1;
    let mut report: u64 = 1_000_000;
    let mut pairs: usize = 1000;
    let mut init: Option<String> = None;
    let mut budget: usize = 0;
    let mut plies: u32 = 0;
    let mut explore: f64 = 0.0;
    let mut lambda: f64 = 0.0;
    let mut out = concat!(env!("CARGO_MANIFEST_DIR"), "/learned.bin").to_string();
    for (flag, value) in flags::flags() {
        match flag.as_str() {
            "--games" => games = value.parse().expect("--games"),
            "--rate" => rate = value.parse().expect("--rate"),
            "--final-rate" => final_rate = value.parse().expect("--final-rate"),
            "--seed" => seed = value.parse().expect("--seed"),
            "--report" => report = value.parse().expect("--report"),
            "--check" => pairs = value.parse::<usize>().expect("--check") / 2,
            "--init" => init = Some(value),
            "--exact-budget" => budget = value.parse().expect("--exact-budget"),
            "--lookahead" => plies = value.parse().expect("--lookahead"),
            "--explore" => explore = value.parse().expect("--explore"),
            "--lambda" => lambda = value.parse().expect("--lambda"),
            "--out" => out = value,
            _ => panic!("unknown flag {flag}"),
        }
    }
    let mut net = match init {
        Some(path) => Net::decode(&std::fs::read(&path).expect("--init file")).expect("--init"),
        None => Net::default(),
    };
    let odds = Odds::racing();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let start = Instant::now();
    let (mut error, mut positions) = (0.0, 0usize);
    for g in 1..=games {
        let progress = (g - 1) as f32 / games as f32;
        let r = rate * (final_rate / rate).powf(progress);
        let (e, n) = train_game(&mut net, r, plies, budget, explore, lambda, &mut rng);
        error += e;
        positions += n;
        if g % report == 0 || g == games {
            let score = check(&net, &odds, pairs, 0xC0FFEE);
            println!(
                "{g} games, {:.0} s, rate {r:.5}: squared error {:.4} over {positions} positions, \
                 one ply against odds {:.1}%",
                start.elapsed().as_secs_f64(),
                error / positions.max(1) as f64,
                100.0 * score
            );
            (error, positions) = (0.0, 0);
            std::fs::write(&out, net.encode()).expect("write the weights");
        }
    }
}
