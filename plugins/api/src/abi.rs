//! The binary contract between the plyd host and its plugins.
//!
//! A game plugin is a dynamic library exporting one C function,
//! [`GAME_ENTRY_SYMBOL`] (`plyd_game_api`), which returns a pointer to a
//! static [`GameApi`] table. A stand-alone evaluator plugin exports
//! [`EVALUATOR_ENTRY_SYMBOL`] (`plyd_evaluator_api`) returning an
//! [`EvaluatorApi`] table. Both tables begin with the same two words:
//!
//! ```text
//! offset 0: u32 abi_version   checked by the host before anything else is read
//! offset 4: u32 table_size    sizeof(table) as the plugin was built
//! ```
//!
//! # Growth
//!
//! New entries are only ever appended. A host reads an entry only when
//! `table_size` says the plugin's table reaches that far, so a plugin built
//! against an older minor layout still loads. A change that cannot be made by
//! appending (a changed signature, a removed entry) bumps [`ABI_VERSION`]; the
//! host keeps a range of versions it accepts ([`ABI_VERSION_MIN`] ..=
//! [`ABI_VERSION`]).
//!
//! # Conventions
//!
//! * States are opaque pointers ([`State`]) that only the plugin allocates and
//!   frees. Evaluator contexts ([`EvalContext`]) likewise.
//! * Status-returning functions return [`STATUS_OK`] (0) or a negative
//!   `STATUS_*` code. Length-returning functions return a length (>= 0) or a
//!   negative status.
//! * Text out: the caller passes `buf` and `cap`. The plugin writes at most
//!   `cap` bytes including a NUL terminator and returns the full length of the
//!   text without the NUL, like C's `snprintf`; when the return value is
//!   `>= cap` the text was cut and the caller may retry with a larger buffer.
//!   `buf` may be null when `cap` is 0.
//! * Moves out: the caller passes `buf` and `cap` (in moves). The plugin
//!   writes at most `cap` moves and returns the true number of moves, so a
//!   caller with a short buffer learns the size it needs. A caller that
//!   wants only the number passes `buf` null and `cap` 0.
//! * Every entry point catches panics/exceptions and returns
//!   [`STATUS_PANIC`] (or a null pointer, for constructors) instead of
//!   unwinding into the host. After a panic the host stops using the plugin.
//!
//! # Threading
//!
//! Calls on *different* states may run at the same time on different threads.
//! Calls on *one* state never overlap. An evaluator context is immutable once
//! created: `evaluate` and `explain` may run on one context from many threads
//! at once, each with its own state. An incremental evaluator's stack
//! ([`EvaluatorApi::stack_new`]) belongs to one search thread at a time.

use std::ffi::{c_char, c_void};

/// The ABI version this crate describes.
pub const ABI_VERSION: u32 = 1;
/// The oldest ABI version a host built from this crate still accepts.
pub const ABI_VERSION_MIN: u32 = 1;

/// Name of the game plugin's entry point: `const GameApi *plyd_game_api(void)`.
pub const GAME_ENTRY_SYMBOL: &str = "plyd_game_api";
/// Name of a stand-alone evaluator plugin's entry point:
/// `const EvaluatorApi *plyd_evaluator_api(void)`.
pub const EVALUATOR_ENTRY_SYMBOL: &str = "plyd_evaluator_api";

/// A move: an opaque integer whose meaning only the plugin knows. It is stable
/// for a given position (the host stores moves in its transposition table and
/// replays them after checking they are still legal).
pub type Move = u32;

/// Reserved move value: "pass the turn without moving" for null-move pruning.
/// A plugin accepts it in `make_move`/`unmake_move` only when it declares
/// [`CAP_NULL_MOVE`]; it never appears in a list of legal moves.
pub const NULL_MOVE: Move = u32::MAX;

/// Success.
pub const STATUS_OK: i32 = 0;
/// Bad input: a position text, a move text or a move the plugin rejects.
pub const STATUS_INVALID: i32 = -1;
/// The plugin panicked (or threw); the call had no effect the host may rely on.
pub const STATUS_PANIC: i32 = -2;
/// The entry point is not supported for this state or variant.
pub const STATUS_UNSUPPORTED: i32 = -3;

