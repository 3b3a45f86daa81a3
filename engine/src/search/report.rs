//! What a search thread tells the GUI: `info` lines for finished
//! iterations, the move being searched, and the spelling of lines.

use plyd_api::Move;
use plyd_protocol::Info;

use super::worker::{Searcher, ThreadResult};
use super::{nps, score, SearchEvent};
use crate::host::{GameState, PluginError};

impl Searcher<'_> {
    /// Report the lines of a finished (or answer-changing) iteration: each
    /// line its score at `depth`, or, where an iteration cut short did not
    /// reach it again, its score and line at the depth it was last searched
    /// to (where Stockfish labels a line the iteration did not reach with
    /// the iteration's depth), so that the last lines printed are always
    /// as many as asked for. Numbered `multipv k` whenever `MultiPV` asks for more
    /// than one, even where fewer moves are there to search.
    pub(super) fn report_iteration(
        &mut self,
        depth: u32,
        multipv: usize,
    ) -> Result<(), PluginError> {
        let numbered = |k: usize| (self.shared.multipv > 1).then_some(k as u32 + 1);
        if self.root_moves.is_empty() {
            // A chance root: one line, its expected value.
            let result = self.result();
            let info = self.pv_info(depth, result.score, &result.pv, numbered(0))?;
            self.emit(SearchEvent::Info(info));
            return Ok(());
        }
        for pv_index in 0..multipv {
            let rm = &self.root_moves[pv_index];
            let (at, value) = if rm.score != -score::INFINITY {
                (rm.depth.min(depth), rm.reported_score())
            } else if rm.previous_score != -score::INFINITY && depth > 1 {
                let previous = rm.previous_score;
                let bonus = if score::is_decisive(previous) {
                    0
                } else {
                    rm.bonus
                };
                (rm.previous_depth.clamp(1, depth - 1), previous - bonus)
            } else {
                continue;
            };
            let (line, k) = (rm.pv.clone(), numbered(pv_index));
            let info = self.pv_info(at, value, &line, k)?;
            self.emit(SearchEvent::Info(info));
        }
        Ok(())
    }

    /// Report a helper's result as the final `info` line, so that the last
    /// line printed is the line of the move played: the first line, named
    /// `multipv 1` where several are asked for.
    pub(super) fn report_result(&mut self, result: &ThreadResult) -> Result<(), PluginError> {
        let numbered = (self.shared.multipv > 1).then_some(1);
        let info = self.pv_info(result.depth, result.score, &result.pv, numbered)?;
        self.emit(SearchEvent::Info(info));
        Ok(())
    }

    /// `info depth D currmove M currmovenumber N`.
    pub(super) fn report_currmove(
        &mut self,
        depth: u32,
        mv: Move,
        number: usize,
    ) -> Result<(), PluginError> {
        let text = self.state.format_move(mv)?;
        self.emit(SearchEvent::Info(Info {
            depth: Some(depth),
            currmove: Some(text),
            currmovenumber: Some(number as u32),
            ..Info::default()
        }));
        Ok(())
    }

    /// An `info` line for a principal variation `line` scored `value` at
    /// `depth`, with the search's counters.
    fn pv_info(
        &mut self,
        depth: u32,
        value: i32,
        line: &[Move],
        multipv: Option<u32>,
    ) -> Result<Info, PluginError> {
        let elapsed = self.shared.control.search_elapsed();
        let nodes = self.shared.total_nodes(self.id, self.nodes);
        Ok(Info {
            depth: Some(depth),
            seldepth: Some(self.seldepth.max(depth)),
            multipv,
            score: Some((score::to_protocol(value), None)),
            nodes: Some(nodes),
            nps: Some(nps(nodes, elapsed)),
            hashfull: Some(self.shared.tt.hashfull()),
            time_ms: Some(elapsed.as_millis() as u64),
            pv: self.format_line(line)?,
            ..Info::default()
        })
    }

    /// Spell a line of moves, each in the position where it is played.
    pub(super) fn format_line(&mut self, line: &[Move]) -> Result<Vec<String>, PluginError> {
        let mut texts = Vec::with_capacity(line.len());
        let mut played = 0;
        let mut outcome = Ok(());
        for &mv in line {
            match self.state.format_move(mv) {
                Ok(text) => texts.push(text),
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
            if let Err(e) = self.state.make_move(mv) {
                outcome = Err(e);
                break;
            }
            played += 1;
        }
        for &mv in line[..played].iter().rev() {
            self.state.unmake_move(mv)?;
        }
        outcome.map(|()| texts)
    }
}

/// The reply to expect after the first move of `line`, spelled: its
/// second move, unless the die is rolled in between (a roll is nobody's
/// move to ponder on) or the same side moves again (a game where a move
/// may earn another, as a box completed in Dots and Boxes: the opponent
/// has no reply there).
pub(super) fn ponder_reply(
    state: &mut GameState,
    line: &[Move],
    table: Option<&super::tt::TranspositionTable>,
) -> Result<Option<String>, PluginError> {
    let (best, reply) = match *line {
        [best, reply, ..] => (best, Some(reply)),
        [best] => (best, None),
        [] => return Ok(None),
    };
    let side = state.side_to_move()?;
    state.make_move(best)?;
    let mut outcomes = Vec::new();
    let answer = state.chance_outcomes(&mut outcomes).and_then(|()| {
        if !outcomes.is_empty() || state.side_to_move()? == side {
            return Ok(None);
        }
        // A line cut to its first move (a search stopped in the middle of
        // an iteration): the table's move for the reply, where it is
        // legal, as Stockfish takes it.
        let reply = match reply {
            Some(reply) => Some(reply),
            None => match table
                .and_then(|tt| tt.probe(state.hash(), 1))
                .and_then(|hit| hit.best)
            {
                Some(mv) if state.is_legal(mv)? => Some(mv),
                _ => None,
            },
        };
        reply.map(|mv| state.format_move(mv)).transpose()
    });
    state.unmake_move(best)?;
    answer
}
