//! The plugin host: finds game and evaluator plugins in the plugin
//! directories, loads them through [`library`], and hands out safe handles
//! ([`GamePlugin`], [`GameState`], [`Evaluator`]).
//!
//! A game plugin is a file named `{DLL_PREFIX}plyd_game_<name>{DLL_SUFFIX}`
//! (`libplyd_game_othello.so` on Linux), an evaluator plugin one named
//! `{DLL_PREFIX}plyd_eval_<name>{DLL_SUFFIX}`. Other files in the
//! directories are left alone, so a plugin directory can be the build output
//! folder. Game plugins load first, so that each evaluator plugin can be
//! checked against the game it declares, from whichever directory.
//!
//! Modules, each depending only on those listed before it: [`error`]
//! (typed errors), [`health`] (turning impossible answers into a disabled
//! plugin), [`info`] (what the tables say about themselves), [`game`] (a
//! game plugin and its states), [`evaluator`] (evaluators bound to a game),
//! [`library`] (opening a library and validating its tables), and this
//! root (finding plugins in directories).

#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod calls;
pub mod crash;
mod error;
mod evaluator;
mod game;
mod health;
mod info;
mod library;
pub use library::loaded_bytes;
mod solve;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::{LoadError, PluginError};
pub use evaluator::{EvalStack, Evaluator, EvaluatorSource, ExternalEvaluator};
pub use game::{GamePlugin, GameState, Outcome, SeeAnswer};
pub use health::MAX_MOVES;
pub use info::{EvaluatorInfo, GameInfo, GameOptionDesc, GameOptionKindDesc, VariantDesc};
pub use solve::{SolveTable, Solved};

/// File-name stem prefix of game plugins (after the platform's library prefix).
pub const GAME_PLUGIN_PREFIX: &str = "plyd_game_";
/// File-name stem prefix of evaluator plugins.
pub const EVALUATOR_PLUGIN_PREFIX: &str = "plyd_eval_";

/// A game variant: a plugin and the index of one of its variants.
#[derive(Clone)]
pub struct VariantRef {
    /// The plugin.
    pub plugin: Arc<GamePlugin>,
    /// Index into its variants.
    pub index: usize,
}

impl VariantRef {
    /// The variant's description.
    pub fn desc(&self) -> &VariantDesc {
        &self.plugin.info().variants[self.index]
    }

    /// The variant's name.
    pub fn name(&self) -> &str {
        &self.desc().name
    }
}

/// An evaluator plugin's library name, `NAME` standing for the
/// evaluator's (`std::env::consts::DLL_PREFIX` and `DLL_SUFFIX`, which
/// `concat!` cannot take).
#[cfg(windows)]
macro_rules! evaluator_library_name {
    () => {
        "plyd_eval_NAME.dll"
    };
}
#[cfg(target_vendor = "apple")]
macro_rules! evaluator_library_name {
    () => {
        "libplyd_eval_NAME.dylib"
    };
}
#[cfg(not(any(windows, target_vendor = "apple")))]
macro_rules! evaluator_library_name {
    () => {
        "libplyd_eval_NAME.so"
    };
}

/// Where an evaluator that is not offered could come from, for the errors
/// that name one: its library named as this platform names libraries.
pub const WHERE_EVALUATORS_COME_FROM: &str = concat!(
    "an evaluator plugin is offered when its library, named ",
    evaluator_library_name!(),
    ", is in a plugin folder (--plugin-path, PluginPath), or, in the daemon, loaded from its \
     file (EvalFile)"
);

/// The loaded game plugins and stand-alone evaluator plugins.
#[derive(Default, Clone)]
pub struct PluginHost {
    games: Vec<Arc<GamePlugin>>,
    evaluators: Vec<Arc<ExternalEvaluator>>,
    dirs: Vec<PathBuf>,
    /// Evaluator plugins loaded by their file's path (the daemon's
    /// `EvalFile`) rather than found in `dirs`, in the order loaded: a
    /// reload of the plugins loads them again from these files.
    evaluator_files: Vec<PathBuf>,
    /// Libraries in `dirs` not named as plugins, left alone.
    misnamed: Vec<PathBuf>,
    /// Game plugin files in `dirs` that did not load.
    failed_games: Vec<PathBuf>,
}

