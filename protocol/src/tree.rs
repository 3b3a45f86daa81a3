//! The lines of a move tree written depth first, as XQF and CCBridge's
//! records write theirs: each move says whether the next record is the
//! move after it (else its line ends there) and whether an alternative to
//! it follows once everything below it is written. The first line is the
//! main line.

use crate::records::{RecordGame, RecordResult};

/// What a binary xiangqi record (XQF, CBR) says of its game besides the
/// moves.
pub(crate) struct Header {
    pub(crate) title: String,
    pub(crate) event: String,
    pub(crate) date: String,
    pub(crate) site: String,
    pub(crate) red: String,
    pub(crate) black: String,
    pub(crate) result: RecordResult,
}

/// The game of a record whose header says `header`, from `start` (`None`
/// for the standard start), its main line `moves`, then a game for each
/// of the other `lines` (see [`with_variations`]).
pub(crate) fn binary_games(
    header: Header,
    start: Option<String>,
    moves: Vec<String>,
    lines: Vec<Vec<String>>,
) -> Vec<RecordGame> {
    let event = if header.event.is_empty() {
        header.title
    } else {
        header.event
    };
    let date_place = [header.date, header.site]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let game = RecordGame {
        first: header.red,
        second: header.black,
        result: header.result,
        date_place,
        event,
        start,
        moves,
        written: Vec::new(),
        margin: None,
    };
    with_variations(game, lines)
}

/// `game` (its moves the main line), then a game for each of the other
/// `lines`, from the same start with the same names, its result not
/// given.
fn with_variations(game: RecordGame, lines: Vec<Vec<String>>) -> Vec<RecordGame> {
    let variations: Vec<RecordGame> = lines
        .into_iter()
        .map(|moves| RecordGame {
            moves,
            result: RecordResult::Unknown,
            ..game.clone()
        })
        .collect();
    std::iter::once(game).chain(variations).collect()
}

/// The lines read so far, and where the reading stands.
#[derive(Debug)]
pub(crate) struct Tree {
    /// Whether the variations are read (else the main line only).
    all: bool,
    /// The moves of the line being read.
    path: Vec<String>,
    /// For each move read that has an alternative still to come, how many
    /// moves come before it in its line, the latest last.
    pending: Vec<usize>,
    /// The lines read, each whole from the start.
    lines: Vec<Vec<String>>,
}

impl Tree {
    /// A tree to read, its variations too where `all`.
    pub(crate) fn new(all: bool) -> Tree {
        Tree {
            all,
            path: Vec::new(),
            pending: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// The moves before the next record's in its line.
    pub(crate) fn depth(&self) -> usize {
        self.path.len()
    }

    /// A move record: its move, whether the next record is the move after
    /// it, and whether an alternative to it follows. Whether more records
    /// belong to the tree (to be read).
    pub(crate) fn record(&mut self, mv: String, next: bool, alternative: bool) -> bool {
        let depth = self.path.len();
        self.path.push(mv);
        if alternative && self.all {
            self.pending.push(depth);
        }
        if next {
            return true;
        }
        self.lines.push(self.path.clone());
        match self.pending.pop() {
            Some(depth) => {
                self.path.truncate(depth);
                true
            }
            None => false,
        }
    }

    /// The lines, the main line first (an empty one where nothing was
    /// read).
    pub(crate) fn lines(mut self) -> Vec<Vec<String>> {
        if self.lines.is_empty() {
            self.lines.push(self.path);
        }
        self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read `records` (move, next, alternative) until the tree says the
    /// rest is not its own.
    fn read(all: bool, records: &[(&str, bool, bool)]) -> Vec<Vec<String>> {
        let mut tree = Tree::new(all);
        for &(mv, next, alternative) in records {
            if !tree.record(mv.to_string(), next, alternative) {
                break;
            }
        }
        tree.lines()
    }

    #[test]
    fn alternatives_come_after_the_line_below_them_deepest_first() {
        // a1 (alternative b1) a2 (alternative c2) a3; c2; b1 b2; then a
        // record that belongs to nothing.
        let records = [
            ("a1", true, true),
            ("a2", true, true),
            ("a3", false, false),
            ("c2", false, false),
            ("b1", true, false),
            ("b2", false, false),
            ("zz", false, false),
        ];
        let lines = read(true, &records);
        let lines: Vec<String> = lines.iter().map(|l| l.join(" ")).collect();
        assert_eq!(lines, ["a1 a2 a3", "a1 c2", "b1 b2"]);
        // The main line alone.
        assert_eq!(read(false, &records), [vec!["a1", "a2", "a3"]]);
        // Nothing read: one empty line.
        assert_eq!(read(true, &[]), [Vec::<String>::new()]);
    }
}
