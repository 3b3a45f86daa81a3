//! The daemon's game session: the loaded plugins, the chosen variant and
//! evaluator (with its parameters), and the current position. Every change
//! is built aside and swapped in only when it fully succeeds, so a bad
//! command changes nothing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use plyd_protocol::StartPosition;

use crate::daemon::guard::sentry::Watcher;
use crate::daemon::guard::watchdog::{call_limit, call_within, Blame};

use crate::host::{
    Evaluator, EvaluatorSource, GamePlugin, GameState, LoadError, PluginError, PluginHost,
    VariantRef,
};

/// The chosen variant with its position and evaluator.
pub struct Current {
    /// The variant.
    pub variant: VariantRef,
    /// The position `go` searches from.
    pub state: GameState,
    /// The evaluator the search uses.
    pub evaluator: Arc<Evaluator>,
    /// The parameter file the evaluator was created from; `None` for its
    /// defaults.
    pub eval_params: Option<PathBuf>,
}

/// Plugins plus the current game.
#[derive(Default)]
pub struct Session {
    /// Loaded plugins.
    pub host: PluginHost,
    /// The game being played; `None` when no plugin is loaded.
    pub current: Option<Current>,
    /// Why there is no current game after a plugin call on the clock never
    /// returned (see [`sentry`](crate::daemon::guard::sentry)), and which variant it was.
    lost: Option<Lost>,
    /// Why the GUI's last position was refused, until it sends one that
    /// is read: a search must not answer for the position before it,
    /// which the GUI no longer has on its board.
    refused: Option<String>,
    /// The sentry over the calls made on the controller's thread.
    watcher: Option<Watcher>,
}

/// A game given up with its stuck plugin.
struct Lost {
    variant: String,
    why: String,
}

/// Read a parameter file for the evaluator; the error names the file.
fn read_params(path: &Path) -> Result<String, String> {
    let text = read_params_text(path)?;
    if text.contains('\0') {
        return Err(format!(
            "eval params {}: holds a NUL byte (a parameter file is TOML text)",
            path.display()
        ));
    }
    Ok(text)
}

/// The text of a parameter file; the error names the file.
fn read_params_text(path: &Path) -> Result<String, String> {
    plyd_util::files::read_text(path, crate::PARAMS_FILE_LIMIT).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::InvalidData {
            " (a parameter file is TOML text, as plyd params prints one for the evaluator; \
             an evaluator that reads a binary file, as Othello's patterns reads its weights, \
             names it inside one: weights = \"FILE\")"
                .to_string()
        } else if e.kind() == std::io::ErrorKind::NotFound && path.is_relative() {
            // A relative path is taken from plyd's working directory,
            // which may not be the GUI's.
            std::env::current_dir()
                .map(|dir| format!(" (looked in {})", dir.display()))
                .unwrap_or_default()
        } else {
            String::new()
        };
        format!("eval params {}: cannot be read: {e}{hint}", path.display())
    })
}

/// Whether the file at `path` starts as a shared library does (ELF,
/// Mach-O or PE), or cannot be read to tell.
fn looks_like_a_library(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    // Not opened unless a regular file: a FIFO would wait for a writer
    // (the loader then says what it is).
    if plyd_util::files::check_regular(path, u64::MAX).is_err() {
        return true;
    }
    let Ok(mut file) = std::fs::File::open(path) else {
        return true;
    };
    if file.read_exact(&mut head).is_err() {
        return false;
    }
    head == *b"\x7fELF"
        || head[..2] == *b"MZ"
        || [0xfeed_facf_u32, 0xfeed_face, 0xcafe_babe]
            .iter()
            .any(|m| head == m.to_be_bytes() || head == m.to_le_bytes())
}

/// The evaluator of `sources` (evaluators of `game`), other than
/// `refused`, that takes the parameter text `text`, if one does: whose
/// file it is.
fn params_owner(
    game: &Arc<GamePlugin>,
    sources: impl IntoIterator<Item = EvaluatorSource>,
    refused: &str,
    text: &str,
) -> Option<String> {
    sources
        .into_iter()
        .filter(|source| !source.name().eq_ignore_ascii_case(refused))
        .find(|source| Evaluator::new(game, source.clone(), Some(text)).is_ok())
        .map(|source| source.name().to_string())
}

/// What a refusal of a parameter file by evaluator `refused` adds: the
/// evaluator whose file it is, where one is known.
fn read_by(refused: &str, owner: Option<&str>) -> String {
    match owner {
        Some(owner) => format!(
            " (read by evaluator {refused}; the file holds the parameters of {owner}: select \
             {owner}, or give {refused} a file of its own)"
        ),
        None => format!(" (read by evaluator {refused})"),
    }
}

/// `why`, a refusal of the parameter file `path` by evaluator `refused`
/// that names no built-in evaluator the file is for (` (read by evaluator
/// X)`), with the evaluator plugin of `host` for `game` that takes it
/// named instead: Othello's `weights` is one (its file given to the
/// default `patterns` said only `unknown field 'terms'`).
pub fn with_plugin_owner(
    why: String,
    host: &PluginHost,
    game: &Arc<GamePlugin>,
    refused: &str,
    path: &Path,
) -> String {
    let plain = read_by(refused, None);
    if !why.contains(&plain) {
        return why;
    }
    let Ok(text) = read_params(path) else {
        return why;
    };
    let plugins = host
        .evaluators_for(game)
        .into_iter()
        .filter(|source| matches!(source, EvaluatorSource::External(_)));
    match params_owner(game, plugins, refused, &text) {
        Some(owner) => why.replacen(&plain, &read_by(refused, Some(&owner)), 1),
        None => why,
    }
}

/// Create `source` for the states of `game` with the parameters in the
/// file `path` (its defaults when `None`). A refusal of the parameters names
/// the file: `eval params <file>: key '...': ...`.
pub fn create_evaluator(
    game: &Arc<GamePlugin>,
    source: EvaluatorSource,
    path: Option<&Path>,
) -> Result<Evaluator, String> {
    let text = path.map(read_params).transpose()?;
    Evaluator::new(game, source, text.as_deref()).map_err(|e| match (e, path) {
        (PluginError::Params { evaluator, reason }, Some(path)) => {
            // A key the evaluator does not know is often a file meant for
            // another evaluator (EvalParams sent before Evaluator): say
            // which one read it.
            let reader = if reason.contains("unknown field") {
                let built_in = (0..game.evaluators().len()).map(|index| EvaluatorSource::BuiltIn {
                    game: Arc::clone(game),
                    index,
                });
                let owner = text
                    .as_deref()
                    .and_then(|t| params_owner(game, built_in, &evaluator, t));
                read_by(&evaluator, owner.as_deref())
            } else {
                String::new()
            };
            format!("eval params {}: {reason}{reader}", path.display())
        }
        (e, _) => e.to_string(),
    })
}