/// The result of scanning plugin directories: what loaded and what did not.
pub struct ScanReport {
    /// The loaded plugins.
    pub host: PluginHost,
    /// One error per file (or directory) that failed.
    pub errors: Vec<LoadError>,
}

impl PluginHost {
    /// Load every game plugin found in `dirs`, then every evaluator plugin.
    /// Failures are collected, never fatal: a broken plugin file leaves the
    /// others usable.
    pub fn scan(dirs: &[PathBuf]) -> ScanReport {
        let mut host = PluginHost {
            dirs: dirs.to_vec(),
            ..PluginHost::default()
        };
        let mut errors = Vec::new();
        let mut game_files = Vec::new();
        let mut evaluator_files = Vec::new();
        let own = default_plugin_dir();
        for dir in dirs {
            let entries = match std::fs::read_dir(dir) {
                Ok(entries) => entries,
                // A folder that is not there, in a path of several, is
                // passed over as a shell passes over one in PATH (a
                // site-wide folder listed before the system's, say); a
                // path of one folder that is not there is a mistake.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && dirs.len() > 1 => {
                    log::info!("plugin folder {} is not there: passed over", dir.display());
                    continue;
                }
                Err(e) => {
                    let reason = if dir.is_file() {
                        "a file, not a folder: a plugin path names the folders that hold \
                         plugins (an evaluator plugin's own file is loaded with EvalFile)"
                            .to_string()
                    } else {
                        format!("cannot read plugin directory: {e}")
                    };
                    errors.push(LoadError::Open {
                        path: dir.clone(),
                        reason,
                    });
                    continue;
                }
            };
            let is_own = own.as_deref().is_some_and(|own| same_folder(dir, own));
            let mut files: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            // A library not named as a plugin is left alone, and said so in
            // the log: a misnamed plugin is otherwise never found.
            for file in files.iter().filter(|p| {
                p.extension()
                    .is_some_and(|e| std::env::consts::DLL_SUFFIX.trim_start_matches('.') == e)
                    && !is_game_plugin_file(p)
                    && !is_evaluator_plugin_file(p)
            }) {
                // plyd's own folder holds libraries of its tests, not the
                // user's: only other folders' are named in errors.
                if !is_own {
                    host.misnamed.push(file.clone());
                }
                log::info!(
                    "{} is not named as a plugin ({}): left alone",
                    file.display(),
                    plugin_file_names()
                );
            }
            game_files.extend(files.iter().filter(|p| is_game_plugin_file(p)).cloned());
            evaluator_files.extend(files.into_iter().filter(|p| is_evaluator_plugin_file(p)));
        }
        // A plugin whose game or evaluator a folder earlier on the path
        // already gave is shadowed by it, as PATH's first program of a
        // name wins: a user's own build listed before the system's.
        let shadowed = |file: &Path, existing: &Path| match (file.parent(), existing.parent()) {
            (Some(here), Some(there)) => !same_folder(here, there),
            _ => false,
        };
        for file in game_files {
            match host.load_file(&file) {
                Ok(plugin) => log::info!(
                    "loaded game plugin {} {} from {}",
                    plugin.name(),
                    plugin.info().version,
                    file.display()
                ),
                Err(LoadError::GameLoaded { game, existing, .. }) if shadowed(&file, &existing) => {
                    log::info!(
                        "{}: game '{game}' is loaded from {}, earlier on the plugin path: left alone",
                        file.display(),
                        existing.display()
                    )
                }
                Err(e) => {
                    host.failed_games.push(file.clone());
                    errors.push(e);
                }
            }
        }
        for file in evaluator_files {
            match host.load_evaluator_file(&file) {
                Ok(evaluator) => log::info!(
                    "loaded evaluator plugin {} for {} from {}",
                    evaluator.info().name,
                    evaluator.info().game,
                    file.display()
                ),
                Err(LoadError::DuplicateEvaluator {
                    evaluator,
                    existing,
                    ..
                }) if Path::new(&existing).is_file() && shadowed(&file, Path::new(&existing)) => {
                    log::info!(
                        "{}: evaluator '{evaluator}' is loaded from {existing}, earlier on the plugin path: left alone",
                        file.display()
                    )
                }
                Err(e) => errors.push(e),
            }
        }
        ScanReport { host, errors }
    }

    /// The game plugin files of the plugin folders that did not load (a
    /// broken file, one the loader refused).
    pub fn failed_game_files(&self) -> &[PathBuf] {
        &self.failed_games
    }

    /// What to add to an error saying a game is not loaded: that the
    /// folders searched leave out plyd's own (a plugin path replaces
    /// them), and the libraries found there not named as plugins. Empty
    /// when neither applies.
    pub fn missing_game_hint(&self) -> String {
        let mut parts = Vec::new();
        // plyd's own folders that hold games (the executable's folder in
        // a build, `../lib/plyd` beside it in an install), left out.
        let own: Vec<String> = default_plugin_dirs()
            .into_iter()
            .filter(|own| holds_game_plugins(own) && !self.dirs.iter().any(|d| same_folder(d, own)))
            .map(|own| own.display().to_string())
            .collect();
        if !own.is_empty() {
            parts.push(format!(
                "the plugin path replaces plyd's own folder: list {} too to keep its games",
                own.join(" and ")
            ));
        }
        if !self.misnamed.is_empty() {
            let names: Vec<String> = self
                .misnamed
                .iter()
                .take(3)
                .map(|p| p.display().to_string())
                .collect();
            let more = self.misnamed.len().saturating_sub(names.len());
            parts.push(format!(
                "{}{} not named as a plugin ({}), left alone",
                names.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                },
                plugin_file_names()
            ));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }

    /// Load one game plugin file and add it. A plugin whose game name is
    /// already loaded is refused, so the first directory on the path wins.
    pub fn load_file(&mut self, path: &Path) -> Result<Arc<GamePlugin>, LoadError> {
        let opened = library::open_game(path)?;
        if let Some(existing) = self.games.iter().find(|g| g.name() == opened.info.name) {
            return Err(LoadError::GameLoaded {
                path: path.to_path_buf(),
                game: existing.name().to_string(),
                existing: existing.info().path.clone(),
            });
        }
        // A variant is chosen by its name alone: one named as a loaded
        // game's variant would hide it, or be hidden by it.
        for variant in &opened.info.variants {
            if let Some(existing) = self.games.iter().find(|g| {
                g.info()
                    .variants
                    .iter()
                    .any(|v| v.name.eq_ignore_ascii_case(&variant.name))
            }) {
                return Err(LoadError::Malformed {
                    path: path.to_path_buf(),
                    what: format!(
                        "variant '{}' is already a variant of game {} (from {})",
                        variant.name,
                        existing.name(),
                        existing.info().path.display()
                    ),
                });
            }
        }
        let plugin = Arc::new(GamePlugin::new(
            opened.library,
            opened.vtable,
            opened.info,
            opened.evaluators,
        ));
        self.games.push(Arc::clone(&plugin));
        Ok(plugin)
    }

    /// The loaded plugins, in load order.
    pub fn games(&self) -> &[Arc<GamePlugin>] {
        &self.games
    }

    /// Load an evaluator plugin file and add it, refusing it unless a loaded
    /// game has the game name and state layout it declares.
    pub fn load_evaluator_file(
        &mut self,
        path: &Path,
    ) -> Result<Arc<ExternalEvaluator>, LoadError> {
        let evaluator = Self::open_evaluator_file(path)?;
        let game = self.game_for(&evaluator, path)?;
        self.add_evaluator(&game, evaluator, false)
    }

    /// Load the evaluator plugin in `path` for the loaded game whose
    /// state it reads, in place of an evaluator plugin of the same name
    /// (an older build, or one found in a folder), and remember the file
    /// ([`PluginHost::evaluator_files`]).
    pub fn add_evaluator_file(&mut self, path: &Path) -> Result<Arc<ExternalEvaluator>, LoadError> {
        if !path.exists() {
            // Said plainly: a file loaded before would otherwise be named
            // by the copy the loader could not make of it.
            return Err(LoadError::Open {
                path: path.to_path_buf(),
                reason: "there is no such file".to_string(),
            });
        }
        let evaluator = Self::open_evaluator_file(path)?;
        let game = self.game_for(&evaluator, path)?;
        let added = self.add_evaluator(&game, evaluator, true)?;
        self.remember_evaluator_file(path);
        Ok(added)
    }

    /// Where `wanted`, an evaluator as `--evaluator` or a config file names
    /// it, names an evaluator plugin's file rather than an evaluator on
    /// offer ([`names_a_file`]): load that file
    /// ([`PluginHost::add_evaluator_file`]) and give the name of the
    /// evaluator in it. `None` where `wanted` is a name.
    pub fn add_evaluator_named_by_file(
        &mut self,
        wanted: &str,
    ) -> Option<Result<String, LoadError>> {
        if !names_a_file(wanted) || self.offers_evaluator(wanted) {
            return None;
        }
        Some(
            self.add_evaluator_file(Path::new(wanted))
                .map(|loaded| loaded.info().name.clone()),
        )
    }

    /// Remember `path` as the file of an evaluator loaded by its path, so
    /// that a reload of the plugins loads it again.
    pub fn remember_evaluator_file(&mut self, path: &Path) {
        self.evaluator_files.retain(|f| f != path);
        self.evaluator_files.push(path.to_path_buf());
    }

    /// Whether a loaded game offers an evaluator named `name` (the
    /// letters' case aside).
    pub fn offers_evaluator(&self, name: &str) -> bool {
        self.variants()
            .iter()
            .any(|v| self.game_offers_evaluator(&v.plugin, name))
    }

    /// Whether a loaded game lists an option `name` (any case).
    pub fn has_game_option(&self, name: &str) -> bool {
        self.games()
            .iter()
            .any(|game| game.info().option(name).is_some())
    }

    /// The game whose states the evaluator plugin loaded from the file
    /// `path` reads, if one was loaded from it.
    pub fn evaluator_game_from(&self, path: &Path) -> Option<&str> {
        self.loaded_from(path).map(|info| info.game.as_str())
    }

    /// The evaluator plugin loaded last from the file `path`, if one was.
    fn loaded_from(&self, path: &Path) -> Option<&EvaluatorInfo> {
        self.evaluators
            .iter()
            .rev()
            .find(|e| e.path() == path)
            .map(|e| e.info())
    }

    /// The evaluator an `--evaluator` value asks for, by name: the name of
    /// the one loaded from its file where `named` names a file, else
    /// `named` itself.
    pub fn evaluator_name<'a>(&'a self, named: &'a str) -> &'a str {
        self.evaluator_loaded_from(Path::new(named))
            .unwrap_or(named)
    }

    /// Whether `game` offers an evaluator called `name` (any case).
    pub fn game_offers_evaluator(&self, game: &Arc<GamePlugin>, name: &str) -> bool {
        self.evaluators_for(game)
            .iter()
            .any(|e| e.name().eq_ignore_ascii_case(name))
    }

    /// The name of the evaluator plugin loaded from the file `path` (by
    /// [`PluginHost::add_evaluator_file`] or from a folder), if one is.
    pub fn evaluator_loaded_from(&self, path: &Path) -> Option<&str> {
        self.loaded_from(path).map(|info| info.name.as_str())
    }

    /// Why the evaluator plugin loaded under `name` (case aside) is not
    /// offered by `game`: the game, or the state layout, it reads.
    /// `None` where no evaluator plugin of that name is loaded, or one
    /// fits `game`.
    pub fn why_not_offered(&self, name: &str, game: &GamePlugin) -> Option<String> {
        let named: Vec<&EvaluatorInfo> = self
            .evaluators
            .iter()
            .map(|e| e.info())
            .filter(|info| info.name.eq_ignore_ascii_case(name))
            .collect();
        if named.is_empty() {
            // A library of that name in a folder, refused as it loaded
            // (its ABI version, a missing entry): where it is, not how
            // libraries are named.
            let file = format!(
                "{}{EVALUATOR_PLUGIN_PREFIX}{name}{}",
                std::env::consts::DLL_PREFIX,
                std::env::consts::DLL_SUFFIX
            );
            return self
                .dirs
                .iter()
                .map(|dir| dir.join(&file))
                .find(|path| path.is_file())
                .map(|path| {
                    format!(
                        "evaluator '{name}': its library {} is in a plugin folder but was not \
                         loaded (said when the folder was read)",
                        path.display()
                    )
                });
        }
        if named.iter().any(|info| info.fits(game)) {
            return None;
        }
        let info = named[named.len() - 1];
        Some(if info.game == game.name() {
            format!(
                "evaluator '{}' reads {} state layout {}, but {} has state layout {}",
                info.name,
                info.game,
                info.state_layout,
                game.name(),
                game.info().state_layout
            )
        } else {
            format!(
                "evaluator '{}' reads {}, not {}: choose that game (--game {}, or \
                 UCI_Variant)",
                info.name,
                info.game,
                game.name(),
                info.game
            )
        })
    }

    /// The files of the evaluators loaded by their path, in the order
    /// loaded.
    pub fn evaluator_files(&self) -> &[PathBuf] {
        &self.evaluator_files
    }

    /// The loaded game whose state `evaluator` (opened from `path`) reads.
    fn game_for(
        &self,
        evaluator: &ExternalEvaluator,
        path: &Path,
    ) -> Result<Arc<GamePlugin>, LoadError> {
        let info = evaluator.info();
        match self.games.iter().find(|g| g.name() == info.game) {
            Some(game) => Ok(Arc::clone(game)),
            None => Err(LoadError::Mismatch {
                path: path.to_path_buf(),
                evaluator: info.name.clone(),
                game: info.game.clone(),
                layout: info.state_layout,
                loaded: format!(
                    "no {} game plugin is loaded (loaded: {}){}",
                    info.game,
                    self.games_and_layouts(),
                    match self
                        .games
                        .iter()
                        .find(|g| g.name().eq_ignore_ascii_case(&info.game))
                    {
                        Some(game) => game_name_hint(&info.game, game),
                        None => match self.games.iter().find(|g| is_variant_of(&info.game, g)) {
                            Some(game) => variant_hint(&info.game, game.name()),
                            None => self.missing_game_hint(),
                        },
                    }
                ),
            }),
        }
    }

    /// Open an evaluator plugin file without adding it or checking it
    /// against the loaded games.
    pub fn open_evaluator_file(path: &Path) -> Result<ExternalEvaluator, LoadError> {
        let (library, info) = library::open_evaluator(path)?;
        Ok(ExternalEvaluator::new(library, info, path.to_path_buf()))
    }

    /// Add an opened evaluator plugin for `game`. It must read the game's
    /// state layout, and its name must be free among the game's evaluators;
    /// with `replace`, another evaluator plugin of the same name (an older
    /// build, say) gives way to it, but a built-in evaluator never does.
    pub fn add_evaluator(
        &mut self,
        game: &Arc<GamePlugin>,
        evaluator: ExternalEvaluator,
        replace: bool,
    ) -> Result<Arc<ExternalEvaluator>, LoadError> {
        let info = evaluator.info();
        if !info.fits(game) {
            return Err(LoadError::Mismatch {
                path: evaluator.path().to_path_buf(),
                evaluator: info.name.clone(),
                game: info.game.clone(),
                layout: info.state_layout,
                loaded: format!(
                    "the loaded {} plugin ({}) has state layout {}{}",
                    game.name(),
                    game.info().path.display(),
                    game.info().state_layout,
                    game_name_hint(&info.game, game)
                ),
            });
        }
        let clash = self
            .evaluators_for(game)
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(&info.name));
        if let Some(existing) = clash {
            if !(replace && existing.is_external()) {
                return Err(LoadError::DuplicateEvaluator {
                    path: evaluator.path().to_path_buf(),
                    game: game.name().to_string(),
                    evaluator: info.name.clone(),
                    existing: existing.origin(),
                });
            }
            self.evaluators.retain(|e| {
                !(e.info().fits(game) && e.info().name.eq_ignore_ascii_case(&info.name))
            });
        }
        let evaluator = Arc::new(evaluator);
        self.evaluators.push(Arc::clone(&evaluator));
        Ok(evaluator)
    }

    /// The evaluators offered for `game`: its built-in ones (the default
    /// first), then the evaluator plugins that read its state layout.
    pub fn evaluators_for(&self, game: &Arc<GamePlugin>) -> Vec<EvaluatorSource> {
        let built_in = (0..game.evaluators().len()).map(|index| EvaluatorSource::BuiltIn {
            game: Arc::clone(game),
            index,
        });
        let external = self
            .evaluators
            .iter()
            .filter(|e| e.info().fits(game))
            .map(|e| EvaluatorSource::External(Arc::clone(e)));
        built_in.chain(external).collect()
    }

    /// Have the libraries of the plugins a failure disabled loaded
    /// afresh by the next scan (a private copy, fresh statics), even where
    /// their files did not change.
    pub fn reload_failed_afresh(&self) {
        for game in self.games().iter().filter(|g| g.is_disabled()) {
            library::load_fresh_next(&game.info().path);
        }
        for evaluator in self
            .external_evaluators()
            .iter()
            .filter(|e| e.is_disabled())
        {
            library::load_fresh_next(evaluator.path());
        }
    }

    /// The stand-alone evaluator plugins, in load order.
    pub fn external_evaluators(&self) -> &[Arc<ExternalEvaluator>] {
        &self.evaluators
    }

    /// `othello layout 1, ...`, for messages.
    fn games_and_layouts(&self) -> String {
        if self.games.is_empty() {
            return "none".to_string();
        }
        self.games
            .iter()
            .map(|g| format!("{} state layout {}", g.name(), g.info().state_layout))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The directories that were scanned.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Every variant of every loaded plugin.
    pub fn variants(&self) -> Vec<VariantRef> {
        self.games
            .iter()
            .flat_map(|g| {
                (0..g.info().variants.len()).map(move |index| VariantRef {
                    plugin: Arc::clone(g),
                    index,
                })
            })
            .collect()
    }

    /// Find a variant by name (case-insensitive). A game name also selects
    /// that game's default variant.
    pub fn find_variant(&self, name: &str) -> Option<VariantRef> {
        let variants = self.variants();
        variants
            .iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
            .cloned()
            .or_else(|| {
                self.games
                    .iter()
                    .find(|g| g.name().eq_ignore_ascii_case(name))
                    .map(|g| VariantRef {
                        plugin: Arc::clone(g),
                        index: 0,
                    })
            })
    }

    /// Names of all variants, for messages.
    pub fn variant_names(&self) -> Vec<String> {
        self.variants()
            .iter()
            .map(|v| v.name().to_string())
            .collect()
    }

    /// The loaded variants' names for a message: joined by commas, or
    /// `none`.
    pub fn variant_list(&self) -> String {
        let names = self.variant_names();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    }
}

