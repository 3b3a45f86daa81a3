//! One search thread: iterative deepening over a principal variation search
//! (negamax with null-window scouts and re-searches), aspiration windows at
//! the root, a quiescence stage over the plugin's noisy moves, and the
//! selective techniques the plugin declares sound.
//!
//! Every thread of a Lazy SMP search runs this same code on its own clone of
//! the root state, sharing only the transposition table and the stop flags;
//! they help each other through the table alone.

use std::time::{Duration, Instant};

use plyd_api::{Move, NULL_MOVE};
use plyd_protocol::Info;

use super::heuristics::Heuristics;
use super::score::{self, loss_in, win_in, EVAL_LIMIT, INFINITY, MAX_PLY};
use super::timeman::IterationClock;
use super::tt::Bound;
use super::{nps, SearchEvent, Shared, MAX_DEPTH};
use crate::host::{GameState, Outcome, PluginError};

/// How many nodes pass between two looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 1024;
/// `info currmove` lines start after this long, as GUIs expect.
const CURRMOVE_AFTER: Duration = Duration::from_secs(1);
/// The table's marker for "no static evaluation stored".
const NO_EVAL: i32 = i32::MIN;
/// Ordering keys of the table move and the killers, above any hint.
const TT_MOVE_KEY: i64 = i64::MAX;
const KILLER_KEYS: [i64; 2] = [i64::MAX - 1, i64::MAX - 2];

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
    /// Score of the best move.
    pub score: i32,
    /// Best line, starting with the best move; empty if no move exists.
    pub pv: Vec<Move>,
}

/// The state of one search thread.
pub struct Searcher<'a> {
    pub(super) id: usize,
    pub(super) state: GameState,
    pub(super) shared: &'a Shared<'a>,
    pub(super) root_moves: Vec<RootMove>,
    /// Nodes this thread has visited.
    pub(super) nodes: u64,
    pub(super) seldepth: u32,
    pub(super) stopped: bool,
    pub(super) completed_depth: u32,
    heuristics: Heuristics,
    move_lists: Vec<Vec<Move>>,
    /// Ordering keys of `move_lists[ply]`, one per move.
    key_lists: Vec<Vec<i64>>,
    hints: Vec<i32>,
    keyed: Vec<(i64, Move)>,
    pv: Vec<Vec<Move>>,
    lmr: Vec<[u8; 64]>,
    /// Where the main thread reports; `None` for helpers.
    report: Option<&'a mut dyn FnMut(SearchEvent)>,
}

