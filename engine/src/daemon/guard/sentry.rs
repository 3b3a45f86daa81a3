//! The sentry over the controller's own plugin calls.
//!
//! The plugin calls on a game's clock (reading a `position`, the side to
//! move of a `go`, a GTP move) are made by the controller on its own
//! thread: handing each to a watched thread costs a wait for a core on
//! every move (see [`watchdog`](super::watchdog)). Such a call that never
//! returns would freeze the daemon, so the controller notes each one here
//! ([`Watcher::on_clock`]) and a thread of the sentry's own looks at it
//! every [`SENTRY_POLL`]. One still running after [`call_limit`] has its
//! plugin disabled (unless its thread spent half that time or more
//! waiting for a core, [`Patience`]: the count then starts again), and the
//! daemon goes on without the stuck thread:
//!
//! * before each line, the controller leaves here what a fresh controller
//!   needs to carry on from where that line started (a [`Checkpoint`]:
//!   plugins, settings, table, dialect; everything but the position, which
//!   belonged to the stuck plugin);
//! * the sentry mutes the stuck controller's output (a controller writes
//!   only while its generation is the current one), demotes its thread
//!   (see [`crate::threads`]), starts a fresh
//!   controller from the checkpoint, which answers a search the stuck one
//!   left running, handles the stuck line again (its plugin now refuses at
//!   once, so the line gets its error, and a `go` its `bestmove`, in the
//!   dialect's own form), and reads the next lines;
//! * should the stuck call ever return, its controller sees it was
//!   replaced and ends without reading another line.
//!
//! A process that must also serve this thread's plugin later reloads it
//! with `setoption name PluginPath`, as after any other failure.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;

use super::watchdog::{blame_text, call_limit, Blame, Patience, STARVED_STRETCH};
use crate::daemon::input::Input;
use crate::daemon::{control, Daemon, Resumable, CONTROLLER_STACK};
use crate::host::GamePlugin;
use crate::threads;

/// How often the sentry looks at the controller's call in progress.
pub const SENTRY_POLL: Duration = Duration::from_millis(250);

/// What the sentry and every generation of controller share.
pub struct Sentry {
    /// Standard output and the generation allowed to write to it.
    gate: Mutex<Gate>,
    /// The controller's plugin call in progress.
    call: Mutex<Option<OnClock>>,
    /// The state before the line the controller is handling.
    checkpoint: Mutex<Option<Checkpoint>>,
    /// The input lines, for a fresh controller.
    lines: Receiver<Input>,
    /// Told when a controller ends the daemon (`quit`, end of input).
    done: Sender<()>,
}

struct Gate {
    generation: u64,
    stdout: Box<dyn Write + Send>,
}

/// A plugin call the controller is making on its own thread.
struct OnClock {
    since: Instant,
    what: &'static str,
    plugin: Arc<GamePlugin>,
    generation: u64,
    /// The controller thread making it (its kernel id).
    thread: Option<i32>,
    /// The call's time, less the thread's waits for a core from the
    /// sentry's first look at it on (read then, not on the controller's
    /// clock).
    patience: Option<Patience>,
}

/// What a fresh controller starts from: the line being handled and the
/// controller's state before it.
pub struct Checkpoint {
    generation: u64,
    line: String,
    state: Resumable,
}

impl Sentry {
    /// A sentry over controllers reading `lines`; `done` hears when the
    /// daemon ends.
    pub fn new(lines: Receiver<Input>, done: Sender<()>) -> Arc<Self> {
        Arc::new(Sentry {
            gate: Mutex::new(Gate {
                generation: 0,
                stdout: crate::daemon::protocol_out(),
            }),
            call: Mutex::new(None),
            checkpoint: Mutex::new(None),
            lines,
            done,
        })
    }

    /// The first controller's handle.
    pub fn first(self: &Arc<Self>) -> Watcher {
        Watcher {
            sentry: Arc::clone(self),
            generation: 0,
        }
    }

    /// Look at the call in progress every [`SENTRY_POLL`], for ever.
    pub fn keep_watch(self: Arc<Self>) {
        loop {
            std::thread::sleep(SENTRY_POLL);
            self.look();
        }
    }

