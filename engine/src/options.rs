//! The engine's settings: defaults, limits, the configuration file, and the
//! `option` lines announced to the GUI.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::search::{ChancePruning, SearchMode, SearchParams, Techniques};

/// Option names as announced in `uci` output.
pub mod names {
    /// Which game variant to play.
    pub const VARIANT: &str = "UCI_Variant";
    /// Which evaluator to use.
    pub const EVALUATOR: &str = "Evaluator";
    /// Load an evaluator plugin from a file and use it.
    pub const EVAL_FILE: &str = "EvalFile";
    /// The evaluator's parameter file (TOML).
    pub const EVAL_PARAMS: &str = "EvalParams";
    /// Transposition table size in MiB.
    pub const HASH: &str = "Hash";
    /// Search threads.
    pub const THREADS: &str = "Threads";
    /// Empty the transposition table.
    pub const CLEAR_HASH: &str = "Clear Hash";
    /// Time kept back per move for transmission delays.
    pub const MOVE_OVERHEAD: &str = "Move Overhead";
    /// Where game plugins are looked for.
    pub const PLUGIN_PATH: &str = "PluginPath";
    /// Whether the GUI may send `go ponder`.
    pub const PONDER: &str = "Ponder";
    /// How many best lines to report.
    pub const MULTIPV: &str = "MultiPV";
    /// Null-move pruning, where the game declares it sound.
    pub const NULL_MOVE: &str = "NullMove";
    /// Late-move reductions, where the game declares them sound.
    pub const LMR: &str = "LMR";
    /// Futility pruning, where the game declares it sound.
    pub const FUTILITY: &str = "Futility";
    /// Pruning at chance nodes: `Off`, `Star1` or `Star2`.
    pub const CHANCE_PRUNING: &str = "ChancePruning";
    /// Quiescence search over noisy moves, where the game lists them.
    pub const QUIESCENCE: &str = "Quiescence";
    /// Check extensions and evasions, where the game reports checks.
    pub const CHECK_EXTENSIONS: &str = "CheckExtensions";
    /// Skipping the moves a selective game advises against, below the root.
    pub const SELECTIVE: &str = "Selective";
    /// Handing the search to the game's exact endgame solver, where it has one.
    pub const ENDGAME_SOLVER: &str = "EndgameSolver";
    /// Which search runs: `pvs` or `mcts`.
    pub const SEARCH_MODE: &str = "SearchMode";
    /// Static exchange evaluation in the search, where the game answers it.
    pub const SEE: &str = "SEE";
    /// Continuation history and Stockfish's history bonus.
    pub const CONT_HISTORY: &str = "ContHistory";
    /// Capture history.
    pub const CAPTURE_HISTORY: &str = "CaptureHistory";
    /// Countermoves.
    pub const COUNTER_MOVES: &str = "CounterMoves";
    /// Reductions adjusted by history.
    pub const HISTORY_LMR: &str = "HistoryLMR";
    /// Singular extensions.
    pub const SINGULAR: &str = "Singular";
    /// Internal iterative reductions.
    pub const IIR: &str = "IIR";
    /// ProbCut.
    pub const PROBCUT: &str = "ProbCut";
    /// ProbCut of the whole node by a shallower search of it.
    pub const NODE_PROBCUT: &str = "NodeProbCut";
    /// Razoring.
    pub const RAZORING: &str = "Razoring";
    /// The improving flag.
    pub const IMPROVING: &str = "Improving";
    /// Late-move pruning.
    pub const LMP: &str = "LMP";
    /// Futility pruning of quiet moves.
    pub const FUTILITY_MOVES: &str = "FutilityMoves";
    /// Reverse futility deeper, with a smaller margin.
    pub const DEEP_FUTILITY: &str = "DeepFutility";
    /// Quiet checks spared from late-move and futility pruning.
    pub const SPARE_CHECKS: &str = "SpareChecks";
    /// Correction history.
    pub const CORR_HISTORY: &str = "CorrHistory";
    /// The last plies searched inside the evaluator's plugin, where it
    /// offers `shallow_search`.
    pub const SHALLOW_SEARCH: &str = "ShallowSearch";
    /// Evasions in quiescence.
    pub const QS_EVASIONS: &str = "QsEvasions";
    /// Futility in quiescence.
    pub const QS_FUTILITY: &str = "QsFutility";
    /// The margin of the seeded choice among root moves.
    pub const VARIETY: &str = "Variety";
    /// The seed of that choice.
    pub const VARIETY_SEED: &str = "VarietySeed";
    /// Weaker play, 0 to 20 (20: full strength), as Stockfish names it.
    pub const SKILL_LEVEL: &str = "Skill Level";
    /// The Monte-Carlo search's exploration constant, in thousandths.
    pub const MCTS_EXPLORATION: &str = "MctsExploration";
    /// The Monte-Carlo search's widening factor, in thousandths.
    pub const MCTS_WIDENING: &str = "MctsWidening";
    /// The most nodes of a Monte-Carlo tree, per thread.
    pub const MCTS_TREE_NODES: &str = "MctsTreeNodes";
    /// Whether the root plays from the opening book.
    pub const OWN_BOOK: &str = "OwnBook";
    /// The opening book file.
    pub const BOOK_FILE: &str = "BookFile";
    /// The search's parameter file (margins, reductions).
    pub const SEARCH_PARAMS: &str = "SearchParams";
}

