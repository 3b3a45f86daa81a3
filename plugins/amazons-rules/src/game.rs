//! The Amazons state the host holds, and its [`Game`] implementation: the
//! board, the move number of its position text, the ordering hints and the
//! selective mode.
//!
//! # Ordering hints and the selective mode
//!
//! `order_hints` ([`hint_moves`]) scores each queen move by the queen-move
//! territory after it (a flood of both sides, [`queen_territory`]), and
//! the arrows of the best [`FLOODED_QUEEN_MOVES`] queen moves by the
//! territory after the arrow too. A local term from a few bitboards
//! computed once per node breaks ties: an arrow that takes a free square
//! from an enemy amazon, or lands where only the enemy reaches in one move,
//! scores up; an arrow that walls in one of our own amazons, or a queen
//! move to a square with fewer free neighbours than the one left, scores
//! down.
//!
//! With the `SelectiveWidth` option above 0, only the best `SelectiveWidth`
//! moves by that score keep their hint; the others get
//! [`HINT_SKIP`], which tells the search (below
//! the root, where the engine's `Selective` option allows it) not to search
//! them. The root always searches every move.

use std::sync::atomic::{AtomicU32, Ordering};

use plyd_api::abi::{CAP_REDUCTIONS, CAP_SELECTIVE, HINT_SKIP, NULL_MOVE};
use plyd_api::{Game, GameOption, GameOptionKind, Move, MoveSink, Outcome, Variant};

use crate::board::{arrow_sq, from_sq, squares, to_sq, Board, Geometry, Sq};
use crate::flood::{queen_step, queen_territory};
use crate::text;

/// Version of the state layout described in the crate docs.
pub const STATE_LAYOUT: u32 = 1;

/// Start position of the 10x10 game.
pub const START_10: &str = "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1";
/// Start position of the 8x8 game played on Botzone.
pub const START_8: &str = "2q2q2/8/q6q/8/8/Q6Q/8/2Q2Q2 w - - 0 1";

/// The option that picks how moves are written.
pub const MOVE_NOTATION_OPTION: &str = "MoveNotation";

/// The option that sets how many moves the search keeps below the root.
pub const SELECTIVE_WIDTH_OPTION: &str = "SelectiveWidth";
/// Default of `SelectiveWidth`.
pub const DEFAULT_SELECTIVE_WIDTH: u32 = 24;

/// Moves kept per node below the root (0: all). One setting for the whole
/// plugin.
static SELECTIVE_WIDTH: AtomicU32 = AtomicU32::new(DEFAULT_SELECTIVE_WIDTH);

/// Set the selective width (0: every move is searched).
pub fn set_selective_width(width: u32) {
    SELECTIVE_WIDTH.store(width, Ordering::Relaxed);
}

/// The selective width (0: every move is searched).
pub fn selective_width() -> u32 {
    SELECTIVE_WIDTH.load(Ordering::Relaxed)
}

/// An Amazons game.
///
/// `#[repr(C)]` so that `board` is at offset 0: its `size`, `side` and
/// `cells` are the layout external evaluators read ([`STATE_LAYOUT`]).
#[derive(Debug, Clone)]
#[repr(C)]
pub struct Amazons {
    board: Board,
    /// Move number of the position text at `set_position`.
    first_move_number: u32,
    /// Plies played since `set_position`.
    plies: u32,
    /// The side to move at `set_position`.
    first_side: u8,
}

