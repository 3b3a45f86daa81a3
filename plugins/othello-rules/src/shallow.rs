//! The last plies of the middle-game search, inside the plugin (the ABI's
//! `shallow_search`), as Edax searches its last two plies: on bare
//! bitboards, without the host's table, histories or per-node calls.
//!
//! The search is the host's full-width alpha-beta over the same tree: every
//! placement is searched, a pass is a ply, a position `depth` plies down is
//! scored by the evaluator's leaf function and a finished game by
//! [`Shallow::ended`]. Only the order differs: at one ply from the leaves
//! the corners come first and the squares next to them last; further up
//! the moves that leave the opponent fewest replies come first.

use plyd_api::{Shallow, ShallowResult};

use crate::board::{
    flips_at, legal_placements, legal_placements_both, legal_placements_pair, squares,
};

/// The discs a placement of `disc` flips, by the square's own function
/// ([`flips_at`]), behind a call: written out inside the search's loops,
/// the 64 functions made far longer code (by callgrind on `plyd bench
/// othello`, the generic flips inlined took about 3% more instructions).
#[inline(never)]
fn flips(own: u64, opp: u64, disc: u64) -> u64 {
    flips_at(own, opp, disc.trailing_zeros() as usize)
}

/// The most plies a shallow search takes: the host hands over its nodes
/// with one or two plies left.
pub const PLIES: u32 = 2;
/// Corners.
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The squares next to a corner (C and X squares), searched last at one
/// ply from the leaves.
const NEXT_TO_CORNERS: u64 = 0x42C3_0000_0000_C342;
/// More than any score.
const INFINITY: i32 = i32::MAX;

/// How a shallow search scores its leaves, with what it keeps of each
/// position on the way down (an evaluator's incrementally updated
/// features, or nothing).
pub trait Leaves {
    /// What is kept of a position.
    type Kept: Copy;
    /// It, for the position with `own` to move against `opp`.
    fn keep(&self, own: u64, opp: u64) -> Self::Kept;
    /// As much of it as [`Leaves::leaf_after_placement`] and
    /// [`Leaves::after_pass`] need: a one-ply search keeps no more.
    fn keep_for_leaves(&self, own: u64, opp: u64) -> Self::Kept {
        self.keep(own, opp)
    }
    /// It after the side to move of `kept`'s position placed `disc`,
    /// flipping `flipped`, for the opponent now to move.
    fn after_placement(&self, kept: &Self::Kept, disc: u64, flipped: u64) -> Self::Kept;
    /// As much of [`Leaves::after_placement`] as [`Leaves::score`] reads:
    /// for a position that is scored and searched no further.
    fn leaf_after_placement(&self, kept: &Self::Kept, disc: u64, flipped: u64) -> Self::Kept {
        self.after_placement(kept, disc, flipped)
    }
    /// It after the side to move of `kept`'s position passed.
    fn after_pass(&self, kept: &Self::Kept) -> Self::Kept;
    /// The score of the position with `own` to move against `opp`, for
    /// its side to move; the two sides' legal placements are
    /// `own_placements` and `opp_placements`.
    fn score(
        &self,
        own: u64,
        opp: u64,
        own_placements: u64,
        opp_placements: u64,
        kept: &Self::Kept,
    ) -> i32;
}

/// Search `request.depth` plies from the position with `own` to move
/// against `opp`, whose game is not over, scoring the leaves by `leaves`.
pub fn search<L: Leaves>(leaves: &L, own: u64, opp: u64, request: Shallow) -> ShallowResult {
    let mut search = Search {
        leaves,
        request,
        nodes: 0,
    };
    let placements = legal_placements(own, opp);
    let kept = if request.depth == 1 {
        leaves.keep_for_leaves(own, opp)
    } else {
        leaves.keep(own, opp)
    };
    let score = search.node(
        own,
        opp,
        placements,
        &kept,
        request.depth,
        request.alpha,
        request.beta,
        0,
    );
    ShallowResult {
        score,
        nodes: search.nodes,
    }
}

/// Take `value` into a node's best and alpha; whether it cuts at `beta`.
#[inline(always)]
fn raise(best: &mut i32, alpha: &mut i32, value: i32, beta: i32) -> bool {
    if value > *best {
        *best = value;
        if value > *alpha {
            *alpha = value;
        }
    }
    value >= beta
}

/// One shallow search.
struct Search<'a, L> {
    leaves: &'a L,
    request: Shallow,
    /// Positions reached so far.
    nodes: u64,
}

