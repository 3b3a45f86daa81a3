//! The `seed002` evaluator: the static evaluation of design document
//! `seeds/002`, a student's alpha-beta xiangqi program in Java.
//!
//! # What it computes
//!
//! Each side's figure is the sum over its pieces of three parts:
//!
//! 1. **material**: a fixed value per kind (general 80, advisor 0,
//!    elephant 0, horse 300, chariot 500, cannon 300, pawn 100);
//! 2. **position**: a square table per kind;
//! 3. **next move**: what the piece could capture on its next move. A piece
//!    that attacks the enemy general scores +9999; otherwise one that
//!    attacks an enemy chariot scores +500; otherwise it scores +100 for
//!    each enemy horse or cannon and -20 for each enemy pawn it attacks.
//!    Generals score nothing here (the document's code skips them). The
//!    prose says -20 "if the next move can *only* capture a pawn" (只能);
//!    its list ("下一步能吃【卒】,估值-20") and its code (`totalValue -=
//!    20` for each pawn, beside the other captures' sums) have no "only",
//!    and are followed: a piece attacking a horse and a pawn scores 80,
//!    not 100.
//!
//! The document's score is Black's figure minus Red's (its program plays
//! Black); [`Evaluator::evaluate`] returns it negated when Red is to move,
//! since plyd wants the side to move's view.
//!
//! "Attacks" means the squares [`attacks_from`] gives that hold an enemy
//! piece: pseudo-legal captures, pins ignored, as the document's
//! `Rule.getNextMove` gives a piece's moves without looking at its own
//! general. Both sides' pieces are counted whoever is to move.
//!
//! # Text against code
//!
//! The document's text and its Java code disagree in three places. By
//! default this module follows the text, whose intent is plain;
//! `follow_code_quirks = true` in the parameters gives the code's behaviour
//! instead:
//!
//! * The text scores +100 for a horse or cannon the piece could take; the
//!   code's test `character == 'm' && character == 'p'` can never hold, so
//!   the code never scores it. Quirks on: never scored.
//! * The text says each side's figure covers its own pieces; the code adds
//!   every piece's next-move value, whatever its colour, to both sides'
//!   totals, so the term cancels out of the score and only material and
//!   position remain. Quirks on: both sides get the sum over all pieces.
//! * The horse table has 11 rows and the pawn table 9 (see below); the code
//!   reads them by raw row index. Quirks on: the same reading.
//!
//! The code's `break` after the general and chariot cases makes its result
//! depend on the order in which `getNextMove` lists squares, which the
//! document does not give; here the general case, then the chariot case,
//! takes precedence over everything else whatever the order (the text's
//! "if it can take the general ... if it can take a chariot ...").
//!
//! # Tables and their orientation
//!
//! In the document's board Black sits at row 0: Black's pieces read the
//! tables by their own square and Red's through `getOppositePos`, which
//! flips the row and keeps the column. So row 0 of every table is the
//! piece's own back rank (the general's table is best there, the advisor's
//! best at its palace centre on row 1) and row 9 the enemy's back rank.
//! Here a table row is the rank counted from the piece's own side: the
//! square's rank for Red, `9 - rank` for Black. The column is the file,
//! `a` = 0, for both colours, as the code keeps the column (every table the
//! document gives is symmetric between left and right, so this only
//! matters for edited tables).
//!
//! Three of the document's tables are not ten rows long; `seed002.toml`
//! holds ten-row tables read as follows:
//!
//! * horse, 11 rows: rows 4 and 5 are the same line twice, so one copy is
//!   dropped. The code reads rows 0-9, so for it rank 5 repeats rank 4 and
//!   the last row is never reached; with quirks on, rank `r >= 5` reads row
//!   `r - 1` of the ten-row table.
//! * pawn, 9 rows: rows 0-4 fit the pawn's ranks before the river (values
//!   only on the five pawn files) and the last row, small figures, fits the
//!   enemy's back rank, where a pawn can only move sideways. The missing
//!   row is rank 7; the document's cannon table carries the same run of
//!   pawn rows with that row in place (`20 30 45 55 55 55 45 30 20`), and
//!   it is taken from there. With quirks on, ranks 7 and 8 read rows 8 and
//!   9 and rank 9 scores 0 (the code would index past its array there).
//! * cannon, 11 rows: the first ten, which is what the code reads; the
//!   eleventh cannot be reached. Its rows 4-9 repeat pawn figures rather
//!   than look like a cannon's, but the document gives nothing better.
//!
//! # Parameters and bound
//!
//! Values, tables, the next-move figures and the quirks switch are read
//! from TOML; `seed002.toml` next to this crate holds the document's values
//! and is the default. The ranges checked on reading give
//! [`SCORE_BOUND`](Evaluator::SCORE_BOUND): per side at most 16 pieces of
//! value at most [`MAX_VALUE`] on squares worth at most [`MAX_SQUARE`], and
//! 15 non-general pieces each scoring at most [`MAX_GENERAL_BONUS`] or, in
//! the sum case, 8 targets (a horse's most) of at most [`MAX_BONUS`]; the
//! score is the difference of two such figures.

