//! The features of the `patterns` evaluator: pattern indices in base 3 and
//! the few counted terms (mobility, potential mobility, parity).
//!
//! # Patterns
//!
//! Each pattern family is one list of squares near the top-left corner
//! (the *base*, in [`FAMILIES`]). Its instances are the base's images under
//! the eight symmetries of the board. Rather than carry eight lists of
//! squares per family, the evaluation builds the eight symmetric images of
//! the board once (three cheap bit transforms) and reads every base
//! pattern on each image with a few shifts and masks: reading the base on
//! the image `g(board)` is reading the instance `g⁻¹(base)` on the board.
//! All instances of a family share one weight table, so the evaluation is
//! exactly the same for the eight symmetric images of a position.
//!
//! A family whose base is mapped onto itself by some symmetry (an edge
//! reversed, a diagonal) is simply read more than once, in each order; the
//! shared table is fitted with that multiplicity, so nothing needs
//! canonicalising. The evaluator then reads each set of squares once
//! ([`distinct_indices`]) from tables that add up the entries of its
//! several readings (see the parent module).
//!
//! An index is `Σ 3^i · digit(base[i])` with digit 0 for an empty square,
//! 1 for a disc of the side to move and 2 for an opponent disc. The digits
//! of `k` squares read as the low bits of a byte become a base-3 number
//! through [`TERNARY`], so an index is `TERNARY[own] + 2 · TERNARY[opp]`.

use crate::board::{legal_placements, legal_placements_both};

/// Number of board symmetries, hence instances per family.
pub const SYMMETRIES: usize = 8;

/// One pattern family: its name and the squares of its base, in digit
/// order (digit `i` has weight `3^i`).
#[derive(Debug, Clone, Copy)]
pub struct Family {
    /// Name used in `explain` and the docs.
    pub name: &'static str,
    /// The base's squares, `row * 8 + file`, `a1` = 0.
    pub squares: &'static [u8],
}

