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
use plyd_api::Move;
use plyd_protocol::{Info, Score};

use super::tt::Bound;
use super::{
    nps, SearchControl, SearchEvent, SearchLimits, SearchOptions, SearchResult, TranspositionTable,
};
use crate::host::{GameState, Outcome, PluginError, SolveTable, Solved};

/// Folded into every solver key, so that solver entries and evaluation
/// entries of one position never answer for one another.
const SOLVER_KEY_SALT: u64 = 0x6a09_e667_f3bc_c908;

/// What the solver is to answer at the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Plan {
    /// The endgame's size (Othello: its empty squares).
    pub size: u32,
    /// Lines asked for: 0 for the one best move (the root solved once),
    /// else the best this many of the moves searched, each move's
    /// position solved on its own for its exact score (`MultiPV` above
    /// 1, NBoard's `hint n`, `searchmoves`).
    pub lines: usize,
}

/// The size of the endgame to solve at the root, and the lines asked for,
/// when the solver should answer this search: the `EndgameSolver` option
/// allows it, the plugin has one and takes this position, its settings or
/// the depth asked for say so, and the time allows it ([`fits_in_time`]).
/// `go mate` stays with the evaluation search. Several lines, or some of
/// the moves (`searchmoves`), take a solve or a window's test of each
/// move searched, weighed against the time at their shares of the root's
/// solve ([`expected_time`]).
pub(super) fn plan(
    root: &GameState,
    limits: &SearchLimits,
    options: &SearchOptions,
) -> Result<Option<Plan>, PluginError> {
    if !options.endgame_solver || !root.has_solver() || limits.mate.is_some() {
        return Ok(None);
    }
    let Some((size, wanted)) = root.endgame_size()? else {
        return Ok(None);
    };
    let lines = if options.multipv > 1 || !limits.search_moves.is_empty() {
        options.multipv.max(1)
    } else {
        0
    };
    // The root's solve, then one for each other move (each move given,
    // with `searchmoves`): exact while lines are missing, else a window's
    // test where the plugin takes one.
    let (with_root, others) = if lines == 0 {
        (true, 0)
    } else if limits.search_moves.is_empty() {
        (true, root.count_moves()?.saturating_sub(1))
    } else {
        (false, limits.search_moves.len())
    };
    let missing = if with_root {
        lines.saturating_sub(1)
    } else {
        lines
    };
    let exact = if root.solves_in_window() {
        others.min(missing)
    } else {
        others
    };
    let solves = MoveSolves {
        exact,
        tested: others - exact,
    };
    let expected = expected_time(size, with_root, solves);
    // A depth reaching the end asks for a solve that ends: beyond half a
    // minute's, the evaluation search deepens and reports as it goes (`go
    // depth 100` at the start of a game is an analysis, not a solve of 60
    // empty squares).
    let deep_enough =
        limits.depth.is_some_and(|depth| depth >= size) && expected <= DEPTH_SOLVE_TIME;
    // A depth or node bound holds with a clock too (NBoard's `set depth`
    // under a game's clock): the level asked for.
    let wanted = wanted && (!limits.is_bounded() || expected <= BOUNDED_SOLVE_TIME);
    let fits =
        fits_in_time(expected, planned_time(limits)) && fits_in_nodes(expected, limits.nodes);
    Ok(((wanted || deep_enough) && fits).then_some(Plan { size, lines }))
}

/// The solves of a search's moves for its lines, besides the root's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct MoveSolves {
    /// Moves solved exactly (while fewer lines than asked are known).
    exact: usize,
    /// Moves tested by a null window against the last line (where the
    /// plugin solves in a window): most then need no exact solve.
    tested: usize,
}

/// A move's exact solve, as a share of a usual solve of the root's size.
/// On 120 positions of self-play games at 14, 16, 18 and 20 empty squares
/// (30 of each size, seven to twelve moves), every move solved exactly
/// after the root took the root's time and 0.45 to 0.52 of it a move more
/// (medians at each size, `tests/tools/lines_cost.py`, two runs).
const EXACT_MOVE_SHARE: f64 = 0.5;

/// A move's test by a null window (and the exact solve of the few that
/// pass it), as a share of a usual solve of the root's size: on the same
/// positions with three lines, 0.21 to 0.34 of the root's time a move
/// beyond the lines (medians at each size, two runs).
const TESTED_MOVE_SHARE: f64 = 0.3;

