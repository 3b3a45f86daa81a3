//! The xiangqi state the host holds, and its [`Game`] implementation: a
//! position, the moves played since `set_position` (for unmake and the
//! repetition judgement), and the plies since the last capture.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};

use plyd_api::abi::NULL_MOVE;
use plyd_api::{Game, GameOption, GameOptionKind, Move, MoveSink, Outcome, SeeAnswer, Variant};

use crate::board::{kind_of, to_sq, Position, CANNON, CHARIOT, HORSE};
use crate::judge::{judge, judge_why, Verdict};
use crate::text;

/// Version of the state layout described in the crate docs.
pub const STATE_LAYOUT: u32 = 1;

/// The option that picks the rank numbering of move text.
pub const MOVE_RANKS_OPTION: &str = "MoveRanks";
/// The option that sets the no-capture draw.
pub const NO_CAPTURE_OPTION: &str = "NoCaptureDrawPlies";

/// Default of the no-capture draw: 120 plies (60 moves each).
pub const DEFAULT_NO_CAPTURE_PLIES: u32 = 120;

/// Plies without a capture after which the game is drawn (the
/// `NoCaptureDrawPlies` option; 0 turns the rule off). One setting for the
/// whole plugin.
static NO_CAPTURE_PLIES: AtomicU32 = AtomicU32::new(DEFAULT_NO_CAPTURE_PLIES);

/// Set the no-capture draw length (0: never).
pub fn set_no_capture_plies(plies: u32) {
    NO_CAPTURE_PLIES.store(plies, Ordering::Relaxed);
}

/// The no-capture draw length (0: never).
pub fn no_capture_plies() -> u32 {
    NO_CAPTURE_PLIES.load(Ordering::Relaxed)
}

/// One move played, with what unmake and the repetition scan need.
#[derive(Debug, Clone, Copy)]
struct Played {
    mv: Move,
    captured: u8,
    /// Hash of the position before the move.
    hash_before: u64,
    /// Plies since the last capture before the move.
    quiet_before: u32,
}

/// A xiangqi game.
///
/// `#[repr(C)]` so that `position` is at offset 0: its `board` and `side`
/// are the layout external evaluators read ([`STATE_LAYOUT`]).
#[derive(Debug)]
#[repr(C)]
pub struct Xiangqi {
    position: Position,
    history: Vec<Played>,
    /// Plies since the last capture (seeded from the FEN).
    quiet_plies: u32,
    /// Move number at `set_position`, for the FEN written back.
    first_move_number: u32,
    /// The outcome of this position once computed ([`UNKNOWN`] before):
    /// the search asks `outcome` and then `gen_moves` of one position, and
    /// both need it.
    outcome: Cell<u8>,
}

const UNKNOWN: u8 = u8::MAX;

/// Room a copy keeps past its history for the moves a search makes on
/// it: a copy of a long game (a `position` line of 1.6 million plies)
/// would otherwise double its history at the search's first move, as
/// much memory again as the copy (an address-space limit of 256 MiB
/// ended the process there).
const SEARCH_ROOM: usize = 1024;

impl Clone for Xiangqi {
    fn clone(&self) -> Self {
        let mut history = Vec::with_capacity(self.history.len() + SEARCH_ROOM);
        history.extend_from_slice(&self.history);
        Xiangqi {
            position: self.position,
            history,
            quiet_plies: self.quiet_plies,
            first_move_number: self.first_move_number,
            outcome: self.outcome.clone(),
        }
    }
}

impl Xiangqi {
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plies since the last capture.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// Number of moves `unmake_move` can take back.
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// The outcome, cached per position.
    fn cached_outcome(&self) -> Outcome {
        let cached = self.outcome.get();
        if cached != UNKNOWN {
            return Outcome::from_code(i32::from(cached)).unwrap_or(Outcome::Ongoing);
        }
        let outcome = self.compute_outcome();
        self.outcome.set(outcome.code() as u8);
        outcome
    }

    fn compute_outcome(&self) -> Outcome {
        // No legal move loses, checkmate and stalemate alike.
        if !self.position.has_legal_move() {
            return Outcome::Loss;
        }
        if let Some(verdict) = self.repetition() {
            return match verdict {
                Verdict::Win => Outcome::Win,
                Verdict::Loss => Outcome::Loss,
                Verdict::Draw => Outcome::Draw,
            };
        }
        if self.position.no_attackers() {
            return Outcome::Draw;
        }
        let limit = no_capture_plies();
        if limit > 0 && self.quiet_plies >= limit {
            return Outcome::Draw;
        }
        Outcome::Ongoing
    }

