//! The watchdog over a running job. A plugin call that never returns would
//! otherwise freeze the search, and with it the `bestmove` an arbiter is
//! waiting for. The controller never calls into the searching plugin
//! itself, so it can keep time for the job:
//!
//! 1. **Answer.** A timed search that has not answered by its
//!    [`SearchLimits::answer_by`](crate::search::SearchLimits) (a little after
//!    its hard limit), or any search still running [`STOP_GRACE`] after a
//!    `stop`, gets its `bestmove` from the controller: the best move found
//!    so far, else a legal root move noted when the search started. The
//!    job's own answer, should it come later, is dropped: one `bestmove` per
//!    `go`, always. A search that has not noted even a root move by then (a
//!    machine so loaded that its thread has barely run) is answered the
//!    moment it notes one, and given up [`HUNG_AFTER`] after the answer fell
//!    due if it never does: `bestmove (none)` is an illegal move, so it is
//!    the very last resort.
//! 2. **Give up.** A job still running [`HUNG_AFTER`] after the watchdog
//!    answered for it (or, for `perft` and `bench`, [`STOP_GRACE`] after a
//!    `stop`) has a thread stuck in a plugin call.
//!    The controller reports the plugin in one error line, disables it (and
//!    the evaluator's library when that is a separate one), and leaves the
//!    thread where it is, demoted (see [`crate::threads`]), with the table
//!    and the trees it holds; the daemon
//!    takes fresh ones and serves every other game as before. The plugin is
//!    refused until it is loaded again (`PluginPath`).
//!
//! A search that is merely late (a loaded machine) finishes well inside
//! `HUNG_AFTER` and costs nothing but the watchdog's early answer. Time
//! the process spends stopped does not count against it: the controller
//! wakes every [`GRACE_POLL`] of the grace, and a wake far later than due
//! shows the pause and starts the grace again. Nor does time the job's
//! threads spend ready but waiting for a core on a machine too busy to run
//! them ([`Watch::starved`], from the kernel's scheduler statistics): a
//! grace mostly spent so starts again, within [`call_limit`] of the first.
//!
//! A job with no clock that ends by itself (`go depth`, `go nodes`,
//! `go mate`, `go perft`, `bench`) has no deadline to miss, so the
//! controller watches its signs of life instead
//! ([`SearchControl::beat`]): every search thread gives one at each look at
//! its limits, perft every few thousand nodes. A job that has given none
//! for [`stall_limit`] (its threads' waits for a core left out, as above,
//! [`Patience`]) is stuck in a plugin call, and is answered and then
//! given up as above. (`go infinite` and `go ponder` wait for the GUI by
//! design; their `stop` and `ponderhit` bring the deadlines above.)
//!
//! The plugin calls the controller itself needs answered before it reads
//! its next line, for the commands no clock runs for (`setoption`,
//! `searchmoves`, `d`, `eval` ...), run through [`call_within`]: on a thread of their own,
//! waited for up to [`call_limit`] (its waits for a core left out). One that never returns costs its
//! plugin (disabled, with one error line) but not the daemon, which goes on
//! reading commands. Those on the clock (reading a `position`, the side to
//! move of a `go`) are made by the controller itself, since a thread of
//! their own would wait for a core on every move; the
//! [`sentry`](super::sentry) replaces a controller stuck in one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;

use crate::host::{EvaluatorSource, GamePlugin};
use crate::search::SearchControl;
use crate::threads::{self, ThreadRoll};

/// How long after `stop` (or `quit`) a search may take to answer.
pub const STOP_GRACE: Duration = Duration::from_millis(500);
/// How long after the watchdog answered for it a job may take to end before its plugin is
/// declared stuck.
pub const HUNG_AFTER: Duration = Duration::from_secs(1);
/// How often the controller looks for a first move from a search whose
/// answer is due but that has noted none yet.
pub const FIRST_MOVE_POLL: Duration = Duration::from_millis(1);

/// How long a plugin call made for the controller may take before its
/// plugin is declared stuck, unless the configuration says otherwise
/// (`call_limit`): thousands of times what any of the four games needs,
/// so a loaded machine never trips it.
pub const CALL_LIMIT: Duration = Duration::from_secs(5);

/// The call limit in force, in milliseconds ([`set_call_limit`]).
static CALL_LIMIT_MS: AtomicU64 = AtomicU64::new(CALL_LIMIT.as_millis() as u64);

/// How long a plugin call made for the controller may take before its
/// plugin is declared stuck: [`CALL_LIMIT`] unless the configuration set
/// another.
pub fn call_limit() -> Duration {
    Duration::from_millis(CALL_LIMIT_MS.load(Ordering::Relaxed))
}

/// Set the limit of [`call_limit`] (and [`stall_limit`]) for the process:
/// the configuration's `call_limit`, before the daemon starts.
pub fn set_call_limit(limit: Duration) {
    CALL_LIMIT_MS.store(limit.as_millis() as u64, Ordering::Relaxed);
}

