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
    let empty = !(own | opp);
    let reached = placements_in_direction::<1>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<-1>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<8>(own, opp, ALL_SQUARES)
        | placements_in_direction::<-8>(own, opp, ALL_SQUARES)
        | placements_in_direction::<9>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<-9>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<7>(own, opp, NOT_EDGE_FILES)
        | placements_in_direction::<-7>(own, opp, NOT_EDGE_FILES);
    reached & empty
}

/// Opponent discs flipped in direction `D` by a disc placed at `disc`: the
/// run of opponent discs next to it, kept only when one of the player's own
/// discs closes it.
#[inline(always)]
fn flips_in_direction<const D: i32>(own: u64, opp: u64, disc: u64, mask: u64) -> u64 {
    let run = opponent_run::<D>(disc, opp & mask);
    // The only square of step(run) outside the run is the one just past its
    // end; the run is flipped when that square holds one of our discs. The
    // comparison becomes a conditional move rather than a branch.
    let closed = step::<D>(run) & own != 0;
    run & 0u64.wrapping_sub(u64::from(closed))
}

/// Opponent discs flipped when the player owning `own` places a disc on the
/// single bit `disc`. Zero means the placement is illegal.
#[inline]
pub fn flips(own: u64, opp: u64, disc: u64) -> u64 {
    flips_in_direction::<1>(own, opp, disc, NOT_EDGE_FILES)
        | flips_in_direction::<-1>(own, opp, disc, NOT_EDGE_FILES)
        | flips_in_direction::<8>(own, opp, disc, ALL_SQUARES)
        | flips_in_direction::<-8>(own, opp, disc, ALL_SQUARES)
        | flips_in_direction::<9>(own, opp, disc, NOT_EDGE_FILES)
        | flips_in_direction::<-9>(own, opp, disc, NOT_EDGE_FILES)
        | flips_in_direction::<7>(own, opp, disc, NOT_EDGE_FILES)
        | flips_in_direction::<-7>(own, opp, disc, NOT_EDGE_FILES)
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

    #[test]
    fn a_placement_flips_every_bracketed_line() {
        // Black d3 flips d4 in the start position.
        let after = Position::START.play(19);
        assert_eq!(after.black, Position::START.black | (1 << 19) | (1 << 27));
        assert_eq!(after.white, Position::START.white & !(1 << 27));
        assert_eq!(after.side, Color::White);
    }
}
