//! Repetition judgement: who, if anyone, loses a repeated position.
//!
//! When a position occurs for the third time (two earlier occurrences with
//! the same side to move, no capture or null move in between), the moves
//! from its first occurrence to now are judged:
//!
//! * A side **checks perpetually** if every one of its moves in that span
//!   gave check.
//! * A side **chases perpetually** if, on every one of its moves in that
//!   span, checks among them, it newly chased one and the same enemy piece
//!   (followed as it moves): the moved piece newly attacked it, or another of its
//!   pieces chases it after the move and did not before (a discovered
//!   attack, a protector pinned or whose recapture the move made illegal).
//!   An attack is a chase when the capture is legal and the target is
//!   worth more than the attacker, or no enemy piece could legally take
//!   back on its square and the target is not of the attacker's kind and
//!   able to take it back (an offered exchange). Generals and pawns may
//!   attack freely (their attacks are never chases), and generals and
//!   pawns that have not crossed the river are never chased.
//! * A side that checks perpetually loses unless the other side checks
//!   perpetually too (then the game is drawn). A side that chases
//!   perpetually loses unless the other side checks or chases
//!   perpetually too (a check against a chase: the checker loses; a chase
//!   against a chase: drawn). Every other repetition is a draw.
//!
//! So a check that chases nothing breaks a chase: "one check, one chase"
//! alternations are a chase only where the checks chase the same piece
//! too (a cannon's check that uncovers another's attack on it), as the
//! Asian rules have it. Simplifications against the Asian (AXF) and
//! Chinese rule books, which judge dozens of named cases: a chase of a
//! protected piece of equal or lesser value, sacrifices, and "one chase,
//! one idle" alternations are draws; the span judged is the whole run
//! since the first occurrence (docs/xiangqi.md).

use plyd_api::Move;

use crate::board::{
    attacked, attacks_from, color_of, from_sq, kind_of, rank_of, to_sq, Position, CANNON, CHARIOT,
    EMPTY, HORSE, KING, PAWN, RED, SQUARES,
};

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
    /// Enemy pieces chased on every move so far, by square; `None`
    /// before the first move.
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
        mine.all_checks &= check;
        let chased = chases(&before, &position, mv);
        mine.chased = Some(mine.chased.unwrap_or(u128::MAX) & chased);
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

/// The enemy pieces (as a square set of `after`) that `mv` chases: those
/// the moved piece newly attacks where the attack is a chase, and those
/// the mover's other pieces chase after the move and did not before (a
/// discovered attack, or a defender the move pinned or cut off).
pub fn chases(before: &Position, after: &Position, mv: Move) -> u128 {
    let (from, to) = (from_sq(mv), to_sq(mv));
    let attacker = after.board[to];
    let us = color_of(attacker);
    let mut direct = 0u128;
    if !matches!(kind_of(attacker), KING | PAWN) {
        let mut old = 0u128;
        attacks_from(&before.board, from, &mut |sq| old |= 1u128 << sq);
        attacks_from(&after.board, to, &mut |target| {
            if old & (1u128 << target) == 0 && is_chase(after, to, target) {
                direct |= 1u128 << target;
            }
        });
    }
    // The others' chases before the move leave out the moved piece's: a
    // piece it chased before may be chased now by one it uncovered.
    direct | (chased_by(after, us, to) & !chased_by(before, us, from))
}