/// How long a job without a clock may go without a sign of life: no single
/// plugin call takes this long, so its threads are stuck in one.
pub fn stall_limit() -> Duration {
    call_limit()
}
/// How many times its own length a limit of [`call_limit`] (the stall
/// limit, the sentry's, that of [`call_within`]) may stretch while the
/// threads it watches wait for a core ([`Patience`]): on a machine however
/// busy, a call that never returns is still found within this many limits.
pub const STARVED_STRETCH: u32 = 3;

/// How often the controller looks for a job's signs of life.
pub const STALL_POLL: Duration = Duration::from_millis(250);
/// How late past a deadline the controller may wake before the watchdog
/// takes it that the daemon itself was not running: the process was
/// stopped (Botzone stops a bot that keeps running, `SIGSTOP`, until its
/// next turn, and so freezes a search still winding down after its
/// answer) or the machine was too loaded to run it. The job did not run
/// either, so its grace before it is given up starts again rather than
/// running out in the pause.
pub const OVERSLEPT: Duration = Duration::from_millis(200);
/// How often the controller wakes while a job it answered for has its
/// grace ([`HUNG_AFTER`]): a stop of the process shows as a wake more than
/// [`OVERSLEPT`] late only if the controller was due to wake during it. A
/// single wake at the end of the grace would miss a stop that ends just
/// after it: Botzone stops a bot for the other bot's turn, about as long
/// as the grace, and a Botzone match lost a game that way (the plugin was
/// disabled as stuck the moment the process went on).
pub const GRACE_POLL: Duration = Duration::from_millis(50);

/// A plugin a job calls into.
pub enum Blame {
    /// The game's rules.
    Game(Arc<GamePlugin>),
    /// The evaluator (disabling it disables its library: the game plugin
    /// for a built-in one).
    Evaluator(EvaluatorSource),
}

impl Blame {
    /// A game plugin and an evaluator of it: what a search or an
    /// evaluator's creation calls into.
    pub fn game_and_evaluator(game: &Arc<GamePlugin>, source: &EvaluatorSource) -> [Blame; 2] {
        [
            Blame::Game(Arc::clone(game)),
            Blame::Evaluator(source.clone()),
        ]
    }

    /// The library a call of the evaluator `source` of `game` goes into:
    /// its own, or the game plugin's for a built-in one.
    pub fn evaluator_call(game: &Arc<GamePlugin>, source: &EvaluatorSource) -> [Blame; 1] {
        if source.is_external() {
            [Blame::Evaluator(source.clone())]
        } else {
            [Blame::Game(Arc::clone(game))]
        }
    }

    /// Disable it. A built-in evaluator is left to its game plugin, which
    /// is on the same list.
    pub fn disable(&self) {
        match self {
            Blame::Game(game) => game.disable_unresponsive(),
            Blame::Evaluator(source) if source.is_external() => source.disable_unresponsive(),
            Blame::Evaluator(_) => {}
        }
    }

    /// How messages name it: `othello`, `evaluator 'weights' (built into
    /// othello)`.
    pub fn label(&self) -> String {
        match self {
            Blame::Game(game) => game.name().to_string(),
            Blame::Evaluator(source) => {
                format!("evaluator '{}' ({})", source.name(), source.origin())
            }
        }
    }
}

/// Of a job's plugins, those a stuck call is in: with an evaluator on the
/// list, the evaluator's library if a thread of the job was inside a call
/// of the evaluator when it was given up (`in_evaluator`), else the game
/// plugins (one, but for a bench of every game). A built-in evaluator's
/// library is the game plugin; of a bench of every game, only the
/// current game's evaluator may be a plugin of its own.
pub fn stuck_in(plugins: &[Blame], in_evaluator: bool) -> Vec<&Blame> {
    let evaluator = plugins.iter().find(|b| match b {
        Blame::Evaluator(source) => source.is_external(),
        Blame::Game(_) => false,
    });
    let games: Vec<&Blame> = plugins
        .iter()
        .filter(|b| matches!(b, Blame::Game(_)))
        .collect();
    match evaluator {
        Some(evaluator) if in_evaluator => vec![evaluator],
        _ if !games.is_empty() => games,
        _ => plugins.iter().collect(),
    }
}

/// The names of the plugins to blame, each library once: an evaluator
/// built into the game plugin is the game plugin.
pub fn blame_text(plugins: &[&Blame]) -> String {
    let external = |b: &Blame| match b {
        Blame::Game(_) => true,
        Blame::Evaluator(source) => source.is_external(),
    };
    let names: Vec<String> = plugins
        .iter()
        .filter(|b| external(b))
        .map(|b| b.label())
        .collect();
    match names.as_slice() {
        [] => "the job's plugin".to_string(),
        [one] => format!("plugin {one}"),
        [first, rest @ ..] => format!("plugin {first} (or {})", rest.join(", ")),
    }
}

/// How a user loads again the libraries of the plugins in `plugins`,
/// which a failure disabled: an evaluator plugin alone also by its file.
pub fn reload_remedy(plugins: &[&Blame]) -> &'static str {
    let evaluator_plugin = |b: &&Blame| matches!(b, Blame::Evaluator(s) if s.is_external());
    if !plugins.is_empty() && plugins.iter().all(evaluator_plugin) {
        "setoption name EvalFile, or PluginPath"
    } else {
        "setoption name PluginPath"
    }
}

