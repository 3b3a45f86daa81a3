//! Exact win probabilities of endings too big to ship, solved when first
//! asked: four stones (two against two, three against one) and, where the
//! search has the time, more.
//!
//! A table of every two-against-two position would hold some 57 million
//! entries (15 × 15 number pairs × the squares): too big to ship and too
//! slow to build while a clock runs. But an ending reaches few positions:
//! every step brings a stone nearer its corner or takes one off, so from a
//! given position the stones stay inside the squares between them and their
//! corners. So the solver works from the position asked about:
//!
//! ```text
//! V(p) = 1/6 Σ_face max over the steps the face allows of
//!          1                     if the step reaches the corner or takes the last enemy stone,
//!          1 - V(p after the step, seen from the other side)   otherwise
//! ```
//!
//! memoised, down to positions of three stones, which the shipped table of
//! [`crate::endgame`] answers. Each search thread keeps what it solved (up
//! to [`MEMO_LIMIT`] positions, then it starts again), and hands it on to
//! a thread of the next search when it ends ([`plyd_api::pooled`]), so that
//! the same ending is solved once however often the search meets it, in
//! one search or the moves after.
//!
//! A call may solve at most `budget` new positions. When that is not
//! enough it answers `None` and the caller estimates instead, but what it
//! finished stays in the memo: the next call for the same ending goes on
//! from there, so a search that meets an ending again and again completes
//! it within a few calls, and no single evaluation takes long.
//!
//! Under a clock the budget is paced ([`paced_win_probability`]): each
//! thread earns `rate` positions for every position its evaluator counts
//! (up to `cap` saved), and solving spends them. So the solver takes a
//! bounded share of the search's time however many endings it meets: a
//! search that reached endings beyond its budget at every node would
//! otherwise spend the budget at every node (a first version, a fixed
//! 2,000 positions a call, lost 6 of 190 games on time at 20 ms a move).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use plyd_einstein_rules::board::{number, owner, steps, Board, STAGE_PLAY};

use crate::endgame;
use plyd_api::pooled::{Pool, Pooled};

/// A square no stone stands on: a stone off the board.
const ABSENT: u8 = 31;
/// The corner the side to roll heads for, playing Red's way (`e1`).
const CORNER: u8 = 4;
/// Positions each thread keeps before it starts again (a table of 2^19
/// slots, about 9 MB, holds them without growing).
pub const MEMO_LIMIT: usize = 450_000;

/// An ending from the view of the side to roll, turned to play Red's way:
/// the square of each stone by number (`mine[n - 1]`), [`ABSENT`] when it
/// has been taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    mine: [u8; 6],
    theirs: [u8; 6],
}

impl Ending {
    /// The ending of a board in play before its roll, from the side to
    /// move's view; `None` at the set-up stages, after the roll or once the
    /// game is over.
    pub fn of(board: &Board) -> Option<Ending> {
        if board.stage != STAGE_PLAY || board.roll != 0 || board.is_over() {
            return None;
        }
        let me = board.mover();
        let mut e = Ending {
            mine: [ABSENT; 6],
            theirs: [ABSENT; 6],
        };
        for (sq, &cell) in board.cells.iter().enumerate() {
            if cell == 0 {
                continue;
            }
            // Blue's view turns the board half round.
            let sq = if me == 0 { sq as u8 } else { 24 - sq as u8 };
            let slot = usize::from(number(cell) - 1);
            if owner(cell) == me {
                e.mine[slot] = sq;
            } else {
                e.theirs[slot] = sq;
            }
        }
        Some(e)
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.mine
            .iter()
            .chain(&self.theirs)
            .filter(|&&sq| sq != ABSENT)
            .count()
    }

    /// The memo's key: every square in five bits.
    fn key(&self) -> u64 {
        self.mine
            .iter()
            .chain(&self.theirs)
            .fold(0, |k, &sq| k << 5 | u64::from(sq))
    }

