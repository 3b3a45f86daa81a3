//! The solver's search above the last four empty squares: the dispatch by
//! number of empty squares, the table tier with fastest-first ordering, and
//! the parity tier below it (see the module docs of [`super`]).

use crate::board::{flips, flips_at, legal_placements, CORNERS};

use super::busy::{self, SHARED_MIN_EMPTIES};
use super::{
    final_score, odd_quadrants, order_evaluator, parity_order, probcut_plies,
    stability::score_ceiling, Entry, OrderEvaluation, Solver, PROBCUT_MIN_EMPTIES, SCORE_INFINITY,
    SELECTIVE_MARGINS, SQUARE_GROUPS, TABLE_MIN_EMPTIES,
};

/// The weights of the fastest-first key (see [`MoveList::sort`]); a
/// higher key is searched first.
struct SortWeights {
    /// Taken off for each of the opponent's replies.
    reply: i32,
    /// Taken off again for each of those replies that takes a corner.
    corner_reply: i32,
    /// Taken off for each square of the opponent's potential mobility
    /// (the empty squares next to the mover's discs).
    potential: i32,
    /// Added for a move that keeps parity (into a quadrant holding an odd
    /// number of empty squares).
    parity: i32,
    /// Added for a corner.
    corner: i32,
    /// Added for each of the mover's discs that a corner makes stable
    /// after the move. Proving a score near a wipe-out (FFO 59, +64) is a
    /// race to discs that cannot be taken back: with this term the solver
    /// searches FFO 59 in under a million nodes instead of 165 million.
    corner_stability: i32,
    /// Hundredths of a disc of the evaluation (or of the search of it)
    /// worth one unit of the key.
    eval_divisor: i32,
}

/// The key's weights below [`EVAL_SORT_MIN_EMPTIES`], where moves are
/// sorted without the evaluation (so its divisor is unused). These,
/// [`EVAL_WEIGHTS`] and [`SEARCH_WEIGHTS`] were chosen by the nodes of
/// whole solves of 20 of plyd's own positions of 22 and 24 empty squares
/// (`selfplay-endgames.txt`), one weight at a time; FFO 40-52, apart from
/// them, took 9.9% fewer nodes than with the weights before (16, 16, 4,
/// 6, 4 and 2 in all three, a divisor of 25; docs/othello.md, "The
/// order's weights, chosen by nodes").
const FAST_WEIGHTS: SortWeights = SortWeights {
    reply: 28,
    corner_reply: 24,
    potential: 2,
    parity: 6,
    corner: 4,
    corner_stability: 5,
    eval_divisor: 1,
};

/// The key's weights where moves are also sorted by the evaluation of the
/// position each leads to (from [`EVAL_SORT_MIN_EMPTIES`]); see
/// [`FAST_WEIGHTS`].
const EVAL_WEIGHTS: SortWeights = SortWeights {
    reply: 12,
    corner_reply: 12,
    potential: 6,
    parity: 3,
    corner: 4,
    corner_stability: 4,
    eval_divisor: 35,
};

/// The key's weights where moves are sorted by a search of the evaluation
/// (from [`SEARCH_SORT_MIN_EMPTIES`]); see [`FAST_WEIGHTS`].
const SEARCH_WEIGHTS: SortWeights = SortWeights {
    reply: 10,
    corner_reply: 12,
    potential: 6,
    parity: 3,
    corner: 0,
    corner_stability: 5,
    eval_divisor: 30,
};

/// The discs of `own` that a corner makes stable at a glance: the corners
/// it holds and, next to each, the two edge squares it holds.
#[inline]
fn corner_stable(own: u64) -> u64 {
    let next_to_own_corners = ((own & 0x0100_0000_0000_0001) << 1)
        | ((own & 0x8000_0000_0000_0080) >> 1)
        | ((own & 0x0000_0000_0000_0081) << 8)
        | ((own & 0x8100_0000_0000_0000) >> 8);
    (next_to_own_corners | CORNERS) & own
}

