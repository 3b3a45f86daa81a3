//! The second search: Monte-Carlo tree search whose playouts are replaced
//! by the evaluation (`SearchMode mcts`), for every game.
//!
//! A visit goes down the tree by UCT, expands one new node, values it (the
//! evaluation mapped to `[-1, 1]` by [`value`], a short random playout
//! first where the plugin declares `CAP_MCTS_PLAYOUTS`, the exact result
//! where the game is over) and adds the value to every node on the way
//! back, each for its own side to move. Chance nodes draw an outcome by
//! its weight. Proven wins and losses rise through the tree
//! ([`select::update_proofs`]). The tree is kept between searches of the
//! same game in a [`TreeMemory`], re-rooted at the new position when it
//! lies within a few plies of the old root.
//!
//! Files: [`tree`] the nodes and re-rooting, [`select`] the selection
//! rules, proofs and the move played, [`visit`] one visit, [`value`] the
//! score mapping; this file the threads, the limits and the reports.
//!
//! # Threads
//!
//! Root parallelism: each thread grows its own tree from the same root on
//! its own copy of the state, and at the end the root moves' visits and
//! value sums are added over the trees. The threads share nothing but the
//! stop flag and the visit count, so they never wait on a lock.

pub mod select;
pub mod tree;
pub mod value;
mod visit;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use plyd_api::abi::CAP_MCTS_PLAYOUTS;
use plyd_api::Move;
use plyd_protocol::Info;

use super::limits::{EvaluatingFlag, SearchControl, SearchLimits};
use super::pool::join_helpers;
use super::{nps, playable_root_moves, score, Answer, SearchEvent, SearchOptions, SearchResult};
use crate::host::{Evaluator, GameState, Outcome, PluginError};
use select::{Shape, Style};
use tree::{Node, NodeId, NodeKind, Proof, Tree, NO_NODE};
use value::ValueMap;
use visit::{VisitConfig, Visitor};

/// Plies of random play before the evaluation, for a plugin that asks
/// for playouts.
pub const PLAYOUT_PLIES: u32 = 8;
/// Most nodes of one thread's tree by default (`MctsTreeNodes`; about
/// 100 bytes each, plus the move lists of the nodes visited more than
/// once).
pub const MAX_TREE_NODES: usize = 2_000_000;
/// `MctsExploration`'s default: [`select::WIDENING_EXPLORATION`] in
/// thousandths.
pub const DEFAULT_EXPLORATION_PERMILLE: u32 = 600;
/// `MctsWidening`'s default: [`select::WIDENING_FACTOR`] in thousandths.
pub const DEFAULT_WIDENING_PERMILLE: u32 = 1000;
/// Plies below the old root where the new root is looked for: a move
/// pair of a game with dice (EinStein's move, roll, reply, roll) is four.
pub const REUSE_PLIES: u32 = 4;
/// Visits of a `go mate` with no node limit that finds no proof.
pub const MATE_SEARCH_VISITS: u64 = 1_000_000;
/// Time between two `info` lines when the depth does not change.
const REPORT_EVERY: Duration = Duration::from_secs(1);

/// The evaluator name whose search follows seed 003 to the letter (see
/// `docs/mcts.md`): its UCT formula and constant, random expansion of
/// every child, its evaluation taken linearly, the best mean played.
pub const SEED003_EVALUATOR: &str = "seed003";

/// What the trees of the last search were grown for: a tree is reused
/// only by a search of the same game, evaluator and settings.
#[derive(Debug, Clone, PartialEq)]
struct TreeKey {
    game: String,
    evaluator: String,
    style: Style,
    playout_plies: u32,
    search_moves: Vec<Move>,
}

/// The trees kept from one search to the next (one per thread).
#[derive(Debug, Default)]
pub struct TreeMemory {
    key: Option<TreeKey>,
    /// The mapping the trees' values were made with.
    map: Option<ValueMap>,
    trees: Vec<Tree>,
}

impl TreeMemory {
    /// Forget every tree (`ucinewgame`, another game or evaluator).
    pub fn clear(&mut self) {
        self.key = None;
        self.map = None;
        self.trees.drain(..).for_each(drop_aside);
    }

