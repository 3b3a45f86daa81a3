//! The daemon: standard input, a dialect, one controller, the search.
//!
//! ```text
//!  stdin ──▶ input thread ──▶ dialect ──▶ controller ──▶ search (job threads)
//!                              (line)     (session,        │
//!                                          settings,       │ events
//!  stdout ◀── dialect's words ◀────────── table, job) ◀────┘
//! ```
//!
//! * [`input`] reads standard input on a thread of its own, one capped line
//!   at a time.
//! * A [`dialect`] per protocol (UCI, UCCI, UGI, GTP, NBoard, Botzone)
//!   reads each line, through its text module in `plyd-protocol`, into
//!   calls on the controller, and writes what comes back in its own words.
//! * The [`controller`] owns the session (plugins, game, position), the
//!   settings, the table and the running job; it refuses with a typed
//!   error, and is the only writer of standard output.
//! * A job (search, perft, bench) runs on threads of its own and reports
//!   through an event channel, so the controller answers `isready`, `stop`
//!   and `quit` at once while it runs.
//! * [`guard`] keeps a plugin that never returns from freezing any of it:
//!   the watchdog's deadlines over jobs and what the controller does when
//!   one passes, and the sentry over the controller's own calls.

mod controller;
mod dialect;
mod guard;
mod input;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, select, unbounded, Receiver};

use crate::host::PluginHost;
use crate::options::EngineSettings;
use crate::search::{mcts::TreeMemory, SearchControl, TranspositionTable};
pub use controller::session::{create_evaluator, evaluation_lines, with_plugin_owner, Session};
use controller::Controller;

/// Whether `name` (in any case) is one of the engine's own options
/// (`Threads`, `NullMove`), not a game plugin's.
pub fn is_engine_option(name: &str) -> bool {
    controller::is_engine_option(name)
}
pub use dialect::{printable, Protocol};
use dialect::{Dialect, Protocol as Chosen};
use guard::sentry::{Sentry, Watcher};
use input::{read_stdin, Input, MAX_LINE_BYTES};

/// When the process started: on Linux, the kernel's start time of the
/// process (which an `exec` keeps: a launcher that copies plyd and then
/// becomes it started the clock), else the first call (`main` makes it
/// first thing). Botzone counts a bot's first turn from its start.
pub fn process_started() -> Instant {
    static STARTED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *STARTED.get_or_init(|| {
        let now = Instant::now();
        process_age()
            .and_then(|age| now.checked_sub(age))
            .unwrap_or(now)
    })
}

/// How long ago the kernel started this process, to its clock's tick
/// (rounded up: the age is never less than the truth by more than the
/// clock's reading); `None` where it cannot be read or makes no sense.
fn process_age() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        // Field 22, `starttime`, in clock ticks since boot; the fields
        // after the command's name (which may hold spaces) start at 3.
        let after_name = &stat[stat.rfind(')')? + 1..];
        let ticks: u64 = after_name.split_whitespace().nth(19)?.parse().ok()?;
        // SAFETY: sysconf and clock_gettime write nothing but their answer.
        let (per_second, since_boot) = unsafe {
            let per_second = libc::sysconf(libc::_SC_CLK_TCK);
            let mut now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            if per_second <= 0 || libc::clock_gettime(libc::CLOCK_BOOTTIME, &mut now) != 0 {
                return None;
            }
            (
                per_second as u64,
                Duration::new(now.tv_sec as u64, now.tv_nsec as u32),
            )
        };
        let started = Duration::from_nanos(ticks.checked_mul(1_000_000_000)? / per_second);
        let age = since_boot.checked_sub(started)?;
        // A minute is far more than any start takes: a reading that old
        // is a clock this reckoning does not understand.
        (age < Duration::from_secs(60)).then_some(age)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The stack of a controller thread: what the main thread has on Linux,
/// where the controller ran before it could be replaced.
const CONTROLLER_STACK: usize = 8 << 20;

