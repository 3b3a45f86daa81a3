//! The set-up book: what each arrangement is worth, computed offline by
//! simulation, so that the set-up ply picks the best arrangement instead of
//! the first of equals.
//!
//! # How it was computed
//!
//! Every Red arrangement against every Blue arrangement (720 × 720 pairs),
//! the same number of games for each pair, both sides stepping by `odds`
//! one ply deep (the best step after each roll), rolls drawn at random
//! (`examples/build_setup_book.rs`). An arrangement's value is its side's
//! score over all its games: Red's arrangement against every Blue reply,
//! Blue's against every Red set-up. The book keeps these marginal values
//! only: the builder also measures how much a pair deviates from the sum
//! of its two marginals, and that interaction was small next to the
//! marginals' spread (the figures are in docs/einstein.md), so a reply is
//! chosen by its own value whatever the other side placed.
//!
//! # The file
//!
//! `setup_book.txt` next to this crate, built in with `include_str!`:
//! comment lines starting with `#`, then one line per arrangement in
//! number order, `s123456 <Red's score> <Blue's score>` (fractions won).
//!
//! # How the search uses it
//!
//! `odds` adds to its estimate for Red `(red - mean_red) - (blue -
//! mean_blue)`, the two arrangements' advantages over the average, weighed
//! by the share of stones not moved yet ([`red_shift`]), and takes it off
//! for Blue. The search over the set-up ply sees it at any depth: at the
//! first position of play it is all there is to tell arrangements apart,
//! and a few steps in, where the race sees little difference yet, it still
//! dominates; so Red picks the book's best arrangement and Blue its best
//! whatever Red chose. Once the stones have moved off it is gone, and while
//! they move off it shifts siblings by at most one twelfth of it per stone.
//! Scoring only the first position of play (a first version) did not
//! work: an iteration one step deeper judged the arrangements by the race
//! after the first step and overrode the book.

use std::sync::OnceLock;

use plyd_einstein_rules::board::{
    arrangement_index, Board, ARRANGEMENTS, BLUE, RED, START_SQUARES,
};

/// The shipped book.
const SHIPPED: &str = include_str!("../setup_book.txt");

/// Each arrangement's score for Red and for Blue, by arrangement index,
/// less the mean of its side.
#[derive(Debug)]
pub struct Book {
    red: Vec<f64>,
    blue: Vec<f64>,
    /// Each arrangement's stone numbers, as its line wrote them: read at
    /// every evaluation, so not worked out from the index each time.
    stones: Vec<[u8; 6]>,
}

impl Book {
    /// Read a book: every arrangement once, in number order, scores in
    /// 0..=1.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut red = Vec::with_capacity(ARRANGEMENTS);
        let mut blue = Vec::with_capacity(ARRANGEMENTS);
        let mut order = Vec::with_capacity(ARRANGEMENTS);
        for (line_no, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |what: &str| format!("set-up book line {}: {what}: {line}", line_no + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 3 {
                return Err(bad("three fields expected"));
            }
            let digits: Vec<u8> = fields[0]
                .strip_prefix('s')
                .ok_or_else(|| bad("arrangement expected"))?
                .bytes()
                .map(|b| b.wrapping_sub(b'0'))
                .collect();
            let stones: [u8; 6] = digits
                .try_into()
                .map_err(|_| bad("six stone numbers expected"))?;
            if arrangement_index(&stones) != Some(red.len()) {
                return Err(bad("arrangements out of order"));
            }
            let score = |s: &str| -> Result<f64, String> {
                s.parse::<f64>()
                    .ok()
                    .filter(|v| (0.0..=1.0).contains(v))
                    .ok_or_else(|| bad("score between 0 and 1 expected"))
            };
            red.push(score(fields[1])?);
            blue.push(score(fields[2])?);
            order.push(stones);
        }
        if red.len() != ARRANGEMENTS {
            return Err(format!(
                "set-up book holds {} arrangements; {ARRANGEMENTS} expected",
                red.len()
            ));
        }
        for side in [&mut red, &mut blue] {
            let mean = side.iter().sum::<f64>() / ARRANGEMENTS as f64;
            side.iter_mut().for_each(|v| *v -= mean);
        }
        Ok(Book {
            red,
            blue,
            stones: order,
        })
    }

