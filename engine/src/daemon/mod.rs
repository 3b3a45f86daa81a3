//! The daemon: a stdin reader thread, a controller loop, and background jobs.
//!
//! The controller is the only writer of stdout. It waits on two channels —
//! input lines and job events — so it answers `isready`, `stop` and `quit`
//! at once even while a search runs.

mod dialect;
mod sentry;
mod session;
mod watchdog;
mod worker;

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{select, unbounded, Receiver, RecvTimeoutError, Sender};
use plyd_protocol::{parse_line, Command, GoParams, OptionDecl, OptionKind, Response};

use crate::host::{GameOptionKindDesc, GameState, PluginHost};
use crate::options::{self, names, EngineSettings};
use crate::search::bench::BenchTarget;
use crate::search::{
    limits_from_go, mcts::TreeMemory, ChancePruning, SearchControl, SearchEvent, SearchMode,
    SearchOptions, TranspositionTable,
};
pub use dialect::Dialect;
use dialect::{DialectState, Routed};
use sentry::{GatedOut, Sentry, Watcher};
use session::create_evaluator_watched;
pub use session::{create_evaluator, evaluation_lines, Session};
use watchdog::{blame_text, call_within, Blame, Due, CALL_LIMIT};
use worker::{Job, JobEvent, JobKind, SearchJob};

/// The stack of a controller thread: what the main thread has on Linux,
/// where the controller ran before it could be replaced.
const CONTROLLER_STACK: usize = 8 << 20;

/// How long `quit` waits for a running job to wind down before leaving.
const QUIT_GRACE: Duration = Duration::from_secs(2);

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
    /// Numeric settings.
    pub settings: EngineSettings,
    /// The plugin path as given (shown as the `PluginPath` default).
    pub plugin_path_text: String,
    /// The dialect to speak; `None`: the first command chooses.
    pub protocol: Option<Dialect>,
}

/// One line of input, or its end.
pub(crate) enum Input {
    Line(String),
    /// A line over [`MAX_LINE_BYTES`], skipped: its length.
    TooLong(usize),
    Eof,
}

/// The controller's state.
pub struct Daemon<W: Write> {
    out: W,
    session: Session,
    settings: EngineSettings,
    plugin_path_text: String,
    /// The transposition table, shared with the running search (if any).
    tt: Arc<TranspositionTable>,
    /// The Monte-Carlo trees kept between searches of one game.
    trees: Arc<parking_lot::Mutex<TreeMemory>>,
    /// The last file loaded with `EvalFile`, shown as its value in `uci`.
    eval_file_text: String,
    job: Option<Job>,
    events_tx: Sender<JobEvent>,
    events_rx: Receiver<JobEvent>,
    debug: bool,
    /// The dialect spoken and its own state.
    dialects: DialectState,
    /// The sentry over the plugin calls made on this thread.
    watcher: Option<Watcher>,
}

/// A controller's state before a line, for a fresh controller to carry
/// on from should this one be stuck in a plugin call during the line (see
/// [`sentry`]). The position is not in it: it belongs to the stuck plugin.
pub(crate) struct Resumable {
    host: PluginHost,
    variant: Option<String>,
    settings: EngineSettings,
    plugin_path_text: String,
    eval_file_text: String,
    /// The table, unless the line changes it in place (see
    /// [`Daemon::table`]): a fresh controller then makes its own.
    tt: Option<Arc<TranspositionTable>>,
    trees: Arc<parking_lot::Mutex<TreeMemory>>,
    debug: bool,
    dialects: DialectState,
    /// A search running without its answer yet.
    search: Option<Arc<SearchControl>>,
}

/// Run the daemon on stdin/stdout until `quit` or the end of input: a
/// controller thread, and the sentry that replaces it should it be stuck
/// in a plugin call.
pub fn run(config: DaemonConfig) {
    let (lines_tx, lines_rx) = unbounded();
    std::thread::Builder::new()
        .name("plyd-stdin".into())
        .spawn(move || read_stdin(lines_tx))
        .expect("the stdin thread can be started");
    let (done_tx, done_rx) = unbounded();
    let sentry = Sentry::new(lines_rx.clone(), done_tx);
    let watcher = sentry.first();
    std::thread::Builder::new()
        .name("plyd-sentry".into())
        .spawn(move || sentry.keep_watch())
        .expect("the sentry thread can be started");
    std::thread::Builder::new()
        .name("plyd-controller".into())
        .stack_size(CONTROLLER_STACK)
        .spawn(move || {
            let mut daemon = Daemon::new(config, watcher.output());
            daemon.watch_with(watcher.clone());
            control(daemon, None, lines_rx);
        })
        .expect("the controller thread can be started");
    // Every controller, the first or one that took over, says when the
    // daemon ends.
    let _ = done_rx.recv();
}

