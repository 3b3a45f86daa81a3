//! What the controller does when a running job's deadline passes (see
//! [`watchdog`](super::watchdog) for the deadlines): a search that has not
//! answered in time is answered with its best move so far, and a job
//! still running well after that, or without a sign of life, has a thread
//! stuck in a plugin call: the plugin is disabled, the thread demoted, and
//! the daemon carries on without it.

use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::unbounded;

use super::watchdog::{self, blame_text, stuck_in, Due};
use crate::daemon::controller::worker::JobKind;
use crate::daemon::controller::Controller;
use crate::daemon::dialect::Dialect;
use crate::search::{SearchControl, TranspositionTable};

impl Controller {
    /// The running job's next deadline and what falls due then.
    pub(in crate::daemon) fn next_due(&self) -> Option<(Instant, Due)> {
        let job = self.job.as_ref()?;
        job.watch.next(&job.control)
    }

    /// Act on the running job's deadline if it has come (see [`watchdog`]).
    pub(in crate::daemon) fn watchdog(&mut self, voice: &mut dyn Dialect) {
        let Some((at, due)) = self.next_due() else {
            return;
        };
        let now = Instant::now();
        if now < at {
            return;
        }
        // Woken long after a deadline to give up or look: the daemon was
        // not running (a stopped process), nor was the job, whose grace
        // starts again. An answer that fell due meanwhile is still given.
        if due != Due::Answer {
            if let Some(job) = &mut self.job {
                if job.watch.woke_late(at, now, job.control.threads_waited()) {
                    log::info!(
                        "the daemon did not run for {} ms; the job's grace starts again",
                        now.saturating_duration_since(at).as_millis()
                    );
                    return;
                }
            }
        }
        let answer = match due {
            // A grace goes on: note the wake, so that the next one shows
            // whether the process was stopped in between.
            Due::Wait => {
                if let Some(job) = &mut self.job {
                    job.watch.grace_checked = Some(now);
                }
                return;
            }
            // A job without signs of life for too long is due its answer.
            Due::Look => {
                let stalled = self.job.as_mut().is_some_and(|job| {
                    let waited = job.control.threads_waited();
                    job.watch.look(&job.control, waited, now)
                });
                if !stalled {
                    return;
                }
                true
            }
            Due::Answer => true,
            // Threads that spent the grace waiting for a core are not
            // stuck: the grace starts again.
            Due::GiveUp => {
                if self.job.as_mut().is_some_and(|job| job.starved(now)) {
                    return;
                }
                false
            }
        };
        let is_search = self.job.as_ref().is_some_and(|j| j.kind == JobKind::Search);
        if answer && is_search {
            if let Some(job) = self.job.as_mut().filter(|j| !j.control.answer_known()) {
                // Nothing to answer with yet: wait for a first move
                // rather than play `(none)` (see `Watch::next`).
                // From now, not from when it fell due: a search that began
                // after its deadline (its `go` read behind a slow command,
                // such as a large `Hash`) has had no time to note one, and
                // a grace counted from the deadline would give it up at
                // once as stuck.
                if job.watch.due_without_move.is_none() {
                    job.watch.due_without_move = Some(now);
                    job.begin_grace(now);
                }
                return;
            }
            let stalled = self.job.as_ref().is_some_and(|j| j.watch.stalled);
            let why = if stalled {
                format!(
                    "has made no progress for {} s",
                    watchdog::stall_limit().as_secs_f64()
                )
            } else {
                "has not answered in time".to_string()
            };
            // Whether the move going out was scored, before the answer
            // (which may stop the search) is written.
            let searched = self
                .job
                .as_ref()
                .is_none_or(|job| job.control.best_was_searched());
            // A move played unsearched is a blunder the GUI (a server
            // playing people, an arbiter's log) may want to know of: told
            // on stdout too, before the answer.
            if !searched {
                voice.note(
                    self,
                    "the search had not scored a move in its time (its clock ran out before it \
                     could search, or the machine gave it no core): the move played is the \
                     first in its order, unsearched",
                );
            }
            self.answer_for_job(voice);
            let (timing, late) = self
                .job
                .as_ref()
                .and_then(|job| job.watch.watchdog_answer_note(&job.control))
                .map_or((String::new(), true), |(note, late)| {
                    (format!(" ({note})"), late)
                });
            let what = if searched {
                "its best move so far"
            } else {
                "a move no search had scored yet (the first in the search's order, or the \
                 first legal one)"
            };
            let line = format!("the search {why}; answered with {what}{timing}");
            // An answer within LATE_NOTE of its hard limit (an exhausted
            // clock's limit of a tenth of a millisecond, answered in one)
            // is as the search's own would be: not a warning.
            if stalled || late {
                log::warn!("{line}");
            } else {
                log::info!("{line}");
            }
            if let Some(job) = &mut self.job {
                // Answered: its threads have nothing left to do.
                job.control.stop();
                job.watch.overdue = true;
                job.begin_grace(now);
            }
        } else {
            // A job other than a search, still running after `stop`: given
            // up, unless its threads spent the grace waiting for a core.
            if due == Due::Answer && self.job.as_mut().is_some_and(|job| job.starved(now)) {
                return;
            }
            self.give_up_on_job(voice);
        }
    }

