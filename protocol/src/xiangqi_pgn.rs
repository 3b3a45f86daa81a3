//! Xiangqi games in PGN, as the xiangqi databases and programs keep them:
//! tag pairs (`[Red "..."]`, `[Black "..."]`, `[Result "1-0"]`, `[FEN
//! "..."]`, `[Format "ICCS"]`), then the moves.
//!
//! Moves are read in the three notations such files use, whichever
//! `Format` says (each move is recognised by its own text):
//!
//! * ICCS coordinates, `H2-E2` (files `a`-`i` from Red's left, ranks 0-9
//!   from Red's side): plyd's own move `h2e2` less the hyphen;
//! * WXF, `C2.5` `H8+7` `+R-2`: the piece (`K A E B H N R C P`), its file
//!   counted from the mover's right (or `+`/`-` for the front or rear of
//!   two on one file), then `.` (or `=`) across to a file, `+` forward or
//!   `-` back: by that many ranks for the king, rooks, cannons and pawns,
//!   to that file for advisers, elephants and horses;
//! * Chinese, `炮二平五` `马８进７` `前车退二`: the same in characters,
//!   Red's files in Chinese numerals, Black's in digits (ASCII or full
//!   width).
//!
//! WXF and Chinese moves say which piece moves where by the board, so the
//! reader follows the game on a board of its own; the rules are the
//! plugin's, which checks every move when the game is replayed. plyd
//! writes ICCS (`[Format "ICCS"]`).

use crate::records::{comment_text, RecordGame, RecordResult};
use crate::tree::{too_many_moves, Line, MoveTree, LINE_MOVES_LIMIT};

/// Files across the board.
const FILES: usize = 9;
/// Ranks up the board, Red's side first.
const RANKS: usize = 10;
/// The start, in the FEN plyd's xiangqi reads.
pub(crate) const XIANGQI_START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

/// A square: its file (0 for `a`) and rank (0 Red's back rank).
type Square = (usize, usize);

/// A PGN game's tag pairs, name and value.
pub(crate) type Tags = Vec<(String, String)>;

/// A piece: its kind (`k a b n r c p`) and whether it is Red's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    kind: char,
    red: bool,
}

/// The pieces of a position and the side to move, enough to tell which
/// piece a WXF or Chinese move names.
#[derive(Debug, Clone)]
struct Board {
    /// `squares[rank][file]`, rank 0 Red's back rank.
    squares: [[Option<Piece>; FILES]; RANKS],
    red_to_move: bool,
}

impl Board {
    /// The board of a FEN (`rnbakabnr/9/...` from Black's back rank, then
    /// `w`/`r` or `b`; `h` and `e` read as horse and elephant).
    fn from_fen(fen: &str) -> Result<Board, String> {
        let mut words = fen.split_whitespace();
        let placement = words.next().ok_or("an empty FEN")?;
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != RANKS {
            return Err(format!("FEN '{fen}' does not have 10 ranks"));
        }
        let mut squares = [[None; FILES]; RANKS];
        for (i, row) in rows.iter().enumerate() {
            let rank = RANKS - 1 - i;
            let mut file = 0;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    file += n as usize;
                    continue;
                }
                let kind = match c.to_ascii_lowercase() {
                    'h' => 'n',
                    'e' => 'b',
                    k @ ('k' | 'a' | 'b' | 'n' | 'r' | 'c' | 'p') => k,
                    _ => return Err(format!("FEN '{fen}': '{c}' is not a xiangqi piece")),
                };
                if file >= FILES {
                    return Err(format!("FEN '{fen}': a rank of more than 9 files"));
                }
                squares[rank][file] = Some(Piece {
                    kind,
                    red: c.is_ascii_uppercase(),
                });
                file += 1;
            }
            if file != FILES {
                return Err(format!("FEN '{fen}': a rank of {file} files, not 9"));
            }
        }
        let red_to_move = !matches!(words.next(), Some("b" | "B"));
        Ok(Board {
            squares,
            red_to_move,
        })
    }

    /// Play a move from `(file, rank)` to `(file, rank)`.
    fn play(&mut self, from: Square, to: Square) {
        self.squares[to.1][to.0] = self.squares[from.1][from.0].take();
        self.red_to_move = !self.red_to_move;
    }

    /// Take back the move [`Board::play`] played from `from` to `to`,
    /// which took `taken` (what stood on `to`).
    fn unplay(&mut self, from: Square, to: Square, taken: Option<Piece>) {
        self.squares[from.1][from.0] = self.squares[to.1][to.0].take();
        self.squares[to.1][to.0] = taken;
        self.red_to_move = !self.red_to_move;
    }

    /// The board file of the mover's file number `n` (1-9 from its right).
    fn file_of(&self, n: usize) -> Option<usize> {
        (1..=FILES)
            .contains(&n)
            .then(|| if self.red_to_move { FILES - n } else { n - 1 })
    }

    /// Ranks forward for the side to move: up for Red, down for Black.
    fn forward(&self, from: usize, ranks: i32) -> Option<usize> {
        let to = if self.red_to_move {
            from as i32 + ranks
        } else {
            from as i32 - ranks
        };
        (0..RANKS as i32).contains(&to).then_some(to as usize)
    }

    /// The mover's pieces of `kind` on `file`, the front one first.
    fn on_file(&self, kind: char, file: usize) -> Vec<usize> {
        let mut ranks: Vec<usize> = (0..RANKS)
            .filter(|&rank| {
                self.squares[rank][file]
                    == Some(Piece {
                        kind,
                        red: self.red_to_move,
                    })
            })
            .collect();
        if self.red_to_move {
            ranks.reverse();
        }
        ranks
    }

    /// The mover's files holding two or more pieces of `kind`.
    fn crowded_files(&self, kind: char) -> Vec<usize> {
        (0..FILES)
            .filter(|&file| self.on_file(kind, file).len() >= 2)
            .collect()
    }
}

/// A WXF or Chinese move taken apart: the piece, which one, how it moves.
#[derive(Debug, Clone, Copy)]
struct Described {
    kind: char,
    which: Which,
    /// `.` across, `+` forward, `-` back.
    motion: char,
    /// The file moved to (across, and diagonal movers) or the ranks
    /// moved (straight movers, forward or back), in the mover's numbers.
    number: usize,
}

/// Which of the mover's pieces of a kind moves.
#[derive(Debug, Clone, Copy)]
enum Which {
    /// The one on this file (the mover's number).
    File(usize),
    /// The front, middle or rear one of those on one file.
    Front,
    Middle,
    Rear,
}

/// A WXF move (`C2.5`, `H8+7`, `+R-2`, `R+-2`, `C2=5`).
fn wxf(text: &str) -> Option<Described> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 4 {
        return None;
    }
    let kind = |c: char| match c.to_ascii_uppercase() {
        'K' => Some('k'),
        'A' => Some('a'),
        'E' | 'B' => Some('b'),
        'H' | 'N' => Some('n'),
        'R' => Some('r'),
        'C' => Some('c'),
        'P' => Some('p'),
        _ => None,
    };
    let which = |c: char| match c {
        '+' => Some(Which::Front),
        '-' => Some(Which::Rear),
        d => d
            .to_digit(10)
            .filter(|&n| n >= 1)
            .map(|n| Which::File(n as usize)),
    };
    let (kind, which) = match (kind(chars[0]), kind(chars[1])) {
        (Some(k), _) => (k, which(chars[1])?),
        (None, Some(k)) => (k, which(chars[0])?),
        (None, None) => return None,
    };
    let motion = match chars[2] {
        '.' | '=' => '.',
        m @ ('+' | '-') => m,
        _ => return None,
    };
    let number = chars[3].to_digit(10).filter(|&n| n >= 1)? as usize;
    Some(Described {
        kind,
        which,
        motion,
        number,
    })
}

/// A number in a Chinese move: a Chinese numeral (Red's) or a digit,
/// ASCII or full width (Black's).
fn chinese_number(c: char) -> Option<usize> {
    let numerals = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    if let Some(i) = numerals.iter().position(|&n| n == c) {
        return Some(i + 1);
    }
    let c = match c {
        '１'..='９' => char::from_u32(c as u32 - '１' as u32 + '1' as u32)?,
        c => c,
    };
    c.to_digit(10).filter(|&n| n >= 1).map(|n| n as usize)
}

/// The piece of a Chinese character, in either side's or the
/// traditional form.
fn chinese_piece(c: char) -> Option<char> {
    match c {
        '帅' | '帥' | '将' | '將' => Some('k'),
        '仕' | '士' => Some('a'),
        '相' | '象' => Some('b'),
        '马' | '馬' | '傌' | '㐷' => Some('n'),
        '车' | '車' | '俥' | '伡' => Some('r'),
        '炮' | '砲' | '包' => Some('c'),
        '兵' | '卒' => Some('p'),
        _ => None,
    }
}

/// A piece kind's name in English, for messages.
fn piece_name(kind: char) -> &'static str {
    match kind {
        'k' => "general",
        'a' => "advisor",
        'b' => "elephant",
        'n' => "horse",
        'r' => "chariot",
        'c' => "cannon",
        _ => "pawn",
    }
}