    /// The mapping for a search at the position `hash`, `side` to move:
    /// the kept trees' own while the main one holds the position and
    /// `fresh`, the one measured now, is close to it or was measured on
    /// too few moves to judge by (`judges` false); otherwise `fresh`, and
    /// the trees are dropped.
    fn prepare(&mut self, hash: u64, side: u32, fresh: ValueMap, judges: bool) -> ValueMap {
        let found = self
            .trees
            .first()
            .is_some_and(|t| t.find(hash, side, REUSE_PLIES).is_some());
        match self.map {
            Some(kept) if found && (!judges || kept.close_to(&fresh)) => kept,
            _ => {
                self.trees.drain(..).for_each(drop_aside);
                self.map = Some(fresh);
                fresh
            }
        }
    }

    /// Nodes kept, over all trees.
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(Tree::len).sum()
    }

    /// The tree for thread `index` rooted at the node of `root`'s
    /// position, if the old tree has it; `None` otherwise.
    fn take(&mut self, index: usize, hash: u64, side: u32) -> Option<Tree> {
        let old = std::mem::take(self.trees.get_mut(index)?);
        let Some(id) = old.find(hash, side, REUSE_PLIES) else {
            drop_aside(old);
            return None;
        };
        if id == Tree::ROOT {
            return Some(old);
        }
        let Some(kept) = old.subtree(id) else {
            // Short of memory: the old tree goes before the new one grows.
            drop(old);
            return None;
        };
        drop_aside(old);
        Some(kept)
    }
}

