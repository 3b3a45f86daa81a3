//! Evaluators: the ones built into a game plugin and the ones loaded from a
//! library of their own (`libplyd_eval_<name>.so`), behind one handle.
//!
//! An evaluator reads the game's state memory directly, so handing it a
//! state of another game, or of another layout of the same game, would be
//! undefined behaviour. Two checks stand in the way: a stand-alone
//! evaluator is accepted for a game only when its declared game name and
//! state layout equal the game plugin's, and every [`Evaluator`] is bound to
//! one game plugin and refuses states from any other.
//!
//! A failing built-in evaluator disables its game plugin, since both live in
//! one library. A failing stand-alone evaluator disables only itself; the
//! daemon then goes back to the game's own evaluator.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Arc;

use plyd_api::abi::{self, EvalContext};
use plyd_api::Move;

use crate::calls::{self, Call};
use crate::error::PluginError;
use crate::game::{GamePlugin, GameState};
use crate::health::{buffer_reason, Health};
use crate::info::{EvaluatorInfo, StackEntries};

/// What a score output holds before the call: no evaluator writes it
/// (the ABI keeps `INT32_MIN` out of scores), so finding it after a call
/// that returned `STATUS_OK` means the evaluator wrote no score.
const NO_SCORE: i32 = i32::MIN;

/// `score` as an evaluator's entry `entry` left it, or the evaluator
/// disabled if it wrote none.
#[inline]
fn written(health: &Health, entry: &'static str, score: i32) -> Result<i32, PluginError> {
    if score == NO_SCORE {
        Err(health.garbage(
            entry,
            "returned STATUS_OK without writing a score (or wrote INT32_MIN, the value \
             that means none: scores stay within the evaluator's score_bound)"
                .to_string(),
        ))
    } else {
        Ok(score)
    }
}

// Kept here rather than beside the type in `info`, so that `info` needs
// nothing from the rest of the host.
impl EvaluatorInfo {
    /// Whether it reads the states of `game`: same name, same layout.
    pub fn fits(&self, game: &GamePlugin) -> bool {
        self.game == game.name() && self.state_layout == game.info().state_layout
    }
}

/// An evaluator plugin: a library of its own holding one evaluator.
pub struct ExternalEvaluator {
    info: EvaluatorInfo,
    path: PathBuf,
    health: Health,
    // Declared last so that it is dropped last, after everything that may
    // point into the library.
    _library: crate::library::SharedLibrary,
}

impl ExternalEvaluator {
    pub(crate) fn new(
        library: crate::library::SharedLibrary,
        info: EvaluatorInfo,
        path: PathBuf,
    ) -> Self {
        ExternalEvaluator {
            health: Health::new(
                format!("evaluator '{}'", info.name),
                "choose another Evaluator, or load it again with EvalFile",
            ),
            info,
            path,
            _library: library,
        }
    }

    /// What it says about itself.
    pub fn info(&self) -> &EvaluatorInfo {
        &self.info
    }

    /// The library file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether an earlier failure disabled it.
    pub fn is_disabled(&self) -> bool {
        self.health.is_disabled()
    }
}

/// Where an evaluator comes from.
#[derive(Clone)]
pub enum EvaluatorSource {
    /// Entry `index` of a game plugin's built-in evaluators.
    BuiltIn {
        /// The game plugin.
        game: Arc<GamePlugin>,
        /// Index into its evaluators.
        index: usize,
    },
    /// A stand-alone evaluator plugin.
    External(Arc<ExternalEvaluator>),
}

