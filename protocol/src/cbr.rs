//! CBR and CBL, the xiangqi records of CCBridge (象棋桥): a CBR file
//! holds one game, a CBL file a library of them.
//!
//! A CBR game is a header of 2,214 bytes, then its moves:
//!
//! * `CCBridge Record` and a zero byte (16 bytes);
//! * texts in UTF-16 (little-endian), each in a field of its own, ended
//!   by a zero character where shorter: the title (128 bytes at 180),
//!   the event (692), date (884), site (948),
//!   Red's name (1076) and team (1140), Black's name (1300) and team
//!   (1364), 64 bytes each. What a writer leaves in an unused field need
//!   not be zeros: a text holding control or private-use characters is
//!   taken as empty;
//! * the result at 2076 (1 Red won, 2 Black won, 3 a draw, 4 several
//!   results, 0 not given), the side to move first at 2112 (1 Red, 2
//!   Black);
//! * the board at 2120, 90 bytes, square `9 * row + file` with row 0 the
//!   rank at Black's back: 0x11 to 0x17 Red's rook, horse, elephant,
//!   adviser, king, cannon and pawn, 0x21 to 0x27 Black's, 0 empty;
//! * after the header, the moves as a tree written depth first: four
//!   bytes a record (flags, a spare byte, from and to squares numbered as
//!   the board's), then a comment's length in bytes (32 bits) and its
//!   text where the flags' 0x04 says there is one. The first record is
//!   the start's own (its squares zero), each after it a move. A record
//!   whose flags have 0x01 ends its line; 0x02 says a variation of it
//!   follows the line below it. The main line is therefore the moves up
//!   to the first record with 0x01 (or four zero bytes, or the end of the
//!   record), and what follows is variations, read by
//!   [`read_cbr_variations`].
//!
//! A CBL library is a header of 66,624 bytes (`CCBridgeLibrary` and a
//! zero byte, the number of index entries at 60 as a 32-bit count, the
//! library's name in UTF-16 at 64), an index of 276 bytes an entry (flags,
//! place, the record's length in blocks of 4,096 bytes and in bytes, each
//! a 32-bit count), then the records, each a CBR game, one after another
//! in the index's order, each taking its whole blocks. An entry whose
//! flags lack 0x02 is a deleted game, whose blocks stay (the header's
//! byte 56 says the library holds some).

use crate::records::{comment_text, RecordGame, RecordResult};
use crate::tree::{binary_games, too_many_moves, Header, Tree, LINE_MOVES_LIMIT};
use crate::xqf::{move_text, name, start_of};

/// A CBR game's first bytes.
const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";
/// A CBL library's first bytes.
const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
/// A CBR game's header; its comment and moves follow.
const HEADER: usize = 2214;
/// Where a CBL library's index starts.
const INDEX: usize = 66_624;
/// A CBL index entry.
const ENTRY: usize = 276;
/// A CBL library's records take whole blocks of this many bytes.
const BLOCK: usize = 4096;
/// The most index entries a library is read with: a count past it is no
/// library (the largest seen has 256 entries; this is a file of 1.2 GB
/// of index alone).
const MOST_ENTRIES: usize = 1 << 22;

/// Whether `bytes` is a CBR game.
pub fn is_cbr(bytes: &[u8]) -> bool {
    bytes.starts_with(RECORD_MAGIC)
}

/// Whether `bytes` is a CBL library.
pub fn is_cbl(bytes: &[u8]) -> bool {
    bytes.starts_with(LIBRARY_MAGIC)
}

/// A 32-bit little-endian count at `at`, where the bytes hold one.
fn count_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The UTF-16 units of `bytes` (little-endian) up to the first zero.
fn utf16_units(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .take_while(|&u| u != 0)
        .collect()
}

/// The UTF-16 text of `bytes` up to its first zero character, trimmed;
/// empty where it holds a control or private-use character, or half a
/// surrogate pair: what a writer left in a field it did not fill.
fn text(bytes: &[u8]) -> String {
    match String::from_utf16(&utf16_units(bytes)) {
        Ok(text)
            if !text.chars().any(|c| {
                c.is_control() || matches!(c, '\u{e000}'..='\u{f8ff}' | '\u{fffe}' | '\u{ffff}')
            }) =>
        {
            text.trim().to_string()
        }
        _ => String::new(),
    }
}

