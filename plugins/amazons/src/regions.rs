//! Moves left on a separated board, region by region.
//!
//! Once no empty square is reachable by both sides, the game is a count:
//! each side plays in its own regions, and the side to move wins when it
//! can make more moves than the other. A region of `n` empty squares holds
//! at most `n` moves (every move fills one square: the amazon leaves one
//! and enters one, and the arrow fills one), and fewer when it is
//! defective: a square an amazon can only reach by shooting into it last,
//! a corner cut off behind the amazon's own arrows.
//!
//! [`moves_left`] splits a side's part of the board into units (a set of
//! empty squares connected by king steps, with the side's amazons next to
//! them; no queen move or arrow leaves one) and counts each unit of at most
//! [`EXACT_SQUARES`] empty squares exactly, by a search for the longest
//! sequence of moves there, stopped as soon as a sequence fills every
//! square. A larger unit, or one whose search passes [`NODE_BUDGET`],
//! counts its empty squares, as before. Each thread keeps the units it has
//! counted: the same region comes back again and again in a search.
//!
//! `classic` and `tables` use it on separated boards.

use std::cell::RefCell;
use std::collections::HashMap;

use plyd_amazons_rules::board::{squares, Board, Geometry};
use plyd_amazons_rules::flood::queen_step;

/// The largest unit, in empty squares, counted exactly.
pub const EXACT_SQUARES: u32 = 12;

/// The most moves one unit's count may try before it gives up: the
/// evaluation is called at every node of a timed search, and an
/// evaluation that takes milliseconds loses games on time. What it
/// counted so far stays in the thread's store, so a unit given up on is
/// counted further the next time it is met.
pub const NODE_BUDGET: u32 = 3_000;

/// Positions kept per thread before the store is emptied.
const KEPT_UNITS: usize = 1 << 18;

thread_local! {
    static COUNTED: RefCell<HashMap<(u128, u128, u8), u32>> = RefCell::new(HashMap::new());
}

/// The moves `amazons` (one side's) can make on `board`, whose empty
/// squares next to them no other amazon reaches: the sum over its units of
/// each unit's longest sequence of moves (exact for units of at most
/// [`EXACT_SQUARES`] empty squares, else the unit's empty squares).
pub fn moves_left(board: &Board, amazons: u128) -> u32 {
    let g = board.geometry();
    let empty = board.empties();
    let mut left = amazons;
    let mut total = 0;
    while left != 0 {
        // The unit of the lowest amazon left: king-connected through the
        // empty squares and the side's amazons.
        let mut unit = left & left.wrapping_neg();
        loop {
            let grown = unit | (g.neighbours(unit) & (empty | amazons));
            if grown == unit {
                break;
            }
            unit = grown;
        }
        left &= !unit;
        total += unit_moves(g, unit & empty, unit & amazons);
    }
    total
}

/// The longest sequence of moves of the amazons `mine` through the empty
/// squares `empty` of one unit.
fn unit_moves(g: &Geometry, empty: u128, mine: u128) -> u32 {
    let squares_left = empty.count_ones();
    if squares_left > EXACT_SQUARES || squares_left == 0 {
        return squares_left;
    }
    COUNTED.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= KEPT_UNITS {
            c.clear();
        }
    });
    let mut budget = NODE_BUDGET;
    longest(g, empty, mine, &mut budget).unwrap_or(squares_left)
}

