//! What the controller does with the position and its jobs: set the
//! position, start a search, `perft` or `bench` on a thread of its own,
//! show or evaluate the position. A refusal is a [`ControlError`].

use std::sync::Arc;
use std::time::Duration;

use plyd_protocol::{GoParams, StartPosition};

use super::session::create_evaluator_watched;
use super::{lag, worker, worker::SearchJob, ControlError, Controller, JobKind};
use crate::daemon::dialect::Dialect;
use crate::daemon::guard::watchdog::{call_limit, call_within, Blame};
use crate::host::GameState;
use crate::search::bench::BenchTarget;
use crate::search::{limits_from_go_after, SearchControl, SearchMode, SearchOptions, Techniques};

impl Controller {
    /// The position the GUI sends: `start` with `moves` played. Refused,
    /// it leaves no position to search until one is read (see
    /// [`Session::set_gui_position`](super::Session::set_gui_position)).
    pub(crate) fn set_position(
        &mut self,
        start: &StartPosition,
        moves: &[String],
    ) -> Result<(), ControlError> {
        let start_text = match start {
            StartPosition::StartPos => "startpos",
            StartPosition::Fen(text) => text.as_str(),
        };
        self.clock_lag.position(start_text, moves);
        self.session
            .set_gui_position(start, moves)
            .map_err(ControlError::Position)
    }

    /// A clock set anew (GTP's `time_settings`): what the GUI's last
    /// clock lost is not compared with the new one.
    pub(crate) fn clock_lag_forgotten(&mut self) {
        self.clock_lag.new_game();
    }

    /// `ucinewgame`: the start position and an empty table. A search told
    /// to stop is waited for, as `go` waits for it. The table is emptied
    /// at the next `isready` or search without a clock, and kept for a
    /// search on the clock that comes first (see
    /// [`TranspositionTable::settle`](crate::search::tt::TranspositionTable::settle)):
    /// a GUI that waits for `readyok` before its `go`, as UCI asks, gets
    /// an empty table off its clock, and one that does not is not made to
    /// wait for it on its clock.
    pub(crate) fn new_game(&mut self, voice: &mut dyn Dialect) -> Result<(), ControlError> {
        if self.job_in_the_way(voice).is_err() {
            return Err(ControlError::BusyFor(
                "a new game during a search is ignored; send stop first",
            ));
        }
        self.clock_lag.new_game();
        self.session
            .reset_position()
            .map_err(ControlError::Position)?;
        self.session
            .evaluator_new_game()
            .map_err(ControlError::Position)?;
        self.table()?.clear_before_next_search();
        self.trees.lock().clear();
        Ok(())
    }

    /// The clear `ucinewgame` asked for, done now, or dropped when the
    /// search about to start is `on_the_clock`. A table a job still holds
    /// is left as it is.
    pub(crate) fn settle_table(&mut self, on_the_clock: bool) {
        if !self.tt.clear_pending() {
            return;
        }
        if let Ok(table) = self.table() {
            if !table.settle(on_the_clock) {
                log::info!(
                    "a go with a clock came after ucinewgame with no isready between: \
                     the table is kept from the last game rather than cleared on the clock"
                );
            }
        }
    }

    /// Whether a running job keeps a new one from starting. A job that was
    /// told to stop is not in the way: the GUI may send `go` right after
    /// `stop` (or after `stop` and `isready`), before the old job has wound
    /// down, and the new one starts once it has.
    /// A perft or a bench, which ends by itself, is waited for too, as
    /// Stockfish runs them before it reads on: a GUI's `go perft 1` for
    /// the legal moves, then its `go`, has the count and then the search.
    pub(crate) fn job_in_the_way(&mut self, voice: &mut dyn Dialect) -> Result<(), ControlError> {
        self.finish_stopped_job(voice);
        if self
            .job
            .as_ref()
            .is_some_and(|job| matches!(job.kind, JobKind::Perft | JobKind::Bench))
        {
            self.finish_job(voice);
        }
        match &self.job {
            Some(job) if job.kind == JobKind::Search => Err(ControlError::Busy),
            // learn gives no `bestmove`: a refused `go` is owed its own.
            Some(_) => Err(ControlError::BusyFor(
                "a learn job is running; send stop first",
            )),
            None => Ok(()),
        }
    }

