//! The position: stones on the 25 squares, whose turn it is, the roll if
//! the die has been cast, and the stage of the game (each side's set-up,
//! then play). Legal moves, the die's choice of stone, and make/unmake.

/// Red, the first player (top-left corner, moves first).
pub const RED: usize = 0;
/// Blue, the second player (bottom-right corner).
pub const BLUE: usize = 1;

/// Red chooses its arrangement.
pub const STAGE_RED_SETUP: u8 = 0;
/// Blue chooses its arrangement.
pub const STAGE_BLUE_SETUP: u8 = 1;
/// Rolls and moves.
pub const STAGE_PLAY: u8 = 2;

/// No square: a stone that has been removed.
pub const NO_SQUARE: u8 = 255;

/// A roll of the die is `ROLL + face`.
pub const ROLL: u32 = 1024;
/// An arrangement is `ARRANGE + index` (0..720).
pub const ARRANGE: u32 = 2048;
/// Number of arrangements of six stones.
pub const ARRANGEMENTS: usize = 720;

/// Each side's start squares, in the order an arrangement lists its
/// stones: Red `a5 b5 c5 a4 b4 a3`, Blue `e1 d1 c1 e2 d2 e3`.
pub const START_SQUARES: [[u8; 6]; 2] = [[20, 21, 22, 15, 16, 10], [4, 3, 2, 9, 8, 14]];

/// The corner each side must reach: Red `e1`, Blue `a5`.
pub const TARGET: [u8; 2] = [4, 20];

/// The cell value of `side`'s stone `number` (1..=6).
#[inline]
pub const fn stone(side: usize, number: u8) -> u8 {
    number + 6 * side as u8
}

/// The owner of a non-empty cell.
#[inline]
pub const fn owner(cell: u8) -> usize {
    (cell > 6) as usize
}

/// The number (1..=6) of a non-empty cell's stone.
#[inline]
pub const fn number(cell: u8) -> u8 {
    if cell > 6 {
        cell - 6
    } else {
        cell
    }
}

/// File (0 = `a`) of a square.
#[inline]
pub const fn file(sq: u8) -> u8 {
    sq % 5
}

/// Rank index (0 = rank 1) of a square.
#[inline]
pub const fn rank(sq: u8) -> u8 {
    sq / 5
}

/// King-move steps from `sq` to `side`'s target corner: the fewest moves a
/// stone there needs to arrive.
#[inline]
pub const fn distance(side: usize, sq: u8) -> u8 {
    let (f, r) = (file(sq), rank(sq));
    if side == RED {
        // Towards e1: file 4, rank index 0.
        let (df, dr) = (4 - f, r);
        if df > dr {
            df
        } else {
            dr
        }
    } else {
        let (df, dr) = (f, 4 - r);
        if df > dr {
            df
        } else {
            dr
        }
    }
}

/// The squares a stone of `side` on `sq` may step to (right, down,
/// down-right for Red; left, up, up-left for Blue), as a count and up to
/// three squares.
#[inline]
pub fn steps(side: usize, sq: u8) -> ([u8; 3], usize) {
    let mut out = [0; 3];
    let mut n = 0;
    let (f, r) = (file(sq), rank(sq));
    if side == RED {
        if f < 4 {
            out[n] = sq + 1;
            n += 1;
        }
        if r > 0 {
            out[n] = sq - 5;
            n += 1;
        }
        if f < 4 && r > 0 {
            out[n] = sq - 4;
            n += 1;
        }
    } else {
        if f > 0 {
            out[n] = sq - 1;
            n += 1;
        }
        if r < 4 {
            out[n] = sq + 5;
            n += 1;
        }
        if f > 0 && r < 4 {
            out[n] = sq + 4;
            n += 1;
        }
    }
    (out, n)
}

/// The stones 1..=6 in the order of arrangement `index` (lexicographic
/// order of the 720 permutations).
pub fn arrangement(index: usize) -> [u8; 6] {
    debug_assert!(index < ARRANGEMENTS);
    let mut left: Vec<u8> = (1..=6).collect();
    let mut out = [0; 6];
    let mut rest = index;
    let mut block = 120;
    for (i, slot) in out.iter_mut().enumerate() {
        let pick = rest / block;
        rest %= block;
        *slot = left.remove(pick);
        if i < 5 {
            block /= 5 - i;
        }
    }
    out
}

