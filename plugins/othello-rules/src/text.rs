//! Reading and writing positions and moves as text.
//!
//! Two position formats are read:
//!
//! * this crate's own, which it also writes: rows from top (row 1) to bottom
//!   separated by `/`, `X` black, `O` white, digits 1-8 for runs of empty
//!   squares, then a space and the side to move, `b` or `w`. The start
//!   position is `8/8/8/3OX3/3XO3/8/8/8 b`.
//! * the 64-square board string of Edax and NBoard: `-` or `.` empty, `X` or
//!   `*` black, `O` white (either case), in the same square order, then
//!   whitespace and the side to move (`X`, `*`, `b` or `B` for black; `O`,
//!   `w` or `W` for white; `x` and `o` too, as the board accepts either case).
//!
//! A text with a `/` or a digit in its board part is read as the first
//! format, anything else as a board string, so that each gets the error
//! message that fits it.
//!
//! Moves are squares `a1`..`h8` (files left to right, rows downwards) and
//! the pass, written `0000` as in UCI's null move.

use crate::board::{squares, Color, Position, PASS};

/// The position text of the start position.
pub const START_TEXT: &str = "8/8/8/3OX3/3XO3/8/8/8 b";

/// Write `position` in this crate's position text.
pub fn format_position(position: &Position) -> String {
    let mut text = String::with_capacity(80);
    for row in 0..8 {
        if row > 0 {
            text.push('/');
        }
        let mut empty_run = 0u8;
        for file in 0..8 {
            let bit = 1u64 << (row * 8 + file);
            let disc = if position.black & bit != 0 {
                'X'
            } else if position.white & bit != 0 {
                'O'
            } else {
                empty_run += 1;
                continue;
            };
            if empty_run > 0 {
                text.push(char::from(b'0' + empty_run));
                empty_run = 0;
            }
            text.push(disc);
        }
        if empty_run > 0 {
            text.push(char::from(b'0' + empty_run));
        }
    }
    text.push_str(match position.side {
        Color::Black => " b",
        Color::White => " w",
    });
    text
}

/// Read a position in either format (see the module documentation). The
/// error is one line saying what is wrong.
pub fn parse_position(text: &str) -> Result<Position, String> {
    // Edax's problem files (OBF) end the position at a `;`, the moves'
    // scores after it: `<board> X; G8:+18; H1:+12;`.
    let text = text.split_once(';').map_or(text, |(position, _)| position);
    let mut fields = text.split_whitespace();
    let mut board = fields.next().ok_or("position text is empty")?;
    let side = match fields.next() {
        Some(side) => side,
        // The board string with its side run on, 65 characters, as
        // Edax's `setboard` takes it.
        None if board.chars().count() == 65 && board.is_ascii() => {
            let (squares, side) = board.split_at(64);
            board = squares;
            side
        }
        None => return Err("missing side to move".to_string()),
    };
    // FEN's last fields, as a GUI writing one form for every game sends
    // them (`b - - 0 1`, `b 0 1`): no castling, no en passant, and move
    // counters, which mean nothing in Othello.
    let rest: Vec<&str> = fields.collect();
    let number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let counters = match rest[..] {
        [] => true,
        [a, b] => number(a) && number(b),
        ["-", "-", a, b] => number(a) && number(b),
        _ => false,
    };
    if !counters {
        return Err(format!(
            "unexpected text after the side to move: '{}' (only FEN's move counters, `0 1` or \
             `- - 0 1`, may follow it)",
            rest.join(" ")
        ));
    }
    let uses_rows = board.contains('/') || board.bytes().any(|b| b.is_ascii_digit());
    let (black, white, side) = if uses_rows {
        let (black, white) = parse_rows(board)?;
        (black, white, parse_row_side(side)?)
    } else {
        let (black, white) = parse_board_string(board)?;
        (black, white, parse_board_string_side(side)?)
    };
    Ok(Position { black, white, side })
}

