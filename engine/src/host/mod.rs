//! The plugin host: finds game plugins in the plugin directories, loads them
//! through [`library`], and hands out safe handles ([`GamePlugin`],
//! [`GameState`], [`Evaluator`]).
//!
//! A game plugin is a file named `{DLL_PREFIX}plyd_game_<name>{DLL_SUFFIX}`
//! (`libplyd_game_othello.so` on Linux). Other files in the directories are
//! left alone, so a plugin directory can be the build output folder.

mod error;
mod game;
mod library;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::{LoadError, PluginError};
pub use game::{
    Evaluator, EvaluatorInfo, GameInfo, GamePlugin, GameState, Outcome, VariantDesc, MAX_MOVES,
};

/// File-name stem prefix of game plugins (after the platform's library prefix).
pub const GAME_PLUGIN_PREFIX: &str = "plyd_game_";

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

/// The set of loaded game plugins.
#[derive(Default)]
pub struct PluginHost {
    games: Vec<Arc<GamePlugin>>,
    dirs: Vec<PathBuf>,
}

/// The result of scanning plugin directories: what loaded and what did not.
pub struct ScanReport {
    /// The loaded plugins.
    pub host: PluginHost,
    /// One error per file (or directory) that failed.
    pub errors: Vec<LoadError>,
}

impl PluginHost {
    /// Load every game plugin found in `dirs`. Failures are collected, never
    /// fatal: a broken plugin file leaves the others usable.
    pub fn scan(dirs: &[PathBuf]) -> ScanReport {
        let mut host = PluginHost {
            games: Vec::new(),
            dirs: dirs.to_vec(),
        };
        let mut errors = Vec::new();
        for dir in dirs {
            let entries = match std::fs::read_dir(dir) {
                Ok(entries) => entries,
                Err(e) => {
                    errors.push(LoadError::Open {
                        path: dir.clone(),
                        reason: format!("cannot read plugin directory: {e}"),
                    });
                    continue;
                }
            };
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_game_plugin_file(p))
                .collect();
            files.sort();
            for file in files {
                match host.load_file(&file) {
                    Ok(plugin) => log::info!(
                        "loaded game plugin {} {} from {}",
                        plugin.name(),
                        plugin.info().version,
                        file.display()
                    ),
                    Err(e) => errors.push(e),
                }
            }
        }
        ScanReport { host, errors }
    }

    /// Load one game plugin file and add it. A plugin whose game name is
    /// already loaded is refused, so the first directory on the path wins.
    pub fn load_file(&mut self, path: &Path) -> Result<Arc<GamePlugin>, LoadError> {
        let opened = library::open_game(path)?;
        if let Some(existing) = self.games.iter().find(|g| g.name() == opened.info.name) {
            return Err(LoadError::Malformed {
                path: path.to_path_buf(),
                what: format!(
                    "game '{}' is already loaded from {}",
                    existing.name(),
                    existing.info().path.display()
                ),
            });
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
}

/// Whether `path` is named like a game plugin for this platform.
pub fn is_game_plugin_file(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    name.strip_prefix(std::env::consts::DLL_PREFIX)
        .and_then(|rest| rest.strip_suffix(std::env::consts::DLL_SUFFIX))
        .is_some_and(|stem| {
            stem.starts_with(GAME_PLUGIN_PREFIX) && stem.len() > GAME_PLUGIN_PREFIX.len()
        })
        && path.is_file()
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
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.canonicalize().ok())
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
}
