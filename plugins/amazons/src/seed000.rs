//! The `seed000` evaluator: the static evaluation of design document
//! `seeds/000`, territory, position and mobility blended by the progress
//! of the game, after Guo, Li and Bao (2012).
//!
//! # What it computes
//!
//! "Player 1" of the document (本方) is the side to move, player 2 the
//! other side; every figure below is from the side to move's view. Sums run
//! over the empty squares `A` of the board.
//!
//! * `D1(j, A)`: the least number of queen moves that takes an amazon of
//!   player `j` to `A`; `D2(j, A)` the same with king moves. Every amazon
//!   (of either side, the moving one's fellows included) and every arrow
//!   blocks; an amazon's own square stays blocked for the later moves of
//!   its path, as the position stands. `∞` when no path exists.
//! * Territory: `t_i = Σ_A Δ(D_i(1, A), D_i(2, A))` with `Δ = 0` when both
//!   are `∞`, `k` when they are equal and finite, `+1` when player 1 is
//!   nearer, `-1` when player 2 is. The tie goes to the side to move, as
//!   `k` is the document's first-mover advantage.
//! * Position: `p1 = 2 Σ_A (2^-D1(1, A) - 2^-D1(2, A))` with `2^-∞ = 0`,
//!   and `p2 = Σ_A clip((D2(2, A) - D2(1, A)) / 6, -1, 1)`, where a finite
//!   distance against `∞` gives `±1` and `∞` against `∞` gives 0.
//! * Mobility: `m_ξ` is the number of empty squares among the eight
//!   neighbours of the empty square `ξ`; for an amazon `a`,
//!   `F(a) = Σ_ξ m_ξ / K(a, ξ)` over the squares `ξ` it reaches in one
//!   queen move, where `K(a, ξ)` is its king-move distance to `ξ`; and
//!   `m = Σ_{a ours} F(a) - Σ_{a theirs} F(a)`.
//! * `E = t1 f1(w) + t2 f2(w) + p1 f3(w) + p2 f4(w) + m f5(w)`, with the
//!   document's 23-entry tables `f1..f5` and `k = 0.2`.
//!
//! The score is `round(E × scale)` (`scale = 100` by default), clamped to
//! [`SCORE_BOUND`] (see below).
//!
//! # Readings chosen
//!
//! * **`w`, "对局数目"**: the round of the game, `plies / 2 + 1`, capped at
//!   22, where `plies` is the number of arrows on the board (every ply
//!   shoots one, so a position text carries its own progress and the same
//!   placement always scores the same). The tables are read at index `w`;
//!   index 0 is never used, which fits the document's tables, whose first
//!   two entries are equal in each of them.
//! * **`K(a, ξ)`**: a square reached in one queen move lies on a clear line
//!   from `a`; a king walks that line in as many steps as the line is long,
//!   and no king path is shorter than that (the Chebyshev distance), so the
//!   king-move distance through the empty squares and the number of steps
//!   along the line agree. The step count is what is computed.
//! * **`m_ξ`** counts neighbours that are empty in the position as it
//!   stands: the amazon `a` itself is not empty.
//!
//! # How it is computed
//!
//! The distance floods of both sides run in lockstep
//! ([`Contest`]): at each distance `d` the new squares of each side are one
//! [`queen_step`](plyd_amazons_rules::flood::queen_step) (or one king step)
//! from the previous ones, and the territory counts, the `p1` sum and the
//! `p2` sum are popcounts of those level sets; nothing is stored per square
//! and nothing is allocated. The floods are not capped: king distances on
//! a 10x10 board can exceed 40 (a serpentine corridor of arrows), and every
//! distance counts here.
//!
//! `p2` uses `clip(b - a, -6, 6) = Σ_{j=1..6} ([b - a ≥ j] - [a - b ≥ j])`:
//! a square at distance `a` from player 1 adds one for each distance `d`
//! in `a..a+6` at which player 2 has not reached it yet, which is the
//! popcount of the squares player 1 reached within the last six levels
//! minus those player 2 has reached.
//!
//! For the mobility a byte table by bit holds `m_ξ + 1` for every empty
//! square and 0 for everything else: the table of empty squares times its
//! 3x3 box sum, two passes of byte adds. Each amazon walks its eight lines
//! through it, the 0 past the last empty square ending a line with no
//! other test. `m` is exact: it is summed in units of 1/2520, 2520 being
//! divisible by every step count a line of a 10x10 board can have (1 to
//! 9).
//!
//! # Score bound
//!
//! For the default parameters on a 10x10 board with at most four amazons
//! a side (every position of a game from the usual starts), with `N` empty
//! squares: `|t1|, |t2|, |p1|, |p2| ≤ N` (each square adds at most 1 in
//! size; `|k| < 1`), and `|m| ≤ 4 Fmax`, where `Fmax = 7421/60 ≈ 123.68`
//! is `F` of a lone amazon on one of the four middle squares of an empty
//! board (pieces only shorten lines and take neighbours away, so no amazon
//! of any position does better). `w = plies / 2 + 1` means at least `2(w - 1)`
//! arrows, so `N ≤ 98 - 2(w - 1)` (42 arrows at `w = 22`). The largest of
//! `(f1 + f2 + f3 + f4)(w) N + f5(w) 4 Fmax` is 185.72, at `w = 1`, so
//! `|score| ≤ 18,573`, and [`SCORE_BOUND`] is 18,600. Smaller boards give
//! smaller figures. Other parameters, or a position with more amazons,
//! can go past it: the score is then clamped to the bound.