/// Outcome of a state, for the side to move: the game goes on.
pub const OUTCOME_ONGOING: i32 = 0;
/// Outcome: the side to move has won.
pub const OUTCOME_WIN: i32 = 1;
/// Outcome: the side to move has lost.
pub const OUTCOME_LOSS: i32 = 2;
/// Outcome: the game is drawn.
pub const OUTCOME_DRAW: i32 = 3;

// Optional features follow one rule: an optional entry of [`GameApi`] that
// is present (non-null, within `table_size`) means the feature is on. A
// capability bit exists only where a technique's soundness is a claim the
// plugin makes and the host cannot check: null move, reductions, futility
// and how perft counts ended games.

/// Capability: null-move pruning is sound for this game, and `make_move` /
/// `unmake_move` accept [`NULL_MOVE`]. Games with frequent zugzwang (Othello,
/// Amazons endgames) must not set it.
pub const CAP_NULL_MOVE: u64 = 1 << 0;
/// Retired capability bit 1, reserved: the host ignores it. Noisy moves are
/// on exactly when `gen_noisy` is present. Plugins built earlier may still
/// set it; new plugins should not, and the bit is never given a new meaning.
pub const CAP_NOISY_MOVES: u64 = 1 << 1;
/// Retired capability bit 2, reserved: the host ignores it. A game has
/// chance nodes exactly when `chance_outcomes` is present. Plugins built
/// earlier may still set it; the bit is never given a new meaning.
pub const CAP_CHANCE: u64 = 1 << 2;
/// Capability: late-move reductions are sound for this game.
pub const CAP_REDUCTIONS: u64 = 1 << 3;
/// Capability: futility pruning on the evaluation is sound for this game.
pub const CAP_FUTILITY: u64 = 1 << 4;

/// Capability: perft counts a game that ended before the last ply as one
/// leaf, however much depth is left, instead of nothing. This is the
/// convention of the published Othello perft figures (it equals letting both
/// sides pass until the depth runs out); chess-like tables count only
/// positions reached at exactly the last ply.
pub const CAP_PERFT_COUNTS_ENDED_GAMES: u64 = 1 << 5;

/// Capability: `order_hints` may write [`HINT_SKIP`] for moves the plugin
/// advises not to search below the root (a selective search for games with
/// thousands of moves a node, like Amazons). The host's `Selective` option
/// decides whether the advice is taken; the root always searches every move.
pub const CAP_SELECTIVE: u64 = 1 << 6;

/// Capability: the plugin recommends the Monte-Carlo tree search
/// (`SearchMode mcts`) as this game's default search. A preference, not a
/// soundness claim: the user's `SearchMode` always wins, and a host that
/// does not know the bit keeps its own default.
pub const CAP_PREFERS_MCTS: u64 = 1 << 7;

/// Capability: the Monte-Carlo search should value a new leaf by a short
/// random playout (moves uniformly at random, chance outcomes by weight)
/// before the evaluation, instead of the evaluation alone.
pub const CAP_MCTS_PLAYOUTS: u64 = 1 << 8;

/// Capability: the plugin recommends singular extensions (the `Singular`
/// option) on by default for this game, as a match showed them gaining
/// there. A preference, not a soundness claim: the user's `Singular`
/// always wins, and a host that does not know the bit keeps its own
/// default.
pub const CAP_PREFERS_SINGULAR: u64 = 1 << 9;

/// Capability: the plugin recommends ProbCut of the whole node by a
/// shallower search of it (the `NodeProbCut` option) on by default for
/// this game, as Othello programs search. A preference, not a soundness
/// claim: the user's `NodeProbCut` always wins, and a host that does not
/// know the bit keeps its own default.
pub const CAP_PREFERS_NODE_PROBCUT: u64 = 1 << 10;

/// The hint that marks a move the search may skip below the root, from a
/// plugin declaring [`CAP_SELECTIVE`]. From other plugins it is just the
/// lowest hint.
pub const HINT_SKIP: i32 = i32::MIN;

/// The largest `score_bound` an evaluator may declare: the search keeps
/// the scores above it for won and lost games. The host refuses an
/// evaluator declaring more.
pub const MAX_SCORE_BOUND: i32 = 50_000_000;

