//! The game-agnostic search: iterative-deepening principal variation search
//! on `Threads` threads sharing one transposition table (Lazy SMP).
//!
//! The search sees an opaque [`GameState`], `u32` moves, a hash, an outcome
//! and an evaluation; it knows nothing of any game. Techniques that are only
//! sound for some games (null move, late-move reductions, futility pruning,
//! quiescence over noisy moves, check extensions) are switched on by the
//! plugin's capability bits, never by the game's name. It never prints: it
//! reports through a callback of [`SearchEvent`]s, which the controller
//! turns into protocol lines.
//!
//! Files, one concern each: [`pool`] the threads of one search (Lazy SMP),
//! [`worker`] one thread's search and the order of a node's steps,
//! [`root`] iterative deepening and the root, [`quiescence`] the
//! quiescence stage, [`picker`] the staged move picker, [`chance`]
//! chance-node values, Star1, Star2 and the search of chance nodes,
//! [`endgame`] the searches handed to the plugin's exact solver,
//! [`tt`] the shared table, [`heuristics`] killers and history,
//! [`timeman`] the clock, [`limits`] the limits and the stop flag,
//! [`score`] score arithmetic, [`report`] `info` lines, [`bench`] the
//! benchmark, [`solve_bench`] the endgame benchmark, [`params`] the
//! search's numbers for tuners.
//!
//! [`mcts`] is the second search, a Monte-Carlo tree search with the
//! evaluation at its leaves (`SearchMode mcts`); [`search_with_trees`]
//! runs either, by [`SearchOptions::mode`], through the same limits, stop
//! flag and events.
//!
//! # What a node costs in plugin calls
//!
//! Every call into a plugin crosses the C ABI, so the search makes each at
//! most once per node (`p` = present in this plugin; `m` = moves searched):
//!
//! | node | calls |
//! |---|---|
//! | any node | `side_to_move` (asked by the parent after its move), `outcome`, `chance_outcomes` (p) |
//! | main search | + `in_check` (p), `hash`; `evaluate` only where null move or futility may prune (at every node with `Improving` or `CorrHistory`); `is_legal` (p) for the table move; `gen_moves` and, from depth 2, `order_hints`, unless the table move cuts off first; `move_keys` (p) once for the list and once per move played before it, with a technique that reads keys; `see_ge` (p) per move with `SEE`; `make_move` + `unmake_move` per move |
//! | horizon (depth 0) | + `in_check` (p) (shared with the step above), `evaluate`, `gen_noisy` (p) and `order_hints` |
//! | quiescence | + `in_check` (p), `evaluate` (stand pat, not in check), `gen_noisy` (all moves in check), `order_hints`, `make_move` + `unmake_move` per move |
//! | chance node | + `hash`, `make_move` + `unmake_move` per outcome searched; `evaluate` alone at depth 0 |
//! | Star2 probe (per outcome, before the search) | `make_move` + `unmake_move` of the outcome, `side_to_move`, `outcome`, `chance_outcomes` (p), `in_check` (p), `hash`; unless the table bounds the node: `is_legal` (p) or `gen_moves` (+ `order_hints` from depth 2), and one move searched |
//! | game over | nothing after `outcome` |

pub mod bench;
mod chance;
mod endgame;
mod heuristics;
mod limits;
pub mod mcts;
pub mod params;
mod picker;
mod pool;
mod quiescence;
mod report;
mod root;
pub mod score;
pub mod solve_bench;
pub mod timeman;
pub mod tt;
mod worker;

use std::time::Duration;

use plyd_api::abi::{CAP_FUTILITY, CAP_NULL_MOVE, CAP_REDUCTIONS, CAP_SELECTIVE};
use plyd_api::Move;
use plyd_protocol::Info;
use plyd_util::rng::SplitMix64;

use crate::host::{Evaluator, GameState, Outcome, PluginError};
use crate::options::names;
pub use limits::{
    clock_leaves_out, limits_from_go, limits_from_go_after, EvaluatingFlag, SearchControl,
    SearchLimits,
};
pub use params::SearchParams;
pub use tt::TranspositionTable;