/// Free `tree` on a thread of its own: a tree of a million nodes and more
/// takes a few hundred milliseconds to free, node by node, which the move
/// that follows the search that grew it would otherwise pay.
fn drop_aside(tree: Tree) {
    if tree.len() < DROP_ASIDE_NODES {
        return;
    }
    // Where memory is short (an address-space limit all but reached), the
    // tree is freed before the next one grows.
    let bytes = tree.len() * std::mem::size_of::<tree::Node>();
    if !crate::memory::room_for_optional(bytes as u64) {
        drop(tree);
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("plyd-tree-drop".into())
        .spawn(move || drop(tree));
    if let Err(e) = spawned {
        log::warn!("could not free a kept tree aside: {e}");
    }
}

/// The fewest nodes of a tree [`drop_aside`] frees on a thread of its own.
const DROP_ASIDE_NODES: usize = 100_000;

/// Search `root` by MCTS; see [`super::search`].
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    mut root: GameState,
    evaluator: &Evaluator,
    limits: &SearchLimits,
    control: &SearchControl,
    options: &SearchOptions,
    memory: &mut TreeMemory,
    answer: &mut Answer,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    let plugin = root.plugin().clone();
    let outcome = root.outcome()?;
    let mut outcomes = Vec::new();
    if plugin.has_chance() && outcome == Outcome::Ongoing {
        root.chance_outcomes(&mut outcomes)?;
    }
    let is_chance = !outcomes.is_empty();
    let mut root_moves = Vec::new();
    if !is_chance {
        // As in the alpha-beta search, moves listed after a verdict are
        // searched.
        root.legal_moves(&mut root_moves)?;
        if !playable_root_moves(&root, &mut root_moves, limits, outcome, report)? {
            return Ok(SearchResult::default());
        }
        // Whatever fails later, a legal move can be given.
        answer.best = Some(root.format_move(root_moves[0])?);
    }

    // A timed search with a single legal move has nothing to decide, as
    // in the alpha-beta search: a few visits give its line, and it
    // answers (one move `searchmoves` leaves is an analysis: searched on).
    let forced =
        !is_chance && root_moves.len() == 1 && limits.is_timed() && limits.search_moves.is_empty();
    let bound = score::eval_bound(evaluator);
    let seed003 = evaluator.name() == SEED003_EVALUATOR;
    let root_side = root.side_to_move()?;
    let (style, fresh_map, sampled) = if seed003 {
        (Style::Seed003, ValueMap::linear(bound), 0)
    } else {
        let flag = control.evaluator_flag(0, evaluator);
        let scores = sample_scores(&mut root, evaluator, flag, &root_moves, bound, root_side)?;
        let map = ValueMap::calibrated(bound, root_side, &scores);
        (Style::Widening, map, scores.len())
    };
    let playout_plies = if plugin.info().capabilities & CAP_MCTS_PLAYOUTS != 0 {
        PLAYOUT_PLIES
    } else {
        0
    };
    let config = VisitConfig {
        style,
        map: fresh_map,
        bound,
        playout_plies,
        chance: plugin.has_chance(),
        root_moves: limits.search_moves.clone(),
        max_nodes: options.mcts_tree_nodes.max(1),
        shape: Shape {
            exploration: f64::from(options.mcts_exploration) / 1000.0,
            widening: f64::from(options.mcts_widening) / 1000.0,
        },
    };
    let key = TreeKey {
        game: plugin.name().to_string(),
        evaluator: evaluator.name().to_string(),
        style,
        playout_plies,
        search_moves: limits.search_moves.clone(),
    };
    if memory.key.as_ref() != Some(&key) {
        memory.clear();
        memory.key = Some(key);
    }
    let map = memory.prepare(
        root.hash(),
        root_side,
        fresh_map,
        sampled >= MIN_JUDGING_SAMPLE,
    );
    let config = VisitConfig { map, ..config };

    // No more walkers than hardware threads: each keeps a tree of its own,
    // and more would only share the cores (256 on 2 cores played the
    // first legal move, seconds late, the main walker starved).
    let hardware = crate::threads::hardware_threads().unwrap_or(usize::MAX);
    let threads = options.threads.clamp(1, hardware);
    let hash = root.hash();
    let mut visitors = Vec::with_capacity(threads);
    for index in 0..threads {
        let state = if index == 0 {
            None
        } else {
            Some(root.try_clone()?)
        };
        visitors.push((index, state));
    }
    let mut root_state = Some(root);
    let mut walkers = Vec::with_capacity(threads);
    for (index, state) in visitors {
        let state = match state {
            Some(s) => s,
            None => root_state.take().expect("the main thread's state"),
        };
        let side = state.side_to_move()?;
        // A kept tree past the node limit (lowered since) is dropped: the
        // limit bounds the memory.
        let reused =
            memory
                .take(index, hash, side)
                .and_then(|tree| match tree.len() <= config.max_nodes {
                    true => Some(tree),
                    false => {
                        drop_aside(tree);
                        None
                    }
                });
        let mut walker = Visitor::new(
            state,
            Tree::default(),
            &config,
            evaluator,
            0x9e37_79b9_7f4a_7c15 ^ (index as u64 + 1).wrapping_mul(0x1234_5678_9abc_def1),
        );
        walker.tree = match reused {
            Some(mut tree) => {
                tree.uncap();
                tree
            }
            None => Tree::with_root(walker.describe(0, NO_NODE)?),
        };
        // A root judged by the rules but with moves listed (a repetition)
        // is searched like any other.
        if walker.tree.node(Tree::ROOT).kind == NodeKind::Terminal && !root_moves.is_empty() {
            walker.tree = Tree::with_root(Node::new(hash, 0, NO_NODE, side, NodeKind::Decision));
        }
        walker.max_depth = walker.tree.depth();
        walker.evaluating = control.evaluator_flag(index, evaluator);
        walkers.push(walker);
    }

    let shared = SharedCounters {
        visits: AtomicU64::new(0),
        halt: AtomicBool::new(false),
    };
    let mut walkers = walkers.into_iter();
    let mut main = walkers.next().expect("one thread at least");
    let helpers: Vec<_> = walkers.collect();
    let style_for_report = style;

    let (main_outcome, helper_trees) = std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .into_iter()
            .enumerate()
            .filter_map(|(i, mut walker)| {
                let shared = &shared;
                let what = format!("MCTS helper {}", i + 1);
                crate::threads::spawn_or_skip(scope, &what, move || {
                    let _on_roll = control.enter_roll();
                    let outcome = helper_loop(&mut walker, shared, limits, control);
                    if outcome.is_err() {
                        shared.halt.store(true, Ordering::Relaxed);
                    }
                    (outcome, walker.tree)
                })
            })
            .collect();
        let mut reporter = Reporter {
            report,
            last_depth: 0,
            last_report: Instant::now(),
            multipv: options.multipv.max(1),
            style: style_for_report,
        };
        let outcome = main_loop(&mut main, &shared, limits, control, &mut reporter, forced);
        shared.halt.store(true, Ordering::Relaxed);
        let (trees, helper_error) = join_helpers(handles, "an MCTS helper thread");
        let outcome = outcome.and(helper_error.map_or(Ok(()), Err));
        let outcome = outcome.and_then(|()| {
            let view = Combined::of(&main.tree, &trees, style);
            reporter.lines(&mut main, &trees, &view, &shared, control)?;
            Ok(view)
        });
        (outcome, trees)
    });

    let view = match main_outcome {
        Ok(view) => view,
        Err(e) => {
            memory.clear();
            return Err(e);
        }
    };
    let best = view.ranked.first().map(|r| r.mv);
    let line = view.line(&main.tree, &helper_trees, style);
    if !is_chance {
        if let Some(mv) = best {
            answer.best = Some(main.state.format_move(mv)?);
            answer.ponder = super::report::ponder_reply(&mut main.state, &line, None)?;
        }
    }
    let result = SearchResult {
        best: if is_chance { None } else { best },
        score: view.score(&map, root_side, None),
        pv: line,
        depth: main.max_depth,
        nodes: shared.visits.load(Ordering::Relaxed),
    };
    memory.trees.clear();
    memory.trees.push(main.tree);
    memory.trees.extend(helper_trees);
    Ok(result)
}