impl Family {
    /// Entries in the family's weight table: `3^squares`.
    pub const fn table_len(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// The pattern families, in table order.
pub const FAMILIES: [Family; 11] = [
    Family {
        name: "edge_x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    Family {
        name: "corner_3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Family {
        name: "corner_2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Family {
        name: "line_2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Family {
        name: "line_3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Family {
        name: "line_4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Family {
        name: "diagonal_8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Family {
        name: "diagonal_7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Family {
        name: "diagonal_6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Family {
        name: "diagonal_5",
        squares: &[3, 12, 21, 30, 39],
    },
    Family {
        name: "diagonal_4",
        squares: &[4, 13, 22, 31],
    },
];

/// Number of families.
pub const FAMILY_COUNT: usize = FAMILIES.len();

/// Pattern instances read per position: every family on every image.
pub const INSTANCES: usize = FAMILY_COUNT * SYMMETRIES;

/// Where each family's table starts in one stage's weights.
pub const TABLE_OFFSETS: [usize; FAMILY_COUNT] = table_offsets();

/// Pattern weights in one stage: the families' tables end to end.
pub const PATTERN_WEIGHTS: usize =
    TABLE_OFFSETS[FAMILY_COUNT - 1] + FAMILIES[FAMILY_COUNT - 1].table_len();

const fn table_offsets() -> [usize; FAMILY_COUNT] {
    let mut offsets = [0; FAMILY_COUNT];
    let mut i = 1;
    while i < FAMILY_COUNT {
        offsets[i] = offsets[i - 1] + FAMILIES[i - 1].table_len();
        i += 1;
    }
    offsets
}

/// Names of the counted terms, in weight order.
pub const LINEAR_NAMES: [&str; LINEAR_COUNT] = [
    "mobility_own",
    "mobility_opponent",
    "potential_mobility_own",
    "potential_mobility_opponent",
    "parity",
];

/// Number of counted terms.
pub const LINEAR_COUNT: usize = 5;

/// `TERNARY[b]`: the bits of `b` read as base-3 digits (bit `i` ↦ `3^i`),
/// for the ten bits of the largest pattern.
pub static TERNARY: [u16; 1024] = ternary_table();

const fn ternary_table() -> [u16; 1024] {
    let mut table = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut value = 0u16;
        let mut power = 1u16;
        let mut bit = 0;
        while bit < 10 {
            if b & (1 << bit) != 0 {
                value += power;
            }
            power *= 3;
            bit += 1;
        }
        table[b] = value;
        b += 1;
    }
    table
}

/// The board with its files reversed (a1 ↔ h1).
#[inline(always)]
pub fn mirror_files(mut x: u64) -> u64 {
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((x & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}

/// The board with its rows reversed (a1 ↔ a8).
#[inline(always)]
pub fn flip_rows(x: u64) -> u64 {
    x.swap_bytes()
}

/// The board reflected in the a1-h8 diagonal: (row, file) ↦ (file, row).
/// Three delta swaps, each exchanging blocks across the diagonal.
#[inline(always)]
pub fn transpose(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The eight images of a bitboard; image `g` of every board is taken by
/// the same transform, so own and opponent images stay paired.
#[inline(always)]
pub fn images(x: u64) -> [u64; SYMMETRIES] {
    let m = mirror_files(x);
    let t = transpose(x);
    let tm = mirror_files(t);
    [
        x,
        m,
        flip_rows(x),
        flip_rows(m),
        t,
        tm,
        flip_rows(t),
        flip_rows(tm),
    ]
}

/// The squares of a diagonal parallel to a1-h8 gathered into a byte, bit
/// `f` for the square on file `f`: each square is on its own file, so the
/// multiplication stacks the rows into the top byte without carries.
#[inline(always)]
fn gather_files(x: u64, mask: u64) -> u64 {
    ((x & mask).wrapping_mul(0x0101_0101_0101_0101)) >> 56
}

/// The diagonal parallel to a1-h8 that starts on the top row at `file`.
const fn diagonal_from(file: u32) -> u64 {
    let mut mask = 0;
    let mut k = 0;
    while file + k < 8 {
        mask |= 1u64 << (file + 9 * k);
        k += 1;
    }
    mask
}

const DIAGONALS: [u64; 5] = [
    diagonal_from(0),
    diagonal_from(1),
    diagonal_from(2),
    diagonal_from(3),
    diagonal_from(4),
];

/// Family `F`'s base pattern read on one image: the base-3 index built
/// from one side's bits (digits 0 or 1).
#[inline(always)]
fn family_digits<const F: usize>(x: u64) -> u32 {
    let t = |bits: u64| u32::from(TERNARY[(bits & 0xff) as usize]);
    // The squares of a pattern on several rows, gathered into the low bits
    // in digit order and read with one lookup.
    let t10 = |bits: u64| u32::from(TERNARY[(bits & 0x3ff) as usize]);
    match F {
        // Row 1, then b2 and g2 (bits 9 and 14) as digits 8 and 9.
        0 => t10((x & 0xff) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200)),
        // a1-c1, a2-c2, a3-c3 as digits 0-2, 3-5, 6-8.
        1 => t10((x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1c0)),
        // a1-e1 and a2-e2 as digits 0-4 and 5-9.
        2 => t10((x & 0x1f) | ((x >> 3) & 0x3e0)),
        3 => t(x >> 8),
        4 => t(x >> 16),
        5 => t(x >> 24),
        6 => t(gather_files(x, DIAGONALS[0])),
        7 => t(gather_files(x, DIAGONALS[1]) >> 1),
        8 => t(gather_files(x, DIAGONALS[2]) >> 2),
        9 => t(gather_files(x, DIAGONALS[3]) >> 3),
        _ => t(gather_files(x, DIAGONALS[4]) >> 4),
    }
}

/// The index of family `F` read on image `g`.
#[inline(always)]
fn family_index<const F: usize>(own: &[u64; SYMMETRIES], opp: &[u64; SYMMETRIES], g: usize) -> u32 {
    family_digits::<F>(own[g]) + 2 * family_digits::<F>(opp[g])
}

/// Every pattern instance's index into its family's table, family-major:
/// entry `f * SYMMETRIES + g` is family `f` read on image `g`. This is the
/// evaluation's definition, which the fit uses; the evaluator reads only
/// the distinct instances ([`distinct_indices`]).
#[inline]
pub fn pattern_indices(own: u64, opp: u64) -> [u32; INSTANCES] {
    let own_images = images(own);
    let opp_images = images(opp);
    let mut out = [0u32; INSTANCES];
    for g in 0..SYMMETRIES {
        let (o, p) = (&own_images, &opp_images);
        let row = [
            family_index::<0>(o, p, g),
            family_index::<1>(o, p, g),
            family_index::<2>(o, p, g),
            family_index::<3>(o, p, g),
            family_index::<4>(o, p, g),
            family_index::<5>(o, p, g),
            family_index::<6>(o, p, g),
            family_index::<7>(o, p, g),
            family_index::<8>(o, p, g),
            family_index::<9>(o, p, g),
            family_index::<10>(o, p, g),
        ];
        for (f, index) in row.into_iter().enumerate() {
            out[f * SYMMETRIES + g] = index;
        }
    }
    out
}

/// For each family, one image per distinct set of squares its instances
/// cover: the others read the same squares in another order. An edge read
/// on the board and on its mirror image covers the same squares, so does
/// the a1 corner read on the board and on its transpose, and the long
/// diagonal covers the same squares on four images.
pub const REPRESENTATIVES: [&[usize]; FAMILY_COUNT] = [
    &[0, 2, 4, 6],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 2, 4, 6],
    &[0, 2, 4, 6],
    &[0, 2, 4, 6],
    &[0, 1],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3],
    &[0, 1, 2, 3],
];

/// For each family, the images on which the base reads its own squares
/// (in some order): image 0 and the symmetries that map the base onto
/// itself. Every set of [`REPRESENTATIVES`] is read this many times in
/// [`pattern_indices`].
pub const STABILISERS: [&[usize]; FAMILY_COUNT] = [
    &[0, 1],
    &[0, 4],
    &[0],
    &[0, 1],
    &[0, 1],
    &[0, 1],
    &[0, 3, 4, 7],
    &[0, 7],
    &[0, 7],
    &[0, 7],
    &[0, 7],
];

/// Distinct pattern instances of a position.
pub const DISTINCT: usize = 46;

/// For each distinct instance, in [`distinct_indices`]' order, where its
/// family's table starts in one stage's weights ([`TABLE_OFFSETS`]), so
/// that the evaluation reads instance `i` at `DISTINCT_OFFSETS[i]` plus its
/// index.
pub const DISTINCT_OFFSETS: [u32; DISTINCT] = distinct_offsets();

const fn distinct_offsets() -> [u32; DISTINCT] {
    let mut out = [0u32; DISTINCT];
    let mut at = 0;
    let mut f = 0;
    while f < FAMILY_COUNT {
        let mut k = 0;
        while k < REPRESENTATIVES[f].len() {
            out[at] = TABLE_OFFSETS[f] as u32;
            at += 1;
            k += 1;
        }
        f += 1;
    }
    assert!(at == DISTINCT, "DISTINCT counts every representative");
    out
}

/// Family `F` on its representative images, appended to `out` at `at`.
#[inline(always)]
fn push_distinct<const F: usize>(
    own: &[u64; SYMMETRIES],
    opp: &[u64; SYMMETRIES],
    out: &mut [u32; DISTINCT],
    at: &mut usize,
) {
    for &g in REPRESENTATIVES[F] {
        out[*at] = family_index::<F>(own, opp, g);
        *at += 1;
    }
}

/// The index of every distinct pattern instance, family by family, each
/// family on its [`REPRESENTATIVES`] in order. With tables that add up a
/// family's entries over its [`STABILISERS`], the sum over these equals
/// the sum over all of [`pattern_indices`], at about half the reads.
#[inline]
pub fn distinct_indices(own: u64, opp: u64) -> [u32; DISTINCT] {
    let o = images(own);
    let p = images(opp);
    let mut out = [0u32; DISTINCT];
    let mut at = 0;
    push_distinct::<0>(&o, &p, &mut out, &mut at);
    push_distinct::<1>(&o, &p, &mut out, &mut at);
    push_distinct::<2>(&o, &p, &mut out, &mut at);
    push_distinct::<3>(&o, &p, &mut out, &mut at);
    push_distinct::<4>(&o, &p, &mut out, &mut at);
    push_distinct::<5>(&o, &p, &mut out, &mut at);
    push_distinct::<6>(&o, &p, &mut out, &mut at);
    push_distinct::<7>(&o, &p, &mut out, &mut at);
    push_distinct::<8>(&o, &p, &mut out, &mut at);
    push_distinct::<9>(&o, &p, &mut out, &mut at);
    push_distinct::<10>(&o, &p, &mut out, &mut at);
    out
}

/// For entry `index` of family `family`'s table, the entries the same
/// squares give on each image of [`STABILISERS`]: the base's digits are
/// set on the board and read again on those images.
pub fn stabiliser_partners(family: usize, index: u32) -> Vec<u32> {
    let squares = FAMILIES[family].squares;
    let (mut own, mut opp) = (0u64, 0u64);
    let mut rest = index;
    for &square in squares {
        match rest % 3 {
            1 => own |= 1 << square,
            2 => opp |= 1 << square,
            _ => {}
        }
        rest /= 3;
    }
    let all = pattern_indices(own, opp);
    STABILISERS[family]
        .iter()
        .map(|&g| all[family * SYMMETRIES + g])
        .collect()
}

/// Squares next to some square of `bits`, in any of the eight directions.
#[inline]
pub fn neighbours(bits: u64) -> u64 {
    const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let right = (bits << 1) & NOT_A_FILE;
    let left = (bits >> 1) & NOT_H_FILE;
    let row = bits | right | left;
    right | left | (row << 8) | (row >> 8)
}

/// The counted terms, from the side to move's view: its legal placements,
/// the opponent's, the empty squares next to an opponent disc (where the
/// side to move may later play), those next to one of its own discs, and
/// 1 when the number of empty squares is odd (the side to move would then
/// fill the last square if nobody passed).
#[inline]
pub fn linear_terms(own: u64, opp: u64) -> [i32; LINEAR_COUNT] {
    let (own_placements, opp_placements) = legal_placements_both(own, opp);
    linear_terms_given(own, opp, own_placements, opp_placements)
}

/// [`linear_terms`] with both sides' legal placements given (a position
/// keeps the side to move's once its moves or its outcome were asked for;
/// a shallow search's leaf has both).
#[inline]
pub fn linear_terms_given(
    own: u64,
    opp: u64,
    own_placements: u64,
    opp_placements: u64,
) -> [i32; LINEAR_COUNT] {
    debug_assert_eq!(own_placements, legal_placements(own, opp));
    debug_assert_eq!(opp_placements, legal_placements(opp, own));
    let empty = !(own | opp);
    [
        own_placements.count_ones() as i32,
        opp_placements.count_ones() as i32,
        (neighbours(opp) & empty).count_ones() as i32,
        (neighbours(own) & empty).count_ones() as i32,
        (empty.count_ones() & 1) as i32,
    ]
}

/// The empty squares of a position.
#[inline]
pub fn empties(own: u64, opp: u64) -> u32 {
    64 - (own | opp).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bitboard with each square moved by `map` (row, file) ↦ (row, file).
    fn remap(x: u64, map: impl Fn(usize, usize) -> (usize, usize)) -> u64 {
        (0..64)
            .filter(|s| x >> s & 1 != 0)
            .map(|s| {
                let (r, f) = map(s / 8, s % 8);
                1u64 << (r * 8 + f)
            })
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn bit_transforms_match_square_by_square_ones() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..100 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            assert_eq!(mirror_files(x), remap(x, |r, f| (r, 7 - f)));
            assert_eq!(flip_rows(x), remap(x, |r, f| (7 - r, f)));
            assert_eq!(transpose(x), remap(x, |r, f| (f, r)));
        }
    }

    #[test]
    fn table_sizes_add_up() {
        assert_eq!(TABLE_OFFSETS[0], 0);
        assert_eq!(
            PATTERN_WEIGHTS,
            2 * 59049 + 19683 + 4 * 6561 + 2187 + 729 + 243 + 81
        );
        assert_eq!(TERNARY[0b101], 10);
    }
}
