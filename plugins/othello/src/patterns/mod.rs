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
pub mod incremental;
mod order;

use std::sync::{Arc, OnceLock};

use plyd_api::{Evaluator, Incremental, Move, Shallow, ShallowResult};
use serde::Deserialize;

use crate::game::Othello;
use features::{
    empties, linear_terms, linear_terms_given, pattern_indices, stabiliser_partners, DISTINCT,
    DISTINCT_OFFSETS, FAMILIES, FAMILY_COUNT, LINEAR_COUNT, LINEAR_NAMES, PATTERN_WEIGHTS,
    STABILISERS, SYMMETRIES, TABLE_OFFSETS,
};
use file::STAGE_LEN;
pub use file::{PatternFileError, PatternWeights};
pub use incremental::PatternStack;

/// The default parameters.
pub const DEFAULT_PARAMS: &str = include_str!("../../patterns.toml");

/// The shipped weights file.
const SHIPPED: &[u8] = include_bytes!("../../patterns.bin");

/// The weights the exact solver sorts its moves by: the file of the
/// earlier fit (six rounds of three-ply self-play, 4.4 million positions),
/// whose denser tables order the solver's searches with fewer nodes than
/// the evaluation's own file (docs/othello.md, "The refit").
const ORDER: &[u8] = include_bytes!("../../order.bin");

/// The bound declared to the engine: 64 discs, in hundredths.
pub const SCORE_BOUND: i32 = 6400;

/// Every score lies within this: 63 discs, as Edax keeps its evaluation
/// within ±63, so that a guess never reads as a wipe-out (a won game's
/// score in NBoard's hints and `===` lines is ±64.00).
pub const GUESS_BOUND: i32 = SCORE_BOUND - 100;

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
    /// Per stage, [`READ_LEN`] entries: each family's table with every
    /// entry replaced by the sum of the entries its squares give on the
    /// family's [`STABILISERS`] (saturated to `i16`), so that reading only
    /// the distinct instances scores as reading all 88; then the counted
    /// terms' weights as they are; then zeros.
    folded: Arc<Vec<i16>>,
    /// The stage of a position by its number of empty squares (0 to 64;
    /// the rest unused), read where the score would otherwise divide by
    /// the stage width on the way to every table read.
    stage_by_empties: [u8; 128],
}

/// For each family, the partners of every table entry
/// ([`stabiliser_partners`]), `STABILISERS[f].len()` a entry; the same for
/// every stage and every weights file, so computed once.
fn partners() -> &'static [Vec<u32>; FAMILY_COUNT] {
    static PARTNERS: OnceLock<[Vec<u32>; FAMILY_COUNT]> = OnceLock::new();
    PARTNERS.get_or_init(|| std::array::from_fn(family_partners))
}

/// [`stabiliser_partners`] of every entry of family `f`'s table, in entry
/// order. A partner is linear in the entry's digits, so it is counted up
/// digit by digit as the entries are walked in order (a base-3 counter)
/// from the partners of the entries with a single digit 1.
fn family_partners(f: usize) -> Vec<u32> {
    let per_entry = STABILISERS[f].len();
    let digits = FAMILIES[f].squares.len();
    // weight[i * per_entry + k]: what a digit 1 at position i adds to the
    // k-th partner.
    let weight: Vec<u32> = (0..digits)
        .flat_map(|i| stabiliser_partners(f, 3u32.pow(i as u32)))
        .collect();
    let mut counter = vec![0u8; digits];
    let mut partner = vec![0u32; per_entry];
    let len = FAMILIES[f].table_len();
    let mut out = Vec::with_capacity(len * per_entry);
    for _ in 0..len {
        out.extend_from_slice(&partner);
        // The next entry: add one to the lowest digit, carrying.
        for (i, digit) in counter.iter_mut().enumerate() {
            let w = &weight[i * per_entry..(i + 1) * per_entry];
            if *digit < 2 {
                *digit += 1;
                partner.iter_mut().zip(w).for_each(|(p, w)| *p += w);
                break;
            }
            *digit = 0;
            partner.iter_mut().zip(w).for_each(|(p, w)| *p -= 2 * w);
        }
    }
    out
}

