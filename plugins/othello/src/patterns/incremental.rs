//! The `patterns` evaluator's incremental stack: each position on the
//! search's path keeps the index of every distinct pattern instance, seen
//! from both colours, and a move updates only the instances of the squares
//! it changed (Edax's way of updating its pattern features as discs flip).
//!
//! A push only records the position; the indices are brought up to date
//! when a position is evaluated, from the nearest position below it whose
//! indices are known (the lazy accumulators of NNUE engines), so the
//! positions the search never evaluates cost nothing but the copy.
//!
//! An index is linear in its digits (`Σ 3^i · digit_i`), so changing one
//! square's digit from `a` to `b` adds `(b − a) · 3^i` to every instance
//! holding it at digit `i`. Indices are kept modulo 2^16: every true index
//! is below 3^10 < 2^16, so wrapping arithmetic ends on the exact value.

use std::cell::Cell;
use std::sync::OnceLock;

use plyd_othello_rules::board::{squares, Color};

use super::features::{distinct_indices, DISTINCT};
use super::{Patterns, GUESS_BOUND};
use crate::game::Othello;
use crate::shallow::Leaves;

/// The distinct instances' indices with `own` as the side to move's
/// discs, as `u16`, padded with zeros to `N` lanes (`N` at least
/// [`DISTINCT`]).
pub(super) fn indices_of<const N: usize>(own: u64, opp: u64) -> [u16; N] {
    let mut out = [0u16; N];
    for (slot, index) in out.iter_mut().zip(distinct_indices(own, opp)) {
        *slot = index as u16;
    }
    out
}

/// One position of the path.
#[derive(Debug, Clone, Copy)]
struct Entry {
    black: u64,
    white: u64,
    /// Whether the views below are those of this position.
    known: bool,
    /// With Black's discs as the own ones (`own`), and with White's
    /// (`opp`).
    views: Views,
}

impl Entry {
    fn computed(black: u64, white: u64) -> Self {
        Entry {
            black,
            white,
            known: true,
            views: fresh_views(black, white),
        }
    }

    /// This position's views, from those of `from` (known).
    fn update_from(&mut self, from: &Entry) {
        self.views = moved(&from.views, from.black, from.white, self.black, self.white);
        self.known = true;
    }
}

/// One search thread's stack of positions. Entries at and above `len`
/// are left over from earlier lines and reused by later pushes.
#[derive(Debug, Clone, Default)]
pub struct PatternStack {
    entries: Vec<Entry>,
    len: usize,
}

impl PatternStack {
    /// Hold `state` as the only position.
    pub fn reset(&mut self, state: &Othello) {
        let p = state.position();
        let root = Entry::computed(p.black, p.white);
        match self.entries.first_mut() {
            Some(first) => *first = root,
            None => self.entries.push(root),
        }
        self.len = 1;
    }

    /// Hold `state` on top; its indices are left for [`PatternStack::top`].
    #[inline]
    pub fn push(&mut self, state: &Othello) {
        let p = state.position();
        if self.len == self.entries.len() {
            self.entries.push(Entry {
                black: 0,
                white: 0,
                known: false,
                views: Views {
                    own: [0; ROW],
                    opp: [0; ROW],
                },
            });
        }
        let entry = &mut self.entries[self.len];
        entry.black = p.black;
        entry.white = p.white;
        entry.known = false;
        self.len += 1;
    }

    /// Take back the last push (never the root).
    #[inline]
    pub fn pop(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }

    /// The indices of the top position, `state`, for its side to move.
    pub fn top(&mut self, state: &Othello) -> [u16; DISTINCT] {
        let p = state.position();
        let in_step = self.len > 0 && {
            let e = &self.entries[self.len - 1];
            e.black == p.black && e.white == p.white
        };
        if !in_step {
            // Not the position the stack holds (a host that skipped a
            // push, or no reset yet): start again from it.
            self.reset(state);
        }
        let top = self.len - 1;
        if !self.entries[top].known {
            // The root is always known, so a known entry lies below.
            let base = (0..top).rev().find(|&i| self.entries[i].known).unwrap_or(0);
            for i in base + 1..=top {
                let (done, rest) = self.entries.split_at_mut(i);
                rest[0].update_from(&done[i - 1]);
            }
        }
        let entry = &self.entries[top];
        let view = match p.side {
            Color::Black => &entry.views.own,
            Color::White => &entry.views.opp,
        };
        *distinct_lanes(view)
    }
}

/// Lanes of one view in [`Views`]: the distinct instances, padded to a
/// whole number of 16-byte vectors.
const ROW: usize = 48;