/// Run `call` (plugin calls whose answer the controller needs before it
/// reads its next line) on a thread of its own, and wait up to `limit` for
/// it (longer should its thread wait for a core for most of that time,
/// [`Patience`]). A call that has not returned by then is left on its thread; the
/// plugins in `blame` are disabled and the error says so. Where no thread
/// can be had, the call is made on this one, unwatched. `what` names the
/// work in messages: `reading the position`.
pub fn call_within<T: Send + 'static>(
    what: &str,
    limit: Duration,
    blame: &[Blame],
    call: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = crossbeam_channel::bounded(1);
    let roll = Arc::new(ThreadRoll::default());
    let on_thread = Arc::clone(&roll);
    let spawned = crate::threads::spawn_or_give_back("plyd-call", move || {
        let on_roll = on_thread.enter();
        let value = call();
        drop(on_roll);
        // The receiver is gone only once the controller gave up.
        let _ = tx.send(value);
    });
    if let Err((e, work)) = spawned {
        // Unwatched, rather than not at all (loading the plugins, or
        // reading the position, with no game after).
        log::warn!(
            "{what}: cannot start a thread to watch the call ({e}): made on the \
             controller's thread, which waits for it however long it takes"
        );
        work();
    }
    // The thread's waits for a core are left out of its time, should the
    // machine be too busy to run it (see `Patience`).
    let mut patience = Patience::new(roll.waited_for_a_core(), Instant::now());
    loop {
        match rx.recv_deadline(patience.began() + limit) {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!("internal error while {what}"))
            }
            Err(RecvTimeoutError::Timeout) => {
                let waited = roll.waited_for_a_core();
                if !patience.starved(waited, Instant::now(), STARVED_STRETCH * limit) {
                    break;
                }
                log::warn!(
                    "{what}: the call's thread waited for a core for most of its limit \
                     (taken for a busy machine, not yet for a stuck plugin); waiting again"
                );
            }
        }
    }
    // The thread stays in the call: at least it is not to hold a core the
    // daemon's own threads need.
    roll.demote_all();
    if blame.is_empty() {
        return Err(format!(
            "a plugin did not return from a call: {what} was given up after {} s; \
             nothing was changed",
            limit.as_secs_f64()
        ));
    }
    for plugin in blame {
        plugin.disable();
    }
    let blamed: Vec<&Blame> = blame.iter().collect();
    Err(format!(
        "{} did not return from a call: {what} was given up after {} s; \
         the plugin is disabled until it is loaded again ({})",
        blame_text(&blamed),
        limit.as_secs_f64(),
        reload_remedy(&blamed)
    ))
}

/// A count of time toward a limit that leaves out a machine too busy to
/// run the threads it watches. When the limit runs out and those threads
/// spent half the time since the count began or more ready to run but
/// waiting for a core (in all, from the kernel's scheduler statistics,
/// [`ThreadRoll::waited_for_a_core`]), they were held up, not stuck, and
/// the count begins again ([`Patience::starved`]), up to a cap from its
/// first beginning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patience {
    first: Instant,
    began: Instant,
    /// How long the threads had waited for a core in all when the count
    /// began, when known.
    waited: Option<Duration>,
}

impl Patience {
    /// A count beginning at `now`, the threads having waited `waited` so
    /// far (`None` where that is not known: the count then never begins
    /// again).
    pub fn new(waited: Option<Duration>, now: Instant) -> Self {
        Patience {
            first: now,
            began: now,
            waited,
        }
    }

    /// Begin again at `now` (a new grace of the same job); the cap still
    /// counts from the first beginning.
    pub fn again(&mut self, waited: Option<Duration>, now: Instant) {
        self.began = now;
        self.waited = waited;
    }

    /// When the count began (last).
    pub fn began(&self) -> Instant {
        self.began
    }

    /// At `now`, when the count's limit has run out: whether the threads,
    /// `waited` in all for a core by now, waited half the time since the
    /// count began or more, and `cap` has not passed since it first began.
    /// If so it begins again now.
    pub fn starved(&mut self, waited: Option<Duration>, now: Instant, cap: Duration) -> bool {
        let (Some(before), Some(waited)) = (self.waited, waited) else {
            return false;
        };
        let span = now.saturating_duration_since(self.began);
        if waited.saturating_sub(before) < span / 2
            || now.saturating_duration_since(self.first) >= cap
        {
            return false;
        }
        self.again(Some(waited), now);
        true
    }
}

/// How far past its hard limit a search's own `bestmove` may go out before
/// the daemon notes it on stderr: a search that is alive stops within a
/// millisecond or two of the limit.
pub const LATE_NOTE: Duration = Duration::from_millis(5);

/// How long after `stop` a search's `bestmove` may go out before the
/// daemon notes it on stderr: a search that is alive stops within a
/// millisecond or two.
pub const STOP_NOTE: Duration = Duration::from_millis(10);

/// When a search's `bestmove` went out, against its hard limit, and where
/// the time went.
struct AnswerFacts {
    /// The search's hard limit.
    hard: Duration,
    /// When the answer went out, from the clock's start.
    total: Duration,
    /// When the search gave its answer to the controller, on the same
    /// clock; `None` for the watchdog's answer.
    handed_over: Option<Duration>,
    /// How long the job's threads waited for a core during the move.
    waited: Option<Duration>,
    /// How long the controller thread, which writes the answer, waited
    /// for a core since the job began.
    controller_waited: Option<Duration>,
}

