//! The controller: the one owner of the session (plugins, variant,
//! evaluator, position), the settings, the transposition table and the
//! running job. Dialects call it (`position`, `go`, `stop`, `setoption`,
//! `perft`, `bench` ...) and get back a [`ControlError`] when it refuses;
//! what a running job says (its progress, its answer, its errors) comes
//! back to them through the [`Dialect`] they pass in, which writes it in
//! its own words. Only the controller writes standard output.

mod error;
mod jobs;
mod lag;
mod options;
pub(crate) use options::is_engine_option;
pub mod session;
pub(in crate::daemon) mod worker;

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, Sender};
use plyd_protocol::Response;

use super::dialect::Dialect;
use super::guard::sentry::{GatedOut, Watcher};
use super::guard::watchdog::{call_limit, call_within};
use super::{DaemonConfig, Resumable};
use crate::book::{Book, SharedBook};
use crate::options::{self as settings_mod, EngineSettings};
use crate::search::{mcts::TreeMemory, TranspositionTable};
pub use error::ControlError;
pub use session::Session;
use worker::{Job, JobEvent, JobKind};

/// How long `quit` waits for a running job to wind down before leaving.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// The controller's state.
pub struct Controller {
    out: GatedOut,
    /// Plugins, the game and its position.
    pub(crate) session: Session,
    /// The engine's own settings.
    pub(crate) settings: EngineSettings,
    plugin_path_text: String,
    /// The transposition table, shared with the running search (if any).
    pub(crate) tt: Arc<TranspositionTable>,
    /// The Monte-Carlo trees kept between searches of one game.
    pub(in crate::daemon) trees: Arc<parking_lot::Mutex<TreeMemory>>,
    /// The last file loaded with `EvalFile`, shown as its value in `uci`.
    eval_file_text: String,
    /// The opening book read from `BookFile` (shared with a search that
    /// plays from it and with a `learn` that adds to it).
    pub(crate) book: SharedBook,
    /// `BookFile`'s value.
    pub(crate) book_file_text: String,
    pub(in crate::daemon) job: Option<Job>,
    /// What the GUI's clock shows the last moves cost beyond what plyd
    /// measured, kept back beside `Move Overhead`.
    clock_lag: lag::ClockLag,
    pub(in crate::daemon) events_tx: Sender<JobEvent>,
    pub(in crate::daemon) events_rx: Receiver<JobEvent>,
    /// UCI's `debug`.
    pub(crate) debug: bool,
    /// The command line named the game, which a dialect then keeps.
    pub(crate) game_given: bool,
    /// The sentry over the plugin calls made on this thread.
    watcher: Option<Watcher>,
    /// The evaluator the command line or the configuration named, by
    /// name or file, which a dialect with no GUI to tell checks.
    pub(crate) named_evaluator: Option<String>,
    /// The parameter file the command line or the configuration named,
    /// checked as [`Controller::named_evaluator`] is.
    pub(crate) named_params: Option<std::path::PathBuf>,
    /// When the line being handled was read, while it is: a search it
    /// asks for starts its clock there, so that the time the line waited
    /// behind slower commands (a large `Hash` being mapped, a plugin
    /// loading) counts against the move, as it does on the arbiter's
    /// clock. A search started otherwise starts its clock when it starts.
    pub(in crate::daemon) line_arrived: Option<Instant>,
    /// What went wrong as the daemon started (a bad config value, a
    /// plugin that failed to load, an evaluator or parameter file or book
    /// that could not be used; or why no game could be started), told to
    /// the GUI once, after its first line: a line each.
    pub(in crate::daemon) startup_errors: Vec<String>,
    /// What the options set at the start said (a variant started, more
    /// threads than cores), told after the GUI's first line too.
    pub(in crate::daemon) startup_notes: Vec<String>,
    /// The options to set at the start (the config file's `[options]`,
    /// then `--option`), until [`Controller::set_start_options`] sets them.
    start_options: Vec<(String, String, String)>,
}