/// The lanes of a view that hold the distinct instances (the rest pads).
#[inline(always)]
fn distinct_lanes(view: &[u16; ROW]) -> &[u16; DISTINCT] {
    view[..DISTINCT].try_into().expect("ROW holds DISTINCT")
}

/// For each square, the weight `3^i` it has in each distinct instance
/// holding it at digit `i` (0 in the other lanes): a disc changed on the
/// square from digit `a` to `b` adds `(b − a)` times the row to a view.
fn square_rows() -> &'static [[u16; ROW]; 64] {
    static ROWS: OnceLock<[[u16; ROW]; 64]> = OnceLock::new();
    ROWS.get_or_init(|| {
        std::array::from_fn(|square| {
            let mut row = [0u16; ROW];
            for (lane, &index) in distinct_indices(1u64 << square, 0).iter().enumerate() {
                row[lane] = index as u16;
            }
            row
        })
    })
}

/// Both views of a position's distinct instances, as the shallow search
/// keeps them: with the side to move's discs as the own ones, and with its
/// opponent's.
#[derive(Debug, Clone, Copy)]
pub struct Views {
    own: [u16; ROW],
    opp: [u16; ROW],
}

impl Views {
    /// The side to move's view: its distinct instances' indices.
    #[inline(always)]
    pub(super) fn own_lanes(&self) -> &[u16; DISTINCT] {
        distinct_lanes(&self.own)
    }
}

/// The sum of the rows of the squares in `bits`.
#[inline(always)]
fn rows_of(bits: u64) -> [u16; ROW] {
    let rows = square_rows();
    let mut sum = [0u16; ROW];
    for square in squares(bits) {
        let row = &rows[square as usize & 63];
        for (s, r) in sum.iter_mut().zip(row) {
            *s = s.wrapping_add(*r);
        }
    }
    sum
}

/// A position's [`Views`] with its discs: the last root a thread's shallow
/// searches started from.
#[derive(Clone, Copy)]
struct Root {
    own: u64,
    opp: u64,
    views: Views,
}

thread_local! {
    static LAST_ROOT: Cell<Option<Root>> = const { Cell::new(None) };
}

/// Changed squares up to which [`root_views`] updates the last root's
/// views rather than reading the position afresh (about a thousand
/// instructions a view, under callgrind).
const UPDATE_LIMIT: u32 = 24;

/// The views of the position with `own` to move against `opp`. The roots
/// of one thread's shallow searches follow each other closely (the host's
/// siblings differ by two placements and their flips), so they are
/// brought over from the last root, as the side to move's or as the
/// opponent's, whichever changes fewer squares.
pub(super) fn root_views(own: u64, opp: u64) -> Views {
    let views = match LAST_ROOT.get() {
        Some(last) => {
            let same = (own ^ last.own) | (opp ^ last.opp);
            let swapped = (own ^ last.opp) | (opp ^ last.own);
            if same.count_ones() <= swapped.count_ones().min(UPDATE_LIMIT) {
                moved(&last.views, last.own, last.opp, own, opp)
            } else if swapped.count_ones() <= UPDATE_LIMIT {
                let turned = Views {
                    own: last.views.opp,
                    opp: last.views.own,
                };
                moved(&turned, last.opp, last.own, own, opp)
            } else {
                fresh_views(own, opp)
            }
        }
        None => fresh_views(own, opp),
    };
    LAST_ROOT.set(Some(Root { own, opp, views }));
    views
}

/// The side to move's view of the position with `own` to move against
/// `opp`, as [`root_views`] finds it: the engine evaluates the positions
/// just above the shallow searches' roots, as close to the last root as
/// the roots are to each other.
pub(super) fn own_view(own: u64, opp: u64) -> [u16; DISTINCT] {
    *distinct_lanes(&root_views(own, opp).own)
}

/// Both views read afresh.
fn fresh_views(own: u64, opp: u64) -> Views {
    Views {
        own: indices_of(own, opp),
        opp: indices_of(opp, own),
    }
}

/// `views` of the position `from_own` against `from_opp`, brought to the
/// position `own` against `opp` square by square: a square's digit is 1
/// for an own disc and 2 for an opponent's in the own view, the other way
/// round in the other.
fn moved(views: &Views, from_own: u64, from_opp: u64, own: u64, opp: u64) -> Views {
    let rows = square_rows();
    let mut out = *views;
    let digit = |mine: u64, theirs: u64, square: u32| {
        ((mine >> square & 1) + 2 * (theirs >> square & 1)) as u16
    };
    for square in squares((own ^ from_own) | (opp ^ from_opp)) {
        let step_own = digit(own, opp, square).wrapping_sub(digit(from_own, from_opp, square));
        let step_opp = digit(opp, own, square).wrapping_sub(digit(from_opp, from_own, square));
        let row = &rows[square as usize & 63];
        for ((o, p), r) in out.own.iter_mut().zip(&mut out.opp).zip(row) {
            *o = o.wrapping_add(r.wrapping_mul(step_own));
            *p = p.wrapping_add(r.wrapping_mul(step_opp));
        }
    }
    out
}

