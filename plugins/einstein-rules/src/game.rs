//! The EinStein state the host holds and its [`Game`] implementation.
//!
//! Three kinds of ply make a game: each side's arrangement (a decision:
//! `generate_moves` lists the 720 `s......` tokens, Red's first), then in
//! turn a roll of the die (a chance node: `chance_outcomes` lists `r1`..`r6`,
//! weight 1 each, and `generate_moves` lists them too so that an arbiter's
//! `position ... moves r4` reads) and the move of the side that rolled.
//! Blue sees Red's arrangement before choosing its own, as the protocol
//! writes Red's first.

use plyd_api::{ChanceSink, Game, Move, MoveSink, Outcome, Variant};

use crate::board::{Board, Undo, ARRANGE, ROLL, STAGE_PLAY};
use crate::text;

/// Version of the state layout described in the crate docs.
pub const STATE_LAYOUT: u32 = 1;

/// The set-up stage: an empty board, Red to choose its arrangement.
pub const START: &str = "...../...../...../...../..... r - -";

/// SplitMix64, for the hash keys at compile time.
const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Hash keys: one per (cell value 1..=12, square), then side, rolls and
/// stages.
const fn keys() -> [u64; 13 * 25 + 1 + 7 + 3] {
    let mut k = [0; 13 * 25 + 1 + 7 + 3];
    let mut i = 0;
    while i < k.len() {
        k[i] = splitmix(0x5eed_e1a5_7e1a_0000 + i as u64 * 0x1_0001);
        i += 1;
    }
    k
}

const KEYS: [u64; 13 * 25 + 1 + 7 + 3] = keys();
const SIDE_KEY: usize = 13 * 25;
const ROLL_KEYS: usize = SIDE_KEY + 1;
const STAGE_KEYS: usize = ROLL_KEYS + 7;

/// The hash of a board, computed from scratch.
pub fn hash_of(board: &Board) -> u64 {
    let mut h = 0;
    for (sq, &cell) in board.cells.iter().enumerate() {
        if cell != 0 {
            h ^= KEYS[usize::from(cell) * 25 + sq];
        }
    }
    if board.side != 0 {
        h ^= KEYS[SIDE_KEY];
    }
    h ^= KEYS[ROLL_KEYS + usize::from(board.roll)];
    h ^ KEYS[STAGE_KEYS + usize::from(board.stage)]
}

/// A stone's step, as [`EinStein::recent_step`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The square it left.
    pub from: u8,
    /// The square it reached.
    pub to: u8,
    /// The cell it captured there (0: none).
    pub captured: u8,
}

/// The state: the board first (`#[repr(C)]`, the layout evaluators read),
/// then the set-ups as written, and the history for unmake.
#[repr(C)]
#[derive(Clone, Debug)]
pub struct EinStein {
    board: Board,
    arrangements: [Option<u16>; 2],
    /// Each move played since the position was set, with what unmake needs
    /// and the hash before it.
    history: Vec<(Move, Undo, u64)>,
    hash: u64,
}

impl EinStein {
    /// A state at `text`.
    pub fn from_text(text: &str) -> Result<EinStein, String> {
        let parsed = text::parse_position(text)?;
        Ok(EinStein {
            hash: hash_of(&parsed.board),
            board: parsed.board,
            arrangements: parsed.arrangements,
            history: Vec::with_capacity(256),
        })
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Each side's arrangement, as played or written.
    pub fn arrangements(&self) -> [Option<u16>; 2] {
        self.arrangements
    }

    /// A stone's step played since the position was set: `back` 0 is the
    /// most recent, 1 the one before (the other side's), and so on; rolls
    /// and arrangements are skipped. Each as `(from, to, captured cell)`,
    /// the captured cell 0 when the step took nothing.
    pub fn recent_step(&self, back: usize) -> Option<Step> {
        self.history
            .iter()
            .rev()
            .filter(|(mv, _, _)| *mv < ROLL)
            .nth(back)
            .map(|&(mv, undo, _)| Step {
                from: (mv / 32) as u8,
                to: (mv % 32) as u8,
                captured: undo.captured,
            })
    }
}

impl Game for EinStein {
    const NAME: &'static str = "einstein";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const VARIANTS: &'static [Variant] = &[Variant {
        name: "einstein",
        start_position: START,
    }];
    const HAS_CHANCE: bool = true;
    const HAS_IS_LEGAL: bool = true;
    const STATE_LAYOUT: u32 = STATE_LAYOUT;
    // Each step moves a stone one file right or one rank down or both (for
    // Red; Blue mirrored), so a stone makes at most 8 steps and a side at
    // most 48; each step follows a roll; and two arrangements come first.
    const MAX_GAME_PLIES: u32 = 2 + 2 * 2 * 48;

