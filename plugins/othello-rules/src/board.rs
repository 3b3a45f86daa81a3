//! The rules of Othello on bitboards: where a disc may be placed, which discs
//! it flips, and when the game is over.
//!
//! A bitboard is a `u64` with bit `row * 8 + file` set for each occupied
//! square, where row 0 is the top row (`a1` = bit 0, `h1` = bit 7, `a8` =
//! bit 56, `h8` = bit 63). Shifting a bitboard moves every disc one step in a
//! direction at once, so the eight directions are handled by eight shifts
//! instead of a loop over squares. This is the hot loop of perft and search.

/// The move that passes the turn (the square indices are 0..64).
pub const PASS: u32 = 64;

/// Every square except those on the a and h files. A horizontal or diagonal
/// shift would carry a disc from the h file round to the a file of the next
/// row (or back); masking the discs that may be walked over with this stops
/// a line from wrapping round the board edge.
const NOT_EDGE_FILES: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Every square: vertical shifts need no mask, as discs shifted past the top
/// or bottom row fall off the `u64`.
const ALL_SQUARES: u64 = u64::MAX;

/// The four corners: a1, h1, a8, h8.
pub const CORNERS: u64 = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63);

/// A player's colour. One byte, 0 for Black and 1 for White: it is part of
/// the state layout that external evaluators read (see the crate docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    /// Black (`X`), who moves first.
    Black = 0,
    /// White (`O`).
    White = 1,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// A position: the discs of each colour and the side to move. It is small
/// and `Copy`, so the undo history simply stores whole positions.
///
/// `#[repr(C)]` because it heads the state that evaluator plugins read:
/// `black` at offset 0, `white` at 8, `side` at 16 (see the crate docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Position {
    /// Black discs.
    pub black: u64,
    /// White discs.
    pub white: u64,
    /// Whose turn it is.
    pub side: Color,
}

impl Position {
    /// The start position: d4 and e5 white, d5 and e4 black, Black to move.
    pub const START: Position = Position {
        black: (1 << 28) | (1 << 35),
        white: (1 << 27) | (1 << 36),
        side: Color::Black,
    };

    /// The discs of the side to move and of its opponent, in that order.
    #[inline]
    pub fn own_and_opponent(&self) -> (u64, u64) {
        match self.side {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        }
    }

    /// Squares where the side to move may place a disc.
    #[inline]
    pub fn placements(&self) -> u64 {
        let (own, opp) = self.own_and_opponent();
        legal_placements(own, opp)
    }

    /// Whether neither side can place a disc, which ends the game.
    pub fn is_game_over(&self) -> bool {
        let (own, opp) = self.own_and_opponent();
        legal_placements(own, opp) == 0 && legal_placements(opp, own) == 0
    }

    /// The position after `mv`, a legal placement or [`PASS`].
    #[inline]
    pub fn play(&self, mv: u32) -> Position {
        let (mut own, mut opp) = self.own_and_opponent();
        if mv != PASS {
            let disc = 1u64 << mv;
            let flipped = flips(own, opp, disc);
            debug_assert!(flipped != 0, "move {mv} flips nothing");
            own |= disc | flipped;
            opp &= !flipped;
        }
        let side = self.side.opponent();
        // `own` belonged to the player who just moved, the opponent of `side`.
        match side {
            Color::Black => Position {
                black: opp,
                white: own,
                side,
            },
            Color::White => Position {
                black: own,
                white: opp,
                side,
            },
        }
    }
}

/// Shift a bitboard one step in direction `D`: left for positive `D`, right
/// for negative. +1 is east (next file), +8 south (next row), +9 south-east,
/// +7 south-west, and the negatives are the opposite directions.
#[inline(always)]
fn step<const D: i32>(bits: u64) -> u64 {
    if D > 0 {
        bits << D
    } else {
        bits >> -D
    }
}

/// Shift two steps in direction `D`.
#[inline(always)]
fn double_step<const D: i32>(bits: u64) -> u64 {
    if D > 0 {
        bits << (2 * D)
    } else {
        bits >> (-2 * D)
    }
}

/// The runs of `opp` discs (already masked) that start next to a disc of
/// `start` in direction `D` and go on while the squares hold `opp` discs.
///
/// A run has at most six discs. Two single steps find its first two; after
/// that, `pairs` (the opponent discs whose neighbour behind them is also an
/// opponent disc) lets each double step add two squares at once, so four
/// steps do the work of six.
#[inline(always)]
fn opponent_run<const D: i32>(start: u64, opp: u64) -> u64 {
    let pairs = opp & step::<D>(opp);
    let mut run = opp & step::<D>(start);
    run |= opp & step::<D>(run);
    run |= pairs & double_step::<D>(run);
    run |= pairs & double_step::<D>(run);
    run
}