    /// The same position from the other side's view.
    fn flipped(&self) -> Ending {
        let turn = |sq: u8| if sq == ABSENT { ABSENT } else { 24 - sq };
        Ending {
            mine: self.theirs.map(turn),
            theirs: self.mine.map(turn),
        }
    }

    /// The stones (by slot) a face lets the side to roll move: its own
    /// stone, else the nearest present below and above it.
    fn movable(&self, face: usize) -> ([usize; 2], usize) {
        let slot = face - 1;
        if self.mine[slot] != ABSENT {
            return ([slot, 0], 1);
        }
        let mut out = [0; 2];
        let mut n = 0;
        if let Some(lo) = (0..slot).rev().find(|&s| self.mine[s] != ABSENT) {
            out[n] = lo;
            n += 1;
        }
        if let Some(hi) = (slot + 1..6).find(|&s| self.mine[s] != ABSENT) {
            out[n] = hi;
            n += 1;
        }
        (out, n)
    }

    /// The table's value, for three stones or fewer.
    fn table_value(&self) -> f64 {
        let list = |side: &[u8; 6]| -> ([(u8, u8); 2], usize) {
            let mut out = [(0, 0); 2];
            let mut n = 0;
            for (slot, &sq) in side.iter().enumerate() {
                if sq != ABSENT {
                    out[n] = (slot as u8 + 1, sq);
                    n += 1;
                }
            }
            (out, n)
        };
        let (mine, m) = list(&self.mine);
        let (theirs, t) = list(&self.theirs);
        endgame::table_value(&mine[..m], &theirs[..t])
    }
}

/// A hasher for keys that are already well spread once multiplied.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = (k ^ k >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// What one thread has solved.
#[derive(Default)]
pub struct Solver {
    memo: HashMap<u64, f32, BuildHasherDefault<KeyHasher>>,
    budget: usize,
    /// Positions earned and not yet spent ([`paced_win_probability`]).
    credit: f64,
}

impl Solver {
    /// A solver with nothing solved yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Positions solved so far.
    pub fn solved(&self) -> usize {
        self.memo.len()
    }

    /// The probability that the side to roll wins `e` under best play, or
    /// `None` when it would take more than `budget` positions not solved
    /// before (those finished on the way stay solved).
    pub fn solve(&mut self, e: &Ending, budget: usize) -> Option<f64> {
        self.solve_counted(e, budget).0
    }

    /// [`Solver::solve`], and how many new positions it solved.
    fn solve_counted(&mut self, e: &Ending, budget: usize) -> (Option<f64>, usize) {
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        if self.memo.capacity() == 0 {
            // Room for the whole memo at once: growing it later would
            // rehash up to a million entries inside one evaluation.
            self.memo.reserve(MEMO_LIMIT);
        }
        self.budget = budget;
        let v = self.value(e);
        let solved = budget - self.budget;
        self.budget = 0;
        (v, solved)
    }

    /// Earn `rate` positions to solve, keeping at most `cap`.
    fn earn(&mut self, rate: f64, cap: usize) {
        self.credit = (self.credit + rate).min(cap as f64);
    }

    fn value(&mut self, e: &Ending) -> Option<f64> {
        if e.stones() <= 3 {
            return Some(e.table_value());
        }
        let key = e.key();
        if let Some(&v) = self.memo.get(&key) {
            return Some(f64::from(v));
        }
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let mut total = 0.0;
        for face in 1..=6 {
            let (slots, n) = e.movable(face);
            let mut best: f64 = 0.0;
            for &slot in &slots[..n] {
                let (to, count) = steps(0, e.mine[slot]);
                for &t in &to[..count] {
                    best = best.max(self.after_step(e, slot, t)?);
                    if best == 1.0 {
                        break;
                    }
                }
            }
            total += best;
        }
        // Kept as f32; answered as kept, so that a first answer and a
        // remembered one are the same number.
        let v = (total / 6.0) as f32;
        self.memo.insert(key, v);
        Some(f64::from(v))
    }

