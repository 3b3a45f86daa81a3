//! The Rust SDK: write a game or an evaluator as safe Rust, export it with a
//! macro.
//!
//! ```text
//! #[derive(Clone)]
//! struct MyGame { /* ... */ }
//! impl plyd_api::Game for MyGame { /* ... */ }
//! plyd_api::export_game!(MyGame, evaluators = [MyEval]);
//! ```
//!
//! The macro generates the `plyd_game_api` entry point. Every function in the
//! table is a shim from this module that converts raw pointers into
//! references, runs the trait method inside `catch_unwind`, and turns a panic
//! into [`STATUS_PANIC`](crate::abi::STATUS_PANIC).

use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use crate::abi::{self, EvalContext, EvaluatorApi, GameApi, Move, State, VariantInfo};

/// One variant of a game.
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    /// Name shown in `UCI_Variant` (lower case, no spaces).
    pub name: &'static str,
    /// Position text of the start position.
    pub start_position: &'static str,
}

/// One setting of a game, shown by the host as a UCI option.
#[derive(Debug, Clone, Copy)]
pub struct GameOption {
    /// Option name as `uci` shows it.
    pub name: &'static str,
    /// Its kind, default and range.
    pub kind: GameOptionKind,
}

/// The kind of a [`GameOption`], with its default.
#[derive(Debug, Clone, Copy)]
pub enum GameOptionKind {
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
    /// One of a list of words.
    Combo {
        /// Default, one of `choices`.
        default: &'static str,
        /// The choices.
        choices: &'static [&'static str],
    },
    /// Any text.
    Text {
        /// Default.
        default: &'static str,
    },
}

/// Result of a game for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The ABI's `OUTCOME_*` code.
    pub fn code(self) -> i32 {
        match self {
            Outcome::Ongoing => abi::OUTCOME_ONGOING,
            Outcome::Win => abi::OUTCOME_WIN,
            Outcome::Loss => abi::OUTCOME_LOSS,
            Outcome::Draw => abi::OUTCOME_DRAW,
        }
    }

    /// The outcome for an ABI `OUTCOME_*` code, `None` for any other value.
    pub fn from_code(code: i32) -> Option<Self> {
        match code {
            abi::OUTCOME_ONGOING => Some(Outcome::Ongoing),
            abi::OUTCOME_WIN => Some(Outcome::Win),
            abi::OUTCOME_LOSS => Some(Outcome::Loss),
            abi::OUTCOME_DRAW => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// Where a move generator writes its moves: the caller's buffer, which may be
/// shorter than the list. Moves past its end are counted but not stored, so
/// the host learns how much room it needs.
pub struct MoveSink<'a> {
    buf: &'a mut [Move],
    len: usize,
}

impl<'a> MoveSink<'a> {
    /// A sink writing into `buf`.
    pub fn new(buf: &'a mut [Move]) -> Self {
        MoveSink { buf, len: 0 }
    }

    /// Add one move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = mv;
        }
        self.len += 1;
    }

    /// Number of moves pushed so far (stored or not).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the host asked for the number of moves only (a buffer of
    /// no room, as perft's last ply asks): a game may then count its moves
    /// with [`MoveSink::add_count`] instead of listing them.
    #[inline]
    pub fn counts_only(&self) -> bool {
        self.buf.is_empty()
    }

    /// Count `n` moves without storing them, where the host asked for the
    /// number only ([`MoveSink::counts_only`]).
    ///
    /// # Panics
    ///
    /// Where the host gave room for the moves: it would read moves never
    /// written, so they must be pushed (the panic is caught at the plugin's
    /// boundary, and the host disables the plugin).
    #[inline]
    pub fn add_count(&mut self, n: usize) {
        assert!(
            self.counts_only(),
            "MoveSink::add_count with room for the moves: push them instead"
        );
        self.len += n;
    }

    /// Whether nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Where a chance node writes its outcomes and their relative weights.
pub struct ChanceSink<'a> {
    tokens: &'a mut [Move],
    weights: &'a mut [u32],
    len: usize,
}

impl<'a> ChanceSink<'a> {
    /// A sink writing into `tokens` and `weights` (same length).
    pub fn new(tokens: &'a mut [Move], weights: &'a mut [u32]) -> Self {
        ChanceSink {
            tokens,
            weights,
            len: 0,
        }
    }

    /// Add one outcome with its relative weight.
    pub fn push(&mut self, token: Move, weight: u32) {
        if self.len < self.tokens.len() && self.len < self.weights.len() {
            self.tokens[self.len] = token;
            self.weights[self.len] = weight;
        }
        self.len += 1;
    }

    /// Number of outcomes pushed so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A game's rules, implemented on its state type.
///
/// The state carries its own history (what `unmake_move` needs, and whatever
/// repetition rules need), so the host can search by make/unmake alone.
pub trait Game: Clone + Send + 'static {
    /// Game name (`othello`).
    const NAME: &'static str;
    /// Plugin version.
    const VERSION: &'static str;
    /// Variants; the first is the default.
    const VARIANTS: &'static [Variant];
    /// `CAP_*` bits from [`abi`](crate::abi).
    const CAPABILITIES: u64 = 0;
    /// Version of the state layout external evaluators read.
    const STATE_LAYOUT: u32 = 1;
    /// Upper bound on a game's length in plies, 0 if unknown.
    const MAX_GAME_PLIES: u32 = 0;

