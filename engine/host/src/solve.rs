//! The plugin's exact endgame solver, seen from the host: whether a state
//! can be solved, and a call of `solve` that lends the plugin the host's
//! table and stop signal through C callbacks.
//!
//! The callbacks are `extern "C"` functions that reach a `&mut dyn
//! SolveTable` through the request's `host` pointer. They run host code
//! inside a plugin call, so each one catches a panic of that code (an
//! unwind must not cross the plugin's C frames) and answers as if nothing
//! were stored and the search were to stop.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use plyd_api::abi::{self, SolveEntry, SolveRequest, SolveResult, State};
use plyd_api::Move;

use crate::error::PluginError;
use crate::game::GameState;

/// The two entries of a plugin with a solver.
#[derive(Clone, Copy)]
pub(crate) struct SolverEntries {
    pub endgame_size: unsafe extern "C" fn(*const State, *mut u32) -> i32,
    pub solve: unsafe extern "C" fn(*mut State, *const SolveRequest, *mut SolveResult) -> i32,
    pub solve_window: Option<
        unsafe extern "C" fn(*mut State, *const SolveRequest, i32, i32, *mut SolveResult) -> i32,
    >,
}

/// What the host lends a solve: a table and a stop signal.
pub trait SolveTable {
    /// The entry for the solver's `key`, if any.
    fn probe(&mut self, key: u64) -> Option<SolveEntry>;
    /// Store `entry` for `key`.
    fn store(&mut self, key: u64, entry: &SolveEntry);
    /// The solver has searched `nodes` so far; `true` stops it.
    fn poll(&mut self, nodes: u64) -> bool;
}

/// What a solve found (see [`SolveResult`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved {
    /// Score for the side to move, in the game's final-score units.
    pub score: i32,
    /// The best move; `None` when the game is over.
    pub best: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
    /// Whether the solve ended (else it was stopped and only `best` means
    /// anything).
    pub complete: bool,
    /// Whether only the sign of `score` is exact (win, loss or draw).
    pub win_loss_draw: bool,
}

/// The request's `host` pointer: the table behind a thin pointer.
type HostPtr<'t> = &'t mut dyn SolveTable;

/// # Safety
/// `host` is the `HostPtr` of a live request and `out` is writable.
unsafe extern "C" fn probe_callback(host: *mut c_void, key: u64, out: *mut SolveEntry) -> i32 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `host` points to the `HostPtr` that `GameState::solve`
        // keeps alive, and unborrowed, for the whole call.
        let table = unsafe { &mut *host.cast::<HostPtr<'_>>() };
        match table.probe(key) {
            Some(entry) if !out.is_null() => {
                // SAFETY: the plugin passes a writable entry.
                unsafe { *out = entry };
                1
            }
            _ => 0,
        }
    }))
    .unwrap_or(0)
}

/// # Safety
/// As [`probe_callback`]; `entry` is readable.
unsafe extern "C" fn store_callback(host: *mut c_void, key: u64, entry: *const SolveEntry) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if entry.is_null() {
            return;
        }
        // SAFETY: as in `probe_callback`.
        let table = unsafe { &mut *host.cast::<HostPtr<'_>>() };
        // SAFETY: the plugin passes a readable entry.
        table.store(key, unsafe { &*entry });
    }));
}

/// # Safety
/// As [`probe_callback`].
unsafe extern "C" fn poll_callback(host: *mut c_void, nodes: u64) -> i32 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `probe_callback`.
        let table = unsafe { &mut *host.cast::<HostPtr<'_>>() };
        i32::from(table.poll(nodes))
    }))
    .unwrap_or(1)
}

impl GameState {
    /// Whether the plugin has an exact solver.
    pub fn has_solver(&self) -> bool {
        self.plugin.vtable.solver.is_some()
    }

    /// The size of the endgame left for the solver and whether the plugin's
    /// settings ask for solving here whatever the depth; `None` without a
    /// solver or where the plugin cannot solve this state.
    pub fn endgame_size(&self) -> Result<Option<(u32, bool)>, PluginError> {
        let Some(entries) = self.plugin.vtable.solver else {
            return Ok(None);
        };
        self.plugin.health.check_enabled()?;
        let mut auto = 0u32;
        // SAFETY: live state; `auto` is writable.
        let size = unsafe { (entries.endgame_size)(self.ptr.as_ptr(), &mut auto) };
        match size {
            size if size >= 0 => match auto {
                0 | 1 => Ok(Some((size as u32, auto == 1))),
                other => Err(self
                    .plugin
                    .health
                    .garbage("endgame_size", format!("auto_solve {other}"))),
            },
            abi::STATUS_UNSUPPORTED => Ok(None),
            abi::STATUS_PANIC => Err(self.plugin.health.panicked("endgame_size")),
            other => Err(self
                .plugin
                .health
                .garbage("endgame_size", format!("answer {other}"))),
        }
    }

    /// Whether the plugin's solver takes a window (`solve_window`).
    pub fn solves_in_window(&self) -> bool {
        self.plugin
            .vtable
            .solver
            .is_some_and(|entries| entries.solve_window.is_some())
    }

    /// Solve this state with the plugin's solver, lending it `table`.
    /// `thread` is the search thread (0: the main one). `None` where the
    /// plugin has no solver or refuses the state. With a `window` (`alpha
    /// < beta`), where the plugin solves within one (`solve_window`), a
    /// score at or below `alpha` is an upper bound and one at or above
    /// `beta` a lower bound; a plugin without it solves exactly.
    pub fn solve(
        &mut self,
        thread: u32,
        table: &mut dyn SolveTable,
        window: Option<(i32, i32)>,
    ) -> Result<Option<Solved>, PluginError> {
        let Some(entries) = self.plugin.vtable.solver else {
            return Ok(None);
        };
        self.plugin.health.check_enabled()?;
        let mut host: HostPtr<'_> = table;
        let request = SolveRequest {
            thread,
            host: (&mut host as *mut HostPtr<'_>).cast::<c_void>(),
            probe: Some(probe_callback),
            store: Some(store_callback),
            poll: Some(poll_callback),
        };
        let mut result = SolveResult::default();
        let mut entry = "solve";
        let mut status = abi::STATUS_UNSUPPORTED;
        if let (Some(solve_window), Some((alpha, beta))) = (entries.solve_window, window) {
            entry = "solve_window";
            // SAFETY: as below.
            status = unsafe { solve_window(self.ptr.as_ptr(), &request, alpha, beta, &mut result) };
        }
        if status == abi::STATUS_UNSUPPORTED {
            entry = "solve";
            // SAFETY: live state, used by this thread only; `request` and
            // the table behind it outlive the call; `result` is writable.
            status = unsafe { (entries.solve)(self.ptr.as_ptr(), &request, &mut result) };
        }
        match status {
            abi::STATUS_OK => {}
            abi::STATUS_UNSUPPORTED => return Ok(None),
            other => {
                self.plugin.health.status(entry, other)?;
            }
        }
        if result.complete > 1 || result.exactness > abi::SOLVE_WIN_LOSS_DRAW {
            return Err(self.plugin.health.garbage(
                entry,
                format!(
                    "complete {} exactness {}",
                    result.complete, result.exactness
                ),
            ));
        }
        let best = if self.outcome()? == crate::Outcome::Ongoing {
            Some(result.best)
        } else {
            None
        };
        Ok(Some(Solved {
            score: result.score,
            best,
            nodes: result.nodes,
            complete: result.complete == 1,
            win_loss_draw: result.exactness == abi::SOLVE_WIN_LOSS_DRAW,
        }))
    }
}
