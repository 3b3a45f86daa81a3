//! The game-agnostic search: iterative-deepening principal variation search
//! on `Threads` threads sharing one transposition table (Lazy SMP).
//!
//! The search sees an opaque [`GameState`], `u32` moves, a hash, an outcome
//! and an evaluation; it knows nothing of any game. Techniques that are only
//! sound for some games (null move, late-move reductions, futility pruning,
//! quiescence over noisy moves, check extensions) are switched on by the
//! plugin's capability bits, never by the game's name. It never prints: it
//! reports through a callback of [`SearchEvent`]s, which the controller
//! turns into protocol lines.
//!
//! Files, one concern each: [`tt`] the shared table, [`thread`] one
//! thread's search, [`heuristics`] killers and history, [`timeman`] the
//! clock, [`limits`] the limits and the stop flag, [`score`] score
//! arithmetic, [`bench`] the benchmark.

pub mod bench;
mod heuristics;
mod limits;
pub mod score;
mod thread;
pub mod timeman;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use plyd_api::abi::{CAP_FUTILITY, CAP_NOISY_MOVES, CAP_NULL_MOVE, CAP_REDUCTIONS};
use plyd_api::Move;
use plyd_protocol::Info;

use crate::host::{Evaluator, GameState, Outcome, PluginError};
pub use limits::{limits_from_go, SearchControl, SearchLimits};
use thread::{Searcher, ThreadResult};
pub use tt::TranspositionTable;

/// Deepest iteration when nothing else bounds the search.
pub const MAX_DEPTH: u32 = 128;

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

/// How the search runs, from the engine's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search threads.
    pub threads: usize,
    /// Best lines to report (`MultiPV`).
    pub multipv: usize,
    /// Allow null-move pruning where the game declares it sound.
    pub null_move: bool,
    /// Allow late-move reductions where the game declares them sound.
    pub reductions: bool,
    /// Allow futility pruning where the game declares it sound.
    pub futility: bool,
    /// Star1 pruning at chance nodes (off: every outcome is searched with
    /// a window that cannot cut, for measuring what the pruning saves).
    pub chance_pruning: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            null_move: true,
            reductions: true,
            futility: true,
            chance_pruning: true,
        }
    }
}

/// The techniques in force for one search: the options intersected with
/// what the plugin declares.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Features {
    pub null_move: bool,
    pub reductions: bool,
    pub futility: bool,
    /// Quiescence over `gen_noisy`.
    pub noisy: bool,
    /// Check extensions and evasions in quiescence.
    pub check: bool,
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
    /// Nodes visited by all threads.
    pub nodes: u64,
}

/// What the threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub evaluator: &'a Evaluator,
    pub limits: &'a SearchLimits,
    pub control: &'a SearchControl,
    pub features: Features,
    pub multipv: usize,
    /// Half-width of the first aspiration window.
    pub aspiration_delta: i32,
    /// Reverse-futility margin per ply of depth.
    pub futility_margin: i32,
    /// Raised by the main thread when it is done, or by a thread whose
    /// plugin call failed: every thread stops at its next check.
    halt: AtomicBool,
    /// Nodes of each thread, published every few thousand nodes.
    node_counts: Vec<AtomicU64>,
}

impl Shared<'_> {
    /// Whether the threads must stop now.
    #[inline]
    pub fn should_stop(&self) -> bool {
        self.control.stop_requested() || self.halt.load(Ordering::Relaxed)
    }

    pub fn halt(&self) {
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Make thread `id`'s node count visible to the others.
    #[inline]
    pub fn publish_nodes(&self, id: usize, nodes: u64) {
        self.node_counts[id].store(nodes, Ordering::Relaxed);
    }

    /// Nodes of all threads as last published.
    pub fn all_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Nodes of all threads: `own` for thread `id`, the published counts
    /// of the others.
    #[inline]
    pub fn total_nodes(&self, id: usize, own: u64) -> u64 {
        if self.node_counts.len() == 1 {
            return own;
        }
        self.node_counts
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i == id {
                    own
                } else {
                    n.load(Ordering::Relaxed)
                }
            })
            .sum()
    }
}

/// Search `root` within `limits`, reporting through `report`. Exactly one
/// [`SearchEvent::BestMove`] is always reported. If the plugin fails midway,
/// the best move found so far is still given (it was legal at the root),
/// after an `info string error: ...` naming the failure; the error is also
/// returned.
pub fn search(
    root: GameState,
    evaluator: &Evaluator,
    tt: &TranspositionTable,
    limits: &SearchLimits,
    control: &SearchControl,
    options: &SearchOptions,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    tt.new_search();
    let mut answer = Answer::default();
    let outcome = run(
        root,
        evaluator,
        tt,
        limits,
        control,
        options,
        &mut answer,
        report,
    );
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
    report(SearchEvent::BestMove {
        best: answer.best,
        ponder: answer.ponder,
    });
    outcome
}

/// The spelled-out answer, kept outside the search so that it survives a
/// plugin failure.
#[derive(Default)]
struct Answer {
    best: Option<String>,
    ponder: Option<String>,
}

