//! Move-ordering memory that a search thread learns as it goes: killer moves
//! (moves that refuted a sibling at the same ply) and the history heuristic
//! (how often a move caused a cutoff anywhere in the tree).
//!
//! Moves are opaque `u32` values of any range, so the history table is
//! indexed by a hash of the move and the side to move; two moves sharing a
//! slot only blur each other's ordering, never correctness.

use plyd_api::{Move, NULL_MOVE};

use super::score::MAX_PLY;

/// History slots per side (a power of two).
const HISTORY_SLOTS: usize = 1 << 16;
/// History values stay within `±HISTORY_LIMIT`.
pub const HISTORY_LIMIT: i32 = 1 << 14;

/// Killers and history of one search thread.
pub struct Heuristics {
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: vec![[NULL_MOVE; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY_SLOTS],
        }
    }
}

#[inline]
fn slot(side: u32, mv: Move) -> usize {
    let h = mv.wrapping_mul(0x9e37_79b1) ^ (mv >> 16);
    (side as usize & 1) * HISTORY_SLOTS + (h as usize & (HISTORY_SLOTS - 1))
}

impl Heuristics {
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

    /// Reward (`bonus > 0`) or punish a move. The update pulls the value
    /// towards the limit in proportion to the distance left, so values stay
    /// bounded and recent results weigh more than old ones.
    pub fn update_history(&mut self, side: u32, mv: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
        let entry = &mut self.history[slot(side, mv)];
        *entry += bonus - *entry * bonus.abs() / HISTORY_LIMIT;
    }

    /// The bonus for a cutoff at `depth`.
    pub fn bonus(depth: u32) -> i32 {
        let d = depth.min(64) as i32;
        (d * d + 2 * d).min(HISTORY_LIMIT / 4)
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
            h.update_history(0, 5, -Heuristics::bonus(64));
        }
        assert!(h.history(0, 5) >= -HISTORY_LIMIT);
        assert!(h.history(0, 5) < 0);
    }
}