/// Whether an evaluator plugin of `session` was loaded from the file
/// `file` names.
fn loaded_from(session: &Session, file: &str) -> bool {
    let Ok(file) = std::path::Path::new(file).canonicalize() else {
        return false;
    };
    session
        .host
        .external_evaluators()
        .iter()
        .any(|e| e.path().canonicalize().is_ok_and(|p| p == file))
}

/// The book at `path` (`BookFile`), with the line that tells what it
/// holds.
/// The line that says so names the book `shown` (the path as the GUI sent
/// it), or by `path` where `None`.
/// Every position of the book and its moves are read with the book's game
/// as it opens: those the game does not read are counted on that line,
/// with the first of them, rather than found only when a game reaches
/// them.
pub(super) fn open_book(
    path: &std::path::Path,
    shown: Option<&str>,
    host: &crate::host::PluginHost,
) -> Result<(Book, String), String> {
    Book::load(path).map(|mut book| {
        let plural = if book.len() == 1 { "" } else { "s" };
        let variant = host
            .variants()
            .into_iter()
            .find(|v| v.name() == book.game());
        let remark = match variant {
            // A game of that name not loaded (a header edited by hand, a
            // plugin left out): kept, as another game's book is, and said.
            None => " (no game of that name is loaded: kept, not played)".to_string(),
            Some(variant) => crate::host::GameState::new(&variant.plugin, variant.index)
                .ok()
                .and_then(|mut state| book.unreadable(&mut state))
                .map_or_else(String::new, |(bad, first)| {
                    let plural = if bad == 1 { "" } else { "s" };
                    format!(
                        "; {bad} position{plural} the game does not read as written, never \
                         played (the first, {first})"
                    )
                }),
        };
        let cut = if Book::cut_short(path) {
            "; its last line has no line end (a file cut short in a copy? its last position may \
             have lost moves)"
        } else {
            ""
        };
        let note = format!(
            "book {}: {} position{plural} of {}{remark}{cut}",
            shown.map_or_else(|| path.display().to_string(), str::to_string),
            book.len(),
            book.game()
        );
        (book, note)
    })
}

/// The configuration file's `book` where it names no file yet, in a
/// folder that is there: an empty book of `variant`, the game in use,
/// which NBoard's `learn` then writes (a book started from nothing), and
/// the line that says so.
fn new_book(path: &std::path::Path, variant: Option<&str>) -> Option<(Book, String)> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    match (path.try_exists(), variant) {
        (Ok(false), Some(variant)) if folder.is_dir() => Some((
            Book::new(variant),
            format!(
                "book {}: no such file: an empty book of {variant}{}",
                path.display(),
                // Only NBoard, which plays Othello, learns into a book;
                // another game's is written by `plyd book`.
                if variant == "othello" {
                    ", which NBoard's learn writes".to_string()
                } else {
                    format!(", which plyd book --game {variant} --out FILE writes")
                }
            ),
        )),
        _ => None,
    }
}

/// A table of the `Hash` in `settings`, or of the default size (which
/// `settings` then takes) when the machine cannot give that one, with the
/// line that says so.
fn new_table(settings: &mut EngineSettings) -> (TranspositionTable, Option<String>) {
    let available = crate::memory::available_mib();
    let threads = u64::from(settings.threads);
    let fits = crate::memory::check_hash(u64::from(settings.hash_mib), 0, threads, available);
    match fits.and_then(|()| TranspositionTable::new(settings.hash_mib as usize)) {
        Ok(table) => (table, None),
        Err(e) => {
            // The default size, or the most the check lets through where
            // that is less, else the least: under a tight address-space
            // limit even the default may not be had.
            let (default, least) = (
                settings_mod::HASH_RANGE.default as u64,
                settings_mod::HASH_RANGE.min as u64,
            );
            let first = available
                .map(|a| crate::memory::most_hash_mib(0, threads, a))
                .map_or(default, |most| most.min(default));
            for fallback in [first, least] {
                let fallback = fallback as u32;
                if fallback >= settings.hash_mib || fallback < least as u32 {
                    continue;
                }
                if let Ok(table) = TranspositionTable::new(fallback as usize) {
                    let least = if u64::from(fallback) == least {
                        ", the least a table can be"
                    } else {
                        ""
                    };
                    let why = format!("{e}; using {fallback} MiB{least}");
                    log::error!("{why}");
                    settings.hash_mib = fallback;
                    return (table, Some(why));
                }
            }
            // Not even the least table: nothing can be searched here.
            log::error!("{e}; not even a table of 1 MiB can be had: plyd cannot run here");
            eprintln!("plyd: {e}; not even a table of 1 MiB can be had: plyd cannot run here");
            std::process::exit(2);
        }
    }
}

