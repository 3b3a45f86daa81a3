//! The value of a chance node, and Star1 pruning.
//!
//! A chance node (a die about to be rolled) is worth the weighted average
//! of its outcomes. Averages mix poorly with the win scores of
//! [`score`](super::score), which count plies, so an outcome enters the
//! average clamped to the evaluator's bound `B` (a sure win as `+B`, a sure
//! loss as `-B`), and only a node where *every* outcome wins (or every one
//! loses) keeps a win (loss) score:
//!
//! ```text
//! every v_i > B     ->  min v_i                  (a win, however the die falls)
//! every v_i < -B    ->  max v_i                  (a loss, however it falls)
//! otherwise         ->  floor(sum w_i * clamp(v_i, -B, B) / sum w_i)
//! ```
//!
//! This value is monotone in every outcome's value, which is what lets the
//! search prune. Star1 (Ballard 1983) searches each outcome with a window
//! narrowed by what the outcomes already searched contribute and by the
//! bound on those still to come: after outcomes `1..=i` the node's value
//! lies in `[(S - R*B) / W, (S + R*B) / W]`, where `S` is the weighted sum
//! so far and `R` the weight still unsearched, and the node is cut off as
//! soon as that interval leaves the window `(alpha, beta)`.
//!
//! Two windows cannot be handled by the interval above, because the node's
//! value may then be a win or loss score outside `[-B, B]`:
//!
//! * `alpha >= B`: the node beats alpha only if every outcome is a win
//!   above alpha, so each outcome is searched in `(alpha, beta)` and the
//!   first one at or below alpha fails the node low.
//! * `beta <= -B`: symmetrically, every outcome must be a loss below beta.
//!
//! Everything here is integer arithmetic on 128-bit sums, so weights of any
//! size (up to `u32::MAX` each) cannot overflow, and the rounding is chosen
//! so that a window handed to an outcome is never narrower than Star1's.

use plyd_api::Move;

use super::score::INFINITY;
use super::tt::Bound;
use super::worker::{Searcher, NO_EVAL};
use crate::host::PluginError;

/// How the node's window relates to the evaluator's bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No pruning: every outcome searched with an infinite window.
    Exact,
    /// Star1 on the clamped average.
    Star1,
    /// `alpha >= B`: only a sure win can beat alpha.
    NeedsAllWins,
    /// `beta <= -B`: only a sure loss can stay below beta.
    NeedsAllLosses,
}

/// The running value of one chance node while its outcomes are searched.
#[derive(Debug, Clone)]
pub(super) struct ChanceValue {
    mode: Mode,
    alpha: i128,
    beta: i128,
    bound: i128,
    /// Sum of all weights.
    total: i128,
    /// Sum of the weights of the outcomes searched so far.
    seen: i128,
    /// Sum of `w_i * clamp(v_i, -B, B)` over the outcomes searched.
    sum: i128,
    all_wins: bool,
    all_losses: bool,
    /// Smallest (largest) value among the outcomes, for the all-wins
    /// (all-losses) cases.
    min_value: i32,
    max_value: i32,
}

/// What the node knows after one more outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Search the next outcome.
    Continue,
    /// The node's value is decided relative to the window: return this.
    Cutoff(i32),
}

impl ChanceValue {
    /// A node searched in `(alpha, beta)` whose outcome weights sum to
    /// `total` (> 0), with every non-decisive value in `[-bound, bound]`.
    /// `prune` false searches every outcome with an infinite window, which
    /// gives the exact value whatever the window.
    pub fn new(alpha: i32, beta: i32, bound: i32, total: u64, prune: bool) -> Self {
        let mode = if !prune {
            Mode::Exact
        } else if alpha >= bound {
            Mode::NeedsAllWins
        } else if beta <= -bound {
            Mode::NeedsAllLosses
        } else {
            Mode::Star1
        };
        ChanceValue {
            mode,
            alpha: alpha.into(),
            beta: beta.into(),
            bound: bound.into(),
            total: total.into(),
            seen: 0,
            sum: 0,
            all_wins: true,
            all_losses: true,
            min_value: INFINITY,
            max_value: -INFINITY,
        }
    }

    /// The window to search the next outcome, of weight `weight`, in (from
    /// the chance node's point of view).
    pub fn window(&self, weight: u64) -> (i32, i32) {
        let w = i128::from(weight);
        let b = self.bound;
        match self.mode {
            Mode::Exact => (-INFINITY, INFINITY),
            Mode::NeedsAllWins | Mode::NeedsAllLosses => (self.alpha as i32, self.beta as i32),
            Mode::Star1 => {
                // The weight still unsearched once this outcome is done.
                let rest = self.total - self.seen - w;
                let lo = if self.alpha < -b {
                    // A window reaching below -B needs exact loss scores.
                    -i128::from(INFINITY)
                } else {
                    // The outcome fails the node low at or below
                    // (alpha W - S - rest B) / w.
                    let a = floor_div(self.alpha * self.total - self.sum - rest * b, w);
                    a.max(-b - 1)
                };
                let hi = if self.beta > b {
                    i128::from(INFINITY)
                } else {
                    let c = ceil_div(self.beta * self.total - self.sum + rest * b, w);
                    c.min(b + 1)
                };
                (clamp_score(lo), clamp_score(hi))
            }
        }
    }

