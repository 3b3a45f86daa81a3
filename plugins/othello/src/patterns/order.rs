//! The exact solver's order evaluation ([`order_score`]'s weights) with
//! the pattern indices brought over move by move: the views of a node's
//! position are found once (from the thread's last ones, as the shallow
//! searches find theirs), and each position below is reached by adding
//! the rows of the squares its move changed, instead of reading all 46
//! instances afresh (about a thousand instructions a position).
//!
//! Values and counts of positions are those of
//! [`plyd_othello_rules::endgame::estimate`] over [`order_score`]: both
//! are [`estimate_with`], here with the views kept.
//!
//! [`order_score`]: super::order_score

use plyd_othello_rules::board::legal_placements_both;
use plyd_othello_rules::endgame::{estimate_with, EstimateLeaves, OrderEvaluation, EVAL_INFINITY};
use plyd_othello_rules::shallow::Leaves;

use super::incremental::{root_views, Views};
use super::Patterns;

/// [`legal_placements_both`], never inlined: inlined into the solver's
/// sorting searches, the compiler kept the two lanes apart there (about
/// 1.4 times the instructions, by callgrind on FFO 44).
#[inline(never)]
fn placements_of_both(own: u64, opp: u64) -> (u64, u64) {
    legal_placements_both(own, opp)
}