/// A game state, opaque to the host. Only the plugin allocates and frees it.
#[repr(C)]
pub struct State {
    _private: [u8; 0],
}

/// An evaluator's parameter set, opaque to the host, immutable once created.
#[repr(C)]
pub struct EvalContext {
    _private: [u8; 0],
}

/// One search thread's incremental evaluation state (an accumulator stack),
/// opaque to the host; see [`EvaluatorApi::stack_new`].
#[repr(C)]
pub struct EvalStack {
    _private: [u8; 0],
}

/// One variant of a game (`othello`; `amazons` and `amazons8`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VariantInfo {
    /// Variant name, lower case, no spaces: what `UCI_Variant` shows.
    pub name: *const c_char,
    /// Position text of the variant's start position.
    pub start_position: *const c_char,
}

/// Table a game plugin exports through [`GAME_ENTRY_SYMBOL`].
///
/// Fields up to and including `board_text` are required: the host refuses a
/// plugin where any of them is null. The optional entries after them may be
/// null; the host then does without. An optional entry that is present
/// switches its feature on: there is no capability bit beside it.
#[repr(C)]
pub struct GameApi {
    /// Must equal an ABI version the host accepts; read before anything else.
    pub abi_version: u32,
    /// `size_of::<GameApi>()` as the plugin was built; see "Growth".
    pub table_size: u32,
    /// Game name (`othello`).
    pub name: *const c_char,
    /// Plugin version (free text, recorded by arenas).
    pub plugin_version: *const c_char,
    /// Number of entries in `variants` (at least 1).
    pub variant_count: u32,
    /// Version of the state layout that external evaluators read.
    pub state_layout: u32,
    /// The variants; index 0 is the default.
    pub variants: *const VariantInfo,
    /// `CAP_*` bits: soundness claims. Optional features are switched on by
    /// their entries being present, not by bits.
    pub capabilities: u64,
    /// Upper bound on the length of a game in plies, or 0 if unknown.
    pub max_game_plies: u32,
    /// Number of entries in `evaluators`.
    pub evaluator_count: u32,
    /// Built-in evaluators; index 0 is the default.
    pub evaluators: *const *const EvaluatorApi,

    /// New state at the start position of variant `variant`; null on failure.
    pub state_new: Option<unsafe extern "C" fn(variant: u32) -> *mut State>,
    /// Deep copy, history included; null on failure.
    pub state_clone: Option<unsafe extern "C" fn(state: *const State) -> *mut State>,
    /// Free a state from `state_new` or `state_clone`.
    pub state_free: Option<unsafe extern "C" fn(state: *mut State)>,
    /// Replace the position with one read from `text` (and clear the
    /// history). On failure the state is unchanged, a one-line reason is
    /// written to `err`, and [`STATUS_INVALID`] is returned.
    pub set_position: Option<
        unsafe extern "C" fn(
            state: *mut State,
            text: *const c_char,
            err: *mut c_char,
            err_cap: usize,
        ) -> i32,
    >,
    /// Write the position text (the form `set_position` reads).
    pub get_position:
        Option<unsafe extern "C" fn(state: *const State, buf: *mut c_char, cap: usize) -> i64>,
    /// Side to move: 0 for the first player, 1 for the second.
    pub side_to_move: Option<unsafe extern "C" fn(state: *const State) -> i32>,
    /// One of the `OUTCOME_*` values, for the side to move. Repetition and
    /// move-count rules are applied here, from the history the state carries.
    /// A state with no legal moves is not ongoing; a verdict of these rules
    /// may leave moves listed (see `gen_moves`).
    pub outcome: Option<unsafe extern "C" fn(state: *const State) -> i32>,
    /// Legal moves, written into `buf` (at most `cap`); returns the true
    /// count. A forced pass is a move. Zero moves means the game is over;
    /// a repetition or move-count verdict, which an arbiter applies and may
    /// rule otherwise, may leave the moves listed (the search scores the
    /// node by `outcome` below the root and plays one at the root).
    pub gen_moves:
        Option<unsafe extern "C" fn(state: *const State, buf: *mut Move, cap: usize) -> i64>,
    /// Play a legal move (or a chance outcome). The host never passes a move
    /// it has not seen in this state's move (or outcome) list.
    pub make_move: Option<unsafe extern "C" fn(state: *mut State, mv: Move) -> i32>,
    /// Take back the last move made, which is passed again.
    pub unmake_move: Option<unsafe extern "C" fn(state: *mut State, mv: Move) -> i32>,
    /// 64-bit hash of the position (side to move included).
    pub hash: Option<unsafe extern "C" fn(state: *const State) -> u64>,
    /// Read a move in any accepted spelling. Writes the move to `out` and
    /// returns [`STATUS_OK`], or [`STATUS_INVALID`] if the text is not a
    /// move. The host checks legality itself, against `gen_moves`.
    pub parse_move: Option<
        unsafe extern "C" fn(state: *const State, text: *const c_char, out: *mut Move) -> i32,
    >,
    /// Write the canonical spelling of `mv`.
    pub format_move: Option<
        unsafe extern "C" fn(state: *const State, mv: Move, buf: *mut c_char, cap: usize) -> i64,
    >,
    /// Write a human-readable board (several lines) for the `d` command.
    pub board_text:
        Option<unsafe extern "C" fn(state: *const State, buf: *mut c_char, cap: usize) -> i64>,