/// Run a controller, handling `first` (a line a stuck controller left)
/// and then the lines from `lines`, until the daemon ends, which it tells
/// the sentry, or another controller takes over.
fn control(mut daemon: Daemon<GatedOut>, first: Option<&str>, lines: Receiver<Input>) {
    let run = || {
        if let Some(line) = first {
            let keep_going = daemon.handle_line_guarded(line);
            if daemon.replaced() {
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
            if let Some(watcher) = &daemon.watcher {
                watcher.finished();
            }
        }
        Ok(false) => {}
        // A panic of the controller's own (outside a line, where it is
        // caught) ends the daemon as it would on the main thread.
        Err(_) => std::process::exit(101),
    }
}

fn read_stdin(lines: Sender<Input>) {
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    loop {
        let input = match read_line_capped(&mut reader, MAX_LINE_BYTES) {
            Ok(Line::End) | Err(_) => Input::Eof,
            // Bad UTF-8 is not a reason to stop reading: the parser
            // reports the mangled line as unknown.
            Ok(Line::Text(bytes)) => Input::Line(String::from_utf8_lossy(&bytes).into_owned()),
            Ok(Line::TooLong(bytes)) => Input::TooLong(bytes),
        };
        let end = matches!(input, Input::Eof);
        if lines.send(input).is_err() || end {
            return;
        }
    }
}

/// Longest input line read, in bytes: a `position` line of 100,000 moves
/// fits several times over. Longer lines are skipped unread, so a runaway
/// writer cannot make the daemon hold its output in memory.
const MAX_LINE_BYTES: usize = 8 << 20;

/// One line from [`read_line_capped`].
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// The line, without its end.
    Text(Vec<u8>),
    /// A line of this many bytes, over the cap, skipped.
    TooLong(usize),
    /// The end of the input.
    End,
}

/// Read one line (ending at `\n` or the end of input) of at most `cap`
/// bytes; a longer one is read to its end and thrown away.
fn read_line_capped(reader: &mut impl BufRead, cap: usize) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut length = 0usize;
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        length += chunk.len();
        if length <= cap {
            line.extend_from_slice(chunk);
        } else if !line.is_empty() {
            line = Vec::new();
        }
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    Ok(match (any, length <= cap) {
        (false, _) => Line::End,
        (true, true) => Line::Text(line),
        (true, false) => Line::TooLong(length),
    })
}

impl Daemon<GatedOut> {
    /// A fresh controller carrying on from `state`, where the variant's
    /// plugin was given up for the reason `why`.
    fn resume(state: Resumable, why: String, watcher: Watcher) -> Self {
        let (events_tx, events_rx) = unbounded();
        let mut settings = state.settings;
        let tt = state
            .tt
            .unwrap_or_else(|| Arc::new(new_table(&mut settings)));
        let mut daemon = Daemon {
            out: watcher.output(),
            session: Session::resumed(state.host, state.variant, why, watcher.clone()),
            settings,
            plugin_path_text: state.plugin_path_text,
            tt,
            trees: state.trees,
            eval_file_text: state.eval_file_text,
            job: None,
            events_tx,
            events_rx,
            debug: state.debug,
            dialects: state.dialects,
            watcher: Some(watcher),
        };
        if let Some(search) = state.search {
            // Left running by the stuck controller: answered from what it
            // found, and stopped.
            search.stop();
            daemon.report_best_so_far(&search);
        }
        daemon
    }
}

/// A table of the `Hash` in `settings`, or of the default size (which
/// `settings` then takes) when the machine cannot give that one.
fn new_table(settings: &mut EngineSettings) -> TranspositionTable {
    let fits =
        crate::memory::check_hash(u64::from(settings.hash_mib), crate::memory::available_mib());
    fits.and_then(|()| TranspositionTable::new(settings.hash_mib as usize))
        .unwrap_or_else(|e| {
            let fallback = options::HASH_RANGE.default as u32;
            log::error!("{e}; using {fallback} MiB");
            settings.hash_mib = fallback;
            TranspositionTable::new(fallback as usize).expect("the default hash size fits")
        })
}

impl<W: Write> Daemon<W> {
    /// Load plugins and set up the session; problems go to the log.
    pub fn new(config: DaemonConfig, out: W) -> Self {
        // Watched like a `PluginPath` load: a plugin that never returns
        // while loading leaves a daemon with no game, that answers.
        let wanted = (
            config.plugin_dirs.clone(),
            config.game.clone(),
            config.evaluator.clone(),
            config.eval_params.clone(),
        );
        // Twice the limit of one call: the evaluator's creation inside it
        // is watched on its own.
        let opened = call_within("loading the plugins", 2 * CALL_LIMIT, &[], move || {
            let (dirs, game, evaluator, params) = wanted;
            Session::open(
                &dirs,
                game.as_deref(),
                evaluator.as_deref(),
                params.as_deref(),
            )
        });
        let (session, messages) = opened.unwrap_or_else(|e| (Session::default(), vec![e]));
        for message in messages {
            log::error!("{message}");
        }
        let (events_tx, events_rx) = unbounded();
        let mut settings = config.settings;
        let tt = new_table(&mut settings);
        let mut daemon = Daemon {
            out,
            session,
            settings,
            tt: Arc::new(tt),
            trees: Arc::default(),
            plugin_path_text: config.plugin_path_text,
            eval_file_text: String::new(),
            job: None,
            events_tx,
            events_rx,
            debug: false,
            dialects: DialectState::new(config.game.is_some()),
            watcher: None,
        };
        if let Some(dialect) = config.protocol {
            daemon.choose_dialect(dialect);
        }
        daemon
    }

    /// Have the sentry watch this controller's plugin calls.
    fn watch_with(&mut self, watcher: Watcher) {
        self.session.watch_with(watcher.clone());
        self.watcher = Some(watcher);
    }