/// The order evaluation, with [`Views`] kept along its searches.
pub struct OrderPatterns(pub &'static Patterns);

impl EstimateLeaves for OrderPatterns {
    type Kept = Views;

    #[inline]
    fn after_placement(&self, views: &Views, disc: u64, flipped: u64, leaf: bool) -> Views {
        if leaf {
            self.0.leaf_after_placement(views, disc, flipped)
        } else {
            Leaves::after_placement(self.0, views, disc, flipped)
        }
    }

    #[inline]
    fn after_pass(&self, views: &Views) -> Views {
        Leaves::after_pass(self.0, views)
    }

    /// The unclamped score, from the side to move's view.
    #[inline]
    fn score(&self, own: u64, opp: u64, views: &Views) -> i32 {
        let (mine, theirs) = placements_of_both(own, opp);
        self.0.score_with(own, opp, mine, theirs, views.own_lanes())
    }
}

impl OrderEvaluation for OrderPatterns {
    fn evaluate(&self, own: u64, opp: u64) -> i32 {
        self.0.score(own, opp)
    }

    fn estimate(&self, own: u64, opp: u64, depth: u32, window: (i32, i32), nodes: &mut u64) -> i32 {
        estimate_with(self, own, opp, &root_views(own, opp), depth, window, nodes)
    }

    fn children(
        &self,
        own: u64,
        opp: u64,
        (squares, flipped): (&[u8], &[u64]),
        depth: u32,
        values: &mut [i32],
        nodes: &mut u64,
    ) {
        let views = root_views(own, opp);
        for (i, value) in values.iter_mut().enumerate() {
            let disc = 1u64 << squares[i];
            let child = EstimateLeaves::after_placement(self, &views, disc, flipped[i], depth == 0);
            let (child_own, child_opp) = (opp & !flipped[i], own | flipped[i] | disc);
            *value = if depth == 0 {
                EstimateLeaves::score(self, child_own, child_opp, &child)
            } else {
                let window = (-EVAL_INFINITY, EVAL_INFINITY);
                estimate_with(self, child_own, child_opp, &child, depth, window, nodes)
            };
        }
    }
}

/// [`OrderPatterns`] with the weights of `order.bin` decoded on first use
/// (about 14 ms of a fresh process's start, wasted where the game played
/// is not Othello), or ahead of it by [`OrderEvaluation::prepare`], which
/// the rules call as an Othello state is made, before a search's clock
/// runs.
pub struct LazyOrderPatterns;

impl OrderEvaluation for LazyOrderPatterns {
    fn prepare(&self) {
        // The evaluation's shipped weights (the default evaluator's) are
        // decoded beside these on a second thread where one can be had:
        // a fresh process playing Othello decodes both before its first
        // answer, and one after the other took its start from about 70
        // to 90 ms.
        std::thread::scope(|scope| {
            let _ = std::thread::Builder::new().spawn_scoped(scope, || {
                super::shipped();
            });
            super::order_patterns();
        });
    }

    fn evaluate(&self, own: u64, opp: u64) -> i32 {
        OrderPatterns(super::order_patterns()).evaluate(own, opp)
    }

    fn estimate(&self, own: u64, opp: u64, depth: u32, window: (i32, i32), nodes: &mut u64) -> i32 {
        OrderPatterns(super::order_patterns()).estimate(own, opp, depth, window, nodes)
    }

    fn children(
        &self,
        own: u64,
        opp: u64,
        moves: (&[u8], &[u64]),
        depth: u32,
        values: &mut [i32],
        nodes: &mut u64,
    ) {
        OrderPatterns(super::order_patterns()).children(own, opp, moves, depth, values, nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::super::order_score;
    use super::*;
    use plyd_othello_rules::board::{flips, squares};
    use plyd_othello_rules::endgame::{estimate, FromScratch};
    use plyd_othello_rules::testing::{next, random_move, random_position};

    /// Compare the incremental order evaluation with the one read afresh
    /// on the positions of random games (the children of each position,
    /// then a move down): every value and every count of positions, at
    /// depths 0 to 3, in the full window and in null windows on either
    /// side of the value.
    fn compare(seed: u64, games: usize) -> u64 {
        let incremental = OrderPatterns(super::super::order_patterns());
        let fresh = FromScratch(order_score);
        let mut rng = seed;
        let mut compared = 0;
        for _ in 0..games {
            let empties = 4 + (next(&mut rng) % 54) as u32;
            let mut position = random_position(&mut rng, empties);
            for _ in 0..4 {
                if position.is_game_over() {
                    break;
                }
                let (own, opp) = position.own_and_opponent();
                assert_eq!(incremental.evaluate(own, opp), order_score(own, opp));
                for depth in 0..=3 {
                    let full = (-EVAL_INFINITY, EVAL_INFINITY);
                    let (mut a, mut b) = (0, 0);
                    let value = incremental.estimate(own, opp, depth, full, &mut a);
                    assert_eq!(value, estimate(order_score, own, opp, depth, full, &mut b));
                    assert_eq!(a, b, "positions counted, depth {depth}");
                    for window in [
                        (value - 1, value),
                        (value, value + 1),
                        (value + 7, value + 8),
                    ] {
                        let (mut a, mut b) = (0, 0);
                        assert_eq!(
                            incremental.estimate(own, opp, depth, window, &mut a),
                            estimate(order_score, own, opp, depth, window, &mut b),
                            "depth {depth}, window {window:?}"
                        );
                        assert_eq!(a, b);
                    }
                    let moves: Vec<u8> = squares(position.placements()).map(|s| s as u8).collect();
                    let flipped: Vec<u64> =
                        moves.iter().map(|&s| flips(own, opp, 1u64 << s)).collect();
                    let (mut got, mut want) = (vec![0; moves.len()], vec![0; moves.len()]);
                    let (mut a, mut b) = (0, 0);
                    incremental.children(own, opp, (&moves, &flipped), depth, &mut got, &mut a);
                    fresh.children(own, opp, (&moves, &flipped), depth, &mut want, &mut b);
                    assert_eq!(got, want, "children at depth {depth}");
                    assert_eq!(a, b);
                    compared += 1;
                }
                position = position.play(random_move(&position, &mut rng));
            }
        }
        compared
    }

    #[test]
    fn incremental_order_evaluation_equals_the_one_read_afresh() {
        assert!(compare(0x0de5, 60) > 500);
    }

    /// Each thread keeps its own last views: several threads at once give
    /// the same values as one.
    #[test]
    fn incremental_order_evaluation_is_right_on_several_threads() {
        let compared: u64 = std::thread::scope(|scope| {
            let runs: Vec<_> = (0..4u64)
                .map(|t| scope.spawn(move || compare(0x7e_0000 + t, 15)))
                .collect();
            runs.into_iter().map(|run| run.join().unwrap()).sum()
        });
        assert!(compared > 400);
    }
}