/// About how long the solves take: the root's of `size` where
/// `with_root`, and the moves' `solves` at their shares of it
/// ([`EXACT_MOVE_SHARE`], [`TESTED_MOVE_SHARE`]).
fn expected_time(size: u32, with_root: bool, solves: MoveSolves) -> Duration {
    let root = expected_solve_time(size);
    let shares = solves.exact as f64 * EXACT_MOVE_SHARE + solves.tested as f64 * TESTED_MOVE_SHARE;
    root.mul_f64(f64::from(u8::from(with_root)) + shares)
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
    // What the move still has: a `go` that waited before its search could
    // start has its limits counted from when it was read.
    limits
        .movetime
        .or(limits.clock.map(|budget| budget.soft))
        .map(|planned| planned.saturating_sub(limits.waited))
}

/// Whether solves expected to take `expected` should start with
/// `planned` the time this move is planned to take: a solve stopped by
/// the clock answers with the best move found so far, which may be far
/// worse than what the
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
fn fits_in_time(expected: Duration, planned: Option<Duration>) -> bool {
    planned.is_none_or(|planned| planned >= 3 * expected)
}

/// About how many nodes solves expected to take `expected` visit: that
/// time at 20 million nodes a second, below what the solver runs at on
/// the 2-core machine (FFO 40, 20 empty squares: 18.1 million nodes in
/// 0.51 s; FFO 1, 14: 45,265 nodes, against 67,000 here).
fn expected_nodes(expected: Duration) -> u64 {
    (expected.as_secs_f64() * 20e6) as u64
}

/// Whether solves expected to take `expected` should start under a node
/// limit of `nodes`:
/// as with the time ([`fits_in_time`]), only with three times its usual
/// count, since a solve cut short answers with no better than the best
/// move found so far (`go nodes 5000` on FFO 1 played h1, +12, where the
/// evaluation search plays g8, +18).
fn fits_in_nodes(expected: Duration, nodes: Option<u64>) -> bool {
    nodes.is_none_or(|nodes| nodes >= 3 * expected_nodes(expected))
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
    /// Nodes of this search's earlier solves (of other root moves).
    before: u64,
}

impl Shared<'_> {
    /// Nodes of this solve, all threads.
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
                .is_some_and(|limit| shared.before + shared.all_nodes() >= limit);
            if out_of_time || out_of_nodes || shared.control.stop_requested() {
                shared.done.store(true, Ordering::Relaxed);
            }
        }
        shared.done.load(Ordering::Relaxed)
    }
}

/// Answer the search by the solver as `plan` says: the root solved once,
/// or each move searched solved for its lines. Sets the move in `answer`.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    root: GameState,
    plan: Plan,
    tt: &TranspositionTable,
    limits: &SearchLimits,
    control: &SearchControl,
    threads: usize,
    answer: &mut super::Answer,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    let solving = Solving {
        tt,
        limits,
        control,
        threads: threads.max(1),
    };
    if plan.lines == 0 {
        run_root(root, plan.size, &solving, answer, report)
    } else {
        run_lines(root, plan, &solving, answer, report)
    }
}

/// The fewest empty squares (the plugin's endgame size) a solve is run
/// on several threads from ([`Solving::solve`]).
const SMP_FROM: u32 = 20;

/// What every solve of one search shares.
struct Solving<'a> {
    tt: &'a TranspositionTable,
    limits: &'a SearchLimits,
    control: &'a SearchControl,
    threads: usize,
}