    /// Optional: noisy moves only (captures), for quiescence search. Present
    /// means the game has noisy moves.
    pub gen_noisy:
        Option<unsafe extern "C" fn(state: *const State, buf: *mut Move, cap: usize) -> i64>,
    /// Optional: a cheap ordering score per move (higher is searched first),
    /// written to `scores[i]` for `moves[i]`.
    pub order_hints: Option<
        unsafe extern "C" fn(
            state: *const State,
            moves: *const Move,
            count: usize,
            scores: *mut i32,
        ) -> i32,
    >,
    /// Optional: 1 if the side to move is in check, 0 if not.
    pub in_check: Option<unsafe extern "C" fn(state: *const State) -> i32>,
    /// Optional: if the state is a chance node, write its outcomes (tokens
    /// that `make_move` plays and `format_move`/`parse_move` spell) and their
    /// relative integer weights, and return their number; return 0 for a
    /// state where a player moves. Present means the game has chance nodes.
    pub chance_outcomes: Option<
        unsafe extern "C" fn(
            state: *const State,
            tokens: *mut Move,
            weights: *mut u32,
            cap: usize,
        ) -> i64,
    >,
    /// Optional: leaf count at `depth` computed inside the plugin, to measure
    /// move generation without the boundary. The state is left as it was.
    pub perft: Option<unsafe extern "C" fn(state: *mut State, depth: u32, out: *mut u64) -> i32>,
    /// Optional: 1 if `mv` is a legal move (or, at a chance node, one of its
    /// outcomes) in this state, 0 if not, or a negative `STATUS_*` code.
    /// Any `u32` may be passed, [`NULL_MOVE`] and garbage included, and must
    /// get an answer, never undefined behaviour. [`STATUS_UNSUPPORTED`]
    /// makes the host look the move up in the generated list instead. Lets
    /// the host check a move from its transposition table without
    /// generating the whole list.
    pub is_legal: Option<unsafe extern "C" fn(state: *const State, mv: Move) -> i32>,
    /// Optional: 1 if a null move is worth trying in this state, 0 if the
    /// side to move may be in zugzwang (for example, it has no piece left
    /// that attacks). Asked only where [`CAP_NULL_MOVE`] is declared and the
    /// search is about to try one; absent means always worth trying.
    pub null_move_ok: Option<unsafe extern "C" fn(state: *const State) -> i32>,
    /// Number of entries in `options`.
    pub option_count: u32,
    /// The game's own settings (a rule, a notation), which the host shows
    /// as UCI options beside its own; null when `option_count` is 0.
    pub options: *const GameOptionInfo,
    /// Optional, required when `option_count` is not 0: set option `name`
    /// (as listed) to `value` (already checked by the host against the
    /// option's kind and range). A setting holds for every state of the
    /// plugin, existing and new. On failure writes a one-line reason to
    /// `err` and returns [`STATUS_INVALID`].
    pub set_option: Option<
        unsafe extern "C" fn(
            name: *const c_char,
            value: *const c_char,
            err: *mut c_char,
            err_cap: usize,
        ) -> i32,
    >,
    /// Optional: the size of the endgame left in `state` for the exact
    /// solver (Othello: its empty squares), or a negative `STATUS_*` code
    /// ([`STATUS_UNSUPPORTED`] where the solver cannot take this state).
    /// A search of that many plies or more is answered by `solve`; writes
    /// 1 to `auto_solve` when the plugin's own settings (a threshold
    /// option) ask for the solver whatever the depth, else 0. Present
    /// together with `solve`, or neither is used.
    pub endgame_size:
        Option<unsafe extern "C" fn(state: *const State, auto_solve: *mut u32) -> i32>,
    /// Optional: solve `state` to the end of the game and write the result.
    /// Returns [`STATUS_OK`] (also when `poll` stopped it; `result.complete`
    /// then says 0), [`STATUS_UNSUPPORTED`] for a state `endgame_size`
    /// refuses, or another status. The state is left as it was. The host
    /// may call it on several states at once from several threads, each
    /// with its own `request`, sharing one table behind the callbacks.
    pub solve: Option<
        unsafe extern "C" fn(
            state: *mut State,
            request: *const SolveRequest,
            result: *mut SolveResult,
        ) -> i32,
    >,
    /// Optional: static exchange evaluation. Does the exchange on the
    /// target square of `mv` (a move of this state's legal list), `mv`
    /// first, win the side to move at least `threshold`, in the game's
    /// material units? Returns a non-negative set of `SEE_*` bits:
    /// [`SEE_PASSES`] when it does, [`SEE_NOISY`] when `mv` is a noisy
    /// move (one `gen_noisy` lists); or a negative `STATUS_*` code,
    /// [`STATUS_UNSUPPORTED`] where the plugin does not answer for this
    /// move or state (the host then neither prunes nor reorders it).
    /// [`SEE_NOISY`] does not depend on the threshold; the host asks with
    /// `threshold` [`i32::MIN`] when it wants only that bit (every exchange
    /// passes it), so a plugin should answer that without weighing the
    /// exchange. What the exchange is (which recaptures count, the values)
    /// is the game's to define and document; the search only compares.
    pub see_ge: Option<unsafe extern "C" fn(state: *const State, mv: Move, threshold: i32) -> i32>,
    /// Optional: a small key for each of `count` moves of this state's
    /// legal list, written to `keys[i]` for `moves[i]`: the key's low bits
    /// (below [`MOVE_KEY_LIMIT`]) name what the move does in a way that
    /// stays meaningful from one position to the next — the moved piece
    /// and its target square, say — and [`MOVE_KEY_NOISY`] is set for a
    /// noisy move (one `gen_noisy` lists). The search keeps its history,
    /// continuation history, capture history and countermoves by these
    /// keys. Returns [`STATUS_OK`] or another status; a key at or above
    /// the limit (noisy bit aside) disables the plugin as garbage.
    pub move_keys: Option<
        unsafe extern "C" fn(
            state: *const State,
            moves: *const Move,
            count: usize,
            keys: *mut u32,
        ) -> i32,
    >,
    /// Optional: whether `mv`, a legal move of this state, gives check:
    /// 1 when `in_check` would answer 1 once it is made, 0 when 0, or
    /// [`STATUS_UNSUPPORTED`] to leave it to the host (which then makes the
    /// move and asks). The search asks it of moves it would otherwise
    /// prune, to spare checks without making them.
    pub gives_check: Option<unsafe extern "C" fn(state: *const State, mv: Move) -> i32>,
    /// Optional: how many legal moves the position after `mv` (a move of
    /// this state's legal list) has, what `gen_moves` would count once it
    /// is made, leaving the state as it was; or a negative status,
    /// [`STATUS_UNSUPPORTED`] to leave it to the host (which then makes,
    /// counts and takes back). Perft's last ply asks it of every move.
    pub count_after: Option<unsafe extern "C" fn(state: *const State, mv: Move) -> i64>,
    /// Optional: why `outcome` is what it is, as one line of text for the
    /// people watching ("Red checked perpetually", "120 plies without a
    /// capture"), written like `get_position`'s text; an empty text (0)
    /// where there is nothing to say (the game goes on, or no reason is
    /// kept). The host adds it to the line that gives a verdict.
    pub outcome_reason:
        Option<unsafe extern "C" fn(state: *const State, buf: *mut c_char, cap: usize) -> i64>,
    /// Optional, beside `solve`: `solve` within the window (`alpha`,
    /// `beta`) of final-score units, `alpha < beta`: a `result.score` at
    /// or below `alpha` is an upper bound of the exact score, one at or
    /// above `beta` a lower bound, one between them the exact score.
    /// Otherwise as `solve` (a finished game answered with its final
    /// score); [`STATUS_UNSUPPORTED`] leaves the host to `solve` with the
    /// full window. The host asks it for several lines, to learn whether
    /// a move beats the lines it has without its exact score.
    pub solve_window: Option<
        unsafe extern "C" fn(
            state: *mut State,
            request: *const SolveRequest,
            alpha: i32,
            beta: i32,
            result: *mut SolveResult,
        ) -> i32,
    >,
    /// Optional: why `mv`, a move `parse_move` read that is not legal in
    /// this state, is not: one line for the person who sent it ("the
    /// horse's leg at c1 is blocked", "f5 flips no disc"), written like
    /// `get_position`'s text; an empty text (0) where there is nothing to
    /// say, or [`STATUS_UNSUPPORTED`]. The host adds it to the line that
    /// refuses the move. Appended after `solve_window`.
    pub illegal_reason: Option<
        unsafe extern "C" fn(state: *const State, mv: Move, buf: *mut c_char, cap: usize) -> i64,
    >,
}

