//! Game records in the formats of the communities that keep them: the
//! Chinese championship's (CCGC) Amazons (`#[AM]...`) and EinStein
//! (`#[WTN]...`) records, and GGF for Othello. Each is read into, and
//! written from, plyd's own moves from the start position.
//!
//! * Amazons: a header `#[AM][first][second][先手胜|后手胜][date place][event];`
//!   then lines `1 d1d7(g7) g10g8(c4)`: a move number and the two sides'
//!   moves (from, to, and the arrow in brackets), in plyd's squares.
//! * EinStein: a header `#[WTN][first R][second B][result][...][...];`, the
//!   set-ups `R:A5-1;B5-2;...` and `B:E1-1;...` (square, stone number), then
//!   one line a turn `ply:die;(stone,square)`, e.g. `1:5;(R5,C3)`: the roll
//!   and where the stone it moved went. plyd writes a turn as the roll
//!   `r5` and the step `b4c3`, so the stones are followed on the board.
//! * Xiangqi: PGN (see [`crate::xiangqi_pgn`]), moves read in ICCS, WXF or
//!   Chinese notation and written in ICCS (`1. H2-E2 H9-G7`).
//! * Othello transcripts, read only: the moves run together, one game a
//!   line (`f5d6c3d3c4...`), passes left out.
//! * Othello PGN, read only: `[Black ".."]` `[White ".."]` `[Result
//!   "34-30"]`, then `1. F5 D6 ...`, as the WTHOR databases' conversions
//!   write games. (The binary databases themselves, and xiangqi's XQF, are
//!   read by [`crate::read_wthor`] and [`crate::read_xqf`].)
//! * Othello: a GGF game (see [`crate::GgfGame`]), passes written `PA`;
//!   or SGF (`(;GM[2]FF[4]SZ[8]...;B[fe];W[dd]...)`), a square as two
//!   letters, column then row from the top-left (`fe` is f5), a pass
//!   empty (`W[]`); `f5` and `tt` are read too.

use crate::ggf::GgfGame;

/// The formats of [`write_record`] and [`read_record`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFormat {
    /// CCGC Amazons.
    CcgcAmazons,
    /// CCGC EinStein würfelt nicht.
    CcgcEinstein,
    /// GGF Othello.
    Ggf,
    /// SGF Othello (`GM[2]`).
    Sgf,
    /// Xiangqi PGN with ICCS moves; `ranks_from_one`: the moves to write
    /// count ranks 1-10 (plyd's `MoveRanks=1-10`), ICCS 0-9.
    XiangqiPgn {
        /// The moves count ranks from 1.
        ranks_from_one: bool,
    },
    /// Xiangqi PGN with Chinese moves (`炮二平五 马８进７`), the notation
    /// Chinese programs and readers use; a move the notation cannot name
    /// without the order of pawns on several files is written in ICCS.
    XiangqiPgnChinese,
}

/// Who won a recorded game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RecordResult {
    /// The first side's player (Black in Othello, Red in xiangqi).
    First,
    /// The second side's.
    Second,
    /// Neither.
    Draw,
    /// Not known.
    #[default]
    Unknown,
}

/// A game as a record holds it (by default: no names, no moves, the
/// result not known, from the standard start). `first` and `second`,
/// and the result, are by the game's sides, not by who moves first from
/// a set-up position: the side the game's start gives the move (Black in
/// Othello, Red in xiangqi) is the first, as the rules' results are
/// given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordGame {
    /// The first player's name.
    pub first: String,
    /// The second player's name.
    pub second: String,
    /// The result.
    pub result: RecordResult,
    /// When and where, as free text (`2024.08.10 14:00 Chongqing`).
    pub date_place: String,
    /// The event.
    pub event: String,
    /// The position the game starts from, as the game's plugin reads it,
    /// where it is not the game's start (a GGF `BO` of another board:
    /// the 64 squares and the side to move, `X` or `O`).
    pub start: Option<String>,
    /// The moves from the start position, in plyd's notation.
    pub moves: Vec<String>,
    /// The first side's disc margin at the end (Othello: Black's discs
    /// less White's, the empty squares the winner's), where the record
    /// gives it: GGF's `RE[+12.000]`, SGF's `RE[B+12]`.
    pub margin: Option<i32>,
    /// How an Othello game won otherwise than by the rules ended, where
    /// the record says: `R` resigned, `T` on time, `F` forfeited (SGF's
    /// `B+R`, `W+T`, `B+F`; GGF's `:r` and `:t`), written back to SGF.
    pub ending: Option<char>,
    /// Each move as the record wrote it, where the reader translated it
    /// (xiangqi's ICCS, WXF or Chinese notation), for messages; empty
    /// where the record writes plyd's notation.
    pub written: Vec<String>,
    /// The record's comments (xiangqi's PGN, XQF, CBR and CBL; Othello's
    /// SGF and PGN), in order, each with the number of moves before it: 0
    /// on the start, `n` on the position after the `n`th move. Each is as
    /// [`comment_text`] gives it.
    pub comments: Vec<(usize, String)>,
    /// The record's other tags, as name and value in its order, kept by
    /// the xiangqi writers: a PGN game's `Date`, `Site`, `Round`,
    /// `RedTeam`, `ECCO`, `Opening` and any other, an XQF or CBR file's
    /// date and site (`Date`, `Site`). Empty for the other formats, whose
    /// when and where are `date_place`.
    pub tags: Vec<(String, String)>,
}

