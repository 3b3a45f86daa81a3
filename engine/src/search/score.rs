//! Search scores: evaluations, draws, and wins that count plies to the end.

use plyd_protocol::Score;

/// Score of a won position at the root; a win `n` plies away scores
/// `WIN - n`, so shorter wins are preferred.
pub const WIN: i32 = 100_000_000;
/// Bigger than any score.
pub const INFINITY: i32 = WIN + 1;
/// Evaluations are clamped inside this, well below any win score.
pub const EVAL_LIMIT: i32 = WIN / 2;

/// The most an evaluation of `evaluator` counts for in a search: its
/// declared bound, within [`EVAL_LIMIT`].
pub fn eval_bound(evaluator: &crate::host::Evaluator) -> i32 {
    evaluator.info().score_bound.clamp(1, EVAL_LIMIT)
}
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 1024;

/// Whether `score` says one side wins by force.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN - MAX_PLY as i32
}

/// Score of a won position `ply` plies from the root.
pub fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// Score of a lost position `ply` plies from the root.
pub fn loss_in(ply: usize) -> i32 {
    -WIN + ply as i32
}

/// The protocol form of a score: `mate N` in moves (a move is two plies,
/// a part of one counting whole: the game ends within the side to move's
/// N-th move or the reply to it; negative when the engine is losing) or
/// `cp N`. Only a game already over is `mate 0`: in a game where the side
/// to move can lose by its own move (Othello's last disc), a loss one ply
/// away is `mate -1`, not `mate 0`.
pub fn to_protocol(score: i32) -> Score {
    if is_decisive(score) {
        let plies = WIN - score.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if score > 0 { moves } else { -moves })
    } else {
        Score::Cp(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(to_protocol(win_in(1)), Score::Mate(1));
        assert_eq!(to_protocol(win_in(3)), Score::Mate(2));
        assert_eq!(to_protocol(loss_in(2)), Score::Mate(-1));
        assert_eq!(to_protocol(loss_in(4)), Score::Mate(-2));
        // A loss by the side to move's own last move, and a win by the
        // reply to it: one move each way.
        assert_eq!(to_protocol(loss_in(1)), Score::Mate(-1));
        assert_eq!(to_protocol(win_in(2)), Score::Mate(1));
        assert_eq!(to_protocol(loss_in(3)), Score::Mate(-2));
        assert_eq!(to_protocol(loss_in(0)), Score::Mate(0));
        assert_eq!(to_protocol(123), Score::Cp(123));
        assert_eq!(to_protocol(-EVAL_LIMIT), Score::Cp(-EVAL_LIMIT));
    }
}