    /// The verdict if this position occurs for the third time.
    fn repetition(&self) -> Option<Verdict> {
        self.repeated_from().map(|start| {
            let (position, moves) = self.span_from(start);
            judge(&position, &moves)
        })
    }

    /// Where the span judged for a repetition starts in `history`, if this
    /// position occurs for the third time.
    fn repeated_from(&self) -> Option<usize> {
        let n = self.history.len();
        let hash = self.position.hash;
        // Back to the last capture, and with the no-capture draw on, no
        // further than its plies: past them the game was drawn by that
        // rule before any repetition further back could come round again
        // (a history of a million quiet plies, which a `position` line of
        // 8 MiB holds, made every node scan it all).
        let limit = no_capture_plies() as usize;
        let quiet = self.quiet_plies as usize;
        let window = if limit > 0 { quiet.min(limit) } else { quiet }.min(n);
        let mut seen = 0;
        for back in 1..=window {
            let played = &self.history[n - back];
            if played.mv == NULL_MOVE {
                break;
            }
            if back % 2 == 0 && played.hash_before == hash {
                seen += 1;
                if seen == 2 {
                    return Some(n - back);
                }
            }
        }
        None
    }

    /// The position at `history[start]` and the moves from it to now: the
    /// span a repetition is judged on.
    fn span_from(&self, start: usize) -> (Position, Vec<Move>) {
        let mut position = self.position;
        for played in self.history[start..].iter().rev() {
            position.take_back(played.mv, played.captured);
        }
        let moves: Vec<Move> = self.history[start..].iter().map(|p| p.mv).collect();
        (position, moves)
    }

    /// Why [`Game::outcome`] is what it is: the rule that ended the game.
    fn why(&self) -> String {
        match self.cached_outcome() {
            Outcome::Ongoing => String::new(),
            _ if !self.position.has_legal_move() => if self.position.in_check() {
                "checkmate"
            } else {
                "stalemate"
            }
            .to_string(),
            _ => match self.repeated_from() {
                Some(start) => {
                    let (position, moves) = self.span_from(start);
                    format!("third repetition, {}", judge_why(&position, &moves).1)
                }
                None if self.position.no_attackers() => {
                    "no chariot, horse, cannon or pawn left on either side".to_string()
                }
                None => format!("{} plies without a capture", self.quiet_plies),
            },
        }
    }
}

/// Move-ordering value of each piece kind (index by kind).
const ORDER_VALUE: [i32; 8] = [0, 1000, 20, 20, 40, 90, 45, 10];