/// The index of an order of the stones 1..=6, `None` unless each appears
/// once.
pub fn arrangement_index(stones: &[u8; 6]) -> Option<usize> {
    let mut seen = [false; 7];
    for &s in stones {
        if !(1..=6).contains(&s) || seen[usize::from(s)] {
            return None;
        }
        seen[usize::from(s)] = true;
    }
    let mut index = 0;
    let mut block = 120;
    for i in 0..6 {
        let smaller_later = stones[i + 1..].iter().filter(|&&s| s < stones[i]).count();
        index += smaller_later * block;
        if i < 5 {
            block /= 5 - i;
        }
    }
    Some(index)
}

/// What a move changed, for unmake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The cell a step landed on, before it (0 if empty).
    pub captured: u8,
    /// The roll before the move.
    pub roll: u8,
}

/// The position. `#[repr(C)]`: its first 28 bytes are the state layout
/// evaluator plugins read (see the crate docs).
#[repr(C)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// 0 empty, 1..=6 Red's stone n, 7..=12 Blue's stone n - 6.
    pub cells: [u8; 25],
    /// 0 Red, 1 Blue: the side to move, roll or arrange.
    pub side: u8,
    /// 0 before the roll, else the face rolled.
    pub roll: u8,
    /// [`STAGE_RED_SETUP`], [`STAGE_BLUE_SETUP`] or [`STAGE_PLAY`].
    pub stage: u8,
    /// The square of each side's stone n (index n; index 0 unused), or
    /// [`NO_SQUARE`].
    pub squares: [[u8; 7]; 2],
    /// Stones each side has on the board.
    pub counts: [u8; 2],
}

impl Board {
    /// The set-up stage: an empty board, Red to arrange.
    pub fn setup() -> Board {
        Board {
            cells: [0; 25],
            side: RED as u8,
            roll: 0,
            stage: STAGE_RED_SETUP,
            squares: [[NO_SQUARE; 7]; 2],
            counts: [0; 2],
        }
    }

    /// The side to move, as an index.
    #[inline]
    pub fn mover(&self) -> usize {
        usize::from(self.side)
    }

    /// Whether `side` has stone `n` on the board.
    #[inline]
    pub fn has(&self, side: usize, n: u8) -> bool {
        self.squares[side][usize::from(n)] != NO_SQUARE
    }

    /// The stones (at most two) that a roll of `face` lets `side` move: the
    /// stone of that number, else the nearest lower and the nearest higher
    /// stone left, as a count and the numbers.
    #[inline]
    pub fn movable(&self, side: usize, face: u8) -> ([u8; 2], usize) {
        if self.has(side, face) {
            return ([face, 0], 1);
        }
        let mut out = [0; 2];
        let mut n = 0;
        if let Some(lower) = (1..face).rev().find(|&s| self.has(side, s)) {
            out[n] = lower;
            n += 1;
        }
        if let Some(higher) = (face + 1..=6).find(|&s| self.has(side, s)) {
            out[n] = higher;
            n += 1;
        }
        (out, n)
    }