impl RecordGame {
    /// The value of the record's tag `name` (any case) among [`tags`].
    ///
    /// [`tags`]: RecordGame::tags
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A comment's text as records keep it: line ends as `\n`, other control
/// characters left out, `}` (which would end a PGN comment) as `)`, blanks
/// at its ends left out; `None` where nothing is left.
pub fn comment_text(raw: &str) -> Option<String> {
    let text: String = raw
        .replace("\r\n", "\n")
        .chars()
        .filter_map(|c| match c {
            '\r' => Some('\n'),
            '}' => Some(')'),
            '\n' | '\t' => Some(c),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

impl RecordFormat {
    /// The format a game of `variant` is recorded in.
    pub fn for_variant(variant: &str) -> Option<RecordFormat> {
        match variant {
            "amazons" | "amazons8" => Some(RecordFormat::CcgcAmazons),
            "einstein" => Some(RecordFormat::CcgcEinstein),
            "othello" => Some(RecordFormat::Ggf),
            "xiangqi" => Some(RecordFormat::XiangqiPgn {
                ranks_from_one: false,
            }),
            _ => None,
        }
    }
}

/// Split a move text into its squares (`d10d7g7` → `d10`, `d7`, `g7`).
fn squares(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            current.push(c.to_ascii_lowercase());
        } else if c.is_ascii_digit() && !current.is_empty() {
            current.push(c);
        } else if matches!(c, '(' | ')' | '-' | ',' | '/') {
            continue;
        } else {
            return Err(format!("'{text}' is not a move of squares"));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    Ok(out)
}

fn result_word(result: RecordResult) -> &'static str {
    match result {
        RecordResult::First => "先手胜",
        RecordResult::Second => "后手胜",
        RecordResult::Draw => "和棋",
        RecordResult::Unknown => "?",
    }
}

/// A CCGC result: the first or second player (`先手`, `后手`, or the
/// traditional `後手`; EinStein's Red, `红方`, first, and Blue, `蓝方`)
/// with a win (`胜`, `勝`: `先手胜`, `后手胜利`, `先手获胜`) or a loss (`负`,
/// `負`, `败`, `敗`: `先手负` is the second player's win), or a draw (`和棋`,
/// `平局`).
fn result_of_word(word: &str) -> RecordResult {
    let word = word.trim();
    let has = |chars: &[char]| chars.iter().any(|&c| word.contains(c));
    let won = has(&['胜', '勝']);
    // Lost, resigned or out of time.
    let lost = has(&['负', '負', '败', '敗'])
        || ["认输", "認輸", "超时", "超時"]
            .iter()
            .any(|w| word.contains(w));
    let first = ["先手", "红", "紅"].iter().any(|p| word.starts_with(p));
    let second = ["后手", "後手", "蓝", "藍"]
        .iter()
        .any(|p| word.starts_with(p));
    match (first, second, won, lost) {
        (true, false, true, false) | (false, true, false, true) => RecordResult::First,
        (false, true, true, false) | (true, false, false, true) => RecordResult::Second,
        _ if matches!(word, "和棋" | "平局" | "和") => RecordResult::Draw,
        _ => RecordResult::Unknown,
    }
}

/// The bracketed fields of a CCGC header line, split where one field's
/// `]` meets the next's `[`: a bracket inside a name (`[Team [B]]`) stays
/// in it (split at every `[`, it shifted every field after it).
fn header_fields(line: &str) -> Vec<String> {
    let line = line
        .trim()
        .trim_start_matches('#')
        .trim_end_matches(';')
        .trim_end();
    let Some(inner) = line.strip_prefix('[') else {
        return Vec::new();
    };
    let inner = match inner.rfind(']') {
        Some(end) => &inner[..end],
        None => inner,
    };
    inner.split("][").map(str::to_string).collect()
}

/// Write `game` in `format`, from its start (`game.start`, GGF and PGN
/// only) or the game's standard one.
pub fn write_record(format: RecordFormat, game: &RecordGame) -> Result<String, String> {
    write_record_tree(format, game, &[])
}

/// [`write_record`] with `variations`: other lines from the game's start
/// (their moves and comments), written as variations of the game's moves,
/// its main line (a line that another begins with adds nothing). Xiangqi's
/// PGN alone holds them here, and the comments.
pub fn write_record_tree(
    format: RecordFormat,
    game: &RecordGame,
    variations: &[RecordGame],
) -> Result<String, String> {
    if game.start.is_some()
        && !matches!(
            format,
            RecordFormat::Ggf
                | RecordFormat::Sgf
                | RecordFormat::XiangqiPgn { .. }
                | RecordFormat::XiangqiPgnChinese
        )
    {
        return Err("only GGF, SGF and PGN records hold a game from another start".to_string());
    }
    let tree = matches!(
        format,
        RecordFormat::XiangqiPgn { .. } | RecordFormat::XiangqiPgnChinese
    );
    if !variations.is_empty() && !tree {
        return Err("only xiangqi's PGN and XQF records are written with variations".to_string());
    }
    let game = &RecordGame {
        first: field_text(&game.first),
        second: field_text(&game.second),
        date_place: field_text(&game.date_place),
        event: field_text(&game.event),
        ..game.clone()
    };
    match format {
        RecordFormat::CcgcAmazons => write_amazons(game),
        RecordFormat::CcgcEinstein => write_einstein(game),
        RecordFormat::Ggf => write_ggf(game),
        RecordFormat::Sgf => write_sgf(game),
        RecordFormat::XiangqiPgn { ranks_from_one } => {
            crate::xiangqi_pgn::write(game, variations, ranks_from_one, false)
        }
        RecordFormat::XiangqiPgnChinese => crate::xiangqi_pgn::write(game, variations, false, true),
    }
}

/// A name or other free text as a record's `[...]` field holds it in
/// every format and every reader: brackets as parentheses, a backslash
/// as a slash (SGF's escape, which CCGC and GGF readers do not know), a
/// line break as a space (`name=Zebra [v4.2]` had cut the field short and
/// the record did not read back).
fn field_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '[' => '(',
            ']' => ')',
            '\\' => '/',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

fn write_amazons(game: &RecordGame) -> Result<String, String> {
    let mut text = format!(
        "#[AM][{}][{}][{}][{}][{}];\n",
        game.first,
        game.second,
        result_word(game.result),
        game.date_place,
        game.event
    );
    for (i, pair) in game.moves.chunks(2).enumerate() {
        let mut line = format!("{}", i + 1);
        for mv in pair {
            let sq = squares(mv)?;
            // `d1d7g7`, or Fairy-Stockfish's `d1d7,d7g7` (a referee under
            // `MoveNotation=d1d7,d7g7`): the arrow leaves from the
            // square the amazon reached.
            let (from, to, arrow) = match &sq[..] {
                [from, to, arrow] => (from, to, arrow),
                [from, to, again, arrow] if to == again => (from, to, arrow),
                _ => return Err(format!("'{mv}' is not an Amazons move")),
            };
            line += &format!(" {from}{to}({arrow})");
        }
        text += &line;
        text.push('\n');
    }
    Ok(text)
}

/// The start squares of each EinStein side, in the set-up order.
const RED_SQUARES: [&str; 6] = ["a5", "b5", "c5", "a4", "b4", "a3"];
const BLUE_SQUARES: [&str; 6] = ["e1", "d1", "c1", "e2", "d2", "e3"];

/// EinStein stones on the board: (side, stone) per square.
#[derive(Default)]
struct Stones(Vec<(String, char, u8)>);

impl Stones {
    fn place(&mut self, side: char, setup: &str) -> Result<(), String> {
        let digits = setup.strip_prefix('s').unwrap_or(setup);
        let squares = if side == 'R' {
            RED_SQUARES
        } else {
            BLUE_SQUARES
        };
        if digits.len() != 6 {
            return Err(format!("'{setup}' is not a set-up of six stones"));
        }
        for (square, digit) in squares.iter().zip(digits.bytes()) {
            self.0.push((square.to_string(), side, digit - b'0'));
        }
        Ok(())
    }

    fn at(&self, square: &str) -> Option<(char, u8)> {
        self.0
            .iter()
            .find(|(s, _, _)| s == square)
            .map(|&(_, side, stone)| (side, stone))
    }

    fn square_of(&self, side: char, stone: u8) -> Option<String> {
        self.0
            .iter()
            .find(|&&(_, s, n)| s == side && n == stone)
            .map(|(sq, _, _)| sq.clone())
    }

    fn step(&mut self, from: &str, to: &str) {
        self.0.retain(|(s, _, _)| s != to);
        for entry in &mut self.0 {
            if entry.0 == from {
                entry.0 = to.to_string();
            }
        }
    }
}

/// Whether `to` is one of the squares next to `from` that `side` steps
/// to: Red, from the a5 corner, towards e1; Blue, from e1, towards a5.
fn one_step_forward(side: char, from: &str, to: &str) -> bool {
    let square = |s: &str| -> Option<(i32, i32)> {
        let b = s.as_bytes();
        (b.len() == 2 && (b'a'..=b'e').contains(&b[0]) && (b'1'..=b'5').contains(&b[1]))
            .then(|| (i32::from(b[0] - b'a'), i32::from(b[1] - b'1')))
    };
    let (Some((ff, fr)), Some((tf, tr))) = (square(from), square(to)) else {
        return false;
    };
    let (df, dr) = (tf - ff, tr - fr);
    let (df, dr) = if side == 'R' { (df, -dr) } else { (-df, dr) };
    (0..=1).contains(&df) && (0..=1).contains(&dr) && (df, dr) != (0, 0)
}

fn write_einstein(game: &RecordGame) -> Result<String, String> {
    let mut text = format!(
        "#[WTN][{} R][{} B][{}][{}][{}];\n",
        game.first,
        game.second,
        result_word(game.result),
        game.date_place,
        game.event
    );
    let (Some(red), Some(blue)) = (game.moves.first(), game.moves.get(1)) else {
        return Err("an EinStein game starts with both set-ups".to_string());
    };
    let mut stones = Stones::default();
    stones.place('R', red)?;
    stones.place('B', blue)?;
    for (side, setup) in [('R', red), ('B', blue)] {
        let squares = if side == 'R' {
            RED_SQUARES
        } else {
            BLUE_SQUARES
        };
        let placed: Vec<String> = squares
            .iter()
            .zip(setup.trim_start_matches('s').chars())
            .map(|(sq, n)| format!("{}-{n}", sq.to_ascii_uppercase()))
            .collect();
        text += &format!("{side}:{}\n", placed.join(";"));
    }
    let mut turn = 0;
    let mut die = None;
    for mv in &game.moves[2..] {
        if let Some(roll) = mv.strip_prefix('r') {
            die = Some(roll.to_string());
            continue;
        }
        let sq = squares(mv)?;
        let [from, to] = &sq[..] else {
            return Err(format!("'{mv}' is not an EinStein step"));
        };
        let (side, stone) = stones
            .at(from)
            .ok_or_else(|| format!("step '{mv}': no stone on {from}"))?;
        let roll = die
            .take()
            .ok_or_else(|| format!("step '{mv}' without a roll"))?;
        turn += 1;
        text += &format!(
            "{turn}:{roll};({side}{stone},{})\n",
            to.to_ascii_uppercase()
        );
        stones.step(from, to);
    }
    Ok(text)
}

/// Othello's start as [`GgfGame::start_position`] gives a board: the 64
/// squares from a1 (top-left) row by row, and the side to move.
const OTHELLO_START: &str = "---------------------------OX------XO--------------------------- X";

/// The margin of `game` where it agrees with its result.
fn agreed_margin(game: &RecordGame) -> Option<i32> {
    game.margin.filter(|m| match game.result {
        RecordResult::First => *m > 0,
        RecordResult::Second => *m < 0,
        RecordResult::Draw => *m == 0,
        RecordResult::Unknown => false,
    })
}

/// The start of an Othello record's game: its 64 squares (`-XO`, a1 first,
/// row by row) and its side to move (`X` or `O`); the standard start
/// where the game has none.
fn othello_start<'a>(game: &'a RecordGame, format: &str) -> Result<(&'a str, &'a str), String> {
    let start = game.start.as_deref().unwrap_or(OTHELLO_START);
    match start.split_whitespace().collect::<Vec<_>>()[..] {
        [squares, side @ ("X" | "O")]
            if squares.len() == 64 && squares.bytes().all(|b| b"-XO".contains(&b)) =>
        {
            Ok((squares, side))
        }
        _ => Err(format!(
            "'{start}' is not a {format} board (64 squares of -XO, then X or O)"
        )),
    }
}

/// GGF's and SGF's `DT[...]` field of a game's when and where, nothing
/// where that is not known.
fn date_field(date_place: &str) -> String {
    if date_place.is_empty() {
        String::new()
    } else {
        format!("DT[{date_place}]")
    }
}

fn write_ggf(game: &RecordGame) -> Result<String, String> {
    // Black's margin, as GGS writes it; the sign alone where the margin is
    // not known (a game lost on time, by an illegal move).
    let result = match (agreed_margin(game), game.result) {
        (Some(m), _) => format!("{m:+}.000"),
        (None, RecordResult::First) => "+".to_string(),
        (None, RecordResult::Second) => "-".to_string(),
        (None, RecordResult::Draw) => "0".to_string(),
        (None, RecordResult::Unknown) => "?".to_string(),
    };
    let (squares, side) = othello_start(game, "GGF")?;
    let mut text = format!(
        "(;GM[Othello]PC[{}]{}PB[{}]PW[{}]RE[{result}]TY[8]BO[8 {} {}]",
        game.event,
        date_field(&game.date_place),
        game.first,
        game.second,
        squares.replace('X', "*"),
        side.replace('X', "*")
    );
    let white_first = side == "O";
    for (i, mv) in game.moves.iter().enumerate() {
        let color = if (i % 2 == 0) != white_first {
            'B'
        } else {
            'W'
        };
        let square = match mv.as_str() {
            "0000" | "pass" | "PA" => "PA".to_string(),
            other => other.to_ascii_uppercase(),
        };
        text += &format!("{color}[{square}]");
    }
    Ok(text + ";)\n")
}

fn write_sgf(game: &RecordGame) -> Result<String, String> {
    // How a game won otherwise ended (`B+R`), where the record says.
    let how = game.ending.map_or(String::new(), String::from);
    let result = match (agreed_margin(game), game.result) {
        (Some(m), _) if m > 0 => format!("B+{m}"),
        (Some(m), _) if m < 0 => format!("W+{}", -m),
        (_, RecordResult::First) => format!("B+{how}"),
        (_, RecordResult::Second) => format!("W+{how}"),
        (_, RecordResult::Draw) => "0".to_string(),
        (_, RecordResult::Unknown) => "?".to_string(),
    };
    // The record's date, place and round where it kept them apart (an
    // Othello PGN's `Date`, `Site` and `Round`, an SGF's `DT`, `PC` and
    // `RO`), else its when and where as the date; an Othello PGN's when
    // and where joined its date and site, so the date alone then.
    let date = match (game.tag("Date"), game.tag("Site")) {
        (Some(date), _) => date,
        (None, Some(site)) if site == game.date_place => "",
        _ => game.date_place.as_str(),
    };
    // Tags are the record's text as read: made a field's text here, as
    // `write_record_tree` makes the names (a `\` or `]` in a place, read
    // back, had lost or cut it).
    let when_where: String = std::iter::once(date_field(&field_text(date)))
        .chain(
            [("PC", "Site"), ("RO", "Round")]
                .iter()
                .filter_map(|(key, tag)| {
                    game.tag(tag).map(|v| format!("{key}[{}]", field_text(v)))
                }),
        )
        .collect();
    let mut text = format!(
        "(;GM[2]FF[4]SZ[8]EV[{}]{when_where}PB[{}]PW[{}]RE[{result}]",
        game.event, game.first, game.second
    );
    // A game from another start: the squares that differ from the
    // standard start set up (`AB`, `AW`, `AE` for those emptied) and the
    // side to move (`PL`).
    let (board, side) = othello_start(game, "SGF")?;
    if game.start.is_some() {
        let standard = OTHELLO_START.as_bytes();
        for (key, disc) in [("AB", b'X'), ("AW", b'O'), ("AE", b'-')] {
            let points: String = (0..64)
                .filter(|&i| board.as_bytes()[i] == disc && standard[i] != disc)
                .map(|i| {
                    format!(
                        "[{}{}]",
                        (b'a' + i as u8 % 8) as char,
                        (b'a' + i as u8 / 8) as char
                    )
                })
                .collect();
            if !points.is_empty() {
                text += &format!("{key}{points}");
            }
        }
        text += if side == "O" { "PL[W]" } else { "PL[B]" };
    }
    text += &sgf_comments(game, 0);
    let white_first = side == "O";
    for (i, mv) in game.moves.iter().enumerate() {
        let color = if (i % 2 == 0) != white_first {
            'B'
        } else {
            'W'
        };
        let point = match mv.as_str() {
            "0000" | "pass" | "PA" => String::new(),
            other => match squares(other).as_deref() {
                // A square of the board, a1 to h8.
                Ok([square]) => match square.as_bytes() {
                    &[file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
                        format!("{}{}", file as char, (rank - b'1' + b'a') as char)
                    }
                    _ => return Err(format!("'{other}' is not an Othello move")),
                },
                _ => return Err(format!("'{other}' is not an Othello move")),
            },
        };
        text += &format!(";{color}[{point}]");
        text += &sgf_comments(game, i + 1);
    }
    Ok(text + ")\n")
}

/// The comments on the position after `moves` moves of `game`, as SGF
/// writes them on that node: one `C` property, several comments in it a
/// blank line apart, `\` and `]` escaped.
fn sgf_comments(game: &RecordGame, moves: usize) -> String {
    let texts: Vec<&str> = game
        .comments
        .iter()
        .filter(|(at, _)| *at == moves)
        .map(|(_, text)| text.as_str())
        .collect();
    if texts.is_empty() {
        return String::new();
    }
    let text = texts.join("\n\n").replace('\\', "\\\\").replace(']', "\\]");
    format!("C[{text}]")
}

/// An SGF value at the start of `text` (`[...]`), its escapes read (`\]`
/// is `]`, a backslash before a line break joins the lines), and the
/// text after it.
fn sgf_value(text: &str) -> Result<(String, &str), String> {
    let body = text.strip_prefix('[').ok_or("SGF: a value expected")?;
    let mut value = String::new();
    let mut chars = body.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            ']' => return Ok((value, &body[at + 1..])),
            '\\' => match chars.next() {
                Some((_, '\n' | '\r')) => {}
                Some((_, escaped)) => value.push(escaped),
                None => break,
            },
            c => value.push(c),
        }
    }
    Err("SGF: a value without ']'".to_string())
}