impl AnswerFacts {
    /// The warning for a search's own `bestmove` that went out more than
    /// [`LATE_NOTE`] past its hard limit; `None` for one in time.
    fn late(&self) -> Option<String> {
        (self.total > self.hard + LATE_NOTE).then(|| self.timing())
    }

    /// Where the time went. A late hand-over points at the search, a late
    /// answer after a timely hand-over at the controller or the process,
    /// and long waits at a machine with too few free cores.
    fn timing(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let handed = self.handed_over.map_or(String::new(), |d| {
            format!("; the search handed it over at {:.1} ms", ms(d))
        });
        let waits = match (self.waited, self.controller_waited) {
            (Some(t), Some(c)) => format!(
                "; its threads waited {:.1} ms in all for a core, the controller {:.1} ms",
                ms(t),
                ms(c)
            ),
            (Some(t), None) => format!("; its threads waited {:.1} ms in all for a core", ms(t)),
            (None, Some(c)) => format!("; the controller waited {:.1} ms for a core", ms(c)),
            (None, None) => String::new(),
        };
        format!(
            "bestmove went out {:.1} ms after the clock started, {:.1} ms past the hard limit of {:.1} ms{handed}{waits}",
            ms(self.total),
            ms(self.total.saturating_sub(self.hard)),
            ms(self.hard),
        )
    }
}

/// A job's deadlines and what the watchdog has done.
#[derive(Debug, Default)]
pub struct Watch {
    /// Clock time (from the `go` or the `ponderhit`) by which a timed
    /// search must have answered.
    pub answer_by: Option<Duration>,
    /// The timed search's hard limit, for the note on a late answer
    /// ([`Watch::late_answer_note`]).
    pub hard_limit: Option<Duration>,
    /// The controller thread (its kernel id) and its waits for a core
    /// when the job began, for the same note.
    pub controller: Option<(i32, Duration)>,
    /// When `stop` (or `quit`) was sent.
    pub stop_sent: Option<Instant>,
    /// When the job's final answer (`bestmove`, or perft's last line) went
    /// out, its own or the watchdog's: the GUI may send its next command at
    /// once, and the job's end is then only moments away.
    pub answered_at: Option<Instant>,
    /// Whether the watchdog answered for it: the job's own `bestmove` and
    /// `info` lines are then dropped.
    pub overdue: bool,
    /// When its answer fell due with no move noted to answer with.
    pub due_without_move: Option<Instant>,
    /// When the controller last woke during the job's grace after an
    /// answer it gave for it ([`GRACE_POLL`]).
    pub grace_checked: Option<Instant>,
    /// The signs of life last seen, for a job watched for them.
    pub progress: Option<Progress>,
    /// Whether the job went [`stall_limit`] without a sign of life.
    pub stalled: bool,
    /// The job's grace since one began ([`Watch::grace_begins`]), less
    /// the time its threads waited for a core.
    pub grace: Option<Patience>,
}

/// The signs of life of a job as the controller last saw them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// [`SearchControl::beats`] then.
    beats: u64,
    /// Since when the count has stood still, less the time the job's
    /// threads waited for a core.
    still: Patience,
    /// When the controller last looked.
    looked: Instant,
}

/// What is due next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Answer for the job.
    Answer,
    /// Give up on the job.
    GiveUp,
    /// Look for signs of life ([`Watch::look`]).
    Look,
    /// Wake during a grace, to notice a stop of the process in time.
    Wait,
}

impl Watch {
    /// What a `bestmove` of the search `control` going out now shows
    /// against the hard limit; `None` for a search without one.
    fn answer_facts(&self, control: &SearchControl) -> Option<AnswerFacts> {
        let hard = self.hard_limit?;
        let started = control.clock_started();
        Some(AnswerFacts {
            hard,
            // When the answer was written, not now: a process stopped
            // right after it (Botzone stops a bot that has answered) would
            // count the pause.
            total: self.answered_at.map_or_else(
                || started.elapsed(),
                |at| at.saturating_duration_since(started),
            ),
            handed_over: control
                .answered_at()
                .map(|at| at.saturating_duration_since(started)),
            waited: control.threads_waited(),
            controller_waited: self.controller.and_then(|(id, at_start)| {
                Some(threads::waited_for_a_core(id)?.saturating_sub(at_start))
            }),
        })
    }

    /// The warning for the search's own `bestmove`, just written, when it
    /// went out more than [`LATE_NOTE`] past the hard limit.
    pub fn late_answer_note(&self, control: &SearchControl) -> Option<String> {
        self.answer_facts(control)?.late()
    }

