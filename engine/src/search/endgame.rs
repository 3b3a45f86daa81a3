//! Searches answered by the plugin's exact endgame solver.
//!
//! A game plugin with a solver says, for each position, how large the
//! endgame left is (Othello: its empty squares) and whether its own
//! settings ask for the solver there (Othello's `EndgameEmpties`). The
//! search hands the root to the solver when they do, or when `go depth N`
//! reaches that size (a search that deep would end every line anyway, and
//! the solver ends them far faster on the plugin's own board), provided
//! the move's time, if it has a limit, leaves room for the solve. A search
//! bounded by depth or nodes and not by time takes the plugin's word only
//! for solves that usually take a moment ([`BOUNDED_SOLVE_TIME`]).
//!
//! The solver runs inside the plugin, with this search's transposition
//! table lent through the ABI's callbacks under keys of its own (salted so
//! that they never meet the evaluation search's), and on `Threads` threads
//! (Lazy SMP): each thread solves the root on its own copy of the state,
//! they share the table, helpers start on other root moves, and the first
//! to finish gives the answer and stops the others. Only the main thread
//! watches the clock, the node limit and `stop`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use plyd_api::abi::{self, SolveEntry};
use plyd_protocol::{Info, Score};

use super::tt::Bound;
use super::{
    nps, SearchControl, SearchEvent, SearchLimits, SearchOptions, SearchResult, TranspositionTable,
};
use crate::host::{GameState, PluginError, SolveTable, Solved};

/// Folded into every solver key, so that solver entries and evaluation
/// entries of one position never answer for one another.
const SOLVER_KEY_SALT: u64 = 0x6a09_e667_f3bc_c908;

/// The size of the endgame to solve at the root, when the solver should
/// answer this search: the `EndgameSolver` option allows it, the plugin
/// has one and takes this position, its settings or the depth asked for
/// say so, and the time allows it ([`fits_in_time`]). `go mate`,
/// `searchmoves` and `MultiPV` above 1 (the
/// solver proves one line; NBoard's `hint n` asks for n) stay with the
/// evaluation search.
pub(super) fn plan(
    root: &GameState,
    limits: &SearchLimits,
    options: &SearchOptions,
) -> Result<Option<u32>, PluginError> {
    if !options.endgame_solver
        || !root.has_solver()
        || limits.mate.is_some()
        || !limits.search_moves.is_empty()
        || options.multipv > 1
    {
        return Ok(None);
    }
    Ok(match root.endgame_size()? {
        Some((size, wanted)) => {
            // A depth reaching the end asks for a solve that ends: beyond
            // half a minute's, the evaluation search deepens and reports
            // as it goes (`go depth 100` at the start of a game is an
            // analysis, not a solve of 60 empty squares).
            let deep_enough = limits.depth.is_some_and(|depth| depth >= size)
                && expected_solve_time(size) <= DEPTH_SOLVE_TIME;
            // A depth or node bound holds with a clock too (NBoard's `set
            // depth` under a game's clock): the level asked for.
            let wanted = wanted && (!limits.is_bounded() || quick(size));
            ((wanted || deep_enough)
                && fits_in_time(size, planned_time(limits))
                && fits_in_nodes(size, limits.nodes))
            .then_some(size)
        }
        None => None,
    })
}

/// The longest usual solve that a search bounded by depth or nodes, not
/// by time, hands over on the plugin's say alone: 30 ms, 18 empty squares
/// in Othello. Such a search asks for an answer of about its own size (a
/// `go depth 8`, NBoard's `set depth`, `plyd bench`), which a solve of 24
/// empty squares, seconds long, is not; a timed search instead weighs
/// the solve against its time ([`fits_in_time`]).
const BOUNDED_SOLVE_TIME: Duration = Duration::from_millis(30);