fn read_sgf(text: &str) -> Result<RecordGame, String> {
    let start = text.find("(;").ok_or("an SGF game is written (; ... )")?;
    let mut game = RecordGame::default();
    let mut rest = &text[start + 2..];
    // Set-up stones (`AB`, `AW`, `AE`) put on the standard start, and
    // `PL`, the side to move there.
    let mut setup: Option<Vec<u8>> = None;
    let mut white_to_move = false;
    // The comments (`C`) of the node being read: on the position after
    // its move, which may come after them in the node.
    let mut node_comments: Vec<String> = Vec::new();
    loop {
        // A variation's `(` leads into it: the main line is each fork's
        // first variation, and ends at the first `)`.
        let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';' || c == '(');
        let node_ends = rest[..rest.len() - trimmed.len()].contains(';');
        rest = trimmed;
        let game_ends = rest.is_empty() || rest.starts_with(')');
        if node_ends || game_ends {
            let at = game.moves.len();
            game.comments
                .extend(node_comments.drain(..).map(|text| (at, text)));
        }
        if game_ends {
            break;
        }
        let key_len = rest
            .find(|c: char| !c.is_ascii_uppercase())
            .unwrap_or(rest.len());
        let key = &rest[..key_len];
        let after = &rest[key_len..];
        if key.is_empty() || !after.starts_with('[') {
            return Err(format!(
                "SGF: a property expected at '{}'",
                after.chars().take(12).collect::<String>()
            ));
        }
        let (value, mut after_value) = sgf_value(after)?;
        // A property may hold several values (`LB[dd:A][ee:B]`): the
        // first is read, the others kept for the set-up stones.
        let mut values = vec![value.clone()];
        while after_value.trim_start().starts_with('[') {
            let (more, after_more) = sgf_value(after_value.trim_start())?;
            values.push(more);
            after_value = after_more;
        }
        rest = after_value;
        let value = value.as_str();
        match key {
            "PB" => game.first = value.to_string(),
            "PW" => game.second = value.to_string(),
            "DT" => game.date_place = value.to_string(),
            "PC" => game.tags.push(("Site".to_string(), value.to_string())),
            "RO" => game.tags.push(("Round".to_string(), value.to_string())),
            "EV" => game.event = value.to_string(),
            "C" => node_comments.extend(comment_text(value)),
            "RE" => {
                let value = value.trim();
                game.result = match value {
                    r if r.starts_with("B+") => RecordResult::First,
                    r if r.starts_with("W+") => RecordResult::Second,
                    "0" | "Draw" | "draw" => RecordResult::Draw,
                    _ => RecordResult::Unknown,
                };
                // `B+12`, `W+4`: the margin, when a number follows
                // (`B+R`, `W+T` are a resignation and a loss on time).
                let margin = value.get(2..).and_then(|m| m.parse::<i32>().ok());
                game.ending = sgf_ending(value.get(2..).unwrap_or(""));
                game.margin = match game.result {
                    RecordResult::First => margin.filter(|m| (1..=64).contains(m)),
                    RecordResult::Second => margin.filter(|m| (1..=64).contains(m)).map(|m| -m),
                    RecordResult::Draw => Some(0),
                    RecordResult::Unknown => None,
                };
            }
            "SZ" if value.trim() != "8" => {
                return Err(format!(
                    "SGF: a board of SZ[{}], not Othello's 8x8",
                    value.trim()
                ));
            }
            "AB" | "AW" | "AE" => {
                if !game.moves.is_empty() {
                    return Err(format!(
                        "SGF: set-up stones ({key}) after the game's first move are not read"
                    ));
                }
                let disc = match key {
                    "AB" => b'X',
                    "AW" => b'O',
                    _ => b'-',
                };
                let board = setup.get_or_insert_with(|| OTHELLO_START.as_bytes()[..64].to_vec());
                for value in &values {
                    for square in sgf_points(value)? {
                        board[square] = disc;
                    }
                }
            }
            "PL" => {
                white_to_move = match value.trim() {
                    "B" | "b" => false,
                    "W" | "w" => true,
                    other => return Err(format!("SGF: PL[{other}] is neither B nor W")),
                };
            }
            "B" | "W" => {
                let v = value.trim().to_ascii_lowercase();
                let b = v.as_bytes();
                let mv = if v.is_empty() || v == "tt" || v == "pass" || v == "pa" {
                    "pass".to_string()
                } else if b.len() == 2 && b[1].is_ascii_lowercase() {
                    format!("{}{}", b[0] as char, b[1] - b'a' + 1)
                } else {
                    v
                };
                game.moves.push(mv);
            }
            _ => {}
        }
    }
    if setup.is_some() || white_to_move {
        let board = setup.unwrap_or_else(|| OTHELLO_START.as_bytes()[..64].to_vec());
        let start = format!(
            "{} {}",
            String::from_utf8_lossy(&board),
            if white_to_move { 'O' } else { 'X' }
        );
        game.start = (start != OTHELLO_START).then_some(start);
    }
    Ok(game)
}

