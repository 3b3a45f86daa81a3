//! Safe handles over a loaded game plugin: the plugin itself and its states.
//!
//! Every call into the plugin goes through here. A panic reported by a shim
//! disables the whole plugin (its states may be inconsistent), and every
//! answer that could not be true (a negative length, a runaway move count,
//! text that is not UTF-8) is treated the same way (see [`crate::health`]),
//! so a broken plugin can cost a search but never the daemon. Evaluators,
//! built in or stand-alone, are in [`crate::evaluator`].

use std::ffi::{c_char, CString};
use std::ptr::NonNull;
use std::sync::Arc;

use plyd_api::abi::{self, State};
use plyd_api::Move;
pub use plyd_api::{Outcome, SeeAnswer};

use crate::calls::{self, Call};
use crate::error::PluginError;
use crate::health::{buffer_reason, Health};
use crate::info::{EvaluatorInfo, GameInfo};

/// Function pointers of a game table, required ones checked non-null.
pub(crate) struct GameVtable {
    pub state_new: unsafe extern "C" fn(u32) -> *mut State,
    pub state_clone: unsafe extern "C" fn(*const State) -> *mut State,
    pub state_free: unsafe extern "C" fn(*mut State),
    pub set_position: unsafe extern "C" fn(*mut State, *const c_char, *mut c_char, usize) -> i32,
    pub get_position: unsafe extern "C" fn(*const State, *mut c_char, usize) -> i64,
    pub side_to_move: unsafe extern "C" fn(*const State) -> i32,
    pub outcome: unsafe extern "C" fn(*const State) -> i32,
    pub gen_moves: unsafe extern "C" fn(*const State, *mut Move, usize) -> i64,
    pub make_move: unsafe extern "C" fn(*mut State, Move) -> i32,
    pub unmake_move: unsafe extern "C" fn(*mut State, Move) -> i32,
    pub hash: unsafe extern "C" fn(*const State) -> u64,
    pub parse_move: unsafe extern "C" fn(*const State, *const c_char, *mut Move) -> i32,
    pub format_move: unsafe extern "C" fn(*const State, Move, *mut c_char, usize) -> i64,
    pub board_text: unsafe extern "C" fn(*const State, *mut c_char, usize) -> i64,
    pub gen_noisy: Option<unsafe extern "C" fn(*const State, *mut Move, usize) -> i64>,
    pub order_hints:
        Option<unsafe extern "C" fn(*const State, *const Move, usize, *mut i32) -> i32>,
    pub in_check: Option<unsafe extern "C" fn(*const State) -> i32>,
    pub chance_outcomes:
        Option<unsafe extern "C" fn(*const State, *mut Move, *mut u32, usize) -> i64>,
    pub perft: Option<unsafe extern "C" fn(*mut State, u32, *mut u64) -> i32>,
    pub is_legal: Option<unsafe extern "C" fn(*const State, Move) -> i32>,
    pub null_move_ok: Option<unsafe extern "C" fn(*const State) -> i32>,
    pub set_option:
        Option<unsafe extern "C" fn(*const c_char, *const c_char, *mut c_char, usize) -> i32>,
    /// Set only when the plugin has both `endgame_size` and `solve`.
    pub solver: Option<crate::solve::SolverEntries>,
    pub see_ge: Option<unsafe extern "C" fn(*const State, Move, i32) -> i32>,
    pub move_keys: Option<unsafe extern "C" fn(*const State, *const Move, usize, *mut u32) -> i32>,
    pub gives_check: Option<unsafe extern "C" fn(*const State, Move) -> i32>,
    /// Optional: the count of moves after a move, without making it.
    pub count_after: Option<unsafe extern "C" fn(*const State, Move) -> i64>,
    /// Optional: why the outcome is what it is, as text.
    pub outcome_reason: Option<unsafe extern "C" fn(*const State, *mut c_char, usize) -> i64>,
    /// Optional: why a move that reads is not legal, as text.
    pub illegal_reason: Option<unsafe extern "C" fn(*const State, Move, *mut c_char, usize) -> i64>,
}

/// A loaded game plugin. The library stays loaded while any `Arc` to this,
/// and so any state or evaluator made from it, is alive.
pub struct GamePlugin {
    pub(crate) vtable: GameVtable,
    info: GameInfo,
    evaluators: Vec<EvaluatorInfo>,
    pub(crate) health: Health,
    /// The values its options were given (the last of each, by name as
    /// declared), for `uci` to list as in force.
    set_values: std::sync::Mutex<Vec<(String, String)>>,
    // Declared last so that it is dropped last, after everything that may
    // point into the library.
    _library: crate::library::SharedLibrary,
}

impl GamePlugin {
    pub(crate) fn new(
        library: crate::library::SharedLibrary,
        vtable: GameVtable,
        info: GameInfo,
        evaluators: Vec<EvaluatorInfo>,
    ) -> Self {
        GamePlugin {
            vtable,
            health: Health::new(
                info.name.clone(),
                "reload it with PluginPath or choose another UCI_Variant",
            ),
            info,
            evaluators,
            set_values: std::sync::Mutex::new(Vec::new()),
            _library: library,
        }
    }

