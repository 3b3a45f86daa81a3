//! A deliberately plain Game of the Amazons, used as a test oracle for the
//! rules crate's bitboard generator.
//!
//! It is written from the rules alone, for clarity rather than speed, and
//! shares no code with the crate: the board is a 2-D array of cells (any
//! square size from 4 to 10), an amazon walks one square at a time in each
//! of the eight queen directions until something stops it, and for each
//! square it can reach, the amazon is lifted off its square, put down on
//! the new one, and the arrow walks the same way from there. Moves are
//! plain text (`d1d7g7`), positions Fairy-Stockfish's Amazons FEN, read
//! and written by its own code.
//!
//! Conventions: files `a`.. from the left, ranks from 1 on the first
//! player's side; `Q` is an amazon of the first player, `q` one of the
//! second, `*` an arrow.

#![allow(dead_code)]

/// The largest board side.
pub const MAX_SIDE: usize = 10;
/// The smallest board side.
pub const MIN_SIDE: usize = 4;

/// What a square holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Empty,
    /// An amazon of the first player.
    First,
    /// An amazon of the second player.
    Second,
    Arrow,
}

/// A square as (file, rank), both from 0; may lie off the board while a
/// walk looks at it.
pub type Square = (i32, i32);

/// A move: the square the amazon leaves, the one it lands on, the one the
/// arrow hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefMove {
    pub from: Square,
    pub to: Square,
    pub arrow: Square,
}

/// The eight queen directions as (file step, rank step).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// A square written as file letter and rank number, e.g. `d1` or `j10`.
pub fn square_name((file, rank): Square) -> String {
    let letter = (b'a' + file as u8) as char;
    format!("{letter}{}", rank + 1)
}

/// Reads a square name such as `j10` on a board of side `size`.
pub fn parse_square(text: &str, size: usize) -> Option<Square> {
    let mut chars = text.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let file = letter as i32 - 'a' as i32;
    let rank = digits.parse::<i32>().ok()? - 1;
    let inside = 0..size as i32;
    (inside.contains(&file) && inside.contains(&rank)).then_some((file, rank))
}

/// A move written as its three squares, e.g. `d1d7g7`.
pub fn move_name(mv: RefMove) -> String {
    format!(
        "{}{}{}",
        square_name(mv.from),
        square_name(mv.to),
        square_name(mv.arrow)
    )
}

/// Reads a move written as three squares (`d1d7g7`, `a10a9b10`).
pub fn parse_move(text: &str, size: usize) -> Option<RefMove> {
    // A square name ends where the next letter starts.
    let starts: Vec<usize> = text
        .char_indices()
        .filter(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .collect();
    if starts.len() != 3 || starts[0] != 0 {
        return None;
    }
    let from = parse_square(&text[starts[0]..starts[1]], size)?;
    let to = parse_square(&text[starts[1]..starts[2]], size)?;
    let arrow = parse_square(&text[starts[2]..], size)?;
    Some(RefMove { from, to, arrow })
}

/// A position: the cells, the side to move and the move number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefBoard {
    /// Board side.
    size: usize,
    /// `cells[rank][file]`; only the first `size` ranks and files are used.
    cells: [[Cell; MAX_SIDE]; MAX_SIDE],
    /// Whether the first player (`Q`) is to move.
    first_to_move: bool,
    /// Goes up by one after each move of the second player.
    move_number: u32,
}