/// [`create_evaluator`] on a thread of its own, watched (see
/// [`call_within`]): a context creation that never returns disables the
/// evaluator's library (the game plugin, for a built-in evaluator), and the
/// evaluator in use stays.
pub(super) fn create_evaluator_watched(
    game: &Arc<GamePlugin>,
    source: EvaluatorSource,
    path: Option<&Path>,
) -> Result<Evaluator, String> {
    let blame = Blame::evaluator_call(game, &source);
    let (game, path) = (Arc::clone(game), path.map(Path::to_path_buf));
    call_within("creating the evaluator", call_limit(), &blame, move || {
        create_evaluator(&game, source, path.as_deref())
    })?
}

/// `variant` at its start position, with a new evaluator of `source` with
/// the parameter file `params` (or its defaults); a file that cannot be
/// used leaves the evaluator's defaults, and the second value says why.
fn start_current_with(
    variant: VariantRef,
    source: EvaluatorSource,
    params: Option<PathBuf>,
) -> Result<(Current, Option<String>), String> {
    let state = GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
    let with_params = params.map(|path| {
        create_evaluator(&variant.plugin, source.clone(), Some(&path)).map(|e| (e, path))
    });
    let (evaluator, eval_params, problem) = match with_params {
        Some(Ok((evaluator, path))) => (evaluator, Some(path), None),
        Some(Err(e)) => (
            create_evaluator(&variant.plugin, source, None)?,
            None,
            Some(format!("{e}; using the evaluator's defaults")),
        ),
        None => (create_evaluator(&variant.plugin, source, None)?, None, None),
    };
    let current = Current {
        variant,
        state,
        evaluator: Arc::new(evaluator),
        eval_params,
    };
    Ok((current, problem))
}

/// What a reload needs beyond its plugins' files, in MiB: their data as
/// they start (Othello's pattern tables alone are 22 MiB), and room left
/// for the search.
const RELOAD_MARGIN_MIB: u64 = 32;

/// The most one reload has grown the address space the process maps, in
/// MiB (0 before the first: a reload of changed files grew it by 31 MiB,
/// of unchanged ones by nothing).
static RELOAD_GROWTH_MIB: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The bytes the plugin files a reload from `dirs` map, with the evaluator
/// files named one by one: their loadable segments (a file's size where
/// its headers do not say).
fn plugin_files_bytes(dirs: &[PathBuf], evaluator_files: &[PathBuf]) -> u64 {
    let in_dirs = dirs
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            plyd_host::is_game_plugin_file(path) || plyd_host::is_evaluator_plugin_file(path)
        });
    in_dirs
        .chain(evaluator_files.iter().cloned())
        .filter_map(|path| {
            let meta = std::fs::metadata(&path).ok().filter(|m| m.is_file())?;
            Some(plyd_host::loaded_bytes(&path).unwrap_or(meta.len()))
        })
        .sum()
}