/// A Chinese move (`炮二平五`, `马８进７`, `前车退二`, `后炮平四`).
fn chinese(text: &str) -> Option<Described> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 4 {
        return None;
    }
    let (kind, which) = match (chinese_piece(chars[0]), chinese_piece(chars[1])) {
        (Some(kind), _) => (kind, Which::File(chinese_number(chars[1])?)),
        (None, Some(kind)) => (
            kind,
            match chars[0] {
                '前' => Which::Front,
                '中' => Which::Middle,
                '后' | '後' => Which::Rear,
                _ => return None,
            },
        ),
        (None, None) => return None,
    };
    let motion = match chars[2] {
        '进' | '進' => '+',
        '退' => '-',
        '平' => '.',
        _ => return None,
    };
    Some(Described {
        kind,
        which,
        motion,
        number: chinese_number(chars[3])?,
    })
}

/// The squares a described move goes from and to on `board`.
fn locate(board: &Board, m: Described) -> Result<(Square, Square), String> {
    let (file, rank) = match m.which {
        Which::File(n) => {
            let file = board.file_of(n).ok_or("no such file")?;
            let ranks = board.on_file(m.kind, file);
            // Two advisers or elephants on one file are told apart by
            // where they go: only one of them can make the move.
            let fits: Vec<usize> = ranks
                .iter()
                .copied()
                .filter(|&rank| destination(board, m, file, rank).is_some())
                .collect();
            match fits[..] {
                [rank] => (file, rank),
                [] if ranks.is_empty() => return Err("no such piece there".to_string()),
                // The piece is there: its way of moving (or the board's
                // edge) rules the move out.
                [] => {
                    return Err(format!(
                        "the {} on that file cannot go {} so",
                        piece_name(m.kind),
                        match m.motion {
                            '+' => "forward",
                            '-' => "back",
                            _ => "sideways",
                        }
                    ))
                }
                _ => return Err("two such pieces on that file".to_string()),
            }
        }
        which => {
            let files = board.crowded_files(m.kind);
            // Pawns on two crowded files are named by file in WXF and
            // Chinese alike; one crowded file is what a front/rear
            // mark names.
            let [file] = files[..] else {
                return Err(if files.is_empty() {
                    "no file holds two such pieces".to_string()
                } else {
                    "more than one file holds two such pieces".to_string()
                });
            };
            let ranks = board.on_file(m.kind, file);
            let rank = match which {
                Which::Front => ranks[0],
                Which::Rear => ranks[ranks.len() - 1],
                Which::Middle if ranks.len() == 3 => ranks[1],
                _ => return Err("no middle piece".to_string()),
            };
            (file, rank)
        }
    };
    let to = destination(board, m, file, rank).ok_or("it cannot move so")?;
    Ok(((file, rank), to))
}

/// Where the piece on `(file, rank)` goes by `m`, if it can go so.
fn destination(board: &Board, m: Described, file: usize, rank: usize) -> Option<Square> {
    let straight = matches!(m.kind, 'k' | 'r' | 'c' | 'p');
    match m.motion {
        '.' => {
            let to = board.file_of(m.number)?;
            (straight && to != file).then_some((to, rank))
        }
        motion => {
            let sign = if motion == '+' { 1 } else { -1 };
            if straight {
                return Some((file, board.forward(rank, sign * m.number as i32)?));
            }
            let to = board.file_of(m.number)?;
            let across = to.abs_diff(file);
            let ranks = match (m.kind, across) {
                ('a', 1) => 1,
                ('b', 2) => 2,
                ('n', 1) => 2,
                ('n', 2) => 1,
                _ => return None,
            };
            let to = (to, board.forward(rank, sign * ranks)?);
            // An adviser stays in its palace, an elephant on its side of
            // the river: of two on one file, only one can make the move.
            let own_side = |rank: usize| (rank < 5) == board.red_to_move;
            let stays = match m.kind {
                'a' => (3..=5).contains(&to.0) && own_side(to.1) && !(3..=6).contains(&to.1),
                'b' => own_side(to.1),
                _ => true,
            };
            stays.then_some(to)
        }
    }
}

/// A square in plyd's (and ICCS's) coordinates: `e2`.
fn square_name((file, rank): Square) -> String {
    format!("{}{rank}", (b'a' + file as u8) as char)
}

/// The squares of an ICCS move (`H2-E2`, `h2e2`, `H2-E2+` with a check
/// mark).
fn iccs(text: &str) -> Option<(Square, Square)> {
    let bytes: Vec<u8> = text
        .trim_end_matches(['+', '#'])
        .bytes()
        .filter(|&b| b != b'-')
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let square = |f: u8, r: u8| {
        (matches!(f, b'a'..=b'i') && r.is_ascii_digit())
            .then(|| ((f - b'a') as usize, (r - b'0') as usize))
    };
    match bytes[..] {
        [f1, r1, f2, r2] => Some((square(f1, r1)?, square(f2, r2)?)),
        _ => None,
    }
}

/// A xiangqi move written in WXF (`C2.5`) or Chinese notation (`炮二平五`)
/// in the position `fen` (plyd's FEN: Red `w`, Black `b`), as ICCS
/// (`h2e2`, ranks 0-9, or 1-10 where `ranks_from_one`); `None` where the
/// word is in neither notation (ICCS itself included), an error where it
/// names no piece that can move so here.
pub fn xiangqi_iccs(fen: &str, word: &str, ranks_from_one: bool) -> Option<Result<String, String>> {
    if iccs(word).is_some() {
        return None;
    }
    let described = wxf(word).or_else(|| chinese(word))?;
    let board = match Board::from_fen(fen) {
        Ok(board) => board,
        Err(e) => return Some(Err(e)),
    };
    let shift = usize::from(ranks_from_one);
    Some(locate(&board, described).map(|(from, to)| {
        square_name((from.0, from.1 + shift)) + &square_name((to.0, to.1 + shift))
    }))
}

/// The xiangqi move `mv` (ICCS, ranks 0-9) in Chinese notation in the
/// position `moves` reach from `start` (a FEN; the standard start where
/// `None`); `None` where a move does not read or `mv` moves no piece of
/// the side to move.
pub fn xiangqi_chinese(start: Option<&str>, moves: &[String], mv: &str) -> Option<String> {
    let mut board = Board::from_fen(start.unwrap_or(XIANGQI_START)).ok()?;
    for played in moves {
        let (from, to) = iccs(played)?;
        board.play(from, to);
    }
    let (from, to) = iccs(mv)?;
    chinese_text(&board, from, to)
}

/// The tag pairs and the main line of a PGN game: its move words and
/// comments (`{...}`, `;` to the line's end); variations (`(...)`),
/// annotation glyphs (`$1`, `!?`, `！`), move numbers (`1.`, `１．`,
/// `1、`) and the result left out. Also the result that ended the moves,
/// where one did ([`ends_the_moves`]).
pub(crate) fn parse(text: &str) -> Result<(Tags, Line, Option<String>), String> {
    parse_tree(text).map(|(tags, mut lines, end)| (tags, lines.swap_remove(0), end))
}

/// Whether a word of a PGN game's moves is its result: PGN's (`1-0`,
/// `0-1`, `1/2-1/2`, `*`) or one in Chinese words (`红胜`, `和棋`,
/// `红先和`). Outside a variation it ends the game: what follows (a site's
/// footer, as xqbase's files carry) is not read as moves, comments
/// straight after it kept.
fn ends_the_moves(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") || result_of(word) != RecordResult::Unknown
}