    /// Whether the game is over: a stone on its target corner, or a side
    /// with no stones, in play.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.stage == STAGE_PLAY && self.winner().is_some()
    }

    /// The side that has won, in play.
    pub fn winner(&self) -> Option<usize> {
        if self.stage != STAGE_PLAY {
            return None;
        }
        for side in [RED, BLUE] {
            let at = self.cells[usize::from(TARGET[side])];
            if at != 0 && owner(at) == side {
                return Some(side);
            }
        }
        if self.counts[RED] == 0 {
            return Some(BLUE);
        }
        if self.counts[BLUE] == 0 {
            return Some(RED);
        }
        None
    }

    /// Every legal move, pushed through `push`: the arrangements at a set-up
    /// stage, the roll tokens before a roll, the steps of the stones the
    /// roll allows after it. Nothing once the game is over.
    pub fn for_each_move(&self, mut push: impl FnMut(u32)) {
        match self.stage {
            STAGE_RED_SETUP | STAGE_BLUE_SETUP => {
                for i in 0..ARRANGEMENTS as u32 {
                    push(ARRANGE + i);
                }
            }
            _ if self.is_over() => {}
            _ if self.roll == 0 => {
                for face in 1..=6 {
                    push(ROLL + face);
                }
            }
            _ => self.for_each_step(self.roll, &mut push),
        }
    }

    /// The steps a roll of `face` allows the side to move.
    #[inline]
    pub fn for_each_step(&self, face: u8, push: &mut impl FnMut(u32)) {
        let side = self.mover();
        let (stones, n) = self.movable(side, face);
        for &s in &stones[..n] {
            let from = self.squares[side][usize::from(s)];
            let (to, count) = steps(side, from);
            for &t in &to[..count] {
                push(u32::from(from) * 32 + u32::from(t));
            }
        }
    }

    /// Number of legal moves.
    pub fn count_moves(&self) -> u64 {
        let mut n = 0;
        self.for_each_move(|_| n += 1);
        n
    }

    /// Put a stone on an empty square.
    #[inline]
    fn put(&mut self, sq: u8, cell: u8) {
        self.cells[usize::from(sq)] = cell;
        self.squares[owner(cell)][usize::from(number(cell))] = sq;
        self.counts[owner(cell)] += 1;
    }

    /// Take the stone off a square.
    #[inline]
    fn take(&mut self, sq: u8) -> u8 {
        let cell = self.cells[usize::from(sq)];
        if cell != 0 {
            self.cells[usize::from(sq)] = 0;
            self.squares[owner(cell)][usize::from(number(cell))] = NO_SQUARE;
            self.counts[owner(cell)] -= 1;
        }
        cell
    }

    /// Play a legal move and say what unmake needs.
    pub fn play(&mut self, mv: u32) -> Undo {
        let undo = Undo {
            captured: 0,
            roll: self.roll,
        };
        if mv >= ARRANGE {
            let side = self.mover();
            let stones = arrangement((mv - ARRANGE) as usize);
            for (i, &s) in stones.iter().enumerate() {
                self.put(START_SQUARES[side][i], stone(side, s));
            }
            self.stage += 1;
            self.side ^= 1;
            undo
        } else if mv >= ROLL {
            self.roll = (mv - ROLL) as u8;
            undo
        } else {
            let (from, to) = ((mv / 32) as u8, (mv % 32) as u8);
            let captured = self.take(to);
            let moving = self.take(from);
            self.put(to, moving);
            self.roll = 0;
            self.side ^= 1;
            Undo { captured, ..undo }
        }
    }

    /// Take back `mv`, the last move played, with what [`Board::play`]
    /// returned for it.
    pub fn take_back(&mut self, mv: u32, undo: Undo) {
        if mv >= ARRANGE {
            self.side ^= 1;
            self.stage -= 1;
            for &sq in &START_SQUARES[self.mover()] {
                self.take(sq);
            }
        } else if mv >= ROLL {
            self.roll = undo.roll;
        } else {
            let (from, to) = ((mv / 32) as u8, (mv % 32) as u8);
            let moving = self.take(to);
            self.put(from, moving);
            if undo.captured != 0 {
                self.put(to, undo.captured);
            }
            self.roll = undo.roll;
            self.side ^= 1;
        }
    }

    /// Whether `mv` is legal here (any `u32` may come in).
    pub fn is_legal(&self, mv: u32) -> bool {
        match self.stage {
            STAGE_RED_SETUP | STAGE_BLUE_SETUP => {
                (ARRANGE..ARRANGE + ARRANGEMENTS as u32).contains(&mv)
            }
            _ if self.is_over() => false,
            _ if self.roll == 0 => (ROLL + 1..=ROLL + 6).contains(&mv),
            _ => {
                let mut found = false;
                self.for_each_step(self.roll, &mut |m| found |= m == mv);
                found
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_number_every_order_once() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..ARRANGEMENTS {
            let a = arrangement(i);
            assert_eq!(arrangement_index(&a), Some(i));
            assert!(seen.insert(a));
        }
        assert_eq!(arrangement(0), [1, 2, 3, 4, 5, 6]);
        assert_eq!(arrangement(719), [6, 5, 4, 3, 2, 1]);
        assert_eq!(arrangement_index(&[1, 1, 2, 3, 4, 5]), None);
        assert_eq!(arrangement_index(&[0, 1, 2, 3, 4, 5]), None);
    }

    #[test]
    fn distances_from_the_start_squares() {
        let red: Vec<u8> = START_SQUARES[RED]
            .iter()
            .map(|&s| distance(RED, s))
            .collect();
        assert_eq!(red, [4, 4, 4, 4, 3, 4]);
        let blue: Vec<u8> = START_SQUARES[BLUE]
            .iter()
            .map(|&s| distance(BLUE, s))
            .collect();
        assert_eq!(blue, [4, 4, 4, 4, 3, 4]);
        assert_eq!(distance(RED, TARGET[RED]), 0);
        assert_eq!(distance(BLUE, TARGET[BLUE]), 0);
    }
}