/// Deepest iteration when nothing else bounds the search.
pub const MAX_DEPTH: u32 = 128;

/// What a search reports while it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchEvent {
    /// An `info` line.
    Info(Info),
    /// The final answer (exactly one per search).
    BestMove {
        /// The move, or `None` when the game is over.
        best: Option<String>,
        /// The expected reply.
        ponder: Option<String>,
    },
}

/// How the search runs, from the engine's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search threads.
    pub threads: usize,
    /// Best lines to report (`MultiPV`).
    pub multipv: usize,
    /// Allow null-move pruning where the game declares it sound.
    pub null_move: bool,
    /// Allow late-move reductions where the game declares them sound.
    pub reductions: bool,
    /// Allow futility pruning where the game declares it sound.
    pub futility: bool,
    /// Pruning at chance nodes (off: every outcome is searched with a
    /// window that cannot cut, for measuring what the pruning saves).
    pub chance_pruning: ChancePruning,
    /// Allow quiescence search where the game lists noisy moves (off: the
    /// evaluation at depth 0, for measuring what quiescence is worth).
    pub quiescence: bool,
    /// Allow check extensions and evasion search where the game reports
    /// checks.
    pub check_extensions: bool,
    /// Skip, below the root, the moves a plugin declaring `CAP_SELECTIVE`
    /// marks with `HINT_SKIP`.
    pub selective: bool,
    /// Hand the search to the game's exact endgame solver where the plugin
    /// has one and its settings or the depth call for it (off: the
    /// evaluation search always, for measuring the two against each other).
    pub endgame_solver: bool,
    /// Use the plugin's static exchange evaluation (`see_ge`), where it
    /// has one: captures ordered by it, losing captures skipped in
    /// quiescence, and moves that lose by it pruned near the leaves.
    pub see: bool,
    /// The techniques learnt from Stockfish, each switched on or off.
    pub techniques: Techniques,
    /// Which search runs: the alpha-beta search or the Monte-Carlo one.
    pub mode: SearchMode,
    /// `Variety`: each root move's score is raised, for choosing, by a
    /// bonus from 0 to this many points drawn from `variety_seed`, so
    /// that the move played is one within this margin of the best; 0
    /// plays the best. The alpha-beta search only, not at a chance root.
    pub variety: u32,
    /// `Skill Level` ([`FULL_SKILL`] plays at full strength): below it the
    /// root's choice gets a margin of its own ([`skill_margin`]), and the
    /// daemon caps the depth ([`skill_depth`]) and leaves the exact
    /// endgame solver and the book out.
    pub skill_level: u32,
    /// The seed of the bonuses (each search draws its own unless the
    /// GUI fixed one).
    pub variety_seed: u64,
    /// The Monte-Carlo search's exploration constant, in thousandths
    /// (`MctsExploration`); seed 003's evaluator keeps its own.
    pub mcts_exploration: u32,
    /// The Monte-Carlo search's widening factor, in thousandths
    /// (`MctsWidening`).
    pub mcts_widening: u32,
    /// The most nodes a Monte-Carlo tree holds, per thread
    /// (`MctsTreeNodes`).
    pub mcts_tree_nodes: usize,
    /// The alpha-beta search's margins, reductions and depths
    /// (`SearchParams`).
    pub params: SearchParams,
}