    /// Set one of the game's options (listed in [`GameInfo::options`]) for
    /// every state of the plugin. The caller has checked `value` against
    /// the option's kind; the plugin's refusal comes back as its reason.
    pub fn set_option(&self, name: &str, value: &str) -> Result<(), PluginError> {
        self.health.check_enabled()?;
        let Some(set_option) = self.vtable.set_option else {
            return Err(PluginError::Invalid(format!(
                "game {} has no option '{name}'",
                self.info.name
            )));
        };
        let name_c = CString::new(name)
            .map_err(|_| PluginError::Invalid("option name contains a NUL byte".into()))?;
        let value_c = CString::new(value)
            .map_err(|_| PluginError::Invalid("option value contains a NUL byte".into()))?;
        let mut err = vec![0u8; 256];
        // SAFETY: NUL-terminated texts; err valid for its length.
        let status = unsafe {
            set_option(
                name_c.as_ptr(),
                value_c.as_ptr(),
                err.as_mut_ptr().cast(),
                err.len(),
            )
        };
        match status {
            abi::STATUS_OK => {
                if let Ok(mut values) = self.set_values.lock() {
                    values.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                    values.push((name.to_string(), value.to_string()));
                }
                Ok(())
            }
            abi::STATUS_INVALID => Err(PluginError::Invalid(
                buffer_reason(&err).unwrap_or_else(|| format!("option '{name}' was refused")),
            )),
            abi::STATUS_PANIC => Err(self.health.panicked("set_option")),
            other => Err(self.health.garbage("set_option", format!("status {other}"))),
        }
    }

    /// The value option `name` was last given (`set_option` answered
    /// `STATUS_OK`), if it was.
    pub fn option_value(&self, name: &str) -> Option<String> {
        let values = self.set_values.lock().ok()?;
        values
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    }

    /// Every option given a value that `set_option` took, with that value,
    /// in the order they were last set.
    pub fn option_values(&self) -> Vec<(String, String)> {
        self.set_values
            .lock()
            .map(|v| v.clone())
            .unwrap_or_default()
    }

    /// Disable the plugin because one of its calls never returned (the
    /// caller's watchdog decides that); every later call is refused until
    /// the plugin is loaded again.
    pub fn disable_unresponsive(&self) {
        self.health.unresponsive();
    }

    /// What the plugin says about itself.
    pub fn info(&self) -> &GameInfo {
        &self.info
    }

    /// Game name.
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// Built-in evaluators, the default first.
    pub fn evaluators(&self) -> &[EvaluatorInfo] {
        &self.evaluators
    }

    /// Whether an earlier failure disabled the plugin.
    pub fn is_disabled(&self) -> bool {
        self.health.is_disabled()
    }

    /// The error a call into the plugin meets once an earlier failure
    /// disabled it (naming the remedy), or `Ok`.
    pub fn check_enabled(&self) -> Result<(), PluginError> {
        self.health.check_enabled()
    }

    /// Whether the game has noisy moves: its `gen_noisy` entry is present.
    /// (The retired `CAP_NOISY_MOVES` bit plays no part.)
    pub fn has_noisy_moves(&self) -> bool {
        self.vtable.gen_noisy.is_some()
    }

    /// Whether the plugin says when the side to move is in check.
    pub fn has_in_check(&self) -> bool {
        self.vtable.in_check.is_some()
    }

    /// Whether the game has chance nodes: its `chance_outcomes` entry is
    /// present. (The retired `CAP_CHANCE` bit plays no part.)
    pub fn has_chance(&self) -> bool {
        self.vtable.chance_outcomes.is_some()
    }

    /// Whether the plugin answers "is this move legal here" itself
    /// (`is_legal`); [`GameState::is_legal`] works either way.
    pub fn has_is_legal(&self) -> bool {
        self.vtable.is_legal.is_some()
    }

    /// Whether the plugin gives ordering hints (`order_hints`).
    pub fn has_order_hints(&self) -> bool {
        self.vtable.order_hints.is_some()
    }

    /// Whether the plugin computes perft natively.
    pub fn has_native_perft(&self) -> bool {
        self.vtable.perft.is_some()
    }

    /// Whether the plugin answers static exchange questions (`see_ge`).
    pub fn has_see(&self) -> bool {
        self.vtable.see_ge.is_some()
    }

    /// Whether the plugin gives move keys (`move_keys`).
    pub fn has_move_keys(&self) -> bool {
        self.vtable.move_keys.is_some()
    }
}

/// Legal moves a refused move's error names (see
/// [`GameState::parse_legal_move`]).
const LEGAL_MOVES_SHOWN: usize = 8;

/// A game state owned by the host, freed by the plugin on drop.
pub struct GameState {
    pub(crate) plugin: Arc<GamePlugin>,
    pub(crate) ptr: NonNull<State>,
}

// SAFETY: the ABI allows calls on different states from different threads; a
// `GameState` is only ever used through `&self`/`&mut self` by one thread at
// a time, which is exactly "calls on one state never overlap".
unsafe impl Send for GameState {}

