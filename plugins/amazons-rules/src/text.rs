//! Position text, move text and the board picture.
//!
//! Position text is Fairy-Stockfish's Amazons FEN: ranks from the last down
//! to the first, separated by `/`; `Q` an amazon of the first player, `q`
//! one of the second, `*` an arrow, a number (`10` included) a run of empty
//! squares; then the side to move, `w` (first player) or `b`. Trailing
//! fields (castling, en passant, the two move counters) are optional and,
//! apart from the move number, ignored. The board side is read from the
//! text: any square board from 4x4 to 10x10.
//!
//! Moves are written `d1d7g7`: the square the amazon leaves, the square it
//! reaches, the square the arrow lands on; files `a`.. from the left, ranks
//! from 1 on the first player's side. Also read: `d1d7(g7)` (Chinese
//! championship records), `d1-d7/g7` and `d1d7,d7g7` (Fairy-Stockfish's
//! UCI).

use std::sync::atomic::{AtomicBool, Ordering};

use plyd_api::Move;

use crate::board::{
    arrow_sq, from_sq, make_move, squares, to_sq, Board, Geometry, Sq, ARROW, EMPTY, FIRST,
    MAX_SIZE, MIN_SIZE, SECOND,
};

/// A position read from text.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The board.
    pub board: Board,
    /// The move number of the text (1 when absent).
    pub move_number: u32,
}

/// Read a position text.
pub fn parse_fen(text: &str) -> Result<Parsed, String> {
    let mut fields = text.split_whitespace();
    let placement = fields.next().ok_or("empty position text")?;
    let rows: Vec<&str> = placement.split('/').collect();
    let size = rows.len();
    if !(usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)).contains(&size) {
        return Err(format!(
            "the board has {size} ranks; a board of {MIN_SIZE} to {MAX_SIZE} ranks is expected"
        ));
    }
    let mut board = Board::empty(size as u8);
    let g = *board.geometry();
    for (i, row) in rows.iter().enumerate() {
        let rank = (size - 1 - i) as u8;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                let mut run = digit as usize;
                while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run.saturating_mul(10).saturating_add(next as usize);
                    chars.next();
                }
                if run == 0 {
                    return Err(format!("rank {}: a run of 0 empty squares", rank + 1));
                }
                // Past the widest board, the count stops mattering.
                file = file.saturating_add(run).min(usize::from(MAX_SIZE) + 1);
                continue;
            }
            let what = match c {
                'Q' => FIRST,
                'q' => SECOND,
                '*' => ARROW,
                _ => {
                    return Err(format!(
                        "rank {}: '{c}' is not Q, q, * or a number",
                        rank + 1
                    ))
                }
            };
            if file >= size {
                return Err(format!(
                    "rank {} has more than {size} squares, but the text has {size} ranks: a board is square ({size} ranks of {size})",
                    rank + 1
                ));
            }
            board.put(g.square(file as u8, rank), what);
            file += 1;
        }
        if file != size {
            let squares = if file > usize::from(MAX_SIZE) {
                format!("more than {MAX_SIZE}")
            } else {
                file.to_string()
            };
            return Err(format!(
                "rank {} has {squares} squares, but the text has {size} ranks: a board is square ({size} ranks of {size})",
                rank + 1
            ));
        }
    }
    if board.amazons[0] == 0 || board.amazons[1] == 0 {
        return Err("each player needs at least one amazon".to_string());
    }
    let side = match fields.next() {
        None | Some("w") | Some("W") => 0,
        Some("b") | Some("B") => 1,
        Some(other) => return Err(format!("side to move '{other}' is not w or b")),
    };
    board.set_side(side);
    // Castling, en passant and the no-progress counter mean nothing here.
    let rest: Vec<&str> = fields.collect();
    let move_number = match rest.get(3) {
        Some(n) => n
            .parse::<u32>()
            .map_err(|_| format!("move number '{n}' is not a number"))?,
        None => 1,
    };
    if rest.len() > 4 {
        return Err(format!(
            "unexpected text after the move number: '{}'",
            rest[4]
        ));
    }
    Ok(Parsed {
        board,
        move_number: move_number.max(1),
    })
}

