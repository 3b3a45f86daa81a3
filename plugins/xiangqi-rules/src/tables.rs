//! Move tables built at compile time: for every square, where each kind of
//! piece can step and which square can block it. The generator then never
//! tests a board edge in its loops.

use crate::board::{file_of, rank_of, square, FILES, RANKS, SQUARES};

/// Up to eight destinations from one square, each with the square that
/// blocks the step (the horse's leg, the elephant's eye; the destination
/// itself where nothing can block).
#[derive(Clone, Copy)]
pub struct Steps {
    /// Number of valid entries.
    pub len: u8,
    /// Destination squares.
    pub to: [u8; 8],
    /// Blocking square of each destination.
    pub via: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn push(mut self, to: usize, via: usize) -> Steps {
        self.to[self.len as usize] = to as u8;
        self.via[self.len as usize] = via as u8;
        self.len += 1;
        self
    }

    /// The `(destination, blocker)` pairs.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.to[..self.len as usize]
            .iter()
            .zip(&self.via[..self.len as usize])
            .map(|(&to, &via)| (to as usize, via as usize))
    }
}

/// The square `(file + df, rank + dr)` from `sq`, if on the board.
const fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let file = file_of(sq) as i32 + df;
    let rank = rank_of(sq) as i32 + dr;
    if file < 0 || file >= FILES as i32 || rank < 0 || rank >= RANKS as i32 {
        None
    } else {
        Some(square(file as usize, rank as usize))
    }
}

/// Whether `sq` lies in either palace (files d-f, ranks 0-2 or 7-9).
pub const fn in_palace(sq: usize) -> bool {
    let file = file_of(sq);
    let rank = rank_of(sq);
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7)
}

