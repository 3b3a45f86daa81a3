//! The exact endgame solver: the final disc difference of a position under
//! best play from both sides, found by searching every line to the end of
//! the game.
//!
//! The search is alpha-beta over bare bitboards, in three tiers chosen by
//! the number of empty squares `n`:
//!
//! * `n >= TABLE_MIN_EMPTIES`: principal variation search with a
//!   transposition table and **fastest-first** ordering. Nodes with more
//!   than [`LOCAL_MAX_EMPTIES`] empty squares use the table lent by the
//!   caller through [`Table`] (in the plugin the host's shared table, so
//!   Lazy SMP threads share what they find), the others a small table of
//!   the solving thread's own. Fastest-first: the move that leaves the
//!   opponent the fewest replies goes first, corners counting double, the
//!   table's move before all; see [`search`]. While several threads solve
//!   at once, a node with more than [`busy::SHARED_MIN_EMPTIES`] empty
//!   squares puts off a move whose position another thread is searching
//!   ([`busy`]: simplified ABDADA).
//! * `5 <= n < TABLE_MIN_EMPTIES`: fail-soft alpha-beta with no table and
//!   no sorting: **parity** order (moves in quadrants holding an odd number
//!   of empty squares first), corners first inside each group.
//! * `n <= 4`: one function per count in [`last`], the last square counted
//!   without being played.
//!
//! From `STABILITY_MIN_EMPTIES` empty squares up, a node whose window lies
//! above what the side to move can still reach, given the opponent's
//! stable discs ([`stability`]), returns that ceiling at once (the
//! stability cutoff).
//!
//! With an order evaluation registered ([`set_order_evaluator`]), an exact
//! solve of [`PRESEARCH_MIN_EMPTIES`] or more first searches the position
//! selectively, as Edax and NTest do: a pass to the end of the game in
//! which a node with [`PROBCUT_MIN_EMPTIES`] or more returns its window's
//! bound when a search of the evaluation (two plies, four from 22 empty
//! squares, six from 28: [`probcut_plies`]) lies far beyond it (a
//! probable cut, [`SELECTIVE_MARGINS`]), four times, each pass with a
//! wider margin than the one before. Their scores are guesses, but they leave the best
//! moves of the positions near the root in the table and start the exact
//! search near its score. Entries carry the pass that proved their bounds
//! ([`Entry::level`]); an exact search takes only their moves.
//!
//! Scores are disc differences for the side to move at the end of the game,
//! in `[-64, 64]`, with the empty squares of a game that ended early given
//! to the winner, as in the published endgame test scores. A search in the
//! window `(-1, 1)` decides win, loss or draw only, much faster.

mod busy;
mod last;
mod search;
mod stability;

pub use last::count_last_flips;
pub use stability::{score_ceiling, stable_discs};

use std::cell::RefCell;
use std::sync::OnceLock;

use crate::board::{flips, legal_placements, CORNERS, PASS};

/// Above every score.
pub const SCORE_INFINITY: i32 = 65;

/// Fewest empty squares at which a node uses the table and sorts its
/// moves fastest-first; below it, nodes are too many and too cheap for
/// either to pay.
pub const TABLE_MIN_EMPTIES: u32 = 8;

/// What a solver asks of whoever runs it: a transposition table and a
/// periodic chance to stop.
pub trait Table {
    /// The entry stored for `key`, if any.
    fn probe(&mut self, key: u64) -> Option<Entry>;
    /// Store an entry for `key`.
    fn store(&mut self, key: u64, entry: Entry);
    /// Called every [`POLL_INTERVAL`] nodes with the nodes searched so
    /// far; `true` stops the search.
    fn poll(&mut self, nodes: u64) -> bool;
}

/// An evaluation of a position for the side owning the first bitboard
/// against the second, in hundredths of a disc.
pub type OrderEval = fn(own: u64, opp: u64) -> i32;

/// What the solver asks of its order evaluation: the evaluation itself,
/// [`estimate`]'s shallow searches of it, and both for every move of a
/// node at once. An implementation may keep what it reads of a position
/// and update it move by move (as Edax updates its pattern features);
/// every value and every count of positions must be those of
/// [`FromScratch`] over [`OrderEvaluation::evaluate`], so that a solve
/// searches the same tree either way.
pub trait OrderEvaluation: Sync + Send {
    /// Make ready what the first evaluation would otherwise make on a
    /// search's clock (weights decoded on first use): called, through
    /// [`prepare_order_evaluation`], as an Othello state is made.
    fn prepare(&self) {}
    /// The evaluation of the position with `own` to move against `opp`.
    fn evaluate(&self, own: u64, opp: u64) -> i32;
    /// [`estimate`] of [`OrderEvaluation::evaluate`].
    fn estimate(&self, own: u64, opp: u64, depth: u32, window: (i32, i32), nodes: &mut u64) -> i32;
    /// For each move `i` of the position with `own` to move against `opp`
    /// (placing on `squares[i]` flips `flipped[i]`), the value of the
    /// position it leads to, for the opponent then to move, into
    /// `values[i]`: its evaluation when `depth` is 0, else its
    /// [`OrderEvaluation::estimate`] `depth` plies deep in the full window
    /// (`±EVAL_INFINITY`), whose positions are counted in `nodes`.
    fn children(
        &self,
        own: u64,
        opp: u64,
        moves: (&[u8], &[u64]),
        depth: u32,
        values: &mut [i32],
        nodes: &mut u64,
    ) {
        let (squares, flipped) = moves;
        for (i, value) in values.iter_mut().enumerate() {
            let disc = 1u64 << squares[i];
            let (child_own, child_opp) = (opp & !flipped[i], own | flipped[i] | disc);
            *value = if depth == 0 {
                self.evaluate(child_own, child_opp)
            } else {
                self.estimate(
                    child_own,
                    child_opp,
                    depth,
                    (-EVAL_INFINITY, EVAL_INFINITY),
                    nodes,
                )
            };
        }
    }
}

/// An [`OrderEval`] read afresh at every position the solver evaluates.
pub struct FromScratch(pub OrderEval);

impl OrderEvaluation for FromScratch {
    fn evaluate(&self, own: u64, opp: u64) -> i32 {
        (self.0)(own, opp)
    }

    fn estimate(&self, own: u64, opp: u64, depth: u32, window: (i32, i32), nodes: &mut u64) -> i32 {
        estimate(self.0, own, opp, depth, window, nodes)
    }
}

static ORDER_EVALUATOR: OnceLock<Box<dyn OrderEvaluation>> = OnceLock::new();

/// Give the solver an evaluation to sort its moves by at nodes with many
/// empty squares (12 or more), where mobility alone orders them badly, to
/// estimate the score an exact solve of 14 or more narrows on from, and to
/// decide the probable cuts of the selective passes before a solve of 18
/// or more. The first call (of this or [`set_order_evaluation`]) wins;
/// later ones are ignored. Without one the solver sorts by mobility and
/// parity alone and searches the root in the window asked for, with no
/// selective passes. Scores never depend on it, only the number of nodes
/// searched to find them.
///
/// The Othello plugin registers its `patterns` evaluator with the weights
/// of its `order.bin` when the host loads it, the weights decoded when the
/// first Othello state is made (through
/// [`set_order_evaluation`], updating its pattern indices move by move),
/// whatever evaluator the search itself uses, so that a solve searches the
/// same tree whichever evaluator is chosen.
pub fn set_order_evaluator(evaluate: OrderEval) {
    set_order_evaluation(Box::new(FromScratch(evaluate)));
}