/// The longest usual solve that `go depth N` hands over for reaching the
/// end of the game: half a minute, 30 empty squares in Othello. Longer ones are
/// asked for through the plugin's settings (Othello's `EndgameEmpties`).
const DEPTH_SOLVE_TIME: Duration = Duration::from_secs(30);

/// Whether a solve of `size` usually takes no longer than
/// [`BOUNDED_SOLVE_TIME`].
fn quick(size: u32) -> bool {
    expected_solve_time(size) <= BOUNDED_SOLVE_TIME
}

/// About how long a solve of `size` takes here (Othello, one thread):
/// 10 ms at 16 empty squares, three times as long for every two more. From
/// positions of self-play games on a 2-core machine, whose solves took
/// 4-14 ms at 16 empty squares, 33-87 ms at 18 and 72-93 ms at 20.
fn expected_solve_time(size: u32) -> Duration {
    let ms = 10.0 * 3f64.powf((f64::from(size) - 16.0) / 2.0);
    Duration::from_secs_f64(ms / 1000.0)
}

/// The time a move is planned to take: `go movetime`'s, or the clock's
/// share for this move (its soft limit, not the hard limit at which a
/// search is cut short, which may be four shares).
fn planned_time(limits: &SearchLimits) -> Option<Duration> {
    limits.movetime.or(limits.clock.map(|budget| budget.soft))
}

/// Whether a solve of `size` should start with `planned` the time this
/// move is planned to take: a solve stopped by the clock answers with the
/// best move found so far, which may be far worse than what the
/// evaluation search would give (at the start of a game, a move no better
/// than a random one), so the solver waits for a move planned to take
/// three times the expected time (or no time limit). The position is
/// solved a move or two later, at fewer empty squares. Under a clock the
/// plan is the move's share, not its hard limit: a solve runs to the hard
/// limit when it does not end, and late in a short game a hard limit of
/// four shares is most of what is left of the clock. This holds for a
/// solve asked by depth too: NBoard's `set depth` is a level set once for
/// the game, and a GUI at depth 60 expects moves within its clock from
/// the first.
fn fits_in_time(size: u32, planned: Option<Duration>) -> bool {
    planned.is_none_or(|planned| planned >= 3 * expected_solve_time(size))
}

/// About how many nodes a solve of `size` takes: its usual time
/// ([`expected_solve_time`]) at 20 million nodes a second, below what the
/// solver runs at on the 2-core machine (FFO 40, 20 empty squares: 18.1
/// million nodes in 0.51 s; FFO 1, 14: 45,265 nodes, against 67,000 here).
fn expected_solve_nodes(size: u32) -> u64 {
    (expected_solve_time(size).as_secs_f64() * 20e6) as u64
}

/// Whether a solve of `size` should start under a node limit of `nodes`:
/// as with the time ([`fits_in_time`]), only with three times its usual
/// count, since a solve cut short answers with no better than the best
/// move found so far (`go nodes 5000` on FFO 1 played h1, +12, where the
/// evaluation search plays g8, +18).
fn fits_in_nodes(size: u32, nodes: Option<u64>) -> bool {
    nodes.is_none_or(|nodes| nodes >= 3 * expected_solve_nodes(size))
}

/// What the solving threads share.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    limits: &'a SearchLimits,
    control: &'a SearchControl,
    /// Raised by the first thread to finish, or by the main thread when
    /// it must stop: every thread stops at its next poll.
    done: AtomicBool,
    /// Nodes of each thread, as last polled.
    nodes: Vec<AtomicU64>,
}

impl Shared<'_> {
    fn all_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// One thread's view of the shared table and stop signal.
struct ThreadTable<'s, 'a> {
    shared: &'s Shared<'a>,
    id: usize,
}