/// Moves sampled at the root to measure the sigmoid.
const CALIBRATION_MOVES: usize = 32;
/// The fewest moves sampled at a new root whose measure may drop a kept
/// tree with another (see [`TreeMemory::prepare`]). The spread of a few
/// moves' scores says little of the evaluator's scale: in EinStein, whose
/// roots have one to six moves (and a chance root none), the measures of
/// one move pair to the next differed by more than a factor of 3 nearly
/// every time, and the tree found again was dropped.
const MIN_JUDGING_SAMPLE: usize = 8;

/// The scores, for `root_side`, of the positions after a sample of the
/// root moves spread over the list (a game over counts as the bound). Where
/// they are all one score (the four moves of Othello's start, alike by
/// symmetry; EinStein's set-ups, all scored 0), a sample of the replies to
/// them is scored too: a spread of nothing would make the sigmoid a step.
fn sample_scores(
    root: &mut GameState,
    evaluator: &Evaluator,
    flag: Option<&EvaluatingFlag>,
    moves: &[Move],
    bound: i32,
    root_side: u32,
) -> Result<Vec<i32>, PluginError> {
    let step = moves.len().div_ceil(CALIBRATION_MOVES).max(1);
    let sampled: Vec<Move> = moves.iter().step_by(step).copied().collect();
    let mut scores = Vec::new();
    for &mv in &sampled {
        root.make_move(mv)?;
        let scored = score_for(root, evaluator, flag, bound, root_side);
        root.unmake_move(mv)?;
        scores.push(scored?);
    }
    if scores.len() < 2 || scores.iter().any(|&s| s != scores[0]) {
        return Ok(scores);
    }
    let per_move = CALIBRATION_MOVES.div_ceil(sampled.len()).max(1);
    let mut replies = Vec::new();
    for &mv in &sampled {
        root.make_move(mv)?;
        let more = (|| {
            let mut more = Vec::new();
            if root.outcome()? != Outcome::Ongoing {
                return Ok(more);
            }
            root.legal_moves(&mut replies)?;
            let step = replies.len().div_ceil(per_move).max(1);
            for &reply in replies.iter().step_by(step) {
                root.make_move(reply)?;
                let scored = score_for(root, evaluator, flag, bound, root_side);
                root.unmake_move(reply)?;
                more.push(scored?);
            }
            Ok(more)
        })();
        root.unmake_move(mv)?;
        scores.extend(more?);
    }
    Ok(scores)
}

/// The score of `state` for `root_side` (a game over counts as the bound).
fn score_for(
    state: &GameState,
    evaluator: &Evaluator,
    flag: Option<&EvaluatingFlag>,
    bound: i32,
    root_side: u32,
) -> Result<i32, PluginError> {
    let side = state.side_to_move()?;
    let score = match state.outcome()? {
        Outcome::Ongoing => {
            EvaluatingFlag::around(flag, || evaluator.evaluate(state))?.clamp(-bound, bound)
        }
        Outcome::Win => bound,
        Outcome::Loss => -bound,
        Outcome::Draw => 0,
    };
    Ok(if side == root_side { score } else { -score })
}

