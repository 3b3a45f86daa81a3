//! The `patterns` evaluator: the pattern evaluation of strong Othello
//! programs, with weights fitted by `examples/fit_patterns.rs`.
//!
//! The score of a position, for the side to move and in hundredths of a
//! disc, is the sum over every pattern instance of its table entry plus
//! the counted terms times their weights, all taken from the position's
//! stage (its number of empty squares, a stage every few empties). The
//! patterns and the terms are in [`features`]; the weights file in [`file`].
//!
//! The evaluator reads only the distinct instances of a position, from
//! tables folded over each family's self-symmetries when the weights are
//! loaded (see [`Patterns`]); the sum is the same as over all 88.
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
    distinct_indices, empties, linear_terms, pattern_indices, stabiliser_partners, FAMILIES,
    FAMILY_COUNT, LINEAR_COUNT, LINEAR_NAMES, PATTERN_WEIGHTS, REPRESENTATIVES, STABILISERS,
    SYMMETRIES, TABLE_OFFSETS,
};
use file::STAGE_LEN;
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

/// The evaluator: shared, read-only weights, and the tables it reads.
#[derive(Debug, Clone)]
pub struct Patterns {
    weights: Arc<PatternWeights>,
    /// Per stage, [`STAGE_LEN`] entries: each family's table with every
    /// entry replaced by the sum of the entries its squares give on the
    /// family's [`STABILISERS`] (saturated to `i16`), so that reading only
    /// the distinct instances scores as reading all 88; then the counted
    /// terms' weights as they are.
    folded: Arc<Vec<i16>>,
}

/// For each family, the partners of every table entry
/// ([`stabiliser_partners`]), `STABILISERS[f].len()` a entry; the same for
/// every stage and every weights file, so computed once.
fn partners() -> &'static [Vec<u32>; FAMILY_COUNT] {
    static PARTNERS: OnceLock<[Vec<u32>; FAMILY_COUNT]> = OnceLock::new();
    PARTNERS.get_or_init(|| {
        std::array::from_fn(|f| {
            (0..FAMILIES[f].table_len() as u32)
                .flat_map(|index| stabiliser_partners(f, index))
                .collect()
        })
    })
}

/// The tables the evaluator reads, from the file's weights.
fn fold(weights: &PatternWeights) -> Vec<i16> {
    let partners = partners();
    let mut out = Vec::with_capacity(weights.stages() * STAGE_LEN);
    for stage in 0..weights.stages() {
        let w = weights.stage(stage);
        for (f, family) in FAMILIES.iter().enumerate() {
            let table = &w[TABLE_OFFSETS[f]..TABLE_OFFSETS[f] + family.table_len()];
            let per_entry = STABILISERS[f].len();
            for entry in partners[f].chunks_exact(per_entry) {
                let sum: i32 = entry.iter().map(|&i| i32::from(table[i as usize])).sum();
                out.push(sum.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16);
            }
        }
        out.extend_from_slice(&w[PATTERN_WEIGHTS..]);
    }
    out
}

/// The shipped weights, decoded and folded once.
fn shipped() -> Patterns {
    static SHIPPED_PATTERNS: OnceLock<Patterns> = OnceLock::new();
    SHIPPED_PATTERNS
        .get_or_init(|| {
            Patterns::with_weights(
                PatternWeights::decode(SHIPPED).expect("the shipped patterns.bin is valid"),
            )
        })
        .clone()
}

impl Patterns {
    /// The evaluator with the given weights.
    pub fn with_weights(weights: PatternWeights) -> Self {
        let folded = fold(&weights);
        Patterns {
            weights: Arc::new(weights),
            folded: Arc::new(folded),
        }
    }

    /// The evaluator with the shipped weights.
    pub fn shipped() -> Self {
        shipped()
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
    /// before clamping to [`SCORE_BOUND`]: the folded tables over the
    /// distinct instances, plus the counted terms.
    #[inline]
    pub fn score(&self, own: u64, opp: u64) -> i32 {
        let stage_number = self.weights.stage_of(empties(own, opp));
        let stage = &self.folded[stage_number * STAGE_LEN..(stage_number + 1) * STAGE_LEN];
        let indices = distinct_indices(own, opp);
        let mut sum = 0i32;
        let mut at = 0;
        for (f, offset) in TABLE_OFFSETS.iter().enumerate() {
            let table = &stage[*offset..*offset + FAMILIES[f].table_len()];
            for index in &indices[at..at + REPRESENTATIVES[f].len()] {
                sum += i32::from(table[*index as usize]);
            }
            at += REPRESENTATIVES[f].len();
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
