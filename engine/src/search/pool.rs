//! The thread pool of one search (Lazy SMP): what the threads share, how
//! they are started and stopped, at which depths each one searches, and
//! whose answer is played.
//!
//! Every thread searches the same root on its own copy of the state. They
//! share the transposition table, one halt flag, their node counts, the
//! nodes being searched right now and the depth each is searching, nothing
//! else; only the main thread reads the clock and reports.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use plyd_api::Move;

use super::heuristics::{Heuristics, NO_CONTEXT};
use super::params::{LmrTable, SearchParams};
use super::picker::{Kind, MovePicker, PickerBuffers, PickerSetup};
use super::score::{self, EVAL_LIMIT};
use super::worker::{Searcher, ThreadResult};
use super::{
    playable_root_moves, Features, SearchControl, SearchEvent, SearchLimits, SearchOptions,
    SearchResult, TranspositionTable,
};
use crate::host::{Evaluator, GameState, PluginError};
use crate::threads::spawn_or_skip;

/// What every thread knows of the root before it starts.
pub(super) struct RootInfo {
    /// The root moves, in their first order (empty at a chance root).
    pub moves: Vec<Move>,
    /// The side to move.
    pub side: u32,
    /// Whether the root is a chance node.
    pub is_chance: bool,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// The root's hash.
    pub key: u64,
}

/// What the threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub evaluator: &'a Evaluator,
    pub limits: &'a SearchLimits,
    pub control: &'a SearchControl,
    pub features: Features,
    pub root: RootInfo,
    pub multipv: usize,
    /// The evaluator's bound: every evaluation is clamped into
    /// `[-eval_bound, eval_bound]`, which chance nodes rely on.
    pub eval_bound: i32,
    /// The most plies left at which a non-PV node is handed to the
    /// evaluator's `shallow_search`: 0 where it has none, the game has
    /// chance nodes, its scores reach the win scores' range, the search
    /// has a node limit, or `ShallowSearch` is off.
    pub shallow_plies: u32,
    /// Half-width of the first aspiration window.
    pub aspiration_delta: i32,
    /// Reverse-futility margin per ply of depth.
    pub futility_margin: i32,
    /// Reverse-futility margin per ply of depth with `DeepFutility`.
    pub deep_futility_margin: i32,
    /// `QsFutility`'s margin.
    pub qs_futility_margin: i32,
    /// Static-exchange pruning: what a noisy move may lose by the exchange
    /// per ply of depth, and a quiet one per square of its reduced depth.
    pub see_margins: SeeMargins,
    /// The game's name (its plugin's), which the histories kept between
    /// searches are kept for.
    pub game: String,
    /// A pawn, as the margins of the techniques from Stockfish count it:
    /// by default a two-hundredth of the evaluator's bound, xiangqi's
    /// `classic` scale (see [`SeeMargins`]).
    pub pawn: i32,
    /// ProbCut's margin above beta: by default a pawn (Stockfish: 0.9).
    pub probcut_margin: i32,
    /// `NodeProbCut`'s margin beyond the bound: by default five
    /// sixty-fourths of the evaluator's bound (five discs in Othello,
    /// about one and a half times the spread of a deep score about the
    /// shallow one there).
    pub node_probcut_margin: i32,
    /// How far below the singular bound the other moves must stay for a
    /// double extension: by default a tenth of a pawn.
    pub double_extension_margin: i32,
    /// The numbers the margins above came from, and the reductions and
    /// depths read where they apply (`SearchParams`).
    pub params: SearchParams,
    /// Late-move reductions by depth and move count.
    pub lmr: Box<LmrTable>,
    /// The largest correction of the static evaluation: two pawns.
    pub correction_limit: i32,
    /// `Variety`: the largest bonus a root move's score gets for
    /// choosing (0: none), and the seed the bonuses are drawn from.
    pub variety: (i32, u64),
    /// Raised by the main thread when it is done, or by a thread whose
    /// plugin call failed: every thread stops at its next check.
    halt: AtomicBool,
    /// Raised by the search's timer ([`keep_time`]) once the clock passes
    /// the hard limit: read at every node, so that a stretch of costly
    /// nodes between two looks at the clock cannot carry the search past
    /// its time.
    time_up: AtomicBool,
    /// Nodes of each thread, published every few thousand nodes.
    node_counts: Vec<AtomicU64>,
    /// Positions some thread is searching right now (see
    /// [`Shared::enter`]); empty with one thread.
    busy: Vec<AtomicU64>,
    /// The iteration each thread is searching (0: none yet).
    searching: Vec<AtomicU32>,
    /// With more threads than the machine's hardware threads, the helpers
    /// wait for the main thread's first iteration (see
    /// [`Shared::wait_for_main`]); `None` otherwise.
    main_gate: Option<(parking_lot::Mutex<bool>, parking_lot::Condvar)>,
}

