//! Why a move that reads is not legal: the rule it breaks, in one line
//! for the person who sent it (the game's `illegal_reason`).

use plyd_api::Move;

use crate::board::{
    attacked, attacks_from, color_of, file_of, from_sq, kind_of, rank_of, square, to_sq, Position,
    ADVISOR, CANNON, CHARIOT, ELEPHANT, EMPTY, HORSE, KING, PAWN, RED, SQUARES,
};
use crate::text::{ranks_from_one, square_text};

/// The side's name.
fn side_name(color: usize) -> &'static str {
    if color == RED {
        "Red"
    } else {
        "Black"
    }
}

/// A piece kind's name.
fn kind_name(kind: u8) -> &'static str {
    match kind {
        KING => "general",
        ADVISOR => "advisor",
        ELEPHANT => "elephant",
        HORSE => "horse",
        CHARIOT => "chariot",
        CANNON => "cannon",
        PAWN => "pawn",
        _ => "piece",
    }
}

/// A square as moves spell it (with the ranks `MoveRanks` sets).
fn name(sq: usize) -> String {
    square_text(sq, ranks_from_one())
}

/// Whether `sq` lies in `color`'s palace.
fn in_palace(color: usize, sq: usize) -> bool {
    let (file, rank) = (file_of(sq), rank_of(sq));
    let ranks = if color == RED { 0..=2 } else { 7..=9 };
    (3..=5).contains(&file) && ranks.contains(&rank)
}

/// Whether `sq` lies on `color`'s own side of the river.
fn own_side(color: usize, sq: usize) -> bool {
    (rank_of(sq) < 5) == (color == RED)
}

/// The squares strictly between `from` and `to`, which share a file or a
/// rank.
fn between(from: usize, to: usize) -> impl Iterator<Item = usize> {
    let (ff, fr) = (file_of(from) as i32, rank_of(from) as i32);
    let (tf, tr) = (file_of(to) as i32, rank_of(to) as i32);
    let (df, dr) = ((tf - ff).signum(), (tr - fr).signum());
    let steps = (tf - ff).abs().max((tr - fr).abs());
    (1..steps).map(move |i| square((ff + df * i) as usize, (fr + dr * i) as usize))
}

/// Why `mv` is not legal in `position`; empty where it is, or where the
/// move names no squares of the board.
pub fn illegal_reason(position: &Position, mv: Move) -> String {
    if mv >> 14 != 0 || position.is_legal(mv) {
        return String::new();
    }
    let (from, to) = (from_sq(mv), to_sq(mv));
    if from >= SQUARES || to >= SQUARES {
        return String::new();
    }
    let us = position.side();
    let board = &position.board;
    let moving = board[from];
    if from == to {
        return "a move must leave its point".to_string();
    }
    if moving == EMPTY {
        return format!("no piece stands on {}", name(from));
    }
    let kind = kind_name(kind_of(moving));
    if color_of(moving) != us {
        return format!(
            "the {kind} on {} is {}'s, and {} is to move",
            name(from),
            side_name(color_of(moving)),
            side_name(us)
        );
    }
    let target = board[to];
    if target != EMPTY && color_of(target) == us {
        // A move no piece of its kind makes, wherever it stood, is told
        // so first: the own piece on the point is not what is wrong.
        if !shaped(kind_of(moving), us, from, to) {
            return movement_rule(position, from, to);
        }
        return format!(
            "{} holds {}'s own {}",
            name(to),
            side_name(us),
            kind_name(kind_of(target))
        );
    }
    let mut pseudo = false;
    position.piece_moves(from, target != EMPTY, &mut |m| pseudo |= m == mv);
    if !pseudo {
        return movement_rule(position, from, to);
    }
    // It moves as its piece may: it leaves its own general attacked.
    let mut after = *board;
    after[to] = moving;
    after[from] = EMPTY;
    let king = if kind_of(moving) == KING {
        to
    } else {
        usize::from(position.kings[us])
    };
    let other = usize::from(position.kings[us ^ 1]);
    let facing =
        file_of(king) == file_of(other) && between(king, other).all(|sq| after[sq] == EMPTY);
    if facing {
        return format!(
            "the generals would face each other on the {} file with nothing between",
            (b'a' + file_of(king) as u8) as char
        );
    }
    // The piece that would attack the general, named.
    let by = attacker(&after, king, us ^ 1).map_or(String::new(), |sq| {
        format!(
            " (by the {} on {})",
            kind_name(kind_of(after[sq])),
            name(sq)
        )
    });
    if kind_of(moving) == KING {
        format!("the general would stand attacked on {}{by}", name(to))
    } else if attacked(board, king, us ^ 1) {
        format!(
            "{}'s general is in check{by}, and this move does not answer it",
            side_name(us)
        )
    } else {
        format!("it leaves {}'s general in check{by}", side_name(us))
    }
}