/// [`GameApi::move_keys`]: every key, its noisy bit cleared, is below this.
pub const MOVE_KEY_LIMIT: u32 = 1 << 16;
/// [`GameApi::move_keys`]: the bit of a noisy move's key.
pub const MOVE_KEY_NOISY: u32 = 1 << 31;

/// [`GameApi::see_ge`]'s answer bit: the exchange wins at least the
/// threshold.
pub const SEE_PASSES: i32 = 1;
/// [`GameApi::see_ge`]'s answer bit: the move is noisy (a capture), one
/// that `gen_noisy` lists.
pub const SEE_NOISY: i32 = 2;

/// [`SolveEntry::bound`]: the true score is at most the stored one.
pub const BOUND_UPPER: u32 = 1;
/// [`SolveEntry::bound`]: the true score is at least the stored one.
pub const BOUND_LOWER: u32 = 2;
/// [`SolveEntry::bound`]: the stored score is the true score.
pub const BOUND_EXACT: u32 = 3;

/// [`SolveResult::exactness`]: the score is the exact final score.
pub const SOLVE_EXACT: u32 = 0;
/// [`SolveResult::exactness`]: only the sign of the score is exact (win,
/// loss or draw), from a solver told to decide just that.
pub const SOLVE_WIN_LOSS_DRAW: u32 = 1;

