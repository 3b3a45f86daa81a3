//! What bounds a search: depth, nodes, the clock, and the GUI's `stop`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use plyd_api::Move;
use plyd_protocol::GoParams;

use super::timeman::{clock_budget, endgame_moves_to_go, TimeBudget};
use crate::threads::{OnRoll, ThreadRoll};

/// Limits of one search, resolved from `go` parameters.
#[derive(Debug, Clone, Default)]
pub struct SearchLimits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop once a win in at most this many moves is found.
    pub mate: Option<u32>,
    /// `go movetime`: search this long (less the move overhead).
    pub movetime: Option<Duration>,
    /// A budget taken from the clock (`wtime` ...).
    pub clock: Option<TimeBudget>,
    /// Search until `stop` (also after the last depth).
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all).
    pub search_moves: Vec<Move>,
    /// When the daemon's watchdog answers for a timed search that has not
    /// answered by itself (a plugin call that does not return): a little
    /// after the hard limit, well before the clock runs out.
    pub answer_by: Option<Duration>,
    /// How long the `go` waited, on its clock, before its search could
    /// start (see [`limits_from_go_after`]): the time limits above count
    /// it, and what the move still has is theirs less it.
    pub waited: Duration,
}

impl SearchLimits {
    /// The time at which the search is aborted mid-iteration, if any.
    pub fn hard_time(&self) -> Option<Duration> {
        self.movetime.or(self.clock.map(|b| b.hard))
    }

    /// Whether any time limit applies.
    pub fn is_timed(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some()
    }

    /// Whether the search ends at a depth or a node count of its own.
    pub fn is_bounded(&self) -> bool {
        self.depth.is_some() || self.nodes.is_some()
    }
}

/// [`limits_from_go`] for a `go` read `waited` ago, before its search
/// could start (plyd still loading at start-up, or mapping a table just
/// set): planned on what the clock holds now, its limits still counted
/// from when the line was read. Planned on the clock as sent, a `go` that
/// waited past its hard limit was answered with the first legal move,
/// unsearched, whatever the clock still held (NBoard's first `go`, sent
/// with no way to wait for the loading: 0.5 s on the clock, 0.09 s used).
pub fn limits_from_go_after(
    go: &GoParams,
    side: u32,
    move_overhead: Duration,
    plies_left: Option<u32>,
    waited: Duration,
) -> SearchLimits {
    let ms = waited.as_millis().min(i64::MAX as u128) as i64;
    if ms == 0 {
        return limits_from_go(go, side, move_overhead, plies_left);
    }
    let now = GoParams {
        wtime: go.wtime.map(|t| t.saturating_sub(ms)),
        btime: go.btime.map(|t| t.saturating_sub(ms)),
        movetime: go.movetime.map(|t| t.saturating_sub(ms as u64)),
        ..go.clone()
    };
    let mut limits = limits_from_go(&now, side, move_overhead, plies_left);
    if let Some(budget) = &mut limits.clock {
        budget.soft += waited;
        budget.hard += waited;
    }
    if let Some(movetime) = &mut limits.movetime {
        *movetime += waited;
    }
    if let Some(answer_by) = &mut limits.answer_by {
        *answer_by += waited;
    }
    limits.waited = waited;
    limits
}