use plyd_api::Evaluator;
use plyd_params::{check_range, ParamsError};
use plyd_xiangqi_rules::board::{
    attacks_from, color_of, file_of, kind_of, rank_of, Position, ADVISOR, CANNON, CHARIOT,
    ELEPHANT, EMPTY, FILES, HORSE, KING, PAWN, RANKS, RED, SQUARES,
};
use plyd_xiangqi_rules::Xiangqi;
use serde::Deserialize;

/// The default parameters: the values of design document 002.
pub const DEFAULT_PARAMS: &str = include_str!("../seed002.toml");

/// Largest piece value allowed (values lie in `[0, MAX_VALUE]`).
pub const MAX_VALUE: i32 = 1000;
/// Largest square value allowed, either sign.
pub const MAX_SQUARE: i32 = 100;
/// Largest next-move figure for attacking the general, either sign.
pub const MAX_GENERAL_BONUS: i32 = 10_000;
/// Largest other next-move figure, either sign.
pub const MAX_BONUS: i32 = 1000;

/// Most pieces a side can have (the FEN reader enforces the usual set).
const MOST_PIECES: i32 = 16;
/// Most squares any piece attacks (a horse's eight).
const MOST_TARGETS: i32 = 8;

/// The most one side's figure can be, either sign.
const SIDE_BOUND: i32 = MOST_PIECES * (MAX_VALUE + MAX_SQUARE)
    + (MOST_PIECES - 1) * max(MAX_GENERAL_BONUS, MOST_TARGETS * MAX_BONUS);

const fn max(a: i32, b: i32) -> i32 {
    if a > b {
        a
    } else {
        b
    }
}

/// The kinds in the order the parameter file lists them, with their names.
const KINDS: [(u8, &str); 7] = [
    (KING, "general"),
    (ADVISOR, "advisor"),
    (ELEPHANT, "elephant"),
    (HORSE, "horse"),
    (CHARIOT, "chariot"),
    (CANNON, "cannon"),
    (PAWN, "pawn"),
];

/// The parameter file's shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    follow_code_quirks: bool,
    values: PerKind<i32>,
    next_move: NextMoveParams,
    tables: PerKind<Vec<Vec<i32>>>,
}

/// One entry per piece kind.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PerKind<T> {
    general: T,
    advisor: T,
    elephant: T,
    horse: T,
    chariot: T,
    cannon: T,
    pawn: T,
}