    /// Wait for a job that was told to stop, its last lines printed.
    pub(crate) fn finish_stopped_job(&mut self, voice: &mut dyn Dialect) {
        if self
            .job
            .as_ref()
            .is_some_and(|job| job.watch.stop_sent.is_some())
        {
            self.finish_job(voice);
        }
    }

    /// `isready`: answered at once, even during a search, but after a
    /// search that was told to stop has given its `bestmove` (a GUI
    /// sending `stop` and `isready` takes `readyok` as the sign that the
    /// old search is over, and the next `bestmove` as its next `go`'s),
    /// and after the clear a new game asked for.
    pub(crate) fn ready(&mut self, voice: &mut dyn Dialect) {
        self.finish_stopped_job(voice);
        self.settle_table(false);
        self.send(&plyd_protocol::Response::ReadyOk);
    }

    /// `go` from `root`, or from the current position when `None`. The
    /// answer comes through `voice` when the search ends.
    pub(crate) fn go(
        &mut self,
        voice: &mut dyn Dialect,
        go: &GoParams,
        root: Option<GameState>,
    ) -> Result<(), ControlError> {
        self.job_in_the_way(voice)?;
        self.settle_table(go.wtime.is_some() || go.btime.is_some() || go.movetime.is_some());
        let root = match root {
            Some(root) => root,
            None => self
                .session
                .copy_position()
                .map_err(ControlError::Position)?,
        };
        let plugin = Arc::clone(root.plugin());
        let blame = [Blame::Game(Arc::clone(&plugin))];
        let wanted = go.search_moves.clone();
        let options = self.search_options();
        let clocked = go.movetime.is_none()
            && (go.wtime.is_some() || go.btime.is_some())
            && options.endgame_solver;
        let prepare = move || {
            let side = root.side_to_move().map_err(|e| e.to_string())?;
            // How long the game can last, where the plugin's solver says
            // (the time manager plans the clock for the moves before the
            // solver's).
            let plies_left = if clocked {
                root.endgame_size()
                    .map_err(|e| e.to_string())?
                    .map(|(size, _)| size)
            } else {
                None
            };
            // A chance node (EinStein before its roll): the arbiter's to
            // draw, not the player's move.
            let chance_root = root.plugin().has_chance() && {
                let mut outcomes = Vec::new();
                root.chance_outcomes(&mut outcomes)
                    .map_err(|e| e.to_string())?;
                !outcomes.is_empty()
            };
            let (moves, rejected) = if wanted.is_empty() {
                (Vec::new(), Vec::new())
            } else {
                root.parse_legal_moves(&wanted).map_err(|e| e.to_string())?
            };
            Ok::<_, String>((root, side, plies_left, moves, rejected, chance_root))
        };
        // A game's `go` reads the side to move here, on the clock (see
        // `Session::ask_position`); the `searchmoves` of an analysis are
        // checked on a watched thread, so that a move generator that never
        // returns does not freeze the daemon before its search (and
        // watchdog) even start.
        let prepared = if go.search_moves.is_empty() {
            self.session
                .on_clock("preparing the search", &plugin, prepare)
        } else {
            call_within("preparing the search", call_limit(), &blame, prepare)
        };
        let (root, side, plies_left, search_moves, rejected, chance_root) =
            prepared.and_then(|p| p).map_err(ControlError::Plugin)?;
        // What the GUI's clock lost beyond what plyd measured on its last
        // moves is kept back too (a chance node's `go` is no move of its
        // own: the comparison starts again after it).
        let (time, inc) = go.clock(side);
        let time = time.filter(|_| !chance_root);
        let lag = self.clock_lag.on_go(side, time, inc);
        if let Some((expected, given)) = self.clock_lag.rose {
            log::warn!(
                "the clock rose to {:.1} s where the last one left {:.1} s, with no increment \
                 (a clock mistyped? a new period is sent with movestogo): planned on as given",
                given.as_secs_f64(),
                expected.as_secs_f64()
            );
        }
        let set = Duration::from_millis(u64::from(self.settings.move_overhead_ms));
        let overhead = self.clock_lag.keep(set);
        if let Some(lag) = lag.filter(|_| overhead > set && self.clock_lag.rises_to(overhead)) {
            log::warn!(
                "the clock lost {:.1} ms more than plyd measured on its last move (time \
                 between the GUI and plyd, a busy machine): keeping {:.1} ms of each move \
                 back, where Move Overhead is {} ms, until {} moves show less",
                lag.as_secs_f64() * 1000.0,
                overhead.as_secs_f64() * 1000.0,
                set.as_millis(),
                lag::KEPT
            );
        }
        // The time since the line was read (a `go` read while plyd was
        // still loading, or mapping a table), which its clock has lost:
        // the move is planned on what the clock holds now. A ponder
        // search's clock starts at `ponderhit`.
        let waited = if go.ponder {
            Duration::ZERO
        } else {
            self.clock_start().elapsed()
        };
        let timed = go.movetime.is_some() || time.is_some();
        if timed && waited >= LATE_START && !voice.times_its_own_turns() {
            // Said: the GUI sees a late or unsearched move and nothing
            // else (a `go` right after `setoption name Hash value 3000`
            // was answered 6.4 s late, the table being mapped).
            log::warn!(
                "this go was read {:.0} ms before plyd could start it (busy with the commands \
                 before it: a game's plugin loaded, a perft counted first, a large Hash \
                 mapped, which takes seconds); \
                 its clock ran meanwhile, so its move comes late: send isready after setoption \
                 Hash or ucinewgame and wait for readyok before go",
                waited.as_secs_f64() * 1000.0
            );
        }
        // A clock that loses more than plyd measured, move after move (a
        // person relaying the moves at a board, a starved engine), loses it
        // on every move still to come: in sudden death, where the game does
        // not bound the moves left, that loss is kept aside for each move of
        // the time manager's horizon, as a clock with `movestogo` keeps its
        // overhead (five of them were kept: an operator's half second a
        // move lost a 60 s Amazons game on time at ply 84).
        let horizon;
        let planned = if overhead > set && plies_left.is_none() && sudden_death(go, side) {
            horizon = GoParams {
                moves_to_go: Some(LAG_HORIZON_MOVES),
                ..go.clone()
            };
            &horizon
        } else {
            go
        };
        let mut limits = limits_from_go_after(planned, side, overhead, plies_left, waited);
        if let Some(cap) = crate::search::skill_depth(self.settings.skill_level) {
            // A depth asked for beyond the level's is said to be capped.
            if go.depth.is_some_and(|asked| asked > cap) {
                voice.note(
                    self,
                    &format!(
                        "Skill Level {} searches to depth {cap} at most",
                        self.settings.skill_level
                    ),
                );
            }
            limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        }
        if !chance_root && crate::search::clock_leaves_out(go, side) {
            let (player, time) = if side == 0 {
                ("first", "wtime")
            } else {
                ("second", "btime")
            };
            voice.note(
                self,
                &format!(
                    "go: no time for the side to move, the {player} player ({time}; wtime and \
                     winc are the first player's clock, btime and binc the second's, whatever \
                     the game calls its sides): read as no time left, a move at once"
                ),
            );
        }
        if chance_root && !go.ponder {
            // Said, since `bestmove (none)` also means a game over or no
            // position: a person at a terminal has no GUI to roll for them.
            voice.note(
                self,
                "chance moves first here (in EinStein, the roll of the die): the search weighs every outcome \
                 and answers bestmove (none); send the outcome as a move (go perft 1 lists \
                 them), then go",
            );
        }
        if chance_root && limits.clock.is_some() && !go.ponder {
            // The clock is for the player's own moves, and the answer here
            // is `bestmove (none)` whatever is found: one ply, not a share
            // of the clock (an arbiter that sends `go` before each roll
            // would see it spent). `movetime`, `depth` and the rest still
            // analyse the roll.
            limits.clock = None;
            limits.answer_by = None;
            limits.depth = Some(1);
        }
        if chance_root && !search_moves.is_empty() {
            // The die chooses here, not the player: every roll is weighed.
            voice.error(
                self,
                "searchmoves does not apply before the roll: every outcome of the chance node is searched",
            );
        } else {
            limits.search_moves = search_moves;
        }
        if !rejected.is_empty() {
            // None left: the search is of every move, as UCI has it, and
            // the line says so (a client restricting the search would
            // otherwise take the answer for one among its moves).
            let every = if limits.search_moves.is_empty() && !chance_root {
                "; none is left, so every move is searched"
            } else {
                ""
            };
            let message = format!(
                "searchmoves: ignoring illegal or unknown {}{every}",
                rejected.join(" ")
            );
            voice.error(self, &message);
        }
        let evaluator = Arc::clone(
            &self
                .session
                .current()
                .map_err(ControlError::NoGame)?
                .evaluator,
        );
        // The book plays where `OwnBook` is on and the book is this game's.
        let variant = self.session.current().map(|c| c.variant.name().to_string());
        let book = Arc::clone(&self.book);
        let book = (self.settings.own_book
            && self.settings.skill_level >= crate::search::FULL_SKILL
            && book
                .read()
                .as_ref()
                .is_some_and(|b| variant.as_deref() == Ok(b.game())))
        .then_some(book);
        let job = SearchJob {
            root,
            evaluator,
            book,
            tt: Arc::clone(&self.tt),
            trees: Arc::clone(&self.trees),
            limits,
            options,
            chance_root,
        };
        let control = Arc::new(SearchControl::starting_at(go.ponder, self.clock_start()));
        let job = worker::start_search(job, control, self.events_tx.clone()).map_err(|e| {
            ControlError::Thread {
                what: "search",
                why: e.to_string(),
            }
        })?;
        self.job = Some(job);
        Ok(())
    }

