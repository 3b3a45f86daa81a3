//! A native perft over the bare [`Position`], to time the rules without
//! the plugin boundary.

use crate::board::Position;

/// Leaves `depth` plies below `position`, the last ply counted in bulk; a
/// position without legal moves before the last ply counts nothing.
pub fn perft(position: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_legal();
    }
    let mut moves = Vec::with_capacity(64);
    position.legal_moves(false, &mut |mv| moves.push(mv));
    let mut total = 0;
    for mv in moves {
        let captured = position.play(mv);
        total += perft(position, depth - 1);
        position.take_back(mv, captured);
    }
    total
}