/// Time budget for one move from the `go` parameters, for the player
/// `side` (0: the first player, whose clock is `wtime`; 1: `btime`).
/// `plies_left`: at most how many plies the game has left, where the
/// plugin's solver answers its end; without a `movestogo`, the clock is
/// then planned for [`endgame_moves_to_go`] moves, not the default.
pub fn limits_from_go(
    go: &GoParams,
    side: u32,
    move_overhead: Duration,
    plies_left: Option<u32>,
) -> SearchLimits {
    let mut limits = SearchLimits {
        depth: go.depth,
        nodes: go.nodes,
        mate: go.mate,
        infinite: go.infinite,
        ..SearchLimits::default()
    };
    if let Some(mate) = go.mate {
        // A win in `mate` moves lies at most 2 * mate plies deep: 2 * mate
        // - 1 where turns alternate, and the last ply more where a side
        // may move twice (a turn of two stones, a capture that keeps the
        // turn): `go mate 1` stopped at one ply there, its mate unseen.
        let plies = mate.saturating_mul(2).max(1);
        limits.depth = Some(limits.depth.map_or(plies, |d| d.min(plies)));
    }
    // `infinite` searches until `stop`, whatever else the `go` says.
    if go.infinite {
        return limits;
    }
    let clock = clock_limits(go, side, move_overhead, plies_left);
    if let Some(movetime) = go.movetime {
        let movetime = Duration::from_millis(movetime);
        let budget = movetime.saturating_sub(move_overhead);
        let mut hard = budget.max(Duration::from_millis(1));
        // Within the move's time where it leaves room: half of what the
        // hard limit leaves of it at most (`movetime 5`, shorter than the
        // overhead, was answered after 6 ms and more).
        let spare = movetime.saturating_sub(hard) / 2;
        let mut answer_by = hard + watchdog_grace(move_overhead).min(spare).max(LEAST_GRACE);
        // A clock sent with it still holds: `go wtime 200 movetime 3000`
        // keeps to the clock's hard limit, as the lesser of the two.
        if let Some((budget, by)) = clock.filter(|(budget, _)| budget.hard < hard) {
            hard = budget.hard;
            answer_by = by;
        }
        limits.movetime = Some(hard);
        limits.answer_by = Some(answer_by);
        return limits;
    }
    if let Some((budget, answer_by)) = clock {
        limits.clock = Some(budget);
        limits.answer_by = Some(answer_by);
    }
    limits
}

/// The clock's budget for `side`'s move and when the watchdog answers
/// for it, where the `go` carries a clock.
fn clock_limits(
    go: &GoParams,
    side: u32,
    move_overhead: Duration,
    plies_left: Option<u32>,
) -> Option<(TimeBudget, Duration)> {
    let (time, inc) = go.clock(side);
    // A clock that leaves out the side to move's time (`go btime 1000`
    // with White to move, `go winc 100 binc 100`, `go movestogo 1`) is
    // read as no time left, as Stockfish reads it, not as no limit: the
    // search answers at once rather than never.
    let clock_given = go.wtime.is_some()
        || go.btime.is_some()
        || go.winc.is_some()
        || go.binc.is_some()
        || go.moves_to_go.is_some();
    let time = time.or(clock_given.then_some(0))?;
    // `movestogo 0` means nothing: taken as absent, not as 1.
    let moves_to_go = go
        .moves_to_go
        .filter(|&m| m > 0)
        .or(plies_left.map(endgame_moves_to_go));
    let budget = clock_budget(time, inc.unwrap_or(0), moves_to_go, move_overhead);
    // Half of what the hard limit leaves of the clock after the overhead
    // at most, but not less than a search that is alive takes to answer
    // after its hard limit: on a clock of a few milliseconds, or one
    // already run out (an arbiter with a margin plays on), a watchdog that
    // answered first played the first legal move, where the search's
    // answer after its first ply came a fraction of a millisecond later.
    let clock = Duration::from_millis(time.max(0) as u64);
    let spare = clock
        .saturating_sub(move_overhead)
        .saturating_sub(budget.hard)
        / 2;
    Some((
        budget,
        budget.hard + watchdog_grace(move_overhead).min(spare).max(LEAST_GRACE),
    ))
}

/// Whether `go` carries a clock that leaves out `side`'s time (`go wtime
/// 3000` with the second player to move), which [`clock_limits`] reads as
/// no time left: the daemon says so, since a GUI that takes `wtime` for
/// White's clock in a game where White moves second gets a move at once
/// and no search.
pub fn clock_leaves_out(go: &GoParams, side: u32) -> bool {
    let (own, _) = go.clock(side);
    go.movetime.is_none()
        && own.is_none()
        && (go.wtime.is_some()
            || go.btime.is_some()
            || go.winc.is_some()
            || go.binc.is_some()
            || go.moves_to_go.is_some())
}