/// How many discs [`corner_stable`] finds.
#[inline]
fn corner_stability(own: u64) -> i32 {
    corner_stable(own).count_ones() as i32
}

/// Fewest empty squares at which a node tries the stability cutoff.
const STABILITY_MIN_EMPTIES: u32 = 7;

/// Fewest discs of lead that `alpha` must stand for before positions with
/// 4 to 6 empty squares look for the stability cutoff: with so few squares
/// left it seldom pays, except in searches proving a score near the most
/// a side can have (a wipe-out: FFO 59 searched 527 million nodes without
/// it, 163 million with it, and the FFO 40-44 solves are unchanged).
const LOW_STABILITY_ALPHA: i32 = 40;

/// [`stability_cutoff`] for positions with 4 to 6 empty squares.
#[inline]
pub(super) fn low_stability_cutoff(own: u64, opp: u64, alpha: i32) -> Option<i32> {
    if alpha < LOW_STABILITY_ALPHA {
        return None;
    }
    stability_cutoff(own, opp, alpha)
}

/// The stability cutoff: `Some(ceiling)` when the most the side to move can
/// finish with, given the opponent's stable discs, is no more than
/// `alpha`. Stable discs are looked for only when the opponent has enough
/// discs for the ceiling to reach down to `alpha` at all.
#[inline]
fn stability_cutoff(own: u64, opp: u64, alpha: i32) -> Option<i32> {
    if alpha < 64 - 2 * opp.count_ones() as i32 {
        return None;
    }
    // The opponent's corners are stable: when they alone bring the ceiling
    // down to alpha, that looser ceiling is bound enough.
    let corners = 64 - 2 * (opp & CORNERS).count_ones() as i32;
    if corners <= alpha {
        return Some(corners);
    }
    let ceiling = score_ceiling(own, opp);
    (ceiling <= alpha).then_some(ceiling)
}

/// The solver's table key of a position: distinct from the game's own hash
/// (which also mixes in the colour to move), so that solver entries and
/// evaluation-search entries never answer for one another.
#[inline]
pub(crate) fn table_key(own: u64, opp: u64) -> u64 {
    mix(mix(own ^ 0x5be0_cd19_137e_2179) ^ opp.rotate_left(17))
}

/// SplitMix64's finaliser.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The squares next to any square of `bits` (and `bits` itself).
#[inline]
pub(super) const fn neighbours(bits: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let row = bits | ((bits << 1) & NOT_A) | ((bits >> 1) & NOT_H);
    row | (row << 8) | (row >> 8)
}

/// Fewest empty squares at which moves are also sorted by the
/// evaluation of the position they lead to.
const EVAL_SORT_MIN_EMPTIES: u32 = 12;

/// Fewest empty squares at which moves are sorted by a search of the
/// evaluation below the position they lead to, rather than by the
/// evaluation of that position alone.
const SEARCH_SORT_MIN_EMPTIES: u32 = 18;

/// Plies of that search.
const SEARCH_SORT_PLIES: u32 = 2;

/// Fewest empty squares at which that search goes [`DEEP_SORT_PLIES`]
/// deep: FFO 45-49, 50-52 and 53 search 6%, 9% and 17% fewer nodes (the
/// sorts' included) in 5%, 4% and 15% less time, FFO 40-44 3% more; three
/// plies, an odd number, sorted worse than two, and six cost more than
/// they saved (docs/othello.md, "Sorting by shallow searches").
const DEEP_SORT_MIN_EMPTIES: u32 = 22;

/// Plies of the sorting search from [`DEEP_SORT_MIN_EMPTIES`].
const DEEP_SORT_PLIES: u32 = 4;