    /// The warning for a search's own `bestmove`, just written, that went
    /// out more than [`STOP_NOTE`] after `stop` (or `quit`): a referee
    /// charges that wait to the engine's clock (a ponder search stopped
    /// after a miss, on cores busy with both engines), and nothing else
    /// would show it.
    pub fn slow_stop_note(&self, control: &SearchControl) -> Option<String> {
        let stop = self.stop_sent?;
        let after = self.answered_at?.saturating_duration_since(stop);
        if after <= STOP_NOTE {
            return None;
        }
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let kind = if control.pondering() {
            "a ponder search's "
        } else {
            ""
        };
        let waits = control.threads_waited().map_or(String::new(), |t| {
            format!("; its threads waited {:.1} ms in all for a core", ms(t))
        });
        Some(format!(
            "{kind}bestmove went out {:.1} ms after stop{waits}",
            ms(after)
        ))
    }

    /// Where the time went for the watchdog's answer, just written (the
    /// search has handed nothing over), and whether it went out more than
    /// [`LATE_NOTE`] past the hard limit.
    pub fn watchdog_answer_note(&self, control: &SearchControl) -> Option<(String, bool)> {
        let facts = AnswerFacts {
            handed_over: None,
            ..self.answer_facts(control)?
        };
        Some((facts.timing(), facts.late().is_some()))
    }

    /// Note the controller thread's waits for a core as the job begins
    /// (called on that thread).
    pub fn note_controller(&mut self) {
        self.controller =
            threads::current_id().and_then(|id| Some((id, threads::waited_for_a_core(id)?)));
    }

    /// Whether the job's answer has gone out.
    pub fn answered(&self) -> bool {
        self.answered_at.is_some()
    }

    /// Watch the job for signs of life from now on.
    pub fn expect_progress(&mut self, control: &SearchControl) {
        let now = Instant::now();
        self.progress = Some(Progress {
            beats: control.beats(),
            still: Patience::new(control.threads_waited(), now),
            looked: now,
        });
    }

    /// Look for signs of life at `now`, the job's threads having waited
    /// `waited` for a core in all ([`SearchControl::threads_waited`]): true
    /// when there has been none for [`stall_limit`] (the job is then
    /// `stalled`, and no longer looked at). A count of time without one
    /// that the threads mostly spent waiting for a core starts again,
    /// within [`STARVED_STRETCH`] stall limits of the last sign.
    pub fn look(
        &mut self,
        control: &SearchControl,
        waited: Option<Duration>,
        now: Instant,
    ) -> bool {
        let Some(progress) = &mut self.progress else {
            return false;
        };
        let beats = control.beats();
        progress.looked = now;
        if beats != progress.beats {
            progress.beats = beats;
            progress.still = Patience::new(waited, now);
            return false;
        }
        if now.saturating_duration_since(progress.still.began()) < stall_limit() {
            return false;
        }
        if progress
            .still
            .starved(waited, now, STARVED_STRETCH * stall_limit())
        {
            log::warn!(
                "the job's threads waited for a core for most of the time they gave no sign \
                 of life (taken for a busy machine, not yet for a stuck plugin); the count starts again"
            );
            return false;
        }
        self.progress = None;
        self.stalled = true;
        true
    }

    /// The controller woke at `now` for the deadline `at`: when that is
    /// more than [`OVERSLEPT`] late, the daemon was not running, and the
    /// job's grace (before it is given up, or its count of time without a
    /// sign of life) starts again now, its threads having waited `waited`
    /// for a core by then. Returns whether it did.
    pub fn woke_late(&mut self, at: Instant, now: Instant, waited: Option<Duration>) -> bool {
        if now.saturating_duration_since(at) <= OVERSLEPT {
            return false;
        }
        if self.answered_at.is_some() {
            self.answered_at = Some(now);
        }
        if self.due_without_move.is_some() {
            self.due_without_move = Some(now);
        }
        if let Some(progress) = &mut self.progress {
            progress.still = Patience::new(waited, now);
            progress.looked = now;
        }
        if let Some(grace) = &mut self.grace {
            grace.again(waited, now);
        }
        true
    }

    /// A grace begins at `now` (a job answered for, one due to answer
    /// without a move, or one asked to stop): `waited` is how long its
    /// threads have waited for a core so far
    /// ([`SearchControl::threads_waited`]).
    pub fn grace_begins(&mut self, waited: Option<Duration>, now: Instant) {
        match &mut self.grace {
            Some(grace) => grace.again(waited, now),
            None => self.grace = Some(Patience::new(waited, now)),
        }
    }

    /// At the end of a grace (`now`, when the job is due to be given up):
    /// whether the job's threads, `waited` in all for a core by now, spent
    /// half the grace or more of it waiting for one. A machine too busy to
    /// run them held them up, not a call that never returns; the grace then
    /// starts again, as after a stop of the process ([`Watch::woke_late`]),
    /// but not past [`call_limit`] from the first grace. Returns whether
    /// it did.
    pub fn starved(&mut self, waited: Option<Duration>, now: Instant) -> bool {
        let starved = self
            .grace
            .as_mut()
            .is_some_and(|grace| grace.starved(waited, now, call_limit()));
        if !starved {
            return false;
        }
        for at in [
            &mut self.answered_at,
            &mut self.due_without_move,
            &mut self.stop_sent,
        ] {
            if at.is_some() {
                *at = Some(now);
            }
        }
        true
    }