/// A piece of `by`'s that attacks `sq` on `board`, where one does.
fn attacker(board: &[u8; SQUARES], sq: usize, by: usize) -> Option<usize> {
    (0..SQUARES)
        .filter(|&from| board[from] != EMPTY && color_of(board[from]) == by)
        .find(|&from| {
            let mut hits = false;
            attacks_from(board, from, &mut |to| hits |= to == sq);
            hits
        })
}

/// Whether a piece of `kind` of `us` could ever go from `from` to `to`
/// on an empty board: its way of moving, palace, river and blocks aside.
fn shaped(kind: u8, us: usize, from: usize, to: usize) -> bool {
    let (df, dr) = (
        file_of(to).abs_diff(file_of(from)),
        rank_of(to) as i32 - rank_of(from) as i32,
    );
    let forward = if us == RED { 1 } else { -1 };
    match kind {
        KING => df + dr.unsigned_abs() as usize == 1,
        ADVISOR => df == 1 && dr.abs() == 1,
        ELEPHANT => df == 2 && dr.abs() == 2,
        HORSE => (df, dr.abs()) == (1, 2) || (df, dr.abs()) == (2, 1),
        CHARIOT | CANNON => df == 0 || dr == 0,
        PAWN => (df == 0 && dr == forward) || (df == 1 && dr == 0),
        _ => true,
    }
}