    /// `go perft depth`: counts printed per root move when it ends.
    pub(crate) fn perft(
        &mut self,
        voice: &mut dyn Dialect,
        depth: u32,
    ) -> Result<(), ControlError> {
        self.job_in_the_way(voice)?;
        let root = self
            .session
            .copy_position()
            .map_err(ControlError::Position)?;
        let control = Arc::new(SearchControl::new(false));
        let job =
            worker::start_perft(root, depth, control, self.events_tx.clone()).map_err(|e| {
                ControlError::Thread {
                    what: "perft",
                    why: e.to_string(),
                }
            })?;
        self.job = Some(job);
        Ok(())
    }

    /// NBoard's `learn`: the positions of the game from `start` along
    /// `moves` that the `BookFile` book lacks, up to
    /// [`worker::LEARN_PLIES`] plies in, are searched to `depth` and added,
    /// the book's scores are carried back from its deepest lines, and the
    /// file is written. `learned` is written when it is done.
    pub(crate) fn learn(
        &mut self,
        voice: &mut dyn Dialect,
        start: &StartPosition,
        moves: &[String],
        depth: u32,
    ) -> Result<(), ControlError> {
        self.job_in_the_way(voice)?;
        if self.settings.is_fixed(crate::options::names::BOOK_FILE) {
            return Err(ControlError::Option(format!(
                "learn: the book is not written: {} is fixed by the configuration \
                 (fixed_options), and what its file holds with it",
                crate::options::names::BOOK_FILE
            )));
        }
        if self.book_file_text.is_empty() {
            return Err(ControlError::Option(
                "learn: no book is in use (no BookFile is set, or the book named could not be read: \
                 its error was told then), so there is no book to learn into"
                    .to_string(),
            ));
        }
        // A game of no moves (no `set game` read, or one refused) adds
        // nothing: said, and no book written.
        if moves.is_empty() {
            return Err(ControlError::Option(
                "learn: the game has no moves to learn (no game has been set since the start, \
                 or the last one was refused)"
                    .to_string(),
            ));
        }
        let current = self.session.current().map_err(ControlError::NoGame)?;
        let variant = current.variant.name().to_string();
        let evaluator = Arc::clone(&current.evaluator);
        if let Some(other) = self
            .book
            .read()
            .as_ref()
            .map(|b| b.game().to_string())
            .filter(|game| *game != variant)
        {
            return Err(ControlError::Option(format!(
                "learn: the book {} is for {other}, not {variant}",
                self.book_file_text
            )));
        }
        // A book another evaluator scored: refused (its scale is not this
        // one's); one that names none takes this one's name.
        if let Some(book) = self.book.write().as_mut() {
            book.note_scorer(evaluator.name()).map_err(|e| {
                ControlError::Option(format!("learn: book {}: {e}", self.book_file_text))
            })?;
        }
        // A book the searches could not be written to: refused before
        // them, not after (searched to the GUI's depth, and thrown away).
        let path = plyd_util::files::gui_path(&self.book_file_text);
        crate::book::Book::check_writable(&path)
            .map_err(|e| ControlError::Option(format!("learn: {e}")))?;
        let start_state = self
            .session
            .ask_line(start, &[], |state| state.try_clone())
            .map_err(ControlError::Position)?;
        let job = worker::LearnJob {
            start: start_state,
            moves: moves.to_vec(),
            evaluator,
            book: Arc::clone(&self.book),
            path,
            variant,
            depth,
        };
        let control = Arc::new(SearchControl::new(false));
        let job = worker::start_learn(job, control, self.events_tx.clone()).map_err(|e| {
            ControlError::Thread {
                what: "learn",
                why: e.to_string(),
            }
        })?;
        self.job = Some(job);
        Ok(())
    }