impl Session {
    /// Load the plugins from `dirs`, and the evaluator plugins in
    /// `eval_files` (loaded before by `EvalFile`) in place of any of the
    /// same name found there, and select `game` (or the default), with
    /// `evaluator` (or the game's default) and its parameter file
    /// `eval_params`. Returns the session and one message per problem.
    pub fn open(
        dirs: &[PathBuf],
        eval_files: &[PathBuf],
        game: Option<&str>,
        evaluator: Option<&str>,
        eval_params: Option<&Path>,
    ) -> (Self, Vec<String>) {
        let report = PluginHost::scan(dirs);
        let mut messages: Vec<String> = report.errors.iter().map(LoadError::to_string).collect();
        let mut session = Session {
            host: report.host,
            ..Session::default()
        };
        for file in eval_files {
            if let Err(e) = session.host.add_evaluator_file(file) {
                messages.push(format!(
                    "{e} (the EvalFile loaded before; not loaded again)"
                ));
            }
        }
        // An evaluator named by its file (`--evaluator ./libplyd_eval_x.so`).
        let by_file =
            evaluator.and_then(
                |name| match session.host.add_evaluator_named_by_file(name)? {
                    Ok(loaded) => Some(loaded),
                    Err(e) => {
                        messages.push(e.to_string());
                        None
                    }
                },
            );
        // Given an evaluator plugin's file and no game, the daemon starts
        // in the evaluator's game, as the tools do (`--evaluator
        // ./libplyd_eval_mine.so` of a xiangqi evaluator plays xiangqi).
        let evaluators_game = match (game, &by_file, evaluator) {
            (None, Some(_), Some(file)) => session
                .host
                .evaluator_game_from(Path::new(file))
                .map(str::to_string),
            _ => None,
        };
        let game = game.or(evaluators_game.as_deref());
        let evaluator = by_file.as_deref().or(evaluator);
        if session.host.games().is_empty() {
            let refused = match report.errors.len() {
                0 => String::new(),
                1 => " (see the problem reported with it)".to_string(),
                n => format!(" (see the {n} problems reported with it)"),
            };
            messages.push(if dirs.is_empty() {
                "no plugin folder to look in: plyd cannot tell where its own executable is \
                 (no /proc?); name the folder with --plugin-path or PLYD_PLUGIN_PATH"
                    .to_string()
            } else {
                format!(
                    "no usable game plugin in {}{refused}{}",
                    dirs.iter()
                        .map(|d| d.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    session.host.missing_game_hint()
                )
            });
            return (session, messages);
        }
        let wanted = game.and_then(|name| {
            let found = session.host.find_variant(name);
            if found.is_none() {
                let default = session
                    .default_variants()
                    .first()
                    .map_or(String::new(), |v| format!(" ({})", v.name()));
                // UCCI, GTP, NBoard and Botzone then play their own game.
                messages.push(format!(
                    "game '{name}' is not loaded (loaded: {}){}; using the default{default}, \
                     or the game of the protocol spoken",
                    session.host.variant_list(),
                    session.host.missing_game_hint()
                ));
            }
            found
        });
        let wanted_name = wanted.as_ref().map(|v| v.name().to_string());
        let candidates = wanted.into_iter().chain(session.default_variants());
        let mut failed = false;
        for variant in candidates {
            // The evaluator was asked for with the game asked for: another
            // game started in its place keeps it only where it offers one
            // of that name (a PluginPath without xiangqi gave Othello and
            // an error line for xiangqi's default evaluator, `classic`).
            let evaluator = match game.is_some() && wanted_name.as_deref() != Some(variant.name()) {
                true => evaluator
                    .filter(|name| session.host.game_offers_evaluator(&variant.plugin, name)),
                false => evaluator,
            };
            match session.start(&variant, evaluator, eval_params) {
                Ok((current, warnings)) => {
                    messages.extend(warnings);
                    // After a game that could not start, say which did.
                    if failed {
                        messages.push(format!("started {} instead", variant.name()));
                    } else if game.is_none() && variant.name() != "othello" {
                        // The default game's plugin left out of the folders:
                        // said in the log (a dialect of another game, UCCI's
                        // xiangqi, starts its own game next).
                        log::warn!(
                            "the default game, othello, is not loaded (loaded: {}); starting with {}",
                            session.host.variant_list(),
                            variant.name()
                        );
                    }
                    session.current = Some(current);
                    break;
                }
                Err(e) => {
                    messages.push(e);
                    failed = true;
                }
            }
        }
        if session.current.is_none() && eval_params.is_some() {
            messages.push(format!(
                "{}; using the evaluator's defaults",
                session.no_game()
            ));
        }
        (session, messages)
    }

    /// Variants in the order tried when none is asked for: Othello first
    /// (the default game), then everything else in load order.
    fn default_variants(&self) -> Vec<VariantRef> {
        let mut variants = self.host.variants();
        variants.sort_by_key(|v| v.name() != "othello");
        variants
    }

    /// A fresh `Current` for `variant` at its start position, with the
    /// evaluator named `evaluator` if its game offers one, else the game's
    /// default, with the parameter file `params` (or the defaults). The
    /// second value holds the warnings: the named evaluator not found, the
    /// file that could not be used.
    fn start(
        &self,
        variant: &VariantRef,
        evaluator: Option<&str>,
        params: Option<&Path>,
    ) -> Result<(Current, Vec<String>), String> {
        let (source, warning) = self.choose_evaluator(variant, evaluator)?;
        let refused = source.name().to_string();
        let (current, problem) =
            start_current_with(variant.clone(), source, params.map(Path::to_path_buf))?;
        let problem = match (problem, params) {
            (Some(why), Some(path)) => Some(with_plugin_owner(
                why,
                &self.host,
                &variant.plugin,
                &refused,
                path,
            )),
            (problem, _) => problem,
        };
        Ok((current, warning.into_iter().chain(problem).collect()))
    }

    /// The evaluator [`Session::start`] takes for `variant`, and its
    /// warning.
    fn choose_evaluator(
        &self,
        variant: &VariantRef,
        evaluator: Option<&str>,
    ) -> Result<(EvaluatorSource, Option<String>), String> {
        // A game given up after a failure offers nothing: say that, not
        // that it has no evaluator.
        variant.plugin.check_enabled().map_err(|e| e.to_string())?;
        let offered = self.host.evaluators_for(&variant.plugin);
        // A disabled evaluator plugin is passed over: choosing it would fail
        // at the first evaluation.
        let usable = |e: &&EvaluatorSource| !e.is_disabled();
        let default = offered.iter().find(usable).cloned().ok_or_else(|| {
            format!(
                "game {} offers no evaluator (its plugin lists none, and no evaluator \
                     plugin for it is loaded: list one in the game's table, or put an evaluator \
                     plugin for {} in a plugin folder)",
                variant.plugin.name(),
                variant.plugin.name()
            )
        })?;
        let named = evaluator.and_then(|name| {
            offered
                .iter()
                .filter(usable)
                .find(|e| e.name().eq_ignore_ascii_case(name))
                .cloned()
        });
        let warning = match (evaluator, &named) {
            // A file named, which could not be loaded: why was said when
            // it was tried.
            (Some(name), None) if crate::host::names_a_file(name) => Some(format!(
                "evaluator file {name} was not loaded (said above); using {}",
                default.name()
            )),
            (Some(name), None) => Some(match self.host.why_not_offered(name, &variant.plugin) {
                Some(why) => format!("{why}; using {}", default.name()),
                None => format!(
                    "evaluator '{name}' is not offered by {}; using {} ({})",
                    variant.plugin.name(),
                    default.name(),
                    crate::host::WHERE_EVALUATORS_COME_FROM
                ),
            }),
            _ => None,
        };
        Ok((named.unwrap_or(default), warning))
    }

    /// A session of the plugins of `host` whose game `variant` was given
    /// up, for the reason `why`, when a call into its plugin never
    /// returned; `watcher` is the fresh controller's.
    pub(super) fn resumed(
        host: PluginHost,
        variant: Option<String>,
        why: String,
        watcher: Watcher,
    ) -> Self {
        Session {
            host,
            lost: variant.map(|variant| Lost { variant, why }),
            watcher: Some(watcher),
            ..Session::default()
        }
    }

    /// Note the calls on the controller's thread with `watcher`.
    pub(super) fn watch_with(&mut self, watcher: Watcher) {
        self.watcher = Some(watcher);
    }

    /// The variant `go` searches, or was searching before its plugin was
    /// given up.
    pub(crate) fn variant_name(&self) -> Option<String> {
        match (&self.current, &self.lost) {
            (Some(current), _) => Some(current.variant.name().to_string()),
            (None, Some(lost)) => Some(lost.variant.clone()),
            (None, None) => None,
        }
    }

    /// The current game, or the error to report when there is none.
    pub fn current(&self) -> Result<&Current, String> {
        self.current.as_ref().ok_or_else(|| self.no_game())
    }

    /// The current game with a position to search or show: an error when
    /// there is no game, or when the GUI's last position was refused.
    fn positioned(&self) -> Result<&Current, String> {
        match self.refusal() {
            Some(why) => Err(why),
            None => self.current(),
        }
    }

    /// The error for a command that needs a position, when the GUI's last
    /// one was refused (see [`Session::set_gui_position`]).
    pub(crate) fn refusal(&self) -> Option<String> {
        self.refused.as_ref().map(|why| {
            // Said in full when the position was refused: here without
            // the legal moves' list (`move 2 ('a1') rejected: illegal move
            // 'a1'; the second player's move there`).
            let short = match why.find(" legal here") {
                Some(legal) => match (why[..legal].rfind(" ("), why[legal..].find(')')) {
                    (Some(open), Some(close)) => {
                        format!("{}{}", &why[..open], &why[legal + close + 1..])
                    }
                    _ => why.clone(),
                },
                None => why.clone(),
            };
            format!("no position: the last one sent was refused ({short}); send a position first")
        })
    }

    /// Why there is no current game.
    fn no_game(&self) -> String {
        match &self.lost {
            Some(lost) => lost.why.clone(),
            None => "no game is loaded (see PluginPath)".to_string(),
        }
    }

    /// `call` into `plugin` on the controller's thread, noted for the
    /// sentry (see [`Watcher::on_clock`]); `what` names the work.
    pub(super) fn on_clock<T>(
        &self,
        what: &'static str,
        plugin: &Arc<GamePlugin>,
        call: impl FnOnce() -> T,
    ) -> Result<T, String> {
        match &self.watcher {
            Some(watcher) => watcher.on_clock(what, plugin, call),
            None => Ok(call()),
        }
    }

    /// A copy of the current position, made on the controller's thread.
    pub(crate) fn copy_position(&self) -> Result<GameState, String> {
        let current = self.positioned()?;
        self.on_clock("copying the position", &current.variant.plugin, || {
            current.state.try_clone()
        })?
        .map_err(|e| e.to_string())
    }

    /// Names of the evaluators the current game offers, its default first.
    pub fn evaluator_names(&self) -> Vec<String> {
        match &self.current {
            Some(current) => self
                .host
                .evaluators_for(&current.variant.plugin)
                .iter()
                .map(|e| e.name().to_string())
                .collect(),
            None => Vec::new(),
        }
    }

    /// Switch to the variant `name`, at its start position. The evaluator
    /// keeps its name if the new game offers one of that name; parameters go
    /// back to that evaluator's defaults, unless the variant is the one in
    /// use (a GUI names it again at every new game), which keeps them.
    pub fn select_variant(&mut self, name: &str) -> Result<(), String> {
        let variant = self.host.find_variant(name).ok_or_else(|| {
            // A game whose plugin file was refused at load (a wrong ABI
            // version, a panic in its start) is named with that file: the
            // refusal was said when the plugins were loaded, lines before.
            let refused = self.host.failed_game_files().iter().find(|file| {
                let stem = file
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(plyd_host::game_of_plugin_file_name);
                stem.is_some_and(|game| name.to_ascii_lowercase().starts_with(&game))
            });
            let refused = refused.map_or(String::new(), |file| {
                format!(
                    "; its plugin file {} did not load (why was said when the plugins were \
                     loaded)",
                    file.display()
                )
            });
            format!(
                "unknown variant '{name}' (loaded: {}){refused}",
                self.host.variant_list()
            )
        })?;
        let keep = self
            .current
            .as_ref()
            .map(|c| c.evaluator.name().to_string());
        // The variants of one game share its evaluators, and their
        // parameter files (an Amazons file holds both boards' tables).
        let params = self
            .current
            .as_ref()
            .filter(|c| Arc::ptr_eq(&c.variant.plugin, &variant.plugin))
            .and_then(|c| c.eval_params.clone());
        let (source, _) = self.choose_evaluator(&variant, keep.as_deref())?;
        // The parameters are the evaluator's: kept only with it.
        let params = params.filter(|_| keep.as_deref() == Some(source.name()));
        let blame = Blame::game_and_evaluator(&variant.plugin, &source);
        // The game in play named again with its evaluator: that evaluator
        // as it is, its parameters as they were read (the file is not
        // read again, so an edit made since, or a file broken since, does
        // not change or drop them), and a fresh start position.
        let same = self.current.as_ref().filter(|c| {
            c.variant.name() == variant.name() && keep.as_deref() == Some(source.name())
        });
        if let Some(current) = same {
            let (evaluator, eval_params) =
                (Arc::clone(&current.evaluator), current.eval_params.clone());
            let (plugin, index) = (Arc::clone(&variant.plugin), variant.index);
            let state = call_within("starting the variant", call_limit(), &blame, move || {
                GameState::new(&plugin, index).map_err(|e| e.to_string())
            })??;
            self.current = Some(Current {
                variant,
                state,
                evaluator,
                eval_params,
            });
            self.lost = None;
            self.refused = None;
            return Ok(());
        }
        let (current, problem) =
            call_within("starting the variant", call_limit(), &blame, move || {
                start_current_with(variant, source, params)
            })??;
        self.current = Some(current);
        self.lost = None;
        self.refused = None;
        problem.map_or(Ok(()), Err)
    }

    /// Select the evaluator `name` of the current game, with its default
    /// parameters; the evaluator in use named again keeps its parameters.
    pub fn select_evaluator(&mut self, name: &str) -> Result<(), String> {
        let current = self.current.as_ref().ok_or_else(|| self.no_game())?;
        let offered = self.host.evaluators_for(&current.variant.plugin);
        let source = offered
            .iter()
            .find(|e| e.name().eq_ignore_ascii_case(name))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "{} has no evaluator '{name}' (it has: {}; {})",
                    current.variant.plugin.name(),
                    self.evaluator_names().join(", "),
                    crate::host::WHERE_EVALUATORS_COME_FROM
                )
            })?;
        let params = current
            .eval_params
            .clone()
            .filter(|_| current.evaluator.name() == source.name());
        let evaluator =
            create_evaluator_watched(&current.variant.plugin, source, params.as_deref())?;
        let current = self.current.as_mut().ok_or("no game is loaded")?;
        current.evaluator = Arc::new(evaluator);
        current.eval_params = params;
        Ok(())
    }

    /// Load an evaluator plugin from `path` for the current game and select
    /// it, with its default parameters. It must read the current game's
    /// state layout. A plugin of the same evaluator name loaded before (an
    /// older build) gives way to it. Returns the evaluator's name.
    pub fn load_eval_file(&mut self, path: &Path) -> Result<(String, Option<String>), String> {
        let current = self.current.as_ref().ok_or_else(|| self.no_game())?;
        let game = Arc::clone(&current.variant.plugin);
        let file = path.to_path_buf();
        // A plugin a failure disabled comes back as a fresh copy (fresh
        // statics; a stuck thread may hold its locks), as a reload does.
        self.host.reload_failed_afresh();
        let opened = call_within("loading the evaluator", call_limit(), &[], move || {
            PluginHost::open_evaluator_file(&file)
        })?
        .map_err(|e| {
            if looks_like_a_library(path) {
                e.to_string()
            } else {
                format!(
                    "{e} (EvalFile loads an evaluator plugin library; a parameter or \
                     weights file goes to EvalParams)"
                )
            }
        })?;
        // Check the fit and create the context before registering, so a
        // refused file leaves the list of evaluators as it was.
        if !opened.info().fits(&game) {
            let info = opened.info();
            return Err(LoadError::Mismatch {
                path: path.to_path_buf(),
                evaluator: info.name.clone(),
                game: info.game.clone(),
                layout: info.state_layout,
                // The game first: two games' layouts may share a number.
                loaded: if info.game == game.name() {
                    format!(
                        "the current game {} has state layout {}",
                        game.name(),
                        game.info().state_layout
                    )
                } else {
                    format!(
                        "the current game is {}, another game{}",
                        game.name(),
                        crate::host::game_name_hint(&info.game, &game)
                    )
                },
            }
            .to_string());
        }
        // An evaluator of that name from another file (another author's,
        // or one from a plugin folder) is replaced: said, since it can no
        // longer be chosen.
        let replaced = self
            .host
            .evaluators_for(&game)
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(&opened.info().name))
            .and_then(|e| match &e {
                EvaluatorSource::External(loaded)
                    if !plyd_util::files::same_file(loaded.path(), path) =>
                {
                    Some(e.origin())
                }
                _ => None,
            });
        let external = self
            .host
            .add_evaluator(&game, opened, true)
            .map_err(|e| e.to_string())?;
        self.host.remember_evaluator_file(path);
        let name = external.info().name.clone();
        let evaluator = create_evaluator_watched(&game, EvaluatorSource::External(external), None)?;
        let current = self.current.as_mut().ok_or("no game is loaded")?;
        current.evaluator = Arc::new(evaluator);
        current.eval_params = None;
        Ok((name, replaced))
    }

    /// Re-create the current evaluator with the parameters in `path`, or
    /// with its defaults when `None`. On error the evaluator in use stays.
    pub fn set_eval_params(&mut self, path: Option<&Path>) -> Result<(), String> {
        let missing = self.no_game();
        let current = self.current.as_mut().ok_or(missing)?;
        let source = current.evaluator.source().clone();
        let refused = source.name().to_string();
        let game = Arc::clone(&current.variant.plugin);
        let evaluator =
            create_evaluator_watched(&game, source, path).map_err(|why| match path {
                Some(path) => with_plugin_owner(why, &self.host, &game, &refused, path),
                None => why,
            })?;
        let current = self.current.as_mut().ok_or("no game is loaded")?;
        current.evaluator = Arc::new(evaluator);
        current.eval_params = path.map(Path::to_path_buf);
        Ok(())
    }

    /// If a failure disabled the evaluator plugin in use, go back to the
    /// game's first usable evaluator. Returns what was done, to report: a
    /// note when another evaluator took over (the failure itself had its
    /// error line), an error when none could.
    pub fn replace_failed_evaluator(&mut self) -> Option<Result<String, String>> {
        let current = self.current.as_ref()?;
        let failed = &current.evaluator;
        if !failed.is_disabled() || !failed.source().is_external() {
            // A built-in evaluator fails with its game plugin, which the
            // existing messages already cover.
            return None;
        }
        let failed_name = failed.name().to_string();
        let params = current.eval_params.clone();
        let variant = current.variant.clone();
        if variant.plugin.is_disabled() {
            // No evaluator of a disabled game can be made: the game's own
            // error says what to do, once a command needs it.
            return None;
        }
        let replacement = self
            .host
            .evaluators_for(&variant.plugin)
            .into_iter()
            .find(|e| !e.is_disabled())?;
        match create_evaluator_watched(&variant.plugin, replacement, None) {
            Ok(evaluator) => {
                let name = evaluator.name().to_string();
                let current = self.current.as_mut()?;
                current.evaluator = Arc::new(evaluator);
                current.eval_params = None;
                // Its parameters went with it: a reload starts from its
                // defaults.
                let params = params.map_or(String::new(), |file| {
                    format!(
                        " (its params {} are dropped: send EvalParams again after reloading it)",
                        file.display()
                    )
                });
                Some(Ok(format!(
                    "evaluator '{failed_name}' is disabled after a failure; using {name}{params}"
                )))
            }
            Err(e) => Some(Err(format!(
                "evaluator '{failed_name}' is disabled after a failure, and no other could be created: {e}"
            ))),
        }
    }

    /// The evaluation of the current position, as lines for people tuning
    /// weights: the evaluator, each term it explains, and the score.
    /// Watched like [`Session::watched_position`]: an evaluator that never
    /// returns disables its library (the game plugin, for a built-in one).
    pub fn eval_report(&self) -> Result<Vec<String>, String> {
        let current = self.positioned()?;
        let state = self.copy_position()?;
        let evaluator = Arc::clone(&current.evaluator);
        let params = current.eval_params.clone();
        // `evaluation_lines` calls the evaluator alone.
        let blame = Blame::evaluator_call(&current.variant.plugin, evaluator.source());
        call_within("evaluating the position", call_limit(), &blame, move || {
            evaluation_lines(&evaluator, &state, params.as_deref())
        })?
    }

    /// Tell the current evaluator a new game begins (see
    /// [`Evaluator::new_game`]), watched as [`Session::eval_report`] is.
    pub fn evaluator_new_game(&self) -> Result<(), String> {
        let current = self.current()?;
        // No thread to watch a call that is not there.
        if !current.evaluator.has_new_game() {
            return Ok(());
        }
        let evaluator = Arc::clone(&current.evaluator);
        let blame = Blame::evaluator_call(&current.variant.plugin, evaluator.source());
        call_within("starting a new game", call_limit(), &blame, move || {
            evaluator.new_game().map_err(|e| e.to_string())
        })?
    }

    /// `ask` of the current position, on the controller's own thread.
    /// The calls a GUI makes between its `go` (or the move it sends) and
    /// the answer are made this way: handing them to a watched thread
    /// costs a thread's wait for a core each time, several milliseconds on
    /// a busy machine, charged to the engine's clock.
    pub fn ask_position<T>(
        &self,
        ask: impl FnOnce(&GameState) -> Result<T, PluginError>,
    ) -> Result<T, String> {
        let current = self.positioned()?;
        self.on_clock("reading the position", &current.variant.plugin, || {
            ask(&current.state)
        })?
        .map_err(|e| e.to_string())
    }

    /// `ask` of a copy of the current position, on a thread of its own,
    /// watched (see [`call_within`]): a plugin that never returns is
    /// disabled and the daemon reads its next command. For the commands
    /// no clock runs for (`d`, GTP's `showboard` ...); `what` names the
    /// work in messages (`showing the position`).
    pub fn watched_position<T: Send + 'static>(
        &self,
        what: &str,
        ask: impl FnOnce(&GameState) -> Result<T, PluginError> + Send + 'static,
    ) -> Result<T, String> {
        let current = self.positioned()?;
        let state = self.copy_position()?;
        let blame = [Blame::Game(Arc::clone(&current.variant.plugin))];
        call_within(what, call_limit(), &blame, move || ask(&state))?.map_err(|e| e.to_string())
    }

    /// `ask` of the position `start` with `moves` played, in the current
    /// variant (the current position stays).
    pub fn ask_line<T>(
        &self,
        start: &StartPosition,
        moves: &[String],
        ask: impl FnOnce(&GameState) -> Result<T, PluginError>,
    ) -> Result<T, String> {
        let variant = &self.current()?.variant;
        self.on_clock("reading the position", &variant.plugin, || {
            let state = read_position(variant, start, moves)?;
            ask(&state).map_err(|e| e.to_string())
        })?
    }

    /// The current position as `d` shows it: the plugin's board drawing,
    /// its position text and its hash key.
    pub fn show_position(&self) -> Result<(String, String, u64, Option<String>), String> {
        self.watched_position("showing the position", |state| {
            Ok((
                state.board_text()?,
                state.position_text()?,
                state.hash(),
                crate::search::verdict(state)?,
            ))
        })
    }

    /// The moves of the current position that may be played (a chance
    /// node's outcomes), spelled, as `d` lists them: a watched call of its
    /// own, after the board's.
    pub fn spelled_moves(&self) -> Result<Vec<String>, String> {
        self.watched_position("listing the moves", |state| {
            let mut moves = Vec::new();
            state.moves_or_outcomes(&mut moves)?;
            moves.iter().map(|&mv| state.format_move(mv)).collect()
        })
    }

    /// Set the position from `position startpos|fen ... moves ...`, or
    /// change nothing and say why. Read on the controller's thread, like
    /// [`Session::ask_position`]: it is on the clock of the `go` after it.
    pub fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), String> {
        self.replace_position(start, moves)
            .map_err(|why| format!("{why}; position unchanged"))
    }

    /// [`Session::set_position`] for a whole position the GUI sends (UCI's
    /// `position`, NBoard's `set game`): when it is refused, no position
    /// is left to search until the GUI sends one that is read, so that a
    /// `go` after it cannot answer for the position before, which the GUI
    /// no longer has on its board.
    pub fn set_gui_position(
        &mut self,
        start: &StartPosition,
        moves: &[String],
    ) -> Result<(), String> {
        self.replace_position(start, moves).map_err(|why| {
            if self.current.is_none() {
                return why;
            }
            self.refuse_position(why.clone());
            format!("{why}; no position is set until one is read")
        })
    }

    /// Where the current variant refuses the position text `text`, the
    /// first other variant whose start position it looks like, said as a
    /// hint (a FEN of one game sent while the daemon plays another), or
    /// nothing. Read from the variants' start positions alone, calling no
    /// plugin: a plugin call could hang or fail and cost its plugin.
    fn other_variant_reading(&self, text: &str) -> String {
        let Ok(current) = self.current() else {
            return String::new();
        };
        let Some(board) = text.split_whitespace().next() else {
            return String::new();
        };
        let other = self.host.variants().into_iter().find(|other| {
            other.name() != current.variant.name()
                && other
                    .desc()
                    .start_position
                    .split_whitespace()
                    .next()
                    .is_some_and(|start| board_like(board, start))
        });
        match other {
            Some(other) => format!(
                "; it looks like a position of {name} (setoption name {} value {name} chooses \
                 that game)",
                crate::options::names::VARIANT,
                name = other.name()
            ),
            None => String::new(),
        }
    }

    /// Leave no position to search, for the reason `why`, after the GUI
    /// sent one that could not be read (see [`Session::set_gui_position`]).
    pub(crate) fn refuse_position(&mut self, why: String) {
        if self.current.is_some() {
            self.refused = Some(why);
        }
    }

    fn replace_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), String> {
        let variant = &self.current()?.variant;
        let read = self.on_clock("reading the position", &variant.plugin, || {
            read_position(variant, start, moves)
        })?;
        let state = match (read, start) {
            (Ok(state), _) => state,
            (Err(why), StartPosition::Fen(text)) if why.starts_with(BAD_POSITION) => {
                return Err(why + &self.other_variant_reading(text));
            }
            (Err(why), _) => return Err(why),
        };
        let replaced = self
            .current
            .as_mut()
            .map(|c| std::mem::replace(&mut c.state, state));
        // The old position is freed by its plugin: on the clock too.
        if let Some(old) = replaced {
            let plugin = Arc::clone(old.plugin());
            self.on_clock("freeing a position", &plugin, || drop(old))?;
        }
        self.refused = None;
        Ok(())
    }

    /// Back to the start position of the current variant.
    pub fn reset_position(&mut self) -> Result<(), String> {
        self.set_position(&StartPosition::StartPos, &[])
    }

    /// Reload every plugin from `dirs`, keeping the current variant,
    /// evaluator name and parameter file where they still apply. On failure
    /// (nothing loads) the old plugins stay. Returns the problems met along
    /// the way.
    pub fn reload(&mut self, dirs: &[PathBuf]) -> Result<Vec<String>, String> {
        // The plugins load beside those loaded now (a changed file's copy
        // stays mapped until the process ends): where the memory left
        // cannot take as much as a reload has grown the process so far
        // (before the first, what the plugins' files map), the reload is
        // refused, as a failed allocation in a plugin's start would end
        // the process.
        let grown = RELOAD_GROWTH_MIB.load(std::sync::atomic::Ordering::Relaxed);
        let mapped_before = crate::memory::mapped_mib();
        let need = if grown > 0 {
            grown
        } else {
            plugin_files_bytes(dirs, self.host.evaluator_files()).div_ceil(1 << 20)
        } + RELOAD_MARGIN_MIB;
        if let Some(left) = crate::memory::short_for(need) {
            return Err(format!(
                "plugins not reloaded: loading them again may take about {need} MiB, more than \
                 this process can have now ({left} MiB left; a changed plugin's copy stays \
                 loaded until plyd ends); the plugins loaded before stay"
            ));
        }
        let variant = self.variant_name();
        let evaluator = self
            .current
            .as_ref()
            .map(|c| c.evaluator.name().to_string());
        let params = self.current.as_ref().and_then(|c| c.eval_params.clone());
        // The game options set before, set again in the games loaded now
        // that list them: a library loaded again from the same file would
        // keep them without the host knowing, one from another file would
        // start from its defaults.
        let mut kept: Vec<(String, String)> = Vec::new();
        for game in self.host.games() {
            for (name, value) in game.option_values() {
                kept.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
                kept.push((name, value));
            }
        }
        let wanted = (
            dirs.to_vec(),
            self.host.evaluator_files().to_vec(),
            variant,
            evaluator.clone(),
        );
        self.host.reload_failed_afresh();
        let (mut fresh, mut messages) = call_within(
            "loading the plugins",
            call_limit(),
            &[],
            move || {
                let (dirs, files, variant, evaluator) = wanted;
                let (fresh, mut messages) = Session::open(
                    &dirs,
                    &files,
                    variant.as_deref(),
                    evaluator.as_deref(),
                    None,
                );
                for game in fresh.host.games() {
                    for (name, value) in &kept {
                        let Some(option) = game.info().option(name) else {
                            continue;
                        };
                        if let Err(e) = game.set_option(&option.name, value) {
                            messages.push(format!(
                                "option '{}' of {}: {value} was not taken again after the reload: {e}",
                                option.name,
                                game.name()
                            ));
                        }
                    }
                }
                (fresh, messages)
            },
        )?;
        if fresh.current.is_none() {
            return Err(messages.join("; "));
        }
        // The game in play lost because its file did not load again (a
        // file being replaced, a loader refusing the copy): the plugins
        // before stay, the game going on, rather than another game taking
        // its place.
        if let Some(variant) = self.variant_name() {
            if fresh.host.find_variant(&variant).is_none()
                && !fresh.host.failed_game_files().is_empty()
            {
                let failed = fresh.host.failed_game_files();
                let why: Vec<&str> = messages
                    .iter()
                    .filter(|m| failed.iter().any(|f| m.contains(&*f.to_string_lossy())))
                    .map(String::as_str)
                    .collect();
                return Err(format!(
                    "plugins not reloaded: the game in play, {variant}, did not load again \
                     ({}); the plugins loaded before stay",
                    why.join("; ")
                ));
            }
        }
        let same_evaluator = fresh
            .current
            .as_ref()
            .is_some_and(|c| Some(c.evaluator.name()) == evaluator.as_deref());
        if let (Some(path), true) = (params, same_evaluator) {
            if let Err(e) = fresh.set_eval_params(Some(&path)) {
                messages.push(format!("{e}; using the evaluator's defaults"));
            }
        }
        fresh.watcher = self.watcher.take();
        *self = fresh;
        let growth = crate::memory::mapped_mib().saturating_sub(mapped_before);
        RELOAD_GROWTH_MIB.fetch_max(growth, std::sync::atomic::Ordering::Relaxed);
        Ok(messages)
    }
}