impl SearchOptions {
    /// These options with every forward pruning and reduction off (null
    /// move, late-move reductions and pruning, futility of every kind,
    /// razoring, ProbCut, singular extensions' multi-cut, internal
    /// iterative reductions, moves skipped by hints or by their exchange,
    /// the evaluator's shallow searches): what the search then misses
    /// below its depth it misses by that depth alone. Alpha-beta, the
    /// table, quiescence, extensions and the pruning at chance nodes,
    /// which are sound, stay.
    pub fn exhaustive(&self) -> Self {
        SearchOptions {
            null_move: false,
            reductions: false,
            futility: false,
            selective: false,
            see: false,
            techniques: Techniques {
                singular: false,
                iir: false,
                probcut: false,
                node_probcut: false,
                razoring: false,
                lmp: false,
                futility_moves: false,
                deep_futility: false,
                history_lmr: false,
                qs_futility: false,
                shallow_search: false,
                // As if chosen by name: a game's preference (singular
                // extensions for xiangqi) does not turn one on again.
                chosen: (1 << Techniques::SWITCHES.len()) - 1,
                ..self.techniques
            },
            ..*self
        }
    }
}

/// The search techniques taken from Stockfish, each behind an engine
/// option so that each can be switched off and measured (docs/search.md
/// says what each does and what each measured, game by game). A pruning
/// technique applies only where the plugin declares futility pruning
/// sound (`CAP_FUTILITY`), one that weighs captures only where it answers
/// `see_ge`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Techniques {
    /// Continuation history (one, two and four plies back), with
    /// Stockfish's steeper history bonus (`ContHistory`).
    pub cont_history: bool,
    /// Capture history ordering the noisy moves (`CaptureHistory`).
    pub capture_history: bool,
    /// Countermoves ordered after the killers (`CounterMoves`).
    pub counter_moves: bool,
    /// Late-move reductions adjusted by the move's history (`HistoryLMR`).
    pub history_lmr: bool,
    /// Singular extensions, with multi-cut and bounded double extensions
    /// (`Singular`).
    pub singular: bool,
    /// Internal iterative reductions (`IIR`).
    pub iir: bool,
    /// ProbCut over the noisy moves (`ProbCut`).
    pub probcut: bool,
    /// ProbCut of the whole node, Othello programs' kind: a search of the
    /// node a few plies shallower whose score clears beta, or falls below
    /// alpha, by a margin cuts the node (`NodeProbCut`).
    pub node_probcut: bool,
    /// Razoring (`Razoring`).
    pub razoring: bool,
    /// The "improving" flag in reverse futility, late-move pruning and
    /// reductions (`Improving`), where the plugin declares futility.
    pub improving: bool,
    /// Late-move pruning of quiet moves (`LMP`).
    pub lmp: bool,
    /// Futility pruning of quiet moves: one whose static evaluation plus a
    /// margin for its reduced depth stays below alpha is skipped
    /// (`FutilityMoves`).
    pub futility_moves: bool,
    /// Reverse futility to depth 7 with 1.5 pawns of margin per ply,
    /// instead of to depth 3 with 4 (`DeepFutility`).
    pub deep_futility: bool,
    /// A quiet move that gives check is searched even where late-move or
    /// futility pruning would skip it (`SpareChecks`), where the plugin
    /// reports checks.
    pub spare_checks: bool,
    /// Correction history of the static evaluation (`CorrHistory`).
    pub correction: bool,
    /// Every move searched in quiescence when in check, instead of
    /// standing pat over the noisy moves (`QsEvasions`).
    pub qs_evasions: bool,
    /// Futility in quiescence: out of check, a capture whose exchange
    /// cannot lift the static evaluation plus a margin above alpha is
    /// skipped (`QsFutility`), where the plugin answers `see_ge`.
    pub qs_futility: bool,
    /// The last plies of the search at non-PV nodes handed to the
    /// evaluator's `shallow_search`, where it has one (`ShallowSearch`):
    /// Edax's shallow searches without the host's per-node work.
    pub shallow_search: bool,
    /// The switches set by name ([`Techniques::set`]), one bit per entry
    /// of [`Techniques::SWITCHES`]: a game's preference
    /// ([`Techniques::for_game`]) does not override them.
    pub chosen: u32,
}