impl EvaluatorSource {
    /// What the evaluator says about itself.
    pub fn info(&self) -> &EvaluatorInfo {
        match self {
            EvaluatorSource::BuiltIn { game, index } => &game.evaluators()[*index],
            EvaluatorSource::External(external) => external.info(),
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.info().name
    }

    /// Where it comes from, for messages: `built into othello` or the file.
    pub fn origin(&self) -> String {
        match self {
            EvaluatorSource::BuiltIn { game, .. } => format!("built into {}", game.name()),
            EvaluatorSource::External(external) => external.path().display().to_string(),
        }
    }

    /// Whether the library it lives in is disabled.
    pub fn is_disabled(&self) -> bool {
        self.health().is_disabled()
    }

    /// Whether it is a stand-alone plugin.
    pub fn is_external(&self) -> bool {
        matches!(self, EvaluatorSource::External(_))
    }

    /// Disable the library it lives in because one of its calls never
    /// returned (see [`GamePlugin::disable_unresponsive`]).
    pub fn disable_unresponsive(&self) {
        self.health().unresponsive();
    }

    fn health(&self) -> &Health {
        match self {
            EvaluatorSource::BuiltIn { game, .. } => &game.health,
            EvaluatorSource::External(external) => &external.health,
        }
    }
}

/// An evaluator with its parameters, bound to one game plugin: a context
/// created by the evaluator's library and shared read-only by every search
/// thread.
pub struct Evaluator {
    source: EvaluatorSource,
    game: Arc<GamePlugin>,
    ctx: NonNull<EvalContext>,
    /// A score past the bound was said on stderr (once an evaluator: a
    /// search clamps it, and nothing else told of it).
    said_past_bound: std::sync::atomic::AtomicBool,
}

// SAFETY: the ABI makes an evaluator context immutable once created and lets
// `evaluate` run on one context from many threads at once.
unsafe impl Send for Evaluator {}
// SAFETY: as above.
unsafe impl Sync for Evaluator {}

impl Evaluator {
    /// Create the evaluator `source` for the states of `game`, with TOML
    /// `params` (the evaluator's defaults if `None`). Refused unless the
    /// evaluator reads this game's state layout.
    pub fn new(
        game: &Arc<GamePlugin>,
        source: EvaluatorSource,
        params: Option<&str>,
    ) -> Result<Self, PluginError> {
        let info = source.info();
        let same_library = match &source {
            EvaluatorSource::BuiltIn { game: owner, .. } => Arc::ptr_eq(owner, game),
            EvaluatorSource::External(_) => true,
        };
        if !same_library || !info.fits(game) {
            return Err(PluginError::Invalid(format!(
                "evaluator '{}' ({}) reads {} state layout {}, but the game is {} with state layout {}",
                info.name,
                source.origin(),
                info.game,
                info.state_layout,
                game.name(),
                game.info().state_layout
            )));
        }
        game.health.check_enabled()?;
        source.health().check_enabled()?;
        let params = params
            .map(CString::new)
            .transpose()
            .map_err(|_| PluginError::Invalid("parameters contain a NUL byte".into()))?;
        let mut err = vec![0u8; 1024];
        // SAFETY: validated entry point; params null or NUL-terminated; err valid.
        let ctx = unsafe {
            (info.vtable.create)(
                params.as_ref().map_or(std::ptr::null(), |p| p.as_ptr()),
                err.as_mut_ptr().cast(),
                err.len(),
            )
        };
        match NonNull::new(ctx) {
            Some(ctx) => Ok(Evaluator {
                game: Arc::clone(game),
                source,
                ctx,
                said_past_bound: std::sync::atomic::AtomicBool::new(false),
            }),
            None => Err(PluginError::Params {
                evaluator: info.name.clone(),
                reason: buffer_reason(&err).unwrap_or_else(|| {
                    "could not be created (the plugin gave no reason)".to_string()
                }),
            }),
        }
    }

    /// Where it comes from.
    pub fn source(&self) -> &EvaluatorSource {
        &self.source
    }

    /// The evaluator's description.
    pub fn info(&self) -> &EvaluatorInfo {
        self.source.info()
    }

    /// The evaluator's name.
    pub fn name(&self) -> &str {
        &self.info().name
    }