/// Whether the board part of a position text, `board`, has the shape of
/// `start`'s: as many `/`-separated rows, and no character (digits and
/// `/` aside) that `start` lacks.
fn board_like(board: &str, start: &str) -> bool {
    board.split('/').count() == start.split('/').count()
        && board
            .chars()
            .all(|c| c.is_ascii_digit() || c == '/' || start.contains(c))
}

/// How [`read_position`]'s refusal of a position text begins.
const BAD_POSITION: &str = "bad position ";

/// The position `start` with `moves` played, in a new state of `variant`.
fn read_position(
    variant: &VariantRef,
    start: &StartPosition,
    moves: &[String],
) -> Result<GameState, String> {
    let mut state = GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
    if let StartPosition::Fen(text) = start {
        state
            .set_position(text)
            .map_err(|e| format!("{BAD_POSITION}'{text}': {e}"))?;
    }
    for (i, text) in moves.iter().enumerate() {
        // Full-width letters and brackets, as a Chinese input method types
        // them (`ｄ１ｄ７（ｇ７）`), are their ASCII ones.
        let ascii;
        let text = if text.is_ascii() {
            text
        } else {
            ascii = plyd_protocol::half_width(text);
            &ascii
        };
        let read = match state.parse_legal_move(text) {
            Err(e) => after_a_forced_pass(&mut state, text)?.ok_or(e),
            read => read,
        };
        // Xiangqi's WXF (`C2.5`) and Chinese (`炮二平五`) moves, as records
        // and broadcasts write them, read on the board where they are
        // played.
        let read = match read {
            Err(e) if variant.name() == "xiangqi" => match xiangqi_move(&state, variant, text)? {
                Some(Ok(mv)) => Ok(mv),
                Some(Err(why)) => {
                    return Err(format!(
                        "move {} ('{text}') rejected: read as WXF or Chinese notation, {why}{}",
                        i + 1,
                        whose_move(&state)
                    ))
                }
                None => Err(e),
            },
            read => read,
        };
        // A game's moves run together (`f5d6c3`, as Othello transcripts
        // write them), played here whole or not at all.
        let mut together = String::new();
        if read.is_err() {
            match run_together(&mut state, text)? {
                Ok(()) => continue,
                Err(0) => {}
                Err(read) => {
                    together = format!(
                        "; read as moves written together, its first {read} are legal here and \
                         what follows them is not"
                    )
                }
            }
        }
        let mv = read.map_err(|e| {
            // A GUI counting xiangqi's ranks from the other end.
            let other = state
                .ranks_it_reads_in(text)
                .map_or(String::new(), |(ranks, way)| {
                    format!(
                        "; it is legal with its ranks counted {way}: if the GUI writes ranks \
                         {ranks}, send setoption name MoveRanks value {ranks}"
                    )
                });
            format!(
                "move {} ('{text}') rejected: {e}{together}{other}{}",
                i + 1,
                whose_move(&state)
            )
        })?;
        state.make_move(mv).map_err(|e| e.to_string())?;
    }
    Ok(state)
}