/// The defaults: the techniques that gained, or were neutral, in every
/// game they apply to in the matches measured (docs/search.md): internal
/// iterative reductions, continuation history, the evasions in
/// quiescence (which the search had before the others), and, where the
/// plugin declares futility, the improving flag, late-move and futility
/// pruning with checks spared, deeper reverse futility and the
/// correction history. Each of the others is one `setoption` away.
impl Default for Techniques {
    fn default() -> Self {
        Techniques {
            cont_history: true,
            iir: true,
            improving: true,
            lmp: true,
            futility_moves: true,
            deep_futility: true,
            spare_checks: true,
            correction: true,
            qs_evasions: true,
            shallow_search: true,
            ..Techniques::none()
        }
    }
}

/// The switch of one technique in [`Techniques`].
pub type Switch = fn(&mut Techniques) -> &mut bool;

impl Techniques {
    /// Each technique's option name, and its switch.
    pub const SWITCHES: [(&'static str, Switch); 18] = [
        (names::CONT_HISTORY, |t| &mut t.cont_history),
        (names::CAPTURE_HISTORY, |t| &mut t.capture_history),
        (names::COUNTER_MOVES, |t| &mut t.counter_moves),
        (names::HISTORY_LMR, |t| &mut t.history_lmr),
        (names::SINGULAR, |t| &mut t.singular),
        (names::IIR, |t| &mut t.iir),
        (names::PROBCUT, |t| &mut t.probcut),
        (names::NODE_PROBCUT, |t| &mut t.node_probcut),
        (names::RAZORING, |t| &mut t.razoring),
        (names::IMPROVING, |t| &mut t.improving),
        (names::LMP, |t| &mut t.lmp),
        (names::FUTILITY_MOVES, |t| &mut t.futility_moves),
        (names::DEEP_FUTILITY, |t| &mut t.deep_futility),
        (names::SPARE_CHECKS, |t| &mut t.spare_checks),
        (names::CORR_HISTORY, |t| &mut t.correction),
        (names::QS_EVASIONS, |t| &mut t.qs_evasions),
        (names::QS_FUTILITY, |t| &mut t.qs_futility),
        (names::SHALLOW_SEARCH, |t| &mut t.shallow_search),
    ];

    /// Switch the technique of option `name` (any case) on or off, for
    /// every game whatever its plugin prefers; `false` if no technique has
    /// that name.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        match Self::index_of(name) {
            Some(index) => {
                *(Self::SWITCHES[index].1)(self) = on;
                self.chosen |= 1 << index;
                true
            }
            None => false,
        }
    }

    /// Whether a technique in force reads the plugin's move keys (the
    /// histories kept by key, and late-move pruning, which must tell quiet
    /// moves from noisy ones).
    pub fn needs_keys(&self) -> bool {
        self.cont_history
            || self.capture_history
            || self.counter_moves
            || self.history_lmr
            || self.lmp
            || self.futility_moves
    }

    /// Every technique off: the search as it was before them.
    pub fn none() -> Self {
        Techniques {
            cont_history: false,
            capture_history: false,
            counter_moves: false,
            history_lmr: false,
            singular: false,
            iir: false,
            probcut: false,
            node_probcut: false,
            razoring: false,
            improving: false,
            lmp: false,
            futility_moves: false,
            deep_futility: false,
            spare_checks: false,
            correction: false,
            qs_evasions: false,
            qs_futility: false,
            shallow_search: false,
            chosen: 0,
        }
    }

    /// The techniques for a game with plugin `capabilities`: those the
    /// plugin prefers on (`CAP_PREFERS_SINGULAR`) switched on, unless set
    /// by name.
    pub fn for_game(mut self, capabilities: u64) -> Self {
        for (bit, name) in GAME_PREFERENCES {
            let index = Self::index_of(name).expect("a preference names a switch");
            if self.chosen & (1 << index) == 0 && capabilities & bit != 0 {
                *(Self::SWITCHES[index].1)(&mut self) = true;
            }
        }
        self
    }

    /// Whether the technique of option `name` (any case) is on.
    pub fn get(&self, name: &str) -> Option<bool> {
        let mut copy = *self;
        Self::index_of(name).map(|index| *(Self::SWITCHES[index].1)(&mut copy))
    }

    /// The place in [`Techniques::SWITCHES`] of the technique of option
    /// `name` (any case).
    fn index_of(name: &str) -> Option<usize> {
        Self::SWITCHES
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
    }
}