/// A numeric option's range and default.
#[derive(Debug, Clone, Copy)]
pub struct SpinRange {
    /// Default.
    pub default: i64,
    /// Lowest value.
    pub min: i64,
    /// Highest value.
    pub max: i64,
}

/// `Hash`, in MiB.
pub const HASH_RANGE: SpinRange = SpinRange {
    default: 16,
    min: 1,
    max: 65536,
};
/// `Threads`.
pub const THREADS_RANGE: SpinRange = SpinRange {
    default: 1,
    min: 1,
    max: 256,
};
/// `MultiPV`.
pub const MULTIPV_RANGE: SpinRange = SpinRange {
    default: 1,
    min: 1,
    max: 256,
};
/// `Move Overhead`, in milliseconds.
pub const MOVE_OVERHEAD_RANGE: SpinRange = SpinRange {
    default: 10,
    min: 0,
    max: 5000,
};

/// `Variety`, in the units of `info score cp`.
pub const VARIETY_RANGE: SpinRange = SpinRange {
    default: 0,
    min: 0,
    max: 10_000,
};
/// The configuration's `call_limit`, in milliseconds: how long a plugin
/// call made for the controller may take before its plugin is declared
/// stuck.
pub const CALL_LIMIT_RANGE: SpinRange = SpinRange {
    default: 5_000,
    min: 500,
    max: 600_000,
};
/// The configuration's `botzone_turn_limit`, in milliseconds: Botzone's
/// limit for a turn where the input names none (simple input).
pub const BOTZONE_TURN_LIMIT_RANGE: SpinRange = SpinRange {
    default: 1_000,
    min: 50,
    max: 60_000,
};
/// `Skill Level`: 20 is full strength.
pub const SKILL_LEVEL_RANGE: SpinRange = SpinRange {
    default: crate::search::FULL_SKILL as i64,
    min: 0,
    max: crate::search::FULL_SKILL as i64,
};
/// `VarietySeed` (0: a fresh seed every search).
pub const VARIETY_SEED_RANGE: SpinRange = SpinRange {
    default: 0,
    min: 0,
    max: 1 << 30,
};

/// `MctsExploration`, in thousandths of the constant `c` of the
/// Monte-Carlo search's `mean + c × sqrt(ln N_parent / N)`.
pub const MCTS_EXPLORATION_RANGE: SpinRange = SpinRange {
    default: crate::search::mcts::DEFAULT_EXPLORATION_PERMILLE as i64,
    min: 0,
    max: 10_000,
};
/// `MctsWidening`, in thousandths of `k` in a node's width
/// `1 + floor(k × sqrt(N))`.
pub const MCTS_WIDENING_RANGE: SpinRange = SpinRange {
    default: crate::search::mcts::DEFAULT_WIDENING_PERMILLE as i64,
    min: 1,
    max: 100_000,
};
/// `MctsTreeNodes`: the most nodes of one thread's tree.
pub const MCTS_TREE_NODES_RANGE: SpinRange = SpinRange {
    default: crate::search::mcts::MAX_TREE_NODES as i64,
    min: 1_000,
    max: 100_000_000,
};