/// The squares (0 for a1, row by row) of an SGF point value: `fe` (column
/// then row letter from the top-left), or a rectangle of them, `cc:ff`.
fn sgf_points(value: &str) -> Result<Vec<usize>, String> {
    let point = |text: &str| -> Result<(usize, usize), String> {
        match text.trim().as_bytes() {
            [c @ b'a'..=b'h', r @ b'a'..=b'h'] => Ok(((c - b'a') as usize, (r - b'a') as usize)),
            _ => Err(format!("SGF: '{text}' is not a point of the 8x8 board")),
        }
    };
    let (from, to) = match value.split_once(':') {
        Some((a, b)) => (point(a)?, point(b)?),
        None => {
            let p = point(value)?;
            (p, p)
        }
    };
    let mut squares = Vec::new();
    for row in from.1.min(to.1)..=from.1.max(to.1) {
        for column in from.0.min(to.0)..=from.0.max(to.0) {
            squares.push(row * 8 + column);
        }
    }
    Ok(squares)
}

/// An Othello transcript, the moves run together as Othello programs and
/// sites pass games around (`f5d6c3d3c4`, upper or lower case, spaces
/// and move numbers between moves allowed: `1. f5 d6 2. c3`): its moves,
/// or `None` if `text` is not one.
/// Passes are left out, as transcripts leave them.
pub fn transcript_moves(text: &str) -> Option<Vec<String>> {
    let squares = transcript_letters(text);
    // 60 discs and a few passes.
    if squares.is_empty() || !squares.len().is_multiple_of(2) || squares.len() > 160 {
        return None;
    }
    squares
        .chunks(2)
        .map(|pair| match pair {
            // A pass, where the transcript writes one (`PA`, `PS`, `--`).
            b"pa" | b"ps" | b"--" => Some("pass".to_string()),
            _ => (matches!(pair[0], b'a'..=b'h') && matches!(pair[1], b'1'..=b'8'))
                .then(|| String::from_utf8_lossy(pair).into_owned()),
        })
        .collect()
}

/// A transcript's letters, lower case, without the spaces and the move
/// numbers a person may write between its moves (`1. f5 d6 2. c3`); a
/// pass written out (`pass`) as `pa`.
fn transcript_letters(text: &str) -> Vec<u8> {
    text.split_ascii_whitespace()
        .filter(|word| {
            let digits = word.trim_end_matches('.');
            !(digits.len() < word.len()
                && !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|word| {
            if word.eq_ignore_ascii_case("pass") {
                "pa"
            } else {
                word
            }
        })
        .flat_map(str::bytes)
        .map(|b| b.to_ascii_lowercase())
        .collect()
}

/// Where a text that begins as an Othello transcript (its first move a
/// square) stops being one: its first word that is no square, for the
/// message that refuses it.
fn transcript_flaw(text: &str) -> Option<String> {
    let letters = transcript_letters(text);
    let square = |pair: &[u8]| {
        pair.len() == 2 && matches!(pair[0], b'a'..=b'h') && matches!(pair[1], b'1'..=b'8')
    };
    if letters.len() < 2 || !square(&letters[..2]) {
        return None;
    }
    let (index, pair) = letters
        .chunks(2)
        .enumerate()
        .find(|(_, pair)| !square(pair))?;
    Some(format!(
        "an Othello transcript whose move {} ('{}') is not a square (a1 to h8)",
        index + 1,
        String::from_utf8_lossy(pair)
    ))
}

/// A `position` line as `plyd record` prints it and a GUI sends it
/// (`position startpos moves d3 c5`, `position fen TEXT moves ...`): the
/// game's start and moves, with no game named; `None` for another text.
pub fn position_line_game(text: &str) -> Option<RecordGame> {
    let mut words = text.split_whitespace();
    if words.next() != Some("position") {
        return None;
    }
    let mut game = RecordGame::default();
    match words.next()? {
        "startpos" => match words.next() {
            None => return Some(game),
            Some("moves") => {}
            Some(_) => return None,
        },
        "fen" => {
            let mut fen = Vec::new();
            for word in words.by_ref() {
                if word == "moves" {
                    break;
                }
                fen.push(word);
            }
            if fen.is_empty() {
                return None;
            }
            game.start = Some(fen.join(" "));
        }
        _ => return None,
    }
    game.moves = words.map(str::to_string).collect();
    Some(game)
}

/// Read a record in any of the formats, recognised by its first text:
/// the variant it plays (empty for a `position` line, which names none)
/// and the game. GGF passes are kept as the record
/// writes them; one it leaves out is for the reader to add.
pub fn read_record(text: &str) -> Result<(&'static str, RecordGame), String> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if let Some(game) = position_line_game(trimmed) {
        // Any game's: the variant is the reader's to give (`--game`).
        Ok(("", game))
    } else if trimmed.starts_with("#[AM]") {
        read_amazons(trimmed).map(|g| ("amazons", g))
    } else if trimmed.starts_with("#[WTN]") {
        read_einstein(trimmed).map(|g| ("einstein", g))
    } else if crate::xiangqi_pgn::is_pgn(trimmed) {
        match read_othello_pgn(trimmed)? {
            Some(game) => Ok(("othello", game)),
            None => crate::xiangqi_pgn::read(trimmed).map(|g| ("xiangqi", g)),
        }
    } else if let Some(moves) = transcript_moves(trimmed) {
        Ok((
            "othello",
            RecordGame {
                moves,
                ..RecordGame::default()
            },
        ))
    } else if trimmed.starts_with("(;") {
        // GGF says `GM[Othello]`, SGF `GM[2]`; another game is not read
        // as Othello.
        match game_property(trimmed) {
            Some(game) if game.eq_ignore_ascii_case("othello") => {
                read_ggf(trimmed).map(|g| ("othello", g))
            }
            Some("2") | None => read_sgf(trimmed).map(|g| ("othello", g)),
            Some(other) => Err(format!(
                "a game of GM[{other}]: plyd reads Othello's (GM[Othello] in GGF, GM[2] in SGF)"
            )),
        }
    } else if let Some(game) = crate::xiangqi_pgn::read_bare(trimmed) {
        // Xiangqi moves with no tags, in any of its notations (`1. C2.5
        // H8+7`, `h2e2 h9g7`, `炮二平五`): a game from the start.
        Ok(("xiangqi", game))
    } else if let Some(flaw) = transcript_flaw(trimmed) {
        Err(flaw)
    } else if let Some(game) = crate::xiangqi_pgn::read_bare_chinese(trimmed) {
        game.map(|g| ("xiangqi", g))
    } else {
        Err(
            "not a record plyd reads (CCGC's #[AM] or #[WTN], a GGF or an SGF game, an Othello \
             transcript or PGN game, a xiangqi PGN game or a list of Chinese moves, plyd's own \
             `position` lines; WTHOR, XQF, CBR or CBL files)"
                .to_string(),
        )
    }
}

/// A disc count result, `34-30` (Black's discs, then White's), as
/// Black's margin with the empty squares counted to the winner.
fn disc_margin(text: &str) -> Option<i32> {
    let (black, white) = text.trim().split_once('-')?;
    let (black, white): (i32, i32) = (black.trim().parse().ok()?, white.trim().parse().ok()?);
    if black + white > 64 || black < 0 || white < 0 {
        return None;
    }
    Some(othello_margin_of(black, white))
}

/// Black's margin at the end of an Othello game with `black` and `white`
/// discs: their difference, the empty squares counted to the winner, as
/// the World Othello Federation scores a game that ends before the board
/// is full (and WTHOR stores it).
pub fn othello_margin_of(black: i32, white: i32) -> i32 {
    let margin = black - white;
    margin + margin.signum() * (64 - black - white)
}

/// An Othello game in PGN, as game archives convert WTHOR's databases and
/// some programs write games: `[Black ".."]`, `[White ".."]`, `[Result
/// "34-30"]` (the discs of each, or `1-0` for Black), then `1. F5 D6 2. C3
/// ...`, passes left out or written `PA`/`pass`. `None` where the game is
/// not Othello's: a `Game` or `Variant` tag naming another game, or
/// without one, a `Red` tag, no `Black` and `White` tags, or a first move
/// that is not a square of the board.
fn read_othello_pgn(text: &str) -> Result<Option<RecordGame>, String> {
    let (tags, line, end) = crate::xiangqi_pgn::parse(text)?;
    let words = line.moves;
    let tag = |name: &str| crate::xiangqi_pgn::tag(&tags, name);
    let square = |w: &str| {
        let w = w.to_ascii_lowercase();
        let b = w.as_bytes();
        (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]))
            .then_some(w)
    };
    match tag("Game").or(tag("Variant")) {
        Some(g) => {
            let g = g.to_ascii_lowercase();
            if !(g.contains("othello") || g.contains("reversi")) {
                return Ok(None);
            }
        }
        None => {
            let sides = tag("Black").is_some() || tag("White").is_some();
            let first_square = words.first().is_none_or(|w| square(w).is_some());
            if tag("Red").is_some() || !sides || !first_square {
                return Ok(None);
            }
        }
    }
    let mut game = RecordGame {
        first: tag("Black").unwrap_or("").to_string(),
        second: tag("White").unwrap_or("").to_string(),
        date_place: crate::xiangqi_pgn::date_place(&tags),
        event: tag("Event").unwrap_or("").to_string(),
        // Kept apart too, for SGF's date, place and round.
        tags: ["Date", "Site", "Round"]
            .iter()
            .filter_map(|&name| tag(name).map(|v| (name.to_string(), v.to_string())))
            .collect(),
        ..RecordGame::default()
    };
    // The tag's result, or the one that ended the moves.
    let mut result = tag("Result").map(str::to_string).or(end);
    for (i, word) in words.iter().enumerate() {
        if let Some(sq) = square(word) {
            game.moves.push(sq);
        } else if matches!(
            word.to_ascii_lowercase().as_str(),
            "pa" | "pass" | "--" | "ps"
        ) {
            game.moves.push("pass".to_string());
        } else if i + 1 == words.len() && disc_margin(word).is_some() {
            // The result after the moves, `34-30`.
            result.get_or_insert_with(|| word.clone());
        } else {
            return Err(format!(
                "move {} ('{word}') is not an Othello square (a1-h8) or a pass",
                game.moves.len() + 1
            ));
        }
    }
    if let Some(result) = result {
        (game.result, game.margin) = match result.as_str() {
            "1-0" => (RecordResult::First, None),
            "0-1" => (RecordResult::Second, None),
            "1/2-1/2" => (RecordResult::Draw, None),
            discs => match disc_margin(discs) {
                Some(m) if m > 0 => (RecordResult::First, Some(m)),
                Some(m) if m < 0 => (RecordResult::Second, Some(m)),
                Some(m) => (RecordResult::Draw, Some(m)),
                None => (RecordResult::Unknown, None),
            },
        };
    }
    // Each comment on the position after the moves before it (a result
    // word among them is the last word: a comment after it is the end's).
    let moves = game.moves.len();
    game.comments = line
        .comments
        .into_iter()
        .map(|(at, text)| (at.min(moves), text))
        .collect();
    Ok(Some(game))
}