/// Read the `/`-separated rows into black and white bitboards.
fn parse_rows(board: &str) -> Result<(u64, u64), String> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 8 {
        return Err(format!("expected 8 rows, got {}", rows.len()));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (row, cells) in rows.iter().enumerate() {
        let row_name = row + 1;
        // Count squares without indexing past the row, so that a long row
        // is reported as such rather than spilling into the next one.
        let mut file = 0usize;
        for c in cells.chars() {
            match c {
                '1'..='8' => file += c as usize - '0' as usize,
                'X' | 'O' => {
                    if file < 8 {
                        let bit = 1u64 << (row * 8 + file);
                        if c == 'X' {
                            black |= bit;
                        } else {
                            white |= bit;
                        }
                    }
                    file += 1;
                }
                _ => return Err(format!("unknown character '{c}' in row {row_name}")),
            }
        }
        if file != 8 {
            return Err(format!("row {row_name} has {file} squares"));
        }
    }
    Ok((black, white))
}

/// The side to move in this crate's format: `b` or `w`.
fn parse_row_side(side: &str) -> Result<Color, String> {
    match side {
        "b" => Ok(Color::Black),
        "w" => Ok(Color::White),
        _ => Err(format!("side to move must be 'b' or 'w', got '{side}'")),
    }
}

