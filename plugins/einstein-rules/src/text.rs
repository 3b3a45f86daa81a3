//! Position text, move text and the board picture.
//!
//! # Position text
//!
//! `<rank 5>/<rank 4>/<rank 3>/<rank 2>/<rank 1> <side> <red set-up> <blue set-up> [<roll>]`
//!
//! * Ranks from the top (rank 5, Red's side) down, five squares each from
//!   file `a` to `e`: `.` empty, `1`..`6` Red's stone of that number,
//!   `a`..`f` Blue's stone 1..6.
//! * `<side>`: `r` Red or `b` Blue, the side to move (or to roll, or to
//!   arrange).
//! * Each side's arrangement as its move wrote it (`s` and the six stone
//!   numbers on its start squares, see [`crate::board::START_SQUARES`]), or
//!   `-` when not chosen or not known.
//! * `<roll>`: `r1`..`r6` when the die has been cast for the side to
//!   move; absent before the roll.
//!
//! The stage follows from the text: an empty board with both set-ups `-`
//! is Red's set-up (`...../...../...../...../..... r - -`, the start); Red's
//! set-up given, Blue's `-`, and the board holding exactly Red's stones as
//! that set-up placed them is Blue's set-up; anything else is play, where
//! the set-up fields only record how the game began. After
//! `s123456 s123456` the text is `123../45.../6...f/...ed/..cba r s123456 s123456`.

use crate::board::{
    arrangement, arrangement_index, number, owner, stone, Board, ARRANGE, BLUE, RED, ROLL,
    STAGE_BLUE_SETUP, STAGE_PLAY, STAGE_RED_SETUP, START_SQUARES, TARGET,
};

/// How the game on `board` was won, in words: the winner's stone on the
/// corner it raced to, or the loser's last stone taken; `None` while it
/// goes on.
pub fn win_reason(board: &Board) -> Option<String> {
    let winner = board.winner()?;
    let name = |side: usize| if side == RED { "Red" } else { "Blue" };
    let corner = board.cells[usize::from(TARGET[winner])];
    Some(if corner != 0 && owner(corner) == winner {
        format!(
            "{} reached the corner {}",
            name(winner),
            square_name(TARGET[winner])
        )
    } else {
        format!("{} took every {} stone", name(winner), name(1 - winner))
    })
}

/// The name of a square (`a1`..`e5`).
pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 5) as char, sq / 5 + 1)
}

