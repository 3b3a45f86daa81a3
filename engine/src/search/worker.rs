//! One search thread: iterative deepening over a principal variation search
//! (negamax with null-window scouts and re-searches), aspiration windows at
//! the root, expectimax with Star1 or Star2 at chance nodes, a quiescence
//! stage over the plugin's noisy moves, and the selective techniques the
//! plugin declares sound.
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

use super::heuristics::Heuristics;
use super::picker::{Kind, MovePicker, PickerBuffers, PickerSetup};
use super::pool::{Shared, BUSY_MIN_DEPTH};
use super::score::{self, loss_in, win_in, INFINITY, MAX_PLY};
use super::tt::{Bound, TtHit};
use super::SearchEvent;
use crate::host::{GameState, Outcome, PluginError};

/// The most nodes that pass between two looks at the clock and the stop
/// flags.
const MAX_CHECK_INTERVAL: u32 = 1024;
/// The time the checks aim to leave between them: nodes of a game with
/// thousands of moves and costly hints can take a fraction of a
/// millisecond each, so the interval is counted in nodes but tuned on the
/// clock.
const CHECK_EVERY: Duration = Duration::from_micros(500);
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
    pub(super) root_side: u32,
    /// Whether the root is a chance node (`go` before the die is rolled):
    /// then `root_moves` is empty and the root's own value is searched.
    pub(super) root_is_chance: bool,
    /// At a chance root: the value and line of the last finished iteration.
    pub(super) chance_root: (i32, Vec<Move>),
    /// Nodes this thread has visited.
    pub(super) nodes: u64,
    pub(super) seldepth: u32,
    pub(super) stopped: bool,
    pub(super) completed_depth: u32,
    /// Nodes left before the next look at the clock and the stop flags.
    check_countdown: u32,
    /// Nodes between two looks, adapted to the time a node takes.
    check_interval: u32,
    /// When the last look was.
    last_check: Instant,
    pub(super) heuristics: Heuristics,
    /// Move-picker buffers, one per ply, reused node after node.
    pub(super) pickers: Vec<PickerBuffers>,
    /// Moves put off because another thread was searching them, per ply.
    pub(super) deferred: Vec<Vec<Move>>,
    /// Chance outcomes, one list per ply.
    pub(super) outcomes: Vec<Vec<(Move, u32)>>,
    /// The outcomes' known intervals at a chance node, one list per ply.
    pub(super) chance_bounds: Vec<Vec<(i32, i32)>>,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) lmr: Vec<[u8; 64]>,
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
            check_countdown: 1,
            check_interval: 1,
            last_check: Instant::now(),
            heuristics: Heuristics::default(),
            pickers: (0..=MAX_PLY).map(|_| PickerBuffers::default()).collect(),
            deferred: vec![Vec::new(); MAX_PLY + 1],
            outcomes: vec![Vec::new(); MAX_PLY + 1],
            chance_bounds: vec![Vec::new(); MAX_PLY + 1],
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

    pub(super) fn is_main(&self) -> bool {
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
    pub(super) fn best_score(&self) -> i32 {
        if self.root_is_chance {
            self.chance_root.0
        } else {
            self.root_moves[0].score
        }
    }

    #[inline]
    pub(super) fn check_limits(&mut self) {
        let shared = self.shared;
        if let Some(limit) = shared.limits.nodes {
            if self.is_main() && shared.total_nodes(self.id, self.nodes) >= limit {
                self.stopped = true;
                return;
            }
        }
        self.check_countdown -= 1;
        if self.check_countdown > 0 {
            return;
        }
        // Aim at one look every CHECK_EVERY: double the interval while the
        // looks come too often, halve it when they come too late.
        let now = Instant::now();
        let since = now - self.last_check;
        self.last_check = now;
        if since < CHECK_EVERY / 2 {
            self.check_interval = (self.check_interval * 2).min(MAX_CHECK_INTERVAL);
        } else if since > CHECK_EVERY * 2 {
            self.check_interval = (self.check_interval / 2).max(1);
        }
        self.check_countdown = self.check_interval;
        shared.publish_nodes(self.id, self.nodes);
        shared.control.beat();
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

    pub(super) fn terminal_score(outcome: Outcome, ply: usize) -> i32 {
        match outcome {
            Outcome::Win => win_in(ply),
            Outcome::Loss => loss_in(ply),
            Outcome::Draw | Outcome::Ongoing => 0,
        }
    }

    /// The first steps of every node: the limits, the principal variation
    /// and the game-over test. `Some(score)` when the node ends there.
    pub(super) fn enter_node(&mut self, ply: usize) -> Result<Option<i32>, PluginError> {
        self.check_limits();
        if self.stopped {
            return Ok(Some(0));
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        let outcome = self.state.outcome()?;
        if outcome != Outcome::Ongoing {
            return Ok(Some(Self::terminal_score(outcome, ply)));
        }
        Ok(None)
    }

    /// The static evaluation, clamped to the evaluator's bound.
    pub(super) fn evaluate(&self) -> Result<i32, PluginError> {
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
    pub(super) fn child(
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

    /// Fill `self.outcomes[ply]` with the state's chance outcomes (empty
    /// when a player is to move or the game has no chance).
    pub(super) fn load_outcomes(&mut self, ply: usize) -> Result<bool, PluginError> {
        if !self.shared.features.chance {
            return Ok(false);
        }
        let mut list = std::mem::take(&mut self.outcomes[ply]);
        let listed = self.state.chance_outcomes(&mut list);
        let is_chance = !list.is_empty();
        self.outcomes[ply] = list;
        listed.map(|()| is_chance)
    }

    /// How the main search orders the moves of a node at `ply` with `depth`
    /// left for `side`: the table move, then killers, hints and history.
    pub(super) fn picker_setup(
        &self,
        tt_move: Option<Move>,
        depth: u32,
        ply: usize,
        side: u32,
    ) -> PickerSetup {
        PickerSetup {
            kind: Kind::All,
            tt_move,
            check_tt_move: self.shared.features.is_legal,
            // A selective game needs its hints at every depth: they decide
            // which moves are searched at all.
            hints: depth >= 2 || self.shared.features.selective,
            skip_marked: self.shared.features.selective,
            killers_first: self.shared.features.selective,
            see: self.shared.features.see,
            side,
            killers: self.heuristics.killers(ply),
        }
    }

    /// Principal variation search of the node at `ply` to `depth`, for its
    /// side to move `side`; `key` is its hash if the caller has it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pvs(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        side: u32,
        key: Option<u64>,
    ) -> Result<i32, PluginError> {
        if let Some(value) = self.enter_node(ply)? {
            return Ok(value);
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

        let key = key.unwrap_or_else(|| self.state.hash());
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
            // The plugin's zugzwang guard (`null_move_ok`) is asked last,
            // only when everything else says try.
            if features.null_move
                && depth >= 3
                && static_eval >= beta
                && ply >= 1
                && self.state.null_move_ok()?
            {
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
        let setup = self.picker_setup(tt_move, depth, ply, side);
        let killers = setup.killers;
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
            // Static-exchange pruning near the leaves, once a move has
            // been searched and the best is not a forced loss (the table
            // move is always searched).
            if features.see
                && !in_check
                && depth <= SEE_PRUNE_DEPTH
                && count > 0
                && !(score::is_decisive(best) && best < 0)
                && Some(mv) != tt_move
                && self.fails_see_margin(mv, depth, count)?
            {
                continue;
            }
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
                        // Every move tried before the cutoff loses a little,
                        // those of the stages before generation too.
                        for &tried in picker.tried_early().iter().chain(picker.picked()) {
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
}

impl Searcher<'_> {
    /// Whether `mv` loses by the exchange more than the pruning margin at
    /// `depth` allows: a noisy move more than the noisy margin per ply, a
    /// quiet one (at the reduced depth it would get as the `count`-th move)
    /// more than the quiet margin per square of that depth. `false` where
    /// the plugin does not answer.
    fn fails_see_margin(&self, mv: Move, depth: u32, count: usize) -> Result<bool, PluginError> {
        let margins = self.shared.see_margins;
        let reduction = u32::from(self.lmr[depth.min(63) as usize][count.min(63)]);
        let lmr_depth = depth.saturating_sub(1 + reduction) as i32;
        // One question tells whether the move is noisy and answers it for
        // a quiet move; a noisy one needs its own threshold.
        let quiet_threshold = -margins.quiet * lmr_depth * lmr_depth;
        let Some(answer) = self.state.see_ge(mv, quiet_threshold)? else {
            return Ok(false);
        };
        if !answer.noisy {
            return Ok(!answer.passes);
        }
        let threshold = -margins.noisy * depth as i32;
        if threshold == quiet_threshold {
            return Ok(!answer.passes);
        }
        Ok(self
            .state
            .see_ge(mv, threshold)?
            .is_some_and(|answer| !answer.passes))
    }

    /// Whether the exchange of `mv` ends below `threshold` (`false` where
    /// the plugin does not answer).
    pub(super) fn loses_exchange(&self, mv: Move, threshold: i32) -> Result<bool, PluginError> {
        Ok(self
            .state
            .see_ge(mv, threshold)?
            .is_some_and(|answer| !answer.passes))
    }
}

/// Depth up to which moves that lose by the exchange are pruned.
const SEE_PRUNE_DEPTH: u32 = 8;

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