/// A xiangqi move `text` in WXF or Chinese notation, read on `state`'s
/// board (`None` where it is in neither), in the plugin's own ranks.
fn xiangqi_move(
    state: &GameState,
    variant: &VariantRef,
    text: &str,
) -> Result<Option<Result<plyd_api::Move, String>>, String> {
    let fen = state.position_text().map_err(|e| e.to_string())?;
    let from_one = variant.plugin.option_value("MoveRanks").as_deref() == Some("1-10");
    Ok(plyd_protocol::xiangqi_iccs(&fen, text, from_one)
        .map(|iccs| iccs.and_then(|iccs| state.parse_legal_move(&iccs).map_err(|e| e.to_string()))))
}

/// Whose move a refused move was, for a person who left one out (a reply
/// not typed, a roll forgotten): `; the second player's move there`, `; a
/// chance move comes first there ...`, nothing where the game is over or
/// the plugin cannot say.
fn whose_move(state: &GameState) -> String {
    if state.outcome().ok() != Some(crate::host::Outcome::Ongoing) {
        return String::new();
    }
    if crate::book::is_chance_node(state).unwrap_or(false) {
        return "; a chance move comes first there (in EinStein, the roll of the die)".to_string();
    }
    match state.side_to_move() {
        Ok(0) => "; the first player's move there".to_string(),
        Ok(1) => "; the second player's move there".to_string(),
        _ => String::new(),
    }
}