/// Whether `path` is named like a game plugin for this platform.
pub fn is_game_plugin_file(path: &Path) -> bool {
    is_named_plugin_file(path, GAME_PLUGIN_PREFIX)
}

/// Whether `path` is named like an evaluator plugin for this platform.
pub fn is_evaluator_plugin_file(path: &Path) -> bool {
    is_named_plugin_file(path, EVALUATOR_PLUGIN_PREFIX)
}

fn is_named_plugin_file(path: &Path, prefix: &str) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|name| named_after(name, prefix))
        .is_some()
        && path.is_file()
}

/// What the plugin file name `name` names after `prefix`, for this
/// platform (`libplyd_game_gomoku.so`, `plyd_game_`: `gomoku`); `None` for
/// another name, or nothing after the prefix.
fn named_after<'a>(name: &'a str, prefix: &str) -> Option<&'a str> {
    name.strip_prefix(std::env::consts::DLL_PREFIX)?
        .strip_suffix(std::env::consts::DLL_SUFFIX)?
        .strip_prefix(prefix)
        .filter(|named| !named.is_empty())
}

/// The game a game plugin's file name names, lower case
/// (`libplyd_game_gomoku.so`: `gomoku`); `None` for another name.
pub fn game_of_plugin_file_name(name: &str) -> Option<String> {
    named_after(name, GAME_PLUGIN_PREFIX).map(str::to_ascii_lowercase)
}