/// What the threads share: the visits of all of them and the halt flag.
struct SharedCounters {
    visits: AtomicU64,
    halt: AtomicBool,
}

/// Visits of a timed search whose root has a single legal move: enough
/// for the line after it (the ponder move), a fraction of a millisecond.
const FORCED_MOVE_VISITS: u64 = 64;

/// Visits between two publications of a helper's count, and between two
/// signs of life ([`SearchControl::beat`]) of a thread.
const PUBLISH_EVERY: u64 = 16;

fn helper_loop(
    walker: &mut Visitor,
    shared: &SharedCounters,
    limits: &SearchLimits,
    control: &SearchControl,
) -> Result<(), PluginError> {
    let mut local = 0;
    while !shared.halt.load(Ordering::Relaxed) && !control.stop_requested() {
        if walker.tree.node(Tree::ROOT).proof != Proof::Unknown {
            break;
        }
        if let Some(n) = limits.nodes {
            // Under a node limit every visit is counted before it is made,
            // as the main thread counts its own: the limit holds exactly.
            if shared.visits.fetch_add(1, Ordering::Relaxed) + 1 > n {
                shared.visits.fetch_sub(1, Ordering::Relaxed);
                break;
            }
            walker.visit()?;
            local += 1;
            if local % PUBLISH_EVERY == 0 {
                control.beat();
            }
            continue;
        }
        walker.visit()?;
        local += 1;
        if local == PUBLISH_EVERY {
            control.beat();
            let total = shared.visits.fetch_add(local, Ordering::Relaxed) + local;
            local = 0;
            if limits.nodes.is_some_and(|n| total >= n) {
                break;
            }
        }
    }
    if limits.nodes.is_none() {
        shared.visits.fetch_add(local, Ordering::Relaxed);
    }
    Ok(())
}

fn main_loop(
    walker: &mut Visitor,
    shared: &SharedCounters,
    limits: &SearchLimits,
    control: &SearchControl,
    reporter: &mut Reporter,
    forced: bool,
) -> Result<(), PluginError> {
    loop {
        if control.stop_requested() || shared.halt.load(Ordering::Relaxed) {
            return Ok(());
        }
        let root = walker.tree.node(Tree::ROOT);
        let proof = root.proof;
        if proof != Proof::Unknown {
            // Decided: nothing more to learn (a `go mate` is answered too).
            return Ok(());
        }
        let total = shared.visits.fetch_add(1, Ordering::Relaxed) + 1;
        if limits.nodes.is_some_and(|n| total > n) {
            shared.visits.fetch_sub(1, Ordering::Relaxed);
            return Ok(());
        }
        walker.visit()?;
        if total.is_multiple_of(PUBLISH_EVERY) {
            control.beat();
        }
        // `go mate N` stops at a proof (above) or another limit, not at
        // the depth of its mate: a tree is not searched to a full depth.
        if limits.mate.is_none() && limits.depth.is_some_and(|d| walker.max_depth >= d) {
            return Ok(());
        }
        if limits.mate.is_some() && limits.nodes.is_none() && total >= MATE_SEARCH_VISITS {
            return Ok(());
        }
        if out_of_time(limits, control) {
            return Ok(());
        }
        if forced && total >= FORCED_MOVE_VISITS && !control.pondering() {
            return Ok(());
        }
        if walker.max_depth > reporter.last_depth || reporter.last_report.elapsed() >= REPORT_EVERY
        {
            let view = Combined::of(&walker.tree, &[], reporter.style);
            reporter.lines(walker, &[], &view, shared, control)?;
        }
    }
}

/// Whether the clock says stop: `movetime` or the clock's hard limit
/// mid-search, and the clock's soft limit too (a visit is short, so the
/// soft limit is as good a place to stop as any).
fn out_of_time(limits: &SearchLimits, control: &SearchControl) -> bool {
    if control.pondering() || limits.infinite {
        return false;
    }
    let elapsed = control.clock_elapsed();
    if let Some(budget) = limits.clock {
        // Pondering counts as thinking on the move (as in the alpha-beta
        // search): the soft limit bounds the time since a `go ponder`.
        if control.thinking_elapsed() >= budget.soft {
            return true;
        }
    }
    limits.hard_time().is_some_and(|hard| elapsed >= hard)
}