    /// Take over from a controller stuck in a call for [`call_limit`].
    fn look(self: &Arc<Self>) {
        // The call's record is taken and the generation moved on under the
        // call's lock, where the controller clears its record when the call
        // returns: either the call returned in time, or its controller was
        // replaced, never both.
        let mut call = self.call.lock();
        let current = self.gate.lock().generation;
        let Some(on_clock) = call.as_mut().filter(|c| c.generation == current) else {
            return;
        };
        let now = Instant::now();
        // The controller's waits are read only where they are needed: at
        // the first look at a call (the count's start) and once its limit
        // has run out.
        let thread = on_clock.thread;
        let waited = || thread.and_then(threads::waited_for_a_core);
        let since = on_clock.since;
        let patience = on_clock
            .patience
            .get_or_insert_with(|| Patience::new(waited(), since));
        if now.saturating_duration_since(patience.began()) < call_limit() {
            return;
        }
        if patience.starved(waited(), now, STARVED_STRETCH * call_limit()) {
            log::warn!(
                "the controller waited for a core for most of a plugin call ({}): \
                 taken for a busy machine, not yet for a stuck plugin; the call's count starts again",
                on_clock.what
            );
            return;
        }
        let mut saved = self.checkpoint.lock();
        if saved.as_ref().is_none_or(|c| c.generation != current) {
            // Nothing to carry on from (a call outside any line).
            return;
        }
        let (Some(stuck), Some(checkpoint)) = (call.take(), saved.take()) else {
            return;
        };
        let generation = {
            let mut gate = self.gate.lock();
            gate.generation += 1;
            gate.generation
        };
        drop(saved);
        // Under the call's lock the stuck thread cannot end, so its id is
        // still its own.
        if let Some(thread) = stuck.thread {
            threads::demote(thread);
        }
        drop(call);
        let blame = [Blame::Game(Arc::clone(&stuck.plugin))];
        for plugin in &blame {
            plugin.disable();
        }
        let why = format!(
            "{} did not return from a call: {} was given up after {} s; \
             the plugin is disabled until it is loaded again (setoption name PluginPath)",
            blame_text(&blame.iter().collect::<Vec<_>>()),
            stuck.what,
            call_limit().as_secs_f64()
        );
        log::error!("{why}; a fresh controller takes over");
        let watcher = Watcher {
            sentry: Arc::clone(self),
            generation,
        };
        let spawned = std::thread::Builder::new()
            .name("plyd-controller".into())
            .stack_size(CONTROLLER_STACK)
            .spawn(move || {
                let Checkpoint { line, state, .. } = checkpoint;
                let lines = watcher.sentry.lines.clone();
                let daemon = Daemon::resume(state, why, watcher);
                control(daemon, Some(&line), lines);
            });
        if let Err(e) = spawned {
            log::error!("cannot start a fresh controller: {e}");
        }
    }
}

/// A controller's handle on the sentry.
#[derive(Clone)]
pub struct Watcher {
    sentry: Arc<Sentry>,
    generation: u64,
}

impl Watcher {
    /// Make `call` into `plugin` on this thread, noted for the sentry;
    /// `what` names the work in messages (`reading the position`). An error
    /// if this controller was replaced while the call ran: its result
    /// belongs to nobody.
    pub fn on_clock<T>(
        &self,
        what: &'static str,
        plugin: &Arc<GamePlugin>,
        call: impl FnOnce() -> T,
    ) -> Result<T, String> {
        *self.sentry.call.lock() = Some(OnClock {
            since: Instant::now(),
            what,
            plugin: Arc::clone(plugin),
            generation: self.generation,
            thread: threads::current_id(),
            patience: None,
        });
        let value = call();
        // The sentry takes the record when it replaces this controller.
        let mut noted = self.sentry.call.lock();
        if noted
            .as_ref()
            .is_none_or(|c| c.generation != self.generation)
        {
            return Err(format!("{what}: this controller was replaced"));
        }
        *noted = None;
        Ok(value)
    }

    /// Leave the state before `line` for a fresh controller.
    pub fn checkpoint(&self, line: &str, state: Resumable) {
        *self.sentry.checkpoint.lock() = Some(Checkpoint {
            generation: self.generation,
            line: line.to_string(),
            state,
        });
    }

    /// Let go of the checkpoint's share of the table, for a change in
    /// place: a fresh controller would make a table of its own.
    pub fn release_table(&self) {
        if let Some(checkpoint) = &mut *self.sentry.checkpoint.lock() {
            checkpoint.state.tt = None;
        }
    }

    /// Whether a fresh controller took over from this one.
    pub fn replaced(&self) -> bool {
        self.sentry.gate.lock().generation != self.generation
    }

    /// Tell the daemon's owner that the daemon has ended.
    pub fn finished(&self) {
        let _ = self.sentry.done.send(());
    }

    /// This controller's standard output.
    pub fn output(&self) -> GatedOut {
        GatedOut {
            watcher: self.clone(),
            pending: Vec::new(),
        }
    }
}

/// Standard output for one generation of controller: what it writes goes
/// out at each `flush`, whole, and only while it has not been replaced.
pub struct GatedOut {
    watcher: Watcher,
    pending: Vec<u8>,
}

impl Write for GatedOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let mut gate = self.watcher.sentry.gate.lock();
        let result = if gate.generation == self.watcher.generation {
            gate.stdout
                .write_all(&self.pending)
                .and_then(|()| gate.stdout.flush())
        } else {
            Ok(())
        };
        self.pending.clear();
        if let Err(e) = &result {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                // Nobody reads the answers any more (the GUI is gone): a
                // search would go on for nothing.
                log::error!("stdout is closed at the other end ({e}): plyd exits");
                crate::logpipe::exit(1);
            }
            // Nor can anyone when they cannot be written (a full disk, a
            // file of stdout's past its limit; a non-blocking descriptor
            // that is full is waited for, see `plyd_util::output`).
            log::error!("stdout cannot be written ({e}): plyd exits");
            crate::logpipe::exit(1);
        }
        result
    }
}