impl Solving<'_> {
    /// Solve `state` on the search's threads (Lazy SMP), `before` nodes
    /// spent by earlier solves of this search, in `window` where one is
    /// given (see [`GameState::solve`]): the answer (`None` where the
    /// plugin refused the position) and the nodes of this solve.
    fn solve(
        &self,
        state: &mut GameState,
        before: u64,
        window: Option<(i32, i32)>,
    ) -> Result<(Option<Solved>, u64), PluginError> {
        // A small solve on one thread: the helpers' start (a thread each,
        // and the plugin's table of its own for it) costs more than they
        // save below SMP_FROM empty squares (FFO 1-19, 14 to 16 empty
        // squares, took 4 to 7 times as long on two threads).
        let threads = match state.endgame_size()? {
            Some((size, _)) if size < SMP_FROM => 1,
            _ => self.threads,
        };
        let shared = Shared {
            tt: self.tt,
            limits: self.limits,
            control: self.control,
            done: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            before,
        };
        let mut helper_states = Vec::with_capacity(threads - 1);
        for _ in 1..threads {
            helper_states.push(state.try_clone()?);
        }
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
                        let solved = state.solve(id as u32, &mut table, window);
                        finish(shared, id, &solved);
                        solved
                    })
                })
                .collect();
            let mut table = ThreadTable {
                shared: &shared,
                id: 0,
            };
            let main = state.solve(0, &mut table, window);
            finish(&shared, 0, &main);
            shared.done.store(true, Ordering::Relaxed);
            let helpers: Vec<_> = handles
                .into_iter()
                .filter_map(|handle| handle.join().ok())
                .collect();
            (main, helpers)
        });
        // The main thread's answer unless a helper finished and it did not.
        let mut chosen = main?;
        for helper in helpers.into_iter().flatten().flatten() {
            if helper.complete && !chosen.is_some_and(|c| c.complete) {
                chosen = Some(helper);
            }
        }
        Ok((chosen, shared.all_nodes()))
    }

    /// An `info` line of a solved line: `depth` and `seldepth` the
    /// endgame's size, `score` as `score cp` (none for an unfinished
    /// solve).
    fn info(
        &self,
        size: u32,
        multipv: Option<u32>,
        score: Option<i32>,
        nodes: u64,
        pv: Vec<String>,
    ) -> SearchEvent {
        let elapsed = self.control.search_elapsed();
        SearchEvent::Info(Info {
            depth: Some(size),
            seldepth: Some(size),
            multipv,
            score: score.map(|score| (Score::Cp(score), None)),
            nodes: Some(nodes),
            nps: Some(nps(nodes, elapsed)),
            hashfull: Some(self.tt.hashfull()),
            time_ms: Some(elapsed.as_millis() as u64),
            pv,
            ..Info::default()
        })
    }
}

/// The score reported for a solve: 100 times its final score, or 100
/// times its sign for a win-loss-draw solve.
fn reported(solved: &Solved) -> i32 {
    if solved.win_loss_draw {
        100 * solved.score.signum()
    } else {
        100 * solved.score
    }
}

/// Solve the root; report one `info` line with the score (100 times the
/// final score, as `score cp`) and the best move, and `info string exact`
/// when the solve ended. The move is set in `answer`.
fn run_root(
    mut root: GameState,
    size: u32,
    solving: &Solving<'_>,
    answer: &mut super::Answer,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    let mut root_moves = Vec::new();
    root.legal_moves(&mut root_moves)?;
    super::check_root_list(&root, &root_moves)?;
    let Some(&first) = root_moves.first() else {
        return Ok(SearchResult::default());
    };
    answer.best = Some(root.format_move(first)?);
    let (chosen, nodes) = solving.solve(&mut root, 0, None)?;
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
    let text = root.format_move(best)?;
    answer.best = Some(text.clone());
    let score = reported(&solved);
    report(solving.info(
        size,
        None,
        solved.complete.then_some(score),
        nodes,
        vec![text.clone()],
    ));
    let mut pv = vec![best];
    let mut nodes = nodes;
    // An analysis (no clock) is owed the whole perfect line, as Edax and
    // Egaroucid show it: each position after it solved in turn, its best
    // move the next, the table warm from the root's solve.
    if solved.complete && !solving.limits.is_timed() {
        let (line, spent) = perfect_line(&root, best, nodes, solving)?;
        if line.len() > 1 {
            nodes = spent;
            let texts = spelled(&root, &line)?;
            // The line's reply is the move to ponder on, as a line's is.
            answer.ponder = texts.get(1).cloned();
            report(solving.info(size, None, Some(score), nodes, texts));
            pv = line;
        }
    }
    report(info_string(&exactness_words(&solved)));
    Ok(SearchResult {
        best: Some(best),
        score,
        pv,
        depth: if solved.complete { size } else { 0 },
        nodes,
    })
}