    /// The start position of `VARIANTS[variant]`.
    fn new(variant: usize) -> Self;
    /// Replace the position with one read from `text`, clearing the history.
    /// On error `self` must be left unchanged.
    fn set_position(&mut self, text: &str) -> Result<(), String>;
    /// The position text, in the form `set_position` reads.
    fn position_text(&self) -> String;
    /// 0 for the first player, 1 for the second.
    fn side_to_move(&self) -> u32;
    /// The outcome for the side to move.
    fn outcome(&self) -> Outcome;
    /// Push every legal move. None when the game is over; a repetition or
    /// move-count verdict in `outcome` may keep them listed (the search
    /// scores such a node by the verdict below the root, and plays one of
    /// its moves at the root).
    fn generate_moves(&self, moves: &mut MoveSink<'_>);
    /// Play a legal move.
    fn make_move(&mut self, mv: Move);
    /// Take back `mv`, the last move played.
    fn unmake_move(&mut self, mv: Move);
    /// 64-bit position hash.
    fn hash(&self) -> u64;
    /// Read a move text; `None` if it is not a move of this game. Legality is
    /// checked by the host.
    fn parse_move(&self, text: &str) -> Option<Move>;
    /// Canonical spelling of a move.
    fn format_move(&self, mv: Move) -> String;
    /// A multi-line picture of the board.
    fn board_text(&self) -> String;

    /// Whether [`Game::generate_noisy`] is meaningful: sets `gen_noisy`, whose
    /// presence alone switches quiescence on (no capability bit).
    const HAS_NOISY_MOVES: bool = false;
    /// Push noisy moves only (captures).
    fn generate_noisy(&self, moves: &mut MoveSink<'_>) {
        let _ = moves;
    }
    /// Whether [`Game::order_hints`] is meaningful (sets `order_hints`).
    const HAS_ORDER_HINTS: bool = false;
    /// Write a cheap ordering score for each move (higher first).
    fn order_hints(&self, moves: &[Move], scores: &mut [i32]) {
        let _ = moves;
        scores.fill(0);
    }
    /// Whether [`Game::in_check`] is meaningful (sets `in_check`).
    const HAS_CHECK: bool = false;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool {
        false
    }
    /// Whether the game has chance nodes: sets `chance_outcomes`, whose
    /// presence alone says so (no capability bit).
    const HAS_CHANCE: bool = false;
    /// Push the outcomes of a chance node (nothing when a player moves).
    fn chance_outcomes(&self, outcomes: &mut ChanceSink<'_>) {
        let _ = outcomes;
    }
    /// Whether [`Game::is_legal`] is worth exporting (sets `is_legal`). Set it
    /// when the game answers faster than generating every move.
    const HAS_IS_LEGAL: bool = false;
    /// Whether `mv` is a legal move here, or at a chance node one of its
    /// outcomes. Any `u32` may come in, [`NULL_MOVE`](abi::NULL_MOVE) and
    /// garbage included. The default generates the list and looks `mv` up.
    fn is_legal(&self, mv: Move) -> bool {
        if Self::HAS_CHANCE {
            let mut tokens = [0; 64];
            let mut weights = [0; 64];
            let mut sink = ChanceSink::new(&mut tokens, &mut weights);
            self.chance_outcomes(&mut sink);
            let count = sink.len();
            if count > 0 {
                if count <= tokens.len() {
                    return tokens[..count].contains(&mv);
                }
                let mut tokens = vec![0; count];
                let mut weights = vec![0; count];
                let mut sink = ChanceSink::new(&mut tokens, &mut weights);
                self.chance_outcomes(&mut sink);
                let count = sink.len().min(tokens.len());
                return tokens[..count].contains(&mv);
            }
        }
        let mut buf = vec![0; 256];
        loop {
            let mut sink = MoveSink::new(&mut buf);
            self.generate_moves(&mut sink);
            let count = sink.len();
            if count <= buf.len() {
                return buf[..count].contains(&mv);
            }
            buf.resize(count, 0);
        }
    }
    /// Leaf count at `depth`, inside the plugin. The default walks the tree
    /// with make/unmake and counts the last ply in bulk.
    fn perft(&mut self, depth: u32) -> u64 {
        default_perft(self, depth)
    }
    /// Whether [`Game::null_move_ok`] is meaningful (sets `null_move_ok`).
    const HAS_NULL_MOVE_GUARD: bool = false;
    /// Whether a null move is worth trying here (false where the side to
    /// move may be in zugzwang).
    fn null_move_ok(&self) -> bool {
        true
    }
    /// Whether [`Game::endgame_size`] and [`Game::solve`] are meaningful
    /// (sets `endgame_size` and `solve`): the game has an exact endgame
    /// solver.
    const HAS_SOLVER: bool = false;
    /// The size of the endgame left for the solver (a search of that many
    /// plies or more is answered by [`Game::solve`]) and whether the game's
    /// settings ask for the solver here whatever the depth; `None` where
    /// the solver cannot take this state.
    fn endgame_size(&self) -> Option<(u32, bool)> {
        None
    }
    /// Solve this state to the end of the game with the host's table and
    /// stop signal; `None` where [`Game::endgame_size`] says `None`. The
    /// state must be left as it was. The host also asks it of a finished
    /// game (a root move that ended it, when it solves each move for
    /// several lines): answer its final score there, or `None` to have
    /// the line scored by the outcome's sign.
    fn solve(&mut self, host: &mut SolveHost<'_>) -> Option<abi::SolveResult> {
        let _ = host;
        None
    }
    /// [`Game::solve`] within the window (`alpha`, `beta`), `alpha <
    /// beta`: a score at or below `alpha` is an upper bound of the exact
    /// score, one at or above `beta` a lower bound, one between them the
    /// exact score. `None` (the default) has the host call
    /// [`Game::solve`] instead.
    fn solve_window(
        &mut self,
        host: &mut SolveHost<'_>,
        alpha: i32,
        beta: i32,
    ) -> Option<abi::SolveResult> {
        let _ = (host, alpha, beta);
        None
    }
    /// Whether [`Game::see_ge`] is meaningful (sets `see_ge`).
    const HAS_SEE: bool = false;
    /// Static exchange evaluation: whether the exchange on the target
    /// square of `mv` (a legal move of this state), `mv` first, wins the
    /// side to move at least `threshold` in the game's material units, and
    /// whether `mv` is noisy. `None`: not answered for this move or state
    /// (the default), and the host then neither prunes nor reorders it.
    /// The host asks with `threshold` [`i32::MIN`], which every exchange
    /// passes, when it wants only to know whether the move is noisy.
    fn see_ge(&self, mv: Move, threshold: i32) -> Option<SeeAnswer> {
        let _ = (mv, threshold);
        None
    }
    /// Whether [`Game::gives_check`] is meaningful (sets `gives_check`).
    const HAS_GIVES_CHECK: bool = false;
    /// Whether `mv`, a legal move of this state, leaves the opponent in
    /// check: exactly what [`Game::in_check`] would say once it is made.
    /// `None`: not answered here (the host makes the move and asks).
    fn gives_check(&self, mv: Move) -> Option<bool> {
        let _ = mv;
        None
    }
    /// Whether [`Game::count_after`] is meaningful (sets `count_after`).
    const HAS_COUNT_AFTER: bool = false;
    /// How many legal moves the position after `mv` (a legal move of this
    /// state) has: exactly what [`Game::generate_moves`] would count once
    /// `mv` is made, found without making it. `None`: not answered here
    /// (the host makes the move, counts and takes it back).
    fn count_after(&self, mv: Move) -> Option<u64> {
        let _ = mv;
        None
    }
    /// Whether [`Game::outcome_reason`] is meaningful (sets
    /// `outcome_reason`).
    const HAS_OUTCOME_REASON: bool = false;
    /// Why [`Game::outcome`] is what it is, in one line for the people
    /// watching (which rule ended the game); empty where there is nothing
    /// to say.
    fn outcome_reason(&self) -> String {
        String::new()
    }
    /// Whether [`Game::illegal_reason`] is meaningful (sets
    /// `illegal_reason`).
    const HAS_ILLEGAL_REASON: bool = false;
    /// Why `mv`, a move [`Game::parse_move`] read that is not legal in this
    /// state, is not, in one line for the person who sent it (the rule it
    /// breaks: "the horse's leg at c1 is blocked"); empty where there is
    /// nothing to say. The host adds it to the line that refuses the move.
    fn illegal_reason(&self, mv: Move) -> String {
        let _ = mv;
        String::new()
    }
    /// Whether [`Game::move_keys`] is meaningful (sets `move_keys`).
    const HAS_MOVE_KEYS: bool = false;
    /// A small key per move of this state's legal list, `keys[i]` for
    /// `moves[i]`: below [`abi::MOVE_KEY_LIMIT`], naming what the move does
    /// in a way that holds from one position to the next (the moved piece
    /// and its target square, say), with [`abi::MOVE_KEY_NOISY`] added for
    /// a noisy move. The search keeps its histories and countermoves by
    /// these keys.
    fn move_keys(&self, moves: &[Move], keys: &mut [u32]) {
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = mv % abi::MOVE_KEY_LIMIT;
        }
    }
    /// The game's settings, shown as UCI options.
    const OPTIONS: &'static [GameOption] = &[];
    /// Apply a setting from [`Game::OPTIONS`] to every state of the game.
    /// The host has checked `value` against the option's kind and range.
    fn set_option(name: &str, value: &str) -> Result<(), String> {
        let _ = value;
        Err(format!("unknown option '{name}'"))
    }
}

/// What [`Game::see_ge`] answers for one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeeAnswer {
    /// The exchange wins at least the threshold.
    pub passes: bool,
    /// The move is noisy: [`Game::generate_noisy`] lists it.
    pub noisy: bool,
}

impl SeeAnswer {
    /// The ABI's `SEE_*` bits.
    pub fn bits(self) -> i32 {
        (if self.passes { abi::SEE_PASSES } else { 0 })
            | (if self.noisy { abi::SEE_NOISY } else { 0 })
    }

    /// The answer of the ABI's `SEE_*` bits.
    pub fn from_bits(bits: i32) -> Self {
        SeeAnswer {
            passes: bits & abi::SEE_PASSES != 0,
            noisy: bits & abi::SEE_NOISY != 0,
        }
    }
}

/// The host's side of one call of [`Game::solve`]: its shared
/// transposition table and its stop signal, as safe methods.
pub struct SolveHost<'a> {
    request: &'a abi::SolveRequest,
}