/// The pieces of the side other than `us` that a piece of `us`, but the
/// one on `skip`, chases in `position`, whichever side is to move.
fn chased_by(position: &Position, us: usize, skip: usize) -> u128 {
    let mut set = 0u128;
    for from in 0..SQUARES {
        let code = position.board[from];
        if from == skip
            || code == EMPTY
            || color_of(code) != us
            || matches!(kind_of(code), KING | PAWN)
        {
            continue;
        }
        attacks_from(&position.board, from, &mut |target| {
            if set & (1u128 << target) == 0 && is_chase(position, from, target) {
                set |= 1u128 << target;
            }
        });
    }
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

/// How much a piece is worth, for the rule that attacking a more valuable
/// piece is a chase even where it is protected: chariot above horse and
/// cannon, above advisor, elephant and pawn.
fn rank_of_kind(code: u8) -> u8 {
    match kind_of(code) {
        CHARIOT => 3,
        HORSE | CANNON => 2,
        _ => 1,
    }
}

/// Whether the piece on `from` attacking `target` in `position` is a chase:
/// the target is an enemy piece that can be chased, the capture is legal,
/// and the target is worth more than the attacker (a chariot attacked by a
/// horse, cannon, advisor or elephant; a horse or cannon by an advisor or
/// elephant), or it is not the same kind of piece able to take the
/// attacker back at once (an offered exchange) and no enemy piece could
/// legally recapture on its square.
fn is_chase(position: &Position, from: usize, target: usize) -> bool {
    let attacker = position.board[from];
    let victim = position.board[target];
    let us = color_of(attacker);
    if victim == EMPTY || color_of(victim) == us || !chaseable(victim, target) {
        return false;
    }
    let kings = [position.kings[0] as usize, position.kings[1] as usize];
    if !legal_capture(&position.board, from, target, kings[us]) {
        return false;
    }
    if rank_of_kind(victim) > rank_of_kind(attacker) {
        return true;
    }
    if kind_of(victim) == kind_of(attacker)
        && attacks(&position.board, target, from)
        && legal_capture(&position.board, target, from, kings[us ^ 1])
    {
        return false;
    }
    let mut board = position.board;
    board[target] = attacker;
    board[from] = EMPTY;
    !defended(&board, target, us ^ 1, kings[us ^ 1])
}

/// Whether the piece on `from` attacks `to` (the general by a palace step
/// only).
fn attacks(board: &[u8; SQUARES], from: usize, to: usize) -> bool {
    let mut hit = false;
    attacks_from(board, from, &mut |sq| hit |= sq == to);
    hit
}

/// Whether the piece on `from` may take on `to`, its general (on `king`
/// unless it is the general) neither attacked after it nor facing the
/// other.
fn legal_capture(board: &[u8; SQUARES], from: usize, to: usize, king: usize) -> bool {
    let mover = board[from];
    let mut after = *board;
    after[to] = mover;
    after[from] = EMPTY;
    let king = if kind_of(mover) == KING { to } else { king };
    !attacked(&after, king, color_of(mover) ^ 1)
}

/// Whether a piece of `by`, whose general stands on `king`, could legally
/// recapture on `sq` (a pinned piece cannot, nor a general into an attack
/// or along a file to the other general).
fn defended(board: &[u8; SQUARES], sq: usize, by: usize, king: usize) -> bool {
    (0..SQUARES).any(|from| {
        let code = board[from];
        code != EMPTY
            && color_of(code) == by
            && attacks(board, from, sq)
            && legal_capture(board, from, sq, king)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{parse_fen, parse_move};

    /// The pieces `mv` chases from the position `fen`, as squares' names.
    fn chased_by(fen: &str, mv: &str) -> Vec<String> {
        let before = parse_fen(fen).unwrap().position;
        let mut after = before;
        let mv = parse_move(mv).unwrap();
        after.play(mv);
        let set = chases(&before, &after, mv);
        (0..SQUARES)
            .filter(|&sq| set & (1u128 << sq) != 0)
            .map(|sq| crate::text::square_text(sq, false))
            .collect()
    }

    /// A chariot's new attack on an unguarded pawn is a chase once the
    /// pawn has crossed the river (Black's pawn on a4), and never before
    /// (on a5).
    #[test]
    fn a_pawn_is_chased_only_across_the_river() {
        assert_eq!(chased_by("4k4/9/9/9/9/p8/2R6/9/9/3K5 w", "c3c4"), ["a4"]);
        assert!(chased_by("4k4/9/9/9/p8/2R6/9/9/9/3K5 w", "c4c5").is_empty());
    }
}
