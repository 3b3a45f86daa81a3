//! Perft through the plugin boundary: the host walks the tree with the
//! plugin's `gen_moves`, `make_move` and `unmake_move`, so the count checks
//! the rules and the ABI together, and its speed includes the boundary's
//! cost. (A plugin's own `perft` entry point measures the rules alone.)

use std::time::{Duration, Instant};

use plyd_api::{abi, Move};

use crate::host::{GameState, PluginError};

/// Count of one root move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootCount {
    /// The move's text.
    pub text: String,
    /// Leaf nodes below it.
    pub nodes: u64,
}

/// Result of a divided perft.
#[derive(Debug, Clone)]
pub struct PerftReport {
    /// Per root move, in the plugin's move order.
    pub roots: Vec<RootCount>,
    /// Sum over the root moves.
    pub total: u64,
    /// Wall time taken.
    pub elapsed: Duration,
    /// Whether `should_stop` cut it short (counts are then partial).
    pub interrupted: bool,
}

/// Perft through the boundary, with one move buffer per ply.
pub struct Perft {
    buffers: Vec<Vec<Move>>,
}

impl Default for Perft {
    fn default() -> Self {
        Self::new()
    }
}

impl Perft {
    /// A perft walker with empty buffers.
    pub fn new() -> Self {
        Perft {
            buffers: Vec::new(),
        }
    }

    /// Leaf count `depth` plies below `state`, the last ply counted in
    /// bulk. A game that ended before the last ply contributes nothing, or
    /// one leaf if the plugin declares `CAP_PERFT_COUNTS_ENDED_GAMES` (the
    /// convention of the published Othello figures).
    pub fn count(&mut self, state: &mut GameState, depth: u32) -> Result<u64, PluginError> {
        // Never asked to stop, so always a count.
        let never = &mut || false;
        Ok(self.count_until(state, depth, never)?.unwrap_or_default())
    }

    /// [`Perft::count`], asking `should_stop` at every node two or more
    /// plies above the leaves (a few thousand times a second even with
    /// Amazons' 2,000 moves a node); `None` once it said stop.
    fn count_until(
        &mut self,
        state: &mut GameState,
        depth: u32,
        should_stop: &mut dyn FnMut() -> bool,
    ) -> Result<Option<u64>, PluginError> {
        if depth == 0 {
            return Ok(Some(1));
        }
        if depth >= 2 && should_stop() {
            return Ok(None);
        }
        let ended_counts =
            state.plugin().info().capabilities & abi::CAP_PERFT_COUNTS_ENDED_GAMES != 0;
        // A position with no move: a game over, one leaf or none.
        let leaves = |count: usize| {
            if count == 0 {
                u64::from(ended_counts)
            } else {
                count as u64
            }
        };
        if depth == 1 {
            // The last ply asks only how many moves there are.
            return Ok(Some(leaves(state.count_moves()?)));
        }
        let ply = depth as usize;
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        state.legal_moves(&mut moves)?;
        let result = if moves.is_empty() {
            Ok(Some(leaves(0)))
        } else if depth == 2 {
            // The ply above the leaves asks only how many moves follow
            // each of its moves.
            Self::count_children(state, &moves, leaves).map(Some)
        } else {
            let mut total = 0;
            let mut stopped = false;
            let mut outcome = Ok(());
            for &mv in &moves {
                if let Err(e) = state.make_move(mv) {
                    outcome = Err(e);
                    break;
                }
                let below = match self.count_until(state, depth - 1, should_stop) {
                    Ok(below) => below,
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                };
                if let Err(e) = state.unmake_move(mv) {
                    outcome = Err(e);
                    break;
                }
                let Some(n) = below else {
                    stopped = true;
                    break;
                };
                total += n;
            }
            outcome.map(|()| (!stopped).then_some(total))
        };
        self.buffers[ply] = moves;
        result
    }

    /// The leaves one ply below each of `moves`: the count of moves after
    /// each ([`GameState::count_after`]: one call where the plugin answers
    /// it, else make, count, take back). A plain loop that returns at the
    /// first error: the walk's hottest loop.
    #[inline]
    fn count_children(
        state: &mut GameState,
        moves: &[Move],
        leaves: impl Fn(usize) -> u64,
    ) -> Result<u64, PluginError> {
        let mut total = 0;
        for &mv in moves {
            total += leaves(state.count_after(mv)?);
        }
        Ok(total)
    }

    /// Perft divided by root move. `should_stop` is asked before each root
    /// move and, unless `native` (the plugin's own perft below each root
    /// move, which cannot be interrupted), inside each; the root move it
    /// interrupted is left out of the report.
    pub fn divide(
        &mut self,
        state: &mut GameState,
        depth: u32,
        native: bool,
        mut should_stop: impl FnMut() -> bool,
    ) -> Result<PerftReport, PluginError> {
        let start = Instant::now();
        let mut roots = Vec::new();
        let mut total = 0;
        let mut interrupted = false;
        if depth > 0 {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves)?;
            for mv in moves {
                if should_stop() {
                    interrupted = true;
                    break;
                }
                let text = state.format_move(mv)?;
                state.make_move(mv)?;
                let nodes = if native {
                    state.native_perft(depth - 1).map(Some)
                } else {
                    self.count_until(state, depth - 1, &mut should_stop)
                };
                state.unmake_move(mv)?;
                let Some(nodes) = nodes? else {
                    interrupted = true;
                    break;
                };
                total += nodes;
                roots.push(RootCount { text, nodes });
            }
        } else {
            total = 1;
        }
        Ok(PerftReport {
            roots,
            total,
            elapsed: start.elapsed(),
            interrupted,
        })
    }
}