impl GameState {
    /// The start position of `variant`.
    pub fn new(plugin: &Arc<GamePlugin>, variant: usize) -> Result<Self, PluginError> {
        plugin.health.check_enabled()?;
        // SAFETY: calling a validated entry point.
        let ptr = unsafe { (plugin.vtable.state_new)(variant as u32) };
        Self::wrap(plugin, ptr, "state_new")
    }

    fn wrap(
        plugin: &Arc<GamePlugin>,
        ptr: *mut State,
        entry: &'static str,
    ) -> Result<Self, PluginError> {
        match NonNull::new(ptr) {
            Some(ptr) => Ok(GameState {
                plugin: Arc::clone(plugin),
                ptr,
            }),
            // Null is a constructor's failure (the Rust SDK's after a
            // panic): no state to play on, and none likely next time.
            None => Err(plugin.health.garbage(
                entry,
                "returned NULL, no state (a failure, or a panic caught)".to_string(),
            )),
        }
    }

    /// The plugin this state belongs to.
    pub fn plugin(&self) -> &Arc<GamePlugin> {
        &self.plugin
    }

    /// A deep copy.
    pub fn try_clone(&self) -> Result<Self, PluginError> {
        self.plugin.health.check_enabled()?;
        // SAFETY: live state of this plugin.
        let ptr = unsafe { (self.plugin.vtable.state_clone)(self.ptr.as_ptr()) };
        Self::wrap(&self.plugin, ptr, "state_clone")
    }

    /// Replace the position by one read from `text`; unchanged on error.
    pub fn set_position(&mut self, text: &str) -> Result<(), PluginError> {
        self.plugin.health.check_enabled()?;
        let text = CString::new(text)
            .map_err(|_| PluginError::Invalid("position text contains a NUL byte".into()))?;
        let mut err = vec![0u8; 512];
        // SAFETY: live state; text NUL-terminated; err valid for its length.
        let status = unsafe {
            (self.plugin.vtable.set_position)(
                self.ptr.as_ptr(),
                text.as_ptr(),
                err.as_mut_ptr().cast(),
                err.len(),
            )
        };
        if status == abi::STATUS_INVALID {
            return Err(PluginError::Invalid(
                buffer_reason(&err).unwrap_or_else(|| "the position text was rejected".into()),
            ));
        }
        self.plugin.health.status("set_position", status)
    }

    /// The position text.
    pub fn position_text(&self) -> Result<String, PluginError> {
        let (vt, ptr) = (&self.plugin.vtable, self.ptr.as_ptr());
        // SAFETY: live state; the closure passes a buffer and its length.
        self.plugin
            .health
            .read_text("get_position", |buf, cap| unsafe {
                (vt.get_position)(ptr, buf, cap)
            })
    }

    /// Why the outcome is what it is (which rule ended the game), where
    /// the plugin says; `None` where it has nothing to say.
    pub fn outcome_reason(&self) -> Result<Option<String>, PluginError> {
        let Some(entry) = self.plugin.vtable.outcome_reason else {
            return Ok(None);
        };
        let ptr = self.ptr.as_ptr();
        // SAFETY: live state; the closure passes a buffer and its length.
        let text = match self
            .plugin
            .health
            .read_text("outcome_reason", |buf, cap| unsafe { entry(ptr, buf, cap) })
        {
            Err(PluginError::Unsupported { .. }) => return Ok(None),
            read => read?,
        };
        Ok((!text.trim().is_empty()).then(|| text.trim().to_string()))
    }

    /// Why `mv`, which reads but is not legal here, is not, where the
    /// plugin says (`illegal_reason`): the rule it breaks.
    pub fn illegal_reason(&self, mv: Move) -> Result<Option<String>, PluginError> {
        let Some(entry) = self.plugin.vtable.illegal_reason else {
            return Ok(None);
        };
        let ptr = self.ptr.as_ptr();
        // SAFETY: live state; the closure passes a buffer and its length.
        let text = match self
            .plugin
            .health
            .read_text("illegal_reason", |buf, cap| unsafe {
                entry(ptr, mv, buf, cap)
            }) {
            Err(PluginError::Unsupported { .. }) => return Ok(None),
            read => read?,
        };
        Ok((!text.trim().is_empty()).then(|| text.trim().to_string()))
    }

    /// The board picture for `d`.
    pub fn board_text(&self) -> Result<String, PluginError> {
        let (vt, ptr) = (&self.plugin.vtable, self.ptr.as_ptr());
        // SAFETY: live state; the closure passes a buffer and its length.
        self.plugin
            .health
            .read_text("board_text", |buf, cap| unsafe {
                (vt.board_text)(ptr, buf, cap)
            })
    }

    /// 0 for the first player, 1 for the second.
    pub fn side_to_move(&self) -> Result<u32, PluginError> {
        calls::count(Call::SideToMove);
        // SAFETY: live state.
        match unsafe { (self.plugin.vtable.side_to_move)(self.ptr.as_ptr()) } {
            s @ (0 | 1) => Ok(s as u32),
            abi::STATUS_PANIC => Err(self.plugin.health.panicked("side_to_move")),
            other => Err(self
                .plugin
                .health
                .garbage("side_to_move", format!("side {other}"))),
        }
    }