/// The pass the side to move must play, where its one legal move is a
/// pass (the move the game reads `pass` as, written `0000`); `None`
/// where it has a placement or no move at all.
pub(crate) fn forced_pass(state: &GameState) -> Result<Option<u32>, PluginError> {
    let mut legal = Vec::new();
    state.legal_moves(&mut legal)?;
    let pass = state.parse_move("pass").ok();
    Ok(match legal[..] {
        [only] if pass == Some(only) => Some(only),
        _ => None,
    })
}

/// Where `text` (no move here) is refused, the side to move can only pass (its one
/// legal move is written `0000`) and `text` is a move of the other side
/// after that pass: the pass played and that move, for the caller to
/// play. A GUI's move list may leave a forced pass out, as game records
/// do (NBoard's `set game` adds it too); nothing else is read into a
/// move it is not. `None` (the state as it was) in every other case.
fn after_a_forced_pass(state: &mut GameState, text: &str) -> Result<Option<u32>, String> {
    let Ok(Some(pass)) = forced_pass(state) else {
        return Ok(None);
    };
    state.make_move(pass).map_err(|e| e.to_string())?;
    match state.parse_legal_move(text) {
        Ok(mv) => Ok(Some(mv)),
        Err(_) => {
            state.unmake_move(pass).map_err(|e| e.to_string())?;
            Ok(None)
        }
    }
}

