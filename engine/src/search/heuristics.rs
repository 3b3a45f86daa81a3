//! Move-ordering memory that a search thread learns as it goes, and the
//! correction of its static evaluation.
//!
//! * **Killers**: moves that refuted a sibling at the same ply.
//! * **History** (butterfly): how often a move caused a cutoff anywhere in
//!   the tree, per side. Moves are opaque `u32` values of any range, so the
//!   table is indexed by a hash of the move and the side to move; two moves
//!   sharing a slot only blur each other's ordering, never correctness.
//! * **Continuation history**: how good a quiet move was right after a
//!   given move one, two and four plies earlier, by the plugin's move keys
//!   (the moved piece and its target square, say; see `move_keys` in the
//!   ABI). One table of rows, a row per previous move (hashed), an entry
//!   per key.
//! * **Capture history**: how good a noisy move was, by its key, per side.
//! * **Countermoves**: the quiet move that last refuted a given move, by
//!   that move's key, per side.
//! * **Correction history**: how far the static evaluation fell from the
//!   searched score after a given move (and after a given pair of moves),
//!   per side; added to later evaluations there.
//!
//! Every table is updated with a bonus pulled towards its limit in
//! proportion to the distance left ("gravity"), as Stockfish does: values
//! stay bounded and recent results weigh more than old ones.

use plyd_api::abi::{MOVE_KEY_LIMIT, MOVE_KEY_NOISY};
use plyd_api::{Move, NULL_MOVE};

use super::score::MAX_PLY;

/// History slots per side (a power of two).
const HISTORY_SLOTS: usize = 1 << 16;
/// History values stay within `±HISTORY_LIMIT`.
pub const HISTORY_LIMIT: i32 = 1 << 14;
/// Rows of the continuation-history table, one per previous move (by a
/// hash of its context); a power of two.
const CONT_ROWS: usize = 1 << 11;
/// Entries of a row, one per key (folded to fit); a power of two. A
/// node's three rows stay in cache while its moves are scored, as
/// Stockfish's per-piece-and-square blocks do.
const CONT_ROW: usize = 1 << 11;
/// Slots of each correction-history table per side (a power of two).
const CORR_SLOTS: usize = 1 << 14;
/// Correction entries are kept in `1 / CORR_GRAIN` of an evaluation unit.
const CORR_GRAIN: i32 = 16;

/// A move as the tables know it: its key (with [`MOVE_KEY_NOISY`]) and
/// whether its side was in check when it was made; [`NO_CONTEXT`] for no
/// move (the root, a null move, a chance outcome).
pub type Context = u32;
/// No move to continue from.
pub const NO_CONTEXT: Context = u32::MAX;
/// The bit of a context whose move was made in check.
const IN_CHECK_BIT: u32 = 1 << 30;

/// The context of a move with `key` made by a side `in_check`.
#[inline]
pub fn context(key: u32, in_check: bool) -> Context {
    key | if in_check { IN_CHECK_BIT } else { 0 }
}

/// Whether a key (or context) is of a noisy move.
#[inline]
pub fn is_noisy(key: u32) -> bool {
    key != NO_CONTEXT && key & MOVE_KEY_NOISY != 0
}

/// Which of the tables a thread keeps (the others read as zero).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tables {
    /// Continuation history, and Stockfish's bonus (larger, growing with
    /// depth to a cap) for every history.
    pub continuation: bool,
    /// Capture history.
    pub capture: bool,
    /// Countermoves.
    pub counter: bool,
    /// Correction history.
    pub correction: bool,
}

/// Killers, histories and corrections of one search thread.
pub struct Heuristics {
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    continuation: Vec<i16>,
    capture: Vec<i16>,
    counter: Vec<Move>,
    /// Correction by the last move, then by the last two moves.
    correction: [Vec<i16>; 2],
    /// Stockfish's bonus for history updates.
    steep_bonus: bool,
    /// Which tables were asked for.
    tables: Tables,
}

/// A table of `n` zeros where `on`, allocated zeroed (its pages are
/// mapped as they are first written); empty where not `on`, or where the
/// allocator cannot give it with room to spare under an address-space
/// limit ([`crate::memory::room_for_optional`]).
fn zeroed(on: bool, n: usize) -> Vec<i16> {
    if !on || n == 0 || !crate::memory::room_for_optional(2 * n as u64) {
        return Vec::new();
    }
    let Ok(layout) = std::alloc::Layout::array::<i16>(n) else {
        return Vec::new();
    };
    // SAFETY: the layout has a non-zero size; zeroed memory is `n` valid
    // `i16`s, and the vector takes the allocation with the layout it was
    // made with (the global allocator, capacity `n`, `i16`'s alignment).
    unsafe {
        let start = std::alloc::alloc_zeroed(layout).cast::<i16>();
        if start.is_null() {
            return Vec::new();
        }
        Vec::from_raw_parts(start, n, n)
    }
}