    /// Whether its library has been disabled by a failure.
    pub fn is_disabled(&self) -> bool {
        self.source.is_disabled()
    }

    /// Refuse a state of another game plugin: the evaluator would read
    /// memory of a layout it does not know.
    #[inline]
    fn check_state(&self, state: &GameState) -> Result<(), PluginError> {
        if Arc::ptr_eq(state.plugin(), &self.game) {
            Ok(())
        } else {
            Err(PluginError::Invalid(format!(
                "evaluator '{}' reads {} states, not {} states",
                self.name(),
                self.game.name(),
                state.plugin().name()
            )))
        }
    }

    /// Score of `state` for its side to move, within the evaluator's bound.
    #[inline]
    pub fn evaluate(&self, state: &GameState) -> Result<i32, PluginError> {
        let score = self.evaluate_unclamped(state)?;
        Ok(self.within_bound("evaluate", score))
    }

    /// `score`, given by `entry`, clamped to the evaluator's bound; one
    /// past it is said once on stderr.
    #[inline]
    fn within_bound(&self, entry: &str, score: i32) -> i32 {
        let bound = self.info().score_bound;
        if score > bound || score < -bound {
            self.past_bound(entry, score, bound);
        }
        score.clamp(-bound, bound)
    }

    /// Say, once, that the evaluator scored past its bound.
    #[cold]
    fn past_bound(&self, entry: &str, score: i32, bound: i32) {
        use std::sync::atomic::Ordering;
        if !self.said_past_bound.swap(true, Ordering::Relaxed) {
            log::warn!(
                "evaluator '{}' ({}): {entry} scored {score}, past its score_bound {bound}: \
                 the search takes it as {}; said once (plyd check --evaluator counts them)",
                self.name(),
                self.source.origin(),
                score.clamp(-bound, bound)
            );
        }
    }

    /// The evaluator's score as it gave it, not yet clamped to its
    /// `score_bound` (for `eval`, which warns of a score past it).
    pub fn evaluate_unclamped(&self, state: &GameState) -> Result<i32, PluginError> {
        self.check_state(state)?;
        // One relaxed load: a library that failed is not called again.
        self.source.health().check_enabled()?;
        let info = self.info();
        calls::count(Call::Evaluate);
        let mut score = NO_SCORE;
        // SAFETY: live context; the state belongs to the game plugin whose
        // name and layout the evaluator was checked against; score writable.
        let status = unsafe { (info.vtable.evaluate)(self.ctx.as_ptr(), state.raw(), &mut score) };
        if status != abi::STATUS_OK {
            return self.source.health().status("evaluate", status).map(|()| 0);
        }
        written(self.source.health(), "evaluate", score)
    }

    /// Each term of the evaluation, as text lines.
    pub fn explain(&self, state: &GameState) -> Result<String, PluginError> {
        self.check_state(state)?;
        let info = self.info();
        let health = self.source.health();
        health.check_enabled()?;
        let explain = info
            .vtable
            .explain
            .ok_or_else(|| PluginError::Unsupported {
                plugin: health.label().to_string(),
                entry: "explain",
            })?;
        let ctx = self.ctx.as_ptr();
        let raw = state.raw();
        // SAFETY: live context and a state of the evaluator's game; the
        // closure passes a buffer and its length.
        health.read_text("explain", |buf, cap| unsafe { explain(ctx, raw, buf, cap) })
    }
}

impl Evaluator {
    /// Whether the evaluator has a `new_game` entry.
    pub fn has_new_game(&self) -> bool {
        self.info().vtable.new_game.is_some()
    }