#[allow(clippy::too_many_arguments)]
fn run(
    root: GameState,
    evaluator: &Evaluator,
    tt: &TranspositionTable,
    limits: &SearchLimits,
    control: &SearchControl,
    options: &SearchOptions,
    answer: &mut Answer,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    let mut root_moves = Vec::new();
    root.legal_moves(&mut root_moves)?;
    if !limits.search_moves.is_empty() {
        root_moves.retain(|m| limits.search_moves.contains(m));
    }
    if root_moves.is_empty() {
        let outcome = root.outcome()?;
        report(SearchEvent::Info(Info {
            string: Some(format!("no legal move: {}", outcome_words(outcome))),
            ..Info::default()
        }));
        return Ok(SearchResult::default());
    }
    order_root(&root, tt, &mut root_moves)?;
    // Spell every root move now: whatever fails later, the answer can be
    // given.
    let root_texts = root_moves
        .iter()
        .map(|&mv| root.format_move(mv))
        .collect::<Result<Vec<_>, _>>()?;
    let spell = |mv: Move| {
        root_moves
            .iter()
            .position(|&m| m == mv)
            .map(|i| root_texts[i].clone())
    };
    answer.best = spell(root_moves[0]);

    let threads = options.threads.max(1);
    let shared = Shared {
        tt,
        evaluator,
        limits,
        control,
        features: features(&root, options),
        multipv: options.multipv.max(1),
        aspiration_delta: (evaluator.info().score_bound / 100).max(1),
        futility_margin: (evaluator.info().score_bound / 50).max(1),
        halt: AtomicBool::new(false),
        node_counts: (0..threads).map(|_| AtomicU64::new(0)).collect(),
    };
    let mut helper_states = Vec::with_capacity(threads - 1);
    for _ in 1..threads {
        helper_states.push(root.try_clone()?);
    }

    let (main_outcome, main_result, helper_results, pv_texts) = std::thread::scope(|scope| {
        let handles: Vec<_> = helper_states
            .into_iter()
            .enumerate()
            .map(|(i, state)| {
                let shared = &shared;
                let root_moves = &root_moves;
                scope.spawn(move || {
                    let mut searcher = Searcher::new(i + 1, state, shared, root_moves, None);
                    let outcome = searcher.iterate();
                    if outcome.is_err() {
                        shared.halt();
                    }
                    shared.publish_nodes(i + 1, searcher.nodes);
                    (outcome, searcher.result())
                })
            })
            .collect();
        let mut main = Searcher::new(0, root, &shared, &root_moves, Some(report));
        let main_outcome = main.iterate();
        shared.halt();
        shared.publish_nodes(0, main.nodes);
        let mut helper_results = Vec::new();
        let mut helper_error = None;
        for handle in handles {
            match handle.join() {
                Ok((outcome, result)) => {
                    if let Err(e) = outcome {
                        helper_error.get_or_insert(e);
                    }
                    helper_results.push(result);
                }
                Err(_) => log::error!("a search helper thread panicked"),
            }
        }
        let main_result = main.result();
        let chosen = choose(&main_result, &helper_results);
        let mut main_outcome = main_outcome;
        if main_outcome.is_ok() && !std::ptr::eq(chosen, &main_result) {
            main_outcome = main.report_result(chosen);
        }
        // The move and its expected reply, spelled on the main thread's
        // state; after a plugin failure, only the move (spelled earlier).
        let outcome = main_outcome.and(helper_error.map_or(Ok(()), Err));
        let pv_texts = match outcome {
            Ok(()) => main.format_line(&chosen.pv[..chosen.pv.len().min(2)]).ok(),
            Err(_) => None,
        };
        (outcome, main_result, helper_results, pv_texts)
    });

    let chosen = choose(&main_result, &helper_results).clone();
    if let Some(&best) = chosen.pv.first() {
        answer.best = spell(best);
        answer.ponder = pv_texts.and_then(|t| t.get(1).cloned());
    }
    main_outcome?;
    let nodes = shared.all_nodes();
    Ok(SearchResult {
        best: chosen.pv.first().copied(),
        score: chosen.score,
        pv: chosen.pv,
        depth: chosen.depth,
        nodes,
    })
}

/// The thread whose answer is played: the one that finished the deepest
/// iteration, the main thread among equals.
fn choose<'r>(main: &'r ThreadResult, helpers: &'r [ThreadResult]) -> &'r ThreadResult {
    let mut best = main;
    for helper in helpers {
        if !helper.pv.is_empty() && helper.depth > best.depth {
            best = helper;
        }
    }
    best
}

/// First ordering of the root: a table move first, then the plugin's hints.
fn order_root(
    root: &GameState,
    tt: &TranspositionTable,
    moves: &mut [Move],
) -> Result<(), PluginError> {
    let mut hints = Vec::new();
    root.order_hints(moves, &mut hints)?;
    let tt_move = tt.probe(root.hash(), 0).and_then(|hit| hit.best);
    let mut keyed: Vec<(i64, Move)> = moves
        .iter()
        .zip(&hints)
        .map(|(&mv, &hint)| {
            let key = if Some(mv) == tt_move {
                i64::MAX
            } else {
                i64::from(hint)
            };
            (key, mv)
        })
        .collect();
    keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    for (slot, (_, mv)) in moves.iter_mut().zip(keyed) {
        *slot = mv;
    }
    Ok(())
}

fn features(root: &GameState, options: &SearchOptions) -> Features {
    let plugin = root.plugin();
    let caps = plugin.info().capabilities;
    Features {
        null_move: options.null_move && caps & CAP_NULL_MOVE != 0,
        reductions: options.reductions && caps & CAP_REDUCTIONS != 0,
        futility: options.futility && caps & CAP_FUTILITY != 0,
        noisy: caps & CAP_NOISY_MOVES != 0 && plugin.has_noisy_moves(),
        check: plugin.has_in_check(),
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
