//! Distance maps as bitboard floods: for each player, the empty squares its
//! amazons reach in exactly `d` queen moves (or king moves), every other
//! piece and arrow blocking. Territory, position and region terms of an
//! evaluation are popcounts over these level sets, so a whole map costs a
//! few hundred word operations instead of a breadth-first walk per square.
//!
//! [`Contest`] runs both sides' floods in lockstep and keeps only the sums
//! evaluations need (what the built-in evaluators use); [`DistanceMap`]
//! keeps every level of one side, for terms that need the distances
//! themselves; [`queen_territory`] is the leanest count, for move ordering.

use crate::board::{shift, Board, Geometry, STRIDE_10X10, STRIDE_8X8};

/// Levels kept per map. Every level holds at least one empty square, and
/// a board has at most 96 empty squares, so no distance is ever cut off
/// (a corridor of arrows can make a king-move distance on 10x10 above 40).
pub const MAX_LEVELS: usize = 96;

/// The squares one queen move away from any square of `from`, moving
/// through the squares of `empty` (Kogge-Stone occluded fills, eight
/// directions).
#[inline]
pub fn queen_step(geometry: &Geometry, from: u128, empty: u128) -> u128 {
    // On the two competition boards every shift is by a constant.
    match geometry.stride {
        STRIDE_10X10 => queen_step_by(i32::from(STRIDE_10X10), from, empty),
        STRIDE_8X8 => queen_step_by(i32::from(STRIDE_8X8), from, empty),
        stride => queen_step_by(i32::from(stride), from, empty),
    }
}

/// [`queen_step`] on a board of stride `s`, along the directions of
/// [`Geometry::dirs`]; inlined where `s` is a constant.
#[inline(always)]
fn queen_step_by(s: i32, from: u128, empty: u128) -> u128 {
    queen_ray(1, from, empty)
        | queen_ray(-1, from, empty)
        | queen_ray(s, from, empty)
        | queen_ray(-s, from, empty)
        | queen_ray(s + 1, from, empty)
        | queen_ray(-(s + 1), from, empty)
        | queen_ray(s - 1, from, empty)
        | queen_ray(-(s - 1), from, empty)
}

/// The squares one queen move away from `from` in the direction `d`.
#[inline(always)]
fn queen_ray(d: i32, from: u128, empty: u128) -> u128 {
    let mut gen = from;
    let mut pass = empty;
    gen |= pass & shift(gen, d);
    pass &= shift(pass, d);
    gen |= pass & shift(gen, 2 * d);
    pass &= shift(pass, 2 * d);
    gen |= pass & shift(gen, 4 * d);
    pass &= shift(pass, 4 * d);
    gen |= pass & shift(gen, 8 * d);
    shift(gen, d) & empty
}

/// Queen-move territory of `mine` against `theirs`: the empty squares
/// `mine` reaches in fewer queen moves than `theirs`, minus the reverse
/// (ties and squares neither reaches count nothing). The cheap measure
/// behind the ordering hints; it needs no [`Board`].
pub fn queen_territory(geometry: &Geometry, mine: u128, theirs: u128, empty: u128) -> i32 {
    let (mut front_a, mut front_b) = (mine, theirs);
    let (mut seen_a, mut seen_b) = (0u128, 0u128);
    let mut score = 0i32;
    while front_a | front_b != 0 {
        let next_a = if front_a != 0 {
            queen_step(geometry, front_a, empty) & !seen_a
        } else {
            0
        };
        let next_b = if front_b != 0 {
            queen_step(geometry, front_b, empty) & !seen_b
        } else {
            0
        };
        // A square reached now by one side and not earlier or now by the
        // other belongs to it.
        score += (next_a & !seen_b & !next_b).count_ones() as i32;
        score -= (next_b & !seen_a & !next_a).count_ones() as i32;
        seen_a |= next_a;
        seen_b |= next_b;
        front_a = next_a;
        front_b = next_b;
    }
    score
}

/// How the empty squares split between the side to move and its opponent
/// under one kind of distance, with the sums the position terms need.
/// Index 0 is the side to move.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Contest {
    /// Empty squares each side reaches strictly sooner (the other side
    /// later or never).
    pub nearer: [u32; 2],
    /// Empty squares both reach at the same finite distance.
    pub tied: u32,
    /// `Σ_A (2^(1 - D(0, A)) - 2^(1 - D(1, A)))`, `2^-∞ = 0`.
    pub halves: f64,
    /// `Σ_A clip(D(1, A) - D(0, A), -6, 6)`, a finite distance against
    /// `∞` counting ±6.
    pub gap: i32,
    /// The empty squares each side reaches at all.
    pub reached: [u128; 2],
}

