//! Static exchange evaluation: what a move wins or loses by the captures
//! that may follow it on its target square.
//!
//! # What is computed
//!
//! Let `m` be a legal move to square `t`. After `m`, the two sides take
//! turns on `t` only: the side to move either **stops** (the exchange ends,
//! its value 0 for that side from there) or makes a **legal capture on
//! `t`** and wins the value of the piece standing there. Each side chooses
//! what is best for it. Legal means the rules of the game, pins included:
//! the capturing side's general may not be attacked afterwards, nor face
//! the other general on an open file. A side may always stop, even in
//! check (its other moves are not the exchange's business), and no capture
//! other than on `t` is considered.
//!
//! With `v(P)` the value of the piece on `t` in position `P` and
//! `gain(P) = max(0, max over legal captures c on t of v(P) - gain(P.c))`,
//! the exchange value of `m` is `see(m) = v(start, t) - gain(start.m)`,
//! where `v(start, t)` is 0 for a quiet move. [`see_ge`] answers
//! `see(m) >= threshold` exactly, by a small search over the captures of
//! each side (not a single least-valuable-attacker sequence, which is not
//! exact in xiangqi: a capture can open or close a cannon's screen, unblock
//! a horse's leg or an elephant's eye, or be illegal because of a pin or
//! the facing generals).
//!
//! A general is never captured in such an exchange: capturing it would
//! need the other side to have left it attacked, which no legal move does.
//!
//! # Values
//!
//! The middlegame material of the `classic` evaluator (plyd's default for
//! xiangqi, `plugins/xiangqi/classic.toml`): advisor 368, elephant 249,
//! horse 435, chariot 1770, cannon 733, soldier 104 on its own side of the
//! river and 200 once across (about what `classic`'s square table adds to
//! a soldier over the river). The general counts [`GENERAL_VALUE`], which
//! only matters for a position where the side to move could take the
//! general, one no legal game reaches.

use plyd_api::Move;

use crate::board::{
    attacked, color_of, file_of, from_sq, kind_of, piece, rank_of, to_sq, Position, ADVISOR,
    CANNON, CHARIOT, ELEPHANT, EMPTY, FILES, HORSE, KING, PAWN, RED, SQUARES,
};
use crate::tables::{ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKERS, KING_STEPS, PAWN_STEPS, RAYS};

/// The general's value in an exchange: more than every other piece
/// together.
pub const GENERAL_VALUE: i32 = 20_000;
/// A soldier's value on its own side of the river.
pub const PAWN_VALUE: i32 = 104;
/// A soldier's value across the river.
pub const PAWN_ACROSS_VALUE: i32 = 200;

/// Exchange value of each kind (a soldier on its own side of the river).
const KIND_VALUE: [i32; 8] = [0, GENERAL_VALUE, 368, 249, 435, 1770, 733, PAWN_VALUE];

/// The most attackers one side can have on one square: two chariots, two
/// cannons, two horses, two advisors, two elephants, the general and three
/// soldiers, with room to spare.
const MAX_ATTACKERS: usize = 16;

/// The exchange value of the piece `code` standing on `sq` (0 for an empty
/// square).
#[inline]
pub fn value_on(code: u8, sq: usize) -> i32 {
    if code == EMPTY {
        return 0;
    }
    let kind = kind_of(code);
    if kind == PAWN && across_river(color_of(code), sq) {
        PAWN_ACROSS_VALUE
    } else {
        KIND_VALUE[kind as usize]
    }
}

/// Whether `sq` lies across the river for `color`.
#[inline]
fn across_river(color: usize, sq: usize) -> bool {
    if color == RED {
        rank_of(sq) >= 5
    } else {
        rank_of(sq) <= 4
    }
}

/// Whether the exchange after `mv` wins the side to move of `position` at
/// least `threshold` (see the module docs); `None` when `mv` does not move
/// a piece of the side to move to a square without one of its own pieces
/// (a garbage value: the host passes only legal moves).
pub fn see_ge(position: &Position, mv: Move, threshold: i32) -> Option<bool> {
    if mv >> 14 != 0 {
        return None;
    }
    let (from, to) = (from_sq(mv), to_sq(mv));
    if from >= SQUARES || to >= SQUARES || from == to {
        return None;
    }
    let us = position.side();
    let moving = position.board[from];
    let target = position.board[to];
    if moving == EMPTY || color_of(moving) != us || (target != EMPTY && color_of(target) == us) {
        return None;
    }
    // The lowest threshold is the host asking whether the move is noisy.
    if threshold == i32::MIN {
        return Some(true);
    }
    let mut exchange = Exchange::on(position, to);
    let won = value_on(target, to);
    exchange.capture(from, us);
    // see(mv) = won - gain, and see(mv) >= threshold exactly when the
    // opponent's gain from here does not exceed won - threshold.
    let bound = won.saturating_sub(threshold);
    Some(!exchange.gain_exceeds(us ^ 1, bound))
}