/// Entries of one stage of the folded tables: room past the last family's
/// offset for any `u16` index, so that a read at a distinct instance's
/// offset plus its index is in bounds by the types alone and the
/// evaluation's 46 reads need no bounds checks (indices are below
/// `3^10 < 2^16`; the room past the tables and the counted terms' weights
/// is never read).
const READ_LEN: usize = {
    let mut last = 0;
    let mut i = 0;
    while i < DISTINCT {
        if DISTINCT_OFFSETS[i] as usize > last {
            last = DISTINCT_OFFSETS[i] as usize;
        }
        i += 1;
    }
    let len = last + (u16::MAX as usize + 1);
    if len > STAGE_LEN {
        len
    } else {
        STAGE_LEN
    }
};

/// The tables the evaluator reads, from the file's weights.
fn fold(weights: &PatternWeights) -> Vec<i16> {
    let partners = partners();
    let mut out = Vec::with_capacity(weights.stages() * READ_LEN);
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
        out.resize((stage + 1) * READ_LEN, 0);
    }
    out
}

/// A compiled-in weights file `name`, decoded and folded once into `cell`.
fn compiled_in(
    cell: &'static OnceLock<Patterns>,
    bytes: &'static [u8],
    name: &str,
) -> &'static Patterns {
    cell.get_or_init(|| {
        Patterns::with_weights(
            PatternWeights::decode(bytes)
                .unwrap_or_else(|e| panic!("the shipped {name} is invalid: {e}")),
        )
    })
}

/// The shipped weights, decoded and folded once.
fn shipped() -> &'static Patterns {
    static SHIPPED_PATTERNS: OnceLock<Patterns> = OnceLock::new();
    compiled_in(&SHIPPED_PATTERNS, SHIPPED, "patterns.bin")
}

/// [`Patterns::score`] with the solver's weights (`order.bin`): what the
/// exact solver sorts its moves by (see [`crate::register_solver_order`]).
pub fn order_score(own: u64, opp: u64) -> i32 {
    order_patterns().score(own, opp)
}

/// The evaluator with the solver's weights, decoded and folded once.
fn order_patterns() -> &'static Patterns {
    static ORDER_PATTERNS: OnceLock<Patterns> = OnceLock::new();
    compiled_in(&ORDER_PATTERNS, ORDER, "order.bin")
}

/// [`order_score`] as the solver's order evaluation, its pattern indices
/// updated move by move through the solver's shallow searches and sorts
/// (see [`crate::register_solver_order`]).
pub fn order_evaluation() -> Box<dyn plyd_othello_rules::endgame::OrderEvaluation> {
    Box::new(order::LazyOrderPatterns)
}

impl Patterns {
    /// The evaluator with the given weights.
    pub fn with_weights(weights: PatternWeights) -> Self {
        let folded = fold(&weights);
        let stage_by_empties = std::array::from_fn(|empties| {
            u8::try_from(weights.stage_of(empties.min(64) as u32)).expect("a stage number fits u8")
        });
        Patterns {
            weights: Arc::new(weights),
            folded: Arc::new(folded),
            stage_by_empties,
        }
    }

    /// The evaluator with the shipped weights.
    pub fn shipped() -> Self {
        shipped().clone()
    }

    /// Read a weights file; the error is one line naming the file.
    pub fn from_file(path: &str) -> Result<Self, String> {
        // A device or a FIFO is refused before it is opened; a weights file
        // is a few MiB.
        let bytes =
            plyd_util::files::read_bytes(std::path::Path::new(path), 256 << 20).map_err(|e| {
                // Say where a relative path was looked for: the working
                // directory, not the parameter file's folder.
                let place = match std::env::current_dir() {
                    Ok(dir) if std::path::Path::new(path).is_relative() => format!(
                        " (a relative path is read from the working directory, {})",
                        dir.display()
                    ),
                    _ => String::new(),
                };
                format!("patterns weights file {path}: {e}{place}")
            })?;
        PatternWeights::decode(&bytes)
            .map(Patterns::with_weights)
            .map_err(|e| format!("patterns weights file {path}: {e}"))
    }

    /// The weights in use.
    pub fn weights(&self) -> &PatternWeights {
        &self.weights
    }