    /// Whether a fresh controller took over from this one.
    fn replaced(&self) -> bool {
        self.watcher.as_ref().is_some_and(Watcher::replaced)
    }

    /// What a fresh controller needs to carry on from here.
    fn resumable(&self) -> Resumable {
        let search = self
            .job
            .as_ref()
            .filter(|job| job.kind == JobKind::Search && !job.watch.answered())
            .map(|job| Arc::clone(&job.control));
        Resumable {
            host: self.session.host.clone(),
            variant: self.session.variant_name(),
            settings: self.settings.clone(),
            plugin_path_text: self.plugin_path_text.clone(),
            eval_file_text: self.eval_file_text.clone(),
            tt: Some(Arc::clone(&self.tt)),
            trees: Arc::clone(&self.trees),
            debug: self.debug,
            dialects: self.dialects.clone(),
            search,
        }
    }

    /// Read and handle lines until `quit` or the end of input (`true`),
    /// or until a fresh controller took over from this one (`false`).
    fn serve(&mut self, lines: Receiver<Input>) -> bool {
        loop {
            // With nothing due, an hour's wait that simply comes round again.
            let wait = self
                .next_due()
                .map_or(Duration::from_secs(3600), |(at, _)| {
                    at.saturating_duration_since(Instant::now())
                });
            select! {
                recv(lines) -> input => match input {
                    Ok(Input::Line(line)) => {
                        let keep_going = self.handle_line_guarded(&line);
                        if self.replaced() {
                            return false;
                        }
                        if !keep_going {
                            self.shut_down();
                            return true;
                        }
                    }
                    Ok(Input::TooLong(bytes)) => self.error(&format!(
                        "a line of {bytes} bytes was skipped: lines are limited to {} MiB",
                        MAX_LINE_BYTES >> 20
                    )),
                    Ok(Input::Eof) | Err(_) => {
                        self.shut_down();
                        return true;
                    }
                },
                recv(self.events_rx) -> event => {
                    if let Ok(event) = event {
                        self.handle_event(event);
                    }
                }
                default(wait) => self.watchdog(),
            }
        }
    }

    /// Stop a running job and print what it still has to say (its
    /// `bestmove`), waiting a little for it.
    fn shut_down(&mut self) {
        self.stop_job();
        self.wait_for_job(|_| true, Some(Instant::now() + QUIT_GRACE));
    }

    /// Ask the running job, if any, to stop; the watchdog counts from the
    /// first such request.
    fn stop_job(&mut self) {
        if let Some(job) = &mut self.job {
            job.control.stop();
            job.watch.stop_sent.get_or_insert_with(Instant::now);
        }
    }

    /// The running job's next deadline and what falls due then.
    fn next_due(&self) -> Option<(Instant, Due)> {
        let job = self.job.as_ref()?;
        job.watch.next(&job.control)
    }

    /// Act on the running job's deadline if it has come (see [`watchdog`]).
    fn watchdog(&mut self) {
        let Some((at, due)) = self.next_due() else {
            return;
        };
        let now = Instant::now();
        if now < at {
            return;
        }
        // A job without signs of life for too long is due its answer.
        let answer = match due {
            Due::Look => {
                let stalled = self
                    .job
                    .as_mut()
                    .is_some_and(|job| job.watch.look(&job.control, now));
                if !stalled {
                    return;
                }
                true
            }
            Due::Answer => true,
            Due::GiveUp => false,
        };
        let is_search = self.job.as_ref().is_some_and(|j| j.kind == JobKind::Search);
        if answer && is_search {
            if let Some(job) = self
                .job
                .as_mut()
                .filter(|j| j.control.best_so_far().is_none())
            {
                // Nothing to answer with yet: wait for a first move
                // rather than play `(none)` (see `Watch::next`).
                job.watch.due_without_move.get_or_insert(at);
                return;
            }
            let why = if self.job.as_ref().is_some_and(|j| j.watch.stalled) {
                format!(
                    "has made no progress for {} s",
                    watchdog::STALL_LIMIT.as_secs_f64()
                )
            } else {
                "has not answered in time".to_string()
            };
            log::warn!("the search {why}; answering with its best move so far");
            self.answer_for_job();
            if let Some(job) = &mut self.job {
                job.watch.overdue = true;
            }
        } else {
            self.give_up_on_job();
        }
    }

    /// Print the running search's `bestmove` from what it found so far.
    fn answer_for_job(&mut self) {
        let Some(job) = &self.job else { return };
        let control = Arc::clone(&job.control);
        self.report_best_so_far(&control);
        self.mark_answered();
    }

    /// Print `bestmove` with the best move `search` has found so far.
    fn report_best_so_far(&mut self, search: &SearchControl) {
        let (best, ponder) = search
            .best_so_far()
            .map_or((None, None), |(best, ponder)| (Some(best), ponder));
        self.report_best(best, ponder);
    }