/// The plugin file name a game crate named `plyd_game_<game>` builds to.
pub fn plugin_file_name(game: &str) -> String {
    format!(
        "{}{GAME_PLUGIN_PREFIX}{game}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    )
}

/// The default plugin directory: the folder holding the running executable.
pub fn default_plugin_dir() -> Option<PathBuf> {
    own_executable()
        .and_then(|exe| exe.canonicalize().ok())
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
}

/// The path of plyd's own executable: the system's answer
/// (`/proc/self/exe` on Linux), less the ` (deleted)` Linux adds once an
/// upgrade has replaced the file (the new one is at the same path), or,
/// where the system cannot tell (no `/proc` in a sandbox), the command's
/// first word: a path as given, else the first file of that name on
/// `PATH`.
fn own_executable() -> Option<PathBuf> {
    if let Ok(exe) = std::env::current_exe() {
        if exe.exists() {
            return Some(exe);
        }
        let text = exe.to_string_lossy();
        if let Some(before) = text.strip_suffix(" (deleted)") {
            return Some(PathBuf::from(before)).filter(|p| p.exists());
        }
    }
    let first = PathBuf::from(std::env::args_os().next()?);
    if first.components().count() > 1 {
        return Some(first).filter(|p| p.exists());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(&first))
        .find(|candidate| candidate.is_file())
}

/// A plugin folder set when plyd was built (`PLYD_PLUGIN_DIR=/usr/lib64/plyd
/// cargo build --release`), for a system's packages whose layout is not
/// `bin/` and `lib/plyd/`.
const BUILT_PLUGIN_DIR: Option<&str> = option_env!("PLYD_PLUGIN_DIR");

/// The plugin folders searched when none is named: the folder holding
/// the executable, then `../lib/plyd` beside it where there is one (an
/// install with the program in `bin/` and its plugins in `lib/plyd/`),
/// then the folder set at build time ([`BUILT_PLUGIN_DIR`]) where there
/// is one.
pub fn default_plugin_dirs() -> Vec<PathBuf> {
    let own = default_plugin_dir();
    let installed = own
        .as_deref()
        .and_then(Path::parent)
        .map(|prefix| prefix.join("lib").join("plyd"))
        .filter(|dir| dir.is_dir());
    let built = BUILT_PLUGIN_DIR
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .filter(|dir| dir.is_dir());
    let mut dirs: Vec<PathBuf> = Vec::new();
    for dir in own.into_iter().chain(installed).chain(built) {
        if !dirs.iter().any(|d| same_folder(d, &dir)) {
            dirs.push(dir);
        }
    }
    dirs
}

/// Whether `dir` holds a file named as a game plugin.
fn holds_game_plugins(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|entry| is_game_plugin_file(&entry.path()))
    })
}