impl SolveHost<'_> {
    /// The search thread making the call (0: the main one).
    pub fn thread(&self) -> u32 {
        self.request.thread
    }

    /// The entry the host's table holds for `key`, if any.
    pub fn probe(&mut self, key: u64) -> Option<abi::SolveEntry> {
        let probe = self.request.probe?;
        let mut entry = abi::SolveEntry::default();
        // SAFETY: the host passes callbacks valid for the whole call of
        // `solve`, with its own `host` pointer, and `entry` is writable.
        let hit = unsafe { probe(self.request.host, key, &mut entry) };
        (hit == 1).then_some(entry)
    }

    /// Store `entry` for `key` in the host's table.
    pub fn store(&mut self, key: u64, entry: &abi::SolveEntry) {
        if let Some(store) = self.request.store {
            // SAFETY: as in `probe`; `entry` is read during the call only.
            unsafe { store(self.request.host, key, entry) };
        }
    }

    /// Tell the host how many nodes were searched; `true` means stop now.
    pub fn poll(&mut self, nodes: u64) -> bool {
        match self.request.poll {
            // SAFETY: as in `probe`.
            Some(poll) => (unsafe { poll(self.request.host, nodes) }) != 0,
            None => false,
        }
    }
}

/// Straightforward perft over the [`Game`] trait, counting the last ply in
/// bulk. A game that ended before the last ply counts as one leaf if the
/// game declares [`CAP_PERFT_COUNTS_ENDED_GAMES`](abi::CAP_PERFT_COUNTS_ENDED_GAMES),
/// else as nothing. Game crates with a faster path override [`Game::perft`].
pub fn default_perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    // One buffer for the whole walk: each ply's moves above its parent's.
    let mut moves = Vec::new();
    perft_from(game, depth, &mut moves, 0)
}

/// [`default_perft`] below a ply whose moves start at `base` of `moves`.
fn perft_from<G: Game>(game: &mut G, depth: u32, moves: &mut Vec<Move>, base: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let ended_counts = G::CAPABILITIES & abi::CAP_PERFT_COUNTS_ENDED_GAMES != 0;
    let mut room = 256;
    let count = loop {
        if moves.len() < base + room {
            moves.resize(base + room, 0);
        }
        let mut sink = MoveSink::new(&mut moves[base..]);
        game.generate_moves(&mut sink);
        let count = sink.len();
        if base + count <= moves.len() {
            break count;
        }
        room = count;
    };
    if count == 0 {
        return u64::from(ended_counts);
    }
    if depth == 1 {
        return count as u64;
    }
    let mut total = 0;
    for i in base..base + count {
        let mv = moves[i];
        game.make_move(mv);
        total += perft_from(game, depth - 1, moves, base + count);
        game.unmake_move(mv);
    }
    total
}

/// An evaluation function for the states of one game.
pub trait Evaluator: Sized + Send + Sync + 'static {
    /// The game state type it reads.
    type State: 'static;
    /// Evaluator name (`seed004`).
    const NAME: &'static str;
    /// One line on what it measures.
    const DESCRIPTION: &'static str;
    /// The game it evaluates.
    const GAME: &'static str;
    /// The state layout version it reads.
    const STATE_LAYOUT: u32 = 1;
    /// Every score lies in `[-SCORE_BOUND, SCORE_BOUND]`.
    const SCORE_BOUND: i32;
    /// Default parameters as TOML text.
    const DEFAULT_PARAMS: &'static str = "";

    /// Build from TOML parameter text (`None`: the defaults).
    fn from_params(params: Option<&str>) -> Result<Self, String>;
    /// Score for the side to move.
    fn evaluate(&self, state: &Self::State) -> i32;
    /// Each term as `(name, value)`.
    fn explain(&self, state: &Self::State) -> Vec<(String, f64)> {
        vec![("total".to_string(), f64::from(self.evaluate(state)))]
    }

    /// The most plies [`Evaluator::shallow_search`] searches. 0, the
    /// default, exports no `shallow_search` entry: the host then searches
    /// every ply itself.
    const SHALLOW_PLIES: u32 = 0;

    /// The last plies of the host's search, inside the plugin (the ABI's
    /// `shallow_search`): a fail-soft alpha-beta search of
    /// `request.depth` plies (1 to [`Evaluator::SHALLOW_PLIES`]) from
    /// `state`, whose game is not over, every move searched (a pass is a
    /// ply), the positions `depth` plies down scored as
    /// [`Evaluator::evaluate`] scores them (within `SCORE_BOUND`) and an
    /// ended game as [`Shallow::ended`] says. `state` must be left as it
    /// was. `None` leaves the node to the host. In a game with chance
    /// nodes the host asks for one ply only: the positions a move down are
    /// scored as they stand, a chance node included.
    fn shallow_search(&self, state: &mut Self::State, request: Shallow) -> Option<ShallowResult> {
        let _ = (state, request);
        None
    }

    /// A new game begins (the ABI's `new_game`, UCI's `ucinewgame`):
    /// forget what was kept from earlier searches that could change a
    /// later result (memory outliving a search: a solver's partial work,
    /// a budget saved). Called between searches only. Does nothing by
    /// default.
    fn new_game(&self) {}
}

/// What the host asks of [`Evaluator::shallow_search`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shallow {
    /// Plies to search, at least 1.
    pub depth: u32,
    /// The window, for the side to move at the state searched.
    pub alpha: i32,
    /// See `alpha`.
    pub beta: i32,
    /// The score of a game won at the state itself; one less each ply
    /// further down.
    pub win: i32,
}

impl Shallow {
    /// The score of a game that ended `plies` below the state searched,
    /// for the side to move there, from how its discs, stones or pieces
    /// compare with the opponent's: `Greater` has won.
    #[inline]
    pub fn ended(&self, plies: u32, own_against_opponent: std::cmp::Ordering) -> i32 {
        let win = self.win - plies as i32;
        match own_against_opponent {
            std::cmp::Ordering::Greater => win,
            std::cmp::Ordering::Less => -win,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

/// What [`Evaluator::shallow_search`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShallowResult {
    /// The score for the side to move at the state searched.
    pub score: i32,
    /// The positions reached below the state.
    pub nodes: u64,
}

/// An evaluator that keeps, for each search thread, a stack of what it
/// needs of the positions on the search's path, updated move by move
/// (NNUE's accumulator stack, Edax's incrementally updated pattern
/// indices): the `stack_*` entries of the ABI.
///
/// The host resets a stack to the root of each search, pushes after each
/// move it makes and pops after each move it takes back, and evaluates
/// only the position on top. [`Incremental::evaluate_top`] must return
/// exactly what [`Evaluator::evaluate`] returns for that position. An
/// evaluator is exported with its stack entries whenever it implements
/// this trait; [`export_game!`] and [`export_evaluator!`] need no change.
pub trait Incremental: Evaluator {
    /// One search thread's state.
    type Stack: Send + 'static;
    /// A new stack, for one search thread.
    fn new_stack(&self) -> Self::Stack;
    /// Forget everything; `state` is the only position.
    fn reset(&self, stack: &mut Self::Stack, state: &Self::State);
    /// `state` was reached from the top position by `mv` (which may be
    /// [`crate::NULL_MOVE`] or a chance outcome): hold it on top.
    fn push(&self, stack: &mut Self::Stack, state: &Self::State, mv: Move);
    /// Take back the last push.
    fn pop(&self, stack: &mut Self::Stack);
    /// The score of `state`, the position on top, for its side to move.
    fn evaluate_top(&self, stack: &mut Self::Stack, state: &Self::State) -> i32;
}

/// Picks an evaluator's table in the export macros: with the stack entries
/// when the evaluator is [`Incremental`], without otherwise. Method lookup
/// tries [`IncrementalTable`] on `EvaluatorTag<E>` before [`PlainTable`] on
/// `&EvaluatorTag<E>`, so the first applies whenever `E: Incremental`.
pub struct EvaluatorTag<E>(pub std::marker::PhantomData<E>);

/// See [`EvaluatorTag`].
pub trait IncrementalTable {
    /// The table with the stack entries.
    fn table(&self) -> &'static EvaluatorApi;
}

impl<E: Incremental> IncrementalTable for EvaluatorTag<E> {
    fn table(&self) -> &'static EvaluatorApi {
        incremental_evaluator_table::<E>()
    }
}

/// See [`EvaluatorTag`].
pub trait PlainTable {
    /// The table without the stack entries.
    fn table(&self) -> &'static EvaluatorApi;
}

impl<E: Evaluator> PlainTable for &EvaluatorTag<E> {
    fn table(&self) -> &'static EvaluatorApi {
        evaluator_table::<E>()
    }
}

