//! Time the native perft: `cargo run --release --example xiangqi_perft -p
//! plyd-game-xiangqi -- DEPTH [FEN]`. Prints the count and the time for
//! each depth from 1 to DEPTH, from the start position unless a FEN is
//! given.

use std::time::Instant;

use plyd_api::Game;
use plyd_game_xiangqi::Xiangqi;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = match args.next().map(|a| a.parse()) {
        Some(Ok(depth)) => depth,
        _ => {
            eprintln!("usage: xiangqi_perft DEPTH [FEN]");
            std::process::exit(2);
        }
    };
    let mut game = Xiangqi::new(0);
    let fen: Vec<String> = args.collect();
    if !fen.is_empty() {
        if let Err(reason) = game.set_position(&fen.join(" ")) {
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