/// The margins of static-exchange pruning, in the evaluation's units.
///
/// Stockfish's shape: near the leaves a noisy move is skipped when its
/// exchange loses more than about 0.75 of a pawn per ply of depth, a quiet
/// one when it loses more than about an eighth of a pawn per square of
/// its reduced depth (158 per ply and 26 per ply squared, with a pawn of
/// 208). The search knows no pawn: it takes a pawn as a two-hundredth of
/// the evaluator's bound, which is xiangqi's `classic` scale (bound
/// 20,000, soldier 104), as the futility margin is taken from the bound.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SeeMargins {
    /// Per ply of depth, for noisy moves.
    pub noisy: i32,
    /// Per square of the reduced depth, for quiet moves.
    pub quiet: i32,
}

impl SeeMargins {
    fn for_pawn(pawn: i32) -> Self {
        SeeMargins {
            noisy: (pawn * 3 / 4).max(1),
            quiet: (pawn / 8).max(1),
        }
    }
}

impl Shared<'_> {
    /// Razoring's margin at `depth`: by default Stockfish's 2.25 + 1.5 d²
    /// pawns.
    pub fn razor_margin(&self, depth: u32) -> i32 {
        let d = i64::from(depth);
        let p = &self.params;
        SearchParams::of_pawn(
            self.pawn,
            i64::from(p.razor) + i64::from(p.razor_depth) * d * d,
        )
    }

    /// `FutilityMoves`' margin for a quiet move searched to `lmr_depth`
    /// after its reduction: by default 3 + 2.5 d pawns (Stockfish's is
    /// smaller in pawns, but a xiangqi chariot is worth some seventeen of
    /// them here).
    pub fn move_futility_margin(&self, lmr_depth: u32) -> i32 {
        let p = &self.params;
        SearchParams::of_pawn(
            self.pawn,
            i64::from(p.move_futility) + i64::from(p.move_futility_depth) * i64::from(lmr_depth),
        )
    }

    /// How far below the table's score the other moves must stay for the
    /// table's move to be singular at `depth`: a sixty-fourth of a pawn per
    /// ply.
    pub fn singular_margin(&self, depth: u32) -> i32 {
        (self.pawn * depth as i32 / 64).max(1)
    }

    /// `Variety`'s bonus for the root move `mv`: 0 to the margin, drawn
    /// from the seed, the root and the move, so that every thread of the
    /// search gives a move the same bonus.
    pub fn variety_bonus(&self, mv: Move) -> i32 {
        let (margin, seed) = self.variety;
        if margin <= 0 || self.root.is_chance {
            return 0;
        }
        super::variety_draw(margin as u32, seed, self.root.key, mv) as i32
    }
}

/// Slots of the table of positions being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 14;
/// Nodes shallower than this are not marked busy: they finish too fast for
/// another thread to gain by searching something else meanwhile.
pub(super) const BUSY_MIN_DEPTH: u32 = 4;

