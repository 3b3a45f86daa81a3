//! Positions some solving thread is searching right now, so that the
//! others put them off (simplified ABDADA, after Weill's ABDADA as Tom
//! Kerrigan simplified it for Lazy SMP).
//!
//! Threads solving the same position share the bounds they prove through
//! the host's table, but they reach each node in the same order, so that
//! without more they search the same subtrees at the same time. A node
//! that meets a move whose position another thread is searching leaves it
//! for after its other moves: by then the other thread has usually stored
//! its score, or one of the other moves has cut the node. Only positions
//! of [`SHARED_MIN_EMPTIES`] empty squares or more are marked, where a
//! subtree is worth the few atomic operations (and where the bounds go to
//! the shared table), and only while two or more solves run at once
//! ([`Solving`]): a lone solve searches exactly as before.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Fewest empty squares of a position marked while it is searched.
pub(crate) const SHARED_MIN_EMPTIES: u32 = 14;

/// Slots of the table of marks: a mark is one position's key.
const SLOTS: usize = 1 << 14;

static MARKS: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];

#[cfg(test)]
thread_local! {
    /// Moves this thread has put off so far, for the tests.
    pub(crate) static PUT_OFF: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Solves running in this process now.
static SOLVING: AtomicU32 = AtomicU32::new(0);

/// One running solve, counted in [`SOLVING`] while it lives.
pub(crate) struct Solving;

impl Solving {
    pub(crate) fn start() -> Self {
        SOLVING.fetch_add(1, Ordering::Relaxed);
        Solving
    }
}

impl Drop for Solving {
    fn drop(&mut self) {
        SOLVING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Whether other solves run beside this one, so that marks are worth
/// keeping.
#[inline]
pub(crate) fn shared() -> bool {
    SOLVING.load(Ordering::Relaxed) > 1
}

/// The slot of `key`; a slot holding zero holds no mark.
#[inline]
fn slot(key: u64) -> &'static AtomicU64 {
    &MARKS[(key >> 50) as usize & (SLOTS - 1)]
}

/// Whether some thread is searching the position of `key` now.
#[inline]
pub(crate) fn is_busy(key: u64) -> bool {
    key != 0 && slot(key).load(Ordering::Relaxed) == key
}

/// Mark the position of `key` as searched until [`unmark`]. Another
/// position in the same slot is pushed out: marks are hints only.
#[inline]
pub(crate) fn mark(key: u64) {
    slot(key).store(key, Ordering::Relaxed);
}

/// Take the mark of `key` away, if the slot still holds it.
#[inline]
pub(crate) fn unmark(key: u64) {
    let _ = slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
}

/// The order in which a node walks its moves, `0..len`, with those put
/// off ([`Self::defer`]) after the rest.
pub(crate) struct Walk {
    next: usize,
    len: usize,
    deferred: u64,
}

impl Walk {
    pub(crate) fn new(len: usize) -> Self {
        debug_assert!(len <= 64);
        Walk {
            next: 0,
            len,
            deferred: 0,
        }
    }

    /// The next move's index, and whether it may still be put off (not
    /// once it has been).
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(usize, bool)> {
        if self.next < self.len {
            self.next += 1;
            Some((self.next - 1, true))
        } else if self.deferred != 0 {
            let index = self.deferred.trailing_zeros() as usize;
            self.deferred &= self.deferred - 1;
            Some((index, false))
        } else {
            None
        }
    }

    /// Put move `index` off until every other move has been walked.
    #[inline]
    pub(crate) fn defer(&mut self, index: usize) {
        self.deferred |= 1 << index;
        #[cfg(test)]
        PUT_OFF.with(|count| count.set(count.get() + 1));
    }
}

/// What a node does with the position of its move: `Some(key)` when it
/// searches it now, marked, to be unmarked with `key` afterwards (zero when
/// marks are off); `None` when it puts it off, because another thread is
/// searching it and the move `may_wait`.
#[inline]
pub(crate) fn enter(shared: bool, own: u64, opp: u64, may_wait: bool) -> Option<u64> {
    if !shared {
        return Some(0);
    }
    let key = super::search::table_key(own, opp);
    if may_wait && is_busy(key) {
        return None;
    }
    mark(key);
    Some(key)
}

/// Leave the position that [`enter`] marked with `key`.
#[inline]
pub(crate) fn leave(key: u64) {
    if key != 0 {
        unmark(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_holds_until_taken_away_and_a_newer_one_pushes_it_out() {
        let key = 0x1234_5678_9abc_def1;
        assert!(!is_busy(key));
        mark(key);
        assert!(is_busy(key));
        // Same slot, another key.
        let other = key ^ 1;
        mark(other);
        assert!(!is_busy(key) && is_busy(other));
        unmark(key);
        assert!(
            is_busy(other),
            "taking away a mark pushed out leaves the newer"
        );
        unmark(other);
        assert!(!is_busy(other));
        assert!(!is_busy(0));
    }

    #[test]
    fn a_walk_takes_the_moves_put_off_last_in_their_order() {
        let mut walk = Walk::new(5);
        let mut seen = Vec::new();
        while let Some((index, may_wait)) = walk.next() {
            if may_wait && (index == 1 || index == 3) {
                walk.defer(index);
                continue;
            }
            seen.push((index, may_wait));
        }
        assert_eq!(
            seen,
            [(0, true), (2, true), (4, true), (1, false), (3, false)]
        );
    }

    #[test]
    fn solves_are_counted_while_they_live() {
        let before = SOLVING.load(Ordering::Relaxed);
        let first = Solving::start();
        let second = Solving::start();
        assert!(SOLVING.load(Ordering::Relaxed) >= before + 2);
        drop(first);
        drop(second);
    }
}
