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
//! 6. The static evaluation (`evaluate`, corrected by `CorrHistory`) and
//!    whether it improves; reverse futility, razoring, null move and
//!    ProbCut where declared and switched on; internal iterative
//!    reduction.
//! 7. The **move loop**, from the [`MovePicker`]: late-move and exchange
//!    pruning, the singular test of the table's move, reductions, and
//!    what a cutoff teaches the histories.
//!
//! The techniques from Stockfish (`Techniques`) each have an engine option;
//! docs/search.md says what each does and what each measured.

use std::time::{Duration, Instant};

use plyd_api::{Move, NULL_MOVE};

use super::heuristics::{context, is_noisy, Context, Heuristics, Tables, NO_CONTEXT};
use super::picker::{Kind, MovePicker, PickerBuffers, PickerSetup};
use super::pool::{Shared, BUSY_MIN_DEPTH};
use super::score::{self, loss_in, win_in, INFINITY, MAX_PLY};
use super::tt::{Bound, TtHit};
use super::{EvaluatingFlag, SearchEvent};
use crate::host::{EvalStack, GameState, Outcome, PluginError};

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
    /// worse than the best; a move an iteration cut short did not reach
    /// keeps its score of the iteration before.
    pub score: i32,
    /// The depth `score` was searched to.
    pub depth: u32,
    /// Score from the last finished iteration.
    pub previous_score: i32,
    /// The depth `previous_score` was searched to.
    pub previous_depth: u32,
    /// Its principal variation, starting with the move.
    pub pv: Vec<Move>,
    /// Its key for the histories (the plugin's `move_keys`).
    pub key: u32,
    /// What `Variety` adds to its score for choosing (0 without it):
    /// `score` holds the sum, and what is reported takes it off again.
    pub bonus: i32,
}

impl RootMove {
    /// The score without the bonus, as reported.
    pub fn reported_score(&self) -> i32 {
        if self.score == -INFINITY || score::is_decisive(self.score) {
            self.score
        } else {
            self.score - self.bonus
        }
    }
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

/// A search thread's lists and frames, one per ply, reused node after
/// node and kept from one search to the next
/// ([`TranspositionTable::take_scratch`]).
pub(super) struct Scratch {
    pickers: Vec<PickerBuffers>,
    deferred: Vec<Vec<(Move, u32)>>,
    searched: Vec<Vec<(Move, u32)>>,
    outcomes: Vec<Vec<(Move, u32)>>,
    chance_bounds: Vec<Vec<(i32, i32)>>,
    pv: Vec<Vec<Move>>,
    stack: Vec<Frame>,
}

impl Scratch {
    pub(super) fn new() -> Self {
        Scratch {
            pickers: (0..=MAX_PLY).map(|_| PickerBuffers::default()).collect(),
            deferred: vec![Vec::new(); MAX_PLY + 1],
            searched: vec![Vec::new(); MAX_PLY + 1],
            outcomes: vec![Vec::new(); MAX_PLY + 1],
            chance_bounds: vec![Vec::new(); MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            stack: vec![Frame::default(); MAX_PLY + 2],
        }
    }

    /// As [`Scratch::new`] makes it, in the memory it holds: every list
    /// empty, every frame the default.
    pub(super) fn reset(&mut self) {
        for picker in &mut self.pickers {
            picker.clear();
        }
        for list in [&mut self.deferred, &mut self.searched, &mut self.outcomes] {
            list.iter_mut().for_each(Vec::clear);
        }
        self.chance_bounds.iter_mut().for_each(Vec::clear);
        self.pv.iter_mut().for_each(Vec::clear);
        self.stack.fill(Frame::default());
    }
}

/// The state of one search thread.
pub struct Searcher<'a> {
    pub(super) id: usize,
    pub(super) state: GameState,
    /// The evaluator's incremental stack for this thread, when it keeps
    /// one: pushed and popped with every move [`Searcher::play`] makes.
    eval_stack: Option<EvalStack<'a>>,
    /// Why the evaluator's stack could not be made or reset, reported when
    /// the search starts.
    pub(super) stack_error: Option<PluginError>,
    /// Up while this thread is inside a call of the evaluator.
    evaluating: Option<&'a EvaluatingFlag>,
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
    /// When the last `info currmove` line went out (the main thread's).
    pub(super) last_currmove: Option<Instant>,
    pub(super) heuristics: Heuristics,
    /// Move-picker buffers, one per ply, reused node after node.
    pub(super) pickers: Vec<PickerBuffers>,
    /// Moves put off because another thread was searching them, per ply.
    pub(super) deferred: Vec<Vec<(Move, u32)>>,
    /// The moves searched at each ply of the current line, with their
    /// keys: those a cutoff punishes (a pruned move taught nothing).
    pub(super) searched: Vec<Vec<(Move, u32)>>,
    /// Chance outcomes, one list per ply.
    pub(super) outcomes: Vec<Vec<(Move, u32)>>,
    /// The outcomes' known intervals at a chance node, one list per ply.
    pub(super) chance_bounds: Vec<Vec<(i32, i32)>>,
    pub(super) pv: Vec<Vec<Move>>,
    /// The current line, one frame per ply.
    pub(super) stack: Vec<Frame>,
    /// The depth of the iteration under way.
    pub(super) root_depth: u32,
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
        let Scratch {
            pickers,
            deferred,
            searched,
            outcomes,
            chance_bounds,
            pv,
            stack,
        } = shared.tt.take_scratch(id);
        // A stack that cannot be made or reset ends the search with that
        // failure at its start ([`Searcher::iterate`]); a reset answered
        // `STATUS_UNSUPPORTED` searches with the plain `evaluate`.
        let evaluating = shared.control.evaluator_flag(id, shared.evaluator);
        let (eval_stack, stack_error) =
            match EvaluatingFlag::around(evaluating, || shared.evaluator.new_stack()).and_then(
                |stack| {
                    stack
                        .map(|mut stack| {
                            match EvaluatingFlag::around(evaluating, || stack.reset(&state)) {
                                Ok(()) => Ok(Some(stack)),
                                Err(PluginError::Unsupported { .. }) => Ok(None),
                                Err(e) => Err(e),
                            }
                        })
                        .transpose()
                        .map(Option::flatten)
                },
            ) {
                Ok(stack) => (stack, None),
                Err(e) => (None, Some(e)),
            };
        Searcher {
            id,
            state,
            eval_stack,
            stack_error,
            evaluating,
            shared,
            root_moves: shared
                .root
                .moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITY,
                    depth: 0,
                    previous_score: -INFINITY,
                    previous_depth: 0,
                    pv: vec![mv],
                    key: NO_CONTEXT,
                    bonus: shared.variety_bonus(mv),
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
            last_currmove: None,
            heuristics: {
                let techniques = shared.features.techniques;
                let tables = Tables {
                    continuation: techniques.cont_history,
                    capture: techniques.capture_history,
                    counter: techniques.counter_moves,
                    correction: techniques.correction,
                };
                let heuristics = if Heuristics::kept_between_searches(tables) {
                    shared.tt.take_memory(id, &shared.game, tables)
                } else {
                    Heuristics::new(tables)
                };
                if heuristics.tables() != tables {
                    short_of_memory_for(tables, heuristics.tables());
                }
                heuristics
            },
            pickers,
            deferred,
            searched,
            outcomes,
            chance_bounds,
            pv,
            stack,
            root_depth: 1,
            report,
        }
    }