    /// The score for the side owning `own`, in hundredths of a disc,
    /// before clamping to [`GUESS_BOUND`]: the folded tables over the
    /// distinct instances, plus the counted terms.
    #[inline]
    pub fn score(&self, own: u64, opp: u64) -> i32 {
        let (mine, theirs) = crate::board::legal_placements_both(own, opp);
        self.score_with(own, opp, mine, theirs, &incremental::indices_of(own, opp))
    }

    /// [`Patterns::score`] with the distinct instances' indices given
    /// (as [`features::distinct_indices`] reads them, or a [`PatternStack`] keeps
    /// them).
    #[inline(always)]
    fn score_with(
        &self,
        own: u64,
        opp: u64,
        own_placements: u64,
        opp_placements: u64,
        indices: &[u16; DISTINCT],
    ) -> i32 {
        let stage_number = usize::from(self.stage_by_empties[empties(own, opp) as usize & 127]);
        let stage: &[i16; READ_LEN] = self.folded
            [stage_number * READ_LEN..(stage_number + 1) * READ_LEN]
            .try_into()
            .expect("a stage is READ_LEN long");
        // Each read stays in its own family's table. Written out read by
        // read, each offset is a constant, which READ_LEN puts in bounds
        // with any index.
        macro_rules! reads {
            ($($i:literal)*) => {
                0 $(+ i32::from(stage[DISTINCT_OFFSETS[$i] as usize + usize::from(indices[$i])]))*
            };
        }
        let mut sum: i32 = reads!(
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22
            23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45
        );
        const _: () = assert!(DISTINCT == 46, "reads! lists every distinct instance");
        let linear = &stage[PATTERN_WEIGHTS..PATTERN_WEIGHTS + LINEAR_COUNT];
        for (term, weight) in linear_terms_given(own, opp, own_placements, opp_placements)
            .iter()
            .zip(linear)
        {
            sum += term * i32::from(*weight);
        }
        sum
    }

    /// The score of `state` for its side to move, clamped to
    /// [`GUESS_BOUND`], with its distinct instances' indices given (the
    /// side to move's placements are kept by the state).
    #[inline]
    fn score_state(&self, state: &Othello, indices: &[u16; DISTINCT]) -> i32 {
        let (own, opp) = state.position().own_and_opponent();
        let opp_placements = crate::board::legal_placements(opp, own);
        self.score_with(own, opp, state.own_placements(), opp_placements, indices)
            .clamp(-GUESS_BOUND, GUESS_BOUND)
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
        self.score_state(state, &incremental::own_view(own, opp))
    }

    const SHALLOW_PLIES: u32 = crate::shallow::PLIES;

    fn shallow_search(&self, state: &mut Othello, request: Shallow) -> Option<ShallowResult> {
        let (own, opp) = state.position().own_and_opponent();
        Some(crate::shallow::search(self, own, opp, request))
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

/// The `patterns-stack` evaluator: [`Patterns`], weights and scores alike,
/// computed through the incremental stack of the ABI: every distinct
/// instance's index is kept per position and updated square by square as
/// discs are placed and flipped ([`incremental`]). It shows an evaluator
/// author how the stack entries are used, and measures what they cost:
/// `patterns`' indices are so cheap to read from scratch that the stack
/// does not pay for itself (docs/othello.md), which is why `patterns`
/// itself does not use it.
#[derive(Debug, Clone)]
pub struct PatternsStack(pub Patterns);

impl Evaluator for PatternsStack {
    type State = Othello;
    const NAME: &'static str = "patterns-stack";
    const DESCRIPTION: &'static str =
        "The patterns evaluator (same weights, same scores) with its pattern indices updated move by move on a per-thread stack";
    const GAME: &'static str = "othello";
    const STATE_LAYOUT: u32 = crate::STATE_LAYOUT;
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        Patterns::from_params(params).map(PatternsStack)
    }

    fn evaluate(&self, state: &Othello) -> i32 {
        self.0.evaluate(state)
    }

    const SHALLOW_PLIES: u32 = Patterns::SHALLOW_PLIES;

    fn shallow_search(&self, state: &mut Othello, request: Shallow) -> Option<ShallowResult> {
        self.0.shallow_search(state, request)
    }

    fn explain(&self, state: &Othello) -> Vec<(String, f64)> {
        self.0.explain(state)
    }
}

impl Incremental for PatternsStack {
    type Stack = PatternStack;