impl Amazons {
    /// A game from a position text.
    pub fn from_fen(text: &str) -> Result<Self, String> {
        let parsed = text::parse_fen(text)?;
        Ok(Amazons {
            first_side: parsed.board.side,
            board: parsed.board,
            first_move_number: parsed.move_number,
            plies: 0,
        })
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The move number of the current position (it goes up after each move
    /// of the second player).
    pub fn move_number(&self) -> u32 {
        let second_moves = if self.first_side == 0 {
            self.plies / 2
        } else {
            self.plies.div_ceil(2)
        };
        self.first_move_number.saturating_add(second_moves)
    }
}

/// What the hint of every move of one node is built from.
struct HintTables {
    geometry: Geometry,
    /// Score of each arrow square.
    arrow: [i32; 128],
    /// Free neighbours of each square, with the mover's own from square
    /// counted free.
    free: [i8; 128],
}

impl HintTables {
    fn new(board: &Board) -> Self {
        let g = *board.geometry();
        let us = usize::from(board.side);
        let empty = board.empties();
        let their_liberties = g.neighbours(board.amazons[us ^ 1]) & empty;
        let our_liberties = g.neighbours(board.amazons[us]) & empty;
        let their_reach = queen_step(&g, board.amazons[us ^ 1], empty);
        let our_reach = queen_step(&g, board.amazons[us], empty);
        let mut arrow = [0i32; 128];
        let mut free = [0i8; 128];
        for sq in squares(g.mask) {
            let bit = 1u128 << sq;
            let mut score = 0;
            if their_liberties & bit != 0 {
                score += 6;
            }
            if our_liberties & bit != 0 {
                score -= 3;
            }
            if their_reach & bit != 0 && our_reach & bit == 0 {
                score += 2;
            } else if our_reach & bit != 0 && their_reach & bit == 0 {
                score -= 1;
            }
            arrow[usize::from(sq)] = score;
            free[usize::from(sq)] = (g.neighbours(bit) & empty).count_ones() as i8;
        }
        HintTables {
            geometry: g,
            arrow,
            free,
        }
    }

    #[inline]
    fn adjacent(&self, a: Sq, b: Sq) -> bool {
        let (af, ar) = self.geometry.file_rank(a);
        let (bf, br) = self.geometry.file_rank(b);
        af.abs_diff(bf) <= 1 && ar.abs_diff(br) <= 1
    }

    #[inline]
    fn hint(&self, mv: Move) -> i32 {
        let (from, to, arrow) = (from_sq(mv), to_sq(mv), arrow_sq(mv));
        // Free squares around the amazon after the move: the from square
        // becomes free, the arrow square stops being free.
        let mut free_to = i32::from(self.free[usize::from(to)]);
        if self.adjacent(from, to) {
            free_to += 1;
        }
        if self.adjacent(to, arrow) {
            free_to -= 1;
        }
        let free_from = i32::from(self.free[usize::from(from)]);
        let arrow_score = self.arrow[usize::from(arrow)];
        (arrow_score + 2 * (free_to - free_from)) * 16 + i32::from(self.centrality(to))
    }

    /// 0 on the edge, higher towards the middle (a tie-breaker).
    #[inline]
    fn centrality(&self, sq: Sq) -> u8 {
        let (f, r) = self.geometry.file_rank(sq);
        let n = self.geometry.size - 1;
        f.min(n - f) + r.min(n - r)
    }
}

impl Game for Amazons {
    const NAME: &'static str = "amazons";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const VARIANTS: &'static [Variant] = &[
        Variant {
            name: "amazons",
            start_position: START_10,
        },
        Variant {
            name: "amazons8",
            start_position: START_8,
        },
    ];
    // Late-move reductions are sound for a game whose moves are ordered by
    // hints; the null move is not declared, since passing is illegal and
    // endgames of separate regions are all about zugzwang-like counting.
    const CAPABILITIES: u64 = CAP_REDUCTIONS | CAP_SELECTIVE;
    const STATE_LAYOUT: u32 = STATE_LAYOUT;
    // Every ply puts an arrow on an empty square.
    const MAX_GAME_PLIES: u32 = 96;
    const HAS_ORDER_HINTS: bool = true;
    const HAS_IS_LEGAL: bool = true;
    const HAS_MOVE_KEYS: bool = true;
    const OPTIONS: &'static [GameOption] = &[
        GameOption {
            name: SELECTIVE_WIDTH_OPTION,
            kind: GameOptionKind::Spin {
                default: DEFAULT_SELECTIVE_WIDTH as i64,
                min: 0,
                max: 5000,
            },
        },
        GameOption {
            name: MOVE_NOTATION_OPTION,
            kind: GameOptionKind::Combo {
                default: "d1d7g7",
                choices: &["d1d7g7", "d1d7,d7g7"],
            },
        },
    ];

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        if name == MOVE_NOTATION_OPTION {
            match value {
                "d1d7g7" => text::set_two_part_moves(false),
                "d1d7,d7g7" => text::set_two_part_moves(true),
                _ => return Err(format!("'{value}' is not d1d7g7 or d1d7,d7g7")),
            }
            return Ok(());
        }
        if name != SELECTIVE_WIDTH_OPTION {
            return Err(format!("unknown option '{name}'"));
        }
        let width = value
            .parse::<u32>()
            .ok()
            .filter(|&w| w <= 5000)
            .ok_or_else(|| format!("'{value}' is not a move count in 0..=5000"))?;
        set_selective_width(width);
        Ok(())
    }