/// Holds a table built once and handed out as a `'static` pointer.
///
/// The tables contain raw pointers (to leaked, immutable C strings), which
/// makes them `!Sync` to the compiler; they are written once and never
/// mutated afterwards, so sharing them between threads is sound. Only the
/// ABI's tables ([`AbiTable`]) go in one: a cell of anything else would be
/// shared between threads unchecked.
///
/// ```compile_fail
/// // A `Cell` shared by every thread, without `unsafe`: refused.
/// static SHARED: plyd_api::sdk::TableCell<std::cell::Cell<u64>> =
///     plyd_api::sdk::TableCell::new();
/// ```
pub struct TableCell<T: AbiTable>(OnceLock<T>);

/// The ABI's tables, which a [`TableCell`] may hold: plain data and raw
/// pointers to leaked data that nothing mutates. Sealed: no other type
/// can be added.
pub trait AbiTable: sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::abi::GameApi {}
    impl Sealed for crate::abi::EvaluatorApi {}
    impl Sealed for &'static crate::abi::EvaluatorApi {}
}

impl AbiTable for GameApi {}
impl AbiTable for EvaluatorApi {}
impl AbiTable for &'static EvaluatorApi {}

// SAFETY: a table is initialised once through `OnceLock` and only read after;
// the pointers inside point to leaked, immutable data, and `AbiTable` admits
// no other types.
unsafe impl<T: AbiTable> Sync for TableCell<T> {}
// SAFETY: as above; the data pointed to is 'static and immutable.
unsafe impl<T: AbiTable> Send for TableCell<T> {}

impl<T: AbiTable> TableCell<T> {
    /// An empty cell.
    pub const fn new() -> Self {
        TableCell(OnceLock::new())
    }

    /// The table, built by `init` on first use.
    pub fn get_or_init(&self, init: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(init)
    }
}

impl<T: AbiTable> Default for TableCell<T> {
    fn default() -> Self {
        Self::new()
    }
}

fn leak_c_str(text: &str) -> *const c_char {
    let owned = CString::new(text.replace('\0', " ")).expect("NUL bytes were replaced");
    Box::leak(owned.into_boxed_c_str()).as_ptr()
}

/// Build the table for `G` with the given built-in evaluators. Called once by
/// [`export_game!`]; the memory it leaks lives as long as the library.
pub fn game_table<G: Game>(evaluators: &[&'static EvaluatorApi]) -> GameApi {
    let variants: Vec<VariantInfo> = G::VARIANTS
        .iter()
        .map(|v| VariantInfo {
            name: leak_c_str(v.name),
            start_position: leak_c_str(v.start_position),
        })
        .collect();
    let evaluator_ptrs: Vec<*const EvaluatorApi> = evaluators
        .iter()
        .map(|e| *e as *const EvaluatorApi)
        .collect();
    GameApi {
        abi_version: abi::ABI_VERSION,
        table_size: std::mem::size_of::<GameApi>() as u32,
        name: leak_c_str(G::NAME),
        plugin_version: leak_c_str(G::VERSION),
        variant_count: variants.len() as u32,
        state_layout: G::STATE_LAYOUT,
        variants: Box::leak(variants.into_boxed_slice()).as_ptr(),
        capabilities: G::CAPABILITIES,
        max_game_plies: G::MAX_GAME_PLIES,
        evaluator_count: evaluator_ptrs.len() as u32,
        evaluators: Box::leak(evaluator_ptrs.into_boxed_slice()).as_ptr(),
        state_new: Some(shim::state_new::<G>),
        state_clone: Some(shim::state_clone::<G>),
        state_free: Some(shim::state_free::<G>),
        set_position: Some(shim::set_position::<G>),
        get_position: Some(shim::get_position::<G>),
        side_to_move: Some(shim::side_to_move::<G>),
        outcome: Some(shim::outcome::<G>),
        gen_moves: Some(shim::gen_moves::<G>),
        make_move: Some(shim::make_move::<G>),
        unmake_move: Some(shim::unmake_move::<G>),
        hash: Some(shim::hash::<G>),
        parse_move: Some(shim::parse_move::<G>),
        format_move: Some(shim::format_move::<G>),
        board_text: Some(shim::board_text::<G>),
        gen_noisy: G::HAS_NOISY_MOVES.then_some(shim::gen_noisy::<G> as _),
        order_hints: G::HAS_ORDER_HINTS.then_some(shim::order_hints::<G> as _),
        in_check: G::HAS_CHECK.then_some(shim::in_check::<G> as _),
        chance_outcomes: G::HAS_CHANCE.then_some(shim::chance_outcomes::<G> as _),
        perft: Some(shim::perft::<G>),
        is_legal: G::HAS_IS_LEGAL.then_some(shim::is_legal::<G> as _),
        null_move_ok: G::HAS_NULL_MOVE_GUARD.then_some(shim::null_move_ok::<G> as _),
        option_count: G::OPTIONS.len() as u32,
        options: if G::OPTIONS.is_empty() {
            std::ptr::null()
        } else {
            let infos: Vec<abi::GameOptionInfo> = G::OPTIONS.iter().map(option_info).collect();
            Box::leak(infos.into_boxed_slice()).as_ptr()
        },
        set_option: (!G::OPTIONS.is_empty()).then_some(shim::set_option::<G> as _),
        endgame_size: G::HAS_SOLVER.then_some(shim::endgame_size::<G> as _),
        solve: G::HAS_SOLVER.then_some(shim::solve::<G> as _),
        see_ge: G::HAS_SEE.then_some(shim::see_ge::<G> as _),
        move_keys: G::HAS_MOVE_KEYS.then_some(shim::move_keys::<G> as _),
        gives_check: G::HAS_GIVES_CHECK.then_some(shim::gives_check::<G> as _),
        count_after: G::HAS_COUNT_AFTER.then_some(shim::count_after::<G> as _),
        outcome_reason: G::HAS_OUTCOME_REASON.then_some(shim::outcome_reason::<G> as _),
        solve_window: G::HAS_SOLVER.then_some(shim::solve_window::<G> as _),
        illegal_reason: G::HAS_ILLEGAL_REASON.then_some(shim::illegal_reason::<G> as _),
    }
}

/// The C description of one option; its strings are leaked with the table.
fn option_info(option: &GameOption) -> abi::GameOptionInfo {
    let (kind, min, max, default, choices) = match option.kind {
        GameOptionKind::Check { default } => {
            (abi::OPTION_CHECK, 0, 0, default.to_string(), String::new())
        }
        GameOptionKind::Spin { default, min, max } => (
            abi::OPTION_SPIN,
            min,
            max,
            default.to_string(),
            String::new(),
        ),
        GameOptionKind::Combo { default, choices } => (
            abi::OPTION_COMBO,
            0,
            0,
            default.to_string(),
            choices.join("\n"),
        ),
        GameOptionKind::Text { default } => {
            (abi::OPTION_STRING, 0, 0, default.to_string(), String::new())
        }
    };
    abi::GameOptionInfo {
        name: leak_c_str(option.name),
        kind,
        min,
        max,
        default_value: leak_c_str(&default),
        choices: leak_c_str(&choices),
    }
}

/// Build the table of evaluator `E`. Called once per evaluator by the export
/// macros; the memory it leaks lives as long as the library.
pub fn evaluator_table<E: Evaluator>() -> &'static EvaluatorApi {
    Box::leak(Box::new(EvaluatorApi {
        abi_version: abi::ABI_VERSION,
        table_size: std::mem::size_of::<EvaluatorApi>() as u32,
        name: leak_c_str(E::NAME),
        description: leak_c_str(E::DESCRIPTION),
        game: leak_c_str(E::GAME),
        state_layout: E::STATE_LAYOUT,
        score_bound: E::SCORE_BOUND,
        default_params: leak_c_str(E::DEFAULT_PARAMS),
        create: Some(shim::eval_create::<E>),
        destroy: Some(shim::eval_destroy::<E>),
        evaluate: Some(shim::eval_evaluate::<E>),
        explain: Some(shim::eval_explain::<E>),
        stack_new: None,
        stack_free: None,
        stack_reset: None,
        stack_push: None,
        stack_pop: None,
        stack_evaluate: None,
        shallow_search: (E::SHALLOW_PLIES > 0).then_some(shim::eval_shallow_search::<E> as _),
        shallow_plies: E::SHALLOW_PLIES,
        new_game: Some(shim::eval_new_game::<E>),
    }))
}