    fn new(_variant: usize) -> Self {
        EinStein::from_text(START).expect("the start reads")
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        *self = EinStein::from_text(text)?;
        Ok(())
    }

    fn position_text(&self) -> String {
        text::position_text(&self.board, self.arrangements)
    }

    #[inline]
    fn side_to_move(&self) -> u32 {
        u32::from(self.board.side)
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        match self.board.winner() {
            None => Outcome::Ongoing,
            Some(w) if w == self.board.mover() => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }

    const HAS_OUTCOME_REASON: bool = true;

    /// Which way the game was won: `Red reached the corner e1`, `Blue took
    /// every Red stone`; empty while it goes on.
    fn outcome_reason(&self) -> String {
        crate::text::win_reason(&self.board).unwrap_or_default()
    }

    #[inline]
    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        self.board.for_each_move(|mv| moves.push(mv));
    }

    fn chance_outcomes(&self, outcomes: &mut ChanceSink<'_>) {
        if self.board.stage == STAGE_PLAY && self.board.roll == 0 && !self.board.is_over() {
            for face in 1..=6 {
                outcomes.push(ROLL + face, 1);
            }
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.board.is_legal(mv)
    }

    const HAS_ILLEGAL_REASON: bool = true;

    fn illegal_reason(&self, mv: Move) -> String {
        crate::text::illegal_reason(&self.board, mv)
    }

    #[inline]
    fn make_move(&mut self, mv: Move) {
        if mv >= ARRANGE {
            let side = self.board.mover();
            self.arrangements[side] = Some((mv - ARRANGE) as u16);
        }
        // A step's stone, read before it moves.
        let (from, to) = ((mv / 32) as usize, (mv % 32) as usize);
        let moving = if mv < ROLL {
            usize::from(self.board.cells[from])
        } else {
            0
        };
        let before = self.hash;
        let undo = self.board.play(mv);
        self.hash = if mv >= ARRANGE {
            hash_of(&self.board)
        } else {
            // A roll swaps the roll's key; a step also moves its stone from
            // `from` to `to`, takes what stood there and passes the turn.
            let mut h = before
                ^ KEYS[ROLL_KEYS + usize::from(undo.roll)]
                ^ KEYS[ROLL_KEYS + usize::from(self.board.roll)];
            if mv < ROLL {
                h ^= KEYS[moving * 25 + from] ^ KEYS[moving * 25 + to] ^ KEYS[SIDE_KEY];
                if undo.captured != 0 {
                    h ^= KEYS[usize::from(undo.captured) * 25 + to];
                }
            }
            h
        };
        self.history.push((mv, undo, before));
        debug_assert_eq!(self.hash, hash_of(&self.board));
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move) {
        let (_, undo, hash) = self.history.pop().expect("a move to take back");
        self.board.take_back(mv, undo);
        if mv >= ARRANGE {
            // Arrangements are only ever made from the set-up stage, where
            // the side's own field was empty.
            self.arrangements[self.board.mover()] = None;
        }
        self.hash = hash;
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        text::parse_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        text::move_text(mv)
    }

    fn board_text(&self) -> String {
        text::board_picture(&self.board, self.arrangements)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        crate::perft::perft(&mut self.board, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{ARRANGEMENTS, RED};

    /// The next number of the xorshift sequence whose state is `state`.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn a_refused_move_says_which_rule_it_breaks() {
        let mut g = EinStein::new(0);
        let why = |g: &EinStein, text: &str| g.illegal_reason(g.parse_move(text).expect("a move"));
        assert_eq!(
            why(&g, "r3"),
            "Red sets its stones out first (an arrangement such as s123456)"
        );
        g.make_move(g.parse_move("s123456").expect("a move"));
        g.make_move(g.parse_move("s123456").expect("a move"));
        assert_eq!(why(&g, "a5b5"), "", "the host says the roll comes first");
        assert_eq!(why(&g, "s654321"), "the stones are set out already");
        g.make_move(g.parse_move("r1").expect("a move"));
        assert_eq!(why(&g, "r2"), "the die shows 1 already");
        assert_eq!(why(&g, "c3d3"), "no stone stands on c3");
        assert_eq!(why(&g, "e1d1"), "the stone on e1 is Blue's");
        assert_eq!(
            why(&g, "b5c5"),
            "the die shows 1, which moves Red's stone 1, not stone 2"
        );
        assert_eq!(
            why(&g, "a5c5"),
            "a Red stone steps one square towards e1: along its rank, its file or the diagonal between"
        );
        assert_eq!(why(&g, "a5a4"), "", "a legal move has no reason against it");
        // Over random games: a reason exactly where a move is not legal,
        // every step, roll and a few arrangements.
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || xorshift(&mut rng);
        for _ in 0..100 {
            let mut g = EinStein::new(0);
            loop {
                let mut moves = Vec::new();
                g.board().for_each_move(|m| moves.push(m));
                let candidates = (0..25 * 32)
                    .chain(ROLL + 1..=ROLL + 6)
                    .chain([ARRANGE, ARRANGE + 719]);
                for mv in candidates {
                    if mv < ROLL && (mv % 32 >= 25) {
                        continue;
                    }
                    let reason = g.illegal_reason(mv);
                    let chance = g.board().stage == STAGE_PLAY && g.board().roll == 0;
                    let expected =
                        g.board().is_over() || (chance && mv < ROLL) || moves.contains(&mv);
                    assert_eq!(
                        reason.is_empty(),
                        expected,
                        "{}: {reason}",
                        text::move_text(mv)
                    );
                }
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(next() % moves.len() as u64) as usize];
                g.make_move(mv);
            }
        }
    }

    #[test]
    fn the_hash_kept_move_by_move_is_the_hash_of_the_board() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || xorshift(&mut rng);
        for _ in 0..300 {
            let mut g = EinStein::new(0);
            let mut played = Vec::new();
            while !g.board().is_over() {
                let mv = if g.board().stage == STAGE_PLAY && g.board().roll == 0 {
                    ROLL + 1 + (next() % 6) as u32
                } else {
                    let mut moves = Vec::new();
                    g.board().for_each_move(|m| moves.push(m));
                    moves[(next() % moves.len() as u64) as usize]
                };
                let before = g.hash();
                g.make_move(mv);
                assert_eq!(g.hash(), hash_of(g.board()), "after {mv}");
                assert_ne!(g.hash(), before);
                played.push((mv, before));
            }
            while let Some((mv, before)) = played.pop() {
                g.unmake_move(mv);
                assert_eq!(g.hash(), before);
                assert_eq!(g.hash(), hash_of(g.board()));
            }
        }
    }

    #[test]
    fn both_arrangements_then_a_roll_then_a_step() {
        let mut g = EinStein::new(0);
        assert_eq!(g.position_text(), START);
        assert_eq!(g.board().count_moves(), ARRANGEMENTS as u64);
        for text in ["s123456", "s654321", "r5"] {
            let mv = g.parse_move(text).unwrap();
            assert!(g.is_legal(mv), "{text}");
            g.make_move(mv);
        }
        assert_eq!(
            g.position_text(),
            "123../45.../6...a/...bc/..def r s123456 s654321 r5"
        );
        assert_eq!(g.board().stage, STAGE_PLAY);
        assert_eq!(g.board().mover(), RED);
    }
}
