//! Native perft: the number of positions reached after exactly `depth` plies,
//! computed on bare bitboards without the undo stack or the move list the
//! host uses, so that it measures the move generator alone.
//!
//! Counting follows the published Othello figures (Aart Bik's, the ones in
//! the shared `perft.md`): a forced pass is a ply with one child, and a
//! finished game is a leaf of the game tree, so a game that ends before the
//! last ply counts once (a naive perft that lets both sides keep passing
//! until the depth runs out gets the same number).
//!
//! A finished game has no moves in the host's move lists, so the plugin
//! declares this convention (`CAP_PERFT_COUNTS_ENDED_GAMES`) and the host's
//! perft walk, like the SDK's `default_perft`, counts the same way. Counting
//! such games as nothing would lose 228 leaves at depth 10 and 584 at depth
//! 11 (no game ends in fewer than 9 plies).

use crate::board::{flips, legal_placements, squares};

/// Perft from the position where the side to move owns `own` and its
/// opponent owns `opp`.
pub fn perft(own: u64, opp: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let placements = legal_placements(own, opp);
    if placements == 0 {
        if legal_placements(opp, own) == 0 {
            // Neither side can place: the game is over, and this finished
            // game is one leaf however much depth is left.
            return 1;
        }
        // The only move is the pass, which hands the same board over.
        return if depth == 1 {
            1
        } else {
            perft(opp, own, depth - 1)
        };
    }
    if depth == 1 {
        // Bulk count: every placement leads to exactly one position.
        return u64::from(placements.count_ones());
    }
    squares(placements)
        .map(|square| {
            let disc = 1u64 << square;
            let flipped = flips(own, opp, disc);
            // After the move the opponent is to move: swap the roles.
            perft(opp & !flipped, own | disc | flipped, depth - 1)
        })
        .sum()
}