/// A root move with its statistics summed over the threads' trees.
#[derive(Debug, Clone)]
struct RootStat {
    mv: Move,
    visits: u64,
    /// Mean for the root's side.
    mean: f64,
    /// Proven result for the root's side.
    proof: Proof,
}

/// The root as all threads see it together.
struct Combined {
    ranked: Vec<RootStat>,
    /// The root's own mean and proof (for a chance root).
    root_mean: f64,
    root_proof: Proof,
    visits: u64,
}

impl Combined {
    fn of(main: &Tree, helpers: &[Tree], style: Style) -> Combined {
        let mut stats: Vec<(Move, u64, f64, Proof)> = Vec::new();
        let mut root_sum = 0.0;
        let mut root_visits = 0u64;
        let mut root_proof = Proof::Unknown;
        for tree in std::iter::once(main).chain(helpers) {
            if tree.is_empty() {
                continue;
            }
            let root = tree.node(Tree::ROOT);
            root_sum += root.mean() * f64::from(root.visits);
            root_visits += u64::from(root.visits);
            if root.proof != Proof::Unknown {
                root_proof = root.proof;
            }
            if root.kind == NodeKind::Chance {
                // A chance root's children are rolls, not moves to play.
                continue;
            }
            for &child in &root.children {
                let c = tree.node(child);
                let mean = tree.mean_for_parent(Tree::ROOT, child);
                // A proof counted from the root: one ply more than the
                // child's own.
                let proof = match tree.proof_for_parent(Tree::ROOT, child) {
                    Proof::Win(n) => Proof::Win(n + 1),
                    Proof::Loss(n) => Proof::Loss(n + 1),
                    other => other,
                };
                match stats.iter_mut().find(|s| s.0 == c.mv) {
                    Some(s) => {
                        s.1 += u64::from(c.visits);
                        s.2 += mean * f64::from(c.visits);
                        if proof != Proof::Unknown {
                            s.3 = proof;
                        }
                    }
                    None => {
                        stats.push((c.mv, u64::from(c.visits), mean * f64::from(c.visits), proof))
                    }
                }
            }
        }
        let mut ranked: Vec<RootStat> = stats
            .into_iter()
            .map(|(mv, visits, sum, proof)| RootStat {
                mv,
                visits,
                mean: match proof.value() {
                    Some(v) => v,
                    None if visits > 0 => sum / visits as f64,
                    None => 0.0,
                },
                proof,
            })
            .collect();
        let class = |p: Proof| match p {
            Proof::Win(n) => (2, -(n as i64)),
            Proof::Loss(n) => (0, n as i64),
            _ => (1, 0),
        };
        ranked.sort_by(|a, b| {
            let primary = |s: &RootStat| match style {
                Style::Widening => s.visits as f64,
                Style::Seed003 => s.mean,
            };
            class(b.proof)
                .cmp(&class(a.proof))
                .then(primary(b).total_cmp(&primary(a)))
                .then(b.mean.total_cmp(&a.mean))
        });
        Combined {
            ranked,
            root_mean: if root_visits > 0 {
                root_sum / root_visits as f64
            } else {
                0.0
            },
            root_proof,
            visits: root_visits,
        }
    }

    /// The search score of root move `index` (or of the root itself, at
    /// a chance root or with `None` and no move).
    fn score(&self, map: &ValueMap, root_side: u32, index: Option<usize>) -> i32 {
        let (mean, proof) = match index.or((!self.ranked.is_empty()).then_some(0)) {
            Some(i) => {
                let s = &self.ranked[i];
                (s.mean, s.proof)
            }
            None => (self.root_mean, self.root_proof),
        };
        match proof {
            Proof::Win(n) => score::win_in(n as usize),
            Proof::Loss(n) => score::loss_in(n as usize),
            Proof::Draw => 0,
            Proof::Unknown => map.score(mean, root_side),
        }
    }

    /// The principal variation: the best root move, then the most played
    /// child at each node of the tree that played it most.
    fn line(&self, main: &Tree, helpers: &[Tree], style: Style) -> Vec<Move> {
        let first = self.ranked.first().map(|s| s.mv);
        line_in(main, helpers, first, style)
    }
}

