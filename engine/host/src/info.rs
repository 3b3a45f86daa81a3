//! What a plugin's tables say about themselves: the game's name, variants
//! and capability bits, and each evaluator's description with its function
//! pointers. Read once at load time by [`crate::library`]; [`crate::game`]
//! and [`crate::evaluator`] hold these, and this module needs neither, so
//! the dependencies between the host's modules run one way.

use std::ffi::c_char;
use std::path::PathBuf;

use plyd_api::abi::{EvalContext, EvalStack, ShallowSearchFn, State};
use plyd_api::Move;

/// One variant of a game.
#[derive(Debug, Clone)]
pub struct VariantDesc {
    /// Name (`othello`).
    pub name: String,
    /// Start position text.
    pub start_position: String,
}

/// What a game plugin says about itself.
#[derive(Debug, Clone)]
pub struct GameInfo {
    /// Game name.
    pub name: String,
    /// Plugin version.
    pub version: String,
    /// The library file.
    pub path: PathBuf,
    /// Variants, the default first.
    pub variants: Vec<VariantDesc>,
    /// `CAP_*` bits as the plugin declared them: soundness claims. Bits
    /// 1 and 2 are retired; use [`crate::GamePlugin::has_noisy_moves`]
    /// and [`crate::GamePlugin::has_chance`] instead.
    pub capabilities: u64,
    /// State layout version.
    pub state_layout: u32,
    /// Longest possible game in plies, 0 if unknown.
    pub max_game_plies: u32,
    /// The game's own settings, shown as UCI options.
    pub options: Vec<GameOptionDesc>,
}

impl GameInfo {
    /// The game's own option `name`, its letters in any case (as UCI
    /// reads option names).
    pub fn option(&self, name: &str) -> Option<&GameOptionDesc> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// One setting of a game, as its table describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOptionDesc {
    /// Option name.
    pub name: String,
    /// Kind, default and range.
    pub kind: GameOptionKindDesc,
}

/// The kind of a game option, with its default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameOptionKindDesc {
    /// `true` or `false`.
    Check {
        /// Default.
        default: bool,
    },
    /// An integer in `[min, max]`.
    Spin {
        /// Default.
        default: i64,
        /// Lowest value.
        min: i64,
        /// Highest value.
        max: i64,
    },
    /// One of `choices`.
    Combo {
        /// Default.
        default: String,
        /// The choices.
        choices: Vec<String>,
    },
    /// Any text.
    Text {
        /// Default.
        default: String,
    },
}

/// Function pointers of an evaluator table.
pub(crate) struct EvaluatorVtable {
    pub create: unsafe extern "C" fn(*const c_char, *mut c_char, usize) -> *mut EvalContext,
    pub destroy: unsafe extern "C" fn(*mut EvalContext),
    pub evaluate: unsafe extern "C" fn(*const EvalContext, *const State, *mut i32) -> i32,
    pub explain:
        Option<unsafe extern "C" fn(*const EvalContext, *const State, *mut c_char, usize) -> i64>,
    /// Present only when the table has all six stack entries.
    pub stack: Option<StackEntries>,
    /// `shallow_search` and its `shallow_plies` (at least 1), when present.
    pub shallow: Option<(ShallowSearchFn, u32)>,
    /// `new_game`, when present.
    pub new_game: Option<unsafe extern "C" fn(*const EvalContext) -> i32>,
}

/// The stack entries of an incremental evaluator's table.
#[derive(Clone, Copy)]
pub(crate) struct StackEntries {
    pub new: unsafe extern "C" fn(*const EvalContext) -> *mut EvalStack,
    pub free: unsafe extern "C" fn(*mut EvalStack),
    pub reset: unsafe extern "C" fn(*mut EvalStack, *const State) -> i32,
    pub push: unsafe extern "C" fn(*mut EvalStack, *const State, Move) -> i32,
    pub pop: unsafe extern "C" fn(*mut EvalStack) -> i32,
    pub evaluate: unsafe extern "C" fn(*mut EvalStack, *const State, *mut i32) -> i32,
}

/// What an evaluator table says about itself.
pub struct EvaluatorInfo {
    /// Name (`seed004`).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// The game whose states it reads.
    pub game: String,
    /// The state layout version it reads.
    pub state_layout: u32,
    /// Default parameters (TOML text).
    pub default_params: String,
    /// Bound on its scores.
    pub score_bound: i32,
    pub(crate) vtable: EvaluatorVtable,
}