/// [`set_order_evaluator`] with an evaluation that may keep what it reads
/// of a position from move to move.
pub fn set_order_evaluation(evaluation: Box<dyn OrderEvaluation>) {
    let _ = ORDER_EVALUATOR.set(evaluation);
}

/// [`OrderEvaluation::prepare`] of the evaluation registered, if any.
pub fn prepare_order_evaluation() {
    if let Some(evaluation) = order_evaluator() {
        evaluation.prepare();
    }
}

/// The evaluation registered with [`set_order_evaluator`] or
/// [`set_order_evaluation`], if any.
#[inline]
pub(crate) fn order_evaluator() -> Option<&'static dyn OrderEvaluation> {
    ORDER_EVALUATOR.get().map(|evaluation| &**evaluation)
}

/// Nodes between two calls of [`Table::poll`].
pub const POLL_INTERVAL: u64 = 1 << 12;

/// One table entry: the bounds that the searches of a position have
/// proved on its score, and the best move found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Best move found ([`PASS`] when none).
    pub best: u32,
    /// The true score is at least this (`-SCORE_INFINITY`: nothing known).
    pub lower: i32,
    /// The true score is at most this (`SCORE_INFINITY`: nothing known).
    pub upper: i32,
    /// Empty squares of the position (what the score was searched to).
    pub depth: u32,
    /// 0 when the bounds are exact; else the selective pass (1, 2, ...)
    /// whose probable cuts proved them (see [`Solver::trusts`]).
    pub level: u32,
}

impl Entry {
    /// The entry after a fail-soft search in the window `(alpha, beta)`
    /// returned `value` with `best` the best move: the bounds `value`
    /// proves, narrowed further by those of `known` (what the table held
    /// for the position before the search, when it held anything). Bounds
    /// that contradict each other (only possible when threads raced on the
    /// entry) give way to the new ones.
    pub(crate) fn after_search(
        known: Option<Entry>,
        best: u32,
        value: i32,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> Entry {
        let lower = if value > alpha {
            value
        } else {
            -SCORE_INFINITY
        };
        let upper = if value < beta { value } else { SCORE_INFINITY };
        let merged = known
            .filter(|old| old.depth == depth)
            .map(|old| (lower.max(old.lower), upper.min(old.upper)))
            .filter(|(lower, upper)| lower <= upper)
            .unwrap_or((lower, upper));
        Entry {
            best,
            lower: merged.0,
            upper: merged.1,
            depth,
            level: 0,
        }
    }
}

/// A table that stores nothing and never stops: for tests and for callers
/// without one.
#[derive(Debug, Default)]
pub struct NoTable;

impl Table for NoTable {
    fn probe(&mut self, _key: u64) -> Option<Entry> {
        None
    }
    fn store(&mut self, _key: u64, _entry: Entry) {}
    fn poll(&mut self, _nodes: u64) -> bool {
        false
    }
}

/// A table of its own, for one thread: one entry per slot, the newest
/// kept, 16 bytes an entry. For solving without a host (tests, examples),
/// and for the nodes with few empty squares of every solve (see
/// [`LOCAL_MAX_EMPTIES`]).
#[derive(Debug)]
pub struct LocalTable {
    /// The key, and the entry packed by [`pack`] (0: none).
    slots: Vec<(u64, u64)>,
}

/// An entry in 40 bits, never 0: the bounds offset by 65 (8 bits each),
/// the depth (6 bits), the move (7 bits), a marker and the level (8 bits).
fn pack(entry: &Entry) -> u64 {
    let lower = (entry.lower + SCORE_INFINITY) as u64;
    let upper = (entry.upper + SCORE_INFINITY) as u64;
    u64::from(entry.best & 0x7f)
        | u64::from(entry.depth & 0x3f) << 7
        | lower << 13
        | upper << 21
        | 1 << 29
        | u64::from(entry.level & 0xff) << 30
}

/// The entry of [`pack`].
fn unpack(data: u64) -> Entry {
    Entry {
        best: (data & 0x7f) as u32,
        depth: ((data >> 7) & 0x3f) as u32,
        lower: ((data >> 13) & 0xff) as i32 - SCORE_INFINITY,
        upper: ((data >> 21) & 0xff) as i32 - SCORE_INFINITY,
        level: ((data >> 30) & 0xff) as u32,
    }
}

impl LocalTable {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Self {
        LocalTable {
            slots: vec![(0, 0); 1 << bits],
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key >> 32) as usize & (self.slots.len() - 1)
    }

    /// Let the processor fetch the slot of `key` ahead of its look-up.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        plyd_api::hint::prefetch(&self.slots[self.slot(key)]);
    }

    /// Forget every entry.
    pub fn clear(&mut self) {
        self.slots.fill((0, 0));
    }
}

impl Table for LocalTable {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        match self.slots[self.slot(key)] {
            (stored, data) if stored == key && data != 0 => Some(unpack(data)),
            _ => None,
        }
    }
    #[inline]
    fn store(&mut self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        self.slots[slot] = (key, pack(&entry));
    }
    fn poll(&mut self, _nodes: u64) -> bool {
        false
    }
}

/// Most empty squares at which a node keeps its entry in the solving
/// thread's own small table ([`LOCAL_TABLE_BITS`]) rather than the shared
/// one: such entries are many and short-lived, and a table that fits the
/// processor's cache answers them faster than the host's shared one
/// behind a callback. Threads then share only the entries of nodes with
/// more empty squares.
pub const LOCAL_MAX_EMPTIES: u32 = 13;

/// Each solving thread's own table has `2^LOCAL_TABLE_BITS` entries of 16
/// bytes (4 MiB), allocated at its first solve and emptied at every solve.
pub const LOCAL_TABLE_BITS: u32 = 18;

thread_local! {
    /// Each solving thread's own table, see [`LOCAL_MAX_EMPTIES`].
    static LOCAL_TABLE: RefCell<LocalTable> = RefCell::new(LocalTable::new(LOCAL_TABLE_BITS));
}

/// The answer of [`solve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solution {
    /// Score of the position for the side to move: exact if it lies inside
    /// the window searched, else a bound on the side it fell.
    pub score: i32,
    /// Best move ([`PASS`] for a forced pass; `None` when the game is over).
    pub best: Option<u32>,
    /// Positions visited.
    pub nodes: u64,
    /// False when [`Table::poll`] stopped the search before it ended: the
    /// score is then meaningless and `best` is the best move so far.
    pub complete: bool,
}

