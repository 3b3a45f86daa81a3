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

/// One line of a move tree: its moves from the start, and the comments
/// along it, each with the number of moves before it (as text, or as a
/// record's bytes before they are read as text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Line<C = String> {
    pub(crate) moves: Vec<String>,
    pub(crate) comments: Vec<(usize, C)>,
}

/// The game of a record whose header says `header`, from `start` (`None`
/// for the standard start): its main line, the first of `lines`, then a
/// game for each of the others (see [`with_variations`]).
pub(crate) fn binary_games(
    header: Header,
    start: Option<String>,
    lines: Vec<Line>,
) -> Vec<RecordGame> {
    let event = if header.event.is_empty() {
        header.title
    } else {
        header.event
    };
    // The date and site as tags too, for a writer that keeps them apart.
    let tags = [("Date", &header.date), ("Site", &header.site)]
        .into_iter()
        .filter(|(_, value)| !value.is_empty())
        .map(|(name, value)| (name.to_string(), value.clone()))
        .collect();
    let date_place = [header.date, header.site]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let mut lines = lines.into_iter();
    let main = lines.next().unwrap_or_default();
    let game = RecordGame {
        first: header.red,
        second: header.black,
        result: header.result,
        date_place,
        event,
        start,
        moves: main.moves,
        written: Vec::new(),
        margin: None,
        ending: None,
        comments: main.comments,
        tags,
    };
    with_variations(game, lines)
}

/// `game` (its moves the main line), then a game for each of the other
/// `lines`, from the same start with the same names, its result not
/// given.
fn with_variations(game: RecordGame, lines: impl Iterator<Item = Line>) -> Vec<RecordGame> {
    let variations: Vec<RecordGame> = lines
        .map(|line| RecordGame {
            moves: line.moves,
            comments: line.comments,
            result: RecordResult::Unknown,
            ..game.clone()
        })
        .collect();
    std::iter::once(game).chain(variations).collect()
}

/// The most moves the lines read from one file may hold, all lines
/// together, each counted from the start (a tree's lines share their
/// first moves, so a file of a few kilobytes could otherwise give lines
/// of billions of moves): many times the largest opening manuals'.
pub const LINE_MOVES_LIMIT: usize = 2_000_000;

/// The error for a file whose lines would hold more than
/// [`LINE_MOVES_LIMIT`] moves, `whose` lines they are (`its`); `all`:
/// with its variations.
pub(crate) fn too_many_moves(all: bool, whose: &str) -> String {
    let limit = LINE_MOVES_LIMIT;
    if all {
        format!("{whose} lines hold more than {limit} moves in all, each counted from the start: too many to give (read it without --variations)")
    } else {
        format!("{whose} moves are more than {limit}: too many to give")
    }
}

/// The lines read so far, and where the reading stands.
#[derive(Debug)]
pub(crate) struct Tree<C = String> {
    /// Whether the variations are read (else the main line only).
    all: bool,
    /// The most moves the lines may hold (see [`LINE_MOVES_LIMIT`]), and
    /// how many those read hold.
    limit: usize,
    used: usize,
    /// The line being read: its moves and their comments.
    path: Line<C>,
    /// For each move read that has an alternative still to come, how many
    /// moves come before it in its line, the latest last.
    pending: Vec<usize>,
    /// The lines read, each whole from the start.
    lines: Vec<Line<C>>,
}

impl<C: Clone + Default> Tree<C> {
    /// A tree to read, its variations too where `all`, its lines holding
    /// at most `limit` moves.
    pub(crate) fn new(all: bool, limit: usize) -> Tree<C> {
        Tree {
            all,
            limit,
            used: 0,
            path: Line::default(),
            pending: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// The moves before the next record's in its line.
    pub(crate) fn depth(&self) -> usize {
        self.path.moves.len()
    }

    /// The start's comment (its record's), where it has one.
    pub(crate) fn start_comment(&mut self, comment: Option<C>) {
        if let Some(comment) = comment {
            self.path.comments.push((0, comment));
        }
    }

    /// A move record: its move and comment, whether the next record is
    /// the move after it, and whether an alternative to it follows.
    /// Whether more records belong to the tree (to be read); an error
    /// where the lines would hold more moves than their limit.
    pub(crate) fn record(
        &mut self,
        mv: String,
        comment: Option<C>,
        next: bool,
        alternative: bool,
    ) -> Result<bool, String> {
        let depth = self.path.moves.len();
        if self.used + depth >= self.limit {
            return Err(too_many_moves(self.all, "its"));
        }
        self.path.moves.push(mv);
        if let Some(comment) = comment {
            self.path.comments.push((depth + 1, comment));
        }
        if alternative && self.all {
            self.pending.push(depth);
        }
        if next {
            return Ok(true);
        }
        self.used += self.path.moves.len();
        self.lines.push(self.path.clone());
        Ok(match self.pending.pop() {
            Some(depth) => {
                self.path.moves.truncate(depth);
                self.path.comments.retain(|&(at, _)| at <= depth);
                true
            }
            None => false,
        })
    }

    /// The lines, the main line first (an empty one where nothing was
    /// read).
    pub(crate) fn lines(mut self) -> Vec<Line<C>> {
        if self.lines.is_empty() {
            self.lines.push(self.path);
        }
        self.lines
    }
}

/// Lines from one start merged into a tree: node 0 is the start, each
/// other node a move, its children the moves played after it in the order
/// the lines first play them (so the first line is the first child's, all
/// the way down). A line that another begins with adds nothing.
#[derive(Debug)]
pub(crate) struct MoveTree {
    nodes: Vec<Node>,
}

#[derive(Debug)]
struct Node {
    /// Its move (the start's is empty).
    mv: String,
    /// The comments on the position it reaches.
    comments: Vec<String>,
    /// Its number of moves from the start.
    depth: usize,
    /// The moves played after it, the main one first.
    children: Vec<usize>,
}

impl MoveTree {
    /// The tree of `lines` (moves, and comments each with the number of
    /// moves before it), the main line first. A position's comments are
    /// those of the first line that has some there.
    pub(crate) fn new<'a>(
        lines: impl IntoIterator<Item = (&'a [String], &'a [(usize, String)])>,
    ) -> MoveTree {
        let mut nodes = vec![Node {
            mv: String::new(),
            comments: Vec::new(),
            depth: 0,
            children: Vec::new(),
        }];
        for (line, comments) in lines {
            let mut at = 0;
            let mut path = vec![0];
            for mv in line {
                let found = nodes[at]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| nodes[c].mv == *mv);
                at = found.unwrap_or_else(|| {
                    let child = nodes.len();
                    nodes.push(Node {
                        mv: mv.clone(),
                        comments: Vec::new(),
                        depth: nodes[at].depth + 1,
                        children: Vec::new(),
                    });
                    nodes[at].children.push(child);
                    child
                });
                path.push(at);
            }
            // Each position's comments from the first line with some.
            let mut given = vec![false; path.len()];
            for (ply, text) in comments {
                let Some(&node) = path.get(*ply) else {
                    continue;
                };
                if nodes[node].comments.is_empty() || given[*ply] {
                    given[*ply] = true;
                    nodes[node].comments.push(text.clone());
                }
            }
        }
        MoveTree { nodes }
    }