/// Why an option value (from `setoption` or the config file) was refused.
/// The message names the option, as the protocol's `info string error`
/// shows it; [`OptionValueError::reason`] is the same without the name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionValueError {
    /// A `spin` value that is not an integer.
    #[error("option '{name}': '{text}' is not an integer between {min} and {max}")]
    NotAnInteger {
        /// The option.
        name: String,
        /// The value as given.
        text: String,
        /// Lowest allowed value.
        min: i64,
        /// Highest allowed value.
        max: i64,
    },
    /// A `spin` value outside the option's range.
    #[error("option '{name}': {value} is outside {min}..={max}")]
    OutOfRange {
        /// The option.
        name: String,
        /// The value given.
        value: i64,
        /// Lowest allowed value.
        min: i64,
        /// Highest allowed value.
        max: i64,
    },
    /// A `check` value that is not `true` or `false`.
    #[error("option '{name}': '{text}' is not 'true' or 'false'")]
    NotABool {
        /// The option.
        name: String,
        /// The value as given.
        text: String,
    },
}

impl OptionValueError {
    /// What is wrong with the value, without the option's name (for
    /// messages that name the setting their own way, like the config file's
    /// `config key 'threads': ...`).
    pub fn reason(&self) -> String {
        match self {
            OptionValueError::NotAnInteger { text, min, max, .. } => {
                format!("'{text}' is not an integer between {min} and {max}")
            }
            OptionValueError::OutOfRange {
                value, min, max, ..
            } => format!("{value} is outside {min}..={max}"),
            OptionValueError::NotABool { text, .. } => {
                format!("'{text}' is not 'true' or 'false'")
            }
        }
    }
}

impl SpinRange {
    /// Parse and range-check `text` for the option `name`.
    pub fn parse(&self, name: &str, text: &str) -> Result<i64, OptionValueError> {
        let value: i64 = text
            .trim()
            .parse()
            .map_err(|_| OptionValueError::NotAnInteger {
                name: name.to_string(),
                text: text.to_string(),
                min: self.min,
                max: self.max,
            })?;
        self.check(name, value)
    }

    /// Range-check `value` for the option `name`.
    pub fn check(&self, name: &str, value: i64) -> Result<i64, OptionValueError> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            Err(OptionValueError::OutOfRange {
                name: name.to_string(),
                value,
                min: self.min,
                max: self.max,
            })
        }
    }
}

/// Settings that do not depend on the loaded plugins.
#[derive(Debug, Clone)]
pub struct EngineSettings {
    /// Transposition table size in MiB.
    pub hash_mib: u32,
    /// Search threads.
    pub threads: u32,
    /// Milliseconds kept back per move.
    pub move_overhead_ms: u32,
    /// Whether pondering is enabled.
    pub ponder: bool,
    /// Best lines to report.
    pub multipv: u32,
    /// Null-move pruning allowed.
    pub null_move: bool,
    /// Late-move reductions allowed.
    pub reductions: bool,
    /// Futility pruning allowed.
    pub futility: bool,
    /// Pruning at chance nodes.
    pub chance_pruning: ChancePruning,
    /// Quiescence search allowed.
    pub quiescence: bool,
    /// Check extensions allowed.
    pub check_extensions: bool,
    /// Selective search allowed.
    pub selective: bool,
    /// The game's exact endgame solver allowed.
    pub endgame_solver: bool,
    /// Static exchange evaluation allowed.
    pub see: bool,
    /// The techniques taken from Stockfish allowed.
    pub techniques: Techniques,
    /// The search chosen with `SearchMode`; `None`: the one the current
    /// game's plugin recommends.
    pub search_mode: Option<SearchMode>,
    /// `Variety`: root moves within this many points (`score cp`) of the
    /// best may be played, by a seeded draw; `None`: not set, which is 0
    /// except where the dialect chooses otherwise (Botzone).
    pub variety: Option<u32>,
    /// `VarietySeed`: the draw's seed; 0 draws a fresh one every search.
    pub variety_seed: u32,
    /// `Skill Level`: below 20, shallower searches and moves chosen
    /// among those near the best ([`crate::search::FULL_SKILL`]).
    pub skill_level: u32,
    /// `MctsExploration`, in thousandths.
    pub mcts_exploration: u32,
    /// `MctsWidening`, in thousandths.
    pub mcts_widening: u32,
    /// `MctsTreeNodes`.
    pub mcts_tree_nodes: u32,
    /// The search's numbers, from `SearchParams`' file.
    pub search_params: SearchParams,
    /// `SearchParams`' value as given (empty: the defaults).
    pub search_params_file: String,
    /// `OwnBook`: play the book's move where the `BookFile` has the
    /// position.
    pub own_book: bool,
    /// How long a plugin call made for the controller may take, in ms
    /// (the configuration's `call_limit`).
    pub call_limit_ms: u32,
    /// Botzone's limit for a turn where the input names none, in ms (the
    /// configuration's `botzone_turn_limit`).
    pub botzone_turn_limit_ms: u32,
    /// The options the protocol may not change (the configuration's
    /// `fixed_options`, `files` read as [`FILE_OPTIONS`]), once the start's
    /// own options are set ([`EngineSettings::fixed_in_force`]).
    pub fixed_options: Vec<String>,
    /// Whether [`EngineSettings::fixed_options`] hold: from the end of the
    /// start on.
    pub fixed_in_force: bool,
}