impl Contest {
    /// Flood from `start[0]` and `start[1]` through the squares of `empty`
    /// in lockstep, `step` giving the squares one move from a set.
    #[inline]
    pub fn measure(start: [u128; 2], empty: u128, step: impl Fn(u128) -> u128) -> Self {
        let mut contest = Contest::default();
        let mut frontier = start;
        let mut within = [0u128; 2];
        // `history[d % 8]` holds `within` as it was at distance `d`, so the
        // squares reached in the last six levels are at hand.
        let mut history = [[0u128; 2]; 8];
        let mut weight = 1.0;
        let mut d = 0usize;
        loop {
            d += 1;
            let mut level = [0u128; 2];
            for side in 0..2 {
                if frontier[side] != 0 {
                    level[side] = step(frontier[side]) & empty & !within[side];
                    within[side] |= level[side];
                }
            }
            // Both floods stop a few levels before the loop does (popcounts
            // are not free on every target, so the empty levels skip them).
            if level[0] | level[1] != 0 {
                contest.nearer[0] += (level[0] & !within[1]).count_ones();
                contest.nearer[1] += (level[1] & !within[0]).count_ones();
                contest.tied += (level[0] & level[1]).count_ones();
                contest.halves +=
                    weight * (f64::from(level[0].count_ones()) - f64::from(level[1].count_ones()));
            }
            weight *= 0.5;
            // Reached at distances d - 5 ..= d; zero for d <= 6, as those
            // slots are written later.
            let old = history[(d + 2) % 8];
            let recent = [within[0] & !old[0], within[1] & !old[1]];
            contest.gap += (recent[0] & !within[1]).count_ones() as i32
                - (recent[1] & !within[0]).count_ones() as i32;
            history[d % 8] = within;
            if recent[0] | recent[1] == 0 {
                // Neither side has reached anything in six levels, so
                // neither ever will again, and every gap is counted.
                contest.reached = within;
                return contest;
            }
            frontier = level;
        }
    }

    /// Queen-move distances of `board`'s amazons, the side to move first.
    #[inline]
    pub fn queen(board: &Board) -> Self {
        let g = *board.geometry();
        let empty = board.empties();
        Self::measure(sides(board), empty, |from| queen_step(&g, from, empty))
    }

    /// King-move distances of `board`'s amazons, the side to move first.
    #[inline]
    pub fn king(board: &Board) -> Self {
        let g = *board.geometry();
        Self::measure(sides(board), board.empties(), |from| g.neighbours(from))
    }

    /// The territory term with ties worth `tie` to the side to move.
    #[inline]
    pub fn territory(&self, tie: f64) -> f64 {
        f64::from(self.nearer[0]) - f64::from(self.nearer[1]) + tie * f64::from(self.tied)
    }

    /// The clipped-difference position term `Σ clip(gap / 6, -1, 1)`.
    #[inline]
    pub fn clipped(&self) -> f64 {
        f64::from(self.gap) / 6.0
    }
}

/// The amazons of the side to move, then the other side's.
#[inline]
pub fn sides(board: &Board) -> [u128; 2] {
    let us = usize::from(board.side);
    [board.amazons[us], board.amazons[us ^ 1]]
}

/// One player's distance map: `levels[d]` holds the empty squares at
/// distance exactly `d + 1`.
#[derive(Debug, Clone)]
pub struct DistanceMap {
    levels: [u128; MAX_LEVELS],
    depth: usize,
    reached: u128,
}

impl DistanceMap {
    /// The empty squares at distance exactly `d` (from 1); empty for `d`
    /// outside the map.
    #[inline]
    pub fn level(&self, d: usize) -> u128 {
        if d == 0 || d > self.depth {
            0
        } else {
            self.levels[d - 1]
        }
    }

    /// The greatest distance with any square.
    #[inline]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Every empty square reached at any distance.
    #[inline]
    pub fn reached(&self) -> u128 {
        self.reached
    }

    /// The distance of `sq`, `None` when unreachable.
    pub fn distance(&self, sq: u8) -> Option<usize> {
        let bit = 1u128 << sq;
        self.levels[..self.depth]
            .iter()
            .position(|&level| level & bit != 0)
            .map(|i| i + 1)
    }