    /// Tell the evaluator a new game begins (its `new_game`, where it has
    /// one): it forgets what earlier searches left that could change a
    /// later result. Between searches only.
    pub fn new_game(&self) -> Result<(), PluginError> {
        let Some(new_game) = self.info().vtable.new_game else {
            return Ok(());
        };
        let health = self.source.health();
        health.check_enabled()?;
        // SAFETY: a live context; no search is using it.
        let status = unsafe { new_game(self.ctx.as_ptr()) };
        // STATUS_UNSUPPORTED: nothing kept to forget.
        if status == abi::STATUS_OK || status == abi::STATUS_UNSUPPORTED {
            Ok(())
        } else {
            health.status("new_game", status)
        }
    }

    /// The most plies [`Evaluator::shallow_search`] takes; 0 when the
    /// evaluator has no `shallow_search`.
    pub fn shallow_plies(&self) -> u32 {
        self.info().vtable.shallow.map_or(0, |(_, plies)| plies)
    }

    /// The last `depth` plies (1 to [`Evaluator::shallow_plies`]) of a
    /// search from `state`, whose game is not over, searched inside the
    /// plugin in the window `(alpha, beta)`; `win` is the score of a game
    /// won at `state`. The score for the side to move and the positions
    /// visited below `state`, or `None` when the plugin leaves the node to
    /// the caller.
    pub fn shallow_search(
        &self,
        state: &mut GameState,
        depth: u32,
        alpha: i32,
        beta: i32,
        win: i32,
    ) -> Result<Option<(i32, u64)>, PluginError> {
        self.check_state(state)?;
        let Some((entry, plies)) = self.info().vtable.shallow else {
            return Ok(None);
        };
        if depth == 0 || depth > plies || alpha >= beta {
            return Ok(None);
        }
        let health = self.source.health();
        health.check_enabled()?;
        calls::count(Call::ShallowSearch);
        let (mut score, mut nodes) = (NO_SCORE, 0);
        // SAFETY: live context; a state of the evaluator's game, borrowed
        // mutably for the call alone; the outputs are writable.
        let status = unsafe {
            entry(
                self.ctx.as_ptr(),
                state.raw_mut(),
                depth,
                alpha,
                beta,
                win,
                &mut score,
                &mut nodes,
            )
        };
        match status {
            abi::STATUS_OK => Ok(Some((written(health, "shallow_search", score)?, nodes))),
            abi::STATUS_UNSUPPORTED => Ok(None),
            _ => health.status("shallow_search", status).map(|()| None),
        }
    }

    /// Whether the evaluator keeps incremental stacks
    /// ([`Evaluator::new_stack`]).
    pub fn is_incremental(&self) -> bool {
        self.info().vtable.stack.is_some()
    }

    /// A new incremental stack for one search thread, or `None` when the
    /// evaluator has none (the caller then uses [`Evaluator::evaluate`]).
    pub fn new_stack(&self) -> Result<Option<EvalStack<'_>>, PluginError> {
        let Some(entries) = self.info().vtable.stack else {
            return Ok(None);
        };
        self.source.health().check_enabled()?;
        // SAFETY: live context; the stack borrows the evaluator, which so
        // outlives it (and keeps the context and the library alive).
        let ptr = unsafe { (entries.new)(self.ctx.as_ptr()) };
        match NonNull::new(ptr) {
            Some(ptr) => Ok(Some(EvalStack {
                evaluator: self,
                entries,
                ptr,
            })),
            None => Err(self.source.health().garbage(
                "stack_new",
                "returned null (no stack could be made)".to_string(),
            )),
        }
    }
}

/// One search thread's incremental evaluation state: reset to the root,
/// pushed after every move made, popped after every move taken back; it
/// scores the position on top exactly as [`Evaluator::evaluate`] does.
pub struct EvalStack<'e> {
    evaluator: &'e Evaluator,
    entries: StackEntries,
    ptr: NonNull<abi::EvalStack>,
}

// SAFETY: a stack is used by one thread at a time (`&mut self` for every
// call), which is all the ABI asks.
unsafe impl Send for EvalStack<'_> {}