    /// The outcome for the side to move.
    pub fn outcome(&self) -> Result<Outcome, PluginError> {
        calls::count(Call::Outcome);
        // SAFETY: live state.
        let code = unsafe { (self.plugin.vtable.outcome)(self.ptr.as_ptr()) };
        match Outcome::from_code(code) {
            Some(outcome) => Ok(outcome),
            None if code == abi::STATUS_PANIC => Err(self.plugin.health.panicked("outcome")),
            None => Err(self
                .plugin
                .health
                .garbage("outcome", format!("outcome {code}"))),
        }
    }

    /// Fill `moves` with the legal moves (replacing its contents).
    #[inline]
    pub fn legal_moves(&self, moves: &mut Vec<Move>) -> Result<(), PluginError> {
        calls::count(Call::GenMoves);
        let gen = self.plugin.vtable.gen_moves;
        self.collect_moves("gen_moves", moves, gen)
    }

    /// The error for a root move list holding the reserved null move: the
    /// plugin listed it, or counted more moves than it wrote and the slot
    /// it left unwritten held it. The plugin is disabled; no move of the
    /// list is played.
    #[cold]
    pub fn listed_null_move(&self) -> PluginError {
        self.plugin.health.garbage(
            "gen_moves",
            "listed the reserved null move (a gen_moves that counts more moves than it writes does this: `plyd check` finds it)".to_string(),
        )
    }

    /// The number of legal moves, asked with a buffer of no room (the
    /// plugin may count them without listing them).
    #[inline]
    pub fn count_moves(&self) -> Result<usize, PluginError> {
        self.plugin.health.check_enabled()?;
        calls::count(Call::GenMoves);
        // SAFETY: live state; a null buffer of capacity 0 is allowed.
        let count =
            unsafe { (self.plugin.vtable.gen_moves)(self.ptr.as_ptr(), std::ptr::null_mut(), 0) };
        self.plugin.health.count("gen_moves", count)
    }

    /// Fill `moves` with the noisy moves, if the plugin lists them.
    pub fn noisy_moves(&self, moves: &mut Vec<Move>) -> Result<(), PluginError> {
        match self.plugin.vtable.gen_noisy {
            Some(gen) => {
                calls::count(Call::GenNoisy);
                self.collect_moves("gen_noisy", moves, gen)
            }
            None => {
                moves.clear();
                Ok(())
            }
        }
    }

    #[inline]
    fn collect_moves(
        &self,
        entry: &'static str,
        moves: &mut Vec<Move>,
        gen: unsafe extern "C" fn(*const State, *mut Move, usize) -> i64,
    ) -> Result<(), PluginError> {
        moves.clear();
        // One relaxed load: a library that failed is not called again (a
        // panic in a first generation had the search generate once more).
        self.plugin.health.check_enabled()?;
        if moves.capacity() < 64 {
            moves.reserve(64);
        }
        loop {
            let cap = moves.capacity();
            // SAFETY: live state; the buffer has `cap` writable moves.
            let count = unsafe { gen(self.ptr.as_ptr(), moves.as_mut_ptr(), cap) };
            let count = self.plugin.health.count(entry, count)?;
            if count <= cap {
                // SAFETY: the plugin initialised the first `count` moves.
                unsafe { moves.set_len(count) };
                return Ok(());
            }
            moves.reserve(count);
        }
    }

    /// How many legal moves the position after `mv` (a move of this state's
    /// legal list) has, the state left as it was: in one call where the
    /// plugin answers `count_after`, else by making `mv`, counting and
    /// taking it back (a bad count is reported after the take-back).
    #[inline]
    pub fn count_after(&mut self, mv: Move) -> Result<usize, PluginError> {
        if let Some(count_after) = self.plugin.vtable.count_after {
            calls::count(Call::CountAfter);
            // SAFETY: live state.
            let count = unsafe { count_after(self.ptr.as_ptr(), mv) };
            if count != i64::from(abi::STATUS_UNSUPPORTED) {
                return self.plugin.health.count("count_after", count);
            }
        }
        self.make_move(mv)?;
        let count = match self.count_moves() {
            Ok(count) => count,
            Err(e) => {
                // The count's error is the one to tell.
                let _ = self.unmake_move(mv);
                return Err(e);
            }
        };
        self.unmake_move(mv)?;
        Ok(count)
    }

    /// Play a move from this state's legal list.
    #[inline]
    pub fn make_move(&mut self, mv: Move) -> Result<(), PluginError> {
        calls::count(Call::MakeMove);
        // SAFETY: live state, exclusively borrowed.
        let status = unsafe { (self.plugin.vtable.make_move)(self.ptr.as_ptr(), mv) };
        if status == abi::STATUS_INVALID {
            return Err(self.refused(mv));
        }
        self.plugin.health.status("make_move", status)
    }

