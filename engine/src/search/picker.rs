//! The staged move picker: one for the root, the main search and
//! quiescence.
//!
//! Stages, in order:
//!
//! 1. **Table move.** When the plugin can say whether one move is legal
//!    (`is_legal`), the transposition table's move is checked and handed
//!    out before anything is generated: a cutoff on it spares the whole
//!    generation. Without `is_legal`, a table move is only ever trusted
//!    after it was found in the generated list, so a hash collision can
//!    never play a move the plugin did not list.
//!    For a selective game (whose hints cost far more than a legality
//!    test, since they decide which moves are searched) the two killers
//!    follow here too, each checked with `is_legal`.
//! 2. **Generation.** The rest of the moves are generated once (the noisy
//!    ones only, in quiescence out of check), each given an ordering key:
//!    the killers above everything else, then the plugin's hint with the
//!    history score breaking ties.
//!    Where the plugin answers static exchange questions (`see_ge`) and
//!    the `SEE` option is on, the main search's list is cut in bands
//!    first: the killers, the noisy moves that do not lose by the exchange
//!    (SEE >= 0), the quiet moves, and last the noisy moves that lose by
//!    it; hint and history order each band. (With the good captures
//!    above the killers, Stockfish's order, xiangqi's `bench 8` searched
//!    965,000 nodes against 880,000 with the killers first, in a trial
//!    that ordered this way at depth 2 and more only; at every depth, as
//!    here, it searches 770,000.)
//!    A plugin declaring `CAP_SELECTIVE` may mark moves `HINT_SKIP`; below
//!    the root, with the `Selective` option on, those are dropped here
//!    (the table move and the killers excepted).
//! 3. **Picking.** The first few moves are picked by a linear scan for the
//!    best key, which is all a node that cuts off early pays; if the node
//!    goes on, the rest of the list is sorted once (`O(n log n)`), so a node
//!    of Amazons' 2,000 moves that never cuts off costs a sort, not a
//!    quadratic selection.
//!
//! The picker borrows nothing: the search hands it the state and its
//! heuristics on every call, and it owns its buffers, which the search
//! takes from and gives back to a per-ply pool so that nothing is allocated
//! in the tree.

use plyd_api::abi::HINT_SKIP;
use plyd_api::{Move, NULL_MOVE};

use super::heuristics::Heuristics;
use crate::host::{GameState, PluginError};

/// Keys of the killers, above any hint.
const KILLER_KEYS: [i64; 2] = [i64::MAX - 1, i64::MAX - 2];
/// The table move's key when it is ordered inside the generated list.
const TT_MOVE_KEY: i64 = i64::MAX;
/// Moves picked by a linear scan before the rest is sorted.
const SCAN_PICKS: usize = 4;

/// With static exchange ordering, each band's keys sit above the lower
/// bands' whatever the hint and history (a hint is clamped to 27 bits and
/// shifted by 20, history stays within 15 bits).
const BAND: i64 = 1 << 60;
/// The killers' keys in the exchange-ordered list.
const SEE_KILLER_KEYS: [i64; 2] = [3 * BAND + 2, 3 * BAND + 1];
/// The band of noisy moves that do not lose by the exchange.
const GOOD_NOISY_BAND: i64 = 2 * BAND;
/// The band of quiet moves (and of those the plugin did not answer for).
const QUIET_BAND: i64 = BAND;
/// The band of noisy moves that lose by the exchange.
const LOSING_NOISY_BAND: i64 = 0;
/// The largest hint magnitude kept in an exchange-ordered key.
const HINT_CLAMP: i32 = 1 << 26;

/// Which moves a picker hands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Every legal move (main search and root).
    All,
    /// Noisy moves only (quiescence, not in check).
    Noisy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    TableMove,
    Killers,
    Generate,
    Pick,
}

/// The buffers a picker owns while it works.
#[derive(Debug, Default)]
pub(super) struct PickerBuffers {
    moves: Vec<Move>,
    keys: Vec<i64>,
    hints: Vec<i32>,
    /// Scratch space for sorting.
    pairs: Vec<(i64, Move)>,
}

/// What the picker needs to know of the node.
#[derive(Debug, Clone, Copy)]
pub(super) struct PickerSetup {
    /// Which moves.
    pub kind: Kind,
    /// The table's move, if any (not yet known to be legal).
    pub tt_move: Option<Move>,
    /// Whether the plugin's `is_legal` may check the table move before
    /// generation.
    pub check_tt_move: bool,
    /// Whether to ask the plugin for ordering hints.
    pub hints: bool,
    /// Whether the killers are tried, each checked with `is_legal`, before
    /// generation (needs `check_tt_move`; main search only, where every
    /// move is listed).
    pub killers_first: bool,
    /// Whether to drop the moves hinted `HINT_SKIP` (selective search
    /// below the root); the table move and the killers are kept.
    pub skip_marked: bool,
    /// Whether to order by the static exchange (`see_ge`) in bands: main
    /// search and root only, where the plugin answers and `SEE` is on.
    pub see: bool,
    /// The side to move, for the history table.
    pub side: u32,
    /// The killers of this ply.
    pub killers: [Move; 2],
}

