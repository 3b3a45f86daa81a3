//! A test plugin with chance: a small EinStein-like game, small enough for
//! a brute-force expectiminimax to check the search against.
//!
//! The board is 4x4, squares `a1`..`d4` (file `a`..`d` left to right, rank
//! `1`..`4` top to bottom). Each side has pieces numbered 1 to 3. The first
//! player (side 0) starts in the top-left corner and moves right, down or
//! diagonally down-right, towards `d4`; the second player (side 1) starts
//! in the bottom-right corner and moves left, up or diagonally up-left,
//! towards `a1`. A piece on the target square is captured, whoever owns it.
//! Reaching the opposite corner, or capturing the last enemy piece, wins.
//!
//! Before every move a die is rolled: a chance node whose outcomes are the
//! tokens `r1`, `r2`, `r3` (weights 3, 2 and 1) and `r0` (weight 1), the
//! blank face. Rolling `r0` passes the turn at once: the other side is to
//! roll next and no piece moves. The die has no blank face on the turn
//! right after a pass, so passes never follow each other (and a chance node
//! never leads to itself). After `rN` the player must move piece N; if it
//! is gone, the nearest-numbered piece above or below it (either one if
//! both exist). At a roll, `gen_moves` lists the roll tokens, so a host
//! that replays `position ... moves r2 b1c2 ...` accepts them.
//!
//! Position text: `<rank 1>/<rank 2>/<rank 3>/<rank 4> <side> [p] [rN]`.
//! In a rank, `.` is empty, `1`..`3` a piece of the first player and
//! `a`..`c` piece 1..3 of the second. `<side>` is `0` or `1`; `p` says the
//! last turn was passed (the die has no blank face); `rN` (N in 1..3) is a
//! roll already made, so the side to move now moves a piece. The start is
//! `12../3.../...c/..ba 0`.

use plyd_api::{ChanceSink, Evaluator, Game, Move, MoveSink, Outcome, Variant};

/// Roll tokens are `ROLL + face`; piece moves are `from * 16 + to`.
const ROLL: Move = 256;
/// Die faces (0 is the blank face that passes) and their weights.
const FACES: [(u32, u32); 4] = [(1, 3), (2, 2), (3, 1), (0, 1)];
/// Each side's target corner.
const TARGET: [usize; 2] = [15, 0];
/// Each side's steps as (row, column) offsets.
const STEPS: [[(i32, i32); 3]; 2] = [[(0, 1), (1, 0), (1, 1)], [(0, -1), (-1, 0), (-1, -1)]];

/// What a move changed, for unmake.
#[derive(Clone, Copy, Debug)]
struct Undo {
    captured: u8,
    roll: Option<u32>,
    passed: bool,
}

/// The board, whose turn it is, whether the last turn was passed, and the
/// roll this turn has (if already rolled).
#[derive(Clone, Debug)]
pub struct MiniStein {
    /// 0 empty, 1..=3 the first player's pieces, 4..=6 the second's (3 + number).
    cells: [u8; 16],
    to_move: u32,
    passed: bool,
    roll: Option<u32>,
    history: Vec<Undo>,
}

/// The owner of a non-empty cell value.
fn owner(cell: u8) -> u32 {
    u32::from(cell > 3)
}

fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 4) as u8) as char, sq / 4 + 1)
}

fn parse_square(text: &[u8]) -> Option<usize> {
    match text {
        [f @ b'a'..=b'd', r @ b'1'..=b'4'] => {
            Some(usize::from(r - b'1') * 4 + usize::from(f - b'a'))
        }
        _ => None,
    }
}

impl MiniStein {
    fn square_of(&self, side: u32, piece: u8) -> Option<usize> {
        let cell = piece + 3 * side as u8;
        self.cells.iter().position(|&c| c == cell)
    }

    fn count(&self, side: u32) -> i32 {
        self.cells
            .iter()
            .filter(|&&c| c != 0 && owner(c) == side)
            .count() as i32
    }

    /// Chebyshev distance of `side`'s piece nearest its target (4 if none).
    fn best_distance(&self, side: u32) -> i32 {
        let target = TARGET[side as usize] as i32;
        (0..16)
            .filter(|&sq| self.cells[sq] != 0 && owner(self.cells[sq]) == side)
            .map(|sq| {
                let (r, c) = (sq as i32 / 4, sq as i32 % 4);
                (r - target / 4).abs().max((c - target % 4).abs())
            })
            .min()
            .unwrap_or(4)
    }