/// How the daemon starts.
#[derive(Debug, Clone, Default)]
pub struct DaemonConfig {
    /// Plugin directories.
    pub plugin_dirs: Vec<PathBuf>,
    /// Variant to start with.
    pub game: Option<String>,
    /// Evaluator to start with.
    pub evaluator: Option<String>,
    /// Parameter file (TOML) for the starting evaluator.
    pub eval_params: Option<PathBuf>,
    /// The opening book file (`BookFile`) to read at start.
    pub book: Option<PathBuf>,
    /// Numeric settings.
    pub settings: EngineSettings,
    /// The plugin path as given (shown as the `PluginPath` default).
    pub plugin_path_text: String,
    /// The dialect to speak; `None`: the first command chooses.
    pub protocol: Option<Protocol>,
    /// Problems met before the daemon started (config values refused),
    /// already logged: the GUI is told them after its first line.
    pub problems: Vec<String>,
    /// Options to set as `setoption` sets them (the config file's
    /// `[options]`, then `--option NAME=VALUE`), before the first line is
    /// handled: name, value, and where it was given (`--option`, or the
    /// file and line), for the error that refuses it.
    pub options: Vec<(String, String, String)>,
    /// `--strict`: a problem at the start (a game, evaluator, parameter
    /// file, option or config value the daemon cannot use) ends it with
    /// exit status 2 rather than starting it on what it could load.
    pub strict: bool,
}

/// The controller and the dialect it speaks.
pub(crate) struct Daemon {
    controller: Controller,
    /// The dialect; `None` until the first line (or `--protocol`) chooses.
    dialect: Option<Box<dyn Dialect>>,
}

/// A controller's state before a line, for a fresh controller to carry
/// on from should this one be stuck in a plugin call during the line (see
/// [`guard::sentry`]). The position is not in it: it belongs to the stuck
/// plugin.
pub(crate) struct Resumable {
    host: PluginHost,
    variant: Option<String>,
    settings: EngineSettings,
    plugin_path_text: String,
    eval_file_text: String,
    book: crate::book::SharedBook,
    book_file_text: String,
    /// The table, unless the line changes it in place: a fresh controller
    /// then makes its own.
    tt: Option<Arc<TranspositionTable>>,
    trees: Arc<parking_lot::Mutex<TreeMemory>>,
    debug: bool,
    game_given: bool,
    dialect: Option<Box<dyn Dialect>>,
    /// A search running without its answer yet.
    search: Option<Arc<SearchControl>>,
}

/// Keep the process's stdout for the protocol alone
/// ([`plyd_util::output::keep_stdout`]): whatever a plugin prints on its
/// stdout (a C `printf`, a Rust `println!`) reaches the log, not the GUI,
/// which would read it as the engine's answer. Call it before any plugin
/// is loaded.
pub fn keep_stdout_for_the_protocol() {
    plyd_util::output::keep_stdout();
}

/// Write one line of a command-line tool's output (`plyd check`, `perft`,
/// `bench`, ...) where [`keep_stdout_for_the_protocol`] kept stdout, so
/// that what a plugin prints on its own stdout stays out of it.
pub fn print_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = protocol_out();
    // A failed write ends the tool (a closed pipe ends it by its signal
    // first): one line, then an unwind that `main` turns into exit status
    // 1, running the tool's clean-ups (an arena's engines are stopped).
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        eprintln!("plyd: cannot write to stdout: {e}");
        std::panic::resume_unwind(Box::new(StdoutFailed));
    }
}

/// The unwind of a tool whose output could not be written
/// ([`print_line`]).
pub struct StdoutFailed;

/// Where the protocol is written: the descriptor kept for it, or stdout.
pub(crate) fn protocol_out() -> Box<dyn std::io::Write + Send> {
    plyd_util::output::out()
}

/// Input lines read ahead of the controller at most.
const QUEUED_LINES: usize = 4096;

/// Run the daemon on stdin/stdout until `quit` or the end of input: a
/// controller thread, and the sentry that replaces it should it be stuck
/// in a plugin call.
pub fn run(config: DaemonConfig) {
    guard::watchdog::set_call_limit(Duration::from_millis(u64::from(
        config.settings.call_limit_ms,
    )));
    // Lines read and not yet handled wait here, a bounded number: input
    // faster than the daemon answers (`yes isready`) waits in the pipe,
    // not in memory (unbounded, it grew 1.9 GB in 8 s).
    let (lines_tx, lines_rx) = bounded(QUEUED_LINES);
    // The daemon's own three threads: where the system gives no thread (a
    // sandbox's limit on processes, `ulimit -u`), it cannot run at all.
    let started = |what: &str, result: std::io::Result<std::thread::JoinHandle<()>>| {
        if let Err(e) = result {
            eprintln!(
                "plyd: cannot start the {what} thread: {e} (a limit on threads or processes, \
                 ulimit -u or a sandbox's, leaves plyd none): plyd cannot run here"
            );
            std::process::exit(2);
        }
    };
    started(
        "input",
        std::thread::Builder::new()
            .name("plyd-stdin".into())
            .spawn(move || read_stdin(lines_tx)),
    );
    let (done_tx, done_rx) = unbounded();
    let sentry = Sentry::new(lines_rx.clone(), done_tx);
    let watcher = sentry.first();
    started(
        "sentry",
        std::thread::Builder::new()
            .name("plyd-sentry".into())
            .spawn(move || sentry.keep_watch()),
    );
    started(
        "controller",
        std::thread::Builder::new()
            .name("plyd-controller".into())
            .stack_size(CONTROLLER_STACK)
            .spawn(move || {
                let daemon = Daemon::new(config, watcher);
                control(daemon, None, lines_rx);
            }),
    );
    // Every controller, the first or one that took over, says when the
    // daemon ends.
    let _ = done_rx.recv();
}