/// Build the table of incremental evaluator `E`: [`evaluator_table`]'s
/// entries and the stack entries.
pub fn incremental_evaluator_table<E: Incremental>() -> &'static EvaluatorApi {
    let mut table = *evaluator_table::<E>();
    table.stack_new = Some(shim::stack_new::<E>);
    table.stack_free = Some(shim::stack_free::<E>);
    table.stack_reset = Some(shim::stack_reset::<E>);
    table.stack_push = Some(shim::stack_push::<E>);
    table.stack_pop = Some(shim::stack_pop::<E>);
    table.stack_evaluate = Some(shim::stack_evaluate::<E>);
    Box::leak(Box::new(table))
}

/// Nothing at run time: it compiles only where `E` evaluates the states
/// of `G` (`E::State` is `G`), which [`export_game!`] asks of each
/// built-in evaluator, since the plugin hands them `G`'s states.
///
/// ```compile_fail
/// use plyd_api::sdk::{MoveSink, Variant};
/// use plyd_api::{Game, Move, Outcome};
///
/// #[derive(Clone)]
/// struct Pile(u32);
///
/// impl Game for Pile {
///     const NAME: &'static str = "pile";
///     const VERSION: &'static str = "1";
///     const VARIANTS: &'static [Variant] = &[Variant { name: "pile", start_position: "3" }];
///     fn new(_variant: usize) -> Self { Pile(3) }
///     fn set_position(&mut self, text: &str) -> Result<(), String> {
///         self.0 = text.parse().map_err(|_| "a number".to_string())?;
///         Ok(())
///     }
///     fn position_text(&self) -> String { self.0.to_string() }
///     fn board_text(&self) -> String { self.0.to_string() }
///     fn side_to_move(&self) -> u32 { self.0 % 2 }
///     fn outcome(&self) -> Outcome { if self.0 == 0 { Outcome::Loss } else { Outcome::Ongoing } }
///     fn generate_moves(&self, moves: &mut MoveSink<'_>) { moves.push(1) }
///     fn make_move(&mut self, _mv: Move) { self.0 -= 1 }
///     fn unmake_move(&mut self, _mv: Move) { self.0 += 1 }
///     fn hash(&self) -> u64 { u64::from(self.0) }
///     fn parse_move(&self, _text: &str) -> Option<Move> { Some(1) }
///     fn format_move(&self, _mv: Move) -> String { "take".into() }
/// }
///
/// struct Wide;
///
/// impl plyd_api::Evaluator for Wide {
///     // Not the game's state: a built-in evaluator would read past it.
///     type State = [u64; 512];
///     const NAME: &'static str = "wide";
///     const DESCRIPTION: &'static str = "reads a larger state";
///     const GAME: &'static str = "pile";
///     const SCORE_BOUND: i32 = 10;
///     fn from_params(_params: Option<&str>) -> Result<Self, String> { Ok(Wide) }
///     fn evaluate(&self, state: &[u64; 512]) -> i32 { state[511] as i32 }
/// }
///
/// plyd_api::export_game!(Pile, evaluators = [Wide]);
/// ```
pub fn reads_states_of<G: Game, E: Evaluator<State = G>>() {}

/// Have a panic in this plugin told in one line on stderr (where, and
/// its message), without Rust's report and backtrace, unless
/// `PLYD_PLUGIN_BACKTRACE` is set (to anything but `0`): every copy of a
/// plugin carries its own runtime, and a backtrace under `RUST_BACKTRACE`
/// reads the executable's symbols afresh in each copy (about 60 MiB that
/// stay), while the host loads a fresh copy after every panic. Called by
/// [`export_game!`](crate::export_game) and
/// [`export_evaluator!`](crate::export_evaluator) when the host first asks
/// for the table; the hook is this library's alone.
pub fn quiet_panics(plugin: &'static str) {
    let keep = std::env::var_os("PLYD_PLUGIN_BACKTRACE").is_some_and(|v| !v.is_empty() && v != "0");
    if keep {
        return;
    }
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(no message)");
        let place = info
            .location()
            .map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        let one_line = message.replace(['\n', '\r'], " ");
        // One write, so that no other output lands inside the line.
        let line = format!("plugin {plugin} panicked{place}: {one_line}\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    }));
}

/// Run `f`, turning a panic into `on_panic`. The panic message has already
/// gone to stderr through the panic hook.
#[inline(always)]
pub fn guard<R>(on_panic: R, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(on_panic)
}

/// Write `text` into a caller's buffer the `snprintf` way: at most `cap`
/// bytes including the NUL, returning the full length.
///
/// # Safety
/// `buf` must be valid for `cap` bytes of writes, or `cap` must be 0.
pub unsafe fn write_text(text: &str, buf: *mut c_char, cap: usize) -> i64 {
    let bytes = text.as_bytes();
    if cap > 0 && !buf.is_null() {
        let n = bytes.len().min(cap - 1);
        // SAFETY: the caller guarantees `cap` writable bytes; we write n + 1 <= cap.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), n);
            *buf.add(n) = 0;
        }
    }
    bytes.len() as i64
}

