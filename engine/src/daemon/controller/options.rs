//! The engine's options, declared once: [`ENGINE_OPTIONS`] lists each in
//! the order `uci` shows them, with what it sets. `uci` (and every
//! dialect's identification) declares them from this list, `setoption`
//! finds them in it; after them come the options each loaded game plugin
//! declares, passed to the plugins that list them.

use std::sync::Arc;

use plyd_protocol::{OptionDecl, OptionKind};

use super::{ControlError, Controller};
use crate::daemon::dialect::Dialect;
use crate::daemon::guard::watchdog::{call_limit, call_within, Blame};
use crate::host::GameOptionKindDesc;
use crate::options::{self, names, EngineSettings, SpinRange};
use crate::search::{ChancePruning, SearchMode, SearchParams, TranspositionTable};

/// One of the engine's own options.
struct EngineOption {
    name: &'static str,
    setting: Setting,
    /// Whether a Monte-Carlo tree kept between searches still holds after
    /// a change: true for the options that change neither the game, the
    /// evaluator nor the search.
    keeps_trees: bool,
}

/// What an option sets, and so how it is declared and read.
enum Setting {
    /// A yes/no setting.
    Check {
        get: fn(&EngineSettings) -> bool,
        set: fn(&mut EngineSettings, bool),
    },
    /// A number in a range.
    Spin {
        range: SpinRange,
        get: fn(&EngineSettings) -> u32,
        set: fn(&mut EngineSettings, u32),
    },
    /// `Threads`: a number, with a note when it is more than the cores.
    Threads,
    /// `Hash`: the table is resized.
    Hash,
    /// `Clear Hash`.
    ClearHash,
    /// `UCI_Variant`: one of the loaded games.
    Variant,
    /// `Evaluator`: one the current game offers.
    Evaluator,
    /// `EvalFile`: an evaluator plugin loaded from a file.
    EvalFile,
    /// `EvalParams`: the evaluator's parameter file.
    EvalParams,
    /// `PluginPath`: every plugin reloaded.
    PluginPath,
    /// `BookFile`: the opening book read.
    BookFile,
    /// `ChancePruning`.
    ChancePruning,
    /// `SearchMode`.
    SearchMode,
    /// `SearchParams`: the search's parameter file.
    SearchParams,
    /// A technique of the search ([`crate::search::Techniques`]), by its
    /// option name: on or off as set, else as the current game prefers.
    Technique(&'static str),
}

/// A yes/no option over a field of the settings; `keeps_trees` as in
/// [`EngineOption`] (false when left out).
macro_rules! check {
    ($name:expr, $($field:ident).+) => {
        check!($name, $($field).+; false)
    };
    ($name:expr, $($field:ident).+; $keeps:expr) => {
        EngineOption {
            name: $name,
            setting: Setting::Check {
                get: |s| s.$($field).+,
                set: |s, v| s.$($field).+ = v,
            },
            keeps_trees: $keeps,
        }
    };
}

/// A search technique's yes/no option (the alpha-beta search's alone: a
/// Monte-Carlo tree is kept).
macro_rules! technique {
    ($name:expr) => {
        EngineOption {
            name: $name,
            setting: Setting::Technique($name),
            keeps_trees: true,
        }
    };
}

/// A number option in `$range` over a field of the settings.
macro_rules! spin {
    ($name:expr, $range:expr, $field:ident, $keeps:expr) => {
        EngineOption {
            name: $name,
            setting: Setting::Spin {
                range: $range,
                get: |s| s.$field,
                set: |s, v| s.$field = v,
            },
            keeps_trees: $keeps,
        }
    };
}

/// An option with code of its own.
macro_rules! special {
    ($name:expr, $setting:ident, $keeps:expr) => {
        EngineOption {
            name: $name,
            setting: Setting::$setting,
            keeps_trees: $keeps,
        }
    };
}

/// The engine's options, in the order `uci` declares them.
const ENGINE_OPTIONS: [EngineOption; 48] = [
    special!(names::VARIANT, Variant, false),
    special!(names::EVALUATOR, Evaluator, false),
    special!(names::EVAL_FILE, EvalFile, false),
    special!(names::EVAL_PARAMS, EvalParams, false),
    special!(names::HASH, Hash, true),
    special!(names::THREADS, Threads, true),
    special!(names::CLEAR_HASH, ClearHash, false),
    spin!(
        names::MOVE_OVERHEAD,
        options::MOVE_OVERHEAD_RANGE,
        move_overhead_ms,
        true
    ),
    special!(names::PLUGIN_PATH, PluginPath, false),
    check!(names::PONDER, ponder; true),
    spin!(names::MULTIPV, options::MULTIPV_RANGE, multipv, true),
    check!(names::NULL_MOVE, null_move; true),
    check!(names::LMR, reductions; true),
    check!(names::FUTILITY, futility; true),
    special!(names::CHANCE_PRUNING, ChancePruning, true),
    check!(names::QUIESCENCE, quiescence; true),
    check!(names::CHECK_EXTENSIONS, check_extensions; true),
    check!(names::SELECTIVE, selective; true),
    check!(names::ENDGAME_SOLVER, endgame_solver; true),
    check!(names::SEE, see; true),
    technique!(names::CONT_HISTORY),
    technique!(names::CAPTURE_HISTORY),
    technique!(names::COUNTER_MOVES),
    technique!(names::HISTORY_LMR),
    technique!(names::SINGULAR),
    technique!(names::IIR),
    technique!(names::PROBCUT),
    technique!(names::NODE_PROBCUT),
    technique!(names::RAZORING),
    technique!(names::IMPROVING),
    technique!(names::LMP),
    technique!(names::FUTILITY_MOVES),
    technique!(names::DEEP_FUTILITY),
    technique!(names::SPARE_CHECKS),
    technique!(names::CORR_HISTORY),
    technique!(names::QS_EVASIONS),
    technique!(names::QS_FUTILITY),
    technique!(names::SHALLOW_SEARCH),
    special!(names::SEARCH_PARAMS, SearchParams, true),
    special!(names::SEARCH_MODE, SearchMode, false),
    EngineOption {
        name: names::VARIETY,
        setting: Setting::Spin {
            range: options::VARIETY_RANGE,
            get: |s| s.variety.unwrap_or(0),
            set: |s, v| s.variety = Some(v),
        },
        keeps_trees: true,
    },
    spin!(
        names::VARIETY_SEED,
        options::VARIETY_SEED_RANGE,
        variety_seed,
        true
    ),
    spin!(
        names::SKILL_LEVEL,
        options::SKILL_LEVEL_RANGE,
        skill_level,
        true
    ),
    spin!(
        names::MCTS_EXPLORATION,
        options::MCTS_EXPLORATION_RANGE,
        mcts_exploration,
        true
    ),
    spin!(
        names::MCTS_WIDENING,
        options::MCTS_WIDENING_RANGE,
        mcts_widening,
        true
    ),
    spin!(
        names::MCTS_TREE_NODES,
        options::MCTS_TREE_NODES_RANGE,
        mcts_tree_nodes,
        true
    ),
    check!(names::OWN_BOOK, own_book; true),
    special!(names::BOOK_FILE, BookFile, true),
];

/// Whether `name` (in any case) is one of the engine's own options.
pub(crate) fn is_engine_option(name: &str) -> bool {
    ENGINE_OPTIONS
        .iter()
        .any(|o| o.name.eq_ignore_ascii_case(name))
}

/// `option '<name>' takes a, b, c, not '<value>'`.
fn not_one_of(name: &str, choices: &[&str], value: &str) -> ControlError {
    ControlError::Option(format!(
        "option '{name}' takes {}, not '{}'",
        choices.join(", "),
        value.trim()
    ))
}

impl Controller {
    /// Every option, the engine's then the loaded games', as `uci` lists
    /// them.
    pub(crate) fn option_decls(&self) -> Vec<OptionDecl> {
        self.option_decls_of(|_| true)
    }