/// The perfect line from `root` that begins with `best`: each position
/// after it solved exactly, its best move played, to the game's end; cut
/// where a solve does not finish (`stop`, a node limit) or the plugin
/// refuses a position. With the nodes spent by the root's solve
/// (`before`) and these.
fn perfect_line(
    root: &GameState,
    best: Move,
    before: u64,
    solving: &Solving<'_>,
) -> Result<(Vec<Move>, u64), PluginError> {
    let mut line = vec![best];
    let mut nodes = before;
    let mut state = root.try_clone()?;
    state.make_move(best)?;
    while state.outcome()? == Outcome::Ongoing && !solving.control.stop_requested() {
        let (solved, spent) = solving.solve(&mut state, nodes, None)?;
        nodes += spent;
        match solved {
            Some(Solved {
                complete: true,
                best: Some(mv),
                ..
            }) => {
                line.push(mv);
                state.make_move(mv)?;
            }
            _ => break,
        }
    }
    Ok((line, nodes))
}

/// `moves` played from `root`, each as the game writes it.
fn spelled(root: &GameState, moves: &[Move]) -> Result<Vec<String>, PluginError> {
    let mut state = root.try_clone()?;
    let mut texts = Vec::with_capacity(moves.len());
    for &mv in moves {
        texts.push(state.format_move(mv)?);
        state.make_move(mv)?;
    }
    Ok(texts)
}

/// One root move's solved line.
struct Line {
    mv: Move,
    /// The move's reported score (see [`reported`]), for the root's side.
    score: i32,
    /// The reply the solve found, where the game goes on.
    reply: Option<Move>,
}