/// Run a controller, handling `first` (a line a stuck controller left)
/// and then the lines from `lines`, until the daemon ends, which it tells
/// the sentry, or another controller takes over.
fn control(mut daemon: Daemon, first: Option<&str>, lines: Receiver<Input>) {
    let run = || {
        if let Some(line) = first {
            let keep_going = daemon.handle_line_guarded(line);
            if daemon.controller.replaced() {
                return false;
            }
            if !keep_going {
                daemon.shut_down();
                return true;
            }
        }
        daemon.serve(lines)
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(true) => {
            if let Some(watcher) = daemon.controller.watcher() {
                watcher.finished();
            }
        }
        Ok(false) => {}
        // A panic of the controller's own (outside a line, where it is
        // caught) ends the daemon as it would on the main thread.
        Err(_) => crate::logpipe::exit(101),
    }
}

impl Daemon {
    /// The first controller, watched by `watcher`'s sentry.
    fn new(config: DaemonConfig, watcher: Watcher) -> Self {
        let protocol = config.protocol;
        let strict = config.strict;
        let mut controller = Controller::new(config, watcher.output());
        controller.watch_with(watcher);
        controller.set_start_options();
        let dialect = protocol.map(|p| p.start(&mut controller));
        // Each problem was logged as it was found.
        if strict && !controller.startup_errors.is_empty() {
            log::error!(
                "--strict: {} at the start: plyd exits",
                crate::counted(controller.startup_errors.len(), "problem", "problems")
            );
            crate::logpipe::exit(2);
        }
        // A person at a terminal hears from plyd before typing anything
        // (a GUI, on a pipe, sees nothing before its first command; GTP
        // and NBoard answer commands only).
        if std::io::IsTerminal::is_terminal(&std::io::stdin())
            && matches!(
                protocol,
                None | Some(Protocol::Uci | Protocol::Ucci | Protocol::Ugi)
            )
        {
            let game = controller
                .session
                .variant_name()
                .map_or(String::new(), |name| format!(", playing {name}"));
            let note = if protocol == Some(Protocol::Ucci) {
                "info message"
            } else {
                "info string"
            };
            controller.raw(&format!(
                "{note} plyd {}{game}: help lists the commands, quit ends",
                env!("CARGO_PKG_VERSION")
            ));
        }
        Daemon {
            controller,
            dialect,
        }
    }

    /// A fresh controller carrying on from `state`, where the variant's
    /// plugin was given up for the reason `why`.
    fn resume(mut state: Resumable, why: String, watcher: Watcher) -> Self {
        let dialect = state.dialect.take();
        let search = state.search.take();
        let controller = Controller::resume(state, why, watcher);
        let mut daemon = Daemon {
            controller,
            dialect,
        };
        if let Some(search) = search {
            // Left running by the stuck controller: answered from what it
            // found, and stopped.
            search.stop();
            let (controller, voice) = daemon.parts();
            controller.report_best_so_far(voice, &search);
        }
        daemon
    }

    /// The controller and the dialect spoken (UCI until one is chosen).
    fn parts(&mut self) -> (&mut Controller, &mut dyn Dialect) {
        let controller = &mut self.controller;
        let dialect = self
            .dialect
            .get_or_insert_with(|| Chosen::Uci.start(controller));
        (controller, dialect.as_mut())
    }