/// What the evaluation adds to the order of a node's moves.
#[derive(Clone, Copy)]
pub(crate) enum EvalOrder {
    /// Nothing: fastest-first, parity and corners alone.
    None,
    /// A search of the evaluation this many plies below the position each
    /// move leads to; with 0 plies, that position's evaluation alone.
    Search(&'static dyn OrderEvaluation, u32),
}

/// How a node with `count` empty squares sorts its moves: by a shallow
/// search from [`SEARCH_SORT_MIN_EMPTIES`], where the subtrees are large
/// enough to pay for it (a deeper one from [`DEEP_SORT_MIN_EMPTIES`]),
/// by the evaluation alone from [`EVAL_SORT_MIN_EMPTIES`], and without it
/// below.
pub(crate) fn eval_order(count: u32) -> EvalOrder {
    match order_evaluator() {
        Some(evaluate) if count >= DEEP_SORT_MIN_EMPTIES => {
            EvalOrder::Search(evaluate, DEEP_SORT_PLIES)
        }
        Some(evaluate) if count >= SEARCH_SORT_MIN_EMPTIES => {
            EvalOrder::Search(evaluate, SEARCH_SORT_PLIES)
        }
        Some(evaluate) if count >= EVAL_SORT_MIN_EMPTIES => EvalOrder::Search(evaluate, 0),
        _ => EvalOrder::None,
    }
}

/// Fewest empty squares at which a node looks its children up in the
/// table before searching them (enhanced transposition cutoff): below it
/// the look-ups cost more than the cutoffs save.
const ETC_MIN_EMPTIES: u32 = 12;

/// Most legal moves an Othello position can have is well under this.
const MAX_MOVES: usize = 48;

/// The moves of one node with what each flips, sorted best first.
pub(crate) struct MoveList {
    squares: [u8; MAX_MOVES],
    flipped: [u64; MAX_MOVES],
    keys: [i32; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub(crate) fn new() -> Self {
        MoveList {
            squares: [0; MAX_MOVES],
            flipped: [0; MAX_MOVES],
            keys: [0; MAX_MOVES],
            len: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn square(&self, i: usize) -> usize {
        usize::from(self.squares[i])
    }

    pub(crate) fn flipped(&self, i: usize) -> u64 {
        self.flipped[i]
    }

    /// The table key of the position that move `i` leads to, from the
    /// position with `own` to move against `opp`.
    #[inline]
    pub(crate) fn child_key(&self, own: u64, opp: u64, i: usize) -> u64 {
        let flipped = self.flipped[i];
        table_key(opp & !flipped, own | flipped | 1u64 << self.squares[i])
    }

    /// Fill with `moves` (the legal placements of `own` against `opp`)
    /// sorted as [`Self::sort`] sorts them. Returns the positions the
    /// order's searches visited.
    pub(crate) fn fill(
        &mut self,
        own: u64,
        opp: u64,
        moves: u64,
        table_move: Option<u32>,
        order: EvalOrder,
    ) -> u64 {
        self.generate(own, opp, moves);
        self.sort(own, opp, table_move, order)
    }

    /// Fill with `moves` and what each flips, unsorted.
    pub(crate) fn generate(&mut self, own: u64, opp: u64, moves: u64) {
        self.len = 0;
        let mut bits = moves;
        while bits != 0 {
            let square = bits.trailing_zeros();
            bits &= bits - 1;
            self.squares[self.len] = square as u8;
            self.flipped[self.len] = flips(own, opp, 1u64 << square);
            self.len += 1;
        }
    }

    /// Sort the moves [`Self::generate`] wrote fastest-first: fewest
    /// replies for the opponent (a corner reply counting more), the
    /// opponent's potential mobility, a move that keeps parity, a corner
    /// and the discs corners make stable, weighed by [`FAST_WEIGHTS`], and
    /// with `order` by [`EVAL_WEIGHTS`] or [`SEARCH_WEIGHTS`] and the
    /// evaluation of the position each move leads to (or a search of it);
    /// `table_move` before everything. Returns the positions the
    /// order's searches visited.
    pub(crate) fn sort(
        &mut self,
        own: u64,
        opp: u64,
        table_move: Option<u32>,
        order: EvalOrder,
    ) -> u64 {
        if self.len < 2 {
            // Nothing to order: no key, and above all no search of the
            // evaluation, is worth computing.
            return 0;
        }
        let mut visited = 0;
        // The opponent's evaluation after each move, from its side.
        let mut values = [0i32; MAX_MOVES];
        let values = &mut values[..self.len];
        let moves = (&self.squares[..self.len], &self.flipped[..self.len]);
        if let EvalOrder::Search(evaluation, plies) = order {
            evaluation.children(own, opp, moves, plies, values, &mut visited);
        }
        let odd = odd_quadrants(!(own | opp));
        let w = match order {
            EvalOrder::None => &FAST_WEIGHTS,
            EvalOrder::Search(_, 0) => &EVAL_WEIGHTS,
            EvalOrder::Search(..) => &SEARCH_WEIGHTS,
        };
        for (n, value) in values.iter().enumerate() {
            let (square, flipped) = (self.squares[n], self.flipped[n]);
            let disc = 1u64 << square;
            let mover = own | flipped | disc;
            let replies = legal_placements(opp & !flipped, mover);
            // Empty squares next to the mover's discs: where the opponent
            // may find moves later (potential mobility).
            let frontier = neighbours(mover) & !(mover | opp);
            let mut key = -w.reply * replies.count_ones() as i32
                - w.corner_reply * (replies & CORNERS).count_ones() as i32
                - w.potential * frontier.count_ones() as i32;
            if disc & odd != 0 {
                key += w.parity;
            }
            if disc & CORNERS != 0 {
                key += w.corner;
            }
            key += w.corner_stability * corner_stability(mover);
            key -= value / w.eval_divisor;
            if table_move == Some(u32::from(square)) {
                key = i32::MAX;
            }
            self.insert(n, key, square, flipped);
        }
        visited
    }

    /// Fill with `moves` (the legal placements of `own` against `opp`)
    /// sorted by the replies each leaves the opponent, fewest first, a
    /// reply on a corner counting twice: a cheap order that finds most
    /// cuts of a shallow search early (the midgame's searches of the last
    /// plies, [`crate::shallow`], sort by replies too). Moves with as many
    /// replies keep the order of their squares.
    pub(crate) fn fill_by_replies(&mut self, own: u64, opp: u64, moves: u64) {
        self.generate(own, opp, moves);
        for n in 0..self.len {
            let (square, flipped) = (self.squares[n], self.flipped[n]);
            let replies = legal_placements(opp & !flipped, own | flipped | 1u64 << square);
            let key = -((replies.count_ones() + (replies & CORNERS).count_ones()) as i32);
            self.insert(n, key, square, flipped);
        }
    }

    /// Insert the move on `square`, flipping `flipped`, with `key` into
    /// the first `n` moves, sorted by key, highest first (after those
    /// with the same key): lists are short.
    #[inline(always)]
    fn insert(&mut self, n: usize, key: i32, square: u8, flipped: u64) {
        let mut i = n;
        while i > 0 && self.keys[i - 1] < key {
            self.keys[i] = self.keys[i - 1];
            self.squares[i] = self.squares[i - 1];
            self.flipped[i] = self.flipped[i - 1];
            i -= 1;
        }
        self.keys[i] = key;
        self.squares[i] = square;
        self.flipped[i] = flipped;
    }

    /// Keep only the moves on the squares of `squares`, in their order.
    pub(crate) fn retain(&mut self, squares: u64) {
        let mut kept = 0;
        for i in 0..self.len {
            if squares & (1u64 << self.squares[i]) != 0 {
                self.squares[kept] = self.squares[i];
                self.flipped[kept] = self.flipped[i];
                self.keys[kept] = self.keys[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Rotate the order left by `shift` places.
    pub(crate) fn rotate(&mut self, shift: usize) {
        self.squares[..self.len].rotate_left(shift);
        self.flipped[..self.len].rotate_left(shift);
        self.keys[..self.len].rotate_left(shift);
    }
}

impl Solver<'_> {
    /// The value of one child of a principal variation node, from the
    /// parent's side: the first child with the full window, the others
    /// with a null window first and again with the full window when they
    /// land inside it (unless the solve has been stopped).
    #[inline]
    pub(crate) fn principal_child(
        &mut self,
        child_own: u64,
        child_opp: u64,
        first: bool,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if first {
            return -self.search(child_own, child_opp, -beta, -alpha, false);
        }
        let probe = -self.search(child_own, child_opp, -alpha - 1, -alpha, false);
        if probe > alpha && probe < beta && !self.stopped {
            -self.search(child_own, child_opp, -beta, -alpha, false)
        } else {
            probe
        }
    }

    /// [`Self::principal_child`] of move `i` of `walk`, its position
    /// marked as searched while `shared` (see [`busy`]); `None` when
    /// another thread is searching it and it may still wait (neither
    /// `first` nor put off before), in which case `walk` puts it off.
    #[inline(always)]
    pub(crate) fn child_unless_busy(
        &mut self,
        walk: &mut busy::Walk,
        (i, may_wait): (usize, bool),
        shared: bool,
        (child_own, child_opp): (u64, u64),
        first: bool,
        (alpha, beta): (i32, i32),
    ) -> Option<i32> {
        let Some(mark) = busy::enter(shared, child_own, child_opp, may_wait && !first) else {
            walk.defer(i);
            return None;
        };
        let value = self.principal_child(child_own, child_opp, first, alpha, beta);
        busy::leave(mark);
        Some(value)
    }

    /// The score of a position for the side to move (`own`), by number of
    /// empty squares: the last ones in [`super::last`], then the parity
    /// tier, then the table tier. `passed` says the opponent has just
    /// passed, which the last-squares functions use to end the game
    /// without generating the opponent's moves again.
    pub(crate) fn search(
        &mut self,
        own: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        let empties = !(own | opp);
        let count = empties.count_ones();
        if count > 4 {
            return if count < TABLE_MIN_EMPTIES {
                self.parity_search(own, opp, alpha, beta, count)
            } else {
                self.table_search(own, opp, alpha, beta, count)
            };
        }
        let mut order = [0usize; 4];
        parity_order(empties, &mut order);
        match count {
            0 => {
                self.nodes += 1;
                final_score(own, opp)
            }
            1 => self.solve_1(own, order[0]),
            2 => self.solve_2(own, opp, alpha, beta, [order[0], order[1]], passed),
            3 => self.solve_3(
                own,
                opp,
                alpha,
                beta,
                [order[0], order[1], order[2]],
                passed,
            ),
            _ => self.solve_4(
                own,
                opp,
                alpha,
                beta,
                [order[0], order[1], order[2], order[3]],
                passed,
            ),
        }
    }

    /// The score when the side to move cannot place: the game is over, or
    /// the turn passes.
    #[inline]
    fn pass_or_end(&mut self, own: u64, opp: u64, alpha: i32, beta: i32) -> i32 {
        if legal_placements(opp, own) == 0 {
            final_score(own, opp)
        } else {
            -self.search(opp, own, -beta, -alpha, true)
        }
    }

    /// Fail-soft alpha-beta with parity ordering and no table, for 5 to
    /// `TABLE_MIN_EMPTIES - 1` empty squares.
    fn parity_search(&mut self, own: u64, opp: u64, mut alpha: i32, beta: i32, count: u32) -> i32 {
        self.nodes += 1;
        if count >= STABILITY_MIN_EMPTIES {
            if let Some(ceiling) = stability_cutoff(own, opp, alpha) {
                return ceiling;
            }
        } else if let Some(ceiling) = low_stability_cutoff(own, opp, alpha) {
            return ceiling;
        }
        let empties = !(own | opp);
        // Squares next to none of the opponent's discs cannot flip any.
        let candidates = empties & neighbours(opp);
        let odd = odd_quadrants(empties);
        let mut best = -SCORE_INFINITY;
        for part in [candidates & odd, candidates & !odd] {
            for group in SQUARE_GROUPS {
                let mut bits = part & group;
                while bits != 0 {
                    let disc = bits & bits.wrapping_neg();
                    bits &= bits - 1;
                    let flipped = flips_at(own, opp, disc.trailing_zeros() as usize);
                    if flipped == 0 {
                        continue;
                    }
                    let (child_own, child_opp) = (opp & !flipped, own | flipped | disc);
                    let value = if count == 5 {
                        let mut order = [0usize; 4];
                        parity_order(!(child_own | child_opp), &mut order);
                        -self.solve_4(
                            child_own,
                            child_opp,
                            -beta,
                            -alpha,
                            [order[0], order[1], order[2], order[3]],
                            false,
                        )
                    } else {
                        -self.parity_search(child_own, child_opp, -beta, -alpha, count - 1)
                    };
                    if value > best {
                        best = value;
                        if value >= beta {
                            return value;
                        }
                        alpha = alpha.max(value);
                    }
                }
            }
        }
        if best == -SCORE_INFINITY {
            // No square flipped anything: the side to move cannot place.
            return self.pass_or_end(own, opp, alpha, beta);
        }
        best
    }

    /// Enhanced transposition cutoff: a move whose resulting position the
    /// table already proves at least `beta` for us (an upper bound or an
    /// exact score at most `-beta` for the opponent) decides the node
    /// before any move is searched.
    fn transposition_cutoff(
        &mut self,
        own: u64,
        opp: u64,
        list: &MoveList,
        beta: i32,
        count: u32,
    ) -> Option<i32> {
        // Every child's slot is asked for before the first is read, so
        // that the reads overlap.
        let mut keys = [0u64; MAX_MOVES];
        for (i, key) in keys[..list.len()].iter_mut().enumerate() {
            *key = list.child_key(own, opp, i);
            self.prefetch(*key, count - 1);
        }
        for &key in &keys[..list.len()] {
            if let Some(entry) = self.probe(key, count - 1) {
                if entry.depth == count - 1 && -entry.upper >= beta && self.trusts(&entry) {
                    return Some(-entry.upper);
                }
            }
        }
        None
    }

    /// Principal variation search with the table and fastest-first
    /// ordering, for `TABLE_MIN_EMPTIES` empty squares and more.
    fn table_search(
        &mut self,
        own: u64,
        opp: u64,
        mut alpha: i32,
        mut beta: i32,
        count: u32,
    ) -> i32 {
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        // The slot is asked for first: the stability cutoff and the move
        // generation run while it comes.
        let key = table_key(own, opp);
        self.prefetch(key, count);
        if count >= STABILITY_MIN_EMPTIES {
            if let Some(ceiling) = stability_cutoff(own, opp, alpha) {
                return ceiling;
            }
        }
        let moves = legal_placements(own, opp);
        if moves == 0 {
            return self.pass_or_end(own, opp, alpha, beta);
        }
        let found = self.probe(key, count).filter(|entry| entry.depth == count);
        // The bounds of a more selective pass do not hold here; its move
        // is still the best guess there is.
        let known = found.filter(|entry| self.trusts(entry));
        if let Some(entry) = known {
            if entry.lower >= beta || entry.lower == entry.upper {
                return entry.lower;
            }
            if entry.upper <= alpha {
                return entry.upper;
            }
            // What is proved narrows the window.
            alpha = alpha.max(entry.lower);
            beta = beta.min(entry.upper);
        }
        let table_move = found
            .map(|entry| entry.best)
            .filter(|&best| best < 64 && moves & (1u64 << best) != 0);
        if self.level != 0 && count >= PROBCUT_MIN_EMPTIES {
            if let Some(value) = self.probable_cut(own, opp, alpha, beta, count) {
                return value;
            }
        }
        let mut list = MoveList::new();
        let etc = count >= ETC_MIN_EMPTIES;
        if etc {
            list.generate(own, opp, moves);
            if let Some(value) = self.transposition_cutoff(own, opp, &list, beta, count) {
                return value;
            }
        }
        let first_alpha = alpha;
        let mut best = -SCORE_INFINITY;
        let mut best_move = 64;
        let mut rest = moves;
        // The table's move first, before the others are sorted: when it
        // cuts, they never are.
        if let Some(square) = table_move {
            let disc = 1u64 << square;
            let flipped = flips_at(own, opp, square as usize);
            let value =
                self.principal_child(opp & !flipped, own | flipped | disc, true, alpha, beta);
            if self.stopped {
                return 0;
            }
            best = value;
            best_move = square as usize;
            alpha = alpha.max(value);
            rest &= !disc;
        }
        if best < beta && rest != 0 {
            if etc {
                list.retain(rest);
            } else {
                list.generate(own, opp, rest);
                // The children's slots, asked for while the moves are
                // sorted (children of the table tier only).
                if count > TABLE_MIN_EMPTIES {
                    for i in 0..list.len() {
                        self.prefetch(list.child_key(own, opp, i), count - 1);
                    }
                }
            }
            self.nodes += list.sort(own, opp, None, eval_order(count));
            let searched = moves != rest;
            // With other solves running, a move whose position one of them
            // is searching waits until the others are done (see [`busy`]).
            let shared = count > SHARED_MIN_EMPTIES && busy::shared();
            let mut walk = busy::Walk::new(list.len());
            while let Some((i, may_wait)) = walk.next() {
                let first = i == 0 && may_wait && !searched;
                let (square, flipped) = (list.square(i), list.flipped(i));
                let child = (opp & !flipped, own | flipped | 1u64 << square);
                let step = (i, may_wait);
                let Some(value) =
                    self.child_unless_busy(&mut walk, step, shared, child, first, (alpha, beta))
                else {
                    continue;
                };
                if self.stopped {
                    return 0;
                }
                if value > best {
                    best = value;
                    best_move = square;
                    if value >= beta {
                        break;
                    }
                    alpha = alpha.max(value);
                }
            }
        }
        let entry = Entry::after_search(known, best_move as u32, best, first_alpha, beta, count);
        self.store_searched(key, entry);
        best
    }

    /// A probable cut (Buro's ProbCut, applied to the search to the end):
    /// the window's bound, when a shallow search of the order evaluation
    /// lies beyond it by the margin of the pass under way, so that the
    /// exact score most probably does too; the search goes deeper at
    /// more empty squares (`count`, see [`probcut_plies`]). Only selective
    /// passes call it.
    fn probable_cut(
        &mut self,
        own: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        count: u32,
    ) -> Option<i32> {
        let evaluation = order_evaluator()?;
        let margin = SELECTIVE_MARGINS[self.level as usize - 1];
        let plies = probcut_plies(count);
        if beta < 64 {
            let high = 100 * beta + margin;
            let value = evaluation.estimate(own, opp, plies, (high - 1, high), &mut self.nodes);
            if value >= high {
                return Some(beta);
            }
        }
        if alpha > -64 {
            let low = 100 * alpha - margin;
            let value = evaluation.estimate(own, opp, plies, (low, low + 1), &mut self.nodes);
            if value <= low {
                return Some(alpha);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::stability::stable_discs;
    use crate::testing::{next, random_position};

    #[test]
    fn corner_stability_counts_corners_and_the_edge_squares_they_hold() {
        // a1, b1 and a2 (a1's two neighbours on the edges), and h8 alone.
        let own = 0b11 | 1 << 8 | 1 << 63;
        assert_eq!(corner_stability(own), 4);
        // b1 and a2 without a1 count for nothing; b2 never does.
        assert_eq!(corner_stability(0b10 | 1 << 8 | 1 << 9), 0);
        assert_eq!(corner_stability(0), 0);
    }

    #[test]
    fn what_corner_stability_counts_is_stable() {
        let mut rng = 5;
        for _ in 0..2_000 {
            let stop = (next(&mut rng) % 40) as u32;
            let position = random_position(&mut rng, stop);
            for (own, opp) in [
                (position.black, position.white),
                (position.white, position.black),
            ] {
                let stable = stable_discs(own, opp);
                assert_eq!(corner_stable(own) & !stable, 0, "{own:#x} {opp:#x}");
            }
        }
    }
}