    /// The error of `make_move` refusing `mv`: the host plays only moves
    /// the plugin listed (or a user's move it checked against the list).
    #[cold]
    #[inline(never)]
    fn refused(&self, mv: Move) -> PluginError {
        // The null move comes from the search only where the game declares
        // it; without the bit it came from a list the plugin left short.
        let null_move_declared = self.plugin.info().capabilities & abi::CAP_NULL_MOVE != 0;
        let what = if mv == abi::NULL_MOVE && null_move_declared {
            "refused the null move, which the game's CAP_NULL_MOVE promises passes the turn (clear the bit, or have null_move_ok answer 0 where it cannot pass: `plyd check` finds it)".to_string()
        } else if self.is_chance_node() {
            format!(
                "refused outcome {mv}, which chance_outcomes listed (`plyd check` makes every outcome it lists)"
            )
        } else {
            format!(
                "refused move {mv}, which gen_moves listed (a gen_moves that counts more moves than it writes does this: `plyd check` finds it)"
            )
        };
        self.plugin.health.garbage("make_move", what)
    }

    /// Take back `mv`, the last move played.
    #[inline]
    pub fn unmake_move(&mut self, mv: Move) -> Result<(), PluginError> {
        calls::count(Call::UnmakeMove);
        // SAFETY: live state, exclusively borrowed.
        let status = unsafe { (self.plugin.vtable.unmake_move)(self.ptr.as_ptr(), mv) };
        self.plugin.health.status("unmake_move", status)
    }