    fn new_stack(&self) -> PatternStack {
        PatternStack::default()
    }

    fn reset(&self, stack: &mut PatternStack, state: &Othello) {
        stack.reset(state);
    }

    fn push(&self, stack: &mut PatternStack, state: &Othello, _mv: Move) {
        stack.push(state);
    }

    fn pop(&self, stack: &mut PatternStack) {
        stack.pop();
    }

    fn evaluate_top(&self, stack: &mut PatternStack, state: &Othello) -> i32 {
        let indices = stack.top(state);
        self.0.score_state(state, &indices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyd_api::{Game, MoveSink};

    /// Walk every line `depth` plies deep below `game`, pushing and popping
    /// as a search does, and compare the stack's score and the plain one
    /// (its indices brought over from the position evaluated before) with
    /// the score read afresh at every node.
    fn walk(eval: &PatternsStack, stack: &mut PatternStack, game: &mut Othello, depth: u32) -> u64 {
        let (own, opp) = game.position().own_and_opponent();
        let afresh = eval.0.score(own, opp).clamp(-GUESS_BOUND, GUESS_BOUND);
        assert_eq!(eval.evaluate_top(stack, game), afresh);
        assert_eq!(eval.evaluate(game), afresh);
        if depth == 0 {
            return 1;
        }
        let mut buf = [0u32; 64];
        let mut sink = MoveSink::new(&mut buf);
        game.generate_moves(&mut sink);
        let n = sink.len();
        let mut nodes = 1;
        for &mv in &buf[..n] {
            game.make_move(mv);
            eval.push(stack, game, mv);
            nodes += walk(eval, stack, game, depth - 1);
            game.unmake_move(mv);
            eval.pop(stack);
        }
        nodes
    }

    #[test]
    fn counted_partners_are_the_partners_read_on_the_board() {
        for f in 0..FAMILY_COUNT {
            let counted = family_partners(f);
            let per_entry = STABILISERS[f].len();
            assert_eq!(counted.len(), FAMILIES[f].table_len() * per_entry);
            for (index, partners) in counted.chunks_exact(per_entry).enumerate() {
                assert_eq!(
                    partners,
                    &stabiliser_partners(f, index as u32)[..],
                    "family {f}, entry {index}"
                );
            }
        }
    }

    #[test]
    fn the_stack_scores_every_node_as_the_plain_evaluation() {
        let eval = PatternsStack::from_params(None).unwrap();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut nodes = 0;
        for game_number in 0..12 {
            let mut game = Othello::new(0);
            // Down a random game, then every line three plies below.
            for _ in 0..(game_number * 5) {
                let mut buf = [0u32; 64];
                let mut sink = MoveSink::new(&mut buf);
                game.generate_moves(&mut sink);
                let n = sink.len();
                if n == 0 {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                game.make_move(buf[(rng % n as u64) as usize]);
            }
            let mut stack = eval.new_stack();
            eval.reset(&mut stack, &game);
            nodes += walk(&eval, &mut stack, &mut game, 3);
        }
        assert!(nodes > 1000, "only {nodes} nodes walked");
    }

    #[test]
    fn a_lopsided_guess_stays_below_a_wipe_out() {
        // Black holds all but a White disc and seven empty squares: the
        // tables add up past 64 discs, a wipe-out's margin.
        let mut game = Othello::new(0);
        game.set_position(
            "XXX1XXXX/XXX1XXXX/XXXX2XX/X1XXXXXX/XXXXXO1X/XX1XXXXX/XXXXXXXX/XXXXXXXX b",
        )
        .unwrap();
        let (own, opp) = game.position().own_and_opponent();
        let plain = Patterns::from_params(None).unwrap();
        assert!(
            plain.score(own, opp) > SCORE_BOUND,
            "{}",
            plain.score(own, opp)
        );
        assert_eq!(plain.evaluate(&game), GUESS_BOUND);
        let stacked = PatternsStack::from_params(None).unwrap();
        let mut stack = stacked.new_stack();
        stacked.reset(&mut stack, &game);
        assert_eq!(stacked.evaluate_top(&mut stack, &game), GUESS_BOUND);
    }
}