    /// The job's thread is stuck in a plugin call: report and disable the
    /// plugin, answer the `go` if not yet done, and carry on without the
    /// thread, with a fresh table, trees and event channel (the thread keeps
    /// the old ones).
    fn give_up_on_job(&mut self) {
        let Some(job) = &self.job else { return };
        job.control.stop();
        let kind = job.kind;
        let stalled = job.watch.stalled;
        let blamed = blame_text(&job.plugins);
        for plugin in &job.plugins {
            plugin.disable();
        }
        let demoted = job.control.demote_threads();
        log::warn!("{demoted} stuck thread(s) of the job demoted to the idle scheduling class");
        if kind == JobKind::Search && !job.watch.answered() {
            self.answer_for_job();
        }
        let what = match kind {
            JobKind::Search => "the search",
            JobKind::Perft => "perft",
            JobKind::Bench => "bench",
        };
        let when = if stalled {
            format!(
                "made no progress for {} s and was given up",
                watchdog::STALL_LIMIT.as_secs_f64()
            )
        } else {
            format!(
                "was given up {} s after it should have ended",
                watchdog::HUNG_AFTER.as_secs_f64()
            )
        };
        self.error(&format!(
            "{blamed} did not return from a call: {what} {when}; \
             the plugin is disabled until it is loaded again (setoption name PluginPath)"
        ));
        // Dropping the job detaches its thread.
        self.job = None;
        (self.events_tx, self.events_rx) = unbounded();
        self.trees = Arc::default();
        match TranspositionTable::new(self.settings.hash_mib as usize) {
            Ok(table) => self.tt = Arc::new(table),
            Err(e) => log::error!("{e}; the table stays shared with the stuck thread"),
        }
    }

    fn send(&mut self, response: &Response) {
        self.raw(&response.to_string());
    }

    fn raw(&mut self, line: &str) {
        // A closed stdout means the GUI is gone; the next read sees EOF.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn error(&mut self, what: &str) {
        log::debug!("{what}");
        self.report_error(what);
    }

    fn handle_event(&mut self, event: JobEvent) {
        let overdue = self.job.as_ref().is_some_and(|job| job.watch.overdue);
        match event {
            // The watchdog has answered for this search.
            JobEvent::Search(event) if overdue => {
                log::debug!("late search event dropped: {event:?}")
            }
            JobEvent::Search(SearchEvent::Info(info)) => self.report_info(info),
            JobEvent::Search(SearchEvent::BestMove { best, ponder }) => {
                self.report_best(best, ponder);
                self.mark_answered();
            }
            JobEvent::Line { text, last } => {
                self.raw(&text);
                if last {
                    self.mark_answered();
                }
            }
            JobEvent::Error(e) => self.error(&e),
            JobEvent::Finished => {
                if let Some(job) = self.job.take() {
                    job.join();
                }
            }
        }
    }

    fn mark_answered(&mut self) {
        if let Some(job) = &mut self.job {
            job.watch.answered_at = Some(Instant::now());
        }
    }

    /// A job that has printed its final answer is over as far as the GUI
    /// knows, which may already have sent the next `go`: wait for the job's
    /// thread to end so that the command finds the engine idle — or for the
    /// watchdog to give up on it.
    fn settle_answered_job(&mut self) {
        self.wait_for_job(|job| job.watch.answered(), None);
    }