/// The least time the watchdog waits past a clock's hard limit.
const LEAST_GRACE: Duration = Duration::from_millis(1);

/// How long after a timed search's hard limit the watchdog waits for its
/// answer: half the move overhead, between 5 and 100 ms. A search that is
/// alive stops within a millisecond or two of its hard limit.
fn watchdog_grace(move_overhead: Duration) -> Duration {
    (move_overhead / 2).clamp(Duration::from_millis(5), Duration::from_millis(100))
}

/// Shared between the controller and a running search: the stop flag and
/// the ponder state. Only the search's main thread reads the clock.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// A `go ponder`: its pondering counts as thinking on the move.
    pondered: bool,
    /// Set by a pondering search at the end of an iteration past which a
    /// timed `go` would have stopped: `ponderhit` then stops it at once.
    stop_on_ponderhit: AtomicBool,
    clock_start: Mutex<Instant>,
    started: Instant,
    /// The move the search would play now and its expected reply, as
    /// text: a legal root move from the start, then the best line's first
    /// moves as they come. The watchdog answers with it when the search
    /// cannot.
    /// And whether that move was scored by a search
    /// ([`SearchControl::note_best`]), not only listed first
    /// ([`SearchControl::note_unsearched`]).
    best_so_far: Mutex<Option<(String, Option<String>, bool)>>,
    /// The root has no move to play (a chance node: the arbiter throws
    /// the dice); the watchdog answers `bestmove (none)` at once.
    no_move: AtomicBool,
    /// Signs of life: every search thread adds one each time it looks at
    /// its limits (about every half millisecond), perft every few thousand
    /// nodes. A count that stands still while the job runs means every
    /// thread of it is inside a plugin call, or waiting on one that is.
    beats: AtomicU64,
    /// The job's threads, to demote should it be given up.
    threads: ThreadRoll,
    /// When the search handed over its `bestmove`, for the note on a late
    /// answer.
    answered: Mutex<Option<Instant>>,
    /// Per search thread (by its index): whether it is inside a call of
    /// the evaluator, so that a job stuck in a call is blamed on the
    /// library it is stuck in.
    evaluating: Box<[EvaluatingFlag]>,
}

/// One search thread's flag ([`SearchControl::evaluator_flag`]), on a
/// cache line of its own: each thread writes its own at every evaluation.
#[derive(Debug, Default)]
#[repr(align(64))]
pub struct EvaluatingFlag(AtomicBool);

impl EvaluatingFlag {
    /// Run `call`, a call of the evaluator, with the flag up.
    #[inline(always)]
    pub fn during<T>(&self, call: impl FnOnce() -> T) -> T {
        self.0.store(true, Ordering::Relaxed);
        let result = call();
        self.0.store(false, Ordering::Relaxed);
        result
    }

    /// Run `call` with `flag` up, if there is one (a search keeps none for
    /// an evaluator built into the game plugin: a call stuck in it is the
    /// game plugin's either way).
    #[inline(always)]
    pub fn around<T>(flag: Option<&Self>, call: impl FnOnce() -> T) -> T {
        match flag {
            Some(flag) => flag.during(call),
            None => call(),
        }
    }
}

/// Search threads that have a flag: more are searched (`Threads` goes to
/// 256) but not watched for where they are stuck.
const FLAGGED_THREADS: usize = 256;

