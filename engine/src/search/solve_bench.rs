//! `plyd endgame-bench`: exact solves of a file of endgame positions with
//! known scores (Othello's FFO suite, `plugins/othello/ffo.txt`), each
//! through the same search a `go depth` of the whole endgame runs, with the
//! time, nodes and speed of each and in total, and each score checked
//! against the file.
//!
//! A position file has one position a line, `#` starting a comment:
//!
//! ```text
//! ffo40 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X +38
//! ```
//!
//! a name, the position text (which may hold one space, as the board and
//! the side to move do here), and the exact score of the position for the
//! side to move, in the game's final-score units (Othello: discs).

use std::time::Duration;

use crate::host::{Evaluator, GameState, PluginError, VariantRef};

use super::bench::timed_search;
use super::{SearchControl, SearchLimits, SearchOptions, TranspositionTable, MAX_DEPTH};

/// One position of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolvePosition {
    /// Its name (`ffo40`).
    pub name: String,
    /// The position text.
    pub position: String,
    /// The published exact score for the side to move.
    pub expected: i32,
}

/// Read a position file; an error names the line.
pub fn read_positions(text: &str) -> Result<Vec<SolvePosition>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let bad = |what: &str| format!("line {}: {what}", number + 1);
        let [name, position @ .., score] = fields.as_slice() else {
            return Err(bad("expected a name, a position and a score"));
        };
        if position.is_empty() {
            return Err(bad("expected a name, a position and a score"));
        }
        let expected = score
            .parse::<i32>()
            .map_err(|_| bad(&format!("'{score}' is not a score")))?;
        positions.push(SolvePosition {
            name: name.to_string(),
            position: position.join(" "),
            expected,
        });
    }
    Ok(positions)
}

/// The solve of one position.
#[derive(Debug, Clone)]
pub struct SolveLine {
    /// The position's name.
    pub name: String,
    /// The size of its endgame (Othello: empty squares).
    pub size: u32,
    /// The score found, in final-score units.
    pub score: i32,
    /// The score the file gives.
    pub expected: i32,
    /// Nodes of every thread.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The move chosen.
    pub best: String,
}

impl SolveLine {
    /// Whether the solve found the file's score.
    pub fn is_right(&self) -> bool {
        self.score == self.expected
    }
}

/// Totals over the positions solved.
#[derive(Debug, Clone, Default)]
pub struct SolveSummary {
    /// Positions solved.
    pub positions: usize,
    /// Positions whose score differs from the file's.
    pub wrong: usize,
    /// Nodes.
    pub nodes: u64,
    /// Time.
    pub elapsed: Duration,
}

/// Solve every position of `positions` in `variant` with `threads` threads
/// and a table of `hash_mib` MiB, emptied before each; `line` is called
/// after each position.
pub fn run(
    variant: &VariantRef,
    evaluator: &Evaluator,
    positions: &[SolvePosition],
    threads: usize,
    hash_mib: usize,
    line: &mut dyn FnMut(&SolveLine),
) -> Result<SolveSummary, String> {
    let mut tt = TranspositionTable::new(hash_mib)?;
    let mut summary = SolveSummary::default();
    let fail = |e: PluginError| e.to_string();
    for entry in positions {
        let mut state = GameState::new(&variant.plugin, variant.index).map_err(fail)?;
        state
            .set_position(&entry.position)
            .map_err(|e| format!("{}: {e}", entry.name))?;
        let size = match state.endgame_size().map_err(fail)? {
            Some((size, _)) => size,
            None => {
                return Err(format!(
                    "{}: {} has no endgame solver for this position",
                    entry.name,
                    variant.name()
                ))
            }
        };
        tt.clear();
        // A depth past any endgame: the search hands the root to the solver.
        let limits = SearchLimits {
            depth: Some(MAX_DEPTH),
            ..SearchLimits::default()
        };
        let options = SearchOptions {
            threads,
            ..SearchOptions::default()
        };
        let (result, best, elapsed) = timed_search(
            state,
            evaluator,
            &tt,
            &limits,
            &options,
            &SearchControl::new(false),
        )
        .map_err(fail)?;
        if result.depth != size {
            return Err(format!("{}: the solve did not end", entry.name));
        }
        let solved = SolveLine {
            name: entry.name.clone(),
            size,
            score: result.score / 100,
            expected: entry.expected,
            nodes: result.nodes,
            elapsed,
            best,
        };
        summary.positions += 1;
        summary.wrong += usize::from(!solved.is_right());
        summary.nodes += solved.nodes;
        summary.elapsed += elapsed;
        line(&solved);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_files_are_read_with_comments_and_spaces_in_positions() {
        let text = "# a comment\n\nffo40 O--X X +38 # trailing\nfoo 8/8/8/8/8/8/8/8 b -2\n";
        let positions = read_positions(text).unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[0].name, "ffo40");
        assert_eq!(positions[0].position, "O--X X");
        assert_eq!(positions[0].expected, 38);
        assert_eq!(positions[1].expected, -2);
    }

    #[test]
    fn a_bad_line_is_named() {
        assert_eq!(
            read_positions("ok a b +1\nbad a b x\n").unwrap_err(),
            "line 2: 'x' is not a score"
        );
        assert!(read_positions("lonely +3\n")
            .unwrap_err()
            .starts_with("line 1"));
    }
}
