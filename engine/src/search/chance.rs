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
//! Star2 (`ChancePruning::Star2`, the default) first probes every outcome
//! of a node with depth 3 or more left: the table's bound for the position
//! the outcome leads to, else that position's first move alone, searched
//! to full depth. A first move's value bounds its node from the mover's
//! side (below when the roll keeps the turn, above for the chance node
//! when the turn passes), so each outcome starts the search phase with an
//! interval `[lo_i, hi_i]` narrower than `[-B, B]`, and the node may be
//! cut off before any outcome is fully searched; the Star1 formula above
//! becomes `[sum w_i lo_i / W, sum w_i hi_i / W]`.
//! On the test games Star2 searched 5-9% fewer nodes than Star1 on the
//! EinStein-like one and 1.7-3x fewer on the dice race (docs/search.md).
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

use super::picker::MovePicker;
use super::score::{INFINITY, MAX_PLY};
use super::tt::Bound;
use super::worker::{Searcher, NO_EVAL};
use super::ChancePruning;
use crate::host::PluginError;

/// Star2 probes only chance nodes with at least this much depth left:
/// nearer the leaves a probe costs about as much as the search it would
/// spare (on the test games, probing from depth 1 searched more nodes than
/// Star1 alone; from depth 2, 3 or 4 fewer).
const STAR2_MIN_DEPTH: u32 = 3;

/// How the node's window relates to the evaluator's bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No pruning: every outcome searched with an infinite window.
    Exact,
    /// Star1 (and Star2) on the clamped average.
    Star1,
    /// `alpha >= B`: only a sure win can beat alpha.
    NeedsAllWins,
    /// `beta <= -B`: only a sure loss can stay below beta.
    NeedsAllLosses,
}

/// The running value of one chance node while its outcomes are searched.
///
/// Every outcome `i` has an interval `[lo_i, hi_i]` within `[-B, B]` known
/// to hold its clamped value: `[-B, B]` at first, narrowed by a Star2
/// probe, a single value once searched. The node's value then lies in
/// `[floor(SL / W), floor(SH / W)]` with `SL = sum w_i lo_i` and
/// `SH = sum w_i hi_i`.
#[derive(Debug, Clone)]
pub(super) struct ChanceValue {
    mode: Mode,
    alpha: i128,
    beta: i128,
    bound: i128,
    /// Sum of all weights.
    total: i128,
    /// `sum w_i lo_i` and `sum w_i hi_i`.
    sum_lo: i128,
    sum_hi: i128,
    /// `(lo_i, hi_i)` per outcome.
    bounds: Vec<(i32, i32)>,
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

/// What a Star2 probe learnt of one outcome, from the chance node's point
/// of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Probe {
    /// The outcome is worth at least this much.
    AtLeast(i32),
    /// The outcome is worth at most this much.
    AtMost(i32),
    /// The outcome is worth exactly this much (a decided game).
    Exactly(i32),
}

impl ChanceValue {
    /// A node searched in `(alpha, beta)` with `count` outcomes whose
    /// weights sum to `total` (> 0), with every non-decisive value in
    /// `[-bound, bound]`. `prune` false searches every outcome with an
    /// infinite window, which gives the exact value whatever the window.
    /// `buffer` is reused for the outcomes' intervals.
    pub fn new(
        alpha: i32,
        beta: i32,
        bound: i32,
        count: usize,
        total: u64,
        prune: bool,
        mut buffer: Vec<(i32, i32)>,
    ) -> Self {
        let mode = if !prune {
            Mode::Exact
        } else if alpha >= bound {
            Mode::NeedsAllWins
        } else if beta <= -bound {
            Mode::NeedsAllLosses
        } else {
            Mode::Star1
        };
        buffer.clear();
        buffer.resize(count, (-bound, bound));
        let total = i128::from(total);
        let b = i128::from(bound);
        ChanceValue {
            mode,
            alpha: alpha.into(),
            beta: beta.into(),
            bound: b,
            total,
            sum_lo: -b * total,
            sum_hi: b * total,
            bounds: buffer,
            all_wins: true,
            all_losses: true,
            min_value: INFINITY,
            max_value: -INFINITY,
        }
    }

    /// The buffer handed to [`ChanceValue::new`], for the next node.
    pub fn into_buffer(self) -> Vec<(i32, i32)> {
        self.bounds
    }

    /// Whether Star2 probes can tell anything in this window: only where
    /// the Star1 interval decides.
    pub fn can_probe(&self) -> bool {
        self.mode == Mode::Star1
    }

