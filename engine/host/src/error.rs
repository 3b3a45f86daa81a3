//! Errors of the plugin host, each fit to be shown to a user as one line.

use std::path::PathBuf;

/// Why a plugin library could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The dynamic loader refused the file.
    #[error("plugin {path}: cannot be loaded: {reason}")]
    Open {
        /// The library file.
        path: PathBuf,
        /// The loader's message.
        reason: String,
    },
    /// The library lacks the entry point.
    #[error(
        "plugin {path}: missing symbol '{symbol}' ({})",
        if *mangled {
            "the library holds it under a C++ name, mangled: define it at file scope with \
             plyd_plugin.h included, or extern \"C\", outside any namespace"
        } else if *symbol == plyd_api::abi::GAME_ENTRY_SYMBOL {
            "not a plyd game plugin? In Rust, plyd_api::export_game!(T) exports it"
        } else {
            "not a plyd evaluator plugin? In Rust, plyd_api::export_evaluator!(T) exports it"
        }
    )]
    MissingSymbol {
        /// The library file.
        path: PathBuf,
        /// The symbol that was looked for.
        symbol: &'static str,
        /// Whether the file holds the symbol's name as C++ mangles it
        /// (`_ZN4mine18plyd_evaluator_apiEv`).
        mangled: bool,
    },
    /// The entry point returned null (it failed or panicked).
    #[error("plugin {path}: entry point '{symbol}' returned no table")]
    NullTable {
        /// The library file.
        path: PathBuf,
        /// The entry point.
        symbol: &'static str,
    },
    /// The table's ABI version is outside the range this host accepts.
    #[error(
        "plugin {path}: ABI version {found}, but this plyd supports ABI version {}",
        supported_range(*.min, *.max)
    )]
    AbiVersion {
        /// The library file.
        path: PathBuf,
        /// The version the plugin declares.
        found: u32,
        /// Oldest version the host accepts.
        min: u32,
        /// Newest version the host accepts.
        max: u32,
    },
    /// A required table entry is null or beyond the declared table size.
    #[error("plugin {path}: missing required entry '{entry}'")]
    MissingEntry {
        /// The library file.
        path: PathBuf,
        /// The table entry.
        entry: &'static str,
    },
    /// An evaluator plugin file given where a game plugin was expected, or
    /// the other way round.
    #[error("plugin {path}: {what}")]
    WrongKind {
        /// The library file.
        path: PathBuf,
        /// What the file is, and what was expected.
        what: String,
    },
    /// An evaluator plugin reads a game or state layout that is not loaded.
    #[error(
        "evaluator plugin {path}: evaluator '{evaluator}' reads {game} state layout {layout}, but {loaded}"
    )]
    Mismatch {
        /// The library file.
        path: PathBuf,
        /// The evaluator's name.
        evaluator: String,
        /// The game it declares.
        game: String,
        /// The state layout it declares.
        layout: u32,
        /// What is loaded instead.
        loaded: String,
    },
    /// An evaluator of the same name is already loaded for the game.
    #[error(
        "evaluator plugin {path}: {game} already has an evaluator named '{evaluator}' ({existing})"
    )]
    DuplicateEvaluator {
        /// The library file.
        path: PathBuf,
        /// The game.
        game: String,
        /// The evaluator's name.
        evaluator: String,
        /// Where the one already loaded comes from.
        existing: String,
    },
    /// A game plugin whose game is already loaded from another file.
    #[error("plugin {path}: game '{game}' is already loaded from {}", existing.display())]
    GameLoaded {
        /// The library file.
        path: PathBuf,
        /// The game.
        game: String,
        /// The file it is loaded from.
        existing: PathBuf,
    },
    /// A descriptive field is malformed (bad string, no variants, ...).
    #[error("plugin {path}: {what}")]
    Malformed {
        /// The library file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

fn supported_range(min: u32, max: u32) -> String {
    if min == max {
        min.to_string()
    } else {
        format!("{min} to {max}")
    }
}

/// A failure while calling into a loaded plugin.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PluginError {
    /// The plugin panicked; it has been disabled.
    #[error("plugin {plugin} panicked in {entry}; the plugin is disabled until it is reloaded")]
    Panicked {
        /// Game name.
        plugin: String,
        /// The entry point.
        entry: &'static str,
    },
    /// The plugin was disabled by an earlier failure.
    #[error("plugin {plugin} is disabled after an earlier failure; {remedy}")]
    Disabled {
        /// Game name, or `evaluator '<name>'`.
        plugin: String,
        /// What the user can do about it.
        remedy: &'static str,
    },
    /// The plugin answered something impossible (a negative length, a
    /// runaway move count, text that is not UTF-8); it has been disabled.
    #[error("plugin {plugin} returned garbage from {entry}: {what}; the plugin is disabled")]
    Garbage {
        /// Game name.
        plugin: String,
        /// The entry point.
        entry: &'static str,
        /// What was wrong.
        what: String,
    },
    /// The plugin rejected an input (position text, move text).
    #[error("{0}")]
    Invalid(String),
    /// An evaluator refused its parameters.
    #[error("evaluator {evaluator}: {reason}")]
    Params {
        /// The evaluator's name.
        evaluator: String,
        /// Its one-line reason (naming the key where it can).
        reason: String,
    },
    /// The plugin does not offer this entry point.
    #[error("plugin {plugin} does not support {entry}")]
    Unsupported {
        /// Game name.
        plugin: String,
        /// The entry point.
        entry: &'static str,
    },
}