/// The word of `fixed_options` that fixes every option of
/// [`FILE_OPTIONS`].
pub const FIXED_FILES: &str = "files";

/// The options that name a file or folder plyd reads, loads code from or
/// writes: `files` in `fixed_options` fixes them all.
pub const FILE_OPTIONS: [&str; 5] = [
    names::PLUGIN_PATH,
    names::EVAL_FILE,
    names::EVAL_PARAMS,
    names::SEARCH_PARAMS,
    names::BOOK_FILE,
];

impl EngineSettings {
    /// Whether the protocol may not change the option `name` (any case).
    pub fn is_fixed(&self, name: &str) -> bool {
        self.fixed_in_force
            && self.fixed_options.iter().any(|fixed| {
                fixed.eq_ignore_ascii_case(name)
                    || (fixed.eq_ignore_ascii_case(FIXED_FILES)
                        && FILE_OPTIONS.iter().any(|f| f.eq_ignore_ascii_case(name)))
            })
    }
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            hash_mib: HASH_RANGE.default as u32,
            threads: THREADS_RANGE.default as u32,
            move_overhead_ms: MOVE_OVERHEAD_RANGE.default as u32,
            ponder: false,
            multipv: MULTIPV_RANGE.default as u32,
            null_move: true,
            reductions: true,
            futility: true,
            chance_pruning: ChancePruning::default(),
            quiescence: true,
            check_extensions: true,
            selective: false,
            endgame_solver: true,
            see: true,
            techniques: Techniques::default(),
            search_mode: None,
            variety: None,
            variety_seed: VARIETY_SEED_RANGE.default as u32,
            skill_level: SKILL_LEVEL_RANGE.default as u32,
            mcts_exploration: MCTS_EXPLORATION_RANGE.default as u32,
            mcts_widening: MCTS_WIDENING_RANGE.default as u32,
            mcts_tree_nodes: MCTS_TREE_NODES_RANGE.default as u32,
            search_params: SearchParams::default(),
            search_params_file: String::new(),
            own_book: false,
            call_limit_ms: CALL_LIMIT_RANGE.default as u32,
            botzone_turn_limit_ms: BOTZONE_TURN_LIMIT_RANGE.default as u32,
            fixed_options: Vec::new(),
            fixed_in_force: false,
        }
    }
}

/// Where an option set at the start goes among the others: the plugin
/// folders first, then the game, then what chooses the evaluator, then its
/// parameters, as a GUI would send them; the rest after them (a stable
/// sort keeps their order).
pub fn start_rank(name: &str) -> u8 {
    match name.to_ascii_lowercase().as_str() {
        "pluginpath" => 0,
        "uci_variant" => 1,
        "evalfile" => 2,
        "evaluator" => 3,
        "evalparams" => 4,
        _ => 5,
    }
}

