//! Random games for the crate's unit tests.

use plyd_einstein_rules::board::{Board, STAGE_PLAY};

/// Play `games` random games from random set-ups (moves drawn by a
/// generator seeded with `seed`), calling `visit` at every position in
/// play before a roll.
pub fn for_positions_in_play(seed: u64, games: usize, mut visit: impl FnMut(&Board)) {
    let mut rng = seed;
    let mut next = |bound: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % bound as u64) as usize
    };
    for _ in 0..games {
        let mut board = Board::setup();
        while !board.is_over() {
            if board.stage == STAGE_PLAY && board.roll == 0 {
                visit(&board);
            }
            let mut moves = Vec::new();
            board.for_each_move(|mv| moves.push(mv));
            let mv = moves[next(moves.len())];
            board.play(mv);
        }
    }
}