    /// The window to search outcome `i`, of weight `weight`, in (from the
    /// chance node's point of view): at or below its low edge the node
    /// fails low, at or above its high edge the node fails high.
    pub fn window(&self, i: usize, weight: u64) -> (i32, i32) {
        let w = i128::from(weight);
        let b = self.bound;
        let (lo_i, hi_i) = self.bounds[i];
        match self.mode {
            Mode::Exact => (-INFINITY, INFINITY),
            Mode::NeedsAllWins | Mode::NeedsAllLosses => (self.alpha as i32, self.beta as i32),
            Mode::Star1 => {
                let lo = if self.alpha < -b {
                    // A window reaching below -B needs exact loss scores.
                    -i128::from(INFINITY)
                } else {
                    // The others at their highest, this one at v: the node
                    // fails low once v <= (alpha W - others) / w.
                    let others = self.sum_hi - w * i128::from(hi_i);
                    floor_div(self.alpha * self.total - others, w).max(-b - 1)
                };
                let hi = if self.beta > b {
                    i128::from(INFINITY)
                } else {
                    let others = self.sum_lo - w * i128::from(lo_i);
                    ceil_div(self.beta * self.total - others, w).min(b + 1)
                };
                (clamp_score(lo), clamp_score(hi))
            }
        }
    }

