//! What bounds a search: depth, nodes, the clock, and the GUI's `stop`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use plyd_api::Move;
use plyd_protocol::GoParams;

/// Limits of one search, resolved from `go` parameters.
#[derive(Debug, Clone, Default)]
pub struct SearchLimits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop once a win in at most this many moves is found.
    pub mate: Option<u32>,
    /// Do not start an iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Abort the search after this much time.
    pub hard_time: Option<Duration>,
    /// Search until `stop` (also after the last depth).
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all).
    pub search_moves: Vec<Move>,
}

/// Time budget for one move from the `go` parameters, for the player
/// `side` (0: the first player, whose clock is `wtime`; 1: `btime`).
pub fn limits_from_go(go: &GoParams, side: u32, move_overhead: Duration) -> SearchLimits {
    let mut limits = SearchLimits {
        depth: go.depth,
        nodes: go.nodes,
        mate: go.mate,
        infinite: go.infinite,
        ..SearchLimits::default()
    };
    if let Some(mate) = go.mate {
        // A win in `mate` moves lies at most 2 * mate - 1 plies deep.
        let plies = mate.saturating_mul(2).saturating_sub(1).max(1);
        limits.depth = Some(limits.depth.map_or(plies, |d| d.min(plies)));
    }
    if let Some(movetime) = go.movetime {
        let budget = Duration::from_millis(movetime).saturating_sub(move_overhead);
        let budget = budget.max(Duration::from_millis(1));
        limits.soft_time = Some(budget);
        limits.hard_time = Some(budget);
        return limits;
    }
    let (time, inc) = if side == 0 {
        (go.wtime, go.winc)
    } else {
        (go.btime, go.binc)
    };
    if let Some(time) = time {
        let time = time.max(0) as u64;
        let inc = inc.unwrap_or(0).max(0) as u64;
        let moves_to_go = u64::from(go.moves_to_go.unwrap_or(30).clamp(1, 60));
        let overhead = move_overhead.as_millis() as u64;
        // Never plan to use more than what is left after the overhead.
        let usable = time.saturating_sub(overhead).max(1);
        let share = usable / moves_to_go + inc * 3 / 4;
        let soft = share.min(usable / 2).max(1);
        let hard = (soft * 4).min(usable * 3 / 4).max(soft);
        limits.soft_time = Some(Duration::from_millis(soft));
        limits.hard_time = Some(Duration::from_millis(hard));
    }
    limits
}

/// Shared between the controller and a running search: the stop flag and
/// the ponder state. Only the search's main thread reads the clock.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock_start: Mutex<Instant>,
}

impl SearchControl {
    /// A control for a search starting now; `ponder` for `go ponder`.
    pub fn new(ponder: bool) -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            clock_start: Mutex::new(Instant::now()),
        }
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
        *self.clock_start.lock() = Instant::now();
        self.pondering.store(false, Ordering::Release);
    }

    /// Whether the search is still pondering (no time limits apply).
    #[inline]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
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
    fn movetime_subtracts_overhead() {
        let go = GoParams {
            movetime: Some(1000),
            ..GoParams::default()
        };
        let l = limits_from_go(&go, 0, Duration::from_millis(30));
        assert_eq!(l.hard_time, Some(Duration::from_millis(970)));
        assert_eq!(l.soft_time, Some(Duration::from_millis(970)));
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
        let white = limits_from_go(&go, 0, Duration::from_millis(10));
        let black = limits_from_go(&go, 1, Duration::from_millis(10));
        assert!(white.soft_time > black.soft_time);
        assert!(black.hard_time.unwrap() < Duration::from_millis(1_000));
        assert!(white.hard_time.unwrap() < Duration::from_millis(60_000));
    }

    #[test]
    fn negative_clock_still_gives_a_tiny_budget() {
        let go = GoParams {
            wtime: Some(-50),
            ..GoParams::default()
        };
        let l = limits_from_go(&go, 0, Duration::from_millis(10));
        assert_eq!(l.hard_time, Some(Duration::from_millis(1)));
    }

    #[test]
    fn mate_limits_depth() {
        let go = GoParams {
            mate: Some(3),
            ..GoParams::default()
        };
        assert_eq!(limits_from_go(&go, 0, Duration::ZERO).depth, Some(5));
    }
}
