//! Background jobs of the daemon: searches and perft runs. Each runs on its
//! own thread and talks back only through the event channel, so the
//! controller stays free to answer `isready` and `stop`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::Sender;

use plyd_api::Move;

use crate::book::{Book, BookBuilder, SharedBook};
use crate::daemon::guard::watchdog::{Blame, Watch};
use crate::host::{Evaluator, GameState, PluginError};
use crate::perft::Perft;
use crate::search::bench::{self, BenchTarget};
use crate::search::{
    self, nps, SearchControl, SearchEvent, SearchLimits, SearchOptions, TranspositionTable,
};
use plyd_protocol::Info;

/// A message from a job to the controller.
#[derive(Debug)]
pub enum JobEvent {
    /// A search event to print.
    Search(SearchEvent),
    /// A raw protocol line (perft output); `last` marks the final one.
    Line {
        /// The line.
        text: String,
        /// Whether this ends the job's answer.
        last: bool,
    },
    /// An error to report as `info string error: ...`.
    Error(String),
    /// The job has ended; nothing more will come from it.
    Finished,
}

/// What a job is, for the watchdog: a search owes a `bestmove`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// `go`.
    Search,
    /// `go perft`.
    Perft,
    /// `bench`.
    Bench,
    /// NBoard's `learn`.
    Learn,
}

/// A running job.
pub struct Job {
    /// What it is.
    pub kind: JobKind,
    /// Stop flag and ponder state.
    pub control: Arc<SearchControl>,
    /// Its deadlines, and what the watchdog has done about them.
    pub watch: Watch,
    /// The plugins its calls go into, disabled should one never return.
    pub plugins: Vec<Blame>,
    handle: Option<JoinHandle<()>>,
}

impl Job {
    /// A grace of the watchdog's begins at `now` ([`Watch::grace_begins`]),
    /// with the job's threads' waits for a core so far.
    pub fn begin_grace(&mut self, now: Instant) {
        let waited = self.control.threads_waited();
        self.watch.grace_begins(waited, now);
    }

    /// Whether the grace ending at `now` was spent waiting for a core and
    /// so starts again ([`Watch::starved`]); if so, a warning says why.
    pub fn starved(&mut self, now: Instant) -> bool {
        let waited = self.control.threads_waited();
        let starved = self.watch.starved(waited, now);
        if starved {
            log::warn!(
                "the job's threads waited for a core for most of its grace \
                 (taken for a busy machine, not yet for a stuck plugin); the grace starts again"
            );
        }
        starved
    }

