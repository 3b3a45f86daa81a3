//! Position and move text.
//!
//! Positions are the FEN that Pikafish and Fairy-Stockfish read: ranks from
//! Black's back rank (rank 9) down to Red's (rank 0), separated by `/`,
//! digits for runs of empty squares, pieces `K` general, `A` advisor, `B`
//! elephant, `N` horse, `R` chariot, `C` cannon, `P` pawn (upper case Red,
//! lower case Black; `E` and `H` are read as elephant and horse too). Then
//! the side to move, `w` (or `r`) for Red and `b` for Black, then two `-`
//! fields, the count of plies since the last capture and the move number.
//! Every field after the board is optional.
//!
//! Moves are the from-square and the to-square, each a file `a`-`i` and a
//! rank counted from Red's side: `0`-`9` by default (`h2e2`), as Pikafish
//! and most xiangqi GUIs write them, or `1`-`10` when the `MoveRanks`
//! option says so (`h3e3`), as Fairy-Stockfish's UCI mode does.

use std::sync::atomic::{AtomicBool, Ordering};

use plyd_api::Move;

use crate::board::{
    color_of, file_of, kind_of, make_move, piece, rank_of, reachable, square, Position, ADVISOR,
    BLACK, CANNON, CHARIOT, ELEPHANT, EMPTY, FILES, HORSE, KING, PAWN, RANKS, RED,
};

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Whether move text counts ranks 1-10 instead of 0-9 (the `MoveRanks`
/// option; one setting for the whole plugin).
static RANKS_FROM_ONE: AtomicBool = AtomicBool::new(false);

/// Count ranks in move text from 1 (`true`) or from 0 (`false`).
pub fn set_ranks_from_one(from_one: bool) {
    RANKS_FROM_ONE.store(from_one, Ordering::Relaxed);
}

/// Whether move text counts ranks from 1.
pub fn ranks_from_one() -> bool {
    RANKS_FROM_ONE.load(Ordering::Relaxed)
}

/// The most pieces of each kind a side can have (the start set).
const MOST: [usize; 8] = [0, 1, 2, 2, 2, 2, 2, 5];

/// The FEN letter of a piece code.
pub fn piece_letter(code: u8) -> char {
    let letter = match kind_of(code) {
        KING => 'K',
        ADVISOR => 'A',
        ELEPHANT => 'B',
        HORSE => 'N',
        CHARIOT => 'R',
        CANNON => 'C',
        PAWN => 'P',
        _ => return '.',
    };
    if color_of(code) == BLACK {
        letter.to_ascii_lowercase()
    } else {
        letter
    }
}

fn letter_piece(letter: char) -> Option<u8> {
    let kind = match letter.to_ascii_uppercase() {
        'K' => KING,
        'A' => ADVISOR,
        'B' | 'E' => ELEPHANT,
        'N' | 'H' => HORSE,
        'R' => CHARIOT,
        'C' => CANNON,
        'P' => PAWN,
        _ => return None,
    };
    let color = if letter.is_ascii_uppercase() {
        RED
    } else {
        BLACK
    };
    Some(piece(color, kind))
}

/// A position read from FEN, with the plies since the last capture and the
/// move number.
#[derive(Debug, Clone, Copy)]
pub struct ParsedFen {
    /// The position.
    pub position: Position,
    /// Plies since the last capture (the FEN's fifth field, 0 if absent).
    pub quiet_plies: u32,
    /// The move number (the sixth field, 1 if absent).
    pub move_number: u32,
}

/// Read a FEN; the reason names what is wrong.
pub fn parse_fen(text: &str) -> Result<ParsedFen, String> {
    let mut fields = text.split_whitespace();
    let board_text = fields.next().ok_or("empty position text")?;
    let rows: Vec<&str> = board_text.split('/').collect();
    if rows.len() != RANKS {
        return Err(format!(
            "FEN board '{board_text}' has {} ranks, expected {RANKS}",
            rows.len()
        ));
    }
    let mut position = Position::empty();
    let mut counts = [[0usize; 8]; 2];
    for (row, row_text) in rows.iter().enumerate() {
        let rank = RANKS - 1 - row;
        let mut file = 0;
        for c in row_text.chars() {
            if let Some(run) = c.to_digit(10) {
                if run == 0 {
                    return Err(format!("FEN rank {rank}: a run of 0 empty squares"));
                }
                file += run as usize;
                continue;
            }
            let code = letter_piece(c)
                .ok_or_else(|| format!("FEN rank {rank}: '{c}' is not a xiangqi piece"))?;
            if file >= FILES {
                return Err(format!(
                    "FEN rank {rank} '{row_text}' has more than 9 files"
                ));
            }
            let sq = square(file, rank);
            if !reachable(code, sq) {
                return Err(format!(
                    "FEN: {} '{c}' cannot stand on {}",
                    if color_of(code) == RED {
                        "Red"
                    } else {
                        "Black"
                    },
                    square_text(sq, false)
                ));
            }
            counts[color_of(code)][kind_of(code) as usize] += 1;
            position.put(sq, code);
            file += 1;
        }
        if file != FILES {
            return Err(format!(
                "FEN rank {rank} '{row_text}' covers {file} files, expected 9"
            ));
        }
    }
    for (color, name) in [(RED, "Red"), (BLACK, "Black")] {
        if counts[color][KING as usize] != 1 {
            return Err(format!(
                "FEN: {name} has {} generals, expected 1",
                counts[color][KING as usize]
            ));
        }
        for kind in ADVISOR..=PAWN {
            if counts[color][kind as usize] > MOST[kind as usize] {
                return Err(format!(
                    "FEN: {name} has {} '{}', at most {} allowed",
                    counts[color][kind as usize],
                    piece_letter(piece(color, kind)),
                    MOST[kind as usize]
                ));
            }
        }
    }
    // A pawn keeps its file until it crosses the river, and each file
    // starts with one pawn at most: two uncrossed on one file are no game's.
    for (color, name) in [(RED, "Red"), (BLACK, "Black")] {
        for file in 0..FILES {
            let uncrossed = (0..RANKS)
                .filter(|&rank| {
                    let crossed = if color == RED { rank >= 5 } else { rank <= 4 };
                    !crossed && position.board[square(file, rank)] == piece(color, PAWN)
                })
                .count();
            if uncrossed > 1 {
                return Err(format!(
                    "FEN: {name} has {uncrossed} pawns on file {} on its side of the river, \
                     which no game reaches (a pawn keeps its file until it crosses)",
                    (b'a' + file as u8) as char
                ));
            }
        }
    }
    let side = match fields.next() {
        None | Some("w") | Some("W") | Some("r") | Some("R") => RED,
        Some("b") | Some("B") => BLACK,
        Some(other) => {
            return Err(format!(
                "FEN side to move '{other}': expected 'w' (or 'r') or 'b'"
            ))
        }
    };
    position.set_side(side);
    if position.king_attacked(side ^ 1) {
        // The flying general named as such: two generals on one file with
        // nothing between them attack each other.
        let [red, black] = position.kings.map(usize::from);
        let facing = file_of(red) == file_of(black)
            && (red + FILES..black)
                .step_by(FILES)
                .all(|sq| position.board[sq] == EMPTY);
        if facing {
            return Err(format!(
                "FEN: the generals face each other on file {} with nothing between them (the \
                 side not to move's general is attacked, which no game reaches)",
                (b'a' + file_of(red) as u8) as char
            ));
        }
        return Err("FEN: the side not to move has its general attacked".to_string());
    }
    // Castling and en-passant fields, kept for the chess-like shape.
    for _ in 0..2 {
        if let Some(field) = fields.next() {
            if field != "-" {
                return Err(format!("FEN field '{field}': expected '-'"));
            }
        }
    }
    let number = |field: Option<&str>, what: &str, default: u32| -> Result<u32, String> {
        match field {
            None => Ok(default),
            Some(f) => f
                .parse()
                .map_err(|_| format!("FEN {what} '{f}' is not a number")),
        }
    };
    let quiet_plies = number(fields.next(), "ply count", 0)?;
    let move_number = number(fields.next(), "move number", 1)?;
    if let Some(extra) = fields.next() {
        return Err(format!("FEN has an extra field '{extra}'"));
    }
    Ok(ParsedFen {
        position,
        quiet_plies,
        move_number,
    })
}

/// Write a FEN.
pub fn format_fen(position: &Position, quiet_plies: u32, move_number: u32) -> String {
    let mut text = String::with_capacity(100);
    for rank in (0..RANKS).rev() {
        let mut empty_run = 0;
        for file in 0..FILES {
            let code = position.board[square(file, rank)];
            if code == EMPTY {
                empty_run += 1;
                continue;
            }
            if empty_run > 0 {
                text.push(char::from(b'0' + empty_run));
                empty_run = 0;
            }
            text.push(piece_letter(code));
        }
        if empty_run > 0 {
            text.push(char::from(b'0' + empty_run));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    let side = if position.side() == RED { 'w' } else { 'b' };
    text.push_str(&format!(" {side} - - {quiet_plies} {move_number}"));
    text
}

/// A square as text: file letter and rank, counted from 0 or from 1.
pub fn square_text(sq: usize, from_one: bool) -> String {
    let file = char::from(b'a' + file_of(sq) as u8);
    format!("{file}{}", rank_of(sq) + usize::from(from_one))
}

/// Write a move in the current rank convention.
pub fn format_move(mv: Move) -> String {
    let from_one = ranks_from_one();
    let (from, to) = (crate::board::from_sq(mv), crate::board::to_sq(mv));
    if mv >> 14 != 0 || from >= FILES * RANKS || to >= FILES * RANKS {
        return "(none)".to_string();
    }
    format!(
        "{}{}",
        square_text(from, from_one),
        square_text(to, from_one)
    )
}

/// Read one square from the front of `text`; returns it and the rest.
fn parse_square(text: &str, from_one: bool) -> Option<(usize, &str)> {
    let mut chars = text.char_indices();
    // Either case, as the other games read their moves (`H2E2`).
    let file = chars.next()?.1.to_ascii_lowercase();
    if !('a'..='i').contains(&file) {
        return None;
    }
    let digits_end = text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |i| i + 1);
    let digits = &text[1..digits_end];
    // At most two digits, and no leading zero on a two-digit rank.
    if digits.is_empty() || digits.len() > 2 || (digits.len() == 2 && digits.starts_with('0')) {
        return None;
    }
    let number: usize = digits.parse().ok()?;
    let rank = if from_one {
        number.checked_sub(1)?
    } else {
        number
    };
    if rank >= RANKS {
        return None;
    }
    Some((
        square(usize::from(file as u8 - b'a'), rank),
        &text[digits_end..],
    ))
}

/// Read a move in the current rank convention; `None` if it is not one.
pub fn parse_move(text: &str) -> Option<Move> {
    let from_one = ranks_from_one();
    let text = text.trim();
    let (from, rest) = parse_square(text, from_one)?;
    // ICCS writes a dash between the squares (`H2-E2`).
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let (to, rest) = parse_square(rest, from_one)?;
    if !rest.is_empty() || from == to {
        return None;
    }
    Some(make_move(from, to))
}

/// A picture of the board: Black at the top, letters as in FEN, `.` for an
/// empty square, ranks and files labelled in the current rank convention.
pub fn board_picture(position: &Position, quiet_plies: u32) -> String {
    let from_one = ranks_from_one();
    let mut text = String::new();
    for rank in (0..RANKS).rev() {
        text.push_str(&format!("{:>2} ", rank + usize::from(from_one)));
        for file in 0..FILES {
            text.push(' ');
            text.push(piece_letter(position.board[square(file, rank)]));
        }
        text.push('\n');
        if rank == 5 {
            text.push_str("    -----------------\n");
        }
    }
    text.push_str("    a b c d e f g h i\n");
    let side = if position.side() == RED {
        "Red"
    } else {
        "Black"
    };
    let check = if position.in_check() {
        ", in check"
    } else {
        ""
    };
    let plies = if quiet_plies == 1 { "ply" } else { "plies" };
    text.push_str(&format!(
        "{side} to move{check}; {quiet_plies} {plies} since the last capture\n"
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_reads_in_either_case() {
        assert!(parse_move("h2e2").is_some());
        assert_eq!(parse_move("H2E2"), parse_move("h2e2"));
        assert_eq!(parse_move("h2E2"), parse_move("h2e2"));
        assert_eq!(parse_move("J2E2"), None);
        // ICCS's dash, once, between the squares only.
        assert_eq!(parse_move("H2-E2"), parse_move("h2e2"));
        assert_eq!(parse_move("h2--e2"), None);
        assert_eq!(parse_move("-h2e2"), None);
        assert_eq!(parse_move("h2e2-"), None);
    }

    #[test]
    fn facing_generals_are_named_as_such() {
        let err = |fen: &str| parse_fen(fen).err().unwrap_or_default();
        assert!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w").contains("the generals face each other on file e"),
            "{}",
            err("4k4/9/9/9/9/9/9/9/9/4K4 w")
        );
        // A piece between: no facing, and no error.
        assert!(parse_fen("4k4/9/9/9/4p4/9/9/9/9/4K4 w").is_ok());
        // Another attack on the general not to move is said as before.
        assert_eq!(
            err("3k5/3R5/9/9/9/9/9/9/9/4K4 w"),
            "FEN: the side not to move has its general attacked"
        );
    }
}
