//! Quiescence: past the nominal depth, only the noisy moves (every move
//! in check) are searched, until the position is quiet enough for the
//! static evaluation to be trusted. Where the plugin answers static
//! exchange questions (and `SEE` is on), a noisy move that loses by the
//! exchange is skipped out of check.

use super::picker::{MovePicker, PickerSetup};
use super::score::{INFINITY, MAX_PLY};
use super::worker::Searcher;
use crate::host::PluginError;

impl Searcher<'_> {
    /// As [`Searcher::child`], for quiescence.
    pub(super) fn quiet_child(
        &mut self,
        ply: usize,
        alpha: i32,
        beta: i32,
        parent_side: u32,
    ) -> Result<i32, PluginError> {
        let side = self.state.side_to_move()?;
        if side == parent_side {
            self.quiescence(ply, alpha, beta, side)
        } else {
            Ok(-self.quiescence(ply, -beta, -alpha, side)?)
        }
    }

    /// Quiescence: stand on the static evaluation or try the noisy moves
    /// (all moves when in check) until the position is quiet. Games without
    /// noisy moves are evaluated at once, and so is a chance node.
    pub(super) fn quiescence(
        &mut self,
        ply: usize,
        alpha: i32,
        beta: i32,
        side: u32,
    ) -> Result<i32, PluginError> {
        if let Some(value) = self.enter_node(ply)? {
            return Ok(value);
        }
        if ply >= MAX_PLY - 1 || !self.shared.features.noisy || self.load_outcomes(ply)? {
            return self.evaluate();
        }
        // Without evasions, a side in check stands pat over its noisy
        // moves like any other.
        let in_check = self.shared.features.techniques.qs_evasions && self.state.in_check()?;
        self.quiescence_moves(ply, alpha, beta, side, in_check)
    }

    /// The part of quiescence after the game-over, chance and check tests,
    /// which [`Searcher::pvs`] has already made when its depth runs out.
    pub(super) fn quiescence_moves(
        &mut self,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        side: u32,
        in_check: bool,
    ) -> Result<i32, PluginError> {
        if !self.shared.features.noisy {
            return self.evaluate();
        }
        let mut best = -INFINITY;
        // Out of check, what a capture must win by the exchange to be
        // looked at: nothing lost (with `SEE`) or, with `QsFutility`,
        // enough to lift the static evaluation plus a margin (for what the
        // position gains besides the material) above alpha.
        let mut least_gain = None;
        let mut futile_floor = -INFINITY;
        if !in_check {
            best = self.evaluate()?;
            if best >= beta {
                return Ok(best);
            }
            alpha = alpha.max(best);
            if self.shared.features.see {
                let futile = self.shared.features.techniques.qs_futility;
                let margin = self.shared.qs_futility_margin;
                futile_floor = (best + margin).min(alpha);
                least_gain = Some(if futile {
                    (alpha + 1 - best - margin).max(0)
                } else {
                    0
                });
            }
        }
        let setup = PickerSetup::quiescence(in_check, side);
        let mut picker = MovePicker::new(setup, std::mem::take(&mut self.pickers[ply]));
        let mut count = 0usize;
        // As in the main search, an error abandons the search: the buffers
        // taken from the pool are simply not given back then.
        while let Some((mv, _)) = picker.next(&self.state, &self.heuristics)? {
            // Out of check, a capture that loses by the exchange is not
            // worth a look: standing pat already beats it, as a rule; nor
            // one that cannot win enough to reach alpha.
            if let Some(threshold) = least_gain {
                if self.loses_exchange(mv, threshold)? {
                    if threshold > 0 {
                        best = best.max(futile_floor);
                    }
                    continue;
                }
            }
            // Through `play`: the evaluator's stack follows every move.
            self.play(mv)?;
            self.nodes += 1;
            count += 1;
            let value = self.quiet_child(ply + 1, alpha, beta, side)?;
            self.take_back(mv)?;
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.pickers[ply] = picker.into_buffers();
        if in_check && count == 0 {
            // In check with no move, and the game goes on by the plugin's
            // word: score it as the draw an ongoing dead end is.
            return Ok(0);
        }
        Ok(best)
    }
}