    /// Wait for the thread to end (after it sent `Finished`).
    pub fn join(mut self) {
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// How a job's body is run where its thread cannot be had.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NoThread {
    /// Refused: the error goes back to the command.
    Refuse,
    /// Run on the calling thread (the controller's), which waits for it:
    /// for a search that ends by itself, whose answer is owed (a turn
    /// forfeited otherwise), not for one a `stop` must end.
    RunHere,
}

fn spawn<F>(
    name: &str,
    kind: JobKind,
    control: Arc<SearchControl>,
    events: Sender<JobEvent>,
    no_thread: NoThread,
    body: F,
) -> std::io::Result<Job>
where
    F: FnOnce(&Sender<JobEvent>) + Send + 'static,
{
    let run = |control: &SearchControl, events: &Sender<JobEvent>, body: F| {
        let on_roll = control.enter_roll();
        body(events);
        drop(on_roll);
        let _ = events.send(JobEvent::Finished);
    };
    let (on_thread, on_thread_events) = (Arc::clone(&control), events.clone());
    let spawned =
        crate::threads::spawn_or_give_back(name, move || run(&on_thread, &on_thread_events, body));
    let handle = match spawned {
        Ok(handle) => Some(handle),
        Err((e, _)) if no_thread == NoThread::Refuse => return Err(e),
        Err((e, work)) => {
            log::warn!(
                "cannot start the thread {name} ({e}): its job runs on the \
                 controller's thread, which answers nothing else until it ends"
            );
            work();
            None
        }
    };
    Ok(Job {
        kind,
        control,
        watch: Watch::default(),
        plugins: Vec::new(),
        handle,
    })
}

/// Everything a search job needs.
pub struct SearchJob {
    /// The position to search.
    pub root: GameState,
    /// The evaluator.
    pub evaluator: Arc<Evaluator>,
    /// The opening book to play from, when `OwnBook` is on and it is this
    /// game's.
    pub book: Option<SharedBook>,
    /// The shared transposition table.
    pub tt: Arc<TranspositionTable>,
    /// The Monte-Carlo trees kept between searches.
    pub trees: Arc<parking_lot::Mutex<crate::search::mcts::TreeMemory>>,
    /// Depth, nodes and time limits.
    pub limits: SearchLimits,
    /// Threads, MultiPV and the selective techniques allowed.
    pub options: SearchOptions,
    /// The root is a chance node (EinStein before its roll): the
    /// outcomes are the arbiter's to draw, so the answer is `bestmove
    /// (none)` whatever line the search reports.
    pub chance_root: bool,
}

/// Start a search. Exactly one `bestmove` is sent, whatever happens: the
/// search sends it even when the plugin fails midway, and should the engine
/// itself panic, `bestmove (none)` follows the error.
pub fn start_search(
    job: SearchJob,
    control: Arc<SearchControl>,
    events: Sender<JobEvent>,
) -> std::io::Result<Job> {
    let job_control = Arc::clone(&control);
    let answer_by = job.limits.answer_by;
    let hard_limit = job.limits.hard_time();
    // `go infinite` and `go ponder` wait for the GUI, not for progress.
    let ends_by_itself = !job.limits.infinite && !control.pondering();
    let plugins = Blame::game_and_evaluator(job.root.plugin(), job.evaluator.source()).into();
    let chance_game = job.root.plugin().has_chance();
    let chance_root = job.chance_root;
    // A search that ends by itself is run on this thread where its own
    // cannot be had: its answer is owed.
    let no_thread = if ends_by_itself {
        NoThread::RunHere
    } else {
        NoThread::Refuse
    };
    let mut started = spawn(
        "plyd-search",
        JobKind::Search,
        control,
        events,
        no_thread,
        move |events| {
            let mut best_sent = false;
            // The root, kept to read the answer back before it goes out.
            let mut reader = (!chance_root).then(|| job.root.try_clone().ok()).flatten();
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let mut report = |event: SearchEvent| {
                    match &event {
                        SearchEvent::BestMove { best, .. } => {
                            if let Some(why) = reader
                                .as_ref()
                                .zip(best.as_deref())
                                .and_then(|(root, text)| unreadable_answer(root, text))
                            {
                                let _ = events.send(JobEvent::Search(SearchEvent::Info(Info {
                                    string: Some(why),
                                    ..Info::default()
                                })));
                            }
                            job_control.note_answer();
                            best_sent = true;
                        }
                        SearchEvent::Info(info) if info.multipv.unwrap_or(1) == 1 => {
                            // In a game with chance the reply after a
                            // move is a throw of the dice: no move to
                            // ponder on (the search names none either).
                            if let Some(best) = info.pv.first().filter(|_| !chance_root) {
                                // A reply only where the move passes the
                                // turn: the same side's next move is no
                                // move to ponder on (the search's own
                                // answer keeps that rule too).
                                let ponder = info
                                    .pv
                                    .get(1)
                                    .filter(|_| !chance_game)
                                    .filter(|_| {
                                        let passes = reader
                                            .as_mut()
                                            .and_then(|root| passes_the_turn(root, best));
                                        if passes.is_none() {
                                            // A move not taken back: the
                                            // copy is no longer the root.
                                            reader = None;
                                        }
                                        passes == Some(true)
                                    })
                                    .cloned();
                                job_control.note_best(best.clone(), ponder);
                            }
                        }
                        SearchEvent::Info(_) => {}
                    }
                    let _ = events.send(JobEvent::Search(event));
                };
                // The book first: its move is noted (by its `info` line)
                // before any other, so that a watchdog answering a `go`
                // whose time ran out before this thread ran (a fresh
                // process given its lines at once, on a loaded machine)
                // answers the book's move, not the first legal one.
                if let Some((best, ponder, info)) = book_answer(&job, &job_control, &mut report) {
                    report(SearchEvent::Info(info));
                    report(SearchEvent::BestMove {
                        best: Some(best),
                        ponder,
                    });
                    return Ok(search::SearchResult::default());
                }
                if chance_root {
                    job_control.note_no_move();
                } else if let Err(e) =
                    note_any_legal_move(&job.root, &job.limits.search_moves, &job_control)
                {
                    // The plugin failed (and is disabled, not called
                    // again): the search's answer, with its own error.
                    search::report_end(&mut report, Some(&e), search::Answer::default());
                    return Err(e);
                }
                let mut trees = job.trees.lock();
                // An evaluator plugin that fails before a root move is
                // searched (a stack it cannot make, say) would cost the
                // turn a move from no search: its answer is held back, and
                // the game's own evaluator searches instead, on the same
                // clock (from a copy of the root, taken only where the
                // evaluator is a plugin of its own).
                let again = job
                    .evaluator
                    .source()
                    .is_external()
                    .then(|| job.root.try_clone().ok())
                    .flatten();
                let mut searched = false;
                let mut held = None;
                let first = search::search_with_trees(
                    job.root,
                    &job.evaluator,
                    &job.tt,
                    &job.limits,
                    &job_control,
                    &job.options,
                    &mut trees,
                    &mut |event: SearchEvent| match event {
                        SearchEvent::BestMove { .. } => held = Some(event),
                        SearchEvent::Info(ref info) => {
                            searched |= !info.pv.is_empty();
                            report(event);
                        }
                    },
                );
                let fallback = match (&first, again) {
                    (Err(_), Some(root))
                        if !searched
                            && !job_control.stop_requested()
                            && job.evaluator.is_disabled()
                            && !root.plugin().is_disabled()
                            && !root.plugin().evaluators().is_empty() =>
                    {
                        let source = crate::host::EvaluatorSource::BuiltIn {
                            game: Arc::clone(root.plugin()),
                            index: 0,
                        };
                        crate::daemon::create_evaluator(root.plugin(), source, None)
                            .ok()
                            .map(|evaluator| (root, evaluator))
                    }
                    _ => None,
                };
                match fallback {
                    Some((root, evaluator)) => {
                        report(SearchEvent::Info(plyd_protocol::Info {
                            string: Some(format!(
                                "evaluator '{}' failed before a move was searched; searching with {}",
                                job.evaluator.name(),
                                evaluator.name()
                            )),
                            ..plyd_protocol::Info::default()
                        }));
                        search::search_with_trees(
                            root,
                            &evaluator,
                            &job.tt,
                            &job.limits,
                            &job_control,
                            &job.options,
                            &mut trees,
                            &mut report,
                        )
                    }
                    None => {
                        if let Some(event) = held {
                            report(event);
                        }
                        first
                    }
                }
            }));
            match outcome {
                Ok(Ok(_)) => {}
                // Already reported by the search, ahead of its bestmove.
                Ok(Err(e)) => log::debug!("search ended by a plugin failure: {e}"),
                Err(_) => {
                    let _ = events.send(JobEvent::Error(
                        "internal error: the search panicked".to_string(),
                    ));
                }
            }
            if !best_sent {
                // Only reachable if the engine itself panicked.
                let _ = events.send(JobEvent::Search(SearchEvent::BestMove {
                    best: None,
                    ponder: None,
                }));
            }
        },
    )?;
    started.plugins = plugins;
    // A search run here has ended, its answer waiting in the channel: no
    // deadline to watch (the watchdog would answer for it first).
    if started.handle.is_none() {
        return Ok(started);
    }
    started.watch.answer_by = answer_by;
    started.watch.hard_limit = hard_limit;
    started.watch.note_controller();
    if ends_by_itself {
        started.watch.expect_progress(&started.control);
    }
    Ok(started)
}