/// The value of a GGF or SGF game's first `GM` property.
fn game_property(text: &str) -> Option<&str> {
    let at = text.find("GM[")? + 3;
    let len = text[at..].find(']')?;
    Some(text[at..at + len].trim())
}

/// The game of a CCGC header line (`#[WTN][Red][Blue][result][date
/// place][event]`), and the side it says moved first where it has a field
/// for it after the names (`[红方先手]`, `[蓝方先手]`, as some programs
/// write: the fields after it then shift by one).
fn header_game(line: &str, strip_sides: bool) -> (RecordGame, Option<String>) {
    let mut fields = header_fields(line);
    let first_mover = (fields.len() > 3 && fields[3].ends_with("先手")).then(|| fields.remove(3));
    let name = |i: usize| {
        let text = fields.get(i).cloned().unwrap_or_default();
        if strip_sides {
            text.trim_end_matches(" R")
                .trim_end_matches(" B")
                .trim()
                .to_string()
        } else {
            text
        }
    };
    let word = fields.get(3).map_or("", String::as_str);
    let result = result_of_word(word);
    let game = RecordGame {
        first: name(1),
        second: name(2),
        result,
        date_place: fields.get(4).cloned().unwrap_or_default(),
        event: fields.get(5).cloned().unwrap_or_default(),
        // A result word not read is kept, for the note that says so.
        tags: (result == RecordResult::Unknown && !matches!(word.trim(), "" | "?"))
            .then(|| ("Result".to_string(), word.to_string()))
            .into_iter()
            .collect(),
        ..RecordGame::default()
    };
    (game, first_mover)
}

/// `line` with full-width ASCII forms (`（`, `，`, `：`, `ｆ７`), as Chinese
/// input methods type them, as their ASCII characters, and the
/// ideographic space as a space.
pub fn half_width(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '\u{3000}' => ' ',
            c => c,
        })
        .collect()
}

fn read_amazons(text: &str) -> Result<RecordGame, String> {
    let mut lines = text.lines();
    let (mut game, _) = header_game(lines.next().unwrap_or(""), false);
    for (n, line) in lines.enumerate() {
        // `g1i3 (i4)`: the arrow's bracket written apart from its move.
        let mut line = half_width(line);
        while line.contains(" (") {
            line = line.replace(" (", "(");
        }
        for token in line.split_whitespace() {
            if token.chars().all(|c| c.is_ascii_digit() || c == '.') {
                continue;
            }
            // `from to(arrow)`: a bracket left open is a move cut short.
            let opens = token.matches('(').count();
            if opens != token.matches(')').count()
                || opens > 1
                || (opens == 1 && !token.ends_with(')'))
            {
                return Err(format!(
                    "line {}: '{token}' is cut short or not an Amazons move (from, to and the arrow in brackets: d1d7(g7))",
                    n + 2
                ));
            }
            let sq = squares(token).map_err(|e| format!("line {}: {e}", n + 2))?;
            let [from, to, arrow] = &sq[..] else {
                return Err(format!("line {}: '{token}' is not an Amazons move", n + 2));
            };
            game.moves.push(format!("{from}{to}{arrow}"));
        }
    }
    Ok(game)
}

fn read_einstein(text: &str) -> Result<RecordGame, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let (mut game, first_mover) = header_game(lines.next().unwrap_or(""), true);
    // plyd's EinStein has Red move first, as the start position's text
    // and the records' moves do.
    if let Some(mover) = first_mover.filter(|m| !m.starts_with('红') && !m.starts_with('紅')) {
        return Err(format!(
            "the header says '{mover}': a game another side than Red starts, which plyd's \
             EinStein (Red first) does not replay"
        ));
    }
    let mut setups = [None, None];
    let mut stones = Stones::default();
    for (n, line) in lines.enumerate() {
        let line = half_width(line);
        let line = line.trim();
        let at = n + 2;
        if let Some((side @ ("R" | "B"), placed)) = line.split_once(':') {
            let squares = if side == "R" {
                RED_SQUARES
            } else {
                BLUE_SQUARES
            };
            let mut digits = [b'0'; 6];
            for item in placed.split(';').filter(|s| !s.trim().is_empty()) {
                let (square, stone) = item
                    .trim()
                    .split_once('-')
                    .ok_or_else(|| format!("line {at}: '{item}' is not square-stone"))?;
                let square = square.to_ascii_lowercase();
                let index = squares
                    .iter()
                    .position(|s| *s == square)
                    .ok_or_else(|| format!("line {at}: {square} is not a {side} start square"))?;
                digits[index] = stone
                    .trim()
                    .bytes()
                    .next()
                    .filter(|b| (b'1'..=b'6').contains(b))
                    .ok_or_else(|| format!("line {at}: stone '{stone}'"))?;
            }
            let setup = format!("s{}", String::from_utf8_lossy(&digits));
            setups[usize::from(side == "B")] = Some(setup);
            continue;
        }
        if game.moves.is_empty() {
            let [Some(red), Some(blue)] = &setups else {
                return Err(format!("line {at}: a turn before both set-ups"));
            };
            stones.place('R', red)?;
            stones.place('B', blue)?;
            game.moves.push(red.clone());
            game.moves.push(blue.clone());
        }
        // `ply:die;(Sn,SQ)`
        let bad = || format!("line {at}: '{line}' is not 'ply:die;(stone,square)'");
        let (_, rest) = line.split_once(':').ok_or_else(bad)?;
        let (die, step) = rest.split_once(';').ok_or_else(bad)?;
        // A `;` after the step (`1:2;(R2,B4);`), as the set-up lines may
        // end, is read as their end.
        let step = step.trim().trim_end_matches(';').trim_end();
        let step = step.trim_start_matches('(').trim_end_matches(')');
        let (stone, to) = step.split_once(',').ok_or_else(bad)?;
        let mut chars = stone.trim().chars();
        let side = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        let number: u8 = chars.as_str().parse().map_err(|_| bad())?;
        let from = stones
            .square_of(side, number)
            .ok_or_else(|| format!("line {at}: stone {side}{number} is not on the board"))?;
        let to = to.trim().to_ascii_lowercase();
        if !one_step_forward(side, &from, &to) {
            return Err(format!(
                "line {at}: {side}{number} cannot step from {from} to {to} (one square {})",
                if side == 'R' {
                    "right, down or both"
                } else {
                    "left, up or both"
                }
            ));
        }
        game.moves.push(format!("r{}", die.trim()));
        game.moves.push(format!("{from}{to}"));
        stones.step(&from, &to);
    }
    if game.moves.is_empty() {
        if let [Some(red), Some(blue)] = setups {
            game.moves = vec![red, blue];
        }
    }
    Ok(game)
}

/// The way an SGF result after `B+`/`W+` says a game ended other than
/// by the score (`R`/`Resign`, `T`/`Time`, `F`/`Forfeit`).
fn sgf_ending(after_sign: &str) -> Option<char> {
    let first = after_sign.trim().chars().next()?.to_ascii_uppercase();
    matches!(first, 'R' | 'T' | 'F').then_some(first)
}

