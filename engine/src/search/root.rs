//! The root of one thread's search: iterative deepening, aspiration
//! windows, the root move loop, and when to stop between iterations.

use std::time::{Duration, Instant};

use super::heuristics::context;
use super::pool::BUSY_MIN_DEPTH;
use super::score::{self, win_in, INFINITY, MAX_PLY};
use super::timeman::IterationClock;
use super::tt::Bound;
use super::worker::{Searcher, NO_EVAL};
use super::MAX_DEPTH;
use crate::host::PluginError;

/// `info currmove` lines start after this long, as GUIs expect.
const CURRMOVE_AFTER: Duration = Duration::from_secs(1);
/// At most one `info currmove` line this often: a root of thousands of
/// moves (with `MultiPV`, searched once a line) would print millions.
const CURRMOVE_EVERY: Duration = Duration::from_millis(50);

impl Searcher<'_> {
    /// Iterative deepening. The main thread (id 0) reports, watches the
    /// clock and decides when to stop; helpers search until the main thread
    /// raises the stop flag.
    pub(super) fn iterate(&mut self) -> Result<(), PluginError> {
        let outcome = self.deepen();
        if let Err(e) = &outcome {
            self.say_where(e);
        }
        outcome
    }

    /// Where a plugin failed the search: the position the thread was at
    /// (a failed call is not taken back), on stderr, for the plugin's
    /// author; the error line itself names the plugin and the entry. Not
    /// for a plugin disabled by an earlier failure (another thread's).
    fn say_where(&self, e: &PluginError) {
        if matches!(e, PluginError::Disabled { .. }) {
            return;
        }
        if let Ok(text) = self.state.position_text() {
            log::error!(
                "search thread {}: {e}; the call was made at position '{text}'",
                self.id
            );
        }
    }

    /// [`Searcher::iterate`]'s work.
    fn deepen(&mut self) -> Result<(), PluginError> {
        if let Some(e) = self.stack_error.take() {
            return Err(e);
        }
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_PLY as u32 - 1);
        let multipv = self.shared.multipv.min(self.root_moves.len()).max(1);
        let mut clock = IterationClock::with_pawn(self.shared.pawn);
        let mut last_best = self.root_moves.first().map(|rm| rm.mv);
        let mut iteration_start = Instant::now();
        let mut depth = self.shared.first_depth(self.id);
        if self.shared.features.techniques.needs_keys() {
            let moves: Vec<_> = self.root_moves.iter().map(|rm| rm.mv).collect();
            let mut keys = Vec::new();
            self.state.move_keys(&moves, &mut keys)?;
            for (rm, key) in self.root_moves.iter_mut().zip(keys) {
                rm.key = key;
            }
        }
        while depth <= max_depth {
            depth = self.shared.next_depth(self.id, depth, max_depth);
            self.root_depth = depth;
            if self.root_is_chance {
                self.search_chance_root(depth)?;
            } else {
                for rm in &mut self.root_moves {
                    rm.previous_score = rm.score;
                    rm.previous_depth = rm.depth;
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
            if self.is_main() {
                self.shared.open_gate();
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
                depth += 1;
                continue;
            }
            let best_now = self.root_moves.first().map(|rm| rm.mv);
            let best_changed = best_now != last_best;
            last_best = best_now;
            // A partial iteration with an answer reports too, with the
            // search's final counts: the last line printed is the line of
            // the move played (where the partial iteration changed it), and
            // its nodes and time are the whole search's (a `go nodes` on
            // one thread ends on the count asked for), as a GUI or a tool
            // reads them from the last line; so does a partial first one,
            // the only line there is. (A changed best move or line has an
            // answer: a scored root move.)
            if !self.stopped || self.has_answer() {
                self.report_iteration(depth, multipv)?;
            }
            if self.stopped {
                break;
            }
            let now = Instant::now();
            clock.finished(now - iteration_start, best_changed, self.best_score());
            iteration_start = now;
            if self.stop_between_iterations(depth, &clock) {
                break;
            }
            depth += 1;
        }
        Ok(())
    }

    /// One iteration at a chance root: the root's expected value.
    pub(super) fn search_chance_root(&mut self, depth: u32) -> Result<(), PluginError> {
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
        // As in the tree, a root move another thread is searching right
        // now is put off to the end (never the first one).
        let may_defer = self.shared.threads() > 1 && child_depth >= BUSY_MIN_DEPTH;
        let mut deferred = Vec::new();
        let (mut next, mut next_deferred) = (pv_index, 0);
        loop {
            let i = if next < self.root_moves.len() {
                next += 1;
                next - 1
            } else if next_deferred < deferred.len() {
                next_deferred += 1;
                deferred[next_deferred - 1]
            } else {
                break;
            };
            let mv = self.root_moves[i].mv;
            if may_defer && i != pv_index && next_deferred == 0 {
                self.play(mv)?;
                let busy = self.shared.is_busy(self.state.hash());
                self.take_back(mv)?;
                if busy {
                    deferred.push(i);
                    continue;
                }
            }
            if self.is_main()
                && self.shared.control.clock_elapsed() >= CURRMOVE_AFTER
                && self
                    .last_currmove
                    .is_none_or(|at| at.elapsed() >= CURRMOVE_EVERY)
            {
                self.last_currmove = Some(Instant::now());
                self.report_currmove(depth, mv, i + 1)?;
            }
            self.stack[0].context = context(self.root_moves[i].key, self.shared.root.in_check);
            self.stack[0].side = side;
            self.stack[0].static_eval = NO_EVAL;
            self.stack[1].double_extensions = 0;
            self.play(mv)?;
            self.nodes += 1;
            // With `Variety` the move is chosen by its score plus its
            // bonus: searching that sum in (alpha, beta) is searching the
            // score in the window lowered by the bonus. A win or a loss
            // keeps its exact distance.
            let bonus = self.root_moves[i].bonus;
            let (a, b) = (
                alpha.saturating_sub(bonus).max(-INFINITY),
                beta.saturating_sub(bonus).max(-INFINITY + 1),
            );
            let value = if i == pv_index {
                self.child(child_depth, 1, a, b, true, side)?
            } else {
                let scout = self.child(child_depth, 1, a, a + 1, false, side)?;
                if scout > a && scout < b {
                    self.child(child_depth, 1, a, b, true, side)?
                } else {
                    scout
                }
            };
            let value = if score::is_decisive(value) {
                value
            } else {
                value + bonus
            };
            self.take_back(mv)?;
            if self.stopped {
                return Ok(best);
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || value > alpha {
                rm.score = value;
                rm.depth = depth;
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
                    self.note_first_iterations_best(depth, pv_index, mv)?;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // The root's score with bonuses added is not the position's: with
        // `Variety` the root is not stored.
        if pv_index == 0 && self.shared.variety.0 == 0 {
            let bound = Bound::of(best, start_alpha, beta);
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

    /// In the main thread's first iteration, before any line is printed,
    /// note each new best root move for the watchdog: an answer due
    /// before the iteration ends is the best move scored so far, not the
    /// first generated (a Connect6 turn of 63,903 pairs, most of them
    /// scored by 100 ms, played `A1B1`).
    fn note_first_iterations_best(
        &mut self,
        depth: u32,
        pv_index: usize,
        mv: plyd_api::Move,
    ) -> Result<(), PluginError> {
        if self.id == 0 && depth == 1 && pv_index == 0 {
            let text = self.state.format_move(mv)?;
            self.shared.control.note_best(text, None);
        }
        Ok(())
    }

    fn stop_between_iterations(&self, depth: u32, clock: &IterationClock) -> bool {
        let limits = self.shared.limits;
        let control = self.shared.control;
        if control.stop_requested() {
            return true;
        }
        let best = self.best_score();
        if let Some(mate) = limits.mate {
            // With several lines each is proven (or not) to the full
            // depth of the proof, 2N plies: stopped at the first line's
            // mate, a second mate in N showed as `score cp`, and a puzzle
            // with two solutions passed for one with a single solution.
            let lines = self.shared.multipv.min(self.root_moves.len());
            if lines <= 1 && best >= win_in(2 * mate as usize) {
                return true;
            }
        }
        if limits.infinite {
            return false;
        }
        if control.pondering() {
            // Where a timed search would stop, a ponder hit stops this one
            // at once: it has thought on the move as long as a `go` would
            // have (or the hit came meanwhile: stopped now).
            let would_stop = limits
                .clock
                .is_some_and(|budget| control.thinking_elapsed() >= clock.stretched_soft(budget));
            return would_stop && control.stop_on_ponderhit();
        }
        // A timed search with a single legal move has nothing to decide
        // (one that `searchmoves` restricts to a move is an analysis of
        // that move, searched on its time).
        if self.root_moves.len() == 1 && limits.is_timed() && limits.search_moves.is_empty() {
            return true;
        }
        // A forced result is fully seen once the depth passes its length,
        // as far as a search on time or a node count cares (a deeper one
        // may find a shorter mate, which an analysis asking for a depth is
        // owed). Under a node count the iterations past it cost next to
        // nothing and ran to the deepest, a mate said at depth 128.
        let by_effort = limits.is_timed() || (limits.nodes.is_some() && limits.depth.is_none());
        if by_effort && score::is_decisive(best) && depth as i32 > score::WIN - best.abs() {
            return true;
        }
        match limits.clock {
            Some(budget) => {
                !clock.start_next(control.thinking_elapsed(), control.clock_elapsed(), budget)
            }
            None => false,
        }
    }
}
