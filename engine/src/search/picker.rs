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

use super::heuristics::{is_noisy, Context, Heuristics, NO_CONTEXT};
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
/// The countermove's key in the exchange-ordered list, below the killers.
const SEE_COUNTER_KEY: i64 = 3 * BAND;
/// The countermove's key in a list ordered by hint, below the killers.
const COUNTER_KEY: i64 = i64::MAX - 3;
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
    /// The plugin's key of each move (`move_keys`), beside `moves`.
    move_keys: Vec<u32>,
    keys: Vec<i64>,
    hints: Vec<i32>,
    /// Scratch space for sorting.
    pairs: Vec<(i64, Move, u32)>,
}

impl PickerBuffers {
    /// Every buffer empty, its memory kept.
    pub(super) fn clear(&mut self) {
        self.moves.clear();
        self.move_keys.clear();
        self.keys.clear();
        self.hints.clear();
        self.pairs.clear();
    }
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
    /// Whether to ask the plugin for move keys (`move_keys`), for the
    /// histories kept by key; without, every key is [`NO_CONTEXT`].
    pub move_keys: bool,
    /// The moves one, two and four plies back, for continuation history.
    pub contexts: [Context; 3],
    /// The countermove to the last move, ordered after the killers.
    pub counter: Move,
    /// Whether noisy moves are ordered by capture history within their
    /// hint (otherwise by the butterfly history).
    pub capture_history: bool,
    /// A move not to hand out (a singular extension's search without it).
    pub excluded: Move,
}

impl PickerSetup {
    /// A setup for the noisy moves of quiescence (every move in check),
    /// ordered by hints alone.
    pub fn quiescence(in_check: bool, side: u32) -> Self {
        PickerSetup {
            kind: if in_check { Kind::All } else { Kind::Noisy },
            tt_move: None,
            check_tt_move: false,
            hints: true,
            skip_marked: false,
            killers_first: false,
            see: false,
            side,
            killers: [NULL_MOVE; 2],
            move_keys: false,
            contexts: [NO_CONTEXT; 3],
            counter: NULL_MOVE,
            capture_history: false,
            excluded: NULL_MOVE,
        }
    }
}

/// Hands out the moves of one node, best first.
pub(super) struct MovePicker {
    setup: PickerSetup,
    stage: Stage,
    buffers: PickerBuffers,
    /// The moves handed out before generation, in order: the table move
    /// and the killers that were legal, with their keys.
    tried_early: [(Move, u32); 3],
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
            tried_early: [(NULL_MOVE, NO_CONTEXT); 3],
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

    /// The next move, best first, with its key ([`NO_CONTEXT`] unless the
    /// setup asks for keys); `None` when every move was handed out.
    pub fn next(
        &mut self,
        state: &GameState,
        heuristics: &Heuristics,
    ) -> Result<Option<(Move, u32)>, PluginError> {
        if self.stage == Stage::TableMove {
            self.stage = if self.setup.killers_first {
                Stage::Killers
            } else {
                Stage::Generate
            };
            let mv = self.setup.tt_move.expect("a table move in its stage");
            if mv != self.setup.excluded && state.is_legal(mv)? {
                let key = self.key_of(state, mv)?;
                self.tried_early[0] = (mv, key);
                self.early_count = 1;
                return Ok(Some((mv, key)));
            }
        }
        if self.stage == Stage::Killers {
            // Only where the whole list would otherwise be generated and
            // hinted for nothing: a game whose hints cost more than a
            // legality test (they always do when they decide selectivity).
            while self.next_killer < 2 {
                let mv = self.setup.killers[self.next_killer];
                self.next_killer += 1;
                if mv != NULL_MOVE
                    && Some(mv) != self.setup.tt_move
                    && mv != self.setup.excluded
                    && state.is_legal(mv)?
                {
                    let key = self.key_of(state, mv)?;
                    self.tried_early[self.early_count] = (mv, key);
                    self.early_count += 1;
                    return Ok(Some((mv, key)));
                }
            }
            self.stage = Stage::Generate;
        }
        if self.stage == Stage::Generate {
            self.generate(state, heuristics)?;
            self.stage = Stage::Pick;
        }
        let PickerBuffers {
            moves,
            move_keys,
            keys,
            pairs,
            ..
        } = &mut self.buffers;
        if self.next >= moves.len() {
            return Ok(None);
        }
        if !self.sorted {
            if self.next < SCAN_PICKS {
                pick_best(moves, move_keys, keys, self.next);
            } else {
                sort_rest(moves, move_keys, keys, pairs, self.next);
                self.sorted = true;
            }
        }
        self.next += 1;
        Ok(Some((moves[self.next - 1], move_keys[self.next - 1])))
    }