/// The longest move text [`run_together`] looks for: longer than any
/// move of the four games (an Amazons move on its 10-by-10 board,
/// `a10a1j10`, is 8 characters).
const RUN_TOGETHER_MOVE: usize = 16;

/// The longest word [`run_together`] reads as several moves: a whole
/// Othello game (60 moves of two characters) and then some, and a bound
/// on the plugin calls a word that is no moves at all can cost.
const RUN_TOGETHER_WORD: usize = 1024;

/// Where `text` (no move here) is several legal moves written without a
/// space between them, each the only legal move the text can start with
/// here (a forced pass the text leaves out added, as a move list's is):
/// plays them all. Otherwise, the state as it was and the number of
/// moves read before the text stopped reading (0 where it is not moves
/// at all): a word the moves could split two ways is not guessed at.
fn run_together(state: &mut GameState, text: &str) -> Result<Result<(), usize>, String> {
    if text.len() > RUN_TOGETHER_WORD {
        return Ok(Err(0));
    }
    let mut played = Vec::new();
    let mut rest = text;
    let mut read_moves = 0;
    let whole = loop {
        if rest.is_empty() {
            break read_moves > 1;
        }
        let mut read = read_a_prefix(state, rest)?;
        if read.is_none() {
            if let Ok(Some(pass)) = forced_pass(state) {
                state.make_move(pass).map_err(|e| e.to_string())?;
                played.push(pass);
                read = read_a_prefix(state, rest)?;
            }
        }
        let Some((mv, length)) = read else {
            break false;
        };
        state.make_move(mv).map_err(|e| e.to_string())?;
        played.push(mv);
        read_moves += 1;
        rest = &rest[length..];
    };
    if whole {
        return Ok(Ok(()));
    }
    for &mv in played.iter().rev() {
        state.unmake_move(mv).map_err(|e| e.to_string())?;
    }
    // One move and the rest not read is a word that is not moves.
    Ok(Err(if read_moves > 1 { read_moves } else { 0 }))
}