/// The square just past each run of `opp` discs that starts next to an
/// `own` disc in direction `D`, whether empty or not (the caller keeps the
/// empty ones).
#[inline(always)]
fn placements_in_direction<const D: i32>(own: u64, opp: u64, mask: u64) -> u64 {
    step::<D>(opponent_run::<D>(own, opp & mask))
}

/// Squares where the player owning `own` may place a disc against `opp`:
/// empty squares at the end of a run of opponent discs that starts next to
/// one of the player's own discs, in any of the eight directions.
#[inline]
pub fn legal_placements(own: u64, opp: u64) -> u64 {
    reached(own, opp) & !(own | opp)
}

/// The squares past a run of `opp` discs from an `own` disc, in any
/// direction, empty or not.
#[inline(always)]
fn reached(own: u64, opp: u64) -> u64 {
    placements_in_direction::<1>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<-1>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<8>(own, opp, ALL_SQUARES)
        | placements_in_direction::<-8>(own, opp, ALL_SQUARES)
        | placements_in_direction::<9>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<-9>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<7>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<-7>(own, opp, NOT_EDGE_FILES)
}

/// The legal placements of both players: `(legal_placements(own, opp),
/// legal_placements(opp, own))`. Both are computed side by side, the same
/// shifts on two lanes, which the compiler turns into vector code: about
/// half the work of two calls.
#[inline]
pub fn legal_placements_both(own: u64, opp: u64) -> (u64, u64) {
    let (mover, other) = ([own, opp], [opp, own]);
    let mut out = [0u64; 2];
    for lane in 0..2 {
        out[lane] = reached(mover[lane], other[lane]);
    }
    let empty = !(own | opp);
    (out[0] & empty, out[1] & empty)
}

/// The legal placements of two positions at once, `own[i]` to move against
/// `opp[i]` in lane `i`: the same lanes as [`legal_placements_both`], for
/// two positions rather than the two sides of one.
#[inline]
pub fn legal_placements_pair(own: [u64; 2], opp: [u64; 2]) -> [u64; 2] {
    let mut out = [0u64; 2];
    for lane in 0..2 {
        out[lane] = reached(own[lane], opp[lane]) & !(own[lane] | opp[lane]);
    }
    out
}

/// The squares of each line leaving a square, as masks: `LINES[x][k]` for
/// square `x` and direction `k` (east, south-west, south, south-east; then
/// west, north-east, north, north-west), the squares walked in that
/// direction from `x` (not `x` itself) up to the board's edge. The first four
/// directions go to higher bits, the last four to lower.
static LINES: [[u64; 8]; 64] = LINE_MASKS;

/// [`LINES`] as a constant, which a square known at compile time (see
/// [`flips_at`]) reads without a load.
const LINE_MASKS: [[u64; 8]; 64] = line_masks();

/// Builds [`LINES`].
const fn line_masks() -> [[u64; 8]; 64] {
    // (file step, row step) of each direction, in the order of `LINES`.
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut lines = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut k = 0;
        while k < 8 {
            let (df, dr) = STEPS[k];
            let (mut file, mut row) = (square as i32 % 8 + df, square as i32 / 8 + dr);
            let mut mask = 0u64;
            while file >= 0 && file < 8 && row >= 0 && row < 8 {
                mask |= 1 << (row * 8 + file);
                file += df;
                row += dr;
            }
            lines[square][k] = mask;
            k += 1;
        }
        square += 1;
    }
    lines
}

/// Discs flipped along a line that goes to higher bits (`line`, without the
/// placed square): the carry of adding the line's first square runs through
/// the opponent's discs on it (and the squares off the line, set to one)
/// and stops on the first square of the line that is not the opponent's;
/// the run is flipped when that square is ours.
#[inline(always)]
fn flips_up(own: u64, opp: u64, line: u64) -> u64 {
    let first = line & line.wrapping_neg();
    let outflank = (opp | !line).wrapping_add(first) & own & line;
    outflank.wrapping_sub(first) & line & 0u64.wrapping_sub(u64::from(outflank != 0))
}

/// Discs flipped along a line that goes to lower bits: the highest square
/// of the line that is not the opponent's ends the run, which is flipped
/// when that square is ours. (`| 1` keeps the count of leading zeros below
/// 64; bit 0 then only matters if it is on the line, and is ours.)
#[inline(always)]
fn flips_down(own: u64, opp: u64, line: u64) -> u64 {
    let not_opp = !opp & line;
    let outflank = (1u64 << 63 >> (not_opp | 1).leading_zeros()) & own & line;
    (outflank << 1).wrapping_neg() & line
}

