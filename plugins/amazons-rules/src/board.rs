//! The Amazons position on 128-bit bitboards: legal moves, make/unmake,
//! the legality of one move, and Zobrist hashing.
//!
//! A board of side `n` (4..=10) is stored row by row with one padding
//! column, so bit `r * (n + 1) + f` is the square of file `f` and rank `r`.
//! The padding bits and the bits above the last rank are never empty,
//! which stops every ray and every shift at the edge without a test.

use plyd_api::Move;

/// Smallest board side.
pub const MIN_SIZE: u8 = 4;
/// Largest board side (11 columns of 10 ranks fit in 128 bits).
pub const MAX_SIZE: u8 = 10;
/// Cells of the largest board.
pub const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// An empty cell.
pub const EMPTY: u8 = 0;
/// An amazon of the first player (`Q`).
pub const FIRST: u8 = 1;
/// An amazon of the second player (`q`).
pub const SECOND: u8 = 2;
/// An arrow (`*`).
pub const ARROW: u8 = 3;

/// A square as a bit number of the padded board.
pub type Sq = u8;

/// The from square of a move.
#[inline]
pub fn from_sq(mv: Move) -> Sq {
    mv as u8
}

/// The square an amazon moves to.
#[inline]
pub fn to_sq(mv: Move) -> Sq {
    (mv >> 8) as u8
}

/// The square the arrow lands on.
#[inline]
pub fn arrow_sq(mv: Move) -> Sq {
    (mv >> 16) as u8
}

/// The move from `from` to `to` shooting at `arrow`.
#[inline]
pub fn make_move(from: Sq, to: Sq, arrow: Sq) -> Move {
    u32::from(from) | u32::from(to) << 8 | u32::from(arrow) << 16
}

/// Whether bit `sq` is set (any `sq`, out-of-range ones read as clear).
#[inline]
pub fn has(bits: u128, sq: i32) -> bool {
    (0..128).contains(&sq) && (bits >> sq) & 1 != 0
}

/// The squares of `bits`, lowest first.
#[inline]
pub fn squares(mut bits: u128) -> impl Iterator<Item = Sq> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let sq = bits.trailing_zeros() as Sq;
            bits &= bits - 1;
            Some(sq)
        }
    })
}

/// Shift a bitboard by `by` bits, left when positive. Always inlined, so
/// that a shift by a constant compiles to a few instructions: a shift of a
/// 128-bit word by a variable amount costs several times more.
#[inline(always)]
pub fn shift(bits: u128, by: i32) -> u128 {
    if by >= 0 {
        bits << by
    } else {
        bits >> -by
    }
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn zobrist_table() -> [[u64; 128]; 3] {
    let mut keys = [[0u64; 128]; 3];
    let mut kind = 0;
    while kind < 3 {
        let mut sq = 0;
        while sq < 128 {
            keys[kind][sq] = splitmix((kind * 128 + sq) as u64 * 0x1000_0001 + 0x5a17);
            sq += 1;
        }
        kind += 1;
    }
    keys
}

/// Zobrist keys: `[FIRST - 1 | SECOND - 1 | ARROW - 1][bit]`.
static ZOBRIST: [[u64; 128]; 3] = zobrist_table();
/// Hashed in when the second player is to move.
const SIDE_KEY: u64 = splitmix(0xa11a_5011);
/// Hashed in per board side, so boards of two sizes never share a hash.
const fn size_key(size: u8) -> u64 {
    splitmix(0x517e_0000 + size as u64)
}

/// The geometry of one board size: its padded stride and masks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Board side.
    pub size: u8,
    /// Bits per rank (`size + 1`).
    pub stride: u8,
    /// The bits of real squares.
    pub mask: u128,
    /// The eight queen directions as bit offsets.
    pub dirs: [i32; 8],
}

/// The stride of the 10x10 board.
pub const STRIDE_10X10: u8 = 11;

/// The stride of the 8x8 board.
pub const STRIDE_8X8: u8 = 9;