/// Solve the root, then take each other move (each move of `searchmoves`
/// where it is given, without the root's solve) one after another in the
/// plugin's order, on the search's threads: the position after it solved
/// for its exact score (for the side to move there: the root's side's by
/// its sign) while fewer than `plan.lines` lines are known, else first
/// asked through a null window whether it beats the last of them (where
/// the plugin solves in a window), and solved only if it does. Report the
/// best `plan.lines` lines best first (`multipv` numbered where more
/// than one), each with the reply its solve found (the root's best move
/// with none: its solve gives no reply), and `info string exact`. A solve
/// stopped by the clock, the node limit or `stop` leaves its move and
/// those after it undecided: the lines reported are then those solved,
/// and the move played the root's best (the best of the moves solved, or
/// the first, where the root was not solved).
fn run_lines(
    mut root: GameState,
    plan: Plan,
    solving: &Solving<'_>,
    answer: &mut super::Answer,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves)?;
    super::check_root_list(&root, &moves)?;
    if !solving.limits.search_moves.is_empty() {
        moves.retain(|mv| solving.limits.search_moves.contains(mv));
    }
    let Some(&first) = moves.first() else {
        return Ok(SearchResult::default());
    };
    answer.best = Some(root.format_move(first)?);
    let mut lines: Vec<Line> = Vec::with_capacity(moves.len());
    let mut nodes = 0;
    let side = root.side_to_move()?;
    let mut win_loss_draw = false;
    let mut stopped = false;
    // The move played where no line is solved.
    let mut fallback = first;
    // The root first, solved once as for one line: its best move and
    // score are then known (that line needs no solve of its own), and a
    // search stopped before the other moves are solved plays the best
    // move, not the best of the moves solved so far. On FFO 40-44 it
    // added 5 to 25% to the time of all lines.
    if solving.limits.search_moves.is_empty() && moves.len() > 1 {
        let (solved, spent) = solving.solve(&mut root, 0, None)?;
        nodes += spent;
        match solved {
            Some(solved) => {
                if let Some(best) = solved.best.filter(|mv| moves.contains(mv)) {
                    answer.best = Some(root.format_move(best)?);
                    fallback = best;
                    if solved.complete {
                        win_loss_draw |= solved.win_loss_draw;
                        lines.push(Line {
                            mv: best,
                            score: reported(&solved),
                            reply: None,
                        });
                    }
                    moves.retain(|&mv| mv != best);
                    moves.insert(0, best);
                }
                stopped = !solved.complete;
            }
            None => {
                report(info_string("error: the solver refused the position"));
                stopped = true;
            }
        }
    }
    // Moves whose place among the lines is known: solved, or shown by a
    // window to be no better than the last of `plan.lines` lines.
    let mut decided = lines.len();
    // Windows tell a move that cannot enter the lines without its exact
    // score, where the solver takes one and the scores are exact.
    let windows = root.solves_in_window() && !win_loss_draw;
    for (number, &mv) in moves.iter().enumerate().skip(decided) {
        if stopped {
            break;
        }
        // Which move is being solved, for a GUI that waits on the lines.
        report(SearchEvent::Info(Info {
            depth: Some(plan.size),
            currmove: Some(root.format_move(mv)?),
            currmovenumber: Some(number as u32 + 1),
            ..Info::default()
        }));
        let mut child = root.try_clone()?;
        child.make_move(mv)?;
        let ended = child.outcome()?;
        // A game whose turn need not alternate may leave the move to the
        // same side: its score is then the root's side's as it stands.
        let sign = if child.side_to_move()? == side { 1 } else { -1 };
        if windows && !win_loss_draw && ended == Outcome::Ongoing && lines.len() >= plan.lines {
            // Does the move beat the last line's score `t` (in the
            // game's units)? For the side to move there, whose score `v`
            // is the move's times `sign`: `-v > t` (`v <= -t - 1`) or `v >
            // t` (`v >= t + 1`), each told by a null window.
            let mut scores: Vec<i32> = lines.iter().map(|line| line.score).collect();
            scores.sort_unstable_by_key(|&score| std::cmp::Reverse(score));
            let t = scores[plan.lines - 1] / 100;
            let window = if sign < 0 { (-t - 1, -t) } else { (t, t + 1) };
            let (tested, spent) = solving.solve(&mut child, nodes, Some(window))?;
            nodes += spent;
            match tested {
                // A win-loss-draw answer (a solver that took no window in
                // that mode) bounds nothing here: the move is solved.
                Some(tested) if tested.complete && tested.win_loss_draw => {}
                Some(tested) if tested.complete => {
                    let beats = if sign < 0 {
                        tested.score <= window.0
                    } else {
                        tested.score >= window.1
                    };
                    if !beats {
                        decided += 1;
                        continue;
                    }
                }
                _ => break,
            }
        }
        let (solved, spent) = solving.solve(&mut child, nodes, None)?;
        nodes += spent;
        let solved = match solved {
            Some(solved) if solved.complete => solved,
            Some(_) => break,
            // A plugin whose solver takes no finished game: the
            // outcome's sign, as a win-loss-draw solve would give it.
            None if ended != Outcome::Ongoing => Solved {
                score: match ended {
                    Outcome::Win => 1,
                    Outcome::Loss => -1,
                    _ => 0,
                },
                best: None,
                nodes: 0,
                complete: true,
                win_loss_draw: true,
            },
            None => {
                report(info_string("error: the solver refused the position"));
                break;
            }
        };
        win_loss_draw |= solved.win_loss_draw;
        decided += 1;
        lines.push(Line {
            mv,
            score: sign * reported(&solved),
            reply: solved.best,
        });
        // The answer so far, should the next solve not end: the best line,
        // the first of equals (the root's best where it was solved).
        let best = lines.iter().rev().max_by_key(|line| line.score);
        answer.best = Some(root.format_move(best.map_or(fallback, |line| line.mv))?);
    }
    // Best first; the plugin's order among equal scores.
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
    let shown = plan.lines.min(lines.len());
    let complete = decided == moves.len();
    // An analysis (no clock) whose every line was solved shows each line
    // whole, as one line's solve does ([`perfect_line`]).
    let whole = complete && !solving.limits.is_timed();
    for (index, line) in lines[..shown].iter().enumerate() {
        let mut pv = vec![root.format_move(line.mv)?];
        if whole {
            let (played, spent) = perfect_line(&root, line.mv, nodes, solving)?;
            nodes = spent;
            pv = spelled(&root, &played)?;
        } else if let Some(reply) = line.reply {
            root.make_move(line.mv)?;
            let text = root.format_move(reply);
            root.unmake_move(line.mv)?;
            pv.push(text?);
        }
        if index == 0 {
            // The first line is the one played: its reply is the move to
            // ponder on.
            answer.best = Some(pv[0].clone());
            answer.ponder = pv.get(1).cloned();
        }
        let multipv = (plan.lines > 1).then_some(index as u32 + 1);
        report(solving.info(plan.size, multipv, Some(line.score), nodes, pv));
    }
    if lines.is_empty() {
        // Stopped in the root's solve: its move so far, without a score,
        // as the one-line solve prints it.
        let multipv = (plan.lines > 1).then_some(1);
        let pv = vec![root.format_move(fallback)?];
        report(solving.info(plan.size, multipv, None, nodes, pv));
    }
    report(info_string(&if lines.is_empty() {
        "endgame solve stopped before it ended: the move is the best found so far".to_string()
    } else if !complete {
        format!(
            "endgame solve stopped before it ended: {decided} of the {} moves solved, the move the best of those",
            moves.len()
        )
    } else if win_loss_draw {
        // The verdict of the first line, the move played, as one line
        // gives it.
        let verdict = match lines[0].score.signum() {
            1 => "win",
            -1 => "loss",
            _ => "draw",
        };
        format!("exact wld {verdict}")
    } else {
        "exact".to_string()
    }));
    let Some(best) = lines.first() else {
        return Ok(SearchResult {
            best: Some(fallback),
            pv: vec![fallback],
            nodes,
            ..SearchResult::default()
        });
    };
    // The reply its solve found, as its line shows it: the move to ponder
    // on.
    Ok(SearchResult {
        best: Some(best.mv),
        score: best.score,
        pv: std::iter::once(best.mv).chain(best.reply).collect(),
        depth: if complete { plan.size } else { 0 },
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
        let root = |size| expected_time(size, true, MoveSolves::default());
        assert!(fits_in_time(root(18), None));
        assert!(fits_in_time(root(18), Some(ms(1000))));
        assert!(!fits_in_time(root(18), Some(ms(40))));
        assert!(fits_in_time(root(14), Some(ms(40))));
        assert!(!fits_in_time(root(24), Some(ms(1000))));
        assert!(fits_in_time(root(24), Some(ms(2500))));
        // Under a clock the move's share is weighed, not its hard limit.
        let clocked = SearchLimits {
            clock: Some(crate::search::timeman::TimeBudget {
                soft: ms(700),
                hard: ms(2800),
            }),
            ..SearchLimits::default()
        };
        assert_eq!(planned_time(&clocked), Some(ms(700)));
        assert!(!fits_in_time(root(24), planned_time(&clocked)));
        assert!(fits_in_time(root(20), planned_time(&clocked)));
        // A `go` that waited before its search began has what its limits
        // leave after the wait (5 ms of movetime read after a 40 ms wait:
        // a 41 ms limit, 1 ms left).
        let waited = SearchLimits {
            movetime: Some(ms(41)),
            waited: ms(40),
            ..SearchLimits::default()
        };
        assert_eq!(planned_time(&waited), Some(ms(1)));
        assert!(!fits_in_time(root(14), planned_time(&waited)));
        // Searches bounded by depth or nodes alone hand over up to 18.
        assert!(root(18) <= BOUNDED_SOLVE_TIME);
        assert!(root(20) > BOUNDED_SOLVE_TIME);
        // A node limit is weighed the same way.
        assert!(fits_in_nodes(root(14), None));
        assert!(!fits_in_nodes(root(14), Some(20_000)));
        assert!(fits_in_nodes(root(14), Some(3 * expected_nodes(root(14)))));
        assert!(!fits_in_nodes(root(18), Some(1_000_000)));
        // Depth alone asks for solves of up to 30 empty squares.
        assert!(root(30) <= DEPTH_SOLVE_TIME);
        assert!(root(31) > DEPTH_SOLVE_TIME);
        // Each two more empty squares triple the time asked for.
        let ratio = root(20).as_secs_f64() / root(18).as_secs_f64();
        assert!((ratio - 3.0).abs() < 1e-9);
    }

    #[test]
    fn several_lines_are_weighed_by_the_solves_of_their_moves() {
        let solve = expected_solve_time(20);
        let time = |with_root, exact, tested| {
            let solves = MoveSolves { exact, tested };
            expected_time(20, with_root, solves).as_secs_f64() / solve.as_secs_f64()
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
        // Each move solved exactly: half a root's solve.
        assert!(close(time(false, 1, 0), 0.5));
        assert!(close(time(false, 10, 0), 5.0));
        // The root first, then nine other moves for three lines: two
        // solved exactly, seven tested by a window.
        assert!(close(time(true, 2, 7), 1.0 + 1.0 + 7.0 * 0.3));
        // Tested moves cost less than solved ones.
        assert!(time(true, 2, 7) < time(true, 9, 0));
        // Every line of ten moves exact: between the root's solve three and
        // four squares larger.
        let lines = expected_time(
            20,
            true,
            MoveSolves {
                exact: 9,
                tested: 0,
            },
        );
        assert!(lines > expected_solve_time(23) && lines < expected_solve_time(24));
    }
}