/// Record a legal root move (of `search_moves` when it is not empty) as the
/// answer should the search never give one: the watchdog's last resort.
/// How many plies of a game `learn` adds to the book: the opening, where
/// a book is played from.
pub const LEARN_PLIES: usize = 30;

/// What NBoard's `learn` needs: the game and where its book goes.
pub struct LearnJob {
    /// The game's start position.
    pub start: GameState,
    /// Its moves.
    pub moves: Vec<String>,
    /// The evaluator the searches use.
    pub evaluator: Arc<Evaluator>,
    /// The book, changed when the learning is done.
    pub book: SharedBook,
    /// The book file, written when the learning is done.
    pub path: std::path::PathBuf,
    /// The game variant the book is for.
    pub variant: String,
    /// The depth of each move's search.
    pub depth: u32,
}

/// Start a learn job; it ends with the line `learned`, after an error
/// line when it could not learn.
pub fn start_learn(
    job: LearnJob,
    control: Arc<SearchControl>,
    events: Sender<JobEvent>,
) -> std::io::Result<Job> {
    let plugins = Blame::game_and_evaluator(job.start.plugin(), job.evaluator.source()).into();
    let job_control = Arc::clone(&control);
    let mut started = spawn(
        "plyd-learn",
        JobKind::Learn,
        control,
        events,
        NoThread::Refuse,
        move |events| {
            let result = catch_unwind(AssertUnwindSafe(|| learn(job, job_control)));
            let failure = match result {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(format!("learn: {e}")),
                Err(_) => Some("internal error: learn panicked".to_string()),
            };
            if let Some(e) = failure {
                let _ = events.send(JobEvent::Error(e));
            }
            let _ = events.send(JobEvent::Line {
                text: "learned".to_string(),
                last: true,
            });
        },
    )?;
    // The searches beat the job's control: a plugin call that never
    // returns is caught as in a search.
    started.watch.expect_progress(&started.control);
    started.plugins = plugins;
    Ok(started)
}