/// Final disc difference for the side owning `own` when the game ends
/// now: the empty squares go to the winner.
#[inline]
pub fn final_score(own: u64, opp: u64) -> i32 {
    let own_count = own.count_ones() as i32;
    let opp_count = opp.count_ones() as i32;
    let empties = 64 - own_count - opp_count;
    let diff = own_count - opp_count;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => diff + empties,
        std::cmp::Ordering::Less => diff - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The four quadrants of the board.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The empty squares lying in quadrants that hold an odd number of them.
/// The last move in a region is worth having, so moving first where the
/// count is odd tends to keep it.
#[inline]
pub fn odd_quadrants(empties: u64) -> u64 {
    let mut odd = 0;
    for quadrant in QUADRANTS {
        if (empties & quadrant).count_ones() & 1 == 1 {
            odd |= quadrant;
        }
    }
    empties & odd
}

/// The X-squares and C-squares, next to the corners: the worst moves on
/// average, tried last among equals.
const NEAR_CORNERS: u64 = 0x42c3_0000_0000_c342;

/// Groups of squares in the order the cheap tiers try them: corners, the
/// middle, then next to the corners.
const SQUARE_GROUPS: [u64; 3] = [CORNERS, !(CORNERS | NEAR_CORNERS), NEAR_CORNERS];

/// Write the squares of `empties` into `out` in parity order (odd
/// quadrants first, each part in [`SQUARE_GROUPS`] order), the first `N`
/// of them if there are more, and return their number.
#[inline]
pub fn parity_order<const N: usize>(empties: u64, out: &mut [usize; N]) -> usize {
    let odd = odd_quadrants(empties);
    let mut len = 0;
    for part in [odd, empties & !odd] {
        for group in SQUARE_GROUPS {
            let mut bits = part & group;
            while bits != 0 {
                if len < N {
                    out[len] = bits.trailing_zeros() as usize;
                }
                bits &= bits - 1;
                len += 1;
            }
        }
    }
    len
}

/// Solve the position where the side to move owns `own` and its opponent
/// `opp`, in the window `(alpha, beta)` (`(-1, 1)` for win, loss or draw;
/// `(-SCORE_INFINITY, SCORE_INFINITY)` for the exact score).
///
/// `thread` varies the first order of the root's moves, so that threads
/// solving the same position at once (Lazy SMP) start on different moves
/// and share what they find through the table; thread 0 keeps the best
/// order.
pub fn solve(
    own: u64,
    opp: u64,
    alpha: i32,
    beta: i32,
    thread: u32,
    table: &mut dyn Table,
) -> Solution {
    let _solving = busy::Solving::start();
    LOCAL_TABLE.with(|local| {
        let mut local = local.borrow_mut();
        local.clear();
        let mut solver = Solver {
            table,
            local: &mut local,
            nodes: 0,
            next_poll: POLL_INTERVAL,
            stopped: false,
            level: 0,
        };
        let empties = (!(own | opp)).count_ones();
        let (score, best) = match order_evaluator() {
            Some(evaluation) if beta - alpha > 2 && empties >= NARROWING_MIN_EMPTIES => {
                let plies = if empties >= PRESEARCH_MIN_EMPTIES {
                    DEEP_ESTIMATE_PLIES
                } else {
                    ESTIMATE_PLIES
                };
                let value = evaluation.estimate(
                    own,
                    opp,
                    plies,
                    (-EVAL_INFINITY, EVAL_INFINITY),
                    &mut solver.nodes,
                );
                // Final scores are even: round to the nearest even number of discs.
                let mut guess = 2 * (value as f64 / 200.0).round() as i32;
                if empties >= PRESEARCH_MIN_EMPTIES && guess.abs() < PRESEARCH_MAX_GUESS {
                    for level in 1..=SELECTIVE_MARGINS.len() as u32 {
                        solver.level = level;
                        let (score, _) =
                            solver.narrowing_root(own, opp, alpha, beta, thread, guess);
                        if solver.stopped {
                            break;
                        }
                        guess = score;
                    }
                    solver.level = 0;
                }
                solver.narrowing_root(own, opp, alpha, beta, thread, guess)
            }
            _ => solver.root(own, opp, alpha, beta, thread),
        };
        Solution {
            score,
            best,
            nodes: solver.nodes,
            complete: !solver.stopped,
        }
    })
}

impl Solver<'_> {
    /// The entry of a position with `count` empty squares, from the table
    /// that keeps such positions.
    #[inline]
    pub(crate) fn probe(&mut self, key: u64, count: u32) -> Option<Entry> {
        if count <= LOCAL_MAX_EMPTIES {
            self.local.probe(key)
        } else {
            self.table.probe(key)
        }
    }

    /// Let the processor fetch the slot of `key` (a position with `count`
    /// empty squares) ahead of its probe, when it is in the thread's own
    /// table: a read of it that misses the nearer caches stalls the
    /// search (see [`LOCAL_MAX_EMPTIES`]). The host's table is reached
    /// through a callback, which offers no such hint.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64, count: u32) {
        if count <= LOCAL_MAX_EMPTIES {
            self.local.prefetch(key);
        }
    }

    /// Store the entry of a position with `entry.depth` empty squares.
    #[inline]
    pub(crate) fn store(&mut self, key: u64, entry: Entry) {
        if entry.depth <= LOCAL_MAX_EMPTIES {
            self.local.store(key, entry);
        } else {
            self.table.store(key, entry);
        }
    }
}

/// The state of one solve.
pub(crate) struct Solver<'t> {
    table: &'t mut dyn Table,
    /// The thread's own table, for nodes with at most
    /// [`LOCAL_MAX_EMPTIES`] empty squares.
    local: &'t mut LocalTable,
    /// Positions visited.
    pub(crate) nodes: u64,
    /// Node count at which to poll next.
    next_poll: u64,
    /// Set once [`Table::poll`] asked to stop; every score after it is junk.
    stopped: bool,
    /// 0 for an exact search; else the selective pass under way, 1 for
    /// the first (see [`SELECTIVE_MARGINS`]).
    pub(crate) level: u32,
}

/// Fewest empty squares at which an exact solve with a registered
/// evaluation searches in null windows from an estimate of the score
/// (see [`Solver::narrowing_root`]); below it solves take microseconds.
const NARROWING_MIN_EMPTIES: u32 = 14;

/// Fewest empty squares at which an exact solve with a registered
/// evaluation is preceded by selective passes (see [`solve`]).
const PRESEARCH_MIN_EMPTIES: u32 = 18;

/// The selective passes are left out when the estimate the exact search
/// starts from is this many discs or more from a draw: they narrow on
/// balanced scores, and near a wipe-out, where the stability cutoff
/// settles the exact search from its first searches, their entries lead
/// it astray (FFO 59, +64 with an estimate of +38: 94.9 million nodes with
/// them, 117,576 without).
const PRESEARCH_MAX_GUESS: i32 = 30;

/// Fewest empty squares at which a selective pass tries a probable cut;
/// below it every node is searched exactly, whatever the pass.
pub(crate) const PROBCUT_MIN_EMPTIES: u32 = 16;

/// Plies of the evaluation search that decides a probable cut below
/// [`DEEP_PROBCUT_MIN_EMPTIES`] (see [`probcut_plies`]).
pub(crate) const PROBCUT_PLIES: u32 = 2;