    /// Print the running search's `bestmove` from what it found so far.
    fn answer_for_job(&mut self, voice: &mut dyn Dialect) {
        let Some(job) = &self.job else { return };
        let control = Arc::clone(&job.control);
        self.report_best_so_far(voice, &control);
        self.mark_answered();
    }

    /// Print `bestmove` with the best move `search` has found so far.
    pub(in crate::daemon) fn report_best_so_far(
        &mut self,
        voice: &mut dyn Dialect,
        search: &SearchControl,
    ) {
        let (best, ponder) = search
            .best_so_far()
            .map_or((None, None), |(best, ponder)| (Some(best), ponder));
        voice.best(self, best, ponder);
    }

    /// The job's thread is stuck in a plugin call: report and disable the
    /// plugin, answer the `go` if not yet done, and carry on without the
    /// thread, with a fresh table, trees and event channel (the thread keeps
    /// the old ones).
    fn give_up_on_job(&mut self, voice: &mut dyn Dialect) {
        let Some(job) = &self.job else { return };
        job.control.stop();
        let kind = job.kind;
        let stalled = job.watch.stalled;
        let answered = job.watch.answered();
        // The library a thread is stuck in: the evaluator's when one was
        // inside an evaluator call, else the game plugin's.
        let stuck = stuck_in(&job.plugins, job.control.in_evaluator());
        let blamed = blame_text(&stuck);
        let reload = watchdog::reload_remedy(&stuck);
        for plugin in stuck {
            plugin.disable();
        }
        let places = crate::host::crash::stuck_places(job.control.thread_ids());
        let demoted = job.control.demote_threads();
        log::warn!("{demoted} stuck thread(s) of the job demoted to the idle scheduling class");
        if kind == JobKind::Search && !answered {
            self.answer_for_job(voice);
        }
        let what = match kind {
            JobKind::Search => "the search",
            JobKind::Perft => "perft",
            JobKind::Bench => "bench",
            JobKind::Learn => "learn",
        };
        let when = if stalled {
            format!(
                "made no progress for {} s and was given up",
                watchdog::stall_limit().as_secs_f64()
            )
        } else {
            format!(
                "was given up {} s after it should have ended",
                watchdog::HUNG_AFTER.as_secs_f64()
            )
        };
        voice.error(
            self,
            &format!(
                "{blamed} did not return from a call: {what} {when}{places}; \
                 the plugin is disabled until it is loaded again ({reload})"
            ),
        );
        if matches!(kind, JobKind::Perft | JobKind::Bench) && !answered {
            // Its last line, as a perft or bench that fails ends: a tool
            // waiting for it gets it, and no count is taken for the whole.
            self.raw("Nodes searched: 0");
            self.mark_answered();
        }
        // Dropping the job detaches its thread.
        self.job = None;
        (self.events_tx, self.events_rx) = unbounded();
        self.trees = Arc::default();
        // The stuck thread keeps the old table's memory, and a new table's
        // is mapped at once: take one only where the machine can give it.
        let mib = u64::from(self.settings.hash_mib);
        let threads = u64::from(self.settings.threads);
        let fresh = crate::memory::check_hash(mib, 0, threads, crate::memory::available_mib())
            .and_then(|()| TranspositionTable::new(mib as usize));
        match fresh {
            Ok(table) => self.tt = Arc::new(table),
            Err(e) => log::error!("{e}; the table stays shared with the stuck thread"),
        }
    }
}
