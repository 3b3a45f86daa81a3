//! `bench`: a fixed set of searches whose node count is the search's
//! regression signature.
//!
//! The positions are made the same way for every game, without knowing it:
//! the variant's start position, and the positions reached from it by a
//! fixed number of pseudo-random legal moves drawn from a fixed seed. Each is
//! searched to a fixed depth on one thread with a fresh 16 MiB table, so the
//! total node count depends only on the search code, the plugin and the
//! evaluator; any change to it shows up in that number.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::host::{Evaluator, GameState, PluginError, VariantRef};
use plyd_util::rng::SplitMix64;

use super::{search, SearchControl, SearchLimits, SearchOptions, TranspositionTable};

/// Plies of random play before each bench position.
const PLIES: [u32; 8] = [0, 4, 9, 14, 20, 26, 33, 40];
/// Table size for bench searches.
const BENCH_HASH_MIB: usize = 16;
/// Seed of the move choices.
const SEED: u64 = 0x706c_7964_6265_6e63;

/// One game to bench: a variant and the evaluator to use.
pub struct BenchTarget {
    /// The variant.
    pub variant: VariantRef,
    /// Its evaluator.
    pub evaluator: Arc<Evaluator>,
    /// The positions to search (their texts), in place of the bench's
    /// own ([`positions`]): `plyd bench GAME --positions FILE`.
    pub positions: Option<Vec<String>>,
}

/// The result of one bench search.
#[derive(Debug, Clone)]
pub struct BenchLine {
    /// The variant.
    pub game: String,
    /// Position text.
    pub position: String,
    /// Depth searched.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The move chosen (`(none)` if the game was over).
    pub best: String,
}

/// The whole bench.
#[derive(Debug, Clone, Default)]
pub struct BenchSummary {
    /// Total nodes over every position.
    pub nodes: u64,
    /// Total time.
    pub elapsed: Duration,
    /// Positions searched to their end.
    pub positions: usize,
    /// A stop cut the bench short: its count is not the bench's.
    pub stopped: bool,
}

/// The depth used when none is given: deep enough to take a few seconds in
/// all, from how many moves the start position offers (a game with more
/// moves per turn gets less depth).
pub fn default_depth(start_moves: usize) -> u32 {
    let branching = (start_moves.max(2)) as f64;
    let depth = (2.0 * 11.0 / branching.ln()).floor() as u32;
    depth.clamp(2, 12)
}

/// The bench positions of `variant`, as position texts.
pub fn positions(variant: &VariantRef) -> Result<Vec<String>, PluginError> {
    let mut texts = Vec::new();
    let mut moves = Vec::new();
    for (i, &plies) in PLIES.iter().enumerate() {
        let mut state = GameState::new(&variant.plugin, variant.index)?;
        let mut rng = SplitMix64::new(SEED ^ (i as u64));
        for _ in 0..plies {
            state.legal_moves(&mut moves)?;
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            state.make_move(mv)?;
            // Stop one move short of the end: a bench position has moves.
            state.legal_moves(&mut moves)?;
            if moves.is_empty() {
                state.unmake_move(mv)?;
                break;
            }
        }
        let text = state.position_text()?;
        if !texts.contains(&text) {
            texts.push(text);
        }
    }
    Ok(texts)
}

/// Search `state` quietly, as the benches do: the result, the best move as
/// text (`(none)` without one) and the time taken.
pub(super) fn timed_search(
    state: GameState,
    evaluator: &Evaluator,
    tt: &TranspositionTable,
    limits: &SearchLimits,
    options: &SearchOptions,
    control: &SearchControl,
) -> Result<(super::SearchResult, String, Duration), PluginError> {
    let mut best = String::from("(none)");
    let started = Instant::now();
    let result = search(
        state,
        evaluator,
        tt,
        limits,
        control,
        options,
        &mut |event| {
            if let super::SearchEvent::BestMove { best: Some(b), .. } = event {
                best = b;
            }
        },
    )?;
    Ok((result, best, started.elapsed()))
}

/// The options a bench searches with: the switches of `set` (the
/// techniques and the core ones, `NullMove`, `LMR` ...) and its
/// `SearchParams`, on one thread,
/// one line, alpha-beta, with no variety: the same tree wherever it runs.
pub fn options_from(set: &SearchOptions) -> SearchOptions {
    SearchOptions {
        null_move: set.null_move,
        reductions: set.reductions,
        futility: set.futility,
        chance_pruning: set.chance_pruning,
        quiescence: set.quiescence,
        check_extensions: set.check_extensions,
        selective: set.selective,
        endgame_solver: set.endgame_solver,
        see: set.see,
        techniques: set.techniques,
        params: set.params,
        ..SearchOptions::default()
    }
}

/// Run the bench over `targets` with the search's switches of `options`
/// ([`options_from`]). `depth` overrides each game's default; `line` is
/// called after each position. Each search runs under `control`: a stop
/// ends the one running and the bench with it.
pub fn run(
    targets: &[BenchTarget],
    depth: Option<u32>,
    options: &SearchOptions,
    line: &mut dyn FnMut(&BenchLine),
    control: &SearchControl,
) -> Result<BenchSummary, String> {
    let options = options_from(options);
    let mut tt = TranspositionTable::new(BENCH_HASH_MIB)?;
    let mut summary = BenchSummary::default();
    let fail = |e: PluginError| e.to_string();
    for target in targets {
        let start = GameState::new(&target.variant.plugin, target.variant.index).map_err(fail)?;
        let mut moves = Vec::new();
        start.legal_moves(&mut moves).map_err(fail)?;
        let depth = depth.unwrap_or_else(|| default_depth(moves.len()));
        let texts = match &target.positions {
            Some(given) => given.clone(),
            None => positions(&target.variant).map_err(fail)?,
        };
        for text in texts {
            if control.stop_requested() {
                summary.stopped = true;
                return Ok(summary);
            }
            let mut state =
                GameState::new(&target.variant.plugin, target.variant.index).map_err(fail)?;
            state
                .set_position(&text)
                .map_err(|e| format!("bad position '{text}': {e}"))?;
            // Each position as after `ucinewgame`: nothing kept from the
            // positions before, in the table or in the evaluator.
            tt.clear();
            target.evaluator.new_game().map_err(fail)?;
            let limits = SearchLimits {
                depth: Some(depth),
                ..SearchLimits::default()
            };
            let (result, best, elapsed) =
                timed_search(state, &target.evaluator, &tt, &limits, &options, control)
                    .map_err(fail)?;
            summary.nodes += result.nodes;
            summary.elapsed += elapsed;
            if control.stop_requested() {
                // The search may have ended before its depth.
                summary.stopped = true;
                return Ok(summary);
            }
            summary.positions += 1;
            line(&BenchLine {
                game: target.variant.name().to_string(),
                position: text,
                depth,
                nodes: result.nodes,
                elapsed,
                best,
            });
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_depth_shrinks_with_branching() {
        assert_eq!(default_depth(4), 12);
        assert!(default_depth(44) < default_depth(10));
        assert_eq!(default_depth(2176), 2);
        assert_eq!(default_depth(0), 12);
    }
}