/// Fewest empty squares at which that search goes [`DEEP_PROBCUT_PLIES`]
/// deep: at many empty squares a two-ply search misjudges positions that
/// the evaluation misjudges, the passes end far from the exact score, and
/// the exact search walked to it one null window at a time (before
/// [`next_cut`] leapt; FFO 57, 30
/// empty squares: passes at +4, exact score −10, eight windows of 0.3 to
/// 1.1 billion nodes; docs/othello.md, "Deeper searches for the probable
/// cut").
pub(crate) const DEEP_PROBCUT_MIN_EMPTIES: u32 = 22;

/// Plies of the probable cut's search from [`DEEP_PROBCUT_MIN_EMPTIES`].
pub(crate) const DEEP_PROBCUT_PLIES: u32 = 4;

/// Fewest empty squares at which that search goes [`DEEPER_PROBCUT_PLIES`]
/// deep.
pub(crate) const DEEPER_PROBCUT_MIN_EMPTIES: u32 = 28;

/// Plies of the probable cut's search from [`DEEPER_PROBCUT_MIN_EMPTIES`].
pub(crate) const DEEPER_PROBCUT_PLIES: u32 = 6;

/// Plies of the search that decides a probable cut at a node with `count`
/// empty squares.
pub(crate) fn probcut_plies(count: u32) -> u32 {
    if count >= DEEPER_PROBCUT_MIN_EMPTIES {
        DEEPER_PROBCUT_PLIES
    } else if count >= DEEP_PROBCUT_MIN_EMPTIES {
        DEEP_PROBCUT_PLIES
    } else {
        PROBCUT_PLIES
    }
}

/// How far beyond the window, in hundredths of a disc, that search must
/// lie for a probable cut, in each selective pass: the first pass cuts
/// most, and fills the table with its moves for the next, and so on to
/// the exact search. Chosen by the nodes of whole solves: on positions of
/// 22 and 24 empty squares every setting tried (one to six passes,
/// margins of 4 to 18 discs) searched within a few percent of the others,
/// against a third more nodes without passes; on positions of 26 to 30
/// empty squares four passes of 6 to 18 discs searched 10% to 13% fewer
/// nodes than two of 8 and 12 (docs/othello.md, "Selective passes" and
/// "Four selective passes").
pub(crate) const SELECTIVE_MARGINS: [i32; 4] = [600, 900, 1300, 1800];

/// Plies of the evaluation search that estimates the score to start from.
const ESTIMATE_PLIES: u32 = 2;

/// Plies of that search from [`PRESEARCH_MIN_EMPTIES`] empty squares, where
/// it also decides whether the selective passes run and where they start:
/// FFO 40-44, 45-49 and 50-52 searched 0.7%, 2.4% and 0.9% fewer nodes
/// than with two plies, FFO 40 13% and FFO 59 37% fewer (eight plies: no
/// better); below 18 empty squares six plies cost more than they saved
/// (FFO 1-19: 5% more nodes).
const DEEP_ESTIMATE_PLIES: u32 = 6;

/// Searches in a row that moved the bound the same way after which the
/// narrowing leaps (see [`next_cut`]).
const LEAP_AFTER: i32 = 2;

/// The null window the narrowing searches next, as `cut` (the search
/// asks whether the score reaches `cut`), with the score known to lie in
/// `[lower, upper]`, `guess` the score the last search returned and
/// `streak` how many searches in a row proved a lower bound (or, below
/// zero, an upper bound). Mostly MTD(f)'s window at the guess, which a
/// good estimate needs two searches at: one proves a bound, the next the
/// other. But when the estimate lies far off, a null window's fail-soft
/// score hardly moves past its cut, and walking to the true score one
/// step at a time took FFO 57's first selective pass thirteen searches
/// (from +6 to −6). So after [`LEAP_AFTER`] searches moving the same way
/// it leaps, by 2, 4, 8 ... beyond the guess; once both bounds are known
/// it halves the range between them.
fn next_cut(lower: i32, upper: i32, guess: i32, streak: i32) -> i32 {
    let bounded = lower > -SCORE_INFINITY && upper < SCORE_INFINITY;
    let target = if bounded && upper - lower > 2 {
        (lower + upper + 1).div_euclid(2)
    } else if !bounded && streak.abs() >= LEAP_AFTER {
        guess + streak.signum() * (1 << (streak.abs() - 1).min(5))
    } else {
        guess
    };
    target.clamp(lower + 1, upper)
}

/// The loop of [`Solver::narrowing_root`]: `search(cut)` searches the
/// root in the null window `(cut - 1, cut)` and returns its fail-soft
/// score and best move, or `Err` with the best move so far when the solve
/// was stopped (the answer is then `0` and the best move known).
fn narrow(
    (alpha, beta): (i32, i32),
    mut guess: i32,
    mut search: impl FnMut(i32) -> Result<(i32, Option<u32>), Option<u32>>,
) -> (i32, Option<u32>) {
    let (mut lower, mut upper) = (-SCORE_INFINITY, SCORE_INFINITY);
    let mut best = None;
    let mut streak = 0;
    while lower < upper && upper > alpha && lower < beta {
        let cut = next_cut(lower, upper, guess, streak);
        let (score, mv) = match search(cut) {
            Ok(found) => found,
            Err(mv) => return (0, best.or(mv)),
        };
        if score >= cut {
            lower = score;
            best = mv;
            streak = streak.max(0) + 1;
        } else {
            upper = score;
            streak = streak.min(0) - 1;
            // A guess, kept only when no search proves a lower bound.
            best = best.or(mv);
        }
        guess = score;
    }
    let score = if lower >= beta { lower } else { upper };
    (score, best)
}

/// Above every evaluation.
pub const EVAL_INFINITY: i32 = 1 << 24;

/// Alpha-beta negamax of `evaluate` `depth` plies below the position, in
/// hundredths of a disc; every position it visits is counted in `nodes`.
pub fn estimate(
    evaluate: OrderEval,
    own: u64,
    opp: u64,
    depth: u32,
    window: (i32, i32),
    nodes: &mut u64,
) -> i32 {
    estimate_with(&Afresh(evaluate), own, opp, &(), depth, window, nodes)
}

/// What [`estimate_with`] keeps of each position it visits, and how it
/// scores the positions at the end of its plies.
pub trait EstimateLeaves {
    /// What is kept of a position.
    type Kept;
    /// It after the side to move of `kept`'s position placed `disc`,
    /// flipping `flipped`; `leaf` when that position is only scored.
    fn after_placement(&self, kept: &Self::Kept, disc: u64, flipped: u64, leaf: bool)
        -> Self::Kept;
    /// It after the side to move of `kept`'s position passed.
    fn after_pass(&self, kept: &Self::Kept) -> Self::Kept;
    /// The score of the position with `own` to move against `opp`.
    fn score(&self, own: u64, opp: u64, kept: &Self::Kept) -> i32;
}

/// An evaluation read afresh at every position: nothing kept.
struct Afresh(OrderEval);

impl EstimateLeaves for Afresh {
    type Kept = ();
    #[inline(always)]
    fn after_placement(&self, _: &(), _: u64, _: u64, _: bool) {}
    #[inline(always)]
    fn after_pass(&self, _: &()) {}
    #[inline(always)]
    fn score(&self, own: u64, opp: u64, _: &()) -> i32 {
        (self.0)(own, opp)
    }
}

