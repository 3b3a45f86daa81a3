//! Build `setup_book.txt`, the set-up book (see the `setup` module): every
//! Red arrangement against every Blue arrangement, `GAMES` games a pair,
//! both sides stepping by `odds` with the race (`Odds::racing`) one ply
//! deep, rolls at random. Prints how far the arrangements' values spread,
//! how much of that is noise, and how much the pairs deviate from the sum
//! of their marginals.
//!
//! ```sh
//! cargo run --release -p plyd-game-einstein --example build_setup_book -- [GAMES] [THREADS] [OUT]
//! ```
//!
//! `GAMES` defaults to 12 (6.2 million games), `THREADS` to 2, `OUT` to
//! `setup_book.txt` next to this crate.

use std::time::Instant;

use plyd_einstein_rules::board::{arrangement, Board, ARRANGE, ARRANGEMENTS, ROLL};
use plyd_game_einstein::Odds;

/// Red's wins in `games` games from the pair (`red`, `blue`).
fn play(odds: &Odds, red: usize, blue: usize, games: usize, rng: &mut u64) -> u32 {
    let mut next = || {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    };
    let mut won = 0;
    for _ in 0..games {
        let mut board = Board::setup();
        board.play(ARRANGE + red as u32);
        board.play(ARRANGE + blue as u32);
        while !board.is_over() {
            board.play(ROLL + 1 + (next() % 6) as u32);
            board.play(odds.best_step(&board));
        }
        won += u32::from(board.winner() == Some(0));
    }
    won
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().map_or(12, |a| a.parse().expect("games a pair"));
    let threads: usize = args.next().map_or(2, |a| a.parse().expect("threads"));
    let out = args
        .next()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/setup_book.txt").to_string());
    let start = Instant::now();
    let n = ARRANGEMENTS;
    // wins[red * n + blue]: Red's wins from the pair.
    let mut wins = vec![0u32; n * n];
    std::thread::scope(|scope| {
        for (t, rows) in wins.chunks_mut(n * n.div_ceil(threads)).enumerate() {
            scope.spawn(move || {
                let odds = Odds::racing();
                let first = t * n.div_ceil(threads);
                for (i, row) in rows.chunks_mut(n).enumerate() {
                    let red = first + i;
                    let mut rng = 0x9E37_79B9_7F4A_7C15u64
                        ^ (red as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
                    for (blue, cell) in row.iter_mut().enumerate() {
                        *cell = play(&odds, red, blue, games, &mut rng);
                    }
                }
            });
        }
    });
    let g = games as f64;
    let cell = |r: usize, b: usize| f64::from(wins[r * n + b]) / g;
    let red: Vec<f64> = (0..n)
        .map(|r| (0..n).map(|b| cell(r, b)).sum::<f64>() / n as f64)
        .collect();
    let red_vs: Vec<f64> = (0..n)
        .map(|b| (0..n).map(|r| cell(r, b)).sum::<f64>() / n as f64)
        .collect();
    let blue: Vec<f64> = red_vs.iter().map(|v| 1.0 - v).collect();
    let grand = red.iter().sum::<f64>() / n as f64;
    let spread = |v: &[f64]| {
        let m = v.iter().sum::<f64>() / v.len() as f64;
        (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
    };
    // Noise of a marginal: n * games games of a Bernoulli(grand).
    let noise_marginal = (grand * (1.0 - grand) / (n as f64 * g)).sqrt();
    // Interaction: what is left of a pair once both marginals are taken off.
    let mut residual = 0.0;
    for (r, red_r) in red.iter().enumerate() {
        for (b, red_vs_b) in red_vs.iter().enumerate() {
            residual += (cell(r, b) - red_r - red_vs_b + grand).powi(2);
        }
    }
    let residual = residual / (n * n) as f64;
    let noise_cell = grand * (1.0 - grand) / g;
    println!(
        "{} games in {:.0} s; Red won {:.2}%",
        n * n * games,
        start.elapsed().as_secs_f64(),
        100.0 * grand
    );
    println!(
        "spread (sd) of the arrangements' values: Red {:.2} points, Blue {:.2}; noise of one value {:.2}",
        100.0 * spread(&red),
        100.0 * spread(&blue),
        100.0 * noise_marginal
    );
    println!(
        "a pair's deviation from its marginals: sd {:.2} points, of which noise {:.2}: interaction about {:.2}",
        100.0 * residual.sqrt(),
        100.0 * noise_cell.sqrt(),
        100.0 * (residual - noise_cell).max(0.0).sqrt()
    );
    let name = |i: usize| {
        arrangement(i)
            .iter()
            .map(|d| char::from(b'0' + d))
            .collect::<String>()
    };
    for (side, values) in [("Red", &red), ("Blue", &blue)] {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        let (best, worst) = (order[0], order[n - 1]);
        println!(
            "{side} best s{} {:.2}%, worst s{} {:.2}%",
            name(best),
            100.0 * values[best],
            name(worst),
            100.0 * values[worst]
        );
    }
    let mut text = String::new();
    text.push_str("# plyd EinStein set-up book (plugins/einstein/src/setup.rs).\n");
    text.push_str(&format!(
        "# Every Red arrangement against every Blue arrangement, {games} games a pair,\n\
         # both sides stepping by odds (its shipped odds.toml) one ply deep; built by\n\
         # cargo run --release -p plyd-game-einstein --example build_setup_book -- {games}\n\
         # arrangement, Red's score with it, Blue's score with it (fractions won)\n"
    ));
    for i in 0..n {
        text.push_str(&format!("s{} {:.5} {:.5}\n", name(i), red[i], blue[i]));
    }
    if let Err(e) = std::fs::write(&out, text) {
        eprintln!("build_setup_book: cannot write {out}: {e}");
        std::process::exit(1);
    }
    println!("written to {out}");
}
