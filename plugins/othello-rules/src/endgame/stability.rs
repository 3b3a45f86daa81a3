//! Stable discs: discs that no sequence of moves can flip any more, and the
//! bound they put on the final score.
//!
//! A disc can only be flipped along one of the four lines through it
//! (row, column, two diagonals), by a disc placed on that line. Along one
//! line it is safe for good when
//!
//! * the line has no empty square (nothing can be placed on it again), or
//! * a neighbour on that line is off the board (the disc cannot be
//!   bracketed), or
//! * a neighbour on that line is a disc of the same colour that is
//!   already known to be stable (a flip along the line would have to flip
//!   that neighbour too: it lies either between the placed disc and ours,
//!   or between ours and the disc that closes the run).
//!
//! A disc safe along all four lines is stable. The set is grown from
//! nothing: each round adds the discs whose four lines are safe given the
//! discs found in the rounds before, until a round adds none. Growing it
//! from below matters: every disc is then justified by discs found before
//! it, so there is no circle of discs each "stable" only because the next
//! one is. Edge configurations that are stable without a corner (a full
//! edge half of one colour next to an empty square, say) are not all
//! found: the set is a safe under-estimate, which is all a bound needs.

/// The a file (left column).
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h file (right column).
const FILE_H: u64 = 0x8080_8080_8080_8080;
/// The top row (a1-h1) and the bottom row (a8-h8).
const TOP_AND_BOTTOM: u64 = 0xff00_0000_0000_00ff;
/// Every square on the edge of the board.
const BORDER: u64 = FILE_A | FILE_H | TOP_AND_BOTTOM;

/// The squares of each diagonal of one direction: `DIAGONALS[0]` those
/// where file minus row is constant (a1-h8 direction, steps of 9),
/// `DIAGONALS[1]` those where file plus row is (h1-a8 direction, steps of
/// 7); 15 diagonals each.
#[cfg(test)]
const DIAGONALS: [[u64; 15]; 2] = [diagonals(false), diagonals(true)];

#[cfg(test)]
const fn diagonals(anti: bool) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut square = 0;
    while square < 64 {
        let (row, file) = (square / 8, square % 8);
        let index = if anti { row + file } else { row + 7 - file };
        out[index] |= 1u64 << square;
        square += 1;
    }
    out
}

/// The squares lying on a full line (no empty square), for each of the
/// four directions: rows, columns, a1-h8 diagonals, h1-a8 diagonals. Each
/// empty square is spread along its lines by shifts, each step masked so
/// that nothing wraps round the board's edge, and what no empty square
/// reaches lies on a full line.
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let empty = !occupied;
    // A row's byte has its top bit set when it holds an empty square.
    let open_rows = (((empty & LOW7).wrapping_add(LOW7) | empty) >> 7) & FILE_A;
    let rows = !open_rows.wrapping_mul(0xff);
    let mut columns = occupied;
    columns &= columns >> 32;
    columns &= columns >> 16;
    columns &= columns >> 8;
    let columns = (columns & 0xff).wrapping_mul(FILE_A);
    [
        rows,
        columns,
        !spread::<9>(empty, &NOT_LEFT, &NOT_RIGHT),
        !spread::<7>(empty, &NOT_RIGHT, &NOT_LEFT),
    ]
}

/// The squares not on the first 1, 2 and 4 files (a, a-b, a-d).
const NOT_LEFT: [u64; 3] = [
    0xfefe_fefe_fefe_fefe,
    0xfcfc_fcfc_fcfc_fcfc,
    0xf0f0_f0f0_f0f0_f0f0,
];
/// The squares not on the last 1, 2 and 4 files (h, g-h, e-h).
const NOT_RIGHT: [u64; 3] = [
    0x7f7f_7f7f_7f7f_7f7f,
    0x3f3f_3f3f_3f3f_3f3f,
    0x0f0f_0f0f_0f0f_0f0f,
];

/// `bits` spread both ways along the diagonals of step `D` (9: a1-h8, a
/// file right a row down; 7: h1-a8, a file left a row down) over up to
/// seven steps, by one, two and four steps at a time. A shift up moves the
/// squares `k` files one way, so `up[i]` clears the `2^i` files a wrapped
/// square would land on, and `down[i]` those of a shift down.
#[inline(always)]
fn spread<const D: u32>(bits: u64, up: &[u64; 3], down: &[u64; 3]) -> u64 {
    let mut out = bits;
    for (i, (up, down)) in up.iter().zip(down).enumerate() {
        let shift = D << i;
        out |= ((out << shift) & up) | ((out >> shift) & down);
    }
    out
}