/// How the piece on `from` breaks its way of moving by going to `to`.
fn movement_rule(position: &Position, from: usize, to: usize) -> String {
    let board = &position.board;
    let us = color_of(board[from]);
    let (df, dr) = (
        file_of(to) as i32 - file_of(from) as i32,
        rank_of(to) as i32 - rank_of(from) as i32,
    );
    let straight = df == 0 || dr == 0;
    let shape = shaped(kind_of(board[from]), us, from, to);
    match kind_of(board[from]) {
        KING if !shape => "the general moves one point along a file or rank".to_string(),
        KING if !in_palace(us, to) => "the general stays in the palace".to_string(),
        ADVISOR if !shape => "an advisor moves one point diagonally".to_string(),
        ADVISOR if !in_palace(us, to) => "an advisor stays in the palace".to_string(),
        ELEPHANT if !shape => "an elephant moves two points diagonally".to_string(),
        ELEPHANT if !own_side(us, to) => "an elephant does not cross the river".to_string(),
        ELEPHANT => {
            let eye = square(
                (file_of(from) as i32 + df / 2) as usize,
                (rank_of(from) as i32 + dr / 2) as usize,
            );
            format!("the elephant's eye at {} is blocked", name(eye))
        }
        HORSE if (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1) => {
            let leg = if df.abs() == 2 {
                square((file_of(from) as i32 + df / 2) as usize, rank_of(from))
            } else {
                square(file_of(from), (rank_of(from) as i32 + dr / 2) as usize)
            };
            format!("the horse's leg at {} is blocked", name(leg))
        }
        HORSE => "a horse moves one point along a line, then one diagonally".to_string(),
        CHARIOT | CANNON if !straight => format!(
            "a {} moves along a file or rank",
            kind_name(kind_of(board[from]))
        ),
        CHARIOT => match between(from, to).find(|&sq| board[sq] != EMPTY) {
            Some(sq) => format!("{} stands in the chariot's way", name(sq)),
            None => String::new(),
        },
        CANNON => {
            let screens = between(from, to).filter(|&sq| board[sq] != EMPTY).count();
            if board[to] == EMPTY {
                match between(from, to).find(|&sq| board[sq] != EMPTY) {
                    Some(sq) => format!(
                        "{} stands in the cannon's way (a cannon jumps only to capture)",
                        name(sq)
                    ),
                    None => String::new(),
                }
            } else if screens == 0 {
                "a cannon captures by jumping exactly one piece, and none stands between"
                    .to_string()
            } else {
                format!(
                    "a cannon captures by jumping exactly one piece, and {screens} stand between"
                )
            }
        }
        PAWN if (dr < 0) == (us == RED) && dr != 0 => "a pawn never moves back".to_string(),
        PAWN if dr == 0 && df.abs() == 1 && own_side(us, from) => {
            "a pawn may step sideways only after it has crossed the river".to_string()
        }
        PAWN => "a pawn moves one point forward (and, across the river, sideways)".to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{parse_fen, parse_move};

    /// The reason for `text` in the position of `fen`.
    fn why(fen: &str, text: &str) -> String {
        let position = parse_fen(fen).expect("a FEN").position;
        illegal_reason(&position, parse_move(text).expect("a move"))
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn each_piece_names_the_rule_it_breaks() {
        assert_eq!(why(START, "d3d4"), "no piece stands on d3");
        assert_eq!(
            why(START, "a9a8"),
            "the chariot on a9 is Black's, and Red is to move"
        );
        assert_eq!(why(START, "a0b0"), "b0 holds Red's own horse");
        assert_eq!(
            why(START, "e0e2"),
            "the general moves one point along a file or rank"
        );
        assert_eq!(why(START, "d0d1"), "an advisor moves one point diagonally");
        assert_eq!(
            why(START, "c0c2"),
            "an elephant moves two points diagonally"
        );
        assert_eq!(why(START, "b0d1"), "the horse's leg at c0 is blocked");
        assert_eq!(
            why(START, "b0b1"),
            "a horse moves one point along a line, then one diagonally"
        );
        assert_eq!(why(START, "a0a4"), "a3 stands in the chariot's way");
        assert_eq!(why(START, "a0b1"), "a chariot moves along a file or rank");
        assert_eq!(
            why(START, "h2h7"),
            "a cannon captures by jumping exactly one piece, and none stands between"
        );
        assert_eq!(
            why(START, "h2e2"),
            String::new(),
            "a legal move has no reason against it"
        );
        assert_eq!(
            why(START, "a3b3"),
            "a pawn may step sideways only after it has crossed the river"
        );
        assert_eq!(why(START, "a3a2"), "a pawn never moves back");
        assert_eq!(
            why(START, "a3a5"),
            "a pawn moves one point forward (and, across the river, sideways)"
        );
        assert_eq!(
            why("4k4/4r4/9/9/4p4/4p4/9/4C4/9/3K5 w - - 0 1", "e2e8"),
            "a cannon captures by jumping exactly one piece, and 2 stand between"
        );
        assert_eq!(
            why("4k4/4a4/9/9/9/4p4/9/4C4/9/3K5 w - - 0 1", "e2e7"),
            "e4 stands in the cannon's way (a cannon jumps only to capture)"
        );
        // Across the river an elephant may not go; the palace holds the
        // general and the advisors.
        assert_eq!(
            why("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c4e6"),
            "an elephant does not cross the river"
        );
        assert_eq!(
            why("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0c0"),
            "the general stays in the palace"
        );
        assert_eq!(why(START, "d0c1"), "an advisor stays in the palace");
        assert_eq!(
            why("3k5/9/9/9/9/9/9/9/3p5/2B1K4 w - - 0 1", "c0e2"),
            "the elephant's eye at d1 is blocked"
        );
    }

    /// Over random games: every move between two points of the board has
    /// a reason exactly when it is not legal.
    #[test]
    fn every_illegal_move_has_a_reason_and_no_legal_one_has() {
        let mut rng = plyd_util::rng::SplitMix64::new(0x5eed);
        for _ in 0..20 {
            let mut position = parse_fen(START).expect("the start").position;
            for _ in 0..60 {
                for from in 0..SQUARES {
                    for to in 0..SQUARES {
                        let mv = crate::board::make_move(from, to);
                        let reason = illegal_reason(&position, mv);
                        assert_eq!(
                            reason.is_empty(),
                            position.is_legal(mv),
                            "{} in {}: '{reason}'",
                            crate::text::format_move(mv),
                            crate::text::format_fen(&position, 0, 1)
                        );
                    }
                }
                let mut moves = Vec::new();
                position.legal_moves(false, &mut |mv| moves.push(mv));
                if moves.is_empty() {
                    break;
                }
                position.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
    }

    /// A move wrong in two ways is told by its shape first: no piece of
    /// its kind ever moves so.
    #[test]
    fn a_move_no_piece_of_its_kind_makes_is_told_so_first() {
        let elephant = "4k4/9/9/9/9/2B6/9/3K1A3/3N5/2B6 w - - 0 1";
        assert_eq!(
            why(elephant, "c4c5"),
            "an elephant moves two points diagonally"
        );
        assert_eq!(why(START, "d0f2"), "an advisor moves one point diagonally");
        let cannon = "3k5/9/9/9/4P4/9/2P6/1C7/9/R3K4 w - - 0 1";
        assert_eq!(why(cannon, "b2c3"), "a cannon moves along a file or rank");
        // Its shape right, the own piece is what is wrong.
        assert_eq!(why(START, "h2h0"), "h0 holds Red's own horse");
        // The cannon screen a beginner makes of the advisor.
        assert_eq!(
            why("3k5/9/4c4/9/9/9/R8/9/9/3AK4 w - - 0 1", "d0e1"),
            "it leaves Red's general in check (by the cannon on e7)"
        );
    }

    #[test]
    fn a_move_that_exposes_the_general_says_how() {
        // The generals on one file with a horse between: it may not step
        // aside.
        assert_eq!(
            why("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1", "e4d6"),
            "the generals would face each other on the e file with nothing between"
        );
        // A general stepping onto an attacked point.
        assert_eq!(
            why("3rk4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "e0d0"),
            "the general would stand attacked on d0 (by the chariot on d9)"
        );
        // In check, a move elsewhere does not answer it.
        assert_eq!(
            why("3k5/9/9/9/9/4r4/9/9/9/R3K4 w - - 0 1", "a0b0"),
            "Red's general is in check (by the chariot on e4), and this move does not answer it"
        );
        // A pinned chariot.
        assert_eq!(
            why("4k4/4r4/9/9/9/9/9/4R4/9/4K4 w - - 0 1", "e2d2"),
            "it leaves Red's general in check (by the chariot on e8)"
        );
    }
}