    /// `bench [game] [depth]`: the bench positions of one game or all.
    pub(crate) fn bench(
        &mut self,
        voice: &mut dyn Dialect,
        game: Option<&str>,
        depth: Option<u32>,
    ) -> Result<(), ControlError> {
        self.job_in_the_way(voice)?;
        let targets = self.bench_targets(game)?;
        let control = Arc::new(SearchControl::new(false));
        let job = worker::start_bench(
            targets,
            depth,
            self.search_options(),
            control,
            self.events_tx.clone(),
        )
        .map_err(|e| ControlError::Thread {
            what: "bench",
            why: e.to_string(),
        })?;
        self.job = Some(job);
        Ok(())
    }

    /// What `bench [game]` searches: the named variant or every loaded
    /// one, each with the current evaluator if it is the current game and
    /// its default evaluator otherwise.
    fn bench_targets(&self, game: Option<&str>) -> Result<Vec<BenchTarget>, ControlError> {
        let variants = match game {
            Some(name) => vec![self.session.host.find_variant(name).ok_or_else(|| {
                ControlError::Option(format!(
                    "bench: unknown game '{name}' (loaded: {})",
                    self.session.host.variant_list()
                ))
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
                        .ok_or_else(|| {
                            ControlError::Plugin(format!(
                                "bench: {} offers no evaluator",
                                variant.name()
                            ))
                        })?;
                    Arc::new(
                        create_evaluator_watched(&variant.plugin, source, None)
                            .map_err(|e| ControlError::Plugin(format!("bench: {e}")))?,
                    )
                }
            };
            targets.push(BenchTarget {
                variant,
                evaluator,
                positions: None,
            });
        }
        if targets.is_empty() {
            return Err(ControlError::NoGame("bench: no game is loaded".to_string()));
        }
        Ok(targets)
    }

    /// `d`: the board drawing, then `Fen:` and `Key:` lines.
    pub(crate) fn display(&self) -> Result<Vec<String>, ControlError> {
        let (board, fen, hash, verdict) = self
            .session
            .show_position()
            .map_err(ControlError::Position)?;
        let mut lines: Vec<String> = board.lines().map(str::to_string).collect();
        // The same words in every game, whatever its board's picture says.
        if let Some(verdict) = verdict {
            lines.push(format!("Result: {verdict}"));
        }
        // The moves a GUI may offer, one word each, as `go perft 1` lists
        // them (`d` is answered during a search, where a perft waits).
        let moves = self
            .session
            .spelled_moves()
            .map_err(ControlError::Position)?;
        lines.push(
            std::iter::once("Moves:".to_string())
                .chain(moves)
                .collect::<Vec<_>>()
                .join(" "),
        );
        lines.push(format!("Fen: {fen}"));
        lines.push(format!("Key: {hash:016x}"));
        Ok(lines)
    }

    /// `eval`: the evaluation of the current position, term by term.
    pub(crate) fn eval(&self) -> Result<Vec<String>, ControlError> {
        self.session.eval_report().map_err(ControlError::Position)
    }

    /// `book`: the `BookFile` book's moves at the current position, best
    /// first, each with its score and depth, as one line (`book: d3 183
    /// depth 6, c4 183 depth 6`); or why there are none.
    pub(crate) fn book_report(&self) -> Result<String, ControlError> {
        let book = self.book.read();
        let Some(book) = book.as_ref() else {
            return Err(ControlError::Option(
                "book: no book is in use (setoption name BookFile value FILE)".to_string(),
            ));
        };
        let variant = self
            .session
            .current()
            .map_err(ControlError::NoGame)?
            .variant
            .name()
            .to_string();
        if book.game() != variant {
            return Err(ControlError::Option(format!(
                "book: the book is of {}, not of {variant}, the game in use",
                book.game()
            )));
        }
        let moves = self
            .session
            .ask_position(|state| Ok(book.moves_at(state).map(<[_]>::to_vec)))
            .map_err(ControlError::Position)?;
        let Some(mut moves) = moves else {
            return Ok(format!(
                "book: this position is not in the book ({} of {variant})",
                crate::counted(book.len(), "position", "positions")
            ));
        };
        // Best first; equal scores as the book lists them.
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        let listed: Vec<String> = moves
            .iter()
            .map(|m| format!("{} {} depth {}", m.mv, m.score, m.depth))
            .collect();
        Ok(format!("book: {}", listed.join(", ")))
    }

    /// The search in force: the one `SearchMode` chose, else the one the
    /// current game's plugin recommends.
    pub(super) fn search_mode(&self) -> SearchMode {
        self.settings.search_mode.unwrap_or_else(|| {
            self.session.current.as_ref().map_or(SearchMode::Pvs, |c| {
                SearchMode::recommended(c.state.plugin().info().capabilities)
            })
        })
    }

    /// The search techniques in force for the current game: as set, and
    /// those not set as the game's plugin prefers.
    pub(super) fn techniques_in_force(&self) -> Techniques {
        let caps = self
            .session
            .current
            .as_ref()
            .map_or(0, |c| c.state.plugin().info().capabilities);
        self.settings.techniques.for_game(caps)
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
            endgame_solver: self.settings.endgame_solver
                && self.settings.skill_level >= crate::search::FULL_SKILL,
            see: self.settings.see,
            techniques: self.settings.techniques,
            mode: self.search_mode(),
            variety: self.settings.variety.unwrap_or(0),
            skill_level: self.settings.skill_level,
            variety_seed: match self.settings.variety_seed {
                0 => fresh_seed(),
                seed => u64::from(seed),
            },
            mcts_exploration: self.settings.mcts_exploration,
            mcts_widening: self.settings.mcts_widening,
            mcts_tree_nodes: self.settings.mcts_tree_nodes as usize,
            params: self.settings.search_params,
        }
    }
}

