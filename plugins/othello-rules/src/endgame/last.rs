//! The last four empty squares, written out one function per count.
//!
//! Near the end of the game almost every node of the tree has one to four
//! empty squares left, so these functions carry most of a solve. They take
//! the empty squares as a short array instead of generating a move list,
//! try them in the order the caller gives (the squares alone in their
//! quadrant first: see [`super::parity_order`]), and never touch the
//! table. The last square is not even played: [`count_last_flips`] counts
//! what it would flip with four table look-ups, one per line through it.
//!
//! Scores are final disc differences for the side to move, with the empty
//! squares of a game that ends early given to its winner (the convention
//! of the published endgame scores).

use crate::board::flips_at;

use super::search::neighbours;
use super::Solver;

/// Discs flipped along one line of eight squares by a disc placed at
/// `index`, given which squares of the line hold the placing side's discs
/// (bit `i` for square `i` of the line). Every other square of the line is
/// taken as the opponent's: true on a board with only the placed square
/// empty, and harmless for the short diagonals, whose missing squares can
/// never close a run.
const fn line_flips(index: usize, own: u32) -> u8 {
    let mut count = 0;
    // Towards higher indices.
    let mut i = index + 1;
    while i < 8 && own & (1 << i) == 0 {
        i += 1;
    }
    if i < 8 {
        count += i - index - 1;
    }
    // Towards lower indices.
    let mut i = index as i32 - 1;
    while i >= 0 && own & (1 << i) == 0 {
        i -= 1;
    }
    if i >= 0 {
        count += index - i as usize - 1;
    }
    count as u8
}

/// [`line_flips`] for every index and every line, built at compile time.
const LINE_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut index = 0;
    while index < 8 {
        let mut own = 0;
        while own < 256 {
            table[index][own] = line_flips(index, own as u32);
            own += 1;
        }
        index += 1;
    }
    table
};

/// The diagonal (a1-h8 direction) and the anti-diagonal (h1-a8 direction)
/// through each square, as bitboards.
const DIAGONALS: [[u64; 2]; 64] = {
    let mut masks = [[0u64; 2]; 64];
    let mut square = 0;
    while square < 64 {
        let (row, file) = ((square / 8) as i32, (square % 8) as i32);
        let mut r = 0;
        while r < 8 {
            // Same diagonal: r - row == f - file; anti-diagonal: r - row == file - f.
            let f = file + (r - row);
            if f >= 0 && f < 8 {
                masks[square][0] |= 1u64 << (r * 8 + f);
            }
            let f = file - (r - row);
            if f >= 0 && f < 8 {
                masks[square][1] |= 1u64 << (r * 8 + f);
            }
            r += 1;
        }
        square += 1;
    }
    masks
};

/// [`neighbours`] of each square, read from a table: a placement there
/// flips nothing unless one of them holds an opponent's disc.
const AROUND: [u64; 64] = {
    let mut masks = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        masks[square] = neighbours(1 << square);
        square += 1;
    }
    masks
};

/// The discs flipped by a placement on `square`, zero at once when no
/// opponent disc is next to it.
#[inline(always)]
fn flips_near(own: u64, opp: u64, square: usize) -> u64 {
    if opp & AROUND[square & 63] == 0 {
        0
    } else {
        flips_at(own, opp, square)
    }
}

/// One bit per file: the a file.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Gathers the bits of one column (shifted to the a file) into the top
/// byte, row 1 first: bit `8k` lands on bit `56 + k`, and no two partial
/// products share a bit, so nothing carries.
const COLUMN_GATHER: u64 = 0x0102_0408_1020_4080;

/// Gathers a set with at most one bit per file into the top byte, by file:
/// the bytes are added up, and disjoint bits never carry.
const FILE_GATHER: u64 = 0x0101_0101_0101_0101;

/// Number of discs the side owning `own` would flip by placing on the
/// square `square`, on a board where `square` is the only empty square.
#[inline(always)]
pub fn count_last_flips(own: u64, square: usize) -> u32 {
    let (row, file) = (square / 8, square % 8);
    let row_line = (own >> (row * 8)) & 0xff;
    let column_line = (((own >> file) & FILE_A).wrapping_mul(COLUMN_GATHER)) >> 56;
    let [diagonal, anti] = DIAGONALS[square];
    let diagonal_line = ((own & diagonal).wrapping_mul(FILE_GATHER)) >> 56;
    let anti_line = ((own & anti).wrapping_mul(FILE_GATHER)) >> 56;
    u32::from(LINE_FLIPS[file][row_line as usize])
        + u32::from(LINE_FLIPS[row][column_line as usize])
        + u32::from(LINE_FLIPS[file][diagonal_line as usize])
        + u32::from(LINE_FLIPS[file][anti_line as usize])
}

