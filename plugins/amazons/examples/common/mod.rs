//! What the fitting examples share: replaying the games of a `plyd arena
//! --out` log of Amazons games.

use std::path::Path;

use plyd_api::Game;
use plyd_game_amazons::Amazons;

/// Replay every decided game of the log at `path`, calling `visit` with
/// each position before its move is made, the ply number (0 for the
/// start), and the game's result for that position's side to move (1 a
/// win, 0 a loss). Games without a result are skipped.
pub fn replay(path: &Path, mut visit: impl FnMut(&Amazons, usize, f32)) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut variant = 0;
    let mut result = None;
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("[Variant \"") {
            variant = usize::from(v.trim_end_matches("\"]") == "amazons8");
        } else if let Some(r) = line.strip_prefix("[Result \"") {
            result = match r.trim_end_matches("\"]") {
                "1-0" => Some(1.0f32),
                "0-1" => Some(0.0f32),
                _ => None,
            };
        } else if let Some(moves) = line.strip_prefix("position startpos moves ") {
            let Some(first_won) = result.take() else {
                continue;
            };
            let mut game = Amazons::new(variant);
            for (ply, text) in moves.split_whitespace().enumerate() {
                let mover_result = if game.side_to_move() == 0 {
                    first_won
                } else {
                    1.0 - first_won
                };
                visit(&game, ply, mover_result);
                let mv = game
                    .parse_move(text)
                    .unwrap_or_else(|| panic!("{}: bad move {text}", path.display()));
                game.make_move(mv);
            }
        }
    }
}