    /// The options of the game in play alone: the engine's, but for the
    /// variant's choice, and its own game's (UCCI's list: a xiangqi GUI
    /// shows every option in its settings, and another game's are no use
    /// to it). Another game's option can still be set.
    pub(crate) fn option_decls_in_play(&self) -> Vec<OptionDecl> {
        let in_play = self
            .session
            .current
            .as_ref()
            .map(|c| c.variant.plugin.clone());
        let mut decls = self.option_decls_of(|game| {
            in_play
                .as_ref()
                .is_some_and(|plugin| std::sync::Arc::ptr_eq(plugin, game))
        });
        decls.retain(|d| d.name != names::VARIANT);
        decls
    }

    /// [`option_decls`](Self::option_decls) with the options of the
    /// games `shown` lets through.
    fn option_decls_of(
        &self,
        shown: impl Fn(&std::sync::Arc<plyd_host::GamePlugin>) -> bool,
    ) -> Vec<OptionDecl> {
        let mut decls: Vec<OptionDecl> = ENGINE_OPTIONS
            .iter()
            .map(|option| OptionDecl {
                name: option.name.to_string(),
                kind: self.option_kind(&option.setting),
            })
            .collect();
        // Each loaded game's own settings, after the engine's; a name two
        // games share is shown once (a setoption reaches both).
        for game in self.session.host.games().iter().filter(|g| shown(g)) {
            for option in &game.info().options {
                if decls
                    .iter()
                    .any(|d| d.name.eq_ignore_ascii_case(&option.name))
                {
                    continue;
                }
                // The value in force as the default, as for the engine's
                // options.
                let set = game.option_value(&option.name);
                let kind = match &option.kind {
                    GameOptionKindDesc::Check { default } => OptionKind::Check {
                        default: set.as_deref().map_or(*default, |v| v == "true"),
                    },
                    GameOptionKindDesc::Spin { default, min, max } => OptionKind::Spin {
                        default: set
                            .as_deref()
                            .and_then(|v| v.parse().ok())
                            .unwrap_or(*default),
                        min: *min,
                        max: *max,
                    },
                    GameOptionKindDesc::Combo { default, choices } => OptionKind::Combo {
                        default: set.unwrap_or_else(|| default.clone()),
                        vars: choices.clone(),
                    },
                    GameOptionKindDesc::Text { default } => OptionKind::String {
                        default: set.unwrap_or_else(|| default.clone()),
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

    /// How an engine option is declared now: its kind, with the value in
    /// force as its default.
    fn option_kind(&self, setting: &Setting) -> OptionKind {
        let combo = |default: String, mut vars: Vec<String>| {
            if vars.is_empty() {
                vars.push(default.clone());
            }
            OptionKind::Combo { default, vars }
        };
        let spin = |range: SpinRange, value: u32| OptionKind::Spin {
            default: i64::from(value),
            min: range.min,
            max: range.max,
        };
        let current = self.session.current.as_ref();
        match setting {
            Setting::Check { get, .. } => OptionKind::Check {
                default: get(&self.settings),
            },
            Setting::Spin { range, get, .. } => spin(*range, get(&self.settings)),
            Setting::Threads => spin(options::THREADS_RANGE, self.settings.threads),
            Setting::Hash => spin(options::HASH_RANGE, self.settings.hash_mib),
            Setting::ClearHash => OptionKind::Button,
            Setting::Variant => combo(
                current.map_or("none".to_string(), |c| c.variant.name().to_string()),
                self.session.host.variant_names(),
            ),
            Setting::Evaluator => combo(
                current.map_or("none".to_string(), |c| c.evaluator.name().to_string()),
                self.session.evaluator_names(),
            ),
            Setting::EvalFile => OptionKind::String {
                default: self.eval_file_text.clone(),
            },
            Setting::EvalParams => OptionKind::String {
                default: current
                    .and_then(|c| c.eval_params.as_ref())
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
            },
            Setting::PluginPath => OptionKind::String {
                default: self.plugin_path_text.clone(),
            },
            Setting::BookFile => OptionKind::String {
                default: self.book_file_text.clone(),
            },
            Setting::SearchParams => OptionKind::String {
                default: self.settings.search_params_file.clone(),
            },
            Setting::ChancePruning => combo(
                self.settings.chance_pruning.name().to_string(),
                ChancePruning::NAMES.iter().map(|n| n.to_string()).collect(),
            ),
            Setting::SearchMode => combo(
                self.search_mode().name().to_string(),
                SearchMode::NAMES.iter().map(|n| n.to_string()).collect(),
            ),
            Setting::Technique(name) => OptionKind::Check {
                default: self.techniques_in_force().get(name).unwrap_or(false),
            },
        }
    }

    /// `setoption name <name> [value <value>]`: an engine option, else a
    /// game option of the loaded plugins. Notes on what was done (an
    /// evaluator loaded, more threads than cores) go to `voice`.
    pub(crate) fn set_option(
        &mut self,
        voice: &mut dyn Dialect,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), ControlError> {
        // A search told to stop is waited for, as `go` waits for it: a GUI
        // may send `stop` and go on at once.
        if self.job_in_the_way(voice).is_err() {
            return Err(ControlError::BusyFor(
                "options cannot change while a search is running; send stop first",
            ));
        }
        // `<empty>` is how `uci` spells an empty string default; a GUI that
        // sends the default back means the empty string, not a file of
        // that name.
        let value = value.map(|v| if v.trim() == "<empty>" { "" } else { v });
        if self.settings.is_fixed(name) {
            return Err(ControlError::Option(format!(
                "option '{name}' is fixed by the configuration (fixed_options): left as it is"
            )));
        }
        let Some(option) = ENGINE_OPTIONS
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
        else {
            // A kept tree was grown under the old settings.
            self.trees.lock().clear();
            return match self.set_game_option(name, value)? {
                true => Ok(()),
                false => Err(ControlError::Option(format!(
                    "unknown option '{name}'{}",
                    unknown_option_hint(name)
                ))),
            };
        };
        if !option.keeps_trees {
            self.trees.lock().clear();
        }
        let name = option.name;
        let need =
            || value.ok_or_else(|| ControlError::Option(format!("option '{name}' needs a value")));
        let invalid = |e: options::OptionValueError| ControlError::Option(e.to_string());
        let refused = ControlError::Option;
        match &option.setting {
            Setting::Check { set, .. } => {
                set(
                    &mut self.settings,
                    options::parse_bool(name, need()?).map_err(invalid)?,
                );
            }
            Setting::Spin { range, set, .. } => {
                let value = range.parse(name, need()?).map_err(invalid)?;
                set(&mut self.settings, value as u32);
            }
            Setting::Threads => {
                let threads = options::THREADS_RANGE
                    .parse(name, need()?)
                    .map_err(invalid)? as u32;
                let current = self.settings.threads;
                crate::memory::check_threads(
                    u64::from(threads),
                    self.tt.kept_histories() as u64,
                    crate::memory::available_mib(),
                )
                .map_err(|e| refused(format!("{e}; Threads stays at {current}")))?;
                self.settings.threads = threads;
                // The histories kept for threads no longer searching go
                // now, not at the next search: a `ucinewgame` before it
                // would zero them all.
                self.tt.keep_memory_of(threads as usize);
                let cores = crate::threads::hardware_threads().unwrap_or(1);
                if threads as usize > cores {
                    voice.note(
                        self,
                        &format!(
                            "Threads {threads} is more than the {cores} hardware threads here: \
                             the searches share them"
                        ),
                    );
                }
            }
            Setting::Hash => {
                let mib = options::HASH_RANGE.parse(name, need()?).map_err(invalid)? as u32;
                let current = self.settings.hash_mib;
                let unmapped = u64::from(self.settings.threads)
                    .saturating_sub(self.tt.kept_histories() as u64);
                crate::memory::check_hash(
                    u64::from(mib),
                    self.tt.size_mib() as u64,
                    unmapped,
                    crate::memory::available_mib(),
                )
                .map_err(|e| refused(format!("{e}; the table stays at {current} MiB")))?;
                self.table()?.resize(mib as usize).map_err(refused)?;
                self.settings.hash_mib = mib;
            }
            Setting::ClearHash => self.clear_hash()?,
            Setting::Variant => {
                let before = self
                    .session
                    .current()
                    .ok()
                    .map(|c| (c.evaluator.name().to_string(), c.eval_params.is_some()));
                self.session
                    .select_variant(need()?.trim())
                    .map_err(refused)?;
                self.announce_variant(voice)?;
                // Another game has other evaluators, and parameters are
                // one evaluator's: a GUI showing the old one is told.
                let current = self.session.current().map_err(ControlError::NoGame)?;
                let now = current.evaluator.name().to_string();
                let dropped = current.eval_params.is_none();
                if let Some((evaluator, had_params)) = before {
                    if evaluator != now || (had_params && dropped) {
                        voice.note(self, &evaluator_line(&now, had_params && dropped));
                    }
                }
            }
            Setting::Evaluator => {
                let had_params = self
                    .session
                    .current()
                    .is_ok_and(|c| c.eval_params.is_some());
                self.session
                    .select_evaluator(need()?.trim())
                    .map_err(refused)?;
                // The table's scores are the old evaluator's.
                self.clear_hash()?;
                let current = self.session.current().map_err(ControlError::NoGame)?;
                // Say which evaluator plays now, as a variant is announced;
                // parameters are one evaluator's: say where they were dropped.
                let dropped = had_params && current.eval_params.is_none();
                let text = evaluator_line(current.evaluator.name(), dropped);
                voice.note(self, &text);
            }
            Setting::EvalFile => {
                // An empty value loads nothing: GUIs send every string
                // option's value, empty ones included, when they start an
                // engine.
                let text = value.unwrap_or("").trim().to_string();
                if !text.is_empty() {
                    let had_params = self
                        .session
                        .current
                        .as_ref()
                        .and_then(|c| c.eval_params.clone());
                    let (loaded, replaced) = self
                        .session
                        .load_eval_file(&plyd_util::files::gui_path(&text))
                        .map_err(refused)?;
                    self.eval_file_text = text.clone();
                    self.clear_hash()?;
                    let replaced = replaced.map_or(String::new(), |other| {
                        format!(
                            ", in place of the evaluator of that name from {other} \
                             (no longer offered; two evaluators need two names)"
                        )
                    });
                    voice.note(
                        self,
                        &format!("evaluator {loaded} loaded from {text}{replaced}"),
                    );
                    // The parameter file went with the evaluator it was read
                    // for, the same one rebuilt included: say so.
                    if let Some(file) = had_params {
                        voice.note(
                            self,
                            &format!(
                                "evaluator {loaded} params default ({} is not read again: \
                                 send EvalParams for it)",
                                file.display()
                            ),
                        );
                    }
                }
            }
            Setting::EvalParams => {
                let text = value.unwrap_or("").trim().to_string();
                let path = (!text.is_empty()).then(|| plyd_util::files::gui_path(&text));
                self.session
                    .set_eval_params(path.as_deref())
                    .map_err(refused)?;
                self.clear_hash()?;
                let evaluator = self
                    .session
                    .current()
                    .map_err(ControlError::NoGame)?
                    .evaluator
                    .name()
                    .to_string();
                let shown = if text.is_empty() { "default" } else { &text };
                voice.note(self, &format!("evaluator {evaluator} params {shown}"));
            }
            Setting::BookFile => {
                // Empty: no book (GUIs send every string option's value,
                // empty ones included, when they start an engine).
                let text = value.unwrap_or("").trim().to_string();
                if text.is_empty() {
                    *self.book.write() = None;
                    self.book_file_text.clear();
                } else {
                    let (book, note) = super::open_book(
                        &plyd_util::files::gui_path(&text),
                        Some(&text),
                        &self.session.host,
                    )
                    .map_err(refused)?;
                    *self.book.write() = Some(book);
                    self.book_file_text = text;
                    voice.note(self, &note);
                }
            }
            Setting::SearchParams => {
                // Empty: the defaults (a GUI sends every string option).
                let text = value.unwrap_or("").trim().to_string();
                let params = if text.is_empty() {
                    SearchParams::default()
                } else {
                    SearchParams::load(&plyd_util::files::gui_path(&text)).map_err(refused)?
                };
                self.settings.search_params = params;
                self.settings.search_params_file = text.clone();
                let said = if text.is_empty() {
                    "search params default".to_string()
                } else {
                    format!("search params {text}: {}", params.summary())
                };
                voice.note(self, &said);
            }
            Setting::PluginPath => {
                let text = value.unwrap_or("").trim().to_string();
                let dirs = if text.is_empty() {
                    crate::host::default_plugin_dirs()
                } else {
                    options::split_plugin_path(&text)
                };
                if dirs.len() > options::MAX_PLUGIN_FOLDERS {
                    return Err(refused(format!(
                        "PluginPath names {} folders, more than the {} searched at most; the \
                         plugins loaded before stay",
                        dirs.len(),
                        options::MAX_PLUGIN_FOLDERS
                    )));
                }
                let problems = self.session.reload(&dirs).map_err(refused)?;
                for problem in problems {
                    voice.error(self, &problem);
                }
                self.plugin_path_text = text;
                self.announce_variant(voice)?;
            }
            Setting::ChancePruning => {
                let value = need()?;
                self.settings.chance_pruning = ChancePruning::parse(value)
                    .ok_or_else(|| not_one_of(name, &ChancePruning::NAMES, value))?;
            }
            Setting::SearchMode => {
                let value = need()?;
                self.settings.search_mode = Some(
                    SearchMode::parse(value)
                        .ok_or_else(|| not_one_of(name, &SearchMode::NAMES, value))?,
                );
            }
            Setting::Technique(technique) => {
                let on = options::parse_bool(name, need()?).map_err(invalid)?;
                self.settings.techniques.set(technique, on);
            }
        }
        Ok(())
    }

    /// The names in the configuration's `fixed_options` that are no
    /// option of the engine's or of a loaded game's (nor `files`): a typo
    /// there leaves an option open that was meant to be fixed.
    pub(crate) fn unknown_fixed_options(&self) -> Vec<String> {
        self.settings
            .fixed_options
            .iter()
            .filter(|name| {
                !name.eq_ignore_ascii_case(options::FIXED_FILES)
                    && !is_engine_option(name)
                    && !self.session.host.has_game_option(name)
            })
            .cloned()
            .collect()
    }

    /// Pass a setting to every loaded game that lists an option `name`,
    /// after checking `value` against its kind. `Ok(false)`: no game has it.
    fn set_game_option(&self, name: &str, value: Option<&str>) -> Result<bool, ControlError> {
        let mut found = false;
        for game in self.session.host.games() {
            let Some(option) = game.info().option(name) else {
                continue;
            };
            found = true;
            let given = value.unwrap_or("").trim();
            let invalid = |e: options::OptionValueError| ControlError::Option(e.to_string());
            let value = match &option.kind {
                GameOptionKindDesc::Check { .. } => options::parse_bool(&option.name, given)
                    .map_err(invalid)?
                    .to_string(),
                GameOptionKindDesc::Spin { default, min, max } => SpinRange {
                    default: *default,
                    min: *min,
                    max: *max,
                }
                .parse(&option.name, given)
                .map_err(invalid)?
                .to_string(),
                GameOptionKindDesc::Combo { choices, .. } => choices
                    .iter()
                    .find(|c| c.eq_ignore_ascii_case(given))
                    .cloned()
                    .ok_or_else(|| {
                        let choices: Vec<&str> = choices.iter().map(String::as_str).collect();
                        not_one_of(&option.name, &choices, given)
                    })?,
                GameOptionKindDesc::Text { .. } => given.to_string(),
            };
            let (plugin, name) = (Arc::clone(game), option.name.clone());
            let blame = [Blame::Game(Arc::clone(game))];
            call_within("setting a game option", call_limit(), &blame, move || {
                plugin.set_option(&name, &value)
            })
            .map_err(ControlError::Plugin)?
            .map_err(|e| ControlError::Option(format!("option '{}': {e}", option.name)))?;
        }
        Ok(found)
    }

    /// The table, for changes between searches (no search holds it then).
    pub(super) fn table(&mut self) -> Result<&mut TranspositionTable, ControlError> {
        if let Some(watcher) = &self.watcher {
            watcher.release_table();
        }
        Arc::get_mut(&mut self.tt).ok_or(ControlError::BusyFor(
            "the hash table is in use by a search; send stop first",
        ))
    }

    /// `Clear Hash` (and a new game): an empty table, and no kept trees.
    pub(crate) fn clear_hash(&mut self) -> Result<(), ControlError> {
        self.table()?.clear();
        self.trees.lock().clear();
        Ok(())
    }

    /// Say which variant is played now and its start position.
    fn announce_variant(&mut self, voice: &mut dyn Dialect) -> Result<(), ControlError> {
        let current = self.session.current().map_err(ControlError::NoGame)?;
        let text = format!(
            "variant {} startpos {}",
            current.variant.name(),
            current.variant.desc().start_position
        );
        voice.note(self, &text);
        Ok(())
    }

    /// Speak the game `game` unless the command line chose one: a
    /// dialect's community plays it. Problems go to the log.
    pub(crate) fn play_dialect_game(&mut self, game: &str) {
        if self.game_given
            || self
                .session
                .current
                .as_ref()
                .is_some_and(|c| c.variant.name() == game)
        {
            return;
        }
        if let Err(e) = self.session.select_variant(game) {
            log::warn!("the dialect plays {game}, which cannot be started: {e}");
        }
    }

    /// Start `game`, the only one the dialect plays, whatever game the
    /// daemon was given.
    pub(crate) fn play_only_game(&mut self, game: &str) {
        if let Some(given) = self
            .session
            .current
            .as_ref()
            .map(|c| c.variant.name().to_string())
            .filter(|name| self.game_given && name != game)
        {
            log::warn!("the dialect plays {game} only, not {given}");
        }
        self.game_given = false;
        self.play_dialect_game(game);
    }
}

/// The note naming the evaluator now in use, saying where its parameters
/// were `dropped` (`evaluator classic params default`).
fn evaluator_line(name: &str, dropped: bool) -> String {
    format!(
        "evaluator {name}{}",
        if dropped { " params default" } else { "" }
    )
}

/// What follows an unknown option's error where plyd has another way to
/// the same end: a strength setting of another kind (UCI's `UCI_Elo`)
/// names plyd's own, `Skill Level`.
fn unknown_option_hint(name: &str) -> &'static str {
    let name = name.to_ascii_lowercase();
    if ["uci_elo", "uci_limitstrength", "level", "strength", "skill"].contains(&name.as_str()) {
        " (plyd's strength setting is Skill Level, 0 to 20, 20 the full strength: \
         setoption name Skill Level value 5)"
    } else {
        ""
    }
}
