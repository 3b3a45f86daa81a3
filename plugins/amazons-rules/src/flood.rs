//! Distance maps as bitboard floods: for each player, the empty squares its
//! amazons reach in exactly `d` queen moves (or king moves), every other
//! piece and arrow blocking. Territory, position and region terms of an
//! evaluation are popcounts over these level sets, so a whole map costs a
//! few hundred word operations instead of a breadth-first walk per square.

use crate::board::{shift, Board, Geometry};

/// Levels kept per map. Every level holds at least one empty square, and
/// a board has at most 96 empty squares, so no distance is ever cut off
/// (a corridor of arrows can make a king-move distance on 10x10 above 40).
pub const MAX_LEVELS: usize = 96;

/// The squares one queen move away from any square of `from`, moving
/// through the squares of `empty` (Kogge-Stone occluded fills, eight
/// directions).
#[inline]
pub fn queen_step(geometry: &Geometry, from: u128, empty: u128) -> u128 {
    let mut reach = 0u128;
    for &d in &geometry.dirs {
        let mut gen = from;
        let mut pass = empty;
        gen |= pass & shift(gen, d);
        pass &= shift(pass, d);
        gen |= pass & shift(gen, 2 * d);
        pass &= shift(pass, 2 * d);
        gen |= pass & shift(gen, 4 * d);
        pass &= shift(pass, 4 * d);
        gen |= pass & shift(gen, 8 * d);
        reach |= shift(gen, d) & empty;
    }
    reach
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

    /// The empty squares at distance `1..=d`.
    pub fn within(&self, d: usize) -> u128 {
        self.levels[..d.min(self.depth)]
            .iter()
            .fold(0, |acc, &level| acc | level)
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

    /// The distance of every cell (`rank * size + file`), `u8::MAX` where
    /// unreachable or occupied.
    pub fn to_cells(&self, geometry: &Geometry) -> [u8; crate::board::MAX_CELLS] {
        let mut cells = [u8::MAX; crate::board::MAX_CELLS];
        for (i, &level) in self.levels[..self.depth].iter().enumerate() {
            for sq in crate::board::squares(level) {
                cells[geometry.cell(sq)] = (i + 1) as u8;
            }
        }
        cells
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
    use crate::text::parse_fen;

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