/// Whether an evaluator's name as given (`--evaluator`, a config file's
/// `evaluator`) names a file rather than an evaluator: it holds a path
/// separator or ends as this platform's libraries end. No evaluator's name
/// does either.
pub fn names_a_file(text: &str) -> bool {
    text.contains('/')
        || text.contains(std::path::MAIN_SEPARATOR)
        || text.ends_with(std::env::consts::DLL_SUFFIX)
}

/// How plugin files are named on this platform, for the messages about a
/// library that is not: `libplyd_game_NAME.so or libplyd_eval_NAME.so`.
fn plugin_file_names() -> String {
    let (prefix, suffix) = (std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    format!("{prefix}plyd_game_NAME{suffix} or {prefix}plyd_eval_NAME{suffix}")
}

/// Whether `a` and `b` are the same folder (both exist, and are one once
/// links are followed).
fn same_folder(a: &Path, b: &Path) -> bool {
    a.canonicalize()
        .ok()
        .zip(b.canonicalize().ok())
        .is_some_and(|(a, b)| a == b)
}

/// The end of a state-layout refusal where the evaluator names the game in
/// other letters (`Othello` for `othello`): names are matched exactly; or
/// names a variant of the game (`amazons8`) where the game is meant.
pub fn game_name_hint(declared: &str, loaded: &GamePlugin) -> String {
    let name = loaded.name();
    if declared != name && declared.eq_ignore_ascii_case(name) {
        format!(" (game names are matched exactly: '{declared}' is not '{name}')")
    } else if declared != name && is_variant_of(declared, loaded) {
        variant_hint(declared, name)
    } else {
        String::new()
    }
}

/// Whether `name` names one of `game`'s variants (`amazons8` of the
/// Amazons).
fn is_variant_of(name: &str, game: &GamePlugin) -> bool {
    game.info().variants.iter().any(|v| v.name == name)
}

/// Said where an evaluator names a variant (`amazons8`) as its game.
fn variant_hint(variant: &str, game: &str) -> String {
    format!(
        " ('{variant}' is a variant of the game {game}: an evaluator names the game, '{game}', \
         and reads the states of all its variants)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_with_no_game_lists_none() {
        let report = PluginHost::scan(&[]);
        assert!(report.host.variant_names().is_empty());
        assert_eq!(report.host.variant_list(), "none");
    }
}