/// Opponent discs flipped when the player owning `own` places a disc on the
/// single bit `disc`. Zero means the placement is illegal.
#[inline]
pub fn flips(own: u64, opp: u64, disc: u64) -> u64 {
    let lines = &LINES[disc.trailing_zeros() as usize & 63];
    flips_up(own, opp, lines[0])
        | flips_up(own, opp, lines[1])
        | flips_up(own, opp, lines[2])
        | flips_up(own, opp, lines[3])
        | flips_down(own, opp, lines[4])
        | flips_down(own, opp, lines[5])
        | flips_down(own, opp, lines[6])
        | flips_down(own, opp, lines[7])
}

/// [`flips`] from the square `SQ`, its lines known at compile time: the
/// directions whose line holds fewer than two squares, which can flip
/// nothing, are left out (three of the eight at a corner).
#[inline(always)]
fn flips_from<const SQ: usize>(own: u64, opp: u64) -> u64 {
    let lines = LINE_MASKS[SQ];
    let mut flipped = 0;
    let mut k = 0;
    while k < 4 {
        if lines[k].count_ones() >= 2 {
            flipped |= flips_up(own, opp, lines[k]);
        }
        if lines[k + 4].count_ones() >= 2 {
            flipped |= flips_down(own, opp, lines[k + 4]);
        }
        k += 1;
    }
    flipped
}

/// [`flips`] of a placement on `square`, through one function a square
/// (as Edax finds its flips): each reads its line masks as constants and
/// skips the directions that cannot flip.
#[inline]
pub fn flips_at(own: u64, opp: u64, square: usize) -> u64 {
    match square & 63 {
        0 => flips_from::<0>(own, opp),
        1 => flips_from::<1>(own, opp),
        2 => flips_from::<2>(own, opp),
        3 => flips_from::<3>(own, opp),
        4 => flips_from::<4>(own, opp),
        5 => flips_from::<5>(own, opp),
        6 => flips_from::<6>(own, opp),
        7 => flips_from::<7>(own, opp),
        8 => flips_from::<8>(own, opp),
        9 => flips_from::<9>(own, opp),
        10 => flips_from::<10>(own, opp),
        11 => flips_from::<11>(own, opp),
        12 => flips_from::<12>(own, opp),
        13 => flips_from::<13>(own, opp),
        14 => flips_from::<14>(own, opp),
        15 => flips_from::<15>(own, opp),
        16 => flips_from::<16>(own, opp),
        17 => flips_from::<17>(own, opp),
        18 => flips_from::<18>(own, opp),
        19 => flips_from::<19>(own, opp),
        20 => flips_from::<20>(own, opp),
        21 => flips_from::<21>(own, opp),
        22 => flips_from::<22>(own, opp),
        23 => flips_from::<23>(own, opp),
        24 => flips_from::<24>(own, opp),
        25 => flips_from::<25>(own, opp),
        26 => flips_from::<26>(own, opp),
        27 => flips_from::<27>(own, opp),
        28 => flips_from::<28>(own, opp),
        29 => flips_from::<29>(own, opp),
        30 => flips_from::<30>(own, opp),
        31 => flips_from::<31>(own, opp),
        32 => flips_from::<32>(own, opp),
        33 => flips_from::<33>(own, opp),
        34 => flips_from::<34>(own, opp),
        35 => flips_from::<35>(own, opp),
        36 => flips_from::<36>(own, opp),
        37 => flips_from::<37>(own, opp),
        38 => flips_from::<38>(own, opp),
        39 => flips_from::<39>(own, opp),
        40 => flips_from::<40>(own, opp),
        41 => flips_from::<41>(own, opp),
        42 => flips_from::<42>(own, opp),
        43 => flips_from::<43>(own, opp),
        44 => flips_from::<44>(own, opp),
        45 => flips_from::<45>(own, opp),
        46 => flips_from::<46>(own, opp),
        47 => flips_from::<47>(own, opp),
        48 => flips_from::<48>(own, opp),
        49 => flips_from::<49>(own, opp),
        50 => flips_from::<50>(own, opp),
        51 => flips_from::<51>(own, opp),
        52 => flips_from::<52>(own, opp),
        53 => flips_from::<53>(own, opp),
        54 => flips_from::<54>(own, opp),
        55 => flips_from::<55>(own, opp),
        56 => flips_from::<56>(own, opp),
        57 => flips_from::<57>(own, opp),
        58 => flips_from::<58>(own, opp),
        59 => flips_from::<59>(own, opp),
        60 => flips_from::<60>(own, opp),
        61 => flips_from::<61>(own, opp),
        62 => flips_from::<62>(own, opp),
        63 => flips_from::<63>(own, opp),
        _ => unreachable!("masked to 0..64"),
    }
}