/// A square of the board's numbering (`9 * row + file`, row 0 at
/// Black's back) as file and rank from Red's side.
fn square(byte: u8) -> Option<(usize, usize)> {
    (byte < 90).then(|| (usize::from(byte % 9), 9 - usize::from(byte / 9)))
}

/// Read a CBR game (`bytes` may run on past it, as a CBL library's block
/// does): its start, its main line in plyd's moves, result, players,
/// event, date and site.
pub fn read_cbr(bytes: &[u8]) -> Result<RecordGame, String> {
    read(bytes, false, LINE_MOVES_LIMIT).map(|mut games| games.remove(0))
}

/// [`read_cbr`] with every variation too: the main line's game first, then
/// a game for each other line of the move tree (from the start, the
/// result not given), in the order the file writes them.
pub fn read_cbr_variations(bytes: &[u8]) -> Result<Vec<RecordGame>, String> {
    read(bytes, true, LINE_MOVES_LIMIT)
}

/// The main line's game, then the variations' where asked, their lines
/// holding at most `limit` moves.
fn read(bytes: &[u8], variations: bool, limit: usize) -> Result<Vec<RecordGame>, String> {
    if !is_cbr(bytes) {
        return Err("not a CBR game (no 'CCBridge Record')".to_string());
    }
    if bytes.len() < HEADER {
        return Err(format!(
            "the game's header is cut short ({} of {HEADER} bytes)",
            bytes.len()
        ));
    }
    let field = |at: usize, len: usize| text(&bytes[at..at + len]);

    // The start.
    let mut board = [[None::<u8>; 9]; 10];
    for (at, &code) in bytes[2120..2210].iter().enumerate() {
        if code == 0 {
            continue;
        }
        let piece = match code & 0x0f {
            1 => b'R',
            2 => b'N',
            3 => b'B',
            4 => b'A',
            5 => b'K',
            6 => b'C',
            7 => b'P',
            _ => 0,
        };
        let piece = match code >> 4 {
            1 if piece != 0 => piece,
            2 if piece != 0 => piece.to_ascii_lowercase(),
            _ => {
                return Err(format!(
                    "the board holds 0x{code:02x} on {}, which is no piece",
                    name(square(at as u8).expect("90 squares"))
                ))
            }
        };
        let (file, rank) = square(at as u8).expect("90 squares");
        board[rank][file] = Some(piece);
    }

    // The moves: first the start's own record (its squares zero: its
    // flags say whether a comment on the start follows, and whether the
    // line ends before any move), then the main line.
    let mut at = HEADER;
    let mut tree = Tree::new(variations, limit);
    let mut start_record = true;
    while let Some(record) = bytes.get(at..at + 4) {
        at += 4;
        let n = tree.depth() + 1;
        let (flags, from, to) = (record[0], record[2], record[3]);
        if !start_record && record == [0, 0, 0, 0] {
            break;
        }
        let whose = if start_record {
            "the start's".to_string()
        } else {
            format!("move {n}'s")
        };
        let mut comment = None;
        if flags & 0x04 != 0 {
            let len = count_at(bytes, at)
                .ok_or_else(|| format!("the file ends inside {whose} comment length"))?;
            let end = at
                .checked_add(4 + len as usize)
                .filter(|&end| end <= bytes.len())
                .ok_or_else(|| format!("{whose} comment of {len} bytes runs past the file"))?;
            // UTF-16 text, as the header's (control characters, line
            // ends among them, kept for `comment_text`).
            let units = utf16_units(&bytes[at + 4..end]);
            comment = comment_text(&String::from_utf16_lossy(&units));
            at = end;
        }
        let next = flags & 0x01 == 0;
        if std::mem::take(&mut start_record) {
            tree.start_comment(comment);
            if next {
                continue;
            }
            break;
        }
        let mv = move_text(n, from, to, square)?;
        if !tree.record(mv, comment, next, flags & 0x02 != 0)? {
            break;
        }
    }
    let lines = tree.lines();

    // The side to move: the first move's piece's colour; without a move,
    // the header's (2: Black).
    let start = start_of(&board, lines[0].moves.first(), bytes[2112] == 2)?;
    // Red is the first side, whoever moves first.
    let result = match bytes[2076] {
        1 => RecordResult::First,
        2 => RecordResult::Second,
        3 => RecordResult::Draw,
        _ => RecordResult::Unknown,
    };
    let header = Header {
        title: field(180, 128),
        event: field(692, 64),
        date: field(884, 64),
        site: field(948, 64),
        red: field(1076, 64),
        black: field(1300, 64),
        result,
    };
    Ok(binary_games(header, start, lines))
}