    fn build(start: u128, empty: u128, step: impl Fn(u128) -> u128) -> Self {
        let mut map = DistanceMap {
            levels: [0; MAX_LEVELS],
            depth: 0,
            reached: 0,
        };
        let mut frontier = start;
        while map.depth < MAX_LEVELS {
            let next = step(frontier) & empty & !map.reached;
            if next == 0 {
                break;
            }
            map.levels[map.depth] = next;
            map.depth += 1;
            map.reached |= next;
            frontier = next;
        }
        map
    }

    /// Queen-move distances of the amazons of `player`.
    pub fn queen(board: &Board, player: usize) -> Self {
        let empty = board.empties();
        let g = *board.geometry();
        Self::build(board.amazons[player], empty, |f| queen_step(&g, f, empty))
    }

    /// King-move distances of the amazons of `player`.
    pub fn king(board: &Board, player: usize) -> Self {
        let empty = board.empties();
        let g = *board.geometry();
        Self::build(board.amazons[player], empty, |f| g.neighbours(f))
    }
}

/// Both players' maps of one kind, with the usual comparisons.
#[derive(Debug, Clone)]
pub struct Maps {
    /// `[first player, second player]`.
    pub maps: [DistanceMap; 2],
}

/// How the empty squares split between two players' maps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Split {
    /// Squares `player` reaches strictly sooner.
    pub nearer: [u32; 2],
    /// Squares both reach at the same finite distance.
    pub tied: u32,
    /// Squares neither reaches.
    pub neither: u32,
}

impl Maps {
    /// Queen-move maps of both players.
    pub fn queen(board: &Board) -> Self {
        Maps {
            maps: [DistanceMap::queen(board, 0), DistanceMap::queen(board, 1)],
        }
    }

    /// King-move maps of both players.
    pub fn king(board: &Board) -> Self {
        Maps {
            maps: [DistanceMap::king(board, 0), DistanceMap::king(board, 1)],
        }
    }

    /// Count the squares each player reaches first, and the ties.
    pub fn split(&self, empty: u128) -> Split {
        let [a, b] = &self.maps;
        let mut split = Split::default();
        // Squares reached by `b` at a distance up to the current level.
        let mut b_within = 0u128;
        let mut a_within = 0u128;
        let depth = a.depth().max(b.depth());
        for d in 1..=depth {
            let la = a.level(d);
            let lb = b.level(d);
            split.nearer[0] += (la & !b_within & !lb).count_ones();
            split.nearer[1] += (lb & !a_within & !la).count_ones();
            split.tied += (la & lb).count_ones();
            a_within |= la;
            b_within |= lb;
        }
        split.neither = (empty & !a.reached() & !b.reached()).count_ones();
        split
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{squares, MAX_SIZE, MIN_SIZE};
    use crate::text::parse_fen;

    /// Square by square: the squares a queen on a square of `from` reaches
    /// through `empty`, and the squares next to one of `bits` on the board.
    fn walked(g: &Geometry, from: u128, empty: u128) -> (u128, u128) {
        let (mut reach, mut next) = (0u128, 0u128);
        for sq in squares(from) {
            for &d in &g.dirs {
                let mut at = i32::from(sq) + d;
                if (0..128).contains(&at) && g.mask >> at & 1 != 0 {
                    next |= 1u128 << at;
                }
                while (0..128).contains(&at) && empty >> at & 1 != 0 {
                    reach |= 1u128 << at;
                    at += d;
                }
            }
        }
        (reach, next)
    }

    #[test]
    fn queen_steps_and_neighbours_equal_square_by_square_walks() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for size in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::new(size);
            for _ in 0..300 {
                let bits = |r: u64, s: u64| (u128::from(r) << 64 | u128::from(s)) & g.mask;
                let empty = bits(next(), next()) | bits(next(), next());
                let from = bits(next(), next()) & bits(next(), next()) & !empty;
                let (reach, around) = walked(&g, from, empty);
                assert_eq!(queen_step(&g, from, empty), reach, "size {size}");
                assert_eq!(g.neighbours(from), around, "size {size}");
            }
        }
    }

    #[test]
    fn a_long_corridor_is_followed_to_its_end() {
        // Arrows wind a corridor through the board: the second player's
        // amazon on a2 walks 45 king moves to j10.
        let fen = "10/1*********/10/*********1/10/1*********/10/*********1/q9/Q9 w - - 0 1";
        let board = parse_fen(fen).unwrap().board;
        let map = DistanceMap::king(&board, 1);
        let g = *board.geometry();
        assert_eq!(map.distance(g.square(9, 9)), Some(45));
        assert_eq!(map.reached().count_ones(), 62);
    }
}