/// [`parse`] with the variations: the tag pairs, and each line from the
/// game's start (its move words and comments), the main line first, then
/// each variation (`(...)`, an alternative to the move before it, nested
/// ones within) in the order it opens. A comment is on the position after
/// the move before it in its line.
pub(crate) fn parse_tree(text: &str) -> Result<Tree, String> {
    let mut tags = Vec::new();
    // Each line, the main line's first; the line being read, the place in
    // `lines` it fills, and the lines it is a variation of with their
    // places.
    let mut lines: Vec<Line> = vec![Line::default()];
    let mut path = Line::default();
    let mut place = 0usize;
    let mut outer: Vec<(Line, usize)> = Vec::new();
    // The moves copied into variations (each starts as a copy of the line
    // it branches from): kept within LINE_MOVES_LIMIT.
    let mut copied = 0usize;
    let mut chars = text.chars().peekable();
    let mut word = String::new();
    // The result that ended the main line's moves.
    let mut end: Option<String> = None;
    // Whether `word` is a result that ends the game, read outside any
    // variation (`outer` empty); every other word is a move's or is left
    // out, as `flush` takes it.
    let ends = |word: &str, outer: &[(Line, usize)]| outer.is_empty() && ends_the_moves(word);
    let flush = |word: &mut String, path: &mut Line| {
        let raw = std::mem::take(word);
        if raw.starts_with('$') || ends_the_moves(&raw) {
            return;
        }
        let w = raw.trim_matches(|c: char| matches!(c, '!' | '?' | '！' | '？'));
        // A move number, `1.` `12...`, alone or run into its move; in full
        // width (`１．`) or with a Chinese comma (`1、`).
        let digit = |c: char| c.is_ascii_digit() || ('０'..='９').contains(&c);
        let w = match w.find(|c: char| !digit(c)) {
            Some(i) if i > 0 && w[i..].starts_with(['.', '．', '、', '…']) => {
                w[i..].trim_start_matches(['.', '．', '、', '…'])
            }
            _ => w,
        };
        // `...` before Black's move, `…` as some programs write it.
        let w = w.trim_start_matches(['.', '．', '…']);
        if !w.is_empty() {
            path.moves.push(w.to_string());
        }
    };
    let comment = |raw: String, path: &mut Line| {
        if let Some(text) = comment_text(&raw) {
            path.comments.push((path.moves.len(), text));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '[' if outer.is_empty() && path.moves.is_empty() && word.is_empty() => {
                // `[Name "value"]`, the value's `\"` and `\\` escaped;
                // text after its closing quote is left out.
                let (mut name, mut value) = (String::new(), String::new());
                let (mut quoted, mut seen_quote) = (false, false);
                loop {
                    match chars.next() {
                        None => return Err("a tag that does not close".to_string()),
                        Some('\\') if quoted => {
                            if let Some(c) = chars.next() {
                                value.push(c);
                            }
                        }
                        Some('"') => {
                            quoted = !quoted;
                            seen_quote = true;
                        }
                        Some(']') if !quoted => break,
                        Some(c) if quoted => value.push(c),
                        Some(c) if !seen_quote => name.push(c),
                        Some(_) => {}
                    }
                }
                let name = name.trim();
                // A value without quotes: the words after the name.
                let (name, value) = match name.split_once(char::is_whitespace) {
                    Some((name, rest)) if !seen_quote => (name, rest.trim().to_string()),
                    _ => (name, value),
                };
                tags.push((name.to_string(), value));
            }
            '{' => {
                flush(&mut word, &mut path);
                let text: String = chars.by_ref().take_while(|&c| c != '}').collect();
                comment(text, &mut path);
            }
            ';' => {
                flush(&mut word, &mut path);
                let text: String = chars.by_ref().take_while(|&c| c != '\n').collect();
                comment(text, &mut path);
            }
            '(' => {
                // An alternative to the last move read, after the
                // comments on the position before it.
                flush(&mut word, &mut path);
                copied += path.moves.len();
                if copied > LINE_MOVES_LIMIT {
                    return Err(too_many_moves(true, "its"));
                }
                let mut alternative = path.clone();
                alternative.moves.pop();
                let before = alternative.moves.len();
                alternative.comments.retain(|&(at, _)| at <= before);
                lines.push(Line::default());
                outer.push((std::mem::replace(&mut path, alternative), place));
                place = lines.len() - 1;
            }
            ')' => {
                flush(&mut word, &mut path);
                // One that closes nothing is left out.
                if let Some((line, at)) = outer.pop() {
                    lines[place] = std::mem::replace(&mut path, line);
                    place = at;
                }
            }
            c if c.is_whitespace() || c == '\u{3000}' => {
                if ends(&word, &outer) {
                    end = Some(std::mem::take(&mut word));
                    break;
                }
                flush(&mut word, &mut path);
            }
            c => word.push(c),
        }
    }
    if end.is_none() && ends(&word, &outer) {
        end = Some(std::mem::take(&mut word));
    }
    flush(&mut word, &mut path);
    if end.is_some() {
        // Comments straight after the result are the game's last; the
        // first other word ends the reading.
        loop {
            while chars
                .next_if(|c| c.is_whitespace() || *c == '\u{3000}')
                .is_some()
            {}
            if chars.next_if_eq(&'{').is_none() {
                break;
            }
            let text: String = chars.by_ref().take_while(|&c| c != '}').collect();
            comment(text, &mut path);
        }
    }
    // Variations left open end with the text.
    while let Some((line, at)) = outer.pop() {
        lines[place] = std::mem::replace(&mut path, line);
        place = at;
    }
    lines[place] = path;
    if lines.iter().map(|l| l.moves.len()).sum::<usize>() > LINE_MOVES_LIMIT {
        return Err(too_many_moves(lines.len() > 1, "its"));
    }
    Ok((tags, lines, end))
}

/// The number of a game's first move: its FEN's sixth field, as PGN
/// numbers a game begun from a position, else 1.
fn first_move_number(fen: Option<&str>) -> usize {
    fen.and_then(|fen| fen.split_whitespace().nth(5))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| (1..=10_000).contains(&n))
        .unwrap_or(1)
}

/// The `i`th move (from 0) as PGN numbers it, `3.` for Red's third and
/// `3...` for Black's, in a game whose first move (Red's where
/// `red_first`) is numbered `first_number`.
fn move_label(i: usize, red_first: bool, first_number: usize) -> String {
    let ply = i + usize::from(!red_first);
    let number = ply / 2 + first_number;
    if ply.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

/// A line's move words with its comments (`{...}`) where they stand.
fn words_with_comments(line: &Line) -> String {
    let mut comments = line.comments.iter().peekable();
    let mut words = Vec::new();
    for ply in 0..=line.moves.len() {
        if ply > 0 {
            words.push(line.moves[ply - 1].clone());
        }
        while let Some((_, text)) = comments.next_if(|(at, _)| *at == ply) {
            words.push(format!("{{{text}}}"));
        }
    }
    words.join(" ")
}

/// A PGN game read whole: its tags, its lines (the main line first) and
/// the result after its moves, as [`parse_tree`] gives them.
type Tree = (Tags, Vec<Line>, Option<String>);

/// [`parse_tree`] of `text` where it is a PGN game (a byte-order mark and
/// blanks before it left out); `None` where it is not.
fn pgn_tree(text: &str) -> Result<Option<Tree>, String> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if !is_pgn(trimmed) {
        return Ok(None);
    }
    parse_tree(trimmed).map(Some)
}

/// How many variations a PGN game holds (its lines but the main one),
/// counted without writing them out as [`pgn_variations`] does; 0 for
/// text that is not a PGN game or does not read.
pub fn pgn_variation_count(text: &str) -> usize {
    pgn_tree(text)
        .ok()
        .flatten()
        .map_or(0, |(_, lines, _)| lines.len().saturating_sub(1))
}

/// The lines of a PGN game with variations, each written as a PGN game of
/// its own with the game's tags: the main line first, then each variation
/// from the game's start, its `Result` `*` (the moves are followed by no
/// result: the tag gives it), each with the comments along it. `None`
/// where `text` is not a PGN game or has no variation.
pub fn pgn_variations(text: &str) -> Result<Option<Vec<String>>, String> {
    let Some((tags, lines, _)) = pgn_tree(text)? else {
        return Ok(None);
    };
    if lines.len() < 2 {
        return Ok(None);
    }
    let games = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let mut game = String::new();
            for (name, value) in &tags {
                let value = if i > 0 && name.eq_ignore_ascii_case("Result") {
                    "*".to_string()
                } else {
                    tag_value(value)
                };
                game += &format!("[{name} \"{value}\"]\n");
            }
            // The result is the tag's: none written after the moves.
            game += &format!("\n{}\n\n", words_with_comments(line));
            game
        })
        .collect();
    Ok(Some(games))
}

/// The value of the tag `name` (any case), where it says something (not
/// empty, not `?`).
pub(crate) fn tag<'a>(tags: &'a Tags, name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty() && *v != "?")
}