/// Iterate over the square indices of the set bits, lowest first.
pub fn squares(mut bits: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let square = bits.trailing_zeros();
        bits &= bits - 1;
        Some(square)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_the_four_classic_moves() {
        // d3, c4, f5, e6 in this crate's numbering: rows counted downwards.
        let expected: Vec<u32> = vec![19, 26, 37, 44];
        assert_eq!(
            squares(Position::START.placements()).collect::<Vec<_>>(),
            expected
        );
    }

    #[test]
    fn lines_do_not_wrap_round_the_board_edge() {
        // Own disc on h1, opponent on a2 (the next bit): placing on b2 would
        // "flip" a2 westwards only if the shift wrapped from a2 to h1.
        let own = 1 << 7;
        let opp = 1 << 8;
        assert_eq!(legal_placements(own, opp), 0);
        assert_eq!(flips(own, opp, 1 << 9), 0);
    }

    /// Flips found by walking each direction square by square.
    fn flips_by_walking(own: u64, opp: u64, square: i32) -> u64 {
        let mut all = 0;
        for (df, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut file, mut row) = (square % 8 + df, square / 8 + dr);
            let mut run = 0u64;
            while (0..8).contains(&file) && (0..8).contains(&row) {
                let bit = 1u64 << (row * 8 + file);
                if opp & bit != 0 {
                    run |= bit;
                } else {
                    if own & bit != 0 {
                        all |= run;
                    }
                    break;
                }
                file += df;
                row += dr;
            }
        }
        all
    }

    /// `rounds` random boards drawn from `seed`, as `(own, opp)`: dense
    /// and sparse ones, and ones with few empty squares.
    fn random_boards(seed: u64, rounds: usize) -> impl Iterator<Item = (u64, u64)> {
        let mut state = seed;
        (0..rounds).map(move |round| {
            let mut next = || crate::testing::next(&mut state);
            let (a, b) = (next(), next());
            let occupied = match round % 3 {
                0 => a | b,
                1 => a & b,
                _ => !(a & b & next()),
            };
            let own = occupied & next();
            (own, occupied & !own)
        })
    }

    #[test]
    fn flips_match_a_square_by_square_walk() {
        for (own, opp) in random_boards(0x1234_5678_9abc_def0, 20_000) {
            let occupied = own | opp;
            for square in 0..64 {
                if occupied & (1 << square) == 0 {
                    let walked = flips_by_walking(own, opp, square);
                    let found = (
                        flips(own, opp, 1 << square),
                        flips_at(own, opp, square as usize),
                    );
                    assert_eq!(
                        found,
                        (walked, walked),
                        "own {own:#x} opp {opp:#x} square {square}"
                    );
                }
            }
        }
    }

    #[test]
    fn placements_are_the_empty_squares_that_flip_for_either_player() {
        for (own, opp) in random_boards(0x0bad_5eed, 5_000) {
            let occupied = own | opp;
            let walked = |own: u64, opp: u64| {
                (0..64)
                    .filter(|&s| occupied >> s & 1 == 0 && flips_by_walking(own, opp, s) != 0)
                    .fold(0u64, |m, s| m | 1 << s)
            };
            let (mine, theirs) = legal_placements_both(own, opp);
            assert_eq!(mine, walked(own, opp), "own {own:#x} opp {opp:#x}");
            assert_eq!(theirs, walked(opp, own), "own {own:#x} opp {opp:#x}");
            assert_eq!(mine, legal_placements(own, opp));
            assert_eq!(theirs, legal_placements(opp, own));
            assert_eq!(
                legal_placements_pair([own, opp], [opp, own]),
                [mine, theirs]
            );
        }
    }

    /// Two unrelated positions on the two lanes: each lane's placements
    /// are its own position's, whatever the other lane holds.
    #[test]
    fn placements_of_two_positions_keep_to_their_lanes() {
        let boards: Vec<(u64, u64)> = random_boards(0x9a1e_5eed, 2_000).collect();
        for pair in boards.windows(2) {
            let [(own_a, opp_a), (own_b, opp_b)] = [pair[0], pair[1]];
            assert_eq!(
                legal_placements_pair([own_a, own_b], [opp_a, opp_b]),
                [
                    legal_placements(own_a, opp_a),
                    legal_placements(own_b, opp_b)
                ],
                "({own_a:#x}, {opp_a:#x}) beside ({own_b:#x}, {opp_b:#x})"
            );
        }
    }

    #[test]
    fn a_placement_flips_every_bracketed_line() {
        // Black d3 flips d4 in the start position.
        let after = Position::START.play(19);
        assert_eq!(after.black, Position::START.black | (1 << 19) | (1 << 27));
        assert_eq!(after.white, Position::START.white & !(1 << 27));
        assert_eq!(after.side, Color::White);
    }
}