/// The bare key a line of TOML sets (`Hash = 32`: `Hash`), if any.
fn key_of_line(line: &str) -> Option<&str> {
    line.trim_start()
        .split_once('=')
        .map(|(key, _)| key.trim_end())
}

/// The configuration file (`plyd --config plyd.toml`). Every key is optional.
///
/// ```toml
/// plugin_path = "/opt/plyd/plugins"   # one folder, or several joined like PATH
/// game = "othello"                    # default variant
/// evaluator = "seed004"
/// eval_params = "my-seed004.toml"     # the evaluator's parameters
/// hash = 64                           # MiB
/// threads = 2
/// move_overhead = 30                  # ms
/// variety = 10                        # score points; see `Variety`
/// book = "othello.book"               # `BookFile`, relative to this file
/// own_book = true                     # `OwnBook`
/// call_limit = 5000                   # ms before a plugin call is stuck
/// botzone_turn_limit = 1000           # ms, Botzone's turn without time_limit
/// fixed_options = ["files", "Threads"] # options the protocol may not change
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ConfigFile {
    /// Plugin directories.
    pub plugin_path: Option<String>,
    /// Default game variant.
    pub game: Option<String>,
    /// Default evaluator.
    pub evaluator: Option<String>,
    /// Parameter file (TOML) of the starting evaluator.
    pub eval_params: Option<PathBuf>,
    /// `Hash` in MiB.
    pub hash: Option<i64>,
    /// `Threads`.
    pub threads: Option<i64>,
    /// `Move Overhead` in ms.
    pub move_overhead: Option<i64>,
    /// `Variety` in score points.
    pub variety: Option<i64>,
    /// `BookFile`.
    pub book: Option<PathBuf>,
    /// `OwnBook`.
    pub own_book: Option<bool>,
    /// How long a plugin call made for the controller may take, in ms.
    pub call_limit: Option<i64>,
    /// Botzone's limit for a turn where the input names none, in ms.
    pub botzone_turn_limit: Option<i64>,
    /// Options the protocol may not change (`files`: every option naming
    /// a file or folder).
    pub fixed_options: Option<Vec<String>>,
    /// Any option, engine's or game's, by its name, set as `setoption`
    /// sets it once the daemon has started (`[options]`, `MoveRanks =
    /// "1-10"`).
    pub options: Option<toml::Table>,
    /// The file read and its text, where it came from a file: a bad
    /// value's message names both the file and the key's line.
    #[serde(skip)]
    origin: Option<(PathBuf, String)>,
    /// Keys plyd does not know (a typo, a key of another program): each
    /// a problem of its own, the others applied all the same.
    #[serde(flatten)]
    unknown: std::collections::BTreeMap<String, toml::Value>,
}

/// The keys of the config file, as an unknown key's message lists them.
const CONFIG_KEYS: &str = "plugin_path, game, evaluator, eval_params, hash, threads, \
    move_overhead, variety, book, own_book, call_limit, botzone_turn_limit, fixed_options, \
    [options]";

/// A configuration text that does not parse: the parser's message and,
/// where it knows it, the line. Shown as `line 2 (hash = "big"): ...`, so
/// the offending key is in view.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", self.line_prefix())]
pub struct ConfigSyntaxError {
    /// The line number (from 1) and the line's text, trimmed.
    pub line: Option<(usize, String)>,
    /// What the parser says is wrong.
    pub message: String,
}

impl ConfigSyntaxError {
    fn line_prefix(&self) -> String {
        match &self.line {
            Some((number, text)) => format!("line {number} ({text}): "),
            None => String::new(),
        }
    }
}

/// Why a configuration file could not be used. Either way the message is
/// one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read (missing, unreadable, not UTF-8).
    #[error("config {}: cannot be read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file was read but is not a valid configuration.
    #[error("config {}: {source}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// Where and what.
        source: ConfigSyntaxError,
    },
}

