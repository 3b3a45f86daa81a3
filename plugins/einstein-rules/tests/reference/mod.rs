//! An independent EinStein würfelt nicht, written plainly for the tests: a
//! list of stones with (column, row) coordinates counted from the top-left
//! corner, no board array, no move encoding, moves as text. It shares no
//! code with the crate.

// Each test file uses a part of it.
#![allow(dead_code)]

/// One stone: its colour (`'R'` or `'B'`), number and place (x column from
/// the left, y row from the top: `a5` is (0, 0), `e1` is (4, 4)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stone {
    pub colour: char,
    pub number: u8,
    pub x: i32,
    pub y: i32,
}

/// A game in progress: the stones and whose turn it is.
#[derive(Clone, Debug)]
pub struct RefGame {
    pub stones: Vec<Stone>,
    /// `'R'` or `'B'`.
    pub to_move: char,
}

/// `a5`-style name of (x, y).
pub fn name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, 5 - y)
}

impl RefGame {
    /// The game after both arrangements (`"123456"` lists the stones on
    /// a5 b5 c5 a4 b4 a3 for Red, on e1 d1 c1 e2 d2 e3 for Blue).
    pub fn after_setup(red: &str, blue: &str) -> RefGame {
        let red_places = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, 2)];
        let blue_places = [(4, 4), (3, 4), (2, 4), (4, 3), (3, 3), (4, 2)];
        let mut stones = Vec::new();
        for (digit, (x, y)) in red.bytes().zip(red_places) {
            stones.push(Stone {
                colour: 'R',
                number: digit - b'0',
                x,
                y,
            });
        }
        for (digit, (x, y)) in blue.bytes().zip(blue_places) {
            stones.push(Stone {
                colour: 'B',
                number: digit - b'0',
                x,
                y,
            });
        }
        RefGame {
            stones,
            to_move: 'R',
        }
    }

    /// Who has won, if anyone.
    pub fn winner(&self) -> Option<char> {
        if self
            .stones
            .iter()
            .any(|s| s.colour == 'R' && (s.x, s.y) == (4, 4))
        {
            return Some('R');
        }
        if self
            .stones
            .iter()
            .any(|s| s.colour == 'B' && (s.x, s.y) == (0, 0))
        {
            return Some('B');
        }
        for colour in ['R', 'B'] {
            if !self.stones.iter().any(|s| s.colour == colour) {
                return Some(if colour == 'R' { 'B' } else { 'R' });
            }
        }
        None
    }

    /// The numbers of the stones a roll lets the side to move move.
    pub fn movable(&self, roll: u8) -> Vec<u8> {
        let mine: Vec<u8> = self
            .stones
            .iter()
            .filter(|s| s.colour == self.to_move)
            .map(|s| s.number)
            .collect();
        if mine.contains(&roll) {
            return vec![roll];
        }
        let mut out = Vec::new();
        if let Some(below) = mine.iter().filter(|&&n| n < roll).max() {
            out.push(*below);
        }
        if let Some(above) = mine.iter().filter(|&&n| n > roll).min() {
            out.push(*above);
        }
        out
    }

    /// The legal moves after `roll`, as text, sorted.
    pub fn moves(&self, roll: u8) -> Vec<String> {
        if self.winner().is_some() {
            return Vec::new();
        }
        let dirs: [(i32, i32); 3] = if self.to_move == 'R' {
            [(1, 0), (0, 1), (1, 1)]
        } else {
            [(-1, 0), (0, -1), (-1, -1)]
        };
        let mut out = Vec::new();
        for number in self.movable(roll) {
            let s = self
                .stones
                .iter()
                .find(|s| s.colour == self.to_move && s.number == number)
                .unwrap();
            for (dx, dy) in dirs {
                let (x, y) = (s.x + dx, s.y + dy);
                if (0..5).contains(&x) && (0..5).contains(&y) {
                    out.push(format!("{}{}", name(s.x, s.y), name(x, y)));
                }
            }
        }
        out.sort();
        out
    }

    /// Play a move given as text; the stone on the target square, if any,
    /// is removed.
    pub fn play(&mut self, text: &str) {
        let find = |t: &str| -> (i32, i32) {
            let b = t.as_bytes();
            (i32::from(b[0] - b'a'), 5 - i32::from(b[1] - b'0'))
        };
        let from = find(&text[..2]);
        let to = find(&text[2..]);
        self.stones.retain(|s| (s.x, s.y) != to);
        let s = self.stones.iter_mut().find(|s| (s.x, s.y) == from).unwrap();
        s.x = to.0;
        s.y = to.1;
        self.to_move = if self.to_move == 'R' { 'B' } else { 'R' };
    }

    /// The board part of the crate's position text, written from the
    /// stones (`1`..`6` Red, `a`..`f` Blue, `.` empty, rank 5 first).
    pub fn ranks(&self) -> String {
        let mut rows = Vec::new();
        for y in 0..5 {
            let mut row = String::new();
            for x in 0..5 {
                row.push(match self.stones.iter().find(|s| (s.x, s.y) == (x, y)) {
                    None => '.',
                    Some(s) if s.colour == 'R' => (b'0' + s.number) as char,
                    Some(s) => (b'a' + s.number - 1) as char,
                });
            }
            rows.push(row);
        }
        rows.join("/")
    }

    /// Leaves `depth` plies below this position with the die not yet
    /// rolled: a roll is a ply (six branches) and a move is a ply; a game
    /// over before the last ply counts nothing.
    pub fn perft_before_roll(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.winner().is_some() {
            return 0;
        }
        (1..=6)
            .map(|roll| self.perft_after_roll(roll, depth - 1))
            .sum()
    }

    /// Leaves `depth` plies below this position after `roll`.
    pub fn perft_after_roll(&self, roll: u8, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(roll);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft_before_roll(depth - 1)
            })
            .sum()
    }
}