impl SolveTable for ThreadTable<'_, '_> {
    fn probe(&mut self, key: u64) -> Option<SolveEntry> {
        let hit = self.shared.tt.probe(key ^ SOLVER_KEY_SALT, 0)?;
        let bound = match hit.bound {
            Bound::Upper => abi::BOUND_UPPER,
            Bound::Lower => abi::BOUND_LOWER,
            Bound::Exact => abi::BOUND_EXACT,
        };
        Some(SolveEntry {
            best: hit.best.unwrap_or(plyd_api::NULL_MOVE),
            score: hit.score,
            depth: hit.depth,
            bound,
        })
    }

    fn store(&mut self, key: u64, entry: &SolveEntry) {
        let bound = match entry.bound {
            abi::BOUND_UPPER => Bound::Upper,
            abi::BOUND_LOWER => Bound::Lower,
            abi::BOUND_EXACT => Bound::Exact,
            _ => return,
        };
        self.shared.tt.store(
            key ^ SOLVER_KEY_SALT,
            Some(entry.best),
            entry.score,
            0,
            entry.depth,
            bound,
            0,
        );
    }

    fn poll(&mut self, nodes: u64) -> bool {
        let shared = self.shared;
        shared.nodes[self.id].store(nodes, Ordering::Relaxed);
        shared.control.beat();
        if self.id == 0 {
            let out_of_time = shared.limits.hard_time().is_some_and(|hard| {
                !shared.control.pondering() && shared.control.clock_elapsed() >= hard
            });
            let out_of_nodes = shared
                .limits
                .nodes
                .is_some_and(|limit| shared.all_nodes() >= limit);
            if out_of_time || out_of_nodes || shared.control.stop_requested() {
                shared.done.store(true, Ordering::Relaxed);
            }
        }
        shared.done.load(Ordering::Relaxed)
    }
}

/// Solve the root on `threads` threads; report one `info` line with the
/// score (100 times the final score, as `score cp`) and the best move, and
/// `info string exact` when the solve ended. The move is set in `answer`.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    root: GameState,
    size: u32,
    tt: &TranspositionTable,
    limits: &SearchLimits,
    control: &SearchControl,
    threads: usize,
    answer: &mut super::Answer,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    let mut root_moves = Vec::new();
    root.legal_moves(&mut root_moves)?;
    let Some(&first) = root_moves.first() else {
        return Ok(SearchResult::default());
    };
    answer.best = Some(root.format_move(first)?);
    let threads = threads.max(1);
    let shared = Shared {
        tt,
        limits,
        control,
        done: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
    };
    let mut helper_states = Vec::with_capacity(threads - 1);
    for _ in 1..threads {
        helper_states.push(root.try_clone()?);
    }
    let mut root = root;
    let (main, helpers) = std::thread::scope(|scope| {
        let handles: Vec<_> = helper_states
            .into_iter()
            .enumerate()
            .filter_map(|(i, mut state)| {
                let shared = &shared;
                let what = format!("solver helper {}", i + 1);
                crate::threads::spawn_or_skip(scope, &what, move || {
                    let _on_roll = shared.control.enter_roll();
                    let id = i + 1;
                    let mut table = ThreadTable { shared, id };
                    let solved = state.solve(id as u32, &mut table);
                    finish(shared, id, &solved);
                    solved
                })
            })
            .collect();
        let mut table = ThreadTable {
            shared: &shared,
            id: 0,
        };
        let main = root.solve(0, &mut table);
        finish(&shared, 0, &main);
        shared.done.store(true, Ordering::Relaxed);
        let helpers: Vec<_> = handles
            .into_iter()
            .filter_map(|handle| handle.join().ok())
            .collect();
        (main, helpers)
    });
    let main = main?;
    // The main thread's answer unless a helper finished and it did not.
    let mut chosen = main;
    for helper in helpers.into_iter().flatten().flatten() {
        if helper.complete && !chosen.is_some_and(|c| c.complete) {
            chosen = Some(helper);
        }
    }
    let nodes = shared.all_nodes();
    let Some(solved) = chosen else {
        // The plugin refused a position it had offered: say so, and answer
        // with the first legal move.
        report(info_string("error: the solver refused the position"));
        return Ok(SearchResult::default());
    };
    let best = match solved.best {
        Some(mv) if root_moves.contains(&mv) => mv,
        _ => first,
    };
    answer.best = Some(root.format_move(best)?);
    let elapsed = control.search_elapsed();
    let score = if solved.win_loss_draw {
        100 * solved.score.signum()
    } else {
        100 * solved.score
    };
    report(SearchEvent::Info(Info {
        depth: Some(size),
        seldepth: Some(size),
        score: solved.complete.then_some((Score::Cp(score), None)),
        nodes: Some(nodes),
        nps: Some(nps(nodes, elapsed)),
        hashfull: Some(tt.hashfull()),
        time_ms: Some(elapsed.as_millis() as u64),
        pv: vec![root.format_move(best)?],
        ..Info::default()
    }));
    report(info_string(&exactness_words(&solved)));
    Ok(SearchResult {
        best: Some(best),
        score,
        pv: vec![best],
        depth: if solved.complete { size } else { 0 },
        nodes,
    })
}