impl ConfigFile {
    /// Read and parse a configuration file.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text =
            plyd_util::files::read_text(path, crate::PARAMS_FILE_LIMIT).map_err(|source| {
                ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                }
            })?;
        let mut file = Self::parse(&text).map_err(|source| ConfigError::Syntax {
            path: path.to_path_buf(),
            source,
        })?;
        file.origin = Some((path.to_path_buf(), text));
        Ok(file)
    }

    /// Where a bad value's message says it is: `config key 'k'`, or with
    /// the file and the key's line when the text came from a file
    /// (`config /etc/plyd.toml line 3: key 'k'`).
    pub fn place_of(&self, key: &str) -> String {
        let line = self
            .origin
            .as_ref()
            .and_then(|(_, text)| text.lines().position(|line| key_of_line(line) == Some(key)));
        self.place_at(key, line)
    }

    /// `place_of` for `key` found at the line of index `line`.
    fn place_at(&self, key: &str, line: Option<usize>) -> String {
        let Some((path, _)) = &self.origin else {
            return format!("config key '{key}'");
        };
        match line {
            Some(index) => format!("config {} line {}: key '{key}'", path.display(), index + 1),
            None => format!("config {}: key '{key}'", path.display()),
        }
    }

    /// The `[options]` table as option names and values, in the order of
    /// the names, and one message per value that is not a string, a number or
    /// a boolean (left out).
    pub fn option_values(&self) -> (Vec<(String, String, String)>, Vec<String>) {
        let mut values = Vec::new();
        let mut problems = Vec::new();
        // Each key's first line, found once: looked for key by key, a file
        // of 20,000 unknown options took 9 s to start.
        let mut lines = std::collections::HashMap::new();
        if let Some((_, text)) = &self.origin {
            for (index, line) in text.lines().enumerate() {
                if let Some(key) = key_of_line(line) {
                    lines.entry(key).or_insert(index);
                }
            }
        }
        for (name, value) in self.options.iter().flatten() {
            let text = match value {
                toml::Value::String(text) => text.clone(),
                toml::Value::Integer(n) => n.to_string(),
                // As written (`32.0`, not `32`), so that a whole-number
                // option refuses it as `setoption` would.
                toml::Value::Float(x) => format!("{x:?}"),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    problems.push(format!(
                        "{}: option '{name}': its value is a TOML {}, where a string, a \
                         number or true/false is wanted; left out",
                        self.place_of("options"),
                        other.type_str()
                    ));
                    continue;
                }
            };
            let place = self.place_at(name, lines.get(name.as_str()).copied());
            values.push((name.clone(), text, place));
        }
        // A TOML table keeps no order: the rest by name.
        values.sort_by_key(|(name, _, _)| start_rank(name));
        (values, problems)
    }

    /// Parse configuration text.
    pub fn parse(text: &str) -> Result<Self, ConfigSyntaxError> {
        toml::from_str(text).map_err(|e: toml::de::Error| {
            let line = e.span().map(|span| {
                let number = text[..span.start.min(text.len())].matches('\n').count() + 1;
                let line = text.lines().nth(number - 1).unwrap_or("").trim();
                (number, line.to_string())
            });
            ConfigSyntaxError {
                line,
                message: plain_message(e.message()),
            }
        })
    }

    /// Apply the numeric settings over `settings`, returning one message per
    /// bad value (a bad value leaves that setting as it was).
    pub fn apply(&self, settings: &mut EngineSettings) -> Vec<String> {
        let mut errors = Vec::new();
        let mut set = |value: Option<i64>, key: &str, range: SpinRange, slot: &mut u32| {
            if let Some(v) = value {
                match range.check(key, v) {
                    Ok(v) => *slot = v as u32,
                    Err(e) => errors.push(format!("{}: {}", self.place_of(key), e.reason())),
                }
            }
        };
        set(self.hash, "hash", HASH_RANGE, &mut settings.hash_mib);
        set(
            self.threads,
            "threads",
            THREADS_RANGE,
            &mut settings.threads,
        );
        set(
            self.move_overhead,
            "move_overhead",
            MOVE_OVERHEAD_RANGE,
            &mut settings.move_overhead_ms,
        );
        set(
            self.call_limit,
            "call_limit",
            CALL_LIMIT_RANGE,
            &mut settings.call_limit_ms,
        );
        set(
            self.botzone_turn_limit,
            "botzone_turn_limit",
            BOTZONE_TURN_LIMIT_RANGE,
            &mut settings.botzone_turn_limit_ms,
        );
        if let Some(own_book) = self.own_book {
            settings.own_book = own_book;
        }
        if let Some(fixed) = &self.fixed_options {
            settings.fixed_options = fixed.iter().map(|n| n.trim().to_string()).collect();
        }
        if let Some(v) = self.variety {
            match VARIETY_RANGE.check("variety", v) {
                Ok(v) => settings.variety = Some(v as u32),
                Err(e) => errors.push(format!("{}: {}", self.place_of("variety"), e.reason())),
            }
        }
        for key in self.unknown.keys() {
            errors.push(format!(
                "{}: unknown key, left out (the keys: {CONFIG_KEYS}; the log's level is RUST_LOG's)",
                self.place_of(key)
            ));
        }
        errors
    }
}