/// Three empty squares with the one alone in its quadrant first, when
/// the other two share one (the only case where parity orders them).
#[inline(always)]
fn odd_first_3([a, b, c]: [usize; 3]) -> [usize; 3] {
    let quadrant = |s: usize| ((s >> 2) & 1) | ((s >> 4) & 2);
    let (qa, qb, qc) = (quadrant(a), quadrant(b), quadrant(c));
    if qa == qb && qa != qc {
        [c, a, b]
    } else if qa == qc && qa != qb {
        [b, a, c]
    } else {
        [a, b, c]
    }
}

impl Solver<'_> {
    /// The score with one empty square, `square`: the side to move places
    /// there if it can, else the opponent does, else the game ends.
    #[inline(always)]
    pub(super) fn solve_1(&mut self, own: u64, square: usize) -> i32 {
        self.nodes += 1;
        // With one empty square, own - opp = 2 * own - 63.
        let base = 2 * own.count_ones() as i32 - 63;
        let flipped = count_last_flips(own, square) as i32;
        if flipped > 0 {
            return base + 2 * flipped + 1;
        }
        let opp = !own & !(1u64 << square);
        let flipped = count_last_flips(opp, square) as i32;
        if flipped > 0 {
            return base - 2 * flipped - 1;
        }
        // Neither side can place: the empty square goes to the winner, and
        // the difference is odd, so there is one.
        if base > 0 {
            base + 1
        } else {
            base - 1
        }
    }

    /// Two empty squares, `a` and `b`.
    pub(super) fn solve_2(
        &mut self,
        own: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        [a, b]: [usize; 2],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -super::SCORE_INFINITY;
        let flipped = flips_near(own, opp, a);
        if flipped != 0 {
            best = -self.solve_1(opp & !flipped, b);
            if best >= beta {
                return best;
            }
        }
        let flipped = flips_near(own, opp, b);
        if flipped != 0 {
            let value = -self.solve_1(opp & !flipped, a);
            best = best.max(value);
        }
        if best > -super::SCORE_INFINITY {
            return best;
        }
        if passed {
            return -super::final_score(opp, own);
        }
        -self.solve_2(opp, own, -beta, -alpha, [a, b], true)
    }

    /// Three empty squares, in the order of the node above; a square
    /// alone in its quadrant goes first (the move before changed which
    /// quadrants are odd), as Edax orders its last three.
    pub(super) fn solve_3(
        &mut self,
        own: u64,
        opp: u64,
        mut alpha: i32,
        beta: i32,
        squares: [usize; 3],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -super::SCORE_INFINITY;
        let [a, b, c] = odd_first_3(squares);
        for (square, rest) in [(a, [b, c]), (b, [a, c]), (c, [a, b])] {
            let flipped = flips_near(own, opp, square);
            if flipped == 0 {
                continue;
            }
            let disc = 1u64 << square;
            let value = -self.solve_2(
                opp & !flipped,
                own | flipped | disc,
                -beta,
                -alpha,
                rest,
                false,
            );
            if value > best {
                best = value;
                if value >= beta {
                    return value;
                }
                alpha = alpha.max(value);
            }
        }
        if best > -super::SCORE_INFINITY {
            return best;
        }
        if passed {
            return -super::final_score(opp, own);
        }
        -self.solve_3(opp, own, -beta, -alpha, squares, true)
    }

    /// Four empty squares, in the order to try them.
    pub(super) fn solve_4(
        &mut self,
        own: u64,
        opp: u64,
        mut alpha: i32,
        beta: i32,
        squares: [usize; 4],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if let Some(ceiling) = super::search::low_stability_cutoff(own, opp, alpha) {
            return ceiling;
        }
        let mut best = -super::SCORE_INFINITY;
        let [a, b, c, d] = squares;
        for (square, rest) in [
            (a, [b, c, d]),
            (b, [a, c, d]),
            (c, [a, b, d]),
            (d, [a, b, c]),
        ] {
            let flipped = flips_near(own, opp, square);
            if flipped == 0 {
                continue;
            }
            let disc = 1u64 << square;
            let value = -self.solve_3(
                opp & !flipped,
                own | flipped | disc,
                -beta,
                -alpha,
                rest,
                false,
            );
            if value > best {
                best = value;
                if value >= beta {
                    return value;
                }
                alpha = alpha.max(value);
            }
        }
        if best > -super::SCORE_INFINITY {
            return best;
        }
        if passed {
            return -super::final_score(opp, own);
        }
        -self.solve_4(opp, own, -beta, -alpha, squares, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::flips;
    use crate::testing::next;

    #[test]
    fn the_last_flip_count_equals_the_flips_of_a_placement() {
        let mut seed = 7;
        for _ in 0..20_000 {
            let square = (next(&mut seed) % 64) as usize;
            let own = next(&mut seed) & !(1u64 << square);
            let opp = !own & !(1u64 << square);
            assert_eq!(
                count_last_flips(own, square),
                flips(own, opp, 1 << square).count_ones(),
                "own {own:#x} square {square}"
            );
        }
    }
}
