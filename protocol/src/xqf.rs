//! XQF, the binary xiangqi record of XQStudio and the Chinese programs
//! that followed it (one game a file, `.xqf`).
//!
//! A file is a header of 1,024 bytes, then the moves:
//!
//! * `XQ` and the format's version (10 for XQF 1.0, up to 18);
//! * from version 11 on, key bytes (offsets 3 and 8-15) from which the
//!   rest is shifted: the start's squares by one key, each move's from and
//!   to squares by two more, every byte after the header by a stream of 32
//!   keys, and the comments' lengths by a number of their own;
//! * the start: 32 bytes, one for each piece in a fixed order (Red's
//!   rooks, horses, elephants, advisers and king, then cannons and pawns;
//!   Black's the same), each square `10 * file + rank` from Red's lower
//!   left, more than 89 for a piece not on the board; from version 12 the
//!   32 bytes are also rotated by the key;
//! * the result (0x33: 1 Red won, 2 Black won, 3 or 4 a draw) and the
//!   texts, each a length byte then GBK text: title (0x50), event (0xD0),
//!   date (0x110), site (0x120), Red (0x130), Black (0x140);
//! * from 0x400, the moves as a tree written depth first: each a record of
//!   four bytes (from + 24, to + 32, flags, one spare), a comment's length
//!   and text where the flags say there is one (always in version 10), the
//!   first record the start itself. A record whose flags say it has a
//!   next move is followed by it; the main line is therefore the records
//!   from the first up to the first without a next move, and what follows
//!   is variations (flags 0x0f in version 10, 0x40 from 11: an
//!   alternative to the move follows the line below it), read by
//!   [`read_xqf_variations`].
//!
//! The side to move at the start is the colour of the first move's piece
//! (Red where there is no move), as XQStudio's readers take it.

use std::collections::HashMap;

use crate::records::{comment_text, RecordGame, RecordResult};
use crate::tree::{binary_games, Header, Line, MoveTree, Tree, LINE_MOVES_LIMIT};
use crate::xiangqi_pgn::XIANGQI_START;

/// The header's length; the moves start after it.
const HEADER: usize = 0x400;

/// The pieces of the start's 32 bytes, in their order.
const PIECES: &[u8; 32] = b"RNBAKABNRCCPPPPPrnbakabnrccppppp";

/// The mask of the moves' key stream (version 11 on): a key byte is kept
/// only where the mask's byte has it.
const STREAM_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Whether `bytes` is an XQF file: `XQ` and a whole header.
pub fn is_xqf(bytes: &[u8]) -> bool {
    bytes.len() >= HEADER && bytes.starts_with(b"XQ")
}

/// The keys of a file of version 11 or later, all zero before.
#[derive(Debug, Clone, Copy, Default)]
struct Keys {
    /// Subtracted from each start square.
    pieces: u8,
    /// Subtracted from each move's from square (after its 24).
    from: u8,
    /// Subtracted from each move's to square (after its 32).
    to: u8,
    /// Subtracted from each comment's length.
    comment: u32,
    /// Subtracted from the bytes after the header, in turn.
    stream: [u8; 32],
}

impl Keys {
    fn of(header: &[u8]) -> Keys {
        if header[2] < 11 {
            return Keys::default();
        }
        // Each key is a byte of the header through the same quadratic,
        // times the key before it (the first times its own byte).
        let shifted = |seed: u8, by: u8| -> u8 {
            let s = u32::from(seed);
            (54 * s * s + 221).wrapping_mul(u32::from(by)) as u8
        };
        let pieces = shifted(header[13], header[13]);
        let from = shifted(header[14], pieces);
        let to = shifted(header[15], from);
        let comment = (u32::from(header[12]) * 256 + u32::from(header[13])) % 32000 + 767;
        let mut stream = [0u8; 32];
        for (i, key) in stream.iter_mut().enumerate() {
            let part = header[8 + i % 4] | (header[12 + i % 4] & header[3]);
            *key = part & STREAM_MASK[i];
        }
        Keys {
            pieces,
            from,
            to,
            comment,
            stream,
        }
    }
}

/// The bytes after the header, read in turn with the key stream taken off.
struct Moves<'a> {
    bytes: &'a [u8],
    at: usize,
    keys: &'a Keys,
}