/// A seed no earlier search of this process, nor another process, is
/// likely to have drawn: the clock's nanoseconds, the process id and a
/// count of the draws, mixed.
fn fresh_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static DRAWS: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let draw = DRAWS.fetch_add(1, Ordering::Relaxed);
    plyd_util::rng::SplitMix64::new(nanos ^ u64::from(std::process::id()).rotate_left(32) ^ draw)
        .next_u64()
}

/// How long after its line was read a timed `go` may start before plyd
/// says that its clock ran meanwhile.
const LATE_START: Duration = Duration::from_millis(100);

/// The moves a clock that loses a measured amount every move keeps it
/// aside for, in sudden death (see [`Controller::go`]). 30, the time
/// manager's own horizon, kept a 60 s Amazons game 25 s unused at its end
/// (ply 63, with half a second lost a move), where 5 lost it on time.
const LAG_HORIZON_MOVES: u32 = 20;

/// Whether `go` gives `side` a clock with no increment and no
/// `movestogo`: sudden death.
fn sudden_death(go: &GoParams, side: u32) -> bool {
    let (time, inc) = go.clock(side);
    time.is_some() && inc.unwrap_or(0) <= 0 && go.moves_to_go.unwrap_or(0) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sudden_death_is_a_clock_with_no_increment_and_no_control() {
        let go = |text: &str| match plyd_protocol::parse_line(text) {
            Ok(Some(plyd_protocol::Command::Go(go))) => go,
            other => panic!("{other:?}"),
        };
        assert!(sudden_death(&go("go wtime 60000 btime 60000"), 0));
        assert!(sudden_death(&go("go wtime 60000 btime 60000 winc 0"), 1));
        assert!(!sudden_death(&go("go wtime 60000 btime 60000 binc 100"), 1));
        assert!(sudden_death(&go("go wtime 60000 btime 60000 binc 100"), 0));
        assert!(!sudden_death(
            &go("go wtime 60000 btime 60000 movestogo 20"),
            0
        ));
        assert!(!sudden_death(&go("go movetime 500"), 0));
        assert!(!sudden_death(&go("go btime 500"), 0));
    }
}