/// Read a square name (either case).
pub fn parse_square(text: &[u8]) -> Option<u8> {
    match text {
        [f, r] => {
            let f = f.to_ascii_lowercase();
            if (b'a'..=b'e').contains(&f) && (b'1'..=b'5').contains(r) {
                Some((r - b'1') * 5 + (f - b'a'))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The text of an arrangement's move (`s123456`).
pub fn arrangement_text(index: usize) -> String {
    let stones = arrangement(index);
    let digits: String = stones.iter().map(|&s| (b'0' + s) as char).collect();
    format!("s{digits}")
}

/// Read `s` plus six stone numbers, each of 1..=6 once.
pub fn parse_arrangement(text: &str) -> Result<usize, String> {
    let digits = text
        .strip_prefix('s')
        .or_else(|| text.strip_prefix('S'))
        .ok_or_else(|| format!("'{text}' is not an arrangement (s and six stone numbers)"))?;
    let bytes = digits.as_bytes();
    if bytes.len() != 6 || !bytes.iter().all(|b| (b'1'..=b'6').contains(b)) {
        return Err(format!(
            "'{text}' is not an arrangement: it needs the six stone numbers 1..6, found '{digits}'"
        ));
    }
    let mut stones = [0; 6];
    for (slot, b) in stones.iter_mut().zip(bytes) {
        *slot = b - b'0';
    }
    arrangement_index(&stones)
        .ok_or_else(|| format!("'{text}' is not an arrangement: a stone number appears twice"))
}

/// A side's name.
fn side_name(side: usize) -> &'static str {
    if side == RED {
        "Red"
    } else {
        "Blue"
    }
}

/// Why `mv` is not legal on `board`: the stage it does not belong to, the
/// stone the die does not move, the way a stone does not step; empty for
/// a legal move, before a roll (the host says a chance move comes first)
/// and after the game's end (the host says it is over).
pub fn illegal_reason(board: &Board, mv: u32) -> String {
    if board.is_legal(mv) || board.is_over() {
        return String::new();
    }
    let side = board.mover();
    let name = side_name(side);
    if board.stage != STAGE_PLAY {
        return format!("{name} sets its stones out first (an arrangement such as s123456)");
    }
    if mv >= ARRANGE {
        return "the stones are set out already".to_string();
    }
    if board.roll == 0 {
        return String::new();
    }
    if mv >= ROLL {
        return format!("the die shows {} already", board.roll);
    }
    let (from, to) = ((mv / 32) as u8, (mv % 32) as u8);
    if from >= 25 || to >= 25 {
        return String::new();
    }
    let cell = board.cells[usize::from(from)];
    if cell == 0 {
        return format!("no stone stands on {}", square_name(from));
    }
    if owner(cell) != side {
        return format!(
            "the stone on {} is {}'s",
            square_name(from),
            side_name(owner(cell))
        );
    }
    let (stones, count) = board.movable(side, board.roll);
    if !stones[..count].contains(&number(cell)) {
        let allowed = match stones[..count] {
            [one] if one == board.roll => format!("stone {one}"),
            [one] => format!("stone {one}, the nearest left to it"),
            [lower, higher] => format!("stone {lower} or {higher}, the nearest left to it"),
            _ => "none".to_string(),
        };
        return format!(
            "the die shows {}, which moves {name}'s {allowed}, not stone {}",
            board.roll,
            number(cell)
        );
    }
    format!(
        "a {name} stone steps one square towards {}: along its rank, its file or the diagonal between",
        square_name(TARGET[side])
    )
}

/// The text of a move.
pub fn move_text(mv: u32) -> String {
    if mv >= ARRANGE {
        arrangement_text((mv - ARRANGE) as usize)
    } else if mv >= ROLL {
        format!("r{}", mv - ROLL)
    } else {
        format!(
            "{}{}",
            square_name((mv / 32) as u8),
            square_name((mv % 32) as u8)
        )
    }
}

/// Read a move text: a step (`b4c3`), a roll (`r1`..`r6`) or an
/// arrangement (`s123456`). Whether it is legal here is the caller's
/// business.
pub fn parse_move(text: &str) -> Option<u32> {
    let text = text.trim();
    let bytes = text.as_bytes();
    match bytes.first() {
        Some(b's' | b'S') => parse_arrangement(text).ok().map(|i| ARRANGE + i as u32),
        Some(b'r' | b'R') if bytes.len() == 2 => match bytes[1] {
            f @ b'1'..=b'6' => Some(ROLL + u32::from(f - b'0')),
            _ => None,
        },
        _ if bytes.len() == 4 => {
            let from = parse_square(&bytes[..2])?;
            let to = parse_square(&bytes[2..])?;
            Some(u32::from(from) * 32 + u32::from(to))
        }
        _ => None,
    }
}

/// The character of a cell in position text.
pub fn cell_char(cell: u8) -> char {
    match cell {
        0 => '.',
        1..=6 => (b'0' + cell) as char,
        _ => (b'a' + cell - 7) as char,
    }
}

/// A position read from text: the board and the two set-ups as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The board, with its stage.
    pub board: Board,
    /// Each side's arrangement index, if given.
    pub arrangements: [Option<u16>; 2],
}

/// Read a position text.
pub fn parse_position(text: &str) -> Result<Parsed, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (ranks, side, setups, roll) = match &words[..] {
        [ranks, side, red, blue] => (*ranks, *side, [*red, *blue], None),
        [ranks, side, red, blue, roll] => (*ranks, *side, [*red, *blue], Some(*roll)),
        _ => {
            return Err(format!(
                "'{text}' is not 'ranks side red-setup blue-setup [roll]'"
            ))
        }
    };
    let rows: Vec<&str> = ranks.split('/').collect();
    if rows.len() != 5 || rows.iter().any(|r| r.len() != 5) {
        return Err(format!("'{ranks}' is not five ranks of five squares"));
    }
    let mut board = Board::setup();
    board.stage = STAGE_PLAY;
    for (row, squares) in rows.iter().enumerate() {
        let rank = 4 - row as u8;
        for (f, ch) in squares.bytes().enumerate() {
            let cell = match ch {
                b'.' => continue,
                b'1'..=b'6' => stone(RED, ch - b'0'),
                b'a'..=b'f' => stone(BLUE, ch - b'a' + 1),
                _ => return Err(format!("'{}' is not a square's content", ch as char)),
            };
            if board.has(owner(cell), number(cell)) {
                let who = if owner(cell) == RED { "Red" } else { "Blue" };
                return Err(format!(
                    "{who}'s stone {} is on the board twice",
                    number(cell)
                ));
            }
            let sq = rank * 5 + f as u8;
            board.cells[usize::from(sq)] = cell;
            board.squares[owner(cell)][usize::from(number(cell))] = sq;
            board.counts[owner(cell)] += 1;
        }
    }
    board.side = match side {
        "r" => RED as u8,
        "b" => BLUE as u8,
        _ => return Err(format!("side '{side}' is not r or b")),
    };
    let mut arrangements = [None; 2];
    for (slot, word) in arrangements.iter_mut().zip(setups) {
        if word != "-" {
            *slot = Some(parse_arrangement(word)? as u16);
        }
    }
    let placed = |side: usize, index: u16| {
        let mut b = Board::setup();
        for (i, &s) in arrangement(usize::from(index)).iter().enumerate() {
            b.cells[usize::from(START_SQUARES[side][i])] = stone(side, s);
        }
        b.cells
    };
    let empty = board.counts == [0, 0];
    board.stage = match arrangements {
        [None, None] if empty => STAGE_RED_SETUP,
        [Some(red), None] if board.cells == placed(RED, red) => STAGE_BLUE_SETUP,
        _ => STAGE_PLAY,
    };
    let wanted_side = match board.stage {
        STAGE_RED_SETUP => Some(RED as u8),
        STAGE_BLUE_SETUP => Some(BLUE as u8),
        _ => None,
    };
    if let Some(wanted) = wanted_side {
        if board.side != wanted {
            return Err(format!(
                "at the set-up stage it is {}'s turn to arrange",
                if wanted == 0 { "Red" } else { "Blue" }
            ));
        }
    }
    let on_target = |side: usize| {
        let cell = board.cells[usize::from(TARGET[side])];
        cell != 0 && owner(cell) == side
    };
    if board.stage == STAGE_PLAY && on_target(RED) && on_target(BLUE) {
        return Err("both sides are on their target corners".to_string());
    }
    if board.stage == STAGE_PLAY && empty {
        return Err("no stones on the board, and the set-ups say the game has begun".to_string());
    }
    if let Some(word) = roll {
        let face = match word.as_bytes() {
            [b'r', f @ b'1'..=b'6'] => f - b'0',
            _ => return Err(format!("'{word}' is not a roll r1..r6")),
        };
        if board.stage != STAGE_PLAY {
            return Err("no roll is made at the set-up stage".to_string());
        }
        if board.is_over() {
            return Err("the game is over: there is nothing to roll for".to_string());
        }
        board.roll = face;
    }
    Ok(Parsed {
        board,
        arrangements,
    })
}

/// The position text of `board` with the set-ups `arrangements`.
pub fn position_text(board: &Board, arrangements: [Option<u16>; 2]) -> String {
    let mut text = String::with_capacity(48);
    for row in 0..5u8 {
        if row > 0 {
            text.push('/');
        }
        let rank = 4 - row;
        for f in 0..5 {
            text.push(cell_char(board.cells[usize::from(rank * 5 + f)]));
        }
    }
    text.push(' ');
    text.push(if board.side == 0 { 'r' } else { 'b' });
    for a in arrangements {
        text.push(' ');
        match a {
            Some(index) => text.push_str(&arrangement_text(usize::from(index))),
            None => text.push('-'),
        }
    }
    if board.roll != 0 {
        text.push_str(&format!(" r{}", board.roll));
    }
    text
}

/// The board as people read it, rank 5 on top, with whose turn it is.
pub fn board_picture(board: &Board, arrangements: [Option<u16>; 2]) -> String {
    let mut text = String::from("   a b c d e\n");
    for rank in (0..5u8).rev() {
        text.push_str(&format!(" {}", rank + 1));
        for f in 0..5 {
            text.push(' ');
            text.push(cell_char(board.cells[usize::from(rank * 5 + f)]));
        }
        text.push('\n');
    }
    let side = if board.side == 0 { "Red" } else { "Blue" };
    let setup = |a: Option<u16>| {
        a.map_or("-".to_string(), |i| arrangement_text(usize::from(i)))
            .to_string()
    };
    text.push_str(&format!(
        "Red 1-6 move toward e1, Blue a-f (a = 1 ... f = 6) toward a5; set-ups Red {} Blue {}\n",
        setup(arrangements[RED]),
        setup(arrangements[BLUE])
    ));
    let state = match board.stage {
        STAGE_RED_SETUP | STAGE_BLUE_SETUP => format!("{side} to choose its arrangement"),
        _ => match board.winner() {
            Some(w) => format!("{} has won", if w == RED { "Red" } else { "Blue" }),
            None if board.roll == 0 => format!("{side} to roll"),
            None => format!("{side} to move, rolled {}", board.roll),
        },
    };
    text.push_str(&state);
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str) -> Option<String> {
        win_reason(&parse_position(text).expect("a position").board)
    }

    #[test]
    fn a_win_names_the_way_it_was_won() {
        assert_eq!(
            reason("123../45.../6...f/...ed/..cba r s123456 s123456"),
            None
        );
        assert_eq!(
            reason(".23../45.../6...f/...ed/..cb1 b s123456 s123456").as_deref(),
            Some("Red reached the corner e1")
        );
        assert_eq!(
            reason("a23../45.../6...f/...ed/..cb. r s123456 s123456").as_deref(),
            Some("Blue reached the corner a5")
        );
        assert_eq!(
            reason("123../45.../6..../...../..... b s123456 s123456").as_deref(),
            Some("Red took every Blue stone")
        );
        assert_eq!(
            reason("...../...../....f/...ed/..cba r s123456 s123456").as_deref(),
            Some("Blue took every Red stone")
        );
    }
}