impl Shared<'_> {
    /// Whether the threads must stop now.
    #[inline]
    pub fn should_stop(&self) -> bool {
        self.control.stop_requested() || self.halted()
    }

    /// Whether the search was told to end by one of its own threads (not
    /// by the GUI's `stop`).
    #[inline(always)]
    pub fn halted(&self) -> bool {
        self.halt.load(Ordering::Relaxed)
    }

    /// Whether the timer found the clock past the hard limit.
    #[inline(always)]
    pub fn time_up(&self) -> bool {
        self.time_up.load(Ordering::Relaxed)
    }

    /// Tell every thread to stop.
    pub fn halt(&self) {
        self.halt.store(true, Ordering::Relaxed);
        self.open_gate();
    }

    /// Let the helpers start: the main thread has an answer (or the search
    /// ends).
    pub fn open_gate(&self) {
        if let Some((open, opened)) = &self.main_gate {
            *open.lock() = true;
            opened.notify_all();
        }
    }

    /// A helper's wait, with more threads than hardware threads, for the
    /// main thread to finish its first iteration: started together, the
    /// helpers would share the cores with it, and with hundreds of them
    /// it finished none in a second (`Threads 256` on 2 cores played the
    /// first legal move). Returns at once otherwise, or on a stop.
    pub fn wait_for_main(&self) {
        let Some((open, opened)) = &self.main_gate else {
            return;
        };
        let mut is_open = open.lock();
        while !*is_open && !self.should_stop() {
            opened.wait_for(&mut is_open, Duration::from_millis(50));
        }
    }

    /// Make thread `id`'s node count visible to the others.
    #[inline]
    pub fn publish_nodes(&self, id: usize, nodes: u64) {
        self.node_counts[id].store(nodes, Ordering::Relaxed);
    }

    /// Number of search threads.
    #[inline]
    pub fn threads(&self) -> usize {
        self.node_counts.len()
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

    /// Mark the node `key` as being searched by this thread (ABDADA's
    /// "exclusive" idea, without its counters): another thread that
    /// reaches the same node as a later sibling puts it off to the end of
    /// its own move list, so the threads split the tree instead of all
    /// searching the same subtrees at the same time. A slot holds one key;
    /// two nodes sharing a slot only make the marks less exact, which
    /// changes the order of moves, never a score.
    #[inline]
    pub fn enter(&self, key: u64) -> bool {
        if self.busy.is_empty() {
            return false;
        }
        self.busy[key as usize & (BUSY_SLOTS - 1)].store(key, Ordering::Relaxed);
        true
    }

    /// Clear the mark of [`Shared::enter`], unless another node took the
    /// slot since.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self.busy[key as usize & (BUSY_SLOTS - 1)].compare_exchange(
            key,
            0,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// Whether some thread is searching the node `key` now.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        !self.busy.is_empty()
            && self.busy[key as usize & (BUSY_SLOTS - 1)].load(Ordering::Relaxed) == key
    }

    /// The first iteration of thread `id`: helpers of odd number start one
    /// ply deeper, so that the threads spread over two depths.
    pub fn first_depth(&self, id: usize) -> u32 {
        if id % 2 == 1 {
            2
        } else {
            1
        }
    }

    /// The iteration thread `id` searches next, from `depth` on. In a
    /// search with no time limit (`go depth`, `nodes`, `mate`, `infinite`)
    /// a depth that another thread is already searching is skipped (up to
    /// `max_depth`), so the threads leapfrog one another and each one's
    /// iteration starts from the table the other filled one ply shallower.
    /// A timed search keeps every depth on every thread: its main thread
    /// judges each next iteration by what the last one took, and the
    /// moves played must come from iterations that finish in time
    /// (skipping lost matches under a clock; see docs/search.md).
    pub fn next_depth(&self, id: usize, depth: u32, max_depth: u32) -> u32 {
        let skip = !self.limits.is_timed();
        claim_depth(&self.searching, id, depth, max_depth, skip)
    }
}

/// Record in `searching` the depth thread `id` searches next: `depth`, or
/// with `skip` the first depth from there that no other thread is
/// searching, never past `max_depth`.
fn claim_depth(
    searching: &[AtomicU32],
    id: usize,
    mut depth: u32,
    max_depth: u32,
    skip: bool,
) -> u32 {
    let taken = |depth: u32| {
        searching
            .iter()
            .enumerate()
            .any(|(i, d)| i != id && d.load(Ordering::Relaxed) == depth)
    };
    while skip && depth < max_depth && taken(depth) {
        depth += 1;
    }
    searching[id].store(depth, Ordering::Relaxed);
    depth
}