/// The line from the root through `first` (or, at a chance root, the most
/// played outcome) in the tree that visited that move most.
fn line_in(main: &Tree, helpers: &[Tree], first: Option<Move>, style: Style) -> Vec<Move> {
    let mut best_tree = main;
    let mut best_visits = 0;
    for tree in std::iter::once(main).chain(helpers) {
        if tree.is_empty() {
            continue;
        }
        let root = tree.node(Tree::ROOT);
        let visits = root
            .children
            .iter()
            .filter(|&&c| first.is_none_or(|m| tree.node(c).mv == m))
            .map(|&c| tree.node(c).visits)
            .max()
            .unwrap_or(0);
        if visits > best_visits {
            best_visits = visits;
            best_tree = tree;
        }
    }
    let tree = best_tree;
    let mut line = Vec::new();
    if tree.is_empty() {
        return line;
    }
    let mut id: NodeId = Tree::ROOT;
    if let Some(mv) = first {
        match tree
            .node(Tree::ROOT)
            .children
            .iter()
            .find(|&&c| tree.node(c).mv == mv)
        {
            Some(&child) => {
                line.push(mv);
                id = child;
            }
            None => return vec![mv],
        }
    }
    while line.len() < score::MAX_PLY {
        let node = tree.node(id);
        let next = match node.kind {
            NodeKind::Chance => node
                .children
                .iter()
                .copied()
                .max_by_key(|&c| tree.node(c).visits),
            _ => select::ranked_children(tree, id, style).first().copied(),
        };
        match next {
            Some(child) if tree.node(child).visits > 0 => {
                line.push(tree.node(child).mv);
                id = child;
            }
            _ => break,
        }
    }
    line
}

/// The main thread's `info` lines.
struct Reporter<'r> {
    report: &'r mut dyn FnMut(SearchEvent),
    last_depth: u32,
    last_report: Instant,
    multipv: usize,
    style: Style,
}

impl Reporter<'_> {
    /// One line per reported root move (MultiPV), by visits, each read
    /// from the tree that visited its first move most: the main thread's,
    /// or one of `helpers` (the helpers' trees, once joined: the last
    /// report's first line is then the one `bestmove` and its `ponder`
    /// move come from).
    fn lines(
        &mut self,
        walker: &mut Visitor,
        helpers: &[Tree],
        view: &Combined,
        shared: &SharedCounters,
        control: &SearchControl,
    ) -> Result<(), PluginError> {
        self.last_depth = walker.max_depth;
        self.last_report = Instant::now();
        let elapsed = control.search_elapsed();
        let nodes = shared
            .visits
            .load(Ordering::Relaxed)
            .max(view.visits.min(1));
        let count = if view.ranked.is_empty() {
            1
        } else {
            self.multipv.min(view.ranked.len())
        };
        for k in 0..count {
            let first = view.ranked.get(k).map(|s| s.mv);
            let line = line_in(&walker.tree, helpers, first, self.style);
            let texts = spell(&mut walker.state, &line)?;
            let root_side = walker.tree.node(Tree::ROOT).side;
            let value = view.score(&walker.config.map, root_side, first.map(|_| k));
            let info = Info {
                depth: Some(walker.max_depth.max(1)),
                seldepth: Some(walker.max_depth.max(1)),
                multipv: (self.multipv > 1).then_some(k as u32 + 1),
                score: Some((score::to_protocol(value), None)),
                nodes: Some(nodes),
                nps: Some(nps(nodes, elapsed)),
                // The tree's fill, as the table's is for the PVS.
                hashfull: Some(
                    (walker.tree.len() * 1000 / walker.config.max_nodes).min(1000) as u32,
                ),
                time_ms: Some(elapsed.as_millis() as u64),
                pv: texts,
                ..Info::default()
            };
            (self.report)(SearchEvent::Info(info));
        }
        Ok(())
    }
}

/// Spell a line, each move in the position where it is played.
fn spell(state: &mut GameState, line: &[Move]) -> Result<Vec<String>, PluginError> {
    let mut texts = Vec::with_capacity(line.len());
    let mut played = 0;
    let mut outcome = Ok(());
    for &mv in line {
        match state.format_move(mv).and_then(|t| {
            texts.push(t);
            state.make_move(mv)
        }) {
            Ok(()) => played += 1,
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    for &mv in line[..played].iter().rev() {
        state.unmake_move(mv)?;
    }
    outcome.map(|()| texts)
}