/// Split a plugin path (one folder, or several joined like `PATH`), each
/// folder once, where it first comes.
pub fn split_plugin_path(text: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for dir in std::env::split_paths(text)
        .filter(|p| !p.as_os_str().is_empty())
        .map(|p| match p.to_str() {
            // A folder a Chinese GUI named in GBK (see `gui_path`).
            Some(folder) => plyd_util::files::gui_path(folder),
            None => p,
        })
    {
        if seen.insert(dir.clone()) {
            dirs.push(dir);
        }
    }
    dirs
}

/// The most folders a `PluginPath` option names: each is read at a
/// reload, on the thread that answers the GUI (100,000 folders in one
/// line kept `isready` and `quit` waiting 70 s).
pub const MAX_PLUGIN_FOLDERS: usize = 64;

/// Parse a `check` option value.
pub fn parse_bool(name: &str, text: &str) -> Result<bool, OptionValueError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionValueError::NotABool {
            name: name.to_string(),
            text: text.to_string(),
        }),
    }
}

/// The TOML reader's message as one line in a person's words: its lines
/// joined (`invalid string; expected ...`), Rust's names of number types
/// read as what they are.
fn plain_message(message: &str) -> String {
    let joined = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    let mut text = joined;
    for (rust, plain) in [
        ("expected i64", "expected an integer"),
        ("expected u64", "expected a whole number"),
        ("expected u32", "expected a whole number"),
        ("expected a boolean", "expected true or false"),
        ("expected bool", "expected true or false"),
        ("expected f64", "expected a number"),
    ] {
        text = text.replace(rust, plain);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_options_set_the_game_before_its_evaluator_and_the_rest_by_name() {
        let file = ConfigFile::parse(
            "[options]\nMultiPV = 2\nEvaluator = \"seed000\"\nEvalParams = \"p.toml\"\n\
             UCI_Variant = \"amazons\"\nPluginPath = \"/p\"\nEvalFile = \"e.so\"\n",
        )
        .unwrap();
        let (values, problems) = file.option_values();
        assert!(problems.is_empty(), "{problems:?}");
        let names: Vec<&str> = values.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "PluginPath",
                "UCI_Variant",
                "EvalFile",
                "Evaluator",
                "EvalParams",
                "MultiPV"
            ]
        );
    }

    /// A decimal number is passed on as written, so that a whole-number
    /// option refuses it as `setoption` does (`32.0` was read as 32).
    #[test]
    fn a_decimal_start_option_stays_decimal() {
        let file =
            ConfigFile::parse("[options]\nHash = 32.0\nMultiPV = 1e1\nThreads = 2\n").unwrap();
        let (values, _) = file.option_values();
        let text = |name: &str| {
            values
                .iter()
                .find(|(n, _, _)| n == name)
                .map(|(_, v, _)| v.clone())
                .unwrap()
        };
        assert_eq!(text("Hash"), "32.0");
        assert_eq!(text("MultiPV"), "10.0");
        assert_eq!(text("Threads"), "2");
        assert!(HASH_RANGE.parse("Hash", &text("Hash")).is_err());
    }

    #[test]
    fn spin_parse_checks_type_and_range() {
        assert_eq!(HASH_RANGE.parse("Hash", " 64 "), Ok(64));
        assert!(matches!(
            HASH_RANGE.parse("Hash", "0"),
            Err(OptionValueError::OutOfRange {
                value: 0,
                min: 1,
                max: 65536,
                ..
            })
        ));
        assert_eq!(
            HASH_RANGE.parse("Hash", "0").unwrap_err().to_string(),
            "option 'Hash': 0 is outside 1..=65536"
        );
        let e = HASH_RANGE.parse("Hash", "lots").unwrap_err();
        assert!(matches!(e, OptionValueError::NotAnInteger { .. }));
        assert_eq!(
            e.to_string(),
            "option 'Hash': 'lots' is not an integer between 1 and 65536"
        );
    }

    #[test]
    fn config_parses_every_key() {
        let c = ConfigFile::parse(
            "plugin_path = \"/a:/b\"\ngame = \"othello\"\nevaluator = \"seed004\"\neval_params = \"w.toml\"\nhash = 64\nthreads = 2\nmove_overhead = 30\nvariety = 12\ncall_limit = 2500\nbotzone_turn_limit = 300\n",
        )
        .unwrap();
        let mut s = EngineSettings::default();
        assert_eq!((s.call_limit_ms, s.botzone_turn_limit_ms), (5000, 1000));
        assert!(c.apply(&mut s).is_empty());
        assert_eq!(s.variety, Some(12));
        assert_eq!((s.call_limit_ms, s.botzone_turn_limit_ms), (2500, 300));
        assert_eq!((s.hash_mib, s.threads, s.move_overhead_ms), (64, 2, 30));
        assert_eq!(c.game.as_deref(), Some("othello"));
        assert_eq!(c.eval_params, Some(PathBuf::from("w.toml")));
        assert_eq!(
            split_plugin_path(c.plugin_path.as_deref().unwrap()).len(),
            2
        );
    }

    #[test]
    fn config_errors_name_the_key() {
        let e = ConfigFile::parse("threads = 2\nhash = \"big\"").unwrap_err();
        assert_eq!(e.line, Some((2, "hash = \"big\"".to_string())));
        assert!(
            e.to_string().starts_with("line 2 (hash = \"big\"): "),
            "{e}"
        );
        // An unknown key is a problem of its own; the others apply.
        let c = ConfigFile::parse("colour = 3\nthreads = 2").unwrap();
        let mut s = EngineSettings::default();
        let errors = c.apply(&mut s);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0]
                .starts_with("config key 'colour': unknown key, left out (the keys: plugin_path, "),
            "{errors:?}"
        );
        assert_eq!(s.threads, 2);
        let c = ConfigFile::parse("threads = 0").unwrap();
        let mut s = EngineSettings::default();
        let errors = c.apply(&mut s);
        assert_eq!(errors, ["config key 'threads': 0 is outside 1..=256"]);
        assert_eq!(s.threads, 1);
        let c = ConfigFile::parse("call_limit = 100\nbotzone_turn_limit = 0").unwrap();
        let mut s = EngineSettings::default();
        assert_eq!(
            c.apply(&mut s),
            [
                "config key 'call_limit': 100 is outside 500..=600000",
                "config key 'botzone_turn_limit': 0 is outside 50..=60000"
            ]
        );
        assert_eq!((s.call_limit_ms, s.botzone_turn_limit_ms), (5000, 1000));
        let c = ConfigFile::parse("variety = 20000").unwrap();
        let errors = c.apply(&mut s);
        assert_eq!(errors, ["config key 'variety': 20000 is outside 0..=10000"]);
        assert_eq!(s.variety, None);
    }

    #[test]
    fn a_bad_value_read_from_a_file_names_the_file_and_line() {
        let path = std::env::temp_dir().join(format!("plyd-config-{}.toml", std::process::id()));
        std::fs::write(
            &path,
            "# a comment\nthreads = 2\n  botzone_turn_limit   = 10\n",
        )
        .unwrap();
        let c = ConfigFile::load(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let mut s = EngineSettings::default();
        assert_eq!(
            c.apply(&mut s),
            [format!(
                "config {} line 3: key 'botzone_turn_limit': 10 is outside 50..=60000",
                path.display()
            )]
        );
        assert_eq!((s.threads, s.botzone_turn_limit_ms), (2, 1000));
    }

    #[test]
    fn bools() {
        assert_eq!(parse_bool("Ponder", "TRUE"), Ok(true));
        assert!(matches!(
            parse_bool("Ponder", "yes"),
            Err(OptionValueError::NotABool { .. })
        ));
    }
}
