//! What the seed evaluators' tests share: a plain reading of an Amazons
//! position on a 2-D grid (breadth-first distances, neighbour counts, lines
//! walked square by square), independent of the plugin's bitboards, and
//! the positions the tests run on.

#![allow(dead_code)]

use plyd_api::{Game, MoveSink};
use plyd_game_amazons::Amazons;

// ---------------------------------------------------------------------------
// The plain reading.

/// The 10x10 start position.
pub const START_10: &str = "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1";

pub const EMPTY: u8 = 0;
pub const ARROW: u8 = 3;
pub const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// A position as a 2-D array: `cells[rank][file]`, 0 empty, 1 an amazon
/// of the first player, 2 one of the second, 3 an arrow.
pub struct Grid {
    pub n: i32,
    pub cells: Vec<Vec<u8>>,
    /// 1 or 2: the player to move.
    pub to_move: u8,
}

impl Grid {
    pub fn parse(fen: &str) -> Grid {
        let mut fields = fen.split_whitespace();
        let rows: Vec<&str> = fields.next().unwrap().split('/').collect();
        let n = rows.len();
        let mut cells = vec![vec![EMPTY; n]; n];
        for (i, row) in rows.iter().enumerate() {
            let rank = n - 1 - i;
            let mut file = 0;
            let mut run = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as usize;
                    continue;
                }
                file += run;
                run = 0;
                cells[rank][file] = match c {
                    'Q' => 1,
                    'q' => 2,
                    '*' => ARROW,
                    _ => panic!("{c} in {fen}"),
                };
                file += 1;
            }
            assert_eq!(file + run, n, "{fen}");
        }
        let to_move = if fields.next() == Some("b") { 2 } else { 1 };
        Grid {
            n: n as i32,
            cells,
            to_move,
        }
    }

    pub fn at(&self, file: i32, rank: i32) -> Option<u8> {
        if file < 0 || rank < 0 || file >= self.n || rank >= self.n {
            None
        } else {
            Some(self.cells[rank as usize][file as usize])
        }
    }

    pub fn is_empty(&self, file: i32, rank: i32) -> bool {
        self.at(file, rank) == Some(EMPTY)
    }

    pub fn squares(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        (0..self.n).flat_map(move |rank| (0..self.n).map(move |file| (file, rank)))
    }

    pub fn amazons(&self, player: u8) -> Vec<(i32, i32)> {
        self.squares()
            .filter(|&(f, r)| self.at(f, r) == Some(player))
            .collect()
    }

    pub fn arrows(&self) -> usize {
        self.squares()
            .filter(|&(f, r)| self.at(f, r) == Some(ARROW))
            .count()
    }

    /// Breadth-first distances from `player`'s amazons to every square,
    /// by queen moves or king moves through empty squares.
    pub fn distances(&self, player: u8, queen: bool) -> Vec<Vec<Option<u32>>> {
        let n = self.n as usize;
        let mut dist = vec![vec![None; n]; n];
        let mut queue = std::collections::VecDeque::new();
        for (f, r) in self.amazons(player) {
            queue.push_back((f, r, 0u32));
        }
        while let Some((f, r, d)) = queue.pop_front() {
            for (df, dr) in DIRS {
                let (mut x, mut y) = (f + df, r + dr);
                while self.is_empty(x, y) {
                    if dist[y as usize][x as usize].is_none() {
                        dist[y as usize][x as usize] = Some(d + 1);
                        queue.push_back((x, y, d + 1));
                    }
                    if !queen {
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
        }
        dist
    }

    /// Empty neighbours of a square.
    pub fn liberties(&self, file: i32, rank: i32) -> u32 {
        DIRS.iter()
            .filter(|(df, dr)| self.is_empty(file + df, rank + dr))
            .count() as u32
    }

    /// The document's `F(a)`.
    pub fn flexibility(&self, (file, rank): (i32, i32)) -> f64 {
        let mut total = 0.0;
        for (df, dr) in DIRS {
            let mut k = 1;
            while self.is_empty(file + k * df, rank + k * dr) {
                total += f64::from(self.liberties(file + k * df, rank + k * dr)) / f64::from(k);
                k += 1;
            }
        }
        total
    }

    /// Squares an amazon on `(file, rank)` can move to.
    pub fn moves_from(&self, (file, rank): (i32, i32)) -> u32 {
        let mut count = 0;
        for (df, dr) in DIRS {
            let mut k = 1;
            while self.is_empty(file + k * df, rank + k * dr) {
                count += 1;
                k += 1;
            }
        }
        count
    }
}

// ---------------------------------------------------------------------------
// Positions.

pub fn game_at(fen: &str) -> Amazons {
    let mut game = Amazons::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("'{fen}': {e}"));
    game
}

/// The same placement with the other side to move.
pub fn other_side(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    fields.join(" ")
}

/// A small seeded xorshift64.
pub struct XorShift(u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random placement on a board of side `n`: one to four amazons a side,
/// up to a third of the board in arrows, either side to move.
pub fn random_placement(rng: &mut XorShift, n: usize) -> String {
    let mut cells = vec!['.'; n * n];
    let mut free: Vec<usize> = (0..n * n).collect();
    let mut take = |rng: &mut XorShift| free.swap_remove(rng.below(free.len()));
    for piece in ['Q', 'q'] {
        for _ in 0..1 + rng.below(4) {
            cells[take(rng)] = piece;
        }
    }
    for _ in 0..rng.below(n * n / 3 + 1) {
        cells[take(rng)] = '*';
    }
    let mut ranks = Vec::new();
    for rank in (0..n).rev() {
        let mut text = String::new();
        let mut run = 0;
        for file in 0..n {
            match cells[rank * n + file] {
                '.' => run += 1,
                c => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push(c);
                }
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        ranks.push(text);
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    format!("{} {side} - - 0 1", ranks.join("/"))
}

/// Every position of `games` random games of up to `plies` plies from
/// `start`.
pub fn random_games(rng: &mut XorShift, start: &str, games: usize, plies: usize) -> Vec<String> {
    let mut fens = Vec::new();
    let mut buf = vec![0; 16_384];
    for _ in 0..games {
        let mut game = game_at(start);
        for _ in 0..plies {
            fens.push(game.position_text());
            let mut sink = MoveSink::new(&mut buf);
            game.generate_moves(&mut sink);
            let count = sink.len();
            assert!(count <= buf.len());
            if count == 0 {
                break;
            }
            game.make_move(buf[rng.below(count)]);
        }
    }
    fens
}

/// Positions from both start positions and from random placements on
/// every board size.
pub fn sample_positions(seed: u64) -> Vec<String> {
    let mut rng = XorShift(seed);
    let mut fens = random_games(&mut rng, START_10, 4, 100);
    fens.extend(random_games(
        &mut rng,
        Amazons::VARIANTS[1].start_position,
        4,
        70,
    ));
    for n in 4..=10 {
        for _ in 0..6 {
            let start = random_placement(&mut rng, n);
            fens.extend(random_games(&mut rng, &start, 1, 12));
        }
    }
    fens
}

pub fn term(terms: &[(String, f64)], name: &str) -> f64 {
    terms
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no term {name}"))
        .1
}

pub fn assert_close(got: f64, expected: f64, what: &str) {
    assert!(
        (got - expected).abs() < 1e-9,
        "{what}: got {got}, expected {expected}"
    );
}