    /// The position hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        calls::count(Call::Hash);
        // SAFETY: live state.
        unsafe { (self.plugin.vtable.hash)(self.ptr.as_ptr()) }
    }

    /// Ordering hints for `moves` (zeros when the plugin offers none).
    pub fn order_hints(&self, moves: &[Move], scores: &mut Vec<i32>) -> Result<(), PluginError> {
        scores.clear();
        scores.resize(moves.len(), 0);
        if let Some(hints) = self.plugin.vtable.order_hints {
            calls::count(Call::OrderHints);
            // SAFETY: live state; both buffers hold moves.len() elements.
            let status = unsafe {
                hints(
                    self.ptr.as_ptr(),
                    moves.as_ptr(),
                    moves.len(),
                    scores.as_mut_ptr(),
                )
            };
            // No hints for this position: the zeros stand.
            if status == abi::STATUS_UNSUPPORTED {
                scores.fill(0);
            } else {
                self.plugin.health.status("order_hints", status)?;
            }
        }
        Ok(())
    }

    /// The plugin's key of each of `moves` (moves of this state's legal
    /// list) into `keys`: below [`abi::MOVE_KEY_LIMIT`], with
    /// [`abi::MOVE_KEY_NOISY`] set for a noisy move. Where the plugin has
    /// no `move_keys`, each move's key is the move itself modulo the limit,
    /// and no move is marked noisy.
    pub fn move_keys(&self, moves: &[Move], keys: &mut Vec<u32>) -> Result<(), PluginError> {
        keys.clear();
        let Some(move_keys) = self.plugin.vtable.move_keys else {
            keys.extend(moves.iter().map(|&mv| mv % abi::MOVE_KEY_LIMIT));
            return Ok(());
        };
        keys.resize(moves.len(), 0);
        calls::count(Call::MoveKeys);
        // SAFETY: live state; both buffers hold moves.len() elements.
        let status = unsafe {
            move_keys(
                self.ptr.as_ptr(),
                moves.as_ptr(),
                moves.len(),
                keys.as_mut_ptr(),
            )
        };
        self.plugin.health.status("move_keys", status)?;
        if let Some(bad) = keys
            .iter()
            .find(|&&key| key & !abi::MOVE_KEY_NOISY >= abi::MOVE_KEY_LIMIT)
        {
            return Err(self
                .plugin
                .health
                .garbage("move_keys", format!("key {bad}")));
        }
        Ok(())
    }

    /// Whether the side to move is in check (`false` when the plugin does
    /// not say).
    pub fn in_check(&self) -> Result<bool, PluginError> {
        let Some(in_check) = self.plugin.vtable.in_check else {
            return Ok(false);
        };
        calls::count(Call::InCheck);
        // SAFETY: live state.
        match unsafe { in_check(self.ptr.as_ptr()) } {
            0 => Ok(false),
            1 => Ok(true),
            abi::STATUS_PANIC => Err(self.plugin.health.panicked("in_check")),
            other => Err(self
                .plugin
                .health
                .garbage("in_check", format!("answer {other}"))),
        }
    }

    /// Whether `mv`, a move of this state's legal list, gives check (what
    /// [`GameState::in_check`] would say once it is made); `None` when the
    /// plugin does not say, for this move or at all.
    #[inline]
    pub fn gives_check(&self, mv: Move) -> Result<Option<bool>, PluginError> {
        let Some(gives_check) = self.plugin.vtable.gives_check else {
            return Ok(None);
        };
        calls::count(Call::GivesCheck);
        // SAFETY: live state; the search passes moves of its legal list.
        match unsafe { gives_check(self.ptr.as_ptr(), mv) } {
            0 => Ok(Some(false)),
            1 => Ok(Some(true)),
            abi::STATUS_UNSUPPORTED => Ok(None),
            abi::STATUS_PANIC => Err(self.plugin.health.panicked("gives_check")),
            other => Err(self
                .plugin
                .health
                .garbage("gives_check", format!("answer {other}"))),
        }
    }

    /// Whether a null move is worth trying here (`true` when the plugin
    /// does not say).
    pub fn null_move_ok(&self) -> Result<bool, PluginError> {
        let Some(null_move_ok) = self.plugin.vtable.null_move_ok else {
            return Ok(true);
        };
        calls::count(Call::NullMoveOk);
        // SAFETY: live state.
        match unsafe { null_move_ok(self.ptr.as_ptr()) } {
            0 => Ok(false),
            1 => Ok(true),
            abi::STATUS_PANIC => Err(self.plugin.health.panicked("null_move_ok")),
            other => Err(self
                .plugin
                .health
                .garbage("null_move_ok", format!("answer {other}"))),
        }
    }

    /// Static exchange evaluation of `mv`, a move of this state's legal
    /// list: whether the exchange on its target square wins at least
    /// `threshold` for the side to move, and whether `mv` is noisy. `None`
    /// when the plugin has no `see_ge` or does not answer for this move.
    #[inline]
    pub fn see_ge(&self, mv: Move, threshold: i32) -> Result<Option<SeeAnswer>, PluginError> {
        let Some(see_ge) = self.plugin.vtable.see_ge else {
            return Ok(None);
        };
        calls::count(Call::SeeGe);
        // SAFETY: live state; any move and threshold may be passed.
        match unsafe { see_ge(self.ptr.as_ptr(), mv, threshold) } {
            bits @ 0..=3 => Ok(Some(SeeAnswer::from_bits(bits))),
            abi::STATUS_UNSUPPORTED => Ok(None),
            abi::STATUS_PANIC => Err(self.plugin.health.panicked("see_ge")),
            other => Err(self
                .plugin
                .health
                .garbage("see_ge", format!("answer {other}"))),
        }
    }

    /// Whether the state is a chance node (`chance_outcomes` lists
    /// anything); `false` where the call fails.
    #[cold]
    fn is_chance_node(&self) -> bool {
        let mut outcomes = Vec::new();
        self.plugin.vtable.chance_outcomes.is_some()
            && self.chance_outcomes(&mut outcomes).is_ok()
            && !outcomes.is_empty()
    }

    /// The outcomes of a chance node with their relative weights; empty when
    /// a player is to move (or the game has no chance).
    ///
    /// Called at every node of a search in a game with chance, so the first
    /// try writes into a stack buffer; only a node with more outcomes than
    /// that costs an allocation.
    pub fn chance_outcomes(&self, outcomes: &mut Vec<(Move, u32)>) -> Result<(), PluginError> {
        outcomes.clear();
        let Some(chance) = self.plugin.vtable.chance_outcomes else {
            return Ok(());
        };
        calls::count(Call::ChanceOutcomes);
        const STACK_OUTCOMES: usize = 32;
        let mut tokens = [0 as Move; STACK_OUTCOMES];
        let mut weights = [0u32; STACK_OUTCOMES];
        // SAFETY: live state; both buffers hold STACK_OUTCOMES elements.
        let count = unsafe {
            chance(
                self.ptr.as_ptr(),
                tokens.as_mut_ptr(),
                weights.as_mut_ptr(),
                STACK_OUTCOMES,
            )
        };
        let mut count = self.plugin.health.count("chance_outcomes", count)?;
        if count <= STACK_OUTCOMES {
            outcomes.extend(
                tokens[..count]
                    .iter()
                    .copied()
                    .zip(weights[..count].iter().copied()),
            );
            alike_if_all_zero(outcomes);
            return Ok(());
        }
        let mut tokens: Vec<Move> = Vec::new();
        let mut weights: Vec<u32> = Vec::new();
        loop {
            tokens.resize(count, 0);
            weights.resize(count, 0);
            // SAFETY: live state; both buffers hold `count` elements.
            let needed = unsafe {
                chance(
                    self.ptr.as_ptr(),
                    tokens.as_mut_ptr(),
                    weights.as_mut_ptr(),
                    count,
                )
            };
            let needed = self.plugin.health.count("chance_outcomes", needed)?;
            if needed <= count {
                outcomes.extend(
                    tokens[..needed]
                        .iter()
                        .copied()
                        .zip(weights[..needed].iter().copied()),
                );
                alike_if_all_zero(outcomes);
                return Ok(());
            }
            count = needed;
        }
    }

    /// Whether `mv` is a legal move here, or at a chance node one of its
    /// outcomes. Any value may be asked about, [`abi::NULL_MOVE`] and
    /// garbage included. The plugin's `is_legal` answers when it has one;
    /// otherwise the outcome or move list is generated and searched.
    pub fn is_legal(&self, mv: Move) -> Result<bool, PluginError> {
        let Some(is_legal) = self.plugin.vtable.is_legal else {
            return self.is_legal_by_lists(mv);
        };
        calls::count(Call::IsLegal);
        // SAFETY: live state; any move value is allowed by the ABI.
        match unsafe { is_legal(self.ptr.as_ptr(), mv) } {
            0 => Ok(false),
            1 => Ok(true),
            // A plugin may decline for some states or variants.
            abi::STATUS_UNSUPPORTED => self.is_legal_by_lists(mv),
            status if status < 0 => self
                .plugin
                .health
                .status("is_legal", status)
                .map(|()| false),
            other => Err(self
                .plugin
                .health
                .garbage("is_legal", format!("answer {other}"))),
        }
    }

    /// The chance node's outcomes, or else the legal moves.
    pub fn moves_or_outcomes(&self, moves: &mut Vec<Move>) -> Result<(), PluginError> {
        if self.plugin.has_chance() {
            let mut outcomes = Vec::new();
            self.chance_outcomes(&mut outcomes)?;
            if !outcomes.is_empty() {
                moves.clear();
                moves.extend(outcomes.iter().map(|&(token, _)| token));
                return Ok(());
            }
        }
        self.legal_moves(moves)
    }

    /// [`GameState::is_legal`] for a plugin without the entry.
    fn is_legal_by_lists(&self, mv: Move) -> Result<bool, PluginError> {
        let mut moves = Vec::new();
        self.moves_or_outcomes(&mut moves)?;
        Ok(moves.contains(&mv))
    }

    /// Read a move text; checks syntax only (see [`GameState::parse_legal_move`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, PluginError> {
        let c_text = CString::new(text)
            .map_err(|_| PluginError::Invalid(format!("move '{text}' contains a NUL byte")))?;
        let mut mv: Move = 0;
        // SAFETY: live state; text NUL-terminated; mv writable.
        let status =
            unsafe { (self.plugin.vtable.parse_move)(self.ptr.as_ptr(), c_text.as_ptr(), &mut mv) };
        if status == abi::STATUS_INVALID {
            return Err(PluginError::Invalid(format!(
                "'{text}' is not a move of {}",
                self.plugin.name()
            )));
        }
        self.plugin.health.status("parse_move", status).map(|()| mv)
    }

    /// Read move texts and keep the legal ones, with the texts that are not
    /// (unknown or illegal), in order: one generation of the legal moves
    /// for them all, however many (`go searchmoves` with every move of an
    /// Amazons position would otherwise generate them once a move).
    pub fn parse_legal_moves(
        &self,
        texts: &[String],
    ) -> Result<(Vec<Move>, Vec<String>), PluginError> {
        let mut legal = Vec::new();
        self.moves_or_outcomes(&mut legal)?;
        let legal: std::collections::HashSet<Move> = legal.into_iter().collect();
        let (mut moves, mut rejected) = (Vec::new(), Vec::new());
        for text in texts {
            match self.parse_move(text) {
                Ok(mv) if legal.contains(&mv) => moves.push(mv),
                Ok(_) | Err(PluginError::Invalid(_)) => rejected.push(text.clone()),
                Err(e) => return Err(e),
            }
        }
        Ok((moves, rejected))
    }

    /// Where the move text `text` of coordinates (`b1c3`) is not legal
    /// here but is with every rank one lower, or one higher: the ranks
    /// convention it was most likely written in (`1-10` or `0-9`, xiangqi's
    /// two: Fairy-Stockfish writes `1-10`, Pikafish `0-9`), and which way
    /// its ranks were off (`one lower`, `one higher`). Only for a game
    /// with a `MoveRanks` option, the setting the answer names.
    pub fn ranks_it_reads_in(&self, text: &str) -> Option<(&'static str, &'static str)> {
        let has_move_ranks = self
            .plugin
            .info()
            .options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case("MoveRanks"));
        if !has_move_ranks {
            return None;
        }
        [(-1, "1-10", "one lower"), (1, "0-9", "one higher")]
            .into_iter()
            .find_map(|(shift, ranks, way)| {
                shift_ranks(text, shift)
                    .is_some_and(|moved| self.parse_legal_move(&moved).is_ok())
                    .then_some((ranks, way))
            })
    }

    /// Read a move text and check that it is legal here (a chance node's
    /// outcomes count as its moves). A move that reads but is not legal
    /// is refused with the legal moves' count and the first few of them,
    /// so that a notation other than the plugin's shows at once (xiangqi
    /// ranks counted from 1 against `MoveRanks 0-9`, say).
    pub fn parse_legal_move(&self, text: &str) -> Result<Move, PluginError> {
        let mv = match self.parse_move(text) {
            Ok(mv) => mv,
            // Not even a move of the game: what would have been legal here
            // shows the notation (`'r7' is not a move of einstein (6 legal
            // here: r1, ...)`).
            Err(PluginError::Invalid(what)) => {
                return Err(PluginError::Invalid(format!("{what}{}", self.legal_hint())))
            }
            Err(e) => return Err(e),
        };
        if self.is_legal(mv)? {
            return Ok(mv);
        }
        // The plugin's own is_legal against its own list: a move refused
        // here that gen_moves lists is the plugin's fault, not the GUI's.
        let mut listed = Vec::new();
        if self.plugin.has_is_legal()
            && self.moves_or_outcomes(&mut listed).is_ok()
            && listed.contains(&mv)
        {
            return Err(PluginError::Invalid(format!(
                "move '{text}' refused by plugin {}'s is_legal, though its gen_moves lists it: \
                 the two disagree (plyd check --game {} compares them)",
                self.plugin.name(),
                self.plugin.name()
            )));
        }
        // The rule it breaks, where the plugin names one (one that fails
        // here is disabled, as anywhere; the move is refused all the same).
        let why = match self.illegal_reason(mv) {
            Ok(Some(why)) => format!(": {why}"),
            _ => String::new(),
        };
        Err(PluginError::Invalid(format!(
            "illegal move '{text}'{why}{}",
            self.legal_hint()
        )))
    }

    /// The legal moves' count and the first few of them, for an error on a
    /// move: ` (44 legal here: a1a2, ...)`, ` (no move is legal here)`, or
    /// nothing where they cannot be listed.
    fn legal_hint(&self) -> String {
        let mut moves = Vec::new();
        match self.moves_or_outcomes(&mut moves) {
            Ok(()) if moves.is_empty() => match self.outcome() {
                // A move (or a roll) sent after the end: the end said.
                Ok(outcome) if outcome != Outcome::Ongoing => {
                    let reason = self.outcome_reason().ok().flatten();
                    let reason = reason.map_or(String::new(), |r| format!(": {r}"));
                    format!(" (the game is over{reason}; no move is legal)")
                }
                _ => " (no move is legal here)".to_string(),
            },
            Ok(()) => {
                let shown: Vec<String> = moves
                    .iter()
                    .take(LEGAL_MOVES_SHOWN)
                    .filter_map(|&m| self.format_move(m).ok())
                    .collect();
                let more = if moves.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                };
                format!(" ({} legal here: {}{more})", moves.len(), shown.join(", "))
            }
            Err(_) => String::new(),
        }
    }

    /// Canonical spelling of `mv`: one word (a move spelled empty, or
    /// with a space or a line break in it, would become another answer
    /// on the protocol's line, `bestmove d e`: garbage).
    pub fn format_move(&self, mv: Move) -> Result<String, PluginError> {
        let (vt, ptr) = (&self.plugin.vtable, self.ptr.as_ptr());
        // SAFETY: live state; the closure passes a buffer and its length.
        let text = self
            .plugin
            .health
            .read_text("format_move", |buf, cap| unsafe {
                (vt.format_move)(ptr, mv, buf, cap)
            })?;
        if !crate::health::is_one_word(&text) {
            return Err(self
                .plugin
                .health
                .garbage("format_move", format!("move text {text:?} is not one word")));
        }
        Ok(text)
    }

    /// Perft computed inside the plugin.
    pub fn native_perft(&mut self, depth: u32) -> Result<u64, PluginError> {
        let perft = self
            .plugin
            .vtable
            .perft
            .ok_or_else(|| PluginError::Unsupported {
                plugin: self.plugin.name().to_string(),
                entry: "perft",
            })?;
        let mut nodes = 0u64;
        // SAFETY: live state, exclusively borrowed; nodes writable.
        let status = unsafe { perft(self.ptr.as_ptr(), depth, &mut nodes) };
        self.plugin.health.status("perft", status).map(|()| nodes)
    }

    pub(crate) fn raw(&self) -> *const State {
        self.ptr.as_ptr()
    }

    /// The plugin's pointer, for an entry that may change the state.
    pub(crate) fn raw_mut(&mut self) -> *mut State {
        self.ptr.as_ptr()
    }
}

