//! How far the `patterns` evaluation, and shallow searches of it, land
//! from the exact final score, by number of empty squares: the spread a
//! selective search's cuts would be sized by, and a measure of the
//! evaluation to improve on.
//!
//! ```sh
//! cargo run --release -p plyd-game-othello --example eval_error -- GAMES SEED [WEIGHTS]...
//! ```
//!
//! plays GAMES games (eight random plies, then each move the best by the
//! solver's evaluation give or take up to four discs of noise, so that
//! every weights file is measured on the same positions), solves each
//! game's positions with 10, 12, ..., 22 empty squares exactly, and prints,
//! for each weights file (default: the solver's, `order.bin`; the
//! evaluation's is `plugins/othello/patterns.bin`), each count of empty
//! squares and each depth of an alpha-beta search of the evaluation (0 to
//! 4 plies), the mean and the standard deviation of the exact score less
//! the search's, in discs.

use std::cell::Cell;

use plyd_game_othello::patterns::{order_score, Patterns};
use plyd_othello_rules::board::{flips, legal_placements, squares, Position, PASS};
use plyd_othello_rules::endgame::{
    estimate, solve, LocalTable, OrderEval, EVAL_INFINITY, SCORE_INFINITY,
};
use plyd_othello_rules::testing::next;

const COUNTS: [u32; 7] = [10, 12, 14, 16, 18, 20, 22];
const DEPTHS: u32 = 5;

thread_local! {
    /// The weights file being measured.
    static CURRENT: Cell<Option<&'static Patterns>> = const { Cell::new(None) };
}

/// The evaluation with the weights of [`CURRENT`].
fn file_score(own: u64, opp: u64) -> i32 {
    CURRENT.get().expect("weights loaded").score(own, opp)
}

/// Positions of noisy self-play games at the counts of [`COUNTS`], with
/// their exact scores.
fn positions(games: usize, mut rng: u64) -> Vec<(usize, u64, u64, i32)> {
    let mut out = Vec::new();
    let mut table = LocalTable::new(22);
    for _ in 0..games {
        let mut position = Position::START;
        let mut ply = 0;
        while !position.is_game_over() {
            let empties = 64 - (position.black | position.white).count_ones();
            let (own, opp) = position.own_and_opponent();
            if let Some(c) = COUNTS.iter().position(|&n| n == empties) {
                if legal_placements(own, opp) != 0 {
                    let exact = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut table);
                    out.push((c, own, opp, exact.score));
                }
            }
            let moves: Vec<u32> = squares(position.placements()).collect();
            let mv = if moves.is_empty() {
                PASS
            } else if ply < 8 {
                moves[(next(&mut rng) % moves.len() as u64) as usize]
            } else {
                *moves
                    .iter()
                    .max_by_key(|&&m| {
                        let disc = 1u64 << m;
                        let flipped = flips(own, opp, disc);
                        let noise = (next(&mut rng) % 801) as i32 - 400;
                        -order_score(opp & !flipped, own | flipped | disc) + noise
                    })
                    .expect("a move")
            };
            position = position.play(mv);
            ply += 1;
        }
    }
    out
}

fn main() {
    plyd_game_othello::register_solver_order();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().map_or(60, |a| a.parse().expect("GAMES"));
    let seed: u64 = args.get(1).map_or(1, |a| a.parse().expect("SEED"));
    let files: Vec<Option<&String>> = if args.len() > 2 {
        args[2..].iter().map(Some).collect()
    } else {
        vec![None]
    };
    let positions = positions(games, seed);
    println!("weights empties depth samples mean sd");
    for file in files {
        let (name, evaluate): (&str, OrderEval) = match file {
            Some(path) => {
                let patterns = Patterns::from_file(path).unwrap_or_else(|e| panic!("{e}"));
                let patterns: &'static Patterns = Box::leak(Box::new(patterns));
                CURRENT.set(Some(patterns));
                (path.as_str(), file_score)
            }
            None => ("order.bin", order_score),
        };
        for (c, &count) in COUNTS.iter().enumerate() {
            for depth in 0..DEPTHS {
                let (mut n, mut sum, mut squares) = (0f64, 0f64, 0f64);
                for &(_, own, opp, exact) in positions.iter().filter(|p| p.0 == c) {
                    let mut nodes = 0;
                    let window = (-EVAL_INFINITY, EVAL_INFINITY);
                    let value = estimate(evaluate, own, opp, depth, window, &mut nodes);
                    let error = f64::from(exact) - f64::from(value) / 100.0;
                    n += 1.0;
                    sum += error;
                    squares += error * error;
                }
                let mean = sum / n;
                let sd = (squares / n - mean * mean).sqrt();
                println!("{name} {count} {depth} {n} {mean:.2} {sd:.2}");
            }
        }
    }
}