/// One entry of the host's transposition table as a solver sees it.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolveEntry {
    /// The best move found.
    pub best: Move,
    /// Score for the side to move, in the game's final-score units. The
    /// host gives it back exactly as stored and reads nothing in it, so a
    /// solver may pack more into it (the Othello solver keeps both bounds).
    pub score: i32,
    /// The depth it was searched to (Othello: the empty squares).
    pub depth: u32,
    /// One of the `BOUND_*` values.
    pub bound: u32,
}

/// What the host lends one call of `solve`: its shared transposition
/// table and a way to stop. `host` is passed back to every callback
/// unchanged; the callbacks are valid only during the call and never null.
#[repr(C)]
pub struct SolveRequest {
    /// The search thread making the call: 0 for the main one. Helpers may
    /// use it to vary their move order (Lazy SMP).
    pub thread: u32,
    /// The host's context for the callbacks.
    pub host: *mut c_void,
    /// Look `key` up: writes the entry and returns 1 on a hit, returns 0
    /// on a miss. Keys are the solver's own; the host keeps them apart
    /// from its search's.
    pub probe:
        Option<unsafe extern "C" fn(host: *mut c_void, key: u64, out: *mut SolveEntry) -> i32>,
    /// Store an entry for `key`.
    pub store: Option<unsafe extern "C" fn(host: *mut c_void, key: u64, entry: *const SolveEntry)>,
    /// Called every few thousand nodes with the nodes searched so far;
    /// returns 1 when the solver must stop now (time, `stop`), else 0.
    pub poll: Option<unsafe extern "C" fn(host: *mut c_void, nodes: u64) -> i32>,
}

