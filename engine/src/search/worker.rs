//! One search thread: iterative deepening over a principal variation search
//! (negamax with null-window scouts and re-searches), aspiration windows at
//! the root, expectimax with Star1 at chance nodes, a quiescence stage over
//! the plugin's noisy moves, and the selective techniques the plugin
//! declares sound.
//!
//! Every thread of a Lazy SMP search runs this same code on its own clone of
//! the root state, sharing only the transposition table and the stop flags
//! (see [`super::pool`]).
//!
//! # Scores and sides
//!
//! A node's score is for its side to move, which the plugin says after
//! every move ([`Searcher::child`] asks once per node); a child's score is
//! negated, and its window mirrored, only when the side changed. Nothing
//! here assumes that sides alternate, so a pass, a roll that keeps the
//! turn, or a game of several moves per turn all search the same way.
//!
//! # The order of a node's steps
//!
//! 1. The stop flags and node limit, every node.
//! 2. **Game over** (`outcome`): a decided game, a repetition or any draw
//!    the plugin rules is scored before anything else, so no stored score
//!    can hide it.
//! 3. **Chance node** (`chance_outcomes`, only where the plugin has it):
//!    the weighted average of the outcomes (see [`super::chance`]).
//! 4. **Check** (`in_check`, only where the plugin has it) and its
//!    extension; at depth 0, quiescence.
//! 5. Mate-distance pruning, then the **transposition table** (`hash`).
//! 6. Reverse futility and null move where declared (`evaluate`).
//! 7. The **move loop**, from the [`MovePicker`].

use std::time::{Duration, Instant};

use plyd_api::{Move, NULL_MOVE};

use super::chance::{ChanceValue, Step};
use super::heuristics::Heuristics;
use super::picker::{Kind, MovePicker, PickerBuffers, PickerSetup};
use super::pool::{Shared, BUSY_MIN_DEPTH};
use super::score::{self, loss_in, win_in, INFINITY, MAX_PLY};
use super::timeman::IterationClock;
use super::tt::{Bound, TtHit};
use super::{SearchEvent, MAX_DEPTH};
use crate::host::{GameState, Outcome, PluginError};

/// How many nodes pass between two looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 1024;
/// `info currmove` lines start after this long, as GUIs expect.
const CURRMOVE_AFTER: Duration = Duration::from_secs(1);
/// The table's marker for "no static evaluation stored".
pub(super) const NO_EVAL: i32 = i32::MIN;

/// A root move with what the search knows of it.
#[derive(Debug, Clone)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score from the current iteration, `-INFINITY` if only known to be
    /// worse than the best.
    pub score: i32,
    /// Score from the last finished iteration.
    pub previous_score: i32,
    /// Its principal variation, starting with the move.
    pub pv: Vec<Move>,
}

/// What a thread ends with.
#[derive(Debug, Clone, Default)]
pub struct ThreadResult {
    /// Deepest finished iteration.
    pub depth: u32,
    /// Score of the best move (of the root itself, at a chance root).
    pub score: i32,
    /// Best line, starting with the best move (with the likeliest outcome,
    /// at a chance root); empty if no move exists.
    pub pv: Vec<Move>,
}

/// The state of one search thread.
pub struct Searcher<'a> {
    pub(super) id: usize,
    pub(super) state: GameState,
    pub(super) shared: &'a Shared<'a>,
    pub(super) root_moves: Vec<RootMove>,
    /// The root's side to move.
    root_side: u32,
    /// Whether the root is a chance node (`go` before the die is rolled):
    /// then `root_moves` is empty and the root's own value is searched.
    root_is_chance: bool,
    /// At a chance root: the value and line of the last finished iteration.
    chance_root: (i32, Vec<Move>),
    /// Nodes this thread has visited.
    pub(super) nodes: u64,
    pub(super) seldepth: u32,
    pub(super) stopped: bool,
    pub(super) completed_depth: u32,
    heuristics: Heuristics,
    /// Move-picker buffers, one per ply, reused node after node.
    pickers: Vec<PickerBuffers>,
    /// Moves put off because another thread was searching them, per ply.
    deferred: Vec<Vec<Move>>,
    /// Chance outcomes, one list per ply.
    outcomes: Vec<Vec<(Move, u32)>>,
    pub(super) pv: Vec<Vec<Move>>,
    lmr: Vec<[u8; 64]>,
    /// Where the main thread reports; `None` for helpers.
    report: Option<&'a mut dyn FnMut(SearchEvent)>,
}