/// A table of `n` copies of `value` where `on`; empty where not `on`, or
/// where the allocator cannot give it.
fn filled<T: Copy>(on: bool, n: usize, value: T) -> Vec<T> {
    let mut table = Vec::new();
    if on && table.try_reserve_exact(n).is_ok() {
        table.resize(n, value);
    }
    table
}

impl Default for Heuristics {
    fn default() -> Self {
        Self::new(Tables::default())
    }
}

#[inline]
fn slot(side: u32, mv: Move) -> usize {
    let h = mv.wrapping_mul(0x9e37_79b1) ^ (mv >> 16);
    (side as usize & 1) * HISTORY_SLOTS + (h as usize & (HISTORY_SLOTS - 1))
}

/// The continuation-history slot of a move with `key` after `context`:
/// the context's row, the key's entry in it.
#[inline]
fn cont_slot(context: Context, key: u32) -> usize {
    let row = (u64::from(context).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        >> (64 - CONT_ROWS.trailing_zeros())) as usize;
    let key = key & (MOVE_KEY_LIMIT - 1);
    let entry = (key ^ key >> CONT_ROW.trailing_zeros()) as usize & (CONT_ROW - 1);
    row * CONT_ROW + entry
}

/// The key's index in a per-key table (noisy bit dropped).
#[inline]
fn key_index(side: u32, key: u32) -> usize {
    (side as usize & 1) * MOVE_KEY_LIMIT as usize + (key & (MOVE_KEY_LIMIT - 1)) as usize
}