/// [`estimate`] with what `leaves` keeps of each position, from `kept`,
/// that of the position searched: the moves in the order of their
/// squares, a pass a ply, a finished game scored by its disc difference.
pub fn estimate_with<L: EstimateLeaves>(
    leaves: &L,
    own: u64,
    opp: u64,
    kept: &L::Kept,
    depth: u32,
    (mut alpha, beta): (i32, i32),
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return leaves.score(own, opp, kept);
    }
    let moves = legal_placements(own, opp);
    if moves == 0 {
        if legal_placements(opp, own) == 0 {
            return 100 * final_score(own, opp);
        }
        let passed = leaves.after_pass(kept);
        return -estimate_with(leaves, opp, own, &passed, depth - 1, (-beta, -alpha), nodes);
    }
    let mut best = -EVAL_INFINITY;
    // Searches one move; true when it cuts.
    let mut search = |disc: u64, flipped: u64| {
        let child = leaves.after_placement(kept, disc, flipped, depth == 1);
        let value = -estimate_with(
            leaves,
            opp & !flipped,
            own | flipped | disc,
            &child,
            depth - 1,
            (-beta, -alpha),
            nodes,
        );
        if value > best {
            best = value;
            if value >= beta {
                return true;
            }
            alpha = alpha.max(value);
        }
        false
    };
    if depth >= SORTED_ESTIMATE_MIN_PLIES {
        let mut list = search::MoveList::new();
        list.fill_by_replies(own, opp, moves);
        for i in 0..list.len() {
            if search(1u64 << list.square(i), list.flipped(i)) {
                break;
            }
        }
    } else {
        let mut bits = moves;
        while bits != 0 {
            let disc = bits & bits.wrapping_neg();
            bits &= bits - 1;
            if search(disc, flips(own, opp, disc)) {
                break;
            }
        }
    }
    best
}

/// Fewest plies left below a node of [`estimate_with`] at which its moves
/// are sorted ([`search::MoveList::fill_by_replies`]) rather than taken in the order of their
/// squares. Sorting the leaves' parents too saved few of their
/// evaluations for what the sort costs: FFO 57 in 1,936 million nodes
/// against 1,952 million, but 74 s against 66 s.
const SORTED_ESTIMATE_MIN_PLIES: u32 = 2;

