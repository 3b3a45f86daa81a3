//! Repetition judgement: who, if anyone, loses a repeated position.
//!
//! When a position occurs for the third time (two earlier occurrences with
//! the same side to move, no capture or null move in between), the moves
//! from its first occurrence to now are judged:
//!
//! * A side **checks perpetually** if every one of its moves in that span
//!   gave check.
//! * A side **chases perpetually** if, on every one of its moves that was
//!   not a check, the moved piece newly attacked one and the same enemy
//!   piece (followed as it moves), and that attack was a chase: the
//!   capture would be legal and the target is either unprotected after it
//!   or a chariot attacked by a horse or a cannon. Generals and pawns may
//!   attack freely (their attacks are never chases), and generals and
//!   pawns that have not crossed the river are never chased.
//! * A side that checks perpetually loses unless the other side checks
//!   perpetually too (then the game is drawn). A side that chases
//!   perpetually loses unless the other side checks or chases
//!   perpetually too (a check against a chase: the checker loses; a chase
//!   against a chase: drawn). Every other repetition is a draw.
//!
//! Simplifications against the Asian (AXF) and Chinese rule books, which
//! judge dozens of named cases: only the moved piece's new attacks count
//! (a chase by a discovered attacker is not seen); "protected" means an
//! enemy piece could recapture on the square, without asking whether that
//! recapture would itself be legal; a chase of a piece of equal value that
//! is protected, sacrifices, and "one chase, one idle" alternations are
//! draws; the span judged is the whole run since the first occurrence.

use plyd_api::Move;

use crate::board::{
    attacked, attacks_from, color_of, from_sq, kind_of, rank_of, to_sq, Position, CANNON, CHARIOT,
    EMPTY, HORSE, KING, PAWN, RED, SQUARES,
};
use crate::tables::KING_STEPS;

/// The verdict on a repetition, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins: the other side repeated against the rules.
    Win,
    /// The side to move loses.
    Loss,
    /// Drawn.
    Draw,
}

/// What one side did over the span.
#[derive(Clone, Copy)]
struct Conduct {
    moves: u32,
    all_checks: bool,
    /// Enemy pieces chased on every non-check move so far, by square;
    /// `None` before the first non-check move.
    chased: Option<u128>,
}

impl Conduct {
    fn new() -> Self {
        Conduct {
            moves: 0,
            all_checks: true,
            chased: None,
        }
    }

    fn checks_perpetually(&self) -> bool {
        self.moves > 0 && self.all_checks
    }

    fn chases_perpetually(&self) -> bool {
        !self.all_checks && self.chased.is_some_and(|set| set != 0)
    }
}

/// Judge the moves `moves`, played in order from `start` (which the last
/// of them brings back). The verdict is for the side to move at the end.
pub fn judge(start: &Position, moves: &[Move]) -> Verdict {
    let (_, ours, theirs) = ranks(start, moves);
    verdict(ours, theirs)
}

/// [`judge`], and why, in words: which side checked or chased
/// perpetually, or that neither did.
pub fn judge_why(start: &Position, moves: &[Move]) -> (Verdict, String) {
    let (us, ours, theirs) = ranks(start, moves);
    let colour = |side: usize| if side == RED { "Red" } else { "Black" };
    let deed = |rank: u8| if rank == 2 { "checked" } else { "chased" };
    let words = match ours.cmp(&theirs) {
        std::cmp::Ordering::Greater => format!("{} {} perpetually", colour(us), deed(ours)),
        std::cmp::Ordering::Less => format!("{} {} perpetually", colour(us ^ 1), deed(theirs)),
        std::cmp::Ordering::Equal if ours == 0 => {
            "neither side checked or chased perpetually".to_string()
        }
        std::cmp::Ordering::Equal => format!("both sides {} perpetually", deed(ours)),
    };
    (verdict(ours, theirs), words)
}

/// The verdict for the side to move, from its conduct's rank and the
/// other side's: the higher rank loses.
fn verdict(ours: u8, theirs: u8) -> Verdict {
    match ours.cmp(&theirs) {
        std::cmp::Ordering::Greater => Verdict::Loss,
        std::cmp::Ordering::Less => Verdict::Win,
        std::cmp::Ordering::Equal => Verdict::Draw,
    }
}