    /// How much better than the average arrangement `index` is for `side`
    /// (fraction of games).
    pub fn advantage(&self, side: usize, index: usize) -> f64 {
        if side == RED {
            self.red[index]
        } else {
            self.blue[index]
        }
    }

    /// The best arrangement for `side`.
    pub fn best(&self, side: usize) -> [u8; 6] {
        let values = if side == RED { &self.red } else { &self.blue };
        let best = (0..ARRANGEMENTS)
            .max_by(|&a, &b| values[a].total_cmp(&values[b]))
            .unwrap_or(0);
        self.stones[best]
    }
}

/// The shipped book, read once.
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(SHIPPED).expect("the shipped setup_book.txt is valid"))
}

/// The book's shift of Red's win probability in a game that began with
/// the arrangements `red` and `blue` (indices): each arrangement's
/// advantage over the average one, weighed by the share of the twelve
/// stones still on the squares their arrangements gave them (a stone that
/// has left its square never comes back, so that is exact). 1 at the first
/// position of play, it fades as the stones move off, and is nothing once
/// every stone has moved.
pub fn red_shift(board: &Board, red: usize, blue: usize) -> f64 {
    let book = book();
    let mut unmoved = 0;
    for (side, index) in [(RED, red), (BLUE, blue)] {
        for (slot, &n) in book.stones[index].iter().enumerate() {
            if board.squares[side][usize::from(n)] == START_SQUARES[side][slot] {
                unmoved += 1;
            }
        }
    }
    if unmoved == 0 {
        return 0.0;
    }
    (book.advantage(RED, red) - book.advantage(BLUE, blue)) * f64::from(unmoved) / 12.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyd_einstein_rules::board::{arrangement, ARRANGE};

    #[test]
    fn the_shipped_book_reads_and_centres_each_side() {
        let book = book();
        for side in [RED, BLUE] {
            let mean: f64 = (0..ARRANGEMENTS)
                .map(|i| book.advantage(side, i))
                .sum::<f64>()
                / ARRANGEMENTS as f64;
            assert!(mean.abs() < 1e-9, "{mean}");
            let best = arrangement_index(&book.best(side)).unwrap();
            assert!(
                (0..ARRANGEMENTS).all(|i| book.advantage(side, i) <= book.advantage(side, best))
            );
        }
    }

    #[test]
    fn bad_books_are_refused_with_the_line() {
        let good: Vec<String> = (0..ARRANGEMENTS)
            .map(|i| {
                let a: String = arrangement(i)
                    .iter()
                    .map(|d| char::from(b'0' + d))
                    .collect();
                format!("s{a} 0.5 0.5")
            })
            .collect();
        assert!(Book::parse(&good.join("\n")).is_ok());
        let short = good[..719].join("\n");
        assert!(Book::parse(&short)
            .unwrap_err()
            .contains("719 arrangements"));
        let mut swapped = good.clone();
        swapped.swap(3, 4);
        assert!(Book::parse(&swapped.join("\n"))
            .unwrap_err()
            .contains("out of order"));
        let mut high = good.clone();
        high[10] = high[10].replace("0.5 0.5", "1.5 0.5");
        assert!(Book::parse(&high.join("\n"))
            .unwrap_err()
            .contains("line 11"));
        let mut bad = good;
        bad[0] = "s12345 0.5 0.5".to_string();
        assert!(Book::parse(&bad.join("\n"))
            .unwrap_err()
            .contains("six stone numbers"));
    }

    #[test]
    fn the_shift_fades_as_stones_leave_their_squares() {
        let (red, blue) = (5, 600);
        let mut board = Board::setup();
        board.play(ARRANGE + red as u32);
        board.play(ARRANGE + blue as u32);
        let book = book();
        let full = book.advantage(RED, red) - book.advantage(BLUE, blue);
        assert_eq!(red_shift(&board, red, blue), full);
        // Red rolls a 6 and steps the stone on a3 (its arrangement's last
        // square) forward: eleven stones left on their squares.
        board.play(plyd_einstein_rules::board::ROLL + 6);
        let mut step = 0;
        board.for_each_step(6, &mut |mv| step = mv);
        board.play(step);
        let shift = red_shift(&board, red, blue);
        assert!((shift - full * 11.0 / 12.0).abs() < 1e-12, "{shift} {full}");
    }
}