impl Controller {
    /// Load plugins and set up the session; problems go to the log.
    pub fn new(config: DaemonConfig, out: GatedOut) -> Self {
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
        let opened = call_within("loading the plugins", 2 * call_limit(), &[], move || {
            let (dirs, game, evaluator, params) = wanted;
            Session::open(
                &dirs,
                &[],
                game.as_deref(),
                evaluator.as_deref(),
                params.as_deref(),
            )
        });
        let (session, messages) = opened.unwrap_or_else(|e| (Session::default(), vec![e]));
        for message in &messages {
            log::error!("{message}");
        }
        let game_given = config.game.as_deref().is_some_and(|wanted| {
            session
                .host
                .variant_names()
                .iter()
                .any(|name| name.eq_ignore_ascii_case(wanted))
        });
        let mut startup_errors = config.problems.clone();
        match session.current {
            Some(_) => startup_errors.extend(messages),
            None => {
                // Every reason, in one line: a plugin refused (its ABI
                // version, its table) is why the folder had no game.
                let mut reasons: Vec<&str> = Vec::new();
                for message in &messages {
                    if !reasons.contains(&message.as_str()) {
                        reasons.push(message);
                    }
                }
                let why = reasons.join("; ");
                startup_errors.push(format!("no game is loaded (see PluginPath): {why}"));
            }
        }
        let (events_tx, events_rx) = unbounded();
        let mut settings = config.settings;
        // A smaller `Hash` among the start's options (`--option Hash=1`,
        // the config file's `[options]`) is the table's size from the
        // first: mapped at the default and then resized, the default's 16
        // MiB set the process's peak. A larger one is set, or refused and
        // said, where the start's options are set (the old table is given
        // back before a larger is made, so the peak is the larger's).
        if let Some(mib) = config
            .options
            .iter()
            .rev()
            .find(|(name, _, _)| name.eq_ignore_ascii_case(crate::options::names::HASH))
            .and_then(|(name, value, _)| crate::options::HASH_RANGE.parse(name, value).ok())
            .filter(|&mib| mib < i64::from(settings.hash_mib))
        {
            settings.hash_mib = mib as u32;
        }
        let (tt, refused) = new_table(&mut settings);
        // The configuration's `Hash`, refused, is told like its other
        // problems.
        startup_errors.extend(refused);
        // A daemon that cannot search says so now, and ends, rather than
        // answer `readyok` and end at its first `go`.
        if let Err(e) = crate::memory::room_for_a_search() {
            eprintln!("plyd: {e}");
            std::process::exit(2);
        }
        // A book that cannot be read is reported and left out.
        let variant = session.current().ok().map(|c| c.variant.name().to_string());
        let (book, book_file_text) = match &config.book {
            Some(path) => {
                let opened = match new_book(path, variant.as_deref()) {
                    Some((book, note)) => {
                        // Told as an error would be: a GUI that meant a
                        // book of moves learns it has none.
                        log::warn!("{note}");
                        startup_errors.push(note);
                        Ok(book)
                    }
                    None => open_book(path, None, &session.host).map(|(book, note)| {
                        log::info!("{note}");
                        book
                    }),
                };
                match opened {
                    Ok(book) => (Some(book), path.display().to_string()),
                    Err(e) => {
                        log::error!("{e}");
                        startup_errors.push(e);
                        (None, String::new())
                    }
                }
            }
            None => (None, String::new()),
        };
        // An evaluator named by its file at start (`--evaluator
        // ./libplyd_eval_x.so`, the config file's `evaluator`) and loaded
        // is EvalFile's value, as `uci` lists it.
        let eval_file_text = config
            .evaluator
            .clone()
            .filter(|e| crate::host::names_a_file(e) && loaded_from(&session, e))
            .unwrap_or_default();
        Controller {
            out,
            session,
            settings,
            tt: Arc::new(tt),
            trees: Arc::default(),
            plugin_path_text: config.plugin_path_text,
            eval_file_text,
            book: Arc::new(parking_lot::RwLock::new(book)),
            book_file_text,
            job: None,
            events_tx,
            events_rx,
            debug: false,
            // A game named but not loaded (a typo) leaves the dialect's
            // own game to be played, as if none had been named.
            game_given,
            watcher: None,
            clock_lag: lag::ClockLag::default(),
            line_arrived: None,
            startup_errors,
            startup_notes: Vec::new(),
            start_options: config.options,
            named_evaluator: config.evaluator,
            named_params: config.eval_params,
        }
    }