/// The correction slot of `side` after the contexts.
#[inline]
fn corr_slot(side: u32, a: Context, b: Context) -> usize {
    let h = (u64::from(a) << 32 | u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (side as usize & 1) * CORR_SLOTS + (h >> (64 - CORR_SLOTS.trailing_zeros())) as usize
}

/// Pull `entry` by `bonus` towards `±limit`.
#[inline]
fn gravity(entry: i32, bonus: i32, limit: i32) -> i32 {
    let bonus = bonus.clamp(-limit, limit);
    entry + bonus - entry * bonus.abs() / limit
}

impl Heuristics {
    /// Killers and history, and the `tables` asked for, those the
    /// allocator can give: under an address-space limit a table it cannot
    /// give is left out (it reads as zero, as one not asked for), and
    /// [`Heuristics::tables`] names those that were had.
    pub fn new(tables: Tables) -> Self {
        let continuation = zeroed(tables.continuation, CONT_ROWS * CONT_ROW);
        let capture = zeroed(tables.capture, 2 * MOVE_KEY_LIMIT as usize);
        let counter = filled(tables.counter, 2 * MOVE_KEY_LIMIT as usize, NULL_MOVE);
        let correction = [
            zeroed(tables.correction, 2 * CORR_SLOTS),
            zeroed(tables.correction, 2 * CORR_SLOTS),
        ];
        let had = Tables {
            continuation: !continuation.is_empty(),
            capture: !capture.is_empty(),
            counter: !counter.is_empty(),
            correction: correction.iter().all(|table| !table.is_empty()),
        };
        Heuristics {
            killers: vec![[NULL_MOVE; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY_SLOTS],
            continuation,
            capture,
            counter,
            correction: if had.correction {
                correction
            } else {
                [Vec::new(), Vec::new()]
            },
            steep_bonus: had.continuation,
            tables: had,
        }
    }

    /// Which tables these are.
    pub fn tables(&self) -> Tables {
        self.tables
    }

    /// Whether these tables are worth keeping from one search to the
    /// next: the techniques' tables are (as Stockfish keeps them until a
    /// new game), the killers and history alone are not, which keeps the
    /// search without the techniques what it was.
    pub fn kept_between_searches(tables: Tables) -> bool {
        tables != Tables::default()
    }

    /// Every table back to zero and every killer forgotten: what
    /// [`Heuristics::new`] gives with the same tables, in the memory already
    /// held.
    pub fn reset(&mut self) {
        self.clear_all_killers();
        self.history.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.counter.fill(NULL_MOVE);
        for table in &mut self.correction {
            table.fill(0);
        }
    }

    /// Forget every killer.
    pub fn clear_all_killers(&mut self) {
        self.killers.fill([NULL_MOVE; 2]);
    }

    /// The two killers at `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// Record `mv` as a killer at `ply`.
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }

    /// Forget the killers two plies down, which belong to another subtree.
    pub fn clear_killers(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [NULL_MOVE; 2];
        }
    }

    /// History score of `mv` for `side`.
    #[inline]
    pub fn history(&self, side: u32, mv: Move) -> i32 {
        self.history[slot(side, mv)]
    }

    /// Reward (`bonus > 0`) or punish a move in the butterfly history.
    pub fn update_history(&mut self, side: u32, mv: Move, bonus: i32) {
        let entry = &mut self.history[slot(side, mv)];
        *entry = gravity(*entry, bonus, HISTORY_LIMIT);
    }

    /// The continuation history of a move with `key` after `context`.
    #[inline]
    pub fn continuation(&self, context: Context, key: u32) -> i32 {
        if context == NO_CONTEXT || self.continuation.is_empty() {
            return 0;
        }
        i32::from(self.continuation[cont_slot(context, key)])
    }

    /// The ordering score of a quiet move: twice its history, plus its
    /// continuation history after each of `contexts` (the moves one, two
    /// and four plies back).
    #[inline]
    pub fn quiet_score(&self, side: u32, mv: Move, key: u32, contexts: &[Context; 3]) -> i32 {
        let mut score = 2 * self.history(side, mv);
        if !self.continuation.is_empty() {
            for &c in contexts {
                score += self.continuation(c, key);
            }
        }
        score
    }

    /// The capture history of a noisy move with `key` for `side`.
    #[inline]
    pub fn capture(&self, side: u32, key: u32) -> i32 {
        self.capture
            .get(key_index(side, key))
            .map_or(0, |&v| i32::from(v))
    }

    /// The countermove of `side` to the move of `context`.
    #[inline]
    pub fn counter(&self, side: u32, context: Context) -> Move {
        if context == NO_CONTEXT {
            return NULL_MOVE;
        }
        self.counter
            .get(key_index(side, context))
            .copied()
            .unwrap_or(NULL_MOVE)
    }

    /// Record `mv` as `side`'s countermove to the move of `context`.
    pub fn set_counter(&mut self, side: u32, context: Context, mv: Move) {
        if context == NO_CONTEXT {
            return;
        }
        if let Some(slot) = self.counter.get_mut(key_index(side, context)) {
            *slot = mv;
        }
    }

    /// Reward or punish a quiet move: its history and its continuation
    /// history after each of `contexts`.
    pub fn update_quiet(
        &mut self,
        side: u32,
        mv: Move,
        key: u32,
        contexts: &[Context; 3],
        bonus: i32,
    ) {
        self.update_history(side, mv, bonus);
        if self.continuation.is_empty() {
            return;
        }
        for &c in contexts {
            if c != NO_CONTEXT {
                let entry = &mut self.continuation[cont_slot(c, key)];
                *entry = gravity(i32::from(*entry), bonus, HISTORY_LIMIT) as i16;
            }
        }
    }

    /// Reward or punish a noisy move in the capture history.
    pub fn update_capture(&mut self, side: u32, key: u32, bonus: i32) {
        if let Some(entry) = self.capture.get_mut(key_index(side, key)) {
            *entry = gravity(i32::from(*entry), bonus, HISTORY_LIMIT) as i16;
        }
    }

    /// The bonus for a cutoff at `depth`: Stockfish's, steep and capped,
    /// with continuation history; otherwise the gentle square of the depth.
    pub fn bonus(&self, depth: u32) -> i32 {
        let d = depth.min(64) as i32;
        if self.steep_bonus {
            (420 * d - 280).clamp(0, 3600)
        } else {
            (d * d + 2 * d).min(HISTORY_LIMIT / 4)
        }
    }

    /// The correction of `side`'s static evaluation after the moves of
    /// `last` and `before` (the two previous plies), in evaluation units.
    #[inline]
    pub fn correction(&self, side: u32, last: Context, before: Context) -> i32 {
        if self.correction[0].is_empty() {
            return 0;
        }
        let a = i32::from(self.correction[0][corr_slot(side, last, NO_CONTEXT)]);
        let b = i32::from(self.correction[1][corr_slot(side, last, before)]);
        (a + b) / (2 * CORR_GRAIN)
    }

    /// Learn that a search to `depth` found `diff` more than the static
    /// evaluation (in evaluation units) after `last` and `before`, within
    /// `limit` evaluation units.
    pub fn update_correction(
        &mut self,
        side: u32,
        last: Context,
        before: Context,
        diff: i32,
        depth: u32,
        limit: i32,
    ) {
        if self.correction[0].is_empty() {
            return;
        }
        let limit = (limit * CORR_GRAIN).clamp(CORR_GRAIN, i32::from(i16::MAX));
        let bonus = (diff.saturating_mul(CORR_GRAIN) * depth.min(16) as i32 / 8)
            .clamp(-limit / 4, limit / 4);
        for (table, b) in self.correction.iter_mut().zip([NO_CONTEXT, before]) {
            let entry = &mut table[corr_slot(side, last, b)];
            *entry = gravity(i32::from(*entry), bonus, limit) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_shift() {
        let mut h = Heuristics::default();
        h.add_killer(3, 10);
        h.add_killer(3, 10);
        assert_eq!(h.killers(3), [10, NULL_MOVE]);
        h.add_killer(3, 11);
        assert_eq!(h.killers(3), [11, 10]);
        h.clear_killers(3);
        assert_eq!(h.killers(3), [NULL_MOVE; 2]);
    }

    #[test]
    fn history_stays_bounded() {
        let mut h = Heuristics::default();
        for _ in 0..10_000 {
            h.update_history(0, 5, HISTORY_LIMIT);
        }
        assert!(h.history(0, 5) <= HISTORY_LIMIT);
        assert!(h.history(0, 5) > HISTORY_LIMIT / 2);
        assert_eq!(h.history(1, 5), 0);
        for _ in 0..10_000 {
            h.update_history(0, 5, -h.bonus(64));
        }
        assert!(h.history(0, 5) >= -HISTORY_LIMIT);
        assert!(h.history(0, 5) < 0);
    }

    #[test]
    fn continuation_history_follows_the_previous_move() {
        let all = Tables {
            continuation: true,
            capture: true,
            counter: true,
            correction: true,
        };
        let mut h = Heuristics::new(all);
        let after = [context(7, false), NO_CONTEXT, context(9, true)];
        for _ in 0..100 {
            let bonus = h.bonus(8);
            h.update_quiet(0, 42, 300, &after, bonus);
        }
        assert!(h.continuation(context(7, false), 300) > HISTORY_LIMIT / 2);
        assert!(h.continuation(context(9, true), 300) > HISTORY_LIMIT / 2);
        // Another previous move, or the same one made in check, knows
        // nothing of it (barring a shared slot, which these do not).
        assert_eq!(h.continuation(context(8, false), 300), 0);
        assert_eq!(h.continuation(context(7, true), 300), 0);
        assert_eq!(h.continuation(NO_CONTEXT, 300), 0);
        let score = h.quiet_score(0, 42, 300, &after);
        assert!(score > 2 * h.history(0, 42), "{score}");
        assert!(score <= 4 * HISTORY_LIMIT);

        h.set_counter(1, context(7, false), 99);
        assert_eq!(h.counter(1, context(7, false)), 99);
        assert_eq!(h.counter(0, context(7, false)), NULL_MOVE);
        h.update_capture(1, 12 | MOVE_KEY_NOISY, 500);
        assert_eq!(h.capture(1, 12 | MOVE_KEY_NOISY), 500);
        assert_eq!(h.capture(0, 12 | MOVE_KEY_NOISY), 0);
    }

    #[test]
    fn corrections_learn_the_evaluations_error_within_the_limit() {
        let mut h = Heuristics::new(Tables {
            correction: true,
            ..Tables::default()
        });
        let (a, b) = (context(3, false), context(4, false));
        for _ in 0..1_000 {
            h.update_correction(0, a, b, 10_000, 10, 300);
        }
        let c = h.correction(0, a, b);
        assert!((150..=300).contains(&c), "{c}");
        assert_eq!(h.correction(1, a, b), 0);
        // Errors the other way turn it round, however small they are.
        for _ in 0..1_000 {
            h.update_correction(0, a, b, -40, 10, 300);
        }
        let c = h.correction(0, a, b);
        assert!((-300..0).contains(&c), "{c}");
    }

    #[test]
    fn tables_left_out_read_as_nothing() {
        let mut h = Heuristics::default();
        h.update_quiet(0, 1, 2, &[context(3, false); 3], 1000);
        assert_eq!(h.continuation(context(3, false), 2), 0);
        h.update_capture(0, 5, 1000);
        assert_eq!(h.capture(0, 5), 0);
        h.set_counter(0, 1, 5);
        assert_eq!(h.counter(0, 1), NULL_MOVE);
        h.update_correction(0, 1, 2, 100, 5, 100);
        assert_eq!(h.correction(0, 1, 2), 0);
        assert_eq!(h.history(0, 1), 1000);
    }
}