/// Publish a thread's final node count, and stop the others when it ended
/// its solve.
fn finish(shared: &Shared<'_>, id: usize, solved: &Result<Option<Solved>, PluginError>) {
    match solved {
        Ok(Some(solved)) => {
            shared.nodes[id].store(solved.nodes, Ordering::Relaxed);
            if solved.complete {
                shared.done.store(true, Ordering::Relaxed);
            }
        }
        // A failed or refused solve cannot be waited for.
        _ => shared.done.store(true, Ordering::Relaxed),
    }
}

/// The `info string` saying what the score is.
fn exactness_words(solved: &Solved) -> String {
    if !solved.complete {
        return "endgame solve stopped before it ended: the move is the best found so far"
            .to_string();
    }
    if !solved.win_loss_draw {
        return "exact".to_string();
    }
    let verdict = match solved.score.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    };
    format!("exact wld {verdict}")
}

fn info_string(text: &str) -> SearchEvent {
    SearchEvent::Info(Info {
        string: Some(text.to_string()),
        ..Info::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn automatic_solves_wait_for_enough_time() {
        let ms = Duration::from_millis;
        assert!(fits_in_time(18, None));
        assert!(fits_in_time(18, Some(ms(1000))));
        assert!(!fits_in_time(18, Some(ms(40))));
        assert!(fits_in_time(14, Some(ms(40))));
        assert!(!fits_in_time(24, Some(ms(1000))));
        assert!(fits_in_time(24, Some(ms(2500))));
        // Under a clock the move's share is weighed, not its hard limit.
        let clocked = SearchLimits {
            clock: Some(crate::search::timeman::TimeBudget {
                soft: ms(700),
                hard: ms(2800),
            }),
            ..SearchLimits::default()
        };
        assert_eq!(planned_time(&clocked), Some(ms(700)));
        assert!(!fits_in_time(24, planned_time(&clocked)));
        assert!(fits_in_time(20, planned_time(&clocked)));
        // Searches bounded by depth or nodes alone hand over up to 18.
        assert!(quick(18));
        assert!(!quick(20));
        // A node limit is weighed the same way.
        assert!(fits_in_nodes(14, None));
        assert!(!fits_in_nodes(14, Some(20_000)));
        assert!(fits_in_nodes(14, Some(3 * expected_solve_nodes(14))));
        assert!(!fits_in_nodes(18, Some(1_000_000)));
        // Depth alone asks for solves of up to 30 empty squares.
        assert!(expected_solve_time(30) <= DEPTH_SOLVE_TIME);
        assert!(expected_solve_time(31) > DEPTH_SOLVE_TIME);
        // Each two more empty squares triple the time asked for.
        let ratio = expected_solve_time(20).as_secs_f64() / expected_solve_time(18).as_secs_f64();
        assert!((ratio - 3.0).abs() < 1e-9);
    }
}