/// Write a position text (all six fields, as Fairy-Stockfish writes them).
pub fn format_fen(board: &Board, move_number: u32) -> String {
    let g = board.geometry();
    let mut out = String::new();
    for rank in (0..board.size).rev() {
        let mut run = 0;
        for file in 0..board.size {
            let c = match board.at(g.square(file, rank)) {
                FIRST => 'Q',
                SECOND => 'q',
                ARROW => '*',
                _ => {
                    run += 1;
                    continue;
                }
            };
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            out.push(c);
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = if board.side == 0 { 'w' } else { 'b' };
    format!("{out} {side} - - 0 {move_number}")
}

/// The name of a square (`d1`).
pub fn square_name(geometry: &Geometry, sq: Sq) -> String {
    let (file, rank) = geometry.file_rank(sq);
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// Read the squares named in `text`, skipping the separators `-`, `/`,
/// `,`, `(`, `)` and `x`. `None` on anything else or a square off the
/// board.
fn read_squares(geometry: &Geometry, text: &str) -> Option<Vec<Sq>> {
    let bytes = text.trim().as_bytes();
    let mut out = Vec::with_capacity(4);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i].to_ascii_lowercase();
        if matches!(c, b'-' | b'/' | b',' | b'(' | b')' | b'x') {
            i += 1;
            continue;
        }
        if !c.is_ascii_lowercase() {
            return None;
        }
        let file = c - b'a';
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let rank: u8 = std::str::from_utf8(&bytes[start..i]).ok()?.parse().ok()?;
        if file >= geometry.size || rank == 0 || rank > geometry.size {
            return None;
        }
        out.push(geometry.square(file, rank - 1));
        if out.len() > 4 {
            return None;
        }
    }
    Some(out)
}

/// Read a move in any accepted spelling; legality is not checked.
pub fn parse_move(geometry: &Geometry, text: &str) -> Option<Move> {
    let squares = read_squares(geometry, text)?;
    match squares[..] {
        [from, to, arrow] => Some(make_move(from, to, arrow)),
        [from, to, again, arrow] if again == to => Some(make_move(from, to, arrow)),
        _ => None,
    }
}

/// Whether moves are written in Fairy-Stockfish's two-part form. One
/// setting for the whole plugin (the `MoveNotation` option).
static TWO_PART: AtomicBool = AtomicBool::new(false);

/// Write moves as `d1d7,d7g7` (Fairy-Stockfish's UCI) instead of `d1d7g7`.
pub fn set_two_part_moves(on: bool) {
    TWO_PART.store(on, Ordering::Relaxed);
}

/// The spelling of a move: `d1d7g7`, or `d1d7,d7g7` when
/// [`set_two_part_moves`] is on.
pub fn format_move(geometry: &Geometry, mv: Move) -> String {
    let (from, to, arrow) = (
        square_name(geometry, from_sq(mv)),
        square_name(geometry, to_sq(mv)),
        square_name(geometry, arrow_sq(mv)),
    );
    if TWO_PART.load(Ordering::Relaxed) {
        format!("{from}{to},{to}{arrow}")
    } else {
        format!("{from}{to}{arrow}")
    }
}

/// A picture of the board, last rank on top, and the side to move (the
/// daemon's `d` adds the position text, as for every game).
pub fn board_picture(board: &Board) -> String {
    let g = board.geometry();
    let mut out = String::new();
    for rank in (0..board.size).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..board.size {
            out.push(' ');
            out.push(match board.at(g.square(file, rank)) {
                FIRST => 'Q',
                SECOND => 'q',
                ARROW => '*',
                EMPTY => '.',
                _ => '?',
            });
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..board.size {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    let mover = if board.side == 0 { "Q" } else { "q" };
    out.push_str(&format!(
        "{mover} to move; arrows {}",
        squares(board.arrows).count()
    ));
    out
}