    /// Add the value `value` of an outcome of weight `weight`, searched in
    /// the window [`ChanceValue::window`] gave.
    pub fn add(&mut self, weight: u64, value: i32) -> Step {
        let b = self.bound;
        let v = i128::from(value);
        self.all_wins &= v > b;
        self.all_losses &= v < -b;
        self.min_value = self.min_value.min(value);
        self.max_value = self.max_value.max(value);
        match self.mode {
            Mode::NeedsAllWins => {
                if v <= self.alpha {
                    return Step::Cutoff(self.alpha as i32);
                }
                Step::Continue
            }
            Mode::NeedsAllLosses => {
                if v >= self.beta {
                    return Step::Cutoff(self.beta as i32);
                }
                Step::Continue
            }
            Mode::Exact | Mode::Star1 => {
                let w = i128::from(weight);
                self.seen += w;
                self.sum += w * v.clamp(-b, b);
                if self.mode == Mode::Exact {
                    return Step::Continue;
                }
                let rest = self.total - self.seen;
                let upper = self.sum + rest * b;
                if upper <= self.alpha * self.total {
                    return Step::Cutoff(floor_div(upper, self.total) as i32);
                }
                let lower = self.sum - rest * b;
                if lower >= self.beta * self.total {
                    // The value is floor(sum / W) >= floor(lower / W) >= beta.
                    return Step::Cutoff(floor_div(lower, self.total) as i32);
                }
                Step::Continue
            }
        }
    }

    /// The node's value once every outcome has been added.
    pub fn finish(&self) -> i32 {
        if self.all_wins {
            self.min_value
        } else if self.all_losses {
            self.max_value
        } else {
            match self.mode {
                // Not every outcome won, so not every one beat alpha.
                Mode::NeedsAllWins => self.alpha as i32,
                Mode::NeedsAllLosses => self.beta as i32,
                Mode::Exact | Mode::Star1 => floor_div(self.sum, self.total) as i32,
            }
        }
    }
}

/// The search of a chance node.
impl Searcher<'_> {
    /// A chance node: the weighted average of its outcomes' values, with
    /// Star1 pruning (see [`super::chance`]). A chance node reached with no
    /// depth left is evaluated as it stands. It is stored in the table like
    /// any node, with the bound its window gives and no move: its value
    /// depends on nothing but the position and the depth, and the stored
    /// entry spares the probes of all its outcomes next time.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chance_node(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        side: u32,
        key: Option<u64>,
    ) -> Result<i32, PluginError> {
        if depth == 0 {
            return self.evaluate();
        }
        let key = key.unwrap_or_else(|| self.state.hash());
        if let Some(hit) = self.shared.tt.probe(key, ply) {
            if !pv_node && hit.is_usable(depth, alpha, beta) {
                return Ok(hit.score);
            }
        }
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        // The likeliest outcomes first: they narrow the others' windows most.
        outcomes.sort_by_key(|&(_, weight)| std::cmp::Reverse(weight));
        let result = self.chance_outcomes(&outcomes, depth, ply, alpha, beta, pv_node, side);
        self.outcomes[ply] = outcomes;
        let value = result?;
        if self.stopped {
            return Ok(value);
        }
        let bound = Bound::of(value, alpha, beta);
        self.shared
            .tt
            .store(key, None, value, NO_EVAL, depth, bound, ply);
        Ok(value)
    }

    #[allow(clippy::too_many_arguments)]
    fn chance_outcomes(
        &mut self,
        outcomes: &[(Move, u32)],
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        side: u32,
    ) -> Result<i32, PluginError> {
        // Weights of zero everywhere would leave nothing to average by:
        // count every outcome alike then.
        let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
        let weight_of = |w: u32| if total == 0 { 1 } else { u64::from(w) };
        let total = if total == 0 {
            outcomes.len() as u64
        } else {
            total
        };
        let mut value = ChanceValue::new(
            alpha,
            beta,
            self.shared.eval_bound,
            total,
            self.shared.features.chance_pruning,
        );
        for (i, &(token, weight)) in outcomes.iter().enumerate() {
            let weight = weight_of(weight);
            if weight == 0 {
                continue;
            }
            let (lo, hi) = value.window(weight);
            self.state.make_move(token)?;
            self.nodes += 1;
            let v = self.child(depth, ply + 1, lo, hi, pv_node && i == 0, side)?;
            self.state.unmake_move(token)?;
            if self.stopped {
                return Ok(0);
            }
            if i == 0 {
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(token);
                head[ply].extend_from_slice(&tail[0]);
            }
            if let Step::Cutoff(cut) = value.add(weight, v) {
                return Ok(cut);
            }
        }
        Ok(value.finish())
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    a.div_euclid(b)
}