    /// Handle the job's events while it runs and `waiting` holds, keeping
    /// its watchdog's deadlines, until `until` if given.
    fn wait_for_job(&mut self, waiting: impl Fn(&Job) -> bool, until: Option<Instant>) {
        while self.job.as_ref().is_some_and(&waiting) {
            let due = self.next_due().map(|(at, _)| at);
            let wake = match (due, until) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let received = match wake {
                Some(at) => self.events_rx.recv_deadline(at),
                None => self
                    .events_rx
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match received {
                Ok(event) => self.handle_event(event),
                Err(RecvTimeoutError::Timeout) if until.is_none_or(|u| Instant::now() < u) => {
                    self.watchdog()
                }
                Err(_) => break,
            }
        }
    }

    /// [`Daemon::handle_line`], surviving a bug of the engine's own: a
    /// panic becomes an error line instead of the end of the daemon.
    fn handle_line_guarded(&mut self, line: &str) -> bool {
        if let Some(watcher) = &self.watcher {
            watcher.checkpoint(line, self.resumable());
        }
        match catch_unwind(AssertUnwindSafe(|| self.handle_line(line))) {
            Ok(keep_going) => keep_going,
            Err(_) => {
                self.error(&format!("internal error while handling '{}'", line.trim()));
                true
            }
        }
    }

    /// Handle one input line; `false` means quit.
    fn handle_line(&mut self, line: &str) -> bool {
        self.settle_answered_job();
        if self.job.is_none() {
            if let Some(note) = self.session.replace_failed_evaluator() {
                self.error(&note);
            }
        }
        let line = match self.dialect_line(line) {
            Routed::Done(keep_going) => return keep_going,
            Routed::Uci(line) => line,
        };
        let command = match parse_line(&line) {
            Ok(Some(command)) => command,
            Ok(None) => return true,
            Err(e) => {
                self.error(&e.to_string());
                if e.refused_a_search() && self.job.is_none() {
                    // Every go gets exactly one bestmove, even one that
                    // could not be read (a running search gives its own).
                    self.report_best(None, None);
                }
                return true;
            }
        };
        if self.debug {
            self.send(&Response::info_string(format!("debug: {command:?}")));
        }
        match command {
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.send(&Response::ReadyOk),
            Command::SetOption { name, value } => {
                if self.job.is_some() {
                    self.error("options cannot change while a search is running; send stop first");
                } else if let Err(e) = self.set_option(&name, value.as_deref()) {
                    self.error(&e);
                }
            }
            Command::Register(_) => {}
            Command::UciNewGame => {
                if self.job.is_some() {
                    self.error("ucinewgame during a search is ignored; send stop first");
                } else if let Err(e) = self.session.reset_position() {
                    self.error(&e);
                } else if let Err(e) = self.clear_hash() {
                    self.error(&e);
                }
            }
            Command::Position { start, moves } => {
                if let Err(e) = self.session.set_gui_position(&start, &moves) {
                    self.error(&e);
                }
            }
            Command::Go(go) => self.go(&go),
            Command::Perft { depth } => self.perft(depth),
            Command::Stop => self.stop_job(),
            Command::PonderHit => {
                if let Some(job) = &self.job {
                    job.control.ponderhit();
                }
            }
            Command::Quit => return false,
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench { game, depth } => self.bench(game.as_deref(), depth),
        }
        true
    }

    fn uci(&mut self) {
        self.send(&Response::IdName(format!(
            "plyd {}",
            env!("CARGO_PKG_VERSION")
        )));
        self.send(&Response::IdAuthor("the plyd developers".to_string()));
        for decl in self.option_decls() {
            self.send(&Response::Option(decl));
        }
        self.send(&Response::UciOk);
    }

    fn option_decls(&self) -> Vec<OptionDecl> {
        let variants = self.session.host.variant_names();
        let evaluators = self.session.evaluator_names();
        let eval_params = self
            .session
            .current
            .as_ref()
            .and_then(|c| c.eval_params.as_ref())
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let (variant, evaluator) = match &self.session.current {
            Some(c) => (c.variant.name().to_string(), c.evaluator.name().to_string()),
            None => ("none".to_string(), "none".to_string()),
        };
        let combo = |name: &str, default: String, mut vars: Vec<String>| {
            if vars.is_empty() {
                vars.push(default.clone());
            }
            OptionDecl {
                name: name.to_string(),
                kind: OptionKind::Combo { default, vars },
            }
        };
        let check = |name: &str, default: bool| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Check { default },
        };
        let spin = |name: &str, range: options::SpinRange, value: u32| OptionDecl {
            name: name.to_string(),
            kind: OptionKind::Spin {
                default: i64::from(value),
                min: range.min,
                max: range.max,
            },
        };
        let mut decls = vec![
            combo(names::VARIANT, variant, variants),
            combo(names::EVALUATOR, evaluator, evaluators),
            OptionDecl {
                name: names::EVAL_FILE.to_string(),
                kind: OptionKind::String {
                    default: self.eval_file_text.clone(),
                },
            },
            OptionDecl {
                name: names::EVAL_PARAMS.to_string(),
                kind: OptionKind::String {
                    default: eval_params,
                },
            },
            spin(names::HASH, options::HASH_RANGE, self.settings.hash_mib),
            spin(
                names::THREADS,
                options::THREADS_RANGE,
                self.settings.threads,
            ),
            OptionDecl {
                name: names::CLEAR_HASH.to_string(),
                kind: OptionKind::Button,
            },
            spin(
                names::MOVE_OVERHEAD,
                options::MOVE_OVERHEAD_RANGE,
                self.settings.move_overhead_ms,
            ),
            OptionDecl {
                name: names::PLUGIN_PATH.to_string(),
                kind: OptionKind::String {
                    default: self.plugin_path_text.clone(),
                },
            },
            OptionDecl {
                name: names::PONDER.to_string(),
                kind: OptionKind::Check {
                    default: self.settings.ponder,
                },
            },
            spin(
                names::MULTIPV,
                options::MULTIPV_RANGE,
                self.settings.multipv,
            ),
            check(names::NULL_MOVE, self.settings.null_move),
            check(names::LMR, self.settings.reductions),
            check(names::FUTILITY, self.settings.futility),
            combo(
                names::CHANCE_PRUNING,
                self.settings.chance_pruning.name().to_string(),
                ChancePruning::NAMES.iter().map(|n| n.to_string()).collect(),
            ),
            check(names::QUIESCENCE, self.settings.quiescence),
            check(names::CHECK_EXTENSIONS, self.settings.check_extensions),
            check(names::SELECTIVE, self.settings.selective),
            check(names::ENDGAME_SOLVER, self.settings.endgame_solver),
            combo(
                names::SEARCH_MODE,
                self.search_mode().name().to_string(),
                SearchMode::NAMES.iter().map(|n| n.to_string()).collect(),
            ),
        ];
        // Each loaded game's own settings, after the engine's; a name two
        // games share is shown once (a setoption reaches both).
        for game in self.session.host.games() {
            for option in &game.info().options {
                if decls
                    .iter()
                    .any(|d| d.name.eq_ignore_ascii_case(&option.name))
                {
                    continue;
                }
                let kind = match &option.kind {
                    GameOptionKindDesc::Check { default } => {
                        OptionKind::Check { default: *default }
                    }
                    GameOptionKindDesc::Spin { default, min, max } => OptionKind::Spin {
                        default: *default,
                        min: *min,
                        max: *max,
                    },
                    GameOptionKindDesc::Combo { default, choices } => OptionKind::Combo {
                        default: default.clone(),
                        vars: choices.clone(),
                    },
                    GameOptionKindDesc::Text { default } => OptionKind::String {
                        default: default.clone(),
                    },
                };
                decls.push(OptionDecl {
                    name: option.name.clone(),
                    kind,
                });
            }
        }
        decls
    }

