//! A deliberately simple xiangqi (Chinese chess) move generator, used as a
//! test oracle for the plugin's fast generator.
//!
//! It is written for clarity, not speed, and independently of the plugin's
//! generator: the board is a plain 10x9 array of optional pieces, every piece
//! walks the board one square at a time, and a move is legal when, after
//! playing it on a copy of the board, no enemy move could land on the mover's
//! general and the two generals do not face each other. It uses only std and
//! shares no code with the plugin, so a bug there cannot hide in here as well.
//!
//! Conventions: files a..i left to right from Red's view, ranks 0..9 with
//! rank 0 Red's back rank; moves are written from-square then to-square, e.g.
//! `h2e2`; FEN is the Pikafish / Fairy-Stockfish form.

#![allow(dead_code)]

/// The two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    Red,
    Black,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

/// The seven kinds of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    General,
    Advisor,
    Elephant,
    Horse,
    Chariot,
    Cannon,
    Pawn,
}

/// A piece: its side and its kind.
pub type Piece = (Color, Kind);

/// A square as (file, rank): file 0..9 is a..i, rank 0..10 counts from Red's
/// back rank.
pub type Square = (i32, i32);

/// A move as (from, to).
pub type Move = (Square, Square);

/// Number of files (a..i).
pub const FILES: i32 = 9;
/// Number of ranks (0..9).
pub const RANKS: i32 = 10;

/// The FEN of the start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The four orthogonal steps as (file step, rank step).
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The four diagonal steps as (file step, rank step).
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Whether a square lies on the board.
fn on_board((file, rank): Square) -> bool {
    (0..FILES).contains(&file) && (0..RANKS).contains(&rank)
}

/// Whether a square lies inside the palace of `color`.
fn in_palace(color: Color, (file, rank): Square) -> bool {
    let ranks = match color {
        Color::Red => 0..=2,
        Color::Black => 7..=9,
    };
    (3..=5).contains(&file) && ranks.contains(&rank)
}

/// Whether a square lies on `color`'s own side of the river.
fn on_own_side(color: Color, (_, rank): Square) -> bool {
    match color {
        Color::Red => rank <= 4,
        Color::Black => rank >= 5,
    }
}

/// The rank step that is "forward" for `color`.
fn forward(color: Color) -> i32 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// A square written as file letter and rank digit, e.g. `e0`.
pub fn square_name((file, rank): Square) -> String {
    let letter = (b'a' + file as u8) as char;
    format!("{letter}{rank}")
}

/// Parses a square name such as `e0`.
pub fn parse_square(text: &str) -> Option<Square> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let square = (
        (bytes[0] as i32) - (b'a' as i32),
        (bytes[1] as i32) - (b'0' as i32),
    );
    if on_board(square) {
        Some(square)
    } else {
        None
    }
}

/// A move written as from-square then to-square, e.g. `h2e2`.
pub fn move_name((from, to): Move) -> String {
    format!("{}{}", square_name(from), square_name(to))
}

/// Parses a move such as `h2e2`.
pub fn parse_move(text: &str) -> Option<Move> {
    if text.len() != 4 || !text.is_ascii() {
        return None;
    }
    Some((parse_square(&text[0..2])?, parse_square(&text[2..4])?))
}

/// The FEN letter of a piece (uppercase for Red).
fn piece_letter((color, kind): Piece) -> char {
    let letter = match kind {
        Kind::General => 'k',
        Kind::Advisor => 'a',
        Kind::Elephant => 'b',
        Kind::Horse => 'n',
        Kind::Chariot => 'r',
        Kind::Cannon => 'c',
        Kind::Pawn => 'p',
    };
    match color {
        Color::Red => letter.to_ascii_uppercase(),
        Color::Black => letter,
    }
}

/// The piece a FEN letter stands for; `E` and `H` are accepted as aliases
/// of `B` and `N`.
fn piece_from_letter(letter: char) -> Option<Piece> {
    let kind = match letter.to_ascii_lowercase() {
        'k' => Kind::General,
        'a' => Kind::Advisor,
        'b' | 'e' => Kind::Elephant,
        'n' | 'h' => Kind::Horse,
        'r' => Kind::Chariot,
        'c' => Kind::Cannon,
        'p' => Kind::Pawn,
        _ => return None,
    };
    let color = if letter.is_ascii_uppercase() {
        Color::Red
    } else {
        Color::Black
    };
    Some((color, kind))
}

/// A position: what stands on each square, and the side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefBoard {
    /// `cells[rank][file]`, rank 0 being Red's back rank.
    cells: [[Option<Piece>; 9]; 10],
    /// The side to move.
    to_move: Color,
}

