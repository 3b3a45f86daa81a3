//! Solves positions of `ffo.txt` (or another file of the same form) with the
//! solver alone, on one thread and a table of its own, without the plugin
//! boundary or the host: to measure the solver itself.
//!
//! ```sh
//! cargo run --release -p plyd-game-othello --example endgame -- [FILE] [FIRST] [LAST]
//! ```
//!
//! solves the positions numbered FIRST to LAST (`ffo40`, `sp100`: the name
//! less its letters; default: every
//! position of the file) and prints time, nodes and speed per position.

use std::time::Instant;

use plyd_othello_rules::endgame::{solve, LocalTable, SCORE_INFINITY};
use plyd_othello_rules::text::parse_position;

fn main() {
    // The plugin registers this when the host loads it; here there is no host.
    plyd_game_othello::register_solver_order();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args
        .first()
        .cloned()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/ffo.txt").to_string());
    let range = match (args.get(1), args.get(2)) {
        (Some(a), Some(b)) => Some((a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap())),
        _ => None,
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let (mut total_nodes, mut total_time) = (0u64, 0f64);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let number: u32 = fields[0]
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .parse()
            .unwrap_or(0);
        if let Some((first, last)) = range {
            if number < first || number > last {
                continue;
            }
        }
        let position = parse_position(&format!("{} {}", fields[1], fields[2])).unwrap();
        let expected: i32 = fields[3].parse().unwrap();
        let (own, opp) = position.own_and_opponent();
        let start = Instant::now();
        let solution = solve(
            own,
            opp,
            -SCORE_INFINITY,
            SCORE_INFINITY,
            0,
            &mut LocalTable::new(22),
        );
        let seconds = start.elapsed().as_secs_f64();
        total_nodes += solution.nodes;
        total_time += seconds;
        println!(
            "{} score {:+} expected {:+} {} nodes {} time {:.3} nps {:.0}",
            fields[0],
            solution.score,
            expected,
            if solution.score == expected {
                "ok"
            } else {
                "WRONG"
            },
            solution.nodes,
            seconds,
            solution.nodes as f64 / seconds
        );
    }
    println!(
        "total nodes {total_nodes} time {total_time:.3} nps {:.0}",
        total_nodes as f64 / total_time
    );
}