impl Moves<'_> {
    fn take(&mut self, n: usize) -> Option<Vec<u8>> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())?;
        let out = (self.at..end)
            .map(|i| self.bytes[i].wrapping_sub(self.keys.stream[i % 32]))
            .collect();
        self.at = end;
        Some(out)
    }

    fn number(&mut self) -> Option<u32> {
        let b = self.take(4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// A square, file and rank, from its XQF byte (`10 * file + rank`, at most
/// 89; more is a piece off the board).
fn square(byte: u8) -> Option<(usize, usize)> {
    (byte <= 89).then_some((usize::from(byte / 10), usize::from(byte % 10)))
}

/// A square's name in plyd's moves (`e0`).
pub(crate) fn name((file, rank): (usize, usize)) -> String {
    format!("{}{rank}", char::from(b'a' + file as u8))
}

/// Move `n` of a binary record (XQF, CBR) in plyd's notation (`h2e2`), its
/// squares' bytes `from` and `to` read by the format's `square`.
pub(crate) fn move_text(
    n: usize,
    from: u8,
    to: u8,
    square: fn(u8) -> Option<(usize, usize)>,
) -> Result<String, String> {
    let (Some(from_square), Some(to_square)) = (square(from), square(to)) else {
        return Err(format!(
            "move {n}: squares {from} and {to} are not both on the board (0-89)"
        ));
    };
    Ok(format!("{}{}", name(from_square), name(to_square)))
}

/// Read an XQF file's game: its start, its main line in plyd's moves,
/// result, players and event. `decode` turns the header's texts (GBK as
/// XQStudio writes them) into text.
pub fn read_xqf(bytes: &[u8], decode: &dyn Fn(&[u8]) -> String) -> Result<RecordGame, String> {
    read(bytes, decode, false).map(|mut games| games.remove(0))
}

/// [`read_xqf`] with every variation too: the main line's game first, then
/// a game for each other line of the file's move tree (from the start,
/// the result not given), in the order the file writes them.
pub fn read_xqf_variations(
    bytes: &[u8],
    decode: &dyn Fn(&[u8]) -> String,
) -> Result<Vec<RecordGame>, String> {
    read(bytes, decode, true)
}

/// The main line's game, then the variations' where asked.
fn read(
    bytes: &[u8],
    decode: &dyn Fn(&[u8]) -> String,
    variations: bool,
) -> Result<Vec<RecordGame>, String> {
    if !is_xqf(bytes) {
        return Err("not an XQF file (no 'XQ' and 1,024-byte header)".to_string());
    }
    let header = &bytes[..HEADER];
    let version = header[2];
    let keys = Keys::of(header);

    // The start.
    let mut at = [0u8; 32];
    for (i, &raw) in header[16..48].iter().enumerate() {
        let place = if version >= 12 {
            (usize::from(keys.pieces) + 1 + i) % 32
        } else {
            i
        };
        at[place] = raw.wrapping_sub(keys.pieces);
    }
    let mut board = [[None::<u8>; 9]; 10];
    for (piece, &byte) in PIECES.iter().zip(&at) {
        if let Some((file, rank)) = square(byte) {
            if let Some(other) = board[rank][file] {
                return Err(format!(
                    "the start puts '{}' and '{}' both on {}",
                    char::from(other),
                    char::from(*piece),
                    name((file, rank))
                ));
            }
            board[rank][file] = Some(*piece);
        }
    }

    // The moves: the main line, and the variations where asked.
    let mut stream = Moves {
        bytes: &bytes[HEADER..],
        at: 0,
        keys: &keys,
    };
    let mut tree = Tree::new(variations, LINE_MOVES_LIMIT);
    // The first record is the start's own, with its comment.
    let mut start_record = true;
    loop {
        let n = tree.depth() + usize::from(!start_record);
        let Some(record) = stream.take(4) else {
            if start_record && stream.at == 0 {
                // A header alone: a position and no moves.
                break;
            }
            return Err(format!("the file ends inside the record of move {n}"));
        };
        let comment = if version < 11 {
            stream.number()
        } else if record[2] & 0x20 != 0 {
            stream.number().map(|len| len.wrapping_sub(keys.comment))
        } else {
            Some(0)
        };
        let len =
            comment.ok_or_else(|| format!("the file ends inside move {n}'s comment length"))?;
        let comment = stream
            .take(len as usize)
            .ok_or_else(|| format!("move {n}'s comment of {len} bytes runs past the file"))?;
        let comment = (!comment.is_empty()).then_some(comment);
        let (next, alternative) = if version < 11 {
            (record[2] & 0xf0 != 0, record[2] & 0x0f != 0)
        } else {
            (record[2] & 0x80 != 0, record[2] & 0x40 != 0)
        };
        if std::mem::take(&mut start_record) {
            tree.start_comment(comment);
            if next {
                continue;
            }
            break;
        }
        let from = record[0].wrapping_sub(24).wrapping_sub(keys.from);
        let to = record[1].wrapping_sub(32).wrapping_sub(keys.to);
        if !tree.record(move_text(n, from, to, square)?, comment, next, alternative)? {
            break;
        }
    }
    // The texts: the header's fields (each a length byte, then GBK text
    // up to the first zero byte) and the comments, read together.
    let field = |offset: usize, room: usize| {
        let len = usize::from(header[offset]).min(room);
        let raw = &header[offset + 1..offset + 1 + len];
        raw.split(|&b| b == 0).next().unwrap_or(&[]).to_vec()
    };
    let fields = [
        field(0x50, 63),
        field(0xd0, 63),
        field(0x110, 15),
        field(0x120, 15),
        field(0x130, 15),
        field(0x140, 15),
    ];
    let ([title, event, date, site, red, black], lines) = read_texts(fields, tree.lines(), decode);

    // Red moves first unless the first move is Black's; without a move,
    // unless the header says Black (0x32), or Black's general stands
    // attacked (a diagram of a mate, drawn after it).
    let start = start_of(&board, lines[0].moves.first(), header[0x32] == 1)?;

    // Red is the first side, whoever moves first.
    let result = match header[0x33] {
        1 => RecordResult::First,
        2 => RecordResult::Second,
        3 | 4 => RecordResult::Draw,
        _ => RecordResult::Unknown,
    };
    let header = Header {
        title,
        event,
        date,
        site,
        red,
        black,
        result,
    };
    Ok(binary_games(header, start, lines))
}

/// The header's `fields` and the comments of `lines` read as text by
/// `decode`: each alone, then all that read alone without a replacement
/// character together, so that they read in one encoding (a short text's
/// bytes alone may read as another: GBK's `注1` is UTF-8's `ע1`). The
/// fields trimmed; the comments as [`comment_text`] gives them, their
/// zero bytes left out.
fn read_texts<const N: usize>(
    fields: [Vec<u8>; N],
    lines: Vec<Line<Vec<u8>>>,
    decode: &dyn Fn(&[u8]) -> String,
) -> ([String; N], Vec<Line>) {
    // The fields, then every comment once (its zero bytes left out); the
    // lines' comments as places in that list.
    let mut raw: Vec<Vec<u8>> = fields.to_vec();
    let mut place: HashMap<Vec<u8>, usize> = HashMap::new();
    let lines: Vec<Line<usize>> = lines
        .into_iter()
        .map(|line| Line {
            comments: line
                .comments
                .into_iter()
                .map(|(at, bytes)| {
                    let plain: Vec<u8> = bytes.into_iter().filter(|&b| b != 0).collect();
                    let i = *place.entry(plain).or_insert_with_key(|plain| {
                        raw.push(plain.clone());
                        raw.len() - 1
                    });
                    (at, i)
                })
                .collect(),
            moves: line.moves,
        })
        .collect();
    let mut texts: Vec<String> = raw.iter().map(|bytes| decode(bytes)).collect();
    let sound: Vec<usize> = (0..raw.len())
        .filter(|&i| !raw[i].is_empty() && !texts[i].contains('\u{fffd}'))
        .collect();
    let together: Vec<&[u8]> = sound.iter().map(|&i| &raw[i][..]).collect();
    let joined = decode(&together.join(&0u8));
    let pieces: Vec<&str> = joined.split('\0').collect();
    if pieces.len() == sound.len() && !joined.contains('\u{fffd}') {
        for (piece, &i) in pieces.iter().zip(&sound) {
            texts[i] = piece.to_string();
        }
    }
    let fields = std::array::from_fn(|i| texts[i].trim().to_string());
    let comments: Vec<Option<String>> = texts.iter().map(|t| comment_text(t)).collect();
    let lines = lines
        .into_iter()
        .map(|line| Line {
            comments: line
                .comments
                .into_iter()
                .filter_map(|(at, i)| Some((at, comments[i].clone()?)))
                .collect(),
            moves: line.moves,
        })
        .collect();
    (fields, lines)
}

/// Write `game` (xiangqi, plyd's moves from its start) as an XQF 1.0
/// file, version 10 without keys, as the format's description lays it
/// out: every XQF reader reads it. `encode` turns the names and event into
/// the bytes XQStudio reads (GBK); each is cut to its field's room at a
/// character's end.
pub fn write_xqf(game: &RecordGame, encode: &dyn Fn(&str) -> Vec<u8>) -> Result<Vec<u8>, String> {
    write_xqf_tree(game, &[], encode)
}

/// The header's text fields [`write_xqf_tree`] fills from `game`: each
/// one's name (as a note names it), offset, room in bytes and text. The
/// record's own date and site where it kept them apart (a PGN or XQF game
/// read), else its when and where as the date (no site then).
fn header_texts(game: &RecordGame) -> [(&'static str, usize, usize, Option<&str>); 5] {
    let (date, site) = match (game.tag("Date"), game.tag("Site")) {
        (None, None) => (game.date_place.as_str(), None),
        (date, site) => (date.unwrap_or(""), Some(site.unwrap_or(""))),
    };
    [
        ("Event", 0xd0, 63, Some(game.event.as_str())),
        ("Date", 0x110, 15, Some(date)),
        ("Site", 0x120, 15, site),
        ("Red", 0x130, 15, Some(game.first.as_str())),
        ("Black", 0x140, 15, Some(game.second.as_str())),
    ]
}

/// What an XQF file of `game` leaves out, in words, for a note: each name,
/// event, date or site cut to its field's room (15 bytes, the event 63, as
/// `encode` writes them), and the record's tags that XQF has no field for.
/// Empty where the file keeps everything.
pub fn xqf_losses(game: &RecordGame, encode: &dyn Fn(&str) -> Vec<u8>) -> Vec<String> {
    let mut lost = Vec::new();
    for (what, _, room, text) in header_texts(game) {
        let Some(text) = text else { continue };
        if encode(text).len() > room {
            lost.push(format!("{what} '{text}' cut to {room} bytes"));
        }
    }
    let kept = [
        "Date", "Site", "Event", "Red", "Black", "Result", "FEN", "Format", "Game",
    ];
    let dropped: Vec<&str> = game
        .tags
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| !kept.iter().any(|k| k.eq_ignore_ascii_case(name)))
        .collect();
    if !dropped.is_empty() {
        lost.push(format!("no XQF field for {}", dropped.join(", ")));
    }
    lost
}

/// [`write_xqf`] with `variations`: other lines from the game's start
/// (their moves and comments), written into the file's move tree beside
/// the game's moves, its main line; a line that another begins with adds
/// nothing. Comments are written with the move before them (GBK, by
/// `encode`).
pub fn write_xqf_tree(
    game: &RecordGame,
    variations: &[RecordGame],
    encode: &dyn Fn(&str) -> Vec<u8>,
) -> Result<Vec<u8>, String> {
    let mut header = vec![0u8; HEADER];
    header[..3].copy_from_slice(b"XQ\x0a");
    // The start: each piece to the first free place of its kind.
    let fen = game.start.as_deref().unwrap_or(XIANGQI_START);
    let placement = fen.split_whitespace().next().unwrap_or("");
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 10 {
        return Err(format!("'{fen}' is not a xiangqi position of 10 ranks"));
    }
    let mut places = [0xffu8; 32];
    for (i, row) in rows.iter().enumerate() {
        let rank = 9 - i;
        let mut file = 0usize;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as usize;
                continue;
            }
            let piece = match c {
                'h' | 'H' => {
                    if c.is_ascii_uppercase() {
                        'N'
                    } else {
                        'n'
                    }
                }
                'e' | 'E' => {
                    if c.is_ascii_uppercase() {
                        'B'
                    } else {
                        'b'
                    }
                }
                c => c,
            };
            let free = PIECES
                .iter()
                .zip(&places)
                .position(|(&p, &at)| char::from(p) == piece && at == 0xff)
                .ok_or_else(|| format!("'{fen}': no place in XQF's 32 for another '{c}'"))?;
            if file > 8 {
                return Err(format!("'{fen}': a rank of more than 9 files"));
            }
            places[free] = (10 * file + rank) as u8;
            file += 1;
        }
    }
    header[16..48].copy_from_slice(&places);
    header[0x33] = match game.result {
        RecordResult::First => 1,
        RecordResult::Second => 2,
        RecordResult::Draw => 3,
        RecordResult::Unknown => 0,
    };
    // A full game, or one from a set position (an endgame's file); Black
    // to move there (read from the first move, or this byte without one).
    header[0x40] = if game.start.is_some() { 3 } else { 0 };
    header[0x32] = u8::from(fen.split_whitespace().nth(1) == Some("b"));
    let mut field = |offset: usize, room: usize, text: &str| {
        let mut bytes = Vec::new();
        for c in text.chars() {
            let more = encode(c.encode_utf8(&mut [0u8; 4]));
            if bytes.len() + more.len() > room {
                break;
            }
            bytes.extend(more);
        }
        header[offset] = bytes.len() as u8;
        header[offset + 1..offset + 1 + bytes.len()].copy_from_slice(&bytes);
    };
    for (_, offset, room, text) in header_texts(game) {
        if let Some(text) = text {
            field(offset, room, text);
        }
    }
    // The start's record, then a record a move, depth first: a move, the
    // moves after it, then its alternatives; each of four bytes, then its
    // comment's length (32 bits) and text, the lines ended as Windows ends
    // them.
    let lines = std::iter::once(game)
        .chain(variations)
        .map(|g| (&g.moves[..], &g.comments[..]));
    let tree = MoveTree::new(lines);
    let mut bytes = header;
    let flags = |next: bool, alternative: bool| {
        (if next { 0xf0 } else { 0 }) | if alternative { 0x0f } else { 0 }
    };
    let comment = |bytes: &mut Vec<u8>, node: usize| {
        let text = encode(&tree.comments(node).join("\n").replace('\n', "\r\n"));
        bytes.extend((text.len() as u32).to_le_bytes());
        bytes.extend(text);
    };
    let first = !tree.children(0).is_empty();
    bytes.extend([0x18, 0x20, flags(first, false), 0xff]);
    comment(&mut bytes, 0);
    for (node, next, alternative) in tree.depth_first() {
        let mv = tree.mv(node);
        let squares = xiangqi_squares(mv)
            .ok_or_else(|| format!("move {} ('{mv}') is not a xiangqi move", tree.depth(node)))?;
        let [from, to] = squares.map(|(file, rank)| (10 * file + rank) as u8);
        bytes.extend([from + 24, to + 32, flags(next, alternative), 0]);
        comment(&mut bytes, node);
    }
    Ok(bytes)
}