impl RefBoard {
    /// Reads a FEN: ten ranks from rank 9 down to rank 0, then the side to
    /// move (`w` or `r` for Red, `b` for Black; Red if absent). Later fields
    /// are ignored.
    pub fn from_fen(fen: &str) -> Result<RefBoard, String> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or("empty FEN")?;
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != RANKS as usize {
            return Err(format!("expected 10 ranks, found {}", rows.len()));
        }
        let mut cells = [[None; 9]; 10];
        for (index, row) in rows.iter().enumerate() {
            let rank = RANKS as usize - 1 - index;
            let mut file = 0usize;
            for letter in row.chars() {
                if let Some(digit) = letter.to_digit(10) {
                    file += digit as usize;
                } else {
                    let piece = piece_from_letter(letter)
                        .ok_or_else(|| format!("unknown piece letter {letter:?}"))?;
                    if file >= FILES as usize {
                        return Err(format!("rank {rank} is longer than 9 files"));
                    }
                    cells[rank][file] = Some(piece);
                    file += 1;
                }
            }
            if file != FILES as usize {
                return Err(format!("rank {rank} covers {file} files, not 9"));
            }
        }
        let to_move = match fields.next() {
            None | Some("w") | Some("r") => Color::Red,
            Some("b") => Color::Black,
            Some(other) => return Err(format!("unknown side to move {other:?}")),
        };
        Ok(RefBoard { cells, to_move })
    }

    /// The start position, Red to move.
    pub fn start() -> RefBoard {
        RefBoard::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Whether Red is to move.
    pub fn red_to_move(&self) -> bool {
        self.to_move == Color::Red
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.to_move
    }

    /// What stands on a square (which must be on the board).
    pub fn at(&self, (file, rank): Square) -> Option<Piece> {
        self.cells[rank as usize][file as usize]
    }

    /// Puts a piece (or nothing) on a square.
    fn set(&mut self, (file, rank): Square, piece: Option<Piece>) {
        self.cells[rank as usize][file as usize] = piece;
    }

    /// Every square, rank by rank.
    fn squares() -> impl Iterator<Item = Square> {
        (0..RANKS).flat_map(|rank| (0..FILES).map(move |file| (file, rank)))
    }

    /// The square of `color`'s general, if it has one.
    fn general(&self, color: Color) -> Option<Square> {
        RefBoard::squares().find(|&square| self.at(square) == Some((color, Kind::General)))
    }

    /// Whether `color` may end a move on `square`: on the board and not
    /// holding one of its own pieces.
    fn can_land(&self, color: Color, square: Square) -> bool {
        on_board(square) && !matches!(self.at(square), Some((owner, _)) if owner == color)
    }

    /// The squares the piece on `from` could move to, ignoring whether its
    /// own general is left in danger.
    fn piece_targets(&self, from: Square) -> Vec<Square> {
        let Some((color, kind)) = self.at(from) else {
            return Vec::new();
        };
        let (file, rank) = from;
        let mut targets = Vec::new();
        match kind {
            Kind::General => {
                for (df, dr) in ORTHOGONAL {
                    let to = (file + df, rank + dr);
                    if in_palace(color, to) && self.can_land(color, to) {
                        targets.push(to);
                    }
                }
            }
            Kind::Advisor => {
                for (df, dr) in DIAGONAL {
                    let to = (file + df, rank + dr);
                    if in_palace(color, to) && self.can_land(color, to) {
                        targets.push(to);
                    }
                }
            }
            Kind::Elephant => {
                for (df, dr) in DIAGONAL {
                    let eye = (file + df, rank + dr);
                    let to = (file + 2 * df, rank + 2 * dr);
                    if on_board(to)
                        && on_own_side(color, to)
                        && self.at(eye).is_none()
                        && self.can_land(color, to)
                    {
                        targets.push(to);
                    }
                }
            }
            Kind::Horse => {
                for (df, dr) in ORTHOGONAL {
                    let leg = (file + df, rank + dr);
                    if !on_board(leg) || self.at(leg).is_some() {
                        continue;
                    }
                    // One more step the same way, then one step to either side.
                    let (side_f, side_r) = (dr, df);
                    for sign in [1, -1] {
                        let to = (file + 2 * df + sign * side_f, rank + 2 * dr + sign * side_r);
                        if self.can_land(color, to) {
                            targets.push(to);
                        }
                    }
                }
            }
            Kind::Chariot => {
                for (df, dr) in ORTHOGONAL {
                    let mut to = (file + df, rank + dr);
                    while on_board(to) {
                        match self.at(to) {
                            None => targets.push(to),
                            Some((owner, _)) => {
                                if owner != color {
                                    targets.push(to);
                                }
                                break;
                            }
                        }
                        to = (to.0 + df, to.1 + dr);
                    }
                }
            }
            Kind::Cannon => {
                for (df, dr) in ORTHOGONAL {
                    let mut to = (file + df, rank + dr);
                    // Quiet moves up to the first piece, which is the screen.
                    while on_board(to) && self.at(to).is_none() {
                        targets.push(to);
                        to = (to.0 + df, to.1 + dr);
                    }
                    // Beyond the screen, the first piece may be captured.
                    to = (to.0 + df, to.1 + dr);
                    while on_board(to) {
                        if let Some((owner, _)) = self.at(to) {
                            if owner != color {
                                targets.push(to);
                            }
                            break;
                        }
                        to = (to.0 + df, to.1 + dr);
                    }
                }
            }
            Kind::Pawn => {
                let ahead = (file, rank + forward(color));
                if self.can_land(color, ahead) {
                    targets.push(ahead);
                }
                if !on_own_side(color, from) {
                    for df in [1, -1] {
                        let beside = (file + df, rank);
                        if self.can_land(color, beside) {
                            targets.push(beside);
                        }
                    }
                }
            }
        }
        targets
    }

    /// Every move `color`'s pieces could make, ignoring the safety of its
    /// own general.
    fn pseudo_moves(&self, color: Color) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in RefBoard::squares() {
            if matches!(self.at(from), Some((owner, _)) if owner == color) {
                for to in self.piece_targets(from) {
                    moves.push((from, to));
                }
            }
        }
        moves
    }

    /// Whether the two generals stand on one file with nothing between them.
    fn generals_face(&self) -> bool {
        let (Some(red), Some(black)) = (self.general(Color::Red), self.general(Color::Black))
        else {
            return false;
        };
        let (low, high) = (red.1.min(black.1), red.1.max(black.1));
        red.0 == black.0 && (low + 1..high).all(|rank| self.at((red.0, rank)).is_none())
    }

    /// Whether `color`'s general is attacked: some enemy move lands on it,
    /// or it faces the enemy general.
    fn general_attacked(&self, color: Color) -> bool {
        let Some(general) = self.general(color) else {
            return false;
        };
        self.generals_face()
            || self
                .pseudo_moves(color.opponent())
                .iter()
                .any(|&(_, to)| to == general)
    }

    /// Plays a move on the board without any checks and passes the turn.
    fn apply(&mut self, (from, to): Move) {
        let piece = self.at(from);
        self.set(to, piece);
        self.set(from, None);
        self.to_move = self.to_move.opponent();
    }

    /// The legal moves, as (from, to) pairs in board order.
    pub fn legal_move_pairs(&self) -> Vec<Move> {
        let mover = self.to_move;
        self.pseudo_moves(mover)
            .into_iter()
            .filter(|&mv| {
                let mut after = self.clone();
                after.apply(mv);
                !after.general_attacked(mover)
            })
            .collect()
    }

    /// The legal moves as text, sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut moves: Vec<String> = self.legal_move_pairs().into_iter().map(move_name).collect();
        moves.sort();
        moves
    }

    /// Whether the side to move's general is attacked (facing the enemy
    /// general counts).
    pub fn in_check(&self) -> bool {
        self.general_attacked(self.to_move)
    }

    /// Plays a legal move given as text; panics on anything else.
    pub fn play(&mut self, mv: &str) {
        let parsed = parse_move(mv).unwrap_or_else(|| panic!("malformed move {mv:?}"));
        assert!(
            self.legal_move_pairs().contains(&parsed),
            "illegal move {mv:?} in {}",
            self.fen()
        );
        self.apply(parsed);
    }

    /// The FEN: placement, side to move (`w` or `b`), then `- - 0 1`.
    pub fn fen(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..RANKS).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..FILES {
                match self.at((file, rank)) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(piece_letter(piece));
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = match self.to_move {
            Color::Red => "w",
            Color::Black => "b",
        };
        format!("{} {side} - - 0 1", rows.join("/"))
    }

    /// The number of move sequences `depth` plies long; a position with no
    /// legal moves before the last ply contributes nothing.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_move_pairs();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut after = self.clone();
                after.apply(mv);
                after.perft(depth - 1)
            })
            .sum()
    }

    /// Perft split by first move, as (move text, count), sorted by move.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut split: Vec<(String, u64)> = self
            .legal_move_pairs()
            .into_iter()
            .map(|mv| {
                let mut after = self.clone();
                after.apply(mv);
                let count = after.perft(depth.saturating_sub(1));
                (move_name(mv), count)
            })
            .collect();
        split.sort();
        split
    }
}
