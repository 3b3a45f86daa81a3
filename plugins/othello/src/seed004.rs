//! The `seed004` evaluator: four textbook heuristics from the design
//! document `seeds/004` (the Othello chapter of a book on AI), averaged with
//! weights.
//!
//! Each heuristic is computed from Black's point of view and lies in
//! [-100, 100]; B and W below are Black's and White's figures:
//!
//! 1. piece difference: `100 B / (B + W)` when B > W, `-100 W / (B + W)`
//!    when B < W, 0 when equal (the document's text prints `100 W / (W +
//!    B)` for B < W, a positive figure for White's lead; its code's minus
//!    sign, and its "all output [-100, 100]", are followed; its code's
//!    integer division is not: the quotient is not rounded, so `-62.5`
//!    stays `-62.5` where the code has `-62`);
//! 2. corner occupancy: `25 Bc - 25 Wc` over the corners held;
//! 3. corner closeness: `-12.5 Bn + 12.5 Wn` over the discs on the three
//!    squares next to each empty corner;
//! 4. mobility: as piece difference, over the number of legal placements.
//!
//! The utility is `(1/n) * sum(w_i * h_i)` with n = 4 and weights in [0, 1]
//! (all 1 by default; the document leaves them open), so it lies in
//! [-100, 100]. The evaluator returns it times 100, rounded, for the side to
//! move.
//!
//! The weights, the two corner constants (25 and 12.5) and the ×100 scale
//! are parameters, read from TOML; `seed004.toml` next to this crate holds
//! the document's values and is the default.

use plyd_api::Evaluator;
use plyd_params::{check_range, ParamsError};
use serde::Deserialize;

use crate::board::{legal_placements, CORNERS};
use crate::game::Othello;

/// The default parameters: the values of design document 004.
pub const DEFAULT_PARAMS: &str = include_str!("../seed004.toml");

/// Names of the four heuristics, in weight order.
const NAMES: [&str; 4] = [
    "piece_difference",
    "corner_occupancy",
    "corner_closeness",
    "mobility",
];

/// Largest `scale`: the utility times this must stay within the score bound.
const MAX_SCALE: i32 = 100;

/// Each corner (a1, h1, a8, h8) with its C- and X-squares: the three squares
/// next to it, which are dangerous to hold while the corner is empty.
const CORNER_NEIGHBOURS: [(u32, u64); 4] = [
    (0, (1 << 1) | (1 << 8) | (1 << 9)),
    (7, (1 << 6) | (1 << 15) | (1 << 14)),
    (56, (1 << 48) | (1 << 57) | (1 << 49)),
    (63, (1 << 62) | (1 << 55) | (1 << 54)),
];

