//! How large the endings of real games are for the exact solver: plays
//! random games (random arrangements, random rolls, steps by `odds`' race
//! after one ply) and, at each position before a roll with 4 to `MAX` stones,
//! solves it from nothing and prints how many positions that took.
//!
//! ```sh
//! cargo run --release -p plyd-game-einstein --example exact_sizes -- [games] [max stones]
//! ```

use std::time::Instant;

use plyd_einstein_rules::board::{Board, ARRANGE, ARRANGEMENTS, ROLL};
use plyd_game_einstein::exact::{Ending, Solver};
use plyd_game_einstein::Odds;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().map_or(200, |a| a.parse().expect("games"));
    let max: usize = args.next().map_or(5, |a| a.parse().expect("max stones"));
    let odds = Odds::racing();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut sizes: Vec<Vec<(usize, f64)>> = vec![Vec::new(); 7];
    for _ in 0..games {
        let mut board = Board::setup();
        board.play(ARRANGE + (next() % ARRANGEMENTS as u64) as u32);
        board.play(ARRANGE + (next() % ARRANGEMENTS as u64) as u32);
        while !board.is_over() {
            if let Some(e) = Ending::of(&board) {
                let n = e.stones();
                if (4..=max).contains(&n) {
                    let mut solver = Solver::new();
                    let start = Instant::now();
                    solver.solve(&e, usize::MAX).expect("no budget");
                    sizes[n].push((solver.solved(), start.elapsed().as_secs_f64() * 1e3));
                }
            }
            board.play(ROLL + 1 + (next() % 6) as u32);
            board.play(odds.best_step(&board));
        }
    }
    for (n, list) in sizes.iter_mut().enumerate() {
        if list.is_empty() {
            continue;
        }
        list.sort_by_key(|x| x.0);
        let q = |f: f64| list[((list.len() - 1) as f64 * f) as usize];
        let mean = list.iter().map(|x| x.0).sum::<usize>() as f64 / list.len() as f64;
        println!(
            "{n} stones: {} positions; solved positions median {} (p90 {}, max {}), mean {mean:.0}; ms median {:.2}, p90 {:.2}, max {:.2}",
            list.len(),
            q(0.5).0,
            q(0.9).0,
            q(1.0).0,
            q(0.5).1,
            q(0.9).1,
            list.iter().map(|x| x.1).fold(0.0, f64::max)
        );
    }
}