/// The techniques a plugin may ask to be on by default for its game: the
/// capability bit and the technique's option name.
const GAME_PREFERENCES: [(u64, &str); 2] = [
    (plyd_api::abi::CAP_PREFERS_SINGULAR, names::SINGULAR),
    (plyd_api::abi::CAP_PREFERS_NODE_PROBCUT, names::NODE_PROBCUT),
];

/// The two searches (`SearchMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchMode {
    /// Iterative-deepening principal variation search (alpha-beta).
    #[default]
    Pvs,
    /// Monte-Carlo tree search with the evaluation at the leaves (see
    /// [`mcts`]).
    Mcts,
}

impl SearchMode {
    /// The option's values, as `setoption` spells them.
    pub const NAMES: [&'static str; 2] = ["pvs", "mcts"];

    /// The option's spelling of this value.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The value `name` spells (any case), if any.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Pvs, Self::Mcts]
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The search a game's plugin recommends: MCTS where it declares
    /// `CAP_PREFERS_MCTS`, the PVS otherwise.
    pub fn recommended(capabilities: u64) -> Self {
        if capabilities & plyd_api::abi::CAP_PREFERS_MCTS != 0 {
            SearchMode::Mcts
        } else {
            SearchMode::Pvs
        }
    }
}

/// How chance nodes prune (see [`chance`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChancePruning {
    /// Every outcome searched with an infinite window: plain expectimax.
    Off,
    /// Star1: each outcome's window narrowed by the others' bounds.
    Star1,
    /// Star2: Star1 after a probe of every outcome's first move.
    #[default]
    Star2,
}

impl ChancePruning {
    /// The option's values, as `setoption` spells them.
    pub const NAMES: [&'static str; 3] = ["Off", "Star1", "Star2"];

    /// The option's spelling of this value.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The value `name` spells (any case), if any.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Off, Self::Star1, Self::Star2]
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
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
            mode: SearchMode::default(),
            variety: 0,
            skill_level: FULL_SKILL,
            variety_seed: 0,
            mcts_exploration: mcts::DEFAULT_EXPLORATION_PERMILLE,
            mcts_widening: mcts::DEFAULT_WIDENING_PERMILLE,
            mcts_tree_nodes: mcts::MAX_TREE_NODES,
            params: SearchParams::default(),
        }
    }
}

/// The techniques in force for one search: the options intersected with
/// what the plugin declares.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Features {
    pub null_move: bool,
    pub reductions: bool,
    pub futility: bool,
    /// Quiescence over `gen_noisy`.
    pub noisy: bool,
    /// Check extensions and evasions in quiescence.
    pub check: bool,
    /// Chance nodes (`chance_outcomes`).
    pub chance: bool,
    /// Pruning at chance nodes.
    pub chance_pruning: ChancePruning,
    /// The table move is checked with `is_legal` before generation.
    pub is_legal: bool,
    /// Moves hinted `HINT_SKIP` are not searched below the root.
    pub selective: bool,
    /// Static exchange evaluation (`see_ge`) orders captures and prunes.
    pub see: bool,
    /// The techniques from Stockfish that apply to this game.
    pub techniques: Techniques,
}