    /// Keep this thread's histories for the next search, where they are
    /// kept at all.
    pub(super) fn keep_memory(self) {
        let tt = self.shared.tt;
        tt.keep_scratch(
            self.id,
            Scratch {
                pickers: self.pickers,
                deferred: self.deferred,
                searched: self.searched,
                outcomes: self.outcomes,
                chance_bounds: self.chance_bounds,
                pv: self.pv,
                stack: self.stack,
            },
        );
        if Heuristics::kept_between_searches(self.heuristics.tables()) {
            tt.keep_memory(self.id, &self.shared.game, self.heuristics);
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
            score: best.reported_score(),
            pv: best.pv.clone(),
        }
    }

    /// Whether a move of the root has been searched to a score (at a
    /// chance root: a whole iteration).
    pub(super) fn has_answer(&self) -> bool {
        self.completed_depth > 0
            || (!self.root_is_chance
                && self
                    .root_moves
                    .first()
                    .is_some_and(|rm| rm.score > -INFINITY))
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
        // The main thread finishes its first iteration whatever the clock
        // or a `stop` says (a ply: a fraction of a millisecond in xiangqi
        // and Othello, a few in the Amazons): stopped sooner, it would play
        // a move it had not looked at, with no `info` line. The watchdog
        // still answers for a first iteration that takes too long (past
        // the hard limit, or `STOP_GRACE` after a `stop`).
        let clock_binds = !self.is_main() || self.completed_depth > 0;
        if shared.time_up() && clock_binds {
            self.stopped = true;
            return;
        }
        if let Some(limit) = shared.limits.nodes {
            // The main thread stops once the count is spent, but not before
            // it has a move searched: with several threads the others may
            // have spent the nodes before it began. A helper stops as soon
            // as the count is spent, so that a main thread kept off its core
            // (a busy machine) does not leave the helpers running on.
            if shared.total_nodes(self.id, self.nodes) >= limit
                && (!self.is_main() || self.has_answer())
            {
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
        if shared.halted() || (shared.control.stop_requested() && clock_binds) {
            self.stopped = true;
        } else if self.is_main() {
            // Only the main thread reads the clock; it stops the others.
            if let Some(hard) = shared.limits.hard_time().filter(|_| clock_binds) {
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
    #[inline(always)]
    pub(super) fn evaluate(&mut self) -> Result<i32, PluginError> {
        let bound = self.shared.eval_bound;
        let (state, evaluator) = (&self.state, self.shared.evaluator);
        let score = match &mut self.eval_stack {
            Some(stack) => EvaluatingFlag::around(self.evaluating, || stack.evaluate(state))?,
            None => EvaluatingFlag::around(self.evaluating, || evaluator.evaluate(state))?,
        };
        Ok(score.clamp(-bound, bound))
    }

    /// Make `mv` on the search's state, and push it on the evaluator's
    /// stack.
    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move) -> Result<(), PluginError> {
        self.state.make_move(mv)?;
        if let Some(stack) = &mut self.eval_stack {
            let state = &self.state;
            EvaluatingFlag::around(self.evaluating, || stack.push(state, mv))?;
        }
        Ok(())
    }

    /// Take back `mv`, the last move [`Searcher::play`] made.
    #[inline(always)]
    pub(super) fn take_back(&mut self, mv: Move) -> Result<(), PluginError> {
        self.state.unmake_move(mv)?;
        if let Some(stack) = &mut self.eval_stack {
            EvaluatingFlag::around(self.evaluating, || stack.pop())?;
        }
        Ok(())
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
        // now, while the plugin answers the node's first questions. One
        // that the plugin searches whole never reads the table.
        let key = if depth > 0 && !self.searched_in_plugin(depth, pv_node) {
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

    /// Whether a node with `depth` plies left is one whose last plies the
    /// evaluator's `shallow_search` takes whole (off the principal
    /// variation, at most `shallow_plies` left), without the table.
    fn searched_in_plugin(&self, depth: u32, pv_node: bool) -> bool {
        depth <= self.shared.shallow_plies && !pv_node
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
    /// left for `side`: the table move, then killers, the countermove,
    /// hints and histories.
    pub(super) fn picker_setup(
        &self,
        tt_move: Option<Move>,
        depth: u32,
        ply: usize,
        side: u32,
    ) -> PickerSetup {
        let techniques = self.shared.features.techniques;
        let contexts = self.contexts(ply);
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
            move_keys: techniques.needs_keys(),
            contexts,
            counter: if techniques.counter_moves {
                self.heuristics.counter(side, contexts[0])
            } else {
                NULL_MOVE
            },
            capture_history: techniques.capture_history,
            excluded: self.stack[ply].excluded,
        }
    }

    /// The moves one, two and four plies before the node at `ply`, as the
    /// continuation history knows them.
    #[inline]
    pub(super) fn contexts(&self, ply: usize) -> [Context; 3] {
        let back = |k: usize| {
            if ply >= k {
                self.stack[ply - k].context
            } else {
                NO_CONTEXT
            }
        };
        [back(1), back(2), back(4)]
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
        let excluded = self.stack[ply].excluded;
        if excluded == NULL_MOVE {
            self.stack[ply].context = NO_CONTEXT;
            self.stack[ply].static_eval = NO_EVAL;
            self.stack[ply].side = side;
        }
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
        // The last plies of a non-PV node, searched inside the plugin.
        if self.searched_in_plugin(depth, pv_node) && excluded == NULL_MOVE {
            let (state, evaluator) = (&mut self.state, self.shared.evaluator);
            let found = EvaluatingFlag::around(self.evaluating, || {
                evaluator.shallow_search(state, depth, alpha, beta, win_in(ply))
            })?;
            if let Some((score, nodes)) = found {
                self.nodes += nodes;
                return Ok(score);
            }
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
        // A search without one move (a singular extension's) is not the
        // node's search: the table neither answers nor learns it.
        let hit = self.shared.tt.probe(key, ply);
        if let Some(hit) = hit {
            if !pv_node && excluded == NULL_MOVE && hit.is_usable(depth, alpha, beta) {
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
            key,
        };
        let marked = excluded == NULL_MOVE && depth >= BUSY_MIN_DEPTH && self.shared.enter(key);
        let result = self.pvs_moves(node, hit);
        if marked {
            self.shared.leave(key);
        }
        let done = result?;
        let best = done.best;
        if self.stopped || excluded != NULL_MOVE || done.shallow {
            return Ok(best);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if done.best_move.is_some() && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The static evaluation learns from the search where the search
        // tells more than a bound on the wrong side of it, and the best
        // move was quiet (a capture's gain is not the evaluation's error).
        let corrected = self.stack[ply].static_eval;
        if features.techniques.correction
            && corrected != NO_EVAL
            && done.raw_eval != NO_EVAL
            && !is_noisy(done.best_key)
            && !score::is_decisive(best)
            && !(bound == Bound::Lower && best <= corrected)
            && !(bound == Bound::Upper && best >= corrected)
        {
            let [last, before, _] = self.contexts(ply);
            let limit = self.shared.correction_limit;
            self.heuristics
                .update_correction(side, last, before, best - corrected, depth, limit);
        }
        self.shared
            .tt
            .store(key, done.best_move, best, done.raw_eval, depth, bound, ply);
        Ok(best)
    }

    /// The static evaluation of the node at `ply` for `side`, as the
    /// evaluator gives it (`hit`'s when stored) and as the correction
    /// history corrects it.
    fn node_eval(
        &mut self,
        ply: usize,
        side: u32,
        hit: Option<TtHit>,
    ) -> Result<(i32, i32), PluginError> {
        let raw = match hit {
            Some(h) if h.eval != NO_EVAL => h.eval,
            _ => self.evaluate()?,
        };
        if !self.shared.features.techniques.correction {
            return Ok((raw, raw));
        }
        let [last, before, _] = self.contexts(ply);
        let bound = self.shared.eval_bound;
        let corrected = (raw + self.heuristics.correction(side, last, before)).clamp(-bound, bound);
        Ok((raw, corrected))
    }

    /// Whether the node at `ply` for `side` evaluates better than the same
    /// side's node two plies up (four, if that one was in check; true when
    /// neither is known), Stockfish's "improving".
    fn improving(&self, ply: usize, side: u32, eval: i32) -> bool {
        for back in [2, 4] {
            if ply < back {
                break;
            }
            let frame = &self.stack[ply - back];
            if frame.side == side && frame.static_eval != NO_EVAL {
                return eval > frame.static_eval;
            }
        }
        true
    }

    /// The pruning before the move loop and the move loop of
    /// [`Searcher::pvs`].
    fn pvs_moves(&mut self, node: Node, hit: Option<TtHit>) -> Result<NodeResult, PluginError> {
        let Node {
            mut depth,
            ply,
            mut alpha,
            beta,
            pv_node,
            in_check,
            side,
            key,
        } = node;
        let features = self.shared.features;
        let techniques = features.techniques;
        let excluded = self.stack[ply].excluded;
        let tt_move = if excluded == NULL_MOVE {
            hit.and_then(|h| h.best)
        } else {
            Some(excluded)
        };
        let mut raw_eval = NO_EVAL;
        let mut eval = NO_EVAL;
        let mut improving = false;
        // The evaluation is needed where futility or null move may prune,
        // and at every node where the improving flag or the correction
        // history (which learns from every node's) is in force.
        let pruning = features.futility || features.null_move || techniques.node_probcut;
        let everywhere = (techniques.improving && features.reductions) || techniques.correction;
        let uses_eval = everywhere
            || (pruning && !pv_node && excluded == NULL_MOVE && !score::is_decisive(beta));
        if !in_check && uses_eval {
            if excluded == NULL_MOVE {
                let (raw, corrected) = self.node_eval(ply, side, hit)?;
                raw_eval = raw;
                self.stack[ply].static_eval = corrected;
            }
            eval = self.stack[ply].static_eval;
            if techniques.improving && eval != NO_EVAL {
                improving = self.improving(ply, side, eval);
            }
        }
        let nothing = |best: i32, raw_eval: i32| NodeResult {
            best,
            best_move: None,
            best_key: NO_CONTEXT,
            raw_eval,
            shallow: false,
        };
        // A value from a shallower search than the node's (razoring's
        // quiescence, ProbCut's reduced search): not stored at the node's
        // depth.
        let shallow = |best: i32, raw_eval: i32| NodeResult {
            shallow: true,
            ..nothing(best, raw_eval)
        };
        let prunable = !pv_node
            && !in_check
            && excluded == NULL_MOVE
            && !score::is_decisive(beta)
            && eval != NO_EVAL;
        if prunable && (features.futility || features.null_move) {
            // Reverse futility: far enough above beta near the leaves, the
            // opponent will not catch up in the few plies left. With the
            // improving flag, a node that improves needs a ply less margin.
            let rfp_depth = depth.saturating_sub(u32::from(improving && depth > 1));
            let (rfp_max_depth, rfp_margin) = if techniques.deep_futility {
                (
                    self.shared.params.deep_futility_depth,
                    self.shared.deep_futility_margin,
                )
            } else {
                (3, self.shared.futility_margin)
            };
            if features.futility
                && depth <= rfp_max_depth
                && eval - rfp_margin * rfp_depth as i32 >= beta
            {
                return Ok(nothing(eval, raw_eval));
            }
            // Razoring: so far below alpha that only a capture could save
            // the node; quiescence says whether one does.
            if techniques.razoring && depth <= 3 && eval + self.shared.razor_margin(depth) < alpha {
                let value = self.quiescence_moves(ply, alpha - 1, alpha, side, false)?;
                if value < alpha && !score::is_decisive(value) {
                    return Ok(shallow(value, raw_eval));
                }
            }
            // Null move: if passing still beats beta, a real move will too.
            // The plugin's zugzwang guard (`null_move_ok`) is asked last,
            // only when everything else says try.
            if features.null_move
                && depth >= 3
                && eval >= beta
                && ply >= 1
                && self.state.null_move_ok()?
            {
                let reduction = self.shared.params.null_move_base
                    + depth / self.shared.params.null_move_divisor;
                self.stack[ply].context = NO_CONTEXT;
                self.play(NULL_MOVE)?;
                self.nodes += 1;
                let value = self.child(
                    depth.saturating_sub(1 + reduction),
                    ply + 1,
                    beta - 1,
                    beta,
                    false,
                    side,
                )?;
                self.take_back(NULL_MOVE)?;
                if self.stopped {
                    return Ok(nothing(0, raw_eval));
                }
                if value >= beta {
                    let value = if score::is_decisive(value) {
                        beta
                    } else {
                        value
                    };
                    return Ok(nothing(value, raw_eval));
                }
            }
            // ProbCut: a capture that beats beta by a margin in a shallow
            // search would beat beta in the full one too.
            if techniques.probcut && depth >= 5 {
                if let Some(value) =
                    self.probcut(depth, ply, beta, side, (eval, raw_eval), key, hit)?
                {
                    return Ok(shallow(value, raw_eval));
                }
                if self.stopped {
                    return Ok(nothing(0, raw_eval));
                }
            }
        }
        // ProbCut of the whole node: a shallower search of this node that
        // clears the bound by a margin predicts the full one does.
        if prunable && techniques.node_probcut && depth >= NODE_PROBCUT_MIN_DEPTH {
            if let Some(value) = self.node_probcut(depth, ply, beta, side, key, eval)? {
                return Ok(shallow(value, raw_eval));
            }
            // Stopped in the shallow search: not a move more.
            if self.stopped {
                return Ok(nothing(0, raw_eval));
            }
        }
        // Internal iterative reductions: a node the table knows no move
        // for is searched a ply shallower (it is likely new, and likely
        // unimportant).
        if techniques.iir && excluded == NULL_MOVE && tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        self.heuristics.clear_killers(ply + 2);
        let setup = self.picker_setup(tt_move.filter(|&m| m != excluded), depth, ply, side);
        let killers = setup.killers;
        let counter = setup.counter;
        let contexts = setup.contexts;
        let mut picker = MovePicker::new(setup, std::mem::take(&mut self.pickers[ply]));
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        self.searched[ply].clear();
        let may_defer = depth > BUSY_MIN_DEPTH && self.shared.threads() > 1;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut best_key = NO_CONTEXT;
        let mut count = 0usize;
        let mut quiets = 0usize;
        let mut next_deferred = 0usize;
        loop {
            // The picker's moves first, then those put off because another
            // thread was searching them.
            let (mv, move_key) = match picker.next(&self.state, &self.heuristics)? {
                Some(pair) => pair,
                None if next_deferred < deferred.len() => {
                    next_deferred += 1;
                    deferred[next_deferred - 1]
                }
                None => break,
            };
            let quiet = !is_noisy(move_key);
            let special = Some(mv) == tt_move || killers.contains(&mv) || mv == counter;
            let losing = score::is_decisive(best) && best < 0;
            // Late-move pruning: near the leaves, past a number of moves
            // that grows with the depth, quiet moves are not searched.
            let mut prune = techniques.lmp
                && !in_check
                && quiet
                && !special
                && depth <= self.shared.params.lmp_depth
                && count > 0
                && !losing
                && quiets
                    >= lmp_count(
                        self.shared.params.lmp_base,
                        depth,
                        improving || !techniques.improving,
                    );
            // Futility pruning: near the leaves, a quiet move from a node
            // whose evaluation stays below alpha by more than a margin for
            // the move's reduced depth is not searched.
            if techniques.futility_moves
                && !prune
                && !in_check
                && quiet
                && !special
                && count > 0
                && !losing
                && eval != NO_EVAL
            {
                let lmr_depth = self.reduced_depth(depth, count);
                prune = lmr_depth <= self.shared.params.futility_moves_depth
                    && eval + self.shared.move_futility_margin(lmr_depth) <= alpha;
            }
            // A pruned move that gives check is searched all the same
            // with `SpareChecks`: the plugin says so, before the move if it
            // can (`gives_check`), else once the move is made.
            let mut made = false;
            let mut spared = false;
            if prune {
                if !techniques.spare_checks {
                    continue;
                }
                match self.state.gives_check(mv)? {
                    Some(false) => continue,
                    Some(true) => {}
                    None => {
                        self.play(mv)?;
                        if !self.state.in_check()? {
                            self.take_back(mv)?;
                            continue;
                        }
                        made = true;
                    }
                }
                spared = true;
            }
            // Static-exchange pruning near the leaves, once a move has
            // been searched and the best is not a forced loss (the table
            // move is always searched; a check spared above is not pruned
            // here either).
            if features.see
                && !spared
                && !in_check
                && depth <= SEE_PRUNE_DEPTH
                && count > 0
                && !losing
                && Some(mv) != tt_move
                && self.fails_see_margin(mv, depth, count)?
            {
                continue;
            }
            // Singular extension: when the table's move beats every other
            // by a margin in a shallower search without it, it is searched
            // deeper; when even the others beat beta, the node is cut.
            let mut extension = 0i32;
            if techniques.singular
                && count == 0
                && Some(mv) == tt_move
                && excluded == NULL_MOVE
                && depth >= self.shared.params.singular_depth
                && ply > 0
                && (ply as u32) < 2 * self.root_depth
            {
                let verdict = self.singular(depth, ply, beta, pv_node, side, key, mv, hit)?;
                // The test searched this ply's other moves under its own
                // list: this node has searched none yet.
                self.searched[ply].clear();
                match verdict {
                    Singular::Extend(e) => extension = e,
                    Singular::Cut(value) => {
                        self.pickers[ply] = picker.into_buffers();
                        self.deferred[ply] = deferred;
                        return Ok(nothing(value, raw_eval));
                    }
                }
                if self.stopped {
                    break;
                }
            }
            if !made {
                self.play(mv)?;
            }
            let from_picker = next_deferred == 0;
            if may_defer && count > 0 && from_picker && self.shared.is_busy(self.state.hash()) {
                self.take_back(mv)?;
                deferred.push((mv, move_key));
                continue;
            }
            self.nodes += 1;
            if quiet {
                quiets += 1;
            }
            self.searched[ply].push((mv, move_key));
            self.stack[ply].context = context(move_key, in_check);
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + u8::from(extension >= 2);
            let new_depth = (depth as i32 - 1 + extension).max(0) as u32;
            let value = if count == 0 {
                self.child(new_depth, ply + 1, alpha, beta, pv_node, side)?
            } else {
                let mut reduction = 0;
                if features.reductions && depth >= 3 && count >= 3 && !special && !in_check {
                    reduction = self.reduction(
                        depth, count, pv_node, improving, quiet, mv, move_key, side, &contexts,
                    );
                    reduction = reduction.min(new_depth.saturating_sub(1));
                }
                let mut value = self.child(
                    new_depth - reduction,
                    ply + 1,
                    alpha,
                    alpha + 1,
                    false,
                    side,
                )?;
                if value > alpha && reduction > 0 {
                    value = self.child(new_depth, ply + 1, alpha, alpha + 1, false, side)?;
                }
                // A scout inside a window wider than null needs the real
                // value: at a PV node, and at a node a chance node searches
                // with a Star1 window.
                if value > alpha && value < beta {
                    value = self.child(new_depth, ply + 1, alpha, beta, pv_node, side)?;
                }
                value
            };
            self.take_back(mv)?;
            count += 1;
            if self.stopped {
                self.pickers[ply] = picker.into_buffers();
                self.deferred[ply] = deferred;
                return Ok(NodeResult {
                    best: best.max(-INFINITY + 1),
                    best_move,
                    best_key,
                    raw_eval,
                    shallow: false,
                });
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    best_move = Some(mv);
                    best_key = move_key;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if alpha >= beta {
                        self.learn_cutoff(depth, ply, side, mv, move_key, &contexts);
                        break;
                    }
                }
            }
        }
        self.pickers[ply] = picker.into_buffers();
        self.deferred[ply] = deferred;
        if count == 0 {
            if excluded != NULL_MOVE {
                // Only the excluded move: nothing else reaches any bound.
                return Ok(nothing(alpha, raw_eval));
            }
            // No move, and the plugin said the game goes on: nothing can
            // change any more, which scores as a draw.
            return Ok(nothing(0, raw_eval));
        }
        Ok(NodeResult {
            best,
            best_move,
            best_key,
            raw_eval,
            shallow: false,
        })
    }

    /// What a cutoff by `mv` (with `key`) at `depth` teaches the tables:
    /// the move is rewarded, and the moves tried before it are punished.
    #[allow(clippy::too_many_arguments)]
    fn learn_cutoff(
        &mut self,
        depth: u32,
        ply: usize,
        side: u32,
        mv: Move,
        key: u32,
        contexts: &[Context; 3],
    ) {
        let techniques = self.shared.features.techniques;
        let bonus = self.heuristics.bonus(depth);
        if !techniques.cont_history {
            // The search before the techniques: killers and history for
            // every move, every earlier move punished.
            self.heuristics.add_killer(ply, mv);
            self.heuristics.update_history(side, mv, bonus);
            for &(tried, tried_key) in &self.searched[ply] {
                if tried == mv {
                    continue;
                }
                self.heuristics.update_history(side, tried, -bonus);
                if techniques.capture_history && is_noisy(tried_key) {
                    self.heuristics.update_capture(side, tried_key, -bonus);
                }
            }
            if techniques.capture_history && is_noisy(key) {
                self.heuristics.update_capture(side, key, bonus);
            }
            if techniques.counter_moves && !is_noisy(key) {
                self.heuristics.set_counter(side, contexts[0], mv);
            }
            return;
        }
        // Stockfish's: a quiet move is rewarded in history and
        // continuation history, and the quiet moves before it punished; a
        // noisy one in capture history, and the noisy moves tried before
        // the cutoff punished there whichever move cut. The killers keep
        // any move that cuts, noisy ones too: xiangqi's `bench 8` searched
        // 880,000 nodes with quiet killers only, 804,000 with every move
        // (and 869,000 with the noisy moves' results in the butterfly
        // history where capture history is not kept).
        self.heuristics.add_killer(ply, mv);
        if is_noisy(key) {
            self.heuristics.update_capture(side, key, bonus);
        } else {
            self.heuristics.update_quiet(side, mv, key, contexts, bonus);
            if techniques.counter_moves {
                self.heuristics.set_counter(side, contexts[0], mv);
            }
        }
        for &(tried, tried_key) in &self.searched[ply] {
            if tried == mv {
                continue;
            }
            if is_noisy(tried_key) {
                self.heuristics.update_capture(side, tried_key, -bonus);
            } else if !is_noisy(key) {
                self.heuristics
                    .update_quiet(side, tried, tried_key, contexts, -bonus);
            }
        }
    }

    /// The reduction of the `count`-th move at `depth`: the log table's,
    /// less for a PV node, more where the node is not improving, and less
    /// or more by the move's history.
    #[allow(clippy::too_many_arguments)]
    fn reduction(
        &self,
        depth: u32,
        count: usize,
        pv_node: bool,
        improving: bool,
        quiet: bool,
        mv: Move,
        key: u32,
        side: u32,
        contexts: &[Context; 3],
    ) -> u32 {
        let techniques = self.shared.features.techniques;
        let mut r = 1024 * i32::from(self.shared.lmr[depth.min(63) as usize][count.min(63)]);
        if pv_node {
            r -= 1024;
        }
        if techniques.improving && !improving {
            r += 1024;
        }
        if techniques.history_lmr && quiet {
            let stat = if key == NO_CONTEXT {
                2 * self.heuristics.history(side, mv)
            } else {
                self.heuristics.quiet_score(side, mv, key, contexts)
            };
            let divisor = i64::from(self.shared.params.history_lmr_divisor);
            r -= (i64::from(stat) * 1024 / divisor).clamp(-(1 << 20), 1 << 20) as i32;
        }
        ((r + 512) / 1024).max(0) as u32
    }

    /// The singular-extension test of the table's move `mv` at a node of
    /// `depth`: a search of the other moves to half the depth, against a
    /// bound a margin below the table's score.
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        depth: u32,
        ply: usize,
        beta: i32,
        pv_node: bool,
        side: u32,
        key: u64,
        mv: Move,
        hit: Option<TtHit>,
    ) -> Result<Singular, PluginError> {
        let Some(hit) = hit else {
            return Ok(Singular::Extend(0));
        };
        if hit.depth + 3 < depth
            || hit.bound == Bound::Upper
            || score::is_decisive(hit.score)
            || hit.best != Some(mv)
        {
            return Ok(Singular::Extend(0));
        }
        let margin = self.shared.singular_margin(depth);
        let singular_beta = hit.score - margin;
        let singular_depth = (depth - 1) / 2;
        self.stack[ply].excluded = mv;
        let value = self.pvs(
            singular_depth,
            ply,
            singular_beta - 1,
            singular_beta,
            false,
            side,
            Some(key),
        );
        self.stack[ply].excluded = NULL_MOVE;
        let value = value?;
        if self.stopped {
            return Ok(Singular::Extend(0));
        }
        Ok(if value < singular_beta {
            // Only the table's move holds: one ply more, two when the
            // others fall well short (a few times per line at most).
            let double = !pv_node
                && value < singular_beta - self.shared.double_extension_margin
                && self.stack[ply].double_extensions < MAX_DOUBLE_EXTENSIONS;
            Singular::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= beta && !score::is_decisive(singular_beta) {
            // Multi-cut: another move beats beta too.
            Singular::Cut(singular_beta)
        } else if hit.score >= beta {
            // The table's move is not alone in beating beta: search it a
            // ply shallower.
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        })
    }

    /// ProbCut of the whole node at `depth` (a null window below `beta`),
    /// as Othello programs use it since Buro's Logistello: the node is
    /// searched again a third to a half as deep, with a null window a
    /// margin above beta (when the static evaluation `eval` is at least
    /// beta) or below alpha (when it is at most alpha), and a shallow score
    /// beyond that window stands for the deep one. `Some(bound)` when the
    /// node is cut.
    fn node_probcut(
        &mut self,
        depth: u32,
        ply: usize,
        beta: i32,
        side: u32,
        key: u64,
        eval: i32,
    ) -> Result<Option<i32>, PluginError> {
        let shallow_depth = node_probcut_depth(depth);
        let margin = self.shared.node_probcut_margin;
        let alpha = beta - 1;
        let frame = (self.stack[ply].static_eval, self.stack[ply].context);
        let mut cut = None;
        let high = beta + margin;
        if eval >= beta && !score::is_decisive(high) {
            let value = self.pvs(shallow_depth, ply, high - 1, high, false, side, Some(key))?;
            if value >= high && !self.stopped {
                cut = Some(beta);
            }
        }
        let low = alpha - margin;
        if cut.is_none() && eval <= alpha && !score::is_decisive(low) && !self.stopped {
            let value = self.pvs(shallow_depth, ply, low, low + 1, false, side, Some(key))?;
            if value <= low && !self.stopped {
                cut = Some(alpha);
            }
        }
        // The shallow search is this node's too: put back what it changed
        // in the node's frame, and the mark that tells other threads this
        // node is being searched, which its end cleared.
        (self.stack[ply].static_eval, self.stack[ply].context) = frame;
        if shallow_depth >= BUSY_MIN_DEPTH {
            self.shared.enter(key);
        }
        Ok(cut)
    }

    /// ProbCut: the noisy moves that win enough by the exchange, searched
    /// by quiescence then to `depth - 4` against `beta` plus a margin;
    /// the value of the first that holds, which the table keeps.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        depth: u32,
        ply: usize,
        beta: i32,
        side: u32,
        (eval, raw_eval): (i32, i32),
        key: u64,
        hit: Option<TtHit>,
    ) -> Result<Option<i32>, PluginError> {
        let probcut_beta = beta + self.shared.probcut_margin;
        // The table already says a search this deep stays below it.
        if let Some(h) = hit {
            if h.depth + 3 >= depth && h.score < probcut_beta && h.bound != Bound::Lower {
                return Ok(None);
            }
        }
        let setup = PickerSetup::quiescence(false, side);
        let mut picker = MovePicker::new(setup, std::mem::take(&mut self.pickers[ply]));
        let mut found = None;
        while let Some((mv, _)) = picker.next(&self.state, &self.heuristics)? {
            if self.loses_exchange(mv, probcut_beta - eval)? {
                continue;
            }
            self.stack[ply].context = NO_CONTEXT;
            self.play(mv)?;
            self.nodes += 1;
            let mut value = self.quiet_child(ply + 1, probcut_beta - 1, probcut_beta, side)?;
            if value >= probcut_beta && !self.stopped {
                value = self.child(
                    depth - 4,
                    ply + 1,
                    probcut_beta - 1,
                    probcut_beta,
                    false,
                    side,
                )?;
            }
            self.take_back(mv)?;
            if self.stopped {
                break;
            }
            if value >= probcut_beta {
                self.shared
                    .tt
                    .store(key, Some(mv), value, raw_eval, depth - 3, Bound::Lower, ply);
                found = Some(value);
                break;
            }
        }
        self.pickers[ply] = picker.into_buffers();
        Ok(found)
    }
}

impl Searcher<'_> {
    /// The depth the `count`-th move of a node at `depth` would be searched
    /// to after the log table's reduction: what the pruning near the
    /// leaves weighs a move by.
    fn reduced_depth(&self, depth: u32, count: usize) -> u32 {
        let reduction = u32::from(self.shared.lmr[depth.min(63) as usize][count.min(63)]);
        depth.saturating_sub(1 + reduction)
    }

    /// Whether `mv` loses by the exchange more than the pruning margin at
    /// `depth` allows: a noisy move more than the noisy margin per ply, a
    /// quiet one (at the reduced depth it would get as the `count`-th move)
    /// more than the quiet margin per square of that depth. `false` where
    /// the plugin does not answer.
    fn fails_see_margin(&self, mv: Move, depth: u32, count: usize) -> Result<bool, PluginError> {
        let margins = self.shared.see_margins;
        let lmr_depth = self.reduced_depth(depth, count) as i32;
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
    key: u64,
}

/// What [`Searcher::pvs_moves`] hands back.
#[derive(Debug, Clone, Copy)]
struct NodeResult {
    /// The best score.
    best: i32,
    /// The move that raised alpha, if any.
    best_move: Option<Move>,
    /// Its key.
    best_key: u32,
    /// The evaluator's static evaluation (`NO_EVAL` if not computed).
    raw_eval: i32,
    /// Whether the score came from a shallower search than the node's,
    /// which the table must not keep at the node's depth.
    shallow: bool,
}

/// What the singular-extension test says of the table's move.
enum Singular {
    /// Search it this many plies deeper (or shallower, if negative).
    Extend(i32),
    /// Cut the node with this score.
    Cut(i32),
}

/// What one ply of the current line keeps for the plies below it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    /// The move made from this ply, as the histories know it.
    pub context: Context,
    /// The corrected static evaluation (`NO_EVAL`: in check, or none).
    pub static_eval: i32,
    /// The side to move.
    pub side: u32,
    /// The move a singular extension's search leaves out.
    pub excluded: Move,
    /// Double extensions on the line to here.
    pub double_extensions: u8,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            context: NO_CONTEXT,
            static_eval: NO_EVAL,
            side: u32::MAX,
            excluded: NULL_MOVE,
            double_extensions: 0,
        }
    }
}

/// Moves searched before late-move pruning starts at `depth`: with the
/// default `base` of 3, Stockfish's `(3 + d²) / (2 - improving)`.
fn lmp_count(base: u32, depth: u32, improving: bool) -> usize {
    let d = depth as usize;
    (base as usize + d * d) / if improving { 1 } else { 2 }
}

/// Double extensions allowed on one line.
const MAX_DOUBLE_EXTENSIONS: u8 = 6;

/// The shallowest node `NodeProbCut` tries to cut.
const NODE_PROBCUT_MIN_DEPTH: u32 = 4;

/// The depth of `NodeProbCut`'s shallow search of a node `depth` plies
/// deep (at least [`NODE_PROBCUT_MIN_DEPTH`]): a third to a half of it, of
/// the same parity (an Othello search scores odd and even depths
/// differently), and always at least two plies shallower.
fn node_probcut_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// Say once in the process's life that a search thread could not get
/// the memory of its histories (under an address-space limit) and searches
/// without those it lacks.
fn short_of_memory_for(asked: Tables, had: Tables) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let lacking: Vec<&str> = [
        (
            asked.continuation && !had.continuation,
            "continuation history",
        ),
        (asked.capture && !had.capture, "capture history"),
        (asked.counter && !had.counter, "countermoves"),
        (asked.correction && !had.correction, "correction history"),
    ]
    .into_iter()
    .filter_map(|(lacks, name)| lacks.then_some(name))
    .collect();
    log::warn!(
        "not enough memory for a search thread's {}: searching without (said once)",
        lacking.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_probcut_searches_two_or_more_plies_shallower_at_the_same_parity() {
        for depth in NODE_PROBCUT_MIN_DEPTH..=MAX_PLY as u32 {
            let shallow = node_probcut_depth(depth);
            assert!(shallow >= 1 && shallow + 2 <= depth, "{depth}: {shallow}");
            assert_eq!((depth - shallow) % 2, 0, "{depth}: {shallow}");
            // From a third to a half of the depth.
            assert!(
                3 * shallow + 1 >= depth && 2 * shallow <= depth + 1,
                "{depth}: {shallow}"
            );
        }
    }
}