impl Solver<'_> {
    /// The root searched in null windows only, from an estimate of the
    /// score towards the true one (MTD(f)): each search proves a bound,
    /// which the table keeps (both bounds of a position in one entry), and
    /// moves the next window to the score it found ([`next_cut`] when the
    /// estimate was far off), until the bounds meet or leave `(alpha,
    /// beta)`. The answer is the same as [`Self::root`]'s in the whole
    /// window, found in fewer nodes when the estimate is close. The best
    /// move is that of the last search that proved a lower bound.
    fn narrowing_root(
        &mut self,
        own: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        thread: u32,
        guess: i32,
    ) -> (i32, Option<u32>) {
        narrow((alpha, beta), guess, |cut| {
            let found = self.root(own, opp, cut - 1, cut, thread);
            if self.stopped {
                Err(found.1)
            } else {
                Ok(found)
            }
        })
    }

    /// The root: every move searched, the best one kept.
    fn root(
        &mut self,
        own: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        thread: u32,
    ) -> (i32, Option<u32>) {
        let (first_alpha, mut alpha) = (alpha, alpha);
        let moves = legal_placements(own, opp);
        if moves == 0 {
            if legal_placements(opp, own) == 0 {
                return (final_score(own, opp), None);
            }
            self.nodes += 1;
            let value = -self.search(opp, own, -beta, -alpha, true);
            return (value, Some(PASS));
        }
        let mut list = search::MoveList::new();
        let key = search::table_key(own, opp);
        let empties = (!(own | opp)).count_ones();
        let found = self.probe(key, empties);
        let table_move = found.map(|e| e.best);
        let known = found.filter(|e| self.trusts(e));
        // The root keeps the evaluation alone: it is searched again and
        // again by the narrowing, its table move first after the first.
        let order = order_evaluator().map_or(search::EvalOrder::None, |evaluation| {
            search::EvalOrder::Search(evaluation, 0)
        });
        list.fill(own, opp, moves, table_move, order);
        if thread > 0 && list.len() > 1 {
            let shift = thread as usize % list.len();
            list.rotate(shift);
        }
        self.nodes += 1;
        let mut best_score = -SCORE_INFINITY;
        let mut best_move = list.square(0);
        // As in the table tier, a move another solve is searching waits.
        let shared = empties > busy::SHARED_MIN_EMPTIES && busy::shared();
        let mut walk = busy::Walk::new(list.len());
        while let Some((i, may_wait)) = walk.next() {
            let first = i == 0 && may_wait;
            let (square, flipped) = (list.square(i), list.flipped(i));
            let child = (opp & !flipped, own | flipped | 1u64 << square);
            let step = (i, may_wait);
            let Some(value) =
                self.child_unless_busy(&mut walk, step, shared, child, first, (alpha, beta))
            else {
                continue;
            };
            if self.stopped {
                break;
            }
            if value > best_score {
                best_score = value;
                best_move = square;
                if value > alpha {
                    alpha = value;
                }
                if value >= beta {
                    break;
                }
            }
        }
        if !self.stopped {
            let entry = Entry::after_search(
                known,
                best_move as u32,
                best_score,
                first_alpha,
                beta,
                empties,
            );
            self.store_searched(key, entry);
        }
        (best_score, Some(best_move as u32))
    }

    /// Whether the bounds of `entry` hold for this search: exact bounds
    /// always, those of a selective pass for searches of that pass or of
    /// an earlier, more selective one.
    #[inline]
    pub(crate) fn trusts(&self, entry: &Entry) -> bool {
        entry.level == 0 || (self.level != 0 && entry.level >= self.level)
    }

    /// Store what a search of the position found, marked with the pass
    /// that found it: a position too small for probable cuts below it was
    /// searched exactly whatever the pass.
    #[inline]
    pub(crate) fn store_searched(&mut self, key: u64, mut entry: Entry) {
        entry.level = if entry.depth >= PROBCUT_MIN_EMPTIES {
            self.level
        } else {
            0
        };
        self.store(key, entry);
    }

    /// Whether to stop: polls the table every [`POLL_INTERVAL`] nodes.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_INTERVAL;
            if self.table.poll(self.nodes) {
                self.stopped = true;
            }
        }
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{flips, squares};
    use crate::testing::{next, random_position};

    /// Plain minimax to the end of the game, with no pruning at all.
    fn minimax(own: u64, opp: u64) -> i32 {
        let moves = legal_placements(own, opp);
        if moves == 0 {
            if legal_placements(opp, own) == 0 {
                return final_score(own, opp);
            }
            return -minimax(opp, own);
        }
        squares(moves)
            .map(|square| {
                let disc = 1u64 << square;
                let flipped = flips(own, opp, disc);
                -minimax(opp & !flipped, own | flipped | disc)
            })
            .max()
            .expect("a move")
    }

    /// Positions from random games, stopped with `empties` empty squares
    /// (or earlier, when a game ends first).
    fn random_positions(seed: u64, count: usize, empties: u32) -> Vec<(u64, u64)> {
        let mut rng = seed;
        let mut out = Vec::new();
        while out.len() < count {
            out.push(random_position(&mut rng, empties).own_and_opponent());
        }
        out
    }

    #[test]
    fn exact_scores_equal_plain_minimax() {
        for empties in [1, 2, 3, 4, 5, 6, 7, 8, 9] {
            for (own, opp) in random_positions(empties as u64, 60, empties) {
                let expected = minimax(own, opp);
                let with_table = solve(
                    own,
                    opp,
                    -SCORE_INFINITY,
                    SCORE_INFINITY,
                    0,
                    &mut LocalTable::new(12),
                );
                let without = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut NoTable);
                assert_eq!(with_table.score, expected, "own {own:#x} opp {opp:#x}");
                assert_eq!(without.score, expected, "own {own:#x} opp {opp:#x}");
                assert!(with_table.complete);
            }
        }
    }

    /// An evaluation that orders moves unevenly: a fixed pseudo-random
    /// weight on every square.
    fn square_weights(own: u64, opp: u64) -> i32 {
        let weight = |square: u32| (u64::from(square).wrapping_mul(0x9e37_79b9) % 41) as i32 - 20;
        squares(own).map(weight).sum::<i32>() - squares(opp).map(weight).sum::<i32>()
    }

    /// Negamax of `evaluate` `depth` plies deep with no pruning, by the
    /// conventions of [`estimate`]: a pass takes a ply, a finished game
    /// scores its disc difference in hundredths.
    fn negamax(evaluate: OrderEval, own: u64, opp: u64, depth: u32) -> i32 {
        if depth == 0 {
            return evaluate(own, opp);
        }
        let moves = legal_placements(own, opp);
        if moves == 0 {
            if legal_placements(opp, own) == 0 {
                return 100 * final_score(own, opp);
            }
            return -negamax(evaluate, opp, own, depth - 1);
        }
        squares(moves)
            .map(|square| {
                let disc = 1u64 << square;
                let flipped = flips(own, opp, disc);
                -negamax(evaluate, opp & !flipped, own | flipped | disc, depth - 1)
            })
            .max()
            .expect("a move")
    }

    /// The estimate's moves are sorted from two plies up: whatever the
    /// order, the full window gives the negamax value, and a null window
    /// a fail-soft bound on the right side of it.
    #[test]
    fn the_estimate_equals_a_negamax_of_its_evaluation_in_any_window() {
        let mut rng = 11;
        for empties in [8, 14, 20, 26, 32, 40, 50] {
            for (own, opp) in random_positions(empties as u64, 12, empties) {
                for depth in 0..=4 {
                    let exact = negamax(square_weights, own, opp, depth);
                    let mut nodes = 0;
                    let full = (-EVAL_INFINITY, EVAL_INFINITY);
                    let value = estimate(square_weights, own, opp, depth, full, &mut nodes);
                    assert_eq!(value, exact, "{own:#x} {opp:#x} depth {depth}");
                    let cut = exact + (next(&mut rng) % 41) as i32 - 20;
                    let value =
                        estimate(square_weights, own, opp, depth, (cut - 1, cut), &mut nodes);
                    if value >= cut {
                        assert!(exact >= value, "{own:#x} {opp:#x} depth {depth} cut {cut}");
                    } else {
                        assert!(exact <= value && exact < cut, "{own:#x} {opp:#x} cut {cut}");
                    }
                }
            }
        }
    }

    #[test]
    fn moves_by_replies_keep_every_move_once_in_the_order_of_the_replies() {
        let reply_key = |own: u64, opp: u64, disc: u64| {
            let flipped = flips(own, opp, disc);
            let replies = legal_placements(opp & !flipped, own | flipped | disc);
            replies.count_ones() + (replies & CORNERS).count_ones()
        };
        for (own, opp) in random_positions(3, 200, 30) {
            let moves = legal_placements(own, opp);
            let mut list = search::MoveList::new();
            list.fill_by_replies(own, opp, moves);
            let discs: Vec<u64> = (0..list.len()).map(|i| 1u64 << list.square(i)).collect();
            assert_eq!(discs.iter().fold(0, |all, disc| all | disc), moves);
            assert_eq!(list.len() as u32, moves.count_ones());
            for (i, &disc) in discs.iter().enumerate() {
                assert_eq!(list.flipped(i), flips(own, opp, disc));
            }
            for pair in discs.windows(2) {
                assert!(reply_key(own, opp, pair[0]) <= reply_key(own, opp, pair[1]));
            }
        }
    }

    /// Null-window searches and then a full one, all through one table,
    /// as a search narrowing on the score would run them: the bounds each
    /// leaves behind (both kept in one entry, and narrowing the windows of
    /// the next) must never turn into a wrong score.
    #[test]
    fn bounds_kept_between_searches_leave_every_score_exact() {
        for (own, opp) in random_positions(7, 30, 13) {
            let expected = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut NoTable).score;
            let mut table = LocalTable::new(14);
            for cut in [
                expected - 3,
                expected + 2,
                expected,
                expected - 1,
                expected + 1,
            ] {
                let probe = solve(own, opp, cut, cut + 1, 0, &mut table).score;
                assert_eq!(
                    probe > cut,
                    expected > cut,
                    "own {own:#x} opp {opp:#x} cut {cut}"
                );
            }
            let exact = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut table);
            assert_eq!(exact.score, expected, "own {own:#x} opp {opp:#x}");
        }
    }

    #[test]
    fn an_entry_keeps_both_bounds_of_its_searches() {
        let fail_high = Entry::after_search(None, 3, 10, 0, 5, 20);
        assert_eq!((fail_high.lower, fail_high.upper), (10, SCORE_INFINITY));
        let fail_low = Entry::after_search(Some(fail_high), 4, 12, 12, 20, 20);
        assert_eq!((fail_low.lower, fail_low.upper), (10, 12));
        assert_eq!(fail_low.best, 4);
        let exact = Entry::after_search(Some(fail_low), 4, 11, 10, 12, 20);
        assert_eq!((exact.lower, exact.upper), (11, 11));
        // An entry of another depth, or one that contradicts, is not merged.
        let other = Entry::after_search(Some(exact), 4, -30, -20, 20, 21);
        assert_eq!((other.lower, other.upper), (-SCORE_INFINITY, -30));
        let raced = Entry::after_search(Some(exact), 4, 30, 20, 40, 20);
        assert_eq!((raced.lower, raced.upper), (30, 30));
    }

    #[test]
    fn the_best_move_reaches_the_score_and_other_threads_agree() {
        for (own, opp) in random_positions(99, 40, 10) {
            let solution = solve(
                own,
                opp,
                -SCORE_INFINITY,
                SCORE_INFINITY,
                0,
                &mut LocalTable::new(14),
            );
            let Some(best) = solution.best else {
                assert_eq!(solution.score, final_score(own, opp));
                continue;
            };
            let after = if best == PASS {
                (opp, own)
            } else {
                let disc = 1u64 << best;
                let flipped = flips(own, opp, disc);
                (opp & !flipped, own | flipped | disc)
            };
            assert_eq!(-minimax(after.0, after.1), solution.score);
            for thread in 1..4 {
                let other = solve(
                    own,
                    opp,
                    -SCORE_INFINITY,
                    SCORE_INFINITY,
                    thread,
                    &mut LocalTable::new(14),
                );
                assert_eq!(other.score, solution.score);
            }
        }
    }

    /// A table shared by threads, as the host's is.
    struct SharedTable(std::sync::Arc<std::sync::Mutex<LocalTable>>);

    impl Table for SharedTable {
        fn probe(&mut self, key: u64) -> Option<Entry> {
            self.0.lock().unwrap().probe(key)
        }
        fn store(&mut self, key: u64, entry: Entry) {
            self.0.lock().unwrap().store(key, entry);
        }
        fn poll(&mut self, _nodes: u64) -> bool {
            false
        }
    }

    #[test]
    fn moves_another_solve_is_searching_wait_and_every_score_stays_exact() {
        // Another solve runs (as far as the marks know), and it is
        // searching every position one or two moves from each root.
        let _other = busy::Solving::start();
        for (own, opp) in random_positions(31, 4, 17) {
            let expected = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut NoTable);
            let mut keys = Vec::new();
            for (square, flipped) in
                squares(legal_placements(own, opp)).map(|s| (s, flips(own, opp, 1u64 << s)))
            {
                let (c_own, c_opp) = (opp & !flipped, own | flipped | 1u64 << square);
                keys.push(search::table_key(c_own, c_opp));
                for reply in squares(legal_placements(c_own, c_opp)) {
                    let f = flips(c_own, c_opp, 1u64 << reply);
                    keys.push(search::table_key(c_opp & !f, c_own | f | 1u64 << reply));
                }
            }
            keys.iter().for_each(|&key| busy::mark(key));
            let before = busy::PUT_OFF.with(|count| count.get());
            let solution = solve(
                own,
                opp,
                -SCORE_INFINITY,
                SCORE_INFINITY,
                0,
                &mut LocalTable::new(16),
            );
            let after = busy::PUT_OFF.with(|count| count.get());
            keys.iter().for_each(|&key| busy::unmark(key));
            assert_eq!(solution.score, expected.score);
            if legal_placements(own, opp).count_ones() > 1 {
                assert!(after > before, "no move was put off");
            }
        }
    }

    #[test]
    fn threads_solving_at_once_through_one_table_agree_with_a_lone_solve() {
        for (own, opp) in random_positions(77, 3, 17) {
            let expected = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut NoTable);
            let table = std::sync::Arc::new(std::sync::Mutex::new(LocalTable::new(16)));
            let scores: Vec<i32> = std::thread::scope(|scope| {
                let runs: Vec<_> = (0..3)
                    .map(|thread| {
                        let mut shared = SharedTable(table.clone());
                        scope.spawn(move || {
                            solve(
                                own,
                                opp,
                                -SCORE_INFINITY,
                                SCORE_INFINITY,
                                thread,
                                &mut shared,
                            )
                            .score
                        })
                    })
                    .collect();
                runs.into_iter().map(|run| run.join().unwrap()).collect()
            });
            assert!(
                scores.iter().all(|&score| score == expected.score),
                "{scores:?}"
            );
        }
    }

    #[test]
    fn a_null_window_gives_the_right_side_and_win_loss_draw_the_sign() {
        for (own, opp) in random_positions(5, 40, 11) {
            let exact = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut NoTable).score;
            let wld = solve(own, opp, -1, 1, 0, &mut LocalTable::new(12)).score;
            assert_eq!(wld.signum(), exact.signum(), "own {own:#x} opp {opp:#x}");
            for cut in [-10, 0, 7] {
                let probe = solve(own, opp, cut, cut + 1, 0, &mut LocalTable::new(12)).score;
                assert_eq!(probe > cut, exact > cut);
            }
        }
    }

    #[test]
    fn the_local_table_packs_every_entry_and_forgets_on_clear() {
        let mut table = LocalTable::new(4);
        for (i, (lower, upper)) in [(-65, 65), (-64, -64), (12, 40), (64, 65)]
            .into_iter()
            .enumerate()
        {
            let entry = Entry {
                best: [0, 63, PASS, 17][i],
                lower,
                upper,
                depth: [0, 13, 60, 8][i] as u32,
                level: [0, 1, 2, 255][i],
            };
            let key = 0x1234_5678_9abc_def0 ^ ((i as u64) << 32);
            table.store(key, entry);
            assert_eq!(table.probe(key), Some(entry));
            assert_eq!(table.probe(key ^ 1), None);
            table.clear();
            assert_eq!(table.probe(key), None);
        }
    }

    /// Plants, for every child of a position, an entry claiming a score
    /// for it that is false, marked with `level`; and solves the position
    /// exactly through that table.
    fn solve_among_false_entries(own: u64, opp: u64, level: u32) -> i32 {
        let mut table = LocalTable::new(16);
        let count = (!(own | opp)).count_ones();
        for square in squares(legal_placements(own, opp)) {
            let disc = 1u64 << square;
            let flipped = flips(own, opp, disc);
            let (child_own, child_opp) = (opp & !flipped, own | flipped | disc);
            // The child scores -64 for its mover: the move would win all.
            let entry = Entry {
                best: PASS,
                lower: -64,
                upper: -64,
                depth: count - 1,
                level,
            };
            table.store(search::table_key(child_own, child_opp), entry);
        }
        solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut table).score
    }

    #[test]
    fn the_probable_cuts_search_deepens_with_the_empty_squares_by_even_plies() {
        // Below 22 empty squares the two plies the margins were chosen
        // with; above, never shallower at more empty squares, and even
        // numbers of plies, the ones measured (docs/othello.md).
        for count in PROBCUT_MIN_EMPTIES..DEEP_PROBCUT_MIN_EMPTIES {
            assert_eq!(probcut_plies(count), PROBCUT_PLIES);
        }
        let mut last = PROBCUT_PLIES;
        for count in PROBCUT_MIN_EMPTIES..=60 {
            let plies = probcut_plies(count);
            assert_eq!(plies % 2, 0, "{count} empty squares");
            assert!(plies >= last, "{count} empty squares");
            // Well inside the game's end: the search never reaches it.
            assert!(plies < count / 2, "{count} empty squares");
            last = plies;
        }
        assert_eq!(probcut_plies(DEEP_PROBCUT_MIN_EMPTIES), DEEP_PROBCUT_PLIES);
        assert_eq!(
            probcut_plies(DEEPER_PROBCUT_MIN_EMPTIES),
            DEEPER_PROBCUT_PLIES
        );
    }

    #[test]
    fn the_next_window_lies_inside_the_bounds_known() {
        for lower in -SCORE_INFINITY..SCORE_INFINITY {
            for upper in lower + 1..=SCORE_INFINITY {
                for guess in [-90, lower, upper, 0, 7, 90] {
                    for streak in -8..=8 {
                        let cut = next_cut(lower, upper, guess, streak);
                        assert!(
                            lower < cut && cut <= upper,
                            "{lower} {upper} {guess} {streak}"
                        );
                    }
                }
            }
        }
    }

    /// The narrowing's loop against root searches simulated for a known
    /// score: the fail-soft scores the least informative a search may
    /// return (the cut itself, or one below it), or anything between the
    /// cut and the true score. It must find the score and the move of its
    /// last lower bound, and from an estimate far off it must not walk
    /// there one step at a time.
    #[test]
    fn the_narrowing_finds_the_score_from_any_estimate_in_few_searches() {
        let mut seed = 11;
        let mut most = 0;
        for truth in (-64..=64).step_by(2) {
            for guess in -64..=64 {
                for informative in [false, true] {
                    let mut searches = 0;
                    let mut proved_at = None;
                    let (score, best) = narrow((-SCORE_INFINITY, SCORE_INFINITY), guess, |cut| {
                        searches += 1;
                        let r = next(&mut seed);
                        let score = match (truth >= cut, informative) {
                            (true, false) => cut,
                            (false, false) => cut - 1,
                            (true, true) => cut + (r % (truth - cut + 1) as u64) as i32,
                            (false, true) => truth + (r % (cut - truth) as u64) as i32,
                        };
                        if score >= cut {
                            proved_at = Some(cut as u32 + 100);
                        }
                        Ok((score, Some(cut as u32 + 100)))
                    });
                    assert_eq!(score, truth, "guess {guess}");
                    if proved_at.is_some() {
                        assert_eq!(best, proved_at, "guess {guess} truth {truth}");
                    }
                    if !informative {
                        most = most.max(searches);
                    }
                }
            }
        }
        // One step at a time, from an estimate 128 discs off, takes 129.
        assert!(most <= 16, "{most} searches");
    }

    #[test]
    fn a_stopped_narrowing_answers_with_the_move_of_its_last_lower_bound() {
        let mut calls = 0;
        let stopped = narrow((-SCORE_INFINITY, SCORE_INFINITY), 0, |cut| {
            calls += 1;
            match calls {
                1 => Ok((cut, Some(5))),
                _ => Err(Some(7)),
            }
        });
        assert_eq!(stopped, (0, Some(5)));
        // With no lower bound proved, the first search's move.
        let mut calls = 0;
        let stopped = narrow((-SCORE_INFINITY, SCORE_INFINITY), 0, |cut| {
            calls += 1;
            match calls {
                1 => Ok((cut - 1, Some(6))),
                _ => Err(Some(7)),
            }
        });
        assert_eq!(stopped, (0, Some(6)));
    }

    #[test]
    fn the_bounds_of_a_selective_pass_never_answer_an_exact_search() {
        // 15 empty squares: the children (14) keep their entries in the
        // table lent to the solve, where the false ones were planted.
        for (own, opp) in random_positions(31, 6, 15) {
            if legal_placements(own, opp) == 0 {
                continue;
            }
            let expected = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut NoTable).score;
            for level in (1..=SELECTIVE_MARGINS.len() as u32).chain([200]) {
                assert_eq!(solve_among_false_entries(own, opp, level), expected);
            }
            // Marked exact, the same entries are believed: the check above
            // would catch a selective entry taken for an exact one.
            if expected != 64 {
                assert_eq!(solve_among_false_entries(own, opp, 0), 64);
            }
        }
    }

    #[test]
    fn a_search_trusts_the_bounds_of_its_own_pass_and_of_less_selective_ones() {
        let mut local = LocalTable::new(4);
        let mut solver = Solver {
            table: &mut NoTable,
            local: &mut local,
            nodes: 0,
            next_poll: POLL_INTERVAL,
            stopped: false,
            level: 0,
        };
        let entry = |level| Entry {
            best: 0,
            lower: 0,
            upper: 0,
            depth: 20,
            level,
        };
        assert!(solver.trusts(&entry(0)));
        assert!(!solver.trusts(&entry(1)));
        solver.level = 2;
        assert!(solver.trusts(&entry(0)));
        assert!(!solver.trusts(&entry(1)));
        assert!(solver.trusts(&entry(2)));
        assert!(solver.trusts(&entry(3)));
    }

    /// Records the depth of every entry stored in it.
    struct Stores(Vec<u32>, LocalTable);

    impl Table for Stores {
        fn probe(&mut self, key: u64) -> Option<Entry> {
            self.1.probe(key)
        }
        fn store(&mut self, key: u64, entry: Entry) {
            self.0.push(entry.depth);
            self.1.store(key, entry);
        }
        fn poll(&mut self, _nodes: u64) -> bool {
            false
        }
    }

    #[test]
    fn nodes_with_few_empty_squares_keep_to_the_thread_s_own_table() {
        for (own, opp) in random_positions(21, 4, 16) {
            let mut lent = Stores(Vec::new(), LocalTable::new(16));
            let expected = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut NoTable).score;
            let solution = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut lent);
            assert_eq!(solution.score, expected);
            assert!(!lent.0.is_empty());
            assert!(lent.0.iter().all(|&depth| depth > LOCAL_MAX_EMPTIES));
        }
        // A root with few empty squares keeps its entry there too.
        for (own, opp) in random_positions(22, 4, 12) {
            let mut lent = Stores(Vec::new(), LocalTable::new(16));
            solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut lent);
            assert_eq!(lent.0, Vec::<u32>::new());
        }
    }

    /// Stops at the first poll.
    struct StopAtOnce;

    impl Table for StopAtOnce {
        fn probe(&mut self, _key: u64) -> Option<Entry> {
            None
        }
        fn store(&mut self, _key: u64, _entry: Entry) {}
        fn poll(&mut self, _nodes: u64) -> bool {
            true
        }
    }

    #[test]
    fn a_stopped_solve_says_so_and_still_names_a_legal_move() {
        let (own, opp) = random_positions(3, 1, 18)[0];
        let solution = solve(
            own,
            opp,
            -SCORE_INFINITY,
            SCORE_INFINITY,
            0,
            &mut StopAtOnce,
        );
        assert!(!solution.complete);
        let best = solution.best.expect("a move");
        assert!(legal_placements(own, opp) & (1u64 << best) != 0);
    }

    #[test]
    fn parity_order_puts_odd_quadrants_first() {
        // Two empty squares in the top-left quadrant, one in the bottom-right.
        let empties = (1u64 << 0) | (1 << 9) | (1 << 63);
        let mut order = [0usize; 64];
        assert_eq!(parity_order(empties, &mut order), 3);
        assert_eq!(order[0], 63);
        assert_eq!(&order[1..3], &[0, 9]);
        // A shorter array takes the first squares of the same order.
        let mut first = [0usize; 2];
        assert_eq!(parity_order(empties, &mut first), 3);
        assert_eq!(first, [63, 0]);
    }

    #[test]
    fn a_finished_game_gives_the_empty_squares_to_the_winner() {
        assert_eq!(final_score(0b111, 0b1), 2 + 60);
        assert_eq!(final_score(0b1, 0b111), -62);
        assert_eq!(final_score(0b11, 0b1100), 0);
    }
}