    /// Set the options the configuration file's `[options]` and
    /// `--option` name, as `setoption` sets them, before the GUI's first
    /// line; what each says, and each refusal, is told after that line, as
    /// the start's other problems are.
    pub(in crate::daemon) fn set_start_options(&mut self) {
        let mut sink = crate::daemon::dialect::Collected::default();
        for (name, value, source) in std::mem::take(&mut self.start_options) {
            if let Err(e) = self.set_option(&mut sink, &name, Some(&value)) {
                let why = format!("option {name}={value} ({source}): {e}");
                log::error!("{why}");
                self.startup_errors.push(why);
            }
        }
        self.startup_notes.extend(sink.notes);
        for error in &sink.errors {
            log::error!("{error}");
        }
        self.startup_errors.extend(sink.errors);
        // The start's own options are set: from here on, those the
        // configuration fixes are the protocol's to read, not to change.
        for name in self.unknown_fixed_options() {
            let why = format!(
                "fixed_options: '{name}' is no option of plyd's or of a loaded game's (left \
                 open; 'files' names every option that names a file)"
            );
            log::error!("{why}");
            self.startup_errors.push(why);
        }
        self.settings.fixed_in_force = true;
    }

    /// A fresh controller carrying on from `state`, where the variant's
    /// plugin was given up for the reason `why`.
    pub(super) fn resume(state: Resumable, why: String, watcher: Watcher) -> Self {
        let (events_tx, events_rx) = unbounded();
        let mut settings = state.settings;
        let tt = state
            .tt
            .unwrap_or_else(|| Arc::new(new_table(&mut settings).0));
        Controller {
            out: watcher.output(),
            session: Session::resumed(state.host, state.variant, why, watcher.clone()),
            settings,
            plugin_path_text: state.plugin_path_text,
            tt,
            trees: state.trees,
            eval_file_text: state.eval_file_text,
            book: state.book,
            book_file_text: state.book_file_text,
            job: None,
            events_tx,
            events_rx,
            debug: state.debug,
            game_given: state.game_given,
            watcher: Some(watcher),
            clock_lag: lag::ClockLag::default(),
            line_arrived: None,
            startup_errors: Vec::new(),
            startup_notes: Vec::new(),
            start_options: Vec::new(),
            // The dialect, which checks it, was started before.
            named_evaluator: None,
            named_params: None,
        }
    }

    /// Have the sentry watch this controller's plugin calls.
    pub(super) fn watch_with(&mut self, watcher: Watcher) {
        self.session.watch_with(watcher.clone());
        self.watcher = Some(watcher);
    }

    /// The sentry's handle on this controller, if it is watched.
    pub(super) fn watcher(&self) -> Option<&Watcher> {
        self.watcher.as_ref()
    }

    /// Whether a fresh controller took over from this one.
    pub(super) fn replaced(&self) -> bool {
        self.watcher.as_ref().is_some_and(Watcher::replaced)
    }