/// What one call of `solve` found.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolveResult {
    /// Score for the side to move in the game's final-score units
    /// (Othello: the final disc difference; the host reports 100 times it
    /// as `score cp`).
    pub score: i32,
    /// The best move: a move of the state's list; meaningless when the game
    /// is over (no move).
    pub best: Move,
    /// Positions the solver visited.
    pub nodes: u64,
    /// 1 when the solve ended, 0 when `poll` stopped it (the score is then
    /// meaningless and `best` is the best move found so far).
    pub complete: u32,
    /// [`SOLVE_EXACT`] or [`SOLVE_WIN_LOSS_DRAW`].
    pub exactness: u32,
}

/// A `check` game option: `true` or `false`.
pub const OPTION_CHECK: u32 = 0;
/// A `spin` game option: an integer in `[min, max]`.
pub const OPTION_SPIN: u32 = 1;
/// A `combo` game option: one of `choices`.
pub const OPTION_COMBO: u32 = 2;
/// A `string` game option: any text.
pub const OPTION_STRING: u32 = 3;

/// One setting of a game, shown as a UCI option.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct GameOptionInfo {
    /// Option name as `uci` shows it (no leading or trailing spaces).
    pub name: *const c_char,
    /// One of the `OPTION_*` kinds.
    pub kind: u32,
    /// Lowest value of a `spin` option (0 otherwise).
    pub min: i64,
    /// Highest value of a `spin` option (0 otherwise).
    pub max: i64,
    /// The default, as text (`true`, `120`, one of the choices).
    pub default_value: *const c_char,
    /// The choices of a `combo` option, separated by `\n` (empty otherwise).
    pub choices: *const c_char,
}