/// A CBL library as read.
#[derive(Debug, Default)]
pub struct CblLibrary {
    /// The library's name.
    pub name: String,
    /// Its games in the index's order, each numbered by its place among
    /// the library's entries (from 1), read as [`read_cbr`] reads one or
    /// with why it does not read.
    pub games: Vec<(usize, Result<RecordGame, String>)>,
    /// The entries with no piece on their board: headings of the
    /// library's sections (a title and a comment), not games; numbered
    /// as the games are, with their titles.
    pub headings: Vec<(usize, String)>,
    /// How many deleted games the library still holds (not read, not
    /// numbered).
    pub deleted: usize,
}

/// Read a CBL library: its name, games and headings.
pub fn read_cbl(bytes: &[u8]) -> Result<CblLibrary, String> {
    read_library(bytes, false)
}

/// [`read_cbl`] with every game's variations too: each game's lines as
/// [`read_cbr_variations`] gives them, one after another, each numbered
/// as its game.
pub fn read_cbl_variations(bytes: &[u8]) -> Result<CblLibrary, String> {
    read_library(bytes, true)
}

/// A CBL library, its games' variations too where asked.
fn read_library(bytes: &[u8], variations: bool) -> Result<CblLibrary, String> {
    if !is_cbl(bytes) {
        return Err("not a CBL library (no 'CCBridgeLibrary')".to_string());
    }
    let entries = count_at(bytes, 60).ok_or("the library's header is cut short")? as usize;
    if entries > MOST_ENTRIES {
        return Err(format!("an index of {entries} entries is no library's"));
    }
    let name = text(
        bytes
            .get(64..576)
            .ok_or("the library's header is cut short")?,
    );
    let mut at = INDEX + entries * ENTRY;
    if at > bytes.len() {
        return Err(format!(
            "the index of {entries} entries runs past the file ({} bytes)",
            bytes.len()
        ));
    }
    let mut library = CblLibrary {
        name,
        ..CblLibrary::default()
    };
    let mut n = 0;
    let mut room = LINE_MOVES_LIMIT;
    for entry in 0..entries {
        let place = INDEX + entry * ENTRY;
        let flags = count_at(bytes, place).expect("inside the index");
        let blocks = count_at(bytes, place + 8).expect("inside the index") as usize;
        if blocks == 0 {
            continue;
        }
        let deleted = flags & 0x02 == 0;
        if !deleted {
            n += 1;
        }
        let Some(end) = blocks
            .checked_mul(BLOCK)
            .and_then(|len| at.checked_add(len))
            .filter(|&end| end <= bytes.len())
        else {
            let why = format!("its {blocks} blocks run past the file");
            library.games.push((n, Err(why)));
            break;
        };
        let record = &bytes[at..end];
        at = end;
        if deleted {
            library.deleted += 1;
            continue;
        }
        // A record takes a block at least, past the header's board.
        if is_cbr(record) && record[2120..2210].iter().all(|&b| b == 0) {
            library.headings.push((n, text(&record[180..308])));
            continue;
        }
        // The library's lines together hold at most LINE_MOVES_LIMIT
        // moves: past that, the whole library is refused.
        match read(record, variations, room) {
            Ok(games) => {
                room -= games.iter().map(|g| g.moves.len()).sum::<usize>();
                library
                    .games
                    .extend(games.into_iter().map(|game| (n, Ok(game))));
            }
            Err(e) if e == too_many_moves(variations, "its") => {
                return Err(too_many_moves(variations, "the games'"));
            }
            Err(e) => library.games.push((n, Err(e))),
        }
    }
    Ok(library)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str) -> Vec<u8> {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    /// A CBR game as CCBridge lays one out: `board` by the format's
    /// squares, `moves` its main line (from, to, comment), then a
    /// variation of the first move (read with the variations only).
    fn cbr(board: &[(u8, u8)], red_to_move: bool, moves: &[(u8, u8, &str)], result: u8) -> Vec<u8> {
        let mut bytes = vec![0u8; HEADER];
        bytes[..16].copy_from_slice(RECORD_MAGIC);
        let mut put = |at: usize, text: &str| {
            let t = utf16(text);
            bytes[at..at + t.len()].copy_from_slice(&t);
        };
        put(180, "第1局");
        put(692, "全国赛");
        put(884, "1981-7-15");
        put(948, "承德");
        put(1076, "胡荣华");
        put(1300, "丁如意");
        // Garbage left in an unused field: not a name.
        bytes[1140..1144].copy_from_slice(&[0x34, 0xe9, 0x13, 0x00]);
        bytes[2076] = result;
        bytes[2112] = if red_to_move { 1 } else { 2 };
        for &(at, code) in board {
            bytes[2120 + usize::from(at)] = code;
        }
        bytes.extend(4u32.to_le_bytes());
        let comment = utf16("对局前");
        bytes.extend((comment.len() as u32).to_le_bytes());
        bytes.extend(comment);
        for (i, &(from, to, comment)) in moves.iter().enumerate() {
            let last = i + 1 == moves.len();
            let flags =
                u8::from(last) | (u8::from(i == 0) * 0x02) | (u8::from(!comment.is_empty()) * 0x04);
            bytes.extend([flags, 0, from, to]);
            if !comment.is_empty() {
                let c = utf16(comment);
                bytes.extend((c.len() as u32).to_le_bytes());
                bytes.extend(c);
            }
        }
        // The variation of the first move: another first move.
        bytes.extend([0x01, 0, 64, 66]);
        bytes
    }

    /// The standard start by the format's squares (row 0 Black's back).
    fn start() -> Vec<(u8, u8)> {
        let back = [1u8, 2, 3, 4, 5, 4, 3, 2, 1];
        let mut board = Vec::new();
        for (file, &kind) in back.iter().enumerate() {
            board.push((file as u8, 0x20 | kind));
            board.push((81 + file as u8, 0x10 | kind));
        }
        for file in [1u8, 7] {
            board.push((18 + file, 0x26));
            board.push((63 + file, 0x16));
        }
        for file in [0u8, 2, 4, 6, 8] {
            board.push((27 + file, 0x27));
            board.push((54 + file, 0x17));
        }
        board
    }

    #[test]
    fn a_cbr_game_reads_its_main_line_names_and_result() {
        // 炮二平五 马８进７ 马二进三: h2e2 h9g7 h0g2, by the format's
        // squares 70-67, 7-24, 88-69.
        let bytes = cbr(
            &start(),
            true,
            &[(70, 67, ""), (7, 24, "好"), (88, 69, "")],
            1,
        );
        let game = read_cbr(&bytes).unwrap();
        assert_eq!(game.start, None);
        assert_eq!(game.moves, ["h2e2", "h9g7", "h0g2"]);
        // The start's comment and the second move's.
        assert_eq!(
            game.comments,
            [(0, "对局前".to_string()), (2, "好".to_string())]
        );
        assert_eq!(
            (game.first.as_str(), game.second.as_str()),
            ("胡荣华", "丁如意")
        );
        assert_eq!(game.result, RecordResult::First);
        assert_eq!(game.event, "全国赛");
        assert_eq!(game.date_place, "1981-7-15 承德");
        // 3 a draw; 4 (several results) and 0 give none.
        for (byte, result) in [
            (2, RecordResult::Second),
            (3, RecordResult::Draw),
            (4, RecordResult::Unknown),
            (0, RecordResult::Unknown),
        ] {
            let bytes = cbr(&start(), true, &[(70, 67, "")], byte);
            assert_eq!(read_cbr(&bytes).unwrap().result, result);
        }
    }

    #[test]
    fn a_set_up_position_takes_its_side_from_the_first_move_or_the_header() {
        // Red king e0 (85), rook a0 (81); Black king d9 (3).
        let board = [(85, 0x15), (81, 0x11), (3, 0x25)];
        let game = read_cbr(&cbr(&board, false, &[(3, 12, "")], 0)).unwrap();
        assert_eq!(game.start.as_deref(), Some("3k5/9/9/9/9/9/9/9/9/R3K4 b"));
        assert_eq!(game.moves, ["d9d8"]);
        // Without moves, the header's side; Black also where its general
        // stands attacked.
        let mut bytes = cbr(&board, false, &[], 0);
        bytes.truncate(HEADER);
        assert_eq!(
            read_cbr(&bytes).unwrap().start.as_deref(),
            Some("3k5/9/9/9/9/9/9/9/9/R3K4 b")
        );
        bytes[2112] = 1;
        assert_eq!(
            read_cbr(&bytes).unwrap().start.as_deref(),
            Some("3k5/9/9/9/9/9/9/9/9/R3K4 w")
        );
        bytes[2120 + 84] = 0x11; // a Red rook on d0: Black's king attacked
        assert_eq!(
            read_cbr(&bytes).unwrap().start.as_deref(),
            Some("3k5/9/9/9/9/9/9/9/9/R2RK4 b")
        );
    }

    #[test]
    fn a_start_record_that_ends_the_line_leaves_no_moves() {
        // The start's record: a comment, and the line ends (0x05); the
        // records after it are not the main line's.
        let mut bytes = cbr(&start(), true, &[(70, 67, "")], 0);
        bytes[HEADER] = 0x05;
        let game = read_cbr(&bytes).unwrap();
        assert!(game.moves.is_empty(), "{:?}", game.moves);
        // A start record without a comment, then the moves.
        let mut bytes = cbr(&start(), true, &[], 0);
        bytes.truncate(HEADER);
        bytes.extend([0, 0, 0, 0, 0x01, 0, 70, 67]);
        assert_eq!(read_cbr(&bytes).unwrap().moves, ["h2e2"]);
    }

    #[test]
    fn broken_games_are_refused_with_what_is_wrong() {
        let good = cbr(&start(), true, &[(70, 67, "注"), (7, 24, "")], 1);
        assert!(read_cbr(&good[..100]).unwrap_err().contains("cut short"));
        let mut bad = good.clone();
        bad[2120 + 40] = 0x18;
        assert!(
            read_cbr(&bad).unwrap_err().contains("no piece"),
            "{:?}",
            read_cbr(&bad)
        );
        // A comment's length past the end.
        let mut bad = good.clone();
        let first = HEADER + 4 + 4 + 6;
        bad[first + 4..first + 8].copy_from_slice(&1000u32.to_le_bytes());
        assert!(read_cbr(&bad).unwrap_err().contains("runs past"));
        // A square off the board; a first move from an empty square.
        let mut bad = good.clone();
        bad[first + 3] = 95;
        assert!(read_cbr(&bad)
            .unwrap_err()
            .contains("not both on the board"));
        let mut bad = good;
        bad[first + 2] = 40;
        assert!(read_cbr(&bad).unwrap_err().contains("no piece on e5"));
        assert!(read_cbr(b"XQ").is_err());
    }

    /// A CBL library named `1981年邀请赛` of four entries, `games` in the
    /// first, each with the blocks it takes.
    fn library(games: &[(&[u8], usize)]) -> Vec<u8> {
        let mut bytes = vec![0u8; INDEX];
        bytes[..16].copy_from_slice(LIBRARY_MAGIC);
        bytes[60..64].copy_from_slice(&4u32.to_le_bytes());
        let name = utf16("1981年邀请赛");
        bytes[64..64 + name.len()].copy_from_slice(&name);
        let mut index = vec![0u8; 4 * ENTRY];
        let mut records = Vec::new();
        for (i, &(game, blocks)) in games.iter().enumerate() {
            let entry = &mut index[i * ENTRY..];
            entry[..4].copy_from_slice(&7u32.to_le_bytes());
            entry[4..8].copy_from_slice(&(i as u32).to_le_bytes());
            entry[8..12].copy_from_slice(&(blocks as u32).to_le_bytes());
            entry[12..16].copy_from_slice(&(game.len() as u32).to_le_bytes());
            let mut record = game.to_vec();
            record.resize(blocks * BLOCK, 0);
            records.extend(record);
        }
        bytes.extend(index);
        bytes.extend(records);
        bytes
    }

    #[test]
    fn a_librarys_lines_of_too_many_moves_in_all_are_refused() {
        // A game of 1,500 moves each with an alternative: lines of about
        // 1.1 million moves in all; two such games pass the limit.
        let n = 1_500;
        let mut game = cbr(&start(), true, &[], 1);
        game.truncate(HEADER);
        game.extend([0, 0, 0, 0]);
        let rooks = [(81u8, 72u8), (0, 9), (72, 81), (9, 0)];
        for i in 0..n {
            let (from, to) = rooks[i % 4];
            game.extend([0x02 | u8::from(i + 1 == n), 0, from, to]);
        }
        for i in 0..n {
            let (from, to) = rooks[(n - 1 - i) % 4];
            game.extend([0x01, 0, from, to]);
        }
        let blocks = game.len().div_ceil(BLOCK);
        let one = read_cbl_variations(&library(&[(&game, blocks)])).unwrap();
        assert_eq!(one.games.len(), n + 1);
        assert!(one.games.iter().all(|(_, g)| g.is_ok()));
        let Err(e) = read_cbl_variations(&library(&[(&game, blocks), (&game, blocks)])) else {
            panic!("read whole");
        };
        assert!(e.contains("more than 2000000 moves in all"), "{e}");
        // Their main lines alone read.
        let two = read_cbl(&library(&[(&game, blocks), (&game, blocks)])).unwrap();
        assert_eq!(two.games.len(), 2);
    }

    #[test]
    fn a_cbl_library_reads_every_indexed_game_in_order() {
        let games = [
            cbr(&start(), true, &[(70, 67, "")], 1),
            cbr(&start(), true, &[(64, 67, ""), (7, 24, "")], 3),
        ];
        // The first game in two blocks, the second in one; the last two
        // entries unused.
        let bytes = library(&[(&games[0], 2), (&games[1], 1)]);
        let library = read_cbl(&bytes).unwrap();
        assert_eq!(library.name, "1981年邀请赛");
        let read: Vec<RecordGame> = library
            .games
            .into_iter()
            .enumerate()
            .map(|(i, (n, game))| {
                assert_eq!(n, i + 1);
                game.unwrap()
            })
            .collect();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].moves, ["h2e2"]);
        assert_eq!(read[1].moves, ["b2e2", "h9g7"]);
        assert_eq!(read[1].result, RecordResult::Draw);
        // Cut short inside the second game's block.
        let cut = &bytes[..bytes.len() - 10];
        let games = read_cbl(cut).unwrap().games;
        assert!(games[0].1.is_ok());
        assert!(games[1]
            .1
            .as_ref()
            .unwrap_err()
            .contains("run past the file"));
        // A heading: an entry whose board holds no piece, with a title.
        let mut heading = bytes.clone();
        let second = INDEX + 4 * ENTRY + 2 * BLOCK;
        heading[second + 2120..second + 2210].fill(0);
        let library = read_cbl(&heading).unwrap();
        assert_eq!(library.games.len(), 1);
        assert_eq!(library.headings, [(2, "第1局".to_string())]);
        // A deleted game: its blocks skipped, not numbered.
        let mut deleted = bytes.clone();
        deleted[INDEX..INDEX + 4].copy_from_slice(&5u32.to_le_bytes());
        let library = read_cbl(&deleted).unwrap();
        assert_eq!(library.deleted, 1);
        assert_eq!(library.games.len(), 1);
        assert_eq!(library.games[0].0, 1);
        assert_eq!(library.games[0].1.as_ref().unwrap().moves, ["b2e2", "h9g7"]);
        // An index past the file, or no library at all.
        let mut huge = bytes.clone();
        huge[60..64].copy_from_slice(&100_000u32.to_le_bytes());
        assert!(read_cbl(&huge).unwrap_err().contains("runs past the file"));
        huge[60..64].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_cbl(&huge).is_err());
        assert!(read_cbl(&bytes[..40]).is_err());
        assert!(read_cbl(b"CCBridge Record\0").is_err());
    }
}