use plyd_amazons_rules::board::{squares, Board, Geometry, EMPTY};
use plyd_amazons_rules::flood::{sides, Contest};
use plyd_amazons_rules::Amazons;
use plyd_api::Evaluator;
use plyd_params::ParamsError;
use serde::Deserialize;

/// The default parameters: the values of design document 000.
pub const DEFAULT_PARAMS: &str = include_str!("../seed000.toml");

/// Entries in each weight table.
pub const TABLE_LEN: usize = 23;
/// The last round with its own weights; later rounds read this entry.
pub const LAST_ROUND: usize = TABLE_LEN - 1;
/// Every score lies within this (see the module docs).
pub const SCORE_BOUND: i32 = 18_600;

/// A common multiple of every step count a queen line can have (1 to 9),
/// so that `Σ m_ξ / K` is a whole number of `1 / MOBILITY_UNITS`.
const MOBILITY_UNITS: u32 = 2520;

/// `MOBILITY_UNITS / k` for a square `k` steps along a line (a table, as a
/// division in the innermost loop costs more than the rest of it).
const STEP_WEIGHTS: [u32; 10] = [0, 2520, 1260, 840, 630, 504, 420, 360, 315, 280];

/// The parameter file's shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    k: f64,
    scale: f64,
    weights: Weights,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Weights {
    f1: Vec<f64>,
    f2: Vec<f64>,
    f3: Vec<f64>,
    f4: Vec<f64>,
    f5: Vec<f64>,
}

/// Room for every bit of the board plus one line step either side, so a
/// walk can look one square past any edge without a bounds test.
pub const TABLE_OFFSET: usize = 12;
/// Entries of a [`SquareTable`].
pub const TABLE_SIZE: usize = 128 + 2 * TABLE_OFFSET;

/// A byte per bit of the padded board, bit `sq` at `sq + TABLE_OFFSET`.
pub type SquareTable = [u8; TABLE_SIZE];

/// 1 for every empty square, 0 for every other entry (the padding column,
/// the bits past the last rank and the margins included).
#[inline]
pub fn empty_table(board: &Board) -> SquareTable {
    let g = board.geometry();
    let (size, stride) = (usize::from(g.size), usize::from(g.stride));
    let mut table = [0u8; TABLE_SIZE];
    for rank in 0..size {
        let row = &board.cells[rank * size..][..size];
        let out = &mut table[TABLE_OFFSET + rank * stride..][..size];
        for (o, &cell) in out.iter_mut().zip(row) {
            *o = u8::from(cell == EMPTY);
        }
    }
    table
}

/// `m_ξ + 1` for every empty square `ξ`, 0 for every other entry, so the
/// table tells both whether a line goes on and what its square is worth.
/// It is the empty table times its 3x3 box sum (the box counts the square
/// itself): two passes of adds over the whole array, which vectorise.
#[inline]
fn liberty_table(board: &Board, empty: &SquareTable) -> SquareTable {
    let stride = usize::from(board.geometry().stride);
    let mut across = [0u8; TABLE_SIZE];
    for i in 1..TABLE_SIZE - 1 {
        across[i] = empty[i - 1] + empty[i] + empty[i + 1];
    }
    let mut table = [0u8; TABLE_SIZE];
    for i in stride..TABLE_SIZE - stride {
        table[i] = empty[i] * (across[i - stride] + across[i] + across[i + stride]);
    }
    table
}