/// The side to move at the end of `moves`, and the rank of its conduct and
/// of the other side's: 2 a perpetual check, 1 a perpetual chase, 0
/// neither.
fn ranks(start: &Position, moves: &[Move]) -> (usize, u8, u8) {
    let (us, conduct) = conducts(start, moves);
    let rank = |c: &Conduct| {
        if c.checks_perpetually() {
            2
        } else if c.chases_perpetually() {
            1
        } else {
            0
        }
    };
    (us, rank(&conduct[us]), rank(&conduct[us ^ 1]))
}

/// Each side's conduct over `moves` from `start`, and the side to move at
/// the end.
fn conducts(start: &Position, moves: &[Move]) -> (usize, [Conduct; 2]) {
    let mut position = *start;
    let mut conduct = [Conduct::new(), Conduct::new()];
    for &mv in moves {
        let mover = position.side();
        let before = position;
        position.play(mv);
        let check = position.in_check();
        let mine = &mut conduct[mover];
        mine.moves += 1;
        if !check {
            mine.all_checks = false;
            let chased = chases(&before, &position, mv);
            mine.chased = Some(mine.chased.unwrap_or(u128::MAX) & chased);
        }
        // The mover's own pieces are what the other side may be chasing:
        // follow the moved piece to its new square.
        let theirs = &mut conduct[mover ^ 1];
        if let Some(set) = theirs.chased.as_mut() {
            let (from, to) = (from_sq(mv), to_sq(mv));
            if *set & (1u128 << from) != 0 {
                *set = (*set & !(1u128 << from)) | 1u128 << to;
            }
        }
    }
    (position.side(), conduct)
}

/// The enemy pieces (as a square set of `after`) that `mv` chases.
pub fn chases(before: &Position, after: &Position, mv: Move) -> u128 {
    let (from, to) = (from_sq(mv), to_sq(mv));
    let attacker = after.board[to];
    if matches!(kind_of(attacker), KING | PAWN) {
        return 0;
    }
    let us = color_of(attacker);
    let mut old = 0u128;
    attacks_from(&before.board, from, &mut |sq| old |= 1u128 << sq);
    let mut set = 0u128;
    attacks_from(&after.board, to, &mut |target| {
        if old & (1u128 << target) != 0 {
            return;
        }
        let code = after.board[target];
        if code == EMPTY || color_of(code) == us || !chaseable(code, target) {
            return;
        }
        if is_chase(after, to, target) {
            set |= 1u128 << target;
        }
    });
    set
}

/// Generals are checked, not chased; pawns count once across the river.
fn chaseable(code: u8, sq: usize) -> bool {
    match kind_of(code) {
        KING => false,
        PAWN => {
            if color_of(code) == RED {
                rank_of(sq) >= 5
            } else {
                rank_of(sq) <= 4
            }
        }
        _ => true,
    }
}

/// Whether the piece on `from` attacking `target` in `position` is a chase:
/// the capture is legal, and the target is a chariot attacked by a horse or
/// cannon, or nothing could recapture.
fn is_chase(position: &Position, from: usize, target: usize) -> bool {
    let attacker = position.board[from];
    let us = color_of(attacker);
    let mut board = position.board;
    let victim = board[target];
    board[target] = attacker;
    board[from] = EMPTY;
    if attacked(&board, position.kings[us] as usize, us ^ 1) {
        return false;
    }
    if kind_of(victim) == CHARIOT && matches!(kind_of(attacker), HORSE | CANNON) {
        return true;
    }
    !defended(&board, target, us ^ 1, position.kings[us ^ 1] as usize)
}

/// Whether a piece of `by`, whose general stands on `king`, could capture
/// on `sq` (the general by a palace step only, not by flying along a file).
fn defended(board: &[u8; SQUARES], sq: usize, by: usize, king: usize) -> bool {
    if KING_STEPS[sq].iter().any(|(s, _)| s == king) {
        return true;
    }
    // `attacked` also counts a general facing along the file; take the
    // general off the board so that only real recaptures count.
    let mut without_king = *board;
    without_king[king] = EMPTY;
    attacked(&without_king, sq, by)
}
