//! Nanoseconds per evaluation of the Othello evaluators, on positions from
//! random games.
//!
//! ```text
//! cargo run --release -p plyd-game-othello --example othello_eval_speed
//! ```
//!
//! With arguments `EVALUATOR ROUNDS` (`patterns 20`) it times one evaluator
//! over that many rounds of the positions, for counting instructions under
//! a simulator such as callgrind, which a busy machine does not disturb.

use std::hint::black_box;
use std::time::Instant;

use plyd_api::{Evaluator, Game, MoveSink};
use plyd_eval_othello_weights::Weights;
use plyd_game_othello::{Othello, Patterns, Seed004};

/// Positions after 0 to 59 random plies of random games.
fn positions(count: usize) -> Vec<Othello> {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = Vec::with_capacity(count);
    let mut moves = vec![0u32; 64];
    while out.len() < count {
        let mut game = Othello::new(0);
        let plies = next() % 60;
        for _ in 0..plies {
            let mut sink = MoveSink::new(&mut moves);
            game.generate_moves(&mut sink);
            let n = sink.len();
            if n == 0 {
                break;
            }
            game.make_move(moves[(next() % n as u64) as usize]);
        }
        out.push(game);
    }
    out
}

/// Mean nanoseconds per evaluation over `rounds` passes, and a checksum
/// that keeps the work from being optimised away.
fn time<E: Evaluator<State = Othello>>(eval: &E, states: &[Othello], rounds: usize) -> (f64, i64) {
    let start = Instant::now();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for state in states {
            sum += i64::from(eval.evaluate(black_box(state)));
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (rounds * states.len()).max(1) as f64;
    (ns, sum)
}

fn main() {
    let states = positions(10_000);
    let seed004 = Seed004::from_params(None).expect("seed004 loads");
    let weights = Weights::from_params(None).expect("weights loads");
    let patterns = Patterns::from_params(None).expect("patterns loads");
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [name, rounds] = args.as_slice() {
        let rounds: usize = rounds.parse().expect("ROUNDS is a number");
        let (_, sum) = match name.as_str() {
            "seed004" => time(&seed004, &states, rounds),
            "weights" => time(&weights, &states, rounds),
            "patterns" => time(&patterns, &states, rounds),
            other => panic!("unknown evaluator {other}"),
        };
        eprintln!("{name}: checksum {sum}");
        return;
    }
    for _ in 0..3 {
        // Warm-up passes load the tables into the caches.
        time(&patterns, &states, 1);
    }
    let (s, _) = time(&seed004, &states, 100);
    let (w, _) = time(&weights, &states, 100);
    let (p, _) = time(&patterns, &states, 100);
    println!(
        "ns per evaluation over {} positions, mean of 100 rounds:",
        states.len()
    );
    println!("seed004  {s:7.1}");
    println!("weights  {w:7.1}");
    println!("patterns {p:7.1}");
}