/// [`Geometry::neighbours`] with the stride `s` given; inlined where `s` is
/// a constant.
#[inline(always)]
fn neighbours_by(bits: u128, s: u32, mask: u128) -> u128 {
    let up = bits << s | bits >> s;
    let row = bits | up;
    (up | row << 1 | row >> 1) & mask
}

impl Geometry {
    /// The geometry of a board of side `size` (4..=10).
    pub const fn new(size: u8) -> Self {
        let stride = size + 1;
        let mut mask = 0u128;
        let mut r = 0;
        while r < size {
            let mut f = 0;
            while f < size {
                mask |= 1u128 << (r as u32 * stride as u32 + f as u32);
                f += 1;
            }
            r += 1;
        }
        let s = stride as i32;
        Geometry {
            size,
            stride,
            mask,
            dirs: [1, -1, s, -s, s + 1, -(s + 1), s - 1, -(s - 1)],
        }
    }

    /// The bit of file `file`, rank `rank`.
    #[inline]
    pub fn square(&self, file: u8, rank: u8) -> Sq {
        rank * self.stride + file
    }

    /// File and rank of a bit.
    #[inline]
    pub fn file_rank(&self, sq: Sq) -> (u8, u8) {
        (sq % self.stride, sq / self.stride)
    }

    /// Whether `sq` is a real square of this board.
    #[inline]
    pub fn on_board(&self, sq: Sq) -> bool {
        sq < 128 && (self.mask >> sq) & 1 != 0
    }

    /// The cell index (`rank * size + file`) of a bit.
    #[inline]
    pub fn cell(&self, sq: Sq) -> usize {
        let (f, r) = self.file_rank(sq);
        r as usize * self.size as usize + f as usize
    }

    /// The squares next to any square of `bits` (king steps), on the board.
    #[inline]
    pub fn neighbours(&self, bits: u128) -> u128 {
        // The two competition boards shift by constants.
        match self.stride {
            STRIDE_10X10 => neighbours_by(bits, u32::from(STRIDE_10X10), self.mask),
            STRIDE_8X8 => neighbours_by(bits, u32::from(STRIDE_8X8), self.mask),
            stride => neighbours_by(bits, u32::from(stride), self.mask),
        }
    }
}

/// An Amazons position.
///
/// `#[repr(C)]` with `size`, `side` and `cells` first: that prefix is the
/// state layout external evaluators read (see the crate docs).
#[derive(Debug, Clone, PartialEq, Eq)]
#[repr(C)]
pub struct Board {
    /// Board side.
    pub size: u8,
    /// 0 when the first player is to move, 1 the second.
    pub side: u8,
    /// `EMPTY`, `FIRST`, `SECOND` or `ARROW` per cell `rank * size + file`.
    pub cells: [u8; MAX_CELLS],
    /// The amazons of each player.
    pub amazons: [u128; 2],
    /// The arrows.
    pub arrows: u128,
    /// Zobrist hash of everything above.
    pub hash: u64,
    geometry: Geometry,
}

