//! Solve the endings of three stones or fewer and write `endgame.bin`, the
//! table the plugin ships (see the `endgame` module for the method and the
//! file format).
//!
//! ```sh
//! cargo run --release -p plyd-game-einstein --example build_endgame [OUT]
//! ```
//!
//! `OUT` defaults to `endgame.bin` next to this crate.

use std::time::Instant;

use plyd_game_einstein::endgame;

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/endgame.bin").to_string());
    let start = Instant::now();
    let values = endgame::solve_all();
    let solved = values.iter().filter(|v| !v.is_nan()).count();
    let bytes = endgame::encode(&values);
    if let Err(e) = std::fs::write(&out, &bytes) {
        eprintln!("build_endgame: cannot write {out}: {e}");
        std::process::exit(1);
    }
    println!(
        "{solved} positions solved of {} entries in {} ms; {} bytes written to {out}",
        values.len(),
        start.elapsed().as_millis(),
        bytes.len()
    );
}