fn read_ggf(text: &str) -> Result<RecordGame, String> {
    let ggf = GgfGame::parse(text).map_err(|e| e.to_string())?;
    // Black's margin (`+12.000`, `-4`, `0.000`), perhaps with how the game
    // ended after a colon (`+64.000:r`), or a bare sign.
    let margin = ggf.get("RE").unwrap_or("?").trim();
    let (margin, how) = match margin.split_once(':') {
        Some((margin, how)) => (margin.trim(), Some(how.trim())),
        None => (margin, None),
    };
    // A game that ended otherwise (`:r` resigned, `:t` on time, `:s` by
    // score) was won by its sign: its number is the count as it stopped,
    // not a final margin, and is not kept (written on as `B+` in SGF, a
    // game won otherwise, never as a margin the rules gave).
    let discs = margin
        .parse::<f64>()
        .ok()
        .filter(|v| how.is_none() && (-64.0..=64.0).contains(v))
        .map(|v| v.round() as i32);
    let result = match margin.parse::<f64>() {
        Ok(v) if v > 0.0 => RecordResult::First,
        Ok(v) if v < 0.0 => RecordResult::Second,
        Ok(_) => RecordResult::Draw,
        Err(_) if margin.starts_with('+') => RecordResult::First,
        Err(_) if margin.starts_with('-') => RecordResult::Second,
        Err(_) => RecordResult::Unknown,
    };
    // GGS's types: a board size, `r` for a random start (its board in
    // `BO`; with the discs of its start, `8r20`), and letters for other
    // games (`s` synchro, `k` komi, `a` anti), which plyd's Othello does
    // not play.
    if let Some(kind) = ggf.get("TY").map(str::trim) {
        let random_start = kind
            .strip_prefix("8r")
            .is_some_and(|discs| discs.bytes().all(|b| b.is_ascii_digit()));
        if kind != "8" && !random_start {
            return Err(format!(
                "GGF game type TY[{kind}] is not one plyd plays (8 or 8r: Othello on 8x8)"
            ));
        }
    }
    let start = ggf
        .start_position()
        .map_err(|e| e.to_string())?
        .filter(|board| board != OTHELLO_START);
    Ok(RecordGame {
        first: ggf.get("PB").unwrap_or("").to_string(),
        second: ggf.get("PW").unwrap_or("").to_string(),
        result,
        margin: discs,
        ending: how.and_then(|how| match how.chars().next()?.to_ascii_lowercase() {
            'r' => Some('R'),
            't' => Some('T'),
            _ => None,
        }),
        date_place: ggf.get("DT").unwrap_or("").to_string(),
        event: ggf.get("PC").unwrap_or("").to_string(),
        start,
        moves: ggf
            .moves()
            .into_iter()
            .map(|m| {
                if m.square.eq_ignore_ascii_case("pa") {
                    "pass".to_string()
                } else {
                    m.square.to_ascii_lowercase()
                }
            })
            .collect(),
        written: Vec::new(),
        comments: Vec::new(),
        tags: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_keep_their_text_and_lose_what_records_cannot_hold() {
        assert_eq!(
            comment_text(" 好棋\r\n 红优}\u{1}\r "),
            Some("好棋\n 红优)".to_string())
        );
        assert_eq!(comment_text("\u{3000}\r\n\0"), None);
        // Read again, the same.
        let once = comment_text("a\rb\tc}").unwrap();
        assert_eq!(comment_text(&once), Some(once));
    }

    fn game(moves: &[&str]) -> RecordGame {
        RecordGame {
            first: "plyd".into(),
            second: "other".into(),
            result: RecordResult::Second,
            date_place: "2026.11.23 20:00 here".into(),
            event: "test".into(),
            start: None,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            written: Vec::new(),
            margin: None,
            ending: None,
            comments: Vec::new(),
            tags: Vec::new(),
        }
    }

    #[test]
    fn amazons_records_read_back() {
        let g = game(&["d1d7g7", "g10g8c4", "a4a5a6"]);
        let text = write_record(RecordFormat::CcgcAmazons, &g).unwrap();
        assert!(text.starts_with("#[AM][plyd][other][后手胜]"), "{text}");
        assert!(
            text.contains("\n1 d1d7(g7) g10g8(c4)\n2 a4a5(a6)\n"),
            "{text}"
        );
        assert_eq!(read_record(&text).unwrap(), ("amazons", g.clone()));
        // Typed on a Chinese input method: full-width brackets, digits and
        // spaces.
        let typed = text
            .replace("d1d7(g7) g10g8(c4)", "d1d7（g7）\u{3000}g10g8（c4）")
            .replace("a4a5(a6)", "ａ４ａ５（ａ６）");
        assert_eq!(read_record(&typed).unwrap(), ("amazons", g.clone()));
        // An arrow's bracket apart from its move.
        let apart = text.replace("d1d7(g7) g10g8(c4)", "d1d7 (g7)  g10g8  (c4)");
        assert_eq!(read_record(&apart).unwrap(), ("amazons", g.clone()));
        // A move cut short inside its brackets is not read as another.
        for cut in ["c3d4(d5", "c3d4d5)", "c3(d4)(d5)"] {
            let e = read_record(&text.replace("a4a5(a6)", cut)).unwrap_err();
            assert!(
                e.contains(&format!("line 3: '{cut}' is cut short")),
                "{cut}: {e}"
            );
        }
    }

    /// Moves in Fairy-Stockfish's two-part spelling are written as the
    /// championship writes them; four squares that do not chain are not.
    #[test]
    fn amazons_moves_in_two_parts_are_written_whole() {
        let two = game(&["d1d7,d7g7", "g10g8,g8c4"]);
        let text = write_record(RecordFormat::CcgcAmazons, &two).unwrap();
        assert!(text.contains("\n1 d1d7(g7) g10g8(c4)\n"), "{text}");
        let broken = game(&["d1d7,d6g7"]);
        let e = write_record(RecordFormat::CcgcAmazons, &broken).unwrap_err();
        assert!(e.contains("'d1d7,d6g7' is not an Amazons move"), "{e}");
    }

    #[test]
    fn einstein_records_follow_the_stones() {
        let g = game(&[
            "s123456", "s654321", "r5", "b4c3", "r2", "d1c2", "r1", "a5b4",
        ]);
        let text = write_record(RecordFormat::CcgcEinstein, &g).unwrap();
        assert!(text.contains("R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6\n"), "{text}");
        assert!(text.contains("B:E1-6;D1-5;C1-4;E2-3;D2-2;E3-1\n"), "{text}");
        assert!(
            text.contains("1:5;(R5,C3)\n2:2;(B5,C2)\n3:1;(R1,B4)\n"),
            "{text}"
        );
        assert_eq!(read_record(&text).unwrap(), ("einstein", g.clone()));
        // A `;` after each turn's step, as after the set-ups, reads the same.
        let ended = text.replace(")\n", ");\n");
        assert_ne!(ended, text);
        assert_eq!(read_record(&ended).unwrap(), ("einstein", g.clone()));
        // Full-width brackets, colons and commas, as Chinese input methods
        // type them.
        let typed = text.replace("1:5;(R5,C3)", "1：5；（R5，C3）");
        assert_ne!(typed, text);
        assert_eq!(read_record(&typed).unwrap(), ("einstein", g.clone()));
        // A header with a field for the side that moved first after the
        // names (`[红方先手]`) reads its result, date and event from the
        // fields after it; one that says Blue started is refused by name.
        let header = text.lines().next().unwrap();
        let fields = header_fields(header);
        let with_mover = |mover: &str| {
            let mut shifted = fields.clone();
            shifted.insert(3, mover.to_string());
            let line: String = shifted.iter().map(|f| format!("[{f}]")).collect();
            text.replacen(header, &format!("#{line};"), 1)
        };
        assert_eq!(
            read_record(&with_mover("红方先手")).unwrap(),
            ("einstein", g.clone())
        );
        let e = read_record(&with_mover("蓝方先手")).unwrap_err();
        assert!(e.contains("the header says '蓝方先手'"), "{e}");
        // A step no stone can take is named where it is, not later as a
        // stone that seems to be missing.
        let line = text.lines().position(|l| l == "1:5;(R5,C3)").unwrap() + 1;
        for (bad, why) in [
            ("1:5;(R5,D2)", "R5 cannot step from b4 to d2"),
            ("1:5;(R5,A5)", "R5 cannot step from b4 to a5"),
            ("1:5;(R5,F3)", "R5 cannot step from b4 to f3"),
        ] {
            let broken = text.replace("1:5;(R5,C3)", bad);
            let e = read_record(&broken).unwrap_err();
            assert!(e.contains(&format!("line {line}: {why}")), "{bad}: {e}");
        }
    }

    #[test]
    fn ggf_records_read_back() {
        let g = game(&["f5", "d6", "c3", "pass"]);
        let text = write_record(RecordFormat::Ggf, &g).unwrap();
        assert!(text.contains("B[F5]W[D6]B[C3]W[PA]"), "{text}");
        assert_eq!(read_record(&text).unwrap(), ("othello", g));
        assert!(read_record("hello").is_err());
    }

    #[test]
    fn ggf_records_keep_another_start_and_refuse_other_games() {
        // White to move on a board of five discs: written, read back.
        let mut g = game(&["c4", "pass", "e3"]);
        g.start = Some("---------------------------OX------XXX-------------------------- O".into());
        let text = write_record(RecordFormat::Ggf, &g).unwrap();
        assert!(
            text.contains("BO[8 ---------------------------O*------***-------------------------- O]W[C4]B[PA]W[E3]"),
            "{text}"
        );
        assert_eq!(read_record(&text).unwrap(), ("othello", g.clone()));
        for format in [RecordFormat::CcgcAmazons, RecordFormat::CcgcEinstein] {
            assert!(write_record(format, &g).is_err());
        }
        // The standard start written out is no start of its own.
        let plain = game(&["f5"]);
        let text = write_record(RecordFormat::Ggf, &plain).unwrap();
        assert_eq!(read_record(&text).unwrap().1.start, None);
        for (text, why) in [
            ("(;GM[Othello]TY[10]B[F5];)", "TY[10]"),
            ("(;GM[Othello]TY[s8]B[F5];)", "TY[s8]"),
            ("(;GM[Chess]B[E4];)", "GM[Chess]"),
            ("(;GM[1]SZ[19];B[dd])", "GM[1]"),
            ("(;GM[2]SZ[10];B[dd])", "SZ[10]"),
            ("(;GM[2]SZ[8];B[fe];AB[dd])", "after the game's first move"),
            ("(;GM[2]SZ[8]AB[zz];B[fe])", "'zz' is not a point"),
            ("(;GM[2]SZ[8]PL[X];B[fe])", "PL[X]"),
            ("(;GM[Othello]BO[8 --- *]B[F5];)", "GGF board"),
        ] {
            let e = read_record(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
        assert!(read_record("(;GM[Othello]TY[8r]B[F5];)").is_ok());
    }

    #[test]
    fn sgf_set_up_stones_and_the_player_to_move_are_the_start() {
        // c3 to d4 Black (a rectangle), e5 emptied, the standard start
        // below; Black to move.
        let (_, game) = read_record("(;GM[2]SZ[8]AB[cc:dd]AE[ee];B[fe])").unwrap();
        let start = game.start.unwrap();
        let board = start.as_bytes();
        assert_eq!(
            (board[18], board[19], board[26], board[27]),
            (b'X', b'X', b'X', b'X')
        );
        assert_eq!(
            (board[28], board[35], board[36]),
            (b'X', b'X', b'-'),
            "{start}"
        );
        assert!(start.ends_with(" X"), "{start}");
        assert_eq!(game.moves, ["f5"]);
        // White to move at the standard start.
        let (_, game) = read_record("(;GM[2]SZ[8]PL[W];W[dc])").unwrap();
        assert_eq!(
            game.start.as_deref(),
            Some("---------------------------OX------XO--------------------------- O")
        );
        // The standard start set up stone by stone is no start of its own.
        let (_, game) = read_record("(;GM[2]AB[ed][de]AW[dd][ee]PL[B];B[fe])").unwrap();
        assert_eq!(game.start, None);
    }

    #[test]
    fn othello_comments_are_on_the_position_after_their_node_s_move() {
        let comments = |list: &[(usize, &str)]| -> Vec<(usize, String)> {
            list.iter()
                .map(|&(at, text)| (at, text.to_string()))
                .collect()
        };
        // SGF: on the root; before and after the move in its node; on a
        // node of its own after W's move; `\]` escaped.
        let (_, game) = read_record(
            "(;GM[2]SZ[8]C[start];C[before it]B[fe]C[after \\] it];W[df];C[a node of its own])",
        )
        .unwrap();
        let want = [
            (0, "start"),
            (1, "before it"),
            (1, "after ] it"),
            (2, "a node of its own"),
        ];
        assert_eq!(game.comments, comments(&want));
        // Moves off the board are refused, not written as other points.
        for bad in ["d63", "i5", "d0", "d9", "f5f6"] {
            let e = write_record(RecordFormat::Sgf, &self::game(&[bad])).unwrap_err();
            assert!(e.contains("is not an Othello move"), "{bad}: {e}");
        }
        // Written: one `C` a node, several a blank line apart.
        let text = write_record(RecordFormat::Sgf, &game).unwrap();
        assert!(
            text.contains(
                "RE[?]C[start];B[fe]C[before it\n\nafter \\] it];W[df]C[a node of its own])"
            ),
            "{text}"
        );
        // Othello PGN: before the first move, after a move, after the
        // result (the end's).
        let (_, game) =
            read_record("[Black \"a\"]\n[White \"b\"]\n\n{start} 1. f5 {one} d6 34-30 {end}\n")
                .unwrap();
        assert_eq!(game.moves, ["f5", "d6"]);
        assert_eq!(
            game.comments,
            comments(&[(0, "start"), (1, "one"), (2, "end")])
        );
    }

    #[test]
    fn games_from_another_start_are_written_to_sgf_set_up() {
        // After f5 (Black), White to move: f5 and e5 Black now; then a
        // board with a start square emptied, Black to move.
        let after_f5 = "---------------------------OX------XXX-------------------------- O";
        let emptied = "---------------------------OX-------O--------------------------- X";
        for (start, moves, setup) in [
            (after_f5, &["f6", "e6"][..], "AB[ee][fe]PL[W];W[ff];B[ef])"),
            (emptied, &["c4"][..], "AE[de]PL[B];B[cd])"),
        ] {
            let g = RecordGame {
                start: Some(start.to_string()),
                ..game(moves)
            };
            let text = write_record(RecordFormat::Sgf, &g).unwrap();
            assert!(text.contains(setup), "{text}");
            // Read back: the same start, moves and result, as from GGF.
            assert_eq!(read_record(&text).unwrap(), ("othello", g.clone()));
            let ggf = write_record(RecordFormat::Ggf, &g).unwrap();
            assert_eq!(read_record(&ggf).unwrap().1.start, g.start);
        }
        // Amazons and EinStein records still hold the start position alone.
        let g = RecordGame {
            start: Some(after_f5.to_string()),
            ..game(&["f6"])
        };
        let e = write_record(RecordFormat::CcgcAmazons, &g).unwrap_err();
        assert!(e.contains("only GGF, SGF and PGN"), "{e}");
    }

    /// A transcript with move numbers reads; one with a word that is no
    /// square is refused naming it.
    #[test]
    fn transcripts_with_numbers_and_their_flaws() {
        assert_eq!(
            read_record("1. f5 d6 2. C3 d3\n").unwrap().1.moves,
            ["f5", "d6", "c3", "d3"]
        );
        assert_eq!(
            read_record("f5d6c3d3c4f4f6f3e6e9").unwrap_err(),
            "an Othello transcript whose move 10 ('e9') is not a square (a1 to h8)"
        );
        assert!(read_record("hello")
            .unwrap_err()
            .starts_with("not a record plyd reads (CCGC's #[AM]"));
    }

    #[test]
    fn ggf_results_are_blacks_margin() {
        for (re, result) in [
            ("+12.000", RecordResult::First),
            ("-4", RecordResult::Second),
            ("+0.000", RecordResult::Draw),
            ("0.000", RecordResult::Draw),
            ("+64.000:r", RecordResult::First),
            ("-2.000:t", RecordResult::Second),
            ("+", RecordResult::First),
            ("-", RecordResult::Second),
            ("?", RecordResult::Unknown),
        ] {
            let text = format!("(;GM[Othello]RE[{re}]TY[8]B[F5];)");
            assert_eq!(read_record(&text).unwrap().1.result, result, "RE[{re}]");
        }
        // The margin, where a number gives it.
        for (re, margin) in [
            ("+12.000", Some(12)),
            ("-4", Some(-4)),
            ("0.000", Some(0)),
            ("+64.000:r", None),
            ("-2.000:t", None),
            ("+", None),
            ("+99", None),
        ] {
            let text = format!("(;GM[Othello]RE[{re}]TY[8]B[F5];)");
            assert_eq!(read_record(&text).unwrap().1.margin, margin, "RE[{re}]");
        }
        for (re, margin) in [
            ("B+12", Some(12)),
            ("W+4", Some(-4)),
            ("0", Some(0)),
            ("B+R", None),
            ("W+T", None),
        ] {
            let text = format!("(;GM[2]RE[{re}];B[fe])");
            assert_eq!(read_record(&text).unwrap().1.margin, margin, "RE[{re}]");
        }
    }

    #[test]
    fn othello_pgn_games_read_with_their_disc_counts() {
        let (variant, game) = read_record(
            "[Event \"WC\"]\n[Black \"Inoue\"]\n[White \"Heiberg\"]\n[Result \"16-48\"]\n1. F5 D6\n2. c3 PA {a pass}\n3. f4",
        )
        .unwrap();
        assert_eq!(variant, "othello");
        assert_eq!(
            (game.first.as_str(), game.second.as_str()),
            ("Inoue", "Heiberg")
        );
        assert_eq!(game.moves, ["f5", "d6", "c3", "pass", "f4"]);
        assert_eq!(
            (game.result, game.margin),
            (RecordResult::Second, Some(-32))
        );
        // Counts without the empty squares: those go to the winner.
        let result = |r: &str| {
            let text = format!("[Black \"a\"]\n[Result \"{r}\"]\n\n1. F5 *");
            let game = read_record(&text).unwrap().1;
            (game.result, game.margin)
        };
        assert_eq!(result("30-28"), (RecordResult::First, Some(8)));
        assert_eq!(result("32-32"), (RecordResult::Draw, Some(0)));
        assert_eq!(result("1-0"), (RecordResult::First, None));
        assert_eq!(result("0-1"), (RecordResult::Second, None));
        assert_eq!(result("*"), (RecordResult::Unknown, None));
        // The result after the moves, where no tag gives it.
        let game = read_record("[White \"b\"]\n\n1. F5 D6 33-31\n").unwrap().1;
        assert_eq!((game.moves.len(), game.margin), (2, Some(2)));
        // A game tag names Othello whatever the rest says.
        let game = read_record("[Game \"Reversi\"]\n\n1. f5").unwrap();
        assert_eq!(game.0, "othello");
        // Not Othello: xiangqi's (a Red tag, a four-letter move), or a
        // move that is no square.
        assert_eq!(
            read_record("[Red \"r\"]\n[Black \"b\"]\n\n1. h2e2")
                .unwrap()
                .0,
            "xiangqi"
        );
        assert_eq!(
            read_record("[Black \"b\"]\n[White \"w\"]\n\n1. h2e2").unwrap_err(),
            "a PGN game that does not say it is xiangqi (no Game, Variant, Format or Red tag)"
        );
        let e = read_record("[Game \"Othello\"]\n\n1. F5 Z9").unwrap_err();
        assert!(e.contains("move 2 ('Z9') is not an Othello square"), "{e}");
    }

    #[test]
    fn the_margin_is_written_where_it_agrees_with_the_result() {
        let game = |result, margin| RecordGame {
            result,
            margin,
            moves: vec!["f5".to_string()],
            ..RecordGame::default()
        };
        for (result, margin, ggf, sgf) in [
            (RecordResult::First, Some(12), "RE[+12.000]", "RE[B+12]"),
            (RecordResult::Second, Some(-4), "RE[-4.000]", "RE[W+4]"),
            (RecordResult::Draw, Some(0), "RE[+0.000]", "RE[0]"),
            // No margin, or one the result contradicts: the sign.
            (RecordResult::First, None, "RE[+]", "RE[B+]"),
            (RecordResult::First, Some(-4), "RE[+]", "RE[B+]"),
        ] {
            let g = game(result, margin);
            let text = write_record(RecordFormat::Ggf, &g).unwrap();
            assert!(text.contains(ggf), "{text}");
            let text = write_record(RecordFormat::Sgf, &g).unwrap();
            assert!(text.contains(sgf), "{text}");
            let (_, back) = read_record(&write_record(RecordFormat::Ggf, &g).unwrap()).unwrap();
            assert_eq!(back.result, result);
        }
    }

    /// An Othello PGN's date, site and round go to SGF's `DT`, `PC` and
    /// `RO` (the site was joined to the date in `DT`, the round dropped),
    /// and an SGF's `PC` and `RO` are read back.
    #[test]
    fn sgf_keeps_date_place_and_round_apart() {
        let pgn = "[Event \"Open\"]\n[Site \"Paris\"]\n[Date \"2026.01.01\"]\n[Round \"2\"]\n\
                   [Black \"A\"]\n[White \"B\"]\n[Result \"1-0\"]\n\n1. f5 d6 2. c3 d3\n";
        let (_, game) = read_record(pgn).unwrap();
        let sgf = write_record(RecordFormat::Sgf, &game).unwrap();
        assert!(
            sgf.starts_with("(;GM[2]FF[4]SZ[8]EV[Open]DT[2026.01.01]PC[Paris]RO[2]PB[A]"),
            "{sgf}"
        );
        let (_, back) = read_record(&sgf).unwrap();
        assert_eq!(write_record(RecordFormat::Sgf, &back).unwrap(), sgf);
        // A place with SGF's escape and a bracket in it reads back as
        // the field's text it was written as.
        let (_, odd) = read_record("(;GM[2]FF[4]SZ[8]PC[af|er \\\\ it [x\\]]RO[1];B[fe])").unwrap();
        let sgf = write_record(RecordFormat::Sgf, &odd).unwrap();
        assert!(sgf.contains("PC[af|er / it (x)]RO[1]"), "{sgf}");
        let (_, back) = read_record(&sgf).unwrap();
        assert_eq!(write_record(RecordFormat::Sgf, &back).unwrap(), sgf);
        // A site alone is no date.
        let site_only = pgn.replace("[Date \"2026.01.01\"]\n", "");
        let (_, game) = read_record(&site_only).unwrap();
        let sgf = write_record(RecordFormat::Sgf, &game).unwrap();
        assert!(sgf.contains("EV[Open]PC[Paris]RO[2]PB"), "{sgf}");
    }

    /// A game won otherwise than by the score keeps how it ended in SGF
    /// (`B+R`, `W+T`, `B+F` were written back as `B+` and `W+`), read from
    /// SGF and from GGF's `:r` and `:t`.
    #[test]
    fn sgf_keeps_how_a_game_was_won() {
        for (text, re) in [
            ("(;GM[2]FF[4]SZ[8]RE[B+R];B[fe])", "RE[B+R]"),
            ("(;GM[2]FF[4]SZ[8]RE[W+Time];B[fe])", "RE[W+T]"),
            ("(;GM[2]FF[4]SZ[8]RE[B+F];B[fe])", "RE[B+F]"),
            ("(;GM[2]FF[4]SZ[8]RE[B+12];B[fe])", "RE[B+12]"),
            ("(;GM[Othello]RE[-4.000:t]TY[8]B[F5];)", "RE[W+T]"),
            ("(;GM[Othello]RE[+2.000:r]TY[8]B[F5];)", "RE[B+R]"),
        ] {
            let (_, game) = read_record(text).unwrap();
            let sgf = write_record(RecordFormat::Sgf, &game).unwrap();
            assert!(sgf.contains(re), "{text}: {sgf}");
        }
    }

    #[test]
    fn sgf_records_read_back() {
        let g = game(&["f5", "d6", "c3", "pass"]);
        let text = write_record(RecordFormat::Sgf, &g).unwrap();
        assert!(text.contains(";B[fe];W[df];B[cc];W[])"), "{text}");
        assert_eq!(read_record(&text).unwrap(), ("othello", g));
        let other = read_record("(;GM[2]SZ[8];B[F5];W[tt])").unwrap().1;
        assert_eq!(other.moves, ["f5", "pass"]);
    }

    #[test]
    fn sgf_escapes_several_values_and_variations_are_read() {
        // An escaped `]`, a property of several values, a comment with a
        // `(;`, and variations: the main line is each fork's first.
        let text = "(;GM[2]SZ[8]PB[Bob \\] Smith]C[opening \\] trap (; note]\n\
                    ;B[fe]LB[dd:A][ee:B]TR[cd][ce](;W[df];B[cc])(;W[ff];B[gg]))";
        let (_, read) = read_record(text).unwrap();
        assert_eq!(read.first, "Bob ] Smith");
        assert_eq!(read.moves, ["f5", "d6", "c3"]);
    }

    #[test]
    fn names_with_brackets_and_backslashes_read_back_in_every_format() {
        let mut g = game(&["f5", "d6", "c3", "pass"]);
        g.first = "Zebra [v4.2]".to_string();
        g.second = "C:\\bots\\edax ;)".to_string();
        for format in [RecordFormat::Ggf, RecordFormat::Sgf] {
            let text = write_record(format, &g).unwrap();
            let (_, read) = read_record(&text).unwrap();
            assert_eq!(read.first, "Zebra (v4.2)", "{text}");
            assert_eq!(read.second, "C:/bots/edax ;)", "{text}");
            assert_eq!(read.moves, g.moves, "{text}");
        }
        let mut amazons = game(&["d1d7g7", "g10g8c4"]);
        amazons.first = "Team [A]".to_string();
        amazons.result = RecordResult::First;
        let text = write_record(RecordFormat::CcgcAmazons, &amazons).unwrap();
        let (_, read) = read_record(&text).unwrap();
        assert_eq!(read.first, "Team (A)", "{text}");
        assert_eq!(read.result, RecordResult::First, "{text}");
    }

    /// Xiangqi moves with no tags, in ICCS or WXF as in Chinese: a game
    /// from the start (they were taken for a broken Othello transcript,
    /// `'=5' is not a square`); a true transcript stays Othello's.
    #[test]
    fn xiangqi_moves_without_tags_read_in_any_notation() {
        for text in [
            "1. C2=5 N8+7\n",
            "1. H2-E2 H9-G7\n",
            "h2e2 h9g7\n",
            "1. 炮二平五 马８进７\n",
        ] {
            let (game, record) = read_record(text).unwrap();
            assert_eq!(game, "xiangqi", "{text}");
            assert_eq!(record.moves, ["h2e2", "h9g7"], "{text}");
        }
        assert_eq!(read_record("f5d6c3\n").unwrap().0, "othello");
        // A transcript's passes written out, as some sites write them.
        for text in ["f5 PA d6\n", "f5--d6\n", "f5 pass d6\n", "f5 ps d6\n"] {
            assert_eq!(
                read_record(text).unwrap().1.moves,
                ["f5", "pass", "d6"],
                "{text}"
            );
        }
        let e = read_record("f5 d6 e9\n").unwrap_err();
        assert!(e.contains("Othello transcript whose move 3"), "{e}");
    }

    #[test]
    fn ccgc_result_words_are_read_in_their_usual_forms() {
        for (word, result) in [
            ("先手胜", RecordResult::First),
            ("先手获胜", RecordResult::First),
            ("后手胜利", RecordResult::Second),
            ("後手勝", RecordResult::Second),
            ("和棋", RecordResult::Draw),
            ("平局", RecordResult::Draw),
            ("先手负", RecordResult::Second),
            ("后手负", RecordResult::First),
            ("後手敗", RecordResult::First),
            ("红方胜", RecordResult::First),
            ("蓝方胜", RecordResult::Second),
            ("?", RecordResult::Unknown),
            ("先手", RecordResult::Unknown),
            ("先手认输", RecordResult::Second),
            ("红方超时", RecordResult::Second),
            ("後手認輸", RecordResult::First),
        ] {
            assert_eq!(result_of_word(word), result, "{word}");
        }
    }

    #[test]
    fn ggs_random_starts_with_their_disc_count_are_othello() {
        let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
        for kind in ["8", "8r", "8r20"] {
            let text = format!("(;GM[Othello]TY[{kind}]{start}B[F5];)");
            assert!(read_record(&text).is_ok(), "{kind}");
        }
        for kind in ["s8r20", "8rx", "k8"] {
            let text = format!("(;GM[Othello]TY[{kind}]{start}B[F5];)");
            assert!(read_record(&text).is_err(), "{kind}");
        }
    }

    #[test]
    fn a_ggf_game_ends_at_its_own_end_not_at_a_smiley_in_a_name() {
        let (_, read) = read_record("(;GM[Othello]PB[Bob ;) Smith]TY[8]B[F5]W[D6];)").unwrap();
        assert_eq!(read.first, "Bob ;) Smith");
        assert_eq!(read.moves, ["f5", "d6"]);
    }
}