/// Whether the piece on `sq` hangs: the side not to move in `position`
/// would gain by capturing it, in the exchange on `sq` of the module docs
/// (its own capture first, then the two sides in turn). False for an
/// empty square or a piece of the side not to move.
pub fn hangs(position: &Position, sq: usize) -> bool {
    let us = position.side();
    let code = position.board[sq];
    if code == EMPTY || color_of(code) != us {
        return false;
    }
    Exchange::on(position, sq).gain_exceeds(us ^ 1, 0)
}

/// The board of an exchange in progress on one square.
struct Exchange {
    board: [u8; SQUARES],
    kings: [usize; 2],
    target: usize,
}

impl Exchange {
    /// An exchange on `target` beginning from `position`'s board.
    fn on(position: &Position, target: usize) -> Exchange {
        Exchange {
            board: position.board,
            kings: [
                usize::from(position.kings[0]),
                usize::from(position.kings[1]),
            ],
            target,
        }
    }

    /// Move the piece on `from` (of `side`) to the target square.
    #[inline]
    fn capture(&mut self, from: usize, side: usize) -> u8 {
        let moving = self.board[from];
        let captured = self.board[self.target];
        self.board[self.target] = moving;
        self.board[from] = EMPTY;
        if kind_of(moving) == KING {
            self.kings[side] = self.target;
        }
        captured
    }

    /// Undo [`Exchange::capture`].
    #[inline]
    fn undo(&mut self, from: usize, side: usize, captured: u8) {
        let moving = self.board[self.target];
        self.board[from] = moving;
        self.board[self.target] = captured;
        if kind_of(moving) == KING {
            self.kings[side] = from;
        }
    }

    /// Whether `side`, to move, gains more than `bound` from the exchange:
    /// `gain > bound` in the module docs' terms, decided with the cutoffs
    /// that a yes-or-no question allows.
    fn gain_exceeds(&mut self, side: usize, bound: i32) -> bool {
        // Stopping gains 0.
        if bound < 0 {
            return true;
        }
        // No capture gains more than the piece on the square.
        let victim = value_on(self.board[self.target], self.target);
        if victim <= bound {
            return false;
        }
        let mut attackers = [(0i32, 0u8); MAX_ATTACKERS];
        let count = self.attackers(side, &mut attackers);
        // The least valuable attacker first: the capture most likely to
        // work, which ends the search at once.
        let attackers = &mut attackers[..count];
        attackers.sort_unstable();
        for &(_, from) in attackers.iter() {
            let from = usize::from(from);
            let captured = self.capture(from, side);
            let legal = !attacked(&self.board, self.kings[side], side ^ 1);
            // The capture gains victim - (the reply's gain), more than
            // `bound` when the reply gains at most victim - bound - 1.
            let works = legal && !self.gain_exceeds(side ^ 1, victim - bound - 1);
            self.undo(from, side, captured);
            if works {
                return true;
            }
        }
        false
    }