impl Game for Xiangqi {
    const NAME: &'static str = "xiangqi";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const VARIANTS: &'static [Variant] = &[Variant {
        name: "xiangqi",
        start_position: text::START_FEN,
    }];
    // Null move (guarded by `null_move_ok`), late-move reductions and
    // futility are declared; each one's worth in arena games is in
    // docs/xiangqi.md (futility: +74 +/- 61 Elo over 100 games).
    const CAPABILITIES: u64 =
        plyd_api::abi::CAP_NULL_MOVE | plyd_api::abi::CAP_REDUCTIONS | plyd_api::abi::CAP_FUTILITY;
    const STATE_LAYOUT: u32 = STATE_LAYOUT;
    const HAS_NOISY_MOVES: bool = true;
    const HAS_ORDER_HINTS: bool = true;
    const HAS_CHECK: bool = true;
    const HAS_GIVES_CHECK: bool = true;
    const HAS_IS_LEGAL: bool = true;
    const HAS_NULL_MOVE_GUARD: bool = true;
    const HAS_SEE: bool = true;
    const HAS_MOVE_KEYS: bool = true;
    const OPTIONS: &'static [GameOption] = &[
        GameOption {
            name: MOVE_RANKS_OPTION,
            kind: GameOptionKind::Combo {
                default: "0-9",
                choices: &["0-9", "1-10"],
            },
        },
        GameOption {
            name: NO_CAPTURE_OPTION,
            kind: GameOptionKind::Spin {
                default: DEFAULT_NO_CAPTURE_PLIES as i64,
                min: 0,
                max: 1000,
            },
        },
    ];

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        if name == MOVE_RANKS_OPTION {
            match value {
                "0-9" => text::set_ranks_from_one(false),
                "1-10" => text::set_ranks_from_one(true),
                _ => return Err(format!("'{value}' is not 0-9 or 1-10")),
            }
        } else if name == NO_CAPTURE_OPTION {
            let plies = value
                .parse::<u32>()
                .ok()
                .filter(|&p| p <= 1000)
                .ok_or_else(|| format!("'{value}' is not a ply count in 0..=1000"))?;
            set_no_capture_plies(plies);
        } else {
            return Err(format!("unknown option '{name}'"));
        }
        Ok(())
    }

    /// With no chariot, horse or cannon left, the side to move is often in
    /// zugzwang, and passing would overstate its position.
    fn null_move_ok(&self) -> bool {
        has_attacking_pieces(&self.position)
    }

    fn new(_variant: usize) -> Self {
        let parsed = text::parse_fen(text::START_FEN).expect("the start position parses");
        Xiangqi {
            position: parsed.position,
            history: Vec::with_capacity(256),
            quiet_plies: 0,
            first_move_number: 1,
            outcome: Cell::new(UNKNOWN),
        }
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        let parsed = text::parse_fen(text)?;
        self.position = parsed.position;
        self.quiet_plies = parsed.quiet_plies;
        self.first_move_number = parsed.move_number.max(1);
        self.history.clear();
        self.outcome.set(UNKNOWN);
        Ok(())
    }

    fn position_text(&self) -> String {
        // The move number goes up after each Black move.
        let plies = self.history.len() as u32;
        let red_first = self.position.side() as u32 == plies % 2;
        let black_moves = if red_first {
            plies / 2
        } else {
            plies.div_ceil(2)
        };
        text::format_fen(
            &self.position,
            self.quiet_plies,
            self.first_move_number + black_moves,
        )
    }

    #[inline]
    fn side_to_move(&self) -> u32 {
        self.position.side() as u32
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        self.cached_outcome()
    }

    /// Every move the pieces may make, whatever `outcome` says: only a
    /// side with no move has lost for good. A repetition or no-capture
    /// verdict is the arbiter's to apply (and its rules may differ from
    /// these), so the moves stay listed and legal after one: the search
    /// scores such a position by the verdict below the root and, asked to
    /// move there, still plays.
    #[inline]
    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        self.position.legal_moves(false, &mut |mv| moves.push(mv));
    }

    fn generate_noisy(&self, moves: &mut MoveSink<'_>) {
        self.position.legal_moves(true, &mut |mv| moves.push(mv));
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.position.is_legal(mv)
    }

    fn in_check(&self) -> bool {
        self.position.in_check()
    }

    const HAS_OUTCOME_REASON: bool = true;

    fn outcome_reason(&self) -> String {
        self.why()
    }

    const HAS_ILLEGAL_REASON: bool = true;

    fn illegal_reason(&self, mv: Move) -> String {
        crate::why::illegal_reason(&self.position, mv)
    }

    /// The general of the side not to move is attacked once `mv` is played:
    /// the same test as `in_check` after the move, on a copy of the board.
    fn gives_check(&self, mv: Move) -> Option<bool> {
        Some(self.position.gives_check(mv))
    }

    /// Exact over legal captures on the target square, pins and facing
    /// generals included (see [`crate::see`]).
    fn see_ge(&self, mv: Move, threshold: i32) -> Option<SeeAnswer> {
        let passes = crate::see::see_ge(&self.position, mv, threshold)?;
        Some(SeeAnswer {
            passes,
            noisy: self.position.board[to_sq(mv)] != crate::board::EMPTY,
        })
    }

    /// The moved piece (kind and colour) and the target square; captures
    /// are noisy.
    fn move_keys(&self, moves: &[Move], keys: &mut [u32]) {
        let board = &self.position.board;
        for (key, &mv) in keys.iter_mut().zip(moves) {
            let (from, to) = (crate::board::from_sq(mv), to_sq(mv));
            let piece = u32::from(board.get(from).copied().unwrap_or(0));
            let noisy = if board.get(to).copied().unwrap_or(0) != crate::board::EMPTY {
                plyd_api::abi::MOVE_KEY_NOISY
            } else {
                0
            };
            *key = (piece * crate::board::SQUARES as u32 + to.min(crate::board::SQUARES) as u32)
                | noisy;
        }
    }

    #[inline]
    fn make_move(&mut self, mv: Move) {
        let hash_before = self.position.hash;
        let captured = self.position.play(mv);
        self.history.push(Played {
            mv,
            captured,
            hash_before,
            quiet_before: self.quiet_plies,
        });
        self.quiet_plies = if captured != crate::board::EMPTY {
            0
        } else {
            self.quiet_plies + 1
        };
        self.outcome.set(UNKNOWN);
    }

    #[inline]
    fn unmake_move(&mut self, _mv: Move) {
        let played = self
            .history
            .pop()
            .expect("unmake_move called with no move to take back");
        self.position.take_back(played.mv, played.captured);
        self.quiet_plies = played.quiet_before;
        self.outcome.set(UNKNOWN);
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.position.hash
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        text::parse_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        text::format_move(mv)
    }

    fn board_text(&self) -> String {
        text::board_picture(&self.position, self.quiet_plies)
    }

    /// Captures first, most valuable victim by least valuable attacker;
    /// then the escapes of a hanging chariot, horse or cannon (a quiet move
    /// of a piece the opponent would win by capturing, to a square where
    /// it loses nothing by the exchange), the more valuable piece first;
    /// other quiet moves score 0. Without the escapes, late-move pruning
    /// two plies from the leaves cut a threatened chariot's only way out
    /// among xiangqi's forty quiet moves.
    fn order_hints(&self, moves: &[Move], scores: &mut [i32]) {
        let board = &self.position.board;
        // Whether each square's piece hangs, worked out on first asking.
        let mut hanging = [None::<bool>; crate::board::SQUARES];
        for (&mv, score) in moves.iter().zip(scores.iter_mut()) {
            let from = crate::board::from_sq(mv);
            let victim = board.get(to_sq(mv)).copied().unwrap_or(0);
            let attacker = board.get(from).copied().unwrap_or(0);
            *score = if victim != crate::board::EMPTY {
                ORDER_VALUE[kind_of(victim) as usize] * 16
                    - ORDER_VALUE[kind_of(attacker) as usize] / 8
            } else if matches!(kind_of(attacker), CHARIOT | HORSE | CANNON)
                && *hanging[from].get_or_insert_with(|| crate::see::hangs(&self.position, from))
                && crate::see::see_ge(&self.position, mv, 0) == Some(true)
            {
                ORDER_VALUE[kind_of(attacker) as usize]
            } else {
                0
            };
        }
    }

    /// Native perft over the bare position, last ply counted in bulk. It
    /// follows the published tables: no repetition or no-capture judgement
    /// (none can arise within the depths those tables give from a fresh
    /// position).
    fn perft(&mut self, depth: u32) -> u64 {
        crate::perft::perft(&mut self.position, depth)
    }
}