/// `Σ_a F(a)` over `amazons`, in units of `1 / MOBILITY_UNITS`; `moves`
/// is told how many squares each amazon can move to (the squares its walk
/// passes).
#[inline]
fn mobility_units(
    g: &Geometry,
    amazons: u128,
    table: &SquareTable,
    mut moves: impl FnMut(u32),
) -> i64 {
    let mut units = 0u32;
    for from in squares(amazons) {
        let mut count = 0;
        for &d in &g.dirs {
            let mut at = (usize::from(from) + TABLE_OFFSET).wrapping_add_signed(d as isize);
            let mut steps = 1;
            while table[at] != 0 {
                units += STEP_WEIGHTS[steps] * u32::from(table[at] - 1);
                at = at.wrapping_add_signed(d as isize);
                steps += 1;
            }
            count += steps as u32 - 1;
        }
        moves(count);
    }
    i64::from(units)
}

/// The document's mobility `m` for the side to move.
pub fn mobility(board: &Board) -> f64 {
    mobility_and_moves(board, |_, _| {})
}

/// The document's mobility `m` for the side to move, telling `moves` for
/// every amazon whether it is the side to move's and how many squares it
/// can move to (the walks that sum `m` pass exactly those squares).
#[inline]
pub fn mobility_and_moves(board: &Board, mut moves: impl FnMut(bool, u32)) -> f64 {
    let g = board.geometry();
    let table = liberty_table(board, &empty_table(board));
    let [ours, theirs] = sides(board);
    let units = mobility_units(g, ours, &table, |n| moves(true, n))
        - mobility_units(g, theirs, &table, |n| moves(false, n));
    units as f64 / f64::from(MOBILITY_UNITS)
}

/// The round of the game, `arrows / 2 + 1`, capped at [`LAST_ROUND`].
pub fn round(board: &Board) -> usize {
    (board.arrows.count_ones() as usize / 2 + 1).min(LAST_ROUND)
}

/// The five features and the round, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features {
    /// Queen-move territory.
    pub t1: f64,
    /// King-move territory.
    pub t2: f64,
    /// Queen-move position.
    pub p1: f64,
    /// King-move position.
    pub p2: f64,
    /// Mobility.
    pub m: f64,
    /// The round `w` the weights are read at.
    pub w: usize,
}

/// The seed000 evaluator and its parameters.
#[derive(Debug, Clone)]
pub struct Seed000 {
    /// `f1..f5`, each indexed by the round.
    weights: [[f64; TABLE_LEN]; 5],
    /// The tie value.
    k: f64,
    /// Score units per unit of `E`.
    scale: f64,
}

impl Default for Seed000 {
    fn default() -> Self {
        Seed000::from_toml(DEFAULT_PARAMS).expect("the shipped seed000.toml is valid")
    }
}

impl Seed000 {
    /// Read and check parameters.
    pub fn from_toml(text: &str) -> Result<Self, ParamsError> {
        let p: Params = plyd_params::parse(text)?;
        if !(p.k > -1.0 && p.k < 1.0) {
            return Err(ParamsError::at_key(
                "k",
                format!("{} is outside (-1, 1)", p.k),
            ));
        }
        if !(p.scale > 0.0 && p.scale.is_finite()) {
            return Err(ParamsError::at_key(
                "scale",
                format!("{} is not a number greater than 0", p.scale),
            ));
        }
        let w = p.weights;
        let mut weights = [[0.0; TABLE_LEN]; 5];
        for (table, (name, values)) in weights.iter_mut().zip([
            ("f1", w.f1),
            ("f2", w.f2),
            ("f3", w.f3),
            ("f4", w.f4),
            ("f5", w.f5),
        ]) {
            let key = format!("weights.{name}");
            if values.len() != TABLE_LEN {
                return Err(ParamsError::at_key(
                    &key,
                    format!("{} values, expected {TABLE_LEN}", values.len()),
                ));
            }
            for (i, &value) in values.iter().enumerate() {
                if !value.is_finite() {
                    return Err(ParamsError::at_key(
                        &format!("{key}[{i}]"),
                        format!("{value} is not a finite number"),
                    ));
                }
            }
            table.copy_from_slice(&values);
        }
        Ok(Seed000 {
            weights,
            k: p.k,
            scale: p.scale,
        })
    }