/// The from and to squares of a move in plyd's notation (`h2e2`).
pub(crate) fn xiangqi_squares(mv: &str) -> Option<[(usize, usize); 2]> {
    let b = mv.as_bytes();
    let square = |file: u8, rank: u8| {
        (matches!(file, b'a'..=b'i') && rank.is_ascii_digit())
            .then(|| (usize::from(file - b'a'), usize::from(rank - b'0')))
    };
    if b.len() != 4 {
        return None;
    }
    Some([square(b[0], b[1])?, square(b[2], b[3])?])
}

/// The start of a game read from `board`, `None` for the standard
/// start: the side to move is the colour of the first move's piece; with
/// no move, Black where the file says so (`black_said`) or where Black's
/// general stands attacked (a diagram of a mate, drawn after it), else
/// Red.
pub(crate) fn start_of(
    board: &[[Option<u8>; 9]; 10],
    first: Option<&String>,
    black_said: bool,
) -> Result<Option<String>, String> {
    let red_first = match first.and_then(|mv| xiangqi_squares(mv)) {
        None => !black_said && !general_attacked(board, false),
        Some([(file, rank), _]) => match board[rank][file] {
            Some(piece) => piece.is_ascii_uppercase(),
            None => {
                return Err(format!(
                    "move 1 ({}): no piece on {}",
                    first.map_or("", |m| m.as_str()),
                    name((file, rank))
                ))
            }
        },
    };
    let fen = fen(board, red_first);
    Ok((fen != XIANGQI_START).then_some(fen))
}