/// Whether any piece of the side to move can still make the null move
/// sound: a chariot, horse or cannon (with only a general, advisors,
/// elephants and pawns, zugzwang is common).
pub fn has_attacking_pieces(position: &Position) -> bool {
    position
        .squares_of(position.side())
        .any(|sq| matches!(kind_of(position.board[sq]), CHARIOT | HORSE | CANNON))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hanging_chariots_safe_escapes_are_ordered_first_among_quiet_moves() {
        // The black horse on h2 attacks the red chariot on i0, which
        // nothing defends; g0 and i4 are the horse's squares too.
        let mut game = Xiangqi::new(1);
        game.set_position("4k4/9/9/9/9/9/9/7n1/9/5K2R w - - 0 1")
            .expect("a valid FEN");
        let mut moves = Vec::new();
        game.position.legal_moves(false, &mut |mv| moves.push(mv));
        let mut scores = vec![0; moves.len()];
        game.order_hints(&moves, &mut scores);
        let mut escapes: Vec<String> = moves
            .iter()
            .zip(&scores)
            .filter(|&(_, &score)| score > 0)
            .map(|(&mv, _)| text::format_move(mv))
            .collect();
        escapes.sort();
        let expected = [
            "i0h0", "i0i1", "i0i2", "i0i3", "i0i5", "i0i6", "i0i7", "i0i8", "i0i9",
        ];
        assert_eq!(escapes, expected);
        // The general's moves and the chariot's moves into the horse's
        // reach score 0.
        for (&mv, &score) in moves.iter().zip(&scores) {
            let name = text::format_move(mv);
            if !expected.contains(&name.as_str()) {
                assert_eq!(score, 0, "{name}");
            }
        }
        assert!(moves.iter().any(|&mv| text::format_move(mv) == "i0g0"));
        // With no horse, no move of the chariot is an escape.
        game.set_position("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1")
            .expect("a valid FEN");
        moves.clear();
        game.position.legal_moves(false, &mut |mv| moves.push(mv));
        scores = vec![1; moves.len()];
        game.order_hints(&moves, &mut scores);
        assert!(scores.iter().all(|&score| score == 0), "{scores:?}");
    }
}