/// The work of [`start_learn`]: the book is read, extended and written
/// outside the lock, and put back once written. A stop (NBoard's `ping`
/// during the learning) leaves the book and its file as they were.
fn learn(mut job: LearnJob, control: Arc<SearchControl>) -> Result<(), String> {
    let mut book = job
        .book
        .read()
        .clone()
        .unwrap_or_else(|| Book::new(&job.variant));
    let fail = |e: crate::host::PluginError| e.to_string();
    // Its moves are written as the game now spells them: a book written
    // in another notation (xiangqi's ranks) would hold both.
    if let Some(why) = book.notation_refusal(&job.start) {
        return Err(why);
    }
    book.note_spelling(&job.start).map_err(fail)?;
    let mut builder = BookBuilder::new(&job.evaluator, job.depth, 64, Arc::clone(&control))?;
    builder
        .add_line(&mut book, &mut job.start, &job.moves, LEARN_PLIES)
        .map_err(fail)?;
    if builder.stopped() {
        return Err("stopped before it was done; the book is unchanged".to_string());
    }
    // Only the writing is under the lock (the searches above may take
    // long): the file as another daemon may have left it since it was
    // read, its positions this book lacks added, then written back.
    book.save_merged(&job.path, Some(&mut job.start), || control.beat())?;
    *job.book.write() = Some(book);
    Ok(())
}