    fn new(variant: usize) -> Self {
        let start = if variant == 1 { START_8 } else { START_10 };
        Amazons::from_fen(start).expect("the start position parses")
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        *self = Amazons::from_fen(text)?;
        Ok(())
    }

    fn position_text(&self) -> String {
        text::format_fen(&self.board, self.move_number())
    }

    #[inline]
    fn side_to_move(&self) -> u32 {
        u32::from(self.board.side)
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        if self.board.has_legal_move() {
            Outcome::Ongoing
        } else {
            Outcome::Loss
        }
    }

    const HAS_OUTCOME_REASON: bool = true;

    /// The side that cannot move, as the board shows it (`Q` moves
    /// first): `q has no move (every amazon of it walled in)`; empty while
    /// the game goes on.
    fn outcome_reason(&self) -> String {
        if self.board.has_legal_move() {
            return String::new();
        }
        let side = if self.board.side == 0 { "Q" } else { "q" };
        format!("{side} has no move (every amazon of it walled in)")
    }

    #[inline]
    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        self.board.for_each_move(|mv| moves.push(mv));
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.board.is_legal(mv)
    }

    const HAS_ILLEGAL_REASON: bool = true;

    /// What is wrong with the amazon's square, its way or the arrow's;
    /// empty for a legal move and one off the board.
    fn illegal_reason(&self, mv: Move) -> String {
        let board = &self.board;
        let geometry = board.geometry();
        let (from, to, arrow) = (from_sq(mv), to_sq(mv), arrow_sq(mv));
        if mv >> 24 != 0
            || board.is_legal(mv)
            || ![from, to, arrow]
                .into_iter()
                .all(|sq| geometry.on_board(sq))
        {
            return String::new();
        }
        let name = |sq: Sq| text::square_name(geometry, sq);
        let what = |sq: Sq| match board.at(sq) {
            crate::board::ARROW => "an arrow",
            crate::board::EMPTY => "nothing",
            _ => "an amazon",
        };
        let ours = board.amazons[usize::from(board.side)];
        if ours >> from & 1 == 0 {
            return if board.amazons[usize::from(board.side ^ 1)] >> from & 1 != 0 {
                format!("the amazon on {} is the other side's", name(from))
            } else {
                format!(
                    "{} stands on {}, not an amazon of the side to move",
                    what(from),
                    name(from)
                )
            };
        }
        let empty = board.empties();
        if from == to {
            return "an amazon must move before it shoots".to_string();
        }
        if !board.on_queen_line(from, to) {
            return format!(
                "an amazon moves along a line, as a chess queen does, and {} is not on one from {}",
                name(to),
                name(from)
            );
        }
        if !board.is_empty(to) {
            return format!("{} holds {}", name(to), what(to));
        }
        if let Some(sq) = board.first_in_way(from, to, empty) {
            return format!("{} ({}) stands in the amazon's way", name(sq), what(sq));
        }
        // The amazon has moved: its first square is empty now.
        let empty = empty & !(1u128 << to) | 1u128 << from;
        if arrow == to {
            return "the arrow must fly from the amazon's new square to another".to_string();
        }
        if !board.on_queen_line(to, arrow) {
            return format!(
                "the arrow flies along a line from {}, and {} is not on one",
                name(to),
                name(arrow)
            );
        }
        if empty >> arrow & 1 == 0 {
            return format!("{} holds {}", name(arrow), what(arrow));
        }
        match board.first_in_way(to, arrow, empty) {
            Some(sq) => format!("{} ({}) stands in the arrow's way", name(sq), what(sq)),
            None => String::new(),
        }
    }

    #[inline]
    fn make_move(&mut self, mv: Move) {
        if mv == NULL_MOVE {
            self.board.pass();
        } else {
            self.board.play(mv);
        }
        self.plies += 1;
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move) {
        // As the other games: a take-back with none made since the
        // position was set is a host's bug, an error at the boundary (it
        // turned an amazon of one side into the other's, the move number
        // wrapping).
        assert!(
            self.plies > 0,
            "unmake_move called with no move to take back"
        );
        if mv == NULL_MOVE {
            self.board.pass();
        } else {
            self.board.take_back(mv);
        }
        self.plies -= 1;
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        text::parse_move(self.board.geometry(), text)
    }

    fn format_move(&self, mv: Move) -> String {
        text::format_move(self.board.geometry(), mv)
    }

    fn board_text(&self) -> String {
        text::board_picture(&self.board)
    }

    fn order_hints(&self, moves: &[Move], scores: &mut [i32]) {
        hint_moves(&self.board, moves, scores);
        let width = selective_width() as usize;
        if width > 0 && moves.len() > width {
            mark_skipped(scores, width);
        }
    }

    /// The amazon's target square and the arrow's square (the square it
    /// came from left out): what the move does to the board's regions.
    fn move_keys(&self, moves: &[Move], keys: &mut [u32]) {
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = u32::from(to_sq(mv) & 0x7f) << 7 | u32::from(arrow_sq(mv) & 0x7f);
        }
    }

    fn perft(&mut self, depth: u32) -> u64 {
        crate::perft::perft(&mut self.board, depth)
    }
}

