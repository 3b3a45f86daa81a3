//! How much a side's arrangement is worth: plays games from every Red
//! arrangement (or a sample) against Blue arrangements drawn at random,
//! both sides stepping by `odds` one ply deep (the best step after the
//! roll), and prints each arrangement's score and the spread.
//!
//! ```sh
//! cargo run --release -p plyd-game-einstein --example setup_values -- [arrangements] [games each] [params.toml]
//! ```

use plyd_einstein_rules::board::{arrangement, Board, ARRANGE, ARRANGEMENTS, ROLL};
use plyd_game_einstein::Odds;

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(60, |a| a.parse().expect("arrangements"));
    let games: usize = args.next().map_or(1000, |a| a.parse().expect("games"));
    let odds = match args.next() {
        Some(path) => {
            Odds::from_toml(&std::fs::read_to_string(path).expect("params")).expect("params")
        }
        None => Odds::default(),
    };
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let step = ARRANGEMENTS / count.min(ARRANGEMENTS);
    let mut rows = Vec::new();
    for red in (0..ARRANGEMENTS).step_by(step).take(count) {
        let mut won = 0;
        for _ in 0..games {
            let mut board = Board::setup();
            board.play(ARRANGE + red as u32);
            board.play(ARRANGE + (next() % ARRANGEMENTS as u64) as u32);
            while !board.is_over() {
                board.play(ROLL + 1 + (next() % 6) as u32);
                let mut best = (f64::MIN, 0);
                board.for_each_step(board.roll, &mut |mv| {
                    let mut child = board.clone();
                    child.play(mv);
                    let v = if child.is_over() {
                        2.0
                    } else {
                        1.0 - odds.probability(&child)
                    };
                    if v > best.0 {
                        best = (v, mv);
                    }
                });
                board.play(best.1);
            }
            won += usize::from(board.winner() == Some(0));
        }
        let score = won as f64 / games as f64;
        rows.push((score, red));
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mean = rows.iter().map(|r| r.0).sum::<f64>() / rows.len() as f64;
    let sd_noise = (mean * (1.0 - mean) / games as f64).sqrt();
    let var = rows.iter().map(|r| (r.0 - mean).powi(2)).sum::<f64>() / rows.len() as f64;
    for (score, red) in rows.iter().take(8).chain(rows.iter().rev().take(8).rev()) {
        let a = arrangement(*red);
        println!(
            "s{} {:.1}%",
            a.iter().map(|n| n.to_string()).collect::<String>(),
            100.0 * score
        );
    }
    println!(
        "{} arrangements x {games} games: Red scores {:.1}% on average; spread (sd) {:.2} points, of which noise {:.2}",
        rows.len(),
        100.0 * mean,
        100.0 * var.sqrt(),
        100.0 * sd_noise
    );
}