impl<L: Leaves> Search<'_, L> {
    /// A node `down` plies below the root with `depth > 0` plies left,
    /// `own` to move with `placements`, its game not over.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        own: u64,
        opp: u64,
        placements: u64,
        kept: &L::Kept,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        down: u32,
    ) -> i32 {
        if placements == 0 {
            // A pass: the opponent can place, or the game would be over.
            self.nodes += 1;
            let replies = legal_placements(opp, own);
            let kept = self.leaves.after_pass(kept);
            return -self.child(opp, own, replies, &kept, depth - 1, -beta, -alpha, down + 1);
        }
        let mut best = -INFINITY;
        if depth == 1 {
            // The leaves' parents: the order only decides how soon a cut
            // comes, so a fixed one by the kind of square.
            for tier in [
                placements & CORNERS,
                placements & !CORNERS & !NEXT_TO_CORNERS,
                placements & NEXT_TO_CORNERS,
            ] {
                for square in squares(tier) {
                    let disc = 1u64 << square;
                    let flipped = flips(own, opp, disc);
                    let (mine, theirs) = (own | disc | flipped, opp & !flipped);
                    self.nodes += 1;
                    // A leaf: both sides' placements, for its end and its
                    // score.
                    let (replies, answers) = legal_placements_both(theirs, mine);
                    let value = if replies == 0 && answers == 0 {
                        -self.ended(theirs, mine, down + 1)
                    } else {
                        let kept = self.leaves.leaf_after_placement(kept, disc, flipped);
                        -self.leaves.score(theirs, mine, replies, answers, &kept)
                    };
                    if raise(&mut best, &mut alpha, value, beta) {
                        return best;
                    }
                }
            }
            return best;
        }
        // Further up: the moves that leave the opponent fewest replies
        // first, the kind of square breaking ties. 64 entries: one for
        // every square, whatever position the host hands over.
        let mut moves = [(0u32, 0u64, 0u64, 0u64); 64];
        let mut count = 0;
        // Two moves at a time: their replies side by side on two lanes.
        let mut rest = squares(placements);
        while let Some(first) = rest.next() {
            let second = rest.next();
            let discs = [1u64 << first, second.map_or(0, |s| 1u64 << s)];
            let flipped = [
                flips(own, opp, discs[0]),
                second.map_or(0, |_| flips(own, opp, discs[1])),
            ];
            let replies = legal_placements_pair(
                [opp & !flipped[0], opp & !flipped[1]],
                [own | discs[0] | flipped[0], own | discs[1] | flipped[1]],
            );
            for lane in 0..1 + usize::from(second.is_some()) {
                let disc = discs[lane];
                let tier = if disc & CORNERS != 0 {
                    0
                } else if disc & NEXT_TO_CORNERS != 0 {
                    2
                } else {
                    1
                };
                moves[count] = (
                    replies[lane].count_ones() * 4 + tier,
                    disc,
                    flipped[lane],
                    replies[lane],
                );
                count += 1;
            }
        }
        let moves = &mut moves[..count];
        moves.sort_unstable_by_key(|m| m.0);
        for &(_, disc, flipped, replies) in moves.iter() {
            let (mine, theirs) = (own | disc | flipped, opp & !flipped);
            self.nodes += 1;
            let kept = self.leaves.after_placement(kept, disc, flipped);
            let value = -self.child(
                theirs,
                mine,
                replies,
                &kept,
                depth - 1,
                -beta,
                -alpha,
                down + 1,
            );
            if raise(&mut best, &mut alpha, value, beta) {
                return best;
            }
        }
        best
    }

    /// The score of the finished game `down` plies below the root, for
    /// `own`, the side to move there.
    fn ended(&self, own: u64, opp: u64, down: u32) -> i32 {
        self.request
            .ended(down, own.count_ones().cmp(&opp.count_ones()))
    }

    /// The position reached `down` plies below the root, `own` to move
    /// with `placements`, `depth` plies left: a finished game, a leaf, or a
    /// node.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn child(
        &mut self,
        own: u64,
        opp: u64,
        placements: u64,
        kept: &L::Kept,
        depth: u32,
        alpha: i32,
        beta: i32,
        down: u32,
    ) -> i32 {
        if depth == 0 {
            let other = legal_placements(opp, own);
            if placements == 0 && other == 0 {
                return self.ended(own, opp, down);
            }
            return self.leaves.score(own, opp, placements, other, kept);
        }
        if placements == 0 && legal_placements(opp, own) == 0 {
            return self.ended(own, opp, down);
        }
        self.node(own, opp, placements, kept, depth, alpha, beta, down)
    }
}