/// The book's move for the root of `job` and the line that tells of it,
/// where the book has the root and the `go` is one the book may answer:
/// not `infinite`, not `ponder`, without `searchmoves`, with one line
/// asked for (`MultiPV` 1). The move is the best legal one, or with
/// `Variety` one drawn among those within it of the best, as the search
/// draws among root moves. A book move that is not legal here is passed
/// over, with an error line for the GUI (a book from another version of
/// the plugin, or edited by hand); the position is searched where none
/// is. The move to ponder on is the book's reply, where it holds the
/// position after the move.
fn book_answer(
    job: &SearchJob,
    control: &SearchControl,
    report: &mut impl FnMut(SearchEvent),
) -> Option<(String, Option<String>, Info)> {
    let book = job.book.as_ref()?;
    let limits = &job.limits;
    if limits.infinite
        || control.pondering()
        || !limits.search_moves.is_empty()
        || job.options.multipv > 1
        || limits.mate.is_some()
    {
        return None;
    }
    // Dice are no choice: a chance node is the search's to answer (with
    // no move), whatever an older book holds of it.
    if job.chance_root {
        return None;
    }
    let position = job.root.position_text().ok()?;
    let book = book.read();
    let book = book.as_ref()?;
    let moves = book.moves_at(&job.root)?;
    if let Some(refusal) = book.notation_refusal(&job.root) {
        let why = format!("{refusal}: the position is searched");
        log::warn!("{why}");
        report(SearchEvent::Info(Info {
            string: Some(format!("error: {why}")),
            ..Info::default()
        }));
        return None;
    }
    let (legal, illegal): (Vec<_>, Vec<_>) = moves
        .iter()
        .map(|m| (m, job.root.parse_legal_move(&m.mv)))
        .partition(|(_, mv)| mv.is_ok());
    if !illegal.is_empty() {
        let named: Vec<String> = illegal.iter().map(|(m, _)| format!("'{}'", m.mv)).collect();
        let then = if legal.is_empty() {
            "the position is searched"
        } else {
            "passed over"
        };
        let (moves, are) = if named.len() == 1 {
            ("move", "is")
        } else {
            ("moves", "are")
        };
        let why = format!(
            "book {moves} {} {are} not legal in {position}: {then}",
            named.join(", ")
        );
        log::warn!("{why}");
        report(SearchEvent::Info(Info {
            string: Some(format!("error: {why}")),
            ..Info::default()
        }));
    }
    let (chosen, mv) = choose_book_move(
        legal.into_iter().filter_map(|(m, mv)| Some((m, mv.ok()?))),
        job.options.variety,
        job.options.variety_seed,
        job.root.hash(),
    )?;
    let chosen = chosen.clone();
    // Spelled as the game now spells moves: the book's text is read in
    // any notation the plugin reads, and may be another of them.
    let text = job.root.format_move(mv).ok()?;
    let ponder = job.root.try_clone().ok().and_then(|mut after| {
        after.make_move(mv).ok()?;
        if crate::book::is_chance_node(&after).unwrap_or(false) {
            return None;
        }
        let reply = book.best_at(&after)?;
        let reply = after.parse_legal_move(&reply.mv).ok()?;
        after.format_move(reply).ok()
    });
    let info = Info {
        depth: Some(chosen.depth),
        score: Some((search::score::to_protocol(chosen.score), None)),
        nodes: Some(0),
        pv: std::iter::once(text.clone())
            .chain(ponder.clone())
            .collect(),
        string: Some("book".to_string()),
        ..Info::default()
    };
    Some((text, ponder, info))
}

/// The book move to play of `legal`, the book's legal moves here: the
/// highest scored (the first listed among equals), or with a `variety`
/// margin the highest once each gets a bonus of 0 to `variety` drawn from
/// `seed`, the position's `key` and the move, as `Variety` draws among the
/// search's root moves.
fn choose_book_move<'a>(
    legal: impl Iterator<Item = (&'a crate::book::BookMove, plyd_api::Move)>,
    variety: u32,
    seed: u64,
    key: u64,
) -> Option<(&'a crate::book::BookMove, plyd_api::Move)> {
    let bonus = |mv| i64::from(search::variety_draw(variety, seed, key, mv));
    legal
        .map(|(m, mv)| (i64::from(m.score) + bonus(mv), m, mv))
        .reduce(|best, next| if next.0 > best.0 { next } else { best })
        .map(|(_, m, mv)| (m, mv))
}