/// A game's `Date` and `Site` tags as one free text, as records keep
/// when and where.
pub(crate) fn date_place(tags: &Tags) -> String {
    [tag(tags, "Date"), tag(tags, "Site")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A result in PGN's words (`1-0`, `0-1`, `1/2-1/2`), or in the Chinese
/// ones xiangqi programs and sites write (`红胜`, `红方胜`, `红先胜`, `黑负`
/// Red's win; `黑胜`, `红负`, `红先负` Black's; `和`, `和棋`, `和局`, `红先和`,
/// `平局` a draw); else unknown.
fn result_of(text: &str) -> RecordResult {
    let text = text.trim();
    let has = |chars: &[char]| chars.iter().any(|&c| text.contains(c));
    let red = text.starts_with('红') || text.starts_with('紅');
    let black = text.starts_with('黑');
    let won = has(&['胜', '勝']);
    // A side that resigned (`红方认输`, `黑认负`) lost.
    let lost = has(&['负', '負', '败', '敗']) || text.contains("认输") || text.contains("認輸");
    match text {
        "1-0" => RecordResult::First,
        "0-1" => RecordResult::Second,
        "1/2-1/2" | "和" | "和棋" | "和局" | "平局" => RecordResult::Draw,
        // `红先和`, `黑先和`, `双方和棋`: a draw said with who moved first.
        _ if has(&['和']) && !won && !lost => RecordResult::Draw,
        _ if (red && won && !lost) || (black && lost && !won) => RecordResult::First,
        _ if (black && won && !lost) || (red && lost && !won) => RecordResult::Second,
        _ => RecordResult::Unknown,
    }
}

/// Whether `text` is a PGN game (it opens with a tag pair).
pub(crate) fn is_pgn(text: &str) -> bool {
    text.starts_with('[')
        && text
            .lines()
            .next()
            .is_some_and(|line| line.trim_end().ends_with(']') && line.contains('"'))
}

/// A game's moves in Chinese notation with no tags (`1. 炮二平五 马８进７
/// 2. ...`, as pasted from a page), read as a xiangqi PGN game from the
/// start; `None` where the first move is not Chinese notation.
pub(crate) fn read_bare_chinese(text: &str) -> Option<Result<RecordGame, String>> {
    let tagged = format!("[Game \"Chinese Chess\"]\n\n{text}");
    let (_, line, _) = parse(&tagged).ok()?;
    chinese(line.moves.first()?)?;
    Some(read(&tagged))
}

/// A game's xiangqi moves with no tags, in any notation (`1. C2.5 H8+7`,
/// `1. H2-E2 H9-G7`, `h2e2 h9g7`), read whole as a game from the start;
/// `None` where they do not all read and replay so (an Othello transcript
/// among them, whose squares are ICCS-like, does not).
pub(crate) fn read_bare(text: &str) -> Option<RecordGame> {
    if text.starts_with('[') {
        return None;
    }
    let game = read(&format!("[Game \"Chinese Chess\"]\n\n{text}")).ok()?;
    (!game.moves.is_empty()).then_some(game)
}

/// Read a xiangqi PGN game into plyd's moves from its start.
pub(crate) fn read(text: &str) -> Result<RecordGame, String> {
    let (
        tags,
        Line {
            moves: words,
            comments,
        },
        end,
    ) = parse(text)?;
    let tag = |name: &str| tag(&tags, name);
    let game = tag("Game").or(tag("Variant"));
    let xiangqi = |g: &str| {
        let g = g.to_ascii_lowercase();
        g.contains("chinese") || g.contains("xiangqi") || g.contains("象棋")
    };
    match game {
        Some(g) if !xiangqi(g) => {
            return Err(format!(
                "a PGN game of '{g}': plyd reads xiangqi's (Game \"Chinese Chess\")"
            ))
        }
        // A `Red` player is xiangqi's alone (chess has `White`).
        None if tag("Format").is_none()
            && !tags.iter().any(|(n, _)| n.eq_ignore_ascii_case("Red")) =>
        {
            return Err(
                "a PGN game that does not say it is xiangqi (no Game, Variant, Format or Red tag)"
                    .to_string(),
            )
        }
        _ => {}
    }
    let fen = tag("FEN").map(str::to_string);
    let mut board = Board::from_fen(fen.as_deref().unwrap_or(XIANGQI_START))?;
    // `1... 马８进７` from a position with Red to move: every move would
    // be read as the other side's (a legal game of other moves, or a
    // puzzling refusal plies later).
    if board.red_to_move && !words.is_empty() && opens_with_blacks_number(text) {
        return Err(format!(
            "its moves begin with Black's move ('...' after the number), but {} gives Red the \
             move: a FEN with 'b' after its board, or the moves before, is missing",
            if fen.is_some() {
                "its FEN"
            } else {
                "the start position"
            }
        ));
    }
    let (mut moves, mut written) = (Vec::new(), Vec::new());
    let (first_number, red_first) = (first_move_number(fen.as_deref()), board.red_to_move);
    for (i, word) in words.iter().enumerate() {
        let (from, to) = match iccs(word) {
            Some(squares) => squares,
            None => {
                let label = || move_label(i, red_first, first_number);
                let described = wxf(word).or_else(|| chinese(word)).ok_or_else(|| {
                    format!(
                        "move {} ('{word}') is not ICCS, WXF or Chinese notation",
                        label()
                    )
                })?;
                locate(&board, described)
                    .map_err(|e| format!("move {} ('{word}'): {e}", label()))?
            }
        };
        board.play(from, to);
        moves.push(format!("{}{}", square_name(from), square_name(to)));
        written.push(word.clone());
    }
    // Red is the game's first side whoever moves first from the start,
    // as the rules' results are given.
    // The tag, in PGN's words or Chinese ones (`红胜`, `黑负`, `和棋`);
    // where it says nothing plyd reads (no tag, `*`), the result that
    // ends the moves.
    let result = match result_of(tag("Result").unwrap_or("*")) {
        RecordResult::Unknown => end.as_deref().map_or(RecordResult::Unknown, result_of),
        known => known,
    };
    let date_place = date_place(&tags);
    // The tags read into the game's own fields are left out of the rest.
    let read_here = [
        "Game", "Variant", "Event", "Red", "Black", "Result", "FEN", "Format",
    ];
    let mut others: Vec<(String, String)> = tags
        .iter()
        .filter(|(name, value)| {
            // PGN's tag names: letters, digits and `_` (another would not
            // be written back as one line).
            !name.is_empty()
                && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !read_here.iter().any(|n| n.eq_ignore_ascii_case(name))
                && !value.trim().is_empty()
                && value.trim() != "?"
        })
        .map(|(name, value)| {
            let value = value.trim().replace(|c: char| c.is_control(), " ");
            (name.clone(), value)
        })
        .collect();
    // A `Result` tag in words plyd does not read (`红方认输`, `1:0`), where
    // the moves end with none either: kept, for the replay to name it.
    if result == RecordResult::Unknown {
        if let Some(unread) = tag("Result").filter(|v| !matches!(v.trim(), "" | "*" | "?")) {
            others.push(("Result".to_string(), unread.trim().to_string()));
        }
    }
    // The FEN read above; the standard start is no start of its own.
    let start = fen.filter(|f| {
        f.split_whitespace().take(2).collect::<Vec<_>>()
            != XIANGQI_START.split_whitespace().collect::<Vec<_>>()
    });
    Ok(RecordGame {
        first: tag("Red").unwrap_or("").to_string(),
        second: tag("Black").unwrap_or("").to_string(),
        result,
        date_place,
        event: tag("Event").unwrap_or("").to_string(),
        start,
        moves,
        written,
        margin: None,
        ending: None,
        comments,
        tags: others,
    })
}

/// Whether the first move number of a PGN game's moves is Black's:
/// `1...`, `1…`, `1. ...`, `１．．．`, comments before it passed over.
fn opens_with_blacks_number(text: &str) -> bool {
    let digit = |c: char| c.is_ascii_digit() || ('０'..='９').contains(&c);
    let dots = |w: &str| {
        let dotted: String = w
            .chars()
            .take_while(|c| matches!(c, '.' | '．' | '…' | '。'))
            .collect();
        dotted.contains('…') || dotted.chars().count() >= 2
    };
    // The moves' text: tag lines, `{...}` and `;` comments left out.
    let mut moves = String::new();
    let mut in_comment = false;
    for line in text.lines() {
        if !in_comment && line.trim_start().starts_with('[') {
            continue;
        }
        for c in line.chars() {
            match c {
                '{' => in_comment = true,
                '}' if in_comment => in_comment = false,
                ';' if !in_comment => break,
                c if !in_comment => moves.push(c),
                _ => {}
            }
        }
        moves.push('\n');
    }
    let mut words = moves.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let Some(after) = first.find(|c: char| !digit(c)).filter(|&i| i > 0) else {
        return false;
    };
    let rest = &first[after..];
    dots(rest) || (matches!(rest, "." | "．") && words.next().is_some_and(dots))
}

/// A tag value with PGN's escapes: `\\` and `\"`.
fn tag_value(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A move in Chinese notation, as the reader takes it: the piece and its
/// file (`炮二平五`), or front, middle or rear of one file (`前车进一`),
/// then across, forward or back (`平 进 退`) and a file or a count; Red's
/// numbers in Chinese numerals, Black's in full-width digits. `None` where
/// neither names the move (a pawn while two or more files hold two or more
/// pawns takes an order the reader does not read).
fn chinese_text(board: &Board, from: Square, to: Square) -> Option<String> {
    // A piece of the side not to move (a record that is not a game) is
    // not named: the reader takes every move as the side to move's.
    let piece = board.squares[from.1][from.0].filter(|p| p.red == board.red_to_move)?;
    let red = piece.red;
    let name = match (piece.kind, red) {
        ('k', true) => '帅',
        ('k', false) => '将',
        ('a', true) => '仕',
        ('a', false) => '士',
        ('b', true) => '相',
        ('b', false) => '象',
        ('n', _) => '马',
        ('r', _) => '车',
        ('c', _) => '炮',
        ('p', true) => '兵',
        ('p', false) => '卒',
        _ => return None,
    };
    let number = |n: usize| -> char {
        const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
        if red {
            NUMERALS[n - 1]
        } else {
            char::from_u32('１' as u32 + n as u32 - 1).unwrap_or('?')
        }
    };
    // The mover's file numbers: from its own right.
    let file_number = |file: usize| if red { FILES - file } else { file + 1 };
    let forward = if red { to.1 > from.1 } else { to.1 < from.1 };
    let (motion, count) = if to.1 == from.1 {
        ('平', file_number(to.0))
    } else if matches!(piece.kind, 'n' | 'a' | 'b') {
        (if forward { '进' } else { '退' }, file_number(to.0))
    } else {
        (if forward { '进' } else { '退' }, from.1.abs_diff(to.1))
    };
    let by_file = format!(
        "{name}{}{motion}{}",
        number(file_number(from.0)),
        number(count)
    );
    let same = board.on_file(piece.kind, from.0);
    let by_order = same
        .iter()
        .position(|&rank| rank == from.1)
        .and_then(|at| match (same.len(), at) {
            (2 | 3, 0) => Some('前'),
            (3, 1) => Some('中'),
            (2, 1) | (3, 2) => Some('后'),
            _ => None,
        })
        .map(|which| format!("{which}{name}{motion}{}", number(count)));
    // Of two or three on a file, front, middle or rear; advisers and
    // elephants by their file where where they go tells them apart. Each
    // form is kept only where the reader finds this move by it.
    let forms = if matches!(piece.kind, 'a' | 'b') || same.len() < 2 {
        [Some(by_file), by_order]
    } else {
        [by_order, Some(by_file)]
    };
    forms.into_iter().flatten().find(|text| {
        chinese(text)
            .and_then(|described| locate(board, described).ok())
            .is_some_and(|squares| squares == (from, to))
    })
}

/// Write `game` as PGN with ICCS moves, or with `chinese` moves in Chinese
/// notation (ICCS where that cannot name one). `ranks_from_one` says its
/// moves count ranks 1-10 (plyd's `MoveRanks=1-10`), written 0-9 as ICCS
/// has them. `variations` are other lines from the game's start (their
/// moves and comments), written as PGN's variations (`(...)`) of the
/// game's moves, its main line; a line that another begins with adds
/// nothing. Comments are written after the move before them (`{...}`).
pub(crate) fn write(
    game: &RecordGame,
    variations: &[RecordGame],
    ranks_from_one: bool,
    chinese: bool,
) -> Result<String, String> {
    let fen = game.start.as_deref().unwrap_or(XIANGQI_START);
    let board = Board::from_fen(fen)?;
    let (red, black) = (&game.first, &game.second);
    let result = match game.result {
        RecordResult::First => "1-0",
        RecordResult::Second => "0-1",
        RecordResult::Draw => "1/2-1/2",
        RecordResult::Unknown => "*",
    };
    let mut text = String::new();
    // The record's own `Date` and `Site` where it kept them apart (a PGN
    // or XQF game read), else its when and where as `Site`; its other
    // tags (`Round`, `ECCO`, `Opening` ...) after `Result`.
    let (site, date) = match (game.tag("Site"), game.tag("Date")) {
        (None, None) => (game.date_place.as_str(), None),
        (site, date) => (site.unwrap_or(""), date),
    };
    let others = game
        .tags
        .iter()
        .filter(|(n, _)| {
            !["Site", "Date", "Result"]
                .iter()
                .any(|own| n.eq_ignore_ascii_case(own))
        })
        .map(|(n, v)| (n.as_str(), v.as_str()));
    let tags = [
        ("Game", Some("Chinese Chess")),
        ("Event", Some(game.event.as_str())),
        ("Site", Some(site)),
        ("Date", date),
        ("Red", Some(red.as_str())),
        ("Black", Some(black.as_str())),
        ("Result", Some(result)),
    ]
    .into_iter()
    .filter_map(|(name, value)| Some((name, value?)))
    .chain(others)
    .chain([("Format", if chinese { "Chinese" } else { "ICCS" })]);
    for (name, value) in tags {
        text.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
    }
    if let Some(start) = &game.start {
        text.push_str(&format!("[FEN \"{}\"]\n", tag_value(start)));
    }
    text.push('\n');
    let lines = std::iter::once(game)
        .chain(variations)
        .map(|g| (&g.moves[..], &g.comments[..]));
    let tree = MoveTree::new(lines);
    // Each node's move as written, found on one board walked depth first:
    // each move played, and taken back (its square's piece, if it took
    // one, put back) once the walk leaves it.
    let mut following = board.clone();
    let mut played: Vec<(Square, Square, Option<Piece>)> = Vec::new();
    let mut moves = vec![String::new(); tree.len()];
    for (node, _, _) in tree.depth_first() {
        let mv = tree.mv(node);
        let i = tree.depth(node) - 1;
        while played.len() > i {
            let (from, to, taken) = played.pop().expect("a move to take back");
            following.unplay(from, to, taken);
        }
        let shifted = if ranks_from_one {
            shift_ranks(mv).ok_or_else(|| format!("move {} ('{mv}') has no rank 1-10", i + 1))?
        } else {
            mv.to_string()
        };
        let (from, to) = iccs(&shifted)
            .ok_or_else(|| format!("move {} ('{mv}') is not a xiangqi move", i + 1))?;
        moves[node] = match chinese.then(|| chinese_text(&following, from, to)) {
            Some(Some(text)) => text,
            _ => format!(
                "{}-{}",
                square_name(from).to_ascii_uppercase(),
                square_name(to).to_ascii_uppercase()
            ),
        };
        played.push((from, to, following.squares[to.1][to.0]));
        following.play(from, to);
    }
    // The words: each move, numbered by Red's moves where Red plays it, and
    // Black's too where it opens a variation or follows one or a comment
    // (`3...`); a game Black starts opens `1. ...`. A variation follows the
    // move it replaces (and its comments), before the moves after it.
    let comment_words = |node: usize| tree.comments(node).iter().map(|c| format!("{{{c}}}"));
    enum Step {
        /// The `i`th move played from `node`; whether numbered whatever
        /// the side.
        Move(usize, usize, bool),
        Open,
        Close,
    }
    let first_number = first_move_number(Some(fen));
    let mut words: Vec<String> = comment_words(0).collect();
    let mut open = false;
    let mut steps = Vec::new();
    if !tree.children(0).is_empty() {
        steps.push(Step::Move(0, 0, false));
    }
    while let Some(step) = steps.pop() {
        let (parent, i, numbered) = match step {
            Step::Open => {
                open = true;
                continue;
            }
            Step::Close => {
                if let Some(last) = words.last_mut() {
                    last.push(')');
                }
                continue;
            }
            Step::Move(parent, i, numbered) => (parent, i, numbered),
        };
        let siblings = tree.children(parent);
        let node = siblings[i];
        let ply = tree.depth(node) - 1 + usize::from(!board.red_to_move);
        let number = ply / 2 + first_number;
        let mut word = if ply.is_multiple_of(2) {
            format!("{number}. {}", moves[node])
        } else if tree.depth(node) == 1 {
            format!("{number}. ... {}", moves[node])
        } else if numbered {
            format!("{number}... {}", moves[node])
        } else {
            moves[node].clone()
        };
        if std::mem::take(&mut open) {
            word.insert(0, '(');
        }
        words.push(word);
        words.extend(comment_words(node));
        let alternatives = if i == 0 { siblings.len() - 1 } else { 0 };
        if !tree.children(node).is_empty() {
            let said = alternatives > 0 || !tree.comments(node).is_empty();
            steps.push(Step::Move(node, 0, said));
        }
        for j in (1..=alternatives).rev() {
            steps.extend([Step::Close, Step::Move(parent, j, true), Step::Open]);
        }
    }
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.chars().count() + word.chars().count() + 1 > 78 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(result);
    text.push_str(&line);
    text.push('\n');
    Ok(text)
}

/// A move of ranks 1-10 (`b1c3`, `a10a9`) with ranks 0-9 (`b0c2`).
fn shift_ranks(mv: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = mv;
    for _ in 0..2 {
        let file = rest.chars().next().filter(char::is_ascii_lowercase)?;
        let digits = rest[1..].chars().take_while(char::is_ascii_digit).count();
        let rank: usize = rest[1..1 + digits].parse().ok()?;
        if !(1..=RANKS).contains(&rank) {
            return None;
        }
        out.push(file);
        out.push_str(&(rank - 1).to_string());
        rest = &rest[1 + digits..];
    }
    rest.is_empty().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The central cannon against the screen horses, in the three
    /// notations (the ICCS by hand from the board).
    const CHINESE: &str =
        "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 车二进六 卒７进１";
    const WXF: &str = "1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 H2+3 4. R2+6 P7+1";
    const ICCS: [&str; 8] = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h6", "g6g5",
    ];

    fn game(format: &str, moves: &str) -> String {
        format!(
            "[Game \"Chinese Chess\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n[Format \"{format}\"]\n\n{moves} 1-0\n"
        )
    }

    /// Results in Chinese words, and the moves' own result where the tag
    /// says nothing plyd reads.
    #[test]
    fn results_in_chinese_words_and_at_the_end_of_the_moves() {
        let with = |tag: &str, end: &str| {
            let text =
                format!("[Game \"Chinese Chess\"]\n[Result \"{tag}\"]\n\n1. h2e2 h9g7 {end}\n");
            read(&text).unwrap().result
        };
        assert_eq!(with("红胜", "*"), RecordResult::First);
        assert_eq!(with("红方胜", ""), RecordResult::First);
        assert_eq!(with("黑负", ""), RecordResult::First);
        assert_eq!(with("黑胜", ""), RecordResult::Second);
        assert_eq!(with("和棋", ""), RecordResult::Draw);
        assert_eq!(with("*", "0-1"), RecordResult::Second);
        assert_eq!(with("1-0", "*"), RecordResult::First);
        assert_eq!(with("?", ""), RecordResult::Unknown);
        // A resignation: the side that resigned lost.
        assert_eq!(with("红方认输", ""), RecordResult::Second);
        assert_eq!(with("黑方认输", ""), RecordResult::First);
        // A tag in words no reader knows is kept for the replay to name,
        // and not written back as a second `Result`.
        let text = "[Game \"Chinese Chess\"]\n[Result \"1:0\"]\n\n1. h2e2 h9g7\n";
        let game = read(text).unwrap();
        assert_eq!(game.result, RecordResult::Unknown);
        assert_eq!(game.tag("Result"), Some("1:0"));
        let written = write(&game, &[], false, false).unwrap();
        assert_eq!(written.matches("[Result ").count(), 1, "{written}");
    }

    /// A game's moves end at its result: a site's footer after it (as
    /// every file xqbase.com exports carries) is not read as moves, a
    /// comment straight after it is the game's.
    #[test]
    fn the_moves_end_at_the_result_whatever_follows() {
        let footer = "============================\n欢迎访问《象棋百科全书》网站\n\
                      推荐用“象棋巫师”观赏棋谱\nhttps://www.xqbase.com/\n";
        for end in ["0-1", "黑胜", "红先负", "红负"] {
            let text = format!(
                "[Game \"Chinese Chess\"]\n[Result \"*\"]\n  1. 炮二平五 马８进７\n  2. 马二进三 车９平８\n {end} {{黑方胜}}\n{footer}"
            );
            let game = read(&text).unwrap_or_else(|e| panic!("{end}: {e}"));
            assert_eq!(game.moves, ["h2e2", "h9g7", "h0g2", "i9h9"], "{end}");
            assert_eq!(game.result, RecordResult::Second, "{end}");
            assert_eq!(game.comments, [(4, "黑方胜".to_string())], "{end}");
        }
        // A draw in the words of 东萍 (`红先和`) or `平局`, in the tag or
        // after the moves.
        for (tag, end) in [("红先和", ""), ("平局", ""), ("*", "红先和"), ("*", "和棋")] {
            let text =
                format!("[Game \"Chinese Chess\"]\n[Result \"{tag}\"]\n1. h2e2 h9g7 {end}\n");
            assert_eq!(
                read(&text).unwrap().result,
                RecordResult::Draw,
                "{tag} {end}"
            );
        }
        // A result inside a variation ends the variation's words only.
        let (_, lines, end) =
            parse_tree("[Game \"Chinese Chess\"]\n1. h2e2 (1. b2e2 *) h9g7 1-0\n===\n").unwrap();
        assert_eq!(lines[0].moves, ["h2e2", "h9g7"]);
        assert_eq!(lines[1].moves, ["b2e2"]);
        assert_eq!(end.as_deref(), Some("1-0"));
    }

    /// Move numbers and marks as Chinese writers type them: full width
    /// (`１．`, `！`, `？`) or with a Chinese comma (`1、`).
    #[test]
    fn full_width_move_numbers_and_marks_are_left_out() {
        for moves in [
            "１．炮二平五 马８进７ ２．马二进三 车９平８",
            "１. 炮二平五 马８进７ ２. 马二进三 车９平８",
            "1、炮二平五 马８进７ 2、马二进三 车９平８",
            "1. 炮二平五！ 马８进７？ 2. 马二进三！？ 车９平８",
            "1.炮二平五 1...马８进７ 2.马二进三 2…车９平８",
        ] {
            let text = format!("[Game \"Chinese Chess\"]\n\n{moves}\n");
            let game = read(&text).unwrap_or_else(|e| panic!("{moves}: {e}"));
            assert_eq!(game.moves, ["h2e2", "h9g7", "h0g2", "i9h9"], "{moves}");
        }
    }

    #[test]
    fn a_move_is_written_in_chinese_where_it_is_played() {
        let moves = ["h2e2".to_string(), "h9g7".to_string()];
        assert_eq!(
            xiangqi_chinese(None, &[], "h2e2").as_deref(),
            Some("炮二平五")
        );
        assert_eq!(
            xiangqi_chinese(None, &moves[..1], "h9g7").as_deref(),
            Some("马８进７")
        );
        assert_eq!(
            xiangqi_chinese(None, &moves, "h0g2").as_deref(),
            Some("马二进三")
        );
        // Not the side to move's piece, or no move.
        assert_eq!(xiangqi_chinese(None, &[], "h9g7"), None);
        assert_eq!(xiangqi_chinese(None, &[], "zz"), None);
    }

    #[test]
    fn a_wxf_or_chinese_move_is_read_in_a_position() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        for word in ["C2.5", "炮二平五", "c2.5"] {
            assert_eq!(
                xiangqi_iccs(start, word, false),
                Some(Ok("h2e2".to_string())),
                "{word}"
            );
        }
        assert_eq!(
            xiangqi_iccs(start, "C2.5", true),
            Some(Ok("h3e3".to_string()))
        );
        // Black's, with Black to move.
        let black = start.replace(" w", " b");
        assert_eq!(
            xiangqi_iccs(&black, "马８进７", false),
            Some(Ok("h9g7".to_string()))
        );
        assert_eq!(
            xiangqi_iccs(&black, "H8+7", false),
            Some(Ok("h9g7".to_string()))
        );
        // ICCS and other words are not this reader's.
        assert_eq!(xiangqi_iccs(start, "h2e2", false), None);
        assert_eq!(xiangqi_iccs(start, "hello", false), None);
        // A piece that is not there.
        assert_eq!(
            xiangqi_iccs(start, "R5+1", false),
            Some(Err("no such piece there".to_string()))
        );
        // One that is there, but cannot move so: the advisor back from its
        // back rank, the horse sideways.
        assert_eq!(
            xiangqi_iccs(start, "仕四退五", false),
            Some(Err("the advisor on that file cannot go back so".to_string()))
        );
        assert_eq!(
            xiangqi_iccs(start, "H2.3", false),
            Some(Err(
                "the horse on that file cannot go sideways so".to_string()
            ))
        );
    }

    #[test]
    fn a_refused_move_is_named_by_its_pgn_number() {
        let e = read("[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. a0a1 zz9\n")
            .unwrap_err();
        assert!(e.contains("move 3... ('zz9') is not ICCS"), "{e}");
        // From a FEN: its move number, and Black's first move.
        let e = read(
            "[Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 12\"]\n\n\
             12. ... e9e8 13. d0d1 马８进７\n",
        )
        .unwrap_err();
        assert!(e.contains("move 13... ('马８进７')"), "{e}");
    }

    #[test]
    fn a_bare_list_of_chinese_moves_is_a_game_from_the_start() {
        let game = read_bare_chinese("1. 炮二平五 马８进７\n2. 马二进三 车９平８ 和棋\n")
            .unwrap()
            .unwrap();
        assert_eq!(game.moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(game.result, RecordResult::Draw);
        assert!(read_bare_chinese("f5d6c3d3c4\n").is_none());
        assert!(read_bare_chinese("1. h2e2 h9g7\n").is_none());
        // Chinese moves that are not legal are refused by name.
        let Some(Err(e)) = read_bare_chinese("1. 炮二平五 马８进７ 2. 马二进五") else {
            panic!()
        };
        assert!(e.contains("move 2. ('马二进五')"), "{e}");
    }

    /// A game's tags other than those plyd reads (`Date`, `Site`, `Round`,
    /// `ECCO`, `Opening` ...) are written back as they were, `Date` and
    /// `Site` apart.
    #[test]
    fn the_tags_of_a_game_read_are_written_back() {
        let text = "[Game \"Chinese Chess\"]\n[Event \"一届\"]\n[Round \"1\"]\n[Date \"2006.08.03\"]\n\
                    [Site \"北京中国科技馆\"]\n[RedTeam \"\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"0-1\"]\n\
                    [ECCO \"C48\"]\n[Opening \"中炮\"]\n[Bad\nName \"x\"]\n\n1. 炮二平五 马８进７ 0-1\n";
        let game = read(text).unwrap();
        assert_eq!(game.date_place, "2006.08.03 北京中国科技馆");
        let written = write(&game, &[], false, true).unwrap();
        let tags: Vec<&str> = written.lines().take_while(|l| l.starts_with('[')).collect();
        assert_eq!(
            tags,
            [
                "[Game \"Chinese Chess\"]",
                "[Event \"一届\"]",
                "[Site \"北京中国科技馆\"]",
                "[Date \"2006.08.03\"]",
                "[Red \"甲\"]",
                "[Black \"乙\"]",
                "[Result \"0-1\"]",
                "[Round \"1\"]",
                "[ECCO \"C48\"]",
                "[Opening \"中炮\"]",
                "[Format \"Chinese\"]",
            ]
        );
        // The same game read back, its tags in the writer's order.
        let (mut back, mut game) = (read(&written).unwrap(), game);
        back.tags.sort();
        game.tags.sort();
        assert_eq!(back, game);
    }

    #[test]
    fn the_three_notations_read_as_the_same_moves() {
        for (format, moves) in [("Chinese", CHINESE), ("WXF", WXF)] {
            let got = read(&game(format, moves)).unwrap();
            assert_eq!(got.moves, ICCS, "{format}");
            assert_eq!(
                (got.first.as_str(), got.second.as_str(), got.result),
                ("甲", "乙", RecordResult::First)
            );
        }
        let iccs_moves = "1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 4. H0-H6 G6-G5";
        assert_eq!(read(&game("ICCS", iccs_moves)).unwrap().moves, ICCS);
    }

    #[test]
    fn front_and_rear_pieces_of_one_file() {
        // Red cannons on e2 and e4; Black's rooks on a9 and a5.
        let fen = "r2k5/9/9/9/r8/4C4/9/4C4/9/4K4 w - - 0 1";
        let text = format!(
            "[Game \"Chinese Chess\"]\n[FEN \"{fen}\"]\n\n1. 前炮进一 后车平２ 2. 后炮平四 车１退１ *\n"
        );
        let got = read(&text).unwrap();
        // 前炮 is the cannon further up (e4); Black's rear rook is the one
        // further up the board (a9), Black's file 2 is b.
        assert_eq!(got.moves, ["e4e5", "a9b9", "e2f2", "a5a6"]);
        assert_eq!(got.start.as_deref(), Some(fen));
        let wxf = format!("[Format \"WXF\"]\n[FEN \"{fen}\"]\n\n1. +C+1 -R.2 2. C-.4 R1-1\n");
        assert_eq!(read(&wxf).unwrap().moves, ["e4e5", "a9b9", "e2f2", "a5a6"]);
    }

    #[test]
    fn two_advisers_or_elephants_on_a_file_are_told_by_where_they_can_go() {
        // Red advisers on f0 and f2, Black elephants on g9 and g5: only
        // one of each pair can make the move (the palace, the river).
        let fen = "3k5/9/9/9/6b2/9/9/5A3/9/4KA3 w - - 0 1";
        let fen = fen.replace("3k5/9/9/9/6b2", "3k2b2/9/9/9/6b2");
        let text = format!("[Game \"Chinese Chess\"]\n[FEN \"{fen}\"]\n\n1. 仕四进五 象７进５ *\n");
        assert_eq!(read(&text).unwrap().moves, ["f0e1", "g9e7"]);
        let text = format!("[Game \"Chinese Chess\"]\n[FEN \"{fen}\"]\n\n1. 仕四退五 *\n");
        assert_eq!(read(&text).unwrap().moves, ["f2e1"]);
    }

    #[test]
    fn diagonal_movers_go_to_a_file() {
        // 相三进五 (g0 to e2), 士4进5 for Black (d9 to e8), 马八进七 (b0 to c2).
        let text = game("Chinese", "1. 相三进五 士４进５ 2. 马八进七");
        assert_eq!(read(&text).unwrap().moves, ["g0e2", "d9e8", "b0c2"]);
    }

    #[test]
    fn writes_iccs_and_reads_it_back() {
        let record = RecordGame {
            first: "a \"b\"".to_string(),
            second: "c".to_string(),
            result: RecordResult::Second,
            date_place: "game 1 seed 2".to_string(),
            event: "plyd arena".to_string(),
            start: None,
            moves: ICCS.iter().map(|m| m.to_string()).collect(),
            written: Vec::new(),
            margin: None,
            ending: None,
            comments: Vec::new(),
            tags: Vec::new(),
        };
        let text = write(&record, &[], false, false).unwrap();
        assert!(text.contains("[Format \"ICCS\"]"), "{text}");
        assert!(text.contains("1. H2-E2 H9-G7 2. H0-G2"), "{text}");
        assert!(text.trim_end().ends_with("0-1"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.moves, record.moves);
        assert_eq!(back.result, RecordResult::Second);
        assert_eq!(back.first, "a \"b\"");
        assert_eq!(back.date_place, "game 1 seed 2");
        // Ranks counted from one are written from zero.
        let ones = RecordGame {
            moves: vec!["h3e3".to_string(), "h10g8".to_string()],
            ..record.clone()
        };
        let text = write(&ones, &[], true, false).unwrap();
        assert!(text.contains("1. H2-E2 H9-G7 0-1"), "{text}");
        assert!(
            write(&ones, &[], false, false).is_err(),
            "h10 is no ICCS square"
        );
    }

    #[test]
    fn chinese_moves_are_written_as_the_reader_reads_them() {
        let opening = RecordGame {
            moves: ["h2e2", "h9g7", "h0g2", "i9h9", "c3c4", "b9c7"]
                .map(str::to_string)
                .to_vec(),
            ..RecordGame::default()
        };
        let text = write(&opening, &[], false, true)
            .unwrap()
            .replace('\n', " ");
        assert!(text.contains("[Format \"Chinese\"]"), "{text}");
        assert!(
            text.contains("1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 兵七进一 马２进３"),
            "{text}"
        );
        // Two cannons and two rooks on one file each: front and rear.
        let fen = "r2k5/9/9/9/r8/4C4/9/4C4/9/4K4 w - - 0 1";
        let set = RecordGame {
            start: Some(fen.to_string()),
            moves: ["e4e5", "a9b9", "e2f2", "a5a6"]
                .map(str::to_string)
                .to_vec(),
            ..RecordGame::default()
        };
        let text = write(&set, &[], false, true).unwrap();
        assert!(
            text.contains("1. 前炮进一 后车平２ 2. 后炮平四 车１退１"),
            "{text}"
        );
        // Advisers and elephants by their file alone; a horse back.
        let fen = "4k4/9/9/9/9/9/9/4B4/3AA4/2B1K4 w";
        let set = RecordGame {
            start: Some(fen.to_string()),
            moves: ["d1e2", "e9e8", "e2f1", "e8e9", "c0a2"]
                .map(str::to_string)
                .to_vec(),
            ..RecordGame::default()
        };
        let text = write(&set, &[], false, true).unwrap().replace('\n', " ");
        // Two advisers on a file where both could step back to file 4:
        // the front one.
        assert!(text.contains("1. 仕六进五 将５进１ 2. 前仕退四"), "{text}");
        assert!(text.contains("相七进九"), "{text}");
        // A record whose moves are not a game (Black's horse first, a
        // horse's impossible jump): those moves in ICCS, so that the
        // reader, which takes each move as the side to move's, reads them
        // as written.
        let odd = RecordGame {
            moves: ["h9g7", "h0g4"].map(str::to_string).to_vec(),
            ..RecordGame::default()
        };
        let text = write(&odd, &[], false, true).unwrap();
        assert!(text.contains("1. H9-G7 H0-G4"), "{text}");
        for game in [&opening, &set, &odd] {
            let back = read(&write(game, &[], false, true).unwrap()).unwrap();
            assert_eq!(back.moves, game.moves);
        }
    }

    #[test]
    fn a_game_black_starts_is_numbered_from_black_and_keeps_its_sides() {
        // Red is the first side though Black moves first: its name and
        // the result are Red's as the rules give them.
        let fen = "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1";
        let record = RecordGame {
            first: "red player".to_string(),
            second: "black player".to_string(),
            result: RecordResult::Second,
            date_place: String::new(),
            event: String::new(),
            start: Some(fen.to_string()),
            moves: vec!["e9e8".to_string(), "d0d1".to_string()],
            written: Vec::new(),
            margin: None,
            ending: None,
            comments: Vec::new(),
            tags: Vec::new(),
        };
        let text = write(&record, &[], false, false).unwrap();
        assert!(text.contains("[Red \"red player\"]"), "{text}");
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
        assert!(text.contains("1. ... E9-E8 2. D0-D1"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.written, ["E9-E8", "D0-D1"]);
        // A start at move 16 (the FEN's sixth field) is numbered on from
        // there, and reads back the same.
        let later = RecordGame {
            start: Some("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 16".to_string()),
            ..record.clone()
        };
        let text16 = write(&later, &[], false, false).unwrap();
        assert!(text16.contains("\n16. ... E9-E8 17. D0-D1"), "{text16}");
        assert_eq!(read(&text16).unwrap().moves, record.moves);
        let red_later = RecordGame {
            start: Some("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 16".to_string()),
            moves: vec!["d0d1".to_string(), "e9e8".to_string()],
            ..record.clone()
        };
        let text16 = write(&red_later, &[], false, false).unwrap();
        assert!(text16.contains("\n16. D0-D1 E9-E8"), "{text16}");
        assert_eq!(
            RecordGame {
                written: Vec::new(),
                ..back
            },
            record
        );
    }

    /// Black's move number where the position gives Red the move: every
    /// move was read as the other side's (`1... 马８进７ 2. 炮二平五` became
    /// b0c2 b7e7, a legal game of other moves).
    #[test]
    fn a_game_that_opens_with_blacks_number_from_reds_move_is_refused() {
        let fen = "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n";
        for moves in [
            "1... 马８进７ 2. 炮二平五 *",
            "1. ... 马８进７ 2. 炮二平五 *",
            "{开局} 1…马８进７ *",
            "１．．．马８进７ *",
        ] {
            let e = read(&format!("{fen}\n{moves}\n")).unwrap_err();
            assert!(e.contains("begin with Black's move"), "{moves}: {e}");
        }
        // Red's number, or Black's where Black is to move, reads.
        assert!(read(&format!("{fen}\n1. 炮二平五 马８进７ *\n")).is_ok());
        let black = fen.replace(" w - - 0 1", " b - - 0 1");
        assert_eq!(
            read(&format!("{black}\n1... 马８进７ 2. 炮二平五 *\n"))
                .unwrap()
                .moves,
            ["h9g7", "h2e2"]
        );
        // A comment that holds `1...` is no move number.
        assert!(read(&format!("{fen}\n{{1... 是黑方的}} 1. 炮二平五 *\n")).is_ok());
    }

    #[test]
    fn variations_are_written_after_the_move_they_replace_and_read_back() {
        // Black to move: 1... 将５进１ (or 将５平６), and a variation
        // inside a variation.
        let fen = "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1";
        let line = |moves: &str| moves.split(' ').map(str::to_string).collect::<Vec<_>>();
        let record = RecordGame {
            start: Some(fen.to_string()),
            moves: line("e9e8 d0d1 e8e9"),
            result: RecordResult::Draw,
            ..RecordGame::default()
        };
        let variations = [
            line("e9f9 d0d1 f9f8"),
            line("e9f9 e1f2"),
            line("e9e8 e1d2"),
            // A line the main line begins with adds nothing.
            line("e9e8 d0d1"),
        ]
        .map(|moves| RecordGame {
            moves,
            ..RecordGame::default()
        });
        let text = write(&record, &variations, false, false).unwrap();
        assert!(
            text.ends_with(
                "\n1. ... E9-E8 (1. ... E9-F9 2. D0-D1 (2. E1-F2) 2... F9-F8) 2. D0-D1 (2. E1-D2)\n\
                 2... E8-E9 1/2-1/2\n"
            ),
            "{text}"
        );
        let (_, lines, _) = parse_tree(&text).unwrap();
        let read: Vec<String> = lines
            .iter()
            .map(|l| l.moves.join(" ").to_lowercase().replace('-', ""))
            .collect();
        assert_eq!(
            read,
            ["e9e8 d0d1 e8e9", "e9f9 d0d1 f9f8", "e9f9 e1f2", "e9e8 e1d2"]
        );
        // In Chinese notation, numbered the same way.
        let text = write(&record, &variations, false, true).unwrap();
        assert!(
            text.contains("(1. ... 将５平６ 2. 帅六进一 (2. 仕五进四) 2... 将６进１)"),
            "{text}"
        );
        // Without variations, the game's moves alone.
        let text = write(&record, &[], false, false).unwrap();
        assert!(
            text.ends_with("\n1. ... E9-E8 2. D0-D1 E8-E9 1/2-1/2\n"),
            "{text}"
        );
    }

    #[test]
    fn comments_are_kept_on_the_position_after_the_move_before_them() {
        let text = "[Game \"Chinese Chess\"]\n\n{开局} 1. 炮二平五 {中炮\n[不是标签]} 马８进７ \
                    (1... 炮８平５ {顺炮} 2. 马二进三) ; 屏风马\n2. 马二进三 {} *\n";
        let (_, lines, _) = parse_tree(text).unwrap();
        let comments = |i: usize| -> Vec<(usize, &str)> {
            lines[i]
                .comments
                .iter()
                .map(|(at, c)| (*at, c.as_str()))
                .collect()
        };
        assert_eq!(
            comments(0),
            [(0, "开局"), (1, "中炮\n[不是标签]"), (2, "屏风马")]
        );
        // The variation keeps those before the move it replaces.
        assert_eq!(
            comments(1),
            [(0, "开局"), (1, "中炮\n[不是标签]"), (2, "顺炮")]
        );
        let game = read(text).unwrap();
        assert_eq!(game.comments, lines[0].comments);
        // Written after their moves, a Black move after one numbered;
        // read back the same.
        let variation = RecordGame {
            moves: lines[1].moves.iter().map(|w| read_move(w)).collect(),
            comments: lines[1].comments.clone(),
            ..RecordGame::default()
        };
        fn read_move(word: &str) -> String {
            match word {
                "炮二平五" => "h2e2",
                "炮８平５" => "h7e7",
                "马二进三" => "h0g2",
                _ => "?",
            }
            .to_string()
        }
        let written = write(&game, &[variation], false, true).unwrap();
        assert!(
            written.contains(
                "{开局} 1. 炮二平五 {中炮\n[不是标签]} 1... 马８进７ {屏风马} (1... 炮８平５ {顺炮} 2. 马二进三) 2. 马二进三 *"
            ),
            "{written}"
        );
        let (_, back, _) = parse_tree(&written).unwrap();
        assert_eq!(back[0].comments, lines[0].comments);
        assert_eq!(back[1].comments, lines[1].comments);
    }

    #[test]
    fn variations_copying_too_many_moves_are_refused() {
        // 1,000 variations after move 3,000 of a line: 3 million moves
        // copied, from 30 KB of text.
        let mut text = "[Game \"Chinese Chess\"]\n\n".to_string();
        for i in 0..3_000 {
            text += ["h0g2 ", "h9g7 ", "g2h0 ", "g7h9 "][i % 4];
        }
        text += &"(a0a1) ".repeat(1_000);
        let Err(e) = parse_tree(&text) else {
            panic!("read whole");
        };
        assert!(e.contains("more than 2000000 moves in all"), "{e}");
        // Fewer read.
        let fewer = text.replacen(&"(a0a1) ".repeat(500), "", 1);
        assert_eq!(parse_tree(&fewer).unwrap().1.len(), 501);
    }

    #[test]
    fn the_forms_other_programs_write_read_too() {
        // `=` across, Black's pieces in lower case, move numbers run into
        // the move, Black's first move after dots, traditional characters.
        let wxf = game("WXF", "1. C2=5 h8+7 2.H2+3 r9=8 3. R1=2 H2+3 4. P7+1 P7+1");
        assert_eq!(
            read(&wxf).unwrap().moves,
            ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5"]
        );
        let black_first = "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\"]\n\n1. ………… 馬８進７ 2.馬二進三\n";
        assert_eq!(read(black_first).unwrap().moves, ["h9g7", "h0g2"]);
    }

    #[test]
    fn comments_variations_and_glyphs_are_skipped() {
        let text = game(
            "ICCS",
            "{opening} 1. H2-E2! (1. B2-E2 {the other}) H9-G7?! $1 ; a line comment\n2. H0-G2+",
        );
        assert_eq!(read(&text).unwrap().moves, ["h2e2", "h9g7", "h0g2"]);
    }

    #[test]
    fn variations_are_lines_of_their_own_nested_ones_too() {
        // 1. H2-E2 (1. B2-E2 H9-G7 (1... B9-C7)) H9-G7 (1... B9-C7 2. H0-G2
        // (2. B0-C2)) 2. H0-G2, and a `)` that closes nothing.
        let text = game(
            "ICCS",
            "1. H2-E2 (1. B2-E2 H9-G7 (1... B9-C7)) H9-G7 (1... B9-C7 2. H0-G2 (2. B0-C2)) ) 2. H0-G2",
        );
        let (_, lines, _) = parse_tree(&text).unwrap();
        let lines: Vec<String> = lines.iter().map(|l| l.moves.join(" ")).collect();
        assert_eq!(
            lines,
            [
                "H2-E2 H9-G7 H0-G2",
                "B2-E2 H9-G7",
                "B2-E2 B9-C7",
                "H2-E2 B9-C7 H0-G2",
                "H2-E2 B9-C7 B0-C2",
            ]
        );
        // Written as games of their own: the main line keeps the result,
        // the variations have none; each reads back to its line.
        let games = pgn_variations(&text.replace("[Event", "[Result \"1-0\"]\n[Event"))
            .unwrap()
            .unwrap();
        assert_eq!(games.len(), 5);
        assert!(games[0].contains("[Result \"1-0\"]") && games[0].ends_with("H0-G2\n\n"));
        assert!(games[3].contains("[Result \"*\"]"), "{}", games[3]);
        assert_eq!(read(&games[4]).unwrap().moves, ["h2e2", "b9c7", "b0c2"]);
        // A game without variations, or no PGN game: none.
        assert_eq!(
            pgn_variations(&game("ICCS", "1. H2-E2 H9-G7")).unwrap(),
            None
        );
        assert_eq!(pgn_variations("f5d6c3").unwrap(), None);
    }

    #[test]
    fn other_games_and_bad_moves_are_refused_by_name() {
        let chess = "[Event \"x\"]\n[Game \"Chess\"]\n\n1. e4 e5 1-0\n";
        assert!(read(chess).unwrap_err().contains("Chess"));
        let untagged = "[Event \"x\"]\n[White \"a\"]\n\n1. e4 e5\n";
        assert!(read(untagged).unwrap_err().contains("xiangqi"));
        // The tags of a championship game, with a Red player and no Game.
        let tagged = "[Event \"Wuyang Cup\"]\n[Site \"Guangzhou\"]\n[Date \"1982.01.04\"]\n[Round \"1\"]\n[Red \"Hu Ronghua\"]\n[Black \"Liu Dahua\"]\n[Result \"1-0\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 1-0\n";
        let championship = read(tagged).unwrap();
        assert_eq!(championship.moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(championship.date_place, "1982.01.04 Guangzhou");
        assert_eq!(championship.first, "Hu Ronghua");
        let bad = game("WXF", "1. C3.5");
        assert!(read(&bad).unwrap_err().contains("move 1. ('C3.5')"));
    }
}