    /// Pass a setting to every loaded game that lists an option `name`,
    /// after checking `value` against its kind. `Ok(false)`: no game has it.
    fn set_game_option(&self, name: &str, value: Option<&str>) -> Result<bool, String> {
        let mut found = false;
        for game in self.session.host.games() {
            let Some(option) = game
                .info()
                .options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(name))
            else {
                continue;
            };
            found = true;
            let given = value.unwrap_or("").trim();
            let value = match &option.kind {
                GameOptionKindDesc::Check { .. } => options::parse_bool(&option.name, given)
                    .map_err(|e| e.to_string())?
                    .to_string(),
                GameOptionKindDesc::Spin { default, min, max } => options::SpinRange {
                    default: *default,
                    min: *min,
                    max: *max,
                }
                .parse(&option.name, given)
                .map_err(|e| e.to_string())?
                .to_string(),
                GameOptionKindDesc::Combo { choices, .. } => choices
                    .iter()
                    .find(|c| c.eq_ignore_ascii_case(given))
                    .cloned()
                    .ok_or_else(|| {
                        format!(
                            "option '{}' takes {}, not '{given}'",
                            option.name,
                            choices.join(", ")
                        )
                    })?,
                GameOptionKindDesc::Text { .. } => given.to_string(),
            };
            let (plugin, name) = (Arc::clone(game), option.name.clone());
            let blame = [Blame::Game(Arc::clone(game))];
            call_within("setting a game option", CALL_LIMIT, &blame, move || {
                plugin.set_option(&name, &value)
            })?
            .map_err(|e| format!("option '{}': {e}", option.name))?;
        }
        Ok(found)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        // A kept tree was grown under the old settings: any option that
        // can change the game, the evaluator or the search drops it.
        let harmless = [
            names::PONDER,
            names::MOVE_OVERHEAD,
            names::MULTIPV,
            names::THREADS,
        ];
        if !harmless.iter().any(|n| is(n)) {
            self.trees.lock().clear();
        }
        let need = |value: Option<&str>| {
            value
                .map(str::to_string)
                .ok_or_else(|| format!("option '{name}' needs a value"))
        };
        if is(names::VARIANT) {
            let value = need(value)?;
            self.session.select_variant(value.trim())?;
            self.announce_variant()?;
        } else if is(names::EVALUATOR) {
            self.session.select_evaluator(need(value)?.trim())?;
        } else if is(names::EVAL_FILE) {
            // An empty value loads nothing: GUIs send every string option's
            // value, empty ones included, when they start an engine.
            let text = value.unwrap_or("").trim().to_string();
            if !text.is_empty() {
                let name = self.session.load_eval_file(Path::new(&text))?;
                self.eval_file_text = text.clone();
                self.report_note(&format!("evaluator {name} loaded from {text}"));
            }
        } else if is(names::EVAL_PARAMS) {
            let text = value.unwrap_or("").trim().to_string();
            let path = (!text.is_empty()).then(|| PathBuf::from(&text));
            self.session.set_eval_params(path.as_deref())?;
            let evaluator = self.session.current()?.evaluator.name().to_string();
            let shown = if text.is_empty() { "default" } else { &text };
            self.report_note(&format!("evaluator {evaluator} params {shown}"));
        } else if is(names::HASH) {
            let mib = options::HASH_RANGE
                .parse(names::HASH, &need(value)?)
                .map_err(|e| e.to_string())? as u32;
            let current = self.settings.hash_mib;
            crate::memory::check_hash(u64::from(mib), crate::memory::available_mib())
                .map_err(|e| format!("{e}; the table stays at {current} MiB"))?;
            self.table()?.resize(mib as usize)?;
            self.settings.hash_mib = mib;
        } else if is(names::THREADS) {
            self.settings.threads = options::THREADS_RANGE
                .parse(names::THREADS, &need(value)?)
                .map_err(|e| e.to_string())? as u32;
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            if self.settings.threads as usize > cores {
                self.report_note(&format!(
                    "Threads {} is more than the {cores} hardware threads here: the searches share them",
                    self.settings.threads
                ));
            }
        } else if is(names::MOVE_OVERHEAD) {
            self.settings.move_overhead_ms = options::MOVE_OVERHEAD_RANGE
                .parse(names::MOVE_OVERHEAD, &need(value)?)
                .map_err(|e| e.to_string())? as u32;
        } else if is(names::CLEAR_HASH) {
            self.clear_hash()?;
        } else if is(names::PONDER) {
            self.settings.ponder =
                options::parse_bool(names::PONDER, &need(value)?).map_err(|e| e.to_string())?;
        } else if is(names::MULTIPV) {
            self.settings.multipv = options::MULTIPV_RANGE
                .parse(names::MULTIPV, &need(value)?)
                .map_err(|e| e.to_string())? as u32;
        } else if is(names::NULL_MOVE) {
            self.settings.null_move =
                options::parse_bool(names::NULL_MOVE, &need(value)?).map_err(|e| e.to_string())?;
        } else if is(names::LMR) {
            self.settings.reductions =
                options::parse_bool(names::LMR, &need(value)?).map_err(|e| e.to_string())?;
        } else if is(names::FUTILITY) {
            self.settings.futility =
                options::parse_bool(names::FUTILITY, &need(value)?).map_err(|e| e.to_string())?;
        } else if is(names::QUIESCENCE) {
            self.settings.quiescence =
                options::parse_bool(names::QUIESCENCE, &need(value)?).map_err(|e| e.to_string())?;
        } else if is(names::ENDGAME_SOLVER) {
            self.settings.endgame_solver =
                options::parse_bool(names::ENDGAME_SOLVER, &need(value)?)
                    .map_err(|e| e.to_string())?;
        } else if is(names::SELECTIVE) {
            self.settings.selective =
                options::parse_bool(names::SELECTIVE, &need(value)?).map_err(|e| e.to_string())?;
        } else if is(names::CHECK_EXTENSIONS) {
            self.settings.check_extensions =
                options::parse_bool(names::CHECK_EXTENSIONS, &need(value)?)
                    .map_err(|e| e.to_string())?;
        } else if is(names::SEARCH_MODE) {
            let value = need(value)?;
            self.settings.search_mode = Some(SearchMode::parse(&value).ok_or_else(|| {
                format!(
                    "option '{}' takes {}, not '{}'",
                    names::SEARCH_MODE,
                    SearchMode::NAMES.join(", "),
                    value.trim()
                )
            })?);
        } else if is(names::CHANCE_PRUNING) {
            let value = need(value)?;
            self.settings.chance_pruning = ChancePruning::parse(&value).ok_or_else(|| {
                format!(
                    "option '{}' takes {}, not '{}'",
                    names::CHANCE_PRUNING,
                    ChancePruning::NAMES.join(", "),
                    value.trim()
                )
            })?;
        } else if is(names::PLUGIN_PATH) {
            let text = value.unwrap_or("").trim().to_string();
            let dirs = if text.is_empty() {
                crate::host::default_plugin_dir().into_iter().collect()
            } else {
                options::split_plugin_path(&text)
            };
            let problems = self.session.reload(&dirs)?;
            for problem in problems {
                self.error(&problem);
            }
            self.plugin_path_text = text;
            self.announce_variant()?;
        } else if !self.set_game_option(name, value)? {
            return Err(format!("unknown option '{name}'"));
        }
        Ok(())
    }

    /// The table, for changes between searches (no search holds it then).
    fn table(&mut self) -> Result<&mut TranspositionTable, String> {
        if let Some(watcher) = &self.watcher {
            watcher.release_table();
        }
        Arc::get_mut(&mut self.tt)
            .ok_or_else(|| "the hash table is in use by a search; send stop first".to_string())
    }

    fn clear_hash(&mut self) -> Result<(), String> {
        self.table()?.clear();
        self.trees.lock().clear();
        Ok(())
    }

    /// The search in force: the one `SearchMode` chose, else the one the
    /// current game's plugin recommends.
    fn search_mode(&self) -> SearchMode {
        self.settings.search_mode.unwrap_or_else(|| {
            self.session.current.as_ref().map_or(SearchMode::Pvs, |c| {
                SearchMode::recommended(c.state.plugin().info().capabilities)
            })
        })
    }

    fn search_options(&self) -> SearchOptions {
        SearchOptions {
            threads: self.settings.threads as usize,
            multipv: self.settings.multipv as usize,
            null_move: self.settings.null_move,
            reductions: self.settings.reductions,
            futility: self.settings.futility,
            chance_pruning: self.settings.chance_pruning,
            quiescence: self.settings.quiescence,
            check_extensions: self.settings.check_extensions,
            selective: self.settings.selective,
            endgame_solver: self.settings.endgame_solver,
            mode: self.search_mode(),
        }
    }

    fn announce_variant(&mut self) -> Result<(), String> {
        let current = self.session.current()?;
        let text = format!(
            "variant {} startpos {}",
            current.variant.name(),
            current.variant.desc().start_position
        );
        self.report_note(&text);
        Ok(())
    }

    /// Whether a running job keeps a new one from starting, which is then
    /// reported. A job that was told to stop is not in the way: the GUI
    /// may send `go` right after `stop` (or after `stop` and `isready`),
    /// before the old job has wound down, and the new one starts once it
    /// has.
    pub(super) fn job_in_the_way(&mut self) -> bool {
        if self
            .job
            .as_ref()
            .is_some_and(|job| job.watch.stop_sent.is_some())
        {
            self.wait_for_job(|_| true, None);
        }
        if self.job.is_some() {
            self.error("a search is already running; send stop first");
            return true;
        }
        false
    }

    fn go(&mut self, go: &GoParams) {
        self.go_from(go, None);
    }

    /// `go` from `root`, or from the current position when `None`.
    pub(super) fn go_from(&mut self, go: &GoParams, root: Option<GameState>) {
        if self.job_in_the_way() {
            return;
        }
        if let Err(e) = self.start_search(go, root) {
            self.error(&e);
            // Every go gets exactly one bestmove, even one that failed.
            self.report_best(None, None);
        }
    }

    fn start_search(&mut self, go: &GoParams, root: Option<GameState>) -> Result<(), String> {
        let root = match root {
            Some(root) => root,
            None => self.session.copy_position()?,
        };
        let plugin = Arc::clone(root.plugin());
        let blame = [Blame::Game(Arc::clone(&plugin))];
        let wanted = go.search_moves.clone();
        let prepare = move || {
            let side = root.side_to_move().map_err(|e| e.to_string())?;
            let (mut moves, mut rejected) = (Vec::new(), Vec::new());
            for text in wanted {
                match root.parse_legal_move(&text) {
                    Ok(mv) => moves.push(mv),
                    Err(_) => rejected.push(text),
                }
            }
            Ok::<_, String>((root, side, moves, rejected))
        };
        // A game's `go` reads the side to move here, on the clock (see
        // `Session::ask_position`); the `searchmoves` of an analysis are
        // checked on a watched thread, so that a move generator that never
        // returns does not freeze the daemon before its search (and
        // watchdog) even start.
        let (root, side, search_moves, rejected) = if go.search_moves.is_empty() {
            self.session
                .on_clock("preparing the search", &plugin, prepare)??
        } else {
            call_within("preparing the search", CALL_LIMIT, &blame, prepare)??
        };
        let overhead = Duration::from_millis(u64::from(self.settings.move_overhead_ms));
        let mut limits = limits_from_go(go, side, overhead);
        limits.search_moves = search_moves;
        if !rejected.is_empty() {
            let message = format!(
                "searchmoves: ignoring illegal or unknown {}",
                rejected.join(" ")
            );
            self.error(&message);
        }
        let job = SearchJob {
            root,
            evaluator: Arc::clone(&self.session.current()?.evaluator),
            tt: Arc::clone(&self.tt),
            trees: Arc::clone(&self.trees),
            limits,
            options: self.search_options(),
        };
        let control = Arc::new(SearchControl::new(go.ponder));
        let job = worker::start_search(job, control, self.events_tx.clone())
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.job = Some(job);
        Ok(())
    }

    fn perft(&mut self, depth: u32) {
        if self.job_in_the_way() {
            return;
        }
        let started = self.session.copy_position().and_then(|root| {
            let control = Arc::new(SearchControl::new(false));
            worker::start_perft(root, depth, control, self.events_tx.clone())
                .map_err(|e| format!("cannot start the perft thread: {e}"))
        });
        match started {
            Ok(job) => self.job = Some(job),
            Err(e) => self.error(&e),
        }
    }

    fn bench(&mut self, game: Option<&str>, depth: Option<u32>) {
        if self.job_in_the_way() {
            return;
        }
        let started = self.bench_targets(game).and_then(|targets| {
            let control = Arc::new(SearchControl::new(false));
            worker::start_bench(targets, depth, control, self.events_tx.clone())
                .map_err(|e| format!("cannot start the bench thread: {e}"))
        });
        match started {
            Ok(job) => self.job = Some(job),
            Err(e) => self.error(&e),
        }
    }

    /// `eval`: the evaluation of the current position, term by term, as
    /// `info string eval ...` lines.
    fn eval(&mut self) {
        match self.session.eval_report() {
            Ok(lines) => {
                for line in lines {
                    self.send(&Response::info_string(format!("eval {line}")));
                }
            }
            Err(e) => self.error(&e),
        }
    }

    /// What `bench [game]` searches: the named variant or every loaded
    /// one, each with the current evaluator if it is the current game and
    /// its default evaluator otherwise.
    fn bench_targets(&self, game: Option<&str>) -> Result<Vec<BenchTarget>, String> {
        let variants = match game {
            Some(name) => vec![self.session.host.find_variant(name).ok_or_else(|| {
                format!(
                    "bench: unknown game '{name}' (loaded: {})",
                    self.session.host.variant_names().join(", ")
                )
            })?],
            None => self.session.host.variants(),
        };
        let mut targets = Vec::new();
        for variant in variants {
            let evaluator = match &self.session.current {
                Some(c) if c.variant.name() == variant.name() => Arc::clone(&c.evaluator),
                _ => {
                    let source = self
                        .session
                        .host
                        .evaluators_for(&variant.plugin)
                        .into_iter()
                        .next()
                        .ok_or_else(|| format!("bench: {} offers no evaluator", variant.name()))?;
                    Arc::new(
                        create_evaluator_watched(&variant.plugin, source, None)
                            .map_err(|e| format!("bench: {e}"))?,
                    )
                }
            };
            targets.push(BenchTarget { variant, evaluator });
        }
        if targets.is_empty() {
            return Err("bench: no game is loaded".to_string());
        }
        Ok(targets)
    }

    fn display(&mut self) {
        match self.session.show_position() {
            Ok((board, fen, hash)) => {
                for line in board.lines() {
                    self.raw(line);
                }
                self.raw(&format!("Fen: {fen}"));
                self.raw(&format!("Key: {hash:016x}"));
            }
            Err(e) => self.error(&e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_over_the_cap_are_skipped_and_the_next_one_read() {
        let input = format!("isready\n{}\nuci\r\n{}", "x".repeat(100), "y".repeat(10));
        // A small buffer, so lines span several reads.
        let mut reader = std::io::BufReader::with_capacity(7, input.as_bytes());
        let mut read = || read_line_capped(&mut reader, 16).unwrap();
        assert_eq!(read(), Line::Text(b"isready".to_vec()));
        assert_eq!(read(), Line::TooLong(100));
        assert_eq!(read(), Line::Text(b"uci\r".to_vec()));
        assert_eq!(read(), Line::Text(b"yyyyyyyyyy".to_vec()));
        assert_eq!(read(), Line::End);
    }
}