    /// The value for the side to roll after its stone `slot` steps to `to`.
    fn after_step(&mut self, e: &Ending, slot: usize, to: u8) -> Option<f64> {
        if to == CORNER {
            return Some(1.0);
        }
        let mut next = *e;
        next.mine[slot] = to;
        for s in 0..6 {
            if s != slot && next.mine[s] == to {
                next.mine[s] = ABSENT;
            }
            if next.theirs[s] == to {
                next.theirs[s] = ABSENT;
            }
        }
        if next.theirs.iter().all(|&sq| sq == ABSENT) {
            return Some(1.0);
        }
        Some(1.0 - self.value(&next.flipped())?)
    }
}

/// Solvers of threads that have ended: a solved ending stays solved, so
/// the next search (on new threads) goes on from what the last one left.
static SOLVERS: Pool<(u64, Solver)> = Pool::new();

thread_local! {
    static SOLVER: RefCell<Pooled<(u64, Solver)>> =
        RefCell::new(SOLVERS.take_or(|| (GAME.load(Ordering::Relaxed), Solver::new())));
}

/// The game now played, counted by [`forget_solved`]: a solver kept from
/// an earlier game starts afresh at its thread's next call.
static GAME: AtomicU64 = AtomicU64::new(0);

/// A new game begins: every thread's solver, in the pool or alive,
/// forgets what it solved and saved, so that the game's searches give what
/// they give in a fresh process (what an earlier game solved is true, but
/// the pace at which endings are solved would differ).
pub fn forget_solved() {
    GAME.fetch_add(1, Ordering::Relaxed);
}

/// The game now played, as [`forget_solved`] counts them.
pub fn game() -> u64 {
    GAME.load(Ordering::Relaxed)
}

/// `f` on this thread's solver, emptied first if it is an earlier game's.
fn with_solver<T>(f: impl FnOnce(&mut Solver) -> T) -> T {
    SOLVER.with(|cell| {
        let mut kept = cell.borrow_mut();
        let game = GAME.load(Ordering::Relaxed);
        if kept.0 != game {
            **kept = (game, Solver::new());
        }
        f(&mut kept.1)
    })
}

/// This thread earns `rate` positions to solve (up to `cap` saved): the
/// evaluator calls it for each position it counts that is not an ending.
pub fn earn(rate: f64, cap: usize) {
    with_solver(|s| s.earn(rate, cap));
}

/// Most new positions one paced solve may take, whatever the thread has
/// saved: a call of the evaluation runs to its end, and solving 20,000 new
/// positions of a five-stone ending took 30 to 175 ms at once, long past a
/// short move's time (games at 20 ms a move were lost on time); with 1,000
/// a call, 5% of the moves at 20 ms still ran 5 ms or more past their hard
/// limit, with 100 about 1% (docs/einstein.md). An ending that needs more
/// is solved over several calls, the positions solved by each kept.
pub const MAX_SOLVE_BURST: usize = 100;

/// [`win_probability`] with a paced budget: this thread earns `rate`
/// positions (up to `cap` saved), then solves with what it has saved (at
/// most [`MAX_SOLVE_BURST`] in one call) and spends what it used.
pub fn paced_win_probability(
    board: &Board,
    max_stones: usize,
    rate: f64,
    cap: usize,
) -> Option<f64> {
    with_solver(|s| {
        s.earn(rate, cap);
        let e = Ending::of(board).filter(|e| e.stones() <= max_stones)?;
        let budget = (s.credit as usize).min(MAX_SOLVE_BURST);
        let (answer, solved) = s.solve_counted(&e, budget);
        s.credit -= solved as f64;
        answer
    })
}

/// The exact probability that the side to move wins `board` (in play,
/// before its roll, with at most `max_stones` stones), from this thread's
/// solver, solving at most `budget` new positions; `None` otherwise.
pub fn win_probability(board: &Board, max_stones: usize, budget: usize) -> Option<f64> {
    let e = Ending::of(board)?;
    if e.stones() > max_stones {
        return None;
    }
    with_solver(|s| s.solve(&e, budget))
}
