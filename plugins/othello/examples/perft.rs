//! Time the native perft: `cargo run --release --example perft -p
//! plyd-game-othello -- DEPTH [POSITION TEXT]`. Prints the count and the
//! time for each depth from 1 to DEPTH, from the start position unless a
//! position is given.

use std::time::Instant;

use plyd_api::Game;
use plyd_game_othello::Othello;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = match args.next().map(|a| a.parse()) {
        Some(Ok(depth)) => depth,
        _ => {
            eprintln!("usage: perft DEPTH [POSITION TEXT]");
            std::process::exit(2);
        }
    };
    let mut game = Othello::new(0);
    let position: Vec<String> = args.collect();
    if !position.is_empty() {
        if let Err(reason) = game.set_position(&position.join(" ")) {
            eprintln!("bad position: {reason}");
            std::process::exit(2);
        }
    }
    println!("{}", game.position_text());
    for d in 1..=depth {
        let started = Instant::now();
        let count = game.perft(d);
        let seconds = started.elapsed().as_secs_f64();
        let rate = count as f64 / seconds.max(1e-9) / 1e6;
        println!("perft {d:2} {count:>12} {seconds:9.3} s {rate:8.1} M leaves/s");
    }
}