/// Read an Edax/NBoard board string into black and white bitboards.
fn parse_board_string(board: &str) -> Result<(u64, u64), String> {
    let count = board.chars().count();
    if count != 64 {
        return Err(format!("board string must have 64 squares, got {count}"));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (square, c) in board.chars().enumerate() {
        let bit = 1u64 << square;
        match c {
            '-' | '.' => {}
            'X' | 'x' | '*' => black |= bit,
            'O' | 'o' => white |= bit,
            _ => {
                return Err(format!(
                    "unknown character '{c}' at square {} of the board string",
                    square_name(square as u32)
                ))
            }
        }
    }
    Ok((black, white))
}

/// The side to move after a board string.
fn parse_board_string_side(side: &str) -> Result<Color, String> {
    match side {
        "X" | "x" | "*" | "b" | "B" => Ok(Color::Black),
        "O" | "o" | "w" | "W" => Ok(Color::White),
        _ => Err(format!("side to move must be 'X' or 'O', got '{side}'")),
    }
}

/// The name of square `square` (0..64), e.g. `d3`.
fn square_name(square: u32) -> String {
    let file = char::from(b'a' + (square % 8) as u8);
    let row = square / 8 + 1;
    format!("{file}{row}")
}

/// Canonical spelling of a move: the square in lower case, `0000` for a pass.
pub fn format_move(mv: u32) -> String {
    match mv {
        PASS => "0000".to_string(),
        square if square < 64 => square_name(square),
        // Not a move of this game; the text says so rather than panicking.
        other => format!("invalid-move-{other}"),
    }
}

/// Read a move: a square `a1`..`h8` in either case, or a pass written
/// `0000`, `pass` or `PA` (any case). Legality is not checked here.
pub fn parse_move(text: &str) -> Option<u32> {
    let text = text.trim();
    if text == "0000" || text.eq_ignore_ascii_case("pass") || text.eq_ignore_ascii_case("pa") {
        return Some(PASS);
    }
    match text.as_bytes() {
        &[file, row] => {
            let file = file.to_ascii_lowercase();
            if (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&row) {
                Some(u32::from(row - b'1') * 8 + u32::from(file - b'a'))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// A picture of the board for people: file letters across the top, row
/// numbers down the side, `X`, `O` and `.`, then whose turn it is and the
/// disc counts.
pub fn board_picture(position: &Position) -> String {
    let mut text = String::from("   a b c d e f g h\n");
    for row in 0..8 {
        text.push_str(&format!(" {}", row + 1));
        for file in 0..8 {
            let bit = 1u64 << (row * 8 + file);
            text.push(' ');
            text.push(if position.black & bit != 0 {
                'X'
            } else if position.white & bit != 0 {
                'O'
            } else {
                '.'
            });
        }
        text.push('\n');
    }
    let turn = if position.is_game_over() {
        "Game over"
    } else {
        match position.side {
            Color::Black => "Black (X) to move",
            Color::White => "White (O) to move",
        }
    };
    let black = position.black.count_ones();
    let white = position.white.count_ones();
    let legal: Vec<String> = squares(position.placements()).map(square_name).collect();
    text.push_str(&format!("{turn}; discs X {black}, O {white}\n"));
    if !legal.is_empty() {
        text.push_str(&format!("Legal: {}\n", legal.join(" ")));
    } else if !position.is_game_over() {
        // No placement, the game on: the one move is the pass.
        text.push_str("Legal: 0000 (a pass)\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board says which moves are legal, the pass included.
    #[test]
    fn the_board_lists_the_legal_moves_or_the_pass() {
        assert!(board_picture(&Position::START).ends_with("Legal: d3 c4 f5 e6\n"));
        // White to move with no placement (its one disc beside Black's in
        // the corner), Black with one: the pass.
        let position = parse_position("XO6/8/8/8/8/8/8/8 w").unwrap();
        assert!(!position.is_game_over());
        let text = board_picture(&position);
        assert!(text.ends_with("Legal: 0000 (a pass)\n"), "{text}");
    }

    #[test]
    fn fens_move_counters_are_passed_over() {
        let start = Ok(Position::START);
        assert_eq!(parse_position("8/8/8/3OX3/3XO3/8/8/8 b 0 1"), start);
        assert_eq!(parse_position("8/8/8/3OX3/3XO3/8/8/8 b - - 0 1"), start);
        for bad in [
            "8/8/8/3OX3/3XO3/8/8/8 b 0",
            "8/8/8/3OX3/3XO3/8/8/8 b x y",
            "8/8/8/3OX3/3XO3/8/8/8 b - 0 1",
        ] {
            assert!(
                parse_position(bad)
                    .unwrap_err()
                    .starts_with("unexpected text after the side to move"),
                "{bad}"
            );
        }
    }

    #[test]
    fn edax_problem_lines_and_run_on_sides_are_read() {
        let board = "---------------------------OX------XO---------------------------";
        let start = Ok(Position::START);
        assert_eq!(parse_position(&format!("{board} X")), start);
        assert_eq!(parse_position(&format!("{board} X;")), start);
        assert_eq!(parse_position(&format!("{board} X; F5:+0; D3:+0;")), start);
        assert_eq!(parse_position(&format!("{board}X")), start);
        assert_eq!(parse_position(&format!("{board}X;")), start);
        let white = parse_position(&format!("{board}O")).unwrap();
        assert_eq!(white.side, Color::White);
        // A board string one square short is still said to be one.
        assert_eq!(
            parse_position(&board[1..]),
            Err("missing side to move".to_string())
        );
        assert_eq!(
            parse_position(&format!("{board}Z")),
            Err("side to move must be 'X' or 'O', got 'Z'".to_string())
        );
        assert_eq!(
            parse_position(";"),
            Err("position text is empty".to_string())
        );
    }

    #[test]
    fn start_text_round_trips() {
        assert_eq!(format_position(&Position::START), START_TEXT);
        assert_eq!(parse_position(START_TEXT), Ok(Position::START));
    }

    #[test]
    fn squares_follow_the_row_major_layout() {
        assert_eq!(parse_move("a1"), Some(0));
        assert_eq!(parse_move("h1"), Some(7));
        assert_eq!(parse_move("a8"), Some(56));
        assert_eq!(parse_move("H8"), Some(63));
        for square in 0..64 {
            assert_eq!(parse_move(&format_move(square)), Some(square));
        }
    }
}