/// Hands out the moves of one node, best first.
pub(super) struct MovePicker {
    setup: PickerSetup,
    stage: Stage,
    buffers: PickerBuffers,
    /// The moves handed out before generation, in order: the table move
    /// and the killers that were legal.
    tried_early: [Move; 3],
    /// How many of `tried_early` are set.
    early_count: usize,
    /// Next killer to try in the killer stage.
    next_killer: usize,
    /// Next index to hand out in the generated list.
    next: usize,
    /// Whether `moves[next..]` is sorted best first.
    sorted: bool,
}

impl MovePicker {
    /// A picker for one node, using `buffers` (whatever they hold is
    /// overwritten).
    pub fn new(setup: PickerSetup, buffers: PickerBuffers) -> Self {
        MovePicker {
            stage: if !setup.check_tt_move {
                Stage::Generate
            } else if setup.tt_move.is_some() {
                Stage::TableMove
            } else if setup.killers_first {
                Stage::Killers
            } else {
                Stage::Generate
            },
            setup,
            buffers,
            tried_early: [NULL_MOVE; 3],
            early_count: 0,
            next_killer: 0,
            next: 0,
            sorted: false,
        }
    }

    /// Give the buffers back for the next node.
    pub fn into_buffers(self) -> PickerBuffers {
        self.buffers
    }

    /// The next move, best first; `None` when every move was handed out.
    pub fn next(
        &mut self,
        state: &GameState,
        heuristics: &Heuristics,
    ) -> Result<Option<Move>, PluginError> {
        if self.stage == Stage::TableMove {
            self.stage = if self.setup.killers_first {
                Stage::Killers
            } else {
                Stage::Generate
            };
            let mv = self.setup.tt_move.expect("a table move in its stage");
            if state.is_legal(mv)? {
                self.tried_early[0] = mv;
                self.early_count = 1;
                return Ok(Some(mv));
            }
        }
        if self.stage == Stage::Killers {
            // Only where the whole list would otherwise be generated and
            // hinted for nothing: a game whose hints cost more than a
            // legality test (they always do when they decide selectivity).
            while self.next_killer < 2 {
                let mv = self.setup.killers[self.next_killer];
                self.next_killer += 1;
                if mv != NULL_MOVE && Some(mv) != self.setup.tt_move && state.is_legal(mv)? {
                    self.tried_early[self.early_count] = mv;
                    self.early_count += 1;
                    return Ok(Some(mv));
                }
            }
            self.stage = Stage::Generate;
        }
        if self.stage == Stage::Generate {
            self.generate(state, heuristics)?;
            self.stage = Stage::Pick;
        }
        let PickerBuffers {
            moves, keys, pairs, ..
        } = &mut self.buffers;
        if self.next >= moves.len() {
            return Ok(None);
        }
        if !self.sorted {
            if self.next < SCAN_PICKS {
                pick_best(moves, keys, self.next);
            } else {
                sort_rest(moves, keys, pairs, self.next);
                self.sorted = true;
            }
        }
        self.next += 1;
        Ok(Some(moves[self.next - 1]))
    }

    fn generate(&mut self, state: &GameState, heuristics: &Heuristics) -> Result<(), PluginError> {
        let buffers = &mut self.buffers;
        match self.setup.kind {
            Kind::All => state.legal_moves(&mut buffers.moves)?,
            Kind::Noisy => state.noisy_moves(&mut buffers.moves)?,
        }
        for &tried in &self.tried_early[..self.early_count] {
            if let Some(i) = buffers.moves.iter().position(|&m| m == tried) {
                buffers.moves.swap_remove(i);
            }
        }
        let moves = &buffers.moves;
        if self.setup.hints && moves.len() > 1 {
            state.order_hints(moves, &mut buffers.hints)?;
        } else {
            buffers.hints.clear();
            buffers.hints.resize(moves.len(), 0);
        }
        let setup = &self.setup;
        if setup.skip_marked && setup.hints {
            let PickerBuffers { moves, hints, .. } = buffers;
            let mut kept = 0;
            for i in 0..moves.len() {
                let mv = moves[i];
                if hints[i] != HINT_SKIP || Some(mv) == setup.tt_move || setup.killers.contains(&mv)
                {
                    moves[kept] = mv;
                    hints[kept] = hints[i];
                    kept += 1;
                }
            }
            moves.truncate(kept);
            hints.truncate(kept);
        }
        if setup.see && setup.kind == Kind::All {
            return self.exchange_keys(state, heuristics);
        }
        let moves = &buffers.moves;
        buffers.keys.clear();
        buffers
            .keys
            .extend(moves.iter().zip(&buffers.hints).map(|(&mv, &hint)| {
                if Some(mv) == setup.tt_move {
                    TT_MOVE_KEY
                } else if mv == setup.killers[0] {
                    KILLER_KEYS[0]
                } else if mv == setup.killers[1] {
                    KILLER_KEYS[1]
                } else {
                    (i64::from(hint) << 32) + i64::from(heuristics.history(setup.side, mv))
                }
            }));
        Ok(())
    }

