//! Nanoseconds per evaluation of each built-in evaluator, on positions from
//! random games of both boards.
//!
//! ```text
//! cargo run --release -p plyd-game-amazons --example eval_speed
//! ```
//!
//! With arguments `EVALUATOR BOARD ROUNDS` (`tables amazons8 2`) it times
//! one evaluator on one board over that many rounds of the positions, for
//! counting instructions under a simulator, which a busy machine does not
//! disturb (subtract a run with 0 rounds, then divide by rounds x 2,000):
//!
//! ```text
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/eval_speed tables amazons 2
//! ```

use std::time::Instant;

use plyd_api::{Evaluator, Game, MoveSink};
use plyd_game_amazons::{Amazons, Classic, Seed000, Seed003, Tables};

fn positions(variant: usize, count: usize) -> Vec<Amazons> {
    let mut rng = 0x2545_f491_4f6c_dd1du64 ^ variant as u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = Vec::with_capacity(count);
    let mut moves = vec![0u32; 5000];
    while out.len() < count {
        let mut game = Amazons::new(variant);
        let plies = (next() % 50) as usize;
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

fn time<E: Evaluator<State = Amazons>>(eval: &E, games: &[Amazons], rounds: usize) -> f64 {
    let mut sum = 0i64;
    let started = Instant::now();
    for _ in 0..rounds {
        for game in games {
            sum += i64::from(eval.evaluate(game));
        }
    }
    let ns = started.elapsed().as_nanos() as f64 / (rounds.max(1) * games.len()) as f64;
    std::hint::black_box(sum);
    ns
}

fn main() {
    let classic = Classic::from_params(None).expect("classic");
    let seed000 = Seed000::from_params(None).expect("seed000");
    let seed003 = Seed003::from_params(None).expect("seed003");
    let tables = Tables::from_params(None).expect("tables");
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [evaluator, board, rounds] = args.as_slice() {
        let variant = match board.as_str() {
            "amazons" => 0,
            "amazons8" => 1,
            other => panic!("unknown board {other}: amazons or amazons8"),
        };
        let rounds: usize = rounds.parse().expect("rounds: a whole number");
        let games = positions(variant, 2000);
        let ns = match evaluator.as_str() {
            "tables" => time(&tables, &games, rounds),
            "classic" => time(&classic, &games, rounds),
            "seed000" => time(&seed000, &games, rounds),
            "seed003" => time(&seed003, &games, rounds),
            other => panic!("unknown evaluator {other}"),
        };
        println!("{board}: {evaluator} {ns:.0} ns per evaluation");
        return;
    }
    for (variant, name) in [(0, "amazons"), (1, "amazons8")] {
        let games = positions(variant, 2000);
        println!(
            "{name}: tables {:.0} ns, classic {:.0} ns, seed000 {:.0} ns, seed003 {:.0} ns per evaluation",
            time(&tables, &games, 20),
            time(&classic, &games, 20),
            time(&seed000, &games, 20),
            time(&seed003, &games, 20)
        );
    }
}
