//! The `patterns` evaluator: the pattern evaluation of strong Othello
//! programs, with weights fitted by `examples/fit_patterns.rs`.
//!
//! The score of a position, for the side to move and in hundredths of a
//! disc, is the sum over every pattern instance of its table entry plus
//! the counted terms times their weights, all taken from the position's
//! stage (its number of empty squares, a stage every few empties). The
//! patterns and the terms are in [`features`]; the weights file in [`file`].
//!
//! The shipped weights, `patterns.bin` next to this crate, are compiled in
//! and decoded once, on first use. The parameter `weights` names another
//! weights file to read at run time instead.

pub mod features;
pub mod file;

use std::sync::{Arc, OnceLock};

use plyd_api::Evaluator;
use serde::Deserialize;

use crate::game::Othello;
use features::{
    empties, linear_terms, pattern_indices, FAMILIES, LINEAR_COUNT, LINEAR_NAMES, PATTERN_WEIGHTS,
    SYMMETRIES, TABLE_OFFSETS,
};
pub use file::{PatternFileError, PatternWeights};

/// The default parameters.
pub const DEFAULT_PARAMS: &str = include_str!("../../patterns.toml");

/// The shipped weights file.
const SHIPPED: &[u8] = include_bytes!("../../patterns.bin");

/// Every score lies within this bound: 64 discs, in hundredths.
pub const SCORE_BOUND: i32 = 6400;

/// The parameter file's shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    /// A weights file to read instead of the shipped one; empty: shipped.
    weights: String,
}

/// The evaluator: shared, read-only weights.
#[derive(Debug, Clone)]
pub struct Patterns {
    weights: Arc<PatternWeights>,
}

/// The shipped weights, decoded once.
fn shipped() -> Arc<PatternWeights> {
    static WEIGHTS: OnceLock<Arc<PatternWeights>> = OnceLock::new();
    WEIGHTS
        .get_or_init(|| {
            Arc::new(PatternWeights::decode(SHIPPED).expect("the shipped patterns.bin is valid"))
        })
        .clone()
}

impl Patterns {
    /// The evaluator with the given weights.
    pub fn with_weights(weights: PatternWeights) -> Self {
        Patterns {
            weights: Arc::new(weights),
        }
    }

    /// The evaluator with the shipped weights.
    pub fn shipped() -> Self {
        Patterns { weights: shipped() }
    }

    /// Read a weights file; the error is one line naming the file.
    pub fn from_file(path: &str) -> Result<Self, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("patterns weights file {path}: {e}"))?;
        PatternWeights::decode(&bytes)
            .map(Patterns::with_weights)
            .map_err(|e| format!("patterns weights file {path}: {e}"))
    }

    /// The weights in use.
    pub fn weights(&self) -> &PatternWeights {
        &self.weights
    }

    /// The score for the side owning `own`, in hundredths of a disc,
    /// before clamping to [`SCORE_BOUND`].
    #[inline]
    pub fn score(&self, own: u64, opp: u64) -> i32 {
        let stage = self.weights.stage(self.weights.stage_of(empties(own, opp)));
        let indices = pattern_indices(own, opp);
        let mut sum = 0i32;
        for (f, offset) in TABLE_OFFSETS.iter().enumerate() {
            let table = &stage[*offset..*offset + FAMILIES[f].table_len()];
            for index in &indices[f * SYMMETRIES..(f + 1) * SYMMETRIES] {
                sum += i32::from(table[*index as usize]);
            }
        }
        let linear = &stage[PATTERN_WEIGHTS..PATTERN_WEIGHTS + LINEAR_COUNT];
        for (term, weight) in linear_terms(own, opp).iter().zip(linear) {
            sum += term * i32::from(*weight);
        }
        sum
    }
}

impl Evaluator for Patterns {
    type State = Othello;
    const NAME: &'static str = "patterns";
    const DESCRIPTION: &'static str =
        "Pattern tables (edges, corners, lines, diagonals), mobility and parity per game stage, fitted to self-play games";
    const GAME: &'static str = "othello";
    const STATE_LAYOUT: u32 = crate::STATE_LAYOUT;
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        let Some(text) = params else {
            return Ok(Patterns::shipped());
        };
        let p: Params = plyd_params::parse(text).map_err(|e| e.to_string())?;
        if p.weights.is_empty() {
            Ok(Patterns::shipped())
        } else {
            Patterns::from_file(&p.weights)
        }
    }

    fn evaluate(&self, state: &Othello) -> i32 {
        let (own, opp) = state.position().own_and_opponent();
        self.score(own, opp).clamp(-SCORE_BOUND, SCORE_BOUND)
    }

    /// The stage, each family's sum over its instances, each counted term
    /// and its weighted value, and the total (all for the side to move).
    fn explain(&self, state: &Othello) -> Vec<(String, f64)> {
        let (own, opp) = state.position().own_and_opponent();
        let stage_number = self.weights.stage_of(empties(own, opp));
        let stage = self.weights.stage(stage_number);
        let indices = pattern_indices(own, opp);
        let mut terms = vec![("stage".to_string(), stage_number as f64)];
        for (f, family) in FAMILIES.iter().enumerate() {
            let sum: i32 = indices[f * SYMMETRIES..(f + 1) * SYMMETRIES]
                .iter()
                .map(|i| i32::from(stage[TABLE_OFFSETS[f] + *i as usize]))
                .sum();
            terms.push((family.name.to_string(), f64::from(sum)));
        }
        let counts = linear_terms(own, opp);
        for (k, name) in LINEAR_NAMES.iter().enumerate() {
            terms.push((name.to_string(), f64::from(counts[k])));
            let weighted = counts[k] * i32::from(stage[PATTERN_WEIGHTS + k]);
            terms.push((format!("{name}_score"), f64::from(weighted)));
        }
        terms.push(("total".to_string(), f64::from(self.evaluate(state))));
        terms
    }
}