    /// The squares of `side`'s pieces that could capture on the target
    /// square by their moves (legality not yet checked), each with the
    /// value the piece would have there; returns how many.
    fn attackers(&self, side: usize, out: &mut [(i32, u8); MAX_ATTACKERS]) -> usize {
        let board = &self.board;
        let t = self.target;
        let mut count = 0;
        let mut push = |from: usize| {
            if count < MAX_ATTACKERS {
                out[count] = (value_on(board[from], t), from as u8);
                count += 1;
            }
        };
        // Chariots: the first piece along a line; cannons: the piece after
        // exactly one screen.
        let (chariot, cannon) = (piece(side, CHARIOT), piece(side, CANNON));
        for ray in &RAYS[t] {
            let mut screened = false;
            for &s in ray.squares() {
                let code = board[s as usize];
                if code == EMPTY {
                    continue;
                }
                if !screened {
                    if code == chariot {
                        push(s as usize);
                    }
                    screened = true;
                } else {
                    if code == cannon {
                        push(s as usize);
                    }
                    break;
                }
            }
        }
        // Horses, each with its leg free.
        let horse = piece(side, HORSE);
        for (from, leg) in HORSE_ATTACKERS[t].iter() {
            if board[from] == horse && board[leg] == EMPTY {
                push(from);
            }
        }
        // Elephants (eye free, own side of the river), advisors and the
        // general (palace): their steps are symmetric, so the pieces that
        // reach the target are those the target's own steps reach.
        let elephant = piece(side, ELEPHANT);
        for (from, eye) in ELEPHANT_STEPS[t].iter() {
            if board[from] == elephant && board[eye] == EMPTY {
                push(from);
            }
        }
        let advisor = piece(side, ADVISOR);
        for (from, _) in ADVISOR_STEPS[t].iter() {
            if board[from] == advisor {
                push(from);
            }
        }
        let general = piece(side, KING);
        for (from, _) in KING_STEPS[t].iter() {
            if board[from] == general {
                push(from);
            }
        }
        // Soldiers: from behind, or from the side once across the river;
        // their own step table says which.
        let pawn = piece(side, PAWN);
        let behind = if side == RED {
            t.checked_sub(FILES)
        } else {
            Some(t + FILES).filter(|&s| s < SQUARES)
        };
        let left = (file_of(t) > 0).then(|| t - 1);
        let right = (file_of(t) + 1 < FILES).then_some(t + 1);
        for from in [behind, left, right].into_iter().flatten() {
            if board[from] == pawn && PAWN_STEPS[side][from].iter().any(|(to, _)| to == t) {
                push(from);
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::make_move;
    use crate::text::{parse_fen, parse_move};

    fn position(fen: &str) -> Position {
        parse_fen(fen).expect("a valid FEN").position
    }

    /// The exact exchange value of `mv`, found by asking `see_ge` about
    /// every threshold in a binary search.
    fn see_value(p: &Position, mv: Move) -> i32 {
        let (mut low, mut high) = (-50_000i32, 50_000i32);
        while low < high {
            let mid = (low + high + 1).div_euclid(2);
            if see_ge(p, mv, mid).unwrap() {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        low
    }

    fn mv(text: &str) -> Move {
        parse_move(text).expect("a move")
    }

    #[test]
    fn a_free_piece_is_won_whole() {
        // The red chariot takes the horse on a9, which nothing defends.
        let p = position("n3k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1");
        assert_eq!(see_value(&p, mv("a0a9")), 435);
    }

    #[test]
    fn a_defended_piece_costs_the_attacker() {
        // The chariot takes a horse that the chariot on b9 defends.
        let p = position("nr2k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1");
        assert_eq!(see_value(&p, mv("a0a9")), 435 - 1770);
    }

    #[test]
    fn a_quiet_move_to_an_attacked_square_loses_the_piece() {
        // The black chariot on a1 watches the whole first rank.
        let p = position("4k4/9/9/9/9/9/9/9/r8/5K2R w - - 0 1");
        assert_eq!(see_value(&p, mv("i0i1")), -1770);
        assert_eq!(see_value(&p, mv("i0i2")), 0);
    }

    #[test]
    fn cannon_screens_change_as_pieces_leave() {
        // The red chariot on a2 screens the red cannon on a0. Taking the
        // soldier on a5 with the chariot lets the black chariot recapture,
        // and the cannon then has no screen left: 104 - 1770. Taking it
        // with the cannon over the chariot keeps the chariot behind as a
        // defender, so the black chariot does not recapture: 104.
        let p = position("r3k4/9/9/9/p8/9/9/R8/9/C4K3 w - - 0 1");
        assert_eq!(see_value(&p, mv("a2a5")), 104 - 1770);
        assert_eq!(see_value(&p, mv("a0a5")), 104);
    }

    #[test]
    fn a_pinned_defender_does_not_recapture() {
        // The black horse on e8 would take back on f6, but it stands
        // between its general and the red chariot on e2.
        let p = position("4k4/4n4/9/5c2R/9/9/9/4R4/9/3K5 w - - 0 1");
        assert_eq!(see_value(&p, mv("i6f6")), 733);
    }

    #[test]
    fn soldiers_count_more_across_the_river() {
        // A red soldier across the river (e5), taken by the black chariot.
        let p = position("3k5/9/9/9/r3P4/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(see_value(&p, mv("a5e5")), PAWN_ACROSS_VALUE);
        assert_eq!(value_on(piece(RED, PAWN), 3 * 9), PAWN_VALUE);
    }

    #[test]
    fn garbage_is_not_answered() {
        let p = position(crate::text::START_FEN);
        assert_eq!(see_ge(&p, u32::MAX, 0), None);
        assert_eq!(see_ge(&p, make_move(40, 41), 0), None);
        // A black piece while Red is to move.
        assert_eq!(see_ge(&p, make_move(81, 72), 0), None);
    }
}