    /// What a fresh controller needs to carry on from here; the dialect is
    /// the caller's to add.
    pub(super) fn resumable(&self) -> Resumable {
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
            book: Arc::clone(&self.book),
            book_file_text: self.book_file_text.clone(),
            tt: Some(Arc::clone(&self.tt)),
            trees: Arc::clone(&self.trees),
            debug: self.debug,
            game_given: self.game_given,
            dialect: None,
            search,
        }
    }

    /// Write one protocol line.
    pub(crate) fn raw(&mut self, line: &str) {
        // A closed stdout means the GUI is gone; the next read sees EOF.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// Write one UCI response.
    pub(crate) fn send(&mut self, response: &Response) {
        self.raw(&response.to_string());
    }

    /// Whether a job (search, perft, bench) is running.
    pub(crate) fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Whether a search runs, which will answer its `go` (a `perft`,
    /// `bench` or `learn` gives no `bestmove`).
    pub(crate) fn searching(&self) -> bool {
        self.job
            .as_ref()
            .is_some_and(|job| job.kind == JobKind::Search)
    }

    /// Whether the job running is NBoard's `learn`.
    pub(crate) fn learning(&self) -> bool {
        self.job
            .as_ref()
            .is_some_and(|job| job.kind == JobKind::Learn)
    }

    /// The job's events, for the daemon's loop to wait on.
    pub(super) fn events(&self) -> Receiver<JobEvent> {
        self.events_rx.clone()
    }

    /// Ask the running job, if any, to stop; the watchdog counts from the
    /// first such request.
    pub(crate) fn stop_job(&mut self) {
        if let Some(job) = &mut self.job {
            job.control.stop();
            if job.watch.stop_sent.is_none() {
                let now = Instant::now();
                job.watch.stop_sent = Some(now);
                job.begin_grace(now);
            }
        }
    }

    /// `ponderhit`: the pondering search becomes a timed one, its clock
    /// started when the line was read.
    pub(crate) fn ponderhit(&mut self) {
        if let Some(job) = &self.job {
            job.control.ponderhit_at(self.clock_start());
        }
    }

    /// Where the clock of a search asked for now starts: when the line
    /// being handled was read, or now outside a line.
    pub(crate) fn clock_start(&self) -> Instant {
        self.line_arrived.unwrap_or_else(Instant::now)
    }

    /// Stop a running job and print what it still has to say (its
    /// `bestmove`), waiting a little for it.
    pub(crate) fn shut_down(&mut self, voice: &mut dyn Dialect) {
        // A count piped in ahead of `quit` (or of the end of the input),
        // `go perft 6` or `bench`, is counted to its end, as Stockfish
        // counts it: a script comparing counts gets them. `stop` still
        // stops it, and a signal ends the process; so does the reader's
        // end (a controller killed): nobody would read the count, and the
        // process counted on alone (13 s of `go perft 13`).
        if self
            .job
            .as_ref()
            .is_some_and(|job| matches!(job.kind, JobKind::Perft | JobKind::Bench))
            && !plyd_util::output::reader_gone()
        {
            self.finish_job(voice);
        }
        self.stop_job();
        self.wait_for_job(voice, |_| true, Some(Instant::now() + QUIT_GRACE));
    }

    /// Wait for the running job, if any, to end, printing what it says:
    /// for the dialects whose commands are served in order.
    pub(crate) fn finish_job(&mut self, voice: &mut dyn Dialect) {
        self.wait_for_job(voice, |_| true, None);
    }

    /// A job that has printed its final answer is over as far as the GUI
    /// knows, which may already have sent the next `go`: wait for the job's
    /// thread to end so that the command finds the engine idle — or for the
    /// watchdog to give up on it.
    pub(super) fn settle_answered_job(&mut self, voice: &mut dyn Dialect) {
        self.wait_for_job(voice, |job| job.watch.answered(), None);
    }

    /// Handle the job's events while it runs and `waiting` holds, keeping
    /// its watchdog's deadlines, until `until` if given.
    fn wait_for_job(
        &mut self,
        voice: &mut dyn Dialect,
        waiting: impl Fn(&Job) -> bool,
        until: Option<Instant>,
    ) {
        while self.job.as_ref().is_some_and(&waiting) {
            let due = self.next_due().map(|(at, _)| at);
            let mut wake = match (due, until) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            // A learning job of any depth (NBoard's `set depth 99999999`)
            // waited on by a `ping` held `quit` and the end of input back
            // for good: the input's end stops it.
            if self.learning() {
                if crate::daemon::input::INPUT_ENDS.load(std::sync::atomic::Ordering::Relaxed) {
                    self.stop_job();
                }
                let soon = Instant::now() + Duration::from_millis(100);
                wake = Some(wake.map_or(soon, |at| at.min(soon)));
            }
            let received = match wake {
                Some(at) => self.events_rx.recv_deadline(at),
                None => self
                    .events_rx
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match received {
                Ok(event) => self.handle_event(voice, event),
                Err(RecvTimeoutError::Timeout) if until.is_none_or(|u| Instant::now() < u) => {
                    self.watchdog(voice)
                }
                Err(_) => break,
            }
        }
    }

    /// A message from the running job, passed to `voice`.
    pub(super) fn handle_event(&mut self, voice: &mut dyn Dialect, event: JobEvent) {
        let overdue = self.job.as_ref().is_some_and(|job| job.watch.overdue);
        match event {
            // The watchdog has answered for this search.
            JobEvent::Search(event) if overdue => {
                log::debug!("late search event dropped: {event:?}")
            }
            JobEvent::Search(crate::search::SearchEvent::Info(info)) => voice.info(self, info),
            JobEvent::Search(crate::search::SearchEvent::BestMove { best, ponder }) => {
                // Stamped before the write: a judge that suspends the
                // engine once it has read the answer (Botzone's does) may
                // stop the process before the write returns, and the pause
                // would be counted as lateness.
                let writing = Instant::now();
                voice.best(self, best, ponder);
                self.mark_answered_at(writing);
                self.note_late_answer();
            }
            JobEvent::Line { text, last } => {
                // A job's note goes out as the dialect writes notes (UCCI's
                // `info message`).
                match text.strip_prefix("info string ") {
                    Some(note) => voice.note(self, note),
                    None => self.raw(&text),
                }
                if last {
                    self.mark_answered();
                }
            }
            JobEvent::Error(e) => voice.error(self, &e),
            JobEvent::Finished => {
                if let Some(job) = self.job.take() {
                    job.join();
                }
                // An evaluator plugin the search disabled is replaced now,
                // and said, rather than with the GUI's next command.
                self.replace_failed_evaluator(voice);
            }
        }
    }

    /// If a failure disabled the evaluator plugin in use, go back to the
    /// game's first usable one ([`Session::replace_failed_evaluator`]) and
    /// tell `voice` what was done; `true` where another evaluator took
    /// over.
    pub(in crate::daemon) fn replace_failed_evaluator(&mut self, voice: &mut dyn Dialect) -> bool {
        match self.session.replace_failed_evaluator() {
            Some(Ok(note)) => {
                voice.note(self, &note);
                true
            }
            Some(Err(error)) => {
                voice.error(self, &error);
                false
            }
            None => false,
        }
    }

    /// A warning on stderr when the running search's own `bestmove`, just
    /// written, went out well past its hard limit.
    fn note_late_answer(&self) {
        let Some(job) = &self.job else { return };
        if let Some(note) = job.watch.slow_stop_note(&job.control) {
            log::warn!("{note}");
            return;
        }
        if job.control.pondering() {
            return;
        }
        if let Some(note) = job.watch.late_answer_note(&job.control) {
            log::warn!("{note}");
        }
    }

    pub(in crate::daemon) fn mark_answered(&mut self) {
        self.mark_answered_at(Instant::now());
    }

    /// Note that the job's final answer went out at `at`.
    fn mark_answered_at(&mut self, at: Instant) {
        if let Some(job) = &mut self.job {
            job.watch.answered_at = Some(at);
            if job.kind == JobKind::Search {
                // A ponder search stopped plays no move from its answer.
                let used = (!job.control.pondering())
                    .then(|| at.saturating_duration_since(job.control.clock_started()));
                self.clock_lag.answered(used);
            }
        }
    }
}