    /// The next deadline, if any, and what falls due then.
    pub fn next(&self, control: &SearchControl) -> Option<(Instant, Due)> {
        if let Some(answered_at) = self.answered_at {
            // A job answers by itself only once every thread of it is out
            // of the plugin: only one the watchdog answered for can be stuck.
            if !self.overdue {
                return None;
            }
            let give_up = answered_at + HUNG_AFTER;
            let poll = self.grace_checked.unwrap_or(answered_at).max(answered_at) + GRACE_POLL;
            return Some(if poll < give_up {
                (poll, Due::Wait)
            } else {
                (give_up, Due::GiveUp)
            });
        }
        if let Some(since) = self.due_without_move {
            let give_up = since + HUNG_AFTER;
            let poll = Instant::now() + FIRST_MOVE_POLL;
            return Some(if control.answer_known() {
                (since, Due::Answer)
            } else if poll < give_up {
                (poll, Due::Answer)
            } else {
                (give_up, Due::GiveUp)
            });
        }
        let timed = self
            .answer_by
            .filter(|_| !control.pondering())
            .map(|by| control.clock_started() + by);
        let stopped = self.stop_sent.map(|t| t + STOP_GRACE);
        let due = match (timed, stopped) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let look = self.progress.map(|p| p.looked + STALL_POLL);
        match (due, look) {
            (Some(answer), Some(look)) if look < answer => Some((look, Due::Look)),
            (None, Some(look)) => Some((look, Due::Look)),
            (answer, _) => answer.map(|t| (t, Due::Answer)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_more_than_five_ms_past_the_hard_limit_is_noted_with_where_the_time_went() {
        let ms = Duration::from_millis;
        let facts = |total,
                     handed_over: Option<u64>,
                     waited: Option<u64>,
                     controller_waited: Option<u64>| AnswerFacts {
            hard: ms(40),
            total: ms(total),
            handed_over: handed_over.map(ms),
            waited: waited.map(ms),
            controller_waited: controller_waited.map(ms),
        };
        // In time, and within the five milliseconds.
        assert_eq!(facts(39, Some(39), None, None).late(), None);
        assert_eq!(facts(45, Some(41), Some(3), Some(1)).late(), None);
        assert_eq!(
            facts(79, Some(41), Some(30), Some(7)).late().unwrap(),
            "bestmove went out 79.0 ms after the clock started, 39.0 ms past the hard limit \
             of 40.0 ms; the search handed it over at 41.0 ms; its threads waited 30.0 ms in \
             all for a core, the controller 7.0 ms"
        );
        // What is not known is left out.
        assert_eq!(
            facts(46, None, None, None).late().unwrap(),
            "bestmove went out 46.0 ms after the clock started, 6.0 ms past the hard limit of \
             40.0 ms"
        );
    }

    #[test]
    fn a_timed_search_is_due_at_its_answer_time_and_a_stopped_one_soon_after_stop() {
        let control = SearchControl::new(false);
        let mut watch = Watch {
            answer_by: Some(Duration::from_millis(300)),
            ..Watch::default()
        };
        let (at, due) = watch.next(&control).unwrap();
        assert_eq!(due, Due::Answer);
        assert_eq!(at, control.clock_started() + Duration::from_millis(300));
        let now = Instant::now();
        watch.stop_sent = Some(now);
        let (at, _) = watch.next(&control).unwrap();
        assert!(at <= now + STOP_GRACE);
        watch.answered_at = Some(now);
        // Answered by itself: every thread is out of the plugin.
        assert_eq!(watch.next(&control), None);
        watch.overdue = true;
        // Answered for: woken every GRACE_POLL, given up at the end.
        assert_eq!(watch.next(&control), Some((now + GRACE_POLL, Due::Wait)));
        watch.grace_checked = Some(now + HUNG_AFTER - GRACE_POLL / 2);
        assert_eq!(watch.next(&control), Some((now + HUNG_AFTER, Due::GiveUp)));
    }

    /// The late-answer note counts to when the answer was written: a
    /// process stopped after it (Botzone's `SIGSTOP` between turns) is not
    /// late for that.
    #[test]
    fn an_answer_is_timed_when_written_not_when_noted() {
        let ms = Duration::from_millis;
        let control = SearchControl::new(false);
        let started = control.clock_started();
        let mut watch = Watch {
            hard_limit: Some(ms(40)),
            answered_at: Some(started + ms(30)),
            ..Watch::default()
        };
        std::thread::sleep(ms(60));
        assert_eq!(watch.late_answer_note(&control), None);
        watch.answered_at = Some(started + ms(50));
        let note = watch.late_answer_note(&control).expect("late");
        assert!(
            note.starts_with("bestmove went out 50.0 ms after the clock started, 10.0 ms past"),
            "{note}"
        );
    }

    /// Threads that waited for a core for half the grace or more (in all)
    /// were held up by the machine: the grace starts again, but not past
    /// the call limit from the first.
    #[test]
    fn a_grace_spent_waiting_for_a_core_starts_again() {
        let ms = Duration::from_millis;
        let start = Instant::now();
        let mut watch = Watch {
            answered_at: Some(start),
            overdue: true,
            ..Watch::default()
        };
        // Nothing known of the threads' waits: given up as before.
        watch.grace_begins(None, start);
        assert!(!watch.starved(Some(ms(900)), start + HUNG_AFTER));
        watch.grace_begins(Some(ms(10)), start);
        assert!(!watch.starved(None, start + HUNG_AFTER));
        // Less than half the grace waiting: a stuck call.
        assert!(!watch.starved(Some(ms(10) + HUNG_AFTER / 2 - ms(1)), start + HUNG_AFTER));
        // Half of it or more: the grace starts again from then.
        let end = start + HUNG_AFTER;
        assert!(watch.starved(Some(ms(10) + HUNG_AFTER / 2), end));
        assert_eq!(watch.answered_at, Some(end));
        assert_eq!(watch.grace.unwrap().first, start);
        // The next grace counts its own waits only.
        assert!(!watch.starved(Some(ms(10) + HUNG_AFTER / 2 + ms(100)), end + HUNG_AFTER));
        // Not past the call limit from the first grace, however long the waits.
        assert!(!watch.starved(Some(call_limit() * 10), start + call_limit()));
        // A search still without a move has its grace started again too.
        let mut watch = Watch {
            due_without_move: Some(start),
            ..Watch::default()
        };
        watch.grace_begins(Some(ms(0)), start);
        assert!(watch.starved(Some(HUNG_AFTER), end));
        assert_eq!(
            (watch.due_without_move, watch.answered_at),
            (Some(end), None)
        );
        // A job other than a search asked to stop: its shorter grace too.
        let mut watch = Watch {
            stop_sent: Some(start),
            ..Watch::default()
        };
        watch.grace_begins(Some(ms(0)), start);
        let end = start + STOP_GRACE;
        assert!(!watch.starved(Some(STOP_GRACE / 2 - ms(1)), end));
        assert!(watch.starved(Some(STOP_GRACE / 2), end));
        assert_eq!(watch.stop_sent, Some(end));
    }

    /// A `bestmove` that went out well after `stop` is noted, a ponder
    /// search's said to be one; one in time is not.
    #[test]
    fn a_slow_answer_to_stop_is_noted() {
        let stop = Instant::now();
        let watch = |after: u64| Watch {
            stop_sent: Some(stop),
            answered_at: Some(stop + Duration::from_millis(after)),
            ..Watch::default()
        };
        let pondering = SearchControl::new(true);
        let note = watch(44).slow_stop_note(&pondering).unwrap();
        assert!(
            note.starts_with("a ponder search's bestmove went out 44.0 ms after stop"),
            "{note}"
        );
        let timed = SearchControl::new(false);
        assert!(watch(30)
            .slow_stop_note(&timed)
            .unwrap()
            .starts_with("bestmove went out 30.0 ms after stop"));
        assert_eq!(watch(2).slow_stop_note(&timed), None);
        let running = Watch {
            answered_at: Some(stop),
            ..Watch::default()
        };
        assert_eq!(running.slow_stop_note(&timed), None);
    }

    #[test]
    fn an_answer_due_with_no_move_waits_for_one_until_it_gives_up() {
        let control = SearchControl::new(false);
        let since = Instant::now();
        let watch = Watch {
            answer_by: Some(Duration::ZERO),
            due_without_move: Some(since),
            ..Watch::default()
        };
        // No move yet: look again shortly, still as an answer.
        let (at, due) = watch.next(&control).unwrap();
        assert_eq!(due, Due::Answer);
        assert!(at < since + HUNG_AFTER);
        // Still none by the end: give up (and answer `(none)`).
        let late = Watch {
            due_without_move: Some(since - HUNG_AFTER),
            ..Watch::default()
        };
        assert_eq!(late.next(&control), Some((since, Due::GiveUp)));
        // A move noted: answer with it at once.
        control.note_best("a1".to_string(), None);
        assert_eq!(watch.next(&control), Some((since, Due::Answer)));
    }

    #[test]
    fn a_call_is_waited_for_up_to_its_limit_and_then_left_behind() {
        let quick = call_within("adding", Duration::from_secs(60), &[], || 2 + 2);
        assert_eq!(quick, Ok(4));
        let (release, held) = crossbeam_channel::bounded::<()>(0);
        let started = Instant::now();
        let stuck = call_within("waiting", Duration::from_millis(50), &[], move || {
            let _ = held.recv();
        });
        assert!(started.elapsed() >= Duration::from_millis(50));
        let error = stuck.unwrap_err();
        assert!(
            error.starts_with("a plugin did not return from a call: waiting was given up"),
            "{error}"
        );
        drop(release);
        let panicked = call_within("failing", Duration::from_secs(60), &[], || -> u32 {
            panic!("a bug of the engine's own")
        });
        assert_eq!(panicked, Err("internal error while failing".to_string()));
    }

    #[test]
    fn a_job_without_signs_of_life_for_the_stall_limit_is_stalled() {
        let control = SearchControl::new(false);
        let mut watch = Watch::default();
        watch.expect_progress(&control);
        let start = watch.progress.unwrap().still.began();
        // Looked at every STALL_POLL, as long as nothing else is due sooner.
        assert_eq!(watch.next(&control), Some((start + STALL_POLL, Due::Look)));
        watch.answer_by = Some(Duration::ZERO);
        assert_eq!(watch.next(&control).unwrap().1, Due::Answer);
        watch.answer_by = None;
        // A beat restarts the count; standing still that long does not.
        control.beat();
        assert!(!watch.look(&control, None, start + stall_limit()));
        assert_eq!(
            watch.next(&control),
            Some((start + stall_limit() + STALL_POLL, Due::Look))
        );
        assert!(!watch.look(&control, None, start + 2 * stall_limit() - STALL_POLL));
        assert!(!watch.stalled);
        assert!(watch.look(&control, None, start + 2 * stall_limit()));
        assert!(watch.stalled);
        // Stalled once: no more looks, and a job never watched has none.
        assert_eq!(watch.next(&control), None);
        assert!(!Watch::default().look(&control, None, start + 10 * stall_limit()));
    }

    /// Time without a sign of life that the job's threads mostly spent
    /// waiting for a core does not count, within STARVED_STRETCH stall
    /// limits of the last sign.
    #[test]
    fn time_without_a_sign_of_life_spent_waiting_for_a_core_starts_again() {
        let ms = Duration::from_millis;
        let control = SearchControl::new(false);
        let mut watch = Watch::default();
        watch.expect_progress(&control);
        control.beat();
        let start = Instant::now();
        // A sign of life: the count starts, the threads having waited 10 ms.
        assert!(!watch.look(&control, Some(ms(10)), start));
        // The stall limit, half of it spent waiting: the count starts again.
        let end = start + stall_limit();
        assert!(!watch.look(&control, Some(ms(10) + stall_limit() / 2), end));
        assert!(!watch.stalled);
        // The next one with less waiting: stalled.
        let waits = ms(10) + stall_limit() / 2 + stall_limit() / 2 - ms(1);
        assert!(watch.look(&control, Some(waits), end + stall_limit()));
        assert!(watch.stalled);
        // Nothing known of the waits: stalled at the limit.
        let mut watch = Watch::default();
        watch.expect_progress(&control);
        control.beat();
        assert!(!watch.look(&control, None, start));
        assert!(watch.look(&control, Some(stall_limit() * 10), end));
        // Waiting all the time: stalled after STARVED_STRETCH limits.
        let mut watch = Watch::default();
        watch.expect_progress(&control);
        control.beat();
        assert!(!watch.look(&control, Some(ms(0)), start));
        for k in 1..STARVED_STRETCH {
            let at = start + k * stall_limit();
            assert!(!watch.look(&control, Some(k * stall_limit()), at), "{k}");
        }
        let at = start + STARVED_STRETCH * stall_limit();
        assert!(watch.look(&control, Some(STARVED_STRETCH * stall_limit()), at));
    }

    #[test]
    fn a_daemon_that_was_not_running_gives_the_job_its_grace_again() {
        let control = SearchControl::new(false);
        let answered = Instant::now();
        let mut watch = Watch {
            answered_at: Some(answered),
            overdue: true,
            ..Watch::default()
        };
        let (at, due) = watch.next(&control).unwrap();
        assert_eq!((at, due), (answered + GRACE_POLL, Due::Wait));
        // Woken on time, or a little late: nothing changes.
        assert!(!watch.woke_late(at, at + OVERSLEPT, None));
        watch.grace_checked = Some(at + OVERSLEPT);
        assert_eq!(
            watch.next(&control),
            Some((at + OVERSLEPT + GRACE_POLL, Due::Wait))
        );
        // Woken a second late (the process was stopped for about as long
        // as the grace, as Botzone stops a bot for the other's turn): a
        // full grace from now, not a give-up at once.
        let due = at + OVERSLEPT + GRACE_POLL;
        let resumed = due + HUNG_AFTER;
        assert!(resumed > answered + HUNG_AFTER);
        assert!(watch.woke_late(due, resumed, None));
        assert_eq!(
            watch.next(&control),
            Some((resumed + GRACE_POLL, Due::Wait))
        );
        // Polled to the end without a stop: given up then.
        watch.grace_checked = Some(resumed + HUNG_AFTER - GRACE_POLL / 2);
        assert_eq!(
            watch.next(&control),
            Some((resumed + HUNG_AFTER, Due::GiveUp))
        );
        // The same for a job watched for signs of life.
        let mut watched = Watch::default();
        watched.expect_progress(&control);
        let since = watched.progress.unwrap().still.began();
        let resumed = since + 2 * stall_limit();
        assert!(watched.woke_late(since + STALL_POLL, resumed, None));
        assert!(!watched.look(&control, None, resumed + stall_limit() - STALL_POLL));
        assert!(watched.look(&control, None, resumed + stall_limit()));
    }

    #[test]
    fn pondering_and_untimed_searches_have_no_deadline_until_stop() {
        let pondering = SearchControl::new(true);
        let watch = Watch {
            answer_by: Some(Duration::from_millis(1)),
            ..Watch::default()
        };
        assert_eq!(watch.next(&pondering), None);
        pondering.ponderhit();
        assert!(watch.next(&pondering).is_some());
        let infinite = SearchControl::new(false);
        assert_eq!(Watch::default().next(&infinite), None);
    }
}