/// Table of one evaluator: built into a game plugin (listed in
/// [`GameApi::evaluators`]) or exported alone through
/// [`EVALUATOR_ENTRY_SYMBOL`].
#[repr(C)]
#[derive(Clone, Copy)]
pub struct EvaluatorApi {
    /// Must equal an ABI version the host accepts; read before anything else.
    pub abi_version: u32,
    /// `size_of::<EvaluatorApi>()` as the plugin was built.
    pub table_size: u32,
    /// Evaluator name (`seed004`), unique within its game.
    pub name: *const c_char,
    /// One line saying what it measures.
    pub description: *const c_char,
    /// Name of the game whose states it reads.
    pub game: *const c_char,
    /// The game's state layout version it was built against; the host
    /// refuses it for a game plugin with another layout.
    pub state_layout: u32,
    /// Every value `evaluate` returns lies in `[-score_bound, score_bound]`.
    pub score_bound: i32,
    /// The default parameters, as TOML text (may be empty).
    pub default_params: *const c_char,
    /// Build a context from TOML parameter text (null: the defaults). On
    /// failure returns null and writes a one-line reason to `err`.
    pub create: Option<
        unsafe extern "C" fn(
            params: *const c_char,
            err: *mut c_char,
            err_cap: usize,
        ) -> *mut EvalContext,
    >,
    /// Free a context from `create`.
    pub destroy: Option<unsafe extern "C" fn(ctx: *mut EvalContext)>,
    /// Score `state` for its side to move (positive: good for the side to
    /// move), written to `out`.
    pub evaluate: Option<
        unsafe extern "C" fn(ctx: *const EvalContext, state: *const State, out: *mut i32) -> i32,
    >,
    /// Optional: each term of the evaluation as `name value` lines.
    pub explain: Option<
        unsafe extern "C" fn(
            ctx: *const EvalContext,
            state: *const State,
            buf: *mut c_char,
            cap: usize,
        ) -> i64,
    >,
    /// Optional, with the five `stack_*` entries after it (all six or
    /// none): a new incremental evaluation state for one search thread,
    /// built from `ctx`, which outlives it. Null on failure. The host makes
    /// one per search thread and never calls one stack from two threads
    /// at once; different stacks of one context may be used at once.
    pub stack_new: Option<unsafe extern "C" fn(ctx: *const EvalContext) -> *mut EvalStack>,
    /// Free a stack from `stack_new`.
    pub stack_free: Option<unsafe extern "C" fn(stack: *mut EvalStack)>,
    /// Forget everything and hold `state` as the only position (the root
    /// of a search). [`STATUS_UNSUPPORTED`]: no stack for this search (the
    /// host calls `evaluate`).
    pub stack_reset:
        Option<unsafe extern "C" fn(stack: *mut EvalStack, state: *const State) -> i32>,
    /// `state` is the position on top after `mv` was played there: hold it
    /// on top of the stack. `mv` may be [`NULL_MOVE`] or a chance outcome.
    /// May defer the work to `stack_evaluate` (NNUE's lazy accumulators).
    pub stack_push:
        Option<unsafe extern "C" fn(stack: *mut EvalStack, state: *const State, mv: Move) -> i32>,
    /// Take back the last push. Any status but [`STATUS_OK`] from a push
    /// or a pop disables the evaluator: the stack no longer follows the
    /// search.
    pub stack_pop: Option<unsafe extern "C" fn(stack: *mut EvalStack) -> i32>,
    /// Score `state`, which is the position on top, exactly as `evaluate`
    /// scores it, written to `out`. [`STATUS_UNSUPPORTED`]: the host calls
    /// `evaluate` for this position.
    pub stack_evaluate: Option<
        unsafe extern "C" fn(stack: *mut EvalStack, state: *const State, out: *mut i32) -> i32,
    >,
    /// Optional, with `shallow_plies` (read only when this is present):
    /// the last plies of the host's search, searched inside the plugin
    /// without a call per node. A fail-soft alpha-beta search of `depth`
    /// plies (1 to `shallow_plies`) from `state`, whose game is not over,
    /// in the window `(alpha, beta)`, for the side to move: every move
    /// searched (a pass is a ply), a position `depth` plies down scored as
    /// `evaluate` scores it, clamped to `score_bound`, and a game that
    /// ended `d` plies down as `win - d` for the side to move there when it
    /// has won, `-(win - d)` when it has lost, 0 when drawn. The score goes
    /// to `score`, the positions reached below `state` to `nodes`. The
    /// state is left as it was; several threads may search different
    /// states with one context at once. [`STATUS_UNSUPPORTED`] leaves the
    /// node to the host.
    pub shallow_search: Option<ShallowSearchFn>,
    /// The most plies `shallow_search` takes.
    pub shallow_plies: u32,
    /// Optional: a new game begins (UCI's `ucinewgame`): forget what was
    /// kept from the searches before it that could change a later result
    /// (memory that outlives a search, such as a solver's partial work or
    /// a budget saved), so that a search then gives what it gives in a
    /// fresh process. Called between searches only.
    /// [`STATUS_UNSUPPORTED`]: nothing to forget; any other status but
    /// [`STATUS_OK`] disables the evaluator.
    pub new_game: Option<unsafe extern "C" fn(ctx: *const EvalContext) -> i32>,
}

/// The type of [`EvaluatorApi::shallow_search`].
pub type ShallowSearchFn = unsafe extern "C" fn(
    ctx: *const EvalContext,
    state: *mut State,
    depth: u32,
    alpha: i32,
    beta: i32,
    win: i32,
    score: *mut i32,
    nodes: *mut u64,
) -> i32;

/// Byte offset just past the last required entry of [`GameApi`]: a plugin
/// whose `table_size` is smaller lacks required entries.
pub const GAME_API_REQUIRED_SIZE: usize =
    std::mem::offset_of!(GameApi, board_text) + std::mem::size_of::<usize>();

/// Byte offset just past the last required entry of [`EvaluatorApi`].
pub const EVALUATOR_API_REQUIRED_SIZE: usize =
    std::mem::offset_of!(EvaluatorApi, evaluate) + std::mem::size_of::<usize>();