/// Search with `options.threads` threads; see [`super::search`].
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    root: GameState,
    evaluator: &Evaluator,
    tt: &TranspositionTable,
    limits: &SearchLimits,
    control: &SearchControl,
    options: &SearchOptions,
    answer: &mut super::Answer,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    // `go mate N` is a proof search: nothing pruned forward, so that a
    // mate in N moves is seen by the time the depth reaches 2N.
    let exhaustive;
    let options = if limits.mate.is_some() {
        tt.begin_proof();
        exhaustive = options.exhaustive();
        &exhaustive
    } else {
        options
    };
    let features = Features::of(&root, options);
    let outcome = root.outcome()?;
    let mut outcomes = Vec::new();
    if features.chance && outcome == crate::host::Outcome::Ongoing {
        root.chance_outcomes(&mut outcomes)?;
    }
    let is_chance = !outcomes.is_empty();
    let mut root_moves = Vec::new();
    if !is_chance {
        // Moves listed after a verdict (a repetition) are searched: the
        // arbiter, not plyd, applies such rules.
        order_root(&root, tt, features, &mut root_moves)?;
        if !playable_root_moves(&root, &mut root_moves, limits, outcome, report)? {
            return Ok(SearchResult::default());
        }
    }
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
    // Texts two root moves share (a plugin that writes h10 as h1): the
    // answer, if it is one of them, reads back as either move, and its
    // round trip through parse_move cannot tell.
    let plugin_name = root.plugin().name().to_string();
    let spelled_twice: Vec<String> = {
        let mut texts = root_texts.clone();
        texts.sort_unstable();
        let mut shared: Vec<String> = texts
            .windows(2)
            .filter(|pair| pair[0] == pair[1])
            .map(|pair| pair[0].clone())
            .collect();
        shared.dedup();
        shared
    };
    answer.best = root_moves.first().and_then(|&mv| spell(mv));
    // The watchdog's answer, should the first iteration not end in time:
    // the first move in the search's order (hints, the table's move), not
    // the first the plugin generated.
    if let Some(first) = &answer.best {
        control.note_unsearched(first.clone());
    }

    let threads = options.threads.max(1);
    tt.keep_memory_of(threads);
    let bound = super::score::eval_bound(evaluator);
    let params = options.params;
    let pawn = params.pawn_of(bound);
    let hardware_threads = crate::threads::hardware_threads().unwrap_or(usize::MAX);
    let shared = Shared {
        tt,
        evaluator,
        limits,
        control,
        features,
        root: RootInfo {
            moves: root_moves.clone(),
            side: root.side_to_move()?,
            is_chance,
            in_check: features.check && !is_chance && root.in_check()?,
            key: root.hash(),
        },
        multipv: options.multipv.max(1),
        eval_bound: bound,
        // A node limit is kept exactly, node by node, which a handed-over
        // search (whose nodes are counted when it returns) would overrun.
        // In a game with chance nodes only the last ply is handed over: the
        // positions below it are scored as they stand, a chance node with
        // no plies left included, so the plugin's search meets no chance
        // node.
        shallow_plies: if features.techniques.shallow_search
            && limits.nodes.is_none()
            && evaluator.info().score_bound <= EVAL_LIMIT
        {
            if features.chance {
                evaluator.shallow_plies().min(1)
            } else {
                evaluator.shallow_plies()
            }
        } else {
            0
        },
        aspiration_delta: SearchParams::of_bound(bound, params.aspiration),
        futility_margin: SearchParams::of_bound(bound, params.futility),
        deep_futility_margin: SearchParams::of_pawn(pawn, params.deep_futility.into()),
        qs_futility_margin: SearchParams::of_pawn(pawn, params.qs_futility.into()),
        see_margins: SeeMargins::for_pawn(pawn),
        game: root.plugin().info().name.clone(),
        pawn,
        probcut_margin: SearchParams::of_pawn(pawn, params.probcut.into()),
        node_probcut_margin: SearchParams::of_bound(bound, params.node_probcut),
        double_extension_margin: SearchParams::of_pawn(pawn, params.double_extension.into()).max(1),
        params,
        lmr: params.lmr_table(),
        correction_limit: (bound / 100).max(1),
        variety: (
            options
                .variety
                .max(super::skill_margin(options.skill_level, pawn))
                .min(bound.unsigned_abs()) as i32,
            options.variety_seed,
        ),
        halt: AtomicBool::new(false),
        time_up: AtomicBool::new(false),
        node_counts: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        searching: (0..threads).map(|_| AtomicU32::new(0)).collect(),
        main_gate: (threads > hardware_threads)
            .then(|| (parking_lot::Mutex::new(false), parking_lot::Condvar::new())),
        busy: if threads > 1 {
            (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()
        } else {
            Vec::new()
        },
    };
    let mut helper_states = Vec::with_capacity(threads - 1);
    for _ in 1..threads {
        helper_states.push(root.try_clone()?);
    }

    let (main_outcome, main_result, helper_results, ponder) = std::thread::scope(|scope| {
        // Closed when the scope's work is done, which ends the timer.
        let (search_done, timer_done) = crossbeam_channel::bounded::<()>(0);
        if let (Some(hard), false) = (limits.hard_time(), limits.infinite) {
            let shared = &shared;
            // Without the timer (no thread to be had under a tight limit)
            // the searching threads still watch the clock themselves.
            spawn_or_skip(
                scope,
                "the search's timer (the search keeps time itself)",
                move || keep_time(shared.control, hard, &shared.time_up, &timer_done),
            );
        }
        let handles: Vec<_> = helper_states
            .into_iter()
            .enumerate()
            .filter_map(|(i, state)| {
                let shared = &shared;
                // A helper that cannot be had is left out: the others
                // search without it.
                spawn_or_skip(scope, &format!("search helper {}", i + 1), move || {
                    let _on_roll = shared.control.enter_roll();
                    // Its memory is had before the wait, not by hundreds
                    // of helpers at once after it, beside the main thread.
                    let mut searcher = Searcher::new(i + 1, state, shared, None);
                    shared.wait_for_main();
                    let outcome = searcher.iterate();
                    if outcome.is_err() {
                        shared.halt();
                    }
                    shared.publish_nodes(i + 1, searcher.nodes);
                    let result = searcher.result();
                    searcher.keep_memory();
                    (outcome, result)
                })
            })
            .collect();
        let mut main = Searcher::new(0, root, &shared, Some(report));
        let main_outcome = main.iterate();
        shared.halt();
        shared.publish_nodes(0, main.nodes);
        let (helper_results, helper_error) = join_helpers(handles, "a search helper thread");
        let main_result = main.result();
        let chosen = choose(shared.multipv, &main_result, &helper_results);
        let mut main_outcome = main_outcome;
        if main_outcome.is_ok() && !std::ptr::eq(chosen, &main_result) {
            main_outcome = main.report_result(chosen);
        }
        // The expected reply, spelled on the main thread's state; after a
        // plugin failure, only the move (spelled earlier).
        let outcome = main_outcome.and(helper_error.map_or(Ok(()), Err));
        let ponder = match (&outcome, is_chance) {
            (Ok(()), false) => {
                super::report::ponder_reply(&mut main.state, &chosen.pv, Some(shared.tt))
                    .ok()
                    .flatten()
            }
            _ => None,
        };
        main.keep_memory();
        drop(search_done);
        (outcome, main_result, helper_results, ponder)
    });

    let chosen = choose(shared.multipv, &main_result, &helper_results).clone();
    if !is_chance {
        if let Some(&best) = chosen.pv.first() {
            answer.best = spell(best);
            answer.ponder = ponder;
        }
        if let Some(text) = answer.best.as_ref().filter(|t| spelled_twice.contains(t)) {
            report(SearchEvent::Info(plyd_protocol::Info {
                string: Some(format!(
                    "error: the game plugin {} spells two or more legal moves here '{text}': \
                     the one played may be read as another, by a GUI and by plyd; `plyd check` \
                     tests every move's text",
                    plugin_name
                )),
                ..plyd_protocol::Info::default()
            }));
        }
    }
    main_outcome?;
    let nodes = shared.all_nodes();
    Ok(SearchResult {
        best: if is_chance {
            None
        } else {
            chosen.pv.first().copied()
        },
        score: chosen.score,
        pv: chosen.pv,
        depth: chosen.depth,
        nodes,
    })
}