    /// Read and handle lines until `quit` or the end of input (`true`),
    /// or until a fresh controller took over from this one (`false`).
    fn serve(&mut self, lines: Receiver<Input>) -> bool {
        loop {
            // With nothing due, an hour's wait that simply comes round again.
            let wait = self
                .controller
                .next_due()
                .map_or(Duration::from_secs(3600), |(at, _)| {
                    at.saturating_duration_since(Instant::now())
                });
            // The job's channel is fetched each time: giving up on a job
            // replaces it.
            let events = self.controller.events();
            select! {
                recv(lines) -> input => match input {
                    Ok(Input::Line(line, at, held)) => {
                        // Out of the queue: its room is the reader's again
                        // (kept while the line is handled, a controller
                        // stuck on it would keep it for good).
                        drop(held);
                        self.controller.line_arrived = Some(at);
                        let keep_going = self.handle_line_guarded(&line);
                        self.controller.line_arrived = None;
                        if self.controller.replaced() {
                            return false;
                        }
                        if !keep_going {
                            self.shut_down();
                            return true;
                        }
                    }
                    Ok(Input::TooLong(bytes)) => {
                        let (controller, voice) = self.parts();
                        voice.skipped_line(controller, &format!(
                            "a line of {bytes} bytes was skipped: lines are limited to {} MiB",
                            MAX_LINE_BYTES >> 20
                        ));
                    }
                    Ok(Input::Eof) | Err(_) => {
                        let (controller, voice) = self.parts();
                        voice.end_of_input(controller);
                        if voice.answers_after_end_of_input() {
                            controller.finish_job(voice);
                        }
                        self.shut_down();
                        return true;
                    }
                },
                recv(events) -> event => {
                    if let Ok(event) = event {
                        let (controller, voice) = self.parts();
                        controller.handle_event(voice, event);
                    }
                }
                default(wait) => {
                    let (controller, voice) = self.parts();
                    controller.watchdog(voice);
                }
            }
        }
    }

    /// Stop a running job and print what it still has to say.
    fn shut_down(&mut self) {
        let (controller, voice) = self.parts();
        controller.shut_down(voice);
    }

    /// [`Daemon::handle_line`], surviving a bug of the engine's own: a
    /// panic becomes an error line instead of the end of the daemon.
    fn handle_line_guarded(&mut self, line: &str) -> bool {
        if let Some(watcher) = self.controller.watcher() {
            let mut state = self.controller.resumable();
            state.dialect = self.dialect.clone();
            watcher.checkpoint(line, state);
        }
        match catch_unwind(AssertUnwindSafe(|| self.handle_line(line))) {
            Ok(keep_going) => keep_going,
            Err(_) => {
                let (controller, voice) = self.parts();
                voice.error(
                    controller,
                    &format!("internal error while handling '{}'", line.trim()),
                );
                true
            }
        }
    }

    /// Handle one input line in the dialect spoken, choosing it first if
    /// need be; `false` means quit.
    fn handle_line(&mut self, line: &str) -> bool {
        if self.dialect.is_none() {
            // Blank lines choose nothing, nor does a comment (a GTP
            // controller's `# ...`, which no protocol takes for a command).
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                return true;
            }
            let chosen = Chosen::from_first_line(line);
            self.dialect = Some(chosen.start(&mut self.controller));
        }
        let (controller, voice) = self.parts();
        controller.settle_answered_job(voice);
        if !controller.busy() {
            controller.replace_failed_evaluator(voice);
        }
        // UCI's debug mode: every command read is said back as read.
        if controller.debug && !line.trim().is_empty() {
            voice.note(controller, &format!("debug: read '{}'", line.trim()));
        }
        let going_on = voice.line(controller, line);
        // What went wrong at the start (no game, a bad config value or
        // parameter file, ...) is told once, after the first line (the
        // greeting, as a rule): the GUI learns it before its first search
        // rather than only in the log.
        for note in std::mem::take(&mut controller.startup_notes) {
            voice.note(controller, &note);
        }
        let errors = std::mem::take(&mut controller.startup_errors);
        // Each was logged as it was found: a dialect that speaks in the
        // log would only say it twice.
        if !voice.errors_go_to_the_log() {
            for error in errors {
                voice.error(controller, &error);
            }
        }
        going_on
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_os = "linux")]
    #[test]
    fn the_process_age_counts_from_before_main() {
        // The process began before this test did: its age is at least the
        // time the test has run, whatever the machine's load.
        let test_began = std::time::Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let age = super::process_age().expect("Linux says when the process started");
        assert!(age >= test_began.elapsed(), "{age:?}");
        assert!(super::process_started() <= test_began);
    }
}
