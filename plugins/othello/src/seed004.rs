//! The `seed004` evaluator: four textbook heuristics from the design
//! document `seeds/004` (the Othello chapter of a book on AI), averaged with
//! weights.
//!
//! Each heuristic is computed from Black's point of view and lies in
//! [-100, 100]; B and W below are Black's and White's figures:
//!
//! 1. piece difference: `100 B / (B + W)` when B > W, `-100 W / (B + W)`
//!    when B < W, 0 when equal;
//! 2. corner occupancy: `25 Bc - 25 Wc` over the corners held;
//! 3. corner closeness: `-12.5 Bn + 12.5 Wn` over the discs on the three
//!    squares next to each empty corner;
//! 4. mobility: as piece difference, over the number of legal placements.
//!
//! The utility is `(1/n) * sum(w_i * h_i)` with n = 4 and weights in [0, 1]
//! (all 1 by default; the document leaves them open), so it lies in
//! [-100, 100]. The evaluator returns it times 100, rounded, for the side to
//! move.

use plyd_api::Evaluator;

use crate::board::{legal_placements, CORNERS};
use crate::game::Othello;

/// Names of the four heuristics, in weight order.
const NAMES: [&str; 4] = [
    "piece_difference",
    "corner_occupancy",
    "corner_closeness",
    "mobility",
];

/// Each corner (a1, h1, a8, h8) with its C- and X-squares: the three squares
/// next to it, which are dangerous to hold while the corner is empty.
const CORNER_NEIGHBOURS: [(u32, u64); 4] = [
    (0, (1 << 1) | (1 << 8) | (1 << 9)),
    (7, (1 << 6) | (1 << 15) | (1 << 14)),
    (56, (1 << 48) | (1 << 57) | (1 << 49)),
    (63, (1 << 62) | (1 << 55) | (1 << 54)),
];

/// The seed004 evaluator and its weights.
#[derive(Debug, Clone)]
pub struct Seed004 {
    weights: [f64; 4],
}

impl Default for Seed004 {
    fn default() -> Self {
        Seed004 { weights: [1.0; 4] }
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

/// The four heuristics of a position, from Black's point of view.
fn heuristics(black: u64, white: u64) -> [f64; 4] {
    let piece_difference = share(black.count_ones(), white.count_ones());

    let corner_occupancy = 25.0 * f64::from((black & CORNERS).count_ones())
        - 25.0 * f64::from((white & CORNERS).count_ones());

    let empty = !(black | white);
    let near_empty_corners = CORNER_NEIGHBOURS
        .iter()
        .filter(|(corner, _)| empty & (1u64 << corner) != 0)
        .fold(0u64, |squares, (_, neighbours)| squares | neighbours);
    let raw_closeness = -12.5 * f64::from((black & near_empty_corners).count_ones())
        + 12.5 * f64::from((white & near_empty_corners).count_ones());
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

impl Seed004 {
    /// The utility in [-100, 100] from Black's point of view.
    fn utility(&self, values: &[f64; 4]) -> f64 {
        let weighted: f64 = values.iter().zip(&self.weights).map(|(h, w)| h * w).sum();
        weighted / values.len() as f64
    }

    /// The utility as the host's score: times 100, rounded, and negated when
    /// White is to move, since the host wants the side to move's view.
    fn score(&self, state: &Othello, values: &[f64; 4]) -> i32 {
        let score = (self.utility(values) * 100.0).round() as i32;
        match state.position().side {
            crate::board::Color::Black => score,
            crate::board::Color::White => -score,
        }
    }
}

impl Evaluator for Seed004 {
    type State = Othello;
    const NAME: &'static str = "seed004";
    const DESCRIPTION: &'static str =
        "Average of piece difference, corner occupancy, corner closeness and mobility";
    const GAME: &'static str = "othello";
    const SCORE_BOUND: i32 = 10_000;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        match params {
            None => Ok(Seed004::default()),
            Some(text) if text.trim().is_empty() => Ok(Seed004::default()),
            // TOML parameters (the four weights) come later; refuse rather
            // than silently ignore them.
            Some(_) => Err("seed004: parameters are not supported yet".to_string()),
        }
    }

    fn evaluate(&self, state: &Othello) -> i32 {
        let position = state.position();
        let values = heuristics(position.black, position.white);
        self.score(state, &values)
    }

    /// The four raw heuristics (Black's view), their weights, the utility
    /// (Black's view, [-100, 100]) and the total that `evaluate` returns.
    fn explain(&self, state: &Othello) -> Vec<(String, f64)> {
        let position = state.position();
        let values = heuristics(position.black, position.white);
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