/// How often the timer looks again while the search ponders: `ponderhit`
/// starts the clock, and the timer learns of it at its next look.
const PONDER_LOOK: Duration = Duration::from_millis(2);

/// The search's timer: raise `time_up` ([`Shared::time_up`]) when
/// `control`'s clock passes `hard` (counted from `ponderhit` after
/// pondering), or end when `done` closes. The main thread still reads the
/// clock every few hundred nodes; the timer is for the stretches where
/// nodes turn costly (an evaluation that solves an ending) and those reads
/// come late.
fn keep_time(
    control: &SearchControl,
    hard: Duration,
    time_up: &AtomicBool,
    done: &crossbeam_channel::Receiver<()>,
) {
    loop {
        let wait = if control.pondering() {
            // Pondering past the hard limit, which a timed search would
            // have stopped at: a ponder hit answers at once (an iteration
            // begun before the soft limit, running long, otherwise ran on
            // to the hard limit after the hit: 260 ms of a 2 s Amazons
            // clock after 1.5 s of pondering).
            if control.thinking_elapsed() >= hard && control.stop_on_ponderhit() {
                time_up.store(true, Ordering::Relaxed);
                return;
            }
            PONDER_LOOK
        } else {
            let left = hard.saturating_sub(control.clock_elapsed());
            if left.is_zero() {
                time_up.store(true, Ordering::Relaxed);
                return;
            }
            left
        };
        if done.recv_timeout(wait) != Err(crossbeam_channel::RecvTimeoutError::Timeout) {
            return;
        }
    }
}