impl Features {
    /// The techniques `options` allow and the root's plugin supports: an
    /// optional entry that is present turns its feature on; a capability
    /// bit is needed only where the plugin claims a technique is sound.
    pub(crate) fn of(root: &GameState, options: &SearchOptions) -> Self {
        let plugin = root.plugin();
        let caps = plugin.info().capabilities;
        Features {
            null_move: options.null_move && caps & CAP_NULL_MOVE != 0,
            reductions: options.reductions && caps & CAP_REDUCTIONS != 0,
            futility: options.futility && caps & CAP_FUTILITY != 0,
            noisy: options.quiescence && plugin.has_noisy_moves(),
            check: options.check_extensions && plugin.has_in_check(),
            chance: plugin.has_chance(),
            chance_pruning: options.chance_pruning,
            is_legal: plugin.has_is_legal(),
            selective: options.selective && caps & CAP_SELECTIVE != 0 && plugin.has_order_hints(),
            see: options.see && plugin.has_see(),
            techniques: {
                let t = options.techniques.for_game(caps);
                let futility = caps & CAP_FUTILITY != 0;
                let noisy = options.quiescence && plugin.has_noisy_moves();
                let see = options.see && plugin.has_see();
                Techniques {
                    history_lmr: t.history_lmr && options.reductions,
                    probcut: t.probcut && futility && noisy && see,
                    razoring: t.razoring && futility && noisy,
                    lmp: t.lmp && futility,
                    futility_moves: t.futility_moves && futility && options.futility,
                    deep_futility: t.deep_futility && futility && options.futility,
                    spare_checks: t.spare_checks
                        && options.check_extensions
                        && plugin.has_in_check(),
                    // Whether the evaluation rises is worth asking only
                    // where it prunes (Othello measured it a loss in its
                    // reductions alone).
                    improving: t.improving && futility && options.futility,
                    qs_evasions: t.qs_evasions && options.check_extensions && plugin.has_in_check(),
                    qs_futility: t.qs_futility && noisy && see,
                    // A corrected evaluation serves only where one prunes.
                    correction: t.correction
                        && ((options.futility && futility)
                            || (options.null_move && caps & CAP_NULL_MOVE != 0)),
                    ..t
                }
            },
        }
    }
}

/// The result of a finished search, for callers that want it as data
/// (benchmarks, tests).
#[derive(Debug, Clone, Default)]
pub struct SearchResult {
    /// Best move found, if any legal move exists.
    pub best: Option<Move>,
    /// Its score for the side to move at the root.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited by all threads.
    pub nodes: u64,
}

/// Search `root` within `limits`, reporting through `report`. Exactly one
/// [`SearchEvent::BestMove`] is always reported. If the plugin fails midway,
/// the best move found so far is still given (it was legal at the root),
/// after an `info string error: ...` naming the failure; the error is also
/// returned.
pub fn search(
    root: GameState,
    evaluator: &Evaluator,
    tt: &TranspositionTable,
    limits: &SearchLimits,
    control: &SearchControl,
    options: &SearchOptions,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    let mut trees = mcts::TreeMemory::default();
    search_with_trees(
        root, evaluator, tt, limits, control, options, &mut trees, report,
    )
}

