//! The game-agnostic search: iterative deepening over a negamax alpha-beta.
//!
//! The search sees an opaque [`GameState`], `u32` moves, an outcome and an
//! evaluation; it knows nothing of any game. It never prints: it reports
//! through a callback of [`SearchEvent`]s, which the controller turns into
//! protocol lines.

mod limits;
pub mod score;

use std::sync::Arc;
use std::time::{Duration, Instant};

use plyd_api::Move;
use plyd_protocol::Info;

use crate::host::{Evaluator, GameState, Outcome, PluginError};
pub use limits::{limits_from_go, SearchControl, SearchLimits};
use score::{loss_in, win_in, EVAL_LIMIT, INFINITY, MAX_PLY};

/// Deepest iteration when nothing else bounds the search.
pub const MAX_DEPTH: u32 = 128;
/// How many nodes pass between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

/// What a search reports while it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchEvent {
    /// An `info` line.
    Info(Info),
    /// The final answer (exactly one per search).
    BestMove {
        /// The move, or `None` when the game is over.
        best: Option<String>,
        /// The expected reply.
        ponder: Option<String>,
    },
}

/// The result of a finished search, for callers that want it as data
/// (benchmarks, tests).
#[derive(Debug, Clone, Default)]
pub struct SearchResult {
    /// Best move found, if any legal move exists.
    pub best: Option<Move>,
    /// Its score for the side to move at the root.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

/// Search `root` within `limits`, reporting through `report`. Exactly one
/// [`SearchEvent::BestMove`] is always reported. If the plugin fails midway,
/// the best move of the last finished iteration is still given (it was
/// legal at the root), after an `info string error: ...` naming the failure;
/// the error is also returned.
pub fn search(
    root: GameState,
    evaluator: Arc<Evaluator>,
    limits: &SearchLimits,
    control: &SearchControl,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    let mut searcher = Searcher {
        state: root,
        evaluator,
        limits,
        control,
        nodes: 0,
        seldepth: 0,
        stopped: false,
        start: Instant::now(),
        move_lists: vec![Vec::new(); MAX_PLY + 1],
        hints: Vec::new(),
        keyed: Vec::new(),
        pv: vec![Vec::new(); MAX_PLY + 1],
        best_text: None,
    };
    let outcome = searcher.iterate(report);
    if outcome.is_ok() {
        // `go infinite` and `go ponder` never end on their own: hold the
        // answer until the GUI says `stop` (or `ponderhit`, for a finished
        // ponder search).
        while !control.stop_requested() && (limits.infinite || control.pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    if let Err(e) = &outcome {
        report(SearchEvent::Info(Info {
            string: Some(format!("error: {e}")),
            ..Info::default()
        }));
    }
    let best = searcher.best_text.as_ref().map(|(_, best, _)| best.clone());
    let ponder = searcher
        .best_text
        .as_ref()
        .and_then(|(_, _, ponder)| ponder.clone());
    report(SearchEvent::BestMove { best, ponder });
    outcome
}

struct Searcher<'a> {
    state: GameState,
    evaluator: Arc<Evaluator>,
    limits: &'a SearchLimits,
    control: &'a SearchControl,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    start: Instant,
    /// One move buffer per ply, reused across the whole search.
    move_lists: Vec<Vec<Move>>,
    hints: Vec<i32>,
    /// Scratch for sorting moves by hint, reused to keep allocation out of
    /// the search.
    keyed: Vec<(i32, Move)>,
    /// The current answer, spelled out as soon as it is found so that it
    /// can be given even if the plugin fails later: (move, text, ponder text).
    best_text: Option<(Move, String, Option<String>)>,
    /// Triangular principal-variation table: `pv[ply]` is the best line
    /// found from `ply` in the current subtree.
    pv: Vec<Vec<Move>>,
}

impl Searcher<'_> {
    fn iterate(
        &mut self,
        report: &mut dyn FnMut(SearchEvent),
    ) -> Result<SearchResult, PluginError> {
        let mut root_moves = Vec::new();
        self.state.legal_moves(&mut root_moves)?;
        if !self.limits.search_moves.is_empty() {
            root_moves.retain(|m| self.limits.search_moves.contains(m));
        }
        if root_moves.is_empty() {
            let outcome = self.state.outcome()?;
            report(SearchEvent::Info(Info {
                string: Some(format!("no legal move: {}", outcome_words(outcome))),
                ..Info::default()
            }));
            return Ok(SearchResult::default());
        }
        self.order(&mut root_moves)?;
        // Until an iteration finishes, the best ordered move is the answer.
        self.remember_best(&SearchResult {
            best: Some(root_moves[0]),
            ..SearchResult::default()
        })?;

        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut result = SearchResult {
            best: Some(root_moves[0]),
            ..SearchResult::default()
        };
        for depth in 1..=max_depth {
            let mut alpha = -INFINITY;
            let mut best_this_iteration: Option<(Move, i32, Vec<Move>)> = None;
            for &mv in &root_moves {
                self.state.make_move(mv)?;
                self.nodes += 1;
                let score = -self.alpha_beta(depth - 1, 1, -INFINITY, -alpha)?;
                self.state.unmake_move(mv)?;
                if self.stopped {
                    break;
                }
                if best_this_iteration.is_none() || score > alpha {
                    alpha = score;
                    let mut line = vec![mv];
                    line.extend_from_slice(&self.pv[1]);
                    best_this_iteration = Some((mv, score, line));
                }
            }
            let completed = !self.stopped;
            let found = best_this_iteration.is_some();
            if let Some((mv, score, line)) = best_this_iteration {
                // A partial iteration still searched the previous best move
                // first, so its best is at least as well founded.
                result.best = Some(mv);
                result.score = score;
                result.pv = line;
                if completed {
                    result.depth = depth;
                }
                // Search the best move first next time.
                if let Some(pos) = root_moves.iter().position(|&m| m == mv) {
                    root_moves[..=pos].rotate_right(1);
                }
            }
            result.nodes = self.nodes;
            self.remember_best(&result)?;
            // An interrupted iteration that changed the answer reports it
            // too, so the last pv printed is the line of the move played.
            if completed || found {
                report(SearchEvent::Info(self.iteration_info(depth, &result)?));
            }
            if !completed {
                break;
            }
            if self.should_stop_between_iterations(depth, &result, root_moves.len()) {
                break;
            }
        }
        result.nodes = self.nodes;
        Ok(result)
    }

    /// Spell the current best move and its expected reply.
    fn remember_best(&mut self, result: &SearchResult) -> Result<(), PluginError> {
        let Some(best) = result.best else {
            return Ok(());
        };
        let line = if result.pv.first() == Some(&best) {
            &result.pv[..result.pv.len().min(2)]
        } else {
            std::slice::from_ref(&best)
        };
        let mut texts = self.format_line(line)?.into_iter();
        let best_text = texts.next().unwrap_or_default();
        self.best_text = Some((best, best_text, texts.next()));
        Ok(())
    }

    fn should_stop_between_iterations(
        &self,
        depth: u32,
        result: &SearchResult,
        root_count: usize,
    ) -> bool {
        if self.control.stop_requested() {
            return true;
        }
        if let Some(mate) = self.limits.mate {
            if result.score >= win_in(2 * mate as usize) {
                return true;
            }
        }
        if self.control.pondering() || self.limits.infinite {
            return false;
        }
        // A timed search with a single legal move has nothing to decide.
        if root_count == 1 && self.limits.soft_time.is_some() {
            return true;
        }
        // A forced result is fully seen once the depth passes its length.
        if score::is_decisive(result.score) && depth as i32 > score::WIN - result.score.abs() {
            return true;
        }
        match self.limits.soft_time {
            Some(soft) => self.control.clock_elapsed() >= soft,
            None => false,
        }
    }

    fn iteration_info(&mut self, depth: u32, result: &SearchResult) -> Result<Info, PluginError> {
        let elapsed = self.start.elapsed();
        let ms = elapsed.as_millis() as u64;
        Ok(Info {
            depth: Some(depth),
            seldepth: Some(self.seldepth.max(depth)),
            score: Some((score::to_protocol(result.score), None)),
            nodes: Some(self.nodes),
            nps: Some(nps(self.nodes, elapsed)),
            time_ms: Some(ms),
            pv: self.format_line(&result.pv)?,
            ..Info::default()
        })
    }

    /// Spell a line of moves, each in the position where it is played.
    fn format_line(&mut self, line: &[Move]) -> Result<Vec<String>, PluginError> {
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

    /// Sort moves by the plugin's ordering hints, best first.
    fn order(&mut self, moves: &mut [Move]) -> Result<(), PluginError> {
        if moves.len() < 2 {
            return Ok(());
        }
        self.state.order_hints(moves, &mut self.hints)?;
        let hints = &self.hints;
        let keyed = &mut self.keyed;
        keyed.clear();
        keyed.extend(moves.iter().zip(hints).map(|(&m, &h)| (h, m)));
        keyed.sort_by_key(|&(hint, _)| std::cmp::Reverse(hint));
        for (slot, &(_, m)) in moves.iter_mut().zip(keyed.iter()) {
            *slot = m;
        }
        Ok(())
    }

    #[inline]
    fn check_limits(&mut self) {
        if let Some(limit) = self.limits.nodes {
            if self.nodes >= limit {
                self.stopped = true;
                return;
            }
        }
        if !self.nodes.is_multiple_of(CHECK_INTERVAL) {
            return;
        }
        if self.control.stop_requested() {
            self.stopped = true;
        } else if let Some(hard) = self.limits.hard_time {
            if !self.control.pondering() && self.control.clock_elapsed() >= hard {
                self.stopped = true;
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

    fn alpha_beta(
        &mut self,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, PluginError> {
        self.check_limits();
        if self.stopped {
            return Ok(0);
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        if depth == 0 || ply >= MAX_PLY {
            let outcome = self.state.outcome()?;
            if outcome != Outcome::Ongoing {
                return Ok(Self::terminal_score(outcome, ply));
            }
            let eval = self.evaluator.evaluate(&self.state)?;
            return Ok(eval.clamp(-EVAL_LIMIT, EVAL_LIMIT));
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        self.state.legal_moves(&mut moves)?;
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            let outcome = self.state.outcome()?;
            return Ok(Self::terminal_score(outcome, ply));
        }
        if depth >= 2 {
            self.order(&mut moves)?;
        }
        let mut best = -INFINITY;
        let mut result = Ok(());
        for &mv in &moves {
            if let Err(e) = self.state.make_move(mv) {
                result = Err(e);
                break;
            }
            self.nodes += 1;
            let score = match self.alpha_beta(depth - 1, ply + 1, -beta, -alpha) {
                Ok(s) => -s,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            if let Err(e) = self.state.unmake_move(mv) {
                result = Err(e);
                break;
            }
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;
        result.map(|()| best)
    }
}

fn outcome_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Ongoing => "the game goes on",
        Outcome::Win => "the side to move has won",
        Outcome::Loss => "the side to move has lost",
        Outcome::Draw => "the game is drawn",
    }
}

/// Nodes per second, 0 before a millisecond has passed.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros();
    if micros < 1000 {
        0
    } else {
        (u128::from(nodes) * 1_000_000 / micros) as u64
    }
}