    /// How many nodes, the start's included.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The move of `node`.
    pub(crate) fn mv(&self, node: usize) -> &str {
        &self.nodes[node].mv
    }

    /// The comments on the position `node` reaches (node 0: the start).
    pub(crate) fn comments(&self, node: usize) -> &[String] {
        &self.nodes[node].comments
    }

    /// The number of moves from the start to `node` (its move the last).
    pub(crate) fn depth(&self, node: usize) -> usize {
        self.nodes[node].depth
    }

    /// The moves played after `node`, the main one first.
    pub(crate) fn children(&self, node: usize) -> &[usize] {
        &self.nodes[node].children
    }

    /// The moves in the order a depth-first record writes them (XQF,
    /// CCBridge): a move, everything after it, then the alternatives to
    /// it, each the same way. With each: whether a move follows it, and
    /// whether an alternative to it follows once all after it is written.
    pub(crate) fn depth_first(&self) -> Vec<(usize, bool, bool)> {
        let mut out = Vec::with_capacity(self.nodes.len().saturating_sub(1));
        // Each node being written, and its next child to write.
        let mut stack = vec![(0usize, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            let children = &self.nodes[node].children;
            let Some(&child) = children.get(next) else {
                stack.pop();
                continue;
            };
            top.1 += 1;
            let follows = !self.nodes[child].children.is_empty();
            out.push((child, follows, next + 1 < children.len()));
            stack.push((child, 0));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read `records` (move, next, alternative) until the tree says the
    /// rest is not its own.
    fn read(all: bool, records: &[(&str, bool, bool)]) -> Vec<Vec<String>> {
        let mut tree: Tree = Tree::new(all, LINE_MOVES_LIMIT);
        for &(mv, next, alternative) in records {
            if !tree
                .record(mv.to_string(), None, next, alternative)
                .unwrap()
            {
                break;
            }
        }
        tree.lines().into_iter().map(|line| line.moves).collect()
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

    #[test]
    fn lines_merged_into_a_tree_are_written_depth_first_and_read_back() {
        let line = |moves: &str| moves.split(' ').map(str::to_string).collect::<Vec<_>>();
        let lines = [
            line("a1 a2 a3"),
            line("a1 c2"),
            line("b1 b2"),
            line("a1 c2 c3 c4"),
            line("a1 a2 d3"),
            // Begun by another: nothing new.
            line("a1 a2"),
        ];
        let tree = MoveTree::new(lines.iter().map(|l| (&l[..], &[][..])));
        assert_eq!(tree.len(), 10);
        let records: Vec<(&str, bool, bool)> = tree
            .depth_first()
            .into_iter()
            .map(|(node, next, alternative)| (tree.mv(node), next, alternative))
            .collect();
        assert_eq!(
            records,
            [
                ("a1", true, true),
                ("a2", true, true),
                ("a3", false, true),
                ("d3", false, false),
                ("c2", true, false),
                ("c3", true, false),
                ("c4", false, false),
                ("b1", true, false),
                ("b2", false, false),
            ]
        );
        let read: Vec<String> = read(true, &records).iter().map(|l| l.join(" ")).collect();
        assert_eq!(read, ["a1 a2 a3", "a1 a2 d3", "a1 c2 c3 c4", "b1 b2"]);
        let c4 = (0..tree.len()).find(|&n| tree.mv(n) == "c4").unwrap();
        assert_eq!(tree.depth(c4), 4);
    }
}