impl SearchControl {
    /// Put the calling thread on the job's roll while the guard lives:
    /// every thread of a job does, so that a job given up can be demoted.
    pub fn enter_roll(&self) -> OnRoll<'_> {
        self.threads.enter()
    }

    /// The kernel ids of the job's threads still running.
    pub fn thread_ids(&self) -> Vec<i32> {
        self.threads.ids()
    }

    /// Demote the job's threads still running (see [`crate::threads`]);
    /// how many.
    pub fn demote_threads(&self) -> usize {
        self.threads.demote_all()
    }

    /// How long the job's threads, those that have ended included, have waited
    /// in all for a core (see [`ThreadRoll::waited_for_a_core`]).
    pub fn threads_waited(&self) -> Option<Duration> {
        self.threads.waited_for_a_core()
    }

    /// A control for a search starting now; `ponder` for `go ponder`.
    pub fn new(ponder: bool) -> Self {
        Self::starting_at(ponder, Instant::now())
    }

    /// A control for a search whose clock started at `start` (when its
    /// `go` was read, which may be a little before the search starts);
    /// `ponder` for `go ponder`.
    pub fn starting_at(ponder: bool, start: Instant) -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            pondered: ponder,
            stop_on_ponderhit: AtomicBool::new(false),
            clock_start: Mutex::new(start),
            started: start,
            best_so_far: Mutex::new(None),
            no_move: AtomicBool::new(false),
            beats: AtomicU64::new(0),
            threads: ThreadRoll::default(),
            answered: Mutex::new(None),
            evaluating: (0..FLAGGED_THREADS)
                .map(|_| EvaluatingFlag::default())
                .collect(),
        }
    }

    /// The flag search thread `thread` raises around its calls of
    /// `evaluator` (an index past the flagged ones shares the last flag):
    /// none for an evaluator built into the game plugin, whose calls are
    /// the game plugin's either way.
    pub fn evaluator_flag(
        &self,
        thread: usize,
        evaluator: &crate::host::Evaluator,
    ) -> Option<&EvaluatingFlag> {
        evaluator
            .source()
            .is_external()
            .then(|| &self.evaluating[thread.min(FLAGGED_THREADS - 1)])
    }

    /// Whether some search thread is inside a call of the evaluator now.
    pub fn in_evaluator(&self) -> bool {
        self.evaluating.iter().any(|f| f.0.load(Ordering::Relaxed))
    }

    /// Note that the search hands over its `bestmove` now.
    pub fn note_answer(&self) {
        *self.answered.lock() = Some(Instant::now());
    }

    /// When the search handed over its `bestmove`
    /// ([`SearchControl::note_answer`]).
    pub fn answered_at(&self) -> Option<Instant> {
        *self.answered.lock()
    }

    /// Note that a thread of the job is making progress.
    #[inline]
    pub fn beat(&self) {
        self.beats.fetch_add(1, Ordering::Relaxed);
    }

    /// How many times [`SearchControl::beat`] was called.
    pub fn beats(&self) -> u64 {
        self.beats.load(Ordering::Relaxed)
    }

    /// Record the move to play should the search be unable to answer.
    pub fn note_best(&self, best: String, ponder: Option<String>) {
        *self.best_so_far.lock() = Some((best, ponder, true));
    }

    /// Record a move to answer with that no search has scored yet (the
    /// first legal one, the first in the search's order), should the
    /// watchdog have to answer before one is.
    pub fn note_unsearched(&self, best: String) {
        *self.best_so_far.lock() = Some((best, None, false));
    }

    /// Whether the move [`SearchControl::best_so_far`] gives was scored by
    /// a search.
    pub fn best_was_searched(&self) -> bool {
        self.best_so_far
            .lock()
            .as_ref()
            .is_some_and(|(_, _, searched)| *searched)
    }

    /// The move last recorded with [`SearchControl::note_best`].
    pub fn best_so_far(&self) -> Option<(String, Option<String>)> {
        self.best_so_far
            .lock()
            .as_ref()
            .map(|(best, ponder, _)| (best.clone(), ponder.clone()))
    }

    /// Record that the root has no move for the player to play (a chance
    /// node), so that an answer for the search is `bestmove (none)`.
    pub fn note_no_move(&self) {
        self.no_move.store(true, Ordering::Relaxed);
    }

    /// Whether an answer for the search is known: a move noted, or none to
    /// play.
    pub fn answer_known(&self) -> bool {
        self.no_move.load(Ordering::Relaxed) || self.best_so_far.lock().is_some()
    }

    /// When the clock started (the `go`, or the `ponderhit`).
    pub fn clock_started(&self) -> Instant {
        *self.clock_start.lock()
    }

    /// Ask the search to finish as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Whether a stop was asked for.
    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: the ponder search becomes a
    /// timed search whose clock starts now.
    pub fn ponderhit(&self) {
        self.ponderhit_at(Instant::now());
    }

    /// [`SearchControl::ponderhit`] with the clock started at `start`
    /// (when the `ponderhit` was read). Nothing where the search is not
    /// pondering (a timed `go`, or a ponder search already hit): a stray
    /// or second `ponderhit` would start its clock again, and a `go
    /// movetime 500` hit at 400 ms answered at 900.
    pub fn ponderhit_at(&self, start: Instant) {
        if !self.pondering() {
            return;
        }
        *self.clock_start.lock() = start;
        self.pondering.store(false, Ordering::Release);
        // A root with no move of the player's (a chance node: the answer
        // is `bestmove (none)` whatever is found) answers at once too.
        if self.stop_on_ponderhit.load(Ordering::Acquire) || self.no_move.load(Ordering::Relaxed) {
            self.stop();
        }
    }

    /// Note, in a pondering search, that a timed search would stop here:
    /// `ponderhit` then stops it at once (Stockfish's rule: the time spent
    /// pondering counts as thinking on the move). Whether the ponder hit
    /// has come meanwhile, in which case the caller stops.
    pub fn stop_on_ponderhit(&self) -> bool {
        self.stop_on_ponderhit.store(true, Ordering::Release);
        !self.pondering()
    }

    /// Whether the search is still pondering (no time limits apply).
    #[inline]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Time since the search started (the `go`), for `info time`.
    pub fn search_elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Time spent thinking on the move, which the soft limit bounds: since
    /// the `go` for a search that pondered (its pondering was thinking on
    /// the move the opponent then played), else the clock's time. The hard
    /// limit bounds the clock's time alone.
    pub fn thinking_elapsed(&self) -> Duration {
        if self.pondered {
            self.started.elapsed()
        } else {
            self.clock_elapsed()
        }
    }

    /// Time since the clock started (the `go`, or the `ponderhit`).
    pub fn clock_elapsed(&self) -> Duration {
        self.clock_start.lock().elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watchdogs_move_is_known_as_searched_or_not() {
        let control = SearchControl::new(false);
        assert!(!control.answer_known());
        control.note_unsearched("a1".to_string());
        assert!(control.answer_known() && !control.best_was_searched());
        control.note_best("b2".to_string(), Some("c3".to_string()));
        assert!(control.best_was_searched());
        assert_eq!(
            control.best_so_far(),
            Some(("b2".to_string(), Some("c3".to_string())))
        );
        control.note_unsearched("d4".to_string());
        assert!(!control.best_was_searched());
    }
    use crate::search::timeman::LEAST_USABLE_US;

    /// A ponder search that reached where a timed search would stop is
    /// stopped by the ponder hit; one that had not goes on; and its
    /// pondering counts as thinking on the move, the clock's time not.
    #[test]
    fn a_ponder_hit_stops_a_search_that_thought_long_enough() {
        let start = Instant::now() - Duration::from_millis(500);
        let control = SearchControl::starting_at(true, start);
        assert!(control.thinking_elapsed() >= Duration::from_millis(500));
        assert!(!control.stop_on_ponderhit(), "still pondering");
        assert!(!control.stop_requested());
        control.ponderhit();
        assert!(control.stop_requested());
        assert!(control.thinking_elapsed() >= Duration::from_millis(500));
        assert!(control.clock_elapsed() < Duration::from_millis(500));

        let control = SearchControl::starting_at(true, start);
        control.ponderhit();
        assert!(!control.stop_requested());
        // The hit already in: the search stops itself.
        assert!(control.stop_on_ponderhit());

        let chance = SearchControl::starting_at(true, start);
        chance.note_no_move();
        chance.ponderhit();
        assert!(chance.stop_requested(), "a chance root answers at the hit");

        let timed = SearchControl::starting_at(false, start);
        assert_eq!(
            timed.thinking_elapsed().as_millis() / 100,
            timed.clock_elapsed().as_millis() / 100
        );
    }

    /// A `ponderhit` for a search that is not pondering (a timed `go`, a
    /// ponder search hit once already) leaves its clock and its stop as
    /// they were.
    #[test]
    fn a_stray_ponder_hit_changes_nothing() {
        let start = Instant::now() - Duration::from_millis(500);
        let timed = SearchControl::starting_at(false, start);
        timed.ponderhit();
        assert_eq!(timed.clock_started(), start);
        assert!(timed.clock_elapsed() >= Duration::from_millis(500));

        let hit = SearchControl::starting_at(true, start);
        let first = start + Duration::from_millis(200);
        hit.ponderhit_at(first);
        assert_eq!(hit.clock_started(), first);
        hit.ponderhit_at(first + Duration::from_millis(200));
        assert_eq!(
            hit.clock_started(),
            first,
            "a second hit restarted the clock"
        );

        let chance = SearchControl::starting_at(false, start);
        chance.note_no_move();
        chance.ponderhit();
        assert!(!chance.stop_requested());
    }

    #[test]
    fn infinite_ignores_every_time_limit() {
        let go = GoParams {
            infinite: true,
            movetime: Some(200),
            wtime: Some(5000),
            btime: Some(5000),
            ..GoParams::default()
        };
        let l = limits_from_go(&go, 0, Duration::from_millis(10), None);
        assert!(l.infinite);
        assert_eq!(l.hard_time(), None);
        assert_eq!(l.answer_by, None);
    }

    #[test]
    fn a_clock_without_the_movers_time_is_none_left() {
        let ms = Duration::from_millis;
        for go in [
            GoParams {
                btime: Some(1000),
                ..GoParams::default()
            },
            GoParams {
                winc: Some(100),
                binc: Some(100),
                ..GoParams::default()
            },
            GoParams {
                moves_to_go: Some(1),
                ..GoParams::default()
            },
        ] {
            let l = limits_from_go(&go, 0, ms(10), None);
            let hard = l.hard_time().unwrap_or_else(|| panic!("{go:?}: no limit"));
            assert!(hard <= ms(100), "{go:?}: {hard:?}");
        }
        // No clock at all: no limit (`go` alone searches until `stop`).
        assert_eq!(
            limits_from_go(&GoParams::default(), 0, ms(10), None).hard_time(),
            None
        );
    }

    #[test]
    fn movestogo_zero_is_taken_as_absent() {
        let clock = |moves_to_go| GoParams {
            wtime: Some(2000),
            btime: Some(2000),
            moves_to_go,
            ..GoParams::default()
        };
        let ms = Duration::from_millis(10);
        assert_eq!(
            limits_from_go(&clock(Some(0)), 0, ms, None).hard_time(),
            limits_from_go(&clock(None), 0, ms, None).hard_time()
        );
        assert_ne!(
            limits_from_go(&clock(Some(1)), 0, ms, None).hard_time(),
            limits_from_go(&clock(None), 0, ms, None).hard_time()
        );
    }

    #[test]
    fn movetime_subtracts_overhead() {
        let go = GoParams {
            movetime: Some(1000),
            ..GoParams::default()
        };
        let l = limits_from_go(&go, 0, Duration::from_millis(30), None);
        assert_eq!(l.hard_time(), Some(Duration::from_millis(970)));
        assert!(l.clock.is_none());
    }

    #[test]
    fn movetime_keeps_to_a_clock_sent_with_it() {
        let overhead = Duration::from_millis(10);
        // 200 ms on the clock, 3 s asked: the clock's hard limit holds.
        let go = GoParams {
            wtime: Some(200),
            btime: Some(200),
            movetime: Some(3000),
            ..GoParams::default()
        };
        let l = limits_from_go(&go, 0, overhead, None);
        let clock = GoParams {
            movetime: None,
            ..go.clone()
        };
        let by_clock = limits_from_go(&clock, 0, overhead, None);
        assert_eq!(l.hard_time(), by_clock.hard_time());
        assert!(l.hard_time().unwrap() < Duration::from_millis(200));
        assert!(l.answer_by.unwrap() < Duration::from_millis(200));
        // A movetime shorter than the clock's limit is kept whole.
        let go = GoParams {
            wtime: Some(60_000),
            movetime: Some(100),
            ..GoParams::default()
        };
        let l = limits_from_go(&go, 0, overhead, None);
        assert_eq!(l.hard_time(), Some(Duration::from_millis(90)));
    }

    #[test]
    fn clock_uses_own_side_and_stays_within_time() {
        let go = GoParams {
            wtime: Some(60_000),
            btime: Some(1_000),
            winc: Some(0),
            binc: Some(0),
            ..GoParams::default()
        };
        let white = limits_from_go(&go, 0, Duration::from_millis(10), None);
        let black = limits_from_go(&go, 1, Duration::from_millis(10), None);
        assert!(white.clock.unwrap().soft > black.clock.unwrap().soft);
        assert!(black.hard_time().unwrap() < Duration::from_millis(1_000));
        assert!(white.hard_time().unwrap() < Duration::from_millis(60_000));
    }

    #[test]
    fn negative_clock_still_gives_a_tiny_budget() {
        let go = GoParams {
            wtime: Some(-50),
            ..GoParams::default()
        };
        let l = limits_from_go(&go, 0, Duration::from_millis(10), None);
        assert_eq!(
            l.hard_time(),
            Some(Duration::from_micros(LEAST_USABLE_US * 3 / 4))
        );
    }

    #[test]
    fn the_watchdog_waits_a_millisecond_at_least_and_not_past_a_clock_that_allows_it() {
        let ms = Duration::from_millis;
        let go = GoParams {
            movetime: Some(1000),
            ..GoParams::default()
        };
        let l = limits_from_go(&go, 0, ms(30), None);
        assert_eq!(l.answer_by, Some(ms(985)));
        for time in [-5i64, 0, 1, 4, 10, 50, 200, 1_000, 60_000] {
            for overhead in [0, 10, 100, 1000] {
                let go = GoParams {
                    wtime: Some(time),
                    winc: Some(10),
                    ..GoParams::default()
                };
                let l = limits_from_go(&go, 0, ms(overhead), None);
                let answer = l.answer_by.unwrap();
                let hard = l.hard_time().unwrap();
                assert!(answer >= hard + LEAST_GRACE, "{time} {overhead}");
                // Past what the overhead leaves of the clock only by the
                // least grace, and past the clock only where it is shorter
                // than its hard limit and that grace.
                let usable = ms((time.max(0) as u64).saturating_sub(overhead));
                assert!(
                    answer <= usable.max(hard + LEAST_GRACE),
                    "{time} {overhead}: {answer:?}"
                );
                if time >= 4 {
                    assert!(answer <= ms(time as u64), "{time} {overhead}: {answer:?}");
                }
            }
        }
        assert_eq!(
            limits_from_go(&GoParams::default(), 0, ms(10), None).answer_by,
            None
        );
        // A `movetime` shorter than the overhead with its grace is
        // answered within it (`movetime 5` was answered at 6 ms).
        for movetime in 3..=200u64 {
            for overhead in [0, 10, 100] {
                let go = GoParams {
                    movetime: Some(movetime),
                    ..GoParams::default()
                };
                let l = limits_from_go(&go, 0, ms(overhead), None);
                let (answer, hard) = (l.answer_by.unwrap(), l.hard_time().unwrap());
                assert!(
                    answer <= ms(movetime).max(hard + LEAST_GRACE),
                    "{movetime} {overhead}: {answer:?}"
                );
                assert!(answer >= hard + LEAST_GRACE);
            }
        }
    }

    #[test]
    fn a_game_the_solver_ends_plans_the_clock_for_the_moves_before_it() {
        let ms = Duration::from_millis;
        let go = GoParams {
            wtime: Some(30_000),
            btime: Some(30_000),
            ..GoParams::default()
        };
        let soft = |go: &GoParams, plies_left| {
            limits_from_go(go, 0, ms(10), plies_left)
                .clock
                .unwrap()
                .soft
        };
        // 56 plies left: 28 moves, the last 12 aside: 16 to go, where the
        // default plans for 30.
        assert_eq!(endgame_moves_to_go(56), 16);
        assert!(soft(&go, Some(56)) > soft(&go, None) * 18 / 10);
        // Near the end it keeps planning for a few moves, and never for
        // more than the default.
        assert_eq!(endgame_moves_to_go(24), 4);
        assert_eq!(endgame_moves_to_go(0), 4);
        assert_eq!(endgame_moves_to_go(200), 30);
        // A move there may take no more than 3/2 of its quarter.
        let late = limits_from_go(&go, 0, ms(10), Some(10)).clock.unwrap();
        assert!(late.hard <= ms(30_000) * 3 / 8, "{late:?}");
        assert!(late.soft <= ms(30_000) / 4, "{late:?}");
        // The GUI's movestogo wins.
        let told = GoParams {
            moves_to_go: Some(40),
            ..go.clone()
        };
        assert_eq!(soft(&told, Some(56)), soft(&told, None));
    }

    #[test]
    fn a_go_that_waited_is_planned_on_what_its_clock_holds_now() {
        let ms = Duration::from_millis;
        let go = GoParams {
            wtime: Some(500),
            btime: Some(500),
            ..GoParams::default()
        };
        // As sent: a hard limit of a few tens of milliseconds, which 90 ms
        // of loading had passed.
        let sent = limits_from_go(&go, 1, ms(10), None);
        let sent_hard = sent.hard_time().unwrap();
        assert!(sent_hard < ms(90), "{sent_hard:?}");
        let waited = limits_from_go_after(&go, 1, ms(10), None, ms(90));
        let hard = waited.hard_time().unwrap();
        assert!(hard > ms(90) && hard < ms(500 - 10), "{hard:?}");
        // The plan on the clock less the wait, counted from the read.
        let less = GoParams {
            btime: Some(410),
            ..go.clone()
        };
        let now = limits_from_go(&less, 1, ms(10), None);
        assert_eq!(hard, now.hard_time().unwrap() + ms(90));
        assert_eq!(waited.answer_by, now.answer_by.map(|a| a + ms(90)));
        assert_eq!(waited.waited, ms(90));
        // No wait, no change; a movetime is the time left of it.
        let again = limits_from_go_after(&go, 1, ms(10), None, Duration::ZERO);
        assert_eq!((again.clock, again.answer_by), (sent.clock, sent.answer_by));
        let movetime = GoParams {
            movetime: Some(300),
            ..GoParams::default()
        };
        let waited = limits_from_go_after(&movetime, 0, ms(10), None, ms(100));
        assert_eq!(waited.hard_time(), Some(ms(290)));
        // Never past what the clock leaves after the overhead, however long
        // the wait.
        for wait in [1, 10, 100, 400, 490, 499, 600] {
            let l = limits_from_go_after(&go, 0, ms(10), None, ms(wait));
            let hard = l.hard_time().unwrap();
            assert!(hard <= ms(490).max(ms(wait) + ms(1)), "{wait}: {hard:?}");
        }
    }

    #[test]
    fn mate_limits_depth() {
        let go = GoParams {
            mate: Some(3),
            ..GoParams::default()
        };
        assert_eq!(limits_from_go(&go, 0, Duration::ZERO, None).depth, Some(6));
    }
}