/// The thread whose answer is played: the one that finished the deepest
/// iteration, the main thread among equals.
/// Join the helper threads of a search: what each returned, in order, and
/// the first error any of them met. A thread that panicked is logged (as
/// `what`) and left out; the others' results stand.
pub(super) fn join_helpers<T, E>(
    handles: Vec<std::thread::ScopedJoinHandle<'_, (Result<(), E>, T)>>,
    what: &str,
) -> (Vec<T>, Option<E>) {
    let mut results = Vec::with_capacity(handles.len());
    let mut error = None;
    for handle in handles {
        match handle.join() {
            Ok((outcome, result)) => {
                if let Err(e) = outcome {
                    error.get_or_insert(e);
                }
                results.push(result);
            }
            Err(_) => log::error!("{what} panicked"),
        }
    }
    (results, error)
}

/// The result the search answers with: the main thread's, or, with one
/// line asked for, a helper's that finished a deeper iteration.
fn choose<'r>(
    multipv: usize,
    main: &'r ThreadResult,
    helpers: &'r [ThreadResult],
) -> &'r ThreadResult {
    // Several lines are the main thread's, which the GUI has been shown (a
    // helper's deeper first line would come with none of the others, and
    // might contradict them), as Stockfish keeps them.
    if multipv > 1 {
        return main;
    }
    // A proven win stands against deeper lines that do not prove one (a
    // helper's deeper iteration may not see the mate the main thread
    // proved, under pruning), and the quickest win is played, as
    // Stockfish's thread vote keeps them, the deeper line of two as quick;
    // otherwise the deepest line.
    let wins = |r: &ThreadResult| score::is_decisive(r.score) && r.score > 0;
    let mut best = main;
    for helper in helpers {
        if helper.pv.is_empty() {
            continue;
        }
        let better = match (wins(best), wins(helper)) {
            (true, true) => (helper.score, helper.depth) > (best.score, best.depth),
            (true, false) => false,
            (false, true) => true,
            (false, false) => helper.depth > best.depth,
        };
        if better {
            best = helper;
        }
    }
    best
}