/// The discs of `own` that can never be flipped, whatever is played (a
/// subset of them: see the module docs). `opp` only tells which squares
/// are empty.
pub fn stable_discs(own: u64, opp: u64) -> u64 {
    let [rows, columns, down_right, down_left] = full_lines(own | opp);
    // Squares safe along a line whatever their neighbours: a full line, or
    // a neighbour on the line off the board.
    let row_safe = rows | FILE_A | FILE_H;
    let column_safe = columns | TOP_AND_BOTTOM;
    let down_right_safe = down_right | BORDER;
    let down_left_safe = down_left | BORDER;
    let mut stable = 0u64;
    loop {
        // Each shift shows a square its neighbour's stability. A bit that
        // wraps round from one edge file to the other lands on the a or h
        // file, which is safe along rows and diagonals anyway, so no mask
        // is needed.
        let row = row_safe | (stable << 1) | (stable >> 1);
        let column = column_safe | (stable << 8) | (stable >> 8);
        let right = down_right_safe | (stable << 9) | (stable >> 9);
        let left = down_left_safe | (stable << 7) | (stable >> 7);
        let next = own & row & column & right & left;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The most the side owning `own` can finish with, by disc difference,
/// against an opponent owning `opp`: every disc the opponent can never
/// lose stays his, so at best the rest of the board is ours.
#[inline]
pub fn score_ceiling(own: u64, opp: u64) -> i32 {
    64 - 2 * stable_discs(opp, own).count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{flips, squares, Position, PASS};
    use crate::testing::{next, random_move, random_position};

    /// The squares of the full lines, line by line.
    fn full_lines_one_by_one(occupied: u64) -> [u64; 4] {
        let full = |lines: &mut dyn Iterator<Item = u64>| {
            lines
                .filter(|&line| occupied & line == line)
                .fold(0, |all, line| all | line)
        };
        [
            full(&mut (0..8).map(|row| 0xffu64 << (8 * row))),
            full(&mut (0..8).map(|file| FILE_A << file)),
            full(&mut DIAGONALS[0].iter().copied()),
            full(&mut DIAGONALS[1].iter().copied()),
        ]
    }

    #[test]
    fn full_lines_by_shifts_are_the_full_lines() {
        let mut rng = 3;
        for round in 0..20_000 {
            // Boards from nearly empty to nearly full.
            let mut occupied = next(&mut rng);
            for _ in 0..round % 4 {
                occupied |= next(&mut rng);
            }
            if round % 5 == 0 {
                occupied = !(1u64 << (next(&mut rng) % 64));
            }
            assert_eq!(
                full_lines(occupied),
                full_lines_one_by_one(occupied),
                "occupied {occupied:#x}"
            );
        }
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
        assert_eq!(full_lines(0), [0; 4]);
    }

    #[test]
    fn the_diagonals_cover_the_board_once() {
        for lines in &DIAGONALS {
            assert_eq!(lines.iter().fold(0, |all, line| all | line), u64::MAX);
            assert_eq!(lines.iter().map(|line| line.count_ones()).sum::<u32>(), 64);
        }
        // a1-h8 and h1-a8, the two long diagonals.
        assert_eq!(DIAGONALS[0][7], 0x8040_2010_0804_0201);
        assert_eq!(DIAGONALS[1][7], 0x0102_0408_1020_4080);
    }

    #[test]
    fn corners_and_what_leans_on_them_are_stable() {
        // Black on a1, b1, a2 and b2; White on c1; the rest empty.
        let black = 0b11 | (0b11 << 8);
        let white = 1 << 2;
        // a1 is a corner; b1 and a2 lean on it along every line; b2 leans
        // on a1, b1 and a2 along its row, column and a1-h8 diagonal, but its
        // h1-a8 diagonal runs a3-b2-c1 with a3 empty and c1 White's.
        assert_eq!(stable_discs(black, white), 0b11 | (1 << 8));
        // A lone disc in the middle of an otherwise full board is stable:
        // every line through it is full.
        let own = 1 << 27;
        assert_eq!(stable_discs(own, !own), own);
        // With one empty square on its row it is not.
        let opp = !own & !(1 << 24);
        assert_eq!(stable_discs(own, opp), 0);
        assert_eq!(stable_discs(0, 0), 0);
    }

    /// Every stable disc keeps its colour on every line of play from the
    /// position (all of them, to the end of the game).
    fn check_tree(position: Position, black: u64, white: u64, nodes: &mut u64) {
        *nodes += 1;
        assert_eq!(position.black & black, black, "a stable black disc flipped");
        assert_eq!(position.white & white, white, "a stable white disc flipped");
        if position.is_game_over() {
            return;
        }
        let moves = position.placements();
        if moves == 0 {
            check_tree(position.play(PASS), black, white, nodes);
        }
        for square in squares(moves) {
            check_tree(position.play(square), black, white, nodes);
        }
    }

    #[test]
    fn no_line_of_play_flips_a_stable_disc() {
        let mut rng = 7;
        let mut checked = 0u64;
        let mut found = 0u32;
        for _ in 0..300 {
            // A random game stopped with 5 to 7 empty squares, then every
            // continuation from it.
            let stop = 5 + (next(&mut rng) % 3) as u32;
            let position = random_position(&mut rng, stop);
            let black = stable_discs(position.black, position.white);
            let white = stable_discs(position.white, position.black);
            found += (black | white).count_ones();
            check_tree(position, black, white, &mut checked);
        }
        // The positions must have had stable discs for the test to mean
        // anything.
        assert!(found > 1_000, "only {found} stable discs");
        assert!(checked > 20_000, "only {checked} positions");
    }

    #[test]
    fn random_games_never_flip_a_disc_once_stable() {
        let mut rng = 11;
        for _ in 0..2_000 {
            let mut position = Position::START;
            let (mut black, mut white) = (0u64, 0u64);
            while !position.is_game_over() {
                assert_eq!(position.black & black, black);
                assert_eq!(position.white & white, white);
                black |= stable_discs(position.black, position.white);
                white |= stable_discs(position.white, position.black);
                let (own, opp) = position.own_and_opponent();
                let mv = random_move(&position, &mut rng);
                if mv != PASS {
                    assert_ne!(flips(own, opp, 1u64 << mv), 0);
                }
                position = position.play(mv);
            }
            assert_eq!(position.black & black, black);
            assert_eq!(position.white & white, white);
        }
    }

    #[test]
    fn the_ceiling_bounds_the_final_score() {
        // With the whole board but one square White's and stable, Black
        // can at best finish 1 to 63 down (−62).
        let black = 1u64 << 63;
        let white = !black;
        assert_eq!(score_ceiling(black, white), 64 - 2 * 63);
        assert_eq!(score_ceiling(white, black), 64 - 2);
    }
}