/// The longest sequence of moves from here, `None` once the budget is
/// spent. Every position counted is kept in the thread's store: the
/// positions inside one unit's count are the units of later ones.
fn longest(g: &Geometry, empty: u128, mine: u128, budget: &mut u32) -> Option<u32> {
    let key = (empty, mine, g.size);
    if let Some(n) = COUNTED.with(|c| c.borrow().get(&key).copied()) {
        return Some(n);
    }
    let most = empty.count_ones();
    let mut best = 0;
    'all: for from in squares(mine) {
        let from_bit = 1u128 << from;
        for to in squares(queen_step(g, from_bit, empty)) {
            let to_bit = 1u128 << to;
            let after = (empty | from_bit) & !to_bit;
            let moved = (mine & !from_bit) | to_bit;
            for arrow in squares(queen_step(g, to_bit, after)) {
                *budget = budget.checked_sub(1)?;
                let n = 1 + longest(g, after & !(1u128 << arrow), moved, budget)?;
                if n > best {
                    best = n;
                    if best == most {
                        break 'all;
                    }
                }
            }
        }
    }
    COUNTED.with(|c| c.borrow_mut().insert(key, best));
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyd_amazons_rules::board::{ARROW, FIRST, SECOND};

    /// A board of `size` from rows of text, top row first: `.` empty, `x`
    /// an arrow, `W`/`B` amazons of the first and second player.
    fn board(size: u8, rows: &[&str]) -> Board {
        let mut b = Board::empty(size);
        let g = *b.geometry();
        for (i, row) in rows.iter().enumerate() {
            let rank = size - 1 - i as u8;
            for (file, c) in row.chars().enumerate() {
                let sq = g.square(file as u8, rank);
                match c {
                    'x' => b.put(sq, ARROW),
                    'W' => b.put(sq, FIRST),
                    'B' => b.put(sq, SECOND),
                    _ => {}
                }
            }
        }
        b
    }

    /// The longest sequence of the side to move's moves, by playing every
    /// move on the real board (the other side passing), for comparison.
    fn brute_force(b: &mut Board) -> u32 {
        let mut moves = Vec::new();
        b.for_each_move(|mv| moves.push(mv));
        let mut best = 0;
        for mv in moves {
            b.play(mv);
            b.pass();
            best = best.max(1 + brute_force(b));
            b.pass();
            b.take_back(mv);
        }
        best
    }

    #[test]
    fn a_clean_pocket_holds_a_move_per_square() {
        // The amazon in the corner of a 2x2 pocket: 3 squares, 3 moves.
        let b = board(
            6,
            &["W.x...", "..x...", "xxx...", "......", "....xx", "....xB"],
        );
        assert_eq!(moves_left(&b, b.amazons[0]), 3);
        // Walled in: no move at all.
        let b = board(
            6,
            &["Wx....", "xx....", "......", "......", "....xx", "....xB"],
        );
        assert_eq!(moves_left(&b, b.amazons[0]), 0);
    }

    #[test]
    fn counts_equal_a_brute_force_search_on_random_pockets() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |bound: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % bound
        };
        let mut defective = 0;
        for _ in 0..300 {
            // A 6x6 board filled with arrows but for a random pocket of
            // up to 8 squares grown from the first player's amazon (now
            // and then two of them), the second player's amazon walled
            // off in a corner.
            let mut b = Board::empty(6);
            let g = *b.geometry();
            let start = g.square(next(4) as u8 + 1, next(4) as u8 + 1);
            let mut pocket = 1u128 << start;
            let target = 2 + next(7) as u32;
            while pocket.count_ones() < target {
                let grow = g.neighbours(pocket) & !pocket;
                let candidates: Vec<_> = squares(grow).collect();
                let pick = candidates[next(candidates.len() as u64) as usize];
                pocket |= 1u128 << pick;
            }
            let corner = g.square(5, 0);
            pocket &= !(1u128 << corner) & !g.neighbours(1u128 << corner);
            if pocket & (1u128 << start) == 0 {
                continue;
            }
            for sq in 0..128 {
                if g.on_board(sq) && pocket & (1u128 << sq) == 0 && sq != corner {
                    b.put(sq, ARROW);
                }
            }
            b.put(start, FIRST);
            b.put(corner, SECOND);
            // Now and then a second amazon in the same pocket.
            let others: Vec<_> = squares(pocket & !(1u128 << start)).collect();
            if others.len() >= 3 && next(3) == 0 {
                let second = others[next(others.len() as u64) as usize];
                b.put(second, FIRST);
                pocket &= !(1u128 << second);
            }
            let counted = moves_left(&b, b.amazons[0]);
            let mut copy = b.clone();
            let searched = brute_force(&mut copy);
            assert_eq!(counted, searched, "{b:?}");
            if counted < pocket.count_ones() - 1 {
                defective += 1;
            }
        }
        assert!(defective > 0, "some pockets are defective");
    }
}
