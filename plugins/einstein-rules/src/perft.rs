//! Perft for a dice game, on the bare [`Board`].
//!
//! Every ply is a branch of the tree: an arrangement, a roll of the die
//! (one branch per face, whatever its probability) or a stone's step. So
//! `perft(n)` counts the leaves of the tree `n` plies deep in which chance
//! nodes branch over their six outcomes, exactly as the host's perft
//! counts through `gen_moves` (which lists the roll tokens at a chance
//! node). A game that ended before the last ply counts nothing.

use crate::board::Board;

/// Leaves `depth` plies below `board`, the last ply counted in bulk.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return board.count_moves();
    }
    let mut moves = Vec::with_capacity(16);
    board.for_each_move(|mv| moves.push(mv));
    let mut total = 0;
    for mv in moves {
        let undo = board.play(mv);
        total += perft(board, depth - 1);
        board.take_back(mv, undo);
    }
    total
}