/// An explained term's value as people read it: at most nine decimals,
/// trailing zeros dropped, so that float noise (`143.60000000000005`)
/// and a negative zero (`-0`) do not show.
pub fn term_text(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let text = format!("{value:.9}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// The generic `extern "C"` functions the tables point to.
mod shim {
    use super::*;

    /// # Safety
    /// `state` must come from this plugin's `state_new`/`state_clone` for `G`.
    unsafe fn state_ref<'a, G>(state: *const State) -> &'a G {
        // SAFETY: states are `Box<G>` pointers handed out by `state_new`.
        unsafe { &*(state as *const G) }
    }

    /// # Safety
    /// As [`state_ref`], and no other reference to the state is alive.
    unsafe fn state_mut<'a, G>(state: *mut State) -> &'a mut G {
        // SAFETY: as above; the host never calls into one state concurrently.
        unsafe { &mut *(state as *mut G) }
    }

    /// # Safety
    /// `text` must be null or a NUL-terminated string.
    unsafe fn text_arg<'a>(text: *const c_char) -> Option<&'a str> {
        if text.is_null() {
            return None;
        }
        // SAFETY: the caller passes a NUL-terminated string.
        unsafe { CStr::from_ptr(text) }.to_str().ok()
    }

    /// # Safety
    /// `buf` valid for `cap` moves, or `cap == 0`.
    unsafe fn move_buf<'a>(buf: *mut Move, cap: usize) -> &'a mut [Move] {
        if buf.is_null() || cap == 0 {
            &mut []
        } else {
            // SAFETY: the caller guarantees `cap` writable moves at `buf`.
            unsafe { std::slice::from_raw_parts_mut(buf, cap) }
        }
    }

    pub unsafe extern "C" fn state_new<G: Game>(variant: u32) -> *mut State {
        guard(std::ptr::null_mut(), || {
            if variant as usize >= G::VARIANTS.len() {
                return std::ptr::null_mut();
            }
            Box::into_raw(Box::new(G::new(variant as usize))) as *mut State
        })
    }

    pub unsafe extern "C" fn state_clone<G: Game>(state: *const State) -> *mut State {
        guard(std::ptr::null_mut(), || {
            // SAFETY: the host passes a live state of this plugin.
            let g = unsafe { state_ref::<G>(state) };
            Box::into_raw(Box::new(g.clone())) as *mut State
        })
    }

    /// Drop a value handed out with `Box::into_raw`; null is ignored.
    ///
    /// # Safety
    /// `ptr` is null or came from `Box::<T>::into_raw` and is freed once.
    unsafe fn free_box<T, P>(ptr: *mut P) {
        guard((), || {
            if !ptr.is_null() {
                // SAFETY: per the contract above.
                drop(unsafe { Box::from_raw(ptr as *mut T) });
            }
        })
    }

    pub unsafe extern "C" fn state_free<G: Game>(state: *mut State) {
        // SAFETY: states come from Box::into_raw in state_new/state_clone.
        unsafe { free_box::<G, State>(state) }
    }

    pub unsafe extern "C" fn set_position<G: Game>(
        state: *mut State,
        text: *const c_char,
        err: *mut c_char,
        err_cap: usize,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: live state, text NUL-terminated, err valid for err_cap.
            let g = unsafe { state_mut::<G>(state) };
            // SAFETY: the caller passes a NUL-terminated text (or null).
            let result = match unsafe { text_arg(text) } {
                Some(t) => g.set_position(t),
                None => Err("position text is not valid UTF-8".to_string()),
            };
            match result {
                Ok(()) => abi::STATUS_OK,
                Err(reason) => {
                    // SAFETY: err is valid for err_cap bytes.
                    unsafe { write_text(&reason, err, err_cap) };
                    abi::STATUS_INVALID
                }
            }
        })
    }

    pub unsafe extern "C" fn get_position<G: Game>(
        state: *const State,
        buf: *mut c_char,
        cap: usize,
    ) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            // SAFETY: live state; buf valid for cap bytes.
            unsafe { write_text(&state_ref::<G>(state).position_text(), buf, cap) }
        })
    }

    pub unsafe extern "C" fn side_to_move<G: Game>(state: *const State) -> i32 {
        // SAFETY: live state.
        guard(abi::STATUS_PANIC, || {
            // SAFETY: the host passes a live state of this plugin.
            unsafe { state_ref::<G>(state) }.side_to_move() as i32
        })
    }

    pub unsafe extern "C" fn outcome<G: Game>(state: *const State) -> i32 {
        // SAFETY: live state.
        guard(abi::STATUS_PANIC, || {
            // SAFETY: the host passes a live state of this plugin.
            unsafe { state_ref::<G>(state) }.outcome().code()
        })
    }

    /// Run a move generator of `G` into the caller's buffer.
    ///
    /// # Safety
    /// `state` is a live state of `G`; `buf` is valid for `cap` moves.
    unsafe fn fill_moves<G: Game>(
        state: *const State,
        buf: *mut Move,
        cap: usize,
        generate: impl FnOnce(&G, &mut MoveSink<'_>),
    ) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            // SAFETY: per this function's contract.
            let (game, buf) = unsafe { (state_ref::<G>(state), move_buf(buf, cap)) };
            let mut sink = MoveSink::new(buf);
            generate(game, &mut sink);
            sink.len() as i64
        })
    }

    pub unsafe extern "C" fn gen_moves<G: Game>(
        state: *const State,
        buf: *mut Move,
        cap: usize,
    ) -> i64 {
        // SAFETY: the host passes a live state and a buffer of `cap` moves.
        unsafe { fill_moves::<G>(state, buf, cap, G::generate_moves) }
    }

    pub unsafe extern "C" fn gen_noisy<G: Game>(
        state: *const State,
        buf: *mut Move,
        cap: usize,
    ) -> i64 {
        // SAFETY: the host passes a live state and a buffer of `cap` moves.
        unsafe { fill_moves::<G>(state, buf, cap, G::generate_noisy) }
    }

    pub unsafe extern "C" fn make_move<G: Game>(state: *mut State, mv: Move) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: live state, not shared.
            unsafe { state_mut::<G>(state) }.make_move(mv);
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn gives_check<G: Game>(state: *const State, mv: Move) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: live state.
            match unsafe { state_ref::<G>(state) }.gives_check(mv) {
                Some(check) => i32::from(check),
                None => abi::STATUS_UNSUPPORTED,
            }
        })
    }

    pub unsafe extern "C" fn count_after<G: Game>(state: *const State, mv: Move) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            // SAFETY: live state.
            match unsafe { state_ref::<G>(state) }.count_after(mv) {
                Some(count) => i64::try_from(count).unwrap_or(i64::MAX),
                None => i64::from(abi::STATUS_UNSUPPORTED),
            }
        })
    }

    pub unsafe extern "C" fn unmake_move<G: Game>(state: *mut State, mv: Move) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: live state, not shared.
            unsafe { state_mut::<G>(state) }.unmake_move(mv);
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn hash<G: Game>(state: *const State) -> u64 {
        // A panic yields hash 0; the host learns of the panic from the next
        // status-returning call, which panics too for a broken state.
        // SAFETY: live state.
        guard(0, || unsafe { state_ref::<G>(state) }.hash())
    }

    pub unsafe extern "C" fn parse_move<G: Game>(
        state: *const State,
        text: *const c_char,
        out: *mut Move,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: live state; text NUL-terminated; out writable.
            let g = unsafe { state_ref::<G>(state) };
            // SAFETY: the caller passes a NUL-terminated text (or null).
            match unsafe { text_arg(text) }.and_then(|t| g.parse_move(t)) {
                Some(mv) if !out.is_null() => {
                    // SAFETY: out is a writable Move.
                    unsafe { *out = mv };
                    abi::STATUS_OK
                }
                _ => abi::STATUS_INVALID,
            }
        })
    }

    pub unsafe extern "C" fn format_move<G: Game>(
        state: *const State,
        mv: Move,
        buf: *mut c_char,
        cap: usize,
    ) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            // SAFETY: live state; buf valid for cap bytes.
            unsafe { write_text(&state_ref::<G>(state).format_move(mv), buf, cap) }
        })
    }

    pub unsafe extern "C" fn outcome_reason<G: Game>(
        state: *const State,
        buf: *mut c_char,
        cap: usize,
    ) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            // SAFETY: live state; buf valid for cap bytes.
            unsafe { write_text(&state_ref::<G>(state).outcome_reason(), buf, cap) }
        })
    }

    pub unsafe extern "C" fn illegal_reason<G: Game>(
        state: *const State,
        mv: Move,
        buf: *mut c_char,
        cap: usize,
    ) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            // SAFETY: live state; buf valid for cap bytes.
            unsafe { write_text(&state_ref::<G>(state).illegal_reason(mv), buf, cap) }
        })
    }

    pub unsafe extern "C" fn board_text<G: Game>(
        state: *const State,
        buf: *mut c_char,
        cap: usize,
    ) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            // SAFETY: live state; buf valid for cap bytes.
            unsafe { write_text(&state_ref::<G>(state).board_text(), buf, cap) }
        })
    }

    pub unsafe extern "C" fn order_hints<G: Game>(
        state: *const State,
        moves: *const Move,
        count: usize,
        scores: *mut i32,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if count == 0 {
                return abi::STATUS_OK;
            }
            if moves.is_null() || scores.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: the caller passes `count` moves and `count` writable scores.
            let (moves, scores) = unsafe {
                (
                    std::slice::from_raw_parts(moves, count),
                    std::slice::from_raw_parts_mut(scores, count),
                )
            };
            // SAFETY: the host passes a live state of this plugin.
            unsafe { state_ref::<G>(state) }.order_hints(moves, scores);
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn in_check<G: Game>(state: *const State) -> i32 {
        // SAFETY: live state.
        guard(abi::STATUS_PANIC, || {
            // SAFETY: the host passes a live state of this plugin.
            unsafe { state_ref::<G>(state) }.in_check() as i32
        })
    }

    pub unsafe extern "C" fn chance_outcomes<G: Game>(
        state: *const State,
        tokens: *mut Move,
        weights: *mut u32,
        cap: usize,
    ) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            let (tokens, weights): (&mut [Move], &mut [u32]) =
                if tokens.is_null() || weights.is_null() || cap == 0 {
                    (&mut [], &mut [])
                } else {
                    // SAFETY: the caller passes `cap` writable tokens and weights.
                    unsafe {
                        (
                            std::slice::from_raw_parts_mut(tokens, cap),
                            std::slice::from_raw_parts_mut(weights, cap),
                        )
                    }
                };
            let mut sink = ChanceSink::new(tokens, weights);
            // SAFETY: live state.
            unsafe { state_ref::<G>(state) }.chance_outcomes(&mut sink);
            sink.len() as i64
        })
    }

    pub unsafe extern "C" fn perft<G: Game>(state: *mut State, depth: u32, out: *mut u64) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if out.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: live state, not shared; out writable.
            let nodes = unsafe { state_mut::<G>(state) }.perft(depth);
            // SAFETY: the caller passes a writable u64.
            unsafe { *out = nodes };
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn is_legal<G: Game>(state: *const State, mv: Move) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: the host passes a live state of this plugin.
            i32::from(unsafe { state_ref::<G>(state) }.is_legal(mv))
        })
    }

    pub unsafe extern "C" fn null_move_ok<G: Game>(state: *const State) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: the host passes a live state of this plugin.
            i32::from(unsafe { state_ref::<G>(state) }.null_move_ok())
        })
    }

    pub unsafe extern "C" fn set_option<G: Game>(
        name: *const c_char,
        value: *const c_char,
        err: *mut c_char,
        err_cap: usize,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: the caller passes NUL-terminated texts (or null).
            let (name, value) = unsafe { (text_arg(name), text_arg(value)) };
            let result = match (name, value) {
                (Some(name), Some(value)) => G::set_option(name, value),
                _ => Err("option name or value is not valid UTF-8".to_string()),
            };
            match result {
                Ok(()) => abi::STATUS_OK,
                Err(reason) => {
                    // SAFETY: err is valid for err_cap bytes.
                    unsafe { write_text(&reason, err, err_cap) };
                    abi::STATUS_INVALID
                }
            }
        })
    }

    pub unsafe extern "C" fn endgame_size<G: Game>(
        state: *const State,
        auto_solve: *mut u32,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: the host passes a live state of this plugin.
            match unsafe { state_ref::<G>(state) }.endgame_size() {
                Some((size, auto)) => {
                    if !auto_solve.is_null() {
                        // SAFETY: the caller passes a writable u32 (or null).
                        unsafe { *auto_solve = u32::from(auto) };
                    }
                    i32::try_from(size).unwrap_or(i32::MAX)
                }
                None => abi::STATUS_UNSUPPORTED,
            }
        })
    }

    pub unsafe extern "C" fn solve<G: Game>(
        state: *mut State,
        request: *const abi::SolveRequest,
        result: *mut abi::SolveResult,
    ) -> i32 {
        solve_with::<G>(state, request, result, |game, host| game.solve(host))
    }

    pub unsafe extern "C" fn solve_window<G: Game>(
        state: *mut State,
        request: *const abi::SolveRequest,
        alpha: i32,
        beta: i32,
        result: *mut abi::SolveResult,
    ) -> i32 {
        if alpha >= beta {
            return abi::STATUS_INVALID;
        }
        solve_with::<G>(state, request, result, |game, host| {
            game.solve_window(host, alpha, beta)
        })
    }

    /// `solve` and `solve_window`: the checks, the call and the answer.
    fn solve_with<G: Game>(
        state: *mut State,
        request: *const abi::SolveRequest,
        result: *mut abi::SolveResult,
        solve: impl FnOnce(&mut G, &mut SolveHost<'_>) -> Option<abi::SolveResult>,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if request.is_null() || result.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: the caller passes a request valid for the call.
            let request = unsafe { &*request };
            let mut host = SolveHost { request };
            // SAFETY: live state, not shared during the call.
            match solve(unsafe { state_mut::<G>(state) }, &mut host) {
                Some(solved) => {
                    // SAFETY: the caller passes a writable result.
                    unsafe { *result = solved };
                    abi::STATUS_OK
                }
                None => abi::STATUS_UNSUPPORTED,
            }
        })
    }

    pub unsafe extern "C" fn see_ge<G: Game>(state: *const State, mv: Move, threshold: i32) -> i32 {
        guard(abi::STATUS_PANIC, || {
            // SAFETY: the host passes a live state of this plugin.
            match unsafe { state_ref::<G>(state) }.see_ge(mv, threshold) {
                Some(answer) => answer.bits(),
                None => abi::STATUS_UNSUPPORTED,
            }
        })
    }

    pub unsafe extern "C" fn move_keys<G: Game>(
        state: *const State,
        moves: *const Move,
        count: usize,
        keys: *mut u32,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if count == 0 {
                return abi::STATUS_OK;
            }
            if moves.is_null() || keys.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: the caller passes `count` moves and `count` writable keys.
            let (moves, keys) = unsafe {
                (
                    std::slice::from_raw_parts(moves, count),
                    std::slice::from_raw_parts_mut(keys, count),
                )
            };
            // SAFETY: the host passes a live state of this plugin.
            unsafe { state_ref::<G>(state) }.move_keys(moves, keys);
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn eval_create<E: Evaluator>(
        params: *const c_char,
        err: *mut c_char,
        err_cap: usize,
    ) -> *mut EvalContext {
        let made = catch_unwind(AssertUnwindSafe(|| {
            if params.is_null() {
                E::from_params(None)
            } else {
                // SAFETY: params is NUL-terminated.
                match unsafe { text_arg(params) } {
                    Some(text) => E::from_params(Some(text)),
                    None => Err("parameters are not valid UTF-8".to_string()),
                }
            }
        }));
        // A panic is a reason too: its message, for the one error line.
        let result = made.unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            Err(format!("the evaluator panicked while reading them: {what}"))
        });
        match result {
            Ok(e) => Box::into_raw(Box::new(e)) as *mut EvalContext,
            Err(reason) => {
                // SAFETY: err valid for err_cap bytes.
                unsafe { write_text(&reason, err, err_cap) };
                std::ptr::null_mut()
            }
        }
    }

    pub unsafe extern "C" fn eval_destroy<E: Evaluator>(ctx: *mut EvalContext) {
        // SAFETY: contexts come from Box::into_raw in eval_create.
        unsafe { free_box::<E, EvalContext>(ctx) }
    }

    pub unsafe extern "C" fn eval_evaluate<E: Evaluator>(
        ctx: *const EvalContext,
        state: *const State,
        out: *mut i32,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if ctx.is_null() || state.is_null() || out.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: ctx from eval_create; state is a live state of E::State's
            // game with the layout version checked by the host; out writable.
            let (e, s) = unsafe { (&*(ctx as *const E), &*(state as *const E::State)) };
            let score = e.evaluate(s).clamp(-E::SCORE_BOUND, E::SCORE_BOUND);
            // SAFETY: the caller passes a writable i32.
            unsafe { *out = score };
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn eval_new_game<E: Evaluator>(ctx: *const EvalContext) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if ctx.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: ctx from eval_create, alive until eval_destroy.
            unsafe { &*(ctx as *const E) }.new_game();
            abi::STATUS_OK
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub unsafe extern "C" fn eval_shallow_search<E: Evaluator>(
        ctx: *const EvalContext,
        state: *mut State,
        depth: u32,
        alpha: i32,
        beta: i32,
        win: i32,
        score: *mut i32,
        nodes: *mut u64,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if ctx.is_null() || state.is_null() || score.is_null() || nodes.is_null() {
                return abi::STATUS_INVALID;
            }
            if depth == 0 || depth > E::SHALLOW_PLIES || alpha >= beta {
                return abi::STATUS_INVALID;
            }
            // SAFETY: ctx from eval_create; state is a live state of E::State's
            // game, which the host lends this call alone.
            let (e, s) = unsafe { (&*(ctx as *const E), &mut *(state as *mut E::State)) };
            let request = Shallow {
                depth,
                alpha,
                beta,
                win,
            };
            match e.shallow_search(s, request) {
                Some(found) => {
                    // SAFETY: the caller passes writable outputs.
                    unsafe {
                        *score = found.score;
                        *nodes = found.nodes;
                    }
                    abi::STATUS_OK
                }
                None => abi::STATUS_UNSUPPORTED,
            }
        })
    }

    /// A stack and the context it was made from.
    struct StackBox<E: Incremental> {
        eval: *const E,
        stack: E::Stack,
    }

    /// # Safety
    /// `stack` must come from `stack_new::<E>` and not be in use elsewhere.
    unsafe fn stack_parts<'a, E: Incremental>(
        stack: *mut abi::EvalStack,
    ) -> (&'a E, &'a mut E::Stack) {
        // SAFETY: per the contract; the context outlives its stacks.
        let boxed = unsafe { &mut *(stack as *mut StackBox<E>) };
        // SAFETY: as above.
        (unsafe { &*boxed.eval }, &mut boxed.stack)
    }

    pub unsafe extern "C" fn stack_new<E: Incremental>(
        ctx: *const EvalContext,
    ) -> *mut abi::EvalStack {
        guard(std::ptr::null_mut(), || {
            if ctx.is_null() {
                return std::ptr::null_mut();
            }
            let eval = ctx as *const E;
            // SAFETY: ctx from eval_create.
            let stack = unsafe { &*eval }.new_stack();
            Box::into_raw(Box::new(StackBox { eval, stack })) as *mut abi::EvalStack
        })
    }

    pub unsafe extern "C" fn stack_free<E: Incremental>(stack: *mut abi::EvalStack) {
        // SAFETY: stacks come from Box::into_raw in stack_new.
        unsafe { free_box::<StackBox<E>, abi::EvalStack>(stack) }
    }

    pub unsafe extern "C" fn stack_reset<E: Incremental>(
        stack: *mut abi::EvalStack,
        state: *const State,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if stack.is_null() || state.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: a live stack used by one thread; a live state of
            // E::State's game with the checked layout.
            let ((e, st), s) = unsafe { (stack_parts::<E>(stack), &*(state as *const E::State)) };
            e.reset(st, s);
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn stack_push<E: Incremental>(
        stack: *mut abi::EvalStack,
        state: *const State,
        mv: Move,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if stack.is_null() || state.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: as in stack_reset.
            let ((e, st), s) = unsafe { (stack_parts::<E>(stack), &*(state as *const E::State)) };
            e.push(st, s, mv);
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn stack_pop<E: Incremental>(stack: *mut abi::EvalStack) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if stack.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: as in stack_reset.
            let (e, st) = unsafe { stack_parts::<E>(stack) };
            e.pop(st);
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn stack_evaluate<E: Incremental>(
        stack: *mut abi::EvalStack,
        state: *const State,
        out: *mut i32,
    ) -> i32 {
        guard(abi::STATUS_PANIC, || {
            if stack.is_null() || state.is_null() || out.is_null() {
                return abi::STATUS_INVALID;
            }
            // SAFETY: as in stack_reset.
            let ((e, st), s) = unsafe { (stack_parts::<E>(stack), &*(state as *const E::State)) };
            let score = e.evaluate_top(st, s).clamp(-E::SCORE_BOUND, E::SCORE_BOUND);
            // SAFETY: the caller passes a writable i32.
            unsafe { *out = score };
            abi::STATUS_OK
        })
    }

    pub unsafe extern "C" fn eval_explain<E: Evaluator>(
        ctx: *const EvalContext,
        state: *const State,
        buf: *mut c_char,
        cap: usize,
    ) -> i64 {
        guard(i64::from(abi::STATUS_PANIC), || {
            if ctx.is_null() || state.is_null() {
                return i64::from(abi::STATUS_INVALID);
            }
            // SAFETY: as in eval_evaluate.
            let (e, s) = unsafe { (&*(ctx as *const E), &*(state as *const E::State)) };
            let text: String = e
                .explain(s)
                .iter()
                .map(|(name, value)| format!("{name} {}\n", super::term_text(*value)))
                .collect();
            // SAFETY: buf valid for cap bytes.
            unsafe { write_text(&text, buf, cap) }
        })
    }
}

/// Export a game (and its built-in evaluators) as this library's
/// `plyd_game_api` entry point.
///
/// ```text
/// plyd_api::export_game!(Othello, evaluators = [Seed004]);
/// plyd_api::export_game!(Othello, evaluators = [Seed004], init = set_up);
/// ```
///
/// `init`, a function with no arguments, runs once, when the host first
/// asks for the table, before the table is built: one-time set-up of the
/// plugin's own (a panic there is caught like any other, and the plugin is
/// refused).
#[macro_export]
macro_rules! export_game {
    ($game:ty) => {
        $crate::export_game!($game, evaluators = []);
    };
    ($game:ty, evaluators = [$($eval:ty),* $(,)?] $(, init = $init:path)? $(,)?) => {
        /// The plyd game plugin entry point.
        #[no_mangle]
        pub extern "C" fn plyd_game_api() -> *const $crate::abi::GameApi {
            static TABLE: $crate::sdk::TableCell<$crate::abi::GameApi> =
                $crate::sdk::TableCell::new();
            // A built-in evaluator reads this game's own states.
            $($crate::sdk::reads_states_of::<$game, $eval>();)*
            $crate::sdk::guard(::std::ptr::null(), || {
                TABLE.get_or_init(|| {
                    $crate::sdk::quiet_panics(<$game as $crate::Game>::NAME);
                    $($init();)?
                    #[allow(unused_imports)]
                    use $crate::sdk::{IncrementalTable as _, PlainTable as _};
                    $crate::sdk::game_table::<$game>(&[
                        $((&$crate::sdk::EvaluatorTag::<$eval>(::std::marker::PhantomData)).table()),*
                    ])
                }) as *const $crate::abi::GameApi
            })
        }
    };
}

/// Export one evaluator as a stand-alone evaluator plugin
/// (`plyd_evaluator_api`).
#[macro_export]
macro_rules! export_evaluator {
    ($eval:ty) => {
        /// The plyd evaluator plugin entry point.
        #[no_mangle]
        pub extern "C" fn plyd_evaluator_api() -> *const $crate::abi::EvaluatorApi {
            static TABLE: $crate::sdk::TableCell<&'static $crate::abi::EvaluatorApi> =
                $crate::sdk::TableCell::new();
            #[allow(unused_imports)]
            use $crate::sdk::{IncrementalTable as _, PlainTable as _};
            $crate::sdk::guard(::std::ptr::null(), || {
                *TABLE.get_or_init(|| {
                    $crate::sdk::quiet_panics(<$eval as $crate::Evaluator>::NAME);
                    (&$crate::sdk::EvaluatorTag::<$eval>(::std::marker::PhantomData)).table()
                }) as *const $crate::abi::EvaluatorApi
            })
        }
    };
}