/// Whether `a` and `b` are on the same side of the river.
const fn same_half(a: usize, b: usize) -> bool {
    (rank_of(a) <= 4) == (rank_of(b) <= 4)
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// One-step moves in `directions` that stay inside the palace they start
/// in: the general's (orthogonal) and the advisor's (diagonal).
const fn build_palace_steps(directions: [(i32, i32); 4]) -> [Steps; SQUARES] {
    let mut table = [Steps::EMPTY; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 4 {
            if in_palace(sq) {
                if let Some(to) = offset(sq, directions[d].0, directions[d].1) {
                    if in_palace(to) && same_half(sq, to) {
                        table[sq] = table[sq].push(to, to);
                    }
                }
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// The elephant's four jumps, two squares diagonally.
const ELEPHANT_JUMPS: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];

/// The eight horse jumps as (file, rank) steps.
const HORSE_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// The square that blocks a jump of (`df`, `dr`), as a step from the
/// jumping piece: half the jump, rounded towards zero. That is the
/// elephant's eye (the diagonal square between) and the horse's leg (the
/// orthogonal square next to it in the direction of the long step).
const fn blocker(df: i32, dr: i32) -> (i32, i32) {
    (df / 2, dr / 2)
}

/// Jumps that a piece on the square in between can block, with that
/// square as `via`; `own_half` keeps only jumps that stay on the same side
/// of the river (the elephant's).
const fn build_jumps(jumps: &[(i32, i32)], own_half: bool) -> [Steps; SQUARES] {
    let mut table = [Steps::EMPTY; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut j = 0;
        while j < jumps.len() {
            let (df, dr) = jumps[j];
            if let Some(to) = offset(sq, df, dr) {
                let (bf, br) = blocker(df, dr);
                if let Some(via) = offset(sq, bf, br) {
                    if !own_half || same_half(sq, to) {
                        table[sq] = table[sq].push(to, via);
                    }
                }
            }
            j += 1;
        }
        sq += 1;
    }
    table
}

/// For each square, the horses that could attack it: `to` holds the horse's
/// square and `via` its leg (next to the horse, so diagonal to the target).
const fn build_horse_attackers() -> [Steps; SQUARES] {
    let mut table = [Steps::EMPTY; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut j = 0;
        while j < 8 {
            let (df, dr) = HORSE_JUMPS[j];
            // A horse at sq - (df, dr) jumps by (df, dr) onto sq.
            if let Some(from) = offset(sq, -df, -dr) {
                let (lf, lr) = blocker(df, dr);
                if let Some(leg) = offset(from, lf, lr) {
                    table[sq] = table[sq].push(from, leg);
                }
            }
            j += 1;
        }
        sq += 1;
    }
    table
}

/// Pawn steps for one colour (0 Red, moving up the ranks; 1 Black, down).
const fn build_pawn(color: usize) -> [Steps; SQUARES] {
    let mut table = [Steps::EMPTY; SQUARES];
    let forward = if color == 0 { 1 } else { -1 };
    let mut sq = 0;
    while sq < SQUARES {
        if let Some(to) = offset(sq, 0, forward) {
            table[sq] = table[sq].push(to, to);
        }
        let crossed = if color == 0 {
            rank_of(sq) >= 5
        } else {
            rank_of(sq) <= 4
        };
        if crossed {
            if let Some(to) = offset(sq, 1, 0) {
                table[sq] = table[sq].push(to, to);
            }
            if let Some(to) = offset(sq, -1, 0) {
                table[sq] = table[sq].push(to, to);
            }
        }
        sq += 1;
    }
    table
}

/// The squares along one direction from each square, nearest first.
#[derive(Clone, Copy)]
pub struct Ray {
    /// Number of squares.
    pub len: u8,
    /// The squares.
    pub squares: [u8; 9],
}

impl Ray {
    /// The squares, nearest first.
    #[inline]
    pub fn squares(&self) -> &[u8] {
        &self.squares[..self.len as usize]
    }
}

const fn build_rays() -> [[Ray; 4]; SQUARES] {
    let empty = Ray {
        len: 0,
        squares: [0; 9],
    };
    let mut table = [[empty; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHOGONAL[d];
            let mut at = sq;
            while let Some(next) = offset(at, df, dr) {
                let ray = &mut table[sq][d];
                ray.squares[ray.len as usize] = next as u8;
                ray.len += 1;
                at = next;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// General steps inside the palace.
pub static KING_STEPS: [Steps; SQUARES] = build_palace_steps(ORTHOGONAL);
/// Advisor steps inside the palace.
pub static ADVISOR_STEPS: [Steps; SQUARES] = build_palace_steps(DIAGONAL);
/// Elephant steps with their eyes, never across the river.
pub static ELEPHANT_STEPS: [Steps; SQUARES] = build_jumps(&ELEPHANT_JUMPS, true);
/// Horse jumps with their legs.
pub static HORSE_STEPS: [Steps; SQUARES] = build_jumps(&HORSE_JUMPS, false);
/// Horses attacking each square, with their legs.
pub static HORSE_ATTACKERS: [Steps; SQUARES] = build_horse_attackers();
/// Pawn steps by colour.
pub static PAWN_STEPS: [[Steps; SQUARES]; 2] = [build_pawn(0), build_pawn(1)];
/// Rays up (rank + 1), down, right (file + 1) and left from each square.
pub static RAYS: [[Ray; 4]; SQUARES] = build_rays();

/// Index of the rays along a file in [`RAYS`] (up and down).
pub const VERTICAL: [usize; 2] = [0, 1];

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn build_keys() -> [[u64; SQUARES]; 16] {
    let mut keys = [[0; SQUARES]; 16];
    let mut state = 0x5851_f42d_4c95_7f2d;
    let mut piece = 0;
    while piece < 16 {
        let mut sq = 0;
        while sq < SQUARES {
            let (next, key) = splitmix(state);
            state = next;
            keys[piece][sq] = key;
            sq += 1;
        }
        piece += 1;
    }
    keys
}

/// Zobrist keys by piece code and square.
pub static PIECE_KEYS: [[u64; SQUARES]; 16] = build_keys();
/// Zobrist key of Black to move.
pub const SIDE_KEY: u64 = splitmix(0x2545_f491_4f6c_dd1d).1;