impl EvalStack<'_> {
    /// Hold `state` as the only position.
    pub fn reset(&mut self, state: &GameState) -> Result<(), PluginError> {
        self.evaluator.check_state(state)?;
        let health = self.evaluator.source.health();
        health.check_enabled()?;
        calls::count(Call::StackReset);
        // SAFETY: live stack used by this thread only; a state of the
        // evaluator's game.
        let status = unsafe { (self.entries.reset)(self.ptr.as_ptr(), state.raw()) };
        health.status("stack_reset", status)
    }

    /// `state` was reached by `mv` from the position on top.
    #[inline]
    pub fn push(&mut self, state: &GameState, mv: Move) -> Result<(), PluginError> {
        self.evaluator.check_state(state)?;
        calls::count(Call::StackPush);
        // SAFETY: as in `reset`.
        let status = unsafe { (self.entries.push)(self.ptr.as_ptr(), state.raw(), mv) };
        if status == abi::STATUS_OK {
            return Ok(());
        }
        self.failed("stack_push", status)
    }

    /// Take back the last push.
    #[inline]
    pub fn pop(&mut self) -> Result<(), PluginError> {
        calls::count(Call::StackPop);
        // SAFETY: as in `reset`.
        let status = unsafe { (self.entries.pop)(self.ptr.as_ptr()) };
        if status == abi::STATUS_OK {
            return Ok(());
        }
        self.failed("stack_pop", status)
    }

    /// The score of `state`, the position on top, clamped to the bound.
    #[inline]
    pub fn evaluate(&mut self, state: &GameState) -> Result<i32, PluginError> {
        match self.evaluate_own(state)? {
            Some(score) => Ok(score),
            // Left to the evaluator's own `evaluate`, as the ABI allows.
            None => self.evaluator.evaluate(state),
        }
    }

    /// [`EvalStack::evaluate`] as the stack answers it: `None` where it
    /// leaves the position to `evaluate` (`STATUS_UNSUPPORTED`).
    #[inline]
    pub fn evaluate_own(&mut self, state: &GameState) -> Result<Option<i32>, PluginError> {
        self.evaluator.check_state(state)?;
        let health = self.evaluator.source.health();
        health.check_enabled()?;
        calls::count(Call::StackEvaluate);
        let mut score = NO_SCORE;
        // SAFETY: as in `reset`; score writable.
        let status = unsafe { (self.entries.evaluate)(self.ptr.as_ptr(), state.raw(), &mut score) };
        if status == abi::STATUS_UNSUPPORTED {
            return Ok(None);
        }
        if status != abi::STATUS_OK {
            return health.status("stack_evaluate", status).map(|()| None);
        }
        let score = written(health, "stack_evaluate", score)?;
        Ok(Some(self.evaluator.within_bound("stack_evaluate", score)))
    }

    /// The error of a push or pop that did not answer `STATUS_OK`: the
    /// stack no longer follows the search, so even `STATUS_UNSUPPORTED`
    /// disables the evaluator.
    #[cold]
    #[inline(never)]
    fn failed(&self, entry: &'static str, status: i32) -> Result<(), PluginError> {
        let health = self.evaluator.source.health();
        if status == abi::STATUS_UNSUPPORTED {
            return Err(health.garbage(
                entry,
                "answered STATUS_UNSUPPORTED, which a stack cannot (only stack_reset and stack_evaluate may)".to_string(),
            ));
        }
        health.status(entry, status)
    }
}

impl Drop for EvalStack<'_> {
    fn drop(&mut self) {
        // SAFETY: the stack came from `stack_new` of this evaluator and is
        // freed once; the evaluator it borrows is still alive.
        unsafe { (self.entries.free)(self.ptr.as_ptr()) }
    }
}

impl Drop for Evaluator {
    fn drop(&mut self) {
        // SAFETY: the context came from this evaluator's `create` and is
        // destroyed exactly once; `source` keeps the library loaded.
        unsafe { (self.info().vtable.destroy)(self.ctx.as_ptr()) }
    }
}