/// Queen moves whose arrows are each scored by a territory flood.
pub const FLOODED_QUEEN_MOVES: usize = 10;

/// Score every move of `moves` (see the module docs): each queen move by
/// the queen-move territory after it, the arrows of the best
/// [`FLOODED_QUEEN_MOVES`] queen moves by the territory after the arrow
/// too, the others by the arrow's local value.
pub fn hint_moves(board: &Board, moves: &[Move], scores: &mut [i32]) {
    let tables = HintTables::new(board);
    let g = board.geometry();
    let us = usize::from(board.side);
    let (mine, theirs) = (board.amazons[us], board.amazons[us ^ 1]);
    let empty = board.empties();
    // One slot per amazon and target square.
    let mut froms = [u8::MAX; 128];
    for (i, sq) in squares(mine).enumerate() {
        froms[usize::from(sq)] = i as u8;
    }
    let slot =
        |mv: Move| usize::from(froms[usize::from(from_sq(mv))]) * 128 + usize::from(to_sq(mv));
    let mut queen = vec![i32::MIN; mine.count_ones() as usize * 128];
    let mut distinct = Vec::with_capacity(256);
    for &mv in moves {
        let key = slot(mv);
        if queen[key] == i32::MIN {
            let moved = 1u128 << from_sq(mv) | 1u128 << to_sq(mv);
            queen[key] = queen_territory(g, mine ^ moved, theirs, empty ^ moved);
            distinct.push(key);
        }
    }
    // The best queen moves get every arrow flooded.
    let top = FLOODED_QUEEN_MOVES.min(distinct.len());
    if top > 0 && top < distinct.len() {
        distinct.select_nth_unstable_by(top - 1, |&a, &b| queen[b].cmp(&queen[a]));
    }
    let mut flooded = vec![false; queen.len()];
    for &key in &distinct[..top] {
        flooded[key] = true;
    }
    for (&mv, score) in moves.iter().zip(scores.iter_mut()) {
        let key = slot(mv);
        let local = tables.hint(mv);
        *score = if flooded[key] {
            let moved = 1u128 << from_sq(mv) | 1u128 << to_sq(mv);
            let arrow = 1u128 << arrow_sq(mv);
            let after = queen_territory(g, mine ^ moved, theirs, (empty ^ moved) & !arrow);
            after * 256 + local
        } else {
            queen[key] * 256 + local
        };
    }
}

