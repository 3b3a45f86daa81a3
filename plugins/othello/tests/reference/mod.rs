//! A deliberately simple Othello to check the bitboard rules against: an 8x8
//! array of cells, and a walk one square at a time along each of the eight
//! directions. It shares no code with the crate, so a bug in the crate's
//! shifts and masks cannot hide in here as well.

use plyd_api::Outcome;

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Black,
    White,
}

impl Cell {
    fn opponent(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::Empty => Cell::Empty,
        }
    }
}

/// The eight directions as (row step, file step).
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The pass move, as the crate numbers it.
pub const PASS: u32 = 64;

/// A board as rows of cells (row 0 is the top row, holding a1..h1) and the
/// side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mailbox {
    pub cells: [[Cell; 8]; 8],
    pub to_move: Cell,
}

impl Mailbox {
    /// The start position: d4 and e5 white, d5 and e4 black, Black to move.
    pub fn start() -> Mailbox {
        let mut cells = [[Cell::Empty; 8]; 8];
        // cells[row][file], rows counted from the top starting at row 1 = 0.
        cells[3][3] = Cell::White; // d4
        cells[4][4] = Cell::White; // e5
        cells[4][3] = Cell::Black; // d5
        cells[3][4] = Cell::Black; // e4
        Mailbox {
            cells,
            to_move: Cell::Black,
        }
    }

    fn at(&self, row: i32, file: i32) -> Option<Cell> {
        if (0..8).contains(&row) && (0..8).contains(&file) {
            Some(self.cells[row as usize][file as usize])
        } else {
            None
        }
    }

    /// Cells `player` would flip by placing on (row, file).
    fn flips(&self, row: i32, file: i32, player: Cell) -> Vec<(i32, i32)> {
        let mut flipped = Vec::new();
        if self.at(row, file) != Some(Cell::Empty) {
            return flipped;
        }
        for (dr, df) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut r, mut f) = (row + dr, file + df);
            while self.at(r, f) == Some(player.opponent()) {
                line.push((r, f));
                r += dr;
                f += df;
            }
            if !line.is_empty() && self.at(r, f) == Some(player) {
                flipped.extend(line);
            }
        }
        flipped
    }

    /// Squares (row * 8 + file) where `player` may place, in increasing order.
    pub fn placements(&self, player: Cell) -> Vec<u32> {
        let mut squares = Vec::new();
        for row in 0..8 {
            for file in 0..8 {
                if !self.flips(row, file, player).is_empty() {
                    squares.push((row * 8 + file) as u32);
                }
            }
        }
        squares
    }

    /// The legal moves: the placements, else a pass when the opponent can
    /// place, else none (the game is over).
    pub fn legal_moves(&self) -> Vec<u32> {
        let mine = self.placements(self.to_move);
        if !mine.is_empty() {
            mine
        } else if !self.placements(self.to_move.opponent()).is_empty() {
            vec![PASS]
        } else {
            Vec::new()
        }
    }

    /// Play a legal move.
    pub fn play(&mut self, mv: u32) {
        if mv != PASS {
            let (row, file) = ((mv / 8) as i32, (mv % 8) as i32);
            let flipped = self.flips(row, file, self.to_move);
            assert!(!flipped.is_empty(), "reference: illegal move {mv}");
            for (r, f) in flipped {
                self.cells[r as usize][f as usize] = self.to_move;
            }
            self.cells[row as usize][file as usize] = self.to_move;
        }
        self.to_move = self.to_move.opponent();
    }

    /// Discs of `player`.
    pub fn count(&self, player: Cell) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&c| c == player)
            .count()
    }

    /// The outcome for the side to move.
    pub fn outcome(&self) -> Outcome {
        if !self.legal_moves().is_empty() {
            return Outcome::Ongoing;
        }
        let mine = self.count(self.to_move);
        let theirs = self.count(self.to_move.opponent());
        if mine > theirs {
            Outcome::Win
        } else if mine < theirs {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    /// Black's and White's discs as bitboards with bit row * 8 + file.
    pub fn bitboards(&self) -> (u64, u64) {
        let (mut black, mut white) = (0u64, 0u64);
        for row in 0..8 {
            for file in 0..8 {
                let bit = 1u64 << (row * 8 + file);
                match self.cells[row][file] {
                    Cell::Black => black |= bit,
                    Cell::White => white |= bit,
                    Cell::Empty => {}
                }
            }
        }
        (black, white)
    }

    /// Perft by copying the board at each ply, split into the positions
    /// reached at `depth` and the games that ended on the way there.
    pub fn perft_split(&self, depth: u32) -> (u64, u64) {
        if depth == 0 {
            return (1, 0);
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            return (0, 1);
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft_split(depth - 1)
            })
            .fold((0, 0), |(r, e), (cr, ce)| (r + cr, e + ce))
    }
}