    /// The keys of a list ordered by the static exchange, in bands (see
    /// the module docs): one `see_ge` question per quiet move, two per
    /// noisy one.
    fn exchange_keys(
        &mut self,
        state: &GameState,
        heuristics: &Heuristics,
    ) -> Result<(), PluginError> {
        let setup = &self.setup;
        let PickerBuffers {
            moves, keys, hints, ..
        } = &mut self.buffers;
        keys.clear();
        for (&mv, &hint) in moves.iter().zip(hints.iter()) {
            let key = if Some(mv) == setup.tt_move {
                TT_MOVE_KEY
            } else if mv == setup.killers[0] {
                SEE_KILLER_KEYS[0]
            } else if mv == setup.killers[1] {
                SEE_KILLER_KEYS[1]
            } else {
                let within = (i64::from(hint.clamp(-HINT_CLAMP, HINT_CLAMP)) << 20)
                    + i64::from(heuristics.history(setup.side, mv));
                // The lowest threshold asks only whether the move is noisy,
                // which the plugin answers without weighing the exchange;
                // only noisy moves are weighed.
                let band = match state.see_ge(mv, i32::MIN)? {
                    Some(answer) if answer.noisy => match state.see_ge(mv, 0)? {
                        Some(answer) if !answer.passes => LOSING_NOISY_BAND,
                        _ => GOOD_NOISY_BAND,
                    },
                    _ => QUIET_BAND,
                };
                band + within
            };
            keys.push(key);
        }
        Ok(())
    }

    /// The moves handed out before generation (the table move, killers).
    pub fn tried_early(&self) -> &[Move] {
        &self.tried_early[..self.early_count]
    }

    /// The moves handed out so far from the generated list, in order (the
    /// moves of the stages before generation are not among them).
    pub fn picked(&self) -> &[Move] {
        &self.buffers.moves[..self.next.min(self.buffers.moves.len())]
    }

    /// Hand out every remaining move, best first, into `out`.
    pub fn drain_into(
        &mut self,
        state: &GameState,
        heuristics: &Heuristics,
        out: &mut Vec<Move>,
    ) -> Result<(), PluginError> {
        while let Some(mv) = self.next(state, heuristics)? {
            out.push(mv);
        }
        Ok(())
    }
}

/// Bring the move with the highest key among `moves[from..]` to `from`
/// (keys move with their moves). Ties keep the earlier move first.
#[inline]
fn pick_best(moves: &mut [Move], keys: &mut [i64], from: usize) {
    let mut best = from;
    for j in from + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(from, best);
    keys.swap(from, best);
}

/// Sort `moves[from..]` by key, highest first (ties in list order).
fn sort_rest(moves: &mut [Move], keys: &mut [i64], pairs: &mut Vec<(i64, Move)>, from: usize) {
    pairs.clear();
    pairs.extend(
        keys[from..]
            .iter()
            .copied()
            .zip(moves[from..].iter().copied()),
    );
    pairs.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    for (i, &(key, mv)) in pairs.iter().enumerate() {
        keys[from + i] = key;
        moves[from + i] = mv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_then_sorts_in_key_order() {
        let mut moves: Vec<Move> = (0..50).collect();
        let mut keys: Vec<i64> = (0..50).map(|i| (i * 37 % 50) as i64).collect();
        let mut got = Vec::new();
        for from in 0..moves.len() {
            if from < SCAN_PICKS {
                pick_best(&mut moves, &mut keys, from);
            } else if from == SCAN_PICKS {
                sort_rest(&mut moves, &mut keys, &mut Vec::new(), from);
            }
            got.push(keys[from]);
        }
        let mut want: Vec<i64> = (0..50).map(|i| (i * 37 % 50) as i64).collect();
        want.sort_by(|a, b| b.cmp(a));
        assert_eq!(got, want);
    }
}