/// The error line for an answer `text` that the game plugin's own
/// `parse_move` does not read back, at `root`, as the move it spells: a
/// GUI, which reads it with the same rules, would refuse it, and plyd
/// itself would refuse it in the next `position`. The move still goes out
/// (there is no other spelling of it); the line says why the game may
/// stop there. `None` when it reads back, or when the plugin is disabled
/// (its own failure has been told).
fn unreadable_answer(root: &GameState, text: &str) -> Option<String> {
    if root.plugin().is_disabled() {
        return None;
    }
    let again = root
        .parse_move(text)
        .and_then(|mv| root.format_move(mv).map(|again| (mv, again)));
    let why = match again {
        Ok((_, again)) if again == text => return None,
        Ok((mv, again)) => format!("reads back as move {mv}, spelled '{again}'"),
        Err(e) => e.to_string(),
    };
    Some(format!(
        "error: the game plugin {} spells the move it plays '{text}', which its own parse_move \
         does not read back ({why}): a GUI may refuse it; `plyd check` tests every move's text",
        root.plugin().name()
    ))
}

/// Whether the move spelled `text` leaves `root`'s other side to move
/// (`false` where the plugin cannot say), `root` as it was after; `None`
/// where the move made could not be taken back.
fn passes_the_turn(root: &mut GameState, text: &str) -> Option<bool> {
    let (Ok(mv), Ok(side)) = (root.parse_move(text), root.side_to_move()) else {
        return Some(false);
    };
    if root.make_move(mv).is_err() {
        return Some(false);
    }
    let after = root.side_to_move();
    root.unmake_move(mv).ok()?;
    Some(after.is_ok_and(|after| after != side))
}

/// Note a legal root move for the watchdog to answer with, should the
/// search note none.
fn note_any_legal_move(
    root: &GameState,
    search_moves: &[Move],
    control: &SearchControl,
) -> Result<(), PluginError> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves)?;
    let first = moves
        .iter()
        .find(|m| search_moves.is_empty() || search_moves.contains(m));
    if let Some(&mv) = first {
        control.note_unsearched(root.format_move(mv)?);
    }
    Ok(())
}

/// Start `go perft <depth>`: one `<move>: <count>` line per root move, then
/// `Nodes searched: <total>`.
pub fn start_perft(
    mut root: GameState,
    depth: u32,
    control: Arc<SearchControl>,
    events: Sender<JobEvent>,
) -> std::io::Result<Job> {
    let job_control = Arc::clone(&control);
    let plugins = vec![Blame::Game(Arc::clone(root.plugin()))];
    let mut started = spawn(
        "plyd-perft",
        JobKind::Perft,
        control,
        events,
        NoThread::Refuse,
        move |events| {
            let result = catch_unwind(AssertUnwindSafe(|| {
                Perft::new().divide(&mut root, depth, false, || {
                    job_control.beat();
                    job_control.stop_requested()
                })
            }));
            let why = match result {
                Ok(Ok(report)) => {
                    let line = |text: String, last: bool| {
                        let _ = events.send(JobEvent::Line { text, last });
                    };
                    for root in &report.roots {
                        line(format!("{}: {}", root.text, root.nodes), false);
                    }
                    let ms = report.elapsed.as_millis();
                    if report.interrupted {
                        // As a stopped bench ends: no part is taken for the
                        // whole by a tool waiting for the count.
                        let _ = events.send(JobEvent::Error(
                            "perft stopped before every root move was counted".to_string(),
                        ));
                        line(
                            format!(
                                "info string perft stopped after {} root moves counted whole: \
                                 nodes {} time {ms}, not the perft's count",
                                report.roots.len(),
                                report.total
                            ),
                            false,
                        );
                        line("Nodes searched: 0".to_string(), true);
                        return;
                    }
                    line(
                        format!(
                            "info string perft depth {depth} nodes {} time {ms} nps {}",
                            report.total,
                            nps(report.total, report.elapsed)
                        ),
                        false,
                    );
                    line(format!("Nodes searched: {}", report.total), true);
                    return;
                }
                Ok(Err(e)) => e.to_string(),
                Err(_) => "internal error: perft panicked".to_string(),
            };
            // A perft that failed ends, as every perft does, with its
            // count: none, after the error line.
            let _ = events.send(JobEvent::Error(why));
            let _ = events.send(JobEvent::Line {
                text: "Nodes searched: 0".to_string(),
                last: true,
            });
        },
    )?;
    started.watch.expect_progress(&started.control);
    started.plugins = plugins;
    Ok(started)
}