impl<T> PerKind<T> {
    /// The entries in [`KINDS`] order.
    fn into_array(self) -> [T; 7] {
        [
            self.general,
            self.advisor,
            self.elephant,
            self.horse,
            self.chariot,
            self.cannon,
            self.pawn,
        ]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NextMoveParams {
    general: i32,
    chariot: i32,
    horse: i32,
    cannon: i32,
    pawn: i32,
}

/// The seed002 evaluator and its parameters.
#[derive(Debug, Clone)]
pub struct Seed002 {
    quirks: bool,
    /// Piece value by kind (index 0 unused).
    values: [i32; 8],
    /// Square value by kind, then `row * 9 + file` with row 0 the piece's
    /// own back rank.
    tables: [[i32; SQUARES]; 8],
    /// Next-move figure by the kind of the enemy piece attacked (0 for the
    /// kinds the document does not score).
    bonus: [i32; 8],
}

/// One side's three parts, before any sign for the side to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Side {
    material: i32,
    position: i32,
    next_move: i32,
}

impl Side {
    fn total(&self) -> i32 {
        self.material + self.position + self.next_move
    }
}

impl Default for Seed002 {
    fn default() -> Self {
        Seed002::from_toml(DEFAULT_PARAMS).expect("the shipped seed002.toml is valid")
    }
}

impl Seed002 {
    /// Read and check parameters.
    pub fn from_toml(text: &str) -> Result<Self, ParamsError> {
        let p: Params = plyd_params::parse(text)?;
        let mut values = [0; 8];
        for ((kind, name), value) in KINDS.iter().zip(p.values.into_array()) {
            values[*kind as usize] = check_range(&format!("values.{name}"), value, 0, MAX_VALUE)?;
        }
        let mut tables = [[0; SQUARES]; 8];
        for ((kind, name), rows) in KINDS.iter().zip(p.tables.into_array()) {
            tables[*kind as usize] = read_table(&format!("tables.{name}"), &rows)?;
        }
        let n = &p.next_move;
        let mut bonus = [0; 8];
        bonus[KING as usize] = check_range(
            "next_move.general",
            n.general,
            -MAX_GENERAL_BONUS,
            MAX_GENERAL_BONUS,
        )?;
        for (kind, key, value) in [
            (CHARIOT, "next_move.chariot", n.chariot),
            (HORSE, "next_move.horse", n.horse),
            (CANNON, "next_move.cannon", n.cannon),
            (PAWN, "next_move.pawn", n.pawn),
        ] {
            bonus[kind as usize] = check_range(key, value, -MAX_BONUS, MAX_BONUS)?;
        }
        Ok(Seed002 {
            quirks: p.follow_code_quirks,
            values,
            tables,
            bonus,
        })
    }

    /// Red's and Black's parts (index by colour).
    fn sides(&self, position: &Position) -> [Side; 2] {
        let board = &position.board;
        let mut sides = [Side::default(); 2];
        let mut all_next_moves = 0;
        for (color, side) in sides.iter_mut().enumerate() {
            for sq in position.squares_of(color) {
                let kind = kind_of(board[sq]);
                side.material += self.values[kind as usize];
                side.position += self.square_value(kind, color, sq);
                let next = self.next_move(board, sq);
                side.next_move += next;
                all_next_moves += next;
            }
        }
        if self.quirks {
            // The code adds every piece's figure to both totals.
            for side in &mut sides {
                side.next_move = all_next_moves;
            }
        }
        sides
    }

    /// The table value of a `color` piece of `kind` on `sq`.
    fn square_value(&self, kind: u8, color: usize, sq: usize) -> i32 {
        let rank = rank_of(sq);
        let own_rank = if color == RED { rank } else { RANKS - 1 - rank };
        let row = if self.quirks {
            code_row(kind, own_rank)
        } else {
            Some(own_rank)
        };
        row.map_or(0, |row| {
            self.tables[kind as usize][row * FILES + file_of(sq)]
        })
    }

    /// The next-move figure of the piece on `sq`.
    fn next_move(&self, board: &[u8; SQUARES], sq: usize) -> i32 {
        if kind_of(board[sq]) == KING {
            return 0;
        }
        let enemy = color_of(board[sq]) ^ 1;
        let (mut general, mut chariot, mut sum) = (false, false, 0);
        attacks_from(board, sq, &mut |to| {
            let target = board[to];
            if target == EMPTY || color_of(target) != enemy {
                return;
            }
            match kind_of(target) {
                KING => general = true,
                CHARIOT => chariot = true,
                // The code's test for these can never be true.
                HORSE | CANNON if self.quirks => {}
                kind => sum += self.bonus[kind as usize],
            }
        });
        if general {
            self.bonus[KING as usize]
        } else if chariot {
            self.bonus[CHARIOT as usize]
        } else {
            sum
        }
    }

    /// The document's figure, Black's minus Red's.
    fn black_minus_red(sides: &[Side; 2]) -> i32 {
        sides[1].total() - sides[0].total()
    }