impl Leaves for Patterns {
    type Kept = Views;

    fn keep(&self, own: u64, opp: u64) -> Views {
        root_views(own, opp)
    }

    /// In the other view the placed square goes from 0 to 2 and each
    /// flipped one from 1 to 2.
    #[inline]
    fn leaf_after_placement(&self, kept: &Views, disc: u64, flipped: u64) -> Views {
        let placed = &square_rows()[disc.trailing_zeros() as usize & 63];
        let turned = rows_of(flipped);
        let mut own = kept.opp;
        for ((o, p), t) in own.iter_mut().zip(placed).zip(&turned) {
            *o = o.wrapping_add(p.wrapping_mul(2)).wrapping_add(*t);
        }
        Views { own, opp: [0; ROW] }
    }

    /// In the mover's view the placed square goes from 0 to 1 and each
    /// flipped one from 2 to 1; in the other view from 0 to 2 and from 1
    /// to 2. The views then change places: the opponent is to move.
    #[inline]
    fn after_placement(&self, kept: &Views, disc: u64, flipped: u64) -> Views {
        let placed = &square_rows()[disc.trailing_zeros() as usize & 63];
        let turned = rows_of(flipped);
        let (mut mover, mut other) = (kept.own, kept.opp);
        for (((m, o), p), t) in mover.iter_mut().zip(&mut other).zip(placed).zip(&turned) {
            *m = m.wrapping_add(*p).wrapping_sub(*t);
            *o = o.wrapping_add(p.wrapping_mul(2)).wrapping_add(*t);
        }
        Views {
            own: other,
            opp: mover,
        }
    }

    fn after_pass(&self, kept: &Views) -> Views {
        Views {
            own: kept.opp,
            opp: kept.own,
        }
    }

    #[inline(always)]
    fn score(
        &self,
        own: u64,
        opp: u64,
        own_placements: u64,
        opp_placements: u64,
        kept: &Views,
    ) -> i32 {
        self.score_with(
            own,
            opp,
            own_placements,
            opp_placements,
            distinct_lanes(&kept.own),
        )
        .clamp(-GUESS_BOUND, GUESS_BOUND)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyd_othello_rules::board::Position;
    use plyd_othello_rules::testing::{next, random_move, random_position};

    /// Which way [`root_views`] will take for `own` against `opp`: 0 from
    /// the last root as it is, 1 with its views exchanged, 2 afresh.
    fn way(own: u64, opp: u64) -> usize {
        match LAST_ROOT.get() {
            None => 2,
            Some(last) => {
                let same = ((own ^ last.own) | (opp ^ last.opp)).count_ones();
                let swapped = ((own ^ last.opp) | (opp ^ last.own)).count_ones();
                if same <= swapped.min(UPDATE_LIMIT) {
                    0
                } else if swapped <= UPDATE_LIMIT {
                    1
                } else {
                    2
                }
            }
        }
    }

    fn check(position: &Position, ways: &mut [usize; 3]) {
        let (own, opp) = position.own_and_opponent();
        ways[way(own, opp)] += 1;
        let got = root_views(own, opp);
        let want = fresh_views(own, opp);
        assert_eq!(got.own, want.own, "own view of {position:?}");
        assert_eq!(got.opp, want.opp, "other view of {position:?}");
    }

    /// Roots as a search meets them (the children of one position in
    /// turn, then those of a child, a grandchild, and so on), and positions
    /// of unrelated games between them: each root's views are those read
    /// afresh, whichever way they were found.
    #[test]
    fn root_views_brought_over_equal_views_read_afresh() {
        let mut rng = 0x5eed_u64;
        let mut ways = [0usize; 3];
        for game in 0..40 {
            let empties = 8 + (next(&mut rng) % 50) as u32;
            let mut position = random_position(&mut rng, empties);
            for _ in 0..6 {
                if position.is_game_over() {
                    break;
                }
                for square in squares(position.placements()) {
                    check(&position.play(square), &mut ways);
                }
                check(&position, &mut ways);
                position = position.play(random_move(&position, &mut rng));
            }
            if game % 3 == 0 {
                check(&random_position(&mut rng, 20), &mut ways);
            }
        }
        assert!(ways.iter().all(|&n| n > 20), "ways taken: {ways:?}");
    }
}
