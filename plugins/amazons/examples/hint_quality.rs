//! How well the plugin's ordering hints predict the best move: on positions
//! from random games, every move is scored by the `classic` evaluation of
//! the position it leads to (the best child by a one-ply search), and the
//! rank of that move in the hint order is recorded. Prints, per board, the
//! share of positions whose best child is within the first K hinted moves.
//!
//! ```text
//! cargo run --release -p plyd-game-amazons --example hint_quality -- [POSITIONS]
//! ```

use plyd_api::{Evaluator, Game, MoveSink};
use plyd_game_amazons::game::set_selective_width;
use plyd_game_amazons::{Amazons, Classic};

fn main() {
    let positions: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    set_selective_width(0);
    let eval = Classic::from_params(None).expect("default parameters");
    for (variant, name) in [(0, "amazons"), (1, "amazons8")] {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ variant as u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let cutoffs = [1usize, 4, 8, 16, 24, 48, 100, 200, 400];
        let mut within = vec![0usize; cutoffs.len()];
        let mut counted = 0;
        let mut hint_time = std::time::Duration::ZERO;
        while counted < positions {
            let mut game = Amazons::new(variant);
            let plies = (next() % 40) as usize;
            let mut moves = vec![0u32; 5000];
            let mut ok = true;
            for _ in 0..plies {
                let mut sink = MoveSink::new(&mut moves);
                game.generate_moves(&mut sink);
                let n = sink.len();
                if n == 0 {
                    ok = false;
                    break;
                }
                game.make_move(moves[(next() % n as u64) as usize]);
            }
            let mut sink = MoveSink::new(&mut moves);
            game.generate_moves(&mut sink);
            let n = sink.len();
            if !ok || n < 2 {
                continue;
            }
            let list = &moves[..n];
            let mut hints = vec![0i32; n];
            let started = std::time::Instant::now();
            game.order_hints(list, &mut hints);
            hint_time += started.elapsed();
            let mut best = (i32::MIN, 0);
            for (i, &mv) in list.iter().enumerate() {
                game.make_move(mv);
                let score = -eval.evaluate(&game);
                game.unmake_move(mv);
                if score > best.0 {
                    best = (score, i);
                }
            }
            let best_hint = hints[best.1];
            let rank = hints.iter().filter(|&&h| h > best_hint).count();
            for (k, &cut) in cutoffs.iter().enumerate() {
                if rank < cut {
                    within[k] += 1;
                }
            }
            counted += 1;
        }
        let shares: Vec<String> = cutoffs
            .iter()
            .zip(&within)
            .map(|(cut, w)| format!("top{cut} {:.0}%", 100.0 * *w as f64 / counted as f64))
            .collect();
        println!(
            "{name}: {counted} positions, {:.1} us per order_hints: {}",
            hint_time.as_secs_f64() * 1e6 / counted as f64,
            shares.join(", ")
        );
    }
}