    /// Add the value `value` of outcome `i`, of weight `weight`, searched
    /// in the window [`ChanceValue::window`] gave.
    pub fn add(&mut self, i: usize, weight: u64, value: i32) -> Step {
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
                let v = v.clamp(-b, b) as i32;
                self.set(i, weight, v, v);
                if self.mode == Mode::Exact {
                    return Step::Continue;
                }
                self.decided()
            }
        }
    }

    /// Narrow outcome `i`'s interval by what a Star2 probe found (only
    /// where [`ChanceValue::can_probe`]).
    pub fn narrow(&mut self, i: usize, weight: u64, probe: Probe) -> Step {
        let b = self.bound as i32;
        let (lo_i, hi_i) = self.bounds[i];
        let (lo, hi) = match probe {
            Probe::AtLeast(v) => (lo_i.max(v.clamp(-b, b)).min(hi_i), hi_i),
            Probe::AtMost(v) => (lo_i, hi_i.min(v.clamp(-b, b)).max(lo_i)),
            Probe::Exactly(v) => {
                let v = v.clamp(-b, b).clamp(lo_i, hi_i);
                (v, v)
            }
        };
        self.set(i, weight, lo, hi);
        self.decided()
    }

    fn set(&mut self, i: usize, weight: u64, lo: i32, hi: i32) {
        let w = i128::from(weight);
        let (lo_i, hi_i) = self.bounds[i];
        self.sum_lo += w * i128::from(lo - lo_i);
        self.sum_hi += w * i128::from(hi - hi_i);
        self.bounds[i] = (lo, hi);
    }

    /// A cutoff once the node's interval has left the window.
    fn decided(&self) -> Step {
        if self.sum_hi <= self.alpha * self.total {
            return Step::Cutoff(floor_div(self.sum_hi, self.total) as i32);
        }
        if self.sum_lo >= self.beta * self.total {
            // The value is floor(sum / W) >= floor(SL / W) >= beta.
            return Step::Cutoff(floor_div(self.sum_lo, self.total) as i32);
        }
        Step::Continue
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
                Mode::Exact | Mode::Star1 => floor_div(self.sum_lo, self.total) as i32,
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
            outcomes.len(),
            total,
            self.shared.features.chance_pruning != ChancePruning::Off,
            std::mem::take(&mut self.chance_bounds[ply]),
        );
        let result =
            self.chance_search(outcomes, &mut value, depth, ply, pv_node, side, &weight_of);
        self.chance_bounds[ply] = value.into_buffer();
        result
    }

    /// Star2's probes, if on, then Star1's search of every outcome.
    #[allow(clippy::too_many_arguments)]
    fn chance_search(
        &mut self,
        outcomes: &[(Move, u32)],
        value: &mut ChanceValue,
        depth: u32,
        ply: usize,
        pv_node: bool,
        side: u32,
        weight_of: &dyn Fn(u32) -> u64,
    ) -> Result<i32, PluginError> {
        if self.shared.features.chance_pruning == ChancePruning::Star2
            && value.can_probe()
            && ply + 3 < MAX_PLY
            && depth >= STAR2_MIN_DEPTH
        {
            for (i, &(token, weight)) in outcomes.iter().enumerate() {
                let weight = weight_of(weight);
                if weight == 0 {
                    continue;
                }
                let (lo, hi) = value.window(i, weight);
                self.play(token)?;
                self.nodes += 1;
                let probe = self.probe(depth, ply + 1, lo, hi, side)?;
                self.take_back(token)?;
                if self.stopped {
                    return Ok(0);
                }
                if let Some(probe) = probe {
                    if let Step::Cutoff(cut) = value.narrow(i, weight, probe) {
                        return Ok(cut);
                    }
                }
            }
        }
        for (i, &(token, weight)) in outcomes.iter().enumerate() {
            let weight = weight_of(weight);
            if weight == 0 {
                continue;
            }
            let (lo, hi) = value.window(i, weight);
            self.play(token)?;
            self.nodes += 1;
            let v = self.child(depth, ply + 1, lo, hi, pv_node && i == 0, side)?;
            self.take_back(token)?;
            if self.stopped {
                return Ok(0);
            }
            // The line shown goes through the first outcome; below a
            // scout window nobody reads it (every node clears its own).
            if i == 0 && pv_node {
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(token);
                head[ply].extend_from_slice(&tail[0]);
            }
            if let Step::Cutoff(cut) = value.add(i, weight, v) {
                return Ok(cut);
            }
        }
        Ok(value.finish())
    }

    /// Star2's probe of the node at `ply`, just reached by an outcome of a
    /// chance node of side `parent_side` whose window for it is
    /// `(lo, hi)`: the table's bound if it is as deep as the search's,
    /// else the node's first move alone (the table's, else the picker's
    /// first), searched to the depth the full search will give it. Its
    /// value bounds the node from the side of the node's mover: a lower
    /// bound when the roll keeps the turn, an upper bound for the chance
    /// node when it passes to the other side. `None` when the probe
    /// says nothing: a node with no depth left, another chance node, no
    /// move, or a first move that fails on the wrong side of the window.
    fn probe(
        &mut self,
        depth: u32,
        ply: usize,
        lo: i32,
        hi: i32,
        parent_side: u32,
    ) -> Result<Option<Probe>, PluginError> {
        let ended = self.enter_node(ply)?;
        if self.stopped {
            return Ok(None);
        }
        let side = self.state.side_to_move()?;
        if let Some(score) = ended {
            let score = if side == parent_side { score } else { -score };
            return Ok(Some(Probe::Exactly(score)));
        }
        if self.load_outcomes(ply)? {
            return Ok(None);
        }
        let features = self.shared.features;
        let in_check = features.check && self.state.in_check()?;
        let depth = if in_check { depth + 1 } else { depth };
        if depth == 0 {
            return Ok(None);
        }
        let key = self.state.hash();
        let hit = self.shared.tt.probe(key, ply);
        // A stored bound as deep as the search's is the cheapest probe.
        if let Some(hit) = hit.filter(|hit| hit.depth >= depth) {
            let same = side == parent_side;
            let score = if same { hit.score } else { -hit.score };
            return Ok(Some(match (hit.bound, same) {
                (Bound::Exact, _) => Probe::Exactly(score),
                (Bound::Lower, true) | (Bound::Upper, false) => Probe::AtLeast(score),
                (Bound::Upper, true) | (Bound::Lower, false) => Probe::AtMost(score),
            }));
        }
        let setup = self.picker_setup(hit.and_then(|hit| hit.best), depth, ply, side);
        let mut picker = MovePicker::new(setup, std::mem::take(&mut self.pickers[ply]));
        let first = picker.next(&self.state, &self.heuristics);
        self.pickers[ply] = picker.into_buffers();
        let Some((mv, _)) = first? else {
            return Ok(None);
        };
        // The window from the mover's point of view.
        let (alpha, beta) = if side == parent_side {
            (lo, hi)
        } else {
            (-hi, -lo)
        };
        self.play(mv)?;
        self.nodes += 1;
        let value = self.child(depth - 1, ply + 1, alpha, beta, false, side)?;
        self.take_back(mv)?;
        if self.stopped || value <= alpha {
            return Ok(None);
        }
        Ok(Some(if side == parent_side {
            Probe::AtLeast(value)
        } else {
            Probe::AtMost(-value)
        }))
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
    use plyd_util::rng::SplitMix64;

    /// The exact value by the definition, for checking.
    fn exact(values: &[(u64, i32)], bound: i32) -> i32 {
        let mut node = ChanceValue::new(
            -INFINITY,
            INFINITY,
            bound,
            values.len(),
            total(values),
            false,
            Vec::new(),
        );
        for (i, &(w, v)) in values.iter().enumerate() {
            node.add(i, w, v);
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
        check_probed(values, &[], bound, alpha, beta);
    }

    /// [`check`] after Star2 probes: `probes[i]`, where given, is a true
    /// statement about outcome `i`'s value, fed to the node as a probe
    /// searched in the window the node gives would report it.
    fn check_probed(
        values: &[(u64, i32)],
        probes: &[Option<Probe>],
        bound: i32,
        alpha: i32,
        beta: i32,
    ) {
        let want = exact(values, bound);
        let mut node = ChanceValue::new(
            alpha,
            beta,
            bound,
            values.len(),
            total(values),
            true,
            Vec::new(),
        );
        let got = probed(&mut node, values, probes)
            .or_else(|| {
                values.iter().enumerate().find_map(|(i, &(w, v))| {
                    let (lo, hi) = node.window(i, w);
                    assert!(lo < hi, "empty window {lo} {hi}");
                    match node.add(i, w, searched(v, lo, hi)) {
                        Step::Cutoff(c) => Some(c),
                        Step::Continue => None,
                    }
                })
            })
            .unwrap_or_else(|| node.finish());
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

    /// The probe phase: `Some(cutoff)` if it decided the node.
    fn probed(
        node: &mut ChanceValue,
        values: &[(u64, i32)],
        probes: &[Option<Probe>],
    ) -> Option<i32> {
        if !node.can_probe() {
            return None;
        }
        for (i, probe) in probes.iter().enumerate() {
            let w = values[i].0;
            let (lo, hi) = node.window(i, w);
            // What the probe's search in (lo, hi) returns of its bound.
            let probe = match *probe {
                Some(Probe::AtLeast(v)) if v > lo => Probe::AtLeast(v.min(hi)),
                Some(Probe::AtMost(v)) if v < hi => Probe::AtMost(v.max(lo)),
                Some(Probe::Exactly(v)) => Probe::Exactly(v),
                _ => continue,
            };
            if let Step::Cutoff(c) = node.narrow(i, w, probe) {
                return Some(c);
            }
        }
        None
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
        let mut rng = SplitMix64::new(0x1234_5678_u64);
        let mut next = |n: u64| rng.below(n);
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
    fn star2_bounds_are_right_for_every_window() {
        let bound = 10;
        let mut rng = SplitMix64::new(0x9e37_79b9_u64);
        let mut next = |n: u64| rng.below(n);
        let mut cutoffs = 0;
        for _ in 0..20_000 {
            let count = 1 + next(5) as usize;
            let values: Vec<(u64, i32)> = (0..count)
                .map(|_| {
                    let v = match next(8) {
                        0 => win_in(3 + next(9) as usize),
                        1 => loss_in(3 + next(9) as usize),
                        _ => next(21) as i32 - 10,
                    };
                    (1 + next(5), v)
                })
                .collect();
            // True statements: a lower bound at or below the value, an
            // upper one at or above it, the value itself, or nothing.
            let probes: Vec<Option<Probe>> = values
                .iter()
                .map(|&(_, v)| match next(4) {
                    0 => Some(Probe::AtLeast(v - next(6) as i32)),
                    1 => Some(Probe::AtMost(v + next(6) as i32)),
                    2 => Some(Probe::Exactly(v)),
                    _ => None,
                })
                .collect();
            let alpha = next(25) as i32 - 12;
            for (a, b) in [(alpha, alpha + 1), (alpha, alpha + 4), (-11, 11)] {
                check_probed(&values, &probes, bound, a, b);
                let mut node =
                    ChanceValue::new(a, b, bound, count, total(&values), true, Vec::new());
                cutoffs += usize::from(probed(&mut node, &values, &probes).is_some());
            }
        }
        assert!(cutoffs > 1000, "the probes decided only {cutoffs} nodes");
    }

    #[test]
    fn huge_weights_do_not_overflow() {
        let w = u64::from(u32::MAX);
        let values = [(w, 7), (w, -3), (w, win_in(4))];
        assert_eq!(exact(&values, 1_000_000), 1_000_004 / 3);
        check(&values, 1_000_000, 0, 1);
    }
}