impl<'a> Searcher<'a> {
    pub(super) fn new(
        id: usize,
        state: GameState,
        shared: &'a Shared<'a>,
        root: &[Move],
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
            root_moves: root
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITY,
                    previous_score: -INFINITY,
                    pv: vec![mv],
                })
                .collect(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            completed_depth: 0,
            heuristics: Heuristics::default(),
            move_lists: vec![Vec::new(); MAX_PLY + 1],
            key_lists: vec![Vec::new(); MAX_PLY + 1],
            hints: Vec::new(),
            keyed: Vec::new(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            lmr,
            report,
        }
    }

    fn emit(&mut self, event: SearchEvent) {
        if let Some(report) = self.report.as_mut() {
            report(event);
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// The thread's result so far.
    pub(super) fn result(&self) -> ThreadResult {
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

    /// Iterative deepening. The main thread (id 0) reports, watches the clock and decides when to stop; helpers search
    /// until the main thread raises the stop flag.
    pub(super) fn iterate(&mut self) -> Result<(), PluginError> {
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_PLY as u32 - 1);
        let multipv = self.shared.multipv.min(self.root_moves.len()).max(1);
        let mut clock = IterationClock::default();
        let mut last_best = self.root_moves[0].mv;
        let mut iteration_start = Instant::now();
        // Helpers start one ply deeper half of the time, so that the threads
        // spread over two depths and fill the table for each other.
        let first_depth = if self.id % 2 == 1 { 2 } else { 1 };
        for depth in first_depth..=max_depth {
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
                continue;
            }
            let best_changed = self.root_moves[0].mv != last_best;
            last_best = self.root_moves[0].mv;
            // A partial iteration that changed the answer reports it too, so
            // the last pv printed is the line of the move played.
            if !self.stopped || best_changed {
                for pv_index in 0..multipv {
                    if self.root_moves[pv_index].score == -INFINITY {
                        continue;
                    }
                    let info = self.line_info(depth, pv_index, multipv > 1)?;
                    self.emit(SearchEvent::Info(info));
                }
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
        let child_depth =
            depth - 1 + u32::from(self.shared.features.check && self.state.in_check()?);
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.is_main() && self.shared.control.clock_elapsed() >= CURRMOVE_AFTER {
                self.report_currmove(depth, mv, i + 1)?;
            }
            self.state.make_move(mv)?;
            self.nodes += 1;
            let value = if i == pv_index {
                -self.pvs(child_depth, 1, -beta, -alpha, true)?
            } else {
                let scout = -self.pvs(child_depth, 1, -alpha - 1, -alpha, false)?;
                if scout > alpha && scout < beta {
                    -self.pvs(child_depth, 1, -beta, -alpha, true)?
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
            self.shared
                .tt
                .store(self.state.hash(), best_move, best, NO_EVAL, depth, bound, 0);
        }
        Ok(best)
    }

    fn report_currmove(&mut self, depth: u32, mv: Move, number: usize) -> Result<(), PluginError> {
        let text = self.state.format_move(mv)?;
        self.emit(SearchEvent::Info(Info {
            depth: Some(depth),
            currmove: Some(text),
            currmovenumber: Some(number as u32),
            ..Info::default()
        }));
        Ok(())
    }

    fn stop_between_iterations(&self, depth: u32, clock: &IterationClock) -> bool {
        let limits = self.shared.limits;
        let control = self.shared.control;
        if control.stop_requested() {
            return true;
        }
        let best = self.root_moves[0].score;
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

    /// Report a helper's result as the final `info` line, so that the last
    /// line printed is the line of the move played.
    pub(super) fn report_result(&mut self, result: &ThreadResult) -> Result<(), PluginError> {
        let info = self.pv_info(result.depth, result.score, &result.pv, None)?;
        self.emit(SearchEvent::Info(info));
        Ok(())
    }

    /// The `info` line for line `pv_index` after an iteration.
    fn line_info(
        &mut self,
        depth: u32,
        pv_index: usize,
        numbered: bool,
    ) -> Result<Info, PluginError> {
        let rm = &self.root_moves[pv_index];
        let (value, line) = (rm.score, rm.pv.clone());
        self.pv_info(depth, value, &line, numbered.then_some(pv_index as u32 + 1))
    }

    /// An `info` line for a principal variation `line` scored `value` at
    /// `depth`, with the search's counters.
    fn pv_info(
        &mut self,
        depth: u32,
        value: i32,
        line: &[Move],
        multipv: Option<u32>,
    ) -> Result<Info, PluginError> {
        let elapsed = self.shared.control.search_elapsed();
        let nodes = self.shared.total_nodes(self.id, self.nodes);
        Ok(Info {
            depth: Some(depth),
            seldepth: Some(self.seldepth.max(depth)),
            multipv,
            score: Some((score::to_protocol(value), None)),
            nodes: Some(nodes),
            nps: Some(nps(nodes, elapsed)),
            hashfull: Some(self.shared.tt.hashfull()),
            time_ms: Some(elapsed.as_millis() as u64),
            pv: self.format_line(line)?,
            ..Info::default()
        })
    }

    /// Spell a line of moves, each in the position where it is played.
    pub(super) fn format_line(&mut self, line: &[Move]) -> Result<Vec<String>, PluginError> {
        let mut texts = Vec::with_capacity(line.len());
        let mut played = 0;
        let mut outcome = Ok(());
        for &mv in line {
            match self.state.format_move(mv) {
                Ok(text) => texts.push(text),
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
            if let Err(e) = self.state.make_move(mv) {
                outcome = Err(e);
                break;
            }
            played += 1;
        }
        for &mv in line[..played].iter().rev() {
            self.state.unmake_move(mv)?;
        }
        outcome.map(|()| texts)
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

    /// Sort `moves` best first (see [`Searcher::score_moves`]).
    fn order_moves(
        &mut self,
        moves: &mut [Move],
        tt_move: Option<Move>,
        ply: usize,
        with_hints: bool,
    ) -> Result<(), PluginError> {
        if moves.len() < 2 {
            return Ok(());
        }
        let mut keys = std::mem::take(&mut self.key_lists[ply]);
        let scored = self.score_moves(moves, &mut keys, tt_move, ply, with_hints);
        if scored.is_ok() {
            self.keyed.clear();
            self.keyed
                .extend(keys.iter().copied().zip(moves.iter().copied()));
            self.keyed
                .sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
            for (slot, &(_, mv)) in moves.iter_mut().zip(&self.keyed) {
                *slot = mv;
            }
        }
        self.key_lists[ply] = keys;
        scored
    }

    /// An ordering key per move, higher first: the table move, the
    /// killers, then the plugin's hint with the history score breaking ties.
    fn score_moves(
        &mut self,
        moves: &[Move],
        keys: &mut Vec<i64>,
        tt_move: Option<Move>,
        ply: usize,
        with_hints: bool,
    ) -> Result<(), PluginError> {
        keys.clear();
        if with_hints {
            self.state.order_hints(moves, &mut self.hints)?;
        } else {
            self.hints.clear();
            self.hints.resize(moves.len(), 0);
        }
        let killers = self.heuristics.killers(ply);
        let side = (ply & 1) as u32;
        for (&mv, &hint) in moves.iter().zip(&self.hints) {
            let key = if Some(mv) == tt_move {
                TT_MOVE_KEY
            } else if mv == killers[0] {
                KILLER_KEYS[0]
            } else if mv == killers[1] {
                KILLER_KEYS[1]
            } else {
                (i64::from(hint) << 32) + i64::from(self.heuristics.history(side, mv))
            };
            keys.push(key);
        }
        Ok(())
    }

    /// The static evaluation, clamped below any win score.
    fn evaluate(&self) -> Result<i32, PluginError> {
        Ok(self
            .shared
            .evaluator
            .evaluate(&self.state)?
            .clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }

    /// Principal variation search of the node at `ply` to `depth`.
    fn pvs(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> Result<i32, PluginError> {
        self.check_limits();
        if self.stopped {
            return Ok(0);
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let features = self.shared.features;
        let in_check = features.check && self.state.in_check()?;
        let depth = if in_check { depth + 1 } else { depth };
        if depth == 0 {
            return self.quiescence(ply, alpha, beta);
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

        let key = self.state.hash();
        let hit = self.shared.tt.probe(key, ply);
        if let Some(hit) = hit {
            let usable = hit.depth >= depth
                && match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
            if usable && !pv_node {
                return Ok(hit.score);
            }
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        if let Err(e) = self.state.legal_moves(&mut moves) {
            self.move_lists[ply] = moves;
            return Err(e);
        }
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            let outcome = self.state.outcome()?;
            return Ok(Self::terminal_score(outcome, ply));
        }
        let result = self.pvs_moves(&mut moves, depth, ply, alpha, beta, pv_node, in_check, hit);
        self.move_lists[ply] = moves;
        let (best, best_move, static_eval) = result?;
        if self.stopped {
            return Ok(best);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, best, static_eval, depth, bound, ply);
        Ok(best)
    }

    /// The move loop of [`Searcher::pvs`], with the pruning that needs the
    /// move list. Returns the best score, the move that raised alpha (if
    /// any) and the static evaluation (`NO_EVAL` if not computed).
    #[allow(clippy::too_many_arguments)]
    fn pvs_moves(
        &mut self,
        moves: &mut [Move],
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        in_check: bool,
        hit: Option<super::tt::TtHit>,
    ) -> Result<(i32, Option<Move>, i32), PluginError> {
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
                let value = -self.pvs(
                    depth.saturating_sub(1 + reduction),
                    ply + 1,
                    -beta,
                    -beta + 1,
                    false,
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

        let mut keys = std::mem::take(&mut self.key_lists[ply]);
        let result = self.score_moves(moves, &mut keys, tt_move, ply, depth >= 2);
        let result = result.and_then(|()| {
            self.search_moves(
                moves, &mut keys, depth, ply, alpha, beta, pv_node, in_check, tt_move,
            )
        });
        self.key_lists[ply] = keys;
        let (best, best_move) = result?;
        Ok((best, best_move, static_eval))
    }

    /// The move loop: moves are taken best key first, picked one at a time
    /// (a cutoff on an early move spares sorting the rest).
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        moves: &mut [Move],
        keys: &mut [i64],
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
        in_check: bool,
        tt_move: Option<Move>,
    ) -> Result<(i32, Option<Move>), PluginError> {
        let features = self.shared.features;
        self.heuristics.clear_killers(ply + 2);
        let killers = self.heuristics.killers(ply);
        let side = (ply & 1) as u32;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_best(moves, keys, i);
            let mv = moves[i];
            self.state.make_move(mv)?;
            self.nodes += 1;
            let special = Some(mv) == tt_move || killers.contains(&mv);
            let value = if i == 0 {
                -self.pvs(depth - 1, ply + 1, -beta, -alpha, pv_node)?
            } else {
                let mut reduction = 0;
                if features.reductions && depth >= 3 && i >= 3 && !special && !in_check {
                    reduction = u32::from(self.lmr[depth.min(63) as usize][i.min(63)]);
                    if pv_node {
                        reduction = reduction.saturating_sub(1);
                    }
                    reduction = reduction.min(depth - 2);
                }
                let mut value =
                    -self.pvs(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, false)?;
                if value > alpha && reduction > 0 {
                    value = -self.pvs(depth - 1, ply + 1, -alpha - 1, -alpha, false)?;
                }
                if value > alpha && value < beta && pv_node {
                    value = -self.pvs(depth - 1, ply + 1, -beta, -alpha, true)?;
                }
                value
            };
            self.state.unmake_move(mv)?;
            if self.stopped {
                return Ok((best.max(-INFINITY + 1), best_move));
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
                        for &tried in &moves[..i] {
                            self.heuristics.update_history(side, tried, -bonus);
                        }
                        break;
                    }
                }
            }
        }
        Ok((best, best_move))
    }

    /// Quiescence: stand on the static evaluation or try the noisy moves
    /// (all moves when in check) until the position is quiet. Games without
    /// noisy moves are evaluated at once.
    fn quiescence(&mut self, ply: usize, mut alpha: i32, beta: i32) -> Result<i32, PluginError> {
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
        if ply >= MAX_PLY - 1 || !self.shared.features.noisy {
            return self.evaluate();
        }
        let in_check = self.shared.features.check && self.state.in_check()?;
        let mut best = -INFINITY;
        if !in_check {
            best = self.evaluate()?;
            if best >= beta {
                return Ok(best);
            }
            alpha = alpha.max(best);
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        let listed = if in_check {
            self.state.legal_moves(&mut moves)
        } else {
            self.state.noisy_moves(&mut moves)
        };
        let result = listed.and_then(|()| {
            if in_check && moves.is_empty() {
                return Ok(Self::terminal_score(self.state.outcome()?, ply));
            }
            self.order_moves(&mut moves, None, ply, true)?;
            for &mv in moves.iter() {
                self.state.make_move(mv)?;
                self.nodes += 1;
                let value = -self.quiescence(ply + 1, -beta, -alpha)?;
                self.state.unmake_move(mv)?;
                if self.stopped {
                    break;
                }
                if value > best {
                    best = value;
                    if value > alpha {
                        alpha = value;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            Ok(best)
        });
        self.move_lists[ply] = moves;
        result
    }
}

/// Bring the move with the highest key among `moves[from..]` to `from`
/// (keys move with their moves). Ties keep the earlier move first.
#[inline]
fn pick_best(moves: &mut [Move], keys: &mut [i64], from: usize) {
    let mut best = from;
    for j in from + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(from, best);
    keys.swap(from, best);
}
