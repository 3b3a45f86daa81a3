//! A native perft over the bare [`Board`], to time the rules without the
//! plugin boundary.

use crate::board::Board;

/// Leaves `depth` plies below `board`, the last ply counted in bulk; a
/// position without legal moves before the last ply counts nothing.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return board.count_moves();
    }
    let mut moves = Vec::with_capacity(2500);
    board.for_each_move(|mv| moves.push(mv));
    let mut total = 0;
    for mv in moves {
        board.play(mv);
        total += perft(board, depth - 1);
        board.take_back(mv);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{START_10, START_8};
    use crate::text::parse_fen;

    #[test]
    fn published_figures_at_depth_one_and_two() {
        for (fen, d1, d2) in [(START_10, 2_176, 4_307_152), (START_8, 1_232, 1_331_198)] {
            let mut board = parse_fen(fen).unwrap().board;
            assert_eq!(perft(&mut board, 1), d1, "{fen}");
            assert_eq!(perft(&mut board, 2), d2, "{fen}");
        }
    }
}