    /// The key of one move handed out before generation.
    fn key_of(&self, state: &GameState, mv: Move) -> Result<u32, PluginError> {
        if !self.setup.move_keys {
            return Ok(NO_CONTEXT);
        }
        let mut one = Vec::with_capacity(1);
        state.move_keys(&[mv], &mut one)?;
        Ok(one[0])
    }

    fn generate(&mut self, state: &GameState, heuristics: &Heuristics) -> Result<(), PluginError> {
        let buffers = &mut self.buffers;
        match self.setup.kind {
            Kind::All => state.legal_moves(&mut buffers.moves)?,
            Kind::Noisy => state.noisy_moves(&mut buffers.moves)?,
        }
        for &(tried, _) in &self.tried_early[..self.early_count] {
            if let Some(i) = buffers.moves.iter().position(|&m| m == tried) {
                buffers.moves.swap_remove(i);
            }
        }
        if self.setup.excluded != NULL_MOVE {
            if let Some(i) = buffers.moves.iter().position(|&m| m == self.setup.excluded) {
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
        if self.setup.move_keys {
            state.move_keys(&buffers.moves, &mut buffers.move_keys)?;
        } else {
            buffers.move_keys.clear();
            buffers.move_keys.resize(buffers.moves.len(), NO_CONTEXT);
        }
        let setup = &self.setup;
        if setup.skip_marked && setup.hints {
            let PickerBuffers {
                moves,
                move_keys,
                hints,
                ..
            } = buffers;
            let mut kept = 0;
            for i in 0..moves.len() {
                let mv = moves[i];
                if hints[i] != HINT_SKIP || Some(mv) == setup.tt_move || setup.killers.contains(&mv)
                {
                    moves[kept] = mv;
                    move_keys[kept] = move_keys[i];
                    hints[kept] = hints[i];
                    kept += 1;
                }
            }
            moves.truncate(kept);
            move_keys.truncate(kept);
            hints.truncate(kept);
        }
        if setup.see && setup.kind == Kind::All {
            return self.exchange_keys(state, heuristics);
        }
        let PickerBuffers {
            moves,
            move_keys,
            hints,
            keys,
            ..
        } = buffers;
        keys.clear();
        for ((&mv, &key), &hint) in moves.iter().zip(move_keys.iter()).zip(hints.iter()) {
            keys.push(if Some(mv) == setup.tt_move {
                TT_MOVE_KEY
            } else if mv == setup.killers[0] {
                KILLER_KEYS[0]
            } else if mv == setup.killers[1] {
                KILLER_KEYS[1]
            } else if mv == setup.counter {
                COUNTER_KEY
            } else {
                (i64::from(hint) << 32) + i64::from(setup.history_of(heuristics, mv, key))
            });
        }
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
            moves,
            move_keys,
            keys,
            hints,
            ..
        } = &mut self.buffers;
        keys.clear();
        for ((&mv, &move_key), &hint) in moves.iter().zip(move_keys.iter()).zip(hints.iter()) {
            let key = if Some(mv) == setup.tt_move {
                TT_MOVE_KEY
            } else if mv == setup.killers[0] {
                SEE_KILLER_KEYS[0]
            } else if mv == setup.killers[1] {
                SEE_KILLER_KEYS[1]
            } else if mv == setup.counter {
                SEE_COUNTER_KEY
            } else {
                let within = (i64::from(hint.clamp(-HINT_CLAMP, HINT_CLAMP)) << 20)
                    + i64::from(setup.history_of(heuristics, mv, move_key));
                // The move key says whether the move is noisy where the
                // plugin gives keys; otherwise the lowest threshold asks
                // only that, which the plugin answers without weighing the
                // exchange. Only noisy moves are weighed.
                let noisy = if move_key != NO_CONTEXT {
                    is_noisy(move_key)
                } else {
                    matches!(state.see_ge(mv, i32::MIN)?, Some(answer) if answer.noisy)
                };
                let band = if noisy {
                    match state.see_ge(mv, 0)? {
                        Some(answer) if !answer.passes => LOSING_NOISY_BAND,
                        _ => GOOD_NOISY_BAND,
                    }
                } else {
                    QUIET_BAND
                };
                band + within
            };
            keys.push(key);
        }
        Ok(())
    }

    /// Hand out every remaining move, best first, into `out`.
    pub fn drain_into(
        &mut self,
        state: &GameState,
        heuristics: &Heuristics,
        out: &mut Vec<Move>,
    ) -> Result<(), PluginError> {
        while let Some((mv, _)) = self.next(state, heuristics)? {
            out.push(mv);
        }
        Ok(())
    }
}

/// Bring the move with the highest key among `moves[from..]` to `from`
/// (keys and move keys move with their moves). Ties keep the earlier move
/// first.
#[inline]
fn pick_best(moves: &mut [Move], move_keys: &mut [u32], keys: &mut [i64], from: usize) {
    let mut best = from;
    for j in from + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(from, best);
    move_keys.swap(from, best);
    keys.swap(from, best);
}

/// Sort `moves[from..]` by key, highest first (ties in list order).
fn sort_rest(
    moves: &mut [Move],
    move_keys: &mut [u32],
    keys: &mut [i64],
    pairs: &mut Vec<(i64, Move, u32)>,
    from: usize,
) {
    pairs.clear();
    pairs.extend(
        keys[from..]
            .iter()
            .zip(&moves[from..])
            .zip(&move_keys[from..])
            .map(|((&key, &mv), &move_key)| (key, mv, move_key)),
    );
    pairs.sort_by_key(|&(key, _, _)| std::cmp::Reverse(key));
    for (i, &(key, mv, move_key)) in pairs.iter().enumerate() {
        keys[from + i] = key;
        moves[from + i] = mv;
        move_keys[from + i] = move_key;
    }
}

impl PickerSetup {
    /// The history part of a move's ordering key: by capture history for
    /// a noisy move where it is kept, by history and continuation history
    /// for the others.
    #[inline]
    fn history_of(&self, heuristics: &Heuristics, mv: Move, key: u32) -> i32 {
        if self.capture_history && is_noisy(key) {
            heuristics.capture(self.side, key)
        } else if key == NO_CONTEXT {
            heuristics.history(self.side, mv)
        } else {
            heuristics.quiet_score(self.side, mv, key, &self.contexts)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_then_sorts_in_key_order() {
        let mut moves: Vec<Move> = (0..50).collect();
        let mut move_keys: Vec<u32> = (100..150).collect();
        let mut keys: Vec<i64> = (0..50).map(|i| (i * 37 % 50) as i64).collect();
        let mut got = Vec::new();
        for from in 0..moves.len() {
            if from < SCAN_PICKS {
                pick_best(&mut moves, &mut move_keys, &mut keys, from);
            } else if from == SCAN_PICKS {
                sort_rest(&mut moves, &mut move_keys, &mut keys, &mut Vec::new(), from);
            }
            got.push(keys[from]);
            // The move and its key travel with the ordering key.
            assert_eq!(keys[from], (moves[from] as i64 * 37 % 50));
            assert_eq!(move_keys[from], moves[from] + 100);
        }
        let mut want: Vec<i64> = (0..50).map(|i| (i * 37 % 50) as i64).collect();
        want.sort_by(|a, b| b.cmp(a));
        assert_eq!(got, want);
    }
}