/// Start `bench`: one `info string bench ...` line per position, the
/// totals, then `Nodes searched: <total>`.
pub fn start_bench(
    targets: Vec<BenchTarget>,
    depth: Option<u32>,
    options: SearchOptions,
    control: Arc<SearchControl>,
    events: Sender<JobEvent>,
) -> std::io::Result<Job> {
    let job_control = Arc::clone(&control);
    // What a stuck bench is blamed on: each game benched, and its
    // evaluator (none was named, and none disabled: `the job's plugin`).
    let mut plugins: Vec<Blame> = Vec::new();
    for target in &targets {
        plugins.extend(Blame::game_and_evaluator(
            &target.variant.plugin,
            target.evaluator.source(),
        ));
    }
    let mut started = spawn(
        "plyd-bench",
        JobKind::Bench,
        control,
        events,
        NoThread::Refuse,
        move |events| {
            let line = |text: String, last: bool| {
                let _ = events.send(JobEvent::Line { text, last });
            };
            let result = catch_unwind(AssertUnwindSafe(|| {
                bench::run(
                    &targets,
                    depth,
                    &options,
                    &mut |l| {
                        line(
                        format!(
                            "info string bench {} depth {} nodes {} time {} bestmove {} position {}",
                            l.game,
                            l.depth,
                            l.nodes,
                            l.elapsed.as_millis(),
                            l.best,
                            l.position
                        ),
                        false,
                    )
                    },
                    &job_control,
                )
            }));
            match result {
                Ok(Ok(summary)) if summary.stopped => {
                    // `Nodes searched: 0`, as a perft that failed ends: a
                    // tool waiting for the line gets it, and no part is
                    // taken for the whole.
                    line(
                        format!(
                            "info string bench stopped after {} positions searched whole: \
                             nodes {} time {}, not the bench's count",
                            summary.positions,
                            summary.nodes,
                            summary.elapsed.as_millis()
                        ),
                        false,
                    );
                    line("Nodes searched: 0".to_string(), true);
                }
                Ok(Ok(summary)) => {
                    line(
                        format!(
                            "info string bench nodes {} time {} nps {}",
                            summary.nodes,
                            summary.elapsed.as_millis(),
                            nps(summary.nodes, summary.elapsed)
                        ),
                        false,
                    );
                    line(format!("Nodes searched: {}", summary.nodes), true);
                }
                Ok(Err(e)) => {
                    let _ = events.send(JobEvent::Error(format!("bench: {e}")));
                    line("Nodes searched: 0".to_string(), true);
                }
                Err(_) => {
                    let _ = events.send(JobEvent::Error(
                        "internal error: bench panicked".to_string(),
                    ));
                    line("Nodes searched: 0".to_string(), true);
                }
            }
        },
    )?;
    started.watch.expect_progress(&started.control);
    started.plugins = plugins;
    Ok(started)
}