/// [`search`] with the Monte-Carlo trees of earlier searches, which an
/// MCTS search reuses where the new root lies in them and leaves there for
/// the next one (the PVS does not touch them).
#[allow(clippy::too_many_arguments)]
pub fn search_with_trees(
    root: GameState,
    evaluator: &Evaluator,
    tt: &TranspositionTable,
    limits: &SearchLimits,
    control: &SearchControl,
    options: &SearchOptions,
    trees: &mut mcts::TreeMemory,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<SearchResult, PluginError> {
    tt.new_search();
    let mut answer = Answer::default();
    let plan = match options.mode {
        SearchMode::Pvs => endgame::plan(&root, limits, options),
        SearchMode::Mcts => Ok(None),
    };
    let outcome = match plan {
        Ok(None) if options.mode == SearchMode::Mcts => mcts::run(
            root,
            evaluator,
            limits,
            control,
            options,
            trees,
            &mut answer,
            report,
        ),
        Ok(Some(plan)) => endgame::run(
            root,
            plan,
            tt,
            limits,
            control,
            options.threads,
            &mut answer,
            report,
        ),
        Ok(None) => pool::run(
            root,
            evaluator,
            tt,
            limits,
            control,
            options,
            &mut answer,
            report,
        ),
        Err(e) => Err(e),
    };
    if outcome.is_ok() {
        // `go infinite` and `go ponder` never end on their own: hold the
        // answer until the GUI says `stop` (or `ponderhit`, for a finished
        // ponder search).
        while !control.stop_requested() && (limits.infinite || control.pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    report_end(report, outcome.as_ref().err(), answer);
    outcome
}

/// A search's last words: its error line, where it failed, then its
/// `bestmove` (the best found so far, or none).
pub(crate) fn report_end(
    report: &mut dyn FnMut(SearchEvent),
    error: Option<&PluginError>,
    answer: Answer,
) {
    if let Some(e) = error {
        report(SearchEvent::Info(Info {
            string: Some(format!("error: {e}")),
            ..Info::default()
        }));
    }
    report(SearchEvent::BestMove {
        best: answer.best,
        ponder: answer.ponder,
    });
}

/// `Skill Level` at full strength; the levels below it play weaker.
pub const FULL_SKILL: u32 = 20;

/// The deepest iteration at `Skill Level` `level`: one ply more than the
/// level, as Stockfish's levels go; none at full strength.
pub fn skill_depth(level: u32) -> Option<u32> {
    (level < FULL_SKILL).then_some(level + 1)
}

/// `Variety`'s bonus for the move `mv` of the position hashed `key`: 0 to
/// `margin`, drawn from `seed`, the position and the move, so that it is
/// the same wherever it is drawn (every thread of one search, the opening
/// book's choice among its moves).
pub(crate) fn variety_draw(margin: u32, seed: u64, key: u64, mv: Move) -> u32 {
    if margin == 0 {
        return 0;
    }
    let mut draw = SplitMix64::for_item(seed, key, u64::from(mv));
    draw.below(u64::from(margin) + 1) as u32
}

/// The margin of the root's choice at `Skill Level` `level` (as
/// `Variety`'s, in score points), for a game whose pawn is worth `pawn`
/// points: a fifth of a pawn a level below full strength, so level 0
/// plays any move within four pawns of the best, at random.
pub fn skill_margin(level: u32, pawn: i32) -> u32 {
    FULL_SKILL.saturating_sub(level) * pawn.max(1).unsigned_abs() / 5
}

/// The spelled-out answer, kept outside the search so that it survives a
/// plugin failure.
#[derive(Default)]
pub(crate) struct Answer {
    pub best: Option<String>,
    pub ponder: Option<String>,
}

/// The verdict of a finished game at `state`, as the daemon's `d` and
/// the search's `no legal move` line give it (`the side to move has lost
/// (checkmate)`); `None` while the game goes on.
pub(crate) fn verdict(state: &GameState) -> Result<Option<String>, PluginError> {
    Ok(judgement(state)?.map(|(outcome, reason)| verdict_text(outcome, reason.as_deref())))
}

/// A finished game's outcome at `state` and the rule that gave it, where
/// the plugin says; `None` while the game goes on.
pub(crate) fn judgement(
    state: &GameState,
) -> Result<Option<(Outcome, Option<String>)>, PluginError> {
    let outcome = state.outcome()?;
    if outcome == Outcome::Ongoing {
        return Ok(None);
    }
    Ok(Some((outcome, state.outcome_reason()?)))
}

/// `outcome` in words, with the rule `reason` where given (`the side to
/// move has lost (checkmate)`).
pub(crate) fn verdict_text(outcome: Outcome, reason: Option<&str>) -> String {
    let why = reason.map_or_else(String::new, |reason| format!(" ({reason})"));
    format!("{}{why}", outcome_words(outcome))
}

/// `outcome` at `state` in words, with the rule that gave it where the
/// plugin says; the rule is asked only of a finished game.
fn verdict_words(state: &GameState, outcome: Outcome) -> Result<String, PluginError> {
    let reason = if outcome == Outcome::Ongoing {
        None
    } else {
        state.outcome_reason()?
    };
    Ok(verdict_text(outcome, reason.as_deref()))
}

fn outcome_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Ongoing => "the game goes on",
        Outcome::Win => "the side to move has won",
        Outcome::Loss => "the side to move has lost",
        Outcome::Draw => "the game is drawn",
    }
}

/// Narrow the root's legal moves to `go searchmoves` when it names any.
/// When no move is left, says why in an `info string` and returns false:
/// the search then answers with no move. A root the game's rules have
/// judged (a repetition) whose moves the plugin still lists is searched,
/// and the verdict told: the arbiter applies such rules, and its may
/// differ.
pub(crate) fn playable_root_moves(
    root: &GameState,
    root_moves: &mut Vec<Move>,
    limits: &SearchLimits,
    outcome: Outcome,
    report: &mut dyn FnMut(SearchEvent),
) -> Result<bool, PluginError> {
    check_root_list(root, root_moves)?;
    if !limits.search_moves.is_empty() {
        root_moves.retain(|m| limits.search_moves.contains(m));
    }
    let words = verdict_words(root, outcome)?;
    let string = if root_moves.is_empty() {
        Some(format!("no legal move: {words}"))
    } else if outcome != Outcome::Ongoing {
        Some(format!(
            "plyd's rules judge this position: {words}; a move is played all the same, \
             for the arbiter to rule"
        ))
    } else {
        None
    };
    if let Some(string) = string {
        report(SearchEvent::Info(Info {
            string: Some(string),
            ..Info::default()
        }));
    }
    Ok(!root_moves.is_empty())
}

/// Refuse a root list that holds the reserved null move ([`GameState::
/// listed_null_move`]): checked once a search, at the root, where a move
/// is chosen to be played.
pub(crate) fn check_root_list(root: &GameState, moves: &[Move]) -> Result<(), PluginError> {
    if moves.contains(&plyd_api::NULL_MOVE) {
        return Err(root.listed_null_move());
    }
    Ok(())
}

/// Nodes per second, 0 before a millisecond has passed.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros();
    if micros < 1000 {
        0
    } else {
        (u128::from(nodes) * 1_000_000 / micros) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyd_api::abi::{CAP_PREFERS_MCTS, CAP_PREFERS_NODE_PROBCUT, CAP_PREFERS_SINGULAR};

    #[test]
    fn a_game_preference_switches_a_technique_unless_it_was_set() {
        let defaults = Techniques::default();
        assert!(!defaults.singular);
        assert!(defaults.for_game(CAP_PREFERS_SINGULAR).singular);
        assert!(!defaults.for_game(CAP_PREFERS_MCTS).singular);
        assert_eq!(defaults.for_game(0), defaults);

        let mut off = Techniques::default();
        assert!(off.set("singular", false));
        assert!(!off.for_game(CAP_PREFERS_SINGULAR).singular);
        let mut on = Techniques::default();
        assert!(on.set("Singular", true));
        assert!(on.for_game(0).singular);
        // Setting another technique leaves the preference in force.
        let mut other = Techniques::default();
        assert!(other.set("IIR", false));
        let for_game = other.for_game(CAP_PREFERS_SINGULAR);
        assert!(for_game.singular && !for_game.iir);
        assert!(!other.set("NoSuchTechnique", true));
        assert_eq!(other.get("singular"), Some(false));
        assert_eq!(for_game.get("SINGULAR"), Some(true));
        assert_eq!(for_game.get("NoSuchTechnique"), None);
        // Each preference switches its own technique.
        assert!(!defaults.node_probcut);
        assert!(!defaults.for_game(CAP_PREFERS_SINGULAR).node_probcut);
        let both = defaults.for_game(CAP_PREFERS_SINGULAR | CAP_PREFERS_NODE_PROBCUT);
        assert!(both.singular && both.node_probcut);
        let mut cut_off = Techniques::default();
        assert!(cut_off.set("NodeProbCut", false));
        let for_game = cut_off.for_game(CAP_PREFERS_SINGULAR | CAP_PREFERS_NODE_PROBCUT);
        assert!(for_game.singular && !for_game.node_probcut);
    }
}