impl Drop for GameState {
    fn drop(&mut self) {
        // SAFETY: the state came from this plugin's state_new/state_clone and
        // is freed exactly once.
        unsafe { (self.plugin.vtable.state_free)(self.ptr.as_ptr()) }
    }
}

/// Weights that are all zero count every outcome alike (the ABI's rule):
/// made ones here, once, for every reader of them (the search's averages,
/// the Monte-Carlo search's and the arena's draws).
#[inline]
fn alike_if_all_zero(outcomes: &mut [(Move, u32)]) {
    if outcomes.iter().all(|&(_, weight)| weight == 0) {
        for (_, weight) in outcomes.iter_mut() {
            *weight = 1;
        }
    }
}

/// `text` (letters and rank numbers, `b1c3`, `h10h9`) with every rank
/// moved by `shift`; `None` where it is not two such squares or a rank
/// would fall below 0.
fn shift_ranks(text: &str, shift: i32) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    let mut squares = 0;
    while !rest.is_empty() {
        let file = rest.chars().next().filter(char::is_ascii_lowercase)?;
        rest = &rest[1..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let rank: i32 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        out.push(file);
        out += &u32::try_from(rank + shift).ok()?.to_string();
        squares += 1;
    }
    (squares == 2).then_some(out)
}

#[cfg(test)]
mod shift_tests {
    use super::shift_ranks;

    #[test]
    fn ranks_are_shifted_square_by_square() {
        assert_eq!(shift_ranks("b1c3", -1).as_deref(), Some("b0c2"));
        assert_eq!(shift_ranks("h9h10", 1).as_deref(), Some("h10h11"));
        assert_eq!(shift_ranks("h10h9", -1).as_deref(), Some("h9h8"));
        assert_eq!(shift_ranks("a0a1", -1), None);
        assert_eq!(shift_ranks("f5", 1), None);
        assert_eq!(shift_ranks("d1d7g7", 1), None);
        assert_eq!(shift_ranks("0000", 1), None);
    }
}