/// Keep the `width` best scores (ties broken by list order) and mark the
/// others [`HINT_SKIP`].
fn mark_skipped(scores: &mut [i32], width: usize) {
    let mut order: Vec<u32> = (0..scores.len() as u32).collect();
    order.select_nth_unstable_by(width - 1, |&a, &b| {
        scores[b as usize].cmp(&scores[a as usize]).then(a.cmp(&b))
    });
    for &i in &order[width..] {
        scores[i as usize] = HINT_SKIP;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves_of(game: &Amazons) -> Vec<Move> {
        let mut moves = Vec::new();
        game.board.for_each_move(|mv| moves.push(mv));
        moves
    }

    /// The next number of the xorshift sequence whose state is `state`.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn a_finished_game_names_the_side_that_cannot_move() {
        let mut game = Amazons::new(1);
        assert_eq!(game.outcome_reason(), "");
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        loop {
            let moves = moves_of(&game);
            if moves.is_empty() {
                break;
            }
            game.make_move(moves[(xorshift(&mut rng) % moves.len() as u64) as usize]);
        }
        let side = if game.board.side == 0 { "Q" } else { "q" };
        assert_eq!(game.outcome(), Outcome::Loss);
        assert_eq!(
            game.outcome_reason(),
            format!("{side} has no move (every amazon of it walled in)")
        );
    }

    #[test]
    fn a_refused_move_says_which_rule_it_breaks() {
        let game = Amazons::new(0);
        let why = |text: &str| {
            let mv = game.parse_move(text).expect("a move");
            game.illegal_reason(mv)
        };
        assert_eq!(why("d1d7g7"), "", "a legal move has no reason against it");
        assert_eq!(why("a7a6a5"), "the amazon on a7 is the other side's");
        assert_eq!(
            why("e5e6e7"),
            "nothing stands on e5, not an amazon of the side to move"
        );
        assert_eq!(
            why("d1e3e4"),
            "an amazon moves along a line, as a chess queen does, and e3 is not on one from d1"
        );
        assert_eq!(why("d1a4a5"), "a4 holds an amazon");
        assert_eq!(why("a4a9a8"), "a7 (an amazon) stands in the amazon's way");
        assert_eq!(why("d1d1d2"), "an amazon must move before it shoots");
        assert_eq!(
            why("d1d7d7"),
            "the arrow must fly from the amazon's new square to another"
        );
        assert_eq!(
            why("d1d7e9"),
            "the arrow flies along a line from d7, and e9 is not on one"
        );
        assert_eq!(why("d1d7d10"), "d10 holds an amazon");
        assert_eq!(why("d1e1j1"), "g1 (an amazon) stands in the arrow's way");
        assert_eq!(why("d1d7a10"), "", "a clear diagonal");
        // An amazon walled in by an arrow.
        let mut walled = Amazons::new(0);
        walled.make_move(walled.parse_move("d1d7d2").expect("a move"));
        walled.make_move(walled.parse_move("a7b7a7").expect("a move"));
        let mv = walled.parse_move("d7d1d3").expect("a move");
        assert_eq!(
            walled.illegal_reason(mv),
            "d2 (an arrow) stands in the amazon's way"
        );
        // Over random games on the 8x8 board: a reason exactly where a
        // move is not legal, for every move and many triples of squares.
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || xorshift(&mut rng);
        for _ in 0..10 {
            let mut game = Amazons::new(1);
            let geometry = *game.board.geometry();
            let squares: Vec<Sq> = (0..128).filter(|&sq| geometry.on_board(sq)).collect();
            loop {
                let moves = moves_of(&game);
                for &mv in &moves {
                    assert_eq!(game.illegal_reason(mv), "");
                }
                for _ in 0..3000 {
                    let pick = |r: u64| squares[(r % squares.len() as u64) as usize];
                    let mv = crate::board::make_move(pick(next()), pick(next()), pick(next()));
                    let reason = game.illegal_reason(mv);
                    assert_eq!(reason.is_empty(), moves.contains(&mv), "{mv:x}: {reason}");
                }
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(next() % moves.len() as u64) as usize];
                game.make_move(mv);
            }
        }
    }

    #[test]
    #[should_panic(expected = "no move to take back")]
    fn a_take_back_with_no_move_made_is_refused() {
        let mut game = Amazons::new(0);
        let mv = moves_of(&game)[0];
        game.make_move(mv);
        game.unmake_move(mv);
        game.unmake_move(mv);
    }

    #[test]
    fn move_keys_name_the_target_and_the_arrow() {
        for variant in 0..2 {
            let game = Amazons::new(variant);
            let moves = moves_of(&game);
            let mut keys = vec![0; moves.len()];
            game.move_keys(&moves, &mut keys);
            for (&mv, &key) in moves.iter().zip(&keys) {
                assert!(key < plyd_api::abi::MOVE_KEY_LIMIT);
                assert_eq!(key & plyd_api::abi::MOVE_KEY_NOISY, 0);
                // Moves to the same square with the same arrow share a key
                // whichever amazon makes them; any other pair does not.
                for (&other, &other_key) in moves.iter().zip(&keys) {
                    let same = to_sq(mv) == to_sq(other) && arrow_sq(mv) == arrow_sq(other);
                    assert_eq!(key == other_key, same);
                }
            }
        }
    }

    #[test]
    fn the_selective_width_keeps_exactly_the_best_hints() {
        let game = Amazons::new(0);
        let moves = moves_of(&game);
        let mut plain = vec![0; moves.len()];
        hint_moves(&game.board, &moves, &mut plain);
        let mut marked = plain.clone();
        mark_skipped(&mut marked, 24);
        let kept: Vec<usize> = (0..moves.len())
            .filter(|&i| marked[i] != HINT_SKIP)
            .collect();
        assert_eq!(kept.len(), 24);
        let lowest_kept = kept.iter().map(|&i| plain[i]).min().unwrap();
        let highest_skipped = (0..moves.len())
            .filter(|&i| marked[i] == HINT_SKIP)
            .map(|i| plain[i])
            .max()
            .unwrap();
        assert!(lowest_kept >= highest_skipped);
        for &i in &kept {
            assert_eq!(marked[i], plain[i]);
        }
    }

    #[test]
    fn the_best_hint_shuts_in_the_last_enemy_amazon() {
        // The second player's only amazon on a10 has one free square, b9.
        let game = Amazons::from_fen("q*8/*9/10/10/10/10/10/10/10/4Q5 w").unwrap();
        let moves = moves_of(&game);
        let mut hints = vec![0; moves.len()];
        hint_moves(&game.board, &moves, &mut hints);
        let best = (0..moves.len()).max_by_key(|&i| hints[i]).unwrap();
        let text = text::format_move(game.board.geometry(), moves[best]);
        assert!(text.ends_with("b9"), "{text}");
    }
}