    /// The score for the side to move.
    fn score(position: &Position, sides: &[Side; 2]) -> i32 {
        let black_view = Self::black_minus_red(sides);
        if position.side() == RED {
            -black_view
        } else {
            black_view
        }
    }
}

/// The row of the ten-row table that the document's code would read for a
/// piece of `kind` on its `own_rank`, reading the 11-row horse and 9-row
/// pawn arrays by raw index; `None` past the end of the code's array.
fn code_row(kind: u8, own_rank: usize) -> Option<usize> {
    match kind {
        // The code's horse array repeats row 4 as its row 5.
        HORSE if own_rank >= 5 => Some(own_rank - 1),
        // The code's pawn array lacks rank 7's row.
        PAWN if own_rank == 9 => None,
        PAWN if own_rank >= 7 => Some(own_rank + 1),
        _ => Some(own_rank),
    }
}

/// Check a table of ten rows of nine values each.
fn read_table(key: &str, rows: &[Vec<i32>]) -> Result<[i32; SQUARES], ParamsError> {
    if rows.len() != RANKS {
        return Err(ParamsError::at_key(
            key,
            format!("{} rows, expected {RANKS}", rows.len()),
        ));
    }
    let mut table = [0; SQUARES];
    for (r, row) in rows.iter().enumerate() {
        if row.len() != FILES {
            return Err(ParamsError::at_key(
                &format!("{key}[{r}]"),
                format!("{} values, expected {FILES}", row.len()),
            ));
        }
        for (f, &value) in row.iter().enumerate() {
            table[r * FILES + f] =
                check_range(&format!("{key}[{r}][{f}]"), value, -MAX_SQUARE, MAX_SQUARE)?;
        }
    }
    Ok(table)
}

impl Evaluator for Seed002 {
    type State = Xiangqi;
    const NAME: &'static str = "seed002";
    const DESCRIPTION: &'static str =
        "Piece values, square tables and next-move captures, from design document 002";
    const GAME: &'static str = "xiangqi";
    const STATE_LAYOUT: u32 = plyd_xiangqi_rules::STATE_LAYOUT;
    const SCORE_BOUND: i32 = 2 * SIDE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        match params {
            None => Ok(Seed002::default()),
            Some(text) => Seed002::from_toml(text).map_err(|e| e.to_string()),
        }
    }

    fn evaluate(&self, state: &Xiangqi) -> i32 {
        let position = state.position();
        Self::score(position, &self.sides(position))
    }

    /// Each side's material, position and next-move parts as they enter the
    /// total: the side to move's as they are, the other side's negated, so
    /// the six add up to `total`. (With quirks on, the two next-move parts
    /// are equal figures of opposite sign.)
    fn explain(&self, state: &Xiangqi) -> Vec<(String, f64)> {
        let position = state.position();
        let sides = self.sides(position);
        let mut terms = Vec::with_capacity(7);
        for (color, name) in [(0, "red"), (1, "black")] {
            let sign = if color == position.side() { 1 } else { -1 };
            let side = &sides[color];
            for (part, value) in [
                ("material", side.material),
                ("position", side.position),
                ("next_move", side.next_move),
            ] {
                terms.push((format!("{name}_{part}"), f64::from(sign * value)));
            }
        }
        terms.push((
            "total".to_string(),
            f64::from(Self::score(position, &sides)),
        ));
        terms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_covers_the_ranges() {
        // 16 * 1100 + 15 * 10000 per side, two sides.
        assert_eq!(Seed002::SCORE_BOUND, 2 * (16 * 1100 + 15 * 10_000));
    }

    #[test]
    fn code_rows_follow_the_documents_arrays() {
        let horse: Vec<_> = (0..10).map(|r| code_row(HORSE, r)).collect();
        let expected: Vec<_> = [0, 1, 2, 3, 4, 4, 5, 6, 7, 8]
            .into_iter()
            .map(Some)
            .collect();
        assert_eq!(horse, expected);
        let pawn: Vec<_> = (0..10).map(|r| code_row(PAWN, r)).collect();
        let mut expected: Vec<_> = [0, 1, 2, 3, 4, 5, 6, 8, 9].into_iter().map(Some).collect();
        expected.push(None);
        assert_eq!(pawn, expected);
        assert_eq!(code_row(CANNON, 9), Some(9));
    }
}