/// The one legal move that a beginning of `text` reads as here, and the
/// bytes it takes; `None` where none does or more than one does.
fn read_a_prefix(state: &GameState, text: &str) -> Result<Option<(u32, usize)>, String> {
    let mut found = None;
    let ends = text.char_indices().skip(1).map(|(end, _)| end);
    for end in ends.chain([text.len()]) {
        if end > RUN_TOGETHER_MOVE {
            break;
        }
        if let Ok(mv) = state.parse_legal_move(&text[..end]) {
            if found.is_some() {
                return Ok(None);
            }
            found = Some((mv, end));
        }
    }
    Ok(found)
}

/// The lines of `plyd eval` and of the daemon's `eval`: which evaluator,
/// with which parameters, each term it explains, and the score it returns
/// for the side to move.
pub fn evaluation_lines(
    evaluator: &Evaluator,
    state: &GameState,
    params: Option<&Path>,
) -> Result<Vec<String>, String> {
    let mut lines = vec![format!(
        "evaluator {} ({}) params {}",
        evaluator.name(),
        evaluator.source().origin(),
        params.map_or("default".to_string(), |p| p.display().to_string())
    )];
    // The score first: an evaluator's `explain` may call its `evaluate`
    // (the SDK's default does), and a fault there is then named after the
    // entry that has it.
    let score = evaluator
        .evaluate_unclamped(state)
        .map_err(|e| e.to_string())?;
    match evaluator.explain(state) {
        Ok(text) => lines.extend(text.lines().map(str::to_string)),
        Err(PluginError::Unsupported { .. }) => {}
        Err(e) => return Err(e.to_string()),
    }
    lines.push(format!("score {score} (side to move)"));
    // The scale a new evaluator of the game is matched to (the search's
    // margins are fractions of it: docs/plugins.md).
    let bound = crate::search::score::eval_bound(evaluator);
    lines.push(format!("score_bound {bound}"));
    // A score past the evaluator's declared bound is clamped without a
    // word (by the SDK's shim, else by the host): say so here, where
    // weights are tuned. A score at the bound may have been clamped.
    // Not `abs`: a C evaluator may answer `i32::MIN`, whose `abs` wraps.
    if score.unsigned_abs() >= bound.unsigned_abs() {
        lines.push(format!(
            "warning: the score is at or past the evaluator's bound {bound} (its score_bound); searches see at most ±{bound}"
        ));
    }
    Ok(lines)
}