fn ceil_div(a: i128, b: i128) -> i128 {
    -(-a).div_euclid(b)
}

fn clamp_score(v: i128) -> i32 {
    v.clamp(-i128::from(INFINITY), i128::from(INFINITY)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{loss_in, win_in};

    /// The exact value by the definition, for checking.
    fn exact(values: &[(u64, i32)], bound: i32) -> i32 {
        let mut node = ChanceValue::new(-INFINITY, INFINITY, bound, total(values), false);
        for &(w, v) in values {
            node.add(w, v);
        }
        node.finish()
    }

    fn total(values: &[(u64, i32)]) -> u64 {
        values.iter().map(|&(w, _)| w).sum()
    }

    /// What a search of the outcomes in `(lo, hi)` could return: the value
    /// itself inside the window, else any bound on the right side of it
    /// (here the window's edge, the least informative one).
    fn searched(value: i32, lo: i32, hi: i32) -> i32 {
        if value <= lo {
            lo
        } else if value >= hi {
            hi
        } else {
            value
        }
    }

    /// Star1 with `(alpha, beta)` agrees with the exact value as alpha-beta
    /// requires: exact inside the window, a correct bound outside it.
    fn check(values: &[(u64, i32)], bound: i32, alpha: i32, beta: i32) {
        let want = exact(values, bound);
        let mut node = ChanceValue::new(alpha, beta, bound, total(values), true);
        let mut got = None;
        for &(w, v) in values {
            let (lo, hi) = node.window(w);
            assert!(lo < hi, "empty window {lo} {hi}");
            if let Step::Cutoff(c) = node.add(w, searched(v, lo, hi)) {
                got = Some(c);
                break;
            }
        }
        let got = got.unwrap_or_else(|| node.finish());
        // A fail-low answer is an upper bound: at or below alpha, and not
        // below the value; a fail-high one a lower bound.
        if want <= alpha {
            assert!(
                want <= got && got <= alpha,
                "{values:?} ({alpha},{beta}): {got} vs exact {want}"
            );
        } else if want >= beta {
            assert!(
                beta <= got && got <= want,
                "{values:?} ({alpha},{beta}): {got} vs exact {want}"
            );
        } else {
            assert_eq!(got, want, "{values:?} ({alpha},{beta})");
        }
    }

    #[test]
    fn exact_value_follows_the_definition() {
        assert_eq!(exact(&[(1, 10), (1, 20)], 100), 15);
        assert_eq!(exact(&[(1, 10), (2, -20)], 100), -10);
        // Floor, not truncation, for negative averages.
        assert_eq!(exact(&[(1, 0), (1, -1)], 100), -1);
        // A win counts as +B in a mixed average.
        assert_eq!(exact(&[(1, win_in(5)), (1, 0)], 100), 50);
        // All wins: the slowest; all losses: the slowest too.
        assert_eq!(exact(&[(1, win_in(5)), (3, win_in(9))], 100), win_in(9));
        assert_eq!(exact(&[(1, loss_in(5)), (3, loss_in(9))], 100), loss_in(9));
    }

    #[test]
    fn star1_bounds_are_right_for_every_window() {
        let bound = 10;
        let mut rng = 0x1234_5678_u64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        let pick_value = |r: u64, s: u64| match r {
            0 => win_in(3 + s as usize),
            1 => loss_in(3 + s as usize),
            _ => (s % 21) as i32 - 10,
        };
        for _ in 0..20_000 {
            let count = 1 + next(4) as usize;
            let values: Vec<(u64, i32)> = (0..count)
                .map(|_| (1 + next(5), pick_value(next(6), next(1000))))
                .collect();
            let edges = [
                -INFINITY,
                loss_in(2),
                -11,
                -10,
                -3,
                0,
                4,
                10,
                11,
                win_in(20),
                win_in(2),
            ];
            let a = edges[next(edges.len() as u64) as usize];
            let b = edges[next(edges.len() as u64) as usize];
            if a < b {
                check(&values, bound, a, b);
            }
            let alpha = next(25) as i32 - 12;
            check(&values, bound, alpha, alpha + 1);
            check(&values, bound, alpha, INFINITY);
            check(&values, bound, -INFINITY, alpha);
        }
    }

    #[test]
    fn huge_weights_do_not_overflow() {
        let w = u64::from(u32::MAX);
        let values = [(w, 7), (w, -3), (w, win_in(4))];
        assert_eq!(exact(&values, 1_000_000), 1_000_004 / 3);
        check(&values, 1_000_000, 0, 1);
    }
}