    /// The pieces a roll of `face` lets the side to move move.
    fn movable(&self, face: u32) -> Vec<u8> {
        let side = self.to_move;
        let face = face as u8;
        if self.square_of(side, face).is_some() {
            return vec![face];
        }
        let below = (1..face).rev().find(|&p| self.square_of(side, p).is_some());
        let above = (face + 1..=3).find(|&p| self.square_of(side, p).is_some());
        below.into_iter().chain(above).collect()
    }

    fn piece_text(cell: u8) -> char {
        match cell {
            0 => '.',
            1..=3 => (b'0' + cell) as char,
            _ => (b'a' + cell - 4) as char,
        }
    }
}

impl Game for MiniStein {
    const NAME: &'static str = "ministein";
    const VERSION: &'static str = "1";
    const VARIANTS: &'static [Variant] = &[Variant {
        name: "ministein",
        start_position: "12../3.../...c/..ba 0",
    }];
    const HAS_CHANCE: bool = true;
    // Every move brings a piece one step nearer its corner (at most 18
    // steps per side), each move takes a roll token, and a pass token can
    // come before each roll at most once.
    const MAX_GAME_PLIES: u32 = 2 * 18 * 3 + 1;

    fn new(_variant: usize) -> Self {
        let mut game = MiniStein {
            cells: [0; 16],
            to_move: 0,
            passed: false,
            roll: None,
            history: Vec::new(),
        };
        game.set_position(Self::VARIANTS[0].start_position)
            .expect("the start position reads");
        game
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let (board, side, rest) = match &words[..] {
            [board, side, rest @ ..] if rest.len() <= 2 => (*board, *side, rest),
            _ => return Err(format!("'{text}' is not 'ranks side [p] [roll]'")),
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 4 || ranks.iter().any(|r| r.len() != 4) {
            return Err(format!("'{board}' is not four ranks of four squares"));
        }
        let mut cells = [0u8; 16];
        for (sq, ch) in ranks.concat().bytes().enumerate() {
            cells[sq] = match ch {
                b'.' => 0,
                b'1'..=b'3' => ch - b'0',
                b'a'..=b'c' => ch - b'a' + 4,
                _ => return Err(format!("'{}' is not a square's content", ch as char)),
            };
        }
        for value in 1..=6u8 {
            if cells.iter().filter(|&&c| c == value).count() > 1 {
                return Err(format!(
                    "piece '{}' is on the board twice",
                    Self::piece_text(value)
                ));
            }
        }
        let to_move = match side {
            "0" => 0,
            "1" => 1,
            _ => return Err(format!("side '{side}' is not 0 or 1")),
        };
        let mut passed = false;
        let mut roll = None;
        for (i, word) in rest.iter().enumerate() {
            if *word == "p" && i == 0 {
                passed = true;
                continue;
            }
            roll = Some(
                word.strip_prefix('r')
                    .and_then(|f| f.parse::<u32>().ok())
                    .filter(|f| (1..=3).contains(f))
                    .filter(|_| i + 1 == rest.len())
                    .ok_or_else(|| format!("'{word}' is not p, r1, r2 or r3 in its place"))?,
            );
        }
        *self = MiniStein {
            cells,
            to_move,
            passed,
            roll,
            history: Vec::new(),
        };
        Ok(())
    }

    fn position_text(&self) -> String {
        let ranks: Vec<String> = self
            .cells
            .chunks(4)
            .map(|rank| rank.iter().map(|&c| Self::piece_text(c)).collect())
            .collect();
        let mut text = format!("{} {}", ranks.join("/"), self.to_move);
        if self.passed {
            text.push_str(" p");
        }
        if let Some(r) = self.roll {
            text.push_str(&format!(" r{r}"));
        }
        text
    }

    fn side_to_move(&self) -> u32 {
        self.to_move
    }

    fn outcome(&self) -> Outcome {
        let me = self.to_move;
        let other = 1 - me;
        let on = |side: u32, sq: usize| self.cells[sq] != 0 && owner(self.cells[sq]) == side;
        if on(other, TARGET[other as usize]) || self.count(me) == 0 {
            Outcome::Loss
        } else if on(me, TARGET[me as usize]) || self.count(other) == 0 {
            Outcome::Win
        } else {
            Outcome::Ongoing
        }
    }

    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        if self.outcome() != Outcome::Ongoing {
            return;
        }
        let Some(face) = self.roll else {
            for (face, _) in FACES {
                if face != 0 || !self.passed {
                    moves.push(ROLL + face);
                }
            }
            return;
        };
        for piece in self.movable(face) {
            let from = self
                .square_of(self.to_move, piece)
                .expect("a movable piece");
            let (r, c) = (from as i32 / 4, from as i32 % 4);
            for (dr, dc) in STEPS[self.to_move as usize] {
                let (r, c) = (r + dr, c + dc);
                if (0..4).contains(&r) && (0..4).contains(&c) {
                    moves.push(from as Move * 16 + (r * 4 + c) as Move);
                }
            }
        }
    }

    fn chance_outcomes(&self, outcomes: &mut ChanceSink<'_>) {
        if self.roll.is_some() || self.outcome() != Outcome::Ongoing {
            return;
        }
        for (face, weight) in FACES {
            if face != 0 || !self.passed {
                outcomes.push(ROLL + face, weight);
            }
        }
    }

    fn make_move(&mut self, mv: Move) {
        let mut undo = Undo {
            captured: 0,
            roll: self.roll,
            passed: self.passed,
        };
        if mv == ROLL {
            self.to_move ^= 1;
            self.passed = true;
        } else if mv > ROLL {
            self.roll = Some(mv - ROLL);
        } else {
            let (from, to) = ((mv / 16) as usize, (mv % 16) as usize);
            undo.captured = self.cells[to];
            self.cells[to] = self.cells[from];
            self.cells[from] = 0;
            self.roll = None;
            self.passed = false;
            self.to_move ^= 1;
        }
        self.history.push(undo);
    }

    fn unmake_move(&mut self, mv: Move) {
        let undo = self.history.pop().expect("a move to take back");
        if mv == ROLL {
            self.to_move ^= 1;
        } else if mv < ROLL {
            let (from, to) = ((mv / 16) as usize, (mv % 16) as usize);
            self.cells[from] = self.cells[to];
            self.cells[to] = undo.captured;
            self.to_move ^= 1;
        }
        self.roll = undo.roll;
        self.passed = undo.passed;
    }

    fn hash(&self) -> u64 {
        // An exact code of the position (7^16 * 16 < 2^51), then mixed so
        // that every bit depends on every square.
        let mut code = self.cells.iter().fold(0u64, |h, &c| h * 7 + u64::from(c));
        code = code * 2 + u64::from(self.to_move);
        code = code * 2 + u64::from(self.passed);
        code = code * 4 + u64::from(self.roll.unwrap_or(0));
        // The number of pieces moved since `set_position` is hashed too. A
        // piece can be captured after one step or after three, so the same
        // board arises after different numbers of moves, that is with
        // different depths left; a table entry searched deeper would then
        // answer a shallower node, as a real search should, and the value
        // would no longer be the fixed-depth expectiminimax the tests
        // compare it with. With the count in the key a transposition
        // always has the same depth left.
        let moved = self
            .history
            .iter()
            .filter(|undo| undo.roll.is_some())
            .count();
        code = code.wrapping_mul(64).wrapping_add(moved as u64);
        code = (code ^ (code >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        code = (code ^ (code >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        code ^ (code >> 31)
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        let text = text.trim();
        if let Some(face) = text.strip_prefix('r') {
            return match face.parse::<u32>() {
                Ok(f @ 0..=3) => Some(ROLL + f),
                _ => None,
            };
        }
        let bytes = text.as_bytes();
        if bytes.len() != 4 {
            return None;
        }
        let from = parse_square(&bytes[..2])?;
        let to = parse_square(&bytes[2..])?;
        Some((from * 16 + to) as Move)
    }

    fn format_move(&self, mv: Move) -> String {
        if mv >= ROLL {
            format!("r{}", mv - ROLL)
        } else {
            let (from, to) = ((mv / 16) as usize, (mv % 16) as usize);
            format!("{}{}", square_name(from), square_name(to))
        }
    }

    fn board_text(&self) -> String {
        let mut text = String::new();
        for rank in self.cells.chunks(4) {
            text.extend(rank.iter().map(|&c| Self::piece_text(c)));
            text.push('\n');
        }
        text
    }
}

/// Material and progress: 35 per piece ahead, 20 per step that the side's
/// most advanced piece is nearer its corner than the opponent's, clamped to
/// the bound, which it reaches (three pieces against one, one step from
/// the corner against three).
pub struct Progress;

impl Evaluator for Progress {
    type State = MiniStein;
    const NAME: &'static str = "progress";
    const DESCRIPTION: &'static str = "material and the leading piece's distance to its corner";
    const GAME: &'static str = "ministein";
    const SCORE_BOUND: i32 = 100;

    fn from_params(_params: Option<&str>) -> Result<Self, String> {
        Ok(Progress)
    }

    fn evaluate(&self, state: &MiniStein) -> i32 {
        let me = state.to_move;
        let other = 1 - me;
        let material = state.count(me) - state.count(other);
        let progress = state.best_distance(other) - state.best_distance(me);
        (35 * material + 20 * progress).clamp(-Self::SCORE_BOUND, Self::SCORE_BOUND)
    }
}

plyd_api::export_game!(MiniStein, evaluators = [Progress]);