impl<'a> Searcher<'a> {
    pub(super) fn new(
        id: usize,
        state: GameState,
        shared: &'a Shared<'a>,
        report: Option<&'a mut dyn FnMut(SearchEvent)>,
    ) -> Self {
        let mut lmr = vec![[0u8; 64]; 64];
        for (depth, row) in lmr.iter_mut().enumerate().skip(1) {
            for (count, r) in row.iter_mut().enumerate().skip(1) {
                let value = 0.75 + (depth as f64).ln() * (count as f64).ln() / 2.25;
                *r = value.max(0.0) as u8;
            }
        }
        Searcher {
            id,
            state,
            shared,
            root_moves: shared
                .root
                .moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITY,
                    previous_score: -INFINITY,
                    pv: vec![mv],
                })
                .collect(),
            root_side: shared.root.side,
            root_is_chance: shared.root.is_chance,
            chance_root: (-INFINITY, Vec::new()),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            completed_depth: 0,
            heuristics: Heuristics::default(),
            pickers: (0..=MAX_PLY).map(|_| PickerBuffers::default()).collect(),
            deferred: vec![Vec::new(); MAX_PLY + 1],
            outcomes: vec![Vec::new(); MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            lmr,
            report,
        }
    }

    pub(super) fn emit(&mut self, event: SearchEvent) {
        if let Some(report) = self.report.as_mut() {
            report(event);
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// The thread's result so far.
    pub(super) fn result(&self) -> ThreadResult {
        if self.root_is_chance {
            return ThreadResult {
                depth: self.completed_depth,
                score: self.chance_root.0,
                pv: self.chance_root.1.clone(),
            };
        }
        // Moves not reached by an unfinished iteration keep their scores
        // from the last one, so the first move's score is always its best
        // known value.
        let best = &self.root_moves[0];
        ThreadResult {
            depth: self.completed_depth,
            score: best.score,
            pv: best.pv.clone(),
        }
    }

    /// The score of the best line so far.
    fn best_score(&self) -> i32 {
        if self.root_is_chance {
            self.chance_root.0
        } else {
            self.root_moves[0].score
        }
    }

    /// Iterative deepening. The main thread (id 0) reports, watches the
    /// clock and decides when to stop; helpers search until the main thread
    /// raises the stop flag.
    pub(super) fn iterate(&mut self) -> Result<(), PluginError> {
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_PLY as u32 - 1);
        let multipv = self.shared.multipv.min(self.root_moves.len()).max(1);
        let mut clock = IterationClock::default();
        let mut last_best = self.root_moves.first().map(|rm| rm.mv);
        let mut iteration_start = Instant::now();
        let mut depth = self.shared.first_depth(self.id);
        while depth <= max_depth {
            if self.root_is_chance {
                self.search_chance_root(depth)?;
            } else {
                for rm in &mut self.root_moves {
                    rm.previous_score = rm.score;
                }
                for pv_index in 0..multipv {
                    self.aspiration(depth, pv_index)?;
                    if self.stopped {
                        break;
                    }
                    // Keep the lines found so far in order, best first.
                    self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                }
            }
            if !self.stopped {
                self.completed_depth = depth;
            }
            if !self.is_main() {
                if self.stopped {
                    break;
                }
                // A helper that finishes the last depth first ends the
                // search: its answer is as deep as the main thread's will be.
                if depth == max_depth && limits.depth.is_some() && multipv == 1 {
                    self.shared.halt();
                    break;
                }
                depth = self.shared.next_depth(self.id, depth);
                continue;
            }
            let best_now = self.root_moves.first().map(|rm| rm.mv);
            let best_changed = best_now != last_best;
            last_best = best_now;
            // A partial iteration that changed the answer reports it too, so
            // the last pv printed is the line of the move played.
            if !self.stopped || best_changed {
                self.report_iteration(depth, multipv)?;
            }
            if self.stopped {
                break;
            }
            let now = Instant::now();
            clock.finished(now - iteration_start, best_changed);
            iteration_start = now;
            if self.stop_between_iterations(depth, &clock) {
                break;
            }
            depth += 1;
        }
        Ok(())
    }

    /// One iteration at a chance root: the root's expected value.
    fn search_chance_root(&mut self, depth: u32) -> Result<(), PluginError> {
        let value = self.pvs(depth, 0, -INFINITY, INFINITY, true, self.root_side, None)?;
        if !self.stopped {
            self.chance_root = (value, self.pv[0].clone());
        }
        Ok(())
    }

    /// Search the root at `depth` for the line `pv_index`, in a window
    /// around the last score that widens on every failure.
    fn aspiration(&mut self, depth: u32, pv_index: usize) -> Result<(), PluginError> {
        let previous = self.root_moves[pv_index].previous_score;
        let mut delta = self.shared.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= 4 && !score::is_decisive(previous) {
            (
                (previous - delta).max(-INFINITY),
                (previous + delta).min(INFINITY),
            )
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let value = self.search_root(depth, alpha, beta, pv_index)?;
            self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return Ok(());
            }
            if value <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = value.saturating_sub(delta).max(-INFINITY);
            } else if value >= beta && beta < INFINITY {
                beta = value.saturating_add(delta).min(INFINITY);
            } else {
                return Ok(());
            }
            delta = delta.saturating_mul(2);
        }
    }

    fn search_root(
        &mut self,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        pv_index: usize,
    ) -> Result<i32, PluginError> {
        let mut best = -INFINITY;
        let start_alpha = alpha;
        let mut best_move = None;
        // The root is extended in check like any other node.
        let child_depth = depth - 1 + u32::from(self.shared.root.in_check);
        let side = self.root_side;
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.is_main() && self.shared.control.clock_elapsed() >= CURRMOVE_AFTER {
                self.report_currmove(depth, mv, i + 1)?;
            }
            self.state.make_move(mv)?;
            self.nodes += 1;
            let value = if i == pv_index {
                self.child(child_depth, 1, alpha, beta, true, side)?
            } else {
                let scout = self.child(child_depth, 1, alpha, alpha + 1, false, side)?;
                if scout > alpha && scout < beta {
                    self.child(child_depth, 1, alpha, beta, true, side)?
                } else {
                    scout
                }
            };
            self.state.unmake_move(mv)?;
            if self.stopped {
                return Ok(best);
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || value > alpha {
                rm.score = value;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INFINITY;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if pv_index == 0 {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > start_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                self.shared.root.key,
                best_move,
                best,
                NO_EVAL,
                depth,
                bound,
                0,
            );
        }
        Ok(best)
    }

    fn stop_between_iterations(&self, depth: u32, clock: &IterationClock) -> bool {
        let limits = self.shared.limits;
        let control = self.shared.control;
        if control.stop_requested() {
            return true;
        }
        let best = self.best_score();
        if let Some(mate) = limits.mate {
            if best >= win_in(2 * mate as usize) {
                return true;
            }
        }
        if control.pondering() || limits.infinite {
            return false;
        }
        // A timed search with a single legal move has nothing to decide.
        if self.root_moves.len() == 1 && limits.is_timed() {
            return true;
        }
        // A forced result is fully seen once the depth passes its length.
        if score::is_decisive(best) && depth as i32 > score::WIN - best.abs() {
            return true;
        }
        match limits.clock {
            Some(budget) => !clock.start_next(control.clock_elapsed(), budget),
            None => false,
        }
    }

    #[inline]
    fn check_limits(&mut self) {
        let shared = self.shared;
        if let Some(limit) = shared.limits.nodes {
            if self.is_main() && shared.total_nodes(self.id, self.nodes) >= limit {
                self.stopped = true;
                return;
            }
        }
        if !self.nodes.is_multiple_of(CHECK_INTERVAL) {
            return;
        }
        shared.publish_nodes(self.id, self.nodes);
        if shared.should_stop() {
            self.stopped = true;
        } else if self.is_main() {
            // Only the main thread reads the clock; it stops the others.
            if let Some(hard) = shared.limits.hard_time() {
                if !shared.control.pondering() && shared.control.clock_elapsed() >= hard {
                    self.stopped = true;
                }
            }
        }
    }

    fn terminal_score(outcome: Outcome, ply: usize) -> i32 {
        match outcome {
            Outcome::Win => win_in(ply),
            Outcome::Loss => loss_in(ply),
            Outcome::Draw | Outcome::Ongoing => 0,
        }
    }

    /// The static evaluation, clamped to the evaluator's bound.
    fn evaluate(&self) -> Result<i32, PluginError> {
        let bound = self.shared.eval_bound;
        Ok(self
            .shared
            .evaluator
            .evaluate(&self.state)?
            .clamp(-bound, bound))
    }

    /// The value of the node just reached by a move (or outcome) from a
    /// node of side `parent_side`, for that parent, searched in the
    /// parent's window `(alpha, beta)`. The child's own score is negated,
    /// and the window mirrored, only if the side to move changed.
    fn child(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        parent_side: u32,
    ) -> Result<i32, PluginError> {
        let side = self.state.side_to_move()?;
        // A node with depth left will probe the table: fetch its cluster
        // now, while the plugin answers the node's first questions.
        let key = if depth > 0 {
            let key = self.state.hash();
            self.shared.tt.prefetch(key);
            Some(key)
        } else {
            None
        };
        if side == parent_side {
            self.pvs(depth, ply, alpha, beta, pv_node, side, key)
        } else {
            Ok(-self.pvs(depth, ply, -beta, -alpha, pv_node, side, key)?)
        }
    }

    /// As [`Searcher::child`], for quiescence.
    fn quiet_child(
        &mut self,
        ply: usize,
        alpha: i32,
        beta: i32,
        parent_side: u32,
    ) -> Result<i32, PluginError> {
        let side = self.state.side_to_move()?;
        if side == parent_side {
            self.quiescence(ply, alpha, beta, side)
        } else {
            Ok(-self.quiescence(ply, -beta, -alpha, side)?)
        }
    }

    /// Fill `self.outcomes[ply]` with the state's chance outcomes (empty
    /// when a player is to move or the game has no chance).
    fn load_outcomes(&mut self, ply: usize) -> Result<bool, PluginError> {
        if !self.shared.features.chance {
            return Ok(false);
        }
        let mut list = std::mem::take(&mut self.outcomes[ply]);
        let listed = self.state.chance_outcomes(&mut list);
        let is_chance = !list.is_empty();
        self.outcomes[ply] = list;
        listed.map(|()| is_chance)
    }

    /// Principal variation search of the node at `ply` to `depth`, for its
    /// side to move `side`; `key` is its hash if the caller has it.
    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        side: u32,
        key: Option<u64>,
    ) -> Result<i32, PluginError> {
        self.check_limits();
        if self.stopped {
            return Ok(0);
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        let outcome = self.state.outcome()?;
        if outcome != Outcome::Ongoing {
            return Ok(Self::terminal_score(outcome, ply));
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        if self.load_outcomes(ply)? {
            return self.chance_node(depth, ply, alpha, beta, pv_node, side, key);
        }
        let features = self.shared.features;
        let in_check = features.check && self.state.in_check()?;
        let depth = if in_check { depth + 1 } else { depth };
        if depth == 0 {
            return self.quiescence_moves(ply, alpha, beta, side, false);
        }

        // Mate distance pruning: no line from here beats a win at this ply.
        let alpha_floor = loss_in(ply);
        let beta_ceiling = win_in(ply + 1);
        if !pv_node && (alpha_floor >= beta || beta_ceiling <= alpha) {
            return Ok(if alpha_floor >= beta {
                alpha_floor
            } else {
                beta_ceiling
            });
        }

        let key = match key {
            Some(key) => key,
            None => self.state.hash(),
        };
        let hit = self.shared.tt.probe(key, ply);
        if let Some(hit) = hit {
            if !pv_node && hit.is_usable(depth, alpha, beta) {
                return Ok(hit.score);
            }
        }
        let node = Node {
            depth,
            ply,
            alpha,
            beta,
            pv_node,
            in_check,
            side,
        };
        let marked = depth >= BUSY_MIN_DEPTH && self.shared.enter(key);
        let result = self.pvs_moves(node, hit);
        if marked {
            self.shared.leave(key);
        }
        let (best, best_move, static_eval) = result?;
        if self.stopped {
            return Ok(best);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, best, static_eval, depth, bound, ply);
        Ok(best)
    }

    /// The pruning before the move loop and the move loop of
    /// [`Searcher::pvs`]. Returns the best score, the move that raised
    /// alpha (if any) and the static evaluation (`NO_EVAL` if not computed).
    fn pvs_moves(
        &mut self,
        node: Node,
        hit: Option<TtHit>,
    ) -> Result<(i32, Option<Move>, i32), PluginError> {
        let Node {
            depth,
            ply,
            mut alpha,
            beta,
            pv_node,
            in_check,
            side,
        } = node;
        let features = self.shared.features;
        let tt_move = hit.and_then(|h| h.best);
        let mut static_eval = NO_EVAL;
        let prunable = !pv_node && !in_check && !score::is_decisive(beta);
        if prunable && (features.futility || features.null_move) {
            static_eval = match hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => self.evaluate()?,
            };
            // Reverse futility: far enough above beta near the leaves, the
            // opponent will not catch up in the few plies left.
            if features.futility
                && depth <= 3
                && static_eval - self.shared.futility_margin * depth as i32 >= beta
            {
                return Ok((static_eval, None, static_eval));
            }
            // Null move: if passing still beats beta, a real move will too.
            if features.null_move && depth >= 3 && static_eval >= beta && ply >= 1 {
                let reduction = 2 + depth / 4;
                self.state.make_move(NULL_MOVE)?;
                self.nodes += 1;
                let value = self.child(
                    depth.saturating_sub(1 + reduction),
                    ply + 1,
                    beta - 1,
                    beta,
                    false,
                    side,
                )?;
                self.state.unmake_move(NULL_MOVE)?;
                if self.stopped {
                    return Ok((0, None, static_eval));
                }
                if value >= beta {
                    let value = if score::is_decisive(value) {
                        beta
                    } else {
                        value
                    };
                    return Ok((value, None, static_eval));
                }
            }
        }

        self.heuristics.clear_killers(ply + 2);
        let killers = self.heuristics.killers(ply);
        let setup = PickerSetup {
            kind: Kind::All,
            tt_move,
            check_tt_move: features.is_legal,
            hints: depth >= 2,
            side,
            killers,
        };
        let mut picker = MovePicker::new(setup, std::mem::take(&mut self.pickers[ply]));
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        let may_defer = depth > BUSY_MIN_DEPTH && self.shared.threads() > 1;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut count = 0usize;
        let mut next_deferred = 0usize;
        loop {
            // The picker's moves first, then those put off because another
            // thread was searching them.
            let mv = match picker.next(&self.state, &self.heuristics)? {
                Some(mv) => mv,
                None if next_deferred < deferred.len() => {
                    next_deferred += 1;
                    deferred[next_deferred - 1]
                }
                None => break,
            };
            self.state.make_move(mv)?;
            let from_picker = next_deferred == 0;
            if may_defer && count > 0 && from_picker && self.shared.is_busy(self.state.hash()) {
                self.state.unmake_move(mv)?;
                deferred.push(mv);
                continue;
            }
            self.nodes += 1;
            let special = Some(mv) == tt_move || killers.contains(&mv);
            let value = if count == 0 {
                self.child(depth - 1, ply + 1, alpha, beta, pv_node, side)?
            } else {
                let mut reduction = 0;
                if features.reductions && depth >= 3 && count >= 3 && !special && !in_check {
                    reduction = u32::from(self.lmr[depth.min(63) as usize][count.min(63)]);
                    if pv_node {
                        reduction = reduction.saturating_sub(1);
                    }
                    reduction = reduction.min(depth - 2);
                }
                let mut value = self.child(
                    depth - 1 - reduction,
                    ply + 1,
                    alpha,
                    alpha + 1,
                    false,
                    side,
                )?;
                if value > alpha && reduction > 0 {
                    value = self.child(depth - 1, ply + 1, alpha, alpha + 1, false, side)?;
                }
                // A scout inside a window wider than null needs the real
                // value: at a PV node, and at a node a chance node searches
                // with a Star1 window.
                if value > alpha && value < beta {
                    value = self.child(depth - 1, ply + 1, alpha, beta, pv_node, side)?;
                }
                value
            };
            self.state.unmake_move(mv)?;
            count += 1;
            if self.stopped {
                self.pickers[ply] = picker.into_buffers();
                self.deferred[ply] = deferred;
                return Ok((best.max(-INFINITY + 1), best_move, static_eval));
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    best_move = Some(mv);
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if alpha >= beta {
                        let bonus = Heuristics::bonus(depth);
                        self.heuristics.add_killer(ply, mv);
                        self.heuristics.update_history(side, mv, bonus);
                        for &tried in picker.picked() {
                            if tried != mv {
                                self.heuristics.update_history(side, tried, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.pickers[ply] = picker.into_buffers();
        self.deferred[ply] = deferred;
        if count == 0 {
            // No move, and the plugin said the game goes on: nothing can
            // change any more, which scores as a draw.
            return Ok((0, None, static_eval));
        }
        Ok((best, best_move, static_eval))
    }

    /// A chance node: the weighted average of its outcomes' values, with
    /// Star1 pruning (see [`super::chance`]). A chance node reached with no
    /// depth left is evaluated as it stands. It is stored in the table like
    /// any node, with the bound its window gives and no move: its value
    /// depends on nothing but the position and the depth, and the stored
    /// entry spares the probes of all its outcomes next time.
    #[allow(clippy::too_many_arguments)]
    fn chance_node(
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
        let key = match key {
            Some(key) => key,
            None => self.state.hash(),
        };
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
        let bound = if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
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

    /// Quiescence: stand on the static evaluation or try the noisy moves
    /// (all moves when in check) until the position is quiet. Games without
    /// noisy moves are evaluated at once, and so is a chance node.
    fn quiescence(
        &mut self,
        ply: usize,
        alpha: i32,
        beta: i32,
        side: u32,
    ) -> Result<i32, PluginError> {
        self.check_limits();
        if self.stopped {
            return Ok(0);
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        let outcome = self.state.outcome()?;
        if outcome != Outcome::Ongoing {
            return Ok(Self::terminal_score(outcome, ply));
        }
        if ply >= MAX_PLY - 1 || !self.shared.features.noisy || self.load_outcomes(ply)? {
            return self.evaluate();
        }
        let in_check = self.shared.features.check && self.state.in_check()?;
        self.quiescence_moves(ply, alpha, beta, side, in_check)
    }

    /// The part of quiescence after the game-over, chance and check tests,
    /// which [`Searcher::pvs`] has already made when its depth runs out.
    fn quiescence_moves(
        &mut self,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        side: u32,
        in_check: bool,
    ) -> Result<i32, PluginError> {
        if !self.shared.features.noisy {
            return self.evaluate();
        }
        let mut best = -INFINITY;
        if !in_check {
            best = self.evaluate()?;
            if best >= beta {
                return Ok(best);
            }
            alpha = alpha.max(best);
        }
        let setup = PickerSetup {
            kind: if in_check { Kind::All } else { Kind::Noisy },
            tt_move: None,
            check_tt_move: false,
            hints: true,
            side,
            killers: [NULL_MOVE; 2],
        };
        let mut picker = MovePicker::new(setup, std::mem::take(&mut self.pickers[ply]));
        let mut count = 0usize;
        let result = loop {
            let mv = match picker.next(&self.state, &self.heuristics) {
                Ok(Some(mv)) => mv,
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            };
            if let Err(e) = self.state.make_move(mv) {
                break Err(e);
            }
            self.nodes += 1;
            count += 1;
            let value = self.quiet_child(ply + 1, alpha, beta, side);
            let undone = self.state.unmake_move(mv);
            let value = match value.and_then(|v| undone.map(|()| v)) {
                Ok(v) => v,
                Err(e) => break Err(e),
            };
            if self.stopped {
                break Ok(());
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break Ok(());
                    }
                }
            }
        };
        self.pickers[ply] = picker.into_buffers();
        result?;
        if in_check && count == 0 {
            // In check with no move, and the game goes on by the plugin's
            // word: score it as the draw an ongoing dead end is.
            return Ok(0);
        }
        Ok(best)
    }
}

/// What [`Searcher::pvs`] hands its move loop.
#[derive(Debug, Clone, Copy)]
struct Node {
    depth: u32,
    ply: usize,
    alpha: i32,
    beta: i32,
    pv_node: bool,
    in_check: bool,
    side: u32,
}