impl Board {
    /// An empty board of side `size` (4..=10), first player to move.
    pub fn empty(size: u8) -> Self {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board side {size} outside 4..=10"
        );
        Board {
            size,
            side: 0,
            cells: [EMPTY; MAX_CELLS],
            amazons: [0; 2],
            arrows: 0,
            hash: size_key(size),
            geometry: Geometry::new(size),
        }
    }

    /// The board's geometry.
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Put `what` (`FIRST`, `SECOND` or `ARROW`) on the empty square `sq`.
    pub fn put(&mut self, sq: Sq, what: u8) {
        debug_assert!(self.geometry.on_board(sq) && self.is_empty(sq));
        let bit = 1u128 << sq;
        match what {
            FIRST => self.amazons[0] |= bit,
            SECOND => self.amazons[1] |= bit,
            _ => self.arrows |= bit,
        }
        self.cells[self.geometry.cell(sq)] = what;
        self.hash ^= ZOBRIST[usize::from(what - 1)][usize::from(sq)];
    }

    /// Set the side to move.
    pub fn set_side(&mut self, side: u8) {
        if side != self.side {
            self.side = side;
            self.hash ^= SIDE_KEY;
        }
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.amazons[0] | self.amazons[1] | self.arrows
    }

    /// Every empty square.
    #[inline]
    pub fn empties(&self) -> u128 {
        self.geometry.mask & !self.occupied()
    }

    /// Whether `sq` is an empty square of the board.
    #[inline]
    pub fn is_empty(&self, sq: Sq) -> bool {
        has(self.empties(), i32::from(sq))
    }

    /// What stands on `sq`.
    pub fn at(&self, sq: Sq) -> u8 {
        self.cells[self.geometry.cell(sq)]
    }

    /// Whether the side to move has a legal move: an amazon with an empty
    /// square next to it can step there and shoot back where it came from.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.geometry
            .neighbours(self.amazons[usize::from(self.side)])
            & self.empties()
            != 0
    }

    /// Call `visit` with every legal move of the side to move.
    #[inline]
    pub fn for_each_move(&self, mut visit: impl FnMut(Move)) {
        let dirs = self.geometry.dirs;
        let empty = self.empties();
        for from in squares(self.amazons[usize::from(self.side)]) {
            let empty_after = empty | 1u128 << from;
            for &d in &dirs {
                let mut to = i32::from(from) + d;
                while has(empty, to) {
                    for &e in &dirs {
                        let mut arrow = to + e;
                        while has(empty_after, arrow) {
                            visit(make_move(from, to as Sq, arrow as Sq));
                            arrow += e;
                        }
                    }
                    to += d;
                }
            }
        }
    }

    /// The number of legal moves of the side to move.
    pub fn count_moves(&self) -> u64 {
        let empty = self.empties();
        let mut total = 0u64;
        for from in squares(self.amazons[usize::from(self.side)]) {
            let empty_after = empty | 1u128 << from;
            for &d in &self.geometry.dirs {
                let mut to = i32::from(from) + d;
                while has(empty, to) {
                    total += u64::from(self.queen_reach(to as Sq, empty_after).count_ones());
                    to += d;
                }
            }
        }
        total
    }

    /// The squares a queen on `sq` reaches through the squares of `empty`.
    #[inline]
    pub fn queen_reach(&self, sq: Sq, empty: u128) -> u128 {
        let mut reach = 0u128;
        for &d in &self.geometry.dirs {
            let mut s = i32::from(sq) + d;
            while has(empty, s) {
                reach |= 1u128 << s;
                s += d;
            }
        }
        reach
    }

    /// The bit offset of one step from `from` towards `to` along their
    /// queen line; `None` where they share none (or are one square).
    #[inline]
    fn queen_step(&self, from: Sq, to: Sq) -> Option<i32> {
        let (ff, fr) = self.geometry.file_rank(from);
        let (tf, tr) = self.geometry.file_rank(to);
        let df = i32::from(tf) - i32::from(ff);
        let dr = i32::from(tr) - i32::from(fr);
        if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        Some(df.signum() + dr.signum() * i32::from(self.geometry.stride))
    }

    /// Whether `to` is reached from `from` by a queen line through `empty`
    /// (both squares on the board, `to` itself empty).
    fn queen_line(&self, from: Sq, to: Sq, empty: u128) -> bool {
        let Some(step) = self.queen_step(from, to) else {
            return false;
        };
        let mut s = i32::from(from) + step;
        loop {
            if !has(empty, s) {
                return false;
            }
            if s == i32::from(to) {
                return true;
            }
            s += step;
        }
    }

    /// The first square that stands between `from` and `to` on their queen
    /// line, not in `empty`; `None` where they share no line or the way
    /// is clear.
    pub fn first_in_way(&self, from: Sq, to: Sq, empty: u128) -> Option<Sq> {
        let step = self.queen_step(from, to)?;
        let mut s = i32::from(from) + step;
        while s != i32::from(to) {
            if !has(empty, s) {
                return Some(s as Sq);
            }
            s += step;
        }
        None
    }

    /// Whether `from` and `to`, two squares, share a queen line.
    pub fn on_queen_line(&self, from: Sq, to: Sq) -> bool {
        self.queen_step(from, to).is_some()
    }

    /// Whether `mv` is a legal move here (any `u32` may come in).
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv >> 24 != 0 {
            return false;
        }
        let (from, to, arrow) = (from_sq(mv), to_sq(mv), arrow_sq(mv));
        let geometry = &self.geometry;
        if !geometry.on_board(from) || !geometry.on_board(to) || !geometry.on_board(arrow) {
            return false;
        }
        if !has(self.amazons[usize::from(self.side)], i32::from(from)) {
            return false;
        }
        let empty = self.empties();
        self.queen_line(from, to, empty) && self.queen_line(to, arrow, empty | 1u128 << from)
    }

    /// Play the legal move `mv`.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        let (from, to, arrow) = (from_sq(mv), to_sq(mv), arrow_sq(mv));
        let side = usize::from(self.side);
        let piece = side as u8 + FIRST;
        self.amazons[side] ^= 1u128 << from | 1u128 << to;
        self.arrows |= 1u128 << arrow;
        let g = self.geometry;
        self.cells[g.cell(from)] = EMPTY;
        self.cells[g.cell(to)] = piece;
        self.cells[g.cell(arrow)] = ARROW;
        let keys = &ZOBRIST[side];
        self.hash ^= keys[usize::from(from)]
            ^ keys[usize::from(to)]
            ^ ZOBRIST[2][usize::from(arrow)]
            ^ SIDE_KEY;
        self.side ^= 1;
    }

    /// Take back `mv`, the last move played.
    #[inline]
    pub fn take_back(&mut self, mv: Move) {
        self.side ^= 1;
        let (from, to, arrow) = (from_sq(mv), to_sq(mv), arrow_sq(mv));
        let side = usize::from(self.side);
        let piece = side as u8 + FIRST;
        self.arrows &= !(1u128 << arrow);
        self.amazons[side] ^= 1u128 << from | 1u128 << to;
        let g = self.geometry;
        self.cells[g.cell(arrow)] = EMPTY;
        self.cells[g.cell(to)] = EMPTY;
        self.cells[g.cell(from)] = piece;
        let keys = &ZOBRIST[side];
        self.hash ^= keys[usize::from(from)]
            ^ keys[usize::from(to)]
            ^ ZOBRIST[2][usize::from(arrow)]
            ^ SIDE_KEY;
    }

    /// Pass the turn (the search's null move).
    pub fn pass(&mut self) {
        self.side ^= 1;
        self.hash ^= SIDE_KEY;
    }

    /// The hash computed from scratch (for tests of the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = size_key(self.size);
        for (kind, bits) in [self.amazons[0], self.amazons[1], self.arrows]
            .into_iter()
            .enumerate()
        {
            for sq in squares(bits) {
                hash ^= ZOBRIST[kind][usize::from(sq)];
            }
        }
        if self.side == 1 {
            hash ^= SIDE_KEY;
        }
        hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stay_on_the_board() {
        for size in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::new(size);
            let corner = 1u128 << g.square(size - 1, size - 1);
            assert_eq!(g.neighbours(corner).count_ones(), 3);
            let a1 = 1u128 << g.square(0, 0);
            assert_eq!(g.neighbours(a1).count_ones(), 3);
            let edge = 1u128 << g.square(0, 2);
            assert_eq!(g.neighbours(edge).count_ones(), 5);
            assert_eq!(g.neighbours(g.mask), g.mask);
        }
    }

    #[test]
    fn make_and_take_back_restore_everything() {
        let mut board = Board::empty(6);
        let g = *board.geometry();
        board.put(g.square(0, 0), FIRST);
        board.put(g.square(5, 5), SECOND);
        let before = board.clone();
        let mut moves = Vec::new();
        board.for_each_move(|mv| moves.push(mv));
        assert_eq!(moves.len() as u64, board.count_moves());
        for mv in moves {
            assert!(board.is_legal(mv));
            board.play(mv);
            assert_eq!(board.hash, board.hash_from_scratch());
            board.take_back(mv);
            assert_eq!(board, before);
        }
    }
}