/// The FEN of `board` (`board[rank][file]`, rank 0 Red's back rank).
fn fen(board: &[[Option<u8>; 9]; 10], red_to_move: bool) -> String {
    let mut rows = Vec::new();
    for row in board.iter().rev() {
        let mut text = String::new();
        let mut empty = 0;
        for square in row {
            match square {
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(char::from(*piece));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        rows.push(text);
    }
    format!("{} {}", rows.join("/"), if red_to_move { "w" } else { "b" })
}

/// Whether the general of `red` (Red's, else Black's) is attacked by a
/// rook, cannon, horse, pawn or the other general.
fn general_attacked(board: &[[Option<u8>; 9]; 10], red: bool) -> bool {
    let own = |piece: u8| piece.is_ascii_uppercase() == red;
    let mut general = None;
    for (rank, row) in board.iter().enumerate() {
        for (file, square) in row.iter().enumerate() {
            if matches!(square, Some(p) if own(*p) && p.eq_ignore_ascii_case(&b'k')) {
                general = Some((file as i32, rank as i32));
            }
        }
    }
    let Some((gf, gr)) = general else {
        return false;
    };
    let at = |file: i32, rank: i32| -> Option<Option<u8>> {
        ((0..9).contains(&file) && (0..10).contains(&rank))
            .then(|| board[rank as usize][file as usize])
    };
    let enemy = |square: Option<u8>, kind: u8| matches!(square, Some(p) if !own(p) && p.eq_ignore_ascii_case(&kind));
    // Along the four lines: the first piece met (a rook, or the general
    // on the file), and the one after a screen (a cannon).
    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let mut screens = 0;
        let (mut f, mut r) = (gf + df, gr + dr);
        while let Some(square) = at(f, r) {
            if let Some(piece) = square {
                if screens == 0
                    && (enemy(Some(piece), b'r') || (df == 0 && enemy(Some(piece), b'k')))
                {
                    return true;
                }
                if screens == 1 && enemy(Some(piece), b'c') {
                    return true;
                }
                screens += 1;
                if screens > 1 {
                    break;
                }
            }
            f += df;
            r += dr;
        }
    }
    // Horses: a knight's step away, the leg beside the horse empty.
    for (df, dr) in [
        (1, 2),
        (-1, 2),
        (1, -2),
        (-1, -2),
        (2, 1),
        (2, -1),
        (-2, 1),
        (-2, -1),
    ] {
        let (hf, hr) = (gf + df, gr + dr);
        if at(hf, hr).is_some_and(|square| enemy(square, b'n')) {
            let leg = if i32::abs(dr) == 2 {
                (hf, hr - dr / 2)
            } else {
                (hf - df / 2, hr)
            };
            if at(leg.0, leg.1) == Some(None) {
                return true;
            }
        }
    }
    // Pawns: from in front of the general (as the enemy moves), or beside
    // it (an enemy pawn across the river, which a pawn beside a general
    // always is).
    let ahead = if red { 1 } else { -1 };
    [(0, ahead), (1, 0), (-1, 0)]
        .into_iter()
        .any(|(df, dr)| at(gf + df, gr + dr).is_some_and(|square| enemy(square, b'p')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }

    /// A move record: from and to squares (`10 * file + rank`), whether
    /// another record follows as its next move and as its variation, and
    /// its comment.
    struct Record {
        from: u8,
        to: u8,
        next: bool,
        variation: bool,
        comment: &'static [u8],
    }

    fn record(from: u8, to: u8, next: bool) -> Record {
        Record {
            from,
            to,
            next,
            variation: false,
            comment: b"",
        }
    }

    /// An XQF file as XQStudio writes one: `keys` are the header's bytes 3
    /// and 8-15 (ignored before version 11), `start` the 32 squares in
    /// the pieces' order (0xff for a piece not on the board), `records`
    /// the start's record and the moves.
    fn xqf(version: u8, keys: [u8; 9], start: &[u8; 32], records: &[Record]) -> Vec<u8> {
        let mut header = vec![0u8; HEADER];
        header[..2].copy_from_slice(b"XQ");
        header[2] = version;
        if version >= 11 {
            header[3] = keys[0];
            header[8..16].copy_from_slice(&keys[1..]);
        }
        let k = Keys::of(&header);
        for i in 0..32 {
            let square = if version >= 12 {
                start[(usize::from(k.pieces) + 1 + i) % 32]
            } else {
                start[i]
            };
            header[16 + i] = square.wrapping_add(k.pieces);
        }
        header[0x130] = 3;
        header[0x131..0x134].copy_from_slice(b"Red");
        header[0x140] = 5;
        header[0x141..0x146].copy_from_slice(b"Black");
        let mut body = Vec::new();
        for r in records {
            let flags = if version < 11 {
                if r.next {
                    0xf0
                } else {
                    0
                }
            } else {
                u8::from(r.next) * 0x80
                    + u8::from(r.variation) * 0x40
                    + u8::from(!r.comment.is_empty()) * 0x20
            };
            body.extend([
                r.from.wrapping_add(24).wrapping_add(k.from),
                r.to.wrapping_add(32).wrapping_add(k.to),
                flags,
                0,
            ]);
            if version < 11 {
                body.extend((r.comment.len() as u32).to_le_bytes());
            } else if !r.comment.is_empty() {
                body.extend(
                    (r.comment.len() as u32)
                        .wrapping_add(k.comment)
                        .to_le_bytes(),
                );
            }
            body.extend(r.comment);
        }
        for (i, byte) in body.iter_mut().enumerate() {
            *byte = byte.wrapping_add(k.stream[i % 32]);
        }
        header.extend(body);
        header
    }

    /// The standard start in the pieces' order, as the XQF 1.0 description
    /// gives it (each side's pieces from its right).
    const START: [u8; 32] = [
        80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59, 69,
        79, 89, 17, 77, 6, 26, 46, 66, 86,
    ];

    #[test]
    fn an_xqf_1_0_game_reads_from_the_standard_start() {
        // 兵七进一 马８进７ 兵三进一 炮２平３, the example's first moves,
        // after the start's record (0x18 0x20 0xF0 0xFF: a next move).
        let moves = [(23, 24), (79, 67), (63, 64), (17, 27)];
        let mut records = vec![record(0, 0, true)];
        for (i, &(from, to)) in moves.iter().enumerate() {
            records.push(record(from, to, i + 1 < moves.len()));
        }
        records[2].comment = "好棋".as_bytes();
        let mut bytes = xqf(10, [0; 9], &START, &records);
        bytes[0x33] = 2;
        let game = read_xqf(&bytes, &utf8).unwrap();
        assert_eq!(game.start, None);
        assert_eq!(game.moves, ["c3c4", "h9g7", "g3g4", "b7c7"]);
        assert_eq!(
            (game.first.as_str(), game.second.as_str()),
            ("Red", "Black")
        );
        assert_eq!(game.result, RecordResult::Second);
        // The second move's comment, on the position after it.
        assert_eq!(game.comments, [(2, "好棋".to_string())]);
        // A file of the header alone, or the start's record without a
        // next move: the start and no moves.
        for bytes in [
            xqf(10, [0; 9], &START, &[]),
            xqf(10, [0; 9], &START, &[record(0, 0, false)]),
        ] {
            assert!(read_xqf(&bytes, &utf8).unwrap().moves.is_empty());
        }
    }

    #[test]
    fn the_keys_follow_the_header_bytes() {
        let mut header = vec![0u8; HEADER];
        header[2] = 18;
        header[3] = 0x0f; // the mask
        header[8..12].copy_from_slice(&[0x10, 0x20, 0x40, 0x80]);
        header[12..16].copy_from_slice(&[0, 1, 2, 3]);
        let keys = Keys::of(&header);
        // (54 * 1 + 221) * 1 = 275; (54 * 4 + 221) * 19 = 8303;
        // (54 * 9 + 221) * 111 = 78477; all modulo 256.
        assert_eq!((keys.pieces, keys.from, keys.to), (19, 111, 141));
        assert_eq!(keys.comment, 768); // (0 * 256 + 1) % 32000 + 767
                                       // Key bytes 0x10, 0x21, 0x42, 0x83, each through the mask's byte.
        let expected: Vec<u8> = STREAM_MASK
            .iter()
            .zip([0x10u8, 0x21, 0x42, 0x83].iter().cycle())
            .map(|(m, k)| m & k)
            .collect();
        assert_eq!(keys.stream.to_vec(), expected);
        // Version 10 has no keys.
        header[2] = 10;
        assert_eq!(Keys::of(&header).stream, [0; 32]);
    }

    #[test]
    fn keyed_files_read_their_set_up_position_main_line_and_no_variation() {
        // Red: king e0, rook a0; Black: king d9, which moves first, and
        // a pawn on e3.
        let mut start = [0xffu8; 32];
        start[4] = 40; // Red's king e0
        start[0] = 0; // a Red rook on a0
        start[20] = 39; // Black's king d9
        start[27] = 43; // a Black pawn e3
        let main = [(39, 38), (0, 8), (38, 39)];
        let mut records = vec![Record {
            comment: b"start",
            ..record(0, 0, true)
        }];
        for (i, &(from, to)) in main.iter().enumerate() {
            records.push(Record {
                // A variation after the second move: written after the
                // main line's rest, and not read.
                variation: i == 1,
                comment: if i == 0 { b"first" } else { b"" },
                ..record(from, to, i + 1 < main.len())
            });
        }
        records.push(record(0, 1, false));
        for version in [11, 12, 16, 18] {
            let keys = [0x5a, 7, 0x33, 0x81, 0xc4, 200, 17, 99, 250];
            let bytes = xqf(version, keys, &start, &records);
            let game = read_xqf(&bytes, &utf8).unwrap_or_else(|e| panic!("{version}: {e}"));
            assert_eq!(
                game.start.as_deref(),
                Some("3k5/9/9/9/9/9/4p4/9/9/R3K4 b"),
                "version {version}"
            );
            assert_eq!(game.moves, ["d9d8", "a0a8", "d8d9"], "version {version}");
            // The comments, keyed as the moves are.
            let comments = [(0, "start".to_string()), (1, "first".to_string())];
            assert_eq!(game.comments, comments, "version {version}");
            // With the variations: the second move's alternative, after
            // the main line, from the same start, its result not given.
            let games = read_xqf_variations(&bytes, &utf8).unwrap();
            let lines: Vec<&[String]> = games.iter().map(|g| g.moves.as_slice()).collect();
            assert_eq!(
                lines,
                [&["d9d8", "a0a8", "d8d9"][..], &["d9d8", "a0a1"][..]]
            );
            assert_eq!(games[1].start, game.start);
            assert_eq!(games[1].result, RecordResult::Unknown);
            // The variation shares the comments of the moves before it.
            assert_eq!(games[1].comments, comments);
        }
    }

    #[test]
    fn lines_of_too_many_moves_in_all_are_refused() {
        // 2,000 moves each with an alternative: 2,001 lines of up to
        // 2,000 moves, about 2 million moves in all, from 32 KB.
        let n = 2_000;
        let rooks = [(0u8, 1u8), (9, 8), (1, 0), (8, 9)];
        let mut records = vec![record(0, 0, true)];
        for i in 0..n {
            let (from, to) = rooks[i % 4];
            records.push(Record {
                variation: true,
                ..record(from, to, i + 1 < n)
            });
        }
        for i in 0..n {
            let (from, to) = rooks[(n - 1 - i) % 4];
            records.push(record(from, to, false));
        }
        let keys = [0x5a, 7, 0x33, 0x81, 0xc4, 200, 17, 99, 250];
        let bytes = xqf(18, keys, &START, &records);
        let Err(e) = read_xqf_variations(&bytes, &utf8) else {
            panic!("read whole");
        };
        assert!(e.contains("more than 2000000 moves in all"), "{e}");
        // The main line alone reads.
        assert_eq!(read_xqf(&bytes, &utf8).unwrap().moves.len(), n);
    }

    #[test]
    fn comments_are_read_as_one_text_and_written_back() {
        // A decoder that guesses, as plyd's does: UTF-8 where the bytes
        // are, else one character a byte. D7 A2 31 alone is UTF-8 (as
        // GBK's `注1` is); read with the file's other comment, which is
        // not, it is read the same way as that one.
        let guess = |bytes: &[u8]| match std::str::from_utf8(bytes) {
            Ok(text) => text.to_string(),
            Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
        };
        let mut records = vec![record(0, 0, true)];
        let moves = [(23, 24), (79, 67)];
        for (i, &(from, to)) in moves.iter().enumerate() {
            records.push(record(from, to, i + 1 < moves.len()));
        }
        records[1].comment = b"\xd7\xa21";
        records[2].comment = b"\xc6\xe5 \r\n}\x01 ";
        let bytes = xqf(10, [0; 9], &START, &records);
        let game = read_xqf(&bytes, &guess).unwrap();
        assert_eq!(
            game.comments,
            [
                (1, "\u{d7}\u{a2}1".to_string()),
                (2, "\u{c6}\u{e5} \n)".to_string())
            ]
        );
        // Alone, the first is UTF-8.
        records[2].comment = b"";
        let alone = read_xqf(&xqf(10, [0; 9], &START, &records), &guess).unwrap();
        assert_eq!(alone.comments, [(1, "\u{5e2}1".to_string())]);
        // Written with the moves, line ends as Windows ends them.
        let written = write_xqf(&game, &|t: &str| t.as_bytes().to_vec()).unwrap();
        assert!(written.windows(4).any(|w| w == b" \r\n)"));
        let back = read_xqf(&written, &utf8).unwrap();
        assert_eq!(back.comments, game.comments);
    }

    #[test]
    fn a_position_without_moves_has_the_side_the_header_or_the_board_says() {
        let mut start = [0xffu8; 32];
        start[4] = 40; // Red's king e0
        start[20] = 39; // Black's king d9
        start[0] = 19; // a Red rook on b9: Black's king attacked
        let game = read_xqf(&xqf(10, [0; 9], &start, &[]), &utf8).unwrap();
        assert_eq!(game.start.as_deref(), Some("1R1k5/9/9/9/9/9/9/9/9/4K4 b"));
        start[0] = 18; // the rook on b8: nothing attacked, Red's move
        let mut bytes = xqf(10, [0; 9], &start, &[]);
        assert!(read_xqf(&bytes, &utf8)
            .unwrap()
            .start
            .unwrap()
            .ends_with(" w"));
        bytes[0x32] = 1; // unless the header says Black
        assert!(read_xqf(&bytes, &utf8)
            .unwrap()
            .start
            .unwrap()
            .ends_with(" b"));
    }

    #[test]
    fn games_written_read_back() {
        let game = RecordGame {
            first: "柳大华".to_string(),
            second: "a name longer than fifteen bytes".to_string(),
            result: RecordResult::Second,
            event: "全国赛".to_string(),
            date_place: "1997".to_string(),
            moves: vec!["c3c4".to_string(), "h9g7".to_string(), "h2e2".to_string()],
            ..RecordGame::default()
        };
        let bytes = write_xqf(&game, &|t: &str| t.as_bytes().to_vec()).unwrap();
        assert!(is_xqf(&bytes));
        let back = read_xqf(&bytes, &utf8).unwrap();
        assert_eq!(back.moves, game.moves);
        assert_eq!((back.start, back.result), (None, RecordResult::Second));
        assert_eq!(back.first, "柳大华");
        // Cut at a character's end to the field's 15 bytes, and said.
        assert_eq!(back.second, "a name longer t");
        assert_eq!(back.event, "全国赛");
        let bytes = |t: &str| t.as_bytes().to_vec();
        assert_eq!(
            xqf_losses(&game, &bytes),
            ["Black 'a name longer than fifteen bytes' cut to 15 bytes"]
        );
        // Tags with no field are named; those it has are not.
        let tagged = RecordGame {
            tags: vec![
                ("Date".to_string(), "1997".to_string()),
                ("Round".to_string(), "5".to_string()),
                ("ECCO".to_string(), "C70".to_string()),
            ],
            ..game.clone()
        };
        assert_eq!(
            xqf_losses(&tagged, &bytes)[1],
            "no XQF field for Round, ECCO"
        );
        let fits = RecordGame {
            second: "a name".to_string(),
            ..game.clone()
        };
        assert!(xqf_losses(&fits, &bytes).is_empty());
        // From a set position with Black to move, with and without moves.
        for moves in [vec!["d9d8".to_string(), "a0a8".to_string()], vec![]] {
            let set = RecordGame {
                start: Some("3k5/9/9/9/9/9/4p4/9/9/R3K4 b".to_string()),
                moves: moves.clone(),
                ..RecordGame::default()
            };
            let back = read_xqf(
                &write_xqf(&set, &|t: &str| t.as_bytes().to_vec()).unwrap(),
                &utf8,
            )
            .unwrap();
            assert_eq!((back.start, back.moves), (set.start, moves));
        }
        let e = write_xqf(
            &RecordGame {
                start: Some("RRR1k4/9/9/9/9/9/9/9/9/4K4 w".to_string()),
                ..RecordGame::default()
            },
            &|t: &str| t.as_bytes().to_vec(),
        )
        .unwrap_err();
        assert!(e.contains("no place in XQF's 32 for another 'R'"), "{e}");
    }

    #[test]
    fn broken_files_are_refused_with_what_is_wrong() {
        let moves = [
            record(0, 0, true),
            record(23, 24, true),
            record(79, 67, false),
        ];
        let whole = xqf(18, [0, 1, 2, 3, 4, 5, 6, 7, 8], &START, &moves);
        let cut = read_xqf(&whole[..whole.len() - 2], &utf8).unwrap_err();
        assert!(cut.contains("ends inside the record of move 2"), "{cut}");
        let off = xqf(
            10,
            [0; 9],
            &START,
            &[record(0, 0, true), record(23, 95, false)],
        );
        let off = read_xqf(&off, &utf8).unwrap_err();
        assert!(off.contains("move 1: squares 23 and 95"), "{off}");
        let empty = xqf(
            10,
            [0; 9],
            &START,
            &[record(0, 0, true), record(44, 45, false)],
        );
        let empty = read_xqf(&empty, &utf8).unwrap_err();
        assert!(empty.contains("no piece on e4"), "{empty}");
        let mut twice = START;
        twice[1] = 0;
        let twice = read_xqf(&xqf(10, [0; 9], &twice, &[]), &utf8).unwrap_err();
        assert!(twice.contains("both on a0"), "{twice}");
        let long = Record {
            comment: b"x",
            ..record(0, 0, false)
        };
        let mut bytes = xqf(10, [0; 9], &START, &[long]);
        bytes[HEADER + 4] = 200; // a comment longer than the file
        assert!(read_xqf(&bytes, &utf8)
            .unwrap_err()
            .contains("runs past the file"));
        assert!(!is_xqf(b"XQ short"));
        assert!(read_xqf(&[0u8; 2000], &utf8).is_err());
    }
}