/// The root moves in their first order, from the same picker as every
/// other node: the table move first, then the plugin's hints.
fn order_root(
    root: &GameState,
    tt: &TranspositionTable,
    features: Features,
    moves: &mut Vec<Move>,
) -> Result<(), PluginError> {
    let setup = PickerSetup {
        kind: Kind::All,
        tt_move: tt.probe(root.hash(), 0).and_then(|hit| hit.best),
        check_tt_move: features.is_legal,
        hints: true,
        skip_marked: false,
        killers_first: false,
        see: features.see,
        side: 0,
        killers: [plyd_api::NULL_MOVE; 2],
        move_keys: false,
        contexts: [NO_CONTEXT; 3],
        counter: plyd_api::NULL_MOVE,
        capture_history: false,
        excluded: plyd_api::NULL_MOVE,
    };
    let mut picker = MovePicker::new(setup, PickerBuffers::default());
    moves.clear();
    picker.drain_into(root, &Heuristics::default(), moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depths(values: &[u32]) -> Vec<AtomicU32> {
        values.iter().map(|&d| AtomicU32::new(d)).collect()
    }

    #[test]
    fn a_deeper_helper_answers_one_line_and_the_main_thread_several() {
        let result = |depth, mv| ThreadResult {
            depth,
            score: 0,
            pv: vec![mv],
        };
        let main = result(1, 10);
        let helpers = [result(2, 20), result(3, 30), result(5, 0)];
        let helpers_without_a_move = [ThreadResult {
            pv: Vec::new(),
            ..result(9, 0)
        }];
        assert_eq!(choose(1, &main, &helpers).pv, [0]);
        assert_eq!(choose(1, &main, &helpers[..2]).pv, [30]);
        assert_eq!(choose(1, &main, &helpers_without_a_move).pv, [10]);
        assert_eq!(choose(3, &main, &helpers).pv, [10]);
    }

    #[test]
    fn a_proven_win_is_not_overridden_by_a_deeper_line_without_one() {
        use crate::search::score::{loss_in, win_in};
        let result = |depth, score, mv| ThreadResult {
            depth,
            score,
            pv: vec![mv],
        };
        // The main thread proved a win in 7 plies at depth 8; a helper's
        // depth 9 did not see it.
        let main = result(8, win_in(7), 10);
        assert_eq!(choose(1, &main, &[result(9, 112, 20)]).pv, [10]);
        // A quicker win is taken, a slower one not.
        assert_eq!(choose(1, &main, &[result(6, win_in(5), 30)]).pv, [30]);
        assert_eq!(choose(1, &main, &[result(12, win_in(9), 40)]).pv, [10]);
        // As quick a win, proved a ply deeper (a helper that finished the
        // last depth of `go depth` first, the main thread stopped in it):
        // the deeper line answers, with its depth.
        let helpers = [result(9, win_in(7), 45)];
        let deeper = choose(1, &main, &helpers);
        assert_eq!((deeper.pv.as_slice(), deeper.depth), (&[45][..], 9));
        assert_eq!(choose(1, &main, &[result(7, win_in(7), 46)]).pv, [10]);
        // A helper's proven win beats the main thread's deeper line
        // without one; losses go by depth.
        let plain = result(10, -50, 50);
        assert_eq!(choose(1, &plain, &[result(7, win_in(5), 60)]).pv, [60]);
        let lost = result(8, loss_in(6), 70);
        assert_eq!(choose(1, &lost, &[result(9, loss_in(4), 80)]).pv, [80]);
    }

    #[test]
    fn a_depth_another_thread_searches_is_skipped() {
        // Thread 1 is at depth 5: thread 0, done with 4, goes on to 6.
        let searching = depths(&[4, 5]);
        assert_eq!(claim_depth(&searching, 0, 5, 20, true), 6);
        assert_eq!(searching[0].load(Ordering::Relaxed), 6);
        // Then thread 1, done with 5, leaps over 6 to 7.
        assert_eq!(claim_depth(&searching, 1, 6, 20, true), 7);
        // Several taken depths in a row are all skipped.
        let searching = depths(&[3, 7, 8, 9]);
        assert_eq!(claim_depth(&searching, 0, 7, 20, true), 10);
        // A thread's own depth does not count as taken.
        let searching = depths(&[7, 2]);
        assert_eq!(claim_depth(&searching, 0, 7, 20, true), 7);
    }

    #[test]
    fn the_last_depth_and_timed_searches_are_never_skipped() {
        let searching = depths(&[4, 5]);
        assert_eq!(claim_depth(&searching, 0, 5, 5, true), 5);
        let searching = depths(&[4, 5]);
        assert_eq!(claim_depth(&searching, 0, 5, 20, false), 5);
        assert_eq!(searching[0].load(Ordering::Relaxed), 5);
    }

    /// Wait (up to a minute, for a loaded machine) until `flag` is up.
    fn wait_for(flag: &AtomicBool) -> bool {
        let start = std::time::Instant::now();
        while !flag.load(Ordering::Relaxed) {
            if start.elapsed() > Duration::from_secs(60) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    #[test]
    fn the_timer_raises_its_flag_at_the_hard_limit_and_not_before() {
        let control = SearchControl::new(false);
        let time_up = AtomicBool::new(false);
        let hard = Duration::from_millis(30);
        let (_done, done_rx) = crossbeam_channel::bounded::<()>(0);
        std::thread::scope(|scope| {
            scope.spawn(|| keep_time(&control, hard, &time_up, &done_rx));
            // Up, and not before the limit: the flag is read before the
            // clock.
            assert!(wait_for(&time_up));
            assert!(control.clock_elapsed() >= hard);
        });
    }

    #[test]
    fn the_timer_waits_for_ponderhit_and_counts_from_it() {
        let control = SearchControl::new(true);
        let time_up = AtomicBool::new(false);
        let hard = Duration::from_millis(5);
        let (_done, done_rx) = crossbeam_channel::bounded::<()>(0);
        std::thread::scope(|scope| {
            scope.spawn(|| keep_time(&control, hard, &time_up, &done_rx));
            // Pondering: ten times the limit passes with the flag down.
            std::thread::sleep(hard * 10);
            assert!(!time_up.load(Ordering::Relaxed));
            control.ponderhit();
            // Pondered past the hard limit, where a timed search would
            // have stopped: the hit stops it at once.
            assert!(control.stop_requested());
            assert!(wait_for(&time_up));
            assert!(control.clock_elapsed() >= hard);
        });
    }

    #[test]
    fn a_ponder_hit_before_the_hard_limit_leaves_the_search_its_time() {
        let control = SearchControl::new(true);
        let time_up = AtomicBool::new(false);
        let hard = Duration::from_secs(5);
        let (_done, done_rx) = crossbeam_channel::bounded::<()>(0);
        std::thread::scope(|scope| {
            scope.spawn(|| keep_time(&control, hard, &time_up, &done_rx));
            std::thread::sleep(Duration::from_millis(20));
            control.ponderhit();
            std::thread::sleep(Duration::from_millis(20));
            assert!(!control.stop_requested());
            assert!(!time_up.load(Ordering::Relaxed));
            drop(_done);
        });
    }

    #[test]
    fn the_timer_ends_when_the_search_does() {
        let control = SearchControl::new(false);
        let time_up = AtomicBool::new(false);
        let (done, done_rx) = crossbeam_channel::bounded::<()>(0);
        std::thread::scope(|scope| {
            let timer =
                scope.spawn(|| keep_time(&control, Duration::from_secs(3600), &time_up, &done_rx));
            drop(done);
            timer.join().unwrap();
        });
        assert!(!time_up.load(Ordering::Relaxed));
    }
}