    /// The features of `board`.
    pub fn features(&self, board: &Board) -> Features {
        let queen = Contest::queen(board);
        let king = Contest::king(board);
        Features {
            t1: queen.territory(self.k),
            t2: king.territory(self.k),
            p1: queen.halves,
            p2: king.clipped(),
            m: mobility(board),
            w: round(board),
        }
    }

    /// `E`, the document's evaluation.
    pub fn blend(&self, f: &Features) -> f64 {
        let [f1, f2, f3, f4, f5] = self.weights.map(|table| table[f.w]);
        f.t1 * f1 + f.t2 * f2 + f.p1 * f3 + f.p2 * f4 + f.m * f5
    }

    /// The integer score of `E`.
    fn score(&self, e: f64) -> i32 {
        let bound = f64::from(SCORE_BOUND);
        (e * self.scale).round().clamp(-bound, bound) as i32
    }
}

impl Evaluator for Seed000 {
    type State = Amazons;
    const NAME: &'static str = "seed000";
    const DESCRIPTION: &'static str =
        "Territory, position and mobility weighted by the round, from design document 000";
    const GAME: &'static str = "amazons";
    const STATE_LAYOUT: u32 = plyd_amazons_rules::STATE_LAYOUT;
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        match params {
            None => Ok(Seed000::default()),
            Some(text) => Seed000::from_toml(text).map_err(|e| e.to_string()),
        }
    }

    fn evaluate(&self, state: &Amazons) -> i32 {
        let features = self.features(state.board());
        self.score(self.blend(&features))
    }

    /// The five features, the round `w`, `E` and the integer total.
    fn explain(&self, state: &Amazons) -> Vec<(String, f64)> {
        let f = self.features(state.board());
        let e = self.blend(&f);
        [
            ("t1", f.t1),
            ("t2", f.t2),
            ("p1", f.p1),
            ("p2", f.p2),
            ("m", f.m),
            ("w", f.w as f64),
            ("E", e),
            ("total", f64::from(self.score(e))),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyd_amazons_rules::board::{FIRST, SECOND};

    /// The largest `F` of a lone amazon on an empty 10x10 board.
    fn lone_amazon_best() -> f64 {
        let mut best = 0.0f64;
        for file in 0..10 {
            for rank in 0..10 {
                let mut board = Board::empty(10);
                let g = *board.geometry();
                board.put(g.square(file, rank), FIRST);
                let table = liberty_table(&board, &empty_table(&board));
                let units = mobility_units(&g, board.amazons[0], &table, |_| {});
                best = best.max(units as f64 / f64::from(MOBILITY_UNITS));
            }
        }
        best
    }

    #[test]
    fn the_bound_follows_from_the_default_tables() {
        let fmax = lone_amazon_best();
        assert!((fmax - 7421.0 / 60.0).abs() < 1e-9, "{fmax}");
        let eval = Seed000::default();
        let mut largest = 0.0f64;
        for w in 1..=LAST_ROUND {
            let arrows = 2 * (w - 1);
            let empty = (98 - arrows) as f64;
            let [f1, f2, f3, f4, f5] = eval.weights.map(|t| t[w]);
            largest = largest.max((f1 + f2 + f3 + f4) * empty + f5 * 4.0 * fmax);
        }
        let bound = (largest * eval.scale).ceil();
        assert_eq!(bound, 18_573.0);
        assert!(f64::from(SCORE_BOUND) >= bound);
        assert!(f64::from(SCORE_BOUND) < bound + 100.0);
    }

    #[test]
    fn step_weights_are_the_units_over_the_steps() {
        for (k, &weight) in STEP_WEIGHTS.iter().enumerate().skip(1) {
            assert_eq!(weight * k as u32, MOBILITY_UNITS);
        }
    }

    #[test]
    fn the_liberty_table_counts_empty_neighbours() {
        let mut board = Board::empty(5);
        let g = *board.geometry();
        board.put(g.square(0, 0), FIRST);
        board.put(g.square(2, 2), SECOND);
        let empty = board.empties();
        let table = liberty_table(&board, &empty_table(&board));
        for sq in 0..128u8 {
            let bit = 1u128 << sq;
            let expected = if empty & bit != 0 {
                (g.neighbours(bit) & empty).count_ones() as u8 + 1
            } else {
                0
            };
            assert_eq!(table[usize::from(sq) + TABLE_OFFSET], expected, "{sq}");
        }
    }
}