/// The parameter file's shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    scale: i32,
    weights: WeightParams,
    corners: CornerParams,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeightParams {
    piece_difference: f64,
    corner_occupancy: f64,
    corner_closeness: f64,
    mobility: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CornerParams {
    occupancy: f64,
    closeness: f64,
}

/// The seed004 evaluator and its parameters.
#[derive(Debug, Clone)]
pub struct Seed004 {
    weights: [f64; 4],
    occupancy: f64,
    closeness: f64,
    scale: i32,
}

impl Default for Seed004 {
    fn default() -> Self {
        Seed004::from_toml(DEFAULT_PARAMS).expect("the shipped seed004.toml is valid")
    }
}

impl Seed004 {
    /// Read and check parameters.
    pub fn from_toml(text: &str) -> Result<Self, ParamsError> {
        let p: Params = plyd_params::parse(text)?;
        let w = &p.weights;
        let weights = [
            check_range("weights.piece_difference", w.piece_difference, 0.0, 1.0)?,
            check_range("weights.corner_occupancy", w.corner_occupancy, 0.0, 1.0)?,
            check_range("weights.corner_closeness", w.corner_closeness, 0.0, 1.0)?,
            check_range("weights.mobility", w.mobility, 0.0, 1.0)?,
        ];
        Ok(Seed004 {
            weights,
            occupancy: check_range("corners.occupancy", p.corners.occupancy, 0.0, 100.0)?,
            closeness: check_range("corners.closeness", p.corners.closeness, 0.0, 100.0)?,
            scale: check_range("scale", p.scale, 1, MAX_SCALE)?,
        })
    }

    /// The four heuristics of a position, from Black's point of view.
    fn heuristics(&self, black: u64, white: u64) -> [f64; 4] {
        let piece_difference = share(black.count_ones(), white.count_ones());

        // With the document's 25 the four corners make exactly 100; a
        // larger constant is cut to the range every heuristic keeps.
        let corner_occupancy = (self.occupancy * f64::from((black & CORNERS).count_ones())
            - self.occupancy * f64::from((white & CORNERS).count_ones()))
        .clamp(-100.0, 100.0);

        let empty = !(black | white);
        let near_empty_corners = CORNER_NEIGHBOURS
            .iter()
            .filter(|(corner, _)| empty & (1u64 << corner) != 0)
            .fold(0u64, |squares, (_, neighbours)| squares | neighbours);
        let raw_closeness = -self.closeness * f64::from((black & near_empty_corners).count_ones())
            + self.closeness * f64::from((white & near_empty_corners).count_ones());
        // The formula reaches 150 when one side holds all twelve squares, but
        // the document states every heuristic lies in [-100, 100] and the
        // utility's range relies on that, so clamp.
        let corner_closeness = raw_closeness.clamp(-100.0, 100.0);

        let mobility = share(
            legal_placements(black, white).count_ones(),
            legal_placements(white, black).count_ones(),
        );

        [
            piece_difference,
            corner_occupancy,
            corner_closeness,
            mobility,
        ]
    }

    /// The utility in [-100, 100] from Black's point of view.
    fn utility(&self, values: &[f64; 4]) -> f64 {
        let weighted: f64 = values.iter().zip(&self.weights).map(|(h, w)| h * w).sum();
        weighted / values.len() as f64
    }

    /// The utility as the host's score: times `scale`, rounded, and negated
    /// when White is to move, since the host wants the side to move's view.
    fn score(&self, state: &Othello, values: &[f64; 4]) -> i32 {
        let score = (self.utility(values) * f64::from(self.scale)).round() as i32;
        match state.position().side {
            crate::board::Color::Black => score,
            crate::board::Color::White => -score,
        }
    }
}

/// `100 * mine / (mine + theirs)` signed for the side ahead, 0 when level:
/// the shape shared by piece difference and mobility.
fn share(black: u32, white: u32) -> f64 {
    let (b, w) = (f64::from(black), f64::from(white));
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => 100.0 * b / (b + w),
        std::cmp::Ordering::Less => -100.0 * w / (b + w),
        std::cmp::Ordering::Equal => 0.0,
    }
}

impl Evaluator for Seed004 {
    type State = Othello;
    const NAME: &'static str = "seed004";
    const DESCRIPTION: &'static str =
        "Average of piece difference, corner occupancy, corner closeness and mobility";
    const GAME: &'static str = "othello";
    const STATE_LAYOUT: u32 = crate::STATE_LAYOUT;
    const SCORE_BOUND: i32 = 100 * MAX_SCALE;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        match params {
            None => Ok(Seed004::default()),
            Some(text) => Seed004::from_toml(text).map_err(|e| e.to_string()),
        }
    }

    fn evaluate(&self, state: &Othello) -> i32 {
        let position = state.position();
        let values = self.heuristics(position.black, position.white);
        self.score(state, &values)
    }

    /// The four raw heuristics (Black's view), their weights, the utility
    /// (Black's view, [-100, 100]) and the total that `evaluate` returns.
    fn explain(&self, state: &Othello) -> Vec<(String, f64)> {
        let position = state.position();
        let values = self.heuristics(position.black, position.white);
        let mut terms: Vec<(String, f64)> = NAMES
            .iter()
            .zip(values)
            .map(|(name, value)| (name.to_string(), value))
            .collect();
        terms.extend(
            NAMES
                .iter()
                .zip(self.weights)
                .map(|(name, weight)| (format!("weight_{name}"), weight)),
        );
        terms.push(("utility".to_string(), self.utility(&values)));
        terms.push(("total".to_string(), f64::from(self.score(state, &values))));
        terms
    }
}