impl RefBoard {
    /// Reads an Amazons FEN: the ranks from the last down to the first,
    /// separated by `/`, then the side to move (`w` or `b`, `w` if absent),
    /// then optionally castling, en passant, the half-move clock and the
    /// move number (1 if absent).
    pub fn from_fen(fen: &str) -> Result<RefBoard, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let placement = fields.first().ok_or("empty FEN")?;
        let rows: Vec<&str> = placement.split('/').collect();
        let size = rows.len();
        if !(MIN_SIDE..=MAX_SIDE).contains(&size) {
            return Err(format!("{size} ranks"));
        }
        let mut cells = [[Cell::Empty; MAX_SIDE]; MAX_SIDE];
        for (index, row) in rows.iter().enumerate() {
            let rank = size - 1 - index;
            let mut file = 0;
            let mut run = String::new();
            for c in row.chars().chain(std::iter::once('/')) {
                if c.is_ascii_digit() {
                    run.push(c);
                    continue;
                }
                if !run.is_empty() {
                    let empties: usize = run.parse().map_err(|_| format!("run '{run}'"))?;
                    if empties == 0 {
                        return Err("an empty run of 0".to_string());
                    }
                    file += empties;
                    run.clear();
                }
                let cell = match c {
                    'Q' => Cell::First,
                    'q' => Cell::Second,
                    '*' => Cell::Arrow,
                    '/' => break,
                    other => return Err(format!("unexpected '{other}'")),
                };
                if file >= size {
                    return Err(format!("rank {} is too wide", rank + 1));
                }
                cells[rank][file] = cell;
                file += 1;
            }
            if file != size {
                return Err(format!("rank {} has {file} squares", rank + 1));
            }
        }
        let first_to_move = match fields.get(1).copied() {
            None | Some("w") => true,
            Some("b") => false,
            Some(other) => return Err(format!("side '{other}'")),
        };
        let move_number = match fields.get(5) {
            Some(n) => n.parse().map_err(|_| format!("move number '{n}'"))?,
            None => 1,
        };
        if fields.len() > 6 {
            return Err("too many fields".to_string());
        }
        let board = RefBoard {
            size,
            cells,
            first_to_move,
            move_number,
        };
        for player in [Cell::First, Cell::Second] {
            if board.amazons(player).is_empty() {
                return Err(format!("no amazon of {player:?}"));
            }
        }
        Ok(board)
    }

    /// The FEN, with all six fields (`- - 0` in the middle).
    pub fn fen(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..self.size).rev() {
            let mut row = String::new();
            let mut empties = 0;
            for file in 0..self.size {
                let letter = match self.cells[rank][file] {
                    Cell::Empty => {
                        empties += 1;
                        continue;
                    }
                    Cell::First => 'Q',
                    Cell::Second => 'q',
                    Cell::Arrow => '*',
                };
                if empties > 0 {
                    row += &empties.to_string();
                    empties = 0;
                }
                row.push(letter);
            }
            if empties > 0 {
                row += &empties.to_string();
            }
            rows.push(row);
        }
        let side = if self.first_to_move { 'w' } else { 'b' };
        format!("{} {side} - - 0 {}", rows.join("/"), self.move_number)
    }

    /// Board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether the first player is to move.
    pub fn first_to_move(&self) -> bool {
        self.first_to_move
    }

    /// What stands on a square of the board.
    pub fn at(&self, (file, rank): Square) -> Cell {
        self.cells[rank as usize][file as usize]
    }

    /// Whether a square lies on the board.
    pub fn on_board(&self, (file, rank): Square) -> bool {
        let inside = 0..self.size as i32;
        inside.contains(&file) && inside.contains(&rank)
    }

    /// Whether a square lies on the board and is empty.
    fn is_free(&self, square: Square) -> bool {
        self.on_board(square) && self.at(square) == Cell::Empty
    }

    /// The cell of the side to move's amazons.
    fn mover(&self) -> Cell {
        if self.first_to_move {
            Cell::First
        } else {
            Cell::Second
        }
    }

    /// The squares of `player`'s amazons, a1 first, then along the rank.
    pub fn amazons(&self, player: Cell) -> Vec<Square> {
        let mut found = Vec::new();
        for rank in 0..self.size as i32 {
            for file in 0..self.size as i32 {
                if self.at((file, rank)) == player {
                    found.push((file, rank));
                }
            }
        }
        found
    }

    /// The squares of the side to move's amazons.
    pub fn own_amazons(&self) -> Vec<Square> {
        self.amazons(self.mover())
    }

    /// The squares of the other side's amazons.
    pub fn enemy_amazons(&self) -> Vec<Square> {
        let enemy = if self.first_to_move {
            Cell::Second
        } else {
            Cell::First
        };
        self.amazons(enemy)
    }

    /// The empty squares a queen on `start` reaches, walking one square at
    /// a time in each direction until a piece, an arrow or the edge.
    fn queen_walk(&self, start: Square) -> Vec<Square> {
        let mut reached = Vec::new();
        self.walk(start, |square| reached.push(square));
        reached
    }

    /// Calls `visit` with each square [`RefBoard::queen_walk`] lists.
    fn walk(&self, start: Square, mut visit: impl FnMut(Square)) {
        for (df, dr) in DIRECTIONS {
            let mut square = (start.0 + df, start.1 + dr);
            while self.is_free(square) {
                visit(square);
                square = (square.0 + df, square.1 + dr);
            }
        }
    }

    /// Calls `visit` with each (from, to) queen move of the side to move and
    /// the board with the amazon standing on `to` (the arrow not yet shot).
    fn for_each_queen_move(&self, mut visit: impl FnMut(Square, Square, &RefBoard)) {
        let mover = self.mover();
        for from in self.own_amazons() {
            for to in self.queen_walk(from) {
                let mut lifted = self.clone();
                lifted.cells[from.1 as usize][from.0 as usize] = Cell::Empty;
                lifted.cells[to.1 as usize][to.0 as usize] = mover;
                visit(from, to, &lifted);
            }
        }
    }

    /// Every legal move, in the order found.
    pub fn moves(&self) -> Vec<RefMove> {
        let mut moves = Vec::new();
        self.for_each_queen_move(|from, to, lifted| {
            for arrow in lifted.queen_walk(to) {
                moves.push(RefMove { from, to, arrow });
            }
        });
        moves
    }

    /// Every legal move as text, sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut names: Vec<String> = self.moves().into_iter().map(move_name).collect();
        names.sort();
        names
    }

    /// The number of legal moves.
    pub fn count_moves(&self) -> u64 {
        let mut count = 0;
        self.for_each_queen_move(|_, to, lifted| lifted.walk(to, |_| count += 1));
        count
    }

    /// Whether the move written `name` is legal here.
    pub fn is_legal(&self, name: &str) -> bool {
        self.legal_moves().iter().any(|legal| legal == name)
    }

    /// Play a legal move.
    pub fn make(&mut self, mv: RefMove) {
        let mover = self.mover();
        assert_eq!(
            self.at(mv.from),
            mover,
            "no amazon of the mover on the from square"
        );
        self.cells[mv.from.1 as usize][mv.from.0 as usize] = Cell::Empty;
        assert_eq!(self.at(mv.to), Cell::Empty, "the landing square is taken");
        self.cells[mv.to.1 as usize][mv.to.0 as usize] = mover;
        assert_eq!(self.at(mv.arrow), Cell::Empty, "the arrow square is taken");
        self.cells[mv.arrow.1 as usize][mv.arrow.0 as usize] = Cell::Arrow;
        if !self.first_to_move {
            self.move_number += 1;
        }
        self.first_to_move = !self.first_to_move;
    }

    /// Play the move written `name`, which must be legal.
    pub fn play(&mut self, name: &str) {
        assert!(self.is_legal(name), "{name} is not legal in {}", self.fen());
        let mv = parse_move(name, self.size).expect("a legal move parses");
        self.make(mv);
    }

    /// Leaves `depth` plies below, the last ply counted without playing it;
    /// a position with no move before the last ply counts nothing.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => self
                .moves()
                .into_iter()
                .map(|mv| {
                    let mut after = self.clone();
                    after.make(mv);
                    after.perft(depth - 1)
                })
                .sum(),
        }
    }

    /// Perft split by first move, sorted by move text.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut split: Vec<(String, u64)> = self
            .moves()
            .into_iter()
            .map(|mv| {
                let mut after = self.clone();
                after.make(mv);
                (move_name(mv), after.perft(depth.saturating_sub(1)))
            })
            .collect();
        split.sort();
        split
    }
}
